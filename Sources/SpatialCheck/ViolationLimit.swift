import Reporting
import Rules
import SpatialModel

extension SpatialCheck {
    /// Violations reported per rule and scene unless `--max-violations` says otherwise. Like
    /// glTF-Validator's `max-issues`, it bounds the report of a scene that breaks one rule
    /// everywhere (a keypad of 1,000 buttons on one spot has ~500,000 spacing pairs); 100 of one rule
    /// are more than anyone reads, and 69 rules × 100 stay far below SARIF's result limit.
    public static let defaultMaxViolationsPerRule = 100

    /// GitHub code scanning rejects a SARIF run with more than 25,000 results.
    public static let sarifResultLimit = Report.sarifResultLimit

    /// Leaves at most `perRule` violations of each rule in each scene (0 = no limit) and, when
    /// `total` is given, at most `total` in the whole report, recording what was left out in
    /// `SceneReport.omitted` (so the summary counts stay those of all violations).
    ///
    /// Which ones stay: per rule, the most severe first, and among equally severe ones those that
    /// gate against a baseline (new or worsened) before the others, then in report order (rule, then
    /// entities); the total limit keeps the most severe over all scenes, in report order. The kept
    /// violations keep their order. Call it after the exit code is decided: the gate sees every
    /// violation.
    public static func limitViolations(_ report: inout Report, perRule: Int, total: Int? = nil) {
        limitViolations(&report, keeping: violationsKept(in: report, perRule: perRule, total: total))
    }

    /// SARIF's result limit counts the baseline's fixed violations (`absent` results) too: after the
    /// report's violations, as many of them as `total` leaves room for; the rest are counted
    /// (`Report.fixedNotListed`), not listed.
    public static func limitFixed(_ report: inout Report, total: Int) {
        let room = max(0, total - report.scenes.reduce(0) { $0 + $1.violations.count })
        guard report.fixedInBaseline.count > room else { return }
        report.fixedNotListed += report.fixedInBaseline.count - room
        report.fixedInBaseline.removeLast(report.fixedInBaseline.count - room)
    }

    /// SARIF's result limit counts the suppressed results too (the violations `ignore` entries left
    /// out, `SceneReport.suppressed`): after the report's violations and the fixed ones, as many as
    /// `total` leaves room for, in report order; the rest are not written (each scene's `ignored`
    /// line still counts them all).
    public static func limitSuppressed(_ report: inout Report, total: Int) {
        var room = max(0, total - report.scenes.reduce(0) { $0 + $1.violations.count } - report.fixedInBaseline.count)
        for s in report.scenes.indices {
            let n = report.scenes[s].suppressed.count
            if n > room { report.scenes[s].suppressed.removeLast(n - room) }
            room -= report.scenes[s].suppressed.count
        }
    }

    /// Which violations `limitViolations(_:perRule:total:)` keeps: `[scene][violation]`, true to keep.
    /// `validate` writes the deferred messages of these before it applies the limit.
    public static func violationsKept(in report: Report, perRule: Int, total: Int? = nil) -> [[Bool]] {
        var keep: [[Bool]] = report.scenes.map { Array(repeating: true, count: $0.violations.count) }
        if perRule > 0 {
            for (s, scene) in report.scenes.enumerated() {
                var byRule: [String: [Int]] = [:]
                var order: [String] = []
                for (i, v) in scene.violations.enumerated() {
                    if byRule[v.rule] == nil { order.append(v.rule) }
                    byRule[v.rule, default: []].append(i)
                }
                for rule in order {
                    guard let indices = byRule[rule], indices.count > perRule else { continue }
                    let ranked = indices.sorted { a, b in
                        let va = scene.violations[a], vb = scene.violations[b]
                        if va.severity != vb.severity { return va.severity < vb.severity }
                        let ga = va.gates, gb = vb.gates
                        if ga != gb { return ga }
                        return a < b
                    }
                    for i in ranked.dropFirst(perRule) { keep[s][i] = false }
                }
            }
        }
        if let total, total >= 0 {
            var kept: [(scene: Int, index: Int, severity: Severity)] = []
            for (s, scene) in report.scenes.enumerated() {
                for (i, v) in scene.violations.enumerated() where keep[s][i] { kept.append((s, i, v.severity)) }
            }
            if kept.count > total {
                // Stable: equal severities stay in report order.
                let order: [Int] = kept.indices.sorted { a, b in
                    let sa: Severity = kept[a].severity, sb: Severity = kept[b].severity
                    if sa != sb { return sa < sb }
                    return a < b
                }
                for r in order.dropFirst(total) { keep[kept[r].scene][kept[r].index] = false }
            }
        }
        return keep
    }

    /// Leaves out the violations `keep` marks false (`violationsKept`), recording them in
    /// `SceneReport.omitted`; a scene without a row in `keep` keeps all of its violations.
    public static func limitViolations(_ report: inout Report, keeping keep: [[Bool]]) {
        struct Key: Hashable { var rule: String; var severity: Severity }
        for s in report.scenes.indices where s < keep.count && keep[s].contains(false) {
            // What a baseline needs of each one left out, per rule and severity, in report order.
            var left: [Key: [LeftOutViolation]] = [:]
            var remaining: [ReportViolation] = []
            for (i, v) in report.scenes[s].violations.enumerated() {
                if i >= keep[s].count || keep[s][i] {
                    remaining.append(v)
                } else {
                    left[Key(rule: v.rule, severity: v.severity), default: []]
                        .append(LeftOutViolation(fingerprint: v.fingerprint, measured: v.measured, threshold: v.threshold, baseline: v.baseline))
                }
            }
            var omitted = report.scenes[s].omitted
            for (key, records) in left {
                if let j = omitted.firstIndex(where: { $0.rule == key.rule && $0.severity == key.severity }) {
                    omitted[j].count += records.count
                    omitted[j].violations += records
                } else {
                    omitted.append(OmittedViolations(rule: key.rule, severity: key.severity, count: records.count, violations: records))
                }
            }
            omitted.sort { $0.severity != $1.severity ? $0.severity < $1.severity : $0.rule < $1.rule }
            report.scenes[s].omitted = omitted
            report.scenes[s].violations = remaining
        }
    }
}
