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
///
/// Memory does not grow with the number of frames: at most `Aggregate.maxStoredSpans` runs are
/// stored (the first `maxStoredSpans − 1` and the latest), however often the finding comes and goes;
/// the runs in between are counted (`omittedSpans`) and their frames are in `frameCount`.
///
/// The first run is stored inline (`headStart`, `headEnd`): most aggregates have a single run (a
/// pair that overlaps for a while), and a crowded scene has hundreds of thousands of them, so only
/// a second run allocates (`tail`).
struct Aggregate {
    /// Runs stored per violation; reports list these and say how many more there were.
    static let maxStoredSpans = 100
    /// The first stored run, inclusive; `headStart > headEnd` while there is none.
    private var headStart = 0, headEnd = -1
    /// The stored runs after the first, flat: [s1, e1, s2, e2, ...]; empty (no allocation) while
    /// there is at most one run.
    private var tail: [Int] = []
    /// Runs between the stored first ones and the latest that are not stored.
    private(set) var omittedSpans = 0
    /// Frames in which the finding held (stored and omitted runs).
    private(set) var frameCount = 0
    var firstFrame = Int.max, lastFrame = Int.min
    var firstTime = Double.infinity, lastTime = -Double.infinity
    var measured = Double.nan
    /// Rule-defined secondary value at the worst frame (e.g. the edge gap of a spacing pair).
    var aux = Double.nan
    var threshold = Double.nan
    var worstFrame = 0
    var severity: Severity = .info
    var angular = false
    /// Set by the first finding (its severity is the starting point of the most severe).
    var recorded = false
    /// Unit of `measured` / `threshold` when it differs from the rule's declared unit (e.g. pt_eq
    /// for a pair compared in angle by a rule declared in pt). Set by the first finding that names
    /// one; the same entity set is always measured in the same space, so it does not change.
    var unit: String?
    /// The sub-check (`FindingKey.variant`) it aggregates, so a message can tell which it describes.
    var variant = 0

    /// Stored runs flat, sorted and disjoint (not adjacent): [s0, e0, s1, e1, ...], at most
    /// `maxStoredSpans` of them.
    var spans: [Int] {
        headStart > headEnd ? [] : [headStart, headEnd] + tail
    }

    /// Number of stored runs.
    var storedSpanCount: Int { headStart > headEnd ? 0 : 1 + tail.count / 2 }

    mutating func add(frame: Int, time: Double) {
        // The common case, a run that continues into this frame, without the general merge
        // (what `addSpan(frame, frame)` does for it: the latest run ends one frame later).
        let n = tail.count
        if n == 0, headStart <= headEnd, frame == headEnd &+ 1 {
            headEnd = frame
            frameCount += 1
        } else if n >= 2, frame == tail[n - 1] &+ 1 {
            tail[n - 1] = frame
            frameCount += 1
        } else {
            addSpan(frame, frame)
        }
        if frame < firstFrame { firstFrame = frame; firstTime = time }
        if frame > lastFrame { lastFrame = frame; lastTime = time }
    }

    /// Adds the inclusive run `from ... to`, merged with the runs it touches.
    ///
    /// Runs come in frame order, or overlap the latest run (a dwell rule's whole run at the end);
    /// both are exact. A run that starts before the latest stored run is merged exactly with the
    /// stored runs; if runs were already omitted, frames it shares with them would be counted twice,
    /// so `frameCount` is clamped to the frames between the first and the last.
    mutating func addSpan(_ from: Int, _ to: Int) {
        guard to >= from else { return }
        if headStart > headEnd {
            headStart = from; headEnd = to
            frameCount = to - from + 1
            return
        }
        let n = tail.count
        let lastStart = n == 0 ? headStart : tail[n - 2], lastEnd = n == 0 ? headEnd : tail[n - 1]
        if from > lastEnd + 1 {
            // A new run after the latest.
            frameCount += to - from + 1
            if n / 2 + 1 < Self.maxStoredSpans {
                tail.append(from); tail.append(to)
            } else if n == 0 {
                // Only with a limit of one stored run: the new run replaces it.
                omittedSpans += 1
                headStart = from; headEnd = to
            } else {
                // The latest run becomes an omitted one; the new run is the latest.
                omittedSpans += 1
                tail[n - 2] = from; tail[n - 1] = to
            }
            return
        }
        if from >= lastStart {
            // Continues or overlaps the latest run.
            if to > lastEnd {
                frameCount += to - lastEnd
                if n == 0 { headEnd = to } else { tail[n - 1] = to }
            }
            return
        }
        // Reaches back before the latest run: merge with every stored run it touches.
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(n / 2 + 2)
        pairs.append((headStart, headEnd))
        var i = 0
        while i + 1 < n { pairs.append((tail[i], tail[i + 1])); i += 2 }
        pairs.append((from, to))
        pairs.sort { $0.0 < $1.0 }
        var merged: [(Int, Int)] = []
        for (s, e) in pairs {
            if let last = merged.last, s <= last.1 + 1 {
                merged[merged.count - 1].1 = max(last.1, e)
            } else {
                merged.append((s, e))
            }
        }
        if omittedSpans == 0 {
            frameCount = merged.reduce(0) { $0 + $1.1 - $1.0 + 1 }
        } else {
            frameCount += to - from + 1
        }
        // Still at most `maxStoredSpans`: the first ones and the latest.
        if merged.count > Self.maxStoredSpans {
            let extra = merged.count - Self.maxStoredSpans
            merged.removeSubrange((Self.maxStoredSpans - 1)..<(Self.maxStoredSpans - 1 + extra))
            omittedSpans += extra
        }
        tail.removeAll(keepingCapacity: true)
        for (k, (s, e)) in merged.enumerated() {
            if k == 0 { headStart = s; headEnd = e } else { tail.append(s); tail.append(e) }
        }
        if omittedSpans > 0, let last = merged.last {
            frameCount = min(frameCount, last.1 - headStart + 1)
        }
    }

    /// `addSpan(from, to)`, with the first and last frame (and their times) moved out to the run.
    mutating func addRun(_ from: Int, fromTime: Double, _ to: Int, toTime: Double) {
        addSpan(from, to)
        if from < firstFrame { firstFrame = from; firstTime = fromTime }
        if to > lastFrame { lastFrame = to; lastTime = toTime }
    }

    /// Stored runs as `[[first, last]]`, sorted (see `omittedSpans` for the runs not stored).
    func mergedSpans() -> [[Int]] {
        guard headStart <= headEnd else { return [] }
        var out: [[Int]] = []
        out.reserveCapacity(1 + tail.count / 2)
        out.append([headStart, headEnd])
        var i = 0
        while i + 1 < tail.count { out.append([tail[i], tail[i + 1]]); i += 2 }
        return out
    }
}

/// Collects per-frame findings of every rule and aggregates them as they arrive.
///
/// Aggregates are stored in the order they were first seen. A finding about one entity (the
/// common case: thousands per frame in a large scene) finds its aggregate through a per-rule table
/// indexed by entity, so the per-frame cost is an array read, not a hash lookup; pairs and
/// scene-level findings go through a dictionary.
struct Findings {
    /// `keys[i]` is the key of `aggregates[i]`.
    private(set) var keys: [FindingKey] = []
    private(set) var aggregates: [Aggregate] = []
    /// Source locations of scene-level findings (e.g. the event that caused them).
    var locations: [FindingKey: SourceLocation] = [:]
    let worse: [WorseDirection]
    /// Per rule: its sub-checks' directions (variant k ≥ 1 at k − 1), each the rule's unless the
    /// sub-check states its own.
    private let subcheckWorse: [[WorseDirection]]
    let severityOverride: [Severity?]
    let defaultSeverity: [Severity]
    private let entityCount: Int
    /// Per rule: slot of (rule, e) for each entity e, -1 before its first finding; empty until the
    /// rule's first single-entity finding.
    private var singleSlot: [[Int32]]
    /// Every other key (pairs, scene-level findings, sub-checks) packed into one integer
    /// (`PackedSlots`); keys outside its range go through `slotOfKey`.
    private var packed: PackedSlots
    private var slotOfKey: [FindingKey: Int] = [:]
    /// The most aggregates kept (0 = no limit): a finding that would make one more is dropped and
    /// `limitReached` set, so memory stays bounded whatever the scene (`RuleEngine.trackingLimit`).
    var limit = 0
    /// Whether a finding was dropped because `limit` aggregates exist.
    private(set) var limitReached = false
    /// The most findings worth keeping of those a rule finds once, before its frames (one window's
    /// pairs): `limit` + 1 (no bound when `limit` is 0). More could never be tracked, since the
    /// limit counts distinct violations, and a rule that has more stops the scene
    /// (`markLimitReached`) as the first dropped one would.
    var mostKept: Int { limit > 0 ? limit + 1 : Int.max }
    /// Aggregates per rule.
    private var perRule: [Int]

    init(rules: [RuleMetadata], severityOverride: [Severity?], entityCount: Int) {
        worse = rules.map(\.worse)
        subcheckWorse = rules.map { m in m.subchecks.map { $0.worse ?? m.worse } }
        defaultSeverity = rules.map(\.defaultSeverity)
        self.severityOverride = severityOverride
        self.entityCount = entityCount
        singleSlot = Array(repeating: [], count: rules.count)
        perRule = Array(repeating: 0, count: rules.count)
        packed = PackedSlots(ruleCount: rules.count, entityCount: entityCount)
    }

    /// The aggregate of `key`, if it has had a finding.
    func aggregate(for key: FindingKey) -> Aggregate? {
        let i = existingIndex(key)
        return i >= 0 ? aggregates[i] : nil
    }

    /// Record that `rule` held for entities `e0`, `e1` at `frame`.
    mutating func report(rule: Int, _ e0: Int = -1, _ e1: Int = -1, frame: Int, time: Double,
                         measured: Double, threshold: Double, aux: Double = .nan,
                         severity: Severity? = nil, angular: Bool = false, unit: String? = nil, variant: Int = 0) {
        let i = slot(rule: rule, e0, e1, variant: variant)
        guard i >= 0 else { return }
        aggregates[i].add(frame: frame, time: time)
        update(i, rule: rule, measured: measured, worstFrame: frame, threshold: threshold, aux: aux,
               severity: severity, angular: angular, unit: unit)
    }

    /// `report` for a pair finding whose aggregate the caller remembers: `slot` is used when it
    /// is this key's aggregate (checked), else the aggregate is looked up (or created) and `slot`
    /// set to it. Saves the table lookup for a pair reported frame after frame. Returns whether
    /// the finding's value became the aggregate's worst (`Aggregate.record`).
    @inline(__always) @discardableResult
    mutating func report(slot: inout Int32, rule: Int, _ e0: Int, _ e1: Int, frame: Int, time: Double,
                         measured: Double, threshold: Double, aux: Double, severity: Severity?, angular: Bool,
                         unit: String?) -> Bool {
        let (lo, hi) = Self.ordered(e0, e1)
        var i = checked(slot, rule: rule, lo, hi)
        if i < 0 {
            i = self.slot(rule: rule, e0, e1, variant: 0)
            slot = Int32(truncatingIfNeeded: i)
            guard i >= 0 else { return false }
        }
        // One uniqueness check of the aggregates for both updates.
        let sev = severityOverride[rule] ?? severity ?? defaultSeverity[rule]
        let higher = worse[rule] == .higher
        return aggregates.withUnsafeMutableBufferPointer { ag in
            ag[i].add(frame: frame, time: time)
            return ag[i].record(measured: measured, worstFrame: frame, threshold: threshold, aux: aux,
                                severity: sev, higher: higher, angular: angular, unit: unit)
        }
    }

    /// `report(slot:...)` for a pair finding known not to be a new worst of its aggregate at
    /// `slot` (its value not better than the recorded one, its severity, threshold, unit and
    /// `angular` those of its earlier findings): only the run grows, which is all `report` would
    /// change. False (nothing done) when `slot` is not the aggregate of the pair (rule, e0, e1).
    @inline(__always)
    mutating func repeatWorse(slot: Int32, rule: Int, _ e0: Int, _ e1: Int, frame: Int, time: Double) -> Bool {
        let (lo, hi) = Self.ordered(e0, e1)
        let i = checked(slot, rule: rule, lo, hi)
        guard i >= 0 else { return false }
        aggregates.withUnsafeMutableBufferPointer { ag in ag[i].add(frame: frame, time: time) }
        return true
    }

    /// Sets the `aux` of the aggregate at `slot` (of `rule`) when its worst is still the one found
    /// in `worstFrame`: a value its finding left to be computed at the end (`TargetPairAnalyzer`'s
    /// deferred edge gaps).
    mutating func setAux(slot: Int, rule: Int, worstFrame: Int, _ aux: Double) {
        guard slot >= 0, slot < aggregates.count, keys[slot].rule == rule, aggregates[slot].worstFrame == worstFrame else { return }
        aggregates[slot].aux = aux
    }

    /// The frames `from ... to` for a pair finding already reported with the same values in frame
    /// `from − 1` (its aggregate at `slot`, checked as in `report(slot:...)`): what reporting it in
    /// each of them does, since a repeated value is never a new worst. Nothing when the finding has
    /// no aggregate (it was dropped at the tracking limit; so would the repeats be).
    mutating func extendRun(slot: inout Int32, rule: Int, _ e0: Int, _ e1: Int, from: Int, fromTime: Double,
                            to: Int, toTime: Double) {
        let (lo, hi) = Self.ordered(e0, e1)
        var i = checked(slot, rule: rule, lo, hi)
        if i < 0 {
            i = existingSlot(rule: rule, lo, hi)
            guard i >= 0 else { return }
            slot = Int32(truncatingIfNeeded: i)
        }
        aggregates[i].addRun(from, fromTime: fromTime, to, toTime: toTime)
    }

    /// The frames `from ... to` for a finding of any key already reported with the same values
    /// in frame `from − 1`: what reporting it again in each of them does. The spans grow as with
    /// `extendRun`; a repeated value is never a new worst, but where the aggregate's threshold is
    /// NaN every finding moves its worst frame to its own (`Aggregate.record`), so it ends at `to`.
    /// Nothing when the key has no aggregate (dropped at the tracking limit, as the repeats would be).
    mutating func repeatRun(rule: Int, _ e0: Int, _ e1: Int = -1, variant: Int, from: Int, fromTime: Double,
                            to: Int, toTime: Double) {
        let i = existingIndex(FindingKey(rule: rule, e0, e1, variant: variant))
        guard i >= 0, to >= from else { return }
        aggregates[i].addRun(from, fromTime: fromTime, to, toTime: toTime)
        if aggregates[i].threshold.isNaN { aggregates[i].worstFrame = to }
    }

    /// The index of `key`'s aggregate, or -1 when it has had no finding (never creates one).
    private func existingIndex(_ key: FindingKey) -> Int {
        if key.b < 0, key.a >= 0, key.a < entityCount, key.variant == 0 {
            let slots = singleSlot[key.rule]
            return slots.isEmpty ? -1 : Int(slots[key.a])
        }
        if let k = packed.pack(rule: key.rule, key.a, key.b, variant: key.variant) { return packed.find(k) }
        return slotOfKey[key] ?? -1
    }

    /// `slot` when it is the aggregate of the pair (rule, lo, hi) with lo ≤ hi, else -1.
    @inline(__always)
    private func checked(_ slot: Int32, rule: Int, _ lo: Int, _ hi: Int) -> Int {
        let i = Int(slot)
        return i >= 0 && i < keys.count && keys[i].rule == rule && keys[i].a == lo && keys[i].b == hi && keys[i].variant == 0 ? i : -1
    }

    /// Record a whole run at once (used at the end for sustained conditions of a static scene).
    mutating func reportRun(rule: Int, _ e0: Int = -1, _ e1: Int = -1, from: Int, fromTime: Double,
                            to: Int, toTime: Double, measured: Double, worstFrame: Int, threshold: Double,
                            aux: Double = .nan, severity: Severity? = nil, unit: String? = nil, variant: Int = 0) {
        guard to >= from else { return }
        let i = slot(rule: rule, e0, e1, variant: variant)
        guard i >= 0 else { return }
        aggregates[i].addRun(from, fromTime: fromTime, to, toTime: toTime)
        update(i, rule: rule, measured: measured, worstFrame: worstFrame, threshold: threshold, aux: aux,
               severity: severity, angular: false, unit: unit)
    }

    /// Index of the aggregate of (rule, e0, e1, variant), created when new; -1 when it would be
    /// new and `limit` aggregates exist.
    private mutating func slot(rule: Int, _ e0: Int, _ e1: Int, variant: Int) -> Int {
        if e1 < 0, e0 >= 0, e0 < entityCount, variant == 0 {
            if singleSlot[rule].isEmpty { singleSlot[rule] = Array(repeating: -1, count: entityCount) }
            let s = singleSlot[rule][e0]
            if s >= 0 { return Int(s) }
            guard !full() else { return -1 }
            let n = append(FindingKey(rule: rule, e0))
            singleSlot[rule][e0] = Int32(truncatingIfNeeded: n)
            return n
        }
        let (lo, hi) = Self.ordered(e0, e1)
        if let k = packed.pack(rule: rule, lo, hi, variant: variant) {
            let s = packed.find(k)
            if s >= 0 { return s }
            guard !full() else { return -1 }
            let n = append(FindingKey(rule: rule, e0, e1, variant: variant))
            packed.insert(k, slot: n)
            return n
        }
        let key = FindingKey(rule: rule, e0, e1, variant: variant)
        if let s = slotOfKey[key] { return s }
        guard !full() else { return -1 }
        let n = append(key)
        slotOfKey[key] = n
        return n
    }

    /// Whether (rule, e0, e1) has an aggregate: after the limit is reached only those can still
    /// change, so a processor may skip the work of a finding that would be dropped.
    func hasAggregate(rule: Int, _ e0: Int, _ e1: Int) -> Bool {
        let (lo, hi) = Self.ordered(e0, e1)
        return existingSlot(rule: rule, lo, hi) >= 0
    }

    /// A pair's entities lower first, as `FindingKey` stores them (-1, none, stays second).
    @inline(__always)
    private static func ordered(_ e0: Int, _ e1: Int) -> (Int, Int) { e1 >= 0 && e0 > e1 ? (e1, e0) : (e0, e1) }

    /// The aggregate of the pair (rule, lo, hi) with lo ≤ hi, or -1 when it has none.
    private func existingSlot(rule: Int, _ lo: Int, _ hi: Int) -> Int {
        if let k = packed.pack(rule: rule, lo, hi, variant: 0) { return packed.find(k) }
        return slotOfKey[FindingKey(rule: rule, lo, hi)] ?? -1
    }

    /// Whether `rule` has an aggregate (a violation tracked).
    func tracks(rule: Int) -> Bool { rule >= 0 && rule < perRule.count && perRule[rule] > 0 }

    /// Record that findings which would need another aggregate exist but cannot be tracked (a
    /// processor that stopped collecting them at the limit): the scene stops after this frame.
    mutating func markLimitReached() {
        if limit > 0 { limitReached = true }
    }

    /// True (and `limitReached` set) when no aggregate may be added.
    private mutating func full() -> Bool {
        guard limit > 0, aggregates.count >= limit else { return false }
        limitReached = true
        return true
    }

    private mutating func append(_ key: FindingKey) -> Int {
        if key.rule >= 0, key.rule < perRule.count { perRule[key.rule] += 1 }
        var agg = Aggregate()
        agg.variant = key.variant
        keys.append(key)
        aggregates.append(agg)
        return aggregates.count - 1
    }

    private mutating func update(_ i: Int, rule: Int, measured: Double, worstFrame: Int, threshold: Double,
                                 aux: Double, severity: Severity?, angular: Bool, unit: String?) {
        let sev = severityOverride[rule] ?? severity ?? defaultSeverity[rule]
        let v = aggregates[i].variant, subs = subcheckWorse[rule]
        let higher = (v >= 1 && v <= subs.count ? subs[v - 1] : worse[rule]) == .higher
        aggregates[i].record(measured: measured, worstFrame: worstFrame, threshold: threshold, aux: aux,
                             severity: sev, higher: higher, angular: angular, unit: unit)
    }

    mutating func setLocation(rule: Int, _ e0: Int = -1, _ e1: Int = -1, variant: Int = 0, _ loc: SourceLocation?) {
        let key = FindingKey(rule: rule, e0, e1, variant: variant)
        if let loc, locations[key] == nil { locations[key] = loc }
    }
}

extension Aggregate {
    /// Folds one finding's value into the aggregate (the spans are updated by the caller).
    /// Returns whether its value became the worst (`measured`, `aux`, `worstFrame` its own).
    @discardableResult
    mutating func record(measured: Double, worstFrame: Int, threshold: Double, aux: Double,
                         severity sev: Severity, higher: Bool, angular: Bool, unit: String?) -> Bool {
        if recorded { if sev < severity { severity = sev } } else { severity = sev; recorded = true }
        let better = self.measured.isNaN || (higher ? measured > self.measured : measured < self.measured)
        let worst = better && !measured.isNaN
        if worst {
            self.measured = measured; self.aux = aux; self.threshold = threshold; self.worstFrame = worstFrame
        } else if self.threshold.isNaN {
            self.threshold = threshold; self.worstFrame = worstFrame
        }
        self.angular = self.angular || angular
        if self.unit == nil { self.unit = unit }
        return worst
    }
}

/// Open-addressing table from a finding key packed into one integer,
/// `((rule · 64 + variant) · (n + 1) + a + 1) · (n + 1) + b + 1` for n entities, to its aggregate's
/// index: one multiply-shift hash and a linear probe over two flat arrays, instead of hashing a
/// four-field struct into a `Dictionary`. `pack` returns nil for a key outside that range (a
/// sub-check ≥ 64, an entity index outside the scene, or a scene so large the product overflows),
/// which the caller keeps in a dictionary instead.
struct PackedSlots {
    private static let empty = UInt64.max
    private var keys: [UInt64]
    private var values: [Int32]
    private var count = 0
    private var shift: UInt64
    private let span: UInt64
    private let usable: Bool
    private let ruleCount: Int

    init(ruleCount: Int, entityCount: Int) {
        self.ruleCount = ruleCount
        let n = UInt64(max(0, entityCount)) + 1
        let (nn, o1) = n.multipliedReportingOverflow(by: n)
        let (all, o2) = nn.multipliedReportingOverflow(by: UInt64(max(1, ruleCount)) * 64)
        usable = !o1 && !o2 && all < UInt64.max / 2
        span = n
        keys = Array(repeating: Self.empty, count: 64)
        values = Array(repeating: -1, count: 64)
        shift = 64 - 6
    }

    @inline(__always)
    func pack(rule: Int, _ a: Int, _ b: Int, variant: Int) -> UInt64? {
        guard usable, rule >= 0, rule < ruleCount, variant >= 0, variant < 64,
              a >= -1, b >= -1, UInt64(a + 1) < span, UInt64(b + 1) < span else { return nil }
        return ((UInt64(rule) &* 64 &+ UInt64(variant)) &* span &+ UInt64(a + 1)) &* span &+ UInt64(b + 1)
    }

    @inline(__always)
    private func home(_ k: UInt64) -> Int { Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The slot stored for `k`, or -1.
    @inline(__always)
    func find(_ k: UInt64) -> Int {
        let mask = keys.count - 1
        return keys.withUnsafeBufferPointer { kp in
            var i = home(k)
            while true {
                let s = kp[i]
                if s == k { return Int(values[i]) }
                if s == Self.empty { return -1 }
                i = (i + 1) & mask
            }
        }
    }

    mutating func insert(_ k: UInt64, slot: Int) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var i = home(k)
        while keys[i] != Self.empty { i = (i + 1) & mask }
        keys[i] = k
        values[i] = Int32(truncatingIfNeeded: slot)
        count += 1
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = Array(repeating: Self.empty, count: oldKeys.count * 2)
        values = Array(repeating: -1, count: oldKeys.count * 2)
        shift -= 1
        let mask = keys.count - 1
        for (j, k) in oldKeys.enumerated() where k != Self.empty {
            var i = home(k)
            while keys[i] != Self.empty { i = (i + 1) & mask }
            keys[i] = k
            values[i] = oldValues[j]
        }
    }
}

/// A streak of frames that repeat the frame before them, not yet added to the runs of the
/// findings they repeat: its first and last frame and their times. `note` adds a frame, `take`
/// returns the streak (nil when none is pending) and starts a new one.
struct RepeatStreak {
    private var from = -1, fromTime = 0.0, to = -1, toTime = 0.0

    mutating func note(frame: Int, time: Double) {
        if from < 0 { from = frame; fromTime = time }
        to = frame; toTime = time
    }

    /// The frames noted since the last `take`, without taking them.
    var pending: (from: Int, fromTime: Double, to: Int, toTime: Double)? {
        from >= 0 ? (from, fromTime, to, toTime) : nil
    }

    mutating func take() -> (from: Int, fromTime: Double, to: Int, toTime: Double)? {
        defer { from = -1 }
        return pending
    }
}
