import Foundation
import SpatialModel

/// A §4 checklist item: guidance that a person has to review.
public struct ManualReviewItem: Sendable {
    public var id: String
    public var summary: String
    public var source: String
}

/// A catalog rule that the scene data cannot check yet, listed so reports can say what was not checked.
public struct UncheckedRule: Sendable {
    public var id: String
    public var source: String
    /// The scene data the check would need (hig-rules §1, "Scene data" column).
    public var needs: String
}

/// Every rule spatialcheck implements, plus what it does not check.
public enum RuleCatalog {
    /// Implemented rules, in catalog order (categories of hig-rules §1, then priority).
    public static let rules: [RuleMetadata] = [
        FovImportantCentered.metadata, FovLaunchPlacement.metadata, FovNoHeadTurn.metadata, FovHeadLocked.metadata,
        FovVerticalComfort.metadata, FovWindowClutter.metadata,
        TargetCenterSpacing.metadata, TargetNoOverlap.metadata, TargetHitRegionVisionOS.metadata,
        TargetHitRegionIOS.metadata, TargetLargeHoverPadding.metadata, TargetSmallInRow.metadata,
        TargetHoverFeedback.metadata, TargetIndirectAvailable.metadata,
        DepthMinReadingDistance.metadata, DepthNearBriefOnly.metadata, DepthTextFlat.metadata,
        DepthWindowContentExtent.metadata, DepthLayerCount.metadata,
        BoundaryHeadExit.metadata, BoundaryFadeZone.metadata, BoundaryStyleVsLocomotion.metadata,
        ImmersionRangeValid.metadata, ImmersionLaunchStyle.metadata, ImmersionUserInitiated.metadata,
        MotionPeripheral.metadata, MotionTooFast.metadata,
        TypeMinSize.metadata, TypeLegibleAcrossScale.metadata, TypeBillboard.metadata,
        EnvGroundPlane.metadata, ArFrameRate.metadata,
        MotionVection.metadata, MotionReduceMotion.metadata, MotionFlashing.metadata,
        WinContentInBounds.metadata, WinControlsKeepout.metadata, VolScaleMode.metadata, OrnWidth.metadata,
        VideoUserStart.metadata, A11yCaptions.metadata,
        // Issue 17 (r17a): accessibility, contrast, reach, exits and transitions.
        A11yLabels.metadata, TypeContrast.metadata, TypeTabLabels.metadata,
        TargetDirectReach.metadata, TargetHandKeepout.metadata,
        ImmersionExitAffordance.metadata, ImmersionTransitionSmooth.metadata,
        ArScreenClutter.metadata, ArMinimizeWorldText.metadata, ArComfortDistance.metadata, ArSafetyMovement.metadata,
        ArCoachingShown.metadata, ArCoachingHideUI.metadata, ArGestureProximity.metadata, ArScaleNotDistance.metadata,
        ArReferenceImageLimit.metadata, ArCriticalTextScreenSpace.metadata, ArPlacementIndicator.metadata,
        ArScalingAppropriate.metadata, ArRelocalizationHide.metadata, ArResetCancel.metadata,
        SheetSingle.metadata, PopoverSingle.metadata, SheetCoverage.metadata, AlertButtons.metadata,
        ContextMenuHeight.metadata, SliderHorizontal.metadata, TypeLightWeight.metadata, WinGlassBackground.metadata,
        OrnCountVisible.metadata, TypeFreeFloating.metadata, TypeColorWeight.metadata, TbNotVertical.metadata,
        PageControlNonInteractive.metadata,
        TargetIconHelpText.metadata, TypeTooltipLength.metadata, TypeTitleLength.metadata, TargetProminentCount.metadata,
        WinOpaqueArea.metadata, TbNoPulldown.metadata, DepthModalForward.metadata,
        EnvArkitRequiresFullSpace.metadata,
        FovPostureVariants.metadata,
    ]

    public static var allRuleIDs: [String] { rules.map(\.id) }

    public static func metadata(id: String) -> RuleMetadata? { rules.first { $0.id == id } }

    /// Catalog rules (hig-rules §1) not implemented, with the data they would need.
    public static var notChecked: [UncheckedRule] {
        let done = Set(allRuleIDs)
        return catalogRows.filter { !done.contains($0.id) }.map { UncheckedRule(id: $0.id, source: $0.source, needs: $0.needs) }
    }
}

/// The processors of every implemented rule.
enum RuleFactories {
    static var all: [RuleFactory] {
        var f: [RuleFactory] = [
            RuleFactory(ids: [TargetCenterSpacing.metadata.id, TargetNoOverlap.metadata.id, TargetLargeHoverPadding.metadata.id]) {
                TargetPairAnalyzer($0)
            },
            RuleFactory(ids: [TargetHitRegionVisionOS.metadata.id]) { makeHitRegionRule($0, ios: false) },
            RuleFactory(ids: [TargetHitRegionIOS.metadata.id]) { makeHitRegionRule($0, ios: true) },
            RuleFactory(ids: [TargetSmallInRow.metadata.id]) { SmallInRowRule($0) },
        ]
        f += fovFactories()
        f += inputFactories()
        f += depthFactories()
        f += immersionFactories()
        f += motionTypeFactories()
        f += windowFactories()
        f += presentationFactories()
        f += controlContentFactories()
        f += mediaFactories()
        f += comfortMotionFactories()
        f += accessibilityFactories()
        f += reachFactories()
        f += immersionTransitionFactories()
        f += arkitFactories()
        f += fullSpaceFactories()
        f += postureFactories()
        return f
    }
}

// MARK: - Machine-readable form

/// One parameter in the JSON form of the catalog.
public struct RuleParameterEntry: Sendable {
    public var key: String
    public var defaultValue: Double
    public var unit: String
    /// `HIG`, `CFG` or `EXT`.
    public var origin: String
    public var justification: String?
    public var summary: String
}

/// One rule in the JSON form of the catalog (field order = suggested JSON key order).
public struct RuleCatalogEntry: Sendable {
    public var id: String
    public var name: String
    public var category: String
    public var defaultSeverity: String
    public var platforms: [String]
    public var unit: String
    public var summary: String
    public var rationale: String
    public var fixHint: String
    public var parameters: [RuleParameterEntry]
    /// `page › section · seed` strings, and the matching HIG URLs.
    public var citations: [String]
    public var urls: [String]
    public var help: String
    public var examples: [String]
    public var notes: [String]
}

extension RuleCatalog {
    public static func entries() -> [RuleCatalogEntry] {
        rules.map { m in
            RuleCatalogEntry(
                id: m.id, name: m.name, category: m.category.rawValue, defaultSeverity: m.defaultSeverity.rawValue,
                platforms: m.platforms.map(\.rawValue), unit: m.unit, summary: m.summary, rationale: m.rationale,
                fixHint: m.fixHint,
                parameters: m.parameters.map {
                    RuleParameterEntry(key: $0.key, defaultValue: $0.defaultValue, unit: $0.unit, origin: $0.origin.tag,
                                       justification: $0.origin.justification, summary: $0.summary)
                },
                citations: m.citations.map(\.displayText), urls: m.citations.map(\.url), help: m.help,
                examples: [m.failExample, m.passExample], notes: m.notes.map(forPeople))
        }
    }

    // MARK: - Text rendering

    /// `spatialcheck rules`: every rule with category, default severity, thresholds and HIG source,
    /// then the rules not checked and the manual-review checklist.
    public static func renderList() -> String {
        var out: [String] = []
        let idWidth = rules.map(\.id.count).max() ?? 0
        for cat in RuleCategory.allCases {
            let rs = rules.filter { $0.category == cat }
            guard !rs.isEmpty else { continue }
            out.append("\(cat.rawValue)")
            for m in rs {
                let thresholds = m.parameters.map { "\($0.key)=\(fmt($0.defaultValue)) \($0.unit) (\($0.origin.tag))" }
                    .joined(separator: ", ")
                let platforms = m.platforms == [.visionOS] ? "" : " [\(m.platforms.map(\.rawValue).joined(separator: ", "))]"
                out.append("  \(m.id.padding(toLength: idWidth, withPad: " ", startingAt: 0))  \(m.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(m.name)\(platforms)")
                if !thresholds.isEmpty { out.append("      thresholds: \(thresholds)") }
                out.append("      source: \(m.citations.map(\.displayText).joined(separator: "; "))")
            }
            out.append("")
        }
        out.append("Not checked (the scene data does not describe what they need): \(notChecked.count) rules")
        out.append("  " + notChecked.map(\.id).joined(separator: ", "))
        out.append("")
        out.append("Manual review (\(manualReview.count) items a person has to check):")
        for item in manualReview { out.append("  \(item.id): \(item.summary) (\(forPeople(item.source)))") }
        return out.joined(separator: "\n") + "\n"
    }

    /// `spatialcheck rules --manual`: what no tool checks, for a person to review: the catalog
    /// rules not implemented (with their HIG source and the scene data they would need), then the
    /// manual-review checklist.
    public static func renderNotChecked() -> String {
        var out: [String] = []
        out.append("Not checked by any rule (\(notChecked.count) catalog rules; the scene format does not describe what they need yet):")
        for u in notChecked { out.append("  \(u.id): \(forPeople(u.source)); needs \(u.needs)") }
        out.append("")
        out.append("Manual review (\(manualReview.count) items a person has to check):")
        for item in manualReview { out.append("  \(item.id): \(item.summary) (\(forPeople(item.source)))") }
        return out.joined(separator: "\n") + "\n"
    }

    /// `spatialcheck explain RULE`: what the rule measures, why, its parameters, fix and example scenes.
    /// `checkout`: the spatialcheck package checkout the running binary was built in, when known;
    /// the examples are then named by their paths there (when they exist), which a person who
    /// built the tool can open and check, instead of by their paths in the source repository.
    public static func renderExplanation(id: String, checkout: String? = nil) throws -> String {
        guard let m = metadata(id: id) else {
            if let u = notChecked.first(where: { $0.id == id }) {
                return "\(u.id): not checked by spatialcheck yet.\n  source: \(forPeople(u.source))\n  it needs: \(u.needs)\n"
            }
            if let mr = manualReview.first(where: { $0.id == id }) {
                return "\(mr.id): manual review item.\n  \(mr.summary)\n  source: \(forPeople(mr.source))\n"
            }
            let ids = allRuleIDs + notChecked.map(\.id) + manualReview.map(\.id)
            throw UnknownRule(id: id, suggestion: closestMatch(to: id, in: ids) ?? containingEveryWord(of: id, in: ids))
        }
        var out: [String] = []
        out.append("\(m.id): \(m.name)")
        out.append("category: \(m.category.rawValue)   default severity: \(m.defaultSeverity.rawValue)   platforms: \(m.platforms.map(\.rawValue).joined(separator: ", "))")
        out.append("")
        out.append("What it measures")
        out.append("  \(m.summary)")
        for n in m.notes { out.append("  - \(forPeople(n))") }
        out.append("")
        out.append("Why")
        out.append("  \(m.rationale)")
        for c in m.citations { out.append("  HIG: \(c.displayText)  \(c.url)") }
        out.append("")
        if !m.parameters.isEmpty {
            out.append("Parameters (set in .spatialcheck.yaml under rules: \(m.id): {...})")
            for p in m.parameters {
                let key = p.key == m.thresholdKey ? "\(p.key) (threshold)" : p.key
                var line = "  \(key) = \(fmt(p.defaultValue)) \(p.unit)  [\(p.origin.tag)] \(p.summary)"
                if let j = p.origin.justification { line += "; \(j)" }
                out.append(line)
            }
            out.append("")
        }
        out.append("Fix")
        out.append("  \(m.fixHint)")
        out.append("")
        // The example scenes are files of the source repository, not of the binary: say where.
        let base = checkout.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        if let base, FileManager.default.fileExists(atPath: base + m.failExample), FileManager.default.fileExists(atPath: base + m.passExample) {
            out.append("Examples (in the spatialcheck checkout this binary was built in)")
            out.append("  fails: \(Escape.text(base + m.failExample))")
            out.append("  passes: \(Escape.text(base + m.passExample))")
            out.append("  See the finding: spatialcheck validate \(Escape.shellWord(base + m.failExample))")
        } else {
            out.append("Examples (in the spatialcheck source repository)")
            out.append("  fails: \(m.failExample)")
            out.append("  passes: \(m.passExample)")
        }
        out.append("  A starter scene of your own: spatialcheck init --example")
        return out.joined(separator: "\n") + "\n"
    }
}

/// The shortest id (then the first in order) that contains every word of `query` ("target-spacing"
/// → "target-center-spacing"), for a suggestion when the spelling is too far for `closestMatch`.
func containingEveryWord(of query: String, in ids: [String]) -> String? {
    let words = query.lowercased().split(whereSeparator: { $0 == "-" || $0 == " " || $0 == "_" }).map(String.init)
    guard !words.isEmpty else { return nil }
    return ids.filter { id in words.allSatisfy { id.contains($0) } }.min { ($0.count, $0) < ($1.count, $1) }
}

/// `explain` of an id that is neither a rule, an unchecked catalog rule, nor a manual-review item.
public struct UnknownRule: Error, Sendable, CustomStringConvertible {
    public var id: String
    public var suggestion: String?
    public var description: String {
        "unknown rule '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; run 'spatialcheck rules' for the list")
    }
}
