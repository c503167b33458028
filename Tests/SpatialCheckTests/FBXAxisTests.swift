import Foundation
import Testing
@testable import SceneLoader
import AssetImport
import SpatialModel
import Reporting

/// FBX `GlobalSettings` axis systems: assets arrive +Y up, +Z front (−Z forward), as Reality
/// Converter and Blender import them; `assetAxes` overrides it.
@Suite struct FBXAxisTests {
    static let directory: String = {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("spatialcheck-fbxaxes-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// A one-triangle ASCII FBX 7.4 with the given axis system and 1 m per unit
    /// (UnitScaleFactor 100 cm). Its vertices are (0,0,0), (1,0,0), (0,0,2) in file axes.
    static func fbx(_ name: String, up: Int, upSign: Int, front: Int, frontSign: Int, coord: Int, coordSign: Int) -> String {
        let text = """
            ; FBX 7.4.0 project file
            FBXHeaderExtension:  {
            \tFBXHeaderVersion: 1003
            \tFBXVersion: 7400
            }
            GlobalSettings:  {
            \tVersion: 1000
            \tProperties70:  {
            \t\tP: "UpAxis", "int", "Integer", "",\(up)
            \t\tP: "UpAxisSign", "int", "Integer", "",\(upSign)
            \t\tP: "FrontAxis", "int", "Integer", "",\(front)
            \t\tP: "FrontAxisSign", "int", "Integer", "",\(frontSign)
            \t\tP: "CoordAxis", "int", "Integer", "",\(coord)
            \t\tP: "CoordAxisSign", "int", "Integer", "",\(coordSign)
            \t\tP: "UnitScaleFactor", "double", "Number", "",100
            \t}
            }
            Objects:  {
            \tGeometry: 1000, "Geometry::tri", "Mesh" {
            \t\tVertices: *9 {
            \t\t\ta: 0,0,0,1,0,0,0,0,2
            \t\t}
            \t\tPolygonVertexIndex: *3 {
            \t\t\ta: 0,1,-3
            \t\t}
            \t}
            \tModel: 2000, "Model::tri", "Mesh" {
            \t\tVersion: 232
            \t}
            }
            Connections:  {
            \tC: "OO",2000,0
            \tC: "OO",1000,2000
            }

            """
        let path = (directory as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Loads a scene made of `body`; each call writes its own file (the tests run in parallel).
    static func scene(_ body: String, _ name: String = #function) throws(LoadFailure) -> Scene {
        let text = "format: spatialscene/1\nentities:\n" + body
        let file = name.filter { $0.isLetter || $0.isNumber } + "-\(abs(body.hashValue)).scene.yaml"
        let path = (directory as NSString).appendingPathComponent(file)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return try SceneLoader.load(path: path)
    }

    /// groundtruth.json's entry for one asset id.
    static func groundTruth(_ id: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: TestPaths.asset("groundtruth.json")),
              let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return (json["assets"] as? [String: Any])?[id] as? [String: Any]
    }

    private static func near(_ a: Vec3, _ b: Vec3, _ tol: Double = 1e-9) -> Bool {
        abs(a.x - b.x) < tol && abs(a.y - b.y) < tol && abs(a.z - b.z) < tol
    }

    @Test func zUpFileStandsUp() throws {
        // 3ds Max's axis system: up +Z, front −Y, right +X. The conversion's rows are
        // (coord, up, front) = (+e_x, +e_z, −e_y): (x, y, z) → (x, z, −y). The triangle
        // (0,0,0), (1,0,0), (0,0,2) becomes (0,0,0), (1,0,0), (0,2,0): 2 m tall, not 2 m deep.
        _ = Self.fbx("zup.fbx", up: 2, upSign: 1, front: 1, frontSign: -1, coord: 0, coordSign: 1)
        let asset = try AssetImporter.load(resolvedPath: (Self.directory as NSString).appendingPathComponent("zup.fbx"),
                                           displayPath: "zup.fbx")
        let m = try #require(asset.axisConversion)
        #expect(Self.near(m.transformPoint(Vec3(0, 0, 2)), Vec3(0, 2, 0)))
        #expect(Self.near(m.transformPoint(Vec3(0, -1, 0)), Vec3(0, 0, 1)))   // file front → +Z
        #expect(Self.near(m.transformPoint(Vec3(1, 0, 0)), Vec3(1, 0, 0)))
        #expect(asset.axisNote == "FBX axes: up +Z, front −Y, right +X → turned to +Y up, +Z front")

        let scene = try Self.scene("  - {id: statue, kind: model, asset: zup.fbx, position: [0, 0, -2]}\n")
        let statue = try #require(scene.entities.first)
        #expect(Self.near(statue.restWorldBounds.min, Vec3(0, 0, -2)))
        #expect(Self.near(statue.restWorldBounds.max, Vec3(1, 2, -2)))
        #expect(statue.asset?.axisReason == asset.axisNote)
        let dump = ModelDump.text(scene)
        #expect(dump.contains("    axes: FBX axes: up +Z, front −Y, right +X → turned to +Y up, +Z front\n"))
        #expect(ModelDump.json(scene).serialized(pretty: false).contains(#""axes": "FBX axes: up +Z, front −Y, right +X → turned to +Y up, +Z front""#))
    }

    @Test func theIsolatedImportCarriesTheAxisConversion() throws {
        // The worker process sends the asset back through the codec: the conversion and its note
        // must survive, bit for bit.
        _ = Self.fbx("zup-codec.fbx", up: 2, upSign: 1, front: 1, frontSign: -1, coord: 0, coordSign: 1)
        let asset = try AssetImporter.load(resolvedPath: (Self.directory as NSString).appendingPathComponent("zup-codec.fbx"),
                                           displayPath: "zup-codec.fbx")
        let back = try ImportedAsset.decode(asset.encoded())
        #expect(back.axisConversion == asset.axisConversion && back.axisConversion != nil)
        #expect(back.axisNote == asset.axisNote)
        var plain = asset
        plain.axisConversion = nil
        plain.axisNote = ""
        let back2 = try ImportedAsset.decode(plain.encoded())
        #expect(back2.axisConversion == nil && back2.axisNote == "")
    }

    @Test func assetAxesNoneTurnsItOffAndZUpForcesIt() throws {
        _ = Self.fbx("zup2.fbx", up: 2, upSign: 1, front: 1, frontSign: -1, coord: 0, coordSign: 1)
        _ = Self.fbx("yup2.fbx", up: 1, upSign: 1, front: 2, frontSign: 1, coord: 0, coordSign: 1)
        let scene = try Self.scene("""
              - {id: raw, kind: model, asset: zup2.fbx, assetAxes: none}
              - {id: forced, kind: model, asset: yup2.fbx, assetAxes: zUp}
              - {id: plain, kind: model, asset: yup2.fbx}

            """)
        let raw = scene.entities[0], forced = scene.entities[1], plain = scene.entities[2]
        // none: the file's coordinates as they are, 2 m deep along +Z.
        #expect(Self.near(raw.restWorldBounds.max, Vec3(1, 0, 2)))
        #expect(raw.asset?.axisReason.hasPrefix("assetAxes: none: no axis conversion (the file: FBX axes: up +Z") == true)
        // zUp on a Y-up file: (x, y, z) → (x, z, −y): (0,0,2) → (0,2,0).
        #expect(Self.near(forced.restWorldBounds.max, Vec3(1, 2, 0)))
        // A Y-up, +Z front file needs nothing.
        #expect(Self.near(plain.restWorldBounds.max, Vec3(1, 0, 2)))
        #expect(plain.asset?.axisReason == "FBX axes: up +Y, front +Z, right +X (already +Y up, +Z front; nothing to convert)")
    }

    @Test func negativeUpAxisAndLeftHandedFilesAreConverted() throws {
        // Up −Y, front −Z, right +X: rows (+e_x, −e_y, −e_z), a 180° turn about X. (0,0,2) → (0,0,−2).
        _ = Self.fbx("down.fbx", up: 1, upSign: -1, front: 2, frontSign: -1, coord: 0, coordSign: 1)
        let down = try AssetImporter.load(resolvedPath: (Self.directory as NSString).appendingPathComponent("down.fbx"), displayPath: "down.fbx")
        let m = try #require(down.axisConversion)
        #expect(Self.near(m.transformPoint(Vec3(0, 0, 2)), Vec3(0, 0, -2)))
        #expect(Self.near(m.transformPoint(Vec3(0, 1, 0)), Vec3(0, -1, 0)))
        // Up +Y, front +Z, right −X is left-handed: rows (−e_x, +e_y, +e_z), a mirror in X.
        _ = Self.fbx("left.fbx", up: 1, upSign: 1, front: 2, frontSign: 1, coord: 0, coordSign: -1)
        let left = try AssetImporter.load(resolvedPath: (Self.directory as NSString).appendingPathComponent("left.fbx"), displayPath: "left.fbx")
        #expect(Self.near(try #require(left.axisConversion).transformPoint(Vec3(1, 0, 0)), Vec3(-1, 0, 0)))
        #expect(left.axisNote.contains("mirrored (the file is left-handed)"))
    }

    @Test func aBadAssetAxesValueIsAnError() throws {
        _ = Self.fbx("yup3.fbx", up: 1, upSign: 1, front: 2, frontSign: 1, coord: 0, coordSign: 1)
        do {
            _ = try Self.scene("  - {id: m, kind: model, asset: yup3.fbx, assetAxes: zup}\n")
            Issue.record("expected an error")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.message.contains("'assetAxes'") && d.message.contains("zup"))
            #expect(d.location?.line == 3)
        }
    }

    /// The two FBX files of the shared set declare +Y up, +Z front, +X right (groundtruth.json:
    /// ufbx `axes` right POSITIVE_X, up POSITIVE_Y, front POSITIVE_Z; assimp metadata UpAxis 1,
    /// FrontAxis 2, CoordAxis 0): nothing is turned, and their bounds stay the consensus box × units.
    @Test(.enabled(if: TestPaths.haveSharedAssets),
          arguments: ["fbx-global-settings-units", "fbx-huesitos-skeleton"])
    func sharedFBXFilesAreYUpAndKeepTheirBounds(_ id: String) throws {
        let gt = try #require(Self.groundTruth(id))
        let ufbx = try #require((gt["independent"] as? [String: Any])?["ufbx"] as? [String: Any])
        let axes = try #require(ufbx["axes"] as? [String: String])
        #expect(axes == ["right": "POSITIVE_X", "up": "POSITIVE_Y", "front": "POSITIVE_Z"])
        let unit = try #require((ufbx["unit_meters"] as? NSNumber)?.doubleValue)
        let box = try #require((gt["consensus"] as? [String: Any])?["aabb_file_units"] as? [String: Any])
        let lo = try #require(box["min"] as? [NSNumber]).map(\.doubleValue)
        let hi = try #require(box["max"] as? [NSNumber]).map(\.doubleValue)

        let path = try #require(GroundTruth.primaries[id])
        let asset = try AssetImporter.load(resolvedPath: TestPaths.asset(path), displayPath: path)
        #expect(asset.axisConversion == nil)
        #expect(asset.axisNote == "FBX axes: up +Y, front +Z, right +X (already +Y up, +Z front; nothing to convert)")
        let scene = try SceneLoader.loadBareAsset(path: TestPaths.asset(path))
        let b = scene.entities[0].restWorldBounds
        for k in 0..<3 {
            #expect(abs(b.min[k] - lo[k] * unit) < 1e-4 * max(1, abs(lo[k] * unit)))
            #expect(abs(b.max[k] - hi[k] * unit) < 1e-4 * max(1, abs(hi[k] * unit)))
        }
    }
}
