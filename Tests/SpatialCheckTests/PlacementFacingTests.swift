import Foundation
import Testing
@testable import SceneLoader
import SpatialModel
import Reporting

/// `facing` of entities placed with `placement` (scene format §1): every top-level entity placed
/// with `placement` turns to face the viewer unless it says `facing: none` or gives a rotation, and
/// `facing` is accepted inside `placement` as the contract's example writes it.
@Suite struct PlacementFacingTests {
    /// World direction of the entity's local +Z at rest.
    private static func front(_ scene: Scene, _ path: String) throws -> Vec3 {
        let e = try #require(scene.entities.first { $0.path == path })
        var m = Mat4.identity
        var n: Int? = e.node
        while let i = n { m = scene.nodes[i].rest * m; n = scene.nodes[i].parent }
        // Root frames are the world here (anchor world).
        return normalize(Vec3(m.m[8], m.m[9], m.m[10]))
    }

    private static let header = """
        format: spatialscene/1
        viewer: {posture: standing}
        entities:

        """

    @Test func volumePlacedAtAzimuth40FacesTheEye() throws {
        // Eye at (0, 1.6, 0) looking along −Z. Bearing 40° right, 2 m, level:
        //   centre = eye + 2·(sin 40°, 0, −cos 40°) = (1.2856, 1.6, −1.5321).
        // Facing the eye means +Z along eye − centre = (−1.2856, 0, 1.5321)/2 = (−0.6428, 0, 0.7660).
        // Ry(yaw)·(0, 0, 1) = (sin yaw, 0, cos yaw), so sin yaw = −0.6428, cos yaw = 0.7660: yaw = −40°
        // (positive yaw turns left; the volume turns 40° right to face the viewer).
        let scene = try LoaderFixture.load(Self.header + """
              - {id: board, kind: volume, size: [0.6, 0.4, 0.6], placement: {distance: 2, azimuth: 40, elevation: 0}}
            """)
        let f = try Self.front(scene, "board")
        #expect(abs(f.x - -0.6427876) < 1e-6)
        #expect(abs(f.y) < 1e-9)
        #expect(abs(f.z - 0.7660444) < 1e-6)
        let board = try #require(scene.entities.first { $0.path == "board" })
        let o = try #require(board.restOrientation)
        #expect(abs(o.x - -40) < 1e-9 && abs(o.y) < 1e-9 && abs(o.z) < 1e-9)
        #expect(abs(board.restWorldBounds.center.x - 1.2855752) < 1e-6)
        #expect(abs(board.restWorldBounds.center.z - -1.5320889) < 1e-6)
    }

    @Test func modelsAndGroupsPlacedWithPlacementFaceTheEyeToo() throws {
        // Bearing −30° (left), 1.5 m: centre = (−0.75, 1.6, −1.2990); facing yaw = +30°.
        let scene = try LoaderFixture.load(Self.header + """
              - {id: robot, kind: model, asset: robot.glb, placement: {distance: 1.5, azimuth: -30}}
              - {id: set, kind: group, placement: {distance: 1.5, azimuth: -30}}
            """)
        for path in ["robot", "set"] {
            let o = try #require(scene.entities.first { $0.path == path }?.restOrientation)
            #expect(abs(o.x - 30) < 1e-9, "\(path): yaw \(o.x)")
        }
    }

    @Test func facingNoneAndExplicitRotationsAreKept() throws {
        // facing: none keeps +Z; a rotation without facing keeps that rotation (yaw 10°, pitch −20°);
        // facing: viewer with a rotation applies it after the turn: yaw −40° then pitch −20°.
        let scene = try LoaderFixture.load(Self.header + """
              - {id: plain, kind: volume, size: [1, 1, 1], placement: {distance: 2, azimuth: 40}, facing: none}
              - {id: inner, kind: volume, size: [1, 1, 1], placement: {distance: 2, azimuth: 40, facing: none}}
              - {id: turned, kind: volume, size: [1, 1, 1], placement: {distance: 2, azimuth: 40}, rotation: {yaw: 10, pitch: -20}}
              - {id: both, kind: volume, size: [1, 1, 1], placement: {distance: 2, azimuth: 40, facing: viewer}, rotation: {pitch: -20}}
            """)
        func ypr(_ p: String) throws -> Vec3 { try #require(scene.entities.first { $0.path == p }?.restOrientation) }
        let plain = try ypr("plain"), inner = try ypr("inner"), turned = try ypr("turned"), both = try ypr("both")
        #expect(abs(plain.x) < 1e-9 && abs(inner.x) < 1e-9)
        #expect(abs(turned.x - 10) < 1e-9 && abs(turned.y - -20) < 1e-9 && abs(turned.z) < 1e-9)
        #expect(abs(both.x - -40) < 1e-9 && abs(both.y - -20) < 1e-9 && abs(both.z) < 1e-9)
    }

    @Test func volumeWithPositionKeepsFacingPlusZ() throws {
        // Only placement (and windows/text) turn by default: a volume given a position does not.
        let scene = try LoaderFixture.load(Self.header + """
              - {id: box, kind: volume, size: [1, 1, 1], position: [1.2856, 1.6, -1.5321]}
            """)
        let o = try #require(scene.entities.first?.restOrientation)
        #expect(o == Vec3(0, 0, 0))
    }

    @Test func facingGivenTwiceIsAnError() throws {
        let d = try #require(LoaderFixture.single(Self.header + """
              - {id: box, kind: volume, size: [1, 1, 1], placement: {distance: 2, facing: viewer}, facing: none}
            """))
        #expect(d.message.contains("'facing' both in 'placement' and on the entity"))
        #expect(d.location?.line == 4)
    }

    @Test func facingInsidePlacementIsCheckedLikeTheEntityKey() throws {
        let d = try #require(LoaderFixture.single(Self.header + """
              - {id: box, kind: volume, size: [1, 1, 1], placement: {distance: 2, facing: user}}
            """))
        #expect(d.message.contains("'facing'"))
        #expect(d.message.contains("user"))
    }

    @Test func inspectStatesOrientationAndScaleMode() throws {
        let scene = try LoaderFixture.load(Self.header + """
              - {id: board, kind: volume, size: [0.6, 0.4, 0.6], placement: {distance: 2, azimuth: 40}}
              - {id: panel, kind: window, size: [400, 300], placement: {distance: 2, azimuth: -40}}
              - {id: set, kind: group, position: [0, 0, -2]}
            """)
        let text = ModelDump.text(scene)
        #expect(text.contains("yaw, pitch, roll (°)"))
        let board = try #require(text.split(separator: "\n").first { $0.hasPrefix("  board") })
        #expect(board.contains("fixed") && board.contains("-40.0, 0.0, 0.0"))
        let panel = try #require(text.split(separator: "\n").first { $0.hasPrefix("  panel") })
        #expect(panel.contains("dynamic") && panel.contains("40.0, 0.0, 0.0"))
        let json = ModelDump.json(scene).serialized(pretty: false)
        #expect(json.contains(#""path": "board", "kind": "volume""#))
        #expect(json.contains(#""scaleMode": "fixed", "orientation": {"yaw": -40.0, "pitch": 0.0, "roll": 0.0}"#))
        #expect(json.contains(#""scaleMode": "dynamic", "orientation": {"yaw": 40.0, "pitch": 0.0, "roll": 0.0}"#))
        #expect(json.contains(#""path": "set", "kind": "group", "role": null, "interactive": false, "asset": null, "unitScale": null, "scaleMode": null"#))
    }

    @Test func yawPitchRollReadsBackTheSceneFormatsComposition() {
        // R = Ry(yaw)·Rx(pitch)·Rz(roll) built from the quaternion, read back from the matrix.
        for (y, p, r) in [(-40.0, 0.0, 0.0), (25, -35, 10), (170, 60, -120), (0, 0, 45)] {
            let m = Transform(rotation: Quat(yaw: y, pitch: p, roll: r), scale: Vec3(2, 3, 0.5)).matrix
            let o = m.yawPitchRoll
            #expect(o.map { abs($0.x - y) < 1e-9 && abs($0.y - p) < 1e-9 && abs($0.z - r) < 1e-9 } == true, "\(y), \(p), \(r) → \(String(describing: o))")
        }
    }
}
