import Foundation
import Testing
@testable import SpatialCheck
@testable import Rules
@testable import Simulation
import SpatialModel

/// Every rule honours visibility the same way (issue 14, item 2): content that is hidden is not
/// judged, and a violation's frames are frames where its content was shown.
@Suite struct VisibilityAcrossRulesTests {
    /// Rules whose offence is not content but the scene itself (its immersion style and events,
    /// the viewer's walk, its frame rate): hiding every entity does not change what they judge.
    static let sceneLevel: Set<String> = [
        "immersion-launch-style", "immersion-user-initiated", "boundary-head-exit", "boundary-fade-zone",
        "boundary-style-vs-locomotion", "ar-frame-rate",
        // How the device is held (its pitch), whatever is shown.
        "ar-comfort-distance",
        "immersion-exit-affordance", "immersion-transition-smooth",
    ]

    /// Each rule's failing example played one second later (its viewer path, animations and events
    /// delayed by 1 s, one more second to run) with every top-level entity (and so everything below
    /// it) hidden until a `show` event at t = 1 s; every registered rule runs on it.
    @Test(arguments: RuleCatalog.rules.map(\.id))
    func hiddenContentIsNotJudgedByAnyRule(_ id: String) throws {
        let meta = try #require(RuleCatalog.metadata(id: id))
        var scene = try SpatialCheck.loadScene(path: TestPaths.repo(meta.failExample))
        for k in scene.viewer.path.indices { scene.viewer.path[k].time += 1 }
        for k in scene.events.indices { scene.events[k].time += 1 }
        for a in scene.animations.indices {
            // Clip time is t · speed: a delay of 1 s is `speed` in clip time.
            let shift = scene.animations[a].speed
            scene.animations[a].duration += shift
            for c in scene.animations[a].channels.indices {
                for k in scene.animations[a].channels[c].positions.indices { scene.animations[a].channels[c].positions[k].time += shift }
                for k in scene.animations[a].channels[c].rotations.indices { scene.animations[a].channels[c].rotations[k].time += shift }
                for k in scene.animations[a].channels[c].scales.indices { scene.animations[a].channels[c].scales[k].time += shift }
            }
        }
        for e in scene.entities.indices where scene.entities[e].parent == nil && scene.entities[e].visible {
            scene.entities[e].visible = false
            scene.events.append(SceneEvent(time: 1, action: .show(entity: e), location: nil))
        }
        scene.duration += 1
        let simulator = Simulator(scene: scene)
        // The first frame at or after t = 1 s, where the show events take effect.
        let shown = Int((1 * simulator.frameRate - 1e-9).rounded(.up))
        let engine = RuleEngine(scene: scene)
        simulator.run { engine.consume($0) }
        let vs = engine.finish()
        for v in vs where !Self.sceneLevel.contains(v.rule) {
            let first = v.spans.first?.first ?? -1
            #expect(first >= shown, "\(meta.failExample): \(v.rule) \(v.entities) reports frame \(first), before the content is shown at frame \(shown)")
        }
        // The example still offends its rule once its content is shown.
        #expect(vs.contains { $0.rule == id }, "\(meta.failExample) no longer violates \(id) once shown at t = 1 s; got \(Set(vs.map(\.rule)).sorted())")
    }
}
