import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// Helpers for the SceneLoader tests. Fixture files are written to a temporary directory at test
/// time (a checked-in fixture folder would need a resource declaration in Package.swift).
enum LoaderFixture {
    /// The one error that loading `text` must produce (a test issue when there are more or none).
    static func single(_ text: String, name: String = "test.scene.yaml") -> Diagnostic? {
        let errs = errors(text, name: name)
        #expect(errs.count == 1, "expected one error, got: \(errs.map(\.description))")
        return errs.first
    }

    static let directory: String = {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("spatialcheck-loader-\(getpid())")
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["robot.glb", "other.glb", "empty.glb", "broken.glb"] {
            _ = FileManager.default.createFile(atPath: (dir as NSString).appendingPathComponent(name),
                                           contents: Data("fixture".utf8))
        }
        return dir
    }()

    static func write(_ name: String, _ text: String) -> String {
        let p = (directory as NSString).appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(text.utf8))
        return p
    }

    static func translation(_ x: Double, _ y: Double, _ z: Double) -> Mat4 {
        Transform(translation: Vec3(x, y, z)).matrix
    }

    /// A two-node robot: `robot_root` (no mesh) with a child `btn_play` at (0, 1, 0) turned 90° about
    /// +Y, whose mesh has the vertices (0,0,0), (1,0,0), (0,0,2); one clip "Wave" (2 s) on `btn_play`.
    static func robot(declaredUnitScale: Double? = nil) -> ImportedAsset {
        let rot = Quat(angle: .pi / 2, axis: Vec3(0, 1, 0))
        let childTRS = Transform(translation: Vec3(0, 1, 0), rotation: rot)
        let root = AssetNode(name: "robot_root", parent: nil, subtreeEnd: 2, local: .identity, localTRS: .identity,
                             meshBounds: .empty, vertices: [], triangles: 0, marking: nil)
        let child = AssetNode(name: "btn_play", parent: 0, subtreeEnd: 2, local: childTRS.matrix, localTRS: childTRS,
                              meshBounds: AABB(min: Vec3(0, 0, 0), max: Vec3(1, 0, 2)),
                              vertices: [0, 0, 0, 1, 0, 0, 0, 0, 2], triangles: 1,
                              marking: AssetMarking(role: .button, source: .namePrefix))
        let clip = AssetClip(name: "Wave", duration: 2, channels: [
            NodeChannel(node: 1, rotations: [Key(time: 0, value: rot), Key(time: 2, value: .identity)]),
        ])
        return ImportedAsset(path: "robot.glb", resolvedPath: "/x/robot.glb", format: "glTF2 Importer",
                             nodes: [root, child], animations: [clip], declaredUnitScale: declaredUnitScale,
                             unitNote: declaredUnitScale == nil ? "glTF is in metres by specification" : "FBX UnitScaleFactor")
    }

    static let importer = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
        switch (resolved as NSString).lastPathComponent {
        case "robot.glb": return robot()
        case "other.glb": return robot(declaredUnitScale: 0.05)
        case "empty.glb":
            return ImportedAsset(path: display, resolvedPath: resolved, format: "glTF2 Importer",
                                 nodes: [AssetNode(name: "root", parent: nil, subtreeEnd: 1, local: .identity,
                                                   localTRS: .identity, meshBounds: .empty, vertices: [],
                                                   triangles: 0, marking: nil)],
                                 animations: [], declaredUnitScale: nil, unitNote: "")
        default: throw Diagnostic(file: display, message: "unexpected end of file in chunk header")
        }
    }

    static func load(_ text: String, name: String = "test.scene.yaml", options: LoadOptions = .init()) throws(LoadFailure) -> Scene {
        try SceneLoader.load(text: text, path: name, baseDirectory: directory, options: options, importer: importer)
    }

    /// The diagnostics of a scene expected to fail (empty if it loaded).
    static func errors(_ text: String, name: String = "test.scene.yaml") -> [Diagnostic] {
        do {
            _ = try load(text, name: name)
            return []
        } catch {
            return error.diagnostics
        }
    }
}

func near(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }
func near(_ a: Vec3, _ b: Vec3, _ eps: Double = 1e-9) -> Bool { length(a - b) <= eps }

/// World rest matrix of a node, composed by walking parents (roots: anchor frame is world here).
func worldMatrix(_ scene: Scene, _ node: Int) -> Mat4 {
    var m = scene.nodes[node].rest
    var p = scene.nodes[node].parent
    while let i = p {
        m = scene.nodes[i].rest * m
        p = scene.nodes[i].parent
    }
    return m
}
