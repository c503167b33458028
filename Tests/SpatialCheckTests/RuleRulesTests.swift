import Testing
@testable import Simulation
@testable import Rules
import SpatialModel

@Suite struct RuleRulesTests {
    @Test func hitRegionLevels() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("tiny", in: w, frame: RectPt(x: 0, y: 0, width: 20, height: 20))
        fx.button("custom", in: w, frame: RectPt(x: 300, y: 0, width: 50, height: 50), role: .custom)
        fx.button("regular", in: w, frame: RectPt(x: 600, y: 0, width: 44, height: 44))
        let vs = fx.run().1.rule("target-hit-region-visionos")
        #expect(vs.count == 2)
        #expect(vs.first { $0.entities == ["player/tiny"] }?.severity == .error)
        #expect(vs.first { $0.entities == ["player/tiny"] }?.threshold == 28)
        #expect(vs.first { $0.entities == ["player/custom"] }?.severity == .warning)
        #expect(vs.first { $0.entities == ["player/custom"] }?.measured == 50)
    }

    @Test func hitRegionRulesFollowPlatform() {
        var fx = RuleFixture(platform: .iOS, duration: 2.0 / 60)
        let w = fx.window()
        fx.button("small", in: w, frame: RectPt(x: 0, y: 0, width: 40, height: 40))
        let vs = fx.run().1
        #expect(vs.rule("target-hit-region-visionos").isEmpty)
        #expect(vs.rule("target-hit-region-ios").first?.severity == .warning)
        #expect(vs.rule("target-center-spacing").isEmpty)  // visionOS rule skips iOS scenes
    }

    @Test func largeButtonsNeedHoverPadding() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("a", in: w, frame: RectPt(x: 0, y: 0, width: 64, height: 64))
        fx.button("b", in: w, frame: RectPt(x: 70, y: 0, width: 64, height: 64))
        let vs = fx.run().1
        #expect(vs.rule("target-large-hover-padding").first?.measured == 6)
        #expect(vs.rule("target-center-spacing").isEmpty)  // 70 pt apart
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

    @Test func headAnchoredContentIsReported() {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("hud", .window) { e in e.anchor = .head }
        #expect(fx.run().1.rule("fov-head-locked").first?.entities == ["hud"])
    }

    @Test func rigidHeadFollowingIsInferred() {
        var fx = RuleFixture(frameRate: 10, duration: 4)
        fx.add("panel", .window)
        fx.add("statue", .model)
        let vs = fx.run { i, f in
            let yaw = Double(i) * 2  // 20°/s
            let q = Quat(yaw: yaw, pitch: 0, roll: 0)
            f.headRotation = q
            f.headForward = q.act(Vec3(0, 0, -1))
            f.center[0] = Vec3(0, 1.6, 0) + q.act(Vec3(0, 0, -2))  // follows the head
            f.center[1] = Vec3(0, 1.6, -2)                           // stays in the world
        }.1.rule("fov-head-locked")
        #expect(vs.count == 1)
        #expect(vs.first?.entities == ["panel"])
        #expect(vs.first?.spans == [[20, 39]])
    }

    @Test func peripheralAndFastMotion() {
        var fx = RuleFixture(duration: 3.0 / 90)
        fx.add("bird", .model)
        let vs = fx.run { _, f in f.eccentricity[0] = 40; f.angularVelocity[0] = 70 }.1
        #expect(vs.rule("motion-peripheral").first?.measured == 70)
        #expect(vs.rule("motion-too-fast").first?.threshold == 60)
    }

    @Test func interactiveContentBehindTheRestingPoseNeedsAHeadTurn() {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("knob", .model) { e in e.interactive = true }
        let vs = fx.run { _, f in f.center[0] = Vec3(2, 1.6, 0) }.1.rule("fov-no-head-turn")
        #expect(abs((vs.first?.measured ?? 0) - 90) < 1e-9)
        #expect(vs.first?.threshold == 45)
    }

    @Test func systemTriggeredImmersionAndLaunchStyle() {
        var fx = RuleFixture(frameRate: 10, duration: 2)
        fx.scene.events = [SceneEvent(time: 1, action: .setImmersion(.full, trigger: .system), location: SourceLocation(line: 30, column: 5))]
        let vs = fx.run { i, f in f.immersion = i >= 10 ? .full : .shared }.1
        let v = vs.rule("immersion-user-initiated")
        #expect(v.first?.spans == [[10, 19]])
        #expect(v.first?.location == SourceLocation(line: 30, column: 5))
        #expect(vs.rule("immersion-launch-style").isEmpty)
    }

    @Test func invalidImmersionRange() {
        var fx = RuleFixture(immersion: .progressive, duration: 1.0 / 90)
        fx.add("forest", .environment) { e in e.immersionRange = [200, 120]; e.groundPlane = false }
        let vs = fx.run { _, f in f.boundaryOrigin = .zero }.1
        #expect(vs.rule("immersion-range-valid").first?.severity == .error)
        #expect(vs.rule("env-ground-plane").first?.entities == ["forest"])
    }

    @Test func textFloatingOffItsWindow() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.window()
        fx.add("title", .element, parent: w) { e in
            e.container = w; e.role = .text; e.fontSize = 17; e.depthPt = 10; e.metresPerPoint = 0.00234
        }
        let v = fx.run().1.rule("depth-text-flat")
        #expect(abs((v.first?.measured ?? 0) - 0.0234) < 1e-9)
    }

    @Test func arFrameRate() {
        let fx = RuleFixture(platform: .iOS, frameRate: 30, duration: 0.1)
        #expect(fx.run().1.rule("ar-frame-rate").first?.measured == 30)
    }
}
