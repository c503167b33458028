import Foundation
import Testing
@testable import Rules
import SpatialModel

@Suite struct RuleCatalogTests {
    @Test func everyRuleIsSelfDescribing() {
        let ids = RuleCatalog.allRuleIDs
        #expect(Set(ids).count == ids.count)
        for m in RuleCatalog.rules {
            #expect(!m.name.isEmpty && !m.summary.isEmpty && !m.rationale.isEmpty && !m.fixHint.isEmpty, "\(m.id)")
            #expect(!m.citations.isEmpty, "\(m.id) has no citation")
            #expect(m.citations.allSatisfy { $0.url.hasPrefix("https://developer.apple.com/design/human-interface-guidelines/") })
            #expect(!m.platforms.isEmpty)
            // The contract's units (cli-and-report.md), plus m/s (looming), % (window coverage),
            // Hz (flashes per second), m/s² (acceleration), ratio (contrast) and weight (font weight
            // classes): docs/reports.md lists the extension.
            let units: Set = ["pt", "pt_eq", "m", "deg", "deg/s", "s", "count", "diopter", "fps", "m/s", "%", "Hz", "m/s²", "ratio", "weight"]
            #expect(units.contains(m.unit), "\(m.id) unit \(m.unit)")
            for sub in m.subchecks { #expect(units.contains(sub.unit), "\(m.id) \(sub.name) unit \(sub.unit)") }
            #expect(Set(m.subchecks.map(\.name)).count == m.subchecks.count, "\(m.id) sub-check names repeat")
            if let k = m.thresholdKey { #expect(m.parameter(k) != nil, "\(m.id) threshold key \(k)") }
            for p in m.parameters {
                if case .hig = p.origin { continue }
                #expect(!(p.origin.justification ?? "").isEmpty, "\(m.id).\(p.key) needs a justification")
            }
            let prefix = m.id.split(separator: "-").first.map(String.init) ?? ""
            #expect(["fov", "target", "depth", "boundary", "immersion", "motion", "type", "env", "ar", "sheet", "popover", "alert", "ctxmenu", "slider", "tb", "pagecontrol",
                     "win", "vol", "orn", "video", "a11y"].contains(prefix))
        }
    }

    @Test func everyRuleHasExampleScenesOnDisk() {
        for m in RuleCatalog.rules {
            for path in [m.failExample, m.passExample] {
                #expect(FileManager.default.fileExists(atPath: TestPaths.repo(path)), "missing \(path)")
            }
        }
    }

    @Test func everyRuleRunsInTheEngine() {
        // Each rule id maps to a processor (a rule without one would never report).
        let scene = Scene(path: "x", platform: .visionOS)
        let e = RuleEngine(scene: scene)
        #expect(e.rules.count == RuleCatalog.rules.filter { $0.applies(to: .visionOS) }.count)
    }

    @Test func manualReviewAndUncheckedLists() {
        #expect(RuleCatalog.manualReview.count == 69)
        #expect(RuleCatalog.manualReview.allSatisfy { $0.id.hasPrefix("mr-") && !$0.summary.isEmpty && !$0.source.isEmpty })
        let unchecked = Set(RuleCatalog.notChecked.map(\.id))
        #expect(unchecked.isDisjoint(with: RuleCatalog.allRuleIDs))
        #expect(unchecked.count + RuleCatalog.rules.count == 196)
        #expect(unchecked.contains("type-dynamic-type"))
    }

    @Test func renderers() throws {
        let list = RuleCatalog.renderList()
        for id in RuleCatalog.allRuleIDs { #expect(list.contains(id)) }
        #expect(list.contains("mr-alert-copy"))
        let ex = try RuleCatalog.renderExplanation(id: "target-center-spacing")
        #expect(ex.contains("spatial-layout › Best practices  https://"))
        #expect(ex.contains("centerSpacing (threshold) = 60 pt  [HIG]"))
        #expect(ex.contains("\n  fails: Scenes/rules/target-center-spacing/fail.scene.yaml\n"))
        // With the checkout the binary was built in, the examples by their paths there, and the
        // command that shows the finding (quoted for a shell when the path needs it).
        let root = TestPaths.repoRoot.path
        let there = try RuleCatalog.renderExplanation(id: "target-center-spacing", checkout: root)
        #expect(there.contains("\n  fails: \(root)/Scenes/rules/target-center-spacing/fail.scene.yaml\n  passes: \(root)/Scenes/rules/target-center-spacing/pass.scene.yaml\n"))
        #expect(there.contains("\n  See the finding: spatialcheck validate \(Escape.shellWord(root + "/Scenes/rules/target-center-spacing/fail.scene.yaml"))\n"))
        #expect(try RuleCatalog.renderExplanation(id: "target-center-spacing", checkout: "/nonexistent") == ex)
        #expect(Escape.shellWord("/a/b-c_d.scene.yaml") == "/a/b-c_d.scene.yaml")
        #expect(Escape.shellWord("/my apps/it's.yaml") == "'/my apps/it'\\''s.yaml'")
        #expect(Escape.shellWord("/x/$(rm -rf ~)`id`\n") == "'/x/$(rm -rf ~)`id`\\n'")
        #expect(throws: UnknownRule.self) { try RuleCatalog.renderExplanation(id: "target-centre-spacing") }
        do { _ = try RuleCatalog.renderExplanation(id: "target-centre-spacing") } catch let u as UnknownRule {
            #expect(u.suggestion == "target-center-spacing")
        }
        #expect(try RuleCatalog.renderExplanation(id: "type-free-floating").contains("not checked"))
        let entries = RuleCatalog.entries()
        #expect(entries.count == RuleCatalog.rules.count)
        #expect(entries.first { $0.id == "fov-important-centered" }?.parameters.first?.origin == "EXT")
    }
}

/// What people read of the catalog's sources: the HIG page and section, never the catalog's
/// internal tags (seed files `S0`…`S3`, `hig-rules §N`).
@Suite struct CatalogDisplayTests {
    @Test func internalTagsAreRemoved() {
        #expect(RuleCatalog.forPeople("spatial-layout › Best practices · S0") == "spatial-layout › Best practices")
        #expect(RuleCatalog.forPeople("augmented-reality › Best practices · S0, S1") == "augmented-reality › Best practices")
        #expect(RuleCatalog.forPeople("augmented-reality › Designing object interactions · S1 only") == "augmented-reality › Designing object interactions")
        #expect(RuleCatalog.forPeople("typography › visionOS · S0 (S3 same); windows › visionOS volumes · S0") == "typography › visionOS; windows › visionOS volumes")
        #expect(RuleCatalog.forPeople("accessibility › Vision · S0; voiceover (S0, S1)") == "accessibility › Vision; voiceover")
        #expect(RuleCatalog.forPeople("typography › visionOS · S0; S2 Color (4.5:1 minimum, 7:1 preferred)") == "typography › visionOS; Color (4.5:1 minimum, 7:1 preferred)")
        #expect(RuleCatalog.forPeople("immersive-experiences › Displaying virtual hands (heading lost in S0 body) · S0") == "immersive-experiences › Displaying virtual hands")
        #expect(RuleCatalog.forPeople("in angle, from the eye at each frame (hig-rules §2.3).") == "in angle, from the eye at each frame.")
        #expect(RuleCatalog.forPeople("The resting pose is H0 (hig-rules §0.3): the head pose") == "The resting pose is H0: the head pose")
    }

    @Test func noTagReachesRulesExplainOrTheDocs() throws {
        let tag = try Regex(#"\bS[0-9]\b|hig-rules §"#)
        var texts = [RuleCatalog.renderList(), RuleCatalog.renderNotChecked(), RuleCatalog.renderMarkdown()]
        for id in RuleCatalog.allRuleIDs + RuleCatalog.notChecked.map(\.id) + RuleCatalog.manualReview.map(\.id) {
            texts.append(try RuleCatalog.renderExplanation(id: id))
        }
        for e in RuleCatalog.entries() { texts += e.citations + e.notes }
        for t in texts {
            for line in t.split(separator: "\n") where line.contains(tag) { Issue.record("internal tag in: \(line)") }
        }
        // The page and section stay.
        #expect(try RuleCatalog.renderExplanation(id: "target-center-spacing").contains("HIG: spatial-layout › Best practices  https://developer.apple.com/design/human-interface-guidelines/spatial-layout"))
    }

    @Test func manualListsWhatNoRuleChecks() {
        let text = RuleCatalog.renderNotChecked()
        #expect(text.hasPrefix("Not checked by any rule (\(RuleCatalog.notChecked.count) catalog rules;"))
        #expect(text.contains("\n  fov-repeating-pattern: eyes › Making items easy to see; needs `mat.repeatingPattern`, geometry\n"))
        #expect(text.contains("Manual review (\(RuleCatalog.manualReview.count) items a person has to check):"))
        #expect(text.contains("\n  mr-alert-copy: "))
    }
}
