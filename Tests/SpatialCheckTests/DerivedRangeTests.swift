import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// Derived values out of range (docs/security.md §2.2): every input number is at most 10⁹, but
/// nested scales multiply; world scales, positions and sizes beyond 10¹² (or not finite) are a
/// load error naming the entity, at rest and with the largest animation keys.
@Suite struct DerivedRangeTests {
    /// `depth` groups nested through `children`, each with `own` as its extra keys, the innermost
    /// holding `leaf`.
    static func nested(_ depth: Int, own: String, leaf: String) -> String {
        var text = "format: spatialscene/1\nentities:\n"
        var indent = "  "
        for i in 0..<depth {
            text += "\(indent)- id: g\(i)\n\(indent)  kind: group\n\(indent)  \(own)\n\(indent)  children:\n"
            indent += "    "
        }
        return text + "\(indent)- \(leaf)\n"
    }

    static func errors(_ text: String, importer: AssetImporting = LoaderFixture.importer) -> [Diagnostic] {
        do {
            _ = try SceneLoader.load(text: text, path: "range.scene.yaml", baseDirectory: LoaderFixture.directory, importer: importer)
            return []
        } catch {
            return error.diagnostics
        }
    }

    static func path(_ depth: Int) -> String { (0..<depth).map { "g\($0)" }.joined(separator: "/") }

    @Test func twentyNestedScalesOfOneBillionAreAnErrorAtTheFirstEntityOutOfRange() {
        let errs = Self.errors(Self.nested(20, own: "scale: 1e9", leaf: "{id: w, kind: window, position: [0, 1.5, -2]}"))
        // g0 has a world scale of 1e9; g0/g1 1e18, the first beyond 1e12. Only it is reported, not
        // the 18 groups and the window inside it.
        #expect(errs.count == 1, "\(errs.map(\.description))")
        let e = errs.first
        #expect(e?.message == "the world scale of 'g0/g1' reaches 1e+18 (nested scales and positions multiply, animation keys included); at most 1e+12 is supported")
        #expect(e?.location?.line == 7)  // the '- id: g1' item
        #expect(e?.hint?.contains("10¹² m") == true)
    }

    /// A stub asset whose one node below the root has the scale `scale` (an asset's transforms
    /// have no magnitude limit of their own, only finiteness).
    static func giantAsset(scale: Double) -> AssetImporting {
        AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            let huge = Transform(translation: Vec3(0, 0, 0), rotation: .identity, scale: Vec3(scale, scale, scale))
            let root = AssetNode(name: "root", parent: nil, subtreeEnd: 2, local: .identity, localTRS: .identity,
                                 meshBounds: .empty, vertices: [], triangles: 0, marking: nil)
            let node = AssetNode(name: "giant\u{1B}[2J", parent: 0, subtreeEnd: 2, local: huge.matrix, localTRS: huge,
                                 meshBounds: AABB(min: Vec3(0, 0, 0), max: Vec3(1, 1, 1)),
                                 vertices: [0, 0, 0, 1, 0, 0, 0, 1, 1], triangles: 1, marking: nil)
            return ImportedAsset(path: display, resolvedPath: resolved, format: "stub", nodes: [root, node], animations: [],
                                 declaredUnitScale: nil, unitNote: "")
        }
    }

    @Test func scalesThatOverflowToInfinityAreAnError() {
        // YAML nesting (at most 64) keeps scene scales finite (1e9^31); an asset node's 1e300 under
        // a model's 1e9 overflows to infinity.
        let errs = Self.errors("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: robot.glb, scale: 1e9}\n",
                               importer: Self.giantAsset(scale: 1e300))
        #expect(errs.map(\.message) == ["the world scale of 'm' reaches infinity at its asset node 'giant\\u{1B}[2J' (nested scales and positions multiply, animation keys included); at most 1e+12 is supported"])
    }

    @Test func positionsThatMultiplyBeyondTheRangeAreAnError() {
        // Scale 1e6 then a position of 1e9 inside: the world position is 1e15 m.
        let errs = Self.errors("""
            format: spatialscene/1
            entities:
              - id: big
                kind: group
                scale: 1e6
                children:
                  - {id: far, kind: group, position: [1e9, 0, 0]}
            """)
        #expect(errs.map(\.message) == ["the world position of 'big/far' reaches 1e+15 (nested scales and positions multiply, animation keys included); at most 1e+12 is supported"])
        #expect(errs.first?.location?.line == 7)
        // A window of 1e9 points at 1 m under a 1e3 scale: its size is out of range.
        let size = Self.errors("""
            format: spatialscene/1
            entities:
              - id: big
                kind: group
                scale: 1e4
                children:
                  - {id: w, kind: volume, position: [0, 0, -1], size: [1e9, 1, 1]}
            """)
        #expect(size.first?.message.hasPrefix("the world size of 'big/w' reaches 5e+12") == true, "\(size.map(\.message))")
    }

    @Test func animationKeysCountAlthoughTheRestPoseIsInRange() {
        // At rest g1's scale is 1; its keyframes reach 1e9 under g0's 1e9.
        let errs = Self.errors("""
            format: spatialscene/1
            entities:
              - id: g0
                kind: group
                scale: 1e9
                children:
                  - id: g1
                    kind: group
                    animation: {keyframes: [{t: 0, scale: 1}, {t: 1, scale: 1e9}]}
            """)
        #expect(errs.count == 1)
        // √3 · 1e9 (a turned, scaled axis) · 1e9.
        #expect(errs.first?.message.hasPrefix("the world scale of 'g0/g1' reaches 1.73e+18") == true, "\(errs.map(\.message))")
    }

    @Test func anAssetNodeWithAHugeTransformIsAnErrorNamingTheModelAndTheNode() {
        let importer = Self.giantAsset(scale: 1e300)
        let errs = Self.errors("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: robot.glb}\n", importer: importer)
        #expect(errs.count == 1, "\(errs.map(\.description))")
        #expect(errs.first?.message == "the world scale of 'm' reaches 1e+300 at its asset node 'giant\\u{1B}[2J' (nested scales and positions multiply, animation keys included); at most 1e+12 is supported")
    }

    @Test func anAssetOfPlausibleSizeScaledByAnimationKeysIsARangeErrorNotAPlausibilityOne() {
        // A 1000 m asset node (plausible: under 100 km at rest) under a model whose scale keys reach
        // 1e9: world scale √3 · 1e9 ≈ 1.73e9 (in range), size 1.73e9 · 1000 ≈ 1.73e12 (out). The
        // cause is the keys, not the file's coordinates: the range check reports it.
        let importer = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            let root = AssetNode(name: "root", parent: nil, subtreeEnd: 2, local: .identity, localTRS: .identity,
                                 meshBounds: .empty, vertices: [], triangles: 0, marking: nil)
            let node = AssetNode(name: "long", parent: 0, subtreeEnd: 2, local: .identity, localTRS: .identity,
                                 meshBounds: AABB(min: Vec3(0, 0, 0), max: Vec3(1000, 1, 1)),
                                 vertices: [0, 0, 0, 1000, 0, 0, 0, 1, 1], triangles: 1, marking: nil)
            return ImportedAsset(path: display, resolvedPath: resolved, format: "stub", nodes: [root, node], animations: [],
                                 declaredUnitScale: nil, unitNote: "")
        }
        let errs = Self.errors("""
            format: spatialscene/1
            entities:
              - id: m
                kind: model
                asset: robot.glb
                animation: {keyframes: [{t: 0, scale: 1}, {t: 1, scale: 1e9}]}
            """, importer: importer)
        #expect(errs.count == 1, "\(errs.map(\.description))")
        #expect(errs.first?.message.hasPrefix("the world size of 'm' reaches 1.73e+12 at its asset node 'long'") == true, "\(errs.map(\.message))")
    }

    @Test func ordinaryNestingStaysWellInsideTheRange() throws {
        // Ten levels of scale 10 with positions of 100 m: a world scale of 1e10 and positions near
        // 1.1e11 m are absurd but inside the range, and load.
        let text = Self.nested(10, own: "scale: 10", leaf: "{id: w, kind: group, position: [100, 0, 0]}")
        #expect(Self.errors(text).isEmpty, "\(Self.errors(text).map(\.description))")
    }

    // MARK: The lower bound: world scales below 10⁻⁹

    static let floorMessageTail = " (the scales of an entity and the entities it is nested in multiply, animation keys included); at least 1e-09 is supported"

    @Test func worldScalesBelowOneBillionthAreAnErrorAtTheScaleThatTakesThemThere() {
        // 0.01⁴ = 1e-8 for g0…g3 (in range); g4's 0.01 takes the product to 1e-10. Only g4 is
        // reported, at its 'scale' line (5 + 4·4 = 21: each group takes 4 lines after 2 of header),
        // not g5 or the window inside it.
        let errs = Self.errors(Self.nested(6, own: "scale: 0.01", leaf: "{id: w, kind: window, position: [0, 1.5, -2]}"))
        #expect(errs.map(\.message) == ["the world scale of 'g0/g1/g2/g3/g4' falls to 1e-10 at this 'scale'" + Self.floorMessageTail])
        #expect(errs.first?.location?.line == 21)
        #expect(errs.first?.hint == "make this scale, or one it is nested in, larger so that their product stays at least 10⁻⁹ (docs/security.md §2.2); to hide content use 'visible: false' or a 'hide' event")
    }

    @Test func aSubnormalScaleIsAnErrorAtItsValue() {
        // 5e-324 is positive (so 'scale' accepts it) but multiplies every size to 0.
        let errs = Self.errors("""
            format: spatialscene/1
            entities:
              - {id: g, kind: group, scale: 5e-324, children: [{id: w, kind: window, position: [0, 1.5, -2]}]}
            """)
        #expect(errs.map(\.message) == ["the world scale of 'g' falls to 4.94e-324 at this 'scale'" + Self.floorMessageTail])
        #expect(errs.first?.location == SourceLocation(line: 3, column: 33))
    }

    @Test func aKeyframeScaleCountsAndOneAxisIsEnough() {
        // The group's 1e-5 is fine, and so is the card's rest scale (1); its second key's y axis
        // (a key's scale replaces the rest scale) takes that axis to 1e-10: the error is at that
        // keyframe's 'scale'.
        let errs = Self.errors("""
            format: spatialscene/1
            entities:
              - id: tray
                kind: group
                scale: 1e-5
                children:
                  - id: card
                    kind: volume
                    size: [0.2, 0.2, 0.2]
                    animation:
                      keyframes:
                        - {t: 0}
                        - {t: 1, scale: [1, 1e-5, 1]}
            """)
        #expect(errs.map(\.message) == ["the world scale of 'tray/card' falls to 1e-10 at this keyframe 'scale'" + Self.floorMessageTail])
        #expect(errs.first?.location?.line == 13)  // the '- {t: 1, scale: …}' key
    }

    @Test func worldScalesDownToTheBoundLoad() throws {
        // Exactly 10⁻⁹ (1e-3 · 1e-6 rounds to 1e-9 or just above; 1e-9 alone is the bound).
        _ = try SceneLoader.load(text: """
            format: spatialscene/1
            entities:
              - {id: g, kind: group, scale: 1e-9, children: [{id: v, kind: volume, size: [1, 1, 1], position: [0, 0, -1]}]}
              - {id: h, kind: group, scale: 0.001, children: [{id: i, kind: group, scale: [1, 1e-6, 1]}]}
            """, path: "range.scene.yaml", baseDirectory: LoaderFixture.directory, importer: LoaderFixture.importer)
    }
}
