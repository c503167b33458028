/// Facts about interactive content that an app often states in code rather than in its assets:
/// how it is targeted, its hover effect, its hit region, its anchor and its accessibility label
/// (scene format, "Annotations"). They come from the asset file (USD RealityKit components, glTF
/// extras), from a name prefix, from the scene file (element keys and asset-node annotations), or
/// are the default; every entity records which.

/// Which input reaches an interactive entity (RealityKit `InputTargetComponent.allowedInputTypes`).
public enum Interaction: String, Sendable, CaseIterable, Hashable {
    case direct, indirect, both
}

/// The hover effect an interactive entity shows when looked at. `true` in a scene file means
/// `system`, `false` means `none`.
public enum HoverEffect: String, Sendable, CaseIterable, Hashable {
    case system, highlight, lift, none, custom
}

/// Where a fact about an entity came from, strongest first: an annotation in the scene file (or an
/// element's own key), the asset file, a node-name prefix, or the default.
public enum FactSource: String, Sendable, CaseIterable, Hashable {
    case annotation
    case file
    case namePrefix = "name prefix"
    case `default`

    /// As the text dump of `inspect` names it: where a person looks for it (`scene`: the scene
    /// file, an annotation or an element's own key; `asset`: the 3D file). JSON keeps `rawValue`.
    public var textName: String {
        switch self {
        case .annotation: "scene"
        case .file: "asset"
        case .namePrefix, .default: rawValue
        }
    }
}

/// A 3D hit region in metres, along the axes of the node it belongs to (not scaled by the asset's
/// unit scale or the node's own scale: the numbers are metres as the viewer sees them; an importer
/// converts a file's local extents with the node's world scale), centred `center` metres from
/// `origin`.
public struct HitShape: Hashable, Sendable {
    /// What `center` is measured from: the centre of the node's rest bounds (its origin when it has
    /// no geometry), as annotations say; or the node's origin, as a USD `Collider`'s pose does.
    public enum Origin: String, Hashable, Sendable { case bounds, node }
    public enum Kind: Hashable, Sendable {
        case box(size: Vec3)
        case sphere(radius: Double)
        /// Along the node's +Y axis; `height` is the total height, caps included (RealityKit's).
        case capsule(radius: Double, height: Double)
    }
    public var kind: Kind
    public var center: Vec3
    public var origin: Origin
    public init(_ kind: Kind, center: Vec3 = .zero, origin: Origin = .bounds) {
        self.kind = kind; self.center = center; self.origin = origin
    }

    /// Full extent along the node's x, y and z axes.
    public var size: Vec3 {
        switch kind {
        case .box(let s): return s
        case .sphere(let r): return Vec3(repeating: 2 * r)
        case .capsule(let r, let h): return Vec3(2 * r, max(h, 2 * r), 2 * r)
        }
    }
}

/// The region that takes input for an element or an asset node.
public enum HitRegion: Hashable, Sendable {
    /// 2D: a `width × height` pt rectangle centred on the element's frame.
    case size(width: Double, height: Double)
    /// 2D: the element's frame moved in by these points on each side (UIKit's `UIEdgeInsets`
    /// convention: negative values grow the region beyond the frame).
    case insets(top: Double, left: Double, bottom: Double, right: Double)
    /// 3D: a shape in the node's frame, in metres.
    case shape(HitShape)

    /// The 2D region in the container's points for an element whose frame is `frame`
    /// (nil for a 3D shape, or when the insets leave no area).
    public func rect(for frame: RectPt) -> RectPt? {
        switch self {
        case .size(let w, let h):
            let c = frame.center
            return RectPt(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
        case .insets(let t, let l, let b, let r):
            let w = frame.width - l - r, h = frame.height - t - b
            guard w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
            return RectPt(x: frame.x + l, y: frame.y + t, width: w, height: h)
        case .shape:
            return nil
        }
    }
}

/// Per-node facts an importer reads from the asset file: USD RealityKit components (InputTarget,
/// Collider, Anchoring, Accessibility) or glTF extras. Nil means the file does not say.
public struct NodeFacts: Hashable, Sendable {
    public var interactive: Bool?
    public var interaction: Interaction?
    public var hoverEffect: HoverEffect?
    public var hitRegion: HitRegion?
    public var anchor: Anchor?
    /// What ARKit anchors the node to at run time when the file says so (a RealityKit Anchoring
    /// component of type Plane or Object); `anchor` is then `world` (fixed in the room once placed).
    public var arkitAnchor: ARKitAnchor?
    public var accessibilityLabel: String?

    public init(interactive: Bool? = nil, interaction: Interaction? = nil, hoverEffect: HoverEffect? = nil,
                hitRegion: HitRegion? = nil, anchor: Anchor? = nil, accessibilityLabel: String? = nil) {
        self.interactive = interactive; self.interaction = interaction; self.hoverEffect = hoverEffect
        self.hitRegion = hitRegion; self.anchor = anchor; self.accessibilityLabel = accessibilityLabel
    }

    /// True when the file states nothing.
    public var isEmpty: Bool {
        interactive == nil && interaction == nil && hoverEffect == nil && hitRegion == nil && anchor == nil
            && arkitAnchor == nil && accessibilityLabel == nil
    }
}

/// A run-time anchor that ARKit provides (RealityKit `AnchoringComponent` targets other than the
/// head, a hand or a fixed transform): a detected plane, or a tracked object. The content stays
/// where ARKit puts it in the room, so it is simulated as world-anchored at its authored pose; what
/// differs is that ARKit data, and so a Full Space, is needed (`env-arkit-requires-full-space`).
public enum ARKitAnchor: String, Sendable, CaseIterable { case plane, object }

/// A USD prim an entity was made from: its path on the composed stage and the file of that stage
/// (the root layer whose stage holds the path), relative to the project root as reports name
/// scene files (`layer`), for reports (`usdPrims`) and `ignore` globs.
public struct USDPrimRef: Sendable, Hashable {
    public var path: String
    public var layer: String
    public init(path: String, layer: String) { self.path = path; self.layer = layer }
}

/// The source of each fact of an entity (`Entity.facts`), for `inspect`.
public struct FactSources: Hashable, Sendable {
    public var interactive: FactSource = .default
    public var interaction: FactSource = .default
    public var hoverEffect: FactSource = .default
    public var hitRegion: FactSource = .default
    public var anchor: FactSource = .default
    public var accessibilityLabel: FactSource = .default
    public init() {}
}
