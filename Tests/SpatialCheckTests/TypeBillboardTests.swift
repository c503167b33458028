import Foundation
import Testing
@testable import Rules
@testable import Simulation
import SpatialModel

/// `type-billboard` roll (issue 14, item 6): roll is the text's roll against the world less the
/// head's roll, so the perspective of a pitched head looking at level text is not roll.
@Suite struct TypeBillboardTests {
    /// The viewer stands (eye (0, 1.6, 0)) with the head pitched 35° down. Text 2 m away at bearing
    /// 40°, 35° below eye level, turned toward the viewer about +Y (yaw −40°: its front
    /// (−sin 40°, 0, cos 40°) points horizontally at the eye), then rolled about its front by `roll`.
    static func scene(roll: Double) -> String {
        """
        format: spatialscene/1
        duration: 0.05
        viewer:
          path:
            - {t: 0, position: [0, 1.6, 0], rotation: {yaw: 0, pitch: -35}}
        entities:
          - id: sign
            kind: text
            string: Exit
            height: 0.1
            placement: {distance: 2, azimuth: 40, elevation: -35}
            facing: none
            rotation: {yaw: -40, roll: \(roll)}
        """
    }

    /// maxRoll 15° so that a 20° roll is clearly above it.
    static let configuration = RuleConfiguration(rules: ["type-billboard": RuleSettings(parameters: ["maxRoll": 15])])

    static func rollViolations(_ text: String) throws -> [Violation] {
        let scene = try LoaderFixture.load(text)
        let engine = RuleEngine(scene: scene, configuration: configuration)
        Simulator(scene: scene).run { engine.consume($0) }
        return engine.finish().rule("type-billboard").filter { $0.message.contains("is rolled") }
    }

    @Test func levelTextUnderPitchedHeadIsNotRolled() throws {
        // The image-plane measure (text up and head up, both projected across the line of sight s)
        // read 21.8° here, with s = (cos 35° sin 40°, −sin 35°, −cos 35° cos 40°) and the head's up
        // for pitch p = −35° (forward (0, sin p, −cos p)) (0, cos p, sin p): perspective, not roll.
        let e = radians(-35.0), a = radians(40.0), p = radians(-35.0)
        let s = Vec3(cos(e) * sin(a), sin(e), -cos(e) * cos(a))
        let hu = Vec3(0, cos(p), sin(p))
        let proj = { (u: Vec3) in u - dot(u, s) * s }
        let old = degrees(acos(dot(normalize(proj(Vec3(0, 1, 0))), normalize(proj(hu)))))
        #expect(abs(old - 21.77) < 0.01)
        // The text is 32° right of and 6° below the pitched line of sight: inside the 90° × 70°
        // field of view, so the roll is judged, and reads 0: no finding.
        #expect(try Self.rollViolations(Self.scene(roll: 0)).isEmpty)
    }

    @Test func rolledTextMeasuresItsRoll() throws {
        // R = Ry(−40°)·Rz(20°): front = Ry·(0, 0, 1) is horizontal, so the world's up lies in the
        // text's plane; the text's up Ry·(−sin 20°, cos 20°, 0) makes 20° with it. The head is not
        // rolled (pitch only), so the roll is 20°.
        let vs = try Self.rollViolations(Self.scene(roll: 20))
        #expect(vs.map(\.entities) == [["sign"]])
        let v = try #require(vs.first)
        #expect(abs(v.measured - 20) < 1e-9 && v.threshold == 15 && v.severity == .info && v.unit == "deg")
        // The same sign rolled the other way reads the same.
        #expect(abs((try Self.rollViolations(Self.scene(roll: -20)).first?.measured ?? 0) - 20) < 1e-9)
    }

    @Test func headRolledWithTheTextSeesItUpright() {
        // Text facing the eye (front +Z) rolled 20° about its front, and the head rolled 20° about
        // its backward axis (+Z) the same way: both ups are (−sin 20°, cos 20°, 0): roll 0.
        let up = Vec3(-sin(radians(20)), cos(radians(20)), 0)
        #expect(abs(textRoll(up: up, front: Vec3(0, 0, 1), headUp: up, headForward: Vec3(0, 0, -1)) ?? -1) < 1e-9)
        // Head rolled 20° the other way: 40°.
        let other = Vec3(sin(radians(20)), cos(radians(20)), 0)
        #expect(abs((textRoll(up: up, front: Vec3(0, 0, 1), headUp: other, headForward: Vec3(0, 0, -1)) ?? 0) - 40) < 1e-9)
    }

    @Test func textSeenFromBehindIsSaidToReadMirrored() throws {
        // A sign 2 m straight ahead turned 180° (facing: none): its front points away from the eye,
        // 180° off; at 60° it is only turned too far.
        func sign(_ yaw: Double) -> String {
            """
            format: spatialscene/1
            duration: 0.05
            entities:
              - {id: sign, kind: text, string: Gift shop, fontSize: 40, placement: {distance: 2, azimuth: 0, elevation: 0}, facing: none, rotation: {yaw: \(yaw)}}
            """
        }
        let behind = try RuleScenes.check(sign(180)).filter { $0.rule == "type-billboard" }
        #expect(abs((behind.first?.measured ?? 0) - 180) < 1e-6)
        #expect(behind.first?.message == "text sign is seen from behind, 180° off its front, so it reads mirrored (more than 45° off); turn it toward the viewer, ideally within 30°, or make it billboard")
        let turned = try RuleScenes.check(sign(60)).filter { $0.rule == "type-billboard" }
        #expect(turned.first?.message == "text sign is read 60° off its front (more than 45°); turn it toward the viewer, ideally within 30°")
    }
}
