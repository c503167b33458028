#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The iPhone or iPad that shows an iOS AR scene (scene format "Device"), and the ARKit session
// events on the timeline: tracking state, plane detection, reference images.

public enum DeviceOrientation: String, Sendable, CaseIterable { case portrait, landscape }

/// The device of an iOS AR scene: its screen in points and the camera view shown on it. On iOS the
/// viewer is this device's camera: `viewer.path` is the device path.
public struct Device: Sendable, Hashable {
    /// Preset name when one was used (`iPhone 15`), else nil.
    public var model: String?
    /// Screen size in points, portrait (width < height), as the HIG's layout table lists it.
    public var screenPortrait: SIMD2<Double>
    public var orientation: DeviceOrientation
    /// Field of view of the camera image shown on the screen, in degrees: horizontal (across the
    /// screen's width in this orientation) and vertical.
    public var fieldOfView: SIMD2<Double>
    /// True when the scene states `fieldOfView`; false when it is derived (`derivedFieldOfView`).
    public var fieldOfViewGiven: Bool

    public init(model: String? = nil, screenPortrait: SIMD2<Double>, orientation: DeviceOrientation = .portrait,
                horizontalFieldOfView: Double? = nil) {
        self.model = model
        self.screenPortrait = SIMD2(min(screenPortrait.x, screenPortrait.y), max(screenPortrait.x, screenPortrait.y))
        self.orientation = orientation
        let size = orientation == .portrait ? self.screenPortrait : SIMD2(self.screenPortrait.y, self.screenPortrait.x)
        if let h = horizontalFieldOfView {
            // The vertical angle follows from the screen's aspect (a pinhole camera's image fills it).
            let th = tan(radians(h) / 2)
            fieldOfView = SIMD2(h, degrees(2 * atan(th * size.y / size.x)))
            fieldOfViewGiven = true
        } else {
            fieldOfView = Device.derivedFieldOfView(screen: size)
            fieldOfViewGiven = false
        }
    }

    /// Screen size in points in the current orientation (width, height).
    public var screen: SIMD2<Double> {
        orientation == .portrait ? screenPortrait : SIMD2(screenPortrait.y, screenPortrait.x)
    }

    /// Degrees per screen point at the screen's centre: one point there spans `atan(2·tan(h/2) / W)`
    /// of the camera view (W the screen width in points, h the horizontal field of view), so that
    /// `n` points centred on the screen span `2·atan(n·tan(pointAngle)/2)` — the same relation as
    /// visionOS's point angle (scene format §1).
    public var pointAngle: Double {
        let w = screen.x
        guard w > 0 else { return Units.defaultPointAngle }
        return degrees(atan(2 * tan(radians(fieldOfView.x) / 2) / w))
    }

    /// 35 mm-equivalent focal length assumed for the camera ARKit uses (the wide camera, 26 mm on
    /// recent iPhones per Apple's technical specifications); its 4:3 image (ARKit's 1920 × 1440 video
    /// formats) is aspect-filled onto the screen.
    public static let cameraFocalLength35mm = 26.0

    /// The field of view of the camera image as the screen shows it: the 4:3 image of a
    /// `cameraFocalLength35mm` camera (half-diagonal 21.633 mm on the 36 × 24 mm reference frame,
    /// so half-sides 17.306 mm and 12.980 mm), long side along the screen's long side, scaled to
    /// fill the screen and cropped on the other axis.
    public static func derivedFieldOfView(screen: SIMD2<Double>) -> SIMD2<Double> {
        let halfDiagonal = (36.0 * 36.0 + 24.0 * 24.0).squareRoot() / 2
        let long = 0.8 * halfDiagonal / cameraFocalLength35mm, short = 0.6 * halfDiagonal / cameraFocalLength35mm
        let portrait = screen.x <= screen.y
        var th = portrait ? short : long, tv = portrait ? long : short
        guard screen.x > 0, screen.y > 0 else { return SIMD2(degrees(2 * atan(th)), degrees(2 * atan(tv))) }
        let r = screen.x / screen.y
        if r < th / tv { th = tv * r } else { tv = th / r }
        return SIMD2(degrees(2 * atan(th)), degrees(2 * atan(tv)))
    }

    /// Presets: screen sizes in points from the HIG's layout specifications (layout › Specifications,
    /// hig-rules §3.4), portrait. Names are matched without regard to case, spaces or hyphens.
    public static let presets: [(name: String, screen: SIMD2<Double>)] = [
        ("iPhone SE", SIMD2(375, 667)),
        ("iPhone 13 mini", SIMD2(375, 812)),
        ("iPhone 13", SIMD2(390, 844)),
        ("iPhone 14", SIMD2(390, 844)),
        ("iPhone 15", SIMD2(393, 852)),
        ("iPhone 15 Pro", SIMD2(393, 852)),
        ("iPhone 16", SIMD2(393, 852)),
        ("iPhone 16 Plus", SIMD2(430, 932)),
        ("iPhone 16 Pro", SIMD2(402, 874)),
        ("iPhone 16 Pro Max", SIMD2(440, 956)),
        ("iPhone 17 Pro", SIMD2(402, 874)),
        ("iPad mini", SIMD2(744, 1133)),
        ("iPad 11-inch", SIMD2(820, 1180)),
        ("iPad Air 11-inch", SIMD2(820, 1180)),
        ("iPad Pro 11-inch", SIMD2(834, 1194)),
        ("iPad Pro 13-inch", SIMD2(1024, 1366)),
    ]

    public static func presetKey(_ s: String) -> String {
        String(s.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" })
    }

    public static func preset(named name: String) -> SIMD2<Double>? {
        let k = presetKey(name)
        return presets.first { presetKey($0.name) == k }?.screen
    }
}

/// ARKit's tracking state (`ARCamera.TrackingState`): not available, limited (with a reason), normal.
public enum TrackingState: String, Sendable, CaseIterable { case notAvailable, limited, normal }

/// Why tracking is limited (`ARCamera.TrackingState.Reason`).
public enum TrackingReason: String, Sendable, CaseIterable { case initializing, relocalizing, excessiveMotion, insufficientFeatures }

public enum PlaneAlignment: String, Sendable, CaseIterable { case horizontal, vertical }

/// An ARKit session event on the scene's timeline.
public enum AREvent: Sendable, Hashable {
    /// The camera's tracking state changes (reason only for `limited`).
    case tracking(TrackingState, reason: TrackingReason?)
    /// A plane anchor is detected (`detected: true`) or removed.
    case plane(id: String, detected: Bool, alignment: PlaneAlignment?)
    /// The number of reference images the session detects from now on (`detectionImages`).
    case referenceImages(count: Int)
}
