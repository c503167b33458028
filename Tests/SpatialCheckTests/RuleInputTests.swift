import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
@testable import SceneLoader
import Simulation
import Reporting
import SpatialModel

/// The input rules `target-hover-feedback` and `target-indirect-available`, end to end (loader →
/// simulator → rules) on elements and annotated asset nodes. A fact nobody states is unknown and
/// must never be reported; every expectation below is written out from the scene text.
@Suite struct RuleInputTests {
    // MARK: target-hover-feedback

    @Test func onlyAStatedNoneOnInteractiveContentIsAWarning() throws {
        let v = try RuleScenes.check(RuleScenes.window([
            "role: button, label: Play",                           // e0: unstated → system default, unknown: clean
            "role: custom, hoverEffect: none",                     // e1: warning
            "role: button, label: Stop, hoverEffect: false",       // e2: false = none → warning
            "role: button, label: Next, hoverEffect: highlight",   // e3: a standard effect: clean
            "role: button, label: Back, hoverEffect: lift",        // e4: clean
            "role: image, hoverEffect: none",                      // e5: not interactive: clean
            "role: button, label: Off, interactive: false, hoverEffect: none", // e6: not interactive: clean
        ])).filter { $0.rule == "target-hover-feedback" }
        #expect(v.map(\.entities) == [["w/e1"], ["w/e2"]])
        #expect(v.allSatisfy { $0.severity == .warning && $0.measured == 1 && $0.threshold == 0 && $0.unit == "count" })
        // Static content, visible for the whole second: frames 0…89.
        #expect(v.allSatisfy { $0.spans == [0...89] && $0.frameCount == 90 })
        #expect(v.first?.message.contains("hover effect is none") == true)
    }

    @Test func aButtonWithACustomHoverEffectIsInfoOtherControlsAreNot() throws {
        let v = try RuleScenes.check(RuleScenes.window([
            "role: button, label: Buy, hoverEffect: custom",   // e0: info
            "role: toggle, label: Wi-Fi, hoverEffect: custom", // e1: custom effects are allowed on other controls
            "role: custom, hoverEffect: custom",               // e2: clean
        ])).filter { $0.rule == "target-hover-feedback" }
        #expect(v.map(\.entities) == [["w/e0"]])
        #expect(v.map(\.severity) == [.info])
        #expect(v.first?.message.contains("custom hover effect") == true)
    }

    @Test func hoverIsNotJudgedOnIOS() throws {
        let v = try RuleScenes.check(RuleScenes.window(platform: "iOS", ["role: button, label: Place, hoverEffect: none"]))
        #expect(v.filter { $0.rule == "target-hover-feedback" }.isEmpty)
    }

    @Test func assetNodesAreJudgedOnlyOnAStatedHoverEffect() throws {
        // Knob1: the file says interactive; the annotation says hoverEffect: none → warning.
        // Knob2: annotated interactive with no hover effect → unknown, clean.
        // btn_reset: a button by its name prefix, nothing said about hover → clean.
        // Label: annotated role button, hover custom → info.
        let scene = try SceneAnnotationTests.load(annotations: """
                annotations:
                  - {nodes: "Root/Knob1", hoverEffect: none}
                  - {nodes: "Root/Knob2", interactive: true}
                  - {nodes: "Root/Label", role: button, interactive: true, hoverEffect: custom}
            """)
        let k1 = try SceneAnnotationTests.entity(scene, "radio/Knob1")
        #expect(k1.interactive && k1.factSources.interactive == .file && k1.hoverEffect == HoverEffect.none)
        let v = RuleScenes.run(scene).rule("target-hover-feedback")
        #expect(v.map(\.entities) == [["radio/Knob1"], ["radio/Label"]])
        #expect(v.map(\.severity) == [.warning, .info])
    }

    @Test func aHoverEffectStatedByTheAssetFileCounts() {
        // An importer that reads a RealityKit HoverEffect component sets the fact with source file.
        var fx = RuleFixture()
        let w = fx.window()
        fx.add("knob", .node, parent: w) { e in
            e.interactive = true; e.hoverEffect = HoverEffect.none; e.factSources.hoverEffect = .file
        }
        fx.add("dial", .node, parent: w) { e in e.interactive = true }   // nothing said: unknown
        let (_, v) = fx.run(frames: 3)
        #expect(v.rule("target-hover-feedback").map(\.entities) == [["player/knob"]])
        #expect(v.rule("target-hover-feedback").first?.spans == [[0, 2]])
    }

    // MARK: target-indirect-available

    @Test func directOnlyUIControlsAreWarnings() throws {
        let v = try RuleScenes.check(RuleScenes.window([
            "role: button, label: Next, interaction: direct",    // e0: warning
            "role: slider, label: Volume, interaction: direct",  // e1: warning
            "role: button, label: Back, interaction: both",      // e2: clean
            "role: button, label: Home, interaction: indirect",  // e3: clean
            "role: button, label: Menu",                         // e4: unstated → unknown, clean
            "role: custom, interaction: direct",                 // e5: a custom 2D control is UI: warning
        ])).filter { $0.rule == "target-indirect-available" }
        #expect(v.map(\.entities) == [["w/e0"], ["w/e1"], ["w/e5"]])
        #expect(v.allSatisfy { $0.severity == .warning && $0.measured == 1 && $0.frameCount == 90 })
        #expect(v.first?.message.contains("direct touch only") == true)
    }

    @Test func directInputOn3DObjectsIsFineAndIOSIsNotJudged() throws {
        // Knob1: the file says interactive, direct input, no role: a 3D object, clean.
        // Knob2: annotated as a button with direct input: a UI control modelled in 3D → warning.
        let scene = try SceneAnnotationTests.load(annotations: """
                annotations:
                  - {nodes: "Root/Knob2", role: button, interactive: true, interaction: direct}
            """)
        #expect(try SceneAnnotationTests.entity(scene, "radio/Knob1").interaction == .direct)
        let v = RuleScenes.run(scene).rule("target-indirect-available")
        #expect(v.map(\.entities) == [["radio/Knob2"]])
        let ios = try RuleScenes.check(RuleScenes.window(platform: "iOS", ["role: button, label: Place, interaction: direct"]))
        #expect(ios.filter { $0.rule == "target-indirect-available" }.isEmpty)
    }
}
