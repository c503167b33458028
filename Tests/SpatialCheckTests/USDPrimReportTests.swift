import Foundation
import Testing
import SceneLoader
import SpatialModel

/// Findings on entities read from USD prims name the prim and its stage's file in every format
/// (JSON `usdPrims`, text, Markdown, HTML, SARIF properties); annotation and ignore globs starting
/// with '/' match prim paths; Anchoring Plane/Object needs a Full Space; a Collider with a
/// non-finite size is an error naming the prim. Fixtures: Tools/make-usd-fixtures.py, `prims/`
/// (Game.usda: three instances of Token.usda, each an interactive `Body`, so the entities are Body,
/// Body~2, Body~3 at /Root/Inst_1..3/Body; TablePiece anchored to a plane; Statue to an object).
@Suite("USD prims in reports", .enabled(if: USDFixtures.available, "usd-core is not installed (pip install usd-core); USD tests skipped"))
struct USDPrimReportTests {
    static let game = "prims/Game.usda"

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func violations(_ report: [String: Any]) -> [[String: Any]] {
        ((report["scenes"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]]) ?? []
    }

    /// `usdPrims` of the violation of `rule` on `entity`, as (entity, path, layer) triples.
    static func prims(_ vs: [[String: Any]], rule: String, entity: String) -> [[String]] {
        let v = vs.first { ($0["rule"] as? String) == rule && ($0["entities"] as? [String]) == [entity] }
        return ((v?["usdPrims"] as? [[String: Any]]) ?? []).map {
            [$0["entity"] as? String ?? "", $0["path"] as? String ?? "", $0["layer"] as? String ?? ""]
        }
    }

    @Test func theLoaderKeepsEachNodeEntitysPrimAndItsAnchoring() throws {
        let scene = try SceneLoader.loadBareAsset(path: USDFixtures.path(Self.game))
        func entity(_ path: String) throws -> Entity { try #require(scene.entities.first { $0.path == path }, "\(path)") }
        // Same-named prims: the later ones are Body~2, Body~3, in prim order; each keeps its prim.
        #expect(try entity("Game/Body").usdPrim == USDPrimRef(path: "/Root/Inst_1/Body", layer: "Game.usda"))
        #expect(try entity("Game/Body~2").usdPrim == USDPrimRef(path: "/Root/Inst_2/Body", layer: "Game.usda"))
        #expect(try entity("Game/Body~3").usdPrim == USDPrimRef(path: "/Root/Inst_3/Body", layer: "Game.usda"))
        #expect(scene.warnings.contains { $0.message.contains("reported as 'Body~3' (USD prim /Root/Inst_3/Body)") },
                "\(scene.warnings.map(\.message))")
        // Anchoring Plane / Object: simulated where authored (world), anchored by ARKit at run time.
        let table = try entity("Game/TablePiece"), statue = try entity("Game/Statue")
        #expect(table.anchor == .world && table.arkitAnchor == .plane && table.factSources.anchor == .file)
        #expect(statue.anchor == .world && statue.arkitAnchor == .object)
        #expect(scene.entities.first { $0.path == "Game" }?.usdPrim == nil)
    }

    @Test func everyFormatNamesThePrimAndTheLayerRelativeToTheProject() throws {
        let r = try CLIHarness.run(["validate", "--format", "json", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        #expect(r.status == 0, "\(r.stderr)")
        let vs = Self.violations(try Self.json(r.stdout))
        // The bare asset is the scene: its report path is prims/Game.usda (the fixture folder is the
        // project root), and so is the layer.
        for (entity, prim) in [("Game/Body", "/Root/Inst_1/Body"), ("Game/Body~2", "/Root/Inst_2/Body"), ("Game/Body~3", "/Root/Inst_3/Body")] {
            #expect(Self.prims(vs, rule: "target-hit-region-visionos", entity: entity) == [[entity, prim, "prims/Game.usda"]],
                    "\(entity): \(vs.map { $0["entities"] ?? "" })")
        }
        // Byte-identical on a second run.
        let again = try CLIHarness.run(["validate", "--format", "json", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        #expect(again.stdout == r.stdout)

        let text = try CLIHarness.run(["validate", "--expand", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        #expect(text.stdout.contains("Game/Body~2 (USD /Root/Inst_2/Body in prims/Game.usda)"), "\(text.stdout)")
        let markdown = try CLIHarness.run(["validate", "--format", "markdown", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        #expect(markdown.stdout.contains("`Game/Body~2` (USD `/Root/Inst_2/Body` in `prims/Game.usda`)"), "\(markdown.stdout)")
        let html = try CLIHarness.run(["validate", "--format", "html", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        // A card of one finding says it in a line of its own; a folded card (the three tokens) in its table.
        #expect(html.stdout.contains("<code>Game/TablePiece</code> is prim <code>/Root/TablePiece</code> in <code>prims/Game.usda</code>"))
        #expect(html.stdout.contains("<td>Game/Body~2 (USD /Root/Inst_2/Body in prims/Game.usda)</td>"))
        let sarif = try CLIHarness.run(["validate", "--format", "sarif", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        #expect(sarif.stdout.contains("\"path\": \"/Root/Inst_2/Body\""))

        // A saved report gives the prims back to `report`.
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try r.stdout.write(toFile: dir + "/saved.json", atomically: true, encoding: .utf8)
        let replayed = try CLIHarness.run(["report", "--expand", dir + "/saved.json"])
        #expect(replayed.stdout.contains("Game/Body~3 (USD /Root/Inst_3/Body in prims/Game.usda)"), "\(replayed.stdout)")
        let rejson = try CLIHarness.run(["report", "--format", "json", dir + "/saved.json"])
        #expect(Self.prims(Self.violations(try Self.json(rejson.stdout)), rule: "target-hit-region-visionos", entity: "Game/Body~3")
                == [["Game/Body~3", "/Root/Inst_3/Body", "prims/Game.usda"]])
    }

    @Test func inspectShowsThePrimAndThePlaneAnchor() throws {
        let text = try CLIHarness.run(["inspect", Self.game], cwd: USDFixtures.project)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Game/TablePiece (USD /Root/TablePiece in prims/Game.usda): "), "\(text.stdout)")
        #expect(text.stdout.contains("anchor plane [asset]") && text.stdout.contains("anchor object [asset]"))
        let json = try CLIHarness.run(["inspect", "--format", "json", Self.game], cwd: USDFixtures.project)
        #expect(json.stdout.contains("\"usdPrim\": {\n        \"path\": \"/Root/Inst_2/Body\",\n        \"layer\": \"prims/Game.usda\""), "\(json.stdout)")
    }

    @Test func planeAndObjectAnchoringNeedAFullSpace() throws {
        let r = try CLIHarness.run(["validate", "--format", "json", "--fail-on", "never", Self.game], cwd: USDFixtures.project)
        let vs = Self.violations(try Self.json(r.stdout)).filter { ($0["rule"] as? String) == "env-arkit-requires-full-space" }
        // The bare asset is in the Shared Space: both ARKit-anchored prims, nothing else.
        #expect(vs.map { $0["entities"] as? [String] ?? [] } == [["Game/Statue"], ["Game/TablePiece"]])
        let messages = vs.map { $0["message"] as? String ?? "" }
        #expect(messages.first?.contains("Game/Statue is anchored to an object (a RealityKit Anchoring component of type Object)") == true)
        #expect(messages.last?.contains("Game/TablePiece is anchored to a plane (a RealityKit Anchoring component of type Plane)") == true)
        #expect(messages.allSatisfy { $0.contains("change the Anchoring component's target in Reality Composer Pro") })
        // An annotation's anchor replaces the file's: world-anchored by the scene, nothing to report.
        let scene = USDFixtures.path("prims/annotated-anchor.scene.yaml")
        try """
        format: spatialscene/1
        entities:
          - id: game
            kind: model
            asset: Game.usda
            annotations:
              - {nodes: "/Root/TablePiece", anchor: world}
        """.write(toFile: scene, atomically: true, encoding: .utf8)
        let loaded = try SceneLoader.load(path: scene)
        let table = try #require(loaded.entities.first { $0.path == "game/TablePiece" })
        #expect(table.arkitAnchor == nil && table.factSources.anchor == .annotation)
        #expect(loaded.entities.first { $0.path == "game/Statue" }?.arkitAnchor == .object)
    }

    @Test func annotationAndIgnoreGlobsMatchPrimPaths() throws {
        let scene = USDFixtures.path("prims/annotated.scene.yaml")
        try """
        format: spatialscene/1
        entities:
          - id: game
            kind: model
            asset: Game.usda
            annotations:
              - {nodes: "/Root/Inst_*/Body", accessibilityLabel: Token}
              - {nodes: "/Root/Inst_2/Body", hitRegion: {shape: sphere, radius: 0.1}}
        """.write(toFile: scene, atomically: true, encoding: .utf8)
        let loaded = try SceneLoader.load(path: scene)
        for path in ["game/Body", "game/Body~2", "game/Body~3"] {
            let e = try #require(loaded.entities.first { $0.path == path })
            #expect(e.accessibilityLabel == "Token" && e.factSources.accessibilityLabel == .annotation, "\(path)")
        }
        #expect(loaded.entities.first { $0.path == "game/Body~2" }?.factSources.hitRegion == .annotation)
        #expect(loaded.entities.first { $0.path == "game/Body" }?.factSources.hitRegion == .file)

        // An ignore entry whose entity glob starts with '/' silences the violations of that prim only.
        let config = USDFixtures.path("prims/ignore-prim.yaml")
        try """
        ignore:
          - {rule: target-hit-region-visionos, entity: "/Root/Inst_3/*", reason: the third token is decorative}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let r = try CLIHarness.run(["validate", "--config", config, "--format", "json", "--fail-on", "never", Self.game],
                                   cwd: USDFixtures.project)
        let report = try Self.json(r.stdout)
        let hit = Self.violations(report).filter { ($0["rule"] as? String) == "target-hit-region-visionos" }
        #expect(hit.map { $0["entities"] as? [String] ?? [] } == [["Game/Body"], ["Game/Body~2"]])
        let ignored = (report["scenes"] as? [[String: Any]])?.first?["ignored"] as? [[String: Any]]
        #expect(ignored?.first?["count"] as? Int == 1, "\(String(describing: ignored))")
    }

    @Test func hostileLayerNamesAreEscapedInEveryFormat() throws {
        // Prim names are identifiers, but a layer's file name may hold anything.
        let name = "x<script>alert(1)\u{1B}[31m](javascript:alert(2)).usda"  // no "/": a file name
        let hostile = USDFixtures.path("prims/" + name)
        let copied = FileManager.default.createFile(atPath: hostile, contents: try Data(contentsOf: URL(fileURLWithPath: USDFixtures.path(Self.game))))
        try #require(copied)
        let json = try CLIHarness.run(["validate", "--format", "json", "--fail-on", "never", "prims/" + name], cwd: USDFixtures.project)
        #expect(json.status == 0, "\(json.stderr)")
        let vs = Self.violations(try Self.json(json.stdout))
        let layers = Set(vs.flatMap { ($0["usdPrims"] as? [[String: Any]] ?? []).compactMap { $0["layer"] as? String } })
        #expect(layers == ["prims/" + name])
        let text = try CLIHarness.run(["validate", "--expand", "--fail-on", "never", "prims/" + name], cwd: USDFixtures.project)
        #expect(text.stdout.contains("/Root/Inst_2/Body in prims/x<script>"))
        #expect(!text.stdout.contains("\u{1B}"))
        let html = try CLIHarness.run(["validate", "--format", "html", "--fail-on", "never", "prims/" + name], cwd: USDFixtures.project)
        #expect(html.stdout.contains("/Root/Inst_2/Body"))
        #expect(!html.stdout.contains("<script>alert") && !html.stdout.contains("\u{1B}"))
        let md = try CLIHarness.run(["validate", "--format", "markdown", "--fail-on", "never", "prims/" + name], cwd: USDFixtures.project)
        #expect(md.stdout.contains("/Root/Inst_2/Body"))
        // Markdown escapes the bracket ("\\](javascript:"): no link can form.
        #expect(md.stdout.contains("\\](javascript:"))
        #expect(!md.stdout.replacingOccurrences(of: "\\](", with: "").contains("](javascript:"))
        #expect(!md.stdout.contains("<script>") && !md.stdout.contains("\u{1B}"))
    }

    @Test(arguments: [("hostile/infcollider.usda", "its Collider component's Shape.radius is inf, not a finite number"),
                      ("hostile/nancollider.usda", "its Collider component's Shape.extent is (0.1, nan, 0.1), not a finite number")])
    func aColliderWithANonFiniteSizeIsAnErrorNamingThePrim(file: String, expected: String) throws {
        let r = try CLIHarness.run(["validate", file], cwd: USDFixtures.project)
        #expect(r.status == 2)
        let output = r.stdout + r.stderr
        #expect(output.contains("prim /Root/P: " + expected), "\(output)")
        #expect(output.contains("set a finite value in Reality Composer Pro"), "\(output)")
    }
}

/// A fact read from a USD component gets the Reality Composer Pro fix beside the rule's own text
/// (which speaks the scene format's keys); the same fact stated in a scene file does not.
@Suite("RCP fix hints for USD facts", .enabled(if: USDFixtures.available, "usd-core is not installed (pip install usd-core); USD tests skipped"))
struct USDFixHintTests {
    static func messages(_ file: String, rule: String) throws -> [String] {
        let r = try CLIHarness.run(["validate", "--format", "json", "--fail-on", "never", file], cwd: USDFixtures.project)
        #expect(r.status == 0, "\(r.stderr)")
        return USDPrimReportTests.violations(try USDPrimReportTests.json(r.stdout))
            .filter { ($0["rule"] as? String) == rule }.compactMap { $0["message"] as? String }
    }

    @Test func directOnlyInputTargetNamesTheAllowedInputSetting() throws {
        // cm_zup.usda's knob: InputTarget with allowsIndirectInput = 0, about 2.3 m from the shoulders.
        let m = try Self.messages("cm_zup.usda", rule: "target-direct-reach")
        #expect(m.count == 1)
        #expect(m.first?.hasSuffix("let it take indirect input too (interaction: both) (in Reality Composer Pro: set its InputTarget component's allowed input to All)") == true,
                "\(m)")
    }

    @Test func headAnchoringNamesTheAnchoringComponent() throws {
        let file = "prims/HeadHUD.usda"
        try """
        #usda 1.0
        (
            metersPerUnit = 1
            upAxis = "Y"
        )
        def Xform "Root"
        {
            def Xform "HUD"
            {
                double3 xformOp:translate = (0, 0, -1)
                uniform token[] xformOpOrder = ["xformOp:translate"]
                def RealityKitComponent "Anchoring"
                {
                    uniform token info:id = "RealityKit.Anchoring"
                    def RealityKitStruct "descriptor"
                    {
                        token type = "Head"
                    }
                }
                def Cube "Panel"
                {
                    double size = 0.2
                }
            }
        }
        """.write(toFile: USDFixtures.path(file), atomically: true, encoding: .utf8)
        let m = try Self.messages(file, rule: "fov-head-locked")
        #expect(m.count == 1)
        #expect(m.first?.contains("is declared head-anchored (anchor: head)") == true)
        #expect(m.first?.contains("(in Reality Composer Pro: its Anchoring component's target is Head; change the target, or remove the component and place the entity in code)") == true,
                "\(m)")
    }
}
