import Foundation
import Testing
@testable import SpatialCheck
import Reporting
@testable import Rules
@testable import Simulation
import SpatialModel

/// `fov-posture-variants`: content at an absolute world height judged seated (eye 1.2 m), standing
/// (1.6 m) and reclined (resting line of sight 30° up) against fov-vertical-comfort's band
/// (40° below to 20° above). End to end (loader → simulator → rules); the viewer stands (eye at
/// 1.6 m) unless a test says otherwise, and every panel is a 400 × 250 pt window with one button at
/// its centre, so the button's centre is the window's centre. Expected angles are written out.
@Suite struct RulePostureTests {
    private static func scene(_ placement: String, viewer: String = "") -> String {
        """
        format: spatialscene/1
        duration: 0.1
        \(viewer)
        entities:
          - id: board
            kind: window
            \(placement)
            size: [400, 250]
            elements:
              - {id: go, role: button, frame: [178, 103, 44, 44]}
        """
    }

    private static func posture(_ v: [ReportViolation]) -> [ReportViolation] { v.filter { $0.rule == "fov-posture-variants" } }

    /// Eye 1.6 m, board centre 1.6 m high and 1.5 m ahead: 0° standing. Seated (eye 1.2 m) it is
    /// atan(0.4 / 1.5) = 14.93° above the eye, inside the 20° limit; reclined 0° − 30° = −30°,
    /// inside 40°: clean. With fov-vertical-comfort's `above` set to 12°, the seated variant fails
    /// at 14.93° (the rule uses that rule's configured band).
    @Test func seatedEyeSeesAbsolutePanelAt14_93Degrees() throws {
        let yaml = Self.scene("position: [0, 1.6, -1.5]\n    placementMode: absolute")
        #expect(Self.posture(try RuleScenes.check(yaml)).isEmpty)
        let strict = Self.posture(try RuleScenes.check(yaml, config: "rules:\n  fov-vertical-comfort: {above: 12}\n"))
        #expect(strict.map(\.entities) == [["board/go"]])
        let v = try #require(strict.first)
        #expect(abs(v.measured - 14.9314) < 0.01)
        #expect(v.threshold == 12)
        #expect(v.severity == .info)
        #expect(v.message.contains("seated") && !v.message.contains("standing") && !v.message.contains("reclined"))
        #expect(v.message.contains("above"))
    }

    /// Board 1.8 m high, 1.5 m ahead: standing atan(0.2 / 1.5) = 7.59° (comfortable); seated
    /// atan(0.6 / 1.5) = 21.80° > 20°: fails seated only (reclined 7.59° − 30° = −22.41°).
    @Test func highPanelFailsSeated() throws {
        let v = Self.posture(try RuleScenes.check(Self.scene("position: [0, 1.8, -1.5]\n    placementMode: absolute")))
        #expect(v.map(\.entities) == [["board/go"]])
        #expect(abs((v.first?.measured ?? 0) - 21.8014) < 0.01)
        #expect(v.first?.threshold == 20)
    }

    /// Board 1.2 m high, 1.5 m ahead: standing −14.93° (comfortable), seated 0°; reclined
    /// −14.93° − 30° = −44.93° < −40°: fails reclined only.
    @Test func lowPanelFailsReclined() throws {
        let v = Self.posture(try RuleScenes.check(Self.scene("position: [0, 1.2, -1.5]\n    placementMode: absolute")))
        #expect(v.map(\.entities) == [["board/go"]])
        let f = try #require(v.first)
        #expect(abs(f.measured - 44.9314) < 0.01)
        #expect(f.threshold == 40)
        #expect(f.message.contains("reclined") && f.message.contains("below") && !f.message.contains("seated"))
    }

    /// A seated scene (eye 1.2 m), board 0.4 m above its eye at 1.5 m: 14.93° seated; standing
    /// (eye 1.6 m) it is at eye level (0°) and reclined 14.93° − 30° = −15.07°: clean. Lower it to
    /// 0.9 m: seated −11.31°, standing atan(−0.7 / 1.5) = −25.02°, reclined −41.31° < −40°.
    @Test func seatedSceneIsShiftedToStandingToo() throws {
        let seated = "viewer: {posture: seated}"
        #expect(Self.posture(try RuleScenes.check(Self.scene("position: [0, 1.6, -1.5]\n    placementMode: absolute", viewer: seated))).isEmpty)
        let v = Self.posture(try RuleScenes.check(Self.scene("position: [0, 0.9, -1.5]\n    placementMode: absolute", viewer: seated)))
        #expect(abs((v.first?.measured ?? 0) - 41.3099) < 0.01)
        #expect(v.first?.message.contains("reclined") == true)
    }

    /// Head-relative twins of `highPanelFailsSeated` are clean: the same direction through
    /// `placement`, the window's default for `position` (windows are placed by the system), and an
    /// explicit `placementMode: headRelative`.
    @Test func headRelativeTwinsAreClean() throws {
        for placement in ["placement: {distance: 1.513, elevation: 7.59}", "position: [0, 1.8, -1.5]",
                          "position: [0, 1.8, -1.5]\n    placementMode: headRelative"] {
            #expect(Self.posture(try RuleScenes.check(Self.scene(placement))).isEmpty, "\(placement)")
        }
    }

    /// Board 2.3 m high at 1.5 m: atan(0.7 / 1.5) = 25.02° above eye level already standing, so
    /// fov-vertical-comfort reports it and this rule does not report it again.
    @Test func failingInOwnPostureIsLeftToVerticalComfort() throws {
        let v = try RuleScenes.check(Self.scene("position: [0, 2.3, -1.5]\n    placementMode: absolute"))
        #expect(Self.posture(v).isEmpty)
        #expect(v.contains { $0.rule == "fov-vertical-comfort" && abs($0.measured - 25.0169) < 0.01 })
    }

    /// The loader resolves the default and rejects the key where it means nothing.
    @Test func loaderDefaultsAndErrors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("posture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func load(_ yaml: String) throws -> (SceneReport, [String]) {
            let path = dir.appendingPathComponent("t.scene.yaml").path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: .default, snapshot: false)
            return (report, report.errors.map(\.description))
        }
        let child = """
        format: spatialscene/1
        entities:
          - id: w
            kind: window
            size: [400, 250]
            children:
              - {id: m, kind: group, position: [0, 0, 0], placementMode: absolute}
        """
        #expect(try load(child).1.contains { $0.contains("'placementMode' is only for top-level entities") })
        let typo = "format: spatialscene/1\nentities:\n  - {id: g, kind: group, position: [0, 1, -1], placementMod: absolute}\n"
        #expect(try load(typo).1.contains { $0.contains("placementMode") })
        let bad = "format: spatialscene/1\nentities:\n  - {id: g, kind: group, position: [0, 1, -1], placementMode: fixed}\n"
        #expect(try load(bad).1.contains { $0.contains("headRelative") })
    }

    /// Synthetic frames (eye 1.6 m at the origin): an interactive model 3 m ahead with its centre
    /// 0.3 m high is atan(−1.3 / 3) = −23.43° standing (comfortable), reclined −53.43° (fails,
    /// seated atan(−0.9 / 3) = −16.70° does not). Standing on the floor (lowest point at y = 0) it
    /// is not judged; lifted 0.2 m off the floor it is reported, frames 0–4, measured 53.43°.
    @Test func contentOnTheFloorIsNotJudged() {
        for (low, expected) in [(0.0, false), (0.2, true)] {
            var fx = RuleFixture(duration: 5.0 / 90)
            fx.add("fox", .model) { e in e.interactive = true; e.placementMode = .absolute }
            let v = fx.run { _, f in
                f.center[0] = Vec3(0, 0.3, -3)
                f.boundsMin[0] = Vec3(-0.1, low, -3.1); f.boundsMax[0] = Vec3(0.1, 0.6 - low, -2.9)
                f.elevationWorld[0] = degrees(atan2(-1.3, 3))
            }.1.rule("fov-posture-variants")
            #expect(!v.isEmpty == expected, "lowest point \(low)")
            if expected {
                #expect(v.first?.spans == [[0, 4]])
                #expect(abs((v.first?.measured ?? 0) - 53.4287) < 0.001)
                #expect(v.first?.threshold == 40)
            }
        }
    }
}
