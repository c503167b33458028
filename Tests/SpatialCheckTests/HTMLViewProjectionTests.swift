import Foundation
import Testing
@testable import SpatialCheck
@testable import Reporting
import SpatialModel
import Rules

/// The viewer's-view pictures keep rows as rows and content inside its window (session 24, trial
/// F5; hig-rules §A4: a flat window's straight edge is a curve in azimuth/elevation, highest
/// straight ahead). Every expected number below is derived by hand from the geometry (atan, tan);
/// on the code before (each box drawn as its azimuth/elevation extents) the URL field is drawn
/// above the window and the buttons' tops step down.
@Suite struct HTMLViewProjectionTests {
    // A 1280 × 720 pt window 1.5 m straight ahead at eye height, 1 mm per point: 1.28 m × 0.72 m,
    // x −0.64…0.64, y −0.36…0.36, z = −1.5.
    static let W = 0.64, H = 0.36, D = 1.5
    // An ornament 3 cm in front of it (z = −1.47), below it and off to the right: x 0.1…0.6,
    // y −0.48…−0.40; five 6 cm buttons in a row at y −0.47…−0.41, from x = 0.13, 9.5 cm apart.
    static let oD = 1.47, oTop = -0.40, oBottom = -0.48
    static let bTop = -0.41, bBottom = -0.47
    static func buttonX(_ i: Int) -> Double { 0.13 + 0.095 * Double(i) }

    static func deg(_ r: Double) -> Double { r * 180 / .pi }
    /// Azimuth, elevation (degrees) of the point (x, y, −d).
    static func azEl(_ x: Double, _ y: Double, _ d: Double) -> SIMD2<Double> {
        SIMD2(deg(atan2(x, d)), deg(atan2(y, (x * x + d * d).squareRoot())))
    }
    /// A flat rectangle x0…x1, y0…y1 at distance d facing the eye, as the capture records it: its
    /// extents over the four corners, and its outline (the four corners, in order).
    static func flat(_ path: String, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double, _ d: Double) -> SceneSnapshot.ViewBox {
        let corners = [azEl(x0, y1, d), azEl(x1, y1, d), azEl(x1, y0, d), azEl(x0, y0, d)]
        return .init(path: path, minAz: corners.map(\.x).min() ?? 0, maxAz: corners.map(\.x).max() ?? 0,
                     minEl: corners.map(\.y).min() ?? 0, maxEl: corners.map(\.y).max() ?? 0,
                     distance: (d * d + ((x0 + x1) / 2) * ((x0 + x1) / 2)).squareRoot(), outline: corners)
    }
    static func view() -> SceneSnapshot.View {
        var boxes = [flat("browser", -W, W, -H, H, D),
                     // A URL field along the window's top edge: x −0.3…0.3, y 0.32…0.36.
                     flat("browser/url", -0.3, 0.3, H - 0.04, H, D),
                     flat("browser/toolbar", 0.1, 0.6, oBottom, oTop, oD)]
        for i in 0..<5 { boxes.append(flat("browser/toolbar/b\(i)", buttonX(i), buttonX(i) + 0.06, bBottom, bTop, oD)) }
        return .init(frame: 0, time: 0, boxes: boxes)
    }

    /// Each box's drawn shape (a polygon's points or a rectangle's corners), by its tooltip's path.
    static func shapes(_ svg: String) -> [String: [SIMD2<Double>]] {
        var out: [String: [SIMD2<Double>]] = [:]
        for line in svg.split(separator: "\n").map(String.init) {
            guard let t = line.range(of: "<title>"), let at = line.range(of: " at ", range: t.upperBound..<line.endIndex) else { continue }
            let path = String(line[t.upperBound..<at.lowerBound])
            func attr(_ name: String) -> String? {
                guard let r = line.range(of: " \(name)=\"") else { return nil }
                let rest = line[r.upperBound...]
                return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
            }
            if line.hasPrefix("<polygon"), let p = attr("points") {
                out[path] = p.split(separator: " ").compactMap { pair in
                    let xy = pair.split(separator: ",").compactMap { Double($0) }
                    return xy.count == 2 ? SIMD2(xy[0], xy[1]) : nil
                }
            } else if line.hasPrefix("<rect"), let x = attr("x").flatMap(Double.init), let y = attr("y").flatMap(Double.init),
                      let w = attr("width").flatMap(Double.init), let h = attr("height").flatMap(Double.init) {
                out[path] = [SIMD2(x, y), SIMD2(x + w, y), SIMD2(x + w, y + h), SIMD2(x, y + h)]
            }
        }
        return out
    }

    /// `p` inside `polygon` (even-odd), or within `tolerance` px of one of its sides.
    static func inside(_ p: SIMD2<Double>, _ polygon: [SIMD2<Double>], tolerance: Double = 0.5) -> Bool {
        var odd = false
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { odd.toggle() }
            let ab = b - a, l2 = (ab * ab).sum()
            let t = l2 > 0 ? min(max(((p - a) * ab).sum() / l2, 0), 1) : 0
            let q = a + ab * t
            if ((p - q) * (p - q)).sum() <= tolerance * tolerance { return true }
        }
        return odd
    }

    static func svg(center: SIMD2<Double> = .zero, halfAz: Double = 100) -> String {
        viewSVG(view: view(), highlight: ["browser/url"], fov: SIMD2(60, 40), severity: .warning, center: center, halfAz: halfAz)
    }

    /// The detail (±30° around straight ahead) is a perspective: k = 240 / tan 30° = 415.692 px per
    /// unit of tangent around (240, 150). The window is the rectangle x = 240 ± k · 0.64 / 1.5
    /// = 240 ± 177.362, y = 150 ± k · 0.36 / 1.5 = 150 ± 99.766; the URL field's top is the
    /// window's top (50.23); each button's top is 150 + k · 0.41 / 1.47 = 265.941, all five.
    @Test func perspectiveDetailKeepsTheRowAndTheWindowsContent() throws {
        let shapes = Self.shapes(Self.svg(halfAz: 30))
        let window = try #require(shapes["browser"]), url = try #require(shapes["browser/url"])
        let toolbar = try #require(shapes["browser/toolbar"])
        let k = 240 / tan(30 * Double.pi / 180)
        #expect(abs(k - 415.692) < 1e-3)
        let top = 150 - k * Self.H / Self.D, left = 240 - k * Self.W / Self.D
        #expect(abs(top - 50.234) < 1e-3 && abs(left - 62.638) < 1e-3)
        for corner in [SIMD2(left, top), SIMD2(480 - left, top), SIMD2(480 - left, 300 - top), SIMD2(left, 300 - top)] {
            #expect(window.contains { abs($0.x - corner.x) <= 0.1 && abs($0.y - corner.y) <= 0.1 }, "window corner \(corner): \(window)")
        }
        for p in url { #expect(Self.inside(p, window), "URL field point \(p) outside the window \(window)") }
        #expect(abs((url.map(\.y).min() ?? 0) - top) <= 0.5)
        let buttonTop = 150 + k * 0.41 / 1.47
        #expect(abs(buttonTop - 265.941) < 1e-3)
        for i in 0..<5 {
            let b = try #require(shapes["browser/toolbar/b\(i)"])
            #expect(abs((b.map(\.y).min() ?? 0) - buttonTop) <= 0.5, "b\(i) top \(b.map(\.y).min() ?? 0)")
            for p in b { #expect(Self.inside(p, toolbar), "b\(i) point \(p) outside the toolbar \(toolbar)") }
        }
    }

    /// The overview (±100° × ±62.5°, 2.4 px per degree) stays azimuth/elevation, but draws each box's
    /// outline with its edges as the curves they are there: the window's top edge is highest
    /// straight ahead, atan(0.36 / 1.5) = 13.496° (y = 150 − 13.496 · 2.4 = 117.61), against
    /// atan(0.36 / √(1.5² + 0.64²)) = 12.448° (y = 120.12) at its corners; the URL field's top,
    /// atan(0.36 / √(1.5² + 0.3²)) = 13.243° at its ends, lies under that curve.
    @Test func overviewKeepsTheWindowsContentInsideIt() throws {
        let shapes = Self.shapes(Self.svg())
        let window = try #require(shapes["browser"]), url = try #require(shapes["browser/url"])
        let toolbar = try #require(shapes["browser/toolbar"])
        let middleTop = 150 - Self.deg(atan(0.36 / 1.5)) * 2.4, cornerTop = 150 - Self.deg(atan(0.36 / (1.5 * 1.5 + 0.64 * 0.64).squareRoot())) * 2.4
        #expect(abs(middleTop - 117.610) < 1e-3 && abs(cornerTop - 120.124) < 1e-3)
        // The window's outline reaches the middle of its top edge, not only its corners' height.
        #expect(abs((window.map(\.y).min() ?? 0) - middleTop) <= 0.5)
        for p in url { #expect(Self.inside(p, window), "URL field point \(p) outside the window") }
        for i in 0..<5 {
            let b = try #require(shapes["browser/toolbar/b\(i)"])
            for p in b { #expect(Self.inside(p, toolbar), "b\(i) point \(p) outside the toolbar") }
        }
    }

    /// A box's silhouette from the eye: a 1 m cube x, y −0.5…0.5, z −2…−3 straight ahead shows its
    /// front face (the back face is inside it): corners at azimuth ±atan(0.5 / 2) = ±14.036°,
    /// elevation ±atan(0.5 / √(2² + 0.5²)) = ±13.633°.
    @Test func outlineOfABoxIsItsSilhouette() {
        var corners: [SIMD3<Double>] = []
        for x in [-0.5, 0.5] { for y in [-0.5, 0.5] { for z in [-2.0, -3.0] { corners.append(SIMD3(x, y, z)) } } }
        let outline = SceneSnapshot.outline(of: corners)
        #expect(outline.count == 4)
        for p in outline { #expect(abs(abs(p.x) - 14.036) < 1e-3 && abs(abs(p.y) - 13.633) < 1e-3, "\(p)") }
        #expect(Set(outline.map { [$0.x > 0, $0.y > 0] }).count == 4)
        // Not drawn from an outline: the eye inside the box, or a box behind.
        #expect(SceneSnapshot.outline(of: corners.map { $0 + SIMD3(0, 0, 2.5) }).isEmpty)
        #expect(SceneSnapshot.outline(of: corners.map { SIMD3($0.x, $0.y, -$0.z) }).count == 4)  // behind: still a silhouette
    }

    /// A window placed at azimuth 30° faces the eye (`facing: viewer` turns it about +Y): a point
    /// x across and y up its plane, 1.5 m away, is at azimuth 30° + atan(x / 1.5) and elevation
    /// atan(y / √(1.5² + x²)). The detail around (35°, −8°) is drawn by a level camera turned to
    /// the window's azimuth (30°) and shifted: a point is at x = 240 + k (x / 1.5 − tan 5°),
    /// y = 150 − k (y / 1.5 − tan(−8°) / cos 5°), k = 240 / tan 25° · min(cos² 5°, cos² 8° · cos 5°)
    /// (the shifted centre's magnification). The row of five buttons (y −0.25…−0.2) shares its top
    /// line, and each button's sides are upright.
    @Test func detailOfATurnedWindowKeepsItsRowLevel() throws {
        func azEl(_ x: Double, _ y: Double) -> SIMD2<Double> {
            SIMD2(30 + Self.deg(atan(x / 1.5)), Self.deg(atan(y / (1.5 * 1.5 + x * x).squareRoot())))
        }
        func box(_ path: String, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> SceneSnapshot.ViewBox {
            let c = [azEl(x0, y1), azEl(x1, y1), azEl(x1, y0), azEl(x0, y0)]
            return .init(path: path, minAz: c.map(\.x).min() ?? 0, maxAz: c.map(\.x).max() ?? 0, minEl: c.map(\.y).min() ?? 0,
                         maxEl: c.map(\.y).max() ?? 0, distance: 1.5, outline: c)
        }
        var boxes = [box("w", -0.5, 0.5, -0.3, 0.3)]
        for i in 0..<5 { boxes.append(box("w/b\(i)", -0.3 + 0.15 * Double(i), -0.22 + 0.15 * Double(i), -0.25, -0.2)) }
        let svg = viewSVG(view: .init(frame: 0, time: 0, boxes: boxes), highlight: Set(paths: (0..<5).map { "w/b\($0)" }),
                          fov: SIMD2(60, 40), severity: .warning, center: SIMD2(35, -8), halfAz: 25)
        let shapes = Self.shapes(svg)
        let r = Double.pi / 180
        let k = 240 / tan(25 * r) * min(cos(5 * r) * cos(5 * r), cos(8 * r) * cos(8 * r) * cos(5 * r))
        let top = 150 - k * (-0.2 / 1.5 - tan(-8 * r) / cos(5 * r))
        #expect(abs(top - 146.106) < 0.001, "\(top)")
        for i in 0..<5 {
            let b = try #require(shapes["w/b\(i)"])
            #expect(abs((b.map(\.y).min() ?? 0) - top) <= 0.5, "b\(i) top \(b.map(\.y).min() ?? 0) vs \(top)")
            let left = 240 + k * ((-0.3 + 0.15 * Double(i)) / 1.5 - tan(5 * r))
            // Upright sides: both left corners at the same x.
            #expect(b.filter { abs($0.x - left) <= 0.5 }.count >= 2, "b\(i) left \(left): \(b)")
        }
    }

    /// `outlines` in the saved geometry: written only when a box has one, read back alike, and a
    /// report without them (saved before) still reads, its boxes drawn from their extents.
    @Test func outlinesRoundTripThroughTheSavedGeometry() throws {
        var snap = SceneSnapshot(viewerPath: [SIMD2(0, 0)], pathFrames: [0], boundaryOrigins: [], footprints: [],
                                 fieldOfView: SIMD2(60, 40), views: [0: Self.view()])
        let text = snap.json().serialized(pretty: false)
        #expect(text.contains("\"outlines\""))
        let back = try #require(SceneSnapshot(json: try JSONSerialization.jsonObject(with: Data(text.utf8))))
        let boxes = try #require(back.views[0]?.boxes)
        #expect(boxes.count == 8 && boxes.allSatisfy { $0.outline.count == 4 })
        #expect(abs((boxes.first?.outline.first?.x ?? 0) - -Self.deg(atan(0.64 / 1.5))) < 1e-4)
        #expect(back.json().serialized(pretty: false) == text)
        // Without outlines: no key, and a report without the key reads with empty outlines.
        snap.views[0]?.boxes = Self.view().boxes.map { var b = $0; b.outline = []; return b }
        let old = snap.json().serialized(pretty: false)
        #expect(!old.contains("outlines"))
        let oldBack = try #require(SceneSnapshot(json: try JSONSerialization.jsonObject(with: Data(old.utf8))))
        #expect(oldBack.views[0]?.boxes.count == 8 && oldBack.views[0]?.boxes.allSatisfy { $0.outline.isEmpty } == true)
        // A bad outline (a string for a number, too few points) leaves that box without one, not out.
        let hostile = "{\"views\": [{\"frame\": 0, \"boxes\": [[\"a\", 0, 1, 0, 1, 1], [\"b\", 0, 1, 0, 1, 1]], \"outlines\": [[[0, 0], [\"x\", 1], [1, 1]], [[0, 0], [1, 1]]]}]}"
        let h = try #require(SceneSnapshot(json: try JSONSerialization.jsonObject(with: Data(hostile.utf8))))
        #expect(h.views[0]?.boxes.map(\.outline.count) == [0, 0])
    }

    /// The capture records each kept box's outline: a 1280 × 720 pt window 1.5 m straight ahead at
    /// eye height (tan(0.0671°) · 1.5 m per point by default: half-sizes w = 640 and h = 360 points
    /// in metres) is outlined by its four corners, at azimuth ±atan(w / 1.5) and elevation
    /// ±atan(h / √(1.5² + w²)) (to 0.05°: the window's thickness).
    @Test func captureRecordsOutlines() throws {
        let run = try HTMLPictureTests.validateHTML("""
            format: spatialscene/1
            entities:
              - id: browser
                kind: window
                placement: {distance: 1.5}
                size: [1280, 720]
                elements:
                  - {id: url, role: textField, frame: [340, 0, 600, 28], label: Address}
                  - {id: go, role: button, frame: [1250, 0, 30, 20], label: Go}
            """)
        let snap = try #require(run.snapshots.values.first)
        let view = try #require(snap.views.values.first)
        let window = try #require(view.boxes.first { $0.path == "browser" })
        #expect(window.outline.count == 4)
        // Metres per point at 1.5 m: tan(0.0671°) · 1.5; half-sizes 640 and 360 points.
        let m = tan(0.0671 * Double.pi / 180) * 1.5, hw = 640 * m, hh = 360 * m
        let topCorner = Self.deg(atan(hh / (1.5 * 1.5 + hw * hw).squareRoot()))
        #expect(window.outline.allSatisfy { abs(abs($0.y) - topCorner) < 0.05 }, "\(window.outline) vs ±\(topCorner)")
        #expect(window.outline.allSatisfy { abs(abs($0.x) - Self.deg(atan(hw / 1.5))) < 0.05 })
    }
}
