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
}
