import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Regressions found by reviewing the rules against hig-rules.md and by writing scenes as a user
/// would; each scene runs end to end (loader → simulator → rules) and every expected number is
/// derived by hand from the scene's geometry.
@Suite struct RuleReviewFixesTests {
    /// Writes `yaml` to a fresh folder and checks it with the default configuration (or `config`).
    private static func check(_ yaml: String, config: String? = nil) throws -> [ReportViolation] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rule-review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.scene.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let configuration = try config.map { try RuleConfiguration.parse($0) } ?? .default
        let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: configuration, snapshot: false)
        #expect(report.status == .checked, "\(report.errors.map(\.description))")
        return report.violations
    }

    /// Angle in degrees between the directions from `eye` to `a` and to `b`.
    private static func angle(_ a: Vec3, _ b: Vec3, eye: Vec3 = Vec3(0, 1.6, 0)) -> Double {
        degrees(acos(dot(normalize(a - eye), normalize(b - eye))))
    }

    private static let pointAngle = Units.defaultPointAngle
    /// Metres per point of fixed-scale content: tan(0.0671°) · 1 m.
    private static let fixedPoint = tan(radians(pointAngle))

    @Test func controlsOfAFixedScaleVolumeAreJudgedInPointEquivalents() throws {
        // A 0.4 × 0.3 × 0.1 m fixed-scale volume 3 m ahead: its front face (z = −2.95) is
        // 0.4/s × 0.3/s pt. Controls a and b are 60 pt squares centred at (130, 130) and (206, 130).
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: board
                kind: volume
                placement: {distance: 3, azimuth: 0, elevation: 0}
                size: [0.4, 0.3, 0.1]
                elements:
                  - {id: a, role: custom, frame: [100, 100, 60, 60]}
                  - {id: b, role: custom, frame: [176, 100, 60, 60]}
            """)
        let s = Self.fixedPoint
        let w = 0.4 / s, h = 0.3 / s
        func centre(_ x: Double) -> Vec3 { Vec3((x - w / 2) * s, 1.6 + (h / 2 - 130) * s, -2.95) }
        let ca = centre(130), cb = centre(206)
        // 76 pt apart on the face: about 25.8 pt_eq from the eye, below 60.
        let spacing = Self.angle(ca, cb) / Self.pointAngle
        let pair = vs.filter { $0.rule == "target-center-spacing" }
        #expect(pair.map(\.entities) == [["board/a", "board/b"]])
        #expect(pair.first?.unit == "pt_eq")
        #expect(abs((pair.first?.measured ?? 0) - spacing) < 0.01)
        // Each 60 pt control is 60 · s = 7 cm wide at ~2.95 m: about 20.3 pt_eq, below 28 (error).
        let sizeA = 2 * degrees(atan(30 * s / length(ca - Vec3(0, 1.6, 0)))) / Self.pointAngle
        let hit = vs.filter { $0.rule == "target-hit-region-visionos" }
        #expect(hit.map(\.entities) == [["board/a"], ["board/b"]])
        #expect(hit.allSatisfy { $0.unit == "pt_eq" && $0.severity == .error && $0.threshold == 28 })
        #expect(abs((hit.first?.measured ?? 0) - sizeA) < 0.05 * sizeA)
    }

    @Test func aButtonLabelHasAMinimumTextSize() throws {
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: main
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [600, 400]
                elements:
                  - {id: ok, role: button, frame: [100, 100, 120, 60], label: OK, fontSize: 8}
                  - {id: cancel, role: button, frame: [300, 100, 120, 60], label: Cancel, fontSize: 17}
            """)
        let v = vs.filter { $0.rule == "type-min-size" }
        #expect(v.map(\.entities) == [["main/ok"]])
        #expect(v.first?.measured == 8 && v.first?.unit == "pt" && v.first?.severity == .error)
    }

    @Test func textFloatingInFrontOfItsWindowIsNotFlat() throws {
        // A text entity placed 3 cm in front of its window's plane (the window faces the viewer).
        let vs = try Self.check("""
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
        let vs = try Self.check("""
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

    @Test func walkingAroundAStillStatueIsNotHeadLock() throws {
        // The viewer circles the statue at 2 m, turning 30° left (positive yaw) in 4 s to keep
        // looking at it: its
        // direction in the head frame stays put, but it does not move in the world.
        var keys: [String] = []
        for k in 0...16 {
            let a = radians(Double(k) * 30 / 16)
            keys.append("    - {t: \(Double(k) / 4), position: [\(2 * sin(a)), 1.6, \(-2 + 2 * cos(a))], rotation: {yaw: \(Double(k) * 30 / 16)}}")
        }
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 4
            viewer:
              path:
            \(keys.joined(separator: "\n"))
            entities:
              - {id: statue, kind: volume, position: [0, 1.6, -2], size: [0.4, 0.4, 0.4]}
            """)
        #expect(vs.filter { $0.rule == "fov-head-locked" }.isEmpty)
    }

    @Test func openingAMixedFullSpaceIsALaunch() throws {
        // The viewer has turned 60° away when the Full Space (mixed) opens at t = 1 s (frame 90).
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 2
            viewer:
              path:
                - {t: 0, rotation: {yaw: 0}}
                - {t: 0.5, rotation: {yaw: 60}}
            events:
              - {t: 1, action: setImmersion, style: mixed, trigger: user}
            entities:
              - {id: main, kind: window, primary: true, placement: {distance: 2, azimuth: 0, elevation: 0}, size: [400, 300]}
            """)
        let v = vs.filter { $0.rule == "fov-launch-placement" }
        #expect(v.first?.spans == [90...90])
        #expect(abs((v.first?.measured ?? 0) - 60) < 1e-6)
    }

    @Test func aHiddenGroundedEnvironmentDoesNotExcuseAShownOne() throws {
        // Full immersion from t = 0.5 s (frame 45) in an environment without a floor; the grounded
        // one is never shown.
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 2
            entities:
              - {id: beach, kind: environment, groundPlane: true, visible: false}
              - {id: space, kind: environment, groundPlane: false}
            events:
              - {t: 0.5, action: setImmersion, style: full, trigger: user}
            """)
        let v = vs.filter { $0.rule == "env-ground-plane" }
        #expect(v.map(\.entities) == [["space"]])
        #expect(v.first?.spans == [45...179])
    }

    @Test func eachTextIsJudgedAtItsOwnFarthestDistance() throws {
        // An 8 cm label 1 m away is judged at 3 m: 2·atan(0.08 / 6) = 1.53° = 22.8 pt_eq (fine),
        // even though a 1 m sign stands 20 m away (judged there: 2·atan(1 / 40) = 2.86° = 42.7).
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: near-label, kind: text, placement: {distance: 1, azimuth: 0, elevation: 0}, height: 0.08, string: Exhibit 12}
              - {id: far-sign, kind: text, placement: {distance: 20, azimuth: 10, elevation: 0}, height: 1.0, string: EXIT}
              - {id: tiny, kind: text, placement: {distance: 1, azimuth: -10, elevation: 0}, height: 0.03, string: small print}
            """)
        // The 3 cm print is judged at 3 m too: 2·atan(0.03 / 6) / 0.0671° = 8.54 pt_eq, below 12.
        let v = vs.filter { $0.rule == "type-legible-across-scale" }
        #expect(v.map(\.entities) == [["tiny"]])
        let expected = 2 * degrees(atan(0.03 / 6)) / Self.pointAngle
        #expect(abs((v.first?.measured ?? 0) - expected) < 1e-4)
        #expect(v.first?.message.contains("seen from 3 m") == true)
    }

    @Test func billboardIsJudgedOnlyWhileTheTextIsInView() throws {
        // Two labels turned 60° away from the eye: one ahead (in view), one behind the viewer.
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: ahead, kind: text, position: [0, 1.6, -2], rotation: {yaw: 60}, height: 0.1, string: Ahead}
              - {id: behind, kind: text, position: [0, 1.6, 2], rotation: {yaw: 120}, height: 0.1, string: Behind}
            """)
        let v = vs.filter { $0.rule == "type-billboard" }
        #expect(v.map(\.entities) == [["ahead"]])
        #expect(abs((v.first?.measured ?? 0) - 60) < 1e-6)
        #expect(v.first?.severity == .warning)
    }

    @Test func ornamentsAreNotCountedAsWindows() throws {
        // Three windows, each with an ornament (a window inside it): three open windows, fine.
        func window(_ id: String, _ az: Int) -> String {
            "  - {id: \(id), kind: window, placement: {distance: 3, azimuth: \(az), elevation: 0}, size: [400, 300], children: [{id: bar-\(id), kind: window, position: [0, -0.45, 0.02], size: [300, 60]}]}"
        }
        let three = try Self.check("format: spatialscene/1\nduration: 1\nentities:\n" + [window("a", -40), window("b", 0), window("c", 40)].joined(separator: "\n"))
        #expect(three.filter { $0.rule == "fov-window-clutter" }.isEmpty)
        let four = try Self.check("format: spatialscene/1\nduration: 1\nentities:\n" + [window("a", -40), window("b", 0), window("c", 40), window("d", 120)].joined(separator: "\n"))
        let v = four.filter { $0.rule == "fov-window-clutter" }
        #expect(v.map(\.measured) == [4])
        #expect(v.first?.message.contains("open at once") == true)
    }

    @Test func theFadeZoneIsMeasuredLikeTheBoundary() throws {
        // The head rises 1 m and moves 0.8 m sideways: 1.28 m from where immersion began in 3D
        // (inside the 1.2–1.5 m fade zone), 0.8 m horizontally (outside it).
        let yaml = """
            format: spatialscene/1
            immersion: full
            duration: 1
            viewer:
              path:
                - {t: 0, position: [0, 1.6, 0]}
                - {t: 1, position: [0.8, 2.6, 0]}
            entities:
              - {id: env, kind: environment, groundPlane: true}
            """
        #expect(try Self.check(yaml).contains { $0.rule == "boundary-fade-zone" })
        let horizontal = try Self.check(yaml, config: "rules:\n  boundary-head-exit: {horizontal: 1}\n")
        #expect(!horizontal.contains { $0.rule == "boundary-fade-zone" })
    }

    @Test func onlyButtonsOfTheStandardSizesGetTheSystemHitRegion() throws {
        // Buttons 44 and 52 pt tall are Regular and Large: fine. A 48 pt button is no standard
        // size, so it needs a custom control's 60 pt (warning); so does a 44 pt custom control. A
        // 36 pt system slider keeps the system's hit region; a 20 pt button is below 28 (error).
        let vs = try Self.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [1200, 400]
                elements:
                  - {id: regular, role: button, frame: [0, 0, 120, 44]}
                  - {id: large, role: button, frame: [200, 0, 120, 52]}
                  - {id: odd, role: button, frame: [400, 0, 120, 48]}
                  - {id: knob, role: custom, frame: [600, 0, 44, 44]}
                  - {id: scrubber, role: slider, frame: [0, 200, 400, 36]}
                  - {id: tiny, role: button, frame: [800, 0, 20, 20]}
            """).filter { $0.rule == "target-hit-region-visionos" }
        #expect(vs.map(\.entities) == [["w/tiny"], ["w/knob"], ["w/odd"]])
        #expect(vs.map(\.severity) == [.error, .warning, .warning])
        #expect(vs.map(\.measured) == [20, 44, 48])
        #expect(vs.map(\.threshold) == [28, 60, 60])
    }

    @Test func explainSuggestsARuleForAMissingWord() {
        #expect(containingEveryWord(of: "target-spacing", in: RuleCatalog.rules.map(\.id)) == "target-center-spacing")
        #expect(containingEveryWord(of: "head locked", in: RuleCatalog.rules.map(\.id)) == "fov-head-locked")
        #expect(containingEveryWord(of: "teleport", in: RuleCatalog.rules.map(\.id)) == nil)
        #expect { try RuleCatalog.renderExplanation(id: "target-spacing") } throws: { error in
            (error as? UnknownRule)?.description == "unknown rule 'target-spacing'; did you mean 'target-center-spacing'?"
        }
    }

    @Test func smallNumbersKeepTwoSignificantDigits() {
        #expect(fmt(0.005) == "0.005")
        #expect(fmt(0.0234) == "0.023")
        #expect(fmt(0.05) == "0.05")
        #expect(fmt(12.5) == "12.5")
        #expect(fmt(1.006) == "1.01")
        #expect(fmt(60) == "60")
        #expect(fmt(-0.0) == "0")
        #expect(fmt(-0.004) == "-0.004")
    }
}
