import Foundation
import Testing
@testable import SceneLoader
import SpatialModel
import Simulation
import Rules
import Reporting

/// An ornament of a volume keeps its place relative to the viewer as they walk round the volume
/// (HIG, Windows › visionOS: "the ornament remains in the same position, relative to the viewer's
/// perspective, as they move around the volume"); a window's ornament stays fixed to its window.
@Suite struct VolumeOrnamentTests {
    /// A 0.5 m volume at (0, 1.5, −2) facing +Z with a toolbar ornament at its bottom-front edge
    /// (0, −0.25, 0.25) holding a label 5 cm right of and 1 cm in front of its centre, and a window
    /// at (3, 1.5, −2) with an ornament 0.2 m below its centre, 2 cm in front. The viewer walks from
    /// (0, 1.5, 0) (2 m in front of the volume) at t = 0 to (2, 1.5, −2) (2 m to its +X side) at
    /// t = 1; the scene lasts 2 s at 90 Hz, so the last frame sees the end of the walk.
    static let walkRound = """
        format: spatialscene/1
        duration: 2
        viewer:
          path:
            - {t: 0, position: [0, 1.5, 0]}
            - {t: 1, position: [2, 1.5, -2], rotation: {yaw: 90}}
        entities:
          - id: vol
            kind: volume
            position: [0, 1.5, -2]
            size: [0.5, 0.5, 0.5]
            children:
              - id: bar
                kind: window
                position: [0, -0.25, 0.25]
                size: [200, 40]
                children:
                  - {id: label, kind: text, position: [0.05, 0, 0.01], height: 0.02, string: Hi}
          - id: win
            kind: window
            position: [3, 1.5, -2]
            size: [400, 300]
            children:
              - {id: tools, kind: window, position: [0, -0.2, 0.02], size: [200, 40]}
        """

    /// Per watched entity, its world centre and front at the given frames.
    private static func trace(_ scene: Scene, _ paths: [String], frames: Set<Int>) throws
        -> [Int: [String: (center: Vec3, front: Vec3, speed: Double)]] {
        let idx = try paths.map { p in try #require(scene.entities.firstIndex { $0.path == p }) }
        var out: [Int: [String: (center: Vec3, front: Vec3, speed: Double)]] = [:]
        Simulator(scene: scene).run { q in
            guard frames.contains(q.frame) else { return }
            var row: [String: (center: Vec3, front: Vec3, speed: Double)] = [:]
            for (p, e) in zip(paths, idx) { row[p] = (q.center[e], q.front[e], q.angularVelocity[e] + q.linearSpeed[e]) }
            out[q.frame] = row
        }
        return out
    }

    private static func close(_ a: Vec3?, _ b: Vec3, _ tol: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return length(a - b) < tol
    }

    @Test func volumeOrnamentFollowsTheViewerRoundTheVolume() throws {
        let scene = try LoaderFixture.load(Self.walkRound)
        let last = Simulator(scene: scene).frameCount - 1
        let t = try Self.trace(scene, ["vol", "vol/bar", "vol/bar/label", "win/tools"], frames: [0, 45, last])
        let start = try #require(t[0]), mid = try #require(t[45]), end = try #require(t[last])

        // Start: the eye is straight in front (+Z) of the volume: as written. Bar centre
        // (0, 1.5 − 0.25, −2 + 0.25) = (0, 1.25, −1.75), facing +Z; label (0.05, 1.25, −1.74).
        #expect(Self.close(start["vol/bar"]?.center, Vec3(0, 1.25, -1.75)))
        #expect(Self.close(start["vol/bar"]?.front, Vec3(0, 0, 1)))
        #expect(Self.close(start["vol/bar/label"]?.center, Vec3(0.05, 1.25, -1.74)))

        // t = 0.5 (frame 45): the eye at (1, 1.5, −1), 45° round: Ry(45°)·(0, −0.25, 0.25) =
        // (0.25 sin 45°, −0.25, 0.25 cos 45°) = (0.1767767, −0.25, 0.1767767) from the centre.
        let h = 0.25 * 0.5.squareRoot()
        #expect(Self.close(mid["vol/bar"]?.center, Vec3(h, 1.25, -2 + h)))
        #expect(Self.close(mid["vol/bar"]?.front, Vec3(0.5.squareRoot(), 0, 0.5.squareRoot())))

        // End: the eye at (2, 1.5, −2), on the volume's +X side: 90° round. Ry(90°) takes (x, y, z)
        // to (z, y, −x): the bar's offset (0, −0.25, 0.25) becomes (0.25, −0.25, 0), so its centre is
        // (0.25, 1.25, −2) on the +X face, facing +X; the label's offset (0.05, −0.25, 0.26)
        // becomes (0.26, −0.25, −0.05): (0.26, 1.25, −2.05).
        #expect(Self.close(end["vol/bar"]?.center, Vec3(0.25, 1.25, -2)))
        #expect(Self.close(end["vol/bar"]?.front, Vec3(1, 0, 0)))
        #expect(Self.close(end["vol/bar/label"]?.center, Vec3(0.26, 1.25, -2.05)))
        // The turn is the viewer's doing: the bar and its label do not count as moving (their
        // previous centres are turned with them), while they swing 90° round the volume in 1 s.
        #expect(abs(mid["vol/bar"]?.speed ?? 1) < 1e-6)
        #expect(abs(mid["vol/bar/label"]?.speed ?? 1) < 1e-6)
        // The volume itself does not turn.
        #expect(Self.close(end["vol"]?.center, Vec3(0, 1.5, -2)))
        #expect(Self.close(end["vol"]?.front, Vec3(0, 0, 1)))

        // The window's ornament under the same walk stays fixed to its window in every frame. The
        // window faces the first eye position (a top-level window turns towards the viewer at load):
        // its front is (0 − 3, 0, 0 − (−2)) / √13 = (−3, 0, 2) / √13, its right (2, 0, 3) / √13, so
        // the ornament's offset (0, −0.2, 0.02) is (−0.06, 0, 0.04) / √13 + (0, −0.2, 0) in world:
        // (3 − 0.06 / √13, 1.3, −2 + 0.04 / √13).
        let r13 = 13.0.squareRoot()
        for row in [start, mid, end] {
            #expect(Self.close(row["win/tools"]?.center, Vec3(3 - 0.06 / r13, 1.3, -2 + 0.04 / r13)))
            #expect(Self.close(row["win/tools"]?.front, Vec3(-3, 0, 2) / r13))
        }
    }

    @Test func volumeOrnamentTurnsOnceForAStillViewer() throws {
        // The viewer stands at (2, 1.5, −2), on the volume's +X side, and never moves: the bar is
        // turned 90° from the first frame, (0.25, 1.25, −2) facing +X, and cannot move after it
        // (no per-frame work). The window ornament is as written.
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            duration: 0.1
            viewer:
              path:
                - {t: 0, position: [2, 1.5, -2], rotation: {yaw: 90}}
            entities:
              - id: vol
                kind: volume
                position: [0, 1.5, -2]
                size: [0.5, 0.5, 0.5]
                children:
                  - {id: bar, kind: window, position: [0, -0.25, 0.25], size: [200, 40]}
            """)
        let bar = try #require(scene.entities.firstIndex { $0.path == "vol/bar" })
        var centers: [Vec3] = [], fronts: [Vec3] = [], canMove = true
        Simulator(scene: scene).run { q in
            centers.append(q.center[bar]); fronts.append(q.front[bar])
            canMove = q.canMove.isEmpty || q.canMove[bar]
        }
        #expect(!centers.isEmpty)
        for (c, f) in zip(centers, fronts) {
            #expect(Self.close(c, Vec3(0.25, 1.25, -2)))
            #expect(Self.close(f, Vec3(1, 0, 0)))
        }
        #expect(!canMove)
    }

    @Test func turningVolumeTakesItsOrnamentBackToTheViewer() throws {
        // The volume turns 90° about +Y (yaw key at t = 1: its +Z goes to world +X), the viewer
        // stays in front at (0, 1.5, 0). Fixed to the volume the bar would end at (0.25, 1.25, −2)
        // facing +X. The eye is then on the volume's local −X side (offset (0, 0, 2) in world is
        // (−2, 0, 0) in its frame): the ornament's yaw is −90°, Ry(−90°)·(0, −0.25, 0.25) =
        // (−0.25, −0.25, 0), which the volume's Ry(90°) takes to (0, −0.25, 0.25): the bar stays at
        // (0, 1.25, −1.75) facing +Z.
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            duration: 2
            viewer:
              path:
                - {t: 0, position: [0, 1.5, 0]}
            entities:
              - id: vol
                kind: volume
                position: [0, 1.5, -2]
                size: [0.5, 0.5, 0.5]
                animation:
                  keyframes:
                    - {t: 0, rotation: {yaw: 0}}
                    - {t: 1, rotation: {yaw: 90}}
                children:
                  - {id: bar, kind: window, position: [0, -0.25, 0.25], size: [200, 40]}
            """)
        let last = Simulator(scene: scene).frameCount - 1
        let t = try Self.trace(scene, ["vol", "vol/bar"], frames: [last])
        let end = try #require(t[last])
        // The volume's front has turned away from the viewer.
        #expect(!Self.close(end["vol"]?.front, Vec3(0, 0, 1), 1e-3))
        #expect(Self.close(end["vol/bar"]?.center, Vec3(0, 1.25, -1.75)))
        #expect(Self.close(end["vol/bar"]?.front, Vec3(0, 0, 1)))
    }
}
