import Foundation
import Testing
import SpatialModel
import Rules
@testable import Reporting
@testable import SpatialCheck
import SceneLoader
import Simulation

/// The HTML report of an iOS scene (session 28, trial s27 F10): the viewer's view is the device's
/// screen (its size in points, the camera's rectilinear view filling it, content outside it left
/// out), and the banner's point angle is the one the report's scenes share, else their range.
/// Every expected number is derived by hand from tan(angle) / tan(fov / 2).
@Suite struct HTMLScreenViewTests {
    /// An iPhone 15 in portrait: 393 × 852 pt. The camera's horizontal field of view is chosen so
    /// that tan(h / 2) = 0.3 (33.40°): a direction t tangent units right of the line of sight is
    /// t / 0.3 half-widths right of the screen's centre.
    static let screen = SceneSnapshot.Screen(size: SIMD2(393, 852), model: "iPhone 15", orientation: "portrait")
    static let hfov = 2 * atan(0.3) * 180 / .pi
    static let vfov = 2 * atan(0.3 * 852 / 393) * 180 / .pi
    /// The picture: the screen fitted into 480 × 480, so 480 / 852 px per point: 221.408 × 480 px;
    /// its half-width 110.704 px is tan(h / 2) = 0.3, so k = 369.014 px per unit of tangent.
    static let w = 393.0 * 480 / 852, h = 480.0
    static let k = (393.0 * 480 / 852 / 2) / 0.3

    /// A flat rectangle x0…x1, y0…y1 (m) at distance d straight ahead in the head frame (the
    /// camera's frame on iOS), as the capture records it.
    static func flat(_ path: String, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double, _ d: Double) -> SceneSnapshot.ViewBox {
        HTMLViewProjectionTests.flat(path, x0, x1, y0, y1, d)
    }

    static func view() -> SceneSnapshot.View {
        .init(frame: 0, time: 0, boxes: [
            // Head-anchored UI centred on the screen: tangents ±0.05.
            flat("ui/center", -0.1, 0.1, -0.1, 0.1, 2),
            // World content up and right: tangents 0.1…0.15 across, 0.05…0.1 up.
            flat("sofa", 0.2, 0.3, 0.1, 0.2, 2),
            // Outside the camera's view (tangent 0.75…0.85 > 0.3): left out.
            flat("lamp", 1.5, 1.7, -0.1, 0.1, 2),
            // Across the right edge (tangent 0.25…0.4): clipped at the screen's edge.
            flat("table", 0.5, 0.8, -0.1, 0.1, 2),
        ])
    }

    static func svg(highlight: Set<PathKey> = ["ui/center"], crop: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil) -> String {
        viewSVG(view: view(), highlight: highlight, fov: SIMD2(hfov, vfov), severity: .warning,
                screen: ScreenPicture(screen: screen, horizontalFieldOfView: hfov, crop: crop))
    }

    static func near(_ a: Double, _ b: Double, _ tolerance: Double = 0.1) -> Bool { abs(a - b) <= tolerance }

    @Test func screenPictureIsTheScreenInPoints() throws {
        #expect(Self.near(Self.w, 221.408, 1e-3) && Self.near(Self.k, 369.014, 1e-3))
        let svg = Self.svg()
        // The picture is the screen's size (and a 36 px footer), labelled in screen terms.
        #expect(svg.contains("width=\"221.4\" height=\"516.0\" viewBox=\"0 0 221.4 516.0\""))
        #expect(svg.contains(">iPhone 15 screen, 393×852 pt, portrait</text>"))
        #expect(svg.contains("aria-label=\"screen at frame 0\""))
        // No headset panorama: no comfort field of view, no azimuth/elevation footer.
        #expect(!svg.contains("comfortable field of view") && !svg.contains("azimuth"))
    }

    @Test func headAnchoredUIAtTheScreensCentreIsAtThePicturesCentre() throws {
        let shapes = HTMLViewProjectionTests.shapes(Self.svg())
        let ui = try #require(shapes["ui/center"])
        // Corners at the centre (110.704, 240) ± k · 0.05 = ± 18.451 px.
        let xs = ui.map(\.x), ys = ui.map(\.y)
        #expect(Self.near(xs.min() ?? 0, 110.704 - 18.451) && Self.near(xs.max() ?? 0, 110.704 + 18.451), "\(ui)")
        #expect(Self.near(ys.min() ?? 0, 240 - 18.451) && Self.near(ys.max() ?? 0, 240 + 18.451), "\(ui)")
        #expect(Self.near(((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, Self.w / 2) && Self.near(((ys.min() ?? 0) + (ys.max() ?? 0)) / 2, 240))
    }

    @Test func worldContentLandsWhereTheTangentSays() throws {
        let shapes = HTMLViewProjectionTests.shapes(Self.svg())
        let sofa = try #require(shapes["sofa"])
        // x = 110.704 + k · 0.1 = 147.605 … 110.704 + k · 0.15 = 166.056;
        // y = 240 − k · 0.1 = 203.099 … 240 − k · 0.05 = 221.549.
        let xs = sofa.map(\.x), ys = sofa.map(\.y)
        #expect(Self.near(xs.min() ?? 0, 147.605) && Self.near(xs.max() ?? 0, 166.056), "\(sofa)")
        #expect(Self.near(ys.min() ?? 0, 203.099) && Self.near(ys.max() ?? 0, 221.549), "\(sofa)")
    }

    @Test func contentOutsideTheCameraViewIsLeftOutOrClipped() throws {
        let shapes = HTMLViewProjectionTests.shapes(Self.svg())
        #expect(shapes["lamp"] == nil)
        let table = try #require(shapes["table"])
        // From 110.704 + k · 0.25 = 202.957 to the screen's right edge (221.4), not k · 0.4 beyond it.
        let xs = table.map(\.x)
        #expect(Self.near(xs.min() ?? 0, 202.957) && Self.near(xs.max() ?? 0, 221.4), "\(table)")
    }

    /// A marked entity off the screen: an arrow at the edge it leaves by, saying where it is.
    @Test func markedContentOffTheScreenGetsAnArrow() {
        let svg = Self.svg(highlight: ["lamp"])
        // The lamp's centre: azimuth atan(1.6 / 2) = 38.66°, elevation 0: out across, to the right.
        #expect(svg.contains("<title>lamp: off the screen, 39° right, 0° up</title>"))
        #expect(svg.contains("<path d=\"M217.4 240.0L203.4 231.0L203.4 249.0Z\""))
    }

    /// The detail is a crop of the screen: `detailCrop` around 65.5 pt of UI at the screen's centre
    /// (k · 0.05 = 655 pt per unit of tangent × 0.05 = 32.75 pt each side of (196.5, 426)) is
    /// 1.6 × 1.5 × 65.5 = 157.2 pt wide and 98.25 pt high around it; drawn 480 px wide, 3.053 px
    /// per point, the UI is 200 px square around the picture's centre (240, 150).
    @Test func detailIsACropOfTheScreen() throws {
        let marked = (x0: 196.5 - 32.75, y0: 426 - 32.75, x1: 196.5 + 32.75, y1: 426 + 32.75)
        let crop = try #require(ScreenPicture.detailCrop(screen: Self.screen.size, marked: marked))
        #expect(Self.near(crop.x0, 117.9, 1e-9) && Self.near(crop.x1, 275.1, 1e-9))
        #expect(Self.near(crop.y0, 376.875, 1e-9) && Self.near(crop.y1, 475.125, 1e-9))
        let svg = Self.svg(crop: crop)
        #expect(svg.contains("width=\"480.0\" height=\"336.0\""))
        #expect(svg.contains(">detail: x 118…275 pt, y 377…475 pt of the screen</text>"))
        let ui = try #require(HTMLViewProjectionTests.shapes(svg)["ui/center"])
        #expect(Self.near(ui.map(\.x).min() ?? 0, 140) && Self.near(ui.map(\.x).max() ?? 0, 340), "\(ui)")
        #expect(Self.near(ui.map(\.y).min() ?? 0, 50) && Self.near(ui.map(\.y).max() ?? 0, 250), "\(ui)")
        // A 20 pt button in the top-right corner: a 64 × 40 pt crop moved onto the screen.
        let corner = try #require(ScreenPicture.detailCrop(screen: Self.screen.size, marked: (370, 10, 390, 30)))
        #expect(corner.x0 == 329 && corner.x1 == 393 && corner.y0 == 0 && corner.y1 == 40)
        // Content half the screen wide: no detail.
        #expect(ScreenPicture.detailCrop(screen: Self.screen.size, marked: (50, 100, 300, 200)) == nil)
    }

    static func violation(_ entities: [String]) -> ReportViolation {
        ReportViolation(rule: "target-min-size", severity: .warning, entities: entities, spans: [0...0], frameCount: 1, firstTime: 0,
                        lastTime: 0, measured: 30, threshold: 44, unit: "pt", worstFrame: 0, message: "30 pt", help: "",
                        fingerprint: "0123456789abcdef", location: nil)
    }

    static func snapshot(screen: SceneSnapshot.Screen?) -> SceneSnapshot {
        var s = SceneSnapshot(viewerPath: [SIMD2(0, 0)], pathFrames: [0], boundaryOrigins: [], footprints: [],
                              fieldOfView: SIMD2(hfov, vfov), views: [0: view()])
        s.screen = screen
        return s
    }

    /// The card of an iOS scene draws the screen (captioned in screen terms); a visionOS scene's
    /// card still draws the panorama.
    @Test func cardOfAnIOSSceneDrawsTheScreen() {
        func page(_ screen: SceneSnapshot.Screen?) -> String {
            let scene = SceneReport(path: "s.scene.yaml", status: .checked, platform: screen == nil ? nil : "iOS", violations: [Self.violation(["sofa"])])
            return Report(toolVersion: "t", pointAngle: Units.defaultPointAngle, failOn: .error, scenes: [scene])
                .html(snapshots: ["s.scene.yaml": Self.snapshot(screen: screen)])
        }
        let ios = page(Self.screen)
        #expect(ios.contains("<figcaption>The iPhone 15 screen (393×852 pt, portrait) at frame 0 (t = 0.00 s): the camera's 33.4°×66.1° view.</figcaption>"))
        #expect(ios.contains("aria-label=\"screen at frame 0\""))
        #expect(!ios.contains("azimuth −100°") && !ios.contains("azimuth -100°"))
        let vision = page(nil)
        #expect(vision.contains("The viewer's view at frame 0") && !vision.contains("aria-label=\"screen at frame 0\""))
    }

    /// A hostile model name (from a saved report) is escaped wherever the page prints it.
    @Test func modelNameIsEscaped() {
        let hostile = SceneSnapshot.Screen(size: SIMD2(393, 852), model: "<script>alert(1)</script>", orientation: "portrait")
        let scene = SceneReport(path: "s.scene.yaml", status: .checked, platform: "iOS", violations: [Self.violation(["sofa"])])
        var snap = Self.snapshot(screen: hostile)
        snap.screen = hostile
        let page = Report(toolVersion: "t", pointAngle: Units.defaultPointAngle, failOn: .error, scenes: [scene])
            .html(snapshots: ["s.scene.yaml": snap])
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("The &lt;script&gt;alert(1)&lt;/script&gt; screen (393×852 pt, portrait)"))
        #expect(page.contains(">&lt;script&gt;alert(1)&lt;/script&gt; screen, 393×852 pt, portrait</text>"))
    }

    /// The capture records the device's screen with its orientation applied (landscape: 852 × 393
    /// pt); the phone held level, a head-anchored window of the screen's size at [0, 0, −2] fills
    /// the picture (its 852 pt span the camera's whole horizontal view: scene format, "Device
    /// (iOS)"). A visionOS scene has no screen.
    @Test func captureRecordsTheScreenAndScreenUIFillsIt() throws {
        let text = """
            format: spatialscene/1
            platform: iOS
            device: {model: iPhone 15, orientation: landscape}
            duration: 1
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
            entities:
              - id: screen
                kind: window
                anchor: head
                facing: none
                position: [0, 0, -2]
                size: [852, 393]
                elements:
                  - {id: close, role: button, frame: [16, 16, 44, 44], label: Close}
            """
        let scene = try SceneLoader.load(text: text, path: "ios.scene.yaml", baseDirectory: NSTemporaryDirectory())
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [0], marked: [0: [PathKey("screen")]])
        let screen = try #require(snap.screen)
        #expect(screen == SceneSnapshot.Screen(size: SIMD2(852, 393), model: "iPhone 15", orientation: "landscape"))
        let view = try #require(snap.views[0])
        let svg = viewSVG(view: view, highlight: ["screen"], fov: snap.fieldOfView, severity: .warning,
                          screen: ScreenPicture(screen: screen, horizontalFieldOfView: snap.fieldOfView.x, crop: nil))
        // Landscape: 852 × 393 pt fitted into 480 × 480: 480 × 221.4 px.
        #expect(svg.contains("width=\"480.0\" height=\"257.4\""))
        #expect(svg.contains(">iPhone 15 screen, 852×393 pt, landscape</text>"))
        let window = try #require(HTMLViewProjectionTests.shapes(svg)["screen"])
        let xs = window.map(\.x), ys = window.map(\.y)
        #expect(Self.near(xs.min() ?? -1, 0, 0.2) && Self.near(xs.max() ?? 0, 480, 0.2), "\(window)")
        #expect(Self.near(ys.min() ?? -1, 0, 0.2) && Self.near(ys.max() ?? 0, 221.4, 0.2), "\(window)")
        // The Close button: 16…60 pt of 852 across, 16…60 pt of 393 down: x 9.0…33.8 px, y 9.0…33.8 px.
        let close = try #require(HTMLViewProjectionTests.shapes(svg)["screen/close"])
        #expect(Self.near(close.map(\.x).min() ?? 0, 16 * 480 / 852, 0.2) && Self.near(close.map(\.x).max() ?? 0, 60 * 480 / 852, 0.2), "\(close)")
        #expect(Self.near(close.map(\.y).min() ?? 0, 16 * 480 / 852, 0.2) && Self.near(close.map(\.y).max() ?? 0, 60 * 480 / 852, 0.2), "\(close)")

        let vision = try SceneLoader.load(text: text.replacingOccurrences(of: "platform: iOS\n", with: "")
                                            .replacingOccurrences(of: "device: {model: iPhone 15, orientation: landscape}\n", with: ""),
                                          path: "v.scene.yaml", baseDirectory: NSTemporaryDirectory())
        #expect(SpatialCheck.captureSnapshot(scene: vision, options: SimulationOptions(), frames: [0]).screen == nil)
    }

    /// `geometry.screen` is written only for a scene that has one, read back, and a bad one is
    /// left out (old reports, without it, read as before).
    @Test func screenRoundTripsThroughTheJSONGeometry() throws {
        let json = Self.snapshot(screen: Self.screen).json().serialized(pretty: false)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let written = try #require(object["screen"] as? [String: Any])
        #expect(written["size"] as? [Double] == [393, 852] && written["model"] as? String == "iPhone 15"
                && written["orientation"] as? String == "portrait" && written.count == 3)
        #expect(SceneSnapshot(json: object)?.screen == Self.screen)
        #expect(!Self.snapshot(screen: nil).json().serialized(pretty: false).contains("\"screen\""))
        let bad: [[String: Any]] = [["size": [393, 852], "orientation": "sideways"], ["size": [-1, 852], "orientation": "portrait"],
                                    ["size": [393], "orientation": "portrait"], ["size": [393, 852]],
                                    ["size": [393, 852], "orientation": "portrait", "model": String(repeating: "x", count: 101)]]
        for b in bad {
            object["screen"] = b
            #expect(SceneSnapshot(json: object)?.screen == nil, "\(b)")
        }
        object["screen"] = ["size": [393, 852], "orientation": "portrait"]
        #expect(SceneSnapshot(json: object)?.screen?.label == "Screen, 393×852 pt, portrait")
        object["screen"] = nil
        #expect(SceneSnapshot(json: object)?.screen == nil)
    }

    /// The banner's point angle: the scenes' shared value (two iOS scenes at 0.0895°/pt, though
    /// the run's default is 0.0671°/pt), else their range.
    @Test func bannerStatesTheScenesPointAngle() {
        func scene(_ path: String, _ angle: Double?) -> SceneReport {
            var s = SceneReport(path: path, status: .checked, platform: "iOS")
            s.pointAngle = angle
            return s
        }
        let two = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error,
                         scenes: [scene("a.scene.yaml", 0.0895), scene("b.scene.yaml", 0.0895)]).banner()
        #expect(two.contains("<dt>pointAngle</dt><dd>0.0895°/pt</dd>"))
        let mixed = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error,
                           scenes: [scene("a.scene.yaml", 0.0895), scene("v.scene.yaml", nil)]).banner()
        #expect(mixed.contains("<dt>pointAngle</dt><dd>per scene (0.0671–0.0895°/pt)</dd>"))
        let vision = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: [scene("v.scene.yaml", nil)]).banner()
        #expect(vision.contains("<dt>pointAngle</dt><dd>0.0671°/pt</dd>"))
    }
}
