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
        #expect(abs((v.first?.measured ?? 0) - 0.0234) < 1e-9)
    }
}
