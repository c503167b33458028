import SpatialModel

/// The keys a scene file may use, where the loader checks them. One list for the loader (which
/// rejects any other key with a "did you mean") and for the JSON Schema of the scene format
/// (`spatialcheck schema scene`), so the two cannot drift apart.
public enum SceneKeys {
    /// The top level of a scene file.
    public static let top = ["format", "name", "platform", "immersion", "frameRate", "duration", "units", "viewer",
                             "entities", "events", "device"]
    /// Every entity, whatever its kind.
    public static let common = ["id", "kind", "position", "placement", "rotation", "quaternion", "facing", "scale",
                                "anchor", "interactive", "primary", "visible", "children", "animation"]
    /// The keys only some kinds take, per kind a scene file can name.
    public static let byKind: [(kind: EntityKind, keys: [String])] = [
        (.window, ["size", "scaleMode", "elements"]),
        (.volume, ["size", "scaleMode", "elements"]),
        (.model, ["asset", "assetUnits", "assetAxes", "node", "annotations"]),
        (.text, ["fontSize", "height", "string"]),
        (.environment, ["asset", "assetUnits", "assetAxes", "node", "groundPlane", "range", "annotations"]),
        (.group, []),
    ]
    /// A 2D element of a window or volume.
    public static let element = ["id", "role", "frame", "depth", "fontSize", "label", "interactive", "primary", "visible"]
        + elementFactKeys
    /// `viewer`.
    public static let viewer = ["posture", "eyeHeight", "ipd", "fieldOfView", "path", "motion", "hand"]
    /// `device` (iOS).
    public static let device = ["model", "screen", "orientation", "fieldOfView"]
    /// `placement`.
    public static let placement = ["distance", "azimuth", "elevation", "facing"]
    /// One entry of an entity's `annotations`.
    public static let annotation = annotationKeys
}
