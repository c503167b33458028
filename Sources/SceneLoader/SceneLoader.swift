import SpatialModel
import AssetImport

// Stub with the agreed API; the real loader lands from the loader branch.
public struct LoadOptions: Sendable {
    public var pointAngle: Double?
    public var frameRate: Double?
    public var duration: Double?
    public init(pointAngle: Double? = nil, frameRate: Double? = nil, duration: Double? = nil) {
        self.pointAngle = pointAngle; self.frameRate = frameRate; self.duration = duration
    }
}

public enum SceneLoader {
    public static func isSceneFile(_ path: String) -> Bool {
        let p = path.lowercased()
        return p.hasSuffix(".scene.yaml") || p.hasSuffix(".scene.yml") || p.hasSuffix(".scene.json")
    }
    public static func load(path: String, options: LoadOptions = .init()) throws(LoadFailure) -> Scene {
        throw LoadFailure([Diagnostic(file: path, message: "scene loading is not implemented yet")])
    }
    public static func loadBareAsset(path: String, options: LoadOptions = .init()) throws(LoadFailure) -> Scene {
        throw LoadFailure([Diagnostic(file: path, message: "asset loading is not implemented yet")])
    }
}
