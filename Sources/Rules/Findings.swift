import SpatialModel

/// Aggregation key: rule index, up to two entity indices (lower first; -1 = none) and the
/// sub-check (0 = the rule's main measurement; k ≥ 1 = `RuleMetadata.subchecks[k − 1]`), so a
/// second quantity of a rule (looming speed next to angular speed, say) is never aggregated with
/// the first: its worst value, threshold, unit and severity stay its own.
struct FindingKey: Hashable {
    var rule: Int
    var a: Int
    var b: Int
    var variant: Int
    init(rule: Int, _ e0: Int = -1, _ e1: Int = -1, variant: Int = 0) {
        self.rule = rule
        self.variant = variant
        if e1 >= 0, e0 > e1 { a = e1; b = e0 } else { a = e0; b = e1 }
    }
}

/// Running aggregate of one (rule, entity set).
struct Aggregate {
    /// Flat inclusive spans: [s0, e0, s1, e1, ...].
    var spans: [Int] = []
    var firstFrame = Int.max, lastFrame = Int.min
    var firstTime = Double.infinity, lastTime = -Double.infinity
    var measured = Double.nan
    /// Rule-defined secondary value at the worst frame (e.g. the edge gap of a spacing pair).
    var aux = Double.nan
    var threshold = Double.nan
    var worstFrame = 0
    var severity: Severity = .info
    var angular = false
    /// Unit of `measured` / `threshold` when it differs from the rule's declared unit (e.g. pt_eq
    /// for a pair compared in angle by a rule declared in pt). Set by the first finding that names
    /// one; the same entity set is always measured in the same space, so it does not change.
    var unit: String?
    /// The sub-check (`FindingKey.variant`) it aggregates, so a message can tell which it describes.
    var variant = 0
    var order = 0

    /// A fresh aggregate before its first finding (order not yet assigned).
    static var unrecorded: Aggregate { var a = Aggregate(); a.order = -1; return a }

    mutating func add(frame: Int, time: Double) {
        if let last = spans.last, frame == last + 1 {
            spans[spans.count - 1] = frame
        } else if let last = spans.last, frame == last {
            // already counted
        } else {
            spans.append(frame); spans.append(frame)
        }
        if frame < firstFrame { firstFrame = frame; firstTime = time }
        if frame > lastFrame { lastFrame = frame; lastTime = time }
    }

    /// Sorted, merged inclusive spans.
    func mergedSpans() -> [[Int]] {
        var pairs: [(Int, Int)] = []
        var i = 0
        while i + 1 < spans.count { pairs.append((spans[i], spans[i + 1])); i += 2 }
        pairs.sort { $0.0 < $1.0 }
        var out: [[Int]] = []
        for (s, e) in pairs {
            if let last = out.last, s <= last[1] + 1 {
                out[out.count - 1][1] = max(last[1], e)
            } else {
                out.append([s, e])
            }
        }
        return out
    }
}

/// Collects per-frame findings of every rule and aggregates them as they arrive.
struct Findings {
    var table: [FindingKey: Aggregate] = [:]
    /// Source locations of scene-level findings (e.g. the event that caused them).
    var locations: [FindingKey: SourceLocation] = [:]
    let worse: [WorseDirection]
    let severityOverride: [Severity?]
    let defaultSeverity: [Severity]
    private var counter = 0

    init(rules: [RuleMetadata], severityOverride: [Severity?]) {
        worse = rules.map(\.worse)
        defaultSeverity = rules.map(\.defaultSeverity)
        self.severityOverride = severityOverride
    }

    /// Record that `rule` held for entities `e0`, `e1` at `frame`.
    mutating func report(rule: Int, _ e0: Int = -1, _ e1: Int = -1, frame: Int, time: Double,
                         measured: Double, threshold: Double, aux: Double = .nan,
                         severity: Severity? = nil, angular: Bool = false, unit: String? = nil, variant: Int = 0) {
        record(rule: rule, e0, e1, measured: measured, worstFrame: frame, threshold: threshold, aux: aux,
               severity: severity, angular: angular, unit: unit, variant: variant) { $0.add(frame: frame, time: time) }
    }

    /// Record a whole run at once (used at the end for sustained conditions of a static scene).
    mutating func reportRun(rule: Int, _ e0: Int = -1, _ e1: Int = -1, from: Int, fromTime: Double,
                            to: Int, toTime: Double, measured: Double, worstFrame: Int, threshold: Double,
                            severity: Severity? = nil, unit: String? = nil, variant: Int = 0) {
        guard to >= from else { return }
        record(rule: rule, e0, e1, measured: measured, worstFrame: worstFrame, threshold: threshold,
               aux: .nan, severity: severity, angular: false, unit: unit, variant: variant) { agg in
            agg.spans.append(from); agg.spans.append(to)
            if from < agg.firstFrame { agg.firstFrame = from; agg.firstTime = fromTime }
            if to > agg.lastFrame { agg.lastFrame = to; agg.lastTime = toTime }
        }
    }

    private mutating func record(rule: Int, _ e0: Int, _ e1: Int, measured: Double, worstFrame: Int,
                                 threshold: Double, aux: Double, severity: Severity?, angular: Bool,
                                 unit: String?, variant: Int, spans: (inout Aggregate) -> Void) {
        let key = FindingKey(rule: rule, e0, e1, variant: variant)
        let sev = severityOverride[rule] ?? severity ?? defaultSeverity[rule]
        let higher = worse[rule] == .higher
        let n = counter
        // One hash lookup per finding: a new aggregate is recognised by its unset order.
        var isNew = false
        update(key: key) { agg in
            if agg.order < 0 { isNew = true }
            if isNew { agg.order = n; agg.severity = sev; agg.variant = variant } else if sev < agg.severity { agg.severity = sev }
            spans(&agg)
            let better = agg.measured.isNaN
                || (higher ? measured > agg.measured : measured < agg.measured)
            if better, !measured.isNaN {
                agg.measured = measured; agg.aux = aux; agg.threshold = threshold; agg.worstFrame = worstFrame
            } else if agg.threshold.isNaN {
                agg.threshold = threshold; agg.worstFrame = worstFrame
            }
            agg.angular = agg.angular || angular
            if agg.unit == nil { agg.unit = unit }
        }
        if isNew { counter += 1 }
    }

    mutating func setLocation(rule: Int, _ e0: Int = -1, _ e1: Int = -1, _ loc: SourceLocation?) {
        let key = FindingKey(rule: rule, e0, e1)
        if let loc, locations[key] == nil { locations[key] = loc }
    }

    private mutating func update(key: FindingKey, _ body: (inout Aggregate) -> Void) {
        body(&table[key, default: Aggregate.unrecorded])
    }
}
