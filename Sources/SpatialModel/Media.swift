/// Media an entity plays, the system settings a scene runs under, and how an animation starts:
/// the facts the media and motion rules read (scene format, "Media", "Settings" and "Animation").
/// Every optional field is nil when the scene does not say (unknown, never a violation by itself).

/// What kind of media an entity plays.
public enum MediaKind: String, Sendable, CaseIterable, Hashable {
    /// Video with picture (and usually sound).
    case video
    /// Audio-only content: music, podcasts, narration.
    case audio
    /// A RealityKit splash or transition video that leads into the next view (no controls expected).
    case splash
    /// An ambient soundscape of an environment.
    case ambient
    /// A visual effect that is not a media file (a blinking light, a strobe, a particle burst),
    /// declared so that its flashing can be judged.
    case effect
}

/// The media an entity (a model, a window, an environment or an element) plays.
public struct Media: Hashable, Sendable {
    public var kind: MediaKind
    /// Starts playing without a user action.
    public var autoplay: Bool?
    /// People can see and use start/stop controls (the system player's transport controls or the
    /// app's own).
    public var controls: Bool?
    /// Has speech or dialogue.
    public var speech: Bool?
    /// Has a caption or subtitle track (or a transcript for audio).
    public var captions: Bool?
    /// Flashes per second of the brightest repeated flashing in the content, and the change of
    /// relative luminance of one flash (0…1).
    public var flashRate: Double?
    public var flashLuminance: Double?
    /// The player follows Dim Flashing Lights (the system player does).
    public var dimsFlashingLights: Bool?
    /// Motion of the camera that filmed the content, as people see it: rotation in °/s and linear
    /// acceleration in m/s².
    public var cameraRotation: Double?
    public var cameraAcceleration: Double?

    public init(kind: MediaKind, autoplay: Bool? = nil, controls: Bool? = nil, speech: Bool? = nil,
                captions: Bool? = nil, flashRate: Double? = nil, flashLuminance: Double? = nil,
                dimsFlashingLights: Bool? = nil, cameraRotation: Double? = nil, cameraAcceleration: Double? = nil) {
        self.kind = kind; self.autoplay = autoplay; self.controls = controls; self.speech = speech
        self.captions = captions; self.flashRate = flashRate; self.flashLuminance = flashLuminance
        self.dimsFlashingLights = dimsFlashingLights; self.cameraRotation = cameraRotation
        self.cameraAcceleration = cameraAcceleration
    }
}

/// The accessibility settings a scene is simulated and judged under (scene format, "Settings").
public struct SystemSettings: Hashable, Sendable {
    public var reduceMotion: Bool
    public var dimFlashingLights: Bool
    public init(reduceMotion: Bool = false, dimFlashingLights: Bool = false) {
        self.reduceMotion = reduceMotion; self.dimFlashingLights = dimFlashingLights
    }
    /// Names of the settings that are on, in the scene format's spelling (empty: the defaults).
    public var enabledNames: [String] {
        (reduceMotion ? ["reduceMotion"] : []) + (dimFlashingLights ? ["dimFlashingLights"] : [])
    }
}

/// What starts an animation: a person's action (a tap, a gesture it tracks) or the app itself.
public enum AnimationTrigger: String, Sendable, CaseIterable, Hashable {
    case user, system
}

/// What the app does with an animation while Reduce Motion is on.
public enum ReduceMotionBehavior: String, Sendable, CaseIterable, Hashable {
    /// Plays it unchanged.
    case keep
    /// Doesn't play it (the content stays at its first pose).
    case stop
    /// Replaces it with a fade (no movement: the content stays at its first pose).
    case fade
}

extension Scene {
    /// False for an animation the app does not play under the scene's settings (Reduce Motion on
    /// and the animation is stopped or replaced by a fade).
    public func plays(_ anim: Animation) -> Bool {
        !(settings.reduceMotion && anim.reduceMotion != .keep)
    }
}
