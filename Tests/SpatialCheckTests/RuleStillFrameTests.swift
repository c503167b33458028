import Foundation
import Testing
@testable import Rules
import SceneLoader
@testable import Simulation
import SpatialModel

/// Rules whose checks read only a frame's values (`ConditionRule.Reads.quantities`) repeat the
/// previous frame's findings in a frame the simulator marks `unchangedSincePrevious`, and follow
/// their dwell runs only for the candidates whose run is open (`RuleShortcuts.stillFrames`).
/// These tests run scenes with that on and off and require identical violations, and check a
/// dwell crossed during a still streak against hand-derived frames.
@Suite struct RuleStillFrameTests {
    struct Run { var violations: [Violation]; var text: String; var frames: Int; var unchanged: Int }

    static func run(_ scene: Scene, stillFrames: Bool) -> Run {
        let engine = RuleShortcuts.$stillFrames.withValue(stillFrames) { RuleEngine(scene: scene) }
        var frames = 0, unchanged = 0
        Simulator(scene: scene).run { f in
            engine.consume(f)
            frames += 1
            if f.unchangedSincePrevious { unchanged += 1 }
        }
        let vs = engine.finish()
        // Violations as text: every field, NaN included (NaN != NaN would fail `==`).
        return Run(violations: vs, text: vs.map { String(describing: $0) }.joined(separator: "\n"), frames: frames, unchanged: unchanged)
    }

    /// Every scene in `Scenes/`: the same violations with the repeats on and off. A scene without
    /// an unchanged frame is evaluated the same way either way, so only the others are run twice;
    /// the still examples must be among them.
    @Test func everySceneGivesTheSameViolations() throws {
        var compared: [String] = []
        let scenes = TargetPairIncrementalTests.loadedScenes()
        for (name, scene) in scenes {
            let on = Self.run(scene, stillFrames: true)
            guard on.unchanged > 0 else { continue }
            let off = Self.run(scene, stillFrames: false)
            #expect(on.text == off.text, "\(name)")
            compared.append(name)
        }
        #expect(scenes.count >= 100)
        #expect(compared.count >= 50)
        for name in ["rules/depth-min-reading-distance/fail.scene.yaml", "rules/fov-important-centered/fail.scene.yaml",
                     "rules/fov-window-clutter/fail.scene.yaml"] {
            #expect(compared.contains(name), "\(name)")
        }
    }

    /// A still viewer among windows of buttons (target pairs, hit regions, vertical comfort,
    /// clutter), primary content out of view (a dwell measured as the run's length), text too
    /// close (two dwell rules) and windows hidden and shown by events, which end the streaks.
    static func generated(windows: Int, events: Bool) -> String {
        var y = """
        format: spatialscene/1
        name: Still viewer, rules repeated
        platform: visionOS
        duration: 4
        frameRate: 30
        entities:
          - {id: note, kind: text, placement: {distance: 0.4, azimuth: 10, elevation: -5}, fontSize: 12, string: Close}
          - {id: side, kind: window, primary: true, placement: {distance: 2, azimuth: 100, elevation: 0}, size: [400, 300]}

        """
        y += TargetPairIncrementalTests.scatteredWindows(windows, seed: 777, azimuth: (200, -100), elevation: (70, -35),
                                                         distance: (3, 0.8), buttons: 6, perRow: 3, sizes: [30, 44, 60])
        if events {
            y += "events:\n"
            for (t, action, id) in [(1.1, "hide", "w1"), (1.5, "show", "w1"), (2.2, "hide", "note"), (3.3, "show", "note")] {
                y += "  - {t: \(t), action: \(action), entity: \(id)}\n"
            }
        }
        return y
    }

    @Test(arguments: [(12, false), (12, true), (60, true)])
    func generatedScenesGiveTheSameViolations(windows: Int, events: Bool) throws {
        let scene = try TargetPairIncrementalTests.load(yaml: Self.generated(windows: windows, events: events))
        let on = Self.run(scene, stillFrames: true)
        let off = Self.run(scene, stillFrames: false)
        #expect(on.frames == 120)
        // Frames 0 and 1 are not unchanged (no earlier pose), nor the 4 frames where an event applies.
        #expect(on.unchanged == (events ? 114 : 118))
        #expect(on.text == off.text)
        for rule in ["target-hit-region-visionos", "fov-important-centered", "depth-near-brief-only", "fov-vertical-comfort"] {
            #expect(on.text.contains(rule), "\(rule)")
        }
    }

    /// depth-near-brief-only: text 0.4 m from the eye (closer than 0.5 m) for more than 10 s, at 10
    /// frames per second, with nothing moving. A run from frame 0 has lasted i/10 + 0.1 s after
    /// frame i (a frame stands for its interval), more than 10 s first at frame 100 (10.1 s; frame
    /// 99 gives 10.0 s, not more). Hidden at t = 10.05 (applied at frame 101, t = 10.1) the run is
    /// frames 0…100 and crossed the dwell at its last frame, inside the still streak of frames
    /// 2…100; hidden at t = 9.95 (frame 100) it is frames 0…99 and never crossed. A hide event after
    /// the last frame keeps the scene from ending at rest (a run open at a resting end counts
    /// whole). The crossing frame is found although the frames around it are repeated.
    @Test(arguments: [(10.05, 100), (9.95, -1), (11.55, 115)])
    func aDwellCrossedDuringAStillStreak(hideAt: Double, lastFrame: Int) throws {
        let yaml = """
        format: spatialscene/1
        name: Dwell crossed while still
        duration: 12
        frameRate: 10
        entities:
          - {id: note, kind: text, placement: {distance: 0.4, azimuth: 0, elevation: 0}, fontSize: 24, string: Close}
          - {id: later, kind: volume, position: [5, 0, -5], size: [0.1, 0.1, 0.1]}
        events:
          - {t: \(hideAt), action: hide, entity: note}
          - {t: 20, action: hide, entity: later}

        """
        let scene = try TargetPairIncrementalTests.load(yaml: yaml)
        let on = Self.run(scene, stillFrames: true)
        let off = Self.run(scene, stillFrames: false)
        #expect(on.frames == 120)
        // Frames 0, 1 (no earlier pose) and the hide event's frame are not unchanged.
        #expect(on.unchanged == 117)
        #expect(on.text == off.text)
        let near = on.violations.filter { $0.rule == "depth-near-brief-only" }
        if lastFrame < 0 {
            #expect(near.isEmpty)
        } else {
            #expect(near.count == 1)
            #expect(near.first?.spans == [[0, lastFrame]])
            #expect(near.first?.frameCount == lastFrame + 1)
            #expect(near.first?.entities == ["note"])
            #expect(abs((near.first?.lastTime ?? 0) - Double(lastFrame) / 10) < 1e-12)
        }
    }

    /// Reading a still scene: a text 0.6 m away that is never hidden, in a scene that ends at rest
    /// (depth-min-reading-distance's own example): all its 1,080 frames but the first two are
    /// unchanged, and the run open at the end is reported whole.
    @Test func aStillSceneEndsWithItsRunWhole() throws {
        let scene = try SceneLoader.load(path: TestPaths.repo("Scenes/rules/depth-min-reading-distance/fail.scene.yaml"))
        let on = Self.run(scene, stillFrames: true)
        #expect(on.frames == 1080 && on.unchanged == 1078)
        let v = on.violations.first { $0.rule == "depth-min-reading-distance" }
        #expect(v?.spans == [[0, 1079]])
        #expect(v?.frameCount == 1080)
    }
}
