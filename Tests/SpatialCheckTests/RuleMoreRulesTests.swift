import Foundation
import Testing
@testable import Simulation
@testable import Rules
import SpatialModel

@Suite struct RuleMoreRulesTests {
    @Test func primaryContentOffCentreThenOutOfView() {
        var fx = RuleFixture(frameRate: 10, duration: 4)
        fx.add("player", .window) { e in e.primary = true }
        let vs = fx.run { i, f in
            f.eccentricity[0] = 20                      // off-centre: info on every frame
            f.fullyInFOV[0] = i < 10                    // out of view from 1 s on: warning after 2 s more
        }.1.rule("fov-important-centered")
        // Two measurements, two violations: the out-of-view sub-check covers its whole run (frames
        // 10–39, grace included) and measures how long it lasted, 30 frames at 10 Hz = 3 s; the
        // off-centre info covers every frame at 20°.
        #expect(vs.count == 2)
        let out = vs.first { $0.severity == .warning }, off = vs.first { $0.severity == .info }
        #expect(out?.spans == [[10, 39]])
        #expect(abs((out?.measured ?? 0) - 3.0) < 1e-9)
        #expect(out?.threshold == 2)
        #expect(out?.unit == "s")
        #expect(out?.borderline == false)
        #expect(off?.spans == [[0, 39]])
        #expect(off?.measured == 20)
    }

    /// Out of view for 1.5 s only (under the 2 s grace) while the viewer keeps moving: no warning.
    @Test func primaryContentBrieflyOutOfViewIsFine() {
        var fx = RuleFixture(frameRate: 10, duration: 4)
        fx.add("player", .window) { e in e.primary = true }
        fx.scene.viewer.path = [ViewerKey(time: 0, position: Vec3(0, 1.6, 0), rotation: .identity),
                                ViewerKey(time: 10, position: Vec3(0, 1.6, 0), rotation: .identity)]
        let vs = fx.run { i, f in f.fullyInFOV[0] = !(10..<25).contains(i) }.1.rule("fov-important-centered")
        #expect(vs.isEmpty)
    }

    @Test func borderlineNearAnAngleThreshold() {
        var fx = RuleFixture(frameRate: 10, duration: 1)
        fx.add("player", .window) { e in e.primary = true }
        let v = fx.run { _, f in f.eccentricity[0] = 16 }.1.rule("fov-important-centered").first
        #expect(v?.severity == .info)
        #expect(v?.borderline == true)  // 16° vs 15°: within 15 %
    }

    @Test func verticalComfortBand() {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("low", .window) { e in e.interactive = true }
        fx.add("ok", .window) { e in e.interactive = true }
        let vs = fx.run { _, f in f.elevationWorld[0] = -50; f.elevationWorld[1] = -10 }.1.rule("fov-vertical-comfort")
        #expect(vs.map(\.entities) == [["low"]])
        #expect(vs.first?.measured == 50)
        #expect(vs.first?.threshold == 40)
    }

    @Test func windowClutterCountsVisibleWindows() {
        var fx = RuleFixture(duration: 3.0 / 90)
        for i in 0..<4 { fx.add("w\(i)", .window) }
        let vs = fx.run { i, f in if i == 2 { f.visible[3] = false } }.1.rule("fov-window-clutter")
        #expect(vs.first?.spans == [[0, 1]])
        #expect(vs.first?.measured == 4)
        #expect(vs.first?.severity == .info)
    }

    @Test func depthLayersAndWindowExtent() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.window()
        for (i, d) in [0.0, 5, 10, 25].enumerated() {
            fx.add("e\(i)", .element, parent: w) { e in
                e.container = w; e.role = .button; e.interactive = true; e.depthPt = d; e.metresPerPoint = 0.00234
                e.frame = RectPt(x: Double(i) * 100, y: 0, width: 60, height: 60)
            }
        }
        let child = fx.add("statue", .model, parent: w)
        let vs = fx.run { _, f in
            f.front[w] = Vec3(0, 0, 1)
            // A 20 × 20 × 10 cm box whose back face lies on the window (z = −2): it reaches 0.1 m.
            f.boundsMin[child] = Vec3(-0.1, 1.5, -2); f.boundsMax[child] = Vec3(0.1, 1.7, -1.9)
            f.setBox(child, center: Vec3(0, 1.6, -1.95), axes: (Vec3(0.1, 0, 0), Vec3(0, 0.1, 0), Vec3(0, 0, 0.05)))
        }.1
        #expect(vs.rule("depth-layer-count").first?.measured == 4)
        let ext = vs.rule("depth-window-content-extent")
        #expect(ext.map(\.entities) == [["player/e3"], ["player/statue"]])
        #expect(abs((ext.last?.measured ?? 0) - 0.1) < 1e-9)
    }

    /// A window turned 45° toward the viewer with a flat 40 × 20 cm panel 1 cm in front of it: the
    /// panel reaches 1 cm along the window's normal, however much its world-aligned box grows
    /// (that box is 28 cm deep: 0.2 · sin 45° · 2).
    @Test func windowExtentFollowsATurnedWindow() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.window()
        let child = fx.add("panel", .model, parent: w)
        let s = 0.5.squareRoot()
        let n = Vec3(s, 0, s), right = Vec3(s, 0, -s)
        let vs = fx.run { _, f in
            f.center[w] = Vec3(-1, 1.6, -1); f.front[w] = n
            let c = Vec3(-1, 1.6, -1) + 0.01 * n
            f.center[child] = c
            f.boundsMin[child] = c - Vec3(0.2 * s, 0.1, 0.2 * s); f.boundsMax[child] = c + Vec3(0.2 * s, 0.1, 0.2 * s)
            f.setBox(child, center: c, axes: (0.2 * right, Vec3(0, 0.1, 0), Vec3(0, 0, 0)))
        }.1
        #expect(vs.rule("depth-window-content-extent").isEmpty)
        // The same panel 6 cm out is reported with its true reach.
        let far = fx.run { _, f in
            f.center[w] = Vec3(-1, 1.6, -1); f.front[w] = n
            let c = Vec3(-1, 1.6, -1) + 0.06 * n
            f.center[child] = c
            f.setBox(child, center: c, axes: (0.2 * right, Vec3(0, 0.1, 0), Vec3(0, 0, 0)))
        }.1.rule("depth-window-content-extent")
        #expect(far.map(\.entities) == [["player/panel"]])
        #expect(abs((far.first?.measured ?? 0) - 0.06) < 1e-9)
    }

    @Test func largeHeadLockedContentSaysItHidesTheView() {
        var fx = RuleFixture(frameRate: 10, duration: 1)
        fx.add("panel", .window) { e in e.anchor = .head }
        fx.add("badge", .window) { e in e.anchor = .head }
        // 40° × 30° over the 90° × 70° field of view: 1200 / 6300 = 19.05 %; the badge's 4° × 4°
        // (the fixture's default) is 0.25 %.
        let vs = fx.run { _, f in f.angularWidth[0] = 40; f.angularHeight[0] = 30 }.1.rule("fov-head-locked")
        #expect(vs.map(\.entities) == [["badge"], ["panel"]])
        #expect(vs.last?.message.contains("covers up to 19.05 % of the field of view") == true)
        #expect(vs.first?.message.contains("field of view") == false)
    }

    @Test func locomotionIgnoresRecenter() {
        var fx = RuleFixture(immersion: .full, frameRate: 10, duration: 2.6)
        fx.add("env", .environment)
        let (_, vs) = fx.run { i, f in
            let x = Double(i) * 0.1
            f.headPosition = Vec3(x, 1.6, 0)
            // A recenter at frame 12 resets the boundary origin.
            let origin = i < 12 ? 0.0 : 1.2
            f.boundaryOrigin = Vec3(origin, 1.6, 0)
            f.headDisplacement = x - origin
        }
        #expect(vs.rule("boundary-head-exit").isEmpty)
        #expect(vs.rule("boundary-style-vs-locomotion").first?.spans == [[16, 25]])
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
        fx.add("small", .text) { e in e.textHeight = 0.01; e.scaleMode = .fixed }
        fx.add("large", .text) { e in e.textHeight = 0.08; e.scaleMode = .fixed }
        let vs = fx.run().1.rule("type-legible-across-scale")
        #expect(vs.map(\.entities) == [["small"]])
        let expected = degrees(2 * atan(0.01 / 6)) / Units.defaultPointAngle
        #expect(abs((vs.first?.measured ?? 0) - expected) < 1e-9)
    }

    @Test func staticElementsDoNotDuplicateTheirWindowsMotion() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("b", in: w, frame: RectPt(x: 0, y: 0, width: 60, height: 60))
        let vs = fx.run { _, f in for e in 0..<2 { f.angularVelocity[e] = 90 } }.1.rule("motion-too-fast")
        #expect(vs.map(\.entities) == [["player"]])
    }

    @Test func mismatchedOrRepeatedFramesAreIgnored() {
        let fx = RuleFixture(duration: 2.0 / 90)
        let engine = RuleEngine(scene: fx.scene)
        engine.consume(FrameQuantities(entityCount: 5))  // wrong entity count: ignored, no crash
        var f = fx.frame(0)
        f.frame = 3
        engine.consume(f)
        engine.consume(f)                                 // repeated frame: ignored
        #expect(engine.finish().isEmpty)
    }

    @Test func thresholdOnARuleWithoutOneIsAnError() {
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("rules: {fov-no-head-turn: {threshold: 3}}") }
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("rules: {fov-no-head-turn: {bogus: 3}}") }
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("failOn: [") }
    }
}

@Suite struct RuleLaunchPlacementTests {
    @Test func checkedAtLaunchAndWhenAFullSpaceOpens() {
        var fx = RuleFixture(frameRate: 10, duration: 2)
        fx.add("main", .window) { e in e.primary = true }
        let vs = fx.run { i, f in
            f.eccentricity[0] = 30
            f.immersion = i >= 10 ? .full : .shared
        }.1.rule("fov-launch-placement")
        #expect(vs.first?.spans == [[0, 0], [10, 10]])
        #expect(vs.first?.measured == 30)
    }
}

@Suite struct RuleSmallInRowTests {
    @Test func smallButtonsInARow() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.window()
        fx.button("a", in: w, frame: RectPt(x: 300, y: 230, width: 32, height: 32))
        fx.button("b", in: w, frame: RectPt(x: 360, y: 230, width: 32, height: 32))
        fx.button("c", in: w, frame: RectPt(x: 420, y: 230, width: 32, height: 32))
        fx.button("lone", in: w, frame: RectPt(x: 300, y: 500, width: 32, height: 32))  // 238 pt below: not a neighbour
        fx.button("big", in: w, frame: RectPt(x: 480, y: 230, width: 44, height: 44))
        let vs = fx.run().1.rule("target-small-in-row")
        #expect(vs.map(\.entities) == [["player/a", "player/b"], ["player/b", "player/c"]])
        #expect(vs.first?.measured == 28)
        #expect(vs.first?.message.contains("row") == true)
    }
}
