import Foundation
import SpatialModel
import Rules

extension Report {
    /// The largest saved report `read` and `parse` accept.
    public static let maxReportBytes = 256 << 20
    /// The longest scene path and entity path a saved report may hold, in bytes. A scene path
    /// names a file (Linux's PATH_MAX is 4,096) and `validate` writes entity paths of at most
    /// `SceneLimits.maxEntityPath` bytes; longer ones are refused, because every format repeats
    /// them per violation (SARIF per result: a 1 MB scene path in a 1.3 MB report made more than
    /// 300 MB of SARIF).
    public static let maxReportPathBytes = 4_096
    /// The longest message, hint or scene name kept from a saved report, in bytes; a longer one is
    /// cut there and ends in "…". `validate` writes messages of a few hundred bytes (two entity
    /// paths at most, a list of at most 10 events), and every format prints each one at least once
    /// (HTML twice): a 63 MB message made 147 MB of HTML.
    public static let maxReportTextBytes = 65_536

    /// `s` cut to at most `maxReportTextBytes` UTF-8 bytes at a character boundary, plus "…".
    static func capped(_ s: String) -> String {
        guard s.utf8.count > maxReportTextBytes else { return s }
        var end = s.startIndex, bytes = 0
        for i in s.indices {
            let n = s[i].utf8.count
            if bytes + n > maxReportTextBytes - 3 { break }
            bytes += n
            end = s.index(after: i)
        }
        return String(s[..<end]) + "…"
    }
    /// The most memory reading a saved report may take, as `readingCost` estimates it before
    /// parsing (1.5 GiB). A report `validate` writes costs about 11 bytes of estimate per byte, so
    /// every one up to about 140 MB reads back (about 185,000 violations listed with
    /// `--max-violations 0`); larger ones, and hostile files of small objects, are refused before
    /// any of them is parsed.
    public static let maxReportReadingBytes = 3 << 29

    /// What `JSONSerialization` takes to hold a parsed report, measured on Linux (Swift 6.3)
    /// with `report` on synthetic and real reports: about 64 bytes per value (an 80 MB array of
    /// zeros took 2.3 GB), 448 per array, and 3 KB per object whatever its keys (8 MB of
    /// `{"a":1},` took 3.0 GB; a real 68 MB report of 89,700 violations peaked at 0.9 GB).
    static func readingCost(values: Int, arrays: Int, objects: Int) -> Int {
        64 &* values &+ 448 &* arrays &+ 3072 &* objects
    }

    /// Reads a saved report from a file: its size is checked with `fstat` before anything is read
    /// (a 2 GiB file is refused at once, not read whole), only a regular file is read (a FIFO or
    /// device is refused without blocking), at most `maxBytes` are read, and the file is opened by
    /// its path's bytes (`FileName`). `role` names it in messages ("report", "baseline report").
    public static func read(path: String, maxBytes: Int = maxReportBytes, role: String = "report") throws(Diagnostic) -> Report {
        let bytes: [UInt8]
        do { bytes = try FileName.read(path, limit: maxBytes) } catch {
            // `validate --max-violations 0` on a scene at the tracking limit writes more than the
            // size limit (about 300,000 violations fill 256 MiB): say so, not "not a report".
            throw readFailure(error, path: path, role: role, limit: Int64(maxBytes),
                              tooLargeHint: "a report this large lists hundreds of thousands of violations (written with --max-violations 0), more than spatialcheck reads back; fix the rules with the most violations first (the report's summary counts them) or gate without --baseline until they are below that")
        }
        return try parse(Data(bytes), path: path, maxBytes: maxBytes)
    }

    /// Reads a saved `spatialcheck-report/1` JSON report. Reports come from other machines and
    /// pull requests, so the reader is strict about structure and bounded in size and nesting.
    public static func parse(_ data: Data, path: String, maxBytes: Int = maxReportBytes) throws(Diagnostic) -> Report {
        func fail(_ message: String, _ hint: String? = nil) -> Diagnostic {
            Diagnostic(file: path, message: message, hint: hint)
        }
        guard data.count <= maxBytes else {
            throw fail("report is \(data.count) bytes, more than the \(maxBytes)-byte limit")
        }
        // JSONSerialization recurses per nesting level; reject absurd nesting before parsing. Its
        // memory grows with the values, and most with the objects (`readingCost`): count them
        // (a value follows a comma or opens a collection) and refuse a report whose reading would
        // take more than `maxReportReadingBytes` before building any of it.
        var depth = 0, inString = false, escaped = false, values = 0, arrays = 0, objects = 0
        for b in data {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                values += 1
                if b == UInt8(ascii: "[") { arrays += 1 } else { objects += 1 }
                if depth > 64 { throw fail("report nests deeper than 64 levels; it is not a spatialcheck report") }
            case UInt8(ascii: ","):
                values += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        let cost = readingCost(values: values, arrays: arrays, objects: objects)
        guard cost <= maxReportReadingBytes else {
            throw fail("reading the report would take about \(cost >> 20) MiB of memory, more than the \(maxReportReadingBytes >> 20) MiB limit "
                       + "(\(values) JSON values, \(objects) of them objects)",
                       "a report this large lists a great many violations or spans (written with --max-violations 0), more than spatialcheck reads back; "
                       + "fix the rules with the most violations first (the report's summary counts them), or save the report with the default --max-violations")
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
            guard scenePath.utf8.count <= maxReportPathBytes else {
                throw fail("scenes[\(i)].path is \(scenePath.utf8.count) bytes long; a scene path is at most \(maxReportPathBytes)",
                           "pass a report written by `spatialcheck validate --format json`")
            }
            var scene = SceneReport(path: scenePath, name: (s["name"] as? String).map(capped), status: status,
                                    frameRate: number(s["frameRate"]) ?? 0, frames: Int(clamping: number(s["frames"]) ?? 0),
                                    duration: number(s["duration"]) ?? 0)
            scene.platform = (s["platform"] as? String).map(capped)
            scene.pointAngle = number(s["pointAngle"])
            scene.fixedPointSize = number(s["fixedPointSize"])
            scene.order = number(s["order"]).flatMap { $0 >= 0 && $0 < 1e9 ? Int($0) : nil }
            scene.rulesChecked = (s["rulesChecked"] as? [Any])?.compactMap { $0 as? String } ?? []
            scene.errors = ((s["errors"] as? [Any]) ?? []).compactMap { diagnostic($0, file: scenePath) }
            scene.warnings = ((s["warnings"] as? [Any]) ?? []).compactMap { diagnostic($0, file: scenePath) }
            // At most 10,000 entries (a config has a handful; a hostile report gets a bounded list).
            scene.ignored = ((s["ignored"] as? [Any]) ?? []).prefix(10_000).compactMap { x -> IgnoredViolations? in
                guard let o = x as? [String: Any], let rule = o["rule"] as? String, let entity = o["entity"] as? String,
                      let n = number(o["count"]), n >= 1, n < 1e12 else { return nil }
                // The fingerprints a baseline comparison needs (16 hex digits each; at most 10 million).
                let prints = ((o["fingerprints"] as? [Any]) ?? []).prefix(10_000_000).compactMap { ($0 as? String).map(capped) }
                return IgnoredViolations(rule: capped(rule), entity: capped(entity), scene: (o["scene"] as? String).map(capped),
                                         count: Int(n), location: sourceLocation(o["location"]), fingerprints: prints)
            }
            for (j, v) in ((s["violations"] as? [Any]) ?? []).enumerated() {
                guard let v = v as? [String: Any], let rule = v["rule"] as? String,
                      let sevText = v["severity"] as? String, let severity = Severity(rawValue: sevText),
                      let measured = number(v["measured"]), let threshold = number(v["threshold"])
                else { throw fail("scenes[\(i)].violations[\(j)] needs rule, severity, measured and threshold") }
                let entities = ((v["entities"] as? [Any]) ?? []).compactMap { $0 as? String }
                if let long = entities.first(where: { $0.utf8.count > maxReportPathBytes }) {
                    throw fail("scenes[\(i)].violations[\(j)] names an entity path of \(long.utf8.count) bytes; an entity path is at most \(maxReportPathBytes)",
                               "pass a report written by `spatialcheck validate --format json`")
                }
                let spans: [ClosedRange<Int>] = ((v["spans"] as? [Any]) ?? []).compactMap { span in
                    guard let pair = span as? [Any], pair.count == 2, let a = number(pair[0]), let b = number(pair[1]),
                          a.isFinite, b.isFinite, a <= b, abs(a) < 1e12, abs(b) < 1e12 else { return nil }
                    return Int(a)...Int(b)
                }
                var violation = (ReportViolation(
                    rule: rule, severity: severity, entities: entities,
                    spans: spans, frameCount: Int(clamping: number(v["frameCount"]) ?? 0),
                    firstTime: number(v["firstTime"]) ?? 0, lastTime: number(v["lastTime"]) ?? 0,
                    measured: measured, threshold: threshold, unit: v["unit"] as? String ?? "",
                    worstFrame: Int(clamping: number(v["worstFrame"]) ?? 0), message: capped(v["message"] as? String ?? ""),
                    help: v["help"] as? String ?? "", fingerprint: v["fingerprint"] as? String ?? "",
                    location: sourceLocation(v["location"]), borderline: v["borderline"] as? Bool ?? false))
                violation.omittedSpans = Int(clamping: number(v["omittedSpans"]).map { max(0, min($0, 1e12)) } ?? 0)
                // The USD prims of its entities: only for entities it names, each once, capped.
                var named = Set(entities)
                for x in ((v["usdPrims"] as? [Any]) ?? []).prefix(entities.count) {
                    guard let o = x as? [String: Any], let e = o["entity"] as? String, named.remove(e) != nil,
                          let p = o["path"] as? String, let l = o["layer"] as? String,
                          p.utf8.count <= maxReportPathBytes, l.utf8.count <= maxReportPathBytes else { continue }
                    violation.usdPrims.append(.init(entity: e, prim: USDPrimRef(path: p, layer: l)))
                }
                scene.violations.append(violation)
            }
            for o in (s["omittedViolations"] as? [Any]) ?? [] {
                guard let o = o as? [String: Any], let rule = o["rule"] as? String,
                      let severity = (o["severity"] as? String).flatMap(Severity.init(rawValue:)),
                      let count = number(o["count"]), count >= 1, count < 1e12 else { continue }
                // At most `count` of them (a hostile report cannot make the list longer than it says).
                var left: [LeftOutViolation] = []
                for f in ((o["fingerprints"] as? [Any]) ?? []).prefix(Int(count)) {
                    // (A value that was not finite is written as null.)
                    guard let f = f as? [Any], f.count == 3, let fp = f[0] as? String else { continue }
                    left.append(LeftOutViolation(fingerprint: String(fp.prefix(64)), measured: number(f[1]) ?? .nan,
                                                 threshold: number(f[2]) ?? .nan))
                }
                scene.omitted.append(OmittedViolations(rule: rule, severity: severity, count: Int(count), violations: left))
            }
            if let st = s["stopped"] as? [String: Any], let after = number(st["afterFrame"]), let frames = number(st["frames"]),
               after >= 0, after < 1e12, frames >= 0, frames < 1e12 {
                if let budget = number(st["pairTestBudget"]), budget >= 0, budget < 1e18 {
                    scene.stopped = EarlyStop(afterFrame: Int(after), frames: Int(frames), pairTestBudget: Int(budget))
                    if let p = st["projection"] as? [String: Any], let from = number(p["fromFrame"]), let to = number(p["toFrame"]),
                       let rate = number(p["unitsPerFrame"]), let units = number(p["projectedWork"]), let suggested = number(p["suggestedMaxWork"]),
                       [from, to, rate, units, suggested].allSatisfy({ $0 >= 0 && $0 < 9e18 }), from <= to {
                        scene.stopped?.projection = EarlyStop.Projection(window: Int(from)...Int(to), rate: Int(rate), units: Int(units),
                                                                         suggestedBudget: Int(suggested))
                    }
                } else if let limit = number(st["trackingLimit"]), limit >= 0, limit < 1e12 {
                    scene.stopped = EarlyStop(afterFrame: Int(after), frames: Int(frames), trackingLimit: Int(limit))
                }
            }
            if let g = s["geometry"] { scene.geometry = SceneSnapshot(json: g) }
            scene.normalizeViolations()
            scenes.append(scene)
        }
        var report = Report(toolVersion: tool?["version"] as? String ?? "?",
                            pointAngle: number(settings?["pointAngle"]) ?? Units.defaultPointAngle,
                            failOn: failOn, scenes: scenes)
        if let shard = top["shard"] {
            guard let o = shard as? [String: Any], let i = number(o["index"]), let n = number(o["count"]),
                  abs(i) < 1e6, abs(n) < 1e6, let parsed = Shard(index: Int(i), count: Int(n)) else {
                throw fail("'shard' must be {\"index\": i, \"count\": n} with 1 ≤ i ≤ n ≤ 1024",
                           "pass a report written by `spatialcheck validate --shard i/n --format json`")
            }
            report.shard = parsed
        }
        // What the writer's configuration changed (at most 1,000 lines, each capped).
        report.configurationChanges = ((settings?["configurationChanges"] as? [Any]) ?? []).prefix(1000)
            .compactMap { ($0 as? String).map(capped) }
        // What no tool checked, as the writer's catalog counted it (information only; `report`
        // states its own catalog's counts).
        if let o = top["notChecked"] as? [String: Any], let c = number(o["catalogRules"]), let m = number(o["manualReview"]),
           c >= 0, m >= 0, c < 1e6, m < 1e6 {
            report.notChecked = NotChecked(catalogRules: Int(c), manualReview: Int(m))
        }
        // Reports written before fixedPointSize was stated keep the default for their pointAngle.
        if let f = number(settings?["fixedPointSize"]), f.isFinite, f > 0 { report.fixedPointSize = f }
        return report
    }

    /// Puts the reports of the shards of one run (`validate --shard i/n`) back together: scenes in
    /// the order of the unsharded run (each scene's `order`), shard marks removed, so the result
    /// is byte for byte the unsharded report. nil when `reports` are not all shards of `n` parts;
    /// an error naming the missing or repeated shards when they do not make up one whole run.
    public static func joinShards(_ reports: [Report], paths: [String]) throws(Diagnostic) -> Report? {
        guard let first = reports.first?.shard, reports.allSatisfy({ $0.shard != nil }) else {
            if let i = reports.firstIndex(where: { $0.shard != nil }), reports.contains(where: { $0.shard == nil }) {
                throw Diagnostic(file: paths[i], message: "is the report of shard \(reports[i].shard?.description ?? "?"), merged with reports that are not shards",
                                 hint: "merge the reports of every shard of one run (`validate --shard i/n`), and only those")
            }
            return nil
        }
        let count = first.count
        var seen: [Int: String] = [:]
        for (r, path) in zip(reports, paths) {
            guard let s = r.shard, s.count == count else {
                throw Diagnostic(file: path, message: "is shard \(r.shard?.description ?? "?"), but the first report is shard \(first.description)",
                                 hint: "merge the shards of one run, all made with the same --shard …/\(count)")
            }
            if let other = seen[s.index] {
                throw Diagnostic(file: path, message: "is shard \(s.description) again (also \(other))", hint: "pass each shard's report once")
            }
            seen[s.index] = path
        }
        let missing = (1...count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw Diagnostic(file: paths[0], message: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) of this run \(missing.count == 1 ? "is" : "are") missing",
                             hint: "pass the JSON reports of all \(count) shards, or those scenes would go unchecked")
        }
        var merged = Report.merge(reports)
        merged.scenes = merged.scenes.enumerated().sorted { a, b in
            let x = a.element.order ?? Int.max, y = b.element.order ?? Int.max
            return x != y ? x < y : a.offset < b.offset
        }.map { var s = $0.element; s.order = nil; return s }
        merged.shard = nil
        return merged
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
        var merged = Report(toolVersion: reports.last?.toolVersion ?? "?", pointAngle: reports.last?.pointAngle ?? Units.defaultPointAngle,
                            failOn: reports.isEmpty ? .error : strictestFailOn(reports.map(\.failOn)),
                            scenes: order.compactMap { byPath[$0] })
        if let last = reports.last { merged.fixedPointSize = last.fixedPointSize }
        // Every report's configuration changes, each once, in the order they came.
        var changes = Set<String>()
        merged.configurationChanges = reports.flatMap(\.configurationChanges).filter { changes.insert($0).inserted }
        return merged
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

    /// The fingerprint `v` (of the scene at `scenePath`) has when its scene is at `newPath`: the
    /// same rule, entities and sub-check. nil when `v`'s fingerprint is not one this version makes.
    static func fingerprint(of v: ReportViolation, scenePath: String, as newPath: String) -> String? {
        let subchecks = RuleCatalog.metadata(id: v.rule)?.subchecks ?? []
        let names: [String?] = [nil] + subchecks.map(\.name)
        for sub in names where violationFingerprint(rule: v.rule, scenePath: scenePath, entities: v.entities, subcheck: sub) == v.fingerprint {
            return violationFingerprint(rule: v.rule, scenePath: newPath, entities: v.entities, subcheck: sub)
        }
        return nil
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

extension Int {
    /// `d` as an Int, clamped to ±1e12 (values read from a saved report).
    init(clamping d: Double) {
        self = d >= 1e12 ? 1_000_000_000_000 : d <= -1e12 ? -1_000_000_000_000 : Int(d)
    }
}

/// A `{line, column}` object of a saved report; nil unless both are numbers below 10⁹ in size.
private func sourceLocation(_ any: Any?) -> SourceLocation? {
    guard let l = any as? [String: Any], let line = number(l["line"]), let column = number(l["column"]),
          abs(line) < 1e9, abs(column) < 1e9 else { return nil }
    return SourceLocation(line: Int(line), column: Int(column))
}

private func diagnostic(_ any: Any, file: String) -> Diagnostic? {
    guard let d = any as? [String: Any], let message = d["message"] as? String else { return nil }
    return Diagnostic(file: (d["file"] as? String).map(Report.capped) ?? file, location: sourceLocation(d["location"]), message: Report.capped(message),
                      hint: (d["hint"] as? String).map(Report.capped))
}

// MARK: - Baselines

/// How a violation compares with a baseline report (matched by fingerprint: rule + scene + entities).
/// `suppressed`: a baseline violation that still occurs but an `ignore` entry of the configuration
/// left out of this run (never a current violation's status; not fixed).
public enum BaselineStatus: String, Sendable, CaseIterable {
    case new, worsened, unchanged, improved, fixed, suppressed

    /// New and worsened violations count toward `--fail-on` and are listed by the quiet views;
    /// known ones (unchanged, improved) and the others do not.
    public var gates: Bool { self == .new || self == .worsened }
}

public struct BaselineEntry: Sendable {
    public var status: BaselineStatus
    public var scene: String
    public var current: ReportViolation?
    public var baseline: ReportViolation?
}

public struct BaselineComparison: Sendable {
    public var entries: [BaselineEntry]
    /// Fixed violations counted but not listed in `entries` (`BaselineMatcher.fixed`'s `perRule`).
    public var fixedNotListed = 0
    public init(entries: [BaselineEntry]) { self.entries = entries }
    public func count(_ s: BaselineStatus) -> Int { entries.reduce(0) { $0 + ($1.status == s ? 1 : 0) } }

    /// Compares `current` with `baseline`. A violation is worse when its measured value moved further
    /// past the threshold (below it for minimums like spacing, above it for maximums like distance
    /// walked), or its severity rose. Values are compared at the precision the JSON report stores
    /// them (`ReportViolation.measuredDigits` significant digits): a value that would be written as
    /// the baseline's number is unchanged.
    /// `fixedPerRule`: at most that many fixed violations of each rule and scene are listed (0: all).
    public init(current: Report, baseline: Report, fixedPerRule: Int = 0) {
        var matcher = BaselineMatcher(baseline: baseline, currentScenePaths: current.scenes.map(\.path))
        var entries: [BaselineEntry] = []
        for s in current.scenes {
            for (m, v) in zip(matcher.compare(s), s.violations) { entries.append(matcher.entry(m, current: v, scene: s.path)) }
            matcher.suppress(s)
            for (matches, o) in zip(matcher.compareLeftOut(s), s.omitted) {
                for (m, v) in zip(matches, o.violations) {
                    entries.append(matcher.entry(m, current: v.violation(rule: o.rule, severity: o.severity), scene: s.path))
                }
            }
        }
        let fixed = matcher.fixed(checkedScenes: current.scenes.filter { $0.status == .checked }, perRule: fixedPerRule)
        self.entries = entries + fixed.entries
        fixedNotListed = fixed.notListed
    }

    /// Baseline scene path → current scene path, for the scenes of each that the other does not
    /// name: a pair when the baseline path is, by whole components, a suffix of the current one or
    /// the other way round, and no other unnamed path matches as many components.
    static func alignedScenePaths(current: [String], baseline: [String]) -> [(String, String)] {
        let currentPaths = Set(current)
        let baselinePaths = Set(baseline)
        let orphans = baseline.filter { !currentPaths.contains($0) }
        guard !orphans.isEmpty else { return [] }
        // Both reports are untrusted and may name 100,000s of scenes: comparing every current
        // path with every orphan took hours for 20,000 of each. Instead every suffix of every
        // orphan (by whole components) is counted once, under a hash built from its last
        // component up; each current path then looks up its own suffixes. An orphan scores
        // min(its length, the current path's length) when one is a suffix of the other, else 0,
        // so the best score is the current path's length when some orphan ends with it, else the
        // length of its longest suffix that is a whole orphan.
        let orphanParts = orphans.map { $0.split(separator: "/") }
        struct Key: Hashable { var length: Int; var hash: Int }
        struct Count { var count: Int; var first: Int }
        func suffixHashes(_ parts: [Substring], _ visit: (Int, Int) -> Void) {
            var h = 0
            for k in 1...max(parts.count, 1) where k <= parts.count {
                var hasher = Hasher()
                hasher.combine(h)
                hasher.combine(parts[parts.count - k])
                h = hasher.finalize()
                visit(k, h)
            }
        }
        var endingWith: [Key: Count] = [:]   // orphans ending with a suffix
        var whole: [Key: Count] = [:]        // orphans that are exactly it
        for (j, parts) in orphanParts.enumerated() {
            suffixHashes(parts) { k, h in
                endingWith[Key(length: k, hash: h), default: Count(count: 0, first: j)].count += 1
                if k == parts.count { whole[Key(length: k, hash: h), default: Count(count: 0, first: j)].count += 1 }
            }
        }
        var pairs: [(String, String)] = []
        var used = Set<String>()
        for c in current where !baselinePaths.contains(c) && !used.contains(c) {
            let cp = c.split(separator: "/")
            guard !cp.isEmpty else { continue }
            var hashes: [Int] = []
            hashes.reserveCapacity(cp.count)
            suffixHashes(cp) { _, h in hashes.append(h) }
            // The best score and its orphans: those ending with all of `cp`, else those that are
            // its longest suffix found. (A hash match is checked on the parts before it counts.)
            var found: (count: Int, first: Int)?
            if let e = endingWith[Key(length: cp.count, hash: hashes[cp.count - 1])],
               orphanParts[e.first].suffix(cp.count).elementsEqual(cp) {
                found = (e.count, e.first)
            } else {
                for k in stride(from: cp.count - 1, through: 1, by: -1) {
                    guard let w = whole[Key(length: k, hash: hashes[k - 1])] else { continue }
                    if orphanParts[w.first].elementsEqual(cp.suffix(k)) { found = (w.count, w.first) }
                    break
                }
            }
            guard let found, found.count == 1 else { continue }
            let match = orphans[found.first]
            guard !used.contains(match) else { continue }
            used.insert(match); used.insert(c)
            pairs.append((match, c))
        }
        return pairs
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
        Set(entries.filter { $0.status.gates }.compactMap { $0.current?.fingerprint })
    }
}

/// `BaselineComparison` one scene at a time, in the run's order: `validate` compares each scene
/// as soon as it is checked and then leaves out the violations `--max-violations` does not keep,
/// instead of holding every scene's violations until the last one is checked. Comparing every
/// scene of a report in order, then `fixed`, gives exactly `BaselineComparison(current:baseline:)`.
public struct BaselineMatcher: Sendable {
    /// How one violation compares: its status and the baseline violation it matched (by place in
    /// the baseline report, so that a scene's matches cost a few bytes per violation).
    public struct Match: Sendable {
        public var status: BaselineStatus
        /// The baseline violation: `violation` ≥ 0 in the scene's list, ≤ -2 one left out of it
        /// (`leftOutCode`), -1 none.
        fileprivate var scene = -1, violation = -1
    }
    /// A left-out baseline violation's place: entry `k` of the scene's `omitted`, record `r` of it.
    private static func leftOutCode(_ k: Int, _ r: Int) -> Int { -2 - (k << 32 | r) }
    private static func leftOutPlace(_ code: Int) -> (k: Int, r: Int) { let c = -2 - code; return (c >> 32, c & 0xffff_ffff) }
    /// Baseline violations by fingerprint (and by the fingerprint they get under the current path
    /// of a scene seen from another folder): their scene and place in it.
    private var old: [String: (scene: Int, violation: Int)] = [:]
    /// Baseline fingerprints matched so far.
    private var seen = Set<String>()
    /// Baseline fingerprints an ignored violation of a compared scene matched (`suppress`).
    private var suppressedPrints = Set<String>()
    private let baseline: Report
    /// Baseline scene path → current scene path (`BaselineComparison.alignedScenePaths`).
    private let aligned: [(String, String)]

    /// `currentScenePaths`: the paths of every scene of the run (checked or not), known before any
    /// is checked.
    public init(baseline: Report, currentScenePaths: [String]) {
        self.baseline = baseline
        for (i, s) in baseline.scenes.enumerated() {
            for (j, v) in s.violations.enumerated() { old[v.fingerprint] = (i, j) }
        }
        // The violations the baseline left out of its lists (by fingerprint only: they have no
        // entities to be fingerprinted again under another path).
        for (i, s) in baseline.scenes.enumerated() {
            for (k, o) in s.omitted.enumerated() {
                for (r, v) in o.violations.enumerated() where old[v.fingerprint] == nil { old[v.fingerprint] = (i, Self.leftOutCode(k, r)) }
            }
        }
        // A baseline scene whose path names no current scene, but is the unique longest match of a
        // current one's path by whole trailing components (`a.scene.yaml` and `Scenes/a.scene.yaml`
        // for `/ci/work/proj/Scenes/a.scene.yaml`), is that scene seen from another folder: its
        // violations are also found under the fingerprint they get with the current path.
        aligned = BaselineComparison.alignedScenePaths(current: currentScenePaths, baseline: baseline.scenes.map(\.path))
        for (from, to) in aligned {
            for (i, s) in baseline.scenes.enumerated() where s.path == from {
                for (j, v) in s.violations.enumerated() {
                    guard let fp = SceneReport.fingerprint(of: v, scenePath: from, as: to), old[fp] == nil else { continue }
                    old[fp] = (i, j)
                }
            }
        }
    }

    /// Compares the violations of `scene`, the next scene of the run: one match per violation, in
    /// their order.
    public mutating func compare(_ scene: SceneReport) -> [Match] {
        scene.violations.map { v in
            // The current fingerprint (scene path relative to the project root); a baseline
            // written by an earlier version used the path relative to the working directory,
            // so when that finds nothing, the old rule's fingerprint is tried.
            let key = old[v.fingerprint] != nil ? v.fingerprint
                : v.legacyFingerprint.flatMap { old[$0] != nil && !seen.contains($0) ? $0 : nil }
            return match(v, key: key)
        }
    }

    /// Compares the violations `scene` left out of its list (a saved report read by `report`):
    /// one match per record of each `omitted` entry, in their order.
    public mutating func compareLeftOut(_ scene: SceneReport) -> [[Match]] {
        scene.omitted.map { o in
            o.violations.map { match($0.violation(rule: o.rule, severity: o.severity), key: old[$0.fingerprint] != nil ? $0.fingerprint : nil) }
        }
    }

    /// Records the violations `scene`'s `ignore` entries left out (their fingerprints, `IgnoredViolations`):
    /// a baseline violation one of them matches still occurs, so `fixed` calls it suppressed.
    public mutating func suppress(_ scene: SceneReport) {
        for i in scene.ignored {
            for fp in i.fingerprints {
                guard let (s, j) = old[fp], let b = violation(s, j) else { continue }
                suppressedPrints.insert(fp); suppressedPrints.insert(b.fingerprint)
            }
        }
    }

    private mutating func match(_ v: ReportViolation, key: String?) -> Match {
        guard let key, let (i, j) = old[key], let b = violation(i, j) else { return Match(status: .new) }
        seen.insert(key); seen.insert(b.fingerprint)
        return Match(status: BaselineComparison.classify(v, against: b), scene: i, violation: j)
    }

    /// Baseline violation `j` of scene `i` (`Match.violation`).
    private func violation(_ i: Int, _ j: Int) -> ReportViolation? {
        guard i >= 0, i < baseline.scenes.count else { return nil }
        let s = baseline.scenes[i]
        if j >= 0 { return j < s.violations.count ? s.violations[j] : nil }
        guard j <= -2 else { return nil }
        let (k, r) = Self.leftOutPlace(j)
        guard k < s.omitted.count, r < s.omitted[k].violations.count else { return nil }
        return s.omitted[k].violations[r].violation(rule: s.omitted[k].rule, severity: s.omitted[k].severity)
    }

    /// The comparison's entry of violation `current` of the scene at `scene`, matched as `m`.
    public func entry(_ m: Match, current: ReportViolation, scene: String) -> BaselineEntry {
        BaselineEntry(status: m.status, scene: scene, current: current, baseline: violation(m.scene, m.violation))
    }

    /// The baseline's violations that no compared violation matched, in the scenes of the run that
    /// were checked (`status == .checked`): fixed, or suppressed when an ignored violation matched
    /// it (`suppress`; every one is an entry, and none counts toward `perRule`). With `perRule` > 0, at most that many of each
    /// rule and baseline scene are listed, in the baseline's order, and the others only counted
    /// (`notListed`): a change that fixes a crowded scene would otherwise list, and hold in memory,
    /// every violation of its baseline.
    public func fixed(checkedScenes: [SceneReport], perRule: Int = 0) -> (entries: [BaselineEntry], notListed: Int) {
        let checkedPaths = Set(checkedScenes.map(\.path))
        let currentPaths = Set(checkedScenes.map(\.path) + checkedScenes.compactMap(\.legacyPath)
                               + aligned.filter { checkedPaths.contains($0.1) }.map(\.0))
        var entries: [BaselineEntry] = []
        var notListed = 0
        for s in baseline.scenes where currentPaths.contains(s.path) {
            var listed: [String: Int] = [:]
            func listing(_ rule: String) -> Bool {
                guard perRule > 0 else { return true }
                let n = listed[rule, default: 0]
                listed[rule] = n + 1
                if n < perRule { return true }
                notListed += 1
                return false
            }
            for v in s.violations where !seen.contains(v.fingerprint) {
                if suppressedPrints.contains(v.fingerprint) {
                    entries.append(BaselineEntry(status: .suppressed, scene: s.path, current: nil, baseline: v))
                } else if listing(v.rule) {
                    entries.append(BaselineEntry(status: .fixed, scene: s.path, current: nil, baseline: v))
                }
            }
            for o in s.omitted {
                for v in o.violations where !seen.contains(v.fingerprint) {
                    let status: BaselineStatus
                    if suppressedPrints.contains(v.fingerprint) { status = .suppressed } else if listing(o.rule) { status = .fixed } else { continue }
                    entries.append(BaselineEntry(status: status, scene: s.path, current: nil,
                                                 baseline: v.violation(rule: o.rule, severity: o.severity)))
                }
            }
        }
        return (entries, notListed)
    }
}

extension Report {
    /// Marks each violation with its baseline status and records the baseline's fixed violations.
    public mutating func apply(_ comparison: BaselineComparison) {
        let status = Dictionary(comparison.entries.compactMap { e in e.current.map { ($0.fingerprint, e.status) } },
                                uniquingKeysWith: { a, _ in a })
        // The baseline's value and severity of each worsened violation, for the reports to say what changed.
        let before = Dictionary(comparison.entries.compactMap { e -> (String, ReportViolation)? in
            guard e.status == .worsened, let c = e.current, let b = e.baseline else { return nil }
            return (c.fingerprint, b)
        }, uniquingKeysWith: { a, _ in a })
        for s in scenes.indices {
            for v in scenes[s].violations.indices {
                let fingerprint = scenes[s].violations[v].fingerprint
                scenes[s].violations[v].baseline = status[fingerprint]
                let b = scenes[s].violations[v].baseline == .worsened ? before[fingerprint] : nil
                scenes[s].violations[v].baselineMeasured = b?.measured
                scenes[s].violations[v].baselineSeverity = b?.severity
            }
            // Left-out violations `validate` compared before leaving them out keep their status.
            for k in scenes[s].omitted.indices {
                for r in scenes[s].omitted[k].violations.indices {
                    if let st = status[scenes[s].omitted[k].violations[r].fingerprint] { scenes[s].omitted[k].violations[r].baseline = st }
                }
            }
        }
        fixedInBaseline = comparison.entries.filter { $0.status == .fixed }.compactMap { e in
            e.baseline.map { (scene: e.scene, violation: $0) }
        }
        fixedNotListed = comparison.fixedNotListed
        suppressedInBaseline = comparison.count(.suppressed)
        // The violations kept for SARIF's suppressed results: `unchanged` when the baseline has them
        // (suppressed there), else `new`, as SARIF states each result's place against the baseline.
        let known = Set(comparison.entries.compactMap { $0.status == .suppressed ? $0.baseline?.fingerprint : nil })
        for s in scenes.indices {
            for i in scenes[s].suppressed.indices {
                scenes[s].suppressed[i].violation.baseline = known.contains(scenes[s].suppressed[i].violation.fingerprint) ? .unchanged : .new
            }
        }
    }
}

extension Report {
    /// The error for a saved report (`role`: "report", "baseline report") that could not be read:
    /// what is wrong and what to do.
    static func readFailure(_ error: FileName.ReadError, path: String, role: String, limit: Int64, tooLargeHint: String) -> Diagnostic {
        switch error {
        case .missing:
            return Diagnostic(file: path, message: "cannot read the \(role): no such file",
                              hint: "write one with `spatialcheck validate … --format json --output \(path)`")
        case .notRegular:
            return Diagnostic(file: path, message: "the \(role) is not a regular file",
                              hint: "pass a JSON file written by `spatialcheck validate --format json`")
        case .tooLarge(let size):
            return Diagnostic(file: path, message: "the \(role) is \(size) bytes, more than the \(limit)-byte limit", hint: tooLargeHint)
        case .unreadable:
            return Diagnostic(file: path, message: "cannot read the \(role)")
        }
    }
}
