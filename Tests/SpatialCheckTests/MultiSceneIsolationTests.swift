import Testing
import Foundation
@testable import SpatialCheck
import AssetImport
import Reporting

/// Issue 8: a multi-scene run in which one scene's asset crashes the importer reports every other
/// scene normally, and the crashing one as a load error naming the asset.
@Suite struct MultiSceneIsolationTests {
    @Test(.enabled(if: WorkerExecutable.available))
    func crashingAssetCostsOnlyItsScene() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sc-multi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A binary PLY that segfaults inside assimp 5.2 (Tests/Fixtures/hostile-assets/README.md).
        try FileManager.default.copyItem(atPath: TestPaths.repo("Tests/Fixtures/hostile-assets/segv-missing-z-binary.ply"),
                                         toPath: dir.appendingPathComponent("crash.ply").path)
        try "format: spatialscene/1\nentities:\n  - {id: thing, kind: model, asset: crash.ply, position: [0, 1, -2]}\n"
            .write(to: dir.appendingPathComponent("a-crash.scene.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: TestPaths.repo("Scenes/media-player.scene.yaml"),
                                         toPath: dir.appendingPathComponent("b-media.scene.yaml").path)
        var options = SpatialCheck.ValidateOptions()
        options.isolation = WorkerExecutable.isolation(timeout: 20)
        options.configSearchDirectory = dir.path
        let v = SpatialCheck.runValidation(paths: [dir.path], options: options)
        #expect(v.exitCode == .loadError)
        #expect(v.report.scenes.count == 2)
        let crash = try #require(v.report.scenes.first)
        #expect(crash.status == .error)
        let message = crash.errors.map(\.message).joined()
        #expect(message.contains("crash.ply") && message.contains("crashed"), "\(message)")
        let media = try #require(v.report.scenes.last)
        #expect(media.status == .checked)
        #expect(media.violations.map(\.rule) == ["target-center-spacing", "target-center-spacing"])
    }
}
