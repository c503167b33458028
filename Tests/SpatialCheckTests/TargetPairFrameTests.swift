import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SceneLoader
import Simulation
import SpatialModel

/// The target-pair rules measure each pair in its own frame (its midpoint direction, world right
/// and up across it), so their verdicts depend on where the eye is and on the content, never on
/// where the head points: a pair behind the viewer is measured as one in front, a pair overhead
/// or below like any other, horizontal gaps away from the horizon are true angles (not azimuth
/// differences, which grow by 1 / cos(elevation)), and turning the head changes nothing.
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct TargetPairFrameTests {
    static let pa = Units.defaultPointAngle

    /// Two 60 pt windows side by side at 2 m, each with a 44 pt button at its centre (the session
    /// 15 trial's seam scene, `h9`), at `z` (−2: ahead, +2: behind) or `y` above or below the eye.
    static func twoButtons(_ position: (Double) -> String, rotation: String = "", path: String = "") -> String {
        """
        format: spatialscene/1
        duration: 1
        viewer: {posture: standing\(path)}
        entities:
          - {id: left, kind: window, position: \(position(-0.06)), size: [60, 60]\(rotation), elements: [{id: b, role: button, frame: [8, 8, 44, 44]}]}
          - {id: right, kind: window, position: \(position(0.06)), size: [60, 60]\(rotation), elements: [{id: b, role: button, frame: [8, 8, 44, 44]}]}
        """
    }

    static func spacing(_ vs: [ReportViolation]) -> [ReportViolation] { vs.filter { $0.rule == "target-center-spacing" } }

    /// The buttons' centres are 0.12 m apart, 2 m from the eye, symmetric about the line of sight:
    /// 2·atan(0.06 / 2) = 3.43672° apart, 51.2178 pt_eq at 0.0671°/pt.
    static let seamSeparation = 2 * degrees(atan(0.06 / 2)) / Units.defaultPointAngle

    @Test func aPairBehindTheViewerIsMeasuredAsInFront() throws {
        #expect(abs(Self.seamSeparation - 51.2178) < 0.0001)
        let front = Self.spacing(try RuleScenes.check(Self.twoButtons { "[\($0), 1.6, -2.0]" }))
        let behind = Self.spacing(try RuleScenes.check(Self.twoButtons { "[\($0), 1.6, 2.0]" }))
        #expect(front.map(\.entities) == [["left/b", "right/b"]])
        #expect(behind.map(\.entities) == [["left/b", "right/b"]])
        for v in front + behind {
            #expect(v.unit == "pt_eq")
            #expect(abs(v.measured - Self.seamSeparation) < 0.005)
        }
        #expect(front.map(\.measured) == behind.map(\.measured))
    }

    @Test func pairsStraightAboveAndBelowTheEyeAreCompared() throws {
        // The windows lie flat 2 m above the eye facing down (pitch 90: front +Z turned to −Y),
        // and 2 m below it facing up: the buttons' centres are 0.12 m apart across the vertical
        // through the eye, as in the seam scene, 51.22 pt_eq.
        let above = Self.spacing(try RuleScenes.check(Self.twoButtons({ "[\($0), 3.6, 0]" }, rotation: ", rotation: {pitch: 90}")))
        let below = Self.spacing(try RuleScenes.check(Self.twoButtons({ "[\($0), -0.4, 0]" }, rotation: ", rotation: {pitch: -90}")))
        #expect(above.map(\.entities) == [["left/b", "right/b"]])
        #expect(below.map(\.entities) == [["left/b", "right/b"]])
        for v in above + below { #expect(abs(v.measured - Self.seamSeparation) < 0.005) }
    }

    /// Two 5 cm interactive cubes 1 m from the eye, 40° below the horizon, at bearings ±2.4°
    /// (facing the viewer: each turned about +Y so one face is square to the horizontal direction
    /// of the eye). On a table, as it were.
    static func table(path: String = "") -> String {
        """
        format: spatialscene/1
        duration: 1
        viewer: {posture: standing\(path)}
        entities:
          - {id: a, kind: volume, placement: {distance: 1, azimuth: -2.4, elevation: -40}, size: [0.05, 0.05, 0.05], interactive: true}
          - {id: b, kind: volume, placement: {distance: 1, azimuth: 2.4, elevation: -40}, size: [0.05, 0.05, 0.05], interactive: true}
        """
    }

    @Test func aPairBelowTheHorizonIsMeasuredInTrueAngles() throws {
        // Directions (cos e sin a, sin e, −cos e cos a) for e = −40°, a = ±2.4°: they meet at
        // cos θ = cos²e cos 2a + sin²e, θ = 2·asin(cos e · sin a) = 3.67657° (an azimuth difference
        // of 4.8° read as a horizontal angle would be 1 / cos 40° = 1.31 times too wide).
        let e = radians(-40.0), a = radians(2.4)
        let theta = 2 * degrees(asin(cos(e) * sin(a)))
        #expect(abs(theta - 3.67657) < 0.00001)
        // Each cube's right axis (turned to face the eye) is world right across its own line of
        // sight; its other two axes lean ±40° along that line, so its nearest corners are
        // 1 − 0.025 · (sin 40° + cos 40°) from the eye along it, and it spans
        // 2·atan(0.025 / that) across. Both lie on the great circle through the pair's midpoint
        // direction and world right: the gap is θ less the two half-widths.
        let near = 1 - 0.025 * (sin(radians(40.0)) + cos(radians(40.0)))
        let half = degrees(atan(0.025 / near))
        let gap = (theta - 2 * half) / Self.pa
        let separation = theta / Self.pa
        #expect(abs(gap - 10.5493) < 0.0001)
        let vs = Self.spacing(try RuleScenes.check(Self.table()))
        #expect(vs.map(\.entities) == [["a", "b"]])
        #expect(abs((vs.first?.measured ?? 0) - separation) < 0.005)
        // The message gives the edge gap: 10.55 pt_eq (from the azimuth difference, 4.8°, it would be
        // 27.29 pt_eq, above 16: no error).
        #expect(vs.first?.message.contains("only \(fmt(gap)) pt_eq separate their edges") == true, "\(vs.first?.message ?? "")")
    }

    /// The pair rules' violations as text (every field but the fingerprint, which hashes the scene
    /// and so its viewer path), for comparing runs. (Not the hit-region rules: an entity's own
    /// pt_eq is measured around the head's up, so its worst frame may move by rounding when the
    /// head turns.)
    static func targetViolations(_ yaml: String) throws -> String {
        let pairRules: Set = ["target-center-spacing", "target-no-overlap", "target-large-hover-padding"]
        return try RuleScenes.check(yaml).filter { pairRules.contains($0.rule) }.map { v in
            var v = v
            v.fingerprint = ""
            return String(describing: v)
        }.joined(separator: "\n")
    }

    @Test func turningTheHeadChangesNoPairVerdict() throws {
        // The same content and eye, with a still head, a head turning 170° to the left, one
        // pitching down 60° and one rolling 30°, and a look-around head: the same target findings
        // (values, spans and all).
        let behind: (String) -> String = { path in Self.twoButtons({ "[\($0), 1.6, 2.0]" }, path: path) }
        for scene in [Self.table, behind] as [(String) -> String] {
            let still = try Self.targetViolations(scene(""))
            #expect(!still.isEmpty)
            for path in [", path: [{t: 0, rotation: {yaw: 0}}, {t: 1, rotation: {yaw: 170}}]",
                         ", path: [{t: 0, rotation: {pitch: 0}}, {t: 1, rotation: {pitch: -60}}]",
                         ", path: [{t: 0, rotation: {roll: 0}}, {t: 1, rotation: {roll: 30}}]",
                         ", motion: look-around"] {
                #expect(try Self.targetViolations(scene(path)) == still, "\(path)")
            }
        }
    }

    @Test func aLookAroundViewerReusesThePairsOfStillContent() throws {
        // The eye stays where it is; only the head turns: every frame after the first repeats the
        // first frame's findings, which evaluating every frame gives too.
        let scene = try TargetPairIncrementalTests.load(yaml: Self.table(path: ", motion: look-around").replacingOccurrences(of: "duration: 1", with: "duration: 4"))
        let on = TargetPairIncrementalTests.run(scene, incremental: true)
        let off = TargetPairIncrementalTests.run(scene, incremental: false)
        #expect(on.violations == off.violations)
        #expect(!on.violations.isEmpty)
        #expect(on.reused == on.frames - 1)
        #expect(off.reused == 0)
    }

    @Test func theSphereGridWrapsAtTheSeamAndVisitsEachPairOnce() {
        // 360 columns of 1°. Boxes ±1° wide at azimuths 179.5° and −179.5° share the columns
        // across ±180° (179 and 0 … wrapped); one 1° east of 0° shares nothing with them; a box
        // around a pole spans every column (720 cells: not large).
        let w = SphereCells.columns(cell: 1)
        #expect(w == 360)
        let boxes: [(az: Double, half: Double, el: Double)] = [(179.5, 1, 0), (-179.5, 1, 0), (1.5, 0.2, 0), (0, .infinity, 0), (90, 1, 30)]
        let cells = boxes.map { SphereCells.of(az: $0.az, halfAz: $0.half, el0: $0.el - 0.5, el1: $0.el + 0.5, columns: w) }
        #expect(SphereCells.common(cells[0]!, cells[1]!, columns: w).shared)
        #expect(!SphereCells.common(cells[0]!, cells[2]!, columns: w).shared)
        #expect(cells[3]?.len == 360)
        var grid = PairGrid()
        var visited: [[Int]] = []
        grid.searchSphere(count: cells.count, cells: cells, columns: w) { i, j in visited.append([i, j]); return true }
        // Each sharing pair once: the seam pair, and the polar box with the three at its elevation.
        #expect(visited.sorted { $0.lexicographicallyPrecedes($1) } == [[0, 1], [0, 3], [1, 3], [2, 3]])
    }
}
