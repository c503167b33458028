import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Tests of the type-* rules: minimum text size, legibility across scale, billboarding and roll.
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct RuleTypeTests {
    @Test func aButtonLabelHasAMinimumTextSize() throws {
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: main
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [600, 400]
                elements:
                  - {id: ok, role: button, frame: [100, 100, 120, 60], label: OK, fontSize: 8}
                  - {id: cancel, role: button, frame: [300, 100, 120, 60], label: Cancel, fontSize: 17}
            """)
        let v = vs.filter { $0.rule == "type-min-size" }
        #expect(v.map(\.entities) == [["main/ok"]])
        #expect(v.first?.measured == 8 && v.first?.unit == "pt" && v.first?.severity == .error)
    }

    /// Text tilted back is measured foreshortened (scene-format.md, pt_eq), and its message says
    /// what it is facing the viewer. A 5 cm text 2 m ahead at eye height: facing the eye
    /// 2·atan(0.05 / 4) / 0.0671° = 21.35 pt_eq; tilted back 80°, its em's image is
    /// atan(w / D−) + atan(w / D+) with w = 0.025·cos 80°, D± = 2 ± 0.025·sin 80°: 3.707 pt_eq, an
    /// error that turning it fixes. A 1 cm text 0.6 m to the side (2.088 m away) is
    /// 2·atan(0.01 / 4.176) / 0.0671° = 4.09 pt_eq facing the viewer: tilted, it needs both.
    @Test func textSeenAtASlantSaysWhatItIsFacingTheViewer() throws {
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 0.1
            entities:
              - {id: tilted, kind: text, position: [0, 1.6, -2], rotation: {pitch: 80}, height: 0.05, string: Title}
              - {id: small, kind: text, position: [0.6, 1.6, -2], rotation: {pitch: 80}, height: 0.01, string: fine print}
              - {id: upright, kind: text, position: [-0.6, 1.6, -2], height: 0.01, string: caption}
            """).filter { $0.rule == "type-min-size" }
        let byEntity = Dictionary(uniqueKeysWithValues: vs.map { ($0.entities.first ?? "", $0) })
        let tilted = try #require(byEntity["tilted"])
        #expect(abs(tilted.measured - 3.7075) < 1e-3)
        #expect(tilted.message.contains("as seen at its worst, turned away from the viewer (facing them: 21.35 pt_eq); turn it toward the viewer (type-billboard)"))
        let small = try #require(byEntity["small"])
        #expect(small.message.contains("turned away from the viewer (facing them: 4.09 pt_eq)"))
        // Text sized in metres is also told the height that reads at 12 pt (and 17 pt) where it is:
        // 2.08806 m from the eye (√(0.6² + 2²)), a height h reads 2·atan(h / 2d), so 12 pt
        // (0.8052°) needs 2d·tan(0.4026°) = 0.02934 m and 17 pt 2d·tan(0.57035°) = 0.04157 m.
        #expect(small.message.hasSuffix("make it at least 12 pt facing the viewer (17 pt for body text): a height of at least 0.029 m (0.042 m for body text) where it is read, and turn it toward them"), "\(small.message)")
        // Upright (its em vertical, not foreshortened by the eye being 16.7° to the side): the plain message.
        let upright = try #require(byEntity["upright"])
        #expect(upright.message.hasSuffix("; make it at least 12 pt (17 pt for body text): a height of at least 0.029 m (0.042 m for body text) where it is read") && !upright.message.contains("turned"), "\(upright.message)")
    }

    @Test func eachTextIsJudgedAtItsOwnFarthestDistance() throws {
        // An 8 cm label 1 m away is judged at 3 m: 2·atan(0.08 / 6) = 1.53° = 22.8 pt_eq (fine),
        // even though a 1 m sign stands 20 m away (judged there: 2·atan(1 / 40) = 2.86° = 42.7).
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: near-label, kind: text, placement: {distance: 1, azimuth: 0, elevation: 0}, height: 0.08, string: Exhibit 12}
              - {id: far-sign, kind: text, placement: {distance: 20, azimuth: 10, elevation: 0}, height: 1.0, string: EXIT}
              - {id: tiny, kind: text, placement: {distance: 1, azimuth: -10, elevation: 0}, height: 0.03, string: small print}
            """)
        // The 3 cm print is judged at 3 m too: 2·atan(0.03 / 6) / 0.0671° = 8.54 pt_eq, below 12.
        let v = vs.filter { $0.rule == "type-legible-across-scale" }
        #expect(v.map(\.entities) == [["tiny"]])
        let expected = 2 * degrees(atan(0.03 / 6)) / RuleScenes.pointAngle
        #expect(abs((v.first?.measured ?? 0) - expected) < 1e-4)
        #expect(v.first?.message.contains("seen from 3 m") == true)
    }

    @Test func billboardIsJudgedOnlyWhileTheTextIsInView() throws {
        // Two labels turned 60° away from the eye: one ahead (in view), one behind the viewer.
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: ahead, kind: text, position: [0, 1.6, -2], rotation: {yaw: 60}, height: 0.1, string: Ahead}
              - {id: behind, kind: text, position: [0, 1.6, 2], rotation: {yaw: 120}, height: 0.1, string: Behind}
            """)
        let v = vs.filter { $0.rule == "type-billboard" }
        #expect(v.map(\.entities) == [["ahead"]])
        #expect(abs((v.first?.measured ?? 0) - 60) < 1e-6)
        #expect(v.first?.severity == .warning)
    }

    @Test func billboardAngles() {
        var fx = RuleFixture(duration: 1.0 / 90)
        fx.add("edge", .text)
        fx.add("slant", .text)
        fx.add("front", .text)
        let vs = fx.run { _, f in
            f.front[0] = Quat(yaw: 60, pitch: 0, roll: 0).act(Vec3(0, 0, 1))
            f.front[1] = Quat(yaw: 35, pitch: 0, roll: 0).act(Vec3(0, 0, 1))
        }.1.rule("type-billboard")
        #expect(vs.map(\.entities) == [["edge"], ["slant"]])
        #expect(vs.map(\.severity) == [.warning, .info])
        #expect(abs((vs.first?.measured ?? 0) - 60) < 1e-9)
    }

    @Test func fixedScaleTextFarAway() {
        var fx = RuleFixture(duration: 1.0 / 90)
        // 3.5 cm 2 m away (the fixture's distance): 2·atan(0.035 / 4) / 0.0671° = 14.9 pt_eq now
        // (no type-min-size error), 2·atan(0.035 / 6) / 0.0671° = 9.96 pt_eq seen from 3 m.
        fx.add("small", .text) { e in e.textHeight = 0.035; e.scaleMode = .fixed }
        fx.add("large", .text) { e in e.textHeight = 0.08; e.scaleMode = .fixed }
        let vs = fx.run().1.rule("type-legible-across-scale")
        #expect(vs.map(\.entities) == [["small"]])
        let expected = degrees(2 * atan(0.035 / 6)) / Units.defaultPointAngle
        #expect(abs((vs.first?.measured ?? 0) - expected) < 1e-9)
    }

    @Test func textBelowMinimumSize() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.add("caption", .element, parent: w) { e in e.container = w; e.role = .text; e.fontSize = 10; e.frame = RectPt(x: 0, y: 0, width: 100, height: 20) }
        fx.add("far", .text) { e in e.textHeight = 0.01; e.scaleMode = .fixed }
        let vs = fx.run { _, f in f.ptEq[2] = 8 }.1.rule("type-min-size")
        #expect(vs.count == 2)
        #expect(vs.first { $0.entities == ["player/caption"] }?.unit == "pt")
        #expect(vs.first { $0.entities == ["player/caption"] }?.measured == 10)
        #expect(vs.first { $0.entities == ["far"] }?.measured == 8)
        #expect(vs.first { $0.entities == ["far"] }?.severity == .error)
    }

    @Test func rollIsMeasuredAcrossTheLineOfSight() {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("rolled", .text)     // rolled 25° about its front (toward the eye): roll 25°
        fx.add("pitched", .text)    // tilted back 40°: facing angle 40°, roll 0°
        fx.add("upright", .text)
        let vs = fx.run { _, f in
            f.upAxis[0] = Vec3(-sin(radians(25)), cos(radians(25)), 0)
            f.front[1] = Vec3(0, sin(radians(40)), cos(radians(40)))
            f.upAxis[1] = Vec3(0, cos(radians(40)), -sin(radians(40)))
        }.1.rule("type-billboard")
        #expect(vs.map(\.entities) == [["pitched"], ["rolled"]])
        guard vs.count == 2 else { return }
        #expect(abs(vs[0].measured - 40) < 1e-9 && vs[0].threshold == 30)
        #expect(vs[0].message.contains("off its front"))
        #expect(abs(vs[1].measured - 25) < 1e-9 && vs[1].threshold == 20 && vs[1].severity == .info && vs[1].unit == "deg")
        #expect(vs[1].message.contains("rolled 25°"))
    }

    @Test func headRollAgainstUprightTextAndFacingTogether() {
        var fx = RuleFixture(duration: 1.0 / 90)
        fx.add("sign", .text)
        let vs = fx.run { _, f in
            f.headUp = Vec3(sin(radians(30)), cos(radians(30)), 0)  // head rolled 30°
            f.front[0] = Quat(yaw: 50, pitch: 0, roll: 0).act(Vec3(0, 0, 1))
        }.1.rule("type-billboard")
        // Seen 50° off its front (warning) and rolled 30° against the head (info): two violations.
        #expect(vs.map(\.severity) == [.warning, .info])
        #expect(vs.map(\.entities) == [["sign"], ["sign"]])
        #expect(abs((vs.first?.measured ?? 0) - 50) < 1e-9)
        #expect(abs((vs.last?.measured ?? 0) - 30) < 1e-9)
    }

    @Test func rollDefinitionEdgeCases() {
        // Perspective is not roll: head pitched 30° down, world-upright text (front +Z, up +Y) 20°
        // to the right of the line of sight reads 0 (the old image-plane measure read
        // atan(tan 30° · sin 20°) = 11.17°).
        let p = radians(30)
        let headForward = Vec3(0, -sin(p), -cos(p)), headUp = Vec3(0, cos(p), -sin(p))
        let r = textRoll(up: Vec3(0, 1, 0), front: Quat(yaw: -20, pitch: 0, roll: 0).act(Vec3(0, 0, 1)),
                         headUp: headUp, headForward: headForward)
        #expect(abs(r ?? -1) < 1e-9)
        // Upside down: 180°. Text lying flat (front vertical): not judged. Zero front: not judged.
        let level = (up: Vec3(0, 1, 0), forward: Vec3(0, 0, -1))
        #expect(abs((textRoll(up: Vec3(0, -1, 0), front: Vec3(0, 0, 1), headUp: level.up, headForward: level.forward) ?? 0) - 180) < 1e-9)
        #expect(textRoll(up: Vec3(0, 0, -1), front: Vec3(0, 1, 0), headUp: level.up, headForward: level.forward) == nil)
        #expect(textRoll(up: Vec3(0, 1, 0), front: .zero, headUp: level.up, headForward: level.forward) == nil)
    }

    @Test func rolledCaption() {
        // Straight ahead at 3 m, facing the eye, rolled 30° about its front: roll 30°, facing 0°.
        let v = RuleScenes.exampleViolations("type-billboard").filter { $0.entities == ["caption"] }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 30) < 1e-6)
        #expect(v.first?.severity == .info && v.first?.threshold == 20)
    }

    /// One problem, one finding (session 18's trial, visionos-fixed-card-far): a fixed-scale card
    /// (1 pt = 1 mm·2·tan(0.0671°/2)·1000 at 1 m, so 14 pt spans 14 pt_eq at 1 m) with 14 pt text.
    /// 5 m away the text is 14/5 = 2.8 pt_eq where it is: type-min-size's error, and not also
    /// type-legible-across-scale's warning for the same frames. 1 m away it is 14 pt_eq now (no
    /// error) but 14/3 = 4.67 pt_eq seen from 3 m: the warning alone.
    @Test func textAlreadyTooSmallIsTypeMinSizesAlone() throws {
        func card(at d: Double) throws -> [ReportViolation] {
            try RuleScenes.check("""
                format: spatialscene/1
                duration: 1
                entities:
                  - id: card
                    kind: window
                    scaleMode: fixed
                    placement: {distance: \(d), azimuth: 0, elevation: 0}
                    size: [300, 120]
                    elements:
                      - {id: title, role: text, frame: [10, 45, 280, 30], fontSize: 14, label: Gate B12}
                """).filter { $0.rule == "type-min-size" || $0.rule == "type-legible-across-scale" }
        }
        let far = try card(at: 5)
        #expect(far.map(\.rule) == ["type-min-size"])
        #expect(abs((far.first?.measured ?? 0) - 2.8) < 0.01)
        let near = try card(at: 1)
        #expect(near.map(\.rule) == ["type-legible-across-scale"])
        #expect(abs((near.first?.measured ?? 0) - 14.0 / 3) < 0.01)
        #expect(near.first?.spans == [0...89])
    }
}
