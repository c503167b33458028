import Foundation
import SpatialModel
import Rules

/// A validation report (`spatialcheck-report/1`): what `validate` produces and `report` reads.
/// Independent of the rule engine's types so that saved reports can be read back and merged.
public struct Report: Sendable {
    public static let formatTag = "spatialcheck-report/1"
    public var toolVersion: String
    public var pointAngle: Double
    public var failOn: Severity?
    public var scenes: [SceneReport]
    /// Violations of the baseline that no longer occur (set when validating against a baseline).
    public var fixedInBaseline: [(scene: String, violation: ReportViolation)] = []
    /// When the report was made, as ISO 8601 UTC (`2025-06-01T12:00:00Z`); only with `--timestamp`,
    /// so that by default the same input gives byte-identical output.
    public var generatedAt: String?

    public init(toolVersion: String, pointAngle: Double, failOn: Severity?, scenes: [SceneReport]) {
        self.toolVersion = toolVersion; self.pointAngle = pointAngle; self.failOn = failOn; self.scenes = scenes
    }

    public var hasLoadErrors: Bool { scenes.contains { $0.status == .error } }
    public func count(_ s: Severity) -> Int { scenes.reduce(0) { $0 + $1.count(s) } }
    /// True when some violation is at or above `failOn` (nil = never).
    public var failsGate: Bool { failsGate(gating: nil) }

    /// With a baseline, only the fingerprints in `gating` (new or worsened violations) count;
    /// without `gating`, violations marked by `apply(_:)` as unchanged or improved do not count.
    public func failsGate(gating: Set<String>?) -> Bool {
        guard let failOn else { return false }
        return scenes.contains {
            $0.violations.contains { v in
                guard v.severity.rank <= failOn.rank else { return false }
                if let gating { return gating.contains(v.fingerprint) }
                return v.baseline.map { $0 == .new || $0 == .worsened } ?? true
            }
        }
    }

    /// The ISO 8601 UTC form of `date` used by `generatedAt` (whole seconds).
    public static func timestamp(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

public struct SceneReport: Sendable {
    public enum Status: String, Sendable { case checked, error }
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
    /// Violations left out of `violations` by `--max-violations` (and SARIF's result limit), per
    /// rule and severity, sorted; they still count in `count(_:)` and decided the exit code.
    public var omitted: [OmittedViolations] = []

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
}

/// Violations of one rule and severity left out of a scene's report.
public struct OmittedViolations: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    public var count: Int
    public init(rule: String, severity: Severity, count: Int) { self.rule = rule; self.severity = severity; self.count = count }

    /// The line each report format prints for what a scene left out.
    public static func notShown(_ omitted: [OmittedViolations]) -> String? {
        let n = omitted.reduce(0) { $0 + $1.count }
        guard n > 0 else { return nil }
        var rules: [String] = []
        for o in omitted where !rules.contains(o.rule) { rules.append(o.rule) }
        let list = rules.prefix(5).joined(separator: ", ") + (rules.count > 5 ? " and \(rules.count - 5) more rules" : "")
        return "\(n) more violation\(n == 1 ? "" : "s") not shown (\(list)); they count in the summary and the exit code. Raise the limit with --max-violations N (0 = no limit)"
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
    /// Runs not listed in `spans` (the aggregation keeps the first ones and the latest); their
    /// frames are in `frameCount`.
    public var omittedSpans = 0

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

    /// `x` as the JSON report stores a measured value (infinite and NaN values stay as they are).
    public static func stored(_ x: Double) -> Double { JSON.roundedValue(x, digits: measuredDigits) ?? x }
}

// MARK: - JSON

extension Report {
    public func json() -> JSON {
        .object([
            ("format", .string(Report.formatTag)),
            ("tool", .object([("name", .string("spatialcheck")), ("version", .string(toolVersion))])),
        ] + (generatedAt.map { [("generatedAt", JSON.string($0))] } ?? []) + [
            ("settings", .object([
                ("pointAngle", .rounded(pointAngle)),
                ("failOn", .string(failOn?.rawValue ?? "never")),
            ])),
            ("scenes", .array(scenes.map { $0.json() })),
        ] + baselineJSON())
    }

    private func baselineJSON() -> [(String, JSON)] {
        let statuses = scenes.flatMap { $0.violations.compactMap(\.baseline) }
        guard !statuses.isEmpty || !fixedInBaseline.isEmpty else { return [] }
        var counts: [(String, JSON)] = BaselineStatus.allCases.filter { $0 != .fixed }.map { s in
            (s.rawValue, .int(statuses.filter { $0 == s }.count))
        }
        counts.append(("fixed", .int(fixedInBaseline.count)))
        return [("baseline", .object(counts + [
            ("fixedViolations", .array(fixedInBaseline.map { f in
                .object([("scene", .string(f.scene)), ("rule", .string(f.violation.rule)),
                         ("entities", .array(f.violation.entities.map(JSON.string))),
                         ("fingerprint", .string(f.violation.fingerprint))])
            })),
        ]))]
    }
}

extension SceneReport {
    public func json() -> JSON {
        var m: [(String, JSON)] = [("path", .string(path))]
        if let name { m.append(("name", .string(name))) }
        m.append(("status", .string(status.rawValue)))
        switch status {
        case .checked:
            m += [
                ("frameRate", .integralOrNumber(frameRate)),
                ("frames", .int(frames)),
                ("duration", .rounded(duration)),
            ]
            if let pointAngle { m.append(("pointAngle", .rounded(pointAngle))) }
            m += [
                ("summary", .object(Severity.allCases.map { ($0.rawValue, .int(count($0))) })),
                ("violations", .array(violations.map { $0.json() })),
            ]
            if !omitted.isEmpty {
                m.append(("omittedViolations", .array(omitted.map {
                    .object([("rule", .string($0.rule)), ("severity", .string($0.severity.rawValue)), ("count", .int($0.count))])
                })))
            }
            if !warnings.isEmpty { m.append(("warnings", .array(warnings.map(diagnosticJSON)))) }
            m.append(("rulesChecked", .array(rulesChecked.map(JSON.string))))
        case .error:
            m.append(("errors", .array(errors.map(diagnosticJSON))))
        }
        return .object(m)
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
    public func json() -> JSON {
        .object([
            ("rule", .string(rule)),
            ("severity", .string(severity.rawValue)),
            ("entities", .array(entities.map(JSON.string))),
            ("spans", .array(spans.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
        ] + (omittedSpans > 0 ? [("omittedSpans", JSON.int(omittedSpans))] : []) + [
            ("frameCount", .int(frameCount)),
            ("firstTime", .rounded(firstTime, digits: 6)),
            ("lastTime", .rounded(lastTime, digits: 6)),
            ("measured", .rounded(measured, digits: Self.measuredDigits)),
            ("threshold", .rounded(threshold, digits: 6)),
            ("unit", .string(unit)),
            ("worstFrame", .int(worstFrame)),
            ("borderline", .bool(borderline)),
        ] + (baseline.map { [("baseline", JSON.string($0.rawValue))] } ?? []) + [
            ("message", .string(message)),
            ("help", .string(help)),
            ("fingerprint", .string(fingerprint)),
            ("location", location.map { .object([("line", .int($0.line)), ("column", .int($0.column))]) } ?? .null),
        ])
    }
}

// MARK: - Text

extension Report {
    /// The terminal report: per scene, violations grouped by severity and rule, each with entities,
    /// time range, measured vs threshold, the fix and the HIG link; then a summary line.
    public func text(color: Bool = false, quiet: Bool = false) -> String {
        let paint = Painter(enabled: color)
        var out = ""
        for scene in scenes {
            switch scene.status {
            case .error:
                out += paint.bold(scene.path) + "  " + paint.red("could not be loaded") + "\n"
                for e in scene.errors {
                    out += "  " + e.description.split(separator: "\n", omittingEmptySubsequences: false)
                        .joined(separator: "\n  ") + "\n"
                }
                out += "\n"
            case .checked:
                if quiet && scene.violations.isEmpty { continue }
                let title = scene.name.map { "\(scene.path) (\($0))" } ?? scene.path
                out += paint.bold(title) + "  \(scene.frames) frames at \(fmt(scene.frameRate, 0)) Hz (\(fmt(scene.duration, 2)) s)\n"
                if scene.violations.isEmpty { out += "  " + paint.green("no violations") + "\n" }
                for v in scene.violations {
                    let sev: String
                    switch v.severity {
                    case .error: sev = paint.red("error")
                    case .warning: sev = paint.yellow("warning")
                    case .info: sev = paint.blue("info")
                    }
                    let loc = v.location.map { "\(scene.path):\($0.line):\($0.column)" } ?? scene.path
                    let known = v.baseline.map { $0 == .new || $0 == .worsened ? " (\($0.rawValue) since the baseline)" : " (known: \($0.rawValue) in the baseline)" } ?? ""
                    out += "  \(sev) [\(v.rule)] \(v.entityList)\(known)\n"
                    out += "    \(v.message)\n"
                    out += "    measured \(fmtValue(v.measured)) \(v.unit), threshold \(fmtValue(v.threshold)) \(v.unit)"
                    out += v.borderline ? " (borderline: within 15 % of an angle-derived threshold)" : ""
                    out += "; worst at frame \(v.worstFrame)\n"
                    out += "    \(timeRange(v, frameRate: scene.frameRate))\n"
                    out += "    at \(loc) · \(v.help)\n"
                }
                if let line = OmittedViolations.notShown(scene.omitted) { out += "  \(line)\n" }
                for w in scene.warnings { out += "  " + paint.yellow("note") + ": \(w.message)\n" }
                out += "\n"
            }
        }
        let e = count(.error), w = count(.warning), i = count(.info)
        let failed = scenes.filter { $0.status == .error }.count
        var summary = "\(scenes.count) scene\(scenes.count == 1 ? "" : "s") checked: "
        summary += "\(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(i) info"
        if failed > 0 { summary += ", \(failed) could not be loaded" }
        let statuses = scenes.flatMap { $0.violations.compactMap(\.baseline) }
        if !statuses.isEmpty || !fixedInBaseline.isEmpty {
            func c(_ s: BaselineStatus) -> Int { statuses.filter { $0 == s }.count }
            summary += "; against the baseline: \(c(.new)) new, \(c(.worsened)) worsened, \(c(.unchanged)) unchanged, "
            summary += "\(c(.improved)) improved, \(fixedInBaseline.count) fixed"
        }
        out += paint.bold(summary) + "\n"
        if let generatedAt { out += "generated at \(generatedAt)\n" }
        return out
    }
}

extension ReportViolation {
    /// The entities for people: comma-separated, or "(whole scene)" for a scene-wide violation.
    var entityList: String { entities.isEmpty ? "(whole scene)" : entities.joined(separator: ", ") }
}

func fmtValue(_ x: Double) -> String {
    let a = abs(x)
    return a >= 100 ? fmt(x, 0) : a >= 10 ? fmt(x, 1) : fmt(x, 2)
}

func timeRange(_ v: ReportViolation, frameRate: Double) -> String {
    let spans = v.spans.prefix(3).map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
    let hidden = max(0, v.spans.count - 3) + v.omittedSpans
    let more = hidden > 0 ? " and \(hidden) more span\(hidden == 1 ? "" : "s")" : ""
    let seconds = frameRate > 0 ? fmt(Double(v.frameCount) / frameRate, 2) : "?"
    return "t = \(fmt(v.firstTime, 2))–\(fmt(v.lastTime, 2)) s, frames \(spans.joined(separator: ", "))\(more) (\(v.frameCount) frames, \(seconds) s)"
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
