import Testing
import Foundation
import SpatialModel
import SceneLoader

/// Issue 2's acceptance test at the user's level: every asset with a consensus in groundtruth.json,
/// loaded as a bare asset (`spatialcheck inspect robot.glb`), has the consensus world bounds in
/// metres and triangle count. The consensus is in file units (read its `conventions`): FBX files
/// are converted with their UnitScaleFactor (centimetres per unit), so their bounds in metres are
/// the file-unit bounds × UnitScaleFactor / 100, taken here from groundtruth's own ufbx metadata.
@Suite struct BareAssetGroundTruthTests {
    private static func fbxMetresPerUnit(_ id: String) -> Double? {
        guard let data = FileManager.default.contents(atPath: TestPaths.asset("groundtruth.json")),
              let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let assets = json["assets"] as? [String: [String: Any]],
              let ufbx = (assets[id]?["independent"] as? [String: Any])?["ufbx"] as? [String: Any],
              let unit = (ufbx["unit_meters"] as? NSNumber)?.doubleValue else { return nil }
        return unit
    }

    private static func close(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= max(1e-6, 1e-4 * max(abs(a), abs(b)))
    }

    @Test(.enabled(if: TestPaths.haveSharedAssets), arguments: GroundTruth.consensusCases)
    func bareAssetBoundsInMetres(_ c: GroundTruth.Case) throws {
        let scene = try SceneLoader.loadBareAsset(path: TestPaths.asset(c.primary))
        let model = try #require(scene.entities.first)
        #expect(model.kind == .model)
        let scale = Self.fbxMetresPerUnit(c.id) ?? 1
        #expect(model.asset?.unitScale == scale)
        let b = model.restWorldBounds
        let got = [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z]
        let want = (c.min + c.max).map { $0 * scale }
        #expect(zip(got, want).allSatisfy { Self.close($0, $1) }, "\(c.id): \(got) vs \(want)")
        #expect(model.asset?.triangles == c.triangles)
    }

    /// A bare asset's placement decides the placement rules' verdicts, so its report says how it
    /// was placed (once, with the default viewer's eye height); a scene that places the same asset
    /// does not get that note.
    @Test(.enabled(if: TestPaths.haveSharedAssets))
    func bareAssetSaysWhereItStands() throws {
        let c = try #require(GroundTruth.consensusCases.first)
        let bare = try SceneLoader.loadBareAsset(path: TestPaths.asset(c.primary))
        let notes = bare.warnings.map(\.message).filter { $0.hasPrefix("bare asset:") }
        #expect(notes.count == 1)
        #expect(notes.first?.contains("eye 1.6 m up, looking along −Z") == true)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bare-note-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenePath = dir.appendingPathComponent("placed.scene.yaml").path
        let yaml = "format: spatialscene/1\nentities:\n  - {id: m, kind: model, position: [0, 1.2, -1.5], asset: \(TestPaths.asset(c.primary))}\n"
        try yaml.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let placed = try SceneLoader.load(path: scenePath, options: LoadOptions(allowExternalAssets: true))
        #expect(!placed.warnings.contains { $0.message.hasPrefix("bare asset:") })
    }
}
