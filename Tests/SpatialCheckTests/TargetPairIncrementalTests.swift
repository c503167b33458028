import Foundation
import Testing
@testable import Rules
import SceneLoader
import Simulation
import SpatialModel

/// The pairwise target rules repeat the findings of pairs whose inputs did not change since the
/// previous frame (`TargetPairAnalyzer.incremental`). These tests run scenes both ways and require
/// identical violations, and check that the reuse really happens where nothing moved.
@Suite struct TargetPairIncrementalTests {
    struct Run { var violations: String; var reused: Int; var partly: Int; var listed: Int; var listBuilds: Int; var frames: Int; var asleep: Int }

    /// `sleep`: `TargetPairAnalyzer.pairSleep`; `asleep` counts the listed pair-frames it skipped.
    static func run(_ scene: Scene, incremental: Bool, sleep: Bool = true, configuration: RuleConfiguration = .default,
                    listLimit: Int? = nil) -> Run {
        let engine = RuleEngine(scene: scene, configuration: configuration)
        engine.incrementalPairs = incremental
        let analyzer = engine.processor(TargetPairAnalyzer.self)
        analyzer?.pairSleep = sleep
        if let listLimit { analyzer?.listLimit = listLimit }
        var frames = 0
        Simulator(scene: scene).run { engine.consume($0); frames += 1 }
        let vs = engine.finish()
        let r = engine.pairFramesReused
        // Violations as text: every field, NaN included (NaN != NaN would fail `==`).
        return Run(violations: vs.map { String(describing: $0) }.joined(separator: "\n"), reused: r.all, partly: r.partly,
                   listed: r.listed, listBuilds: r.listBuilds, frames: frames, asleep: analyzer?.pairsAsleep ?? -1)
    }

    static func load(yaml: String) throws -> Scene {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("incremental-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.scene.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try SceneLoader.load(path: path)
    }

    static func sceneFiles() -> [String] {
        let root = TestPaths.repo("Scenes")
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".scene.yaml") || $0.hasSuffix(".scene.json") }.sorted()
    }

    /// The scenes of `Scenes/` that load, with their file names (relative to `Scenes/`).
    static func loadedScenes() -> [(name: String, scene: Scene)] {
        sceneFiles().compactMap { name in (try? SceneLoader.load(path: TestPaths.repo("Scenes/" + name))).map { (name, $0) } }
    }

    /// Every scene in `Scenes/`: the same violations with reuse (and the candidate list) on and
    /// off. Where no frame was reused or tested from the list the incremental run is the full
    /// evaluation by construction, so only the others are run twice; the reuse must have happened
    /// in the scenes with a still viewer and targets of several containers, the list in the scenes
    /// whose viewer or targets move.
    @Test func everySceneGivesTheSameViolations() throws {
        var compared: [String] = []
        let scenes = Self.loadedScenes()
        for (name, scene) in scenes {
            let on = Self.run(scene, incremental: true)
            guard on.reused + on.partly + on.listed > 0 else { continue }
            let off = Self.run(scene, incremental: false)
            #expect(on.violations == off.violations, "\(name)")
            #expect(off.reused + off.partly + off.listed == 0)
            compared.append(name)
        }
        #expect(scenes.count >= 100)
        // Still viewers with targets in several containers (a field guide and a walking fox; a
        // HUD and the immersive walk's panels; windows of a posture or clutter example).
        for name in ["fox-walks-past-ui.scene.yaml", "fox-walks-clear-of-ui.scene.yaml", "immersive-walk-boundary.scene.yaml",
                     "rules/fov-window-clutter/fail.scene.yaml"] {
            #expect(compared.contains(name), "\(name)")
        }
    }

    /// The fox scene's viewer stands still for 12 s (1,080 frames) while the fox walks for 11 s and
    /// then stands: from frame 1 to frame 990 (t = 11 s) the fox changes and only its pairs are
    /// retested; after that nothing changes and every finding is repeated.
    @Test func theFoxScenePartlyThenFullyReused() throws {
        let scene = try SceneLoader.load(path: TestPaths.repo("Scenes/fox-walks-past-ui.scene.yaml"))
        let on = Self.run(scene, incremental: true)
        #expect(on.frames == 1080)
        #expect(on.partly == 990)
        #expect(on.reused == 89)
    }

    /// Windows of buttons close to each other in angle (pairs across containers), an interactive
    /// volume crossing them, windows hidden and shown by events, and a viewer who walks, stops,
    /// turns on the spot and walks again: frames with everything reused, with some entities
    /// changed, and with a moving eye, in one scene.
    static func generated(still: Bool) -> String {
        var y = """
        format: spatialscene/1
        name: Incremental pair evaluation
        platform: visionOS
        immersion: mixed
        duration: 3
        viewer:
          posture: standing

        """
        if !still {
            y += """
              path:
                - {t: 0, position: [0, 1.6, 0]}
                - {t: 0.5, position: [0.1, 1.6, -0.1]}
                - {t: 1.2, position: [0.1, 1.6, -0.1], rotation: {yaw: 0}}
                - {t: 1.6, position: [0.1, 1.6, -0.1], rotation: {yaw: 20}}
                - {t: 2.2, position: [-0.2, 1.6, 0], rotation: {yaw: 20}}

            """
        }
        y += "entities:\n"
        for w in 0..<6 {
            let az = Double(w % 3) * 6 - 6, el = Double(w / 3) * 5 - 2.5
            y += "  - {id: w\(w), kind: window, placement: {distance: \(1.5 + 0.02 * Double(w)), azimuth: \(az), elevation: \(el)}, size: [260, 160], elements: [\n"
            for b in 0..<4 {
                let size = [44, 60, 64, 52][(b + w) % 4]
                y += "      {id: b\(b), role: button, frame: [\(10 + 62 * b), 50, \(size), \(size)]}\(b < 3 ? "," : "")\n"
            }
            y += "    ]}\n"
        }
        y += """
          - id: orb
            kind: volume
            size: [0.08, 0.08, 0.08]
            interactive: true
            position: [-0.5, 1.6, -1.45]
            animation:
              keyframes:
                - {t: 0.3, position: [-0.5, 1.6, -1.45]}
                - {t: 1.0, position: [0.5, 1.5, -1.45]}
                - {t: 1.8, position: [0.5, 1.5, -1.45]}
                - {t: 2.4, position: [-0.3, 1.7, -1.5]}
        events:
          - {t: 0.6, action: hide, entity: w1}
          - {t: 0.9, action: show, entity: w1}
          - {t: 1.3, action: hide, entity: w4}
          - {t: 2.5, action: show, entity: w4}

        """
        return y
    }

    /// Streaks of unchanged frames are added to the runs of their findings only when a frame with
    /// a change ends them (the orb starting, an event) or the scene ends: a streak left out, or
    /// added one frame off, changes the spans and frame counts compared here.
    @Test(arguments: [true, false])
    func generatedScenesGiveTheSameViolations(still: Bool) throws {
        let scene = try Self.load(yaml: Self.generated(still: still))
        let on = Self.run(scene, incremental: true)
        let off = Self.run(scene, incremental: false)
        #expect(on.frames == 270)
        #expect(on.violations == off.violations)
        #expect(on.violations.contains("target-center-spacing"))
        #expect(on.violations.contains("w0/b0") && on.violations.contains("orb"))
        // Frames of reuse: the still viewer's whole run, the walker's stops.
        #expect(on.reused > 0 && on.partly > 0)
        #expect(on.reused + on.partly < on.frames)
        // Frames with a moving eye or a moving orb are tested from the candidate list, which is
        // rebuilt only now and then.
        #expect(on.listed > 0)
        #expect(on.listBuilds > 0 && on.listBuilds < on.listed)
        if still {
            // Only the orb moves the list's images: the frames before it starts and after it stops
            // are reused without a list (the first frame builds it, the orb rebuilds it).
            #expect(on.listed == on.partly + 1)
        }
    }

    /// A crowded scene of windows of buttons overlapping in angle (every button has neighbours of
    /// other windows within the spacing), seen by a viewer who walks with the `sway` preset: the
    /// eye moves in every frame, so every frame is tested from the candidate list, which is rebuilt
    /// only when some image has moved by the skin since it was built.
    static func crowded() -> String {
        var y = """
        format: spatialscene/1
        name: Crowded windows, walking viewer
        platform: visionOS
        immersion: mixed
        duration: 2
        viewer:
          posture: standing
          motion: sway
          path:
            - {t: 0, position: [0, 1.6, 0], rotation: {yaw: 0}}
            - {t: 1, position: [0.3, 1.6, -0.2], rotation: {yaw: -15, pitch: -5}}
            - {t: 2, position: [0, 1.6, 0.2], rotation: {yaw: 10, pitch: 5}}
        entities:

        """
        // 40 windows in a band 60 degrees wide and 24 high, at 1.5 to 4 m.
        y += scatteredWindows(40, seed: 12_345, azimuth: (60, -30), elevation: (24, -12), distance: (2.5, 1.5),
                              buttons: 8, perRow: 4, sizes: [44, 60, 64])
        return y
    }

    /// `count` windows of 420 × 260 pt at a fixed pseudo-random layout (a linear congruential
    /// generator from `seed`): azimuth, elevation and distance each `u · span + offset` for a
    /// uniform u in [0, 1). Window w has `buttons` buttons in rows of `perRow`, 100 pt apart,
    /// sized `sizes[(b + w) % 3]`. YAML entity lines.
    static func scatteredWindows(_ count: Int, seed: UInt64, azimuth: (span: Double, offset: Double),
                                 elevation: (span: Double, offset: Double), distance: (span: Double, offset: Double),
                                 buttons: Int, perRow: Int, sizes: [Int]) -> String {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var y = ""
        for w in 0..<count {
            let az = next() * azimuth.span + azimuth.offset, el = next() * elevation.span + elevation.offset
            let d = next() * distance.span + distance.offset
            y += "  - {id: w\(w), kind: window, placement: {distance: \(d), azimuth: \(az), elevation: \(el)}, size: [420, 260], elements: [\n"
            for b in 0..<buttons {
                let size = sizes[(b + w) % sizes.count]
                y += "      {id: b\(b), role: button, frame: [\(20 + 100 * (b % perRow)), \(40 + 100 * (b / perRow)), \(size), \(size)]}\(b < buttons - 1 ? "," : "")\n"
            }
            y += "    ]}\n"
        }
        return y
    }

    @Test func aCrowdedSceneWithAWalkingViewerGivesTheSameViolations() throws {
        let scene = try Self.load(yaml: Self.crowded())
        let on = Self.run(scene, incremental: true)
        let off = Self.run(scene, incremental: false)
        #expect(on.frames == 180)
        #expect(on.violations == off.violations)
        // Pairs across windows, compared in angle, in all three rules.
        for rule in ["target-center-spacing", "target-no-overlap", "target-large-hover-padding"] {
            #expect(on.violations.contains(rule), "\(rule)")
        }
        #expect(on.reused == 0 && on.partly == 0)
        #expect(on.listed == 180)
        #expect(on.listBuilds >= 2 && on.listBuilds * 3 < on.listed)
    }

    /// Some pairs slept, and the violations, which include `rule`, are the same as with sleep off
    /// and as without the candidate list.
    static func expectTheSameAsleep(_ scene: Scene, reporting rule: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let asleep = run(scene, incremental: true), awake = run(scene, incremental: true, sleep: false)
        #expect(asleep.violations == awake.violations, sourceLocation: sourceLocation)
        #expect(asleep.violations == run(scene, incremental: false).violations, sourceLocation: sourceLocation)
        #expect(asleep.violations.contains(rule), sourceLocation: sourceLocation)
        #expect(asleep.asleep > 0 && awake.asleep == 0, sourceLocation: sourceLocation)
    }

    /// Listed pairs that no rule can hold sleep until their entities' odometers (turns, radius
    /// growth, distance and size changes since) have used up the margin
    /// (`TargetPairAnalyzer.pairSleep`): the same
    /// violations as looking at every listed pair in every frame and as evaluating every pair
    /// without the list, on the walking crowded scene (eye moving in every frame, windows of
    /// several distances) and on the generated one (a window hidden and shown, an orb moving
    /// across the others, a walk with stops).
    @Test func pairsAsleepGiveTheSameViolations() throws {
        for yaml in [Self.crowded(), Self.generated(still: false)] {
            Self.expectTheSameAsleep(try Self.load(yaml: yaml), reporting: "target-center-spacing")
        }
    }

    /// A pair asleep because its distances are more than `depthWindow` apart (and its centres
    /// more than 60 pt_eq): volume B, 5 cm wide, comes from 2.5 to 2.05 m along its own line of
    /// sight, 4.8° (71.5 pt_eq) beside volume A, 30 cm wide at 2 m. Its direction does not turn,
    /// its cone grows by 0.2° and its pt_eq by 3.8 pt while the depth difference falls from 0.5 to
    /// 0.05 m: the pair must wake on its distance (odometers of turns and sizes alone would sleep
    /// through, 0.6 against a margin of 0.8) and report the overlap within 0.1 m of depth that
    /// evaluating every pair reports (half-widths 4.3° + 0.7° > 4.8°).
    @Test func aPairAsleepOnItsDepthsWakesWhenTheyMeet() throws {
        let scene = try Self.load(yaml: """
            format: spatialscene/1
            name: Approaching volume
            platform: visionOS
            immersion: mixed
            duration: 1.5
            viewer:
              posture: standing
            entities:
              - {id: A, kind: volume, size: [0.3, 0.3, 0.3], interactive: true, position: [-0.083750, 1.6, -1.998246]}
              - id: B
                kind: volume
                size: [0.05, 0.05, 0.05]
                interactive: true
                position: [0.104688, 1.6, -2.497807]
                animation:
                  keyframes:
                    - {t: 0.2, position: [0.104688, 1.6, -2.497807]}
                    - {t: 1.2, position: [0.085844, 1.6, -2.048202]}
            """)
        Self.expectTheSameAsleep(scene, reporting: "target-no-overlap")
    }

    /// Where the list would not pay, every frame searches, with the same violations: a negative
    /// `maxOverlap` (pairs at any distance could report), and a list longer than its limit (set
    /// low here; by default a million pairs or 64 per target, reached only with very wide
    /// thresholds).
    @Test func withoutTheListEveryFrameSearches() throws {
        let scene = try Self.load(yaml: Self.crowded())
        let off = Self.run(scene, incremental: false)
        let config = RuleConfiguration(rules: ["target-no-overlap": RuleSettings(parameters: ["maxOverlap": -1])])
        let negative = Self.run(scene, incremental: true, configuration: config)
        #expect(negative.violations == Self.run(scene, incremental: false, configuration: config).violations)
        #expect(negative.listed == 0 && negative.listBuilds == 0)
        let capped = Self.run(scene, incremental: true, listLimit: 100)
        #expect(capped.violations == off.violations)
        // One build found more than 100 pairs and turned the list off.
        #expect(capped.listed == 0 && capped.listBuilds == 1)
    }
}
