import SpatialModel
import Reporting

/// How much simulation `validate` does for one scene before it refuses: checked after loading,
/// before the first frame, so a scene asking for hours of work fails in milliseconds.
///
/// - Entity-frames (entities × frames): by default 1,000,000,000, about 2–3 minutes of a
///   sparse scene at this machine's ~7 M entity-frames/s (docs/performance.md); 100,000 entities
///   fit for 10,000 frames, 10,000 entities for 100,000 frames (18.5 minutes at 90 Hz).
/// - Pair checks, bounded above by interactive pairs × frames (t(t − 1)/2 × frames for t interactive
///   entities): by default 100 × the entity-frame budget. The target rules test far fewer pairs
///   (a spatial grid), so this catches only scenes whose pairs alone are out of reach.
///
/// - Pair tests made while simulating (`RuleEngine.pairTests`: the target rules' candidate pairs,
///   win-controls-keepout's window–content pairs): at most N, like entity-frames. At about 0.1 µs
///   a test here, that bounds a scene of windows stacked on one spot (every window tests every
///   other, whatever it finds) at a few minutes; the scene stops after the frame that passes it.
///
/// `--max-work N` sets the entity-frame budget and the pair tests to N (and the pair bound to
/// 100 × N); 0 removes them all.
///
/// - Tracked violations: the distinct violations (rule and entities) one scene may hold, by
///   default 500,000 (`--max-tracked N`, 0 = no limit). Checked while simulating, since only the
///   frames tell: the scene stops after the frame in which the limit is reached, and its report says
///   so (`SceneReport.stopped`). Each tracked violation costs about 1 KB until the report is
///   written, so the default bounds that memory at about 0.5 GB; a scene of 1,000 buttons on one
///   spot (999,000 violating pairs) stops after its first frame instead of needing ~1 GB, and one of
///   5,000 buttons (25 million) instead of exhausting the machine.
public struct WorkBudget: Sendable, Equatable {
    public static let defaultEntityFrames = 1_000_000_000
    public static let defaultTrackedViolations = 500_000
    /// The pair-check bound per entity-frame of budget.
    public static let pairChecksPerEntityFrame = 100

    /// Largest entities × frames of one scene; 0 = no limit.
    public var entityFrames: Int

    /// Most distinct violations tracked per scene; 0 = no limit.
    public var trackedViolations: Int

    public init(entityFrames: Int = WorkBudget.defaultEntityFrames,
                trackedViolations: Int = WorkBudget.defaultTrackedViolations) {
        self.entityFrames = max(0, entityFrames)
        self.trackedViolations = max(0, trackedViolations)
    }

    public static let unlimited = WorkBudget(entityFrames: 0, trackedViolations: 0)

    /// Largest interactive pairs × frames; 0 = no limit.
    public var pairChecks: Double { Double(entityFrames) * Double(Self.pairChecksPerEntityFrame) }

    /// The most pairs the rules may examine while simulating one scene (`RuleEngine.pairTests`),
    /// the same number as the entity-frame budget; 0 = no limit. Only the frames tell how many a
    /// scene needs (windows stacked on one spot all test one another), so the scene stops after the
    /// frame that passes it and its report says so (`EarlyStop.pairTestBudget`).
    public var pairTests: Int { entityFrames }

    /// The work a scene asks for.
    public struct Work: Sendable, Equatable {
        public var entities: Int
        public var frames: Int
        public var interactive: Int
        public var entityFrames: Double { Double(entities) * Double(frames) }
        /// Upper bound of the target rules' pair tests: every interactive pair on every frame.
        public var pairChecks: Double {
            let t = Double(interactive)
            return t * max(0, t - 1) / 2 * Double(frames)
        }
    }

    /// The work of simulating `frames` frames of `scene` (the simulator's frame count).
    public static func work(of scene: Scene, frames: Int) -> Work {
        Work(entities: scene.entities.count, frames: frames,
             interactive: scene.entities.reduce(0) { $0 + ($1.interactive ? 1 : 0) })
    }

    /// nil when `work` fits, else the error to report for the scene at `path`; `pairs: false`
    /// checks the entity-frames only (`simulate`, which runs no rules).
    public func check(_ work: Work, path: String, pairs: Bool = true) -> Diagnostic? {
        guard entityFrames > 0 else { return nil }
        let hint = "raise the budget with --max-work N (entity-frames; 0 = no limit), or check fewer frames with a shorter --duration or a lower --frame-rate"
        if work.entityFrames > Double(entityFrames) {
            return Diagnostic(
                file: path,
                message: "the scene asks for \(Self.count(work.entityFrames)) entity-frames (\(work.entities) entities × \(work.frames) frames); "
                    + "the work budget is \(Self.count(Double(entityFrames))) (--max-work)",
                hint: hint)
        }
        if pairs, work.pairChecks > pairChecks {
            return Diagnostic(
                file: path,
                message: "the scene may need up to \(Self.count(work.pairChecks)) pair checks (\(work.interactive) interactive entities, "
                    + "\(Self.count(Double(work.interactive) * Double(max(0, work.interactive - 1)) / 2)) pairs × \(work.frames) frames); "
                    + "the budget is \(Self.count(pairChecks)) (\(Self.pairChecksPerEntityFrame) × --max-work)",
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
