import Foundation
import SpatialModel
import Reporting
import Rules

/// How much work `validate` does for one scene: a budget in work units of about 1,000
/// instructions each (`WorkCost.unit`; about 0.2–0.3 µs of one core here), so that every scene
/// within it finishes in minutes whatever its shape. By default 1,000,000,000 units, about 10¹²
/// instructions: at most about 3–5 minutes of CPU on this machine for most shapes, about 7 when the
/// work is cache misses (docs/security.md, "Work budget").
///
/// - Before the first frame: every entity costs `WorkCost.entityFrame` (4 units) in every frame,
///   so a scene whose entities × frames alone are over the budget is refused in milliseconds
///   (250,000,000 entity-frames by default: 10,000 entities for 25,000 frames, 4.6 minutes of
///   scene at 90 Hz). Pairs are not bounded up front: every interactive pair in every frame is
///   a bound so far above what the grid tests that it refused ordinary scenes (1,000 still windows
///   of 10 buttons for 30 s: 1.35 × 10¹¹ "pair checks", checked in 1.5 s); the count below stops
///   the scenes whose pairs really cost (session 14 trial, docs/security.md §5.12).
/// - While simulating (`RuleEngine.work`): the entity-frames so far plus what the rules whose work
///   grows with pairs count themselves (the target pairs searched, listed, tested and reported;
///   win-controls-keepout's windows searched, grid points visited, candidates, pair tests and list
///   builds), each at what it costs. A scene that passes the budget stops after that frame and its
///   report says so (`EarlyStop.pairTestBudget` holds N): the same scene stops after the same
///   frame on any machine.
///
/// `--max-work N` sets N; 0 removes the budget. `simulate`, which writes a row per entity-frame and
/// runs no rules, takes N as the most entity-frames (rows) of its trace.
///
/// - Tracked violations: the distinct violations (rule and entities) one scene may hold, by
///   default 500,000 (`--max-tracked N`, 0 = no limit). Checked while simulating, since only the
///   frames tell: the scene stops after the frame in which the limit is reached, and its report says
///   so (`SceneReport.stopped`). Each tracked violation costs about 1 KB until the report is
///   written, so the default bounds that memory at about 0.5 GB; a scene of 1,000 buttons on one
///   spot (999,000 violating pairs) stops after its first frame instead of needing ~1 GB, and one of
///   5,000 buttons (25 million) instead of exhausting the machine.
public struct WorkBudget: Sendable, Equatable {
    public static let defaultUnits = 1_000_000_000
    public static let defaultTrackedViolations = 500_000
    /// Work units per entity-frame (`WorkCost.entityFrame` instructions).
    public static let unitsPerEntityFrame = Double(WorkCost.entityFrame) / Double(WorkCost.unit)

    /// The most work units one scene may take (for `simulate`, entity-frames); 0 = no limit.
    public var units: Int

    /// Most distinct violations tracked per scene; 0 = no limit.
    public var trackedViolations: Int

    public init(units: Int = WorkBudget.defaultUnits,
                trackedViolations: Int = WorkBudget.defaultTrackedViolations) {
        self.units = max(0, units)
        self.trackedViolations = max(0, trackedViolations)
    }

    public static let unlimited = WorkBudget(units: 0, trackedViolations: 0)

    /// The work a scene asks for.
    public struct Work: Sendable, Equatable {
        public var entities: Int
        public var frames: Int
        /// Times the frames are run (`bench --repeat`).
        public var runs = 1
        public var entityFrames: Double { Double(entities) * Double(frames) * Double(max(1, runs)) }
        /// The least work the frames take: every entity of every frame at `WorkCost.entityFrame`.
        public var units: Double { entityFrames * WorkBudget.unitsPerEntityFrame }
    }

    /// The work of simulating `frames` frames of `scene` (the simulator's frame count).
    public static func work(of scene: Scene, frames: Int, runs: Int = 1) -> Work {
        Work(entities: scene.entities.count, frames: frames, runs: runs)
    }

    /// What `check` tells `validate` and `simulate` to change (`bench` names its own options).
    public static let scenesHint = "raise the budget with --max-work N (0 = no limit), or check fewer frames with a shorter --duration or a lower --frame-rate"

    /// nil when `work` fits, else the error to report for the scene at `path`; `trace: true`
    /// checks its entity-frames against N instead (`simulate`, which writes a row per entity-frame
    /// and runs no rules).
    /// `hint` says what to change (`scenesHint` by default).
    public func check(_ work: Work, path: String, trace: Bool = false, hint: String = WorkBudget.scenesHint) -> Diagnostic? {
        guard units > 0 else { return nil }
        let shape = "\(work.entities) entities × \(work.frames) frames" + (work.runs > 1 ? " × \(work.runs) runs" : "")
        if trace {
            guard work.entityFrames > Double(units) else { return nil }
            return Diagnostic(
                file: path,
                message: "the scene asks for \(Self.count(work.entityFrames)) entity-frames (\(shape)); "
                    + "the work budget is \(Self.count(Double(units))) (--max-work)",
                hint: hint)
        }
        if work.units > Double(units) {
            return Diagnostic(
                file: path,
                message: "the scene asks for at least \(Self.count(work.units)) units of work (\(shape), "
                    + "\(Self.count(Self.unitsPerEntityFrame)) units each); the work budget is \(Self.count(Double(units))) units (--max-work)",
                hint: hint)
        }
        return nil
    }

    /// A count written with thousands separators (exact below 2^53, which every count here is).
    static func count(_ x: Double) -> String {
        guard x.isFinite, x >= 0, x < 9e15 else { return x.isFinite ? "\(x)" : "∞" }
        return groupedThousands(Int64(x.rounded()))
    }
}

/// Projects a scene's whole work from what its steady frames cost (units counted, never time, so
/// the same scene stops after the same frame on any machine), so that a scene whose work will pass
/// the budget stops after a few frames instead of near the end (trial s19 F4: 100 game tables,
/// 720 frames, stopped at frame 536 after 2 minutes of CPU).
///
/// The rule: the work is read after frames 8, 16, 32, 64, … (a count of frames done that is a
/// power of two, from `firstWindow`). From 16 frames done on, the rate is the work per frame of the
/// later half of the frames done (frames 8–15 at 16, 16–31 at 32, …; frame 0, where a still scene
/// pays nearly everything, is never in it), and the projection is the work so far plus that rate
/// times the frames left. A scene stops when the projection is more than `factor` (1.25) times the
/// budget at two checkpoints in a row: a rate held over twice as many frames, so a scene whose
/// early frames cost more than its later ones (a viewer walking away from a crowd) must have cost
/// that much for at least 24 frames, and a scene that would finish within the budget is stopped
/// only if its early frames cost more than 1.25 times what all its frames average. (The trial's
/// 100 game tables project 1.33 × the budget from frames 16–31 and took 1.34 ×.) What the projection cannot
/// see (content that becomes crowded late, an event that shows many controls) still stops when the
/// work counted passes the budget.
public struct WorkProjection: Sendable {
    /// Frames done at the first reading: the first window is frames 8–15.
    public static let firstWindow = 8
    /// How far over the budget the projection must be to stop a scene.
    public static let factor = 1.25

    public let budget: Int
    public let frames: Int
    private var previous: (done: Int, work: Int)?
    private var overOnce = false

    /// `budget`: the work budget (0 = none: never stops); `frames`: the frames the scene asks for.
    public init(budget: Int, frames: Int) { self.budget = budget; self.frames = frames }

    /// Call after every frame with the work counted so far; the projection when the scene should
    /// stop after `frame` (with the `--max-work` to suggest, `suggestedBudget`), else nil.
    public mutating func check(frame: Int, work: Int) -> EarlyStop.Projection? {
        let done = frame + 1
        guard budget > 0, done >= Self.firstWindow, done & (done - 1) == 0 else { return nil }
        defer { previous = (done, work) }
        guard let p = previous, done > p.done, frames > done else { return nil }
        let rate = Double(max(0, work - p.work)) / Double(done - p.done)
        let projected = Double(work) + rate * Double(frames - done)
        guard projected > Self.factor * Double(budget) else { overOnce = false; return nil }
        defer { overOnce = true }
        guard overOnce else { return nil }
        let units = projected < 9e18 ? Int(projected.rounded()) : Int.max
        return EarlyStop.Projection(window: p.done...(done - 1), rate: Int(rate.rounded()), units: units,
                                    suggestedBudget: Self.suggestedBudget(units))
    }

    /// The `--max-work` to suggest for a projection: a quarter above it, rounded up to two
    /// significant digits.
    public static func suggestedBudget(_ projected: Int) -> Int {
        let x = Double(projected) * 1.25
        guard x.isFinite, x < 9e18 else { return Int.max }
        let magnitude = pow(10, max(0, floor(log10(max(1, x))) - 1))
        return Int((x / magnitude).rounded(.up) * magnitude)
    }
}

/// What stops a scene after a frame, the same for `validate` and `bench` (so the same scene stops
/// after the same frame in both): the tracking limit (memory stays bounded), the work counted
/// passing the budget, or the work projected from its steady frames (`WorkProjection`; time stays
/// bounded).
struct FrameStops {
    let budget: WorkBudget
    let frames: Int
    private var projection: WorkProjection

    /// `frames`: the frames the scene asks for.
    init(budget: WorkBudget, frames: Int) {
        self.budget = budget; self.frames = frames
        projection = WorkProjection(budget: budget.units, frames: frames)
    }

    /// Call after `engine` consumed `frame`: why the scene stops after it, else nil.
    mutating func check(_ engine: RuleEngine, frame: Int) -> EarlyStop? {
        if engine.trackingLimitReached {
            return EarlyStop(afterFrame: frame, frames: frames, trackingLimit: budget.trackedViolations)
        }
        let work = engine.work, units = budget.units
        if units > 0, work > units { return EarlyStop(afterFrame: frame, frames: frames, pairTestBudget: units) }
        return projection.check(frame: frame, work: work).map {
            EarlyStop(afterFrame: frame, frames: frames, pairTestBudget: units, projection: $0)
        }
    }
}
