import Foundation
import SpatialModel
import Simulation

// iOS/iPadOS ARKit rules (hig-rules §1.10, augmented-reality page). On iOS the viewer is the
// device's camera (`viewer.path` is the device path); windows and their elements, and anything
// anchored to the head, are screen space (the app's 2D UI), everything else is in the world. With a `device`, one
// point is the camera view's angle of one screen point (`Device.pointAngle`), so pt_eq sizes of
// world content are on-screen points.

private let arBest = Citation("augmented-reality", "Best practices", "S0, S1")
private let arCoaching = Citation("augmented-reality", "Providing coaching", "S0, S1")
private let arInterruptions = Citation("augmented-reality", "Handling interruptions", "S0")
private let arObjects = Citation("augmented-reality", "Designing object interactions", "S0, S1")
private let arCommunicating = Citation("augmented-reality", "Communicating with people", "S0, S1")
private let arRealWorld = Citation("augmented-reality", "Reacting to real-world objects", "S0, S1")
private let arPlacing = Citation("augmented-reality", "Helping people place objects", "S0, S1")
private let arResolutions = Citation("augmented-reality", "Suggesting problem resolutions", "S0, S1")

public enum ArSafetyMovement: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-safety-movement", name: "AR does not ask for large or sudden movement", category: .ar,
        defaultSeverity: .warning, thresholdKey: "maxSpeed",
        parameters: [
            RuleParameter("maxSpeed", 1, "m/s", .configurable("a brisk indoor walk; faster is hurrying through a room people are not watching"), "device translation speed"),
            RuleParameter("maxDisplacement", 2, "m", .configurable("more than a step or two in a short time"), "device displacement within the window"),
            RuleParameter("window", 2, "s", .configurable("the time span of a 'sudden' movement"), "window for maxDisplacement"),
            RuleParameter("maxRotation", 90, "deg/s", .configurable("a quarter turn per second is a sweeping turn"), "device rotation speed"),
        ],
        citations: [arBest],
        summary: "The device path moves faster than 1 m/s, more than 2 m within 2 s (sub-check `displacement`), or turns faster than 90°/s (sub-check `rotation`).",
        rationale: "People absorbed in an AR experience may not notice what is around them; the HIG asks apps not to encourage large, rapid or sweeping movements.",
        fixHint: "Design the experience so people can take part standing or moving slowly: bring content to them, keep targets within a small area, and ramp up movement gradually.",
        platforms: [.iOS], unit: "m/s", worse: .higher,
        notes: ["Reading: the scene's device path (viewer.path on iOS) is what the experience asks people to do, so every movement it scripts counts as required.",
                "Speed: |p_i − p_(i−1)| / Δt per frame (the path is interpolated linearly, so it is constant between keys). Displacement (sub-check `displacement`, m): |p_i − p_(i−n)| with n = window × frame rate (from the first frame while fewer frames have passed), reported over the frames in which the device moves within each window that exceeds the limit (a walk from t = 4 s to 6 s is reported at 4–6 s, not over the windows that end 5–7 s), its worst frame the window's last move. Rotation (sub-check `rotation`, deg/s): the angle of the rotation between two frames' orientations / Δt. Reported on the scene, over the frames the limit is exceeded, each located at the device path (viewer.path), which scripts the movement."],
        subchecks: [RuleSubcheck("displacement", unit: "m"), RuleSubcheck("rotation", unit: "deg/s")])
}

public enum ArComfortDistance: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-comfort-distance", name: "AR does not need the device close or steeply tilted", category: .ar,
        defaultSeverity: .info, thresholdKey: "maxPitch",
        parameters: [
            RuleParameter("maxPitch", 45, "deg", .configurable("holding the device steeply up or down tires the wrists and neck"), "device pitch above or below the horizon"),
            RuleParameter("pitchDuration", 30, "s", .configurable("a short glance is fine; holding the pose is not"), "how long the pitch may be held"),
            RuleParameter("minDistance", 0.3, "m", .configurable("closer than a comfortably held phone"), "closest distance to an interactive object on screen"),
        ],
        citations: [arBest],
        summary: "The device is pitched more than 45° up or down for more than 30 s, or an interactive object on screen (a world object, or a control on a card placed in the world) is closer than 0.3 m to the device (sub-check `near`).",
        rationale: "Holding a device at one distance or angle for long is tiring; the HIG asks apps to place objects so people needn't bring the device close, and to keep sessions short with breaks.",
        fixHint: "Place content where people can see it holding the device naturally (near eye level, an arm's length away), and don't make them hold it close to an object to interact.",
        platforms: [.iOS], unit: "deg", worse: .higher,
        notes: ["Pitch: |device pitch| (viewer pitch) above 45° without a break for more than 30 s; measured is the largest pitch of the run, reported over the whole run (scene-level).",
                "Near (sub-check `near`, m; lower is worse): an interactive world entity (not screen-space UI), or an interactive element of a world card (a window or volume not anchored to the head), that is visible and on screen (viewer.fieldOfView, the camera's with a device) while closer than 0.3 m to the device; measured is the closest distance, threshold 0.3 m (as depth-near-brief-only states 'closer than'), so the worst frame is the closest.",
                "Reading (world cards on iOS): the 2D UI on the screen is head-anchored content (scene format, Device (iOS)); a window or volume left in the world is a card placed in the camera view (a RealityKit entity showing a SwiftUI view), which the person reaches by moving the device. Its interactive elements are judged as world content here, target-hit-region-ios judges their touch areas by their size on the screen as the device moves, type-min-size its text by its size on the screen, ar-minimize-world-text and ar-critical-text-screen-space count its text as world text, and ar-screen-clutter does not count it against the screen.",
                "Not checked: continuous play longer than 5 min without a rest phase (scenes have no game phases)."],
        subchecks: [RuleSubcheck("near", unit: "m", worse: .lower)])
}

public enum ArMinimizeWorldText: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-minimize-world-text", name: "Little text in the AR world", category: .ar,
        defaultSeverity: .info, thresholdKey: "maxTexts",
        parameters: [
            RuleParameter("maxTexts", 3, "count", .configurable("a title, a price and a hint"), "world-space texts on screen at once"),
            RuleParameter("maxCharacters", 100, "count", .configurable("about one short sentence per text"), "characters of world-space text on screen at once"),
        ],
        citations: [arBest],
        summary: "More than 3 world-space texts on screen at once, or more than 100 characters of them (sub-check `characters`).",
        rationale: "The HIG asks to minimise text in the environment and show only what people need; text in the world competes with the camera view and is hard to read as the device moves.",
        fixHint: "Show fewer labels in the world: keep one short label per object, and move details into screen-space UI shown on demand.",
        platforms: [.iOS], unit: "count", worse: .higher,
        notes: ["World-space text: text entities and text-role asset nodes that are not anchored to the head, and the readable elements of world cards (windows and volumes not anchored to the head: ar-comfort-distance's reading); the elements of head-anchored windows are the screen's UI. On screen: visible and in the field of view (viewer.fieldOfView, the camera's with a device). Characters: the text's string, else its label. Reported on the scene."],
        subchecks: [RuleSubcheck("characters", unit: "count")])
}

public enum ArScaleNotDistance: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-scale-not-distance", name: "Scale is not used to fake distance", category: .ar,
        defaultSeverity: .info, thresholdKey: "maxGrowth",
        parameters: [
            RuleParameter("maxGrowth", 20, "%", .configurable("a clearly visible change of size"), "growth of an animated object while its distance does not shrink"),
            RuleParameter("distanceTolerance", 0.01, "m", .configurable("below tracking noise"), "distance change that counts as staying the same"),
        ],
        citations: [arObjects],
        summary: "An animation scales an object up by more than 20 % while its distance from the device stays the same or grows.",
        rationale: "Scaling an object up does not bring it closer; it only looks like a bigger object that is still far away (HIG tip). To bring something near, move it.",
        fixHint: "Animate the object's position toward the person instead of its scale.",
        platforms: [.iOS], unit: "%", worse: .higher,
        notes: ["Only entities driven by an animation with scale keys that the app plays: a scale the person makes (trigger: user, a pinch to resize) is their choice, not a way to fake distance, and is not counted. Size: the longest half-axis of the entity's box as the simulator measures it (its oriented box), compared with the smallest size seen so far; growth = size / smallest − 1, in %, reported when above 20 % while the distance to the device is no less than at the smallest size (minus 1 cm)."])
}

public enum ArCoachingShown: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-coaching-shown", name: "Coaching is shown while tracking starts or recovers", category: .ar,
        defaultSeverity: .warning, thresholdKey: "grace",
        parameters: [RuleParameter("grace", 2, "s", .configurable("long enough to skip coaching when tracking settles quickly"), "limited tracking without coaching")],
        citations: [arCoaching, arInterruptions],
        summary: "Tracking is limited (initializing or relocalizing) for more than 2 s with no coaching overlay visible.",
        rationale: "While ARKit initializes or relocalizes, people need to know what to do (move the device, point at a surface); the HIG asks apps to show the system coaching overlay, or a custom one, at these times.",
        fixHint: "Add an ARCoachingOverlayView (or a custom coaching view) with activatesAutomatically, and state it in the scene as an element of role coaching shown while tracking is limited.",
        platforms: [.iOS], unit: "s", worse: .higher,
        notes: ["Tracking state comes from trackingState events (unknown, and never a violation, before the first). Coaching: any entity of role coaching that is visible. Measured: how long the state lasted without coaching, reported over the whole run once it passes 2 s. Location: the trackingState event that began the limited state (of the first run reported)."])
}

public enum ArCoachingHideUI: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-coaching-hide-ui", name: "Coaching hides the app's other UI", category: .ar,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [arCoaching],
        summary: "Screen-space elements other than the coaching overlay (or a reset or cancel control) are visible while coaching is shown (one finding per window, naming them).",
        rationale: "The HIG asks apps to hide unrelated UI while the coaching overlay is up, so people focus on what it asks them to do.",
        fixHint: "Hide the app's controls while coaching is active (coachingOverlayViewWillActivate) and show them again when it ends.",
        platforms: [.iOS], unit: "count", worse: .higher,
        notes: ["Screen-space elements: on iOS every element (windows model the app's 2D UI on the screen). Exempt: elements of role coaching, and reset, restart, rescan, retry, cancel or close controls (one of these words in the id or label, as a whole word: closeButton, btn-close and Close are exempt, Closets and Presets are not; or the words start over or try again, as the Start Over button of ARKit's coaching overlay; people may always leave or restart). Reported once per window holding such elements (the app's UI staying up during coaching is one problem, not one per button), over the frames a coaching entity and any of its elements are visible; measured is how many of its elements are visible (the most at once), and the message names the elements seen during coaching, per coaching period when the overlay was shown more than once (the first three periods, each by its start time; later ones are counted), at most 10 per list. Location: the window."])
}

public enum ArCriticalTextScreenSpace: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-critical-text-screen-space", name: "Critical text is in screen space", category: .ar,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [RuleParameter("maxSizeChange", 20, "%", .configurable("a clearly visible change of type size"), "change of a world label's on-screen size")],
        citations: [arCommunicating],
        summary: "Critical text (primary: true) placed in the world instead of on the screen (warning), or a world label whose on-screen size changes by more than 20 % as the device moves or the app scales it (sub-check `sizeChange`, info).",
        rationale: "The HIG asks for critical labels, annotations and instructions in screen space, where they stay readable however the device moves; text in the world should face people and keep the same type size at any distance.",
        fixHint: "Put critical text in the screen-space UI; give world labels a constant screen size (scale them with distance) and make them face the camera.",
        platforms: [.iOS], unit: "count", worse: .higher,
        notes: ["World text: text entities and text-role asset nodes not anchored to the head, and the readable elements of world cards (ar-minimize-world-text's reading). Critical: primary: true. Judged on the frames the text is visible and on screen.",
                "Size change (sub-check `sizeChange`, %): the text's em height in on-screen points (pt_eq, with the device's point angle) at its largest ÷ at its smallest over the frames it is on screen, − 1. Reported once over the frames from the first to the last it was seen. The message says the device moved when its pose changed (more than 1 mm or 0.1°) while the text was on screen, and that the app changed the size when the device held still.",
                "The facing angle of world text is type-billboard's, and its smallest size type-min-size's (11 pt on iOS); both run on iOS scenes."],
        subchecks: [RuleSubcheck("sizeChange", unit: "%")])
}

public enum ArGestureProximity: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-gesture-proximity", name: "Small AR objects have a larger touch area", category: .ar,
        defaultSeverity: .warning, thresholdKey: "minSize",
        parameters: [RuleParameter("minSize", 44, "pt", .configurable("the iOS minimum touch target (buttons › Best practices: 44×44 pt)"), "on-screen size of an interactive object's touch area")],
        citations: [arObjects, Citation("buttons", "Best practices")],
        summary: "An interactive object in the world appears smaller than 44 pt on screen and has no hit region that makes its touch area larger.",
        rationale: "Small, thin or distant objects are hard to touch; the HIG asks apps to treat a gesture near an interactive object as aimed at it, so the touch area should be at least as big as a touch target.",
        fixHint: "Give the object a larger hit region (a CollisionComponent shape larger than the object; hitRegion in the scene), or make it larger.",
        platforms: [.iOS], unit: "pt", worse: .lower,
        notes: ["Interactive objects in the world (models, asset nodes, text; not windows or head-anchored content), visible and on screen. The controls of world cards (elements of a window or volume not anchored to the head) are target-hit-region-ios's, measured there by their size on screen. Size: the object's thinnest width as seen (pt_eq, in on-screen points with the device's point angle); with a stated 3D hit region, the larger of that and the region's smallest extent seen at the object's distance, 2·atan(s / 2d) / pointAngle; a 2D hit region in points on an asset node counts at the fixed point size."])
}

public enum ArScreenClutter: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-screen-clutter", name: "Screen UI leaves the camera view clear", category: .ar,
        defaultSeverity: .warning, thresholdKey: "maxCoverage",
        parameters: [
            RuleParameter("maxCoverage", 35, "%", .configurable("a third of the screen is no longer 'as much of the display as possible'"), "warning above this share of the screen"),
            RuleParameter("infoCoverage", 20, "%", .configurable("a fifth of the screen: worth a look"), "info above this share of the screen"),
        ],
        citations: [arBest],
        summary: "Visible screen-space UI covers more than 20 % (info) or 35 % (warning) of the screen.",
        rationale: "The HIG asks AR apps to use as much of the display as possible for the camera view and virtual objects, and not to clutter it with controls and information.",
        fixHint: "Show fewer persistent controls, make them smaller, or hide them until people need them.",
        platforms: [.iOS], unit: "%", worse: .higher,
        notes: ["Per window or volume anchored to the head (on iOS such a window models the screen's 2D UI; one left in the world is a card in the camera view, ar-comfort-distance's reading, and is not counted): the area of the union of its visible elements' frames, clipped to the screen (device.screen, else the window's size), ÷ the screen's area. Coaching overlays and placement indicators are not counted. Every counted element is taken as opaque (the scene format has no opacity)."])
}

public enum ArReferenceImageLimit: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-reference-image-limit", name: "At most 100 reference images at once", category: .ar,
        defaultSeverity: .warning, thresholdKey: "maxImages",
        parameters: [RuleParameter("maxImages", 100, "count", .hig, "reference images active at once")],
        citations: [arRealWorld],
        summary: "More than 100 reference images are active for detection at once.",
        rationale: "Image detection works best with 100 or fewer distinct reference images active; the HIG suggests switching sets by context (for example by location) when more are needed.",
        fixHint: "Split the images into sets of 100 or fewer and swap detectionImages as the context changes.",
        platforms: [.iOS], unit: "count", worse: .higher,
        notes: ["From referenceImages events: reported on the scene over the frames the active count exceeds 100."])
}

public enum ArPlacementIndicator: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-placement-indicator", name: "The placement indicator shows only on a detected surface, aligned with it", category: .ar,
        defaultSeverity: .info, thresholdKey: "maxTilt",
        parameters: [RuleParameter("maxTilt", 5, "deg", .configurable("a tilt people see as not lying on the surface"), "angle between a flat indicator and the detected plane")],
        citations: [arPlacing],
        summary: "A placement indicator (role placementIndicator) is visible while ARKit tracks no surface (sub-check `noSurface`), or a flat one is tilted more than 5° from the detected planes' orientation.",
        rationale: "The HIG asks apps to show a custom placement indicator after ARKit detects a surface, to say when placement is possible, and to align it with the plane of that surface so people see how the object will sit; shown earlier it promises a placement that cannot happen.",
        fixHint: "Show the indicator only while a surface is detected (coaching until then), and orient it with the surface under it (the raycast result's transform).",
        platforms: [.iOS], unit: "deg", worse: .higher,
        notes: ["Indicators: entities and asset nodes of role placementIndicator. Surfaces: planeDetected / planeLost events; a scene with no planeDetected event does not say when surfaces are found, and neither check runs.",
                "No surface (sub-check `noSurface`, s): the indicator is visible in a frame in which no plane is detected, before the first planeDetected or after planeLost removed the last one; measured is how long it has been shown so, reported over those frames. The message says whether no surface had been found yet or the surfaces were lost.",
                "Tilt (deg): for an indicator in the world (not screen-space UI) whose box is flat (its thinnest side at most a quarter of the next), the angle between its normal (the cross product of its two longer box axes) and the plane's: world up for a horizontal plane, a horizontal direction for a vertical one; with several detected planes, the one it is closest to. Planes of unknown alignment are not compared. Judged in the frames it is visible while a plane is detected."],
        subchecks: [RuleSubcheck("noSurface", unit: "s")])
}

public enum ArScalingAppropriate: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-scaling-appropriate", name: "Real products keep their real size", category: .ar,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [arObjects],
        summary: "A model that represents a real object (representsRealObject: true) can be resized by people: userScalable: true, or a scale animation the person makes (trigger: user).",
        rationale: "Scaling suits imaginary content; for a real product such as a chair a shopper is placing in a room, letting people resize it defeats the point of seeing it at its true size (HIG example).",
        fixHint: "Keep a real product at its true size: don't add a scale gesture (MagnifyGesture, ManipulationComponent scaling) to it; let people move and turn it instead.",
        platforms: [.iOS], unit: "count", worse: .higher,
        notes: ["Entities with representsRealObject: true and userScalable: true, or with an animation of trigger user whose scale keys change its size (the scene scripts the person's pinch). Reported over the frames the entity is visible; measured is 1 (one entity), threshold 0; the message gives how much the scripted pinch resizes it (the largest over the smallest scale, by the larger component).",
                "userScalable: false with a scripted pinch still counts: the script shows people resizing it."])
}

public enum ArRelocalizationHide: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-relocalization-hide", name: "Placed objects are hidden while ARKit relocalizes", category: .ar,
        defaultSeverity: .info, thresholdKey: nil,
        parameters: [],
        citations: [arInterruptions],
        summary: "A virtual object placed in the world before tracking became limited (relocalizing) stays visible while ARKit relocalizes.",
        rationale: "After an interruption, placed objects are likely to appear in the wrong place until relocalization restores them; the HIG suggests hiding them during relocalization and showing them again at their new positions, to avoid flicker.",
        fixHint: "Hide placed content while tracking is limited for relocalization (session(_:cameraDidChangeTrackingState:)) and show it again when tracking is normal.",
        platforms: [.iOS], unit: "s", worse: .higher,
        notes: ["Placed objects: the outermost models, texts and world cards (windows and volumes not anchored to the head) in the world, visible in a frame before the relocalization began. Relocalizing: a trackingState event with state limited and reason relocalizing, until the next trackingState. Measured: how long it has been visible during the relocalization, reported over those frames."])
}

public enum ArResetCancel: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-reset-cancel", name: "People can cancel a long relocalization", category: .ar,
        defaultSeverity: .warning, thresholdKey: "maxRelocalization",
        parameters: [RuleParameter("maxRelocalization", 10, "s", .configurable("coaching has had its chance; relocalization may now go on for ever"), "relocalization without a reset or cancel control")],
        citations: [arInterruptions, arResolutions],
        summary: "ARKit relocalizes for more than 10 s with no reset, start-over, cancel or close control visible.",
        rationale: "Relocalization can continue indefinitely when people don't return the device to where it was; the HIG asks apps to let people cancel it and reset or restart the experience.",
        fixHint: "Show a Reset (or Cancel) control while relocalizing, which restarts the session (run(_:options:) with .resetTracking).",
        platforms: [.iOS], unit: "s", worse: .higher,
        notes: ["Controls: visible interactive entities whose id or label has reset, restart, rescan, retry, cancel or close as a whole word, or start over or try again (ar-coaching-hide-ui's reading), and exit controls. Measured: how long relocalization lasted without one, reported over the whole run once it passes 10 s. Location: the trackingState event that began the limited state.",
                "Judged only where the scene scripts a relocalization (a trackingState event with reason relocalizing): a scene without one is not judged, even if it has no reset control anywhere, since the scene may script only part of the app."])
}

// MARK: - Shared

/// Screen-space content on iOS: anchored to the head, or a window, volume or element (the
/// scene format models the app's 2D UI as windows; type-min-size reads iOS elements the same way).
func isScreenSpace(_ e: Entity) -> Bool {
    e.anchor != .world || e.kind == .element || e.kind == .window || e.kind == .volume
}

/// An element of a world card on iOS: its window or volume is not anchored to the head, so it is
/// placed in the camera view's world, not on the screen (ar-comfort-distance's reading).
func isOnWorldCard(_ e: Int, _ ents: [Entity]) -> Bool {
    guard ents[e].kind == .element, ents[e].anchor == .world, let c = ents[e].container, ents.indices.contains(c) else { return false }
    return ents[c].anchor == .world
}

/// The on-screen size of a world card's control (target-hit-region-ios on iOS): the smaller side of
/// its touch area (hit region, else frame) in metres, from the card's points, projected onto the
/// screen at the depth of its centre along the camera's axis. The screen's points are
/// tan(pointAngle) m per metre of depth, so a card facing the camera shows the control at its size
/// in points where the card was placed, wherever on the screen, and half that from twice as far (a
/// turned card's foreshortening is not counted).
struct WorldCardTouch {
    /// Per entity: the touch area's smaller side in metres; nil for anything not on a world card.
    let metres: [Double?]
    let tanPointAngle: Double

    init(_ ents: [Entity], pointAngle: Double) {
        metres = ents.indices.map { e in
            guard isOnWorldCard(e, ents), let c = ents[e].container, let rect = ents[e].hitFrame ?? ents[e].frame else { return nil }
            return min(rect.width, rect.height) * ents[c].metresPerPoint
        }
        tanPointAngle = tan(radians(pointAngle))
    }

    /// The size in on-screen points this frame; nil when the control is behind the camera.
    func points(_ e: Int, _ f: FrameQuantities) -> Double? {
        guard let m = metres[e] else { return nil }
        let depth = dot(f.center[e] - f.headPosition, f.headRotation.act(Vec3(0, 0, -1)))
        guard depth > 0, tanPointAngle > 0 else { return nil }
        return m / (depth * tanPointAngle)
    }
}

/// World text: readable content not in screen space, including the text of world cards' elements
/// (a card left in the world shows its text in the camera view, not on the screen).
private func isWorldText(_ e: Int, _ ents: [Entity]) -> Bool {
    ents[e].isReadable && (!isScreenSpace(ents[e]) || isOnWorldCard(e, ents))
}

/// The ARKit session state as events set it, advanced frame by frame.
final class ARSessionState {
    private var cursor: EventCursor
    private(set) var tracking: TrackingState?
    private(set) var reason: TrackingReason?
    private(set) var referenceImages: Int?
    private(set) var referenceImagesLocation: SourceLocation?
    /// The detected planes and their alignment (nil when the event does not say).
    private(set) var planes: [String: PlaneAlignment?] = [:]
    /// Whether any plane was detected so far (planes may since have been lost).
    private(set) var anyPlaneDetected = false
    /// The trackingState event that began the current limited state (initializing or
    /// relocalizing), nil while tracking does not need coaching.
    private(set) var limitedLocation: SourceLocation?
    init(_ scene: Scene) { cursor = EventCursor(scene) }
    func advance(to time: Double) {
        for ev in cursor.advance(to: time) {
            guard case .ar(let a) = ev.action else { continue }
            switch a {
            case .tracking(let s, let r):
                let was = needsCoaching
                tracking = s; reason = r
                if !needsCoaching { limitedLocation = nil } else if !was { limitedLocation = ev.location }
            case .plane(let id, let detected, let alignment):
                if detected { planes[id] = alignment; anyPlaneDetected = true } else { planes[id] = nil }
            case .referenceImages(let n): referenceImages = n; referenceImagesLocation = ev.location
            }
        }
    }
    var relocalizing: Bool { tracking == .limited && reason == .relocalizing }
    /// Limited while initializing or relocalizing: the states coaching is for.
    var needsCoaching: Bool { tracking == .limited && (reason == .initializing || reason == .relocalizing) }
}

/// ar-coaching-shown located at the trackingState event that began the limited state of its
/// first reported run (the run is reported in the frame it passes the grace time, or at the end
/// when a still ending makes it last), as the immersion rules point at their setImmersion event.
final class LimitedTrackingLocated: RuleProcessor {
    let inner: RuleProcessor, rule: Int, state: ARSessionState
    init(_ inner: RuleProcessor, rule: Int, state: ARSessionState) { self.inner = inner; self.rule = rule; self.state = state }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        state.advance(to: f.time)
        inner.consume(f, &out)
        if out.aggregate(for: FindingKey(rule: rule))?.lastFrame == f.frame { out.setLocation(rule: rule, -1, -1, state.limitedLocation) }
    }
    func finish(_ out: inout Findings, _ end: EndState) {
        inner.finish(&out, end)
        if out.aggregate(for: FindingKey(rule: rule)) != nil { out.setLocation(rule: rule, -1, -1, state.limitedLocation) }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { inner.message(rule: rule, agg, names) }
}

/// A processor with its own per-frame body and message.
final class ClosureRule: RuleProcessor {
    let body: (FrameQuantities, inout Findings) -> Void
    let end: (inout Findings, EndState) -> Void
    let describe: (Aggregate, [String]) -> String
    init(_ body: @escaping (FrameQuantities, inout Findings) -> Void,
         finish: @escaping (inout Findings, EndState) -> Void = { _, _ in },
         message: @escaping (Aggregate, [String]) -> String) {
        self.body = body; self.end = finish; self.describe = message
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) { body(f, &out) }
    func finish(_ out: inout Findings, _ end: EndState) { self.end(&out, end) }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String { describe(agg, names) }
}

// MARK: - Factories

extension RuleDescribing {
    /// The factory of this rule's processor: `make` gets the set-up, the rule's metadata and its
    /// index, and is not called when the configuration turns the rule off.
    fileprivate static func factory(_ make: @escaping (RuleSetup, RuleMetadata, Int) -> RuleProcessor?) -> RuleFactory {
        RuleFactory(ids: [metadata.id]) { s in
            let m = metadata
            guard let r = s.index(m.id) else { return nil }
            return make(s, m, r)
        }
    }

    /// A processor that reports each of `candidates` (entity indices, in order) on the frames
    /// `check` returns a hit for it: the rule states only which entities it judges, its condition
    /// and its message.
    fileprivate static func perEntity(_ s: RuleSetup, _ r: Int, _ candidates: [Int],
                                      check: @escaping (FrameQuantities, Int) -> ConditionRule.Hit?,
                                      message: @escaping (Aggregate, [String]) -> String) -> RuleProcessor {
        ConditionRule(rule: r, meta: metadata, candidates: candidates, frameDuration: s.frameDuration,
                      check: check, message: message)
    }
}

func arkitFactories() -> [RuleFactory] {
    [
        ArSafetyMovement.factory { s, m, r in
            let maxSpeed = s.param(m, "maxSpeed"), maxDisp = s.param(m, "maxDisplacement")
            let window = s.param(m, "window"), maxRot = s.param(m, "maxRotation")
            // The configured window is any finite number of seconds: past the most frames a scene
            // may have (1,000,000, SceneLimits.maxFrames), the position "n frames ago" is always the
            // first frame's, so a longer ring changes nothing (and 1e300 s would trap converting
            // to Int, 1e7 s ask for 29 GB).
            let frames = (window * s.scene.frameRate).rounded()
            let n = frames.isFinite ? max(1, Int(min(1_000_001, frames))) : 1
            var history: [Vec3] = []
            var prevRot: Quat?
            var prevPos = Vec3.zero
            var head = 0
            // The frames (and times) in which the device moved, oldest first from `movedHead`: those
            // of the current window are the span a displacement is reported over, not the window.
            var moved: [(frame: Int, time: Double)] = []
            var movedHead = 0
            let viewerLocation = s.scene.viewer.location
            return ClosureRule({ f, out in
                let p = f.headPosition
                if history.isEmpty { history = Array(repeating: p, count: n) }
                // history[head] is the position n frames ago (the first frame's while fewer have passed).
                let old = history[head]
                history[head] = p
                head = (head + 1) % n
                if f.frame > 0, p != prevPos { moved.append((f.frame, f.time)) }
                // Keep the moves after frame f − n, the window's start; drop the others in batches.
                while movedHead < moved.count, moved[movedHead].frame <= f.frame - n { movedHead += 1 }
                if movedHead > 1024, movedHead * 2 > moved.count {
                    moved.removeFirst(movedHead); movedHead = 0
                }
                if let q0 = prevRot, f.deltaTime > 0, f.frame > 0 {
                    let speed = length(p - prevPos) / f.deltaTime
                    if speed > maxSpeed + 1e-9 {
                        out.report(rule: r, frame: f.frame, time: f.time, measured: speed, threshold: maxSpeed)
                        out.setLocation(rule: r, -1, -1, viewerLocation)
                    }
                    let q1 = f.headRotation
                    let d = abs(q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w)
                    let rate = degrees(2 * acos(min(1, d))) / f.deltaTime
                    if rate > maxRot + 1e-9 {
                        out.report(rule: r, frame: f.frame, time: f.time, measured: rate, threshold: maxRot, unit: "deg/s", variant: 2)
                        out.setLocation(rule: r, variant: 2, viewerLocation)
                    }
                }
                let disp = length(p - old)
                if disp > maxDisp + 1e-9, movedHead < moved.count, let last = moved.last {
                    // Over the frames the device moves in this window: from its first move after the
                    // window's start to its latest, where it reached the position that makes the
                    // displacement (it has stood since). A window that ends after the device stopped
                    // adds no frame in which nothing moves.
                    let first = moved[movedHead]
                    out.reportRun(rule: r, from: first.frame, fromTime: first.time, to: last.frame, toTime: last.time,
                                  measured: disp, worstFrame: last.frame, threshold: maxDisp, unit: "m", variant: 1)
                    out.setLocation(rule: r, variant: 1, viewerLocation)
                }
                prevRot = f.headRotation
                prevPos = p
            }, message: { agg, _ in
                switch agg.variant {
                case 1: return "the device path moves \(fmt(agg.measured)) m within \(fmt(window)) s (more than \(fmt(agg.threshold)) m); don't ask people to cover ground quickly while they watch the screen"
                case 2: return "the device path turns at \(fmt(agg.measured))°/s (more than \(fmt(agg.threshold))°/s); avoid sweeping turns people make without looking around them"
                default: return "the device path moves at \(fmt(agg.measured)) m/s (more than \(fmt(agg.threshold)) m/s); don't ask people to hurry while they watch the screen"
                }
            })
        },
        ArComfortDistance.factory { s, m, r in
            let maxPitch = s.param(m, "maxPitch"), hold = s.param(m, "pitchDuration"), minD = s.param(m, "minDistance")
            let ents = s.scene.entities
            let near = ents.indices.filter { ents[$0].interactive && (!isScreenSpace(ents[$0]) || isOnWorldCard($0, ents)) }
            let dt = s.frameDuration
            var runStart = -1, runStartTime = 0.0, worst = 0.0, worstFrame = 0, runs: [(Int, Double, Int, Double, Double, Int)] = []
            func close(_ last: Int, _ lastTime: Double) {
                if runStart >= 0, lastTime - runStartTime + dt > hold + 1e-9 {
                    runs.append((runStart, runStartTime, last, lastTime, worst, worstFrame))
                }
                runStart = -1
            }
            var lastFrame = -1, lastTime = 0.0
            return ClosureRule({ f, out in
                let pitch = abs(f.headPitch)
                if pitch > maxPitch + 1e-9 {
                    if runStart < 0 { runStart = f.frame; runStartTime = f.time; worst = pitch; worstFrame = f.frame }
                    if pitch > worst { worst = pitch; worstFrame = f.frame }
                } else {
                    close(lastFrame, lastTime)
                }
                lastFrame = f.frame; lastTime = f.time
                for e in near where f.visible[e] && f.inFOV[e] && f.distance[e] < minD - 1e-9 {
                    out.report(rule: r, e, frame: f.frame, time: f.time, measured: f.distance[e], threshold: minD,
                               unit: "m", variant: 1)
                }
            }, finish: { out, end in
                // A run still open at the end counts when it has lasted long enough, or when the
                // scene ends at rest (it would go on for ever).
                if runStart >= 0, end.staticEnd {
                    runs.append((runStart, runStartTime, end.lastFrame, end.lastTime, worst, worstFrame))
                    runStart = -1
                }
                close(end.lastFrame, end.lastTime)
                // Only the longest run's pitch is the measurement; the others add their spans.
                for run in runs {
                    out.reportRun(rule: r, from: run.0, fromTime: run.1, to: run.2, toTime: run.3, measured: run.4,
                                  worstFrame: run.5, threshold: maxPitch, aux: run.3 - run.1 + dt)
                }
            }, message: { agg, names in
                if agg.variant == 1 {
                    return "\(names.joinedNames) is interactive and on screen \(fmt(agg.measured, beside: agg.threshold)) m from the device (closer than \(fmt(agg.threshold)) m); place it so people needn't bring the device close"
                }
                return "the device is held pitched \(fmt(agg.measured))° (more than \(fmt(agg.threshold))°) for more than \(fmt(hold)) s; place content so people can hold the device naturally"
            })
        },
        ArMinimizeWorldText.factory { s, m, r in
            let maxTexts = s.param(m, "maxTexts"), maxChars = s.param(m, "maxCharacters")
            let ents = s.scene.entities
            let texts = ents.indices.filter { isWorldText($0, ents) }
            let chars = texts.map { Double((ents[$0].string ?? ents[$0].label ?? "").count) }
            return ClosureRule({ f, out in
                var count = 0.0, c = 0.0
                for (k, e) in texts.enumerated() where f.visible[e] && f.inFOV[e] { count += 1; c += chars[k] }
                if count > maxTexts { out.report(rule: r, frame: f.frame, time: f.time, measured: count, threshold: maxTexts) }
                if c > maxChars { out.report(rule: r, frame: f.frame, time: f.time, measured: c, threshold: maxChars, variant: 1) }
            }, message: { agg, _ in
                agg.variant == 1
                    ? "\(fmt(agg.measured)) characters of world-space text are on screen at once (more than \(fmt(agg.threshold))); keep world labels short and move details to screen-space UI"
                    : "\(fmt(agg.measured)) world-space texts are on screen at once (more than \(fmt(agg.threshold))); show only the text people need in the world"
            })
        },
        ArScaleNotDistance.factory { s, m, r in
            let maxGrowth = s.param(m, "maxGrowth"), tol = s.param(m, "distanceTolerance")
            let sc = s.scene
            // Scaled by the app: a scale the person makes with a pinch (trigger: user) fakes
            // nothing (s27 trial F5).
            let cands = sc.entities.indices.filter { e in
                guard let a = sc.entities[e].animation, sc.animations.indices.contains(a), sc.animations[a].trigger != .user else { return false }
                return sc.animations[a].channels.contains { !$0.scales.isEmpty }
            }
            // Per entity: its smallest size so far and its distance then.
            var smallest = [Double](repeating: .infinity, count: sc.entities.count)
            var distAtSmallest = [Double](repeating: 0, count: sc.entities.count)
            return ArScaleNotDistance.perEntity(s, r, cands, check: { f, e in
                guard f.visible[e] else { return nil }
                let size = max(length(f.boxAxis(e, 0)), length(f.boxAxis(e, 1)), length(f.boxAxis(e, 2)))
                guard size > 0 else { return nil }
                if size < smallest[e] { smallest[e] = size; distAtSmallest[e] = f.distance[e] }
                let growth = (size / smallest[e] - 1) * 100
                guard growth > maxGrowth + 1e-9, f.distance[e] >= distAtSmallest[e] - tol else { return nil }
                return .init(measured: growth, threshold: maxGrowth, aux: f.distance[e])
            }, message: { agg, names in
                "\(names.joinedNames) grows by \(fmt(agg.measured)) % while staying \(fmt(agg.aux)) m away; scaling up does not bring an object nearer, so move it toward the person instead"
            })
        },
        ArCoachingShown.factory { s, m, r in
            let grace = s.param(m, "grace")
            let ents = s.scene.entities
            let coaching = ents.indices.filter { ents[$0].role == .coaching }
            let state = ARSessionState(s.scene)
            let cond = ConditionRule(rule: r, meta: m, candidates: [-1], dwell: grace, measuresRunLength: true,
                                     frameDuration: s.frameDuration, check: { f, _ in
                guard state.needsCoaching, !coaching.contains(where: { f.visible[$0] }) else { return nil }
                return .init(measured: 0, threshold: grace, aux: state.reason == .relocalizing ? 1 : 0)
            }, message: { agg, _ in
                "tracking is limited (\(agg.aux == 1 ? "relocalizing" : "initializing")) for \(fmt(agg.measured)) s with no coaching overlay; show ARCoachingOverlayView (or your own coaching) until tracking is normal"
            })
            return LimitedTrackingLocated(cond, rule: r, state: state)
        },
        ArCoachingHideUI.factory { s, _, r in
            let ents = s.scene.entities
            let coaching = ents.indices.filter { ents[$0].role == .coaching }
            guard !coaching.isEmpty else { return nil }
            let others = ents.indices.filter { i in
                let e = ents[i]
                return e.kind == .element && isScreenSpace(e) && e.role != .coaching && !isResetOrCancel(e)
            }
            // One finding per container (the app's screen UI is one problem while coaching is
            // up, not one per button): measured is how many of its elements stay visible, and
            // the message names the elements seen during each coaching period.
            var members: [Int: [Int]] = [:]
            for e in others {
                if let c = ents[e].container, ents.indices.contains(c) { members[c, default: []].append(e) }
            }
            let containers = members.keys.sorted()
            // Per container: the elements seen in each coaching period (from its start time), so
            // the message says which stayed up when, not one list merged over the scene. The
            // first `periodsListed` periods are kept; later ones are only counted.
            let periodsListed = 3
            var seen: [Int: [(start: Double, elements: Set<Int>)]] = [:]
            var morePeriods: [Int: Int] = [:], lastPeriod: [Int: Double] = [:]
            var coachingShown = false, periodStart = 0.0
            let rule = ArCoachingHideUI.perEntity(s, r, containers, check: { f, c in
                guard coachingShown, let list = members[c] else { return nil }
                var n = 0
                for e in list where f.visible[e] {
                    n += 1
                    if lastPeriod[c] != periodStart {
                        lastPeriod[c] = periodStart
                        if seen[c, default: []].count < periodsListed { seen[c, default: []].append((periodStart, [])) } else { morePeriods[c, default: 0] += 1 }
                    }
                    if morePeriods[c] == nil, let k = seen[c]?.indices.last { seen[c]?[k].elements.insert(e) }
                }
                return n > 0 ? .init(measured: Double(n), threshold: 0, aux: Double(c)) : nil
            }, message: { agg, names in
                let c = agg.aux.isFinite ? Int(agg.aux) : -1
                let periods = seen[c] ?? []
                func listed(_ set: Set<Int>) -> (text: String, one: Bool) {
                    let shown = set.sorted().map { ents[$0].path }
                    return (shown.isEmpty ? names.joinedNames : shown.joinedNames(atMost: namesListed), shown.count == 1)
                }
                guard periods.count > 1 else {
                    let (what, one) = listed(periods.first?.elements ?? [])
                    return "\(what) \(one ? "stays" : "stay") visible while the coaching overlay is shown; hide the app's unrelated UI during coaching"
                }
                var each = periods.map { "\(listed($0.elements).text) (coaching from \(fmt($0.start)) s)" }.joined(separator: "; ")
                if let more = morePeriods[c] { each += "; and UI in \(more) later coaching \(more == 1 ? "period" : "periods")" }
                return "app UI stays visible while the coaching overlay is shown: \(each); hide the app's unrelated UI during coaching"
            })
            return HookedProcessor(rule, before: { f in
                let shown = coaching.contains(where: { f.visible[$0] })
                if shown && !coachingShown { periodStart = f.time }
                coachingShown = shown
            })
        },
        ArCriticalTextScreenSpace.factory { s, m, r in
            let maxChange = s.param(m, "maxSizeChange")
            let ents = s.scene.entities
            let texts = ents.indices.filter { isWorldText($0, ents) }
            var lo = [Double](repeating: .infinity, count: texts.count), hi = [Double](repeating: 0, count: texts.count)
            var first = [Int](repeating: -1, count: texts.count), last = [Int](repeating: -1, count: texts.count)
            var firstT = [Double](repeating: 0, count: texts.count), lastT = firstT
            var hiFrame = [Int](repeating: 0, count: texts.count)
            // Per text: the device pose when it was first seen, and whether the device moved
            // (more than 1 mm or 0.1°) while it was on screen; a still device means the app
            // changed the label's size, and the message must not blame the device.
            var firstPos = [Vec3](repeating: .zero, count: texts.count)
            var firstRot = [Quat](repeating: Quat(x: 0, y: 0, z: 0, w: 1), count: texts.count)
            var moved = [Bool](repeating: false, count: texts.count)
            let turnCos = cos(radians(0.1) / 2)
            return ClosureRule({ f, out in
                for (k, e) in texts.enumerated() where f.visible[e] && f.inFOV[e] {
                    if ents[e].primary { out.report(rule: r, e, frame: f.frame, time: f.time, measured: 1, threshold: 0) }
                    let pt = f.ptEq[e]
                    guard pt.isFinite, pt > 0 else { continue }
                    if first[k] < 0 {
                        firstPos[k] = f.headPosition; firstRot[k] = f.headRotation
                    } else if !moved[k] {
                        let q0 = firstRot[k], q1 = f.headRotation
                        let d = abs(q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w)
                        moved[k] = length(f.headPosition - firstPos[k]) > 0.001 || d < turnCos
                    }
                    if first[k] < 0 { first[k] = f.frame; firstT[k] = f.time }
                    last[k] = f.frame; lastT[k] = f.time
                    lo[k] = min(lo[k], pt)
                    if pt > hi[k] { hi[k] = pt; hiFrame[k] = f.frame }
                }
            }, finish: { out, _ in
                for (k, e) in texts.enumerated() where first[k] >= 0 && lo[k] > 0 {
                    let change = (hi[k] / lo[k] - 1) * 100
                    guard change > maxChange + 1e-9 else { continue }
                    // aux: the smallest size, negative when the device held still.
                    out.reportRun(rule: r, e, from: first[k], fromTime: firstT[k], to: last[k], toTime: lastT[k],
                                  measured: change, worstFrame: hiFrame[k], threshold: maxChange, aux: moved[k] ? lo[k] : -lo[k],
                                  severity: .info, unit: "%", variant: 1)
                }
            }, message: { agg, names in
                guard agg.variant == 1 else {
                    return "\(names.joinedNames) is critical text placed in the world; put critical labels and instructions in screen space"
                }
                let how = agg.aux < 0 ? "while the device holds still (the app changes its size)" : "as the device moves"
                return "world label \(names.joinedNames) changes its on-screen size by \(fmt(agg.measured)) % (from \(fmt(abs(agg.aux))) pt) \(how); keep world labels at one type size on screen"
            })
        },
        ArGestureProximity.factory { s, m, r in
            let minSize = s.param(m, "minSize"), pa = s.pointAngle
            let ents = s.scene.entities
            // World objects; the controls of world cards are target-hit-region-ios's, measured on
            // the screen there (`WorldCardTouch`).
            let cands = ents.indices.filter { e in
                ents[e].interactive && !isScreenSpace(ents[e]) && ents[e].kind != .window && ents[e].kind != .volume
            }
            // Per entity: the stated hit region's smallest extent in metres (nil: none stated).
            let hit: [Double?] = ents.indices.map { e in
                let en = ents[e]
                switch en.hitRegion {
                case .shape(let sh)?: return min(sh.size.x, sh.size.y, sh.size.z)
                case .some:
                    guard let rect = en.hitFrame ?? en.frame else { return nil }
                    return min(rect.width, rect.height) * s.scene.units.fixedPointSize
                case nil:
                    return nil
                }
            }
            return ArGestureProximity.perEntity(s, r, cands, check: { f, e in
                guard f.visible[e], f.inFOV[e], f.distance[e] > 0 else { return nil }
                var size = f.ptEq[e]
                if let h = hit[e] { size = max(size, degrees(2 * atan(h / (2 * f.distance[e]))) / pa) }
                return size < minSize - 1e-9 ? .init(measured: size, threshold: minSize) : nil
            }, message: { agg, names in
                "\(names.joinedNames) is interactive but only \(fmt(agg.measured)) pt on screen; give it a touch area of at least \(fmt(agg.threshold)) pt (a larger hit region) so a touch near it reaches it"
            })
        },
        ArScreenClutter.factory { s, m, r in
            let warn = s.param(m, "maxCoverage"), info = s.param(m, "infoCoverage")
            let ents = s.scene.entities
            // The screen's 2D UI: windows and volumes anchored to the head (a world card is in the
            // camera view, not over it).
            let screens = ents.indices.filter {
                (ents[$0].kind == .window || ents[$0].kind == .volume) && ents[$0].anchor != .world && ents[$0].sizePt != nil
            }
            let device = s.scene.device
            // Per screen (by entity index): its counted elements, which of them were visible at the
            // last change, and the coverage then.
            var members: [[Int]] = ents.map { _ in [] }
            for c in screens {
                members[c] = ents.indices.filter { ents[$0].container == c && ents[$0].kind == .element && ents[$0].frame != nil
                    && ents[$0].role != .coaching && ents[$0].role != .placementIndicator }
            }
            var lastVisible: [[Bool]] = ents.map { _ in [] }
            var lastCoverage = [Double](repeating: 0, count: ents.count)
            return ArScreenClutter.perEntity(s, r, screens, check: { f, c in
                guard f.visible[c] else { return nil }
                let vis = members[c].map { f.visible[$0] }
                if vis != lastVisible[c] {
                    lastVisible[c] = vis
                    let size = device?.screen ?? ents[c].sizePt ?? SIMD2(0, 0)
                    var rects: [RectPt] = []
                    for (j, e) in members[c].enumerated() where vis[j] {
                        guard let fr = ents[e].frame else { continue }
                        let x0 = max(0, fr.x), y0 = max(0, fr.y)
                        let x1 = min(size.x, fr.x + fr.width), y1 = min(size.y, fr.y + fr.height)
                        if x1 > x0, y1 > y0 { rects.append(RectPt(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
                    }
                    let area = size.x * size.y
                    lastCoverage[c] = area > 0 ? unionArea(rects) / area * 100 : 0
                }
                let cov = lastCoverage[c]
                if cov > warn + 1e-9 { return .init(measured: cov, threshold: warn, severity: .warning) }
                if cov > info + 1e-9 { return .init(measured: cov, threshold: info, severity: .info) }
                return nil
            }, message: { agg, names in
                "screen-space UI of \(names.joinedNames) covers \(fmt(agg.measured)) % of the screen (more than \(fmt(agg.threshold)) %); leave the camera view clear: fewer, smaller or hideable controls"
            })
        },
        ArPlacementIndicator.factory { s, m, r in
            let maxTilt = s.param(m, "maxTilt")
            let sc = s.scene, ents = sc.entities
            let indicators = ents.indices.filter { ents[$0].role == .placementIndicator }
            // A scene that never detects a plane does not say when surfaces are found.
            let detects = sc.events.contains { if case .ar(.plane(_, true, _)) = $0.action { return true } else { return false } }
            guard !indicators.isEmpty, detects else { return nil }
            let state = ARSessionState(sc)
            let inWorld = indicators.map { !isScreenSpace(ents[$0]) || isOnWorldCard($0, ents) }
            // Per indicator: when its current run without a surface began (-1: none).
            var since = [Double](repeating: -1, count: indicators.count)
            let up = Vec3(0, 1, 0)
            return ClosureRule({ f, out in
                state.advance(to: f.time)
                let alignments = Set(state.planes.values.compactMap { $0 })
                for (k, e) in indicators.enumerated() {
                    guard f.visible[e] else { since[k] = -1; continue }
                    if state.planes.isEmpty {
                        if since[k] < 0 { since[k] = f.time }
                        out.report(rule: r, e, frame: f.frame, time: f.time, measured: f.time - since[k] + f.deltaTime, threshold: 0,
                                   aux: state.anyPlaneDetected ? 1 : 0, unit: "s", variant: 1)
                        continue
                    }
                    since[k] = -1
                    guard inWorld[k], !alignments.isEmpty else { continue }
                    // The flat box's normal: across its two longer axes.
                    let axes = [f.boxAxis(e, 0), f.boxAxis(e, 1), f.boxAxis(e, 2)].sorted { length($0) < length($1) }
                    let n = cross(axes[1], axes[2])
                    guard length(axes[0]) <= 0.25 * length(axes[1]), length(n) > 0 else { continue }
                    let c = min(1, abs(dot(n, up)) / length(n))
                    let fromUp = degrees(acos(c))
                    // Horizontal plane: the normal is up; vertical: the normal is horizontal. The
                    // closer of the detected orientations (aux 1: vertical).
                    let horizontal = alignments.contains(.horizontal) ? fromUp : .infinity
                    let vertical = alignments.contains(.vertical) ? 90 - fromUp : .infinity
                    let tilt = min(horizontal, vertical)
                    if tilt > maxTilt + 1e-9 {
                        out.report(rule: r, e, frame: f.frame, time: f.time, measured: tilt, threshold: maxTilt,
                                   aux: vertical < horizontal ? 1 : 0)
                    }
                }
            }, message: { agg, names in
                if agg.variant == 1 {
                    let when = agg.aux == 1 ? "after ARKit lost every detected surface" : "before ARKit has detected any surface"
                    return "placement indicator \(names.joinedNames) is shown for \(fmt(agg.measured)) s \(when), promising a placement that cannot happen; show it only once a surface is found (coaching until then)"
                }
                let plane = agg.aux == 1 ? "vertical" : "horizontal"
                return "placement indicator \(names.joinedNames) is tilted \(fmt(agg.measured))° from the detected \(plane) surface (more than \(fmt(agg.threshold))°); align it with the surface's plane so people see how the object will sit"
            })
        },
        ArScalingAppropriate.factory { s, _, r in
            let sc = s.scene, ents = sc.entities
            // Per entity: how much the person's scripted pinch resizes it (largest over smallest
            // scale, by the larger component; 1 when nothing scripts it).
            func pinch(_ e: Int) -> Double {
                guard let a = ents[e].animation, sc.animations.indices.contains(a), sc.animations[a].trigger == .user else { return 1 }
                let sizes = sc.animations[a].channels.filter { $0.node == ents[e].node }.flatMap(\.scales).map { max($0.value.x, $0.value.y, $0.value.z) }
                guard let lo = sizes.min(), let hi = sizes.max(), lo > 0 else { return 1 }
                return hi / lo
            }
            var ratio: [Int: Double] = [:]
            let cands = ents.indices.filter { e in
                guard ents[e].representsRealObject == true else { return false }
                let p = pinch(e)
                guard ents[e].userScalable == true || p > 1 + 1e-9 else { return false }
                ratio[e] = p
                return true
            }
            guard !cands.isEmpty else { return nil }
            return ArScalingAppropriate.perEntity(s, r, cands, check: { f, e in
                f.visible[e] ? .init(measured: 1, threshold: 0, aux: ratio[e] ?? 1) : nil
            }, message: { agg, names in
                let how = agg.aux > 1 + 1e-9 ? "the person resizes it by \(fmt((agg.aux - 1) * 100)) % with a pinch" : "people can resize it (userScalable: true)"
                return "\(names.joinedNames) represents a real object but \(how); keep a real product at its true size so people can judge how it fits, and let them move and turn it instead"
            })
        },
        ArRelocalizationHide.factory { s, _, r in
            let sc = s.scene, ents = sc.entities
            let shown: Set<EntityKind> = [.model, .text, .window, .volume]
            // The outermost placed objects: world-anchored, with no placed object above them.
            let cands = ents.indices.filter { e in
                shown.contains(ents[e].kind) && ents[e].anchor == .world
                    && nearestAncestor(of: e, ents, where: { shown.contains(ents[$0].kind) }) == nil
            }
            let relocalizes = sc.events.contains { if case .ar(.tracking(.limited, .relocalizing)) = $0.action { return true } else { return false } }
            guard !cands.isEmpty, relocalizes else { return nil }
            let state = ARSessionState(sc)
            var placed = [Bool](repeating: false, count: ents.count)
            var began = -1.0
            return ClosureRule({ f, out in
                state.advance(to: f.time)
                guard state.relocalizing else {
                    began = -1
                    for e in cands where f.visible[e] { placed[e] = true }
                    return
                }
                if began < 0 { began = f.time }
                for e in cands where placed[e] && f.visible[e] {
                    out.report(rule: r, e, frame: f.frame, time: f.time, measured: f.time - began + f.deltaTime, threshold: 0)
                }
            }, message: { agg, names in
                "\(names.joinedNames) stays visible for \(fmt(agg.measured)) s while ARKit relocalizes, where it may show in the wrong place; hide placed objects during relocalization and show them again at their restored positions"
            })
        },
        ArResetCancel.factory { s, m, r in
            let limit = s.param(m, "maxRelocalization")
            let ents = s.scene.entities
            let controls = ents.indices.filter { ents[$0].interactive && (ents[$0].role == .exit || isResetOrCancel(ents[$0])) }
            let state = ARSessionState(s.scene)
            let cond = ConditionRule(rule: r, meta: m, candidates: [-1], dwell: limit, measuresRunLength: true,
                                     frameDuration: s.frameDuration, check: { f, _ in
                guard state.relocalizing, !controls.contains(where: { f.visible[$0] }) else { return nil }
                return .init(measured: 0, threshold: limit)
            }, message: { agg, _ in
                "ARKit relocalizes for \(fmt(agg.measured)) s with no reset or cancel control on screen (more than \(fmt(agg.threshold)) s); relocalization can go on for ever, so show a Reset or Cancel control that restarts the session"
            })
            return LimitedTrackingLocated(cond, rule: r, state: state)
        },
        ArReferenceImageLimit.factory { s, m, r in
            let maxImages = s.param(m, "maxImages")
            let state = ARSessionState(s.scene)
            return ClosureRule({ f, out in
                state.advance(to: f.time)
                guard let n = state.referenceImages, Double(n) > maxImages else { return }
                out.report(rule: r, frame: f.frame, time: f.time, measured: Double(n), threshold: maxImages)
                out.setLocation(rule: r, -1, -1, state.referenceImagesLocation)
            }, message: { agg, _ in
                "\(fmt(agg.measured)) reference images are active at once (more than \(fmt(agg.threshold))); split them into sets and swap them by context"
            })
        },
    ]
}

/// A control that resets, restarts, cancels or closes the experience: one of these words, whole, in
/// its id or label (closeButton, btn-close and Close are; Closets and Presets are not).
func isResetOrCancel(_ e: Entity) -> Bool {
    for text in [e.id, e.label ?? ""] {
        let words = wordsOf(text)
        if words.contains(where: { ["reset", "restart", "rescan", "retry", "cancel", "close"].contains($0) }) { return true }
        // ARKit's coaching overlay calls its reset "Start Over".
        if zip(words, words.dropFirst()).contains(where: { ($0 == "start" && $1 == "over") || ($0 == "try" && $1 == "again") }) { return true }
    }
    return false
}

/// The words of an id or label, lowercased: split at every character that is not a letter or digit
/// and where a lowercase letter or digit is followed by an uppercase one ("closeButton", "btn-close",
/// "Close all" → close, button / btn, close / close, all).
func wordsOf(_ text: String) -> [String] {
    var words: [String] = [], word = ""
    var previousLower = false
    for ch in text {
        guard ch.isLetter || ch.isNumber else {
            if !word.isEmpty { words.append(word.lowercased()); word = "" }
            previousLower = false
            continue
        }
        if ch.isUppercase, previousLower, !word.isEmpty { words.append(word.lowercased()); word = "" }
        word.append(ch)
        previousLower = ch.isLowercase || ch.isNumber
    }
    if !word.isEmpty { words.append(word.lowercased()) }
    return words
}
