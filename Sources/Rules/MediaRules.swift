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
        fixHint: "Start playback from a user action (a Play button, or the title people pick). Audio, and video on other platforms, that starts on its own needs at least start and stop controls (the system player's transport controls or your own) while it plays; on visionOS a video still needs people to choose when it starts.",
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
        summary: "Content that flashes more than 3 times a second with a luminance change of at least 0.1 while it covers at least 1 % of the field of view, or that is shown and hidden more than 3 times a second while such content together covers at least 1 % (warning; info for a video whose player follows Dim Flashing Lights); under Dim Flashing Lights, a video whose player ignores the setting (info).",
        rationale: "Fast blinking and flashing can distract, cause dizziness and in some cases trigger seizures. The HIG asks to be cautious with blinking animation, to avoid bright flashing objects on dark backgrounds in full immersion, and to make video playback respond to the Dim Flashing Lights setting.",
        fixHint: "Slow the flashing (or the showing and hiding) to 3 per second or less, lower its luminance change, or make it smaller; play video with the system player (or follow Dim Flashing Lights in your own) and state it (dimsFlashingLights: true).",
        platforms: [.visionOS, .iOS],
        unit: "Hz", worse: .higher,
        notes: ["Reads the flash rate and luminance change that the scene states for the media or effect (media: {flashRate, flashLuminance}); a flash rate without a luminance change counts as flashes. The share of the field of view is the entity's angular width × height, each capped at the field of view, over the field of view, on every frame it is visible and in view.",
                "When the scene runs with settings.dimFlashingLights: true, media that states dimsFlashingLights: true is dimmed by its player and not a warning. A video that states dimsFlashingLights: false is an info then (sub-check dim-flashing-lights, measured 1, threshold 0) when it does not flash past the limits, and its flashing warning says its player ignores the setting when it does.",
                "Video: the HIG asks video playback to follow Dim Flashing Lights, and an app cannot change a film. A flashing video whose player states dimsFlashingLights: true is an info in the default run (people who turn the setting on get it dimmed); one whose player does not (false or unstated) is a warning whose fix is the player: the system player, or dimming in your own.",
                "Content shown and hidden by events (sub-check visibility): a flash is a pair of opposing changes (WCAG 2.3.1), so an entity named by show or hide events flashes, in each frame, half as often as its visibility changed in the second up to that frame (rounded down), whatever its colours (what is behind it is not in the scene). Above flashRate it is a warning from the first to the last change of that second (the frames it blinks in, hidden ones included) when everything flashing in that frame covers at least flashArea together (shares added, up to 100 %, an entity inside another flashing one not counted again): 40 small badges blinking at once are one large flash.",
                "Reading: content that states no flash rate and is not shown and hidden is not judged (the scene format has no luminance time series)."],
        subchecks: [RuleSubcheck("dim-flashing-lights", unit: "count"), RuleSubcheck("visibility", unit: "Hz")])
}

/// Share of the field of view (0…1) that entity `e` covers at frame `f`: its angular width and
/// height, each capped at the field of view, over the field of view; 0 when not in view.
func fieldOfViewShare(_ f: FrameQuantities, _ e: Int, fov: SIMD2<Double>) -> Double {
    guard e < f.inFOV.count, f.inFOV[e], fov.x > 0, fov.y > 0 else { return 0 }
    return min(f.angularWidth[e], fov.x) * min(f.angularHeight[e], fov.y) / (fov.x * fov.y)
}

/// The entities with media by path (a path names one entity; the first is kept all the same).
private func mediaByPath(_ scene: Scene) -> [String: Int] {
    Dictionary(scene.entities.indices.filter { scene.entities[$0].media != nil }.map { (scene.entities[$0].path, $0) },
               uniquingKeysWith: { first, _ in first })
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
            // The media entities by path, for the messages (one lookup each, not a scan).
            let mediaAt = mediaByPath(s.scene)
            return StaticRule(rule: r, items: items) { agg, names in
                if agg.aux == 1 {
                    return "\(names.joinedNames) plays by itself with no controls to stop it; start it from a user action or show start and stop controls"
                }
                guard let e = names.first.flatMap({ mediaAt[$0] }), s.scene.entities[e].media?.controls == true else {
                    return "video \(names.joinedNames) starts playing by itself; let people choose when a video starts (a Play button)"
                }
                return "video \(names.joinedNames) starts playing by itself; it has controls to stop it, but on visionOS people choose when a video starts: start it from a Play button or the title they pick (a player that plays the title just picked is autoplay: false)"
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
            let toggles = VisibilityFlashes(scene: s.scene, rule: r, rate: rate, area: area)
            let cands = s.scene.entities.indices.filter { s.scene.entities[$0].media != nil }
            if cands.isEmpty, toggles.entities.isEmpty { return nil }
            let mediaAt = mediaByPath(s.scene)
            let condition = ConditionRule(rule: r, meta: meta, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e], let m = s.scene.entities[e].media else { return nil }
                if let hz = m.flashRate, hz > rate, (m.flashLuminance ?? 1) >= dL, !(dim && m.dimsFlashingLights == true) {
                    let share = fieldOfViewShare(f, e, fov: fov)
                    // A video whose player follows Dim Flashing Lights gives people the opt-out the
                    // HIG asks of video playback: an app cannot re-cut a film, so it is an info.
                    let optOut = m.kind == .video && m.dimsFlashingLights == true
                    if share >= area { return .init(measured: hz, threshold: rate, severity: optOut ? .info : nil, aux: share * 100) }
                }
                if dim, m.kind == .video, m.dimsFlashingLights == false {
                    return .init(measured: 1, threshold: 0, severity: .info, unit: "count", variant: 1)
                }
                return nil
            }, message: { agg, names in
                if agg.unit == "count" {
                    return "video \(names.joinedNames) ignores Dim Flashing Lights, which is on; play it with the system player or dim its flashes"
                }
                if agg.variant == 2 {
                    return "\(names.joinedNames) is shown and hidden \(fmt(agg.measured)) times a second (more than \(fmt(agg.threshold))) while flashing content covers \(fmt(agg.aux)) % of the field of view; show and hide it at most \(fmt(agg.threshold)) times a second, or fade it gently"
                }
                let flashes = "\(names.joinedNames) flashes \(fmt(agg.measured)) times a second (more than \(fmt(agg.threshold))) over \(fmt(agg.aux)) % of the field of view"
                // A video: the fix is its player, not the film.
                guard names.count == 1, let e = names.first.flatMap({ mediaAt[$0] }),
                      let m = s.scene.entities[e].media, m.kind == .video else {
                    return flashes + "; slow or soften the flashing"
                }
                if m.dimsFlashingLights == true {
                    return flashes + "; its player dims them for people who turn on Dim Flashing Lights (dimsFlashingLights: true), as the HIG asks of video playback: nothing to change unless the app draws the flashes itself"
                }
                let ignored = dim && m.dimsFlashingLights == false ? "; its player ignores Dim Flashing Lights, which is on" : ""
                return flashes + ignored + "; play it in the system player, which dims flashes when Dim Flashing Lights is on (then state dimsFlashingLights: true), or dim them in your own player"
            })
            return toggles.entities.isEmpty ? condition : FrameStateRule(toggles, then: condition)
        },
    ]
}

/// The flashing of content shown and hidden by events (`motion-flashing`, sub-check visibility),
/// followed frame by frame. Per entity named by a show or hide event: the frames and times its
/// visibility changed in the last second. In a frame where more than `rate` flashes (pairs of
/// changes) fall in the second up to it for some entities, and those entities together cover
/// `area` of the field of view, each of them is reported from the first to the last change of
/// that second: the frames it blinks in, found up to a second late, each reported once and in
/// frame order.
final class VisibilityFlashes: FrameState {
    /// The entities named by show or hide events, in index order.
    let entities: [Int]
    private let rule: Int, rate: Double, area: Double, fov: SIMD2<Double>
    /// Per entity of `entities`: the positions in `entities` of its ancestors that are there too.
    private let ancestors: [[Int]]
    private var wasVisible: [Bool] = []
    /// Per entity of `entities`: its visibility changes (frame, time), oldest first, from `start`.
    private var changes: [[(frame: Int, time: Double)]]
    private var start: [Int]
    /// Per entity of `entities`: the last frame reported.
    private var reportedThrough: [Int]
    /// The frames of about the last second (frame, time), oldest first, from `framesStart`.
    private var frames: [(frame: Int, time: Double)] = []
    private var framesStart = 0

    init(scene: Scene, rule: Int, rate: Double, area: Double) {
        var named = Set<Int>()
        for event in scene.events {
            switch event.action {
            case .show(let e), .hide(let e): if e >= 0 && e < scene.entities.count { named.insert(e) }
            default: break
            }
        }
        entities = named.sorted()
        self.rule = rule; self.rate = rate; self.area = area; fov = scene.viewer.fieldOfView
        var slot = [Int](repeating: -1, count: entities.isEmpty ? 0 : scene.entities.count)
        for (k, e) in entities.enumerated() { slot[e] = k }
        ancestors = entities.map { e in
            var up: [Int] = [], p = scene.entities[e].parent, steps = 0
            while let a = p, a >= 0, a < scene.entities.count, steps < scene.entities.count {
                if slot[a] >= 0 { up.append(slot[a]) }
                p = scene.entities[a].parent; steps += 1
            }
            return up
        }
        changes = Array(repeating: [], count: entities.count)
        start = Array(repeating: 0, count: entities.count)
        reportedThrough = Array(repeating: -1, count: entities.count)
    }

    func update(_ f: FrameQuantities, _ out: inout Findings) {
        let first = wasVisible.isEmpty
        if first { wasVisible = entities.map { f.visible[$0] } }
        // The second up to this frame: t − 1 s < t′ ≤ t (1e-9 s for the frame times' rounding).
        let from = f.time - 1 + 1e-9
        frames.append((f.frame, f.time))
        while framesStart < frames.count, frames[framesStart].time <= from { framesStart += 1 }
        if framesStart > 256, framesStart * 2 > frames.count { frames.removeFirst(framesStart); framesStart = 0 }
        var flashing: [(k: Int, flashes: Double)] = []
        for (k, e) in entities.enumerated() {
            if !first, f.visible[e] != wasVisible[k] {
                wasVisible[k] = f.visible[e]
                changes[k].append((f.frame, f.time))
            }
            while start[k] < changes[k].count, changes[k][start[k]].time <= from { start[k] += 1 }
            if start[k] > 64, start[k] * 2 > changes[k].count { changes[k].removeFirst(start[k]); start[k] = 0 }
            let n = Double((changes[k].count - start[k]) / 2)
            if n > rate { flashing.append((k, n)) }
        }
        if flashing.isEmpty { return }
        var share = 0.0
        let isFlashing = Set(flashing.map(\.k))
        for (k, _) in flashing where !ancestors[k].contains(where: isFlashing.contains) {
            share += fieldOfViewShare(f, entities[k], fov: fov)
        }
        share = min(share, 1)
        guard share >= area else { return }
        for (k, n) in flashing {
            guard let last = changes[k].last?.frame else { continue }
            let from = max(changes[k][start[k]].frame, reportedThrough[k] &+ 1)
            // The first frame kept at or after `from` (frames are in increasing order).
            var lo = framesStart, hi = frames.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if frames[mid].frame < from { lo = mid + 1 } else { hi = mid }
            }
            for (g, t) in frames[lo...] {
                if g > last { break }
                out.report(rule: rule, entities[k], frame: g, time: t, measured: n, threshold: rate, aux: share * 100, variant: 2)
            }
            reportedThrough[k] = max(reportedThrough[k], last)
        }
    }
}
