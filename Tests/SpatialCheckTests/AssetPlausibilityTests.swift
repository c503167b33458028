import Foundation
import Testing
@testable import SceneLoader
import AssetImport
import SpatialModel

/// Asset coordinates beyond any plausible unit (an import error naming the asset) and point clouds
/// (vertices without faces load, with their bounds and 0 triangles).
@Suite struct AssetPlausibilityTests {
    static let directory: String = {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("spatialcheck-plausible-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    @discardableResult
    static func write(_ name: String, _ text: String) -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Loads a scene made of `body`; each call writes its own file (the tests run in parallel).
    static func scene(_ body: String, _ name: String = #function) throws(LoadFailure) -> Scene {
        let file = name.filter { $0.isLetter || $0.isNumber } + "-\(abs(body.hashValue)).scene.yaml"
        let path = write(file, "format: spatialscene/1\nentities:\n" + body)
        return try SceneLoader.load(path: path)
    }

    static func loadErrors(_ body: String, _ name: String = #function) -> [Diagnostic] {
        do { _ = try scene(body, name); return [] } catch { return error.diagnostics }
    }

    @Test func coordinatesAt1e23MetresAreAnErrorNamingTheAsset() throws {
        // One triangle with vertices (0,0,0), (1e23,0,0), (0,1e30,0): read as metres it reaches
        // 1e30 m from its origin, far beyond the 100 km limit.
        Self.write("absurd.obj", "v 0 0 0\nv 1e23 0 0\nv 0 1e30 0\nf 1 2 3\n")
        let errs = Self.loadErrors("  - {id: ship, kind: model, asset: absurd.obj, position: [0, 0, -2]}\n")
        let d = try #require(errs.first)
        #expect(errs.count == 1)
        #expect(d.message.hasPrefix("asset 'absurd.obj' of model 'ship' reaches 1e+30 m from its origin after unit conversion"))
        #expect(d.message.contains("beyond the 100 km plausibility limit"))
        #expect(d.location?.line == 3)
        #expect(d.hint?.contains("assetUnits") == true)
    }

    @Test func contentFarLargerThanItsVolumeIsNoted() throws {
        // A 3 m triangle (0,0,0)–(3,0,0)–(0,1,0) in a 0.6 m volume: 3 m > 2 × 0.6 m, noted with the
        // factor that fits it (0.6 / 3 = 0.2). At 1 m (< 1.2 m) it is not noted.
        Self.write("statue.obj", "v 0 0 0\nv 3 0 0\nv 0 1 0\nf 1 2 3\n")
        Self.write("bust.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
        let big = try Self.scene("  - id: vol\n    kind: volume\n    position: [0, 1, -1.5]\n    size: [0.6, 0.6, 0.6]\n"
                                 + "    children:\n      - {id: statue, kind: model, asset: statue.obj}\n")
        let note = try #require(big.warnings.first { $0.message.contains("more than twice its volume") })
        #expect(note.message == "model 'vol/statue' is 3 m across at rest, more than twice its volume 'vol' (0.6 m): visionOS clips a volume's content at its bounds, so most of it will not be seen")
        #expect(note.hint?.hasPrefix("scale the model down (×0.2 of its size fits it) or size the volume for it; if the file is not in metres, assetUnits: centimeters makes it 0.03 m;") == true, "\(note.hint ?? "")")
        #expect(note.location?.line == 8)
        let small = try Self.scene("  - id: vol\n    kind: volume\n    position: [0, 1, -1.5]\n    size: [0.6, 0.6, 0.6]\n"
                                   + "    children:\n      - {id: bust, kind: model, asset: bust.obj}\n")
        #expect(!small.warnings.contains { $0.message.contains("volume") }, "\(small.warnings.map(\.message))")
    }

    @Test func theLimitAppliesAfterTheUnitConversion() throws {
        // A 200 km span in file units: (0,0,0)–(200000,0,0). As metres it reaches 200 km: an error.
        // As millimetres (assetUnits) it is 200 m: it loads, with the "not in metres" warning only.
        Self.write("long.obj", "v 0 0 0\nv 200000 0 0\nv 0 1 0\nf 1 2 3\n")
        let errs = Self.loadErrors("  - {id: road, kind: model, asset: long.obj}\n")
        #expect(errs.count == 1 && errs.first?.message.contains("reaches 200000 m from its origin") == true)
        let scene = try Self.scene("  - {id: road, kind: model, asset: long.obj, assetUnits: millimeters}\n")
        let b = scene.entities[0].restWorldBounds
        #expect(abs(b.max.x - 200) < 1e-9 && abs(b.max.y - 0.001) < 1e-12)
        #expect(scene.warnings.contains { $0.message.contains("looks like it is not in metres") })
    }

    @Test func justUnderTheLimitLoads() throws {
        // 99 km from the origin, in metres: implausible as a prop, but not a broken file.
        Self.write("near-limit.obj", "v 0 0 0\nv 99000 0 0\nv 0 1 0\nf 1 2 3\n")
        let scene = try Self.scene("  - {id: road, kind: model, asset: near-limit.obj}\n")
        #expect(abs(scene.entities[0].restWorldBounds.max.x - 99000) < 1e-6)
    }

    @Test func objPointCloudLoadsWithItsBoundsAndNoTriangles() throws {
        // Four vertices, no faces: bounds (0,0,−4)…(2,3,0), 0 triangles, a note.
        let path = Self.write("scan.obj", "v 0 0 0\nv 2 0 0\nv 0 3 0\nv 0 0 -4\n")
        let asset = try AssetImporter.load(resolvedPath: path, displayPath: "scan.obj")
        #expect(asset.triangleCount == 0)
        #expect(asset.warnings.contains("point cloud: 4 vertices and no faces; loaded with its bounds and 0 triangles"))
        let scene = try Self.scene("  - {id: scan, kind: model, asset: scan.obj}\n")
        let e = scene.entities[0]
        #expect(e.restWorldBounds.min == Vec3(0, 0, -4) && e.restWorldBounds.max == Vec3(2, 3, 0))
        #expect(e.asset?.triangles == 0)
        #expect(scene.warnings.contains { $0.message == "asset 'scan.obj': point cloud: 4 vertices and no faces; loaded with its bounds and 0 triangles" })
    }

    @Test func plyPointCloudLoadsButACutShortPlyIsStillAnError() throws {
        let cloud = Self.write("scan.ply", """
            ply
            format ascii 1.0
            element vertex 3
            property float x
            property float y
            property float z
            end_header
            0 0 0
            1 2 3
            -1 0.5 0

            """)
        let asset = try AssetImporter.load(resolvedPath: cloud, displayPath: "scan.ply")
        #expect(asset.triangleCount == 0)
        var b = AABB.empty
        for n in asset.nodes { var k = 0; while k + 2 < n.vertices.count { b.formUnion(Vec3(Double(n.vertices[k]), Double(n.vertices[k + 1]), Double(n.vertices[k + 2]))); k += 3 } }
        #expect(b.min == Vec3(-1, 0, 0) && b.max == Vec3(1, 2, 3))
        // Wuson.ply cut after its header (hostile corpus; safe to import in-process): it declares
        // `element face 3732`, which never arrive. That is a cut-short file, not a scan.
        let cut = TestPaths.repo("Tests/Fixtures/hostile-assets/truncated-header-only-Wuson.ply")
        do {
            _ = try AssetImporter.load(resolvedPath: cut, displayPath: "cut.ply")
            Issue.record("a PLY whose declared faces are missing loaded")
        } catch {
            #expect(error.file == "cut.ply")
            #expect(error.message.contains("though its header declares 3732 faces"))
        }
    }

    @Test func objWithFaceLinesButNoTrianglesIsStillAnError() throws {
        // Cut in the middle of its only face line: that is a truncated file, not a scan.
        let path = Self.write("cut.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/\n")
        do {
            _ = try AssetImporter.load(resolvedPath: path, displayPath: "cut.obj")
            Issue.record("a truncated OBJ loaded")
        } catch {
            #expect(error.file == "cut.obj")
        }
    }
}
