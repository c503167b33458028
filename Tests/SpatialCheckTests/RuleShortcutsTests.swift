import Foundation
import Testing
@testable import Rules
import SceneLoader
@testable import Simulation
import SpatialModel

/// The rules' exact shortcuts (`RuleShortcuts`): `ConditionRule` gates that screen candidates in a
/// tight loop before the rule's check runs, set-up lists that leave out candidates that can never
/// be reported (`type-min-size` text of a fixed size in pt at or above the minimum), remembered
/// aggregate slots, and the hand keepout's distance bound. Each must give exactly the findings of
/// the plain evaluation; these tests run scenes both ways and compare every field of every
/// violation, and check the gate and the bound on hand-derived values.
@Suite struct RuleShortcutsTests {
    static func violations(_ scene: Scene, shortcuts: Bool) -> [Violation] {
        RuleShortcuts.$enabled.withValue(shortcuts) {
            let engine = RuleEngine(scene: scene)
            Simulator(scene: scene).run { engine.consume($0) }
            return engine.finish()
        }
    }

    /// Violations as text: every field, NaN included (NaN != NaN would fail `==`).
    static func text(_ vs: [Violation]) -> String { vs.map { String(describing: $0) }.joined(separator: "\n") }

    static func load(yaml: String) throws -> Scene {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.scene.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try SceneLoader.load(path: path)
    }

    /// Every scene in `Scenes/` gives the same violations with the shortcuts on and off.
    @Test func everySceneGivesTheSameViolations() throws {
        let root = TestPaths.repo("Scenes")
        let names = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".scene.yaml") || $0.hasSuffix(".scene.json") }.sorted()
        var compared = 0, withFindings = 0
        for name in names {
            guard let scene = try? SceneLoader.load(path: root + "/" + name) else { continue }
            let on = Self.violations(scene, shortcuts: true), off = Self.violations(scene, shortcuts: false)
            #expect(Self.text(on) == Self.text(off), "\(name)")
            compared += 1
            if !on.isEmpty { withFindings += 1 }
        }
        #expect(compared >= 100)
        #expect(withFindings >= 70) // 77 of the scenes have violations
    }

    /// A walking, swaying viewer; content carried by an animated group (moving fast across the view
    /// and toward the eye, so it moves only through its parent), a window that appears and hides
    /// again by events, content above and below eye level, small fixed-size and fixed-pt text,
    /// turned text and head-anchored text: the gated rules report, and report the same either way.
    @Test func movingAppearingAndCarriedContentGiveTheSameViolations() throws {
        let scene = try Self.load(yaml: """
        format: spatialscene/1
        name: Rule shortcuts
        platform: visionOS
        immersion: shared
        duration: 12
        viewer:
          posture: standing
          path:
            - {t: 0, position: [0, 1.6, 0]}
            - {t: 3, position: [0.5, 1.6, -1.2], rotation: {yaw: 30, pitch: 10}}
            - {t: 6, position: [0, 1.6, -0.4], rotation: {yaw: -20}}
          motion: sway
          hand: {position: [0, -0.30, -0.35]}
        entities:
          - id: panel
            kind: window
            placement: {distance: 1.2, azimuth: 0, elevation: -48}
            size: [600, 300]
            elements:
              - {id: title, role: text, frame: [40, 40, 520, 44], fontSize: 29, label: Title}
              - {id: tiny, role: text, frame: [40, 100, 520, 20], fontSize: 9, label: Small print}
              - {id: go, role: button, frame: [200, 200, 200, 60], label: Go}
          - id: high-sign
            kind: text
            string: Exit
            height: 0.02
            position: [0.4, 3.4, -1.5]
          - id: carrier
            kind: group
            position: [-1, 1.5, -2]
            animation:
              loop: true
              keyframes:
                - {t: 0, position: [-1, 1.5, -2]}
                - {t: 1, position: [1, 1.5, -0.5]}
                - {t: 2, position: [-1, 1.5, -2]}
            children:
              - id: rider
                kind: volume
                size: [0.3, 0.3, 0.3]
              - id: rider-label
                kind: text
                string: Ride
                fontSize: 20
                primary: true
                position: [0, 0.3, 0]
                rotation: {yaw: 70}
          - id: late-note
            kind: window
            visible: false
            position: [0.2, 1.5, -0.3]
            size: [300, 200]
            elements:
              - {id: note, role: text, frame: [20, 20, 260, 40], fontSize: 17, label: Note}
          - id: hud
            kind: text
            anchor: head
            string: Three new messages from Anna
            fontSize: 17
            position: [0, 0, -0.3]
          # Far to the side of the resting pose: fov-no-head-turn (the panel's button, 48° below,
          # is fov-vertical-comfort's since world content has one vertical band).
          - {id: side-knob, kind: volume, size: [0.1, 0.1, 0.1], position: [2, 1.6, -0.5], interactive: true}
        events:
          - {t: 1, action: show, entity: late-note}
          - {t: 11.8, action: hide, entity: late-note}
        """)
        let on = Self.violations(scene, shortcuts: true), off = Self.violations(scene, shortcuts: false)
        #expect(Self.text(on) == Self.text(off))
        let rules = Set(on.map(\.rule))
        for id in ["depth-min-reading-distance", "depth-near-brief-only", "fov-important-centered", "fov-no-head-turn",
                   "fov-vertical-comfort", "motion-peripheral", "motion-too-fast", "motion-vection", "target-hand-keepout",
                   "type-billboard", "type-min-size"] {
            #expect(rules.contains(id), "\(id)")
        }
    }

    /// The gate screens candidates before the check: with `.above(\.angularVelocity, 30)` the check
    /// runs only for the visible entity moving faster than 30°/s (hand-set quantities), and the
    /// finding is the one the check returns.
    @Test func aGateRunsTheCheckOnlyWhereItCanHold() {
        var fx = RuleFixture()
        for id in ["slow", "fast", "hidden-fast", "nan"] { fx.add(id, .volume) }
        final class Calls: @unchecked Sendable { var entities: [Int] = [] }
        let calls = Calls()
        let rule = ConditionRule(rule: 0, meta: MotionTooFast.metadata, candidates: [0, 1, 2, 3], frameDuration: 1 / 90,
                                 gate: .above(\.angularVelocity, 30), check: { f, e in
            calls.entities.append(e)
            return f.visible[e] && f.angularVelocity[e] > 30 ? .init(measured: f.angularVelocity[e], threshold: 30) : nil
        }, message: { _, _ in "" })
        var f = fx.frame(0)
        f.angularVelocity[0] = 20; f.angularVelocity[1] = 45; f.angularVelocity[2] = 50; f.angularVelocity[3] = .nan
        f.visible[2] = false
        var out = Findings(rules: [MotionTooFast.metadata], severityOverride: [nil], entityCount: 4)
        rule.consume(f, &out)
        #expect(calls.entities == [1])
        #expect(out.keys.map(\.a) == [1])
        #expect(out.aggregates.first?.measured == 45)
    }

    /// `boxCertainlyFarther` bounds the box by R, R² = Σ|a_k|² + 2Σ|a_i·a_j| (half-axes a_k): a
    /// cube of half-size 0.5 m has R = √0.75 ≈ 0.8660 m, so centred 3 m from the point it is
    /// certainly farther than 2.1 m (3 − 0.866 = 2.134), not than 2.2 m, though its nearest face
    /// is 2.5 m away (2.2929 m turned 45°, the same R). A sheared box, a0 = (0.5, 0, 0),
    /// a1 = (0.5, 0.5, 0), a2 = (0, 0, 0.1), has R² = 0.26 + 0.5 + 2 · 0.25 = 1.26 (its corner
    /// a0 + a1 + a2 = (1, 0.5, 0.1) is exactly that far), so 3 − 1.1225 = 1.8775: certain for
    /// 1.85 m, not for 1.9 m.
    @Test func theKeepoutBoundIsALowerBoundOnTheBoxDistance() {
        var fx = RuleFixture()
        fx.add("box", .volume)
        var f = fx.frame(0)
        let p = Vec3(0, 1.6, 0), c = Vec3(0, 1.6, -3)
        f.setBox(0, center: c, axes: (Vec3(0.5, 0, 0), Vec3(0, 0.5, 0), Vec3(0, 0, 0.5)))
        #expect(abs(distanceToBox(f, 0, from: p) - 2.5) < 1e-12)
        #expect(boxCertainlyFarther(f, 0, from: p, than: 2.1))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 2.2))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 2.6))
        let h = 0.5 / 2.0.squareRoot()
        f.setBox(0, center: c, axes: (Vec3(h, 0, h), Vec3(0, 0.5, 0), Vec3(-h, 0, h)))
        #expect(abs(distanceToBox(f, 0, from: p) - (3 - 2 * h)) < 1e-12)
        #expect(boxCertainlyFarther(f, 0, from: p, than: 2.1))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 2.2))
        f.setBox(0, center: c, axes: (Vec3(0.5, 0, 0), Vec3(0.5, 0.5, 0), Vec3(0, 0, 0.1)))
        #expect(boxCertainlyFarther(f, 0, from: p, than: 1.85))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 1.9))
        #expect(distanceToBox(f, 0, from: p) >= 1.85)
        // A point inside the box: never farther.
        #expect(!boxCertainlyFarther(f, 0, from: c, than: 0))
    }

    /// `StaticRule` reports the first frame of each run of visible frames as it comes and the rest
    /// of the run when it ends; the aggregates must equal frame-by-frame reporting: an entity hidden
    /// at frames 3 and 4, one hidden at frames 0 and 9 (with a NaN value and threshold, whose
    /// worst frame is the last one), a scene-level item, and a gap in the frame numbers (10, 11).
    @Test func staticItemsReportedAsWholeRunsMatchFrameByFrame() {
        var fx = RuleFixture()
        for id in ["a", "b", "c"] { fx.add(id, .volume) }
        let items: [StaticRule.Item] = [.init(entity: 0, measured: 2, threshold: 1),
                                        .init(entity: 1, measured: .nan, threshold: .nan, aux: 3),
                                        .init(entity: -1, measured: 5, threshold: 4)]
        func run(_ shortcuts: Bool) -> (text: [String], spans: [[Int]], frames: [Int]) {
            RuleShortcuts.$enabled.withValue(shortcuts) {
                let rule = StaticRule(rule: 0, items: items) { _, _ in "" }
                var out = Findings(rules: [MotionTooFast.metadata], severityOverride: [nil], entityCount: 3)
                for i in Array(0..<10) + Array(12..<16) {
                    var f = fx.frame(i)
                    f.visible[0] = !(i == 3 || i == 4)
                    f.visible[1] = !(i == 0 || i == 9)
                    rule.consume(f, &out)
                }
                rule.finish(&out, EndState(lastFrame: 15, lastTime: 15.0 / 90, staticEnd: false, frameDuration: 1.0 / 90))
                return (zip(out.keys, out.aggregates).map { "\($0) \($1)" }, out.aggregates.map(\.spans),
                        out.aggregates.map(\.frameCount))
            }
        }
        let on = run(true), off = run(false)
        #expect(on.text == off.text)
        // Visible frames by hand, in order of first finding: entity 0 in 0–2, 5–9, 12–15; the scene
        // in 0–9, 12–15; entity 1 (hidden at frame 0) in 1–8, 12–15.
        #expect(on.spans == [[0, 2, 5, 9, 12, 15], [0, 9, 12, 15], [1, 8, 12, 15]])
        #expect(on.frames == [12, 14, 12])
    }
}
