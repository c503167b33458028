import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Rules on how content is drawn: light font weights (type-light-weight) and windows without
/// their glass (win-glass-background). Windows are 1280 × 720 pt, 2 m ahead, one second at 90 Hz.
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

    @Test func lightFixedScaleTextIsMeasuredInAngle() throws {
        // 3D text 3 cm high, 3 m ahead at eye level, facing the eye: 2·atan(0.015 / 3) = 0.5730°,
        // 8.539 pt_eq at 0.0671°/pt: a warning.
        let yaml = """
            format: spatialscene/1
            duration: 1
            entities:
              - {id: label, kind: text, placement: {distance: 3}, height: 0.03, string: Hi, fontWeight: light}
            """
        let v = try Self.run(yaml, "type-light-weight")
        let expected = degrees(2 * atan(0.015 / 3)) / Units.defaultPointAngle
        #expect(v.count == 1 && v.first?.unit == "pt_eq" && v.first?.severity == .warning)
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
}
