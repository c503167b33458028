import Foundation
import Testing
@testable import SceneLoader
@testable import Rules
import Simulation
import Reporting
import SpatialModel

/// Scene-file annotations of asset nodes and the code-side facts of elements (scene format,
/// "Annotations"): parsing and its errors, path globs, which source wins, the sources `inspect`
/// shows, and anchors set by a fact.
@Suite struct SceneAnnotationTests {
    // MARK: fixture

    /// A control panel asset in metres: `Root` (no mesh, at the origin) with
    /// - `Knob1` at (0.1, 0, 0), a 2 cm cube; the file (as a USD importer would from RealityKit
    ///   components) says: interactive, direct input, a 5 cm box collider, label "File label";
    /// - `Knob2` at (−0.1, 0, 0), a 2 cm cube, nothing said;
    /// - `btn_reset` at (0, −0.1, 0), a 2 cm cube marked a button by its name prefix;
    /// - `Label` at (0, 0.1, 0), a 2 cm cube, nothing said;
    /// - `Slider` at (0, −0.2, 0), a 2 cm cube 4 cm right of its origin; the file gives it a 4 cm
    ///   box collider centred on its origin (a USD Collider's pose), not on its mesh.
    static func panel() -> ImportedAsset {
        let cube = AABB(min: Vec3(-0.01, -0.01, -0.01), max: Vec3(0.01, 0.01, 0.01))
        let cubeVertices: [Float] = [-0.01, -0.01, -0.01, 0.01, 0.01, 0.01]
        func node(_ name: String, _ at: Vec3, marking: AssetMarking? = nil, facts: NodeFacts = NodeFacts()) -> AssetNode {
            let t = Transform(translation: at)
            return AssetNode(name: name, parent: 0, subtreeEnd: 0, local: t.matrix, localTRS: t, meshBounds: cube,
                             vertices: cubeVertices, triangles: 12, marking: marking, facts: facts)
        }
        var nodes = [
            AssetNode(name: "Root", parent: nil, subtreeEnd: 6, local: .identity, localTRS: .identity,
                      meshBounds: .empty, vertices: [], triangles: 0, marking: nil),
            node("Knob1", Vec3(0.1, 0, 0), facts: NodeFacts(interactive: true, interaction: .direct,
                                                            hitRegion: .shape(HitShape(.box(size: Vec3(0.05, 0.05, 0.05)))),
                                                            accessibilityLabel: "File label")),
            node("Knob2", Vec3(-0.1, 0, 0)),
            node("btn_reset", Vec3(0, -0.1, 0), marking: AssetMarking(role: .button, source: .namePrefix)),
            node("Label", Vec3(0, 0.1, 0)),
            AssetNode(name: "Slider", parent: 0, subtreeEnd: 6, local: Transform(translation: Vec3(0, -0.2, 0)).matrix,
                      localTRS: Transform(translation: Vec3(0, -0.2, 0)),
                      meshBounds: AABB(min: Vec3(0.03, -0.01, -0.01), max: Vec3(0.05, 0.01, 0.01)),
                      vertices: [0.03, -0.01, -0.01, 0.05, 0.01, 0.01], triangles: 12, marking: nil,
                      facts: NodeFacts(hitRegion: .shape(HitShape(.box(size: Vec3(0.04, 0.04, 0.04)), origin: .node)))),
        ]
        for i in 1..<(nodes.count - 1) { nodes[i].subtreeEnd = i + 1 }
        return ImportedAsset(path: "panel.glb", resolvedPath: "/x/panel.glb", format: "test", nodes: nodes,
                             animations: [], declaredUnitScale: nil, unitNote: "metres")
    }

    static let importer = AssetImporting { (_: String, _: String) throws(Diagnostic) -> ImportedAsset in panel() }

    /// Loads a scene whose model `radio` uses the panel (any existing file name will do: the
    /// importer ignores it) at (0, 1.6, −1), with `annotations` (YAML lines indented for the model).
    static func load(annotations: String, extra: String = "") throws(LoadFailure) -> Scene {
        let text = """
            format: spatialscene/1
            duration: 1
            entities:
              - id: radio
                kind: model
                asset: robot.glb
                position: [0, 1.6, -1]
            \(annotations)
            \(extra)
            """
        return try SceneLoader.load(text: text, path: "panel.scene.yaml", baseDirectory: LoaderFixture.directory,
                                    options: .init(), importer: importer)
    }

    static func errors(annotations: String, extra: String = "") -> [Diagnostic] {
        do { _ = try load(annotations: annotations, extra: extra); return [] } catch { return error.diagnostics }
    }

    static func entity(_ scene: Scene, _ path: String) throws -> Entity {
        try #require(scene.entity(atPath: path).map { scene.entities[$0] }, "no entity \(path)")
    }

    // MARK: globs

    @Test func globsMatchNodePaths() {
        // A glob with '/' is matched against the path, one without against the name anywhere.
        #expect(NodeGlob.matches("Root/Knob*", path: "Root/Knob1", name: "Knob1"))
        #expect(!NodeGlob.matches("Root/Knob*", path: "Root/Knob1/Cap", name: "Cap"))
        #expect(!NodeGlob.matches("Root/Knob*", path: "Root/Panel/Knob1", name: "Knob1"))
        #expect(NodeGlob.matches("Knob*", path: "Root/Panel/Knob2", name: "Knob2"))
        #expect(!NodeGlob.matches("Knob*", path: "Knob2/Cap", name: "Cap"))
        // `**` crosses names; `**/` also matches nothing.
        #expect(NodeGlob.matches("Root/**", path: "Root/Panel/Knob2", name: "Knob2"))
        #expect(NodeGlob.matches("**/Cap", path: "Root/Knob1/Cap", name: "Cap"))
        #expect(NodeGlob.matches("Root/**/Cap", path: "Root/Cap", name: "Cap"))
        #expect(!NodeGlob.matches("Root/**/Cap", path: "Root/Caps", name: "Caps"))
        // `?` is one character of a name, never '/'.
        #expect(NodeGlob.matches("Root/Knob?", path: "Root/Knob1", name: "Knob1"))
        #expect(!NodeGlob.matches("Root/Knob?", path: "Root/Knob12", name: "Knob12"))
        #expect(!NodeGlob.matches("Root?Knob1", path: "Root/Knob1", name: "Knob1"))
        // Without wildcards: the exact path; a leading '/' is the top of the asset.
        #expect(NodeGlob.matches("/Root/Knob1", path: "Root/Knob1", name: "Knob1"))
        #expect(!NodeGlob.matches("Root/Knob", path: "Root/Knob1", name: "Knob1"))
        // Many stars do not backtrack exponentially (a 40-character name against 20 stars).
        let stars = String(repeating: "*a", count: 20) + "b"
        #expect(!NodeGlob.matches(stars, path: String(repeating: "a", count: 40), name: String(repeating: "a", count: 40)))
    }

    // MARK: precedence and sources

    @Test func annotationsOverrideTheFileAndEachFactKeepsItsSource() throws {
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: "Root/Knob*", interaction: indirect, hoverEffect: true}
                  - nodes: Knob2
                    interactive: true
                    hitRegion: {shape: sphere, radius: 0.03}
                    accessibilityLabel: Bass
            """)
        // Entities in node order; `Label` has no facts and stays part of the model only.
        #expect(scene.entities.map(\.path) == ["radio", "radio/Knob1", "radio/Knob2", "radio/btn_reset", "radio/Slider"])

        let k1 = try Self.entity(scene, "radio/Knob1")
        #expect(k1.interactive && k1.factSources.interactive == .file)
        #expect(k1.interaction == .indirect && k1.factSources.interaction == .annotation) // file said direct
        #expect(k1.hoverEffect == .system && k1.factSources.hoverEffect == .annotation)   // true → system
        #expect(k1.hitRegion == .shape(HitShape(.box(size: Vec3(0.05, 0.05, 0.05)))) && k1.factSources.hitRegion == .file)
        #expect(k1.accessibilityLabel == "File label" && k1.factSources.accessibilityLabel == .file)
        #expect(k1.anchor == .world && k1.factSources.anchor == .default)
        #expect(k1.role == nil)
        // Measured on its 5 cm collider box, centred on the knob at (0.1, 1.6, −1).
        #expect(near(k1.restWorldBounds.min, Vec3(0.075, 1.575, -1.025), 1e-9))
        #expect(near(k1.restWorldBounds.max, Vec3(0.125, 1.625, -0.975), 1e-9))

        let k2 = try Self.entity(scene, "radio/Knob2")
        #expect(k2.interactive && k2.factSources.interactive == .annotation)
        #expect(k2.interaction == .indirect && k2.factSources.interaction == .annotation)
        #expect(k2.accessibilityLabel == "Bass" && k2.factSources.accessibilityLabel == .annotation)
        // A sphere of radius 3 cm is measured by the 6 cm box around it, at (−0.1, 1.6, −1).
        #expect(near(k2.restWorldBounds.min, Vec3(-0.13, 1.57, -1.03), 1e-9))
        #expect(near(k2.restWorldBounds.max, Vec3(-0.07, 1.63, -0.97), 1e-9))

        let reset = try Self.entity(scene, "radio/btn_reset")
        #expect(reset.role == .button && reset.interactive && reset.factSources.interactive == .namePrefix)
        #expect(reset.hoverEffect == nil && reset.factSources.hoverEffect == .default)
        // Without a hit region: its own 2 cm mesh at (0, 1.5, −1).
        #expect(near(reset.restWorldBounds.min, Vec3(-0.01, 1.49, -1.01), 1e-9))

        // The slider's collider is centred on its origin (0, 1.4, −1), not on its mesh (x 0.03–0.05),
        // and it has no interactive fact: it is measured on the collider but is not a target.
        let slider = try Self.entity(scene, "radio/Slider")
        #expect(!slider.interactive && slider.factSources.hitRegion == .file)
        #expect(near(slider.restWorldBounds.min, Vec3(-0.02, 1.38, -1.02), 1e-9))
        #expect(near(slider.restWorldBounds.max, Vec3(0.02, 1.42, -0.98), 1e-9))

        // The model keeps its mesh bounds: the collider and sphere boxes are not part of it.
        let model = try Self.entity(scene, "radio")
        #expect(near(model.restWorldBounds.min, Vec3(-0.11, 1.39, -1.01), 1e-9))
        #expect(near(model.restWorldBounds.max, Vec3(0.11, 1.71, -0.99), 1e-9))
    }

    @Test func inspectShowsTheSourceOfEveryFact() throws {
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: "Knob1", hoverEffect: lift, anchor: hand}
            """)
        let json = ModelDump.json(scene).serialized()
        let data = try #require(json.data(using: .utf8))
        let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let ents = try #require(top["entities"] as? [[String: Any]])
        let knob = try #require(ents.first { $0["path"] as? String == "radio/Knob1" })
        let facts = try #require(knob["facts"] as? [String: [String: Any]])
        func fact(_ k: String) -> (Any?, String?) { (facts[k]?["value"], facts[k]?["source"] as? String) }
        #expect(fact("interactive").0 as? Bool == true && fact("interactive").1 == "file")
        #expect(fact("interaction").0 as? String == "direct" && fact("interaction").1 == "file")
        #expect(fact("hoverEffect").0 as? String == "lift" && fact("hoverEffect").1 == "annotation")
        #expect(fact("anchor").0 as? String == "hand" && fact("anchor").1 == "annotation")
        #expect(fact("accessibilityLabel").0 as? String == "File label" && fact("accessibilityLabel").1 == "file")
        let region = try #require(fact("hitRegion").0 as? [String: Any])
        #expect(region["shape"] as? String == "box" && region["size"] as? [Double] == [0.05, 0.05, 0.05])
        #expect(fact("hitRegion").1 == "file")
        let reset = try #require(ents.first { $0["path"] as? String == "radio/btn_reset" })
        let rf = try #require(reset["facts"] as? [String: [String: Any]])
        #expect(rf["interactive"]?["source"] as? String == "name prefix")
        #expect(rf["hoverEffect"]?["value"] is NSNull && rf["hoverEffect"]?["source"] as? String == "default")
        // The text dump lists the same, one line per entity with stated facts.
        let text = ModelDump.text(scene)
        #expect(text.contains("  radio/Knob1: interactive yes [asset], interaction direct [asset], hover effect lift [scene], hit region box 0.05 × 0.05 × 0.05 m [asset], anchor hand [scene], accessibility label \"File label\" [asset]\n"))
        #expect(text.contains("  radio/btn_reset: interactive yes [name prefix], interaction unknown [default]"))
    }

    @Test func aNodeHitRegionInPointsIsAFlatRegionAtTheFixedPointSize() throws {
        // Fixed-scale content: s = tan(0.0671°) · 1 m per pt. Knob2 (a 2 cm cube at (−0.1, 1.6, −1))
        // with {size: [60, 60]}: 60·s square, as deep as the cube (2 cm); Knob1 with {insets: -10}:
        // its 2 cm cube grown by 10·s on each side in x and y.
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: Knob2, interactive: true, hitRegion: {size: [60, 60]}}
                  - {nodes: Knob1, hitRegion: {insets: -10}}
            """)
        let s = tan(radians(Units.defaultPointAngle))
        let k2 = try Self.entity(scene, "radio/Knob2").restWorldBounds
        #expect(near(k2.min, Vec3(-0.1 - 30 * s, 1.6 - 30 * s, -1.01), 1e-9))
        #expect(near(k2.max, Vec3(-0.1 + 30 * s, 1.6 + 30 * s, -0.99), 1e-9))
        let k1 = try Self.entity(scene, "radio/Knob1")
        #expect(k1.hitRegion == .insets(top: -10, left: -10, bottom: -10, right: -10) && k1.factSources.hitRegion == .annotation)
        #expect(near(k1.restWorldBounds.min, Vec3(0.09 - 10 * s, 1.59 - 10 * s, -1.01), 1e-9))
        #expect(near(k1.restWorldBounds.max, Vec3(0.11 + 10 * s, 1.61 + 10 * s, -0.99), 1e-9))
    }

    @Test func aGlobThatMatchesNothingIsAWarningNamingTheGlobAndTheAsset() throws {
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: ["Knob1", "Root/Fader*"], interactive: true}
            """)
        let w = try #require(scene.warnings.first { $0.message.contains("Fader") })
        #expect(w.message == "annotation glob 'Root/Fader*' of model 'radio' matches no node of asset 'robot.glb'; it is ignored")
        #expect(w.location == SourceLocation(line: 9, column: 27))
        #expect(w.hint?.contains("'Root/Knob1'") == true)
        #expect(scene.entity(atPath: "radio/Knob1") != nil)
    }

    // MARK: errors

    @Test func unknownKeysAndValuesAreErrorsWithSuggestions() {
        let errs = Self.errors(annotations: """
                annotations:
                  - nodes: Knob1
                    hoverEfect: true
                    interaction: indrect
                    hitRegion: {size: [1, 2, 3, 4]}
                  - {interactive: true}
                  - {nodes: Knob2, hitRegion: {shape: cone, radius: 0.1}}
            """)
        let text = errs.map(\.description)
        #expect(errs.count == 5, "\(text)")
        #expect(errs.contains { $0.location == SourceLocation(line: 10, column: 9) && $0.message == "unknown key 'hoverEfect' in an annotation of model 'radio'" && $0.hint == "did you mean 'hoverEffect'?" })
        #expect(errs.contains { $0.location == SourceLocation(line: 11, column: 22) && $0.message.hasPrefix("'interaction' of an annotation of model 'radio' expects one of 'direct', 'indirect', 'both'") && $0.hint == "did you mean 'indirect'?" })
        #expect(errs.contains { $0.location == SourceLocation(line: 12, column: 27) && $0.message.contains("expects [x, y, z] in metres, or [width, height] in points (3 numbers)") })
        #expect(errs.contains { $0.location == SourceLocation(line: 13, column: 9) && $0.message == "an annotation of model 'radio' is missing the required key 'nodes'" })
        #expect(errs.contains { $0.location == SourceLocation(line: 14, column: 43) && $0.message.hasPrefix("'shape' of 'hitRegion' of an annotation of model 'radio' expects one of 'box', 'sphere', 'capsule', found 'cone'") })
    }

    @Test func elementFactsAndTheirErrors() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [400, 300]
                elements:
                  - {id: a, role: button, frame: [10, 20, 30, 30], hitRegion: {size: [44, 44]}, hoverEffect: false}
                  - {id: b, role: custom, frame: [100, 20, 40, 40], hitRegion: {insets: [-2, -4, -6, -8]}, interaction: both, accessibilityLabel: Dial}
                  - {id: c, role: toggle, frame: [200, 20, 51, 31], interactive: false}
            """)
        let a = try Self.entity(scene, "w/a")
        // 44 pt centred on the frame's centre (25, 35).
        #expect(a.hitFrame == RectPt(x: 3, y: 13, width: 44, height: 44))
        #expect(a.hoverEffect == HoverEffect.none && a.factSources.hoverEffect == .annotation)
        #expect(a.factSources.interactive == .default && a.factSources.hitRegion == .annotation)
        let b = try Self.entity(scene, "w/b")
        // Insets [top, left, bottom, right] = [−2, −4, −6, −8]: x 100 − 4 … 140 + 8, y 20 − 2 … 60 + 6.
        #expect(b.hitFrame == RectPt(x: 96, y: 18, width: 52, height: 48))
        #expect(b.interaction == .both && b.accessibilityLabel == "Dial")
        // The element is measured on its hit region: 52 × 48 pt at the window's metres per point,
        // its centre moved by (+2, +2) pt (right, down) from the frame's.
        let s = try Self.entity(scene, "w").metresPerPoint
        let bb = b.restWorldBounds
        #expect(near(bb.size.x, 52 * s, 1e-12) && near(bb.size.y, 48 * s, 1e-12))
        let frameCentreX = (120 - 200) * s, frameCentreY = 1.6 + (150 - 40) * s
        #expect(near(bb.center.x, frameCentreX + 2 * s, 1e-9) && near(bb.center.y, frameCentreY - 2 * s, 1e-9))
        let c = try Self.entity(scene, "w/c")
        #expect(!c.interactive && c.factSources.interactive == .annotation)

        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: [400, 300]
                elements:
                  - {id: a, role: button, frame: [10, 20, 30, 30], hitRegion: {shape: box}}
                  - {id: b, role: button, frame: [60, 20, 30, 30], anchor: head, hoverEffect: glow}
                  - {id: c, role: button, frame: [100, 20, 30, 30], hitRegion: {insets: 20}}
                  - {id: d, role: button, frame: [150, 20, 30, 30], hitRegion: {}}
            """)
        #expect(errs.count == 5, "\(errs.map(\.description))")
        #expect(errs.contains { $0.location == SourceLocation(line: 7, column: 68) && $0.message.hasPrefix("'shape' is not a key of 'hitRegion' of element 'a'; it applies to asset-node annotations") })
        #expect(errs.contains { $0.location == SourceLocation(line: 8, column: 56) && $0.message == "'anchor' is not a key of element 'b'; it is not used for elements; they follow their container's anchor" })
        #expect(errs.contains { $0.location == SourceLocation(line: 8, column: 83) && $0.message.hasPrefix("'hoverEffect' of element 'b' (true, false or an effect) expects one of 'system', 'highlight', 'lift', 'none', 'custom'") })
        #expect(errs.contains { $0.location == SourceLocation(line: 9, column: 68) && $0.message == "'hitRegion' of element 'c' leaves no area: its insets remove the whole 30 × 30 pt frame" })
        #expect(errs.contains { $0.location == SourceLocation(line: 10, column: 68) && $0.message == "'hitRegion' of element 'd' needs 'size: [width, height]' or 'insets' in points" })
    }

    @Test func annotationsNeedAnAsset() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: env, kind: environment, annotations: [{nodes: "*", interactive: true}]}
            """)
        #expect(errs.map(\.message) == ["'annotations' needs an 'asset' on environment 'env'"])
    }

    // MARK: anchors

    @Test func anAnchorFactMovesTheNodeIntoThatFrameAndFeedsTheRules() throws {
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: Knob2, anchor: head}
                  - {nodes: Label, anchor: hand}
            """)
        let k2 = try Self.entity(scene, "radio/Knob2")
        #expect(k2.anchor == .head && k2.factSources.anchor == .annotation)
        // Re-rooted in the head frame at t = 0 (eye (0, 1.6, 0), no rotation), keeping its rest pose:
        // the knob at (−0.1, 1.6, −1) is (−0.1, 0, −1) from the eye.
        let node = scene.nodes[k2.node]
        #expect(node.parent == nil && node.anchor == .head)
        #expect(near(node.rest.translation, Vec3(-0.1, 0, -1), 1e-12))
        // The standing hand frame is 0.30 m below and 0.35 m in front of the eye, at (0, 1.3, −0.35),
        // pitched down by φ = atan2(0.30, 0.35) to face the eye (cos φ = 0.35 / r, sin φ = 0.30 / r,
        // r = √(0.35² + 0.30²) = √0.2125). The label at (0, 1.7, −1) is d = (0, 0.40, −0.65) from
        // it in world axes; in the hand's axes (the inverse pitch, a turn by +φ about x):
        //   y = cos φ · 0.40 − sin φ · (−0.65) = (0.35 · 0.40 + 0.30 · 0.65) / r = 0.335 / r ≈ 0.7267
        //   z = sin φ · 0.40 + cos φ · (−0.65) = (0.30 · 0.40 − 0.35 · 0.65) / r = −0.1075 / r ≈ −0.2332
        let label = try Self.entity(scene, "radio/Label")
        #expect(label.anchor == .hand && scene.nodes[label.node].parent == nil)
        let r = 0.2125.squareRoot()
        #expect(near(scene.nodes[label.node].rest.translation, Vec3(0, 0.335 / r, -0.1075 / r), 1e-12))
        #expect(near(label.restWorldBounds.center, Vec3(0, 1.7, -1), 1e-9))

        // fov-head-locked reports the head-anchored knob (declared), not the world-anchored model.
        let engine = RuleEngine(scene: scene, configuration: .default)
        Simulator(scene: scene).run { engine.consume($0) }
        let locked = engine.finish().filter { $0.rule == "fov-head-locked" }
        #expect(locked.count == 1)
        #expect(locked.first?.entities == ["radio/Knob2"])
    }

    // MARK: one object, one entity

    @Test func aNodeWhoseAncestorTheSameEntryMatchesIsPartOfTheAncestorsEntity() throws {
        // `**` matches Root and its five children. The children are part of Root's entity for that
        // entry; Knob1 (facts in the file), btn_reset (a name prefix) and Slider (a file collider)
        // stay entities for their own facts, without the entry's; Knob2 and Label are no entities.
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: "**", interactive: true, accessibilityLabel: Radio}
            """)
        #expect(scene.entities.filter { $0.kind == .node }.map(\.path) == ["radio/Root", "radio/Knob1", "radio/btn_reset", "radio/Slider"])
        let root = try Self.entity(scene, "radio/Root")
        #expect(root.interactive && root.accessibilityLabel == "Radio")
        #expect(root.geometryNodes.count == 6)   // Root and its five children: one target, one box
        let knob = try Self.entity(scene, "radio/Knob1")
        #expect(knob.accessibilityLabel == "File label" && knob.factSources.accessibilityLabel == .file)
        #expect(try Self.entity(scene, "radio/Slider").interactive == false)
    }

    /// Outside trial (session 25, F1): a board piece labelled on the model and made a target with
    /// `nodes: "**"` became a node entity without the label, so a11y-labels warned on every piece.
    /// A model that is one target lends its label to that node (unless the node has its own);
    /// a model with several node entities does not, since each needs its own.
    @Test func aModelThatIsOneTargetLendsItsLabelToIt() throws {
        let piece = AssetImporting { (_: String, _: String) throws(Diagnostic) -> ImportedAsset in
            let cube = AABB(min: Vec3(-0.01, -0.01, -0.01), max: Vec3(0.01, 0.01, 0.01))
            let node = AssetNode(name: "Piece", parent: nil, subtreeEnd: 1, local: .identity, localTRS: .identity,
                                 meshBounds: cube, vertices: [-0.01, -0.01, -0.01, 0.01, 0.01, 0.01], triangles: 12, marking: nil)
            return ImportedAsset(path: "piece.glb", resolvedPath: "/x/piece.glb", format: "test", nodes: [node],
                                 animations: [], declaredUnitScale: nil, unitNote: "metres")
        }
        func load(_ annotation: String) throws -> Scene {
            try SceneLoader.load(text: """
                format: spatialscene/1
                duration: 1
                entities:
                  - id: king
                    kind: model
                    asset: robot.glb
                    position: [0, 1.6, -1]
                    accessibilityLabel: White king
                    annotations:
                      - \(annotation)
                """, path: "board.scene.yaml", baseDirectory: LoaderFixture.directory, options: .init(), importer: piece)
        }
        let lent = try Self.entity(try load("{nodes: \"**\", interactive: true, interaction: both}"), "king/Piece")
        #expect(lent.interactive && lent.accessibilityLabel == "White king" && lent.factSources.accessibilityLabel == .annotation)
        let own = try Self.entity(try load("{nodes: \"**\", interactive: true, accessibilityLabel: King piece}"), "king/Piece")
        #expect(own.accessibilityLabel == "King piece")
        // The panel has several node entities (three from its file, Knob2 from the annotation).
        let scene = try Self.load(annotations: """
                accessibilityLabel: Radio
                annotations:
                  - {nodes: "Knob2", interactive: true}
            """)
        #expect(try Self.entity(scene, "radio/Knob2").accessibilityLabel == nil)
        #expect(try Self.entity(scene, "radio").accessibilityLabel == "Radio")
    }

    @Test func anotherEntryStillMakesANestedNodeAnEntity() throws {
        // The second entry matches Knob2, inside Root: Knob2 is an entity with that entry's facts
        // (a button, interactive by its role), not with the first entry's label.
        let scene = try Self.load(annotations: """
                annotations:
                  - {nodes: "**", interactive: true, accessibilityLabel: Radio}
                  - {nodes: "Knob2", role: button}
            """)
        #expect(scene.entities.filter { $0.kind == .node }.map(\.path) == ["radio/Root", "radio/Knob1", "radio/Knob2", "radio/btn_reset", "radio/Slider"])
        let knob2 = try Self.entity(scene, "radio/Knob2")
        #expect(knob2.role == .button && knob2.interactive && knob2.accessibilityLabel == nil)
    }
}
