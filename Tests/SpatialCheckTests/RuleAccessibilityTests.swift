import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
@testable import SceneLoader
@testable import Simulation
import Reporting
import SpatialModel

/// `a11y-labels`, `type-contrast` and `type-tab-labels`, end to end (loader → simulator → rules)
/// on elements, text, models and annotated asset nodes. Contrast ratios below are worked out by
/// hand from WCAG 2 (relative luminance of linearised sRGB, (L1 + 0.05) / (L2 + 0.05)).
@Suite struct RuleAccessibilityTests {
    // MARK: a11y-labels

    @Test func customControlsAndImagesNeedLabelsStandardControlsDoNot() throws {
        let v = try RuleScenes.check(RuleScenes.window([
            "role: button, label: Play",                          // e0: standard control with text: clean
            "role: custom",                                       // e1: custom control, no label → warning
            "role: custom, label: Volume",                        // e2: its visible text labels it: clean
            "role: custom, accessibilityLabel: Volume",           // e3: clean
            "role: image",                                        // e4: meaningful image, no label → warning
            "role: image, decorative: true",                      // e5: decorative: clean
            "role: text, label: Hello",                           // e6: text: clean
            "role: custom, decorative: true",                     // e7: interactive but hidden → warning
            "role: button",                                       // e8: standard control (SF Symbol label): not judged
            "role: custom, interactive: false",                   // e9: not interactive, not an image: clean
        ])).filter { $0.rule == "a11y-labels" }
        #expect(v.map(\.entities) == [["w/e1"], ["w/e4"], ["w/e7"]])
        #expect(v.allSatisfy { $0.severity == .warning && $0.measured == 1 && $0.threshold == 0 && $0.unit == "count" })
        #expect(v.allSatisfy { $0.spans == [0...89] })
        #expect(v[0].message.contains("no accessibility label"))
        #expect(v[2].message.contains("marked decorative"))
    }

    @Test func interactive3DContentNeedsALabel() {
        var fx = RuleFixture()
        fx.add("ship", .model) { $0.interactive = true }                                   // warning
        fx.add("labelled", .model) { $0.interactive = true; $0.accessibilityLabel = "Blue ship" }
        fx.add("scenery", .model)                                                          // not interactive: clean
        fx.add("diorama", .model) { $0.decorative = false }                                // stated meaningful: warning
        fx.add("photo", .node) { $0.role = .image }                                        // image node: warning
        fx.add("knob", .node) { $0.interactive = true; $0.accessibilityLabel = "Gain"; $0.factSources.accessibilityLabel = .file }
        fx.add("env", .environment)
        let (_, v) = fx.run(frames: 3)
        #expect(v.rule("a11y-labels").map(\.entities) == [["diorama"], ["photo"], ["ship"]])
        #expect(v.rule("a11y-labels").allSatisfy { $0.spans == [[0, 2]] })
    }

    @Test func assetNodesReadLabelsFromTheFileAndAnnotations() throws {
        // Knob1: interactive with the label "File label" from the file: clean. Knob2: annotated
        // interactive, no label → warning. Label: an image marked decorative: clean. btn_reset: a
        // button by its name prefix, labelled by an annotation: clean.
        let scene = try SceneAnnotationTests.load(annotations: """
                annotations:
                  - {nodes: "Root/Knob2", interactive: true}
                  - {nodes: "Root/Label", role: image, decorative: true}
                  - {nodes: "Root/btn_reset", accessibilityLabel: Reset}
            """)
        #expect(try SceneAnnotationTests.entity(scene, "radio/Label").decorative == true)
        #expect(RuleScenes.run(scene).rule("a11y-labels").map(\.entities) == [["radio/Knob2"]])
        // Without its annotation the name-prefixed button (a 3D control) has no label.
        let bare = try SceneAnnotationTests.load(annotations: "")
        #expect(RuleScenes.run(bare).rule("a11y-labels").map(\.entities) == [["radio/btn_reset"]])
    }

    @Test func labelsAreJudgedOnIOSToo() throws {
        let v = try RuleScenes.check(RuleScenes.window(platform: "iOS", ["role: custom"]))
        #expect(v.filter { $0.rule == "a11y-labels" }.map(\.entities) == [["w/e0"]])
        // The scene's lines: format, platform, duration, entities, `- id: w` (5), kind, placement,
        // size, `elements:` (9), then e0 on line 10.
        #expect(v.filter { $0.rule == "a11y-labels" }.map { $0.location?.line } == [10])
    }

    @Test func hiddenContentIsNotJudged() throws {
        let v = try RuleScenes.check(RuleScenes.window(["role: image, visible: false"]))
        #expect(v.filter { $0.rule == "a11y-labels" }.isEmpty)
    }

    // MARK: type-contrast

    @Test func contrastAgainstTheGlassSamples() throws {
        // #8E8E93 has relative luminance 0.2720; against bright glass (0.18):
        // (0.2720 + 0.05) / (0.18 + 0.05) = 1.4001. White on bright glass: 1.05 / 0.23 = 4.5652.
        let v = try RuleScenes.check(RuleScenes.window([
            "role: text, fontSize: 17, label: Updated, color: \"#8E8E93\"",     // e0: 1.40 < 4.5 → warning
            "role: text, fontSize: 18, label: Updated, color: \"#8E8E93\"",     // e1: 1.40 < 3 → warning
            "role: text, fontSize: 17, label: Updated, color: \"#FFFFFF\"",     // e2: 4.57 ≥ 4.5: clean
            "role: text, fontSize: 17, label: Updated",                         // e3: nothing stated: not judged
        ])).filter { $0.rule == "type-contrast" }
        #expect(v.map(\.entities) == [["w/e0"], ["w/e1"]])
        #expect(v.allSatisfy { abs($0.measured - 1.4001) < 0.0005 })
        #expect(v.map(\.threshold) == [4.5, 3])
        #expect(v[0].message.contains("bright glass sample"))
        #expect(v[0].message.contains("#8E8E93"))
    }

    @Test func opaqueBackgroundsSizeAndWeight() throws {
        // White on #777777 (luminance 0.1845): 1.05 / 0.2345 = 4.478, just below 4.5 for 17 pt
        // regular, above 3 for bold. Black on white: 21.
        let v = try RuleScenes.check(RuleScenes.window([
            "role: text, label: Note, background: \"#777777\"",                               // e0: 4.48 < 4.5 → warning
            "role: text, label: Note, background: \"#777777\", fontWeight: bold",             // e1: 3:1 suffices: clean
            "role: text, label: Note, background: \"#777777\", fontWeight: semibold",         // e2: not bold → warning
            "role: text, label: Note, color: \"#000000\", background: \"#FFFFFF\"",           // e3: 21: clean
            "role: button, label: Buy, color: \"#AAAAAA\", background: \"#FFFFFF\"",          // e4: 2.32 → warning
        ])).filter { $0.rule == "type-contrast" }
        #expect(v.map(\.entities) == [["w/e0"], ["w/e2"], ["w/e4"]])
        #expect(abs(v[0].measured - 4.4781) < 0.0005)
        #expect(abs(v[2].measured - 2.3231) < 0.0005)
        #expect(v[0].message.contains("white (the default)"))
    }

    @Test func alphaIsBlendedOverTheBackground() throws {
        // #FFFFFF66 (alpha 0.4) over black is sRGB 0.4, luminance 0.1329: 0.1829 / 0.05 = 3.657.
        let v = try RuleScenes.check(RuleScenes.window([
            "role: text, label: Hint, color: \"#FFFFFF66\", background: \"#000000\"",
        ])).filter { $0.rule == "type-contrast" }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 3.6574) < 0.0005)
    }

    @Test func aWindowBackgroundIsInheritedAndPassthroughIsWorstCase() throws {
        // The window is opaque #777777: its white text elements inherit it (4.478).
        let v = try RuleScenes.check(RuleScenes.window(background: "#777777", ["role: text, label: Note, color: \"#FFFFFF\""]))
            .filter { $0.rule == "type-contrast" }
        #expect(v.map(\.entities) == [["w/e0"]])
        // The background line (9) moves `elements:` to line 10 and e0 to line 11.
        #expect(v.map { $0.location?.line } == [11])
        // World text in white over passthrough: against a lit wall (0.8), 1.05 / 0.85 = 1.235.
        let world = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: sign, kind: text, position: [0, 1.6, -2], fontSize: 40, string: Exit, color: "#FFFFFF"}
            """).filter { $0.rule == "type-contrast" }
        #expect(world.map(\.entities) == [["sign"]])
        #expect(abs((world.first?.measured ?? 0) - 1.2353) < 0.0005)
        #expect(world.first?.threshold == 3)
        #expect(world.first?.message.contains("passthrough") == true)
    }

    @Test func textSizedInMetresIsSizedAsSeenFromItsPlacement() throws {
        // White on #777777: 4.478, enough for large text (3:1), not for normal (4.5:1). Both labels
        // are √(0.3² + 1.5²) = 1.530 m from the eye: 8 cm text is 2·atan(0.04 / 1.530) = 2.996°,
        // 44.6 pt_eq at 0.0671°/pt, large; 2 cm is 0.749°, 11.2 pt_eq, normal: a warning.
        let v = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: big, kind: text, position: [-0.3, 1.6, -1.5], height: 0.08, string: Exit, color: "#FFFFFF", background: "#777777"}
              - {id: small, kind: text, position: [0.3, 1.6, -1.5], height: 0.02, string: Exit, color: "#FFFFFF", background: "#777777"}
            """).filter { $0.rule == "type-contrast" }
        #expect(v.map(\.entities) == [["small"]] && v.first?.threshold == 4.5)
        let small = degrees(2 * atan(0.01 / (0.3 * 0.3 + 1.5 * 1.5).squareRoot())) / Units.defaultPointAngle
        #expect(v.first?.message.contains("that \(fmt(small)) pt_eq regular text needs") == true)
    }

    @Test func samplesAreConfigurable() throws {
        // Bold #8E8E93 (luminance 0.2720) needs 3:1. With bright glass at 0.05 it reaches
        // 0.3220 / 0.10 = 3.220 (and 0.3220 / 0.06 = 5.37 on dark glass): clean. At 0.1 it reaches
        // 0.3220 / 0.15 = 2.147 → warning.
        let scene = RuleScenes.window(["role: text, label: Updated, fontWeight: bold, color: \"#8E8E93\""])
        let lenient = try RuleScenes.check(scene, config: "rules:\n  type-contrast: {glassBright: 0.05}\n")
        #expect(lenient.filter { $0.rule == "type-contrast" }.isEmpty)
        let v = try RuleScenes.check(scene, config: "rules:\n  type-contrast: {glassBright: 0.1}\n")
            .filter { $0.rule == "type-contrast" }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 2.1469) < 0.0005)
        #expect(v.first?.threshold == 3)
    }

    @Test func unstatedColoursOnIOSAreNotJudged() throws {
        let v = try RuleScenes.check(RuleScenes.window(platform: "iOS", [
            "role: text, label: Note, color: \"#AAAAAA\"",                          // e0: background unknown on iOS
            "role: text, label: Note, background: \"#FFFFFF\"",                     // e1: text colour adapts: unknown
            "role: text, label: Note, color: \"#AAAAAA\", background: \"#FFFFFF\"", // e2: 2.32 → warning
        ])).filter { $0.rule == "type-contrast" }
        #expect(v.map(\.entities) == [["w/e2"]])
    }

    @Test func wcagLuminanceOfKnownColours() {
        // WCAG 2 reference values: white 1, black 0, #777777 0.1845, #767676 0.1812.
        #expect(abs((RGBA(hex: "#FFFFFF")?.relativeLuminance ?? -1) - 1) < 1e-12)
        #expect(RGBA(hex: "#000000")?.relativeLuminance == 0)
        #expect(abs((RGBA(hex: "#777777")?.relativeLuminance ?? -1) - 0.18447) < 1e-5)
        #expect(abs((RGBA(hex: "#767676")?.relativeLuminance ?? -1) - 0.18116) < 1e-5)
        #expect(abs(RGBA.grey(luminance: 0.18).relativeLuminance - 0.18) < 1e-12)
        #expect(RGBA(hex: "#ff000080")?.a == 128.0 / 255)
        #expect(RGBA(hex: "#FFF") == nil && RGBA(hex: "FFFFFF") == nil && RGBA(hex: "#GGGGGG") == nil)
    }

    // MARK: type-tab-labels

    @Test func tabsNeedASymbolAndAShortLabel() throws {
        let v = try RuleScenes.check(RuleScenes.window([
            "role: tab, label: Home, symbol: house",                  // e0: clean
            "role: tab, label: Library",                              // e1: no symbol → warning
            "role: tab, symbol: gear",                                // e2: no label → warning
            "role: tab",                                              // e3: neither → warning
            "role: tab, label: Recently Played, symbol: clock",       // e4: 2 words (15 characters) → info
            "role: tab, label: Notifications24h, symbol: bell",       // e5: 16 characters → info
        ])).filter { $0.rule == "type-tab-labels" }
        #expect(v.map(\.entities) == [["w/e1"], ["w/e2"], ["w/e3"], ["w/e4"], ["w/e5"]])
        #expect(v.map(\.severity) == [.warning, .warning, .warning, .info, .info])
        #expect(v[3].measured == 2 && v[3].threshold == 1)
        #expect(v[4].measured == 16 && v[4].threshold == 15)
        #expect(v[0].message.contains("no symbol"))
        #expect(v[1].message.contains("no text label"))
        #expect(v[2].message.contains("neither"))
        // The messages name the scene keys to add (docs/scene-format.md: `symbol`, `label`).
        #expect(v[0].message.hasSuffix("give it an SF Symbol (symbol: NAME)"))
        #expect(v[1].message.contains("(label: WORD; an accessibilityLabel does not count"))
        #expect(v[2].message.contains("give it both: symbol: NAME (an SF Symbol, shown when the tab bar is collapsed) and label: WORD"))
    }

    /// An accessibility label is what VoiceOver reads, not what the tab bar shows: a tab with only
    /// one is still missing both, and the message says the label does not count.
    @Test func anAccessibilityLabelDoesNotLabelATab() throws {
        let v = try RuleScenes.check(RuleScenes.window(["role: tab, accessibilityLabel: Browse"]))
            .filter { $0.rule == "type-tab-labels" }
        #expect(v.map(\.severity) == [.warning])
        #expect(v.first?.message.hasSuffix("An accessibilityLabel does not count: VoiceOver reads it, the tab bar does not show it") == true)
    }

    @Test func tabsAreNotJudgedOnIOS() throws {
        let v = try RuleScenes.check(RuleScenes.window(platform: "iOS", ["role: tab, label: Home"]))
        #expect(v.filter { $0.rule == "type-tab-labels" }.isEmpty)
    }

    @Test func aFailingContrastNeverReadsAsTheLimit() throws {
        // #959595 on white: L = ((149/255 + 0.055)/1.055)^2.4 = 0.30054, ratio 1.05 / 0.35054 = 2.9954,
        // under the 3:1 of 18 pt text; rounded to 2 decimals it would read "3:1, below the 3:1".
        let v = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: card
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [800, 400]
                background: "#FFFFFF"
                elements:
                  - {id: caption, role: text, frame: [40, 40, 600, 40], fontSize: 18, label: Updated, color: "#959595"}
            """).filter { $0.rule == "type-contrast" }
        #expect(v.first?.message.hasPrefix("card/caption: text #959595 on #FFFFFF has a contrast ratio of 2.995:1, below the 3:1") == true)
    }
}
