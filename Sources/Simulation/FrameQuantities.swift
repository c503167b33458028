import CSpatialMath
import SpatialModel

/// The per-frame spatial quantities of hig-rules §0.3, for the head and for every entity of the
/// scene (index = index into `Scene.entities`).
///
/// Stored as structure-of-arrays that the simulator overwrites in place every frame: a consumer
/// reads what it needs while the frame is current and keeps only its own aggregates (retaining a
/// copy forces a copy of the buffers on the next frame).
///
/// Angles are in degrees, distances in metres, velocities per second.
public struct FrameQuantities: Sendable {
    // MARK: Frame and head
    public internal(set) var frame: Int = 0
    public internal(set) var time: Double = 0
    /// Seconds between frames (`1 / frameRate`); velocities are differences over this step.
    public internal(set) var deltaTime: Double = 0
    /// Eye (head) position and orientation in world space.
    public internal(set) var headPosition: Vec3 = .zero
    public internal(set) var headRotation: Quat = .identity
    /// `R_h · (0, 0, -1)` and `R_h · (0, 1, 0)`.
    public internal(set) var headForward: Vec3 = Vec3(0, 0, -1)
    public internal(set) var headUp: Vec3 = Vec3(0, 1, 0)
    /// Head yaw and pitch in degrees (yaw positive left as in the scene format, pitch positive up).
    public internal(set) var headYaw: Double = 0
    public internal(set) var headPitch: Double = 0
    /// Immersion style in force at this frame (after events up to and including this time).
    public internal(set) var immersion: ImmersionStyle = .shared
    /// H0: head position when progressive/full immersion began, or at the last recenter;
    /// nil while the style has no boundary.
    public internal(set) var boundaryOrigin: Vec3?
    /// `|p_h − H0|` (3D), 0 when there is no boundary origin.
    public internal(set) var headDisplacement: Double = 0
    /// Horizontal-only variant of `headDisplacement`.
    public internal(set) var headDisplacementHorizontal: Double = 0
    /// Every value of this frame but `frame` and `time` is bit for bit the previous frame's: nothing
    /// in the scene can move, the head pose is that of the two frames before (so the velocities,
    /// measured from the previous pose, are too) and no event takes effect at this frame. A rule
    /// whose findings depend only on these values may repeat the previous frame's instead of
    /// evaluating them again. False when not known (the first frames, anything moving).
    public internal(set) var unchangedSincePrevious = false
    /// An event (show, hide, a change of immersion, a recenter) took effect at this frame: what is
    /// visible, the immersion style and the boundary origin change only in such frames (and in
    /// the first).
    public internal(set) var eventsTookEffect = false
    /// Per entity: whether its box frame (`boxFrames`), centre, front and up axis can change after
    /// the first frame of the run (an animated, head- or hand-anchored node moves it or one of its
    /// geometry nodes). False: they are bit for bit the first frame's in every frame of the run
    /// (only its visibility can change, at events). Empty when not known: every entity may move.
    public internal(set) var canMove: [Bool] = []

    // MARK: Per entity
    public internal(set) var visible: [Bool] = []
    /// World centre of the entity's bounds.
    public internal(set) var center: [Vec3] = []
    public internal(set) var boundsMin: [Vec3] = []
    public internal(set) var boundsMax: [Vec3] = []
    /// The entity's local +Z axis (its front) and +Y axis in world space.
    public internal(set) var front: [Vec3] = []
    public internal(set) var upAxis: [Vec3] = []
    /// Distance from the eye to the centre.
    public internal(set) var distance: [Double] = []
    /// Direction of the centre in the head frame: azimuth positive to the right (a bearing),
    /// elevation positive up.
    public internal(set) var azimuth: [Double] = []
    public internal(set) var elevation: [Double] = []
    /// Elevation of the centre against the world horizontal at eye height.
    public internal(set) var elevationWorld: [Double] = []
    /// Angle between the head's forward direction and the direction to the centre.
    public internal(set) var eccentricity: [Double] = []
    /// Angular extent of the bounds seen from the eye, horizontally and vertically in the head
    /// frame, and the larger of the two. Measured around the line of sight to the centre (corners
    /// projected on the plane across it, "right" = sight × head up), so a flat rectangle facing
    /// the eye spans exactly `2·atan(w / 2d)` by `2·atan(h / 2d)` wherever it is in view; 360 × 180
    /// when the eye is inside the bounds.
    public internal(set) var angularWidth: [Double] = []
    public internal(set) var angularHeight: [Double] = []
    public internal(set) var angularSize: [Double] = []
    /// Size in point-equivalents, from the entity's own oriented box as the eye sees it (perspective
    /// and foreshortening included), never from an upright box around its image:
    /// - readable content with an em height: the angle of a segment of its world em height (the
    ///   stated em times `textScale`) along the text's up axis through its centre, measured across the image of its baseline (x axis),
    ///   / pointAngle (`2·atan(em / 2d)` facing the eye);
    /// - otherwise the box's smallest width across its own axes / pointAngle (the dimension that
    ///   limits targeting): for each axis whose image is not a point, the angular extent, measured
    ///   perpendicular to that image on the plane across the line of sight, of the box's section
    ///   through its centre spanned by the two other axes (for a flat element, its centre line
    ///   along the other axis). A thin bar whose image is tilted measures its thickness; a flat
    ///   rectangle facing the eye at distance d reads `2·atan(min(w, h) / 2d)`. When a corner is
    ///   not ahead of the eye, min(angularWidth, angularHeight) / pointAngle.
    public internal(set) var ptEq: [Double] = []
    /// What the entity's text size is multiplied by: the length of its node's local +Y axis in
    /// world space (its own scale and every ancestor's, animated ones included; for a node of an
    /// asset, divided by the asset's unit scale). Exactly 1 for an entity with no scale other than
    /// 1 above it, and for an entity without text (see `TextScale`). `ptEq` of readable content
    /// already measures the em height times it.
    public internal(set) var textScale: [Double] = []
    /// What a move has made of the metres per point of the entity's window or volume: dynamic
    /// scale keeps a top-level dynamic-scale window or volume the same angular size wherever it is
    /// moved (its metres per point follow its distance from the eye at each move, hig-rules §2.4
    /// A2, `onPlacement`), and this is its metres per point now over the one it opened with
    /// (`Entity.metresPerPoint`), for it and everything it holds. Exactly 1 until it moves, and
    /// for everything else. Points stay points: rules that turn metres of the frame into the
    /// window's points divide by `metresPerPoint × dynamicScale`.
    public internal(set) var dynamicScale: [Double] = []
    /// Angular velocity of the content itself as seen from the eye (hig-rules §1.5): the change of
    /// direction eye → centre measured from the previous frame's eye position, so turning the head
    /// or walking past still content reads 0. Head- and hand-anchored content is measured in the
    /// head frame.
    public internal(set) var angularVelocity: [Double] = []
    /// Linear speed of the centre in world space, and the content's approach speed `−d(distance)/dt`
    /// (distance from the previous eye position, so walking toward content is not looming).
    public internal(set) var linearSpeed: [Double] = []
    public internal(set) var approachSpeed: [Double] = []
    /// Bounds intersect / lie entirely inside the comfort field of view (`fieldOfView` h × v).
    public internal(set) var inFOV: [Bool] = []
    public internal(set) var fullyInFOV: [Bool] = []
    /// The box each entity's quantities are measured on, 12 doubles per entity: its centre, then
    /// three half-axis vectors (corners = centre ± a0 ± a1 ± a2). The entity's oriented box when
    /// exactly one of its nodes has geometry (a rotated window stays flat), else its world AABB.
    public internal(set) var boxFrames: [Double] = []

    /// Half-axis `k` (0, 1, 2) of entity `e`'s box frame.
    @inlinable
    public func boxAxis(_ e: Int, _ k: Int) -> Vec3 {
        let o = 12 * e + 3 + 3 * k
        guard e >= 0, k >= 0, k < 3, o + 2 < boxFrames.count else { return .zero }
        return Vec3(boxFrames[o], boxFrames[o + 1], boxFrames[o + 2])
    }

    /// The 8 corners of entity `e`'s box frame (its world bounds' corners when there is none).
    public func boxCorners(_ e: Int) -> [Vec3] {
        let o = 12 * e
        guard e >= 0, o + 11 < boxFrames.count else { return AABB(min: boundsMin[e], max: boundsMax[e]).corners }
        let c = Vec3(boxFrames[o], boxFrames[o + 1], boxFrames[o + 2])
        let a = boxAxis(e, 0), b = boxAxis(e, 1), d = boxAxis(e, 2)
        var corners: [Vec3] = []
        corners.reserveCapacity(8)
        for k in 0..<8 {
            let x: Vec3 = k & 1 == 0 ? -a : a, y: Vec3 = k & 2 == 0 ? -b : b, z: Vec3 = k & 4 == 0 ? -d : d
            corners.append(c + x + y + z)
        }
        return corners
    }

    /// How far entity `e`'s box reaches along the unit vector `n` from the plane through `origin`
    /// perpendicular to it: |(c − origin) · n| + Σ |a_k · n|.
    @inlinable
    public func boxReach(_ e: Int, along n: Vec3, from origin: Vec3) -> Double {
        let o = 12 * e
        guard e >= 0, o + 11 < boxFrames.count else { return abs(dot(center[e] - origin, n)) }
        let c = Vec3(boxFrames[o], boxFrames[o + 1], boxFrames[o + 2])
        return abs(dot(c - origin, n)) + abs(dot(boxAxis(e, 0), n)) + abs(dot(boxAxis(e, 1), n)) + abs(dot(boxAxis(e, 2), n))
    }

    public init(entityCount: Int) {
        visible = .init(repeating: true, count: entityCount)
        center = .init(repeating: .zero, count: entityCount)
        boundsMin = center; boundsMax = center; front = center; upAxis = center
        distance = .init(repeating: 0, count: entityCount)
        azimuth = distance; elevation = distance; elevationWorld = distance; eccentricity = distance
        angularWidth = distance; angularHeight = distance; angularSize = distance; ptEq = distance
        angularVelocity = distance; linearSpeed = distance; approachSpeed = distance
        inFOV = visible; fullyInFOV = visible
        textScale = .init(repeating: 1, count: entityCount)
        dynamicScale = textScale
    }

    public var entityCount: Int { center.count }
}

extension FrameQuantities {
    /// Hands `sm_entity_quantities` the per-entity buffers to write in place (no per-element copy
    /// through Swift). Vec3 is SIMD3<Double>: 4 doubles per element, the layout the C side expects.
    mutating func withOutputs(_ body: (inout sm_entity_out) -> Void) {
        var o = sm_entity_out()
        bind(&center) { o.center = $0
        bind(&boundsMin) { o.bounds_min = $0
        bind(&boundsMax) { o.bounds_max = $0
        bind(&front) { o.front = $0
        bind(&upAxis) { o.up = $0
        bind(&distance) { o.distance = $0
        bind(&azimuth) { o.azimuth = $0
        bind(&elevation) { o.elevation = $0
        bind(&elevationWorld) { o.elevation_world = $0
        bind(&eccentricity) { o.eccentricity = $0
        bind(&angularWidth) { o.angular_width = $0
        bind(&angularHeight) { o.angular_height = $0
        bind(&angularSize) { o.angular_size = $0
        bind(&ptEq) { o.pt_eq = $0
        bind(&angularVelocity) { o.angular_velocity = $0
        bind(&linearSpeed) { o.linear_speed = $0
        bind(&approachSpeed) { o.approach_speed = $0
        bind(&inFOV) { o.in_fov = $0
        bind(&fullyInFOV) { o.fully_in_fov = $0
            body(&o)
        } } } } } } } } } } } } } } } } } } }
    }
}

@inline(__always)
private func bind(_ a: inout [Double], _ body: (UnsafeMutablePointer<Double>?) -> Void) {
    a.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}

@inline(__always)
private func bind(_ a: inout [Vec3], _ body: (UnsafeMutablePointer<Double>?) -> Void) {
    a.withUnsafeMutableBufferPointer { v in v.withMemoryRebound(to: Double.self) { body($0.baseAddress) } }
}

@inline(__always)
private func bind(_ a: inout [Bool], _ body: (UnsafeMutablePointer<Bool>?) -> Void) {
    a.withUnsafeMutableBufferPointer { body($0.baseAddress) }
}
