import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import SceneLoader
import Simulation
import Reporting
import SpatialModel

/// The window rules `win-content-in-bounds`, `win-controls-keepout`, `vol-scale-mode` and
/// `orn-width`, end to end on scene text. The main window is always 1280×720 pt, 2 m straight ahead
/// of a standing viewer (eye (0, 1.6, 0)), so it spans x ±0.70266·(1280/600)… exactly:
/// s = 2·tan(0.0671°) = 2.3422 mm per pt, half width 640·s = 1.49901 m, half height 360·s = 0.84319 m,
/// in the plane z = −2 centred at y = 1.6.
@Suite struct RuleWindowTests {
    static let s = 2 * tan(0.0671 * Double.pi / 180)

    private static func scene(_ body: String, duration: Double = 1) -> String {
        """
        format: spatialscene/1
        duration: \(duration)
        entities:
          - id: main
            kind: window
            placement: {distance: 2, azimuth: 0, elevation: 0}
            size: [1280, 720]
        \(body)
        """
    }

    // MARK: win-content-in-bounds

    @Test func elementsOutsideTheWindowRectangleAreWarnings() throws {
        let v = try RuleScenes.check(Self.scene("""
                elements:
                  - {id: footer, role: image, frame: [0, 680, 100, 80]}     # bottom 760 > 720: 40 pt below
                  - {id: badge, role: image, frame: [-30, 100, 100, 60]}    # 30 pt past the left edge
                  - {id: tag, role: image, frame: [1200, 0, 100, 60]}       # right 1300 > 1280: 20 pt
                  - {id: body, role: image, frame: [500, 300, 100, 60]}     # inside: clean
                  - {id: backdrop, role: image, frame: [0, 0, 1280, 720]}   # exactly the window: clean
            """)).filter { $0.rule == "win-content-in-bounds" }
        #expect(v.map(\.entities) == [["main/badge"], ["main/footer"], ["main/tag"]])
        #expect(v.map(\.measured) == [30, 40, 20])
        #expect(v.allSatisfy { $0.severity == .warning && $0.threshold == 0 && $0.unit == "pt" && $0.frameCount == 90 })
        #expect(v[1].message.contains("spills below its bottom edge"))
        #expect(!v[0].message.contains("below"))
    }

    @Test func nested3DContentIsProjectedOntoTheWindowPlane() throws {
        // A 0.4 m cube-ish volume nested in the window, centred 0.8 m below the window's centre:
        // its bottom is at −1.0 m, 0.15681 m below the bottom edge (−0.84319 m): 66.95 pt.
        // An ornament (child window) below the window is not window content.
        let v = try RuleScenes.check(Self.scene("""
                children:
                  - {id: stand, kind: volume, scaleMode: dynamic, position: [0, -0.8, 0.05], size: [0.4, 0.4, 0.1]}
                  - {id: toolbar, kind: window, position: [0, -0.96, 0.02], size: [400, 80]}
            """)).filter { $0.rule == "win-content-in-bounds" }
        #expect(v.map(\.entities) == [["main/stand"]])
        let expected = (1.0 - 360 * Self.s) / Self.s
        #expect(abs(expected - 66.95) < 0.01)
        #expect(abs((v.first?.measured ?? 0) - expected) < 0.01)
        #expect(v.first?.message.contains("spills below") == true)
    }

    /// Outside trial (session 25, F6): a captured piece animated out of its board volume, toward
    /// the player, was judged as if seen; visionOS clips a volume's content at its bounds. A 0.5 ×
    /// 0.2 × 0.5 m volume at (0, 1, −1) holds a 0.1 m cube (a volume) at its centre that moves up
    /// 0.3 m between t = 0.5 and 1 s (frames 45…90): its top leaves the volume's top (0.1 m above
    /// the centre) once the cube's centre is above 0.05 m, from frame 53 (0.3 · 8/45 = 0.0533 m),
    /// and ends 0.3 + 0.05 − 0.1 = 0.25 m past it. The still model beside it sits inside.
    @Test func contentLeavingItsVolumeIsClipped() throws {
        let v = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1.5
            entities:
              - id: board
                kind: volume
                position: [0, 1, -1]
                size: [0.5, 0.2, 0.5]
                scaleMode: dynamic
                children:
                  - id: piece
                    kind: volume
                    size: [0.1, 0.1, 0.1]
                    scaleMode: dynamic
                    animation:
                      keyframes:
                        - {t: 0.5, position: [0, 0, 0]}
                        - {t: 1, position: [0, 0.3, 0]}
                  - {id: still, kind: volume, position: [0.15, 0, 0], size: [0.1, 0.1, 0.1], scaleMode: dynamic}
            """).filter { $0.rule == "win-content-in-bounds" }
        #expect(v.map(\.entities) == [["board/piece"]])
        let clip = try #require(v.first)
        #expect(clip.unit == "m" && clip.threshold == 0 && clip.severity == .warning)
        #expect(abs(clip.measured - 0.25) < 1e-9)
        #expect(clip.spans == [53...134])
        #expect(clip.message.hasPrefix("board/piece reaches 0.25 m outside board, and visionOS clips a volume's content at its bounds"))
    }

    // MARK: win-controls-keepout

    /// A 0.4 × 0.1 × 0.1 m volume (no elements) at world `position`, beside the main window.
    private static func other(_ position: String) -> String {
        "  - {id: box, kind: volume, scaleMode: dynamic, position: \(position), size: [0.4, 0.1, 0.1]}"
    }

    @Test func contentInTheBandBelowTheWindowIsAWarningWithItsGap() throws {
        // The box spans y = 0.6…0.7 (−1.0…−0.9 from the window's centre) and z = −1.95…−1.85,
        // 0.05…0.15 m in front of the window's plane. Projected from the eye onto z = −2 (factor
        // 2 / (2 − depth)), its top edge lands highest for the nearest-to-plane corner:
        // −0.9 · 2/1.95 = −0.92308 m, inside the band −0.98372…−0.84319 (60 pt = 0.14053 m);
        // the gap to the bottom edge is (0.92308 − 0.84319) / s = 34.11 pt.
        let v = try RuleScenes.check(Self.scene(Self.other("[0, 0.65, -1.9]")))
            .filter { $0.rule == "win-controls-keepout" }
        #expect(v.map(\.entities) == [["box", "main"]])
        let gap = (0.9 * 2 / 1.95 - 360 * Self.s) / Self.s
        #expect(abs(gap - 34.11) < 0.01)
        let x = try #require(v.first)
        #expect(abs(x.measured - gap) < 0.01 && x.threshold == 60 && x.unit == "pt" && x.severity == .warning)
        #expect(x.message.contains("below the bottom edge of main") && x.message.contains("box reaches into"))
    }

    @Test func contentAboveTheTopEdgeIsJudgedToo() throws {
        // Mirror image: y = 2.5…2.6 (+0.9…+1.0), so the band above the top edge (the Share menu).
        let v = try RuleScenes.check(Self.scene(Self.other("[0, 2.55, -1.9]")))
            .filter { $0.rule == "win-controls-keepout" }
        #expect(v.count == 1)
        #expect(v.first?.message.contains("above the top edge of main") == true)
        #expect(abs((v.first?.measured ?? 0) - (0.9 * 2 / 1.95 - 360 * Self.s) / Self.s) < 0.01)
    }

    @Test func contentClearOfTheBandInAnotherLayerOrAnOrnamentIsClean() throws {
        // Lower: y = 0.35…0.45 (−1.25…−1.15), projected top −1.15·2/1.95 = −1.179 < −0.984: clear.
        // Behind: y = 0.35…0.45 at z = −2.65…−2.55, 0.55…0.65 m behind the plane, more than the
        // layer at 2 m (0.1 m × 2 / 1 = 0.2 m); in it, see the next test, it would be reported.
        // Ornament: a child window at the bottom edge belongs to the window.
        for body in [Self.other("[0, 0.45, -1.9]"), Self.other("[0, 0.40, -2.6]"),
                     "    children:\n      - {id: toolbar, kind: window, position: [0, -0.9, 0.02], size: [400, 80]}"] {
            let v = try RuleScenes.check(Self.scene(body)).filter { $0.rule == "win-controls-keepout" }
            #expect(v.isEmpty, "\(body): \(v.map(\.message))")
        }
    }

    @Test func theLayerGrowsWithTheWindowsDistance() throws {
        // The box behind the plane above, judged with depthToleranceM 0.4 (0.8 m at 2 m): its
        // corners are in the layer, and its image, top −1.15·2/2.65 = −0.86792 m, bottom
        // −1.25·2/2.55 = −0.98039 m, lies in the band (−0.98372…−0.84319): a gap of
        // (0.86792 − 0.84319) / s = 10.56 pt.
        let v = try RuleScenes.check(Self.scene(Self.other("[0, 0.40, -2.6]")),
                                     config: "rules:\n  win-controls-keepout: {depthToleranceM: 0.4}\n")
            .filter { $0.rule == "win-controls-keepout" }
        let gap = (1.15 * 2 / 2.65 - 360 * Self.s) / Self.s
        #expect(abs(gap - 10.56) < 0.01)
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - gap) < 0.01)
    }

    /// A 600×200 pt window placed (upright, on the sphere at distance d) 25° below a 1280×720 pt
    /// window at the same distance: it stands d·(1 − cos 25°) = 0.0937·d in front of the main
    /// window's plane, beyond a fixed 0.1 m at 1.6 m and 2.5 m but within the layer, 0.1·d. Its
    /// top edge, d·(−sin 25° + 100·t) below the eye at d·cos 25° ahead (t = tan 0.0671°, metres
    /// per point per metre), is seen at d·(−sin 25° + 100·t) / cos 25° = −0.33709·d on the main
    /// window's plane, above its bottom edge −360·t·d = −0.42161·d, and its bottom edge at
    /// d·(−sin 25° − 100·t) / cos 25° = −0.59553·d, below it: it covers the window bar (a gap of
    /// 0), the same at every distance.
    @Test func aWindowPlacedJustBelowAnotherCoversItsControlsAtAnyDistance() throws {
        let t = tan(0.0671 * Double.pi / 180), a = 25 * Double.pi / 180
        #expect(abs((1 - cos(a)) - 0.0937) < 1e-4)
        #expect(abs((-sin(a) + 100 * t) / cos(a) + 0.33709) < 1e-5 && abs(360 * t - 0.42161) < 1e-5)
        #expect(abs((-sin(a) - 100 * t) / cos(a) + 0.59553) < 1e-5)
        for d in [1.0, 1.6, 2.5] {
            let v = try RuleScenes.check("""
                format: spatialscene/1
                duration: 1
                entities:
                  - {id: main, kind: window, placement: {distance: \(d), azimuth: 0, elevation: 0}, size: [1280, 720]}
                  - {id: notes, kind: window, placement: {distance: \(d), azimuth: 0, elevation: -25}, size: [600, 200]}
                """).filter { $0.rule == "win-controls-keepout" }
            #expect(v.map(\.entities) == [["main", "notes"]], "at \(d) m")
            #expect(v.first?.measured == 0, "at \(d) m")
            #expect(v.first?.message.contains("notes reaches into the 60 pt band below the bottom edge of main") == true, "at \(d) m")
        }
    }

    /// A 480×88 pt window placed 27° below a 1280×720 pt window at the same distance d (the
    /// media player's transport controls as a window of their own): it stands d·(1 − cos 27°) =
    /// 0.109·d in front of the main window's plane, its top edge d·(sin 27° − 44·t) below the eye
    /// at d·cos 27° ahead (t = tan 0.0671°, metres per point per metre), seen on the main window's
    /// plane d·(sin 27° − 44·t) / cos 27° = 0.45169·d below the eye, under the bottom edge
    /// 360·t·d = 0.42161·d: a gap of (0.45169 − 0.42161) / t = 25.69 pt at every distance, where
    /// the window bar is. 36° below (pass-placed-below), it is seen 137 pt below the edge: clean.
    @Test func aWindowPlacedBelowWithAGapIsJudgedUntilItClearsTheBand() throws {
        let t = tan(0.0671 * Double.pi / 180), a = 27 * Double.pi / 180
        let gap = ((sin(a) - 44 * t) / cos(a) - 360 * t) / t
        #expect(abs(gap - 25.69) < 0.01)
        for d in [1.0, 2.0, 2.5] {
            func run(_ elevation: Int) throws -> [ReportViolation] {
                try RuleScenes.check("""
                    format: spatialscene/1
                    duration: 1
                    entities:
                      - {id: player, kind: window, placement: {distance: \(d), azimuth: 0, elevation: 0}, size: [1280, 720]}
                      - {id: controls, kind: window, placement: {distance: \(d), azimuth: 0, elevation: \(elevation)}, size: [480, 88]}
                    """).filter { $0.rule == "win-controls-keepout" }
            }
            let v = try run(-27)
            #expect(v.map(\.entities) == [["controls", "player"]], "at \(d) m")
            #expect(abs((v.first?.measured ?? 0) - gap) < 1e-6, "at \(d) m")
            #expect(v.first?.message.contains("controls reaches into the 60 pt band below the bottom edge of player") == true)
            #expect(try run(-36).isEmpty, "at \(d) m")
        }
    }

    /// A 0.4 × 0.1 × 0.02 m panel over the bar of the main window (2 m away, bottom edge
    /// 360·s = 0.84319 m below the eye), its back face D + 0.01 m from the eye and its top edge
    /// 0.44·D below the eye: seen on the window's plane 0.88·D / (D + 0.01) below the eye, a gap
    /// of (0.88·D / (D + 0.01) − 360·s) / s pt below the edge, 13.74 pt at D = 1.9 m, 11.99 pt
    /// at 1 m and 8.34 pt at 0.5 m. In front of the plane it covers the bar however near the eye
    /// it is; 0.15 m behind the plane (D = 2.14) it is within the layer behind (0.1 m × 2 / 1 m),
    /// and 0.5 m behind (D = 2.49) it is seen past the window's edge: clean.
    @Test func contentInFrontCoversTheBarHoweverNearAndContentFarBehindIsAnotherLayer() throws {
        func gap(_ d: Double) -> Double { (0.88 * d / (d + 0.01) - 360 * Self.s) / Self.s }
        #expect(abs(gap(1.9) - 13.74) < 0.01 && abs(gap(1) - 11.99) < 0.01 && abs(gap(0.5) - 8.34) < 0.01)
        func run(_ d: Double) throws -> [ReportViolation] {
            try RuleScenes.check(Self.scene(
                "  - {id: panel, kind: volume, scaleMode: dynamic, position: [0, \(1.6 - 0.44 * d - 0.05), \(-d)], size: [0.4, 0.1, 0.02]}"))
                .filter { $0.rule == "win-controls-keepout" }
        }
        for d in [1.9, 1.0, 0.5, 2.14] {
            let v = try run(d)
            #expect(v.map(\.entities) == [["main", "panel"]], "at \(d) m")
            #expect(abs((v.first?.measured ?? 0) - gap(d)) < 1e-6, "at \(d) m")
        }
        #expect(try run(2.49).isEmpty)
    }

    /// A desk 1.6 m deep (z −1.2 … −2.8) under the main window (2 m away, bottom edge 360·s below
    /// the eye), its top 1.05 m below the eye: its near corners are seen 1.05 × 2 / 1.2 = 1.75 m
    /// below the eye, far below the band, and its far ones lie 0.8 m behind the plane, beyond the
    /// layer (0.1 m × 2 / 1 m). The part of its box within the layer reaches z = −2.2, where its top
    /// is seen 1.05 × 2 / 2.2 m below the eye: a gap of (1.05 × 2 / 2.2 − 360·s) / s = 47.54 pt.
    /// The same desk moved back 1.1 m (z −2.3 … −3.9) lies wholly behind the layer: clean.
    @Test func aDeepDeskIsJudgedByItsPartWithinTheLayer() throws {
        let gap = (1.05 * 2 / 2.2 - 360 * Self.s) / Self.s
        #expect(abs(gap - 47.54) < 0.01)
        func run(_ z: Double) throws -> [ReportViolation] {
            try RuleScenes.check(Self.scene(
                "  - {id: desk, kind: volume, scaleMode: dynamic, position: [0, 0.525, \(z)], size: [1.0, 0.05, 1.6]}"))
                .filter { $0.rule == "win-controls-keepout" }
        }
        let v = try run(-2.0)
        #expect(v.map(\.entities) == [["desk", "main"]])
        #expect(abs((v.first?.measured ?? 0) - gap) < 1e-6)
        #expect(try run(-3.1).isEmpty)
    }

    @Test func theBandHeightIsConfigurable() throws {
        // With a 30 pt band the 34.11 pt gap is clear.
        let v = try RuleScenes.check(Self.scene(Self.other("[0, 0.65, -1.9]")),
                                     config: "rules:\n  win-controls-keepout: {keepoutBandPt: 30}\n")
        #expect(v.filter { $0.rule == "win-controls-keepout" }.isEmpty)
    }

    // MARK: vol-scale-mode

    @Test func fixedScaleWithInteractiveContentIsAWarningAndPlainFixedVolumesAreInfo() throws {
        let v = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: game                  # fixed (the default) with two buttons and a text: warning, 3
                kind: volume
                position: [-1, 1.2, -2]
                size: [0.5, 0.5, 0.5]
                elements:
                  - {id: a, role: button, frame: [20, 20, 60, 60]}
                  - {id: b, role: button, frame: [200, 20, 60, 60]}
                  - {id: t, role: text, frame: [20, 200, 200, 40], fontSize: 24}
              - id: dyn                   # dynamic with a button: clean
                kind: volume
                scaleMode: dynamic
                position: [0, 1.2, -2]
                size: [0.5, 0.5, 0.5]
                elements:
                  - {id: a, role: button, frame: [20, 20, 60, 60]}
              - id: lamp                  # fixed, nothing interactive, nothing said: clean (unknown)
                kind: volume
                position: [2.2, 1.2, -2]
                size: [0.3, 0.5, 0.3]
              - id: statue                # fixed, nothing interactive, a real object: clean
                kind: volume
                representsRealObject: true
                position: [1, 1.2, -2]
                size: [0.3, 0.5, 0.3]
              - id: vase                  # fixed, nothing interactive, not a real object: info
                kind: volume
                representsRealObject: false
                position: [1.6, 1.2, -2]
                size: [0.3, 0.5, 0.3]
              - id: card                  # a fixed-scale window with a button: warning, 1
                kind: window
                scaleMode: fixed
                position: [0, 2.2, -2]
                size: [300, 200]
                elements:
                  - {id: ok, role: button, frame: [120, 70, 60, 60]}
            """).filter { $0.rule == "vol-scale-mode" }
        #expect(v.map(\.entities) == [["card"], ["game"], ["vase"]])
        #expect(v.map(\.severity) == [.warning, .warning, .info])
        #expect(v.map(\.measured) == [1, 3, 1])
        #expect(v[1].message.contains("holds 3 interactive or text items"))
        #expect(v[2].message.contains("does not show a real object"))
    }

    // MARK: orn-width

    @Test func anOrnamentWiderThanItsWindowIsAWarning() throws {
        // Window 600×400 pt at 2 m. The ornament sits at (0, 1.04, −1.98), 2.05767 m from the eye,
        // but shares the window's metres per point (2 · tan(0.0671°)), so its width in the window's
        // points is its own: 900 pt is 900 (> 600.5), 601 pt is 601 (> 600.5); 600 pt (exactly
        // as wide) and 580 pt are clean. (Scaled from its own distance, 600 pt was 617.3.)
        func run(_ width: Int) throws -> [ReportViolation] {
            try RuleScenes.check("""
                format: spatialscene/1
                duration: 1
                entities:
                  - id: notes
                    kind: window
                    placement: {distance: 2, azimuth: 0, elevation: 0}
                    size: [600, 400]
                    children:
                      - {id: toolbar, kind: window, position: [0, -0.56, 0.02], size: [\(width), 80]}
                """).filter { $0.rule == "orn-width" }
        }
        let wide = try run(900)
        #expect(wide.map(\.entities) == [["notes/toolbar"]])
        #expect(abs((wide.first?.measured ?? 0) - 900) < 1e-9)
        #expect(abs((wide.first?.threshold ?? 0) - 600) < 1e-9)
        #expect(wide.first?.message.contains("is 900 pt wide, wider than notes (600 pt)") == true)
        #expect(try run(601).map(\.measured) == [601])
        #expect(try run(600).isEmpty)
        #expect(try run(580).isEmpty)
    }

    @Test func theSameWidthExampleIsCleanAndTheFailExampleStillFails() throws {
        let (pass, _) = SpatialCheck.checkScene(path: TestPaths.repo("Scenes/rules/orn-width/pass-same-width.scene.yaml"),
                                                load: .init(), configuration: .default)
        #expect(pass.status == .checked)
        #expect(pass.violations.filter { $0.rule == "orn-width" }.isEmpty)
        #expect(RuleScenes.exampleViolations("orn-width").map(\.measured) == [900])
    }

    // MARK: win-controls-keepout at scale

    /// 150 windows on a ring around a walking viewer, each with a small volume, model-sized box or
    /// 3D text somewhere around its edges (some in its bands, some clear, some in another layer),
    /// and one 6 m volume the grid cannot hold: the grid's candidates give exactly the violations
    /// of comparing every window with all content, with far fewer pair tests.
    static func ring() -> String {
        var y = """
        format: spatialscene/1
        duration: 0.2
        viewer:
          posture: standing
          path:
            - {t: 0, position: [0, 1.6, 0]}
            - {t: 0.2, position: [0.3, 1.6, -0.2], rotation: {yaw: 15}}
        entities:
          - {id: hall, kind: volume, position: [0, 1.5, -8], size: [6, 3, 0.4]}

        """
        for i in 0..<150 {
            let az = Double(i) * 2.4 - 180, d = 1.6 + Double(i % 5) * 0.35, el = Double(i % 3) * 4 - 4
            y += "  - {id: w\(i), kind: window, placement: {distance: \(d), azimuth: \(az), elevation: \(el)}, size: [400, 200]}\n"
            // Something near the window's lower or upper edge, in or out of its plane.
            let a = az * Double.pi / 180, e = el * Double.pi / 180
            let depth = [0.0, 0.05, 0.4][i % 3], dy = [-0.32, 0.3, -0.5, 0.27][i % 4]
            let x = (d - depth) * sin(a) * cos(e), z = -(d - depth) * cos(a) * cos(e), h = 1.6 + d * sin(e) + dy
            let kind = ["volume", "text"][i % 2]
            let extra = kind == "text" ? ", string: Note, fontSize: 40" : ", size: [0.2, 0.1, 0.02]"
            y += "  - {id: c\(i), kind: \(kind), position: [\(x), \(h), \(z)]\(extra)}\n"
        }
        return y
    }

    @Test func theKeepoutGridFindsWhatComparingEverythingFinds() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keepout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ring.scene.yaml").path
        try Self.ring().write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: path)
        func run(exhaustive: Bool, incremental: Bool = false) -> (String, Int, Int) {
            let engine = RuleEngine(scene: scene, configuration: .default)
            engine.processor(ControlsKeepoutRule.self)?.exhaustive = exhaustive
            engine.processor(ControlsKeepoutRule.self)?.incremental = incremental
            var frames = 0
            Simulator(scene: scene).run { engine.consume($0); frames += 1 }
            let vs = engine.finish().filter { $0.rule == "win-controls-keepout" }
            return (vs.map { String(describing: $0) }.joined(separator: "\n"), vs.count, engine.processor(ControlsKeepoutRule.self)?.pairChecks ?? -1)
        }
        let grid = run(exhaustive: false), all = run(exhaustive: true)
        #expect(grid.0 == all.0)
        #expect(run(exhaustive: false, incremental: true).0 == all.0)  // the candidate list
        #expect(grid.1 >= 20)  // the scene has findings to compare
        // 18 frames × 150 windows × 300 other pieces of content (less each window itself): the
        // definition tests them all; the grid only content with a corner in the layer just behind
        // the window's plane or in front of it, seen near its bands. The windows overlap their ~11
        // neighbours on the ring in angle, and the nearer ones, with their content, stand in
        // front of them: a third of the pairs at most, not all.
        #expect(all.2 == 18 * 150 * 300)
        #expect(grid.2 > 0 && grid.2 < all.2 / 3, "\(grid.2) of \(all.2)")
    }

    /// The cases where a window's search is cut short (see `KeepoutReach`): bars straddling a
    /// window with their ends far outside it on both sides, in every size class up to 120 m and
    /// just either side of the class limits (0.5, 2, 8, 32 m); bars just clear of a window's side
    /// and just overlapping it; windows the eye walks up to until it is 5 cm from their plane (no
    /// bound on the image's spread); pitched and rolled windows (a slab across the floor-plan
    /// grid's rows and columns) with content scattered around them. Every case must give the
    /// violations of comparing every window with all content.
    static func reachCases() -> String {
        let s = tan(0.0671 * Double.pi / 180)  // metres per point per metre of distance
        var y = """
        format: spatialscene/1
        duration: 0.3
        viewer:
          posture: standing
          path:
            - {t: 0, position: [0, 1.6, 0]}
            - {t: 0.3, position: [1.0, 1.6, 0.02], rotation: {yaw: -20}}
        entities:

        """
        // Upright windows straight ahead (planes z = −d), bars 2 cm below their bottom edge, 5 cm
        // in front of the plane.
        let lengths = [0.45, 0.49, 0.51, 1.9, 2.1, 7.9, 8.5, 31, 33, 40, 120]
        for (i, l) in lengths.enumerated() {
            let d = 1.5 + 0.4 * Double(i), hw = 200 * s * d, hh = 100 * s * d
            y += "  - {id: wa\(i), kind: window, placement: {distance: \(d), azimuth: 0, elevation: 0}, size: [400, 200]}\n"
            let by = 1.6 - hh - 0.04, bz = -d + 0.05
            // Centred (both ends outside the window), just clear of the right side, overlapping it by 5 cm.
            for (k, x) in [0, hw + l / 2 + 0.05, hw + l / 2 - 0.05].enumerated() {
                y += "  - {id: bar\(i)x\(k), kind: volume, position: [\(x), \(by), \(bz)], size: [\(l), 0.04, 0.04]}\n"
            }
        }
        // Windows to the right, which the eye walks up to (their planes x = d, the eye ends at x = 1).
        for (i, d) in [1.05, 1.12, 1.2, 1.35].enumerated() {
            let hh = 100 * s * d
            y += "  - {id: wn\(i), kind: window, placement: {distance: \(d), azimuth: 90, elevation: \(Double(i) * 12 - 18)}, size: [400, 200]}\n"
            let cy = 1.6 + d * tan((Double(i) * 12 - 18) * Double.pi / 180)
            y += "  - {id: nb\(i), kind: volume, position: [\(d - 0.03), \(cy - hh - 0.05), 0], size: [0.04, 0.04, 0.3]}\n"
            y += "  - {id: nt\(i), kind: volume, position: [\(d + 0.06), \(cy + hh + 0.04), 0.1], size: [0.04, 0.04, 2.5]}\n"
        }
        // Pitched and rolled windows behind and to the left, content scattered around them.
        var seed: UInt64 = 12345
        func random() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for i in 0..<6 {
            let az = -50 - 20 * Double(i), d = 1.6 + 0.3 * Double(i)
            let a = az * Double.pi / 180
            let cx = d * sin(a), cz = -d * cos(a)
            y += "  - {id: wt\(i), kind: window, placement: {distance: \(d), azimuth: \(az), elevation: 0}, facing: none, rotation: {yaw: \(-az), pitch: \(25 * Double(i % 3) - 20), roll: \(15 * Double(i) - 30)}, size: [500, 300]}\n"
            for k in 0..<25 {
                let size = [0.03, 0.3, 1.2, 3, 9][k % 5]
                let px = cx + (random() - 0.5) * 1.6, py = 1.6 + (random() - 0.5) * 1.4, pz = cz + (random() - 0.5) * 1.6
                y += "  - {id: t\(i)c\(k), kind: volume, position: [\(px), \(py), \(pz)], rotation: {yaw: \(random() * 360), pitch: \(random() * 180 - 90)}, size: [\(size), \(size * 0.2), 0.05]}\n"
            }
        }
        return y
    }

    @Test func theKeepoutSearchMissesNoStraddlingLargeOrNearContent() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keepout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("reach.scene.yaml").path
        try Self.reachCases().write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: path)
        func run(exhaustive: Bool, incremental: Bool = false) -> ([Violation], Int) {
            let engine = RuleEngine(scene: scene, configuration: .default)
            engine.processor(ControlsKeepoutRule.self)?.exhaustive = exhaustive
            engine.processor(ControlsKeepoutRule.self)?.incremental = incremental
            Simulator(scene: scene).run { engine.consume($0) }
            let vs = engine.finish().filter { $0.rule == "win-controls-keepout" }
            return (vs, engine.processor(ControlsKeepoutRule.self)?.pairChecks ?? -1)
        }
        let grid = run(exhaustive: false), all = run(exhaustive: true)
        #expect(grid.0.map { String(describing: $0) } == all.0.map { String(describing: $0) })
        // The candidate list (its slab and regions widened by the skins) misses none of them either.
        #expect(run(exhaustive: false, incremental: true).0.map { String(describing: $0) } == all.0.map { String(describing: $0) })
        let pairs = Set(all.0.map { $0.entities.joined(separator: " ") })
        // Each kind of case has findings to compare: straddling bars of every class, the one of
        // 120 m included; a bar overlapping a side; windows the eye comes close to; tilted windows.
        for id in ["bar0x0", "bar2x0", "bar4x0", "bar6x0", "bar8x0", "bar10x0", "bar3x2", "nb0", "nb3"] {
            #expect(pairs.contains { $0.split(separator: " ").contains(Substring(id)) }, "\(id)")
        }
        #expect(pairs.contains { $0.hasPrefix("wt") || $0.contains(" wt") })
        // Clear of its window's side: not reported with it (the layer of the window behind it,
        // 10 % of 3.1 m, may hold it: judged with that window, it may be).
        #expect(!pairs.contains { Set($0.split(separator: " ")) == ["bar3x1", "wa3"] })
        #expect(grid.1 < all.1)
    }
}

/// Windows a window presents (`presentation`): not ornaments, so judged against the presenting
/// window's control bands, and never an ornament for orn-width.
@Suite struct PresentedWindowTests {
    /// A 720 × 400 pt window 1.5 m ahead; its child `menu`, 280 × 200 pt in the window's points,
    /// centred 0.40 m below the window's centre (0.03 m in front). The window is 400 · s tall with
    /// s = tan(pointAngle) · 1.5 m, 0.7031 m, so its bottom edge is 0.352 m below the centre and
    /// the menu (0.352 m tall) spans 0.224–0.576 m below it: its top reaches 0.128 m into the
    /// window, its bottom 0.224 m past the edge, through the 60 pt (0.105 m) band.
    static func scene(_ presentation: String?) -> String {
        """
        format: spatialscene/1
        duration: 1
        entities:
          - id: form
            kind: window
            placement: {distance: 1.5}
            size: [720, 400]
            children:
              - id: menu
                kind: window
        \(presentation.map { "        presentation: \($0)\n" } ?? "")        position: [0.39, -0.40, 0.03]
                size: [280, 200]
        """
    }

    @Test func aPresentedMenuIsJudgedAgainstThePresentingWindowsBands() throws {
        let menu = try RuleScenes.check(Self.scene("menu")).filter { $0.rule == "win-controls-keepout" }
        #expect(menu.map(\.entities) == [["form", "form/menu"]])
        // It crosses the bottom edge: 0 pt from it.
        #expect(menu.first?.measured == 0)
        // The same child as an ornament: the system lays its controls out around it.
        #expect(try RuleScenes.check(Self.scene(nil)).filter { $0.rule == "win-controls-keepout" }.isEmpty)
    }

    @Test func aPresentedWindowIsNoOrnamentForItsWidth() throws {
        // 900 pt wide in a 720 pt window: orn-width for an ornament, nothing for a popover.
        let wide = { (p: String?) in Self.scene(p).replacingOccurrences(of: "size: [280, 200]", with: "size: [900, 200]") }
        let ornament = try RuleScenes.check(wide(nil)).filter { $0.rule == "orn-width" }
        #expect(ornament.count == 1 && abs((ornament.first?.measured ?? 0) - 900) < 1e-9)
        #expect(try RuleScenes.check(wide("popover")).filter { $0.rule == "orn-width" }.isEmpty)
    }
}

/// win-content-in-bounds' ornament sub-check: an ornament whose centre lies inside its window's face.
@Suite struct OrnamentOverContentTests {
    @Test func anOrnamentLeftInsideAMovedWindowIsReported() throws {
        // The rule's example: 2.5 m away, a point is tan(0.0671°) · 2.5 m; the window's half height
        // is 200 of them; the ornament's centre 0.43 m below the window's centre.
        let vs = try RuleScenes.check(try String(contentsOfFile: TestPaths.repo("Scenes/rules/win-content-in-bounds/fail-ornament-over-content.scene.yaml"), encoding: .utf8))
            .filter { $0.rule == "win-content-in-bounds" }
        let mpp = tan(0.0671 * .pi / 180) * 2.5
        #expect(vs.map(\.entities) == [["form/toolbar"]])
        #expect(abs((vs.first?.measured ?? 0) - (200 * mpp - 0.43) / mpp) < 1e-6)
        #expect(vs.first?.unit == "pt" && vs.first?.threshold == 0)
        #expect(vs.first?.message.hasPrefix("ornament form/toolbar lies over the content of form: its centre is 53.13 pt inside the window's bottom edge;") == true)
        #expect(vs.first?.message.hasSuffix("a sheet, alert, popover or menu the window opens is no ornament: say so with presentation: sheet, alert, popover or menu") == true)
        // The same window at 1.5 m: the ornament is (0.43 − 200 · tan(0.0671°) · 1.5) m below the
        // bottom edge, outside: nothing.
        let near = try String(contentsOfFile: TestPaths.repo("Scenes/rules/win-content-in-bounds/fail-ornament-over-content.scene.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "placement: {distance: 2.5}", with: "placement: {distance: 1.5}")
        #expect(try RuleScenes.check(near).filter { $0.rule == "win-content-in-bounds" }.isEmpty)
    }
}

/// The ornament sub-check's allowance and fix, vol-scale-mode on nested windows, and the keepout
/// advice for a presented menu.
@Suite struct OrnamentPlacementTests {
    static func scene(toolbarY: String) -> String {
        """
        format: spatialscene/1
        duration: 1
        entities:
          - id: mail
            kind: window
            placement: {distance: 1.5}
            size: [720, 640]
            children:
              - id: toolbar
                kind: window
                position: [0, \(toolbarY), 0.02]
                size: [300, 72]
        """
    }

    @Test func aToolbarAcrossTheEdgePassesAndOneFurtherInIsToldWhere() throws {
        // 1.5 m: a point is s = tan(0.0671°) · 1.5 m; the window's bottom edge is 320 s = 0.5621 m
        // below its centre. At y = −0.56 the toolbar's centre is 1.2 pt inside, far less than a
        // quarter of its 72 pt: it straddles the edge. At y = −0.5 it is (0.5621 − 0.5) / s =
        // 35.4 pt inside, more than 18 pt: reported, with the edge's position.
        let s = tan(0.0671 * .pi / 180) * 1.5
        #expect(try RuleScenes.check(Self.scene(toolbarY: "-0.56")).filter { $0.rule == "win-content-in-bounds" }.isEmpty)
        let inside = try RuleScenes.check(Self.scene(toolbarY: "-0.5")).filter { $0.rule == "win-content-in-bounds" }
        #expect(inside.count == 1)
        #expect(abs((inside.first?.measured ?? 0) - (320 * s - 0.5) / s) < 1e-6)
        #expect(inside.first?.message.contains("move it out to that edge (its centre at y = -0.562 m in position, as visionOS draws a toolbar across the edge, or beyond)") == true)
    }

    @Test func aFixedVolumesOrnamentsAreInTheVolumesFinding() throws {
        // A fixed-scale volume with a button and a toolbar ornament holding two: one finding on
        // the volume counting the three, none on the ornament (it cannot set its own scale).
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: globe
                kind: volume
                placement: {distance: 1.5}
                size: [0.6, 0.6, 0.6]
                elements:
                  - {id: spin, role: button, frame: [10, 10, 60, 60]}
                children:
                  - id: toolbar
                    kind: window
                    position: [0, -0.36, 0.3]
                    size: [200, 72]
                    elements:
                      - {id: zin, role: button, frame: [10, 14, 44, 44]}
                      - {id: zout, role: button, frame: [120, 14, 44, 44]}
            """).filter { $0.rule == "vol-scale-mode" }
        #expect(vs.map(\.entities) == [["globe"]])
        #expect(vs.first?.measured == 3)
    }

    @Test func aPresentationOverTheWindowBarGetsAdviceForItsKind() throws {
        let v = try RuleScenes.check(PresentedWindowTests.scene("menu")).first { $0.rule == "win-controls-keepout" }
        #expect(v?.message.hasSuffix("; keep the menu or popover no taller than its window (fewer items), avoid a pull-down menu in a bottom toolbar, or place the control that opens it higher so it opens upward") == true)
        // A sheet in the same place is asked to fit its window, not given menu advice (s29 trial F8).
        let sheet = try RuleScenes.check(PresentedWindowTests.scene("sheet")).first { $0.rule == "win-controls-keepout" }
        #expect(sheet?.message.hasSuffix("; give the sheet or alert a size that fits inside its window, so the window's controls stay clear") == true)
    }
}

/// orn-count-visible: how many ornaments a window shows at once, and how much of the time it keeps
/// each one shown.
@Suite struct WindowBalanceTests {
    /// A 1280 × 720 pt window 1.5 m ahead with `n` ornaments (the first `hidden` of them starting
    /// hidden), `elements`, and events; 90 Hz.
    static func canvas(ornaments n: Int, hidden: Int = 0, elements: [String] = [], events: [String] = [], duration: Double = 1) -> String {
        var lines = ["format: spatialscene/1", "duration: \(duration)", "entities:", "  - id: c", "    kind: window",
                     "    placement: {distance: 1.5}", "    size: [1280, 720]", "    elements:\(elements.isEmpty ? " []" : "")"]
        lines += elements.map { "      - {" + $0 + "}" }
        lines.append("    children:")
        for k in 0..<n {
            // Along the bottom edge (y = −0.6325 m at 1.5 m), 0.4 m apart.
            lines += ["      - id: o\(k)", "        kind: window", "        position: [\(Double(k) * 0.4 - 0.4), -0.6325, 0.02]", "        size: [200, 60]"]
            if k < hidden { lines.append("        visible: false") }
        }
        lines.append("events:\(events.isEmpty ? " []" : "")")
        lines += events.map { "  - {" + $0 + "}" }
        return lines.joined(separator: "\n")
    }

    static func run(_ yaml: String) throws -> [ReportViolation] {
        try RuleScenes.check(yaml).filter { $0.rule == "orn-count-visible" }
    }

    @Test func ornamentsShownAtOnce() throws {
        // Three ornaments, the first shown from 0.5 s (frames 45–89): three at once then.
        let v = try Self.run(Self.canvas(ornaments: 3, hidden: 1, events: ["t: 0.5, action: show, entity: c/o0"]))
        let count = v.filter { $0.entities == ["c"] }
        #expect(count.count == 1 && count.first?.spans == [45...89] && count.first?.measured == 3 && count.first?.threshold == 2 && count.first?.severity == .info)
        #expect(try Self.run(Self.canvas(ornaments: 2)).isEmpty)
    }

    @Test func ornamentHiddenMostOfTheTime() throws {
        // Shown from 0.7 s: hidden in frames 0–62 (63 of 90), shown in 27: 30 % of the window's time.
        let v = try Self.run(Self.canvas(ornaments: 1, hidden: 1, events: ["t: 0.7, action: show, entity: c/o0"]))
        #expect(v.count == 1 && v.first?.entities == ["c/o0"] && v.first?.spans == [0...62] && v.first?.unit == "%")
        #expect(abs((v.first?.measured ?? 0) - 30) < 1e-9 && v.first?.threshold == 50)
        // Shown from 0.4 s: 54 of 90 frames, 60 %: kept visible enough.
        #expect(try Self.run(Self.canvas(ornaments: 1, hidden: 1, events: ["t: 0.4, action: show, entity: c/o0"])).isEmpty)
        // A window that plays a video may hide its controls while people watch.
        let video = Self.canvas(ornaments: 1, hidden: 1, elements: ["id: player, role: image, frame: [0, 0, 1280, 720], label: Film, media: {kind: video}"],
                                events: ["t: 0.7, action: show, entity: c/o0"])
        #expect(try Self.run(video).isEmpty)
        // So may a photo viewer: an image over 1280 × 400 of 1280 × 720 pt (55.6 %, at least half);
        // a 1280 × 300 pt banner (41.7 %) is no photo viewer.
        func photo(height: Int) -> String {
            Self.canvas(ornaments: 1, hidden: 1, elements: ["id: photo, role: image, frame: [0, 0, 1280, \(height)], accessibilityLabel: Beach"],
                        events: ["t: 0.7, action: show, entity: c/o0"])
        }
        #expect(try Self.run(photo(height: 400)).isEmpty)
        #expect(try Self.run(photo(height: 300)).map(\.entities) == [["c/o0"]])
    }
}

/// `win-opaque-area` on the 1280 × 720 pt window of `RuleWindowTests` (921,600 pt²), and the
/// union area it measures.
@Suite struct WinOpaqueAreaTests {
    private static func run(_ elements: [String], events: [String] = [], platform: String = "visionOS") throws -> [ReportViolation] {
        try RuleScenes.check("""
            format: spatialscene/1
            platform: \(platform)
            duration: 1
            entities:
              - id: main
                kind: window
                placement: {distance: 2}
                size: [1280, 720]
                elements:
            \(elements.map { "      - {" + $0 + "}" }.joined(separator: "\n"))
            events:\(events.isEmpty ? " []" : "")
            \(events.map { "  - {" + $0 + "}" }.joined(separator: "\n"))
            """).filter { $0.rule == "win-opaque-area" }
    }

    @Test func unionAreaCountsOverlapsOnce() {
        // Two 100 × 100 squares overlapping in a 50 × 50 corner: 20,000 − 2,500 = 17,500; a third
        // inside the first adds nothing; disjoint ones add up; an empty or degenerate one is 0.
        let a = RectPt(x: 0, y: 0, width: 100, height: 100), b = RectPt(x: 50, y: 50, width: 100, height: 100)
        #expect(unionArea([a, b]) == 17_500)
        #expect(unionArea([a, b, RectPt(x: 10, y: 10, width: 20, height: 20)]) == 17_500)
        #expect(unionArea([a, RectPt(x: 200, y: 0, width: 10, height: 30)]) == 10_300)
        #expect(unionArea([]) == 0 && unionArea([RectPt(x: 0, y: 0, width: 0, height: 10)]) == 0)
        // A plus sign: 300 × 100 and 100 × 300 crossing in a 100 × 100 centre: 50,000.
        #expect(unionArea([RectPt(x: 0, y: 100, width: 300, height: 100), RectPt(x: 100, y: 0, width: 100, height: 300)]) == 50_000)
    }

    @Test func opaqueFillsOverHalfTheWindow() throws {
        // A 1280 × 400 panel (512,000 pt²) and an 800 × 400 panel from y = 300 overlapping it by
        // 800 × 100: union 512,000 + 240,000 = 752,000 pt², 81.597 % of 921,600. The image, the
        // translucent fill and the part of the footer outside the window do not count.
        let v = try Self.run([
            "id: top, role: text, frame: [0, 0, 1280, 400], label: Top, background: \"#1C1C1E\"",
            "id: mid, role: text, frame: [0, 300, 800, 400], label: Mid, background: \"#2C2C2EF5\"",
            "id: tint, role: text, frame: [800, 400, 480, 320], label: Tint, background: \"#1C1C1E80\"",
            "id: photo, role: image, frame: [800, 400, 480, 320], background: \"#000000\"",
        ])
        #expect(v.count == 1 && v.first?.entities == ["main"] && v.first?.severity == .info && v.first?.unit == "%")
        #expect(abs((v.first?.measured ?? 0) - 752_000.0 / 921_600 * 100) < 1e-9 && v.first?.threshold == 50)
        #expect(v.first?.message.contains("(more than 50 %: main/top and main/mid)") == true)
        // Only the top panel and a footer hanging 320 pt below the window (clipped to 1280 × 20):
        // 512,000 + 25,600 = 537,600 / 921,600 = 58.33 %; a 1280 × 300 panel alone (41.7 %) is not reported.
        let footer = try Self.run(["id: top, role: text, frame: [0, 0, 1280, 400], label: Top, background: \"#1C1C1E\"",
                                   "id: foot, role: text, frame: [0, 700, 1280, 340], label: Foot, background: \"#1C1C1E\""])
        #expect(abs((footer.first?.measured ?? 0) - 537_600.0 / 921_600 * 100) < 1e-9)
        #expect(try Self.run(["id: top, role: text, frame: [0, 0, 1280, 300], label: Top, background: \"#1C1C1E\""]).isEmpty)
        #expect(try Self.run(["id: top, role: text, frame: [0, 0, 1280, 400], label: Top, background: \"#1C1C1E\""], platform: "iOS").isEmpty)
    }

    @Test func theShareFollowsWhichFillsAreShown() throws {
        // Two 640 × 720 halves, the right one shown from t = 0.5 s: 50 % (not above) until frame 44,
        // 100 % from frame 45.
        let v = try Self.run(["id: left, role: text, frame: [0, 0, 640, 720], label: L, background: \"#1C1C1E\"",
                              "id: right, role: text, frame: [640, 0, 640, 720], label: R, background: \"#1C1C1E\", visible: false"],
                             events: ["t: 0.5, action: show, entity: main/right"])
        #expect(v.count == 1 && v.first?.measured == 100 && v.first?.spans == [45...89])
    }
}
