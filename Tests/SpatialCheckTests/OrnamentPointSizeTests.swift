import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// An ornament (a window nested directly in a window or volume) belongs to its window's scene and
/// shares its metres per point and scale mode, not scaled from its own distance
/// (docs/scene-format.md, "Ornaments"). Values by hand: tan(0.0671°) = 0.00117111646 m per pt at 1 m.
@Suite struct OrnamentPointSizeTests {
    /// 1.5 · tan(0.0671°): the editor window's metres per point at 1.5 m.
    static let mppAt1_5 = 0.0017566746952328105

    static func entity(_ s: Scene, _ path: String) throws -> Entity {
        try #require(s.entities.first { $0.path == path }, "no entity \(path)")
    }

    @Test func anOrnamentHasItsWindowsMetresPerPointAndAnOrnamentOfAnOrnamentTheTopWindows() throws {
        // Standing viewer, eye (0, 1.6, 0). The editor is 1.5 m straight ahead; the toolbar 0.3 m
        // below its centre and 2 cm in front, √(0.3² + 1.48²) = 1.51010 m from the eye: from its own
        // distance it would get 1.76850 mm per pt, 600 pt = 604.04 of the editor's points.
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: editor
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [600, 400]
                children:
                  - id: toolbar
                    kind: window
                    position: [0, -0.30, 0.02]
                    size: [600, 60]
                    elements: [{id: a, role: button, frame: [200, 8, 44, 44]}]
                    children:
                      - {id: badge, kind: window, position: [0.2, 0.1, 0.01], size: [40, 20]}
            """)
        let editor = try Self.entity(s, "editor"), bar = try Self.entity(s, "editor/toolbar")
        let badge = try Self.entity(s, "editor/toolbar/badge"), a = try Self.entity(s, "editor/toolbar/a")
        #expect(abs(editor.metresPerPoint - Self.mppAt1_5) < 1e-15)
        #expect(abs(bar.placementDistance - 1.5100993344810134) < 1e-9)  // its own distance, not used for its scale
        #expect(bar.metresPerPoint == editor.metresPerPoint)
        #expect(badge.metresPerPoint == editor.metresPerPoint)
        #expect(bar.scaleMode == .dynamic && badge.scaleMode == .dynamic)
        // Boxes: the toolbar is as wide as the editor, 600 × 1.75667 mm = 1.05400 m; its 44 pt button
        // 44 × 1.75667 mm = 77.294 mm; the badge 40 pt = 70.267 mm.
        #expect(abs(s.nodes[bar.node].geometry.size.x - 1.0540048171) < 1e-9)
        #expect(abs(s.nodes[editor.node].geometry.size.x - s.nodes[bar.node].geometry.size.x) < 1e-12)
        #expect(abs(s.nodes[a.node].geometry.size.x - 0.0772936866) < 1e-9)
        #expect(a.metresPerPoint == editor.metresPerPoint)
        #expect(abs(s.nodes[badge.node].geometry.size.x - 0.0702669878) < 1e-9)
        #expect(s.warnings.isEmpty)
    }

    @Test func anOrnamentOfAFixedScaleVolumeIsFixedAndItsOwnScaleModeIsIgnoredWithAWarning() throws {
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: board
                kind: volume
                placement: {distance: 1.2, azimuth: 0, elevation: -10}
                size: [0.6, 0.3, 0.6]
                children:
                  - {id: bar, kind: window, scaleMode: dynamic, position: [0, -0.2, 0.31], size: [300, 60]}
            """)
        let bar = try Self.entity(s, "board/bar")
        // The volume's fixed scale: the fixed point size, tan(0.0671°) · 1 m.
        #expect(bar.scaleMode == .fixed)
        #expect(abs(bar.metresPerPoint - 0.0011711164634885403) < 1e-15)
        #expect(abs(s.nodes[bar.node].geometry.size.x - 300 * 0.0011711164634885403) < 1e-12)
        #expect(s.warnings.map(\.message) == ["'scaleMode' of window 'bar' is ignored: an ornament (a window nested in a window or volume) shares the scale of volume 'board' (fixed)"])
        #expect(s.warnings.first?.location?.line == 8)
        #expect(s.warnings.first?.hint == "remove 'scaleMode' here; set it on the volume the ornament belongs to")
    }

    @Test func aWindowInAGroupInAWindowIsNotAnOrnamentAndScalesFromItsOwnDistance() throws {
        // The panel is 2 m from the eye (the group holds it 0.5 m in front of the 2.5 m window):
        // 2 · tan(0.0671°) = 2.34223 mm per pt, not the window's 2.5 · tan(0.0671°) = 2.92779 mm.
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: main
                kind: window
                placement: {distance: 2.5, azimuth: 0, elevation: 0}
                children:
                  - id: holder
                    kind: group
                    position: [0, 0, 0.5]
                    children:
                      - {id: panel, kind: window, size: [200, 100]}
            """)
        #expect(abs(try Self.entity(s, "main").metresPerPoint - 0.0029277911587213507) < 1e-15)
        #expect(abs(try Self.entity(s, "main/holder/panel").metresPerPoint - 0.0023422329269770807) < 1e-15)
    }

    @Test func anOrnamentAtTheEyeHasItsWindowsSize() throws {
        // Not scaled from its own distance, so the "dynamic-scale at the eye" error does not apply.
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                children:
                  - {id: o, kind: window, position: [0, 0, 1.5], size: [100, 40]}
            """)
        #expect(abs(try Self.entity(s, "w/o").metresPerPoint - Self.mppAt1_5) < 1e-15)
    }

    @Test func textInPointsInAWindowUsesTheWindowsPoints() throws {
        // A 17 pt label 0.6 m right of the editor's centre and 1 mm in front: √(0.6² + 1.499²) =
        // 1.61462 m from the eye, so from its own distance its em would be 17 × 1.61462 × tan(0.0671°)
        // = 32.08 mm; the editor's points give 17 × 1.75667 mm = 29.86 mm. A label in metres keeps its
        // height, and a 17 pt label on its own (top level) its own distance.
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: editor
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [800, 600]
                children:
                  - {id: tag, kind: text, string: New, fontSize: 17, position: [0.6, 0, 0.001]}
                  - {id: plate, kind: text, string: Old, height: 0.02, position: [-0.6, 0, 0.001]}
              - {id: free, kind: text, string: Free, fontSize: 17, placement: {distance: 2, azimuth: 0, elevation: 0}}
            """)
        let tag = try Self.entity(s, "editor/tag"), plate = try Self.entity(s, "editor/plate"), free = try Self.entity(s, "free")
        #expect(tag.metresPerPoint == Self.mppAt1_5 || abs(tag.metresPerPoint - Self.mppAt1_5) < 1e-15)
        #expect(tag.scaleMode == .dynamic)
        #expect(abs((tag.textHeight ?? 0) - 17 * Self.mppAt1_5) < 1e-12)
        #expect(plate.scaleMode == .fixed && plate.textHeight == 0.02)
        #expect(abs(free.metresPerPoint - 2 * tan(0.0671 * Double.pi / 180)) < 1e-15)
    }
}
