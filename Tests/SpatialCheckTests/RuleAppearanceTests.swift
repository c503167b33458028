import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Rules on how content is drawn: light font weights (type-light-weight), text with no background
/// (type-free-floating), coloured text (type-color-weight) and windows without their glass
/// (win-glass-background). Windows are 1280 × 720 pt, 2 m ahead, one second at 90 Hz.
@Suite struct RuleAppearanceTests {
    static func run(_ yaml: String, _ rule: String) throws -> [ReportViolation] {
        try RuleScenes.check(yaml).filter { $0.rule == rule }
    }

    // MARK: type-light-weight

    @Test func lightWeightsByTheirSize() throws {
        // Dynamic window: sizes in pt. Thin 15 pt (warning), Light 24 pt (info), Ultralight at
        // exactly 17 pt (info: not smaller than 17), Regular and unstated weights not judged.
        let v = try Self.run(RuleScenes.windowScene(elements: [
            "{id: thin, role: text, frame: [40, 40, 400, 24], fontSize: 15, fontWeight: thin, label: A}",
            "{id: light, role: text, frame: [40, 100, 400, 30], fontSize: 24, fontWeight: light, label: B}",
            "{id: ultra, role: text, frame: [40, 160, 400, 24], fontSize: 17, fontWeight: ultraLight, label: C}",
            "{id: regular, role: text, frame: [40, 220, 400, 24], fontSize: 13, fontWeight: regular, label: D}",
            "{id: plain, role: text, frame: [40, 280, 400, 24], fontSize: 13, label: E}",
        ]), "type-light-weight")
        let by = Dictionary(v.map { ($0.entities.joined(), $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(by.keys) == ["w/light", "w/thin", "w/ultra"] && v.count == 3)
        #expect(by["w/thin"]?.measured == 15 && by["w/light"]?.measured == 24 && by["w/ultra"]?.measured == 17)
        #expect(by["w/thin"]?.severity == .warning && by["w/light"]?.severity == .info && by["w/ultra"]?.severity == .info)
        #expect(v.allSatisfy { $0.unit == "pt" && $0.threshold == 17 && $0.spans == [0...89] })
        #expect(by["w/thin"]?.message.contains("set thin at 15 pt") == true)
        #expect(by["w/light"]?.message.contains("set light (at 24 pt)") == true)
    }

    /// 3D text 3 cm high, 3 m ahead at eye level, facing the eye: 2·atan(0.015 / 3) = 0.5730°,
    /// 8.539 pt_eq at 0.0671°/pt, below 17: light text (a warning) and coloured text alike.
    @Test(arguments: [("type-light-weight", "fontWeight: light"), ("type-color-weight", "fontWeight: bold, color: \"#FF453A\"")])
    func fixedScaleTextIsMeasuredInAngle(rule: String, appearance: String) throws {
        let yaml = """
            format: spatialscene/1
            duration: 1
            entities:
              - {id: label, kind: text, placement: {distance: 3}, height: 0.03, string: Hi, \(appearance)}
            """
        let v = try Self.run(yaml, rule)
        let expected = degrees(2 * atan(0.015 / 3)) / Units.defaultPointAngle
        #expect(v.count == 1 && v.first?.unit == "pt_eq" && v.first?.threshold == 17)
        #expect(v.first?.severity == (rule == "type-light-weight" ? .warning : .info))
        #expect(abs((v.first?.measured ?? 0) - expected) < 1e-3)
    }

    // MARK: win-glass-background

    @Test func windowsWithoutGlass() throws {
        func window(_ background: String) throws -> [ReportViolation] {
            try Self.run(RuleScenes.windowScene(windowKeys: ["background: \(background)"],
                                                elements: ["{id: t, role: text, frame: [40, 40, 400, 40], fontSize: 29, fontWeight: bold, label: T}"]),
                         "win-glass-background")
        }
        let opaque = try window("\"#1C1C1E\"")
        #expect(opaque.count == 1 && opaque.first?.entities == ["w"] && opaque.first?.severity == .warning && opaque.first?.spans == [0...89])
        #expect(opaque.first?.message.contains("opaque background (#1C1C1E)") == true)
        // Alpha 0x80 / 255 = 0.502: a tint in place of the glass.
        #expect(try window("\"#FF000080\"").first?.message.contains("is tinted (#FF000080)") == true)
        #expect(try window("passthrough").first?.message.contains("no background (passthrough)") == true)
        #expect(try window("glass").isEmpty)
        // Alpha 0xF2 / 255 = 0.949, just under 0.95: still a tint, not opaque.
        #expect(try window("\"#1C1C1EF2\"").first?.message.contains("is tinted") == true)
        // The screen's UI on iOS is no visionOS window.
        let ios = try Self.run(RuleScenes.windowScene(platform: "iOS", windowKeys: ["background: \"#1C1C1E\""],
                                                      elements: ["{id: t, role: text, frame: [40, 40, 400, 40], fontSize: 29, label: T}"]),
                               "win-glass-background")
        #expect(ios.isEmpty)
    }
    // MARK: type-free-floating

    @Test func textWithNoBackgroundByItsWeight() throws {
        // World text and a volume's face resolve to passthrough; a window is glass unless it says
        // otherwise; a colour, even translucent, is a plate. Weight classes: regular 400, medium
        // 500, thin 200 against semibold's 600.
        let yaml = """
            format: spatialscene/1
            duration: 1
            entities:
              - {id: world, kind: text, placement: {distance: 3, azimuth: -20}, height: 0.05, string: Mars, fontWeight: regular}
              - {id: bold, kind: text, placement: {distance: 3, azimuth: -10}, height: 0.05, string: Venus, fontWeight: semibold}
              - {id: unstated, kind: text, placement: {distance: 3, azimuth: 0}, height: 0.05, string: Earth}
              - {id: plate, kind: text, placement: {distance: 3, azimuth: 10}, height: 0.05, string: Moon, fontWeight: regular, background: "#1C1C1E80"}
              - id: box
                kind: volume
                placement: {distance: 2, azimuth: 20}
                size: [0.4, 0.4, 0.4]
                elements:
                  - {id: face, role: text, frame: [10, 10, 200, 30], fontSize: 20, fontWeight: medium, label: Face}
              - id: glass
                kind: window
                placement: {distance: 2, azimuth: 40}
                size: [400, 300]
                elements:
                  - {id: light, role: text, frame: [20, 20, 300, 30], fontSize: 20, fontWeight: light, label: On glass}
              - id: bare
                kind: window
                background: passthrough
                placement: {distance: 2, azimuth: -50}
                size: [400, 300]
                elements:
                  - {id: thin, role: text, frame: [20, 20, 300, 30], fontSize: 20, fontWeight: thin, label: On nothing}
            """
        let v = try Self.run(yaml, "type-free-floating")
        let by = Dictionary(v.map { ($0.entities.joined(), $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(by.keys) == ["world", "box/face", "bare/thin"] && v.count == 3)
        #expect(by["world"]?.measured == 400 && by["box/face"]?.measured == 500 && by["bare/thin"]?.measured == 200)
        #expect(v.allSatisfy { $0.threshold == 600 && $0.severity == .info && $0.spans == [0...89] })
        #expect(by["world"]?.message.contains("is set regular; make it semibold or bold") == true)
        // visionOS guidance: the same world label in an iOS scene is not judged.
        let ios = try Self.run("""
            format: spatialscene/1
            platform: iOS
            duration: 1
            entities:
              - {id: world, kind: text, placement: {distance: 3}, height: 0.05, string: Mars, fontWeight: regular}
            """, "type-free-floating")
        #expect(ios.isEmpty)
    }

    // MARK: type-color-weight

    @Test func colouredTextBySizeAndWeight() throws {
        // Saturations: #FF453A (255, 69, 58) 0.77; #FF9F0A 0.96; #0A84FF 0.96; #8E8E93 (142, 142, 147)
        // 5/147 = 0.034 and #F0F0FF 15/255 = 0.059, below 0.2: greys and a faint tint are not coloured.
        let v = try Self.run(RuleScenes.windowScene(elements: [
            "{id: red, role: text, frame: [40, 40, 400, 20], fontSize: 13, color: \"#FF453A\", label: A}",
            "{id: orange, role: text, frame: [40, 80, 400, 30], fontSize: 22, fontWeight: regular, color: \"#FF9F0A\", label: B}",
            "{id: blue, role: text, frame: [40, 130, 400, 30], fontSize: 20, fontWeight: bold, color: \"#0A84FF\", label: C}",
            "{id: grey, role: text, frame: [40, 180, 400, 20], fontSize: 13, fontWeight: light, color: \"#8E8E93\", label: D}",
            "{id: tint, role: text, frame: [40, 220, 400, 20], fontSize: 13, color: \"#F0F0FF\", label: E}",
            "{id: unstated, role: text, frame: [40, 260, 400, 30], fontSize: 20, color: \"#FF453A\", label: F}",
            "{id: both, role: text, frame: [40, 300, 400, 20], fontSize: 12, fontWeight: light, color: \"#FF453A\", label: G}",
        ]), "type-color-weight")
        let by = Dictionary(v.map { ($0.entities.joined(), $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(by.keys) == ["w/red", "w/orange", "w/both"] && v.count == 3)
        // Size first (pt in a dynamic window), then the weight sub-check (weight classes).
        #expect(by["w/red"]?.measured == 13 && by["w/red"]?.threshold == 17 && by["w/red"]?.unit == "pt")
        #expect(by["w/both"]?.measured == 12 && by["w/both"]?.unit == "pt")
        #expect(by["w/orange"]?.measured == 400 && by["w/orange"]?.threshold == 600 && by["w/orange"]?.unit == "weight")
        #expect(v.allSatisfy { $0.severity == .info && $0.spans == [0...89] })
        #expect(by["w/red"]?.message.contains("coloured text w/red (#FF453A) is 13 pt, smaller than 17 pt") == true)
        #expect(by["w/orange"]?.message.contains("(#FF9F0A) is set regular") == true)
    }
}
