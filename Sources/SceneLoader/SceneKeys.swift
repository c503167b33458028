import SpatialModel

/// The keys a scene file may use, where the loader checks them. One list for the loader (which
/// rejects any other key with a "did you mean") and for the JSON Schema of the scene format
/// (`spatialcheck schema scene`), so the two cannot drift apart.
public enum SceneKeys {
    /// The top level of a scene file.
    public static let top = ["format", "name", "platform", "immersion", "frameRate", "duration", "units", "viewer",
                             "entities", "events", "settings", "device"]
    /// Every entity, whatever its kind.
    public static let common = ["id", "kind", "position", "placement", "rotation", "quaternion", "facing", "scale",
                                "anchor", "interactive", "primary", "visible", "children", "animation", "media",
                                "placementMode"]
    /// The keys only some kinds take, per kind a scene file can name.
    public static let byKind: [(kind: EntityKind, keys: [String])] = [
        (.window, ["size", "scaleMode", "elements", "representsRealObject", "background", "presentation", "title"]),
        (.volume, ["size", "scaleMode", "elements", "representsRealObject", "background"]),
        (.model, ["asset", "assetUnits", "assetAxes", "node", "annotations", "accessibilityLabel", "decorative",
                  "representsRealObject", "userScalable"]),
        (.text, ["fontSize", "height", "string", "accessibilityLabel", "decorative", "color", "background", "fontWeight"]),
        (.environment, ["asset", "assetUnits", "assetAxes", "node", "groundPlane", "range", "annotations"]),
        (.group, []),
    ]
    /// A 2D element of a window or volume.
    public static let element = ["id", "role", "frame", "depth", "fontSize", "label", "interactive", "primary", "visible"]
        + elementFactKeys + elementAppearanceKeys + ["media"]
    /// `viewer`.
    public static let viewer = ["posture", "eyeHeight", "ipd", "fieldOfView", "path", "motion", "hand"]
    /// `device` (iOS).
    public static let device = ["model", "screen", "orientation", "fieldOfView"]
    /// `placement`.
    public static let placement = ["distance", "azimuth", "elevation", "facing"]
    /// `settings`: the accessibility settings the scene runs under.
    public static let settings = ["reduceMotion", "dimFlashingLights"]
    /// `media` of an entity or element.
    public static let media = ["kind", "autoplay", "controls", "speech", "captions", "flashRate", "flashLuminance",
                               "dimsFlashingLights", "cameraMotion"]
    /// `cameraMotion` of `media`.
    public static let cameraMotion = ["rotation", "acceleration"]
    /// `animation` of an entity.
    public static let animation = ["keyframes", "clip", "loop", "speed", "trigger", "reduceMotion"]
    /// One entry of an entity's `annotations`.
    public static let annotation = annotationKeys + appearanceKeys
    /// A `setImmersion` event (besides `t` and `action`).
    public static let setImmersionEvent = ["style", "trigger", "transition"]
}
