import Foundation
import SpatialModel
import Rules

/// A validation report (`spatialcheck-report/1`): what `validate` produces and `report` reads.
/// Independent of the rule engine's types so that saved reports can be read back and merged.
public struct Report: Sendable {
    public static let formatTag = "spatialcheck-report/1"
    /// GitHub code scanning rejects a SARIF run with more than 25,000 results.
    public static let sarifResultLimit = 25_000
    public var toolVersion: String
    public var pointAngle: Double
    /// Metres per point of fixed-scale content for the run (`units.fixedPointSize`; by default
    /// `tan(pointAngle) · 1 m`). A scene's own value is in `SceneReport.fixedPointSize`.
    public var fixedPointSize: Double
    public var failOn: Severity?
    public var scenes: [SceneReport]
    /// Violations of the baseline that no longer occur (set when validating against a baseline),
    /// as many as the report lists (`--max-violations` per rule and scene, and SARIF's result limit).
    public var fixedInBaseline: [(scene: String, violation: ReportViolation)] = []
    /// Fixed violations counted but not listed (JSON `baseline.fixedNotListed`).
    public var fixedNotListed = 0
    /// Violations of the baseline that still occur but an `ignore` entry left out of this run
    /// (JSON `baseline.suppressed`, only when some are): not fixed.
    public var suppressedInBaseline = 0

    /// Fixed violations the text, Markdown and HTML reports name, at most.
    public static let fixedShownLimit = 20

    /// The fixed violations as the text, Markdown and HTML reports name them, "" when none is
    /// fixed: `head`, then the baseline's first `fixedShownLimit` through `item` (its scene, and
    /// "RULE ENTITIES"), then the line for the rest through `more`, then `tail`. Each format passes
    /// its own escaping.
    func fixedList(head: String, item: (_ scene: String, _ what: String) -> String, more: (String) -> String, tail: String) -> String {
        let shown = fixedInBaseline.prefix(Self.fixedShownLimit)
        let rest = fixedInBaseline.count - shown.count + fixedNotListed
        guard !shown.isEmpty || rest > 0 else { return "" }
        var out = head
        for f in shown { out += item(f.scene, ([f.violation.rule] + f.violation.entities).joined(separator: " ")) }
        if rest > 0 { out += more("… and \(groupedThousands(Int64(rest))) more fixed (the JSON report's baseline.fixedViolations lists them)") }
        return out + tail
    }
    /// When the report was made, as ISO 8601 UTC (`2025-06-01T12:00:00Z`); only with `--timestamp`,
    /// so that by default the same input gives byte-identical output.
    public var generatedAt: String?
    /// `--shard i/n`: this report holds shard `index` (1-based) of `count`; written as `shard` and
    /// each scene's `order` so that `spatialcheck report` can put the shards back together.
    public var shard: Shard?
    /// What no tool checked: the catalog's rules that are not implemented and its manual-review
    /// items (set from the rule catalog by `validate` and `report`; nil: not stated). Text and
    /// Markdown say it in one line, JSON as `notChecked`.
    public var notChecked: NotChecked?
    /// What the run's configuration changed of the catalog's defaults, one line each
    /// (`RuleConfiguration.changesFromDefaults`): JSON `settings.configurationChanges`, one line in
    /// text, Markdown and HTML. Empty: every rule at its defaults.
    public var configurationChanges: [String] = []
    /// The `--max-violations` the scenes' lists were cut with (0: no limit), for the line saying
    /// what was left out (`OmittedViolations.notShown`); nil when not known (a report read back).
    /// Not written.
    public var violationLimit: Int?
    /// The scenes whose comparison with the baseline is partial because the baseline's run or this
    /// one stopped early (set with a baseline, `partialComparisons(baseline:)`): every format says
    /// so (trial s22 F4). JSON `baseline.partialScenes`.
    public var partialComparisons: [PartialComparison] = []

    /// The line text, Markdown and HTML print for `configurationChanges` (nil when there are none):
    /// at most ten named, then how many more.
    public var configurationLine: String? {
        guard !configurationChanges.isEmpty else { return nil }
        let n = configurationChanges.count
        let named = configurationChanges.prefix(10).joined(separator: "; ") + (n > 10 ? "; and \(n - 10) more" : "")
        return "the configuration changes \(n) default\(n == 1 ? "" : "s") of the rule catalog: \(named)"
    }

    public init(toolVersion: String, pointAngle: Double, failOn: Severity?, scenes: [SceneReport]) {
        self.toolVersion = toolVersion; self.pointAngle = pointAngle; self.failOn = failOn; self.scenes = scenes
        self.fixedPointSize = Units.defaultFixedPointSize(pointAngle: pointAngle)
    }

    /// "pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt": the settings line of the text-like formats.
    public static func settingsText(pointAngle: Double, fixedPointSize: Double) -> String {
        "pointAngle \(fmt(pointAngle, 4))°/pt, fixedPointSize \(fixedPointSizeText(fixedPointSize)) m/pt"
    }

    public var hasLoadErrors: Bool { scenes.contains { $0.status == .error } }
    /// True when some scene was not checked to its end: it could not be loaded, or it stopped early
    /// (`SceneReport.stopped`: the tracking limit or the work budget). Such a run never passes:
    /// a report says "failed", and `validate` exits 2 unless what was found fails the gate (1).
    public var isIncomplete: Bool { hasLoadErrors || scenes.contains { $0.stopped != nil } }
    /// Scenes stopped in the middle of a frame (`EarlyStop.partialFrame`): their counts, and so the
    /// report's, are lower bounds.
    public var lowerBoundScenes: Int { scenes.filter { $0.stopped?.partialFrame == true }.count }
    /// Why the counts are lower bounds (nil when they are exact): "1 scene stopped at the tracking
    /// limit in a frame checked only in part".
    public var lowerBoundsReason: String? {
        let n = lowerBoundScenes
        return n > 0 ? "\(n) scene\(n == 1 ? "" : "s") stopped at the tracking limit in a frame checked only in part" : nil
    }
    /// What the text and Markdown summaries add after their counts ("" for a run checked to its
    /// end): for counts that are lower bounds, " (lower bounds: 1 scene stopped at the tracking
    /// limit in a frame checked only in part)"; then, for scenes stopped after a whole frame (the
    /// work budget), whose counts are exact for the frames they checked only (trial s34 F4: the
    /// totals read as a whole run's), " (1 scene stopped early: its counts cover only the frames
    /// it checked)".
    public var countsNote: String {
        let early = scenes.filter { $0.stopped.map { !$0.partialFrame } ?? false }.count
        return (lowerBoundsReason.map { " (lower bounds: \($0))" } ?? "")
            + (early == 0 ? "" : early == 1 ? " (1 scene stopped early: its counts cover only the frames it checked)"
                                            : " (\(early) scenes stopped early: their counts cover only the frames they checked)")
    }
    /// What the text and Markdown summaries put before counts that are lower bounds: "at least ".
    public var lowerBoundsPrefix: String { lowerBoundScenes > 0 ? "at least " : "" }
    public func count(_ s: Severity) -> Int { scenes.reduce(0) { $0 + $1.count(s) } }
    /// True when some violation is at or above `failOn` (nil = never).
    public var failsGate: Bool { failsGate(gating: nil) }

    /// With a baseline, only the fingerprints in `gating` (new or worsened violations) count;
    /// without `gating`, violations marked by `apply(_:)` as unchanged or improved do not count.
    public func failsGate(gating: Set<String>?) -> Bool {
        guard let failOn else { return false }
        func gates(_ fingerprint: String, _ status: BaselineStatus?) -> Bool {
            if let gating { return gating.contains(fingerprint) }
            return status?.gates ?? true
        }
        return scenes.contains { s in
            s.violations.contains { v in v.severity.rank <= failOn.rank && gates(v.fingerprint, v.baseline) }
                || s.omitted.contains { o in
                    o.severity.rank <= failOn.rank && o.violations.contains { gates($0.fingerprint, $0.baseline) }
                }
        }
    }

    /// With a baseline applied: how many violations have each status (`fixed`: the baseline's
    /// violations gone now), counting the violations `--max-violations` left out of the lists
    /// too; nil without a baseline.
    public var baselineStatusCounts: [BaselineStatus: Int]? {
        var counts: [BaselineStatus: Int] = [:]
        for s in scenes {
            for v in s.violations { if let b = v.baseline { counts[b, default: 0] += 1 } }
            for o in s.omitted { for v in o.violations { if let b = v.baseline { counts[b, default: 0] += 1 } } }
        }
        guard !counts.isEmpty || !fixedInBaseline.isEmpty || fixedNotListed > 0 || suppressedInBaseline > 0 else { return nil }
        counts[.fixed] = fixedInBaseline.count + fixedNotListed
        if suppressedInBaseline > 0 { counts[.suppressed] = suppressedInBaseline }
        return counts
    }

    /// The ISO 8601 UTC form of `date` used by `generatedAt` (whole seconds).
    public static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

/// How many guidelines of the catalog no tool checked (`Report.notChecked`).
public struct NotChecked: Sendable, Equatable {
    /// Catalog rules not implemented (the scene format does not describe what they need).
    public var catalogRules: Int
    /// Manual-review items: guidance only a person can judge.
    public var manualReview: Int
    public init(catalogRules: Int, manualReview: Int) { self.catalogRules = catalogRules; self.manualReview = manualReview }

    /// The command that lists them.
    public static let listCommand = "spatialcheck rules --manual"

    /// "to review by hand: 112 HIG guidelines spatialcheck does not check yet and 69 that only a
    /// person can judge (`spatialcheck rules --manual` lists them)": said as the normal part of a
    /// review that it is, not as checks that failed to run (the s31 trial's F5).
    public var line: String {
        "to review by hand: \(catalogRules) HIG guideline\(catalogRules == 1 ? "" : "s") spatialcheck does not check yet and \(manualReview)"
            + " that only a person can judge (`\(NotChecked.listCommand)` lists them)"
    }
}

public struct SceneReport: Sendable {
    public enum Status: String, Sendable, CaseIterable { case checked, error }
    public var path: String
    public var name: String?
    public var status: Status
    public var platform: String?
    public var frameRate: Double
    public var frames: Int
    public var duration: Double
    public var violations: [ReportViolation]
    public var errors: [Diagnostic]
    /// Loader warnings that did not stop the scene (e.g. suspicious asset units).
    public var warnings: [Diagnostic]
    /// Ids of the rules that ran on this scene (JUnit lists passing rules as passing cases).
    public var rulesChecked: [String]
    /// Degrees per point used for this scene (a scene's own `units.pointAngle` may differ from the
    /// run's default in `settings`).
    public var pointAngle: Double?
    /// Metres per point of fixed-scale content used for this scene (its `units.fixedPointSize`, by
    /// default `tan(pointAngle) · 1 m`).
    public var fixedPointSize: Double?
    /// The scene's position in the whole (unsharded) run; written only in a shard's report.
    public var order: Int?
    /// Where the file is on this machine (absolute), for formats that link to it (`xcode`,
    /// `github`); not written to JSON, whose `path` is relative to the project root.
    public var filePath: String?
    /// The path relative to the enclosing git work tree when that is not the project root (SARIF's
    /// artifact location, which code scanning resolves against the checkout); not written.
    public var repositoryPath: String?
    /// The path relative to the working directory (as earlier versions wrote it): matches an older
    /// baseline's scene, and is the text report's `path:line:column:` link; not written.
    public var legacyPath: String?
    /// Violations left out of `violations` by `--max-violations` (and SARIF's result limit), per
    /// rule and severity, sorted; they still count in `count(_:)` and decided the exit code.
    public var omitted: [OmittedViolations] = []
    /// What the configuration's `ignore` entries left out of this scene (not counted anywhere else).
    public var ignored: [IgnoredViolations] = []
    /// The violations `ignore` entries left out, as SARIF writes them (results with a suppression):
    /// kept by `validate --format sarif` only (at most `--max-violations` of each rule, within
    /// SARIF's result limit); not written to JSON.
    public var suppressed: [SuppressedViolation] = []
    /// Violations the configuration's `ignore` entries left out of this scene.
    public var ignoredCount: Int { ignored.reduce(0) { $0 + $1.count } }
    /// Set when the scene stopped early: it reached the most distinct violations one scene may
    /// track (`validate --max-tracked`), so only its first frames were checked.
    public var stopped: EarlyStop?
    /// The geometry the HTML report draws, written to JSON as `geometry` only when set
    /// (`validate --with-geometry`), and read back by `spatialcheck report`.
    public var geometry: SceneSnapshot?

    public init(path: String, name: String? = nil, status: Status, platform: String? = nil,
                frameRate: Double = 0, frames: Int = 0, duration: Double = 0,
                violations: [ReportViolation] = [], errors: [Diagnostic] = [], warnings: [Diagnostic] = [],
                rulesChecked: [String] = []) {
        self.path = path; self.name = name; self.status = status; self.platform = platform
        self.frameRate = frameRate; self.frames = frames; self.duration = duration
        self.violations = violations; self.errors = errors; self.warnings = warnings
        self.rulesChecked = rulesChecked
    }

    public func count(_ s: Severity) -> Int {
        violations.reduce(0) { $0 + ($1.severity == s ? 1 : 0) } + omitted.reduce(0) { $0 + ($1.severity == s ? $1.count : 0) }
    }

    /// Violations left out of the report (all rules and severities).
    public var omittedCount: Int { omitted.reduce(0) { $0 + $1.count } }

    /// How every message refusing a scene for the work budget before its first frame begins
    /// (`WorkBudget.check`): such a scene loaded, but was not simulated.
    public static let workBudgetRefusal = "the scene asks for "

    /// True for a scene refused before its first frame because its work alone is over the budget
    /// (`--max-work`), not because it could not be loaded (trial s19 F8b).
    public var isOverWorkBudget: Bool {
        status == .error && !errors.isEmpty && errors.allSatisfy { $0.message.hasPrefix(SceneReport.workBudgetRefusal) }
    }

    /// What the reports say of a scene with status `.error`: "could not be loaded", or for a
    /// work-budget refusal "not checked: over the work budget".
    public var notCheckedStatus: String { isOverWorkBudget ? "not checked: over the work budget" : "could not be loaded" }
}

extension Report {
    /// The scenes that were not checked, for the summaries: "1 could not be loaded", "2 not checked
    /// (over the work budget)", or both joined by ", "; "" when none.
    public var notCheckedCounts: String { notCheckedParts(namingScenes: false).joined(separator: ", ") }

    /// The parts of `notCheckedCounts`, each count followed by "scene"/"scenes" when `namingScenes`
    /// ("1 scene could not be loaded", the Markdown comment's wording); empty when none.
    public func notCheckedParts(namingScenes: Bool) -> [String] {
        let budget = scenes.filter(\.isOverWorkBudget).count
        let broken = scenes.filter { $0.status == .error }.count - budget
        func n(_ k: Int) -> String { namingScenes ? "\(k) scene\(k == 1 ? "" : "s")" : "\(k)" }
        var parts: [String] = []
        if broken > 0 { parts.append("\(n(broken)) could not be loaded") }
        if budget > 0 { parts.append("\(n(budget)) not checked (over the work budget)") }
        return parts
    }
}

/// A scene that stopped before its last frame: frames 0…`afterFrame` were checked, of `frames`
/// planned, because it reached the tracking limit (findings of that frame that would have needed
/// one more tracked violation were dropped) or the work budget (`pairTestBudget`).
public struct EarlyStop: Sendable, Equatable {
    public var afterFrame: Int
    public var frames: Int
    /// The tracking limit that was reached (`--max-tracked`); 0 when the stop is the work budget's.
    public var trackingLimit: Int
    /// The work budget (`--max-work`, in work units), when the scene's work passed it; else nil.
    public var pairTestBudget: Int?
    public init(afterFrame: Int, frames: Int, trackingLimit: Int) {
        self.afterFrame = afterFrame; self.frames = frames; self.trackingLimit = trackingLimit
    }
    public init(afterFrame: Int, frames: Int, pairTestBudget: Int) {
        self.afterFrame = afterFrame; self.frames = frames; self.trackingLimit = 0; self.pairTestBudget = pairTestBudget
    }

    /// Set when the stop is the work budget's projection (`WorkProjection`), not the work counted:
    /// the frames the rate was taken from, the work per frame in them, the whole scene's projected
    /// work and the `--max-work` suggested to check it whole.
    public var projection: Projection?
    public struct Projection: Sendable, Equatable {
        public var window: ClosedRange<Int>
        public var rate: Int
        public var units: Int
        public var suggestedBudget: Int
        public init(window: ClosedRange<Int>, rate: Int, units: Int, suggestedBudget: Int) {
            self.window = window; self.rate = rate; self.units = units; self.suggestedBudget = suggestedBudget
        }
    }
    public init(afterFrame: Int, frames: Int, pairTestBudget: Int, projection: Projection) {
        self.init(afterFrame: afterFrame, frames: frames, pairTestBudget: pairTestBudget)
        self.projection = projection
    }

    /// The line each report format prints for a scene that stopped early.
    public var line: String {
        let covered = afterFrame == 0 ? "frame 0" : "frames 0–\(afterFrame)"
        if let budget = pairTestBudget, let p = projection {
            let n = { (x: Int) in groupedThousands(Int64(x)) }
            return "checking stopped after frame \(afterFrame) of \(frames), before the work budget was spent: frames \(p.window.lowerBound)–\(p.window.upperBound) "
                + "took \(n(p.rate)) units of work each, so all \(n(frames)) frames would take about \(n(p.units)) units, "
                + "more than the work budget of \(n(budget)) units (--max-work, about 1,000 instructions each); the counts and spans cover \(covered) only. "
                + "That much work comes from many entities moving for many frames, from a viewer moving or turning among many entities, "
                + "or from many windows, volumes or controls on or around one spot: "
                + "check fewer frames (--duration, --frame-rate), spread the content out, or check it whole with --max-work \(n(p.suggestedBudget)) (0 = no limit)"
        }
        if let budget = pairTestBudget {
            return "checking stopped after frame \(afterFrame) of \(frames): the scene took more than the work budget of "
                + "\(groupedThousands(Int64(budget))) units (--max-work, about 1,000 instructions each); the counts and spans cover \(covered) only. "
                + "That much work comes from many entities moving for many frames, from a viewer moving or turning among many entities, "
                + "or from many windows, volumes or controls on or around one spot: "
                + "check fewer frames (--duration, --frame-rate), spread the content out, or raise the budget with --max-work N (0 = no limit)"
        }
        // Reached in the middle of a frame: that frame's findings past the limit were dropped.
        let whole = afterFrame == 0 ? "" : " (frames 0–\(afterFrame - 1) whole)"
        return "checking stopped in frame \(afterFrame) of \(frames): the scene reached \(groupedThousands(Int64(trackingLimit))) distinct violations, "
            + "the most one scene may track, so frame \(afterFrame) was checked only in part\(whole) and every count is a lower bound: "
            + "the scene has at least these violations, and more. "
            + "So many usually repeat one layout mistake (content stacked on or around one spot): fix the violations shown, "
            + "or raise the limit with --max-tracked N (0 = no limit; about 1 KB of memory each) to count them all"
    }

    /// True when the stop came in the middle of frame `afterFrame`: the tracking limit drops the
    /// findings of that frame that would need one more tracked violation, so that frame was
    /// checked only in part and every count (summary, per rule, left out) is a lower bound, not
    /// the count of frames 0…`afterFrame` (trial s22 F3). A work-budget stop checks its last frame
    /// whole. JSON `stopped.partialFrame` and `stopped.countsAreLowerBounds`.
    public var partialFrame: Bool { pairTestBudget == nil }

    /// The rule id the annotation formats give the stop.
    public var annotationRule: String { pairTestBudget == nil ? "tracking-limit" : "work-budget" }
}

/// A scene compared with a baseline when the baseline's run of it, or this run, stopped early
/// (`EarlyStop`): the comparison covers only what both reached. Violations the baseline's run did
/// not reach are `new` and still gate (a scene that hits a limit is broken anyway), and violations
/// of the baseline this run did not reach are `fixed`; the line says so and what to do.
public struct PartialComparison: Sendable, Equatable {
    /// The current scene's path.
    public var scene: String
    public var baselineStop: EarlyStop?
    public var currentStop: EarlyStop?
    public init(scene: String, baselineStop: EarlyStop?, currentStop: EarlyStop?) {
        self.scene = scene; self.baselineStop = baselineStop; self.currentStop = currentStop
    }

    /// The line each report format prints for the scene (without its path; unescaped).
    public var line: String {
        func stop(_ s: EarlyStop) -> String {
            if let b = s.pairTestBudget {
                return "stopped at the work budget (--max-work \(groupedThousands(Int64(b)))) after frame \(s.afterFrame) of \(s.frames)"
            }
            return "stopped at the tracking limit (--max-tracked \(groupedThousands(Int64(s.trackingLimit)))) in frame \(s.afterFrame) of \(s.frames)"
        }
        let stops = [baselineStop, currentStop].compactMap { $0 }
        var runs: [String] = [], effects: [String] = []
        if let b = baselineStop {
            runs.append("the run that saved the baseline \(stop(b))")
            effects.append("violations the baseline lacks because its run stopped count as new here and fail the gate")
        }
        if let c = currentStop {
            runs.append("this run \(stop(c))")
            effects.append("violations of the baseline this run did not reach count as fixed")
        }
        var raise: [String] = []
        if stops.contains(where: { $0.pairTestBudget == nil }) { raise.append("--max-tracked") }
        if stops.contains(where: { $0.pairTestBudget != nil }) { raise.append("--max-work") }
        return "the comparison with the baseline is partial: " + runs.joined(separator: " and ") + ", so "
            + effects.joined(separator: ", and ") + ". Fix what makes so many violations (usually content stacked on or around one spot), "
            + "or raise \(raise.joined(separator: " and ")) (0 = no limit) for both runs and save the baseline again"
    }
}

extension Report {
    /// The checked scenes of this report that a scene of `baseline` (same path, the path an earlier
    /// version wrote, or the same scene seen from another folder) was compared with while one of
    /// the two stopped early.
    public func partialComparisons(baseline: Report) -> [PartialComparison] {
        guard baseline.scenes.contains(where: { $0.stopped != nil }) || scenes.contains(where: { $0.stopped != nil }) else { return [] }
        var byPath: [String: [SceneReport]] = [:]
        for b in baseline.scenes { byPath[b.path, default: []].append(b) }
        var aligned: [String: [String]] = [:]
        for (from, to) in BaselineComparison.alignedScenePaths(current: scenes.map(\.path), baseline: baseline.scenes.map(\.path)) {
            aligned[to, default: []].append(from)
        }
        var out: [PartialComparison] = []
        for s in scenes where s.status == .checked {
            var names = [s.path]
            if let legacy = s.legacyPath, legacy != s.path { names.append(legacy) }
            names += aligned[s.path] ?? []
            let matches = names.flatMap { byPath[$0] ?? [] }
            guard !matches.isEmpty else { continue }
            let baselineStop = matches.lazy.compactMap(\.stopped).first
            guard baselineStop != nil || s.stopped != nil else { continue }
            out.append(PartialComparison(scene: s.path, baselineStop: baselineStop, currentStop: s.stopped))
        }
        return out
    }

    /// The partial comparison of the scene at `path`, if any.
    func partialComparison(_ path: String) -> PartialComparison? {
        partialComparisons.isEmpty ? nil : partialComparisons.first { $0.scene == path }
    }
}

/// `n` with thousands separators: 1234567 → "1,234,567".
public func groupedThousands(_ n: Int64) -> String {
    let digits = String(n.magnitude)
    var out = n < 0 ? "-" : ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}

/// Violations of one rule and severity left out of a scene's report.
public struct OmittedViolations: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    public var count: Int
    /// What a baseline needs of each one left out (JSON `fingerprints`): without them a report
    /// saved as a baseline would make every violation beyond `--max-violations` new in the next
    /// run. Empty in reports of earlier versions, which stated only the count.
    public var violations: [LeftOutViolation]
    public init(rule: String, severity: Severity, count: Int, violations: [LeftOutViolation] = []) {
        self.rule = rule; self.severity = severity; self.count = count; self.violations = violations
    }

    /// The line each report format prints for what a scene left out. `sarif`: the SARIF report,
    /// whose result limit `--max-violations` cannot raise. `perRule`: the `--max-violations` the
    /// lists were cut with (`Report.violationLimit`); with 0 (no limit) only SARIF's result limit
    /// can have left violations out, so the line does not advise raising `--max-violations`
    /// (trial s22 F9). nil (not known) or a limit: both are named.
    public static func notShown(_ omitted: [OmittedViolations], sarif: Bool = false, perRule: Int? = nil) -> String? {
        let n = omitted.reduce(0) { $0 + $1.count }
        guard n > 0 else { return nil }
        // By rule and severity (the order of `omitted`: errors first), as the HTML page's line for
        // its findings without a card: how many of the summary's errors and warnings are here.
        let list = omitted.prefix(6).map { "\($0.rule): \($0.count) \($0.severity.rawValue)" }.joined(separator: ", ")
            + (omitted.count > 6 ? " and \(omitted.count - 6) more" : "")
        let head = "\(n) more violation\(n == 1 ? "" : "s") not shown (\(list)); they count in the summary and the exit code."
        let cap = groupedThousands(Int64(Report.sarifResultLimit))
        if sarif && perRule == 0 {
            return head + " SARIF keeps at most \(cap) results in all (code scanning's limit; --max-violations 0 is already in force): --format json lists every one"
        }
        return head + " Raise the limit with --max-violations N (0 = no limit)"
            + (sarif ? "; SARIF keeps at most \(cap) results in all whatever the limit (--format json lists every one)" : "")
    }
}

/// The violations one `ignore` entry of the configuration left out of a scene's report (only
/// entries that left out some are listed), so a reviewer sees what a config hides.
public struct IgnoredViolations: Sendable, Equatable {
    public var rule: String
    public var entity: String
    /// The entry's `scene` glob, when it has one.
    public var scene: String?
    public var count: Int
    /// Where the entry is in the configuration file.
    public var location: SourceLocation?
    /// The fingerprints of the violations it left out (JSON `fingerprints`, when known): a baseline
    /// violation one of them matches still occurs, so a comparison calls it `suppressed`, not
    /// `fixed`. A report written before they were recorded has none.
    public var fingerprints: [String] = []
    public init(rule: String, entity: String, scene: String? = nil, count: Int, location: SourceLocation? = nil,
                fingerprints: [String] = []) {
        self.rule = rule; self.entity = entity; self.scene = scene; self.count = count; self.location = location
        self.fingerprints = fingerprints
    }

    /// The line each report format prints (unescaped: each format escapes it for where it goes):
    /// "12 violations ignored by the configuration: target-center-spacing board/** (line 3) 12".
    /// At most five entries are named, then how many more.
    public static func line(_ ignored: [IgnoredViolations]) -> String? {
        let n = ignored.reduce(0) { $0 + $1.count }
        guard n > 0 else { return nil }
        let named = ignored.prefix(5).map { i in
            "\(i.rule) \(i.entity)\(i.scene.map { " in \($0)" } ?? "")\(i.location.map { " (line \($0.line))" } ?? "") \(groupedThousands(Int64(i.count)))"
        }
        let rest = ignored.count > 5 ? " and \(ignored.count - 5) more entries" : ""
        return "\(groupedThousands(Int64(n))) violation\(n == 1 ? "" : "s") ignored by the configuration: " + named.joined(separator: ", ") + rest
    }

    var json: JSON {
        var m: [(String, JSON)] = [("rule", .string(rule)), ("entity", .string(entity))]
        if let scene { m.append(("scene", .string(scene))) }
        m.append(("count", .int(count)))
        if let location { m.append(("location", .object([("line", .int(location.line)), ("column", .int(location.column))]))) }
        if !fingerprints.isEmpty { m.append(("fingerprints", .array(fingerprints.map(JSON.string)))) }
        return .object(m)
    }
}

/// A violation an `ignore` entry left out, with the entry's reason: SARIF writes it as a result
/// with `suppressions: [{kind: external, justification: reason}]`.
public struct SuppressedViolation: Sendable {
    public var violation: ReportViolation
    public var reason: String
    public init(violation: ReportViolation, reason: String) { self.violation = violation; self.reason = reason }
}

/// A violation left out of a scene's list by `--max-violations`, as far as a baseline compares it:
/// its fingerprint, measured value and threshold, and (with a baseline applied) its status.
/// Written as `[fingerprint, measured, threshold]` in its `omittedViolations` entry.
public struct LeftOutViolation: Sendable, Equatable {
    public var fingerprint: String
    public var measured: Double
    public var threshold: Double
    public var baseline: BaselineStatus?
    public init(fingerprint: String, measured: Double, threshold: Double, baseline: BaselineStatus? = nil) {
        self.fingerprint = fingerprint; self.measured = measured; self.threshold = threshold; self.baseline = baseline
    }

    /// The violation it stands for, as the baseline comparison sees it (no entities, spans or message).
    func violation(rule: String, severity: Severity) -> ReportViolation {
        var v = ReportViolation(rule: rule, severity: severity, entities: [], spans: [], frameCount: 0, firstTime: 0, lastTime: 0,
                                measured: measured, threshold: threshold, unit: "", worstFrame: 0,
                                message: "one of the \(rule) violations --max-violations left out of the list", help: "",
                                fingerprint: fingerprint, location: nil)
        v.baseline = baseline
        return v
    }
}

public struct ReportViolation: Sendable {
    public var rule: String
    public var severity: Severity
    public var entities: [String]
    public var spans: [ClosedRange<Int>]
    public var frameCount: Int
    public var firstTime: Double
    public var lastTime: Double
    public var measured: Double
    public var threshold: Double
    public var unit: String
    public var worstFrame: Int
    public var message: String
    public var help: String
    public var fingerprint: String
    public var location: SourceLocation?
    public var borderline: Bool
    /// How it compares with the baseline, when there is one.
    public var baseline: BaselineStatus?
    /// True unless a baseline marked it known: without a baseline every violation gates.
    public var gates: Bool { baseline?.gates ?? true }
    /// With `baseline == .worsened`: the baseline violation's measured value and severity, so that
    /// the reports can say what changed ("worsened since the baseline: 61.8 % → 61.9 %"). JSON
    /// writes `baselineMeasured`; the severity is only said in words.
    public var baselineMeasured: Double?
    public var baselineSeverity: Severity?
    /// The fingerprint earlier versions gave it (scene path relative to the working directory),
    /// used only to match a baseline written by them; not written.
    public var legacyFingerprint: String?
    /// Runs not listed in `spans` (the aggregation keeps the first ones and the latest); their
    /// frames are in `frameCount`.
    public var omittedSpans = 0
    /// The USD prims its entities were read from, in the order of `entities` (only the entities
    /// that came from a USD prim): JSON `usdPrims`, and the prim named beside the entity elsewhere.
    public var usdPrims: [EntityPrim] = []

    /// One entity of a violation and the USD prim it was read from.
    public struct EntityPrim: Sendable, Equatable {
        public var entity: String
        public var prim: USDPrimRef
        public init(entity: String, prim: USDPrimRef) { self.entity = entity; self.prim = prim }
    }

    public init(rule: String, severity: Severity, entities: [String], spans: [ClosedRange<Int>], frameCount: Int,
                firstTime: Double, lastTime: Double, measured: Double, threshold: Double, unit: String,
                worstFrame: Int, message: String, help: String, fingerprint: String,
                location: SourceLocation?, borderline: Bool = false) {
        self.rule = rule; self.severity = severity; self.entities = entities; self.spans = spans
        self.frameCount = frameCount; self.firstTime = firstTime; self.lastTime = lastTime
        self.measured = measured; self.threshold = threshold; self.unit = unit; self.worstFrame = worstFrame
        self.message = message; self.help = help; self.fingerprint = fingerprint; self.location = location
        self.borderline = borderline
    }
}

extension ReportViolation {
    /// Significant digits of `measured` in the JSON report (and so in a saved baseline).
    public static let measuredDigits = 6

    /// Fills `usdPrims` of each violation from the scene's entities read from USD prims (nothing
    /// to do, and no cost, in a scene without them).
    public static func attachUSDPrims(_ violations: inout [ReportViolation], scene: Scene) {
        var prims: [String: USDPrimRef] = [:]
        for e in scene.entities { if let p = e.usdPrim { prims[e.path] = p } }
        guard !prims.isEmpty else { return }
        for i in violations.indices {
            violations[i].usdPrims = violations[i].entities.compactMap { e in prims[e].map { EntityPrim(entity: e, prim: $0) } }
        }
    }

    /// The prim beside an entity for people: " (USD /Root/Inst_1/Token/Body in Scenes/a.usda)" after
    /// "Body~2", or nothing. Not escaped.
    func primSuffix(_ entity: String) -> String {
        usdPrims.first { $0.entity == entity }.map { ModelDump.usdPrimSuffix($0.prim) } ?? ""
    }

    /// `entityList` with each entity's USD prim beside it.
    var entityListWithPrims: String {
        usdPrims.isEmpty ? entityList : entities.map { $0 + primSuffix($0) }.joined(separator: ", ")
    }

    /// `x` as the JSON report stores a measured value (infinite and NaN values stay as they are).
    public static func stored(_ x: Double) -> Double { JSON.roundedValue(x, digits: measuredDigits) ?? x }
}

// MARK: - JSON

extension Report {
    public func json() -> JSON { jsonPart().materialized() }

    /// Streams `json().serialized()` to `sink`, building one violation at a time.
    public func writeJSON(to sink: ReportSink) {
        var out = sink
        jsonPart().serialize(to: &out)
    }

    func jsonPart() -> JSONPart {
        var settings: [(String, JSON)] = [
            ("pointAngle", .rounded(pointAngle)),
            ("fixedPointSize", .rounded(fixedPointSize)),
            ("failOn", .string(failOn?.rawValue ?? "never")),
        ]
        if !configurationChanges.isEmpty { settings.append(("configurationChanges", .array(configurationChanges.map(JSON.string)))) }
        return .object(JSONPart.members([
            ("format", .string(Report.formatTag)),
            ("tool", .object([("name", .string("spatialcheck")), ("version", .string(toolVersion))])),
        ] + (generatedAt.map { [("generatedAt", JSON.string($0))] } ?? [])
          + (shard.map { [("shard", JSON.object([("index", .int($0.index)), ("count", .int($0.count))]))] } ?? []) + [
            ("settings", .object(settings)),
        ]) + [
            ("scenes", .objects(AnySequence(scenes.lazy.map { $0.jsonMembers() }))),
        ] + JSONPart.members((notChecked.map { [("notChecked", JSON.object([("catalogRules", .int($0.catalogRules)), ("manualReview", .int($0.manualReview))]))] } ?? [])
          + baselineJSON()))
    }

    private func baselineJSON() -> [(String, JSON)] {
        guard let c = baselineStatusCounts else { return [] }
        // `suppressed` only when some are: a report without ignored baseline violations is as before.
        let counts: [(String, JSON)] = BaselineStatus.allCases.filter { $0 != .suppressed || (c[$0] ?? 0) > 0 }
            .map { ($0.rawValue, .int(c[$0] ?? 0)) }
        return [("baseline", .object(counts + [
            ("fixedViolations", .array(fixedInBaseline.map { f in
                .object([("scene", .string(f.scene)), ("rule", .string(f.violation.rule)),
                         ("entities", .array(f.violation.entities.map(JSON.string))),
                         ("fingerprint", .string(f.violation.fingerprint))])
            })),
        ] + (fixedNotListed > 0 ? [("fixedNotListed", JSON.int(fixedNotListed))] : [])
          + (partialComparisons.isEmpty ? [] : [("partialScenes", JSON.array(partialComparisons.map { p in
                .object([("scene", .string(p.scene)), ("baselineStopped", .bool(p.baselineStop != nil)),
                         ("currentStopped", .bool(p.currentStop != nil)), ("message", .string(p.line))])
            }))])))]
    }
}

extension SceneReport {
    public func json() -> JSON { JSONPart.object(jsonMembers()).materialized() }

    /// The scene's members; its violations are built as they are written.
    func jsonMembers() -> [(String, JSONPart)] {
        var m: [(String, JSON)] = [("path", .string(path))]
        if let order { m.append(("order", .int(order))) }
        if let name { m.append(("name", .string(name))) }
        m.append(("status", .string(status.rawValue)))
        switch status {
        case .checked:
            m += [
                ("frameRate", .integralOrNumber(frameRate)),
                ("frames", .int(frames)),
                ("duration", .rounded(duration)),
            ]
            if let platform { m.append(("platform", .string(platform))) }
            if let pointAngle { m.append(("pointAngle", .rounded(pointAngle))) }
            if let fixedPointSize { m.append(("fixedPointSize", .rounded(fixedPointSize))) }
            m.append(("summary", .object(Severity.allCases.map { ($0.rawValue, .int(count($0))) })))
            var after: [(String, JSON)] = []
            if !omitted.isEmpty {
                after.append(("omittedViolations", .array(omitted.map { o in
                    var m: [(String, JSON)] = [("rule", .string(o.rule)), ("severity", .string(o.severity.rawValue)), ("count", .int(o.count))]
                    if !o.violations.isEmpty {
                        m.append(("fingerprints", .array(o.violations.map {
                            .array([.string($0.fingerprint), .rounded($0.measured, digits: ReportViolation.measuredDigits), .rounded($0.threshold, digits: 6)])
                        })))
                    }
                    return .object(m)
                })))
            }
            if let stopped {
                let reason: (String, JSON) = stopped.pairTestBudget.map { ("pairTestBudget", .int($0)) }
                    ?? ("trackingLimit", .int(stopped.trackingLimit))
                var fields: [(String, JSON)] = [("afterFrame", .int(stopped.afterFrame)), ("frames", .int(stopped.frames)), reason]
                if stopped.partialFrame { fields += [("partialFrame", .bool(true)), ("countsAreLowerBounds", .bool(true))] }
                if let p = stopped.projection {
                    fields.append(("projection", .object([("fromFrame", .int(p.window.lowerBound)), ("toFrame", .int(p.window.upperBound)),
                                                          ("unitsPerFrame", .int(p.rate)), ("projectedWork", .int(p.units)),
                                                          ("suggestedMaxWork", .int(p.suggestedBudget))])))
                }
                fields.append(("message", .string(stopped.line)))
                after.append(("stopped", .object(fields)))
            }
            if !warnings.isEmpty { after.append(("warnings", .array(warnings.map(diagnosticJSON)))) }
            if !ignored.isEmpty { after.append(("ignored", .array(ignored.map(\.json)))) }
            after.append(("rulesChecked", .array(rulesChecked.map(JSON.string))))
            if let geometry { after.append(("geometry", geometry.json())) }
            return JSONPart.members(m)
                + [("violations", .objects(AnySequence(violations.lazy.map { JSONPart.members($0.jsonMembers()) })))]
                + JSONPart.members(after)
        case .error:
            m.append(("errors", .array(errors.map(diagnosticJSON))))
        }
        return JSONPart.members(m)
    }
}

func diagnosticJSON(_ d: Diagnostic) -> JSON {
    var m: [(String, JSON)] = [("message", .string(d.message))]
    if d.file.isEmpty == false { m.append(("file", .string(d.file))) }
    m.append(("location", d.location.map { .object([("line", .int($0.line)), ("column", .int($0.column))]) } ?? .null))
    if let hint = d.hint { m.append(("hint", .string(hint))) }
    return .object(m)
}

extension ReportViolation {
    public func json() -> JSON { .object(jsonMembers()) }

    func jsonMembers() -> [(String, JSON)] {
        var m: [(String, JSON)] = [
            ("rule", .string(rule)),
            ("severity", .string(severity.rawValue)),
            ("entities", .array(entities.map(JSON.string))),
        ]
        if !usdPrims.isEmpty {
            m.append(("usdPrims", .array(usdPrims.map { p in
                .object([("entity", .string(p.entity)), ("path", .string(p.prim.path)), ("layer", .string(p.prim.layer))])
            })))
        }
        m += [
            ("spans", .array(spans.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
        ]
        if omittedSpans > 0 { m.append(("omittedSpans", .int(omittedSpans))) }
        m += [
            ("frameCount", .int(frameCount)),
            ("firstTime", .rounded(firstTime, digits: 6)),
            ("lastTime", .rounded(lastTime, digits: 6)),
            ("measured", .rounded(measured, digits: Self.measuredDigits)),
            ("threshold", .rounded(threshold, digits: 6)),
            ("unit", .string(unit)),
            ("worstFrame", .int(worstFrame)),
            ("borderline", .bool(borderline)),
        ]
        if let baseline { m.append(("baseline", .string(baseline.rawValue))) }
        if baseline == .worsened, let baselineMeasured { m.append(("baselineMeasured", .rounded(baselineMeasured, digits: Self.measuredDigits))) }
        let at: JSON = location.map { .object([("line", .int($0.line)), ("column", .int($0.column))]) } ?? .null
        m += [
            ("message", .string(message)),
            ("help", .string(help)),
            ("fingerprint", .string(fingerprint)),
            ("location", at),
        ]
        return m
    }
}

// MARK: - Text

extension Report {
    /// The terminal report: per scene, violations grouped by severity and rule, each with entities,
    /// time range, measured vs threshold, the fix and the HIG link; then a summary line. Every
    /// string from input (paths, names, ids, messages, and all of a saved report) goes through
    /// `Escape.text`, so the only control sequences are the colours added here.
    /// With `byRule` (validate's text report), a count per rule, worst first, before the totals.
    /// Violations of one rule in one container with the same cause (`foldViolations`) are shown
    /// once, with one indented line per member (at most `Report.textGroupLines`); `expand` shows
    /// each violation in full instead.
    public func text(color: Bool = false, quiet: Bool = false, byRule: Bool = false, expand: Bool = false) -> String {
        var all = ""
        writeText(color: color, quiet: quiet, byRule: byRule, expand: expand) { all += $0 }
        return all
    }

    /// Streams `text(color:quiet:byRule:expand:)` to `sink`, about 64 KiB at a time.
    public func writeText(color: Bool = false, quiet: Bool = false, byRule: Bool = false, expand: Bool = false, to sink: ReportSink) {
        writeText(color: color, quiet: quiet, byRule: byRule, expand: expand) { sink.write($0) }
    }

    private func writeText(color: Bool, quiet: Bool, byRule: Bool, expand: Bool, emit: (String) -> Void) {
        let t: (String) -> String = { Escape.text($0) }
        let paint = Painter(enabled: color)
        var out = ""
        // What is gathered goes out once it reaches the sink's buffer size (checked between scenes
        // and between violation groups), so the text is never held whole.
        func spill() { if out.utf8.count >= ReportSink.bufferSize { emit(out); out = "" } }
        var explainedPtEq = false
        for scene in scenes {
            spill()
            switch scene.status {
            case .error:
                out += paint.bold(t(scene.path)) + "  " + paint.red(scene.notCheckedStatus) + "\n"
                for e in scene.errors {
                    out += "  " + e.description.split(separator: "\n", omittingEmptySubsequences: false)
                        .joined(separator: "\n  ") + "\n"
                }
                out += "\n"
            case .checked:
                // With a baseline: new and worsened violations first; `quiet` lists only them.
                let listed = quiet ? scene.violations.filter(\.gates)
                                   : scene.violationsNewFirst
                if quiet && listed.isEmpty { continue }
                let title = t(scene.name.map { "\(scene.path) (\($0))" } ?? scene.path)
                out += paint.bold(title) + "  \(scene.frames) frame\(scene.frames == 1 ? "" : "s") at \(fmt(scene.frameRate, 0)) Hz (\(fmt(scene.duration, 2)) s)"
                out += "; " + Report.settingsText(pointAngle: scene.pointAngle ?? pointAngle,
                                                  fixedPointSize: scene.fixedPointSize ?? fixedPointSize) + "\n"
                if scene.violations.isEmpty { out += "  " + paint.green("no violations") + "\n" }
                let groups = expand ? listed.flatMap { foldViolations([$0]) } : foldViolations(listed, omitted: scene.omitted)
                for group in groups {
                    spill()
                    guard let v = group.members.first else { continue }
                    let sev: String
                    switch v.severity {
                    case .error: sev = paint.red("error")
                    case .warning: sev = paint.yellow("warning")
                    case .info: sev = paint.blue("info")
                    }
                    // `path:line:col:` first, as compilers write it, so terminals and editors link it
                    // (line 1, column 1 for a scene-wide violation without a location).
                    // The path from the current directory (as load errors name the file), which is
                    // what a terminal resolves; the scene's title keeps the project-root path.
                    let loc = t("\(scene.legacyPath ?? scene.path):\(max(1, v.location?.line ?? 1)):\(max(1, v.location?.column ?? 1))")
                    let known = v.baseline.map { $0.gates ? " (\(group.isFolded ? "\($0.rawValue) since the baseline" : v.baselineNote(unit: t(v.unit))))" : " (known: \($0.rawValue) since the baseline)" } ?? ""
                    if group.isFolded {
                        out += "  \(loc): \(sev) [\(t(v.rule))] \(t(group.summary))\(known)\n"
                        out += "    first: \(t(v.message))\n"
                    } else {
                        out += "  \(loc): \(sev) [\(t(v.rule))] \(t(v.entityListWithPrims))\(known)\n"
                        out += "    \(t(v.message))\n"
                        if !numbersSayNothing(unit: v.unit, v.measured, v.threshold) {
                            let shown = fmtMeasure(v.measured, v.threshold)
                            out += "    measured \(withUnit(shown.measured, v.measured, unit: t(v.unit))), threshold \(withUnit(shown.threshold, v.threshold, unit: t(v.unit)))"
                            out += v.borderline ? " (borderline: within 15 % of an angle-derived threshold)" : ""
                            out += "; worst at frame \(v.worstFrame)\n"
                        }
                    }
                    if v.unit == "pt_eq" && !explainedPtEq {
                        // The first time the unit appears, say what it is.
                        explainedPtEq = true
                        out += "    (pt_eq, point-equivalents: the angle the viewer sees divided by the angle of one point, "
                        out += "\(fmt(scene.pointAngle ?? pointAngle, 4))°, so it compares with the HIG's sizes in points at any distance)\n"
                    }
                    if group.isFolded {
                        out += "    \(t(v.help))\n"
                        out += groupLines(group, path: scene.path, frameRate: scene.frameRate)
                    } else {
                        out += "    \(timeRange(v, frameRate: scene.frameRate))\n"
                        out += "    \(t(v.help))\n"
                    }
                }
                let knownCount = scene.violations.count - listed.count
                if knownCount > 0 {
                    out += "  \(knownCount) known violation\(knownCount == 1 ? "" : "s") not listed (unchanged or improved since the baseline; without --quiet they are)\n"
                }
                if let line = OmittedViolations.notShown(scene.omitted) { out += "  \(t(line))\n" }
                if let line = IgnoredViolations.line(scene.ignored) { out += "  \(t(line))\n" }
                if let stopped = scene.stopped { out += "  " + paint.yellow("stopped") + ": \(t(stopped.line))\n" }
                if let partial = partialComparison(scene.path) { out += "  " + paint.yellow("baseline") + ": \(t(partial.line))\n" }
                for w in scene.warnings {
                    out += "  " + paint.yellow("note") + ": \(t(w.message))\n"
                    // What to do about it (the value to set, the file to name), as inspect shows it.
                    if let hint = w.hint, !hint.isEmpty { out += "    hint: \(t(hint))\n" }
                }
                out += "\n"
            }
        }
        let e = count(.error), w = count(.warning), i = count(.info)
        let failed = scenes.filter { $0.status == .error }.count
        // Scenes that could not be loaded were not checked: "2 scenes checked: …, 1 could not be
        // loaded"; with none loaded, no totals and no "not checked" line (nothing was checked).
        let checked = scenes.count - failed
        var summary: String
        if checked == 0 && failed > 0 {
            summary = "no scene checked: \(notCheckedCounts)"
        } else {
            summary = "\(checked) scene\(checked == 1 ? "" : "s") checked: " + lowerBoundsPrefix
            summary += "\(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(i) info" + countsNote
            if failed > 0 { summary += ", \(notCheckedCounts)" }
        }
        if let counts = baselineStatusCounts {
            func c(_ s: BaselineStatus) -> Int { counts[s] ?? 0 }
            summary += "; against the baseline: \(c(.new)) new, \(c(.worsened)) worsened, \(c(.unchanged)) unchanged, "
            summary += "\(c(.improved)) improved, \(c(.fixed)) fixed"
            if c(.suppressed) > 0 { summary += ", \(c(.suppressed)) suppressed" }
            let n = partialComparisons.count
            if n > 0 { summary += " (partial for \(n) scene\(n == 1 ? "" : "s"): a run stopped at a limit, see the scene)" }
        }
        out += fixedList(head: "fixed since the baseline:\n", item: { "  \(t($0)): \(t($1))\n" }, more: { "  \($0)\n" }, tail: "\n")
        if byRule { out += ruleSummary() }
        if let notChecked, checked > 0 || failed == 0 { out += notChecked.line + "\n" }
        if let line = configurationLine { out += t(line) + "\n" }
        out += paint.bold(summary) + "\n"
        if let generatedAt { out += "generated at \(t(generatedAt))\n" }
        emit(out)
    }
}

extension Report {
    /// Member lines a folded group shows in the text report at most (the first ones, then a line
    /// with how many more; `--expand` shows every violation).
    public static let textGroupLines = 10

    /// The members of a folded group, one indented line each: entities, line, measured value,
    /// frames; past `textGroupLines`, the first `textGroupLines − 1` and a line with the rest.
    func groupLines(_ group: ViolationGroup, path: String, frameRate: Double) -> String {
        let t: (String) -> String = { Escape.text($0) }
        let shown = group.members.count <= Report.textGroupLines ? group.members[...] : group.members.prefix(Report.textGroupLines - 1)
        var out = ""
        for m in shown {
            out += "      - \(t(m.entityListWithPrims)) (line \(max(1, m.location?.line ?? 1))): "
            if !numbersSayNothing(unit: m.unit, m.measured, m.threshold) {
                out += m.baselineChange(unit: t(m.unit)) ?? withUnit(fmtValue(m.measured), m.measured, unit: t(m.unit))
                out += m.borderline ? " (borderline)" : ""
                out += "; "
            }
            out += "\(timeRange(m, frameRate: frameRate))\n"
        }
        let more = group.members.count - shown.count
        if more > 0 { out += "      … and \(more) more (--expand lists each)\n" }
        return out
    }

    /// `by rule:` and one line per rule with violations: its counts by severity (those listed and
    /// those `--max-violations` left out), rules with more errors first, then warnings, then info,
    /// then by id. With a baseline, each line ends with how many of them are new or worsened, or
    /// `(known)` when none is (the s31 trial's F8: which rule's count holds the new problem).
    /// Empty without violations.
    func ruleSummary() -> String {
        var counts: [String: [Int]] = [:]
        var gating: [String: Int] = [:]
        for s in scenes {
            for v in s.violations {
                counts[v.rule, default: [0, 0, 0]][v.severity.rank] += 1
                if v.baseline?.gates == true { gating[v.rule, default: 0] += 1 }
            }
            for o in s.omitted {
                counts[o.rule, default: [0, 0, 0]][o.severity.rank] += o.count
                for v in o.violations where v.baseline?.gates == true { gating[o.rule, default: 0] += 1 }
            }
        }
        let compared = baselineStatusCounts != nil
        guard !counts.isEmpty else { return "" }
        let rows = counts.sorted { a, b in a.value != b.value ? a.value.lexicographicallyPrecedes(b.value, by: >) : a.key < b.key }
        let width = rows.map(\.key.count).max() ?? 0
        var out = lowerBoundScenes > 0 ? "by rule (at least; a scene stopped at the tracking limit):\n" : "by rule:\n"
        for (rule, c) in rows {
            let parts = zip(c, ["error", "warning", "info"]).filter { $0.0 > 0 }.map { n, name in
                "\(n) \(name)\(n == 1 || name == "info" ? "" : "s")"
            }
            let status = !compared ? "" : gating[rule].map { "  (\($0) new or worsened)" } ?? "  (known)"
            out += "  " + rule + String(repeating: " ", count: width - rule.count) + "  " + parts.joined(separator: ", ") + status + "\n"
        }
        return out
    }
}

extension ReportViolation {
    /// The entities for people: comma-separated, or "(whole scene)" for a scene-wide violation.
    var entityList: String { entities.isEmpty ? "(whole scene)" : entities.joined(separator: ", ") }
}

func fmtValue(_ x: Double) -> String {
    let a = abs(x)
    if a > 0 && a < 0.01 && a.isFinite {
        // At least one significant digit: 5 mm is "0.005" m, not "0.01"; 0.0004 is "0.0004".
        var decimals = 3, scaled = a * 1000
        while scaled.rounded() < 1 && decimals < 12 { scaled *= 10; decimals += 1 }
        return fmt(x, decimals)
    }
    return a >= 100 ? fmt(x, 0) : a >= 10 ? fmt(x, 1) : fmt(x, 2)
}

/// Whether a violation's numbers say nothing its message and time range do not, so the text,
/// Markdown and HTML reports leave them out (JSON, SARIF and the rest keep them):
/// - a yes/no check (unit `count`, measured and threshold each 0 or 1: an element "has no label",
///   a video "is not started by the person");
/// - a count checked against 0, which the message names ("holds 6 interactive or text items",
///   "moves toward the viewer and repeats forever": 2 kinds of motion);
/// - a duration checked against 0 s, where any length counts: the time range says how long.
func numbersSayNothing(unit: String, _ measured: Double, _ threshold: Double) -> Bool {
    switch unit {
    case "count": return threshold == 0 || ((measured == 0 || measured == 1) && threshold == 1)
    case "s": return threshold == 0
    default: return false
    }
}

/// A measured value or threshold with its unit as the text, Markdown and HTML reports print it:
/// a count as a whole number without the word ("2"), anything else as `fmtValue` and the unit.
func withUnit(_ value: String, _ x: Double, unit: String) -> String {
    unit == "count" && x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(value) \(unit)"
}

/// A violation's measured value and threshold as `fmtValue` writes them, both with more decimals
/// (up to 6) when two different numbers would print alike: "measured 0.007 m, threshold 0.005 m",
/// not "0.01 m, threshold 0.01 m".
func fmtMeasure(_ measured: Double, _ threshold: Double) -> (measured: String, threshold: String) {
    let m = fmtValue(measured), t = fmtValue(threshold)
    guard m == t, measured != threshold, measured.isFinite, threshold.isFinite else { return (m, t) }
    for decimals in 3...6 {
        let (a, b) = (fmt(measured, decimals), fmt(threshold, decimals))
        if a != b { return (a, b) }
    }
    return (m, t)
}

/// "t = 6.01–12.42 s": the seconds of a violation's first and last frame, as the text report's
/// time line and the Markdown table's time column start.
func secondsRange(_ v: ReportViolation) -> String {
    "t = \(fmt(v.firstTime, 2))–\(fmt(v.lastTime, 2)) s"
}

extension ReportViolation {
    /// A worsened violation's change since the baseline, in the words of the text, Markdown and
    /// HTML reports: "warning → error" when the severity changed, "61.8 % → 61.9 %" when the
    /// value did (both, comma-separated; `fmtMeasure`'s extra decimals when they would print
    /// alike). `unit` is escaped for the format by the caller. Nil for any other status, or
    /// without the baseline's value.
    func baselineChange(unit: String) -> String? {
        guard baseline == .worsened, let old = baselineMeasured else { return nil }
        var parts: [String] = []
        if let s = baselineSeverity, s != severity { parts.append("\(s.rawValue) → \(severity.rawValue)") }
        if ReportViolation.stored(old) != ReportViolation.stored(measured) {
            let shown = fmtMeasure(old, measured)
            parts.append("\(withUnit(shown.measured, old, unit: unit)) → \(withUnit(shown.threshold, measured, unit: unit))")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// "new since the baseline", "worsened since the baseline: 61.8 % → 61.9 %".
    func baselineNote(unit: String) -> String {
        guard let b = baseline else { return "" }
        return "\(b.rawValue) since the baseline" + (baselineChange(unit: unit).map { ": " + $0 } ?? "")
    }
}

func timeRange(_ v: ReportViolation, frameRate: Double) -> String {
    let spans = v.spans.prefix(3).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
    let hidden = max(0, v.spans.count - 3) + v.omittedSpans
    let more = hidden > 0 ? " and \(hidden) more span\(hidden == 1 ? "" : "s")" : ""
    let seconds = frameRate > 0 ? fmt(Double(v.frameCount) / frameRate, 2) : "?"
    return "\(secondsRange(v)), frames \(spans.joined(separator: ", "))\(more) (\(v.frameCount) frame\(v.frameCount == 1 ? "" : "s"), \(seconds) s)"
}

/// ANSI colour, only when writing to a terminal.
struct Painter {
    var enabled: Bool
    func wrap(_ s: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap(s, "1") }
    func red(_ s: String) -> String { wrap(s, "31;1") }
    func yellow(_ s: String) -> String { wrap(s, "33;1") }
    func blue(_ s: String) -> String { wrap(s, "34") }
    func green(_ s: String) -> String { wrap(s, "32") }
}
