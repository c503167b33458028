import Foundation
import SpatialModel
import Simulation

/// State of the run when `finish()` is called.
struct EndState {
    var lastFrame: Int
    var lastTime: Double
    /// True when nothing moves or changes after the last frame (no viewer path, motion preset,
    /// looping or unfinished animation, or later event): a condition holding at the last frame then
    /// holds for ever, so duration conditions count it as sustained.
    var staticEnd: Bool
    var frameDuration: Double
}

/// What a rule implementation sees when it is set up.
struct RuleSetup {
    let scene: Scene
    let configuration: RuleConfiguration
    /// Index of each enabled rule in the engine's rule list.
    let indexOf: [String: Int]
    /// Degrees per point for the rules' own conversions (the default when the value is not positive).
    var pointAngle: Double {
        let pa = configuration.pointAngle ?? scene.units.pointAngle
        return pa > 0 && pa.isFinite ? pa : Units.defaultPointAngle
    }
    var frameDuration: Double { scene.frameRate > 0 ? 1 / scene.frameRate : 0 }

    func index(_ id: String) -> Int? { indexOf[id] }
    /// The configured value of a parameter, or its default.
    func param(_ meta: RuleMetadata, _ key: String) -> Double {
        if let v = configuration.rules[meta.id]?.parameters[key] { return v }
        if key == meta.thresholdKey, let v = configuration.rules[meta.id]?.threshold { return v }
        return meta.parameter(key)?.defaultValue ?? .nan
    }
}

/// One unit of per-frame work: a rule, or several rules that share a computation.
protocol RuleProcessor: AnyObject {
    func consume(_ f: FrameQuantities, _ out: inout Findings)
    func finish(_ out: inout Findings, _ end: EndState)
    /// The concrete message of an aggregated violation.
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String
    /// Pairs of entities examined so far, for a rule whose work grows with pairs rather than
    /// entities (`RuleEngine.pairTests`; what they cost goes into `work`).
    var pairTests: Int { get }
    /// Instructions spent so far beyond what `WorkCost.entityFrame` covers, estimated from the
    /// rule's own counts (`RuleEngine.work`): 0 for a rule whose work per frame is a bounded
    /// amount per entity.
    var work: Int { get }
}

extension RuleProcessor {
    func finish(_ out: inout Findings, _ end: EndState) {}
    var pairTests: Int { 0 }
    var work: Int { 0 }
}

/// What checking a scene costs, in instructions of a release build (callgrind): the weights of
/// `RuleEngine.work`, which `validate`'s work budget (`--max-work`) bounds. Every entity costs
/// about the same in each frame (simulating it, and the rules that look at entities one at a
/// time); what grows faster, with the pairs near each entity, is counted where it is done, per
/// pair, grid point or finding, at what each costs. The weights are upper ends of what the scenes
/// measured cost (docs/security.md, "Work budget"), so the count runs ahead of the real work
/// rather than behind it.
public enum WorkCost {
    /// Instructions per work unit: `--max-work` counts units.
    public static let unit = 1_000
    /// Per entity and frame (the simulator's animation, transforms and quantities, and the
    /// per-entity rules), moving content included.
    public static let entityFrame = 4_000
    /// win-controls-keepout (`ControlsKeepoutRule.work`).
    enum Keepout {
        /// A window searched or bounded: its reach and up to 15 grid walks.
        static let windowSearch = 3_000
        /// A grid point visited (a corner of content near the window's slab).
        static let gridVisit = 40
        /// A candidate found and sorted.
        static let candidate = 250
        /// A pair given the exact test in a searching frame.
        static let exactTest = 1_000
        /// A listed pair looked at in a frame from the list, and one the list's bounds do not
        /// settle (reported from what the build knows, or given the exact test).
        static let listedPair = 150, listedUnsettled = 500
        /// A pair bounded for the list (`classify`), and one kept in it (bounded again, with
        /// and without the skin, by `listCode`).
        static let bounded = 1_800, kept = 5_000
        /// A renewed piece of content against one window (the slab screen).
        static let renewalCheck = 50
        /// A visible piece of content's corners, size class and grid entry, per frame.
        static let piecePrepared = 1_500
    }
    /// The three pairwise target rules (`TargetPairAnalyzer.work`).
    enum TargetPairs {
        /// A pair visited by the grid search (a build of the list, or a searching frame).
        static let gridPair = 150
        /// A listed pair looked at.
        static let listedPair = 150
        /// A pair given the angular pair test.
        static let tested = 1_000
        /// A finding reported (`Findings.report`).
        static let finding = 500
        /// A run extended over a streak of unchanged frames.
        static let extendedRun = 100
    }
}

/// Runs the rules over a scene's frames and aggregates their findings into violations.
///
/// Use: `let engine = RuleEngine(scene: scene, configuration: config)`; the simulator loop calls
/// `consume(_:)` once per frame in frame order (frames with a wrong entity count, or not after the
/// previous one, are ignored); then `finish()` once returns the sorted violations.
///
/// Rules report per-frame findings (rule, entities, measured, threshold); the engine keeps one
/// aggregate per (rule, entity set): inclusive frame spans, first/last time, the worst value in the
/// rule's direction and its frame. Per-frame work allocates only when a new (rule, entity set) is
/// first seen or a new span opens.
///
/// Duration conditions ("continuously for more than N s") keep per-entity run timers. A frame stands
/// for its interval, so after frame i a run has lasted `t_i − t_start + 1/frameRate`. When a run is
/// still open at the last frame and the scene ends static (no viewer path or motion preset, looping
/// or unfinished animation, or event after the last frame), the condition would hold for ever, so the
/// whole run is reported as sustained.
///
/// `configuration.pointAngle` is used for the rules' own pt ↔ angle conversions; the simulator should
/// be given the same value (scene `units.pointAngle`) so its `ptEq` agrees.
public final class RuleEngine {
    public let scene: Scene
    public let configuration: RuleConfiguration
    /// Enabled rules that apply to the scene's platform, in catalog order.
    public let rules: [RuleMetadata]
    private var processors: [RuleProcessor] = []
    private var processorOfRule: [Int] = []
    private var findings: Findings
    private var lastFrame = -1
    private var lastTime = 0.0
    /// Pair tests done by the pairwise target rules (for tests: must grow as O(n), not O(n²)).
    public var pairChecks: Int { pairAnalyzer?.pairChecks ?? 0 }
    /// Whether the pairwise target rules repeat the findings of pairs whose inputs did not change
    /// since the previous frame (the default; see `TargetPairAnalyzer.incremental`). Off, every
    /// pair is tested in every frame; the violations are the same either way.
    var incrementalPairs: Bool {
        get { pairAnalyzer?.incremental ?? false }
        set { pairAnalyzer?.incremental = newValue }
    }
    /// Frames in which the pair pass reused every finding, and frames in which it retested only
    /// the pairs of changed entities.
    var pairFramesReused: (all: Int, partly: Int, listed: Int, listBuilds: Int) {
        (pairAnalyzer?.reusedFrames ?? 0, pairAnalyzer?.partialFrames ?? 0, pairAnalyzer?.listFrames ?? 0, pairAnalyzer?.listBuilds ?? 0)
    }
    private var pairAnalyzer: TargetPairAnalyzer?

    public init(scene: Scene, configuration: RuleConfiguration = .default) {
        self.scene = scene
        self.configuration = configuration
        let enabled = RuleCatalog.rules.filter {
            $0.applies(to: scene.platform) && configuration.isEnabled($0.id)
        }
        rules = enabled
        var indexOf: [String: Int] = [:]
        for (i, r) in enabled.enumerated() { indexOf[r.id] = i }
        findings = Findings(rules: enabled, severityOverride: enabled.map { configuration.rules[$0.id]?.severity },
                            entityCount: scene.entities.count)
        processorOfRule = Array(repeating: -1, count: enabled.count)
        let setup = RuleSetup(scene: scene, configuration: configuration, indexOf: indexOf)
        for factory in RuleFactories.all {
            guard factory.ids.contains(where: { indexOf[$0] != nil }) else { continue }
            guard let p = factory.make(setup) else { continue }
            if let a = p as? TargetPairAnalyzer { pairAnalyzer = a }
            for id in factory.ids { if let i = indexOf[id] { processorOfRule[i] = processors.count } }
            processors.append(p)
        }
    }

    /// The engine's processor of type `T`, if one runs (for tests).
    func processor<T: RuleProcessor>(_ type: T.Type) -> T? {
        processors.lazy.compactMap { $0 as? T }.first
    }

    /// Feed one simulated frame. Frames must come in increasing order.
    public func consume(_ frame: FrameQuantities) {
        guard frame.frame > lastFrame, frame.entityCount == scene.entities.count else { return }
        lastFrame = frame.frame
        lastTime = frame.time
        framesConsumed += 1
        for p in processors { p.consume(frame, &findings) }
    }

    /// Frames consumed so far.
    private var framesConsumed = 0

    /// The work done so far, in work units (`WorkCost.unit` instructions each): every entity of
    /// every frame consumed at `WorkCost.entityFrame`, and what the rules whose work grows with
    /// pairs counted themselves (`RuleProcessor.work`). `validate` bounds it with the work budget
    /// (`--max-work`) and stops a scene after the frame that passes it: the same scene stops after
    /// the same frame, whatever the machine.
    public var work: Int {
        // Saturating: no real scene comes near 2^63 instructions, but a count must not wrap.
        func add(_ a: Int, _ b: Int) -> Int { let s = a.addingReportingOverflow(b); return s.overflow ? .max : s.partialValue }
        func mul(_ a: Int, _ b: Int) -> Int { let p = a.multipliedReportingOverflow(by: b); return p.overflow ? .max : p.partialValue }
        var total = mul(mul(scene.entities.count, WorkCost.entityFrame), framesConsumed)
        for p in processors { total = add(total, max(0, p.work)) }
        return total / WorkCost.unit
    }

    /// Close open runs and return the violations, sorted by severity, rule id, then entities.
    public func finish() -> [Violation] {
        var out: [Violation] = []
        out.reserveCapacity(aggregateCount)
        finish(deferringMessagesAbove: nil) { out.append($0) }
        return out
    }

    /// Aggregates so far, one per (rule, entity set) found: an upper bound on the number of
    /// violations `finish` returns (ignored ones are left out).
    public var aggregateCount: Int { findings.aggregates.count }

    /// The most distinct violations (aggregates) the engine tracks, 0 = no limit. Memory grows with
    /// them (a scene of 2,000 buttons on one spot has 2 million pairs), so `validate` bounds it
    /// (`--max-tracked`) and stops the scene after the frame in which the limit is reached
    /// (`trackingLimitReached`): findings of that frame that would need one more are dropped.
    public var trackingLimit: Int {
        get { findings.limit }
        set { findings.limit = max(0, newValue) }
    }

    /// Whether a finding was dropped because `trackingLimit` violations are tracked.
    public var trackingLimitReached: Bool { findings.limitReached }

    /// Per entry of `configuration.ignore`: the violations `finish` left out because of it (the
    /// first entry that matches counts one).
    public private(set) lazy var ignoredCounts = [Int](repeating: 0, count: configuration.ignore.count)

    /// Pairs of entities the rules have examined so far (the target rules' candidate pairs,
    /// win-controls-keepout's window–content pairs): the work that grows with pairs, not
    /// entities. `validate`'s budget (`--max-work`) bounds `work`, which weighs them by cost.
    public var pairTests: Int { processors.reduce(0) { $0 &+ $1.pairTests } }

    /// The aggregates' keys, in the order of their first findings (for tests).
    var findingKeys: [FindingKey] { findings.keys }

    /// The aggregates, in the order of `findingKeys` (for tests).
    var findingAggregates: [Aggregate] { findings.aggregates }

    /// `finish()`, handing the violations to `body` one at a time, in the same order and with the
    /// same contents, except that when `limit` is given, every violation of a rule with more than
    /// `limit` violations gets an empty message: the returned `PendingMessages` writes those on
    /// demand. `validate` passes its `--max-violations` here and asks only for the messages of the
    /// violations its report keeps (a message is most of the per-violation cost, ~10,000
    /// instructions for a target pair); fingerprints, which the baseline gate needs for all, are
    /// always written. Call it once, like `finish()`.
    ///
    /// `ignored`, when given, is handed each violation an `ignore` entry left out, after the others,
    /// in the same order, with the index of the entry: the first `limit` of each rule (all without
    /// a limit) with their message, the rest with an empty one. `validate` keeps their
    /// fingerprints (a baseline's violation one of them matches is suppressed, not fixed) and, for
    /// SARIF, the violations themselves.
    @discardableResult
    public func finish(deferringMessagesAbove limit: Int?, ignored: ((Int, Violation) -> Void)? = nil,
                       _ body: (Violation) -> Void) -> PendingMessages {
        let dt = scene.frameRate > 0 ? 1 / scene.frameRate : 0
        let end = EndState(lastFrame: max(lastFrame, 0), lastTime: lastTime,
                           staticEnd: Self.endsStatic(scene, lastTime: lastTime, dt: dt), frameDuration: dt)
        if lastFrame >= 0 { for p in processors { p.finish(&findings, end) } }
        let keys = findings.keys, aggregates = findings.aggregates
        let entities = scene.entities
        let paths = entities.map(\.path)
        // The `ignore` entries that apply to this scene (no `scene` glob, or one matching its path);
        // the others take no part, so `ignoredCounts` keeps one slot per entry of the configuration.
        let ignores = configuration.ignore
        let applying = ignores.indices.filter { ignores[$0].applies(toScene: scene.path) }
        // USD prim paths, for `ignore` globs that name prims ('/Root/…'); read only when one does.
        let prims: [String?] = applying.contains(where: { ignores[$0].isPrimGlob }) ? entities.map { $0.usdPrim?.path } : []
        // Per violation: its aggregate and its entities in path order (equal paths keep index
        // order), -1 = none. Out-of-scene entity indices are left out, as their paths are.
        struct Item { var slot: Int; var e0: Int; var e1: Int }
        var items: [Item] = []
        var ranks: [Rank] = []
        items.reserveCapacity(keys.count)
        ranks.reserveCapacity(keys.count)
        let ruleRank = Self.ranks(of: rules.map(\.id))
        var pathRank: [Int] = []
        var perRule = Array(repeating: 0, count: rules.count)
        // The violations left out by an entry (and its index), for `ignored`.
        var ignoredItems: [(item: Item, entry: Int)] = []
        var ignoredRanks: [Rank] = []
        for slot in keys.indices {
            let key = keys[slot]
            var x = key.a >= 0 && key.a < paths.count ? key.a : -1
            var y = key.b >= 0 && key.b < paths.count ? key.b : -1
            if x < 0 { x = y; y = -1 }
            if y >= 0, paths[y] < paths[x] { swap(&x, &y) }
            var entry: Int?
            if !applying.isEmpty {
                let sorted = x < 0 ? [] : y < 0 ? [paths[x]] : [paths[x], paths[y]]
                let id = rules[key.rule].id
                let sortedPrims: [String?] = prims.isEmpty || x < 0 ? [] : y < 0 ? [prims[x]] : [prims[x], prims[y]]
                if let k = applying.first(where: { ignores[$0].matches(rule: id, entities: sorted, prims: sortedPrims) }) {
                    ignoredCounts[k] += 1
                    guard ignored != nil else { continue }
                    entry = k
                }
            }
            if x >= 0, pathRank.isEmpty { pathRank = Self.ranks(of: paths) }
            let rank = Rank(severity: aggregates[slot].severity.rank, rule: ruleRank[key.rule],
                            count: x < 0 ? 0 : y < 0 ? 1 : 2, e0: x >= 0 ? pathRank[x] : 0,
                            e1: y >= 0 ? pathRank[y] : 0, variant: key.variant)
            if let entry {
                ignoredItems.append((Item(slot: slot, e0: x, e1: y), entry))
                ignoredRanks.append(rank)
                continue
            }
            items.append(Item(slot: slot, e0: x, e1: y))
            ranks.append(rank)
            perRule[key.rule] += 1
        }
        let order = Self.order(of: ranks)
        ranks = []
        let writer = MessageWriter(processors: processors, processorOfRule: processorOfRule,
                                   summaries: rules.map(\.summary), paths: paths, keys: keys, aggregates: aggregates)
        let deferred = perRule.map { n in limit.map { n > $0 } ?? false }
        // What the loop below needs of each rule, read once per rule rather than copying its
        // metadata (strings and arrays, retained and released) per violation.
        let help = rules.map(\.help), ids = rules.map(\.id), units = rules.map(\.unit)
        let angleDerived = rules.map(\.angleDerived), subchecks = rules.map { $0.subchecks.map(\.name) }
        // Every fingerprint of a rule starts with the hash of its id and the scene path.
        let prefixes = rules.map { r -> FNV1a64 in
            var h = FNV1a64()
            h.combine(r.id)
            h.combine(scene.path)
            return h
        }
        var pendingIndices: [Int] = [], pendingSlots: [Int32] = []
        func violation(_ item: Item, message: String) -> Violation {
            let key = keys[item.slot]
            let agg = aggregates[item.slot]
            let sorted = item.e0 < 0 ? [] : item.e1 < 0 ? [paths[item.e0]] : [paths[item.e0], paths[item.e1]]
            let borderline = (angleDerived[key.rule] || agg.angular) && agg.threshold.isFinite && agg.threshold != 0
                && abs(agg.measured - agg.threshold) <= 0.15 * abs(agg.threshold)
            let loc = item.e0 >= 0 ? entities[item.e0].location : findings.locations[key]
            let names = subchecks[key.rule]
            let subcheck = key.variant > 0 && key.variant <= names.count ? names[key.variant - 1] : nil
            return Violation(
                rule: ids[key.rule], severity: agg.severity, entities: sorted, spans: agg.mergedSpans(), frameCount: agg.frameCount,
                firstTime: agg.firstTime.isFinite ? agg.firstTime : 0,
                lastTime: agg.lastTime.isFinite ? agg.lastTime : 0,
                measured: agg.measured, threshold: agg.threshold, unit: agg.unit ?? units[key.rule], worstFrame: agg.worstFrame,
                message: message, help: help[key.rule],
                fingerprint: violationFingerprint(prefix: prefixes[key.rule], sortedEntities: sorted, subcheck: subcheck),
                location: loc, borderline: borderline, omittedSpans: agg.omittedSpans)
        }
        for (n, k) in order.enumerated() {
            let item = items[k]
            let rule = keys[item.slot].rule
            let message: String
            if deferred[rule] {
                message = ""
                pendingIndices.append(n)
                pendingSlots.append(Int32(truncatingIfNeeded: item.slot))
            } else {
                message = writer.message(slot: item.slot)
            }
            body(violation(item, message: message))
        }
        if let ignored, !ignoredItems.isEmpty {
            var written = Array(repeating: 0, count: rules.count)
            for k in Self.order(of: ignoredRanks) {
                let (item, entry) = ignoredItems[k]
                let rule = keys[item.slot].rule
                let message = written[rule] < (limit ?? Int.max) ? writer.message(slot: item.slot) : ""
                written[rule] += 1
                ignored(entry, violation(item, message: message))
            }
        }
        return PendingMessages(writer: pendingIndices.isEmpty ? nil : writer, indices: pendingIndices, slots: pendingSlots)
    }

    /// A violation's sort keys as integers, computed once: severity, the rule id's rank, the
    /// entity paths' ranks (in path order; equal paths share a rank), the sub-check; ties keep the
    /// order of first appearance. The same order as comparing the violations' strings.
    struct Rank { var severity: Int; var rule: Int; var count: Int; var e0: Int; var e1: Int; var variant: Int }

    /// The indices of `ranks` in violation order. Sub-checks of the same rule and entities (same
    /// severity) follow the main measurement. When every field fits, each rank is packed into one
    /// integer (field by field, most significant first) and the pairs (key, index) are sorted
    /// with two integer comparisons: a crowded scene sorts a million violations. `packed` false
    /// (or a field too wide) compares the fields one by one, the definition.
    static func order(of ranks: [Rank], packed: Bool = true) -> [Int] {
        // An entity list compares lexicographically (a prefix first): as the pair of ranks + 1,
        // 0 for an entity that is not there.
        var widest = (severity: 0, rule: 0, entity: 0, variant: 0), negative = false
        for r in ranks {
            widest = (max(widest.severity, r.severity), max(widest.rule, r.rule),
                      max(widest.entity, r.count > 0 ? r.e0 + 1 : 0, r.count > 1 ? r.e1 + 1 : 0), max(widest.variant, r.variant))
            negative = negative || min(r.severity, r.rule, r.e0, r.e1, r.variant) < 0
        }
        func bits(_ x: Int) -> Int { Int.bitWidth - x.leadingZeroBitCount }
        let b = (bits(widest.severity), bits(widest.rule), bits(widest.entity), bits(widest.variant))
        if packed, !negative, b.0 + b.1 + 2 * b.2 + b.3 <= 64 {
            struct Keyed { var key: UInt64; var index: Int }
            var keyed: [Keyed] = []
            keyed.reserveCapacity(ranks.count)
            for (i, r) in ranks.enumerated() {
                var k = UInt64(r.severity)
                k = k << b.1 | UInt64(r.rule)
                k = k << b.2 | UInt64(r.count > 0 ? r.e0 + 1 : 0)
                k = k << b.2 | UInt64(r.count > 1 ? r.e1 + 1 : 0)
                k = k << b.3 | UInt64(r.variant)
                keyed.append(Keyed(key: k, index: i))
            }
            keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
            return keyed.map(\.index)
        }
        var order = Array(ranks.indices)
        ranks.withUnsafeBufferPointer { r in
            order.sort { i, j in
                let a = r[i], b = r[j]
                if a.severity != b.severity { return a.severity < b.severity }
                if a.rule != b.rule { return a.rule < b.rule }
                // Entity paths compared lexicographically (a prefix first).
                if a.count > 0, b.count > 0, a.e0 != b.e0 { return a.e0 < b.e0 }
                if a.count > 1, b.count > 1, a.e1 != b.e1 { return a.e1 < b.e1 }
                if a.count != b.count { return a.count < b.count }
                if a.variant != b.variant { return a.variant < b.variant }
                return i < j
            }
        }
        return order
    }

    /// The rank of each string in sorted order (equal strings share a rank).
    static func ranks(of strings: [String]) -> [Int] {
        let sorted = strings.indices.sorted { strings[$0] < strings[$1] }
        var rank = Array(repeating: 0, count: strings.count)
        var r = 0
        for (k, i) in sorted.enumerated() {
            if k > 0, strings[i] != strings[sorted[k - 1]] { r += 1 }
            rank[i] = r
        }
        return rank
    }

    static func endsStatic(_ scene: Scene, lastTime: Double, dt: Double) -> Bool {
        let horizon = lastTime + dt + 1e-9
        if scene.viewer.motion != .none { return false }
        if let last = scene.viewer.path.last, last.time > horizon { return false }
        for a in scene.animations where a.speed != 0 && a.duration > 0 {
            if a.loop || a.endTime > horizon { return false }
        }
        return !scene.events.contains { $0.time > horizon }
    }
}

/// Writes the message of one aggregate: its rule's processor's `message(rule:_:_:)` with the entity
/// paths in index order, or the rule's summary for a rule without a processor.
struct MessageWriter {
    let processors: [RuleProcessor]
    let processorOfRule: [Int]
    let summaries: [String]
    let paths: [String]
    let keys: [FindingKey]
    let aggregates: [Aggregate]

    func message(slot: Int) -> String {
        let key = keys[slot]
        let a = key.a >= 0 && key.a < paths.count, b = key.b >= 0 && key.b < paths.count
        // One allocation (appending to an empty array allocates twice for two names).
        let names = a && b ? [paths[key.a], paths[key.b]] : a ? [paths[key.a]] : b ? [paths[key.b]] : []
        let p = processorOfRule[key.rule]
        return p >= 0 ? processors[p].message(rule: key.rule, aggregates[slot], names) : summaries[key.rule]
    }
}

/// The messages `RuleEngine.finish(deferringMessagesAbove:_:)` left empty, written on demand with
/// exactly the text `finish()` would have given them.
///
/// It keeps the engine's aggregates and rule processors alive until it is released. Unchecked
/// `Sendable`: nothing in it changes after `finish`, and the processors' `message` only reads them.
public final class PendingMessages: @unchecked Sendable {
    private let writer: MessageWriter?
    /// Indices (in `finish`'s order) of the violations whose message is empty, ascending.
    public let indices: [Int]
    private let slots: [Int32]

    init(writer: MessageWriter?, indices: [Int], slots: [Int32]) {
        self.writer = writer; self.indices = indices; self.slots = slots
    }

    /// The message of violation `index` (in `finish`'s order), nil when it was written at once.
    public func message(ofViolation index: Int) -> String? {
        var lo = 0, hi = indices.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if indices[mid] < index { lo = mid + 1 } else { hi = mid }
        }
        guard lo < indices.count, indices[lo] == index, let writer else { return nil }
        return writer.message(slot: Int(slots[lo]))
    }
}

/// Builds the processors of the catalog's rules.
struct RuleFactory {
    var ids: [String]
    var make: (RuleSetup) -> RuleProcessor?
}

/// What a rule follows from frame to frame beside its per-frame checks (a history, a sum over
/// entities), reporting what it finds itself.
protocol FrameState: AnyObject {
    /// Called once per frame, in frame order, before the rule's checks of that frame.
    func update(_ f: FrameQuantities, _ out: inout Findings)
}

/// A processor whose frame state is brought up to date before it consumes each frame.
final class FrameStateRule: RuleProcessor {
    private let state: FrameState
    private let rule: RuleProcessor
    init(_ state: FrameState, then rule: RuleProcessor) { self.state = state; self.rule = rule }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        state.update(f, &out)
        rule.consume(f, &out)
    }
    func finish(_ out: inout Findings, _ end: EndState) { rule.finish(&out, end) }
    func message(rule r: Int, _ agg: Aggregate, _ names: [String]) -> String { rule.message(rule: r, agg, names) }
    var pairTests: Int { rule.pairTests }
    var work: Int { rule.work }
}

// MARK: - Generic per-entity condition rule

/// Switches the rules' exact shortcuts (gates, remembered results, bounds that skip a test) on or
/// off for the processors made while it is set. Every shortcut gives the same findings as the
/// plain evaluation; tests set it to false to compare the two on the same scene.
enum RuleShortcuts {
    @TaskLocal static var enabled = true
    /// Whether rules that declare it repeat the previous frame's findings in a frame whose values
    /// are the previous frame's (`ConditionRule.Reads.quantities`); tests compare on and off.
    @TaskLocal static var stillFrames = true
}

/// A per-frame condition over a set of entities (or the scene, entity -1), with an optional
/// "continuously for more than N seconds" dwell.
///
/// A `Gate` states, as data, a necessary condition of `check`: the entity is visible (and in the
/// field of view), and one quantity lies outside a range. The candidates are screened with it in a
/// tight loop over the frame's arrays, and `check` (a closure call, the costly part) runs only for
/// those that pass; a candidate that fails is treated exactly as a nil from `check`, so the
/// findings are the same as without the gate. A rule's gate must never reject an entity its
/// check could report (tests compare with `RuleShortcuts.enabled` off).
final class ConditionRule: RuleProcessor {
    struct Hit {
        var measured: Double; var threshold: Double; var severity: Severity? = nil; var angular = false; var aux = Double.nan
        /// The finding's own unit when it is not the rule's declared one (see `Aggregate.unit`).
        var unit: String? = nil
        /// The sub-check it belongs to (`FindingKey.variant`; 0 = the rule's main measurement).
        var variant = 0
    }
    /// A necessary condition of a rule's `check` for entity candidates (scene-level candidates,
    /// -1, always run the check).
    struct Gate {
        /// `check` returns nil for an entity that is not visible.
        var visible = true
        /// `check` returns nil for an entity that is not in the field of view (`inFOV`).
        var inFOV = false
        /// `check` returns nil unless `quantity[e] < below` or `quantity[e] > above` (a NaN
        /// quantity passes neither comparison, so it is rejected: the check must return nil then).
        var quantity: KeyPath<FrameQuantities, [Double]>? = nil
        var below = -Double.infinity, above = Double.infinity

        /// Only visible entities can be reported.
        static var visible: Gate { Gate() }
        /// Only visible entities with `quantity > x` can be reported.
        /// (A NaN bound screens on visibility only.)
        static func above(_ q: KeyPath<FrameQuantities, [Double]>, _ x: Double, inFOV: Bool = false) -> Gate {
            x.isNaN ? Gate(inFOV: inFOV) : Gate(inFOV: inFOV, quantity: q, above: x)
        }
        /// Only visible entities with `quantity < x` can be reported.
        static func below(_ q: KeyPath<FrameQuantities, [Double]>, _ x: Double, inFOV: Bool = false) -> Gate {
            x.isNaN ? Gate(inFOV: inFOV) : Gate(inFOV: inFOV, quantity: q, below: x)
        }
        /// Only visible entities with `quantity` outside `[lo, hi]` can be reported.
        static func outside(_ q: KeyPath<FrameQuantities, [Double]>, _ lo: Double, _ hi: Double, inFOV: Bool = false) -> Gate {
            lo.isNaN || hi.isNaN ? Gate(inFOV: inFOV) : Gate(inFOV: inFOV, quantity: q, below: lo, above: hi)
        }
    }
    /// What `check` reads besides the frame's quantities, declared by the rule.
    enum Reads {
        /// The frame's number or time, earlier frames, or state that changes between events (the
        /// default: evaluated in every frame).
        case timeOrHistory
        /// Only the frame's values other than its number and time (and scene data, or state that
        /// changes only at events): the same values give the same hits. In a frame marked
        /// `FrameQuantities.unchangedSincePrevious` the hits are those of the frame before, so
        /// they are not evaluated again (see `consume`); the rule's dwell, which reads time, is
        /// still followed frame by frame for the runs that are open.
        case quantities
    }
    let rule: Int
    let candidates: [Int]
    let dwell: Double?
    /// Dwell rules only: the measured value is how long the run has lasted (s), not the hit's.
    let measuresRunLength: Bool
    let check: (FrameQuantities, Int) -> Hit?
    let describe: (Aggregate, [String]) -> String
    /// The screen applied before `check` (nil: every candidate is checked).
    let gate: Gate?
    /// The current run of each candidate (dwell rules only).
    private struct Run {
        var start = -1; var startTime = 0.0; var worst = Double.nan; var worstFrame = 0
        /// The worst frame's `Hit.aux`, so that a run reported at once keeps what its message needs.
        var aux = Double.nan
        var threshold = Double.nan; var unit: String?
        /// The run has outlasted the dwell and its frames so far are reported.
        var reported = false
        var severity: Severity?; var variant = 0
    }
    private var runs: [Run]
    /// Per candidate: the aggregate its last main-measurement finding went to (`Findings.report(slot:)`).
    private var slots: [Int32]
    private let higher: Bool
    private let dt: Double
    /// Still frames (`Reads.quantities`). A frame with the previous frame's values is evaluated
    /// as usual when it starts a streak of such frames (its hits are the previous frame's), and
    /// what it found is kept: without a dwell, the findings (candidate and sub-check), which are
    /// only noted in the streak's later frames and get their runs extended once when the streak
    /// ends (`flushRepeats`: a repeated value is never a new worst, so that is what reporting
    /// them in each frame does); with a dwell, the candidates whose run is open, the only ones
    /// whose state a frame with the same hits can change (a run's length, its crossing of the
    /// dwell: the frame where it crosses is found by evaluating them in each frame as before).
    /// The rule's findings go to aggregates of its own, so the order in which they are extended
    /// changes nothing.
    private let repeatsStill: Bool
    private var lastFrame = -1
    /// Whether the streak's first frame was evaluated (and `repeated`/`openRuns` are its own).
    private var streak = false
    private var repeated: [(k: Int32, variant: Int32)] = []
    private var openRuns: [Int32] = []
    /// Frames of the streak not yet added to the runs of `repeated`.
    private var pending = RepeatStreak()

    init(rule: Int, meta: RuleMetadata, candidates: [Int], dwell: Double? = nil, measuresRunLength: Bool = false,
         frameDuration: Double, gate: Gate? = nil, reads: Reads = .timeOrHistory,
         check: @escaping (FrameQuantities, Int) -> Hit?,
         message: @escaping (Aggregate, [String]) -> String) {
        self.rule = rule; self.candidates = candidates; self.dwell = dwell; self.measuresRunLength = measuresRunLength
        self.check = check
        self.gate = RuleShortcuts.enabled ? gate : nil
        self.describe = message; self.higher = meta.worse == .higher; self.dt = frameDuration
        runs = Array(repeating: Run(), count: dwell == nil ? 0 : candidates.count)
        slots = Array(repeating: -1, count: candidates.count)
        repeatsStill = reads == .quantities && RuleShortcuts.stillFrames
    }

    /// Calls `body(k, e, mayHit)` for each candidate k (entity e) in order; `mayHit` is false when
    /// the gate rules out a finding for it this frame.
    @inline(__always)
    private func screen(_ f: FrameQuantities, _ body: (Int, Int, Bool) -> Void) {
        let n = f.visible.count
        guard let g = gate else {
            for (k, e) in candidates.enumerated() { body(k, e, true) }
            return
        }
        let q: [Double] = g.quantity.map { f[keyPath: $0] } ?? []
        let useQ = g.quantity != nil && q.count == n
        let useFOV = g.inFOV && f.inFOV.count == n
        let below = g.below, above = g.above, needVisible = g.visible
        f.visible.withUnsafeBufferPointer { vis in
        f.inFOV.withUnsafeBufferPointer { fov in
        q.withUnsafeBufferPointer { qv in
        candidates.withUnsafeBufferPointer { cands in
            for k in 0..<cands.count {
                let e = cands[k]
                guard e >= 0, e < n else { body(k, e, true); continue }
                var may = !needVisible || vis[e]
                if may, useFOV { may = fov[e] }
                if may, useQ { let v = qv[e]; may = v < below || v > above }
                body(k, e, may)
            }
        }}}}
    }

    /// Records `hit` for entity `e` in frame `f`: the main measurement through its remembered
    /// aggregate `slot`, a sub-check by key.
    @inline(__always)
    private static func report(_ hit: Hit, rule: Int, _ e: Int, slot: inout Int32, _ f: FrameQuantities, _ out: inout Findings) {
        if hit.variant == 0 {
            out.report(slot: &slot, rule: rule, e, -1, frame: f.frame, time: f.time, measured: hit.measured,
                       threshold: hit.threshold, aux: hit.aux, severity: hit.severity, angular: hit.angular, unit: hit.unit)
        } else {
            out.report(rule: rule, e, frame: f.frame, time: f.time, measured: hit.measured,
                       threshold: hit.threshold, aux: hit.aux, severity: hit.severity, angular: hit.angular,
                       unit: hit.unit, variant: hit.variant)
        }
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        let still = repeatsStill && f.unchangedSincePrevious && f.frame == lastFrame &+ 1
        lastFrame = f.frame
        if still, streak {
            pending.note(frame: f.frame, time: f.time)
            if dwell != nil, !openRuns.isEmpty { consumeOpenRuns(f, &out) }
            return
        }
        flushRepeats(&out)
        streak = still
        if still { openRuns.removeAll(keepingCapacity: true) }
        let check = self.check, rule = self.rule
        if dwell == nil, still {
            // A streak's first frame: what it finds is kept for the streak's later frames. (A
            // loop of its own: recording in the loop below made every other frame slower.)
            var kept: [(k: Int32, variant: Int32)] = []
            slots.withUnsafeMutableBufferPointer { slots in
                screen(f) { k, e, may in
                    guard may, let hit = check(f, e) else { return }
                    kept.append((Int32(truncatingIfNeeded: k), Int32(truncatingIfNeeded: hit.variant)))
                    Self.report(hit, rule: rule, e, slot: &slots[k], f, &out)
                }
            }
            repeated = kept
            return
        }
        guard let dwell else {
            slots.withUnsafeMutableBufferPointer { slots in
                screen(f) { k, e, may in
                    guard may, let hit = check(f, e) else { return }
                    Self.report(hit, rule: rule, e, slot: &slots[k], f, &out)
                }
            }
            return
        }
        let measuresRunLength = self.measuresRunLength, higher = self.higher, dt = self.dt
        // One exclusive access to the run state per frame, not one per candidate.
        slots.withUnsafeMutableBufferPointer { slots in
        runs.withUnsafeMutableBufferPointer { runs in
            screen(f) { k, e, may in
                guard may, let hit = check(f, e) else { runs[k].start = -1; return }
                Self.dwellStep(hit, k, e, f, rule: rule, dwell: dwell, measuresRunLength: measuresRunLength, higher: higher,
                               dt: dt, runs, slots, &out)
            }
        }}
        if still {
            for k in runs.indices where runs[k].start >= 0 { openRuns.append(Int32(truncatingIfNeeded: k)) }
        }
    }

    /// The dwell rule's frame for the candidates whose run is open, in a streak frame whose hits
    /// are the previous frame's (the other candidates have no hit and no run, before and after).
    private func consumeOpenRuns(_ f: FrameQuantities, _ out: inout Findings) {
        guard let dwell else { return }
        let check = self.check, rule = self.rule, candidates = self.candidates, open = openRuns
        let measuresRunLength = self.measuresRunLength, higher = self.higher, dt = self.dt
        slots.withUnsafeMutableBufferPointer { slots in
        runs.withUnsafeMutableBufferPointer { runs in
            for k32 in open {
                let k = Int(k32), e = candidates[k]
                guard let hit = check(f, e) else { runs[k].start = -1; continue }
                Self.dwellStep(hit, k, e, f, rule: rule, dwell: dwell, measuresRunLength: measuresRunLength, higher: higher,
                               dt: dt, runs, slots, &out)
            }
        }}
    }

    /// Extends the runs of the streak's repeated findings over its frames after the first.
    private func flushRepeats(_ out: inout Findings) {
        guard let s = pending.take() else { return }
        for (k, variant) in repeated {
            out.repeatRun(rule: rule, candidates[Int(k)], variant: Int(variant), from: s.from, fromTime: s.fromTime,
                          to: s.to, toTime: s.toTime)
        }
    }

    /// Candidate k (entity e) of a dwell rule has `hit` in frame `f`: its run starts or goes on,
    /// and is reported once it outlasts the dwell.
    @inline(__always)
    private static func dwellStep(_ hit: Hit, _ k: Int, _ e: Int, _ f: FrameQuantities, rule: Int, dwell: Double,
                                  measuresRunLength: Bool, higher: Bool, dt: Double, _ runs: UnsafeMutableBufferPointer<Run>,
                                  _ slots: UnsafeMutableBufferPointer<Int32>, _ out: inout Findings) {
        var hit = hit
        if runs[k].start < 0 {
            runs[k] = Run(start: f.frame, startTime: f.time)
        }
        // A frame stands for its whole interval, so after frame i the condition has held
        // (t_i - t_start + dt) seconds.
        let lasted = f.time - runs[k].startTime + dt
        if measuresRunLength { hit.measured = lasted }
        if runs[k].worst.isNaN || (higher ? hit.measured > runs[k].worst : hit.measured < runs[k].worst) {
            runs[k].worst = hit.measured; runs[k].worstFrame = f.frame; runs[k].aux = hit.aux
        }
        runs[k].threshold = hit.threshold
        runs[k].unit = hit.unit
        runs[k].severity = hit.severity; runs[k].variant = hit.variant
        // Once the run outlasts the dwell, the whole run is the violation: its frames before
        // the crossing are reported at once (with the run's worst value so far), then each
        // frame as it comes.
        guard lasted > dwell + 1e-9 else { return }
        if !runs[k].reported, runs[k].start < f.frame {
            out.reportRun(rule: rule, e, from: runs[k].start, fromTime: runs[k].startTime,
                          to: f.frame - 1, toTime: f.time - dt, measured: runs[k].worst,
                          worstFrame: runs[k].worstFrame, threshold: hit.threshold, aux: runs[k].aux,
                          severity: hit.severity, unit: hit.unit, variant: hit.variant)
        }
        runs[k].reported = true
        report(hit, rule: rule, e, slot: &slots[k], f, &out)
    }

    func finish(_ out: inout Findings, _ end: EndState) {
        flushRepeats(&out)
        guard dwell != nil, end.staticEnd else { return }
        for (k, run) in runs.enumerated() where run.start >= 0 {
            // Still holding when the scene comes to rest: sustained for ever, so the whole run counts.
            out.reportRun(rule: rule, candidates[k], from: run.start, fromTime: run.startTime,
                          to: end.lastFrame, toTime: end.lastTime, measured: run.worst,
                          worstFrame: run.worstFrame, threshold: run.threshold, aux: run.aux,
                          severity: run.severity, unit: run.unit, variant: run.variant)
        }
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { describe(agg, names) }
}

/// A finding decided once from scene data (no per-frame condition); reported over every frame.
/// Several processors that report under the same rule(s), with one message.
final class MultiProcessor: RuleProcessor {
    let parts: [RuleProcessor]
    let describe: (Int, Aggregate, [String]) -> String
    init(_ parts: [RuleProcessor], message: @escaping (Int, Aggregate, [String]) -> String) {
        self.parts = parts; self.describe = message
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) { for p in parts { p.consume(f, &out) } }
    func finish(_ out: inout Findings, _ end: EndState) { for p in parts { p.finish(&out, end) } }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { describe(rule, agg, names) }
}

final class StaticRule: RuleProcessor {
    struct Item { var entity: Int; var measured: Double; var threshold: Double; var severity: Severity? = nil; var aux = Double.nan }
    let rule: Int
    let items: [Item]
    /// Only frames where the entity is visible count (scene-level items, entity -1, count every frame).
    let whileVisible: Bool
    let describe: (Aggregate, [String]) -> String
    /// Per item: the aggregate its findings go to, once known (`Findings.report(slot:)` checks it),
    /// which saves the table lookup of an item reported frame after frame.
    private var slots: [Int32]
    /// Runs reported whole (`RuleShortcuts`): an item's finding is the same in every frame it is
    /// reported, so frames s…e of a run of consecutive visible frames leave its aggregate exactly as
    /// reporting frame s and then the run s+1…e at once (`reportRun`, worst frame e) does: the
    /// spans and frame count are the same, the worst value is set by frame s and never beaten by an
    /// equal one, and where the threshold is NaN the last frame is the worst frame either way. Frame
    /// s is reported when it comes (the aggregate is created in the same order), the rest when the
    /// run ends: at a hidden frame, a gap in the frame numbers, or `finish`. Off when two items
    /// name the same entity (their findings would interleave in one aggregate).
    private let wholeRuns: Bool
    /// Per item: first and last frame of its open run (-1: none), the time of its second and last frames.
    private var runStart: [Int], runLast: [Int], runSecondTime: [Double], runLastTime: [Double]
    init(rule: Int, items: [Item], whileVisible: Bool = true, message: @escaping (Aggregate, [String]) -> String) {
        self.rule = rule; self.items = items; self.whileVisible = whileVisible; self.describe = message
        slots = Array(repeating: -1, count: items.count)
        wholeRuns = RuleShortcuts.enabled && Set(items.map(\.entity)).count == items.count
        runStart = Array(repeating: -1, count: wholeRuns ? items.count : 0)
        runLast = runStart
        runSecondTime = Array(repeating: 0, count: runStart.count); runLastTime = runSecondTime
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        let rule = self.rule, whileVisible = self.whileVisible
        guard wholeRuns else {
            items.withUnsafeBufferPointer { items in
            slots.withUnsafeMutableBufferPointer { slots in
            f.visible.withUnsafeBufferPointer { visible in
                for k in 0..<items.count {
                    let it = items[k]
                    if whileVisible, it.entity >= 0, it.entity < visible.count, !visible[it.entity] { continue }
                    out.report(slot: &slots[k], rule: rule, it.entity, -1, frame: f.frame, time: f.time, measured: it.measured,
                               threshold: it.threshold, aux: it.aux, severity: it.severity, angular: false, unit: nil)
                }
            }}}
            return
        }
        let frame = f.frame, time = f.time
        items.withUnsafeBufferPointer { items in
        slots.withUnsafeMutableBufferPointer { slots in
        runStart.withUnsafeMutableBufferPointer { start in
        runLast.withUnsafeMutableBufferPointer { last in
        runSecondTime.withUnsafeMutableBufferPointer { second in
        runLastTime.withUnsafeMutableBufferPointer { lastTime in
        f.visible.withUnsafeBufferPointer { visible in
            for k in 0..<items.count {
                let it = items[k]
                if whileVisible, it.entity >= 0, it.entity < visible.count, !visible[it.entity] {
                    if start[k] >= 0 { Self.close(k, it, rule, start, last, second, lastTime, &out) }
                    continue
                }
                if start[k] >= 0, last[k] == frame - 1 {
                    if last[k] == start[k] { second[k] = time }
                    last[k] = frame; lastTime[k] = time
                    continue
                }
                if start[k] >= 0 { Self.close(k, it, rule, start, last, second, lastTime, &out) }
                out.report(slot: &slots[k], rule: rule, it.entity, -1, frame: frame, time: time, measured: it.measured,
                           threshold: it.threshold, aux: it.aux, severity: it.severity, angular: false, unit: nil)
                start[k] = frame; last[k] = frame; lastTime[k] = time
            }
        }}}}}}}
    }
    /// Reports the frames after the first of item k's open run, and closes it.
    private static func close(_ k: Int, _ it: Item, _ rule: Int, _ start: UnsafeMutableBufferPointer<Int>,
                              _ last: UnsafeMutableBufferPointer<Int>, _ second: UnsafeMutableBufferPointer<Double>,
                              _ lastTime: UnsafeMutableBufferPointer<Double>, _ out: inout Findings) {
        if last[k] > start[k] {
            out.reportRun(rule: rule, it.entity, from: start[k] + 1, fromTime: second[k], to: last[k], toTime: lastTime[k],
                          measured: it.measured, worstFrame: last[k], threshold: it.threshold, aux: it.aux,
                          severity: it.severity)
        }
        start[k] = -1
    }
    func finish(_ out: inout Findings, _ end: EndState) {
        guard wholeRuns else { return }
        let rule = self.rule
        items.withUnsafeBufferPointer { items in
        runStart.withUnsafeMutableBufferPointer { start in
        runLast.withUnsafeMutableBufferPointer { last in
        runSecondTime.withUnsafeMutableBufferPointer { second in
        runLastTime.withUnsafeMutableBufferPointer { lastTime in
            for k in 0..<items.count where start[k] >= 0 {
                Self.close(k, items[k], rule, start, last, second, lastTime, &out)
            }
        }}}}}
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { describe(agg, names) }
}

// MARK: - Formatting

/// Numbers in messages: at most two decimals, no trailing zeros; below 0.1, two significant digits
/// (a 5 mm threshold reads 0.005, not 0.01).
func fmt(_ x: Double) -> String {
    guard x.isFinite else { return x.isNaN ? "n/a" : (x > 0 ? "inf" : "-inf") }
    // What the rounding below gives for ±0 (most of a crowded scene's measured gaps), without it.
    if x == 0 { return "0" }
    let a = abs(x)
    let decimals = a > 0 && a < 0.1 ? min(8, 1 - Int(log10(a).rounded(.down))) : 2
    let scale = pow(10, Double(decimals))
    let r = (x * scale).rounded() / scale
    if r == r.rounded() && abs(r) < 1e15 { return String(Int(r)) }
    // r is a whole number k of 10^-decimals (up to the binary representation, far below half a
    // unit of the last decimal), so "%.<decimals>f" prints k's digits with a decimal point.
    let k = (abs(r) * scale).rounded()
    guard k < 1e15 else {
        var s = String(format: "%.\(decimals)f", r)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }
    var digits = Array(String(Int(k)).utf8)
    if digits.count <= decimals { digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals + 1 - digits.count), at: 0) }
    var frac = digits.count
    while frac > digits.count - decimals, digits[frac - 1] == UInt8(ascii: "0") { frac -= 1 }
    var s = r < 0 ? "-" : ""
    s += String(decoding: digits[..<(digits.count - decimals)], as: UTF8.self)
    if frac > digits.count - decimals {
        s += "."
        s += String(decoding: digits[(digits.count - decimals)..<frac], as: UTF8.self)
    }
    return s
}

/// `x` as `fmt` writes it, with as many more decimals (up to 9) as it takes not to print it equal to
/// `limit` when it is not: a contrast of 2.996 that fails 3:1 reads "2.996", not "3".
func fmt(_ x: Double, beside limit: Double) -> String {
    let s = fmt(x), l = fmt(limit)
    guard x != limit, x.isFinite, limit.isFinite, s == l else { return s }
    for decimals in 3...9 {
        var t = String(format: "%.\(decimals)f", x)
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        if t != l { return t }
    }
    return s
}

/// `parts` joined, written once into a string of the exact length. Interpolation grows its string
/// several times and appends piece by piece (about 6,000 instructions for win-controls-keepout's
/// message of eleven pieces), which a crowded scene pays for each of ~800,000 violations.
func concatenated(_ parts: String...) -> String {
    var count = 0
    for p in parts { count += p.utf8.count }
    return String(unsafeUninitializedCapacity: count) { out in
        var n = 0
        for var p in parts {
            p.withUTF8 { b in
                let end = min(out.count, n + b.count)
                n = UnsafeMutableBufferPointer(rebasing: out[n..<end]).initialize(fromContentsOf: b[..<(end - n)]) + n
            }
        }
        return n
    }
}

/// How many entities a message that lists what a scene may hold by the thousand (the sheets
/// shown at once, the UI left visible during coaching) names one by one (`joinedNames(atMost:)`).
let namesListed = 10

extension Array where Element == String {
    var joinedNames: String {
        switch count {
        case 0: "the scene"
        case 1: self[0]
        default: dropLast().joined(separator: ", ") + " and " + (last ?? "")
        }
    }

    /// `joinedNames` of the first `limit`, then "and N more": a message naming what a hostile scene
    /// may hold by the thousand stays short.
    func joinedNames(atMost limit: Int) -> String {
        count <= limit ? joinedNames : prefix(limit).joined(separator: ", ") + " and \(count - limit) more"
    }
}

// MARK: - Scene timeline shared by rules

/// The scene's events in the order the simulator applies them (by time, then file order), walked
/// frame by frame: `advance(to:)` returns the events that take effect at a frame (time ≤ t).
struct EventCursor {
    private let events: [SceneEvent]
    private var next = 0
    init(_ scene: Scene) {
        events = scene.events.enumerated()
            .filter { $0.element.time.isFinite }
            .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            .map(\.element)
    }
    mutating func advance(to time: Double) -> ArraySlice<SceneEvent> {
        let start = next
        while next < events.count, events[next].time <= time + 1e-9 { next += 1 }
        return events[start..<next]
    }
}

/// Runs `before` on each frame ahead of the wrapped processor and `after` once it has reported, so
/// a rule can track scene state (a resting pose, the event that started a segment) frame by frame.
final class HookedProcessor: RuleProcessor {
    let inner: RuleProcessor
    let before: (FrameQuantities) -> Void
    let after: (FrameQuantities, inout Findings) -> Void
    init(_ inner: RuleProcessor, before: @escaping (FrameQuantities) -> Void = { _ in },
         after: @escaping (FrameQuantities, inout Findings) -> Void = { _, _ in }) {
        self.inner = inner; self.before = before; self.after = after
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        before(f)
        inner.consume(f, &out)
        after(f, &out)
    }
    func finish(_ out: inout Findings, _ end: EndState) { inner.finish(&out, end) }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { inner.message(rule: rule, agg, names) }
}
