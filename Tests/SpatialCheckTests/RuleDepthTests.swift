import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Tests of the depth-* rules: flat text, layer count, window content extent.
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct RuleDepthTests {
    @Test func textFloatingInFrontOfItsWindowIsNotFlat() throws {
        // A text entity placed 3 cm in front of its window's plane (the window faces the viewer).
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: panel
                kind: window
                position: [0, 1.6, -2]
                size: [800, 500]
                children:
                  - {id: title, kind: text, position: [0, 0.2, 0.03], height: 0.05, string: Title}
            """)
        let v = vs.filter { $0.rule == "depth-text-flat" }
        #expect(v.map(\.entities) == [["panel/title"]])
        #expect(abs((v.first?.measured ?? 0) - 0.03) < 1e-9)
    }

    @Test func contentOnATurnedWindowIsAsShallowAsOnAStraightOne() throws {
        // The window is 2 m away at azimuth 45°, turned to face the viewer; a flat label 4 cm in
        // front of it (within the 5 cm extent) must not be reported: its world-aligned box would
        // be about 0.4 m deep.
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: panel
                kind: window
                placement: {distance: 2, azimuth: 45, elevation: 0}
                size: [800, 500]
                children:
                  - {id: card, kind: window, position: [0, 0, 0.04], size: [400, 200]}
            """)
        #expect(vs.filter { $0.rule == "depth-window-content-extent" }.isEmpty)
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

    @Test func textFloatingOffItsWindow() {
        var fx = RuleFixture(duration: 1.0 / 90)
        let w = fx.window()
        fx.add("title", .element, parent: w) { e in
            e.container = w; e.role = .text; e.fontSize = 17; e.depthPt = 10; e.metresPerPoint = 0.00234
        }
        let v = fx.run().1.rule("depth-text-flat")
        #expect(abs((v.first?.measured ?? 0) - 0.0234) < 1e-9)   // 10 pt × 2.34 mm
    }

    /// A window straight ahead at `distance` for `duration` s, with `elements` (flow-style maps).
    private static func panel(distance: Double, duration: Double, anchor: String = "", _ elements: [String] = []) -> String {
        """
        format: spatialscene/1
        immersion: mixed
        duration: \(duration)
        entities:
          - id: sheet
            kind: window
            \(anchor.isEmpty ? "placement: {distance: \(distance), azimuth: 0, elevation: 0}" : "anchor: \(anchor)")
            size: [500, 400]
            elements: [\(elements.joined(separator: ", "))]
        """
    }

    @Test func aStillEndingIsNamedInsteadOfATimeTheSceneDoesNotShow() throws {
        // 0.9 m for 1 s: reported only because the scene ends still (static end).
        let short = try RuleScenes.check(Self.panel(distance: 0.9, duration: 1)).filter { $0.rule == "depth-min-reading-distance" }
        #expect(short.count == 1 && abs((short.first?.measured ?? 0) - 0.9) < 1e-9)
        #expect(short.first?.message == "sheet is read from 0.9 m until the scene ends, and a still ending counts as lasting (more than 10 s); place it at least 1 m away, or hide it with an event when it is no longer needed")
        // 12 s: the run itself outlasts the dwell.
        let long = try RuleScenes.check(Self.panel(distance: 0.9, duration: 12)).filter { $0.rule == "depth-min-reading-distance" }
        #expect(long.first?.message == "sheet is read from 0.9 m for more than 10 s; place it at least 1 m away")
    }

    /// A caption on a model viewer's volume for 12 s (session-23 trial F11), at (0, 1.7, −0.6) from
    /// the eye at (0, 1.6, 0): 0.608 m. A label of 20 characters or fewer is read at a glance and not
    /// counted; 21 characters are reading content, counted in characters, not words.
    @Test func aShortLabelOutsideAWindowIsReadAtAGlance() throws {
        func reported(_ text: String, config: String? = nil) throws -> [ReportViolation] {
            let scene = """
                format: spatialscene/1
                duration: 12
                entities:
                  - id: box
                    kind: volume
                    position: [0, 1.6, -0.8]
                    size: [0.4, 0.3, 0.3]
                    children:
                      - {id: caption, kind: text, position: [0, 0.1, 0.2], height: 0.02, string: '\(text)'}
                """
            return try RuleScenes.check(scene, config: config).filter { $0.rule == "depth-min-reading-distance" }
        }
        #expect(try reported("Red fox").isEmpty)
        #expect(try reported(String(repeating: "x", count: 20)).isEmpty)
        #expect(try reported("红狐狸").isEmpty)
        let long = try reported(String(repeating: "x", count: 21))
        #expect(long.map(\.entities) == [["box/caption"]])
        #expect(abs((long.first?.measured ?? 0) - (0.1 * 0.1 + 0.6 * 0.6).squareRoot()) < 1e-9)
        #expect(try reported(String(repeating: "狐", count: 21)).map(\.entities) == [["box/caption"]])   // characters, not words
        #expect(try reported("Red fox", config: "rules:\n  depth-min-reading-distance: {glanceLength: 0}\n").map(\.entities) == [["box/caption"]])
    }

    @Test func touchPanelsAndHandHeldContentAreNotReadingContent() throws {
        // A keypad taken by direct touch, 0.6 m away for 12 s: within reach by design, not judged
        // for reading distance; the same keypad without `interaction: direct` is.
        let key = "{id: k5, role: button, frame: [220, 170, 60, 60], label: '5'"
        let touch = try RuleScenes.check(Self.panel(distance: 0.6, duration: 12, [key + ", interaction: direct}"]))
        #expect(touch.filter { $0.rule == "depth-min-reading-distance" }.isEmpty)
        let pointed = try RuleScenes.check(Self.panel(distance: 0.6, duration: 12, [key + "}"]))
        #expect(pointed.filter { $0.rule == "depth-min-reading-distance" }.map(\.entities) == [["sheet"]])
        // On the hand: depth-near-brief-only says it (held on the hand), reading distance does not.
        let held = try RuleScenes.check(Self.panel(distance: 0, duration: 12, anchor: "hand", [key + "}"]))
        #expect(held.filter { $0.rule == "depth-min-reading-distance" }.isEmpty)
        #expect(held.filter { $0.rule == "depth-near-brief-only" }.first?.message.contains("held on the hand") == true)
        #expect(held.filter { $0.rule == "fov-no-head-turn" }.isEmpty)
    }

    /// Session-16 trial E (depth/rd-tilted-window): a 1280 × 720 pt window 1.2 m ahead turned 60°
    /// (yaw: its left edge comes toward the viewer). Its points are 1.2 · tan(0.0671°) = 1.40534 mm;
    /// the text element's centre (frame [0, 100, 400, 400]: (200, 300) pt against the window's
    /// (640, 360)) is −440 pt across and 60 pt up: −0.61835 m along the window's x axis, which a
    /// yaw of 60° turns to (−0.61835 · cos 60°, ·, 0.61835 · sin 60°) = (−0.30918, ·, +0.53551), and
    /// 0.084320 m up. From the eye (0, 1.6, 0): (−0.30918, 0.08432, −1.2 + 0.53551), 0.73773 m. The
    /// window's centre is 1.2 m away and passed; its text is read at its own distance.
    @Test func aTurnedWindowIsReadAtItsNearestText() throws {
        let yaml = { (elements: String) in """
            format: spatialscene/1
            duration: 12
            entities:
              - id: doc
                kind: window
                position: [0, 1.6, -1.2]
                rotation: {yaw: 60}
                size: [1280, 720]
                elements: [\(elements)]
            """ }
        let mpp = 1.2 * tan(radians(0.0671))
        let x = -440 * mpp, y = 60 * mpp
        let expected = (pow(x * cos(radians(60)), 2) + y * y + pow(-1.2 - x * sin(radians(60)), 2)).squareRoot()
        #expect(abs(expected - 0.73773) < 1e-5)
        let v = try RuleScenes.check(yaml("{id: body, role: text, frame: [0, 100, 400, 400], fontSize: 17, label: Article}"))
            .filter { $0.rule == "depth-min-reading-distance" }
        #expect(v.map(\.entities) == [["doc"]])
        #expect(abs((v.first?.measured ?? 0) - expected) < 1e-6)
        #expect(v.first?.message == "doc is read from 0.74 m (at its text body, its nearest) for more than 10 s; place it at least 1 m away")
        // The same text on the far side (frame x 880…1280: +440 pt) is 1.68 m away: the window is
        // read at its centre, 1.2 m, and passes; so does a window with only a button on the near side.
        let far = try RuleScenes.check(yaml("{id: body, role: text, frame: [880, 100, 400, 400], fontSize: 17, label: Article}"))
        #expect(far.filter { $0.rule == "depth-min-reading-distance" }.isEmpty)
        let button = try RuleScenes.check(yaml("{id: go, role: button, frame: [0, 100, 400, 400], label: Go}"))
        #expect(button.filter { $0.rule == "depth-min-reading-distance" }.isEmpty)
    }

    @Test func textSunkBehindItsWindowIsSaidToBeBehind() throws {
        // depth −4 pt in a dynamic window 1.5 m away: 4 × 1.5 × tan(0.0671°) = 7.027 mm behind.
        let v = try RuleScenes.check(Self.panel(distance: 1.5, duration: 1,
                                                ["{id: title, role: text, frame: [40, 40, 400, 40], fontSize: 28, depth: -4, label: Title}"]))
            .filter { $0.rule == "depth-text-flat" }
        let expected = 4 * 1.5 * tan(0.0671 * .pi / 180)   // m
        #expect(abs((v.first?.measured ?? 0) - expected) < 1e-12)
        #expect(v.first?.message == "text sheet/title sits 7.03 mm behind its background's surface; set its depth to 0 (at most 5 mm)")
    }

    @Test func contentReachingExactlyTheLimitPasses() throws {
        // A 6 cm volume whose centre is 2 cm in front of the window: its front face is 0.02 + 0.03 =
        // 0.05 m from the window's plane, the limit itself; 1 mm further it reaches 51 mm.
        func scene(_ z: Double) -> String {
            """
            format: spatialscene/1
            duration: 1
            entities:
              - id: doc
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [1280, 720]
                children:
                  - {id: chip, kind: volume, position: [0.4, 0, \(z)], size: [0.06, 0.06, 0.06]}
            """
        }
        #expect(try RuleScenes.check(scene(0.02)).filter { $0.rule == "depth-window-content-extent" }.isEmpty)
        let over = try RuleScenes.check(scene(0.021)).filter { $0.rule == "depth-window-content-extent" }
        #expect(abs((over.first?.measured ?? 0) - 0.051) < 1e-9)
    }

    @Test func layerCountCountsImagesAndNamesEachLayer() throws {
        // Depths 0, 4, 8 and 12 pt in a window 1.5 m away: 1.5 × tan(0.0671°) = 1.75668 mm a point,
        // so 0, 7.03, 14.05 and 21.08 mm, four layers (more than 5 mm apart); the raised photo is one.
        let v = try RuleScenes.check(Self.panel(distance: 1.5, duration: 1, [
            "{id: title, role: text, frame: [20, 20, 300, 40], fontSize: 28, label: Title}",
            "{id: photo, role: image, frame: [20, 80, 200, 150], depth: 4}",
            "{id: buy, role: button, frame: [20, 250, 120, 60], label: Buy, depth: 8}",
            "{id: more, role: button, frame: [160, 250, 120, 60], label: More, depth: 12}",
        ])).filter { $0.rule == "depth-layer-count" }
        #expect(v.first?.measured == 4)
        #expect(v.first?.message == "the elements of sheet sit at 4 different depths (0 mm: title; 7.03 mm: photo; 14.05 mm: buy; 21.08 mm: more); use at most 3")
    }

    // MARK: the background text lies on

    /// A 700 × 500 pt window 1.5 m ahead (dynamic scale: 1.5 · tan(0.0671°) m per point) with a
    /// card raised 4 pt and the temperature at `textDepth` pt, inside the card's frame.
    private static func weather(textDepth: Double) -> String {
        """
        format: spatialscene/1
        duration: 1
        entities:
          - id: weather
            kind: window
            placement: {distance: 1.5, azimuth: 0, elevation: 0}
            size: [700, 500]
            elements:
              - {id: sky, role: image, frame: [0, 0, 700, 500], decorative: true}
              - {id: card, role: image, frame: [50, 50, 600, 300], depth: 4, decorative: true}
              - {id: temp, role: text, frame: [80, 80, 300, 120], depth: \(textDepth), fontSize: 96}
        """
    }

    @Test func textIsMeasuredFromTheElementItLiesOn() throws {
        let mmPerPt = 1.5 * tan(0.0671 * .pi / 180) * 1000   // 1.757 mm
        // On the card (4 pt): clean, though 7 mm in front of the window's surface.
        #expect(try RuleScenes.check(Self.weather(textDepth: 4)).filter { $0.rule == "depth-text-flat" }.isEmpty)
        // 12 pt above the card: 21.08 mm (not 16 pt = 28.11 mm from the window); measured in metres.
        let above = try RuleScenes.check(Self.weather(textDepth: 16)).filter { $0.rule == "depth-text-flat" }
        let a = try #require(above.first)
        #expect(above.count == 1 && a.unit == "m" && abs(a.threshold - 0.005) < 1e-15)
        #expect(abs(a.measured * 1000 - 12 * mmPerPt) < 1e-9)
        #expect(a.message == "text weather/temp floats 21.08 mm in front of card, the element it lies on; set its depth to 4 pt, the depth of card (at most 5 mm)")
        // The old hint applied (depth 0): 4 pt = 7.03 mm behind the card, which hides it.
        let behind = try RuleScenes.check(Self.weather(textDepth: 0)).filter { $0.rule == "depth-text-flat" }
        let b = try #require(behind.first)
        #expect(abs(b.measured * 1000 - 4 * mmPerPt) < 1e-9)
        #expect(b.message == "text weather/temp sits 7.03 mm behind card, the element it lies on, which hides it; set its depth to 4 pt, the depth of card (at most 5 mm)")
    }
}

/// depth-min-reading-distance at its threshold: a window placed at exactly 1 m complies at every
/// azimuth (placement's trigonometry leaves it a few 10⁻¹⁶ m nearer at some), one 1 mm nearer
/// does not.
@Suite struct ReadingDistanceThresholdTests {
    static func scene(distance: String, azimuth: Int) -> String {
        """
        format: spatialscene/1
        duration: 12
        entities:
          - id: doc
            kind: window
            placement: {distance: \(distance), azimuth: \(azimuth)}
            size: [600, 400]
        """
    }

    @Test(arguments: [-10, 0, 10, 14, 20])
    func exactlyAtTheThresholdComplies(_ azimuth: Int) throws {
        let at = try RuleScenes.check(Self.scene(distance: "1.0", azimuth: azimuth))
        #expect(at.filter { $0.rule == "depth-min-reading-distance" }.isEmpty)
        let nearer = try RuleScenes.check(Self.scene(distance: "0.999", azimuth: azimuth))
            .filter { $0.rule == "depth-min-reading-distance" }
        #expect(nearer.count == 1)
        #expect(abs((nearer.first?.measured ?? 0) - 0.999) < 1e-9)
    }

    // MARK: depth-modal-forward

    /// A sheet or alert element flat in its window (depth 0) or behind it is reported with its
    /// depth; one raised in front is not, nor is a presented child window (the system's), nor
    /// anything on iOS.
    @Test func customModalOverlaysComeForward() throws {
        func scene(_ platform: String = "visionOS") -> String {
            """
            format: spatialscene/1
            platform: \(platform)
            duration: 1
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5}
                size: [960, 640]
                elements:
                  - {id: flat, role: alert, frame: [40, 40, 300, 200]}
                  - {id: behind, role: sheet, frame: [400, 40, 300, 200], depth: -8}
                  - {id: raised, role: sheet, frame: [40, 300, 300, 200], depth: 24}
                  - {id: hidden, role: alert, frame: [400, 300, 300, 200], visible: false}
                children:
                  - {id: system, kind: window, presentation: alert, position: [0, 0, 0], size: [320, 200]}
            events:
              - {t: 0.5, action: show, entity: w/hidden}
            """
        }
        let v = try RuleScenes.check(scene()).filter { $0.rule == "depth-modal-forward" }
        #expect(v.map(\.entities) == [["w/behind"], ["w/flat"], ["w/hidden"]], "\(v.map(\.entities))")
        let by = Dictionary(uniqueKeysWithValues: v.map { ($0.entities.first ?? "", $0) })
        #expect(by["w/behind"]?.measured == -8 && by["w/behind"]?.threshold == 0 && by["w/behind"]?.severity == .info)
        #expect(by["w/behind"]?.message.hasPrefix("w/behind is a custom sheet drawn 8 pt behind its window") == true)
        #expect(by["w/flat"]?.message.hasPrefix("w/flat is a custom alert drawn in the plane of its window") == true)
        #expect(by["w/flat"]?.spans == [0...89] && by["w/hidden"]?.spans == [45...89])
        #expect(try RuleScenes.check(scene("iOS")).filter { $0.rule == "depth-modal-forward" }.isEmpty)
    }
}
