import Testing
import Foundation
import SpatialModel
import AssetImport

/// Files that assimp 5.2 imports without complaint but that would give a silently wrong model.
@Suite struct AssetImportIntegrityTests {
    private static func corpus(_ name: String) -> String { TestPaths.repo("Tests/Fixtures/hostile-assets/" + name) }

    private static func error(_ name: String) -> Diagnostic? {
        do { _ = try AssetImporter.load(resolvedPath: corpus(name), displayPath: name); return nil } catch { return error }
    }

    @Test func facesLostToTruncationAreAnError() throws {
        // Wuson.ply cut after its header: 11184 vertices declared, the faces never arrive.
        let d = try #require(Self.error("truncated-header-only-Wuson.ply"))
        #expect(d.message.contains("no surface geometry") && d.message.contains("no triangles"))
    }

    @Test func projectiveNodeMatrixIsAnError() throws {
        // singular-matrix.gltf: node 0's matrix ends in 0 instead of 1 (not an affine transform).
        let d = try #require(Self.error("singular-matrix.gltf"))
        #expect(d.message.contains("projective (non-affine) transform"))
    }

    @Test func nodeWithTwoParentsIsImportedUnderEachWithAWarning() throws {
        // shared-child-diamond.gltf: node 0 is listed as a child of nodes 1 and 2.
        let a = try AssetImporter.load(resolvedPath: Self.corpus("shared-child-diamond.gltf"), displayPath: "d.gltf")
        #expect(a.warnings.contains { $0.contains("node 0 is the child of both node 1 and node 2") })
    }

    @Test func rootThatIsAlsoAChildGetsAWarning() throws {
        // cycle-BoxAnimated.gltf: the scene's roots are [3, 0] and node 3 lists node 0 as its child.
        let a = try AssetImporter.load(resolvedPath: Self.corpus("cycle-BoxAnimated.gltf"), displayPath: "c.gltf")
        #expect(a.warnings.contains { $0.contains("node 0 is a root of the scene and also the child of node 3") })
    }
}
