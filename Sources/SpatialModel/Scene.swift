#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum Platform: String, Sendable, CaseIterable {
    case visionOS, iOS
    /// Default simulation rate: 90 Hz on visionOS, 60 Hz on iOS (scene format §2).
    public var defaultFrameRate: Double { self == .visionOS ? 90 : 60 }
}

public enum ImmersionStyle: String, Sendable, CaseIterable, Comparable {
    case shared, mixed, progressive, full
    /// Styles that have the 1.5 m boundary.
    public var hasBoundary: Bool { self == .progressive || self == .full }
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

public enum EntityKind: String, Sendable, CaseIterable {
    case window, volume, model, text, environment, group
    /// A 2D element inside a window or on a volume face (scene format §4.1).
    case element
    /// A node of a model's asset marked as UI content (scene format §7).
    case node
}

public enum Anchor: String, Sendable, CaseIterable { case world, head, hand }

public enum ScaleMode: String, Sendable, CaseIterable { case dynamic, fixed }

/// How a top-level entity's position relates to the person (`placementMode`): `absolute` content
/// sits at a fixed height in the room whatever the person's posture; `headRelative` content is
/// placed relative to the viewer's head (as visionOS places windows and volumes).
public enum PlacementMode: String, Sendable, CaseIterable { case absolute, headRelative }

public enum ElementRole: String, Sendable, CaseIterable {
    case button, toggle, slider, textField, link, menu, tab, picker, stepper, text, image, custom
    /// The control that leaves an immersive experience (`immersion-exit-affordance`).
    case exit
    /// A row of a system list, grouped form or menu (a SwiftUI `List` or `Form` row, a menu
    /// item): the system lays rows out and spaces them.
    case row
    /// Containers: a toolbar (or tab bar ornament), a sheet, an alert. Not targets themselves. A
    /// sheet or alert is modal: while it is visible, the other interactive content of its
    /// container cannot be looked at or tapped.
    case toolbar, sheet, alert
    /// iOS AR: the placement indicator (reticle) and the coaching overlay (ARCoachingOverlayView).
    case placementIndicator, coaching
    /// A page control (the dots that show how many pages there are and which one is current). In
    /// visionOS people do not interact with it; on iOS they can tap it (state `interactive: true`).
    case pageControl
    /// Every role except text, image, the containers, the placement indicator, coaching and the
    /// page control can be targeted by default.
    public var defaultInteractive: Bool {
        switch self {
        case .text, .image, .toolbar, .sheet, .alert, .placementIndicator, .coaching, .pageControl: false
        default: true
        }
    }
}

/// How a window nested in a window or volume is presented (`presentation`): not an ornament but a
/// sheet, an alert, a popover or a menu the window opens. Each is modal: while it is visible, the
/// rest of its parent window (the window's elements and its other nested content) cannot be looked
/// at or tapped.
public enum Presentation: String, Sendable, CaseIterable {
    case sheet, alert, popover, menu
}

public enum Posture: String, Sendable, CaseIterable {
    case standing, seated
    public var eyeHeight: Double { self == .standing ? 1.60 : 1.20 }

    /// Where hand-anchored content is held when the viewer gives no `hand`: a pose in the head
    /// frame (x right, y up, −z forward from the eye), documented in scene-format.md ("Viewer").
    /// Standing, the hand is raised to look at the palm: 0.35 m in front of the eye and 0.30 m
    /// below it (0.461 m away, 40.6° below the line of sight). Seated, the forearm rests on an
    /// armrest or the lap: 0.30 m in front, 0.35 m below (0.461 m, 49.4° below). The frame is
    /// pitched so its +Z points back at the eye: pitch = −atan(below / front).
    public var defaultHandPose: (position: Vec3, rotation: Quat) {
        let p = self == .standing ? Vec3(0, -0.30, -0.35) : Vec3(0, -0.35, -0.30)
        return (p, Quat(yaw: 0, pitch: -degrees(atan2(-p.y, -p.z)), roll: 0))
    }
}

public enum MotionPreset: String, Sendable, CaseIterable {
    case none, sway
    case lookAround = "look-around"
}

/// The units that relate points, metres and angles (scene format §1, hig-rules §2).
public struct Units: Hashable, Sendable {
    /// Degrees per point (visionOS defines a point as an angle). Default 0.0671°.
    public var pointAngle: Double
    /// Metres per point for fixed-scale content. Default `tan(pointAngle) · 1 m`.
    public var fixedPointSize: Double

    public static let defaultPointAngle = 0.0671

    /// Accepted point angles, degrees per point (`units.pointAngle`, the configuration's, and
    /// `--point-angle`): at least `minPointAngle`, less than `maxPointAngle`. visionOS's point is
    /// 0.0671°, an iPhone's or iPad's camera view about 0.05–0.1°: the range leaves a factor 100
    /// below the smallest and 10 above the largest. Below it every size and distance in pt_eq
    /// collapses towards 0 (5e-324 is 0 after one multiplication), so verdicts are meaningless.
    public static let minPointAngle = 0.0005
    public static let maxPointAngle = 1.0
    /// Accepted `units.fixedPointSize`, metres per point, inclusive: the default is 1.171 mm
    /// (one point at 1 m); the range leaves about a factor 100 each way (0.01 mm to 100 mm).
    public static let minFixedPointSize = 0.00001
    public static let maxFixedPointSize = 0.1

    /// The accepted ranges in words, for error messages.
    public static let pointAngleRangeText = "at least 0.0005 and less than 1 degree per point"
    public static let fixedPointSizeRangeText = "between 0.00001 and 0.1 metres per point"
    /// What the usual values are, for error hints.
    public static let pointAngleHint = "visionOS's point is 0.0671° (the default); an iPhone's or iPad's camera view is about 0.05–0.1°"

    /// True when `a` is an accepted point angle (finite, `minPointAngle` ≤ a < `maxPointAngle`).
    public static func acceptsPointAngle(_ a: Double) -> Bool { a.isFinite && a >= minPointAngle && a < maxPointAngle }
    /// True when `s` is an accepted fixed point size (finite, within the bounds inclusive).
    public static func acceptsFixedPointSize(_ s: Double) -> Bool { s.isFinite && s >= minFixedPointSize && s <= maxFixedPointSize }

    public init(pointAngle: Double = Units.defaultPointAngle, fixedPointSize: Double? = nil) {
        self.pointAngle = pointAngle
        self.fixedPointSize = fixedPointSize ?? tan(radians(pointAngle))
    }

    /// The default `fixedPointSize` for a point angle: one point at 1 m, `tan(pointAngle) · 1 m`
    /// (0.001171 m for 0.0671°; hig-rules §2.4 A3 rounds it to 0.00117 m/pt).
    public static func defaultFixedPointSize(pointAngle: Double) -> Double { tan(radians(pointAngle)) }

    /// Metres per point of a dynamic-scale container placed `distance` metres from the eye.
    public func dynamicPointSize(atDistance distance: Double) -> Double { tan(radians(pointAngle)) * distance }
    /// Point-equivalents of an angle in degrees.
    public func pointEquivalents(ofDegrees angle: Double) -> Double { angle / pointAngle }
}

/// A rectangle in points, origin at the container's top-left, +x right, +y down.
public struct RectPt: Hashable, Sendable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var center: SIMD2<Double> { SIMD2(x + width / 2, y + height / 2) }
    /// Whether `other` lies inside this rectangle, each edge allowed `tolerance` pt of rounding.
    public func contains(_ other: RectPt, tolerance: Double) -> Bool {
        other.x >= x - tolerance && other.y >= y - tolerance
            && other.x + other.width <= x + width + tolerance && other.y + other.height <= y + height + tolerance
    }
}

/// One node of the transform hierarchy the simulator steps: scene entities, 2D elements and asset
/// nodes alike. Nodes are in depth-first pre-order, so a subtree is `index ..< subtreeEnd`.
public struct Node: Sendable {
    // Ordered so that the one-byte `anchor` and the optionals' tags share padding (declaration
    // order is layout order): 352 bytes instead of 368.
    public var name: String
    public var parent: Int?
    /// Frame of a root node: the world, the head, or the hand frame. Children inherit it.
    public var anchor: Anchor
    public var subtreeEnd: Int
    /// The entity this node stands for, if any.
    public var entity: Int?
    /// Rest local transform relative to the parent (or, for a root, to its anchor frame).
    public var rest: Mat4
    /// The rest transform decomposed; animation channels override its components.
    public var restTRS: Transform
    /// This node's own geometry in its local frame (`.empty` when it has none).
    public var geometry: AABB

    public init(name: String, parent: Int?, subtreeEnd: Int, rest: Mat4, restTRS: Transform,
                geometry: AABB, anchor: Anchor, entity: Int?) {
        self.name = name; self.parent = parent; self.subtreeEnd = subtreeEnd; self.rest = rest
        self.restTRS = restTRS; self.geometry = geometry; self.anchor = anchor; self.entity = entity
    }
}

/// How a model's asset was brought into metres.
public struct AssetUse: Sendable {
    /// Path as written in the scene (or on the command line).
    public var path: String
    public var resolvedPath: String
    public var format: String
    /// Metres per file unit applied by spatialcheck (1 when the file is already in metres or the
    /// importer applied the file's unit itself).
    public var unitScale: Double
    /// Why that scale: the file's declaration, `assetUnits`, or the format's convention.
    public var unitReason: String
    /// The axis conversion applied at the asset's root and why (FBX `GlobalSettings`, `assetAxes`),
    /// empty when the format declares no axes and none was asked for.
    public var axisReason: String = ""
    public var triangles: Int
    /// The asset's animation clips: name and duration in seconds.
    public var clips: [(name: String, duration: Double)]
    public var node: String?
    /// What a USD import read (stages, prims with RealityKit components); nil for other formats.
    public var usd: USDAssetSummary?
    public init(path: String, resolvedPath: String, format: String, unitScale: Double, unitReason: String,
                triangles: Int, clips: [(name: String, duration: Double)], node: String?) {
        self.path = path; self.resolvedPath = resolvedPath; self.format = format; self.unitScale = unitScale
        self.unitReason = unitReason; self.triangles = triangles; self.clips = clips; self.node = node
    }
}

/// Something a report can name: a scene entity, a 2D element, or a marked asset node.
///
/// The fields most entities leave at nil (a text's string, labels, an asset, media, hit regions,
/// colours, …) live in one copy-on-write box, `extras`, that stays nil until one of them is set;
/// they read and write like the stored fields (computed accessors of the same names and types).
/// The stored fields are ordered to leave little padding (Swift lays a struct out in declaration
/// order): a 16,000-element scene's table is a third of the size it was with every field inline.
public struct Entity: Sendable {
    // 16-byte aligned fields first, the one-byte fields in the padding behind them.
    /// World bounds at rest (t = 0 pose, no animation, no skinning), exact for asset vertices.
    public var restWorldBounds: AABB
    /// World orientation at rest as `{yaw, pitch, roll}` in degrees (scene format convention), nil
    /// when the rest transform has no orientation (a zero scale).
    public var restOrientation: Vec3?
    public var kind: EntityKind
    public var role: ElementRole?
    public var interactive: Bool
    public var primary: Bool
    /// Visible at t = 0 (`visible: false` starts hidden; events show and hide).
    public var visible: Bool
    public var anchor: Anchor
    public var scaleMode: ScaleMode
    /// How input reaches it (`interaction`); nil when nothing says.
    public var interaction: Interaction?
    /// Its hover effect; nil when nothing says (unknown, not missing).
    public var hoverEffect: HoverEffect?
    public var groundPlane: Bool?
    /// A volume, fixed-scale window or model that shows a real object at its real size
    /// (`representsRealObject`); nil when the scene does not say.
    public var representsRealObject: Bool? = nil
    /// A model people can resize (`userScalable`: a pinch or ManipulationComponent scaling in the
    /// app); nil when the scene does not say. Read with `representsRealObject` by
    /// ar-scaling-appropriate.
    public var userScalable: Bool? = nil
    /// For a top-level world-anchored entity: whether it sits at an absolute world height or is
    /// placed relative to the head (`placementMode`, or its default); nil for children and head- or
    /// hand-anchored content.
    public var placementMode: PlacementMode? = nil
    /// Stated decorative: purely visual, hidden from VoiceOver (needs no label); nil when nothing says.
    public var decorative: Bool? = nil
    public var fontWeight: FontWeight? = nil
    /// Window size, or a volume's front-face size, in points.
    public var sizePt: SIMD2<Double>?
    /// Where `interactive`, `interaction`, `hoverEffect`, `hitRegion`, `anchor` and
    /// `accessibilityLabel` came from.
    public var factSources: FactSources
    /// The entity's own id; `path` addresses it in reports (`player/controls/play`).
    public var id: String
    public var path: String
    /// Its transform node.
    public var node: Int
    /// Nodes whose geometry makes up its bounds (its own node; a model's asset nodes; a group's subtree).
    public var geometryNodes: Range<Int>
    /// Metres per point: fixed at placement for dynamic scale (`tan(pointAngle) · d0`), or the
    /// fixed-scale size.
    public var metresPerPoint: Double
    /// Distance from the eye at t = 0 to the entity's centre (d0).
    public var placementDistance: Double
    /// Element frame inside its container, in points, and its depth toward the viewer in points.
    public var depthPt: Double
    public var location: SourceLocation
    /// The rarely set fields; nil while every one of them is nil.
    @usableFromInline var extras: EntityExtrasBox?
    public var parent: Int?
    /// For elements: the window or volume entity whose 2D surface holds it.
    public var container: Int?
    /// Font size in points for text-bearing content; `textHeight` (below) in metres for
    /// fixed-scale 3D text.
    public var fontSize: Double?
    /// Index into `Scene.animations` of the animation that drives this entity, if any.
    public var animation: Int?
    /// Element frame inside its container, in points (`depthPt` above is its depth).
    public var frame: RectPt?

    public init(id: String, path: String, kind: EntityKind, node: Int, location: SourceLocation) {
        self.id = id; self.path = path; self.kind = kind; self.role = nil; self.node = node
        self.geometryNodes = node..<(node + 1); self.parent = nil; self.container = nil
        self.interactive = false; self.primary = false; self.visible = true; self.anchor = .world
        self.scaleMode = .fixed; self.metresPerPoint = 0; self.placementDistance = 0
        self.sizePt = nil; self.frame = nil; self.depthPt = 0
        self.fontSize = nil; self.groundPlane = nil; self.animation = nil
        self.restWorldBounds = .empty; self.restOrientation = nil; self.location = location
        self.interaction = nil; self.hoverEffect = nil; self.factSources = FactSources()
        self.extras = nil
    }

    /// Text content that people read (text entities, text elements, text-marked nodes).
    public var isReadable: Bool { kind == .text || role == .text }

    // MARK: The rarely set fields (in `extras`)

    /// Volume size in metres.
    public var sizeMetres: Vec3? {
        @inlinable get { extras?.value.sizeMetres }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.sizeMetres = newValue } } }
    }
    /// `textHeight` in metres for fixed-scale 3D text (`fontSize` above for text in points).
    public var textHeight: Double? {
        @inlinable get { extras?.value.textHeight }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.textHeight = newValue } } }
    }
    public var string: String? {
        @inlinable get { extras?.value.string }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.string = newValue } } }
    }
    public var label: String? {
        @inlinable get { extras?.value.label }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.label = newValue } } }
    }
    public var asset: AssetUse? {
        @inlinable get { extras?.value.asset }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.asset = newValue } } }
    }
    /// Progressive-immersion range in degrees.
    public var immersionRange: [Double]? {
        @inlinable get { extras?.value.immersionRange }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.immersionRange = newValue } } }
    }
    /// Its hit region as stated (element key, annotation or asset file); nil: its bounds.
    public var hitRegion: HitRegion? {
        @inlinable get { extras?.value.hitRegion }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.hitRegion = newValue } } }
    }
    /// For an element with a 2D hit region: that region in its container's points.
    public var hitFrame: RectPt? {
        @inlinable get { extras?.value.hitFrame }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.hitFrame = newValue } } }
    }
    public var accessibilityLabel: String? {
        @inlinable get { extras?.value.accessibilityLabel }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.accessibilityLabel = newValue } } }
    }
    /// The media it plays (`media`), nil when it plays none.
    public var media: Media? {
        @inlinable get { extras?.value.media }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.media = newValue } } }
    }
    /// Text (foreground) colour and what the content is drawn on; nil when nothing says.
    public var color: Paint? {
        @inlinable get { extras?.value.color }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.color = newValue } } }
    }
    public var background: Paint? {
        @inlinable get { extras?.value.background }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.background = newValue } } }
    }
    /// SF Symbol name shown by the element (a tab's icon); nil when nothing says.
    public var symbol: String? {
        @inlinable get { extras?.value.symbol }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.symbol = newValue } } }
    }
    /// An element's tooltip (SwiftUI `.help(_:)`): shown when people look at it; nil when none.
    public var helpText: String? {
        @inlinable get { extras?.value.helpText }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.helpText = newValue } } }
    }
    /// A window's title (`WindowGroup("…")`, `.navigationTitle`); nil when nothing says.
    public var title: String? {
        @inlinable get { extras?.value.title }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.title = newValue } } }
    }
    /// How an element (a button) is drawn (`.buttonStyle`); nil when nothing says.
    public var buttonStyle: ButtonStyleKind? {
        @inlinable get { extras?.value.buttonStyle }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.buttonStyle = newValue } } }
    }
    /// For a node entity: whether it is its whole model (the model's only node entity, its subtree
    /// holds all of the model's geometry, in the model's anchor frame), so it has the model's bounds
    /// and motion. The model is then one object: its interactivity passes to this node, the target,
    /// and the rules that judge how content moves judge the model alone.
    public var wholeModel: Bool {
        @inlinable get { extras?.value.wholeModel ?? false }
        @inlinable set { if newValue || extras != nil { updateExtras { $0.wholeModel = newValue } } }
    }
    /// For an asset node read from USD: its prim (path and the stage's file as the scene names it;
    /// `SceneBuilder` keeps the file relative to the scene file's folder, the validator makes it
    /// relative to the project root).
    public var usdPrim: USDPrimRef? {
        @inlinable get { extras?.value.usdPrim }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.usdPrim = newValue } } }
    }
    /// A plane or object ARKit anchors it to at run time (a RealityKit Anchoring component); nil
    /// when nothing says. `anchor` is `world` then.
    public var arkitAnchor: ARKitAnchor? {
        @inlinable get { extras?.value.arkitAnchor }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.arkitAnchor = newValue } } }
    }
    /// For a window nested in a window or volume: how it is presented (`presentation`); nil for
    /// an ornament and everything else.
    public var presentation: Presentation? {
        @inlinable get { extras?.value.presentation }
        @inlinable set { if newValue != nil || extras != nil { updateExtras { $0.presentation = newValue } } }
    }

    /// Changes the rarely set fields: in place when this entity holds the only reference to its
    /// box, otherwise in a copy of it (so a copy of the entity keeps its own values), or in a new
    /// box when it had none.
    @usableFromInline
    mutating func updateExtras(_ change: (inout EntityExtras) -> Void) {
        if extras == nil {
            extras = EntityExtrasBox(EntityExtras())
        } else if !isKnownUniquelyReferenced(&extras), let shared = extras {
            extras = EntityExtrasBox(shared.value)
        }
        if let box = extras { change(&box.value) }
    }
}

/// The fields of an `Entity` that most entities leave at nil, kept out of line. (`@usableFromInline`
/// so that other modules inline `Entity`'s getters: one nil test for an entity without them.)
@usableFromInline
struct EntityExtras: Sendable {
    @usableFromInline var sizeMetres: Vec3?
    @usableFromInline var textHeight: Double?
    @usableFromInline var string: String?
    @usableFromInline var label: String?
    @usableFromInline var asset: AssetUse?
    @usableFromInline var immersionRange: [Double]?
    @usableFromInline var hitRegion: HitRegion?
    @usableFromInline var hitFrame: RectPt?
    @usableFromInline var accessibilityLabel: String?
    @usableFromInline var media: Media?
    @usableFromInline var color: Paint?
    @usableFromInline var background: Paint?
    @usableFromInline var symbol: String?
    @usableFromInline var helpText: String?
    @usableFromInline var title: String?
    @usableFromInline var buttonStyle: ButtonStyleKind?
    @usableFromInline var wholeModel = false
    @usableFromInline var usdPrim: USDPrimRef?
    @usableFromInline var arkitAnchor: ARKitAnchor?
    @usableFromInline var presentation: Presentation?
    @usableFromInline init() {}
}

/// `Entity`'s copy-on-write box of `EntityExtras`. `value` is changed only through
/// `Entity.updateExtras`, and only while that entity holds the only reference to the box, so a
/// box that is shared (between copies of an entity, or threads) is never written: the same rule
/// as the standard library's arrays, which is why it can be `Sendable`.
@usableFromInline
final class EntityExtrasBox: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var value: EntityExtras
    @usableFromInline init(_ value: EntityExtras) { self.value = value }
}

/// A head pose keyframe of the viewer path.
public struct ViewerKey: Sendable, Hashable {
    public var time: Double
    public var position: Vec3
    public var rotation: Quat
    public init(time: Double, position: Vec3, rotation: Quat) {
        self.time = time; self.position = position; self.rotation = rotation
    }
}

public struct Viewer: Sendable {
    public var posture: Posture
    public var eyeHeight: Double
    public var ipd: Double
    /// Comfortable field of view in degrees (horizontal, vertical).
    public var fieldOfView: SIMD2<Double>
    /// Head pose keyframes, strictly increasing in time; never empty (a still viewer has one key).
    public var path: [ViewerKey]
    /// Pose of the hand that `anchor: hand` content is held on, in the head frame (positions in
    /// metres from the eye, x right, y up, −z forward), as keyframes like `path`; never empty. By
    /// default one key: the posture's `defaultHandPose`.
    public var hand: [ViewerKey]
    /// True when the scene gives `viewer.hand` (false: the posture's default pose).
    public var handGiven: Bool
    public var motion: MotionPreset
    public var location: SourceLocation?

    public init(posture: Posture = .standing, eyeHeight: Double? = nil, ipd: Double = 0.063,
                fieldOfView: SIMD2<Double> = SIMD2(90, 70), path: [ViewerKey]? = nil,
                motion: MotionPreset = .none, location: SourceLocation? = nil, hand: [ViewerKey]? = nil) {
        self.posture = posture
        let eye = eyeHeight ?? posture.eyeHeight
        self.eyeHeight = eye
        self.ipd = ipd
        self.fieldOfView = fieldOfView
        self.path = path ?? [ViewerKey(time: 0, position: Vec3(0, eye, 0), rotation: .identity)]
        let pose = posture.defaultHandPose
        self.hand = hand.flatMap { $0.isEmpty ? nil : $0 } ?? [ViewerKey(time: 0, position: pose.position, rotation: pose.rotation)]
        self.handGiven = hand.map { !$0.isEmpty } ?? false
        self.motion = motion
        self.location = location
    }
}

/// An animation that drives nodes of the scene: an entity's `keyframes`, or a clip of a model's asset.
public struct Animation: Sendable {
    public enum Source: Sendable, Hashable { case keyframes, clip(String) }
    public var entity: Int
    public var source: Source
    /// Seconds from the first to the last key (the clip's own length for asset clips).
    public var duration: Double
    public var loop: Bool
    public var speed: Double
    /// Channels with node indices into `Scene.nodes`, times in seconds of clip time.
    public var channels: [NodeChannel]
    /// What starts it (`trigger`); nil when the scene does not say (the scene plays it: automatic).
    public var trigger: AnimationTrigger? = nil
    /// What the app does with it while Reduce Motion is on (`reduceMotion`, default keep).
    public var reduceMotion: ReduceMotionBehavior = .keep
    public init(entity: Int, source: Source, duration: Double, loop: Bool, speed: Double, channels: [NodeChannel]) {
        self.entity = entity; self.source = source; self.duration = duration; self.loop = loop
        self.speed = speed; self.channels = channels
    }
    /// Scene time at which a non-looping animation ends.
    public var endTime: Double { speed > 0 ? duration / speed : 0 }
}

public struct SceneEvent: Sendable {
    public enum Trigger: String, Sendable, CaseIterable { case user, system }
    public enum Action: Sendable {
        case setImmersion(ImmersionStyle, trigger: Trigger)
        case recenter
        case show(entity: Int)
        case hide(entity: Int)
        /// An ARKit session event (iOS): tracking state, plane, reference images.
        case ar(AREvent)
    }
    public var time: Double
    public var action: Action
    public var location: SourceLocation?
    /// `setImmersion` only: seconds the change takes to fade in (`transition`); nil when nothing
    /// says (the system's own transition).
    public var transition: Double? = nil
    public init(time: Double, action: Action, location: SourceLocation?) {
        self.time = time; self.action = action; self.location = location
    }
}

/// A loaded scene: everything the simulator and the rules need, in metres, seconds and degrees.
public struct Scene: Sendable {
    /// The scene file (or bare asset) as the user named it.
    public var path: String
    public var name: String?
    public var platform: Platform
    /// Immersion style at t = 0; events may change it.
    public var immersion: ImmersionStyle
    public var frameRate: Double
    public var duration: Double
    public var units: Units
    public var viewer: Viewer
    public var nodes: [Node]
    public var entities: [Entity]
    public var animations: [Animation]
    /// Sorted by time (stable for equal times).
    public var events: [SceneEvent]
    /// Non-fatal findings of the loader (e.g. an asset whose size suggests wrong units).
    public var warnings: [Diagnostic]
    /// The accessibility settings the scene is simulated and judged under (`settings`).
    public var settings = SystemSettings()
    /// iOS: the device whose camera is the viewer (`device`); nil when the scene gives none.
    public var device: Device? = nil

    public init(path: String, name: String? = nil, platform: Platform = .visionOS,
                immersion: ImmersionStyle = .shared, frameRate: Double? = nil, duration: Double = 0,
                units: Units = Units(), viewer: Viewer = Viewer(), nodes: [Node] = [],
                entities: [Entity] = [], animations: [Animation] = [], events: [SceneEvent] = [],
                warnings: [Diagnostic] = []) {
        self.path = path; self.name = name; self.platform = platform; self.immersion = immersion
        self.frameRate = frameRate ?? platform.defaultFrameRate; self.duration = duration
        self.units = units; self.viewer = viewer; self.nodes = nodes; self.entities = entities
        self.animations = animations; self.events = events; self.warnings = warnings
    }

    /// Number of simulated frames: frame i is at t = i / frameRate for i in 0 ..< frameCount,
    /// so a 12 s scene at 90 Hz has 1080 frames (the last at 11.989 s). At least one frame.
    public var frameCount: Int {
        let n = (duration * frameRate - 1e-9).rounded(.up)
        guard n.isFinite, n >= 1 else { return 1 }
        return n > Double(Int32.max) ? Int(Int32.max) : Int(n)
    }

    /// Rest world bounds of every entity together.
    public var restWorldBounds: AABB {
        var b = AABB.empty
        for e in entities { b.formUnion(e.restWorldBounds) }
        return b
    }

    public func entity(atPath path: String) -> Int? { entities.firstIndex { $0.path == path } }
}

extension Scene {
    /// Makes the `usdPrim` layers of the entities (relative to the scene file's folder, as the
    /// scene names its assets) relative to the folder of `sceneReportPath`, the scene's own path as
    /// reports write it (relative to the project root): "Scenes/x.scene.yaml" and "assets/Scene.usda"
    /// give "Scenes/assets/Scene.usda". An absolute layer stays as it is. No cost without USD prims.
    public mutating func relocateUSDPrims(sceneReportPath: String) {
        guard entities.contains(where: { $0.usdPrim != nil }) else { return }
        let slash = sceneReportPath.lastIndex(of: "/")
        let folder = slash.map { String(sceneReportPath[..<$0]) } ?? ""
        for i in entities.indices {
            guard let p = entities[i].usdPrim, !p.layer.hasPrefix("/") else { continue }
            entities[i].usdPrim?.layer = Self.joinedPath(folder, p.layer)
        }
    }

    /// `folder` + "/" + `relative` with "." and ".." resolved lexically ("a/b" + "../c" = "a/c");
    /// ".." that climbs above `folder`'s start is kept. An absolute `folder` stays absolute.
    static func joinedPath(_ folder: String, _ relative: String) -> String {
        var parts: [Substring] = []
        let absolute = folder.hasPrefix("/")
        for part in (folder + "/" + relative).split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}
