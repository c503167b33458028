import Foundation
import Testing
@testable import SpatialCheck
@testable import Reporting
import SpatialModel
import Rules

/// The HTML report's pictures and page (issue 18): the plan's scale, the measured quantity on the
/// view, folded cards, the timeline's series, and the geometry saved in the JSON report.
@Suite struct HTMLPictureTests {
    /// A 4 m × 1 m volume from x −2…2, z −3…−2 and a viewer standing at the origin.
    static func plainSnapshot() -> SceneSnapshot {
        SceneSnapshot(viewerPath: [SIMD2(0, 0)], pathFrames: [0], boundaryOrigins: [],
                      footprints: [.init(path: "table", kind: "volume", minX: -2, maxX: 2, minZ: -3, maxZ: -2)],
                      fieldOfView: SIMD2(60, 40), views: [:])
    }

    @Test func planFitsItsContentWithARoundScaleBar() {
        // Content x −2…2 (4 m), z −3…0 (3 m); margin max(0.3, 0.08 · 4) = 0.32 m on each side:
        // 4.64 m × 3.64 m; 520 px for the larger side: 520 / 4.64 = 112.0690 px/m.
        let f = PlanFrame(snapshot: Self.plainSnapshot(), frames: 1)
        #expect(abs(f.minX - -2.32) < 1e-12 && abs(f.maxX - 2.32) < 1e-12)
        #expect(abs(f.minZ - -3.32) < 1e-12 && abs(f.maxZ - 0.32) < 1e-12)
        #expect(abs(f.scale - 520 / 4.64) < 1e-9)
        // A fifth of the width is 0.928 m: the bar is the round 0.5 m below it, 56.03 px long.
        #expect(f.scaleBar.metres == 0.5)
        #expect(abs(f.scaleBar.pixels - 56.0345) < 1e-4)
        let scene = SceneReport(path: "t.scene.yaml", status: .checked, frameRate: 90, frames: 1, duration: 0.01)
        let svg = planSVG(scene: scene, snapshot: Self.plainSnapshot())
        // The bar sits 12 px above the bottom of the 3.64 · 112.069 = 407.93 px tall plan, from
        // x = 12 to 12 + 56.03.
        #expect(svg.contains("M12 391.9V395.9H68.0V391.9"))
        #expect(svg.contains(">50 cm</text>"))
        #expect(svg.contains("aria-label=\"forward\"") && svg.contains("aria-label=\"scale bar\""))
        for legend in ["viewer start, path", "viewer at a worst frame", "1.5 m boundary", "1.2 m fade", "no finding"] {
            #expect(svg.contains(legend), "legend: \(legend)")
        }
        #expect(svg.contains(">table<title>table</title></text>"))  // the entity's label
    }

    @Test func niceLengthsAreOneTwoFive() {
        #expect(niceLength(0.928) == 0.5)
        #expect(niceLength(3.1) == 2)
        #expect(niceLength(7) == 5)
        #expect(niceLength(12) == 10)
        #expect(abs(niceLength(0.04) - 0.02) < 1e-15)
    }

    @Test func dimensionLineLabelsMeasuredAndNeeded() {
        func v(_ entities: [String], _ measured: Double, _ threshold: Double, _ unit: String) -> ReportViolation {
            ReportViolation(rule: "r", severity: .error, entities: entities, spans: [0...0], frameCount: 1, firstTime: 0,
                            lastTime: 0, measured: measured, threshold: threshold, unit: unit, worstFrame: 0,
                            message: "", help: "", fingerprint: "0000000000000000", location: nil)
        }
        func label(_ x: ReportViolation) -> String {
            ViewMeasure(group: foldViolations([x])[0], lead: x).label
        }
        #expect(label(v(["k/a", "k/b"], 44, 60, "pt")) == "44 pt ↔ 60 pt needed")
        #expect(label(v(["k/a"], 48, 60, "pt")) == "48 pt, 60 pt needed")
        #expect(label(v(["w"], 35.24, 30, "deg")) == "35.2° off-axis, limit 30°")
        #expect(label(v([], 2.4, 1.5, "m")) == "2.4 m, limit 1.5 m")
        // The view draws the pair's dimension line between the two centres and the label.
        let view = SceneSnapshot.View(frame: 0, time: 0, boxes: [
            .init(path: "k/a", minAz: -2, maxAz: 0, minEl: -1, maxEl: 1, distance: 1),
            .init(path: "k/b", minAz: 0.5, maxAz: 2.5, minEl: -1, maxEl: 1, distance: 1),
        ])
        let x = v(["k/a", "k/b"], 44, 60, "pt")
        let svg = viewSVG(view: view, highlight: ["k/a", "k/b"], fov: SIMD2(60, 40), severity: .error,
                          measure: ViewMeasure(group: foldViolations([x])[0], lead: x), center: SIMD2(0.25, 0), halfAz: 5)
        // A ±5° detail is a perspective around 0.25° (`ViewProjection`): x = 240 + 240 · tan(az − 0.25°)
        // / tan 5°, at elevation 0 (a box without an outline is drawn from its extents, its centre
        // the middle of what is drawn): k/a from −2.25° to −0.25°, x 240 + 2743.2 · (−0.039290
        // − 0.004363) / 2 = 180.12; k/b from 0.25° to 2.25°, 299.88; both at y = 150.
        #expect(svg.contains("M180.1 150.0L299.9 150.0"))
        #expect(svg.contains(">44 pt ↔ 60 pt needed</text>"))
        #expect(svg.contains(">k/a</text>") && svg.contains(">k/b</text>"))
    }

    /// s26 F15: a rule whose threshold is a maximum (`worse: .higher`) labels what is allowed, not
    /// what is "needed": target-no-overlap's `maxOverlap` names the quantity; orn-width (no
    /// threshold key) and an unknown rule above its threshold say "at most". Minimums are unchanged.
    @Test func aMaximumIsLabelledAsAllowed() {
        func v(_ rule: String, _ entities: [String], _ measured: Double, _ threshold: Double, _ unit: String) -> ReportViolation {
            ReportViolation(rule: rule, severity: .error, entities: entities, spans: [0...0], frameCount: 1, firstTime: 0,
                            lastTime: 0, measured: measured, threshold: threshold, unit: unit, worstFrame: 0,
                            message: "", help: "", fingerprint: "0000000000000000", location: nil)
        }
        func label(_ x: ReportViolation) -> String { ViewMeasure(group: foldViolations([x])[0], lead: x).label }
        #expect(label(v("target-no-overlap", ["form/pressure", "form/sheetName"], 14, 0, "pt")) == "overlap 14 pt, 0 pt allowed")
        #expect(label(v("target-no-overlap", ["form/a", "form/b"], 32.46, 0, "pt_eq")) == "overlap 32.5 pt_eq, 0 pt_eq allowed")
        #expect(label(v("orn-width", ["w/toolbar"], 1300, 1280, "pt")) == "1300 pt, at most 1280 pt allowed")
        #expect(label(v("r", ["k/a", "k/b"], 14, 0, "pt")) == "14 pt, at most 0 pt allowed")
        #expect(label(v("target-center-spacing", ["k/a", "k/b"], 22, 60, "pt")) == "22 pt ↔ 60 pt needed")
    }

    /// s26 F15: both entities of an overlapping pair are named in the view. The overview (±100°,
    /// 480 × 300 px, 2.4 px a degree) of the trial's sheet over its form: a slider at azimuth
    /// ±20.5°, elevation 3.25…5.33°, and the sheet's field over it at ±14.5°, 4.4…7.5°. The
    /// measurement's label sits between their centres, where the first places for the field's name
    /// (above, below, left and right of it) are taken; it goes a line further up.
    @Test func bothEntitiesOfAnOverlappingPairAreNamed() {
        let x = ReportViolation(rule: "target-no-overlap", severity: .error, entities: ["form/pressure", "form/sheetName"], spans: [0...0],
                                frameCount: 1, firstTime: 0, lastTime: 0, measured: 14, threshold: 0, unit: "pt", worstFrame: 0,
                                message: "", help: "", fingerprint: "0000000000000000", location: nil)
        let view = SceneSnapshot.View(frame: 0, time: 0, boxes: [
            .init(path: "form/pressure", minAz: -20.5, maxAz: 20.5, minEl: 3.25, maxEl: 5.33, distance: 1.5),
            .init(path: "form/sheetName", minAz: -14.5, maxAz: 14.5, minEl: 4.4, maxEl: 7.5, distance: 1.47),
        ])
        let svg = viewSVG(view: view, highlight: ["form/pressure", "form/sheetName"], fov: SIMD2(90, 70), severity: .error,
                          measure: ViewMeasure(group: foldViolations([x])[0], lead: x), center: SIMD2(0, 0), halfAz: 100)
        #expect(svg.contains(">overlap 14 pt, 0 pt allowed</text>"))
        #expect(svg.contains(">form/pressure</text>"))
        #expect(svg.contains(">form/sheetName</text>"))
    }

    /// calculator-keypad-tight: a 4 × 5 keypad whose 20 keys are 48 pt wide and 56 pt apart (centre
    /// to centre). Its 31 neighbour pairs (5 rows × 3 across + 4 columns × 4 down) and 20 keys fold
    /// into two cards, each with all its pairs or keys marked in one view.
    @Test func calculatorKeypadTightFoldsIntoTwoCards() throws {
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        let run = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes/calculator-keypad-tight.scene.yaml")], options: options)
        let html = SpatialCheck.render(run, format: .html)
        #expect(html.components(separatedBy: "<article class=\"vcard").count - 1 == 2)
        #expect(html.contains("<span class=\"fold\">× 31</span>"))
        #expect(html.contains("<span class=\"fold\">× 20</span>"))
        #expect(html.contains("31 pairs in calculator measure 56.0 pt, threshold 60.0 pt."))
        #expect(html.contains(">56 pt ↔ 60 pt needed</text>"))
        #expect(html.contains(">48 pt, 60 pt needed</text>"))
        #expect(html.contains("data-scene-index=\"0\" data-frame=\"0\" data-entities=\"calculator/add calculator/backspace"))
        #expect(html.contains("<div class=\"replay-slot\" data-scene-index=\"0\">"))
        #expect(html.contains("<header class=\"banner fail\""))
    }

    /// Outside trial (session 25, F11): a page that passes its gate with warnings said only a big
    /// green "Pass". It says how many findings are left to review, in the warning colour; a clean
    /// page does not, and a failing one keeps its "Fail". Counts are whole numbers without "count".
    @Test func aPassingPageWithWarningsSaysWhatIsLeftToReview() throws {
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        func page(_ scene: String) -> String {
            SpatialCheck.render(SpatialCheck.runValidation(paths: [TestPaths.repo(scene)], options: options), format: .html)
        }
        // hud-head-locked: a head-locked and a keepout warning (Scenes/README.md).
        let hud = page("Scenes/hud-head-locked.scene.yaml")
        #expect(hud.contains("<header class=\"banner pass review\""))
        #expect(hud.contains("<span class=\"review-note\">2 warnings to review</span>"))
        let clean = page("Scenes/hud-world-anchored.scene.yaml")
        #expect(clean.contains("<header class=\"banner pass\"") && !clean.contains("review-note\">"))
        let failing = page("Scenes/media-player.scene.yaml")
        #expect(failing.contains("<header class=\"banner fail\"") && !failing.contains("review-note\">"))
    }

    /// Outside trial (session 25, F11): a finding on content behind the viewer drew an empty view.
    /// The overview points to it: an arrow at the edge on its side, with its bearing.
    @Test func theViewPointsToContentBehindTheViewer() throws {
        let run = try Self.validateHTML("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: panel
                kind: window
                placement: {distance: 1.5, azimuth: 180, elevation: 0}
                size: [300, 200]
                elements: [{id: go, role: button, frame: [120, 70, 60, 60], label: Go}]
            """)
        let html = SpatialCheck.render(run, format: .html)
        #expect(html.contains(">panel/go: 180° behind the viewer</text>"))
        #expect(html.contains("<title>panel/go: 180° behind the viewer</title>"))
    }

    /// immersive-walk-boundary: full immersion from t = 2 s (frame 180 at 90 Hz); the viewer walks
    /// from z = 0 to −2.4 m between t = 4 and 10 s and stands there until 14 s.
    @Test func timelineSeriesFollowsTheHeadFromTheBoundaryOrigin() throws {
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        let run = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes/immersive-walk-boundary.scene.yaml")], options: options)
        let snap = try #require(run.snapshots.values.first)
        let s = try #require(snap.series.first { $0.quantity == "boundary" })
        #expect(s.values.count <= SceneSnapshot.maxSeriesPoints + 1 + SceneSnapshot.maxViews)
        #expect(s.frames.first == 180)          // no boundary before immersion
        #expect(abs((s.values.max() ?? 0) - 2.4) < 1e-9)
        #expect(abs((s.values.first ?? 1)) < 1e-9)
        let immersion = try #require(snap.events.first { $0.kind == "immersion" })
        #expect(immersion.frame == 180 && immersion.detail.hasPrefix("full"))
        let html = SpatialCheck.render(run, format: .html)
        #expect(html.contains("head distance from the boundary origin (m)"))
        #expect(html.contains("boundary 1.5 m") && html.contains("fade 1.2 m"))
        #expect(html.contains("<title>frame 180, t = 2.00 s: 0.00 m</title>"))
        #expect(html.contains(">2.4 m, limit 1.5 m<title>"))  // the distance drawn on the plan
    }

    /// `validate --format html` of a scene written to a temporary file.
    static func validateHTML(_ scene: String) throws -> SpatialCheck.Validation {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("html-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene.yaml").path
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        return SpatialCheck.runValidation(paths: [path], options: options)
    }

    /// A banner that slides in from 50° to the right: 0.9 m sideways and 0.5 m nearer in 0.3 s
    /// (3.4 m/s), so motion-too-fast reports both its angular speed (deg/s, over 60) and its
    /// looming (m/s, over 2). The angular-speed chart draws only the thresholds in deg/s.
    @Test func aChartDrawsOnlyThresholdsInItsOwnUnit() throws {
        let run = try Self.validateHTML("""
            format: spatialscene/1
            duration: 4
            entities:
              - id: banner
                kind: window
                size: [500, 100]
                placement: {distance: 1.5, azimuth: 50, elevation: 5}
                elements:
                  - {id: text, role: text, frame: [20, 30, 460, 40], fontSize: 17, label: New message}
                animation:
                  keyframes:
                    - {t: 3, position: [2.0, 1.7, -0.5]}
                    - {t: 3.3, position: [1.1, 1.7, -1.0]}
            """)
        let fast = run.report.scenes.first?.violations.filter { $0.rule == "motion-too-fast" && $0.entities == ["banner"] } ?? []
        #expect(Set(fast.map(\.unit)) == ["deg/s", "m/s"], "\(fast.map { ($0.unit, $0.threshold) })")
        let html = SpatialCheck.render(run, format: .html)
        #expect(html.contains("angular speed of banner (deg/s)"))
        #expect(html.contains("motion-too-fast 60.0 deg/s</text>"))
        // The looming limit (2 m/s) is not drawn as "2.00 deg/s".
        #expect(!html.contains("motion-too-fast 2.00 deg/s"))
    }

    /// A still scene is one frame (1/90 s): the timeline's ticks every 0.001 s are labelled with
    /// three decimals (they read "0.0" twelve times).
    @Test func aOneFrameTimelineHasDistinctTicks() throws {
        let run = try Self.validateHTML("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 2}
                size: [1280, 720]
                elements:
                  - {id: a, role: button, frame: [100, 100, 44, 44], label: A}
                  - {id: b, role: button, frame: [150, 100, 44, 44], label: B}
            """)
        #expect(run.report.scenes.first?.frames == 1)
        let html = SpatialCheck.render(run, format: .html)
        let ticks = (0...11).map { String(format: ">%.3f</text>", Double($0) / 1000) }
        #expect(ticks.allSatisfy { html.contains($0) }, "\(ticks.filter { !html.contains($0) })")
        #expect(!html.contains(">0.0</text>"))
    }

    @Test func withGeometryRoundTripsAndIsOffByDefault() throws {
        let path = TestPaths.repo("Scenes/immersive-walk-boundary.scene.yaml")
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        let plain = SpatialCheck.render(SpatialCheck.runValidation(paths: [path], options: options), format: .json)
        #expect(!plain.contains("\"geometry\""))
        let golden = try String(contentsOfFile: TestPaths.repo("Scenes/golden/immersive-walk-boundary.json"), encoding: .utf8)
        #expect(!golden.contains("\"geometry\""))
        options.withGeometry = true
        let run = SpatialCheck.runValidation(paths: [path], options: options)
        let json = SpatialCheck.render(run, format: .json)
        #expect(json.contains("\"geometry\""))
        let back = try Report.parse(Data(json.utf8), path: "r.json")
        let g = try #require(back.scenes.first?.geometry)
        let direct = try #require(run.snapshots.values.first)
        #expect(g.viewerPath.count == direct.viewerPath.count && g.footprints.count == direct.footprints.count)
        #expect(g.views.keys.sorted() == direct.views.keys.sorted())
        #expect(g.series.count == direct.series.count && g.events.count == direct.events.count)
        // Written again, the read-back geometry gives the same bytes (numbers are stored rounded).
        #expect(g.json().serialized() == direct.json().serialized())
        // And the page from the saved report draws the same pictures.
        let saved = back.html(snapshots: [:])
        let live = run.report.html(snapshots: run.snapshots)
        #expect(saved.components(separatedBy: "<svg").count == live.components(separatedBy: "<svg").count)
        #expect(saved.contains("aria-label=\"top-down plan\"") && saved.contains("head distance from the boundary origin"))
    }

    /// reports.md: a saved `--with-geometry` report "draws the same pictures". The whole page, byte
    /// for byte, on scenes with a walked path and boundary (the plan's distances), folded cards,
    /// and an iOS scene (its "Platform: iOS." line comes from the saved report's `platform`).
    @Test(arguments: ["immersive-walk-boundary", "calculator-keypad-tight", "ios-ar-furniture", "fox-walks-past-ui"])
    func pageFromASavedReportIsTheSamePage(_ name: String) throws {
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.withGeometry = true
        let run = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes/\(name).scene.yaml")], options: options)
        let json = SpatialCheck.render(run, format: .json)
        let back = try Report.parse(Data(json.utf8), path: "r.json")
        let live = run.report.html(snapshots: run.snapshots)
        #expect(back.html(snapshots: [:]) == live)
        let platform = name.hasPrefix("ios-") ? "iOS" : "visionOS"
        #expect(json.contains("\"platform\": \"\(platform)\""))
        #expect(live.contains(" Platform: \(platform).</p>"))
    }

    @Test func geometryFromAHostileReportIsBounded() throws {
        let many = (0..<5000).map { "{\"frame\": \($0), \"boxes\": []}" }.joined(separator: ",")
        let text = "{\"viewerPath\": [[1, 2], [\"x\", 3], [1e300, 0]], \"views\": [\(many)], \"fieldOfView\": [60]}"
        let any = try JSONSerialization.jsonObject(with: Data(text.utf8))
        let g = try #require(SceneSnapshot(json: any))
        #expect(g.viewerPath.count == 1)
        #expect(g.views.count == SceneSnapshot.maxViews)
        #expect(g.fieldOfView == SIMD2(60, 40))
    }
}
