import SpatialModel
import AssetImport

/// Loads `spatialscene/1` files (YAML or JSON) and bare assets into a `Scene`. (Stub.)
public enum SceneLoader {
    public static func load(path: String) throws(LoadFailure) -> Scene {
        throw LoadFailure([Diagnostic(file: path, message: "scene loading is not implemented yet")])
    }
}
