import Foundation
import SpatialModel
import Simulation

// Rules on the media a scene plays (`media` of an entity or element; docs/scene-format.md,
// "Media"): who starts it, whether its speech has captions, and whether it flashes. What the scene
// does not say about its media is unknown and never a violation by itself.

public enum VideoUserStart: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "video-user-start", name: "People decide when video and audio start", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("playing-video", "visionOS"), Citation("accessibility", "Cognitive")],
        summary: "Video or audio that plays by itself with no controls to stop it, or (visionOS) video that starts without people choosing to play it.",
        rationale: "The HIG asks apps not to autoplay audio or video without also giving people discoverable controls to start and stop it, and in visionOS to let people choose when a video starts, which helps them stay comfortable with content the app does not control. RealityKit splash and transition videos, which lead into the next view, need no controls.",
        fixHint: "Start playback from a user action (a Play button), or at least show the system player's transport controls (or your own start and stop controls) while it plays.",
        platforms: [.visionOS, .iOS],
        unit: "count", worse: .higher,
        notes: ["Media of kind video or audio with autoplay: true and controls: false: warning on every platform (accessibility › Cognitive). On visionOS, video with autoplay: true is a warning even with controls (playing-video › visionOS: let people choose when to start playing).",
                "Not checked: kind splash (a RealityKit splash or transition video), ambient (an environment's soundscape) and effect. Media whose autoplay is not stated is taken to start from a user action; audio whose controls are not stated is unknown.",
                "Reported over the frames the entity is visible; measured is 1 (one entity), threshold 0."])
}

public enum A11yCaptions: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "a11y-captions", name: "Speech in media has captions", category: .accessibility,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("accessibility", "Hearing")],
        summary: "Video or audio with speech or dialogue (media speech: true) that has no caption or subtitle track (captions not true).",
        rationale: "Dialogue and crucial information must not reach people through audio alone: people who are deaf or hard of hearing, or in a noisy or public place, need a text alternative. The HIG lists captions, subtitles, audio descriptions and transcripts.",
        fixHint: "Add a caption or subtitle track (or a transcript for audio-only content) and state it in the scene (media: {captions: true}); AVPlayer shows the tracks a person turned on.",
        platforms: [.visionOS, .iOS],
        unit: "count", worse: .higher,
        notes: ["Reading: only media that states speech: true is judged; for such media the scene describes its tracks, so a caption track it does not list (captions not stated) counts as missing.",
                "Reported over the frames the entity is visible; measured is 1 (one entity), threshold 0."])
}

public enum MotionFlashing: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-flashing", name: "No rapid flashing", category: .motion,
        defaultSeverity: .warning, thresholdKey: "flashRate",
        parameters: [RuleParameter("flashRate", 3, "Hz", .external("WCAG 2.3.1 general flash threshold: no more than three flashes in any one second"),
                                   "flashes per second above which flashing content is a violation"),
                     RuleParameter("flashLuminance", 0.1, "ΔL", .external("WCAG 2.3.1: a flash is a pair of opposing changes in relative luminance of 10 % or more"),
                                   "change of relative luminance from which a change counts as a flash"),
                     RuleParameter("flashArea", 1, "% FOV", .configurable("hig-rules: flashing over at least 1 % of the field of view; on visionOS's default 90° × 70° view that is 0.019 sr, about 3 times WCAG 2.3.1's 0.006 sr (a 4.4° square): set 0.31 for WCAG's area"),
                                   "share of the field of view the flashing content must cover")],
        citations: [Citation("accessibility", "Cognitive"), Citation("color", "visionOS")],
        summary: "Content that flashes more than 3 times a second with a luminance change of at least 0.1 while it covers at least 1 % of the field of view (warning); under Dim Flashing Lights, a video whose player ignores the setting (info).",
        rationale: "Fast blinking and flashing can distract, cause dizziness and in some cases trigger seizures. The HIG asks to be cautious with blinking animation, to avoid bright flashing objects on dark backgrounds in full immersion, and to make video playback respond to the Dim Flashing Lights setting.",
        fixHint: "Slow the flashing to 3 per second or less, lower its luminance change, or make it smaller; play video with the system player (or follow Dim Flashing Lights in your own) and state it (dimsFlashingLights: true).",
        platforms: [.visionOS, .iOS],
        unit: "Hz", worse: .higher,
        notes: ["Reads the flash rate and luminance change that the scene states for the media or effect (media: {flashRate, flashLuminance}); a flash rate without a luminance change counts as flashes. The share of the field of view is the entity's angular width × height, each capped at the field of view, over the field of view, on every frame it is visible and in view.",
                "When the scene runs with settings.dimFlashingLights: true, media that states dimsFlashingLights: true is dimmed by its player and not a warning. A video that states dimsFlashingLights: false is an info then (sub-check dim-flashing-lights, measured 1, threshold 0).",
                "Reading: content that states no flash rate is not judged (the scene format has no luminance time series)."],
        subchecks: [RuleSubcheck("dim-flashing-lights", unit: "count")])
}

/// Share of the field of view (0…1) that entity `e` covers at frame `f`: its angular width and
/// height, each capped at the field of view, over the field of view; 0 when not in view.
func fieldOfViewShare(_ f: FrameQuantities, _ e: Int, fov: SIMD2<Double>) -> Double {
    guard e < f.inFOV.count, f.inFOV[e], fov.x > 0, fov.y > 0 else { return 0 }
    return min(f.angularWidth[e], fov.x) * min(f.angularHeight[e], fov.y) / (fov.x * fov.y)
}

func mediaFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [VideoUserStart.metadata.id]) { s in
            guard let r = s.index(VideoUserStart.metadata.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices {
                guard let m = s.scene.entities[i].media, m.kind == .video || m.kind == .audio, m.autoplay == true else { continue }
                if m.controls == false {
                    items.append(.init(entity: i, measured: 1, threshold: 0, aux: 1))
                } else if m.kind == .video, s.scene.platform == .visionOS {
                    items.append(.init(entity: i, measured: 1, threshold: 0, aux: 0))
                }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                if agg.aux == 1 {
                    return "\(names.joinedNames) plays by itself with no controls to stop it; start it from a user action or show start and stop controls"
                }
                return "video \(names.joinedNames) starts playing by itself; let people choose when a video starts (a Play button)"
            }
        },
        RuleFactory(ids: [A11yCaptions.metadata.id]) { s in
            guard let r = s.index(A11yCaptions.metadata.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices {
                guard let m = s.scene.entities[i].media, m.speech == true, m.captions != true else { continue }
                items.append(.init(entity: i, measured: 1, threshold: 0))
            }
            return StaticRule(rule: r, items: items) { _, names in
                "\(names.joinedNames) has speech but no captions or subtitles; add a caption or subtitle track (a transcript for audio)"
            }
        },
        RuleFactory(ids: [MotionFlashing.metadata.id]) { s in
            guard let r = s.index(MotionFlashing.metadata.id) else { return nil }
            let meta = MotionFlashing.metadata
            let rate = s.param(meta, "flashRate"), dL = s.param(meta, "flashLuminance")
            let area = s.param(meta, "flashArea") / 100
            let fov = s.scene.viewer.fieldOfView
            let dim = s.scene.settings.dimFlashingLights
            let cands = s.scene.entities.indices.filter { s.scene.entities[$0].media != nil }
            if cands.isEmpty { return nil }
            return ConditionRule(rule: r, meta: meta, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e], let m = s.scene.entities[e].media else { return nil }
                if let hz = m.flashRate, hz > rate, (m.flashLuminance ?? 1) >= dL, !(dim && m.dimsFlashingLights == true) {
                    let share = fieldOfViewShare(f, e, fov: fov)
                    if share >= area { return .init(measured: hz, threshold: rate, aux: share * 100) }
                }
                if dim, m.kind == .video, m.dimsFlashingLights == false {
                    return .init(measured: 1, threshold: 0, severity: .info, unit: "count", variant: 1)
                }
                return nil
            }, message: { agg, names in
                if agg.unit == "count" {
                    return "video \(names.joinedNames) ignores Dim Flashing Lights, which is on; play it with the system player or dim its flashes"
                }
                return "\(names.joinedNames) flashes \(fmt(agg.measured)) times a second (more than \(fmt(agg.threshold))) over \(fmt(agg.aux)) % of the field of view; slow or soften the flashing"
            })
        },
    ]
}
