import Foundation
import Testing
@testable import SpatialCheck
@testable import Reporting
import SceneLoader
import Simulation
import SpatialModel

/// The top-down plan draws moving content where it moves (finding F16 of the session-26 trial):
/// its path, its box where it is first shown, and its box at the worst frame of a finding about it.
@Suite struct HTMLPlanMotionTests {
    /// A 0.4 m cube keyframed from x = −2 to x = 2 (z = −2) over 4 s, beside a cube that stays.
    static let slidingBox = """
        format: spatialscene/1
        duration: 4
        viewer:
          path:
            - {t: 0, position: [0, 1.6, 0]}
        entities:
          - id: box
            kind: volume
            position: [-2, 1, -2]
            size: [0.4, 0.4, 0.4]
            animation:
              trigger: system
              keyframes:
                - {t: 0, position: [-2, 1, -2]}
                - {t: 4, position: [2, 1, -2]}
          - {id: still, kind: volume, position: [1, 1, -3], size: [0.4, 0.4, 0.4]}
        """

    static func square(_ cx: Double, _ cz: Double, _ r: Double = 0.2) -> [SIMD2<Double>] {
        [SIMD2(cx - r, cz - r), SIMD2(cx + r, cz - r), SIMD2(cx + r, cz + r), SIMD2(cx - r, cz + r)]
    }

    static func near(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    @Test func movingBoxTrackIsAtItsMidpointAtHalfTime() throws {
        let scene = try SceneLoader.load(text: Self.slidingBox, path: "slide.scene.yaml", baseDirectory: NSTemporaryDirectory())
        // Frame 180 is t = 2 s at 90 Hz: linear keys put the box's centre at x = 0.
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [180],
                                                marked: [180: [PathKey("box")]], worst: [180: [PathKey("box")]])
        #expect(snap.tracks.map(\.path) == ["box"])  // the cube that stays has no track
        let track = try #require(snap.tracks.first)
        #expect(track.frames.count == track.points.count)
        let mid = try #require(track.frames.firstIndex(of: 180))
        #expect(Self.near(track.points[mid], SIMD2(0, -2)))
        let first = try #require(track.points.first), last = try #require(track.points.last)
        #expect(track.frames.first == 0 && Self.near(first, SIMD2(-2, -2)))
        // 4 s at 90 Hz is frames 0…359: the last is at t = 359 / 90 s, x = −2 + 4 · 359 / 360.
        #expect(track.frames.last == 359 && Self.near(last, SIMD2(-2 + 4 * 359 / 360, -2)))
        // Its box from above where it is first shown (frame 0) and at its finding's worst frame.
        #expect(track.poses.map(\.frame) == [0, 180])
        let start = try #require(track.poses.first), atMid = try #require(track.poses.last)
        #expect(start.outline.count == 4 && Self.square(-2, -2).allSatisfy { c in start.outline.contains { Self.near($0, c) } })
        #expect(atMid.outline.count == 4 && Self.square(0, -2).allSatisfy { c in atMid.outline.contains { Self.near($0, c) } })
    }

    @Test func staticSceneHasNoTracksAndNoMotionLegend() throws {
        let scene = try SceneLoader.load(text: """
            format: spatialscene/1
            duration: 1
            entities:
              - {id: still, kind: volume, position: [1, 1, -3], size: [0.4, 0.4, 0.4]}
              - {id: panel, kind: window, placement: {distance: 1.5}, size: [480, 240]}
            """, path: "static.scene.yaml", baseDirectory: NSTemporaryDirectory())
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [0])
        #expect(snap.tracks.isEmpty)
        let svg = planSVG(scene: SceneReport(path: "static.scene.yaml", status: .checked, frameRate: 90, frames: 91, duration: 1),
                          snapshot: snap)
        #expect(!svg.contains("moving content"))
        #expect(!svg.contains("at its start"))
        // Nor does its saved geometry name tracks.
        #expect(!snap.json().serialized(pretty: false).contains("\"tracks\""))
    }

    /// The plan of a hand-made snapshot: the sliding box's track and its poses at frames 0 and 180,
    /// a warning about it at frame 180. The plan's extent (`PlanFrame`) by hand: the viewer at
    /// (0, 0), the track's points x −2…2 at z = −2, the poses x −2.2…0.2, z −2.2…−1.8 (the rest
    /// footprint of a moving entity does not count): x −2.2…2, z −2.2…0, so dx = 4.2, dz = 2.2,
    /// centre (−0.1, −1.1), margin max(0.3, 0.08 · 4.2) = 0.336; minX = minZ = −2.536,
    /// maxX = 2.336, maxZ = 0.336; scale min(520 / 4.872, 520 / 2.872) = 106.7323 px/m.
    /// px(x) = (x + 2.536) · 106.7323, pz(z) = (z + 2.536) · 106.7323.
    static func handMadePlan(path: String = "box", rule: String = "motion-peripheral") -> String {
        var snap = SceneSnapshot(viewerPath: [SIMD2(0, 0)], pathFrames: [0], boundaryOrigins: [],
                                 footprints: [.init(path: path, kind: "volume", minX: -2.2, maxX: -1.8, minZ: -2.2, maxZ: -1.8,
                                                    outline: square(-2, -2))],
                                 fieldOfView: SIMD2(60, 40), views: [:])
        snap.tracks = [.init(path: path, frames: [0, 180, 360], points: [SIMD2(-2, -2), SIMD2(0, -2), SIMD2(2, -2)],
                             poses: [.init(frame: 0, outline: square(-2, -2)), .init(frame: 180, outline: square(0, -2))])]
        let v = ReportViolation(rule: rule, severity: .warning, entities: [path], spans: [100...200], frameCount: 101,
                                firstTime: 1.1, lastTime: 2.2, measured: 11, threshold: 5, unit: "deg/s", worstFrame: 180,
                                message: "", help: "", fingerprint: "0000000000000000", location: nil)
        return planSVG(scene: SceneReport(path: "slide.scene.yaml", status: .checked, frameRate: 90, frames: 361, duration: 4,
                                          violations: [v]), snapshot: snap)
    }

    @Test func planDrawsTheMovingBoxAtItsWorstFrameAndItsPath() {
        let svg = Self.handMadePlan()
        // At frame 180 the box spans x −0.2…0.2, z −2.2…−1.8: px 249.3…292.0, pz 35.9…78.6,
        // solid in the warning's colour.
        #expect(svg.contains("<polygon points=\"249.3,35.9 292.0,35.9 292.0,78.6 249.3,78.6\" fill=\"#d17a00\" fill-opacity=\"0.35\""))
        #expect(svg.contains("box at frame 180 (t = 2 s), worst frame of motion-peripheral"))
        // Its path through (−2, −2), (0, −2), (2, −2): pz(−2) = 57.2; px 57.2, 270.7, 484.1; a dot at its end.
        #expect(svg.contains("<polyline points=\"57.2,57.2 270.7,57.2 484.1,57.2\" fill=\"none\" stroke=\"#d17a00\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\""))
        #expect(svg.contains("<circle cx=\"484.1\" cy=\"57.2\" r=\"3\""))
        // Where it is first shown, faint: x −2.2…−1.8 → px 35.9…78.6, not its rest footprint drawn solid.
        #expect(svg.contains("<polygon points=\"35.9,35.9 78.6,35.9 78.6,78.6 35.9,78.6\" fill=\"#d17a00\" fill-opacity=\"0.08\""))
        #expect(!svg.contains("fill-opacity=\"0.22\""))
        // The legend explains each new marker, in a third row (the plan is 54 + 22 px taller).
        #expect(svg.contains("moving content's path, end") && svg.contains(">at its start<") && svg.contains(">at a finding's worst frame<"))
        #expect(svg.contains("viewBox=\"0 0 520.0 382.5\""))  // 520 × (2.872 · 106.7323 = 306.54) + 76
    }

    @Test func movingEntityPathIsEscapedInThePlan() {
        let svg = Self.handMadePlan(path: "a<b&\"c", rule: "motion<x>")
        #expect(!svg.contains("a<b"))
        #expect(svg.contains("path of a&lt;b&amp;&quot;c") || svg.contains("path of a&lt;b&amp;&#34;c"))
        #expect(svg.contains("worst frame of motion&lt;x&gt;"))
    }

    @Test func tracksSurviveTheSavedGeometryAndAreCappedWhenRead() throws {
        let scene = try SceneLoader.load(text: Self.slidingBox, path: "slide.scene.yaml", baseDirectory: NSTemporaryDirectory())
        // The finding about the box is worst at frame 180 (no view there: its card is folded into
        // another's), one about an element of it at frame 90, one about the still cube at 200.
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [],
                                                worst: [90: [PathKey("box/label")], 180: [PathKey("box")], 200: [PathKey("still")]])
        #expect(snap.tracks.first?.poses.map(\.frame) == [0, 90, 180])
        let back = snap.quantized()
        #expect(back.tracks.map(\.path) == ["box"])
        #expect(back.tracks.first?.frames == snap.tracks.first?.frames)
        #expect(back.tracks.first?.poses.map(\.frame) == [0, 90, 180])
        #expect(back.tracks.first?.poses.last?.outline.count == 4)
        // A hostile saved report: 100 tracks of 5,000 points are read as 12 of at most 800.
        let many: [[String: Any]] = (0..<100).map { k in
            ["path": "e\(k)", "frames": Array(0..<5000), "points": (0..<5000).map { [Double($0) / 1000, -1.0] }, "poses": []]
        }
        let read = try #require(SceneSnapshot(json: ["viewerPath": [], "footprints": [], "tracks": many] as [String: Any]))
        #expect(read.tracks.count == SceneSnapshot.maxTracks)
        #expect(read.tracks.allSatisfy { $0.points.count == 2 * SceneSnapshot.maxSeriesPoints })
    }

    @Test func manyMovingEntitiesAreBoundedToMaxTracks() throws {
        // 30 boxes, each keyframed 1 m to the right over 10 s (900 frames).
        var yaml = "format: spatialscene/1\nduration: 10\nentities:\n"
        for k in 0..<30 {
            yaml += """
              - id: b\(k)
                kind: volume
                position: [\(k), 1, -2]
                size: [0.2, 0.2, 0.2]
                animation:
                  trigger: system
                  keyframes: [{t: 0, position: [\(k), 1, -2]}, {t: 10, position: [\(k + 1), 1, -2]}]

            """
        }
        let scene = try SceneLoader.load(text: yaml, path: "many.scene.yaml", baseDirectory: NSTemporaryDirectory())
        // b29 is named by a finding: it comes first.
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [450],
                                                marked: [450: [PathKey("b29")]], worst: [450: [PathKey("b29")]])
        #expect(snap.tracks.count == SceneSnapshot.maxTracks)
        #expect(snap.tracks.map(\.path) == ["b29"] + (0..<11).map { "b\($0)" })
        // Points: at most the path's ~400 samples, plus the first frame shown and the view's frame.
        #expect(snap.tracks.allSatisfy { $0.points.count <= SceneSnapshot.maxSeriesPoints + 2 && $0.poses.count <= 2 })
    }
}
