import Testing
import Foundation
import SpatialModel
import SceneLoader
import Simulation
import AssetImport

/// Scene file → loader → assimp clip → simulator, checked against values read from the glTF by hand.
@Suite struct EndToEndAnimationTests {
    /// A temp folder holding a copy of BoxAnimated.gltf and a scene that plays its translation clip.
    private static func boxScene(loop: Bool) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sc-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.asset("gltf-box-animated/BoxAnimated.gltf"),
                                         toPath: dir.appendingPathComponent("BoxAnimated.gltf").path)
        let scene = """
            format: spatialscene/1
            frameRate: 8
            duration: 2
            entities:
              - id: box
                kind: model
                asset: BoxAnimated.gltf
                position: [0, 0, -3]
                animation: {clip: animation1, loop: \(loop)}
            """
        let path = dir.appendingPathComponent("box.scene.yaml").path
        try scene.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func frames(_ path: String) throws -> [FrameQuantities] {
        let scene = try SceneLoader.load(path: path)
        var out: [FrameQuantities] = []
        Simulator(scene: scene).run { out.append(copy $0) }
        return out
    }

    @Test(.enabled(if: TestPaths.haveSharedAssets))
    func translationClipMovesTheInnerBox() throws {
        // BoxAnimated.gltf: animation 1 translates node 0 (parent of the 0.67 × 1 × 0.67 m inner box)
        // with LINEAR keys t = 0 → y 0 and t = 1.25 → y 2.52 (accessors 8 and 9). The outer box
        // (node 3) is a static 1 m cube. At t = 0.625 (frame 5 at 8 Hz) the inner box is at y = 1.26,
        // spanning 0.76 … 1.76; the model's bounds are the union with the outer cube.
        let f = try Self.frames(Self.boxScene(loop: false))
        let q = f[5]
        #expect(abs(q.time - 0.625) < 1e-12)
        #expect(abs(q.boundsMax[0].y - 1.76) < 1e-6)
        #expect(abs(q.boundsMin[0].y - -0.5) < 1e-6)
        #expect(abs(q.boundsMax[0].x - 0.5) < 1e-6 && abs(q.boundsMin[0].z - -3.5) < 1e-6)
        #expect(abs(q.center[0].y - 0.63) < 1e-6)
        // At t = 0 the inner box sits inside the outer cube: bounds are the cube's.
        #expect(abs(f[0].boundsMax[0].y - 0.5) < 1e-6)
    }
}

@Suite struct CubicSplineTests {
    /// 03_all_animations.gltf: SphereAction is a CUBICSPLINE translation with keys t = 0, 1, 2 and
    /// values x = 0, 2, 0 (zero tangents), read from the .bin by hand. assimp 5.2's C API gives the
    /// key values but not the tangents, so spatialcheck interpolates linearly between them: exact
    /// at the keys (documented in docs/scene-format.md).
    @Test(.enabled(if: TestPaths.haveSharedAssets))
    func cubicSplineKeysArriveAsTheirValues() throws {
        let path = TestPaths.asset("gltf-all-animations-trs/03_all_animations.gltf")
        let asset = try AssetImporter.load(resolvedPath: path, displayPath: path)
        let clip = try #require(asset.animations.first { $0.name == "SphereAction" })
        let channel = try #require(clip.channels.first { !$0.positions.isEmpty })
        #expect(channel.positions.map(\.time) == [0, 1, 2])
        #expect(channel.positions.map(\.value.x) == [0, 2, 0])
        #expect(asset.nodes[channel.node].name == "Sphere")
    }
}
