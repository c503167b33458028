import Foundation
import SpatialModel
import Rules

extension Report {
    /// Reads a saved `spatialcheck-report/1` JSON report. Reports come from other machines and
    /// pull requests, so the reader is strict about structure and bounded in size and nesting.
    public static func parse(_ data: Data, path: String, maxBytes: Int = 256 << 20) throws(Diagnostic) -> Report {
        func fail(_ message: String, _ hint: String? = nil) -> Diagnostic {
            Diagnostic(file: path, message: message, hint: hint)
        }
        guard data.count <= maxBytes else {
            throw fail("report is \(data.count) bytes, more than the \(maxBytes)-byte limit")
        }
        // JSONSerialization recurses per nesting level; reject absurd nesting before parsing.
        var depth = 0, inString = false, escaped = false
        for b in data {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > 64 { throw fail("report nests deeper than 64 levels; it is not a spatialcheck report") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data, options: []) } catch {
            throw fail("not valid JSON", "pass a report written by `spatialcheck validate --format json`")
        }
        guard let top = root as? [String: Any] else { throw fail("expected a JSON object at the top level") }
        guard let format = top["format"] as? String, format == Report.formatTag else {
            throw fail("not a \(Report.formatTag) report (format is \(String(describing: top["format"] ?? "missing")))",
                       "pass a report written by `spatialcheck validate --format json`")
        }
        let tool = top["tool"] as? [String: Any]
        let settings = top["settings"] as? [String: Any]
        // settings.failOn: "never" is nil; a report that does not say is gated at the default, error.
        let failOn: Severity?
        switch settings?["failOn"] {
        case nil: failOn = .error
        case let text as String where text == "never": failOn = nil
        case let text as String where Severity(rawValue: text) != nil: failOn = Severity(rawValue: text)
        default:
            throw fail("settings.failOn must be error, warning, info or never",
                       "pass a report written by `spatialcheck validate --format json`")
        }
        guard let scenesArray = top["scenes"] as? [Any] else { throw fail("missing 'scenes' array") }
        var scenes: [SceneReport] = []
        for (i, item) in scenesArray.enumerated() {
            guard let s = item as? [String: Any], let scenePath = s["path"] as? String,
                  let statusText = s["status"] as? String, let status = SceneReport.Status(rawValue: statusText)
            else { throw fail("scenes[\(i)] needs 'path' and 'status' (checked or error)") }
            var scene = SceneReport(path: scenePath, name: s["name"] as? String, status: status,
                                    frameRate: number(s["frameRate"]) ?? 0, frames: Int(clamping: number(s["frames"]) ?? 0),
                                    duration: number(s["duration"]) ?? 0)
            scene.pointAngle = number(s["pointAngle"])
            scene.rulesChecked = (s["rulesChecked"] as? [Any])?.compactMap { $0 as? String } ?? []
            scene.errors = ((s["errors"] as? [Any]) ?? []).compactMap { diagnostic($0, file: scenePath) }
            scene.warnings = ((s["warnings"] as? [Any]) ?? []).compactMap { diagnostic($0, file: scenePath) }
            for (j, v) in ((s["violations"] as? [Any]) ?? []).enumerated() {
                guard let v = v as? [String: Any], let rule = v["rule"] as? String,
                      let sevText = v["severity"] as? String, let severity = Severity(rawValue: sevText),
                      let measured = number(v["measured"]), let threshold = number(v["threshold"])
                else { throw fail("scenes[\(i)].violations[\(j)] needs rule, severity, measured and threshold") }
                let spans: [ClosedRange<Int>] = ((v["spans"] as? [Any]) ?? []).compactMap { span in
                    guard let pair = span as? [Any], pair.count == 2, let a = number(pair[0]), let b = number(pair[1]),
                          a.isFinite, b.isFinite, a <= b, abs(a) < 1e12, abs(b) < 1e12 else { return nil }
                    return Int(a)...Int(b)
                }
                let loc = (v["location"] as? [String: Any]).flatMap { l -> SourceLocation? in
                    guard let line = number(l["line"]), let column = number(l["column"]),
                          abs(line) < 1e9, abs(column) < 1e9 else { return nil }
                    return SourceLocation(line: Int(line), column: Int(column))
                }
                var violation = (ReportViolation(
                    rule: rule, severity: severity, entities: ((v["entities"] as? [Any]) ?? []).compactMap { $0 as? String },
                    spans: spans, frameCount: Int(clamping: number(v["frameCount"]) ?? 0),
                    firstTime: number(v["firstTime"]) ?? 0, lastTime: number(v["lastTime"]) ?? 0,
                    measured: measured, threshold: threshold, unit: v["unit"] as? String ?? "",
                    worstFrame: Int(clamping: number(v["worstFrame"]) ?? 0), message: v["message"] as? String ?? "",
                    help: v["help"] as? String ?? "", fingerprint: v["fingerprint"] as? String ?? "",
                    location: loc, borderline: v["borderline"] as? Bool ?? false))
                violation.omittedSpans = Int(clamping: number(v["omittedSpans"]).map { max(0, min($0, 1e12)) } ?? 0)
                scene.violations.append(violation)
            }
            for o in (s["omittedViolations"] as? [Any]) ?? [] {
                guard let o = o as? [String: Any], let rule = o["rule"] as? String,
                      let severity = (o["severity"] as? String).flatMap(Severity.init(rawValue:)),
                      let count = number(o["count"]), count >= 1, count < 1e12 else { continue }
                scene.omitted.append(OmittedViolations(rule: rule, severity: severity, count: Int(count)))
            }
            scene.normalizeViolations()
            scenes.append(scene)
        }
        return Report(toolVersion: tool?["version"] as? String ?? "?",
                      pointAngle: number(settings?["pointAngle"]) ?? Units.defaultPointAngle,
                      failOn: failOn, scenes: scenes)
    }

    /// Merges reports: scenes in order of first appearance; a scene path seen again replaces the
    /// earlier one (a later run of the same scene wins). The merged `failOn` is the strictest of
    /// the reports' (info before warning before error before never), so that merging the shards
    /// of a run never lets through what one shard's own gate would have failed.
    public static func merge(_ reports: [Report]) -> Report {
        var order: [String] = []
        var byPath: [String: SceneReport] = [:]
        for r in reports {
            for s in r.scenes {
                if byPath[s.path] == nil { order.append(s.path) }
                byPath[s.path] = s
            }
        }
        return Report(toolVersion: reports.last?.toolVersion ?? "?", pointAngle: reports.last?.pointAngle ?? Units.defaultPointAngle,
                      failOn: reports.isEmpty ? .error : strictestFailOn(reports.map(\.failOn)),
                      scenes: order.compactMap { byPath[$0] })
    }

    /// The strictest of several `failOn` settings (nil = never, the most permissive).
    public static func strictestFailOn(_ settings: [Severity?]) -> Severity? {
        settings.compactMap { $0 }.max()
    }
}

extension SceneReport {
    /// Puts violations read from a file in the order `validate` writes them, whatever the file
    /// says: each violation's entities sorted; violations sorted by severity, rule, entities, then
    /// the rule's main measurement before its sub-checks; a missing or empty fingerprint
    /// recomputed from rule, scene path and entities as `validate` computes it.
    mutating func normalizeViolations() {
        for i in violations.indices { violations[i].entities.sort() }
        var taken = Set(violations.map(\.fingerprint).filter { !$0.isEmpty })
        for i in violations.indices where violations[i].fingerprint.isEmpty {
            let v = violations[i]
            let candidates = Self.fingerprintCandidates(rule: v.rule, scenePath: path, entities: v.entities)
            // The measurement whose unit is the violation's (the main one first), not yet used by
            // another violation of the same entities; else the main measurement's.
            let meta = RuleCatalog.metadata(id: v.rule)
            let byUnit = candidates.filter { c in
                guard let meta else { return c.variant == 0 }
                let unit = c.variant == 0 ? meta.unit : meta.subchecks[c.variant - 1].unit
                return unit == v.unit
            }
            let chosen = (byUnit + candidates).first { !taken.contains($0.fingerprint) } ?? candidates[0]
            violations[i].fingerprint = chosen.fingerprint
            taken.insert(chosen.fingerprint)
        }
        let keyed = violations.enumerated().map { (offset, v) -> (variant: Int, offset: Int, violation: ReportViolation) in
            let variant = Self.fingerprintCandidates(rule: v.rule, scenePath: path, entities: v.entities)
                .first { $0.fingerprint == v.fingerprint }?.variant ?? Int.max
            return (variant, offset, v)
        }
        violations = keyed.sorted { x, y in
            let a = x.violation, b = y.violation
            if a.severity != b.severity { return a.severity < b.severity }
            if a.rule != b.rule { return a.rule < b.rule }
            if a.entities != b.entities { return a.entities.lexicographicallyPrecedes(b.entities) }
            if x.variant != y.variant { return x.variant < y.variant }
            return x.offset < y.offset
        }.map(\.violation)
    }

    /// The fingerprints a violation of `rule` on `entities` can have: variant 0 is the rule's main
    /// measurement, variant n its n-th sub-check (`RuleMetadata.subchecks`).
    private static func fingerprintCandidates(rule: String, scenePath: String, entities: [String]) -> [(variant: Int, fingerprint: String)] {
        let subchecks = RuleCatalog.metadata(id: rule)?.subchecks ?? []
        return [(0, violationFingerprint(rule: rule, scenePath: scenePath, entities: entities))]
            + subchecks.enumerated().map { n, sub in
                (n + 1, violationFingerprint(rule: rule, scenePath: scenePath, entities: entities, subcheck: sub.name))
            }
    }
}

private func number(_ any: Any?) -> Double? {
    // (On Linux an NSNumber holding 0 or 1 also casts to Bool, so booleans are not excluded here.)
    guard let n = any as? NSNumber else { return nil }
    let d = n.doubleValue
    return d.isFinite ? d : nil
}

private extension Int {
    init(clamping d: Double) {
        self = d >= 1e12 ? 1_000_000_000_000 : d <= -1e12 ? -1_000_000_000_000 : Int(d)
    }
}

private func diagnostic(_ any: Any, file: String) -> Diagnostic? {
    guard let d = any as? [String: Any], let message = d["message"] as? String else { return nil }
    let loc = (d["location"] as? [String: Any]).flatMap { l -> SourceLocation? in
        guard let line = number(l["line"]), let column = number(l["column"]), abs(line) < 1e9, abs(column) < 1e9 else { return nil }
        return SourceLocation(line: Int(line), column: Int(column))
    }
    return Diagnostic(file: d["file"] as? String ?? file, location: loc, message: message, hint: d["hint"] as? String)
}

// MARK: - Baselines

/// How a violation compares with a baseline report (matched by fingerprint: rule + scene + entities).
public enum BaselineStatus: String, Sendable, CaseIterable {
    case new, worsened, unchanged, improved, fixed
}

public struct BaselineEntry: Sendable {
    public var status: BaselineStatus
    public var scene: String
    public var current: ReportViolation?
    public var baseline: ReportViolation?
}

public struct BaselineComparison: Sendable {
    public var entries: [BaselineEntry]
    public func count(_ s: BaselineStatus) -> Int { entries.reduce(0) { $0 + ($1.status == s ? 1 : 0) } }

    /// Compares `current` with `baseline`. A violation is worse when its measured value moved further
    /// past the threshold (below it for minimums like spacing, above it for maximums like distance
    /// walked), or its severity rose. Values are compared at the precision the JSON report stores
    /// them (`ReportViolation.measuredDigits` significant digits): a value that would be written as
    /// the baseline's number is unchanged.
    public init(current: Report, baseline: Report) {
        var old: [String: (String, ReportViolation)] = [:]
        for s in baseline.scenes { for v in s.violations { old[v.fingerprint] = (s.path, v) } }
        var seen = Set<String>()
        var entries: [BaselineEntry] = []
        for s in current.scenes {
            for v in s.violations {
                guard let (_, b) = old[v.fingerprint] else {
                    entries.append(BaselineEntry(status: .new, scene: s.path, current: v, baseline: nil))
                    continue
                }
                seen.insert(v.fingerprint)
                entries.append(BaselineEntry(status: Self.classify(v, against: b), scene: s.path, current: v, baseline: b))
            }
        }
        let currentPaths = Set(current.scenes.filter { $0.status == .checked }.map(\.path))
        for s in baseline.scenes {
            for v in s.violations where !seen.contains(v.fingerprint) && currentPaths.contains(s.path) {
                entries.append(BaselineEntry(status: .fixed, scene: s.path, current: nil, baseline: v))
            }
        }
        self.entries = entries
    }

    static func classify(_ v: ReportViolation, against b: ReportViolation) -> BaselineStatus {
        if v.severity < b.severity { return .worsened }
        // Which way is "worse": a minimum threshold is violated from below.
        let minimum = v.measured < v.threshold || b.measured < b.threshold
        let now = ReportViolation.stored(v.measured), then = ReportViolation.stored(b.measured)
        if now == then { return .unchanged }
        let worse = minimum ? now < then : now > then
        return worse ? .worsened : .improved
    }

    /// Fingerprints that still count toward `--fail-on`: new and worsened violations.
    public var gating: Set<String> {
        Set(entries.filter { $0.status == .new || $0.status == .worsened }.compactMap { $0.current?.fingerprint })
    }
}

extension Report {
    /// Marks each violation with its baseline status and records the baseline's fixed violations.
    public mutating func apply(_ comparison: BaselineComparison) {
        let status = Dictionary(comparison.entries.compactMap { e in e.current.map { ($0.fingerprint, e.status) } },
                                uniquingKeysWith: { a, _ in a })
        for s in scenes.indices {
            for v in scenes[s].violations.indices {
                scenes[s].violations[v].baseline = status[scenes[s].violations[v].fingerprint]
            }
        }
        fixedInBaseline = comparison.entries.filter { $0.status == .fixed }.compactMap { e in
            e.baseline.map { (scene: e.scene, violation: $0) }
        }
    }
}
