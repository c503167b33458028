import Foundation
import Testing
@testable import Rules
import Simulation
import SpatialModel

/// `TargetPairAnalyzer.spacingShortcut`: spacing findings of tilted images decided from the
/// outline's verdict alone (their edge gap computed at the end, for the worst frame) and, when the
/// cosine shows the centres no closer than the recorded worst, without the separation. The
/// violations must be the ones of computing everything in every frame.
@Suite struct TargetSpacingShortcutTests {
    static func run(_ scene: Scene, shortcut: Bool, incremental: Bool = true) -> (violations: String, deferred: Int, skipped: Int) {
        let engine = RuleEngine(scene: scene)
        engine.incrementalPairs = incremental
        engine.processor(TargetPairAnalyzer.self)?.spacingShortcut = shortcut
        Simulator(scene: scene).run { engine.consume($0) }
        let vs = engine.finish()
        let p = engine.processor(TargetPairAnalyzer.self)
        return (vs.map { String(describing: $0) }.joined(separator: "\n"), p?.gapsDeferred ?? -1, p?.separationsSkipped ?? -1)
    }

    /// The walking crowded scene (every frame from the candidate list) and the same scene searched
    /// in every frame (no list: no remembered aggregates, so no separation skipped).
    @Test func aWalkingCrowdedSceneGivesTheSameViolations() throws {
        let scene = try TargetPairIncrementalTests.load(yaml: TargetPairIncrementalTests.crowded())
        let on = Self.run(scene, shortcut: true), off = Self.run(scene, shortcut: false)
        #expect(on.violations == off.violations)
        #expect(on.violations.contains("target-center-spacing"))
        #expect(on.deferred > 1_000 && on.skipped > 100)
        #expect(off.deferred == 0 && off.skipped == 0)
        let searched = Self.run(scene, shortcut: true, incremental: false)
        #expect(searched.violations == off.violations)
        #expect(searched.deferred > 1_000)
    }

    /// The scene with a still viewer and with a walker who stops (frames reused, findings kept
    /// with their separation) and content that hides and shows.
    @Test(arguments: [true, false])
    func theIncrementalScenesGiveTheSameViolations(still: Bool) throws {
        let scene = try TargetPairIncrementalTests.load(yaml: TargetPairIncrementalTests.generated(still: still))
        let on = Self.run(scene, shortcut: true), off = Self.run(scene, shortcut: false)
        #expect(on.violations == off.violations)
        #expect(on.violations.contains("target-center-spacing"))
    }
}
