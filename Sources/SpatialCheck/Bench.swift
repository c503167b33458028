import Foundation
import SpatialModel
import SceneLoader
import Simulation
import Rules
import Reporting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SpatialCheck {
    public enum BenchFormat: String, Sendable, CaseIterable { case text, json }
    /// Which time `--baseline` compares: the wall clock, or the process's CPU time (user + system),
    /// which a busy or shared machine inflates far less.
    public enum BenchClock: String, Sendable, CaseIterable { case wall, cpu }

    public struct BenchOptions: Sendable {
        /// Frames to simulate (the scene's duration is replaced by `frames / frameRate`).
        public var frames: Int = 10_000
        /// Run the rule engine on every frame (full validation). False measures the simulator alone.
        public var rules: Bool = true
        /// Rule configuration; `.default` enables every rule of the catalog.
        public var configuration: RuleConfiguration = .default
        public var load = LoadOptions()
        /// Runs of the whole pipeline on the loaded scene (`--repeat`); the result is the median run.
        public var repeats = 1
        /// `validate`'s work budget (`--max-work`): the frames asked for are refused up front when
        /// over it, and a run stops after the frame whose counted work passes it (`stoppedAfterFrame`).
        public var budget = WorkBudget()
        public init() {}
    }

    /// What `bench` measured. Times are nanoseconds of a monotonic clock; `…PerEntityFrame` divide
    /// a phase by frames × entities.
    public struct BenchResult: Sendable {
        public var path: String
        public var entities: Int
        public var nodes: Int
        public var animations: Int
        public var frames: Int
        public var frameRate: Double
        public var loadNanoseconds: UInt64
        /// Simulator phases (see `SimulationPhaseTimes`).
        public var animation: UInt64
        public var transforms: UInt64
        public var quantities: UInt64
        /// `RuleEngine.consume` over every frame.
        public var rules: UInt64
        /// `RuleEngine.finish`: closing runs and turning aggregates into sorted violations (messages
        /// written as `validate` writes them by default: not for a rule with more than
        /// `SpatialCheck.defaultMaxViolationsPerRule` violations).
        public var aggregation: UInt64
        /// Wall time of the whole run (simulation, rules and aggregation), which also contains the
        /// loop's own overhead: the phases sum to at most this.
        public var total: UInt64
        public var violations: Int
        /// Peak resident set size (getrusage `ru_maxrss`) after loading the scene and after the run, bytes.
        public var peakRSSAfterLoad: Int
        public var peakRSS: Int
        /// The last frame simulated when the work budget or the tracking limit stopped the run
        /// (`frames` frames ran), else nil.
        public var stoppedAfterFrame: Int?
        /// What stopped it: the tracking limit (`--max-tracked`, as `validate`), else the work budget.
        public var stoppedByTrackingLimit = false
        /// When the work budget stopped it by projection (`WorkProjection`, as `validate`): the
        /// window, the rate and the projected work.
        public var projection: EarlyStop.Projection?
        /// ns per entity-frame of every run (`--repeat`), in the order they ran.
        public var runs: [Double] = []
        /// CPU time of the process (user + system, `CLOCK_PROCESS_CPUTIME_ID`) over the same region
        /// as `total`, in nanoseconds; on a machine shared with other work it stays close to what the
        /// run needs while the wall time grows with the waiting.
        public var cpu: UInt64 = 0
        /// CPU ns per entity-frame of every run, in the order they ran.
        public var cpuRuns: [Double] = []

        public var entityFrames: Double { Double(frames) * Double(entities) }
        public var framesPerSecond: Double { total > 0 ? Double(frames) / (Double(total) / 1e9) : 0 }
        public var entityFramesPerSecond: Double { framesPerSecond * Double(entities) }
        public func perEntityFrame(_ ns: UInt64) -> Double { entityFrames > 0 ? Double(ns) / entityFrames : 0 }
        /// (name, nanoseconds) of every phase, in pipeline order.
        public var phases: [(String, UInt64)] {
            [("animation", animation), ("transforms", transforms), ("quantities", quantities),
             ("rules", rules), ("aggregation", aggregation)]
        }
        /// ns per entity-frame over the runs: median (the lower middle run for an even count),
        /// minimum, maximum, and the spread (max − min) in % of the median.
        public var spread: (median: Double, min: Double, max: Double, percent: Double) {
            Self.spread(runs.isEmpty ? [perEntityFrame(total)] : runs)
        }
        /// The same over the runs' CPU time.
        public var cpuSpread: (median: Double, min: Double, max: Double, percent: Double) {
            Self.spread(cpuRuns.isEmpty ? [perEntityFrame(cpu)] : cpuRuns)
        }
        private static func spread(_ runs: [Double]) -> (median: Double, min: Double, max: Double, percent: Double) {
            let sorted = runs.sorted()
            let median = sorted[(sorted.count - 1) / 2]
            let lo = sorted[0], hi = sorted[sorted.count - 1]
            return (median, lo, hi, median > 0 ? 100 * (hi - lo) / median : 0)
        }
    }

    /// A saved `bench --format json` result to compare with (`--baseline`).
    public struct BenchBaseline: Sendable, Equatable {
        public var path: String
        public var scene: String
        public var entities: Int
        public var nanosecondsPerEntityFrame: Double
        /// The frames the baseline simulated (`frames`), nil when it does not say.
        public var frames: Int?
        /// True when the baseline's run stopped early (`stoppedAfterFrame`): its `frames` are then
        /// fewer than its `--frames` were.
        public var stoppedEarly = false
        public init(path: String, scene: String, entities: Int, nanosecondsPerEntityFrame: Double,
                    frames: Int? = nil, stoppedEarly: Bool = false) {
            self.path = path; self.scene = scene; self.entities = entities
            self.nanosecondsPerEntityFrame = nanosecondsPerEntityFrame
            self.frames = frames; self.stoppedEarly = stoppedEarly
        }

        /// The name a new bench baseline is suggested under, beside `path`, never `path` itself
        /// (s27 F7: the hint for a validate baseline passed by mistake suggested overwriting it).
        static func newName(beside path: String) -> String {
            let folder = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent == "perf-baseline.json" ? "perf-bench.json" : "perf-baseline.json"
            return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
        }

        /// Reads a `spatialcheck-bench/1` document: the median ns per entity-frame of its runs
        /// (`repeat`), else its `nanosecondsPerEntityFrame`; with `clock: .cpu` the same of its CPU
        /// time (`medianCpuNanosecondsPerEntityFrame`, else `cpuNanosecondsPerEntityFrame`).
        public static func parse(_ data: Data, path: String, clock: BenchClock = .wall) throws(Diagnostic) -> BenchBaseline {
            let hint = "write one under a new name with `spatialcheck bench SCENE --repeat 5 --format json --output \(newName(beside: path))`"
            guard let obj = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  obj["format"] as? String == "spatialcheck-bench/1" else {
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                if let format = object?["format"] as? String, format == "spatialcheck-report/1" {
                    throw Diagnostic(file: path, message: "not a spatialcheck bench result (format spatialcheck-bench/1): it is a validate report (spatialcheck-report/1), such as a validate --baseline",
                                     hint: "keep it for validate, and \(hint)")
                }
                throw Diagnostic(file: path, message: "not a spatialcheck bench result (format spatialcheck-bench/1)", hint: hint)
            }
            let (medianKey, key) = clock == .cpu
                ? ("medianCpuNanosecondsPerEntityFrame", "cpuNanosecondsPerEntityFrame")
                : ("medianNanosecondsPerEntityFrame", "nanosecondsPerEntityFrame")
            let median = ((obj["repeat"] as? [String: Any])?[medianKey] as? NSNumber)?.doubleValue
            guard let ns = median ?? (obj[key] as? NSNumber)?.doubleValue, ns.isFinite, ns > 0 else {
                throw Diagnostic(file: path, message: "the bench result has no positive \(key)",
                                 hint: clock == .cpu ? "results of older versions have no CPU time; \(hint)" : hint)
            }
            let entities = (obj["entities"] as? NSNumber)?.doubleValue ?? 0
            let frames = (obj["frames"] as? NSNumber)?.doubleValue
            return BenchBaseline(path: path, scene: obj["scene"] as? String ?? "?",
                                 entities: entities.isFinite && abs(entities) < 1e15 ? Int(entities) : 0,
                                 nanosecondsPerEntityFrame: ns,
                                 frames: frames.flatMap { $0.isFinite && $0 >= 0 && $0 < 1e15 ? Int($0) : nil },
                                 stoppedEarly: obj["stoppedAfterFrame"] is NSNumber)
        }

        /// Whether the baseline's `scene` names the scene at `given` (the path as given, or
        /// `reportPath`, relative to its project root): equal, or one ends with the other's path
        /// components (a baseline written from another folder). An older result without a scene
        /// ("?") matches any.
        public func isOf(scene given: String, reportPath: String) -> Bool {
            guard scene != "?" else { return true }
            let a = SpatialCheck.normalizedPath(scene)
            return [SpatialCheck.normalizedPath(given), reportPath].contains { b in
                a == b || a.hasSuffix("/" + b) || b.hasSuffix("/" + a)
            }
        }

        /// Why the baseline cannot gate a run of `given` over `frames` frames (s27 F7): another scene,
        /// or another `--frames` (per entity-frame costs of different scenes or lengths are not
        /// comparable: fixed costs, warm-up and what the rules find differ). nil when it can.
        public func mismatch(scene given: String, reportPath: String, frames: Int) -> Diagnostic? {
            let shown = SpatialCheck.normalizedPath(given)
            let stem = ((shown as NSString).lastPathComponent as NSString).deletingPathExtension
                .replacingOccurrences(of: ".scene", with: "")
            let rewrite = "spatialcheck bench \(shown) --frames \(frames) --repeat 5 --format json --output perf-\(stem).json"
            if !isOf(scene: given, reportPath: reportPath) {
                return Diagnostic(file: path, message: "is a bench result of \(scene), not of \(shown): a time per entity-frame of another scene gates nothing",
                                  hint: "pass this scene's own baseline, or write one with `\(rewrite)`")
            }
            if let f = self.frames, !stoppedEarly, f != frames {
                return Diagnostic(file: path, message: "is a bench result over \(f) frames, and this run asks for \(frames) (--frames): times per entity-frame over different lengths are not comparable",
                                  hint: "run with --frames \(f), as the baseline was, or write a new baseline with `\(rewrite)`")
            }
            return nil
        }

        /// A warning when the scene's entity count differs from the baseline's (the scene changed
        /// since the baseline was written): the comparison still runs.
        public func entityWarning(_ result: BenchResult) -> Diagnostic? {
            guard entities > 0, result.entities != entities else { return nil }
            return Diagnostic(.warning, file: path, message: "was written for \(entities) entities of \(scene), and the scene now has \(result.entities): the times are compared per entity-frame, but a changed scene can be faster or slower for other reasons",
                              hint: "write the baseline again in the change that edits the scene")
        }
    }

    /// The outcome of comparing a bench result with a baseline (`--max-regression`).
    public struct BenchGate: Sendable, Equatable {
        public var baseline: Double
        public var current: Double
        /// (current − baseline) / baseline in %: positive is slower.
        public var changePercent: Double
        public var maxRegressionPercent: Double
        /// The time compared (`--clock`).
        public var clock: BenchClock
        /// This run's own spread on that clock (max − min of its `--repeat` runs, in % of the
        /// median); nil with fewer than 3 runs.
        public var spreadPercent: Double?
        public var regressed: Bool { changePercent > maxRegressionPercent }
        /// The run varies more than the change allowed, so its comparison cannot tell a regression
        /// from noise (a shared CI runner: an unchanged binary read +30 % by wall clock).
        public var inconclusive: Bool { (spreadPercent ?? 0) > maxRegressionPercent }

        public init(baseline: Double, current: Double, maxRegressionPercent: Double, clock: BenchClock = .wall,
                    spreadPercent: Double? = nil) {
            self.baseline = baseline; self.current = current; self.maxRegressionPercent = maxRegressionPercent
            self.clock = clock; self.spreadPercent = spreadPercent
            changePercent = baseline > 0 ? 100 * (current - baseline) / baseline : 0
        }

        public var summary: String {
            func n(_ x: Double) -> String { String(format: "%.2f", x) }
            let change = (changePercent >= 0 ? "+" : "") + String(format: "%.1f", changePercent)
            let unit = clock == .cpu ? "ns of CPU" : "ns"
            let allowed = String(format: "%g", maxRegressionPercent)
            let verdict = "\(n(current)) \(unit) per entity-frame against the baseline's \(n(baseline)): \(change) % "
                + (regressed ? "— REGRESSION over the allowed +\(allowed) %" : "(allowed +\(allowed) %)")
            guard inconclusive, let s = spreadPercent else { return verdict }
            return verdict + "; but this run's own spread, \(String(format: "%.1f", s)) %, is larger than the +\(allowed) % allowed, "
                + "so the comparison cannot tell a change from noise: "
                + (clock == .cpu ? "use more --repeat runs, a runner with less else running, or a --max-regression above the spread"
                                 : "use --clock cpu, more --repeat runs, or a --max-regression above the spread")
        }
    }

    /// A percentage as `--max-regression` takes it: "10", "10%", "2.5 %"; nil unless finite and ≥ 0.
    public static func parsePercent(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { t.removeLast(); t = t.trimmingCharacters(in: .whitespaces) }
        guard let p = Double(t), p.isFinite, p >= 0 else { return nil }
        return p
    }

    /// Compares the median run of `result` with `baseline` (read with the same `clock`).
    public static func gate(_ result: BenchResult, baseline: BenchBaseline, maxRegressionPercent: Double,
                            clock: BenchClock = .wall) -> BenchGate {
        let spread = clock == .cpu ? result.cpuSpread : result.spread
        return BenchGate(baseline: baseline.nanosecondsPerEntityFrame, current: spread.median,
                         maxRegressionPercent: maxRegressionPercent, clock: clock,
                         spreadPercent: max(result.runs.count, result.cpuRuns.count) >= 3 ? spread.percent : nil)
    }

    /// CPU time of this process so far (user + system), in nanoseconds.
    static func processCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 else { return 0 }
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Peak resident set size of this process so far, in bytes.
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        #if canImport(Darwin)
        return Int(usage.ru_maxrss)          // bytes on Darwin
        #else
        return Int(usage.ru_maxrss) * 1024   // kilobytes on Linux
        #endif
    }

    /// `spatialcheck bench SCENE`: loads the scene, then simulates `options.frames` frames and runs
    /// the rules on each (the pipeline of `validate`, without rendering a report), timing each phase.
    public static func bench(path: String, options: BenchOptions) throws(LoadFailure) -> BenchResult {
        let start = SimulationPhaseTimes.now()
        let scene = try loadScene(path: path, options: options.load)
        let loadTime = SimulationPhaseTimes.now() &- start
        // `--frames` replaces the scene's own length, so the budget is checked on what is asked,
        // every `--repeat` run included.
        let work = WorkBudget.work(of: scene, frames: max(1, options.frames), runs: max(1, options.repeats))
        let hint = "ask for fewer frames with --frames N" + (work.runs > 1 ? " or fewer runs with --repeat N" : "")
            + ", or raise the budget with --max-work N (0 = no limit)"
        if let over = options.budget.check(work, path: path, trace: !options.rules, hint: hint) {
            throw LoadFailure([over])
        }
        var results: [BenchResult] = []
        for _ in 0..<max(1, options.repeats) { results.append(bench(scene: scene, options: options)) }
        let runs = results.map { $0.perEntityFrame($0.total) }
        // The median run (the lower middle one for an even count) is the result.
        let order = runs.indices.sorted { runs[$0] < runs[$1] }
        var result = results[order[(order.count - 1) / 2]]
        result.runs = runs
        result.cpuRuns = results.map { $0.perEntityFrame($0.cpu) }
        result.peakRSS = peakResidentBytes()
        result.loadNanoseconds = loadTime
        return result
    }

    /// Benchmarks an already loaded scene (see `bench(path:options:)`).
    public static func bench(scene original: Scene, options: BenchOptions) -> BenchResult {
        var scene = original
        let frames = max(1, options.frames)
        // Exactly `frames` frames: frame i is at t = i / rate, and the simulator runs
        // ceil(duration · rate) frames.
        scene.duration = (Double(frames) - 0.5) / scene.frameRate
        let rssAfterLoad = peakResidentBytes()
        let simulator = Simulator(scene: scene)
        var phases = SimulationPhaseTimes()
        var rulesTime: UInt64 = 0
        var aggregationTime: UInt64 = 0
        var violations = 0
        let cpuBegin = processCPUNanoseconds()
        let begin = SimulationPhaseTimes.now()
        var stop: EarlyStop?
        if options.rules {
            let engine = RuleEngine(scene: scene, configuration: options.configuration)
            // As `validate`: the violations one scene may track are bounded (memory), and so is its work
            // (time); the same scene stops after the same frame.
            engine.trackingLimit = options.budget.trackedViolations
            struct Stop: Error { var stop: EarlyStop }
            var stops = FrameStops(budget: options.budget, frames: frames)
            do {
                try simulator.run(phases: &phases) { frame in
                    let t0 = SimulationPhaseTimes.now()
                    engine.consume(frame)
                    rulesTime &+= SimulationPhaseTimes.now() &- t0
                    if let s = stops.check(engine, frame: frame.frame) { throw Stop(stop: s) }
                }
            } catch {
                stop = (error as? Stop)?.stop
            }
            let t0 = SimulationPhaseTimes.now()
            // As `validate` with its default `--max-violations`: the messages of a rule with more
            // violations than that are left unwritten (`validate` writes the at most that many it
            // lists, on demand); every violation is still closed, sorted and fingerprinted.
            // (Writing them all cost ~10 % of a 20-frame run of the walking crowded 10k scene, a
            // cost `validate` does not pay by default.)
            var count = 0
            engine.finish(deferringMessagesAbove: SpatialCheck.defaultMaxViolationsPerRule) { _ in count += 1 }
            violations = count
            aggregationTime = SimulationPhaseTimes.now() &- t0
        } else {
            simulator.run(phases: &phases) { _ in }
        }
        let total = SimulationPhaseTimes.now() &- begin
        let cpu = processCPUNanoseconds() &- cpuBegin
        var result = BenchResult(
            path: scene.path, entities: scene.entities.count, nodes: scene.nodes.count,
            animations: scene.animations.count, frames: phases.frames, frameRate: simulator.frameRate,
            loadNanoseconds: 0, animation: phases.animation, transforms: phases.transforms,
            quantities: phases.quantities, rules: rulesTime, aggregation: aggregationTime, total: total,
            violations: violations, peakRSSAfterLoad: rssAfterLoad, peakRSS: peakResidentBytes(),
            stoppedAfterFrame: stop?.afterFrame)
        result.stoppedByTrackingLimit = stop.map { $0.pairTestBudget == nil } ?? false
        result.projection = stop?.projection
        result.cpu = cpu
        return result
    }

    /// Renders a bench result: a table for people, or JSON whose structure (keys and their order)
    /// never depends on the values.
    public static func renderBench(_ r: BenchResult, format: BenchFormat, gate: BenchGate? = nil) -> String {
        let spread = r.spread, cpuSpread = r.cpuSpread
        switch format {
        case .json:
            let phases: [(String, JSON)] = r.phases.map { name, ns in
                (name, .object([("nanoseconds", .int(Int(ns))),
                                ("perEntityFrame", JSON.rounded(r.perEntityFrame(ns), digits: 6))]))
            }
            return JSON.object([
                ("format", .string("spatialcheck-bench/1")),
                ("version", .string(version)),
                ("scene", .string(r.path)),
                ("entities", .int(r.entities)),
                ("nodes", .int(r.nodes)),
                ("animations", .int(r.animations)),
                ("frames", .int(r.frames)),
                ("frameRate", JSON.rounded(r.frameRate)),
                ("loadSeconds", JSON.rounded(Double(r.loadNanoseconds) / 1e9, digits: 6)),
                ("totalSeconds", JSON.rounded(Double(r.total) / 1e9, digits: 6)),
                ("framesPerSecond", JSON.rounded(r.framesPerSecond, digits: 6)),
                ("entityFramesPerSecond", JSON.rounded(r.entityFramesPerSecond, digits: 6)),
                ("nanosecondsPerEntityFrame", JSON.rounded(r.perEntityFrame(r.total), digits: 6)),
                ("cpuSeconds", JSON.rounded(Double(r.cpu) / 1e9, digits: 6)),
                ("cpuNanosecondsPerEntityFrame", JSON.rounded(r.perEntityFrame(r.cpu), digits: 6)),
                ("phases", .object(phases)),
                ("violations", .int(r.violations)),
                ("peakRSSBytesAfterLoad", .int(r.peakRSSAfterLoad)),
                ("peakRSSBytes", .int(r.peakRSS)),
                ("stoppedAfterFrame", r.stoppedAfterFrame.map { .int($0) } ?? .null),
                ("stoppedBy", r.stoppedAfterFrame == nil ? .null : .string(r.stoppedByTrackingLimit ? "trackingLimit" : r.projection == nil ? "workBudget" : "workProjection")),
                // The whole run's projected work when the projection stopped it (`WorkProjection`), else null.
                ("projectedWork", r.projection.map { .int($0.units) } ?? .null),
                ("repeat", .object([
                    ("runs", .int(max(1, r.runs.count))),
                    ("medianNanosecondsPerEntityFrame", JSON.rounded(spread.median, digits: 6)),
                    ("minNanosecondsPerEntityFrame", JSON.rounded(spread.min, digits: 6)),
                    ("maxNanosecondsPerEntityFrame", JSON.rounded(spread.max, digits: 6)),
                    ("spreadPercent", JSON.rounded(spread.percent, digits: 3)),
                    ("medianCpuNanosecondsPerEntityFrame", JSON.rounded(cpuSpread.median, digits: 6)),
                    ("minCpuNanosecondsPerEntityFrame", JSON.rounded(cpuSpread.min, digits: 6)),
                    ("maxCpuNanosecondsPerEntityFrame", JSON.rounded(cpuSpread.max, digits: 6)),
                    ("cpuSpreadPercent", JSON.rounded(cpuSpread.percent, digits: 3)),
                ])),
            ] + (gate.map { g in [("baseline", JSON.object([
                ("clock", .string(g.clock.rawValue)),
                ("nanosecondsPerEntityFrame", JSON.rounded(g.baseline, digits: 6)),
                ("changePercent", JSON.rounded(g.changePercent, digits: 3)),
                ("maxRegressionPercent", JSON.rounded(g.maxRegressionPercent, digits: 3)),
                ("regressed", .bool(g.regressed)),
                ("spreadPercent", g.spreadPercent.map { JSON.rounded($0, digits: 3) } ?? .null),
                ("inconclusive", .bool(g.inconclusive)),
            ]))] } ?? [])).serialized()
        case .text:
            func num(_ x: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", x) }
            var out = "scene        \(Escape.text(r.path))\n"
            out += "size         \(r.entities) entities, \(r.nodes) nodes, \(r.animations) animations\n"
            out += "frames       \(r.frames) at \(num(r.frameRate, 0)) Hz (load \(num(Double(r.loadNanoseconds) / 1e6)) ms)\n"
            if let f = r.stoppedAfterFrame {
                let n = { (x: Int) in groupedThousands(Int64(x)) }
                let why = r.stoppedByTrackingLimit
                    ? "it reached the most distinct violations one scene may track (--max-tracked), as validate stops"
                    : r.projection.map { p in
                        "frames \(p.window.lowerBound)–\(p.window.upperBound) took \(n(p.rate)) work units each, so the run would take about "
                            + "\(n(p.units)), more than the work budget (--max-work), as validate stops; --max-work \(n(p.suggestedBudget)) runs it whole"
                    } ?? "the run passed the work budget (--max-work)"
                out += "stopped      after frame \(f): \(why); the figures cover frames 0–\(f)\n"
            }
            out += "throughput   \(num(r.framesPerSecond)) frames/s, \(num(r.entityFramesPerSecond / 1e6, 2)) M entity-frames/s, "
                + "\(num(r.perEntityFrame(r.total), 2)) ns per entity-frame\n"
            // CPU time beside the wall clock: on a busy machine the wall time includes the waiting.
            out += "cpu time     \(num(Double(r.cpu) / 1e9, 3)) s (user + system) for \(num(Double(r.total) / 1e9, 3)) s of wall time: "
                + "\(num(r.perEntityFrame(r.cpu), 2)) ns of CPU per entity-frame\n"
            out += "phases       ns/entity-frame   share\n"
            for (name, ns) in r.phases {
                let share = r.total > 0 ? 100 * Double(ns) / Double(r.total) : 0
                out += "  " + name.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + num(r.perEntityFrame(ns), 2).leftPadded(14) + "   " + num(share).leftPadded(5) + " %\n"
            }
            if r.runs.count > 1 {
                out += "repeat       \(r.runs.count) runs: median \(num(spread.median, 2)) ns per entity-frame, "
                    + "min \(num(spread.min, 2)), max \(num(spread.max, 2)) (spread \(num(spread.percent)) % of the median; the table is the median run)\n"
                out += "             CPU: median \(num(cpuSpread.median, 2)) ns per entity-frame, "
                    + "min \(num(cpuSpread.min, 2)), max \(num(cpuSpread.max, 2)) (spread \(num(cpuSpread.percent)) %)\n"
            }
            if let gate { out += "baseline     \(gate.summary)\n" }
            out += "violations   \(r.violations)\n"
            out += "peak memory  \(r.peakRSS / 1_048_576) MiB (after load \(r.peakRSSAfterLoad / 1_048_576) MiB)\n"
            return out
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
