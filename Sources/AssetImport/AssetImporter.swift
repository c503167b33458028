import CAssimp
import SpatialModel

/// Imports 3D assets through assimp's C API into `ImportedAsset`. (Stub: the real importer lands next.)
public enum AssetImporter {
    /// Imports the default scene of the file at `resolvedPath`; `displayPath` is how messages name it.
    public static func load(resolvedPath: String, displayPath: String) throws(Diagnostic) -> ImportedAsset {
        throw Diagnostic(file: displayPath, message: "asset import is not implemented yet")
    }
}
