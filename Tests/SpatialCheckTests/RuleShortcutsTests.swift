import Foundation
import Testing
@testable import Rules
import SceneLoader
import Simulation
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
        #expect(withFindings >= 80)
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
            string: HUD
            fontSize: 17
            position: [0, 0, -0.3]
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

    /// `boxCertainlyFarther` on a cube of half-size 0.5 m centred 3 m from the point: its
    /// nearest point is 2.5 m away, and the bound (centre distance minus the half-axes' summed
    /// components, 1.5 m) is 1.5 m. Farther than 1.4 m: certain; than 1.6 m or 2.6 m: not.
    @Test func theKeepoutBoundIsALowerBoundOnTheBoxDistance() {
        var fx = RuleFixture()
        fx.add("cube", .volume)
        var f = fx.frame(0)
        f.setBox(0, center: Vec3(0, 1.6, -3), axes: (Vec3(0.5, 0, 0), Vec3(0, 0.5, 0), Vec3(0, 0, 0.5)))
        let p = Vec3(0, 1.6, 0)
        #expect(abs(distanceToBox(f, 0, from: p) - 2.5) < 1e-12)
        #expect(boxCertainlyFarther(f, 0, from: p, than: 1.4))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 1.6))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 2.6))
        // A turned box: the same cube rotated 45° about y reaches at most √2 · 0.5 along x and z.
        let h = 0.5 / 2.0.squareRoot()
        f.setBox(0, center: Vec3(0, 1.6, -3), axes: (Vec3(h, 0, h), Vec3(0, 0.5, 0), Vec3(-h, 0, h)))
        #expect(abs(distanceToBox(f, 0, from: p) - (3 - 2 * h)) < 1e-12)
        // Bound: 3 − (2h + 0.5 + 2h) = 3 − 0.5 − 4h ≈ 0.0858 m.
        #expect(boxCertainlyFarther(f, 0, from: p, than: 0.08))
        #expect(!boxCertainlyFarther(f, 0, from: p, than: 0.09))
    }
}
