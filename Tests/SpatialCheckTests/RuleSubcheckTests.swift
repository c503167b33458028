import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// The sub-checks of issue #4: looming (motion-too-fast), roll (type-billboard), window coverage
/// (fov-window-clutter) and vertical layout span (fov-vertical-comfort). Each is reported as a
/// violation of its own beside the rule's main measurement of the same entities.
@Suite struct RuleSubcheckTests {
    // MARK: motion-too-fast: looming

    @Test func loomingIsItsOwnViolationInMetresPerSecond() {
        var fx = RuleFixture(frameRate: 10, duration: 1)
        fx.add("ball", .model)
        let vs = fx.run { i, f in
            switch i {
            case 3, 5: f.approachSpeed[0] = 2.5; f.distance[0] = 2.5
            case 4: f.approachSpeed[0] = 2.8; f.distance[0] = 1.9  // worst frame
            case 6: f.approachSpeed[0] = 2.5; f.distance[0] = 3.0  // not closer than 3 m
            case 7: f.approachSpeed[0] = 2.0; f.distance[0] = 1.0  // not faster than 2 m/s
            case 8: f.angularVelocity[0] = 90                       // the angular part
            default: break
            }
        }.1.rule("motion-too-fast")
        #expect(vs.count == 2)
        guard vs.count == 2 else { return }
        let (angular, looming) = (vs[0], vs[1])
        #expect(angular.entities == ["ball"] && looming.entities == ["ball"])
        #expect(angular.unit == "deg/s" && angular.measured == 90 && angular.threshold == 60 && angular.spans == [[8, 8]])
        #expect(looming.unit == "m/s" && looming.measured == 2.8 && looming.threshold == 2)
        #expect(looming.spans == [[3, 5]] && looming.worstFrame == 4 && looming.severity == .warning)
        #expect(looming.message.contains("2.8 m/s only 1.9 m away"))
        #expect(angular.fingerprint != looming.fingerprint)
        // The main measurement keeps the fingerprint it had before sub-checks existed.
        #expect(angular.fingerprint == violationFingerprint(rule: "motion-too-fast", scenePath: fx.scene.path, entities: ["ball"]))
    }

    @Test func loomingParametersAreConfigurable() throws {
        var fx = RuleFixture(frameRate: 10, duration: 0.2)
        fx.add("ball", .model)
        let config = try RuleConfiguration.parse("rules: {motion-too-fast: {loomingSpeed: 3, loomingDistance: 1}}")
        let vs = fx.run(configuration: config) { i, f in
            f.approachSpeed[0] = 2.8; f.distance[0] = i == 0 ? 0.9 : 1.5
        }.1.rule("motion-too-fast")
        #expect(vs.isEmpty)  // 2.8 m/s is below the configured 3 m/s
        let vs2 = fx.run(configuration: try RuleConfiguration.parse("rules: {motion-too-fast: {loomingDistance: 1}}")) { i, f in
            f.approachSpeed[0] = 2.8; f.distance[0] = i == 0 ? 0.9 : 1.5
        }.1.rule("motion-too-fast")
        #expect(vs2.map(\.spans) == [[[0, 0]]])  // only the frame closer than 1 m
    }

    // MARK: type-billboard: roll

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

    // MARK: fov-window-clutter: coverage

    /// Solid angle (sr) of a flat w° × h° rectangle centred on, and facing, the line of sight.
    private static func flatRectangle(_ w: Double, _ h: Double) -> Double {
        4 * asin(sin(radians(w / 2)) * sin(radians(h / 2)))
    }
    /// The default 90° × 70° field of view, |azimuth| ≤ 45°, |elevation| ≤ 35°: π/2 · 2 sin 35°.
    private static let fieldOfView = radians(90) * 2 * sin(radians(35))
    /// How far the 128 × 128 grid may be from the exact solid angle here, in percentage points.
    private static let gridTolerance = 0.5

    @Test func coverageIsTheUnionOfWindowsInTheSharedSpace() {
        var fx = RuleFixture(frameRate: 10, duration: 0.4)
        for id in ["a", "b", "c", "d"] { fx.add(id, .window) }
        let vs = fx.run { i, f in
            // a and b straight ahead 2 m away (the fixture's default centre), flat and facing the eye:
            // a 60° × 50°, b the same on frame 0, then 80° × 60° (it contains a).
            f.angularWidth[0] = 60; f.angularHeight[0] = 50
            f.angularWidth[1] = i == 0 ? 60 : 80; f.angularHeight[1] = i == 0 ? 50 : 60
            // c, d: open but out of view (count 4 > 3 on frames 0–2, no coverage).
            for e in 2...3 { f.inFOV[e] = false }
            if i == 2 { f.immersion = .full }   // only the Shared Space counts
            if i == 3 { f.visible[1] = false }  // a alone
        }.1.rule("fov-window-clutter")
        #expect(vs.map(\.severity) == [.warning, .info])
        guard vs.count == 2 else { return }
        let coverage = vs[0], count = vs[1]
        // Frame 0: the union is one 60° × 50° window, 4·asin(sin 30° · sin 25°) = 0.8517 sr = 47.3 % of
        // the field of view (two counted apart would be 94.5 %). Frame 1: b alone, 4·asin(sin 40° ·
        // sin 30°) = 1.3088 sr = 72.63 % (an azimuth × elevation rectangle would say 77.5 %).
        let expected = 100 * Self.flatRectangle(80, 60) / Self.fieldOfView
        #expect(abs(expected - 72.63) < 0.01)
        #expect(abs(coverage.measured - expected) < Self.gridTolerance)
        #expect(coverage.spans == [[1, 1]] && coverage.unit == "%" && coverage.threshold == 60 && coverage.entities.isEmpty)
        #expect(count.measured == 4 && count.unit == "count" && count.spans == [[0, 2]])  // frame 3: three open
        #expect(coverage.fingerprint != count.fingerprint)
    }

    @Test func coverageOfOneWindowClipsAndTheEyeInside() {
        var f = FrameQuantities(entityCount: 1)
        f.headPosition = Vec3(0, 1.6, 0)
        let grid = FieldOfViewCoverage(fieldOfView: SIMD2(90, 70))
        // The eye inside a window (360° × 180°): the whole field of view, exactly.
        f.center[0] = Vec3(0, 1.6, -0.01); f.angularWidth[0] = 360; f.angularHeight[0] = 180
        #expect(abs(grid.percent(of: [0], f) - 100) < 1e-9)
        // A default 1280 × 720 pt window 2 m straight ahead: 73.7° × 45.7°, 0.9407 sr = 52.20 %.
        let w = degrees(2 * atan(640 * tan(radians(0.0671)))), h = degrees(2 * atan(360 * tan(radians(0.0671))))
        f.center[0] = Vec3(0, 1.6, -2); f.angularWidth[0] = w; f.angularHeight[0] = h
        let single = 100 * Self.flatRectangle(w, h) / Self.fieldOfView
        #expect(abs(single - 52.20) < 0.01)
        #expect(abs(grid.percent(of: [0], f) - single) < Self.gridTolerance)
        // Centred on azimuth 45° (the edge of the view), 30° × 20°, facing the eye: its vertical
        // centre line lies on the 45° meridian, so exactly half is in view: 2·asin(sin 15° · sin 10°).
        f.center[0] = Vec3(2 * sin(radians(45)), 1.6, -2 * cos(radians(45))); f.angularWidth[0] = 30; f.angularHeight[0] = 20
        let half = 100 * Self.flatRectangle(30, 20) / 2 / Self.fieldOfView
        #expect(abs(half - 4.99) < 0.01)
        #expect(abs(grid.percent(of: [0], f) - half) < Self.gridTolerance)
        // Turning the head 45° to the right brings it to the centre of the view: all of it.
        f.headRotation = Quat(yaw: -45, pitch: 0, roll: 0)
        #expect(abs(grid.percent(of: [0], f) - 2 * half) < Self.gridTolerance)
    }

    @Test func coverageAroundTheZenith() {
        // A 40° × 40° window straight overhead, seen in a 90° × 180° field of view (π sr): it spans
        // every azimuth, and by its 90° symmetry exactly a quarter of it, 4·asin(sin² 20°)/4, lies
        // in the ±45° wedge: 3.73 %.
        var f = FrameQuantities(entityCount: 1)
        f.headPosition = Vec3(0, 1.6, 0)
        f.center[0] = Vec3(0, 3.6, 0); f.angularWidth[0] = 40; f.angularHeight[0] = 40
        let grid = FieldOfViewCoverage(fieldOfView: SIMD2(90, 180))
        let expected = 100 * Self.flatRectangle(40, 40) / 4 / .pi
        #expect(abs(expected - 3.73) < 0.01)
        #expect(abs(grid.percent(of: [0], f) - expected) < Self.gridTolerance)
    }

    // MARK: fov-vertical-comfort: vertical span of a container's interactive elements

    @Test func verticalSpanPerContainer() {
        var fx = RuleFixture(duration: 2.0 / 90)
        func column(_ id: String) -> [Int] {
            let w = fx.window(id)
            return (0..<3).map { fx.button("b\($0)", in: w, frame: RectPt(x: 0, y: Double($0) * 100, width: 60, height: 60)) }
        }
        let tall = column("tall"), row = column("row"), square = column("square"), behind = column("behind")
        let lone = fx.window("lone")
        let single = fx.button("b", in: lone, frame: RectPt(x: 0, y: 0, width: 60, height: 600))
        let vs = fx.run { _, f in
            for (k, e) in tall.enumerated() {  // elevations 20, 0, −20; ±2° tall; azimuths 0, 0, 2; ±3° wide
                f.elevation[e] = 20 - 20 * Double(k); f.azimuth[e] = k == 2 ? 2 : 0
                f.angularHeight[e] = 4; f.angularWidth[e] = 6
            }
            for (k, e) in row.enumerated() {   // laid out horizontally: 4° tall, 46° wide
                f.azimuth[e] = -20 + 20 * Double(k); f.angularHeight[e] = 4; f.angularWidth[e] = 6
            }
            for (k, e) in square.enumerated() { // 44° tall but 56° wide
                f.elevation[e] = 20 - 20 * Double(k); f.azimuth[e] = -25 + 25 * Double(k)
                f.angularHeight[e] = 4; f.angularWidth[e] = 6
            }
            for (k, e) in behind.enumerated() { // across azimuth ±180°: 6° wide, not 358°
                f.elevation[e] = 20 - 20 * Double(k); f.azimuth[e] = [178, -178, 179][k]
                f.angularHeight[e] = 4; f.angularWidth[e] = 2
            }
            f.angularHeight[single] = 40       // one element alone is not a layout
        }.1.rule("fov-vertical-comfort")
        #expect(vs.map(\.entities) == [["behind"], ["tall"]])
        guard vs.count == 2 else { return }
        // tall: vertical (20 + 2) − (−20 − 2) = 44°, horizontal (2 + 3) − (0 − 3) = 8°.
        #expect(vs[1].measured == 44 && vs[1].threshold == 30 && vs[1].severity == .info && vs[1].unit == "deg")
        #expect(vs[1].message.contains("span 44° vertically but only 8° horizontally"))
        // behind: 178 and −178 (= 182) and 179, ±1° → 177…183 = 6°.
        #expect(vs[0].measured == 44)
        #expect(vs[0].message.contains("span 44° vertically but only 6° horizontally"))
    }

    @Test func verticalSpanIsApartFromTheElevationBand() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.add("panel", .window) { e in e.interactive = true }
        let b = (0..<2).map { fx.button("b\($0)", in: w, frame: RectPt(x: 0, y: Double($0) * 100, width: 60, height: 60)) }
        let vs = fx.run { _, f in
            f.elevationWorld[w] = -50                        // the panel itself: 50° below eye level
            f.elevation[b[0]] = 20; f.elevation[b[1]] = -20  // its buttons: 44° tall, 4° wide
            for e in b { f.angularHeight[e] = 4; f.angularWidth[e] = 4 }
        }.1.rule("fov-vertical-comfort")
        #expect(vs.map(\.severity) == [.warning, .info])
        #expect(vs.map(\.entities) == [["panel"], ["panel"]])
        #expect(vs.map(\.measured) == [50, 44])
    }
}

/// The sub-checks end to end (loader → simulator → rules) on the rules' fail examples, with the
/// values derived from the scene geometry by hand.
@Suite struct RuleSubcheckExampleTests {
    private static func violations(_ id: String) -> [ReportViolation] {
        let path = TestPaths.repo("Scenes/rules/\(id)/fail.scene.yaml")
        let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: .default)
        return report.violations.filter { $0.rule == id }
    }

    /// Metres per point of a dynamic window per metre of placement distance: tan(0.0671°).
    private static let t = tan(radians(Units.defaultPointAngle))

    @Test func loomingBall() {
        // The ball flies from z = −5 to z = −1 in 1 s toward the eye at (0, 1.6, 0): 4 m/s. At 90 Hz
        // its distance at frame i is 5 − 4i/90, below 3 m from frame 46 (2.956 m) to the last, 89.
        let v = Self.violations("motion-too-fast").filter { $0.entities == ["ball"] }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 4) < 1e-6)
        #expect(v.first?.unit == "m/s" && v.first?.threshold == 2)
        #expect(v.first?.spans == [46...89])
    }

    @Test func rolledCaption() {
        // Straight ahead at 3 m, facing the eye, rolled 30° about its front: roll 30°, facing 0°.
        let v = Self.violations("type-billboard").filter { $0.entities == ["caption"] }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 30) < 1e-6)
        #expect(v.first?.severity == .info && v.first?.threshold == 20)
    }

    @Test func tallWindowsCoverTheView() {
        // Four flat 400 × 900 pt windows facing the eye at azimuths ±15°, ±45°, each 2·atan(200·t) =
        // 26.37° wide and 2·atan(450·t) = 55.58° tall; solid angle 4·asin(sin 13.18° · sin 27.79°) =
        // 0.4261 sr. No two overlap, and the two at ±45° are half in view (their centre lines lie on
        // the ±45° meridians): 3 × 0.4261 sr of π/2 · 2 sin 35° = 70.94 %.
        let w = degrees(2 * atan(200 * Self.t)), h = degrees(2 * atan(450 * Self.t))
        let one = 4 * asin(sin(radians(w / 2)) * sin(radians(h / 2)))
        let expected = 100 * 3 * one / (radians(90) * 2 * sin(radians(35)))
        let v = Self.violations("fov-window-clutter").filter { $0.unit == "%" }
        #expect(v.count == 1)
        #expect(abs(expected - 70.94) < 0.01)
        #expect(abs((v.first?.measured ?? 0) - expected) < 0.5)
        #expect(v.first?.severity == .warning && v.first?.spans == [0...89])
    }

    @Test func stackedListIsTallerThanWide() {
        // An upright 300 × 900 pt window 1.5 m away at elevation −10° (m = 1.5·t metres per point):
        // its plane is 1.5·cos 10° away, its centre 1.5·sin 10° below the eye, and the buttons run
        // from 410 pt above the centre to 410 pt below: atan((−c + 410 m)/D) − atan((−c − 410 m)/D)
        // = 17.29° + 33.58° = 50.87°. The simulator's per-element extents give it within 0.1°.
        let m = 1.5 * Self.t, d = 1.5 * cos(radians(10)), c = 1.5 * sin(radians(10))
        let expected = degrees(atan((-c + 410 * m) / d) - atan((-c - 410 * m) / d))
        let v = Self.violations("fov-vertical-comfort").filter { $0.entities == ["list"] }
        #expect(v.count == 1)
        #expect(abs(expected - 50.87) < 0.01)
        #expect(abs((v.first?.measured ?? 0) - expected) < 0.1)
        #expect(v.first?.severity == .info && v.first?.threshold == 30)
    }
}
