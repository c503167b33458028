import SpatialModel
import SceneLoader

/// The library's front door: the operations the `spatialcheck` commands perform, usable from other
/// Swift code without the command-line layer.
public enum SpatialCheck {
    public static let version = "0.1.0"
}
