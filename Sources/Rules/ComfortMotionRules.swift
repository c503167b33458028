import Foundation
import SpatialModel
import Simulation

// Motion the person does not control: large content that moves on its own (vection), and what
// still moves when Reduce Motion is on. Animations started by a person (`trigger: user`) are theirs.

public enum MotionVection: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-vection", name: "The world doesn't move without the person's control", category: .motion,
        defaultSeverity: .warning, thresholdKey: "vectionSpeed",
        parameters: [RuleParameter("vectionCoverage", 30, "% FOV", .external("vection heuristics: coherent motion of a large part of the visual field makes people feel they move"),
                                   "share of the field of view that moving content must cover"),
                     RuleParameter("vectionSpeed", 5, "deg/s", .external("vection heuristics"),
                                   "rotation rate above which large moving content is a violation"),
                     RuleParameter("vectionAcceleration", 0.5, "m/s²", .external("vection heuristics"),
                                   "linear acceleration above which large moving content is a violation"),
                     RuleParameter("vectionLinearSpeed", 0.5, "m/s", .external("vection heuristics: steady optic flow of most of the view is the classic way to make people feel they move; below a slow walk's speed it reads as drift"),
                                   "speed above which large content that keeps moving on its own is an info (sub-check steady)"),
                     RuleParameter("vectionSustainS", 2, "s", .configurable("a short glide is a transition; the world going by for longer is travel the person did not choose"),
                                   "how long large content must keep moving faster than vectionLinearSpeed before it is an info"),
                     RuleParameter("accelerationWindowS", 0.25, "s", .configurable("acceleration is measured over this interval, so a keyframe corner is a change of velocity, not an infinite spike"),
                                   "interval over which acceleration is measured")],
        citations: [Citation("accessibility", "visionOS")],
        summary: "Content covering more than 30 % of the field of view that moves on its own (an animation not started by the person, or the camera motion of a video) turning faster than 5°/s or accelerating faster than 0.5 m/s² (warning), or moving faster than 0.5 m/s for 2 s or longer (info).",
        rationale: "When most of what people see moves together, they feel that they themselves are moving (vection) while their body says they are still, which can cause motion sickness. The HIG asks to be gentle with camera and video motion and to avoid situations where people feel the world around them moves without their control.",
        fixHint: "Let the person drive the motion (trigger it from a gesture and track it), slow the rotation below 5°/s and ease accelerations, make the moving content smaller, or cut between views with a fade.",
        unit: "deg/s", worse: .higher, angleDerived: false,
        notes: ["Per frame, for every visible entity (not 2D elements) that covers at least vectionCoverage of the field of view and is moved by an animation of its own or of an entity it is nested in that is not trigger: user: its rotation rate (the change of its own axes, and of the direction of its centre as seen from the eye when the eye is outside it) and its linear acceleration, the second difference of its centre over the window W = accelerationWindowS (rounded to whole frames): |x(t) − 2·x(t − W) + x(t − 2W)| / W², the change of its mean velocity from one window to the next, per W. It is exact on a constant acceleration, a keyframe corner that changes the velocity by Δv reads at most Δv / W, and keys every W changing the velocity by Δv each (a ramp) read Δv / W: a 0.4 m/s² ramp keyed every 0.25 s reads 0.4, not more.",
                "Coverage is that of the visible content the entity moves, measured as fov-window-clutter measures coverage: the union of the apparent rectangles of the entity itself (unless it is a group) and of the windows, volumes, models, texts and environments nested in it, on the 128 × 128 grid over the field of view, as a share of the field of view's solid angle. A group's bounding box does not count: two cards on opposite sides of a ring turning around the viewer cover what the two cards cover (their box contains the eye), not the whole view. A flat 3.6 × 2 m panel 3 m straight ahead (61.9° × 36.9°) covers 4·asin(sin 30.96° · sin 18.43°) = 0.654 sr, 36.3 % of the default 90° × 70° view (1.80 sr).",
                "Video: media with cameraMotion {rotation, acceleration} is judged with those numbers while it (and what is nested in it) covers vectionCoverage of the field of view.",
                "Measured: the rotation rate in °/s against vectionSpeed; acceleration is the sub-check acceleration (m/s², threshold vectionAcceleration). Head movement never counts: content is measured in the world.",
                "Info (sub-check steady, an extension of the catalog's row, which names rotation and acceleration only): content covering vectionCoverage that keeps moving on its own at a steady speed, its centre's mean speed over the window |x(t) − x(t − W)| / W above vectionLinearSpeed (m/s) on every frame for at least vectionSustainS, is reported from the frame the run reaches vectionSustainS (a trail scrolling toward the viewer at 2.5 m/s for 12 s). A constant velocity has no acceleration and no rotation, yet the world going by is what the HIG asks to avoid: \"avoid situations where someone may feel like the world around them is moving without their control\" (accessibility › visionOS, Prioritize comfort) and \"avoid displaying motion that's … missing a stationary frame of reference\" (designing-for-visionos › Best practices). An info, not a warning: the HIG gives no speed, and a slow drift or a brief glide is common and comfortable."],
        subchecks: [RuleSubcheck("acceleration", unit: "m/s²"), RuleSubcheck("steady", unit: "m/s")])
}

public enum MotionReduceMotion: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-reduce-motion", name: "Reduce Motion stops automatic motion", category: .motion,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [RuleParameter("springOvershoot", 5, "%", .configurable("a bounce past the end value larger than this is visible; the HIG asks to tighten springs"),
                                   "overshoot past an animation's end value, as a share of its change, above which a still-playing animation is an info")],
        citations: [Citation("accessibility", "Cognitive"), Citation("animation", "Make animations optional", "S2")],
        summary: "When the scene runs with Reduce Motion on (settings.reduceMotion: true): an animation the app still plays and did not start from a person's action that scales, moves in depth (z), slides in x or y, or repeats forever (warning); an animation that still plays and bounces more than 5 % past its end value (info).",
        rationale: "With Reduce Motion on, the HIG asks apps to cut automatic and repeating animation (zooming, scaling, peripheral motion), to tighten springs, to tie animation to gestures, not to animate depth changes, and to replace x, y and z slides with fades, because fast and repetitive motion can cause dizziness and distraction.",
        fixHint: "When Reduce Motion is on (accessibilityReduceMotion), don't play the animation or replace it with a fade, and state it in the scene (animation: {reduceMotion: stop} or fade); or start it from the person's gesture (trigger: user).",
        platforms: [.visionOS, .iOS],
        unit: "count", worse: .higher,
        notes: ["Judged only in a run with settings.reduceMotion: true, the Reduce Motion variant of a scene (docs/scene-format.md, \"Settings\"). An animation with reduceMotion: stop or fade does not play in that run; one with trigger: user follows a person's action.",
                "From the animation's keys: scale when a scale key differs from the first by more than 1 %; repeats when it loops and changes anything. Depth and slides as the viewer sees them: for a top-level world-anchored entity, the keys' ranges along the line of sight from where the viewer's eye starts to the first key and across it (the larger of the two axes across), and the motion is named by the larger of the two when it exceeds 1 cm (both when equal): depth ('moves toward the viewer' or 'away from the viewer' when it goes only one way) or slide (the drift across the view of an approach along a line a little below the eye is part of the approach) (a card to the viewer's right moving along world x toward them moves in depth, the HIG's 'depth changes in z-axis layers'); for other entities in the parent frame, depth for its z range, slide for x or y (the head frame for head-anchored content). Measured: how many of these kinds (1–4); threshold 0. Reported over the frames the animation moves: a non-looping one from the key its value first leaves to its last key (keys from t = 3 to 3.8 s are reported at 3.00–3.80 s, and so are keys at 0, 3 and 3.8 s whose first two hold one value), a looping one on every frame.",
                "Info (sub-check overshoot): an animation that still plays, including one a person starts, whose position or scale passes its end value by more than springOvershoot of its change (a bounce), when no warning applies. Reported over the frames the animation plays and its entity is visible."],
        subchecks: [RuleSubcheck("overshoot", unit: "%")])
}

/// The motion an animation makes, for Reduce Motion: the kinds the HIG lists and the largest
/// overshoot past an end value (% of the change).
struct AnimationMotion {
    var scale = false, depth = false, slide = false, repeats = false
    /// With the viewer's line of sight known: −1 the depth change only comes closer, 1 only goes
    /// away, 0 both ways (or the parent frame's z is read).
    var depthWay = 0
    var overshoot = 0.0
    var kinds: [String] {
        let inDepth = depthWay < 0 ? "moves toward the viewer" : depthWay > 0 ? "moves away from the viewer" : "moves in depth"
        return (scale ? ["scales"] : []) + (depth ? [inDepth] : []) + (slide ? ["slides"] : []) + (repeats ? ["repeats forever"] : [])
    }

    /// `eye`: where the viewer's eye starts, for an animation whose keys are in world coordinates
    /// (a top-level world-anchored entity): depth is then the motion along the line of sight from
    /// the eye to the first key, and slides the motion across it, as the viewer sees them; without
    /// it the parent frame's z is depth and x, y are slides (the head frame for head-anchored content).
    init(_ a: Animation, eye: Vec3? = nil) {
        var moves = false
        func overshootOf(_ values: [Double], minChange: Double) -> Double {
            guard let first = values.first, let last = values.last, abs(last - first) > minChange else { return 0 }
            let dir: Double = last > first ? 1 : -1
            let worst = values.map { dir * ($0 - last) }.max() ?? 0
            return max(0, worst / abs(last - first) * 100)
        }
        for ch in a.channels {
            let p = ch.positions.map(\.value)
            if let p0 = p.first {
                var lo = p0, hi = p0
                for v in p { lo = pointwiseMin(lo, v); hi = pointwiseMax(hi, v) }
                let range = hi - lo
                if let eye, length(p0 - eye) > 1e-9 {
                    // Axes of the line of sight to the first key (world up across it; straight
                    // above or below, world x).
                    let u = normalize(p0 - eye)
                    let side = cross(u, Vec3(0, 1, 0))
                    let right = length(side) > 1e-9 ? normalize(side) : Vec3(1, 0, 0)
                    let up = cross(right, u)
                    var dLo = 0.0, dHi = 0.0, rLo = 0.0, rHi = 0.0, uLo = 0.0, uHi = 0.0
                    for v in p {
                        let d = v - p0, a = dot(d, u), b = dot(d, right), c = dot(d, up)
                        dLo = min(dLo, a); dHi = max(dHi, a); rLo = min(rLo, b); rHi = max(rHi, b); uLo = min(uLo, c); uHi = max(uHi, c)
                    }
                    // Named by its larger part as seen: a card approaching along a line 10 cm
                    // below the eye also drifts a few cm across the view, which is part of the
                    // approach; a volume off to the left moving right comes a little closer, which
                    // is part of the slide.
                    let across = max(rHi - rLo, uHi - uLo), along = dHi - dLo
                    if across > 0.01 && across >= along { slide = true }
                    if along > 0.01 && along >= across {
                        let way = dHi <= 0.01 ? -1 : dLo >= -0.01 ? 1 : 0
                        depthWay = depth ? (depthWay == way ? way : 0) : way
                        depth = true
                    }
                } else {
                    if range.x > 0.01 || range.y > 0.01 { slide = true }
                    if range.z > 0.01 { depth = true; depthWay = 0 }
                }
                if max(range.x, range.y, range.z) > 1e-6 { moves = true }
                for k in 0..<3 { overshoot = max(overshoot, overshootOf(p.map { $0[k] }, minChange: 0.01)) }
            }
            let sc = ch.scales.map(\.value)
            if let s0 = sc.first {
                for v in sc {
                    for k in 0..<3 where abs(v[k] - s0[k]) > 0.01 * max(abs(s0[k]), 1e-9) { scale = true }
                    if v != s0 { moves = true }
                }
                for k in 0..<3 { overshoot = max(overshoot, overshootOf(sc.map { $0[k] }, minChange: 0.01 * abs(s0[k]))) }
            }
            if let r0 = ch.rotations.first?.value, ch.rotations.contains(where: { q in abs(q.value.x * r0.x + q.value.y * r0.y + q.value.z * r0.z + q.value.w * r0.w) < 0.99999 }) { moves = true }
        }
        repeats = a.loop && moves
    }
}

final class VectionRule: RuleProcessor {
    let rule: Int
    let scene: Scene
    /// Entities moved by an animation that no person started.
    let moving: [Int]
    /// Media with camera motion.
    let filmed: [Int]
    let coverage, speed, accel, linearSpeed, sustain: Double
    let window: Int
    /// Per moving entity: the time its current run of steady motion (faster than `linearSpeed`
    /// over the window, covering `coverage`) started, and the last frame (`tick`) of that run.
    private var runStart: [Double], runTick: [Int]
    /// Per moving entity, then per filmed one: the visible content it moves, whose coverage is its
    /// coverage (itself when it has geometry of its own, and its descendants that do; see
    /// `content`): list i is `content[contentStart[i]..<contentStart[i + 1]]`, moving entity k is
    /// list k and filmed entity k list `moving.count + k` (one flat array, read through a pointer).
    private let content: [Int], contentStart: [Int]
    /// The field of view's grid, as fov-window-clutter measures coverage.
    private let grid: FieldOfViewCoverage
    /// Per moving entity: the moving entity it is nested in whose list holds all of its own (-1
    /// when none): a list below `coverage` in a frame leaves every such sub-list below it too.
    private let parent: [Int]
    /// Per moving entity: the last frame (`tick`) its list was found below `coverage`.
    private var below: [Int]
    private var tick = 0
    /// `RuleShortcuts.enabled` when made: the parents' verdicts and the grid's early stop.
    private let shortcuts: Bool
    private var prevFront: [Vec3?], prevUp: [Vec3?]
    /// Recent centres of the moving entities, enough for the centres `window` and `2 · window`
    /// frames back: a ring of `2 · window + 1` frames, each `moving.count` centres (one flat array,
    /// written in place; every moving entity gets a centre in every frame, so one ring position
    /// serves all).
    private var centres: [Vec3]
    /// Frames stored in the ring (at most `2 · window + 1`) and the ring slot the next frame goes to.
    private var stored = 0, nextSlot = 0

    init?(_ s: RuleSetup) {
        guard let r = s.index(MotionVection.metadata.id) else { return nil }
        let meta = MotionVection.metadata
        rule = r; scene = s.scene
        coverage = s.param(meta, "vectionCoverage") / 100
        speed = s.param(meta, "vectionSpeed")
        accel = s.param(meta, "vectionAcceleration")
        linearSpeed = s.param(meta, "vectionLinearSpeed")
        sustain = s.param(meta, "vectionSustainS")
        let ws = s.param(meta, "accelerationWindowS")
        let windowFrames = (ws * s.scene.frameRate).rounded()
        let ents = s.scene.entities
        func drivingTrigger(_ e: Int) -> (animated: Bool, user: Bool) {
            var cur: Int? = e, steps = 0
            var animated = false
            while let c = cur, c < ents.count, steps <= ents.count {
                if let a = ents[c].animation, a < s.scene.animations.count, s.scene.plays(s.scene.animations[a]) {
                    if s.scene.animations[a].trigger == .user { return (true, true) }
                    animated = true
                }
                cur = ents[c].parent; steps += 1
            }
            return (animated, false)
        }
        moving = ents.indices.filter { e in
            guard ents[e].kind != .element && ents[e].kind != .node else { return false }
            let d = drivingTrigger(e)
            return d.animated && !d.user
        }
        filmed = ents.indices.filter {
            guard let m = ents[$0].media else { return false }
            return (m.cameraRotation ?? 0) > 0 || (m.cameraAcceleration ?? 0) > 0
        }
        if moving.isEmpty && filmed.isEmpty { return nil }
        let (moved, film) = Self.content(ents, moving, filmed)
        var flat: [Int] = [], start = [0]
        for list in moved + film { flat += list; start.append(flat.count) }
        content = flat; contentStart = start
        // Without the shortcuts every list is measured, and exactly (tests compare the two).
        shortcuts = RuleShortcuts.enabled
        parent = shortcuts ? Self.parents(ents, moving, flat, start) : Array(repeating: -1, count: moving.count)
        below = Array(repeating: -1, count: moving.count)
        grid = FieldOfViewCoverage(fieldOfView: s.scene.viewer.fieldOfView)
        // A configured window is any finite number of seconds: bound the ring (slots × moving
        // entities, as fov-launch-placement does) so that 1e300 s neither traps converting to Int
        // nor asks for terabytes. A window longer than the scene never measures anything anyway.
        let cap = max(1, 2_000_000 / max(1, moving.count))
        window = windowFrames.isFinite ? max(1, Int(min(Double(cap), windowFrames))) : 1
        prevFront = Array(repeating: nil, count: moving.count)
        prevUp = prevFront
        centres = Array(repeating: .zero, count: moving.count * (2 * window + 1))
        runStart = Array(repeating: 0, count: moving.count)
        runTick = Array(repeating: -1, count: moving.count)
    }

    /// Entities that are seen: their bounds are their own geometry. A group's bounds are those of
    /// everything nested in it (a ring of cards around the viewer contains the eye), and elements
    /// and asset nodes lie on their window, volume or model, so none of those adds anything.
    private static let seenKinds: Set<EntityKind> = [.window, .volume, .model, .text, .environment]

    /// For each of `moving` and of `filmed`: itself unless it is a group, and the seen entities
    /// among its descendants, in entity order (each seen entity is added to every listed ancestor
    /// it has, itself included).
    private static func content(_ ents: [Entity], _ moving: [Int], _ filmed: [Int]) -> ([[Int]], [[Int]]) {
        var slot: [Int: Int] = [:]
        for (k, e) in moving.enumerated() { slot[e] = k }
        for (k, e) in filmed.enumerated() { slot[-1 - e] = k }
        var moved = Array(repeating: [Int](), count: moving.count), film = Array(repeating: [Int](), count: filmed.count)
        for c in ents.indices where ents[c].kind != .group {
            guard seenKinds.contains(ents[c].kind) else {
                // An element or asset node counts for itself (a video on an element), not for
                // what it is nested in.
                if let k = slot[c] { moved[k].append(c) }
                if let k = slot[-1 - c] { film[k].append(c) }
                continue
            }
            var cur: Int? = c, steps = 0
            while let a = cur, a >= 0, a < ents.count, steps <= ents.count {
                if let k = slot[a] { moved[k].append(c) }
                if let k = slot[-1 - a] { film[k].append(c) }
                cur = ents[a].parent; steps += 1
            }
        }
        return (moved, film)
    }

    /// For each moving entity, the nearest moving entity it is nested in when that one's list
    /// holds every entity of its own list (the lists are in entity order), else -1.
    private static func parents(_ ents: [Entity], _ moving: [Int], _ content: [Int], _ start: [Int]) -> [Int] {
        var slot: [Int: Int] = [:]
        for (k, e) in moving.enumerated() { slot[e] = k }
        func holds(_ outer: Int, _ inner: Int) -> Bool {
            var i = start[outer]
            let iEnd = start[outer + 1]
            for j in start[inner]..<start[inner + 1] {
                while i < iEnd && content[i] < content[j] { i += 1 }
                guard i < iEnd, content[i] == content[j] else { return false }
            }
            return true
        }
        var parent = Array(repeating: -1, count: moving.count)
        for k in moving.indices {
            var cur = ents[moving[k]].parent, steps = 0
            while let a = cur, a >= 0, a < ents.count, steps <= ents.count {
                if let j = slot[a] {
                    if holds(j, k) { parent[k] = j }
                    break
                }
                cur = ents[a].parent; steps += 1
            }
        }
        return parent
    }

    /// Share (0…1) of the field of view covered by `content` (see `FieldOfViewCoverage`); 0 when
    /// the cheap bound already shows it cannot reach `coverage`.
    private func share(of list: Int, _ f: FrameQuantities, _ content: UnsafeBufferPointer<Int>, _ start: UnsafeBufferPointer<Int>) -> Double {
        guard list >= 0, list + 1 < start.count else { return 0 }
        let lo = start[list], hi = start[list + 1]
        guard lo < hi, lo >= 0, hi <= content.count, let base = content.baseAddress else { return 0 }
        let entities = UnsafeBufferPointer(start: base + lo, count: hi - lo)
        let limit = coverage * 100
        guard grid.percentBound(of: entities, f, upTo: limit) >= limit else { return 0 }
        return grid.percent(of: entities, f) / 100
    }

    /// List `k` as a buffer (empty when it has no entities: it covers nothing).
    @inline(__always)
    private func list(_ k: Int, _ content: UnsafeBufferPointer<Int>, _ start: UnsafeBufferPointer<Int>) -> UnsafeBufferPointer<Int> {
        guard k >= 0, k + 1 < start.count, let base = content.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        let lo = start[k], hi = start[k + 1]
        guard lo < hi, lo >= 0, hi <= content.count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base + lo, count: hi - lo)
    }

    /// Whether the list `entities` (of a moving entity whose angular-size bound reaches the
    /// coverage) covers at least `coverage` of the view; then its share (0…1) when `exact`, else
    /// NaN (the grid may stop once the share is known to be over it). Nil when it covers less.
    private func covering(_ entities: UnsafeBufferPointer<Int>, exact: Bool, _ f: FrameQuantities) -> Double? {
        if exact {
            let share = grid.percent(of: entities, f) / 100
            return share >= coverage ? share : nil
        }
        guard let pct = grid.percent(of: entities, f, unlessAbove: coverage * 100) else { return .nan }
        return pct / 100 >= coverage ? .nan : nil
    }

    private static func angle(_ a: Vec3, _ b: Vec3) -> Double {
        let la = length(a), lb = length(b)
        guard la > 1e-12, lb > 1e-12 else { return 0 }
        return degrees(acos(min(1, max(-1, dot(a, b) / (la * lb)))))
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        let dt = f.deltaTime > 0 ? f.deltaTime : (scene.frameRate > 0 ? 1 / scene.frameRate : 0)
        // The ring holds the previous `stored` frames' centres, oldest first from slot
        // `nextSlot - stored`; `back(j)` is the slot of the centre j frames back (1 = the last frame).
        let window = self.window
        let ringSize = 2 * window + 1, count = moving.count, n = stored, next = nextSlot
        @inline(__always) func back(_ j: Int) -> Int { ((next - j) % ringSize + ringSize) % ringSize * count }
        let rule = self.rule, speed = self.speed, accel = self.accel, coverage = self.coverage
        let linearSpeed = self.linearSpeed, sustain = self.sustain
        tick += 1
        let tick = self.tick
        // One exclusive access per buffer and frame, not one per entity.
        content.withUnsafeBufferPointer { content in
        contentStart.withUnsafeBufferPointer { contentStart in
        moving.withUnsafeBufferPointer { moving in
        prevFront.withUnsafeMutableBufferPointer { prevFront in
        prevUp.withUnsafeMutableBufferPointer { prevUp in
        centres.withUnsafeMutableBufferPointer { centres in
        below.withUnsafeMutableBufferPointer { below in
        runStart.withUnsafeMutableBufferPointer { runStart in
        runTick.withUnsafeMutableBufferPointer { runTick in
            for k in 0..<count {
                let e = moving[k]
                let front = f.front[e], up = f.upAxis[e]
                defer {
                    prevFront[k] = front; prevUp[k] = up
                    centres[next * count + k] = f.center[e]
                }
                // A list holding all of this one's was below the coverage this frame: so is this.
                let p = parent[k]
                if p >= 0 && below[p] == tick { below[k] = tick; continue }
                guard f.visible[e], dt > 0 else { continue }
                // The angular sizes' bound first (cheap: most moving content is small), then the
                // motion, and the grid only for a finding the motion would make.
                let entities = list(k, content, contentStart)
                guard grid.percentBound(of: entities, f, upTo: coverage * 100) >= coverage * 100 else { below[k] = tick; continue }
                var omega = 0.0
                if let pf = prevFront[k], let pu = prevUp[k] {
                    omega = max(Self.angle(pf, front), Self.angle(pu, up)) / dt
                }
                if f.angularWidth[e] < 359.9 { omega = max(omega, f.angularVelocity[e]) }
                // The second difference of the centre over the window W: |x(t) − 2x(t−W) +
                // x(t−2W)| / W², the change of the mean velocity over [t−W, t] from the one over
                // [t−2W, t−W], per W. Exact on a constant acceleration a (the difference is a·W²
                // wherever the frames fall); a keyframe corner that changes the velocity by Δv
                // reads at most Δv / W; keys every W with Δv per key read Δv / W throughout. (The
                // difference of two one-frame velocities W apart read a frame straddling a key as
                // a mixed velocity: a 0.4 m/s² ramp keyed every 0.25 s read 0.59.)
                var a = Double.nan, v = Double.nan
                let w = Double(window) * dt
                if n >= 2 * window {
                    a = length(f.center[e] - 2 * centres[back(window) + k] + centres[back(2 * window) + k]) / (w * w)
                }
                // Steady motion: the mean speed over the last window.
                if n >= window { v = length(f.center[e] - centres[back(window) + k]) / w }
                let turns = omega > speed, accelerates = a > accel, glides = v > linearSpeed
                guard turns || accelerates || glides else { continue }
                // The share is the finding's aux, kept only by a finding that becomes its
                // aggregate's worst (`Aggregate.record`): exact only then.
                // A run of steady motion goes on from the previous frame or starts here.
                var steady = false
                if glides {
                    if runTick[k] != tick - 1 { runStart[k] = f.time }
                    steady = f.time - runStart[k] >= sustain - 1e-9
                }
                let exact = !shortcuts || (turns && isNewWorst(&out, e, variant: 0, omega)) || (accelerates && isNewWorst(&out, e, variant: 1, a))
                    || (steady && isNewWorst(&out, e, variant: 2, v))
                guard let share = covering(entities, exact: exact, f) else { below[k] = tick; continue }
                if glides { runTick[k] = tick }
                if turns {
                    out.report(rule: rule, e, frame: f.frame, time: f.time, measured: omega, threshold: speed, aux: share * 100)
                }
                if accelerates {
                    out.report(rule: rule, e, frame: f.frame, time: f.time, measured: a, threshold: accel,
                               aux: share * 100, unit: "m/s²", variant: 1)
                }
                if steady {
                    out.report(rule: rule, e, frame: f.frame, time: f.time, measured: v, threshold: linearSpeed,
                               aux: share * 100, severity: .info, unit: "m/s", variant: 2)
                }
            }
        }}}}}}}
        // Filmed media: their lists follow the moving entities' in `content`.
        for (k, e) in filmed.enumerated() where f.visible[e] {
            guard let m = scene.entities[e].media else { continue }
            let share = self.share(of: count + k, f, content, contentStart)
            guard share >= coverage else { continue }
            if let w = m.cameraRotation, w > speed {
                out.report(rule: rule, e, frame: f.frame, time: f.time, measured: w, threshold: speed, aux: share * 100)
            }
            if let a = m.cameraAcceleration, a > accel {
                out.report(rule: rule, e, frame: f.frame, time: f.time, measured: a, threshold: accel,
                           aux: share * 100, unit: "m/s²", variant: 1)
            }
        }
        }}
        stored = min(stored + 1, ringSize)
        nextSlot = (next + 1) % ringSize
    }

    /// Whether a finding of `e` measuring `value` would become its aggregate's worst (both
    /// sub-checks are worse when higher), as `Aggregate.record` decides it.
    /// (`inout`: read in place, not copied.)
    private func isNewWorst(_ out: inout Findings, _ e: Int, variant: Int, _ value: Double) -> Bool {
        guard let agg = out.aggregate(for: FindingKey(rule: rule, e, variant: variant)) else { return true }
        return agg.measured.isNaN || value > agg.measured
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let what = names.joinedNames
        if agg.unit == "m/s" {
            return "\(what) covers \(fmt(agg.aux)) % of the field of view and keeps moving at up to \(fmt(agg.measured)) m/s (over \(fmt(agg.threshold)) m/s for \(fmt(sustain)) s or longer) without the person's control, which can make people feel the world moves around them; let the person drive the travel, slow it, or keep a stationary frame of reference in view"
        }
        if agg.unit == "m/s²" {
            return "\(what) covers \(fmt(agg.aux)) % of the field of view and accelerates at \(fmt(agg.measured)) m/s² (over \(fmt(agg.threshold))) without the person's control; ease it or let the person drive it"
        }
        return "\(what) covers \(fmt(agg.aux)) % of the field of view and turns at \(fmt(agg.measured))°/s (over \(fmt(agg.threshold))°/s) without the person's control, which can make people feel they move; slow it or let the person drive it"
    }
}

func comfortMotionFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [MotionVection.metadata.id]) { VectionRule($0) },
        RuleFactory(ids: [MotionReduceMotion.metadata.id]) { s in
            guard let r = s.index(MotionReduceMotion.metadata.id), s.scene.settings.reduceMotion else { return nil }
            let meta = MotionReduceMotion.metadata
            let limit = s.param(meta, "springOvershoot")
            var info: [Int: (anim: Animation, motion: AnimationMotion, start: Double)] = [:]
            let ents = s.scene.entities
            let eye = s.scene.viewer.path.first?.position ?? Vec3(0, s.scene.viewer.eyeHeight, 0)
            for a in s.scene.animations where s.scene.plays(a) && a.entity < ents.count {
                // A top-level world-anchored entity's keys are world positions: judged along the
                // viewer's line of sight.
                let worldKeys = ents[a.entity].parent == nil && ents[a.entity].anchor == .world
                var m = AnimationMotion(a, eye: worldKeys ? eye : nil)
                // Motion a person starts is theirs; only its springs are judged.
                if a.trigger == .user { m.scale = false; m.depth = false; m.slide = false; m.repeats = false }
                // A non-looping animation moves from the key its value first leaves on (keyframes at
                // t = 3 to 3.8 hold the first key's value before 3 s, and so do keys at 0 and 3 with
                // one value, s30 trial F11): earlier frames are not reported.
                func leaves<V>(_ keys: [Key<V>]) -> Double? {
                    zip(keys, keys.dropFirst()).first { $0.value != $1.value }.map(\.0.time)
                }
                let firstKey = a.channels.lazy.flatMap { [leaves($0.positions), leaves($0.rotations), leaves($0.scales)] }
                    .compactMap { $0 }.filter(\.isFinite).min() ?? 0
                let start = !a.loop && a.speed.isFinite && a.speed > 0 ? max(0, firstKey / a.speed) : 0
                if !m.kinds.isEmpty || m.overshoot > limit { info[a.entity] = (a, m, start) }
            }
            if info.isEmpty { return nil }
            let cands = info.keys.sorted()
            return ConditionRule(rule: r, meta: meta, candidates: cands, frameDuration: s.frameDuration, gate: .visible, check: { f, e in
                guard f.visible[e], let x = info[e] else { return nil }
                guard x.anim.loop || (f.time <= x.anim.endTime + 1e-9 && f.time >= x.start - 1e-9) else { return nil }
                let kinds = x.motion.kinds
                if !kinds.isEmpty {
                    return .init(measured: Double(kinds.count), threshold: 0, aux: Double(e))
                }
                return .init(measured: x.motion.overshoot, threshold: limit, severity: .info, aux: Double(e), unit: "%", variant: 1)
            }, message: { agg, names in
                let e = Int(agg.aux.isFinite ? agg.aux : -1)
                if agg.unit == "%" {
                    return "\(names.joinedNames) bounces \(fmt(agg.measured)) % past its end value while Reduce Motion is on (over \(fmt(agg.threshold)) %); tighten the spring"
                }
                let kinds = info[e]?.motion.kinds ?? []
                return "\(names.joinedNames) \(kinds.joinedNames) on its own while Reduce Motion is on; don't play it or replace it with a fade (animation reduceMotion: stop or fade), or start it from a gesture"
            })
        },
    ]
}
