import Foundation
import Testing
@testable import SceneLoader
@testable import SpatialCheck
import Reporting
import SpatialModel

/// The appearance and accessibility keys of the scene format: `accessibilityLabel`, `decorative`,
/// `color`, `background`, `fontWeight`, `symbol`, the roles `exit`, `toolbar`, `sheet`, `alert`,
/// and `transition` on `setImmersion`: how they load, how bad values are reported, and how
/// `inspect` shows them.
@Suite struct SceneAppearanceTests {
    private static func window(_ element: String, windowKeys: String = "") -> String {
        """
        format: spatialscene/1
        entities:
          - id: w
            kind: window
        \(windowKeys)
            elements:
              - \(element)
        """
    }

    @Test func elementKeysLoad() throws {
        let scene = try LoaderFixture.load(Self.window(
            "{id: t, role: tab, frame: [0, 0, 60, 60], label: Home, symbol: house, color: \"#FF000080\", background: glass, fontWeight: semibold, decorative: false}",
            windowKeys: "    background: \"#1C1C1E\""))
        let t = try #require(scene.entity(atPath: "w/t").map { scene.entities[$0] })
        #expect(t.symbol == "house")
        #expect(t.color == .color(RGBA(1, 0, 0, 128.0 / 255)))
        #expect(t.background == .material(.glass))
        #expect(t.fontWeight == .semibold)
        #expect(t.decorative == false)
        let w = try #require(scene.entity(atPath: "w").map { scene.entities[$0] })
        #expect(w.background == .color(RGBA(0x1C / 255.0, 0x1C / 255.0, 0x1E / 255.0)))
    }

    @Test func modelsAndTextTakeLabelsAndDecorative() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: ship, kind: model, asset: robot.glb, interactive: true, accessibilityLabel: Blue ship}
              - {id: leaf, kind: model, asset: robot.glb, decorative: true}
              - {id: sign, kind: text, fontSize: 30, string: Exit, color: "#FFFFFF", background: passthrough, fontWeight: bold}
            """)
        let ship = try #require(scene.entity(atPath: "ship").map { scene.entities[$0] })
        #expect(ship.accessibilityLabel == "Blue ship" && ship.factSources.accessibilityLabel == .annotation)
        #expect(scene.entities[try #require(scene.entity(atPath: "leaf"))].decorative == true)
        let sign = scene.entities[try #require(scene.entity(atPath: "sign"))]
        #expect(sign.color == .color(RGBA(1, 1, 1)) && sign.background == .material(.passthrough) && sign.fontWeight == .bold)
    }

    @Test func newRolesLoadAndContainersAreNotTargets() throws {
        for role in ["exit", "toolbar", "sheet", "alert"] {
            let scene = try LoaderFixture.load(Self.window("{id: e, role: \(role), frame: [0, 0, 60, 60]}"))
            let e = scene.entities[try #require(scene.entity(atPath: "w/e"))]
            #expect(e.role?.rawValue == role)
            #expect(e.interactive == (role == "exit"))
        }
    }

    @Test func anUnquotedHexColourIsACommentAndSaysSo() throws {
        // In YAML `color: #FFFFFF` is `color:` followed by a comment: a null value.
        let errs = LoaderFixture.errors(Self.window("id: e\n        frame: [0, 0, 60, 60]\n        color: #FFFFFF"))
        let e = try #require(errs.first { $0.message.contains("'color' of element 'e'") })
        #expect(e.hint?.contains("quote a hex colour") == true)
    }

    @Test func badValuesAreErrorsWithSuggestions() throws {
        let errs = LoaderFixture.errors(Self.window(
            "{id: e, frame: [0, 0, 60, 60], color: \"#12345\", background: glas, fontWeight: blod, decorative: maybe, colour: red}"))
        #expect(errs.contains { $0.message.contains("'color' of element 'e' is not a colour") })
        #expect(errs.contains { $0.message.contains("'background' of element 'e'") && $0.hint == "did you mean 'glass'?" })
        #expect(errs.contains { $0.message.contains("'fontWeight' of element 'e'") && $0.hint == "did you mean 'bold'?" })
        #expect(errs.contains { $0.message.contains("'decorative' of element 'e' expects true or false") })
        #expect(errs.contains { $0.message.contains("colour") && ($0.hint ?? "").contains("color") })
    }

    @Test func aDecorativeElementWithALabelIsAWarning() throws {
        let scene = try LoaderFixture.load(Self.window("{id: e, role: image, frame: [0, 0, 60, 60], decorative: true, accessibilityLabel: Logo}"))
        #expect(scene.warnings.contains { $0.message.contains("decorative") && $0.message.contains("'Logo'") })
    }

    @Test func annotationsCarryAppearance() throws {
        let scene = try SceneAnnotationTests.load(annotations: """
                annotations:
                  - {nodes: "Root/Label", role: text, color: "#000000", background: "#FFFFFF", fontWeight: heavy, decorative: false}
            """)
        let label = try SceneAnnotationTests.entity(scene, "radio/Label")
        #expect(label.color == .color(RGBA(0, 0, 0)) && label.background == .color(RGBA(1, 1, 1)))
        #expect(label.fontWeight == .heavy && label.decorative == false)
    }

    @Test func transitionLoadsAndInspectShowsEverything() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                elements:
                  - {id: t, role: tab, frame: [0, 0, 60, 60], label: Home, symbol: house, color: "#FFFFFF"}
              - {id: note, kind: text, position: [0, 1, -1], height: 0.05, string: "Now\\u001B[31m playing"}
            events:
              - {t: 1, action: setImmersion, style: full, transition: 0.75}
            """)
        #expect(scene.events.first?.transition == 0.75)
        let text = ModelDump.text(scene)
        #expect(text.contains("t=1.000 s: immersion → full (user), transition 0.750 s"))
        // An element's label and a text's string, as written (the s31 trial's F10), escaped for a terminal.
        #expect(text.contains("w/t: label \"Home\", color #FFFFFF, symbol \"house\""), "\(text)")
        #expect(text.contains("note: string \"Now\\u{1B}[31m playing\""), "\(text)")
        let json = ModelDump.json(scene).serialized()
        #expect(json.contains("\"appearance\""))
        let model = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let looks = Dictionary(((model["entities"] as? [[String: Any]]) ?? []).map { ($0["path"] as? String ?? "", $0["appearance"] as? [String: Any]) },
                               uniquingKeysWith: { a, _ in a })
        #expect(looks["w/t"]??["label"] as? String == "Home")
        #expect(looks["note"]??["string"] as? String == "Now\u{1B}[31m playing")
        #expect(json.contains("\"symbol\": \"house\""))
    }

    @Test func schemaKnowsTheNewKeys() {
        let schema = SpatialCheck.schema(.scene).serialized()
        for key in ["\"transition\"", "\"decorative\"", "\"fontWeight\"", "\"symbol\"", "\"exit\"", "\"toolbar\""] {
            #expect(schema.contains(key), "\(key) missing from the scene schema")
        }
    }
}
