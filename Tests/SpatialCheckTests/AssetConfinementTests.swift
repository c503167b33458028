import AssetImport
import Foundation
import SceneLoader
import SpatialCheck
import SpatialModel
import Testing

/// Hostile references written by the tests: glTF buffers and images, OBJ `mtllib`, links, FIFOs.
enum ConfinementFixture {
    /// One triangle whose coordinates are unmistakable in any output: (1234.5, 0, 0), (0, 2345.25, 0),
    /// (0, 0, 3456.75). Planted as the "secret" a hostile asset tries to read.
    static let canaryFloats: [Float] = [1234.5, 0, 0, 0, 2345.25, 0, 0, 0, 3456.75]
    static var canaryBytes: [UInt8] { canaryFloats.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) } }
    /// Texts that appear in an output only if the canary's bytes were read.
    static let canaryTexts = ["1234.5", "2345.25", "3456.75"]

    /// A one-triangle glTF whose buffer is `uri` (36 bytes), optionally with a base-colour image `imageURI`.
    static func gltf(bufferURI uri: String, imageURI: String? = nil) -> String {
        var doc: [String: Any] = [
            "asset": ["version": "2.0"], "scene": 0, "scenes": [["nodes": [0]]], "nodes": [["mesh": 0, "name": "tri"]],
            "meshes": [["primitives": [["attributes": ["POSITION": 0]].merging(imageURI == nil ? [:] : ["material": 0]) { a, _ in a }]]],
            "accessors": [["bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                           "min": [0, 0, 0], "max": [1234.5, 2345.25, 3456.75]]],
            "bufferViews": [["buffer": 0, "byteLength": 36]],
            "buffers": [["uri": uri, "byteLength": 36]],
        ]
        if let imageURI {
            doc["materials"] = [["pbrMetallicRoughness": ["baseColorTexture": ["index": 0]]]]
            doc["textures"] = [["source": 0]]
            doc["images"] = [["uri": imageURI]]
        }
        let data = (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A project: `proj/.spatialcheck.yaml`, `proj/.git/config` and `outside/canary.bin` (both the
    /// canary triangle), `proj/shared/mesh.bin` (the same triangle, legitimately shared).
    static func project() throws -> TempTree {
        let t = try TempTree("confine")
        t.file("proj/.spatialcheck.yaml", "failOn: error\n")
        t.data("proj/.git/config", canaryBytes)
        t.data("outside/canary.bin", canaryBytes)
        t.data("proj/shared/mesh.bin", canaryBytes)
        t.folder("proj/scenes")
        return t
    }

    /// The import's error (nil when it loaded), in this process or through the worker.
    static func importError(_ path: String, display: String, isolated: Bool,
                            references: AssetReferencePolicy? = nil) -> Diagnostic? {
        do {
            if isolated {
                _ = try AssetImporter.load(resolvedPath: path, displayPath: display,
                                           isolation: WorkerExecutable.isolation(timeout: 20), references: references)
            } else {
                _ = try AssetImporter.load(resolvedPath: path, displayPath: display,
                                           maxFileSize: AssetImporter.defaultMaxFileSize, references: references)
            }
            return nil
        } catch {
            return error
        }
    }
}

@Suite("Asset confinement: files an asset references stay inside the project root")
struct AssetConfinementTests {
    static let modes: [Bool] = WorkerExecutable.available ? [false, true] : [false]

    @Test("a glTF buffer in .git or outside the project is refused, naming the asset and the reference",
          arguments: modes)
    func bufferOutsideIsRefused(isolated: Bool) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        let cases: [(uri: String, message: String)] = [
            ("../.git/config", "asset 'scenes/m.gltf' references '../.git/config', which is inside a .git folder, which is never read"),
            ("../../outside/canary.bin", "asset 'scenes/m.gltf' references '../../outside/canary.bin', which resolves (after '..' and symbolic links) outside the project root; files an asset references must be inside it"),
            ("link.bin", "asset 'scenes/m.gltf' references 'link.bin', which resolves (after '..' and symbolic links) outside the project root; files an asset references must be inside it"),
        ]
        t.link("proj/scenes/link.bin", to: "../../outside/canary.bin")
        // An absolute URI is not opened as such: assimp joins it to the asset's folder (inside the
        // project), finds nothing there, and fails without reading the canary.
        let absolute = t.file("proj/scenes/abs.gltf", ConfinementFixture.gltf(bufferURI: t.path("outside/canary.bin")))
        let d = ConfinementFixture.importError(absolute, display: "scenes/abs.gltf", isolated: isolated)
        #expect(d?.message.hasPrefix("assimp could not import the asset: GLTF: could not open referenced file") == true)
        for c in cases {
            let path = t.file("proj/scenes/m.gltf", ConfinementFixture.gltf(bufferURI: c.uri))
            let d = ConfinementFixture.importError(path, display: "scenes/m.gltf", isolated: isolated)
            #expect(d?.file == "scenes/m.gltf")
            #expect(d?.message == c.message, "\(c.uri)")
            #expect(d?.hint?.contains("--allow-external-assets") == true || c.uri.contains(".git"))
            #expect(!ConfinementFixture.canaryTexts.contains { (d?.description ?? "").contains($0) })
            // The scene loader's importer, also through its two-argument form (the asset's own root).
            do {
                _ = try AssetImporting.assimp(isolation: isolated ? WorkerExecutable.isolation(timeout: 20) : nil)
                    .load(path, "scenes/m.gltf")
                Issue.record("\(c.uri) loaded")
            } catch {
                #expect(error.message == c.message)
            }
        }
    }

    @Test("references inside the project load, also '../' out of the asset's folder (Reality Composer Pro layout) and data: URIs",
          arguments: modes)
    func referencesInsideLoad(isolated: Bool) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        let base64 = Data(ConfinementFixture.canaryBytes).base64EncodedString()
        for uri in ["../shared/mesh.bin", "data:application/octet-stream;base64,\(base64)"] {
            let path = t.file("proj/scenes/ok.gltf", ConfinementFixture.gltf(bufferURI: uri))
            let asset: ImportedAsset
            if isolated {
                asset = try AssetImporter.load(resolvedPath: path, displayPath: "ok.gltf",
                                               isolation: WorkerExecutable.isolation(timeout: 20))
            } else {
                asset = try AssetImporter.load(resolvedPath: path, displayPath: "ok.gltf")
            }
            #expect(asset.nodes.flatMap(\.vertices) == ConfinementFixture.canaryFloats, "\(uri.prefix(20))")
        }
    }

    @Test("with --allow-external-assets an outside buffer is read, but .git stays refused", arguments: modes)
    func allowExternal(isolated: Bool) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        let out = t.file("proj/scenes/out.gltf", ConfinementFixture.gltf(bufferURI: "../../outside/canary.bin"))
        #expect(ConfinementFixture.importError(out, display: "out.gltf", isolated: isolated, references: .unconfined) == nil)
        let git = t.file("proj/scenes/git.gltf", ConfinementFixture.gltf(bufferURI: "../.git/config"))
        #expect(ConfinementFixture.importError(git, display: "git.gltf", isolated: isolated, references: .unconfined)?.message
                == "asset 'git.gltf' references '../.git/config', which is inside a .git folder, which is never read")
    }

    @Test("glTF images and OBJ mtllib outside the project are refused", arguments: modes)
    func imagesAndMaterialLibraries(isolated: Bool) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        let image = t.file("proj/scenes/img.gltf",
                           ConfinementFixture.gltf(bufferURI: "../shared/mesh.bin", imageURI: "../../outside/canary.png"))
        #expect(ConfinementFixture.importError(image, display: "img.gltf", isolated: isolated)?.message
                == "asset 'img.gltf' references '../../outside/canary.png', which resolves (after '..' and symbolic links) outside the project root; files an asset references must be inside it")
        let imageInside = t.file("proj/scenes/img2.gltf",
                                 ConfinementFixture.gltf(bufferURI: "../shared/mesh.bin", imageURI: "../shared/tex.png"))
        #expect(ConfinementFixture.importError(imageInside, display: "img2.gltf", isolated: isolated) == nil)

        t.file("outside/evil.mtl", "newmtl m\nKd 1 0 0\n")
        let obj = "mtllib ../../outside/evil.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n"
        let objPath = t.file("proj/scenes/m.obj", obj)
        #expect(ConfinementFixture.importError(objPath, display: "m.obj", isolated: isolated)?.message
                == "asset 'm.obj' references '../../outside/evil.mtl', which resolves (after '..' and symbolic links) outside the project root; files an asset references must be inside it")
        t.file("proj/scenes/good.mtl", "newmtl m\nKd 1 0 0\n")
        let good = t.file("proj/scenes/good.obj", obj.replacingOccurrences(of: "../../outside/evil.mtl", with: "good.mtl"))
        #expect(ConfinementFixture.importError(good, display: "good.obj", isolated: isolated) == nil)
    }

    @Test("a FIFO referenced as a buffer is refused at once instead of blocking the import", arguments: modes)
    func fifoReference(isolated: Bool) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        #expect(mkfifo(t.path("proj/scenes/pipe.bin"), 0o600) == 0)
        let path = t.file("proj/scenes/fifo.gltf", ConfinementFixture.gltf(bufferURI: "pipe.bin"))
        #expect(ConfinementFixture.importError(path, display: "fifo.gltf", isolated: isolated)?.message
                == "asset 'fifo.gltf' references 'pipe.bin', which is not a regular file (a FIFO, socket, device or directory)")
    }

    @Test("the scene loader's asset policy uses the project root: '../' inside the project loads, outside and .git do not")
    func scenePolicyUsesProjectRoot() throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        t.file("proj/assets/ok.gltf", ConfinementFixture.gltf(bufferURI: "../shared/mesh.bin"))
        t.file("outside/far.gltf", ConfinementFixture.gltf(bufferURI: "canary.bin"))
        t.file("proj/.git/m.gltf", ConfinementFixture.gltf(bufferURI: "config"))
        func errors(_ asset: String) -> [Diagnostic] {
            let text = "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: '\(asset)', position: [0, 1, -2]}\n"
            let path = t.file("proj/scenes/s.scene.yaml", text)
            do { _ = try SceneLoader.load(path: path); return [] } catch { return error.diagnostics }
        }
        #expect(errors("../assets/ok.gltf").isEmpty)
        #expect(errors("../../outside/far.gltf").map(\.message)
                == ["asset '../../outside/far.gltf' resolves (after '..' and symbolic links) outside the project root; assets must be inside it"])
        #expect(errors("../.git/m.gltf").map(\.message)
                == ["asset '../.git/m.gltf' resolves (after '..' and symbolic links) into a .git folder, which is never read"])
        // An explicit root narrows it; the effective root is what importers receive.
        let narrow = LoadOptions(confinementRoot: t.path("proj/scenes"))
        #expect(SceneLoader.confinementRoot(for: t.path("proj/scenes/s.scene.yaml"), options: narrow) == t.path("proj/scenes"))
        #expect(SceneLoader.confinementRoot(for: t.path("proj/scenes/s.scene.yaml"), options: LoadOptions()) == t.path("proj"))
        #expect(SceneLoader.confinementRoot(for: t.path("proj/scenes/s.scene.yaml"), options: LoadOptions(allowExternalAssets: true)) == nil)
    }

    @Test("a directory search follows links by the same rule: inside the project root, never into .git")
    func directorySearchLinks() throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        let scene = "format: spatialscene/1\nentities: []\n"
        t.file("proj/scenes/a.scene.yaml", scene)
        t.file("proj/other/b.scene.yaml", scene)
        t.file("proj/.git/c.scene.yaml", scene)
        t.file("outside/d.scene.yaml", scene)
        t.link("proj/scenes/b.scene.yaml", to: "../other/b.scene.yaml")
        t.link("proj/scenes/c.scene.yaml", to: "../.git/c.scene.yaml")
        t.link("proj/scenes/d.scene.yaml", to: "../../outside/d.scene.yaml")
        let dir = t.path("proj/scenes")
        let (files, errors) = SpatialCheck.expandPaths([dir])
        #expect(files == [dir + "/a.scene.yaml", dir + "/b.scene.yaml"])
        #expect(errors.map(\.file) == [dir + "/c.scene.yaml", dir + "/d.scene.yaml"])
        #expect(errors.allSatisfy { $0.message == "is a symbolic link to a file outside the project root (or into a .git folder); it was not loaded" })
        #expect(SpatialCheck.expandPaths([dir], allowExternal: true).files.count == 4)
    }

    @Test("the canary never reaches inspect --format json nor the simulate trace",
          .enabled(if: WorkerExecutable.available), arguments: ["../.git/config", "../../outside/canary.bin"])
    func canaryNeverInOutput(uri: String) throws {
        let t = try ConfinementFixture.project()
        defer { t.remove() }
        t.file("proj/scenes/m.gltf", ConfinementFixture.gltf(bufferURI: uri))
        t.file("proj/scenes/s.scene.yaml", "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: m.gltf, position: [0, 1, -2]}\n")
        let cwd = t.path("proj")
        for args in [["inspect", "--format", "json", "scenes/s.scene.yaml"], ["inspect", "--format", "json", "scenes/m.gltf"],
                     ["simulate", "--format", "jsonl", "scenes/s.scene.yaml"], ["simulate", "scenes/m.gltf"],
                     ["validate", "--format", "json", "scenes/s.scene.yaml"],
                     ["inspect", "--no-import-isolation", "--format", "json", "scenes/m.gltf"]] {
            let r = try CLIHarness.run(args, cwd: cwd)
            #expect(r.status == 2, "\(args)")
            for text in ConfinementFixture.canaryTexts {
                #expect(!r.stdout.contains(text) && !r.stderr.contains(text), "\(args): \(text)")
            }
            #expect((r.stdout + r.stderr).contains("references '\(uri)'"), "\(args)")
        }
    }
}
