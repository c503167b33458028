import Foundation
import SpatialModel
import Simulation

// Rules on where content that people touch, or that sits on their hands, is placed relative to
// the body: direct-touch content within arm's reach, and content kept off the palm, where the
// system shows its own hand overlays.

public enum TargetDirectReach: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-direct-reach", name: "Direct-touch content is within reach", category: .targets,
        defaultSeverity: .warning, thresholdKey: "reach",
        parameters: [
            RuleParameter("reach", 0.65, "m", .external("typical adult arm reach from the shoulder is 0.6–0.75 m (anthropometric tables)"), "farthest distance from a shoulder to the content's nearest point"),
            RuleParameter("shoulderDrop", 0.25, "m", .external("typical vertical distance from the eyes to the shoulder joints"), "how far below the eye the shoulders are estimated"),
            RuleParameter("shoulderHalfWidth", 0.18, "m", .external("half of a typical adult shoulder (biacromial) width"), "how far left and right of the eye the shoulders are estimated"),
        ],
        citations: [Citation("gestures", "visionOS"), Citation("designing-for-visionos", "Best practices")],
        summary: "Content that takes direct touch only (interaction: direct) is more than 0.65 m from the nearest shoulder, out of arm's reach.",
        rationale: "Direct gestures mean touching content with a finger or hand; the HIG keeps them for content close enough to reach comfortably. Content that only reacts to touch but sits beyond arm's reach makes people walk or lean to use it, or cannot be used at all from a seat.",
        fixHint: "Bring touchable content within about 0.65 m of the shoulders (about half a metre in front of a standing person's chest), or let it take indirect input too (interaction: both).",
        unit: "m", worse: .higher,
        notes: ["Candidates: interactive content stated interaction: direct (content that also takes indirect input can be used from afar). Hand-anchored content is on the hand and not judged.",
                "Shoulders: the eye position moved shoulderDrop down (world vertical) and shoulderHalfWidth to each side along the head's horizontal right axis. Measured: the distance from the nearer shoulder to the nearest point of the content's box.",
                "Reported over the frames the content is visible and out of reach; measured is the largest distance."])
}

public enum TargetHandKeepout: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-hand-keepout", name: "Content stays off the hand", category: .targets,
        defaultSeverity: .warning, thresholdKey: "keepout",
        parameters: [
            RuleParameter("keepout", 0.15, "m", .configurable("about one hand length: the region around the palm where the system shows its Home indicator and Control Center overlays"), "closest content may come to the palm centre while the palm faces the viewer"),
            RuleParameter("facing", 0.5, "cos", .configurable("the palm counts as turned toward the eyes within 60° (cos 60° = 0.5)"), "palm normal · direction to the eye above which the palm faces the viewer"),
        ],
        citations: [Citation("gestures", "Working with system overlays in visionOS")],
        summary: "Content within 0.15 m of the palm centre while the palm faces the viewer (warning); content anchored to the hand (info).",
        rationale: "visionOS shows system overlays at the hand: looking at a palm turned toward the face brings up the Home indicator and, with a tap, Control Center. The HIG asks apps to avoid anchoring content to the hand or wrist where possible, and content tied to a hand must stay clear of the hand itself so it neither hides nor fights those overlays.",
        fixHint: "Keep hand-attached content at least 0.15 m from the palm (offset it beside or above the hand), or anchor it to the world or a window instead.",
        unit: "m", worse: .lower,
        notes: ["Palm: the hand pose of the viewer (viewer.hand, by default the posture's pose, which is raised to look at the palm); its centre is the pose's position and its normal the pose's +Z axis, which points back at the eye by default. The palm faces the viewer while normal · (direction to the eye) > facing.",
                "Warning: while the palm faces the viewer, any visible window, volume, model, text or asset node whose box comes closer to the palm centre than keepout; measured is the distance (the smallest seen).",
                "The warning needs a hand the scene states: viewer.hand, or content anchored to the hand (then the posture's default pose stands for the hand holding it). A scene with neither is not judged as if a palm were raised toward the face all along (a board on a table 0.4 m in front of a seated viewer is not hand content).",
                "Info (sub-check `anchored`): content anchored to the hand (anchor: hand on an entity, or on an asset node), reported once per anchored subtree over the frames it is visible, unless a part of that subtree gets the warning: content the hand carries that comes within keepout of the palm is one problem, reported once, as the warning (its message says it is anchored to the hand); the info is for hand-anchored content that stays clear of the palm."],
        subchecks: [RuleSubcheck("anchored", unit: "count")])
}

/// Distance from `p` to entity `e`'s box in frame `f` (0 inside): its oriented box when the frame
/// has one, else its world bounds.
func distanceToBox(_ f: FrameQuantities, _ e: Int, from p: Vec3) -> Double {
    let o = 12 * e
    guard o + 11 < f.boxFrames.count else {
        let lo = f.boundsMin[e], hi = f.boundsMax[e]
        let q = Vec3(min(max(p.x, lo.x), hi.x), min(max(p.y, lo.y), hi.y), min(max(p.z, lo.z), hi.z))
        return length(p - q)
    }
    let c = Vec3(f.boxFrames[o], f.boxFrames[o + 1], f.boxFrames[o + 2])
    let d = p - c
    var nearest = c
    for k in 0..<3 {
        let a = f.boxAxis(e, k)
        let half = length(a)
        guard half > 1e-12 else { continue }
        let u = a / half
        nearest += u * min(max(dot(d, u), -half), half)
    }
    return length(p - nearest)
}

/// Whether entity `e`'s box certainly lies farther than `limit` from `p`, so that
/// `distanceToBox(f, e, from: p) ≥ limit`. Every point `distanceToBox` can pick as the nearest,
/// c + Σ t_k a_k with |t_k| ≤ 1 (half-axes a_k), is within R of the centre c, where
/// R² = Σ |a_k|² + 2 Σ_{i<j} |a_i · a_j| bounds |Σ t_k a_k|² (the box's circumradius for
/// orthogonal axes). So when |p − c| > limit + R, the distance is at least `limit`; the test keeps
/// a margin of 10⁻⁹ of the magnitudes involved, far above the rounding of either computation.
/// False when the entity has no box frame or a value is not finite (the distance is computed then).
func boxCertainlyFarther(_ f: FrameQuantities, _ e: Int, from p: Vec3, than limit: Double) -> Bool {
    f.boxFrames.withUnsafeBufferPointer { boxCertainlyFarther($0, e, from: p, than: limit) }
}

/// `boxCertainlyFarther` on the frame's `boxFrames`, for a loop over many entities.
@inline(__always)
func boxCertainlyFarther(_ b: UnsafeBufferPointer<Double>, _ e: Int, from p: Vec3, than limit: Double) -> Bool {
    let o = 12 * e
    guard e >= 0, o + 11 < b.count else { return false }
    let cx = b[o], cy = b[o + 1], cz = b[o + 2]
    let a0x = b[o + 3], a0y = b[o + 4], a0z = b[o + 5]
    let a1x = b[o + 6], a1y = b[o + 7], a1z = b[o + 8]
    let a2x = b[o + 9], a2y = b[o + 10], a2z = b[o + 11]
    let d01 = a0x * a1x + a0y * a1y + a0z * a1z, d02 = a0x * a2x + a0y * a2y + a0z * a2z
    let d12 = a1x * a2x + a1y * a2y + a1z * a2z
    let r2 = (a0x * a0x + a0y * a0y + a0z * a0z) + (a1x * a1x + a1y * a1y + a1z * a1z) + (a2x * a2x + a2y * a2y + a2z * a2z)
        + 2 * (abs(d01) + abs(d02) + abs(d12))
    let r = r2.squareRoot()
    let dx = p.x - cx, dy = p.y - cy, dz = p.z - cz
    let scale = 1 + max(abs(p.x), abs(p.y), abs(p.z)) + max(abs(cx), abs(cy), abs(cz)) + r + abs(limit)
    let reach = limit + r + 1e-9 * scale
    return reach >= 0 && reach.isFinite && dx * dx + dy * dy + dz * dz > reach * reach
}

func reachFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [TargetDirectReach.metadata.id]) { s in
            let m = TargetDirectReach.metadata
            guard let r = s.index(m.id) else { return nil }
            let reach = s.param(m, "reach"), drop = s.param(m, "shoulderDrop"), half = s.param(m, "shoulderHalfWidth")
            let candidates = s.scene.entities.indices.filter {
                let e = s.scene.entities[$0]
                return e.interactive && e.interaction == .direct && e.anchor != .hand
            }
            guard !candidates.isEmpty else { return nil }
            let fromUSD = Set(candidates.filter { inputFromUSD(s.scene.entities[$0]) })
            final class Shoulders { var frame = -1; var left = Vec3.zero; var right = Vec3.zero }
            let sh = Shoulders()
            return ConditionRule(rule: r, meta: m, candidates: candidates, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                if sh.frame != f.frame {
                    sh.frame = f.frame
                    let rightAxis = f.headRotation.act(Vec3(1, 0, 0))
                    let flat = Vec3(rightAxis.x, 0, rightAxis.z)
                    let side = length(flat) > 1e-9 ? flat / length(flat) : Vec3(1, 0, 0)
                    let base = f.headPosition - Vec3(0, drop, 0)
                    sh.left = base - side * half; sh.right = base + side * half
                }
                let d = min(distanceToBox(f, e, from: sh.left), distanceToBox(f, e, from: sh.right))
                return d > reach + 1e-9 ? .init(measured: d, threshold: reach, aux: fromUSD.contains(e) ? 1 : .nan) : nil
            }, message: { agg, names in
                "\(names.joinedNames) takes direct touch only but is \(fmt(agg.measured)) m from the nearer shoulder, beyond the \(fmt(agg.threshold)) m people can reach; move it within reach or let it take indirect input too (interaction: both)"
                    + (agg.aux == 1 ? rcpAllowedInputHint : "")
            })
        },
        RuleFactory(ids: [TargetHandKeepout.metadata.id]) { s in
            let m = TargetHandKeepout.metadata
            guard let r = s.index(m.id) else { return nil }
            let keepout = s.param(m, "keepout"), facing = s.param(m, "facing")
            let ents = s.scene.entities
            // The root of each hand-anchored subtree (elements follow their container).
            let anchored = ents.indices.filter { i in
                // Fields read in place: binding `ents[i]` would copy the whole entity.
                guard ents[i].anchor == .hand, ents[i].kind != .element else { return false }
                return ents[i].parent.map { ents.indices.contains($0) ? ents[$0].anchor != .hand : true } ?? true
            }
            let near: Set<EntityKind> = [.window, .volume, .model, .text, .node]
            let candidates = ents.indices.filter { near.contains(ents[$0].kind) }
            let hand = s.scene.viewer.hand
            let fallback = s.scene.viewer.posture.defaultHandPose
            // The palm is judged only where the scene states a hand (see the metadata's notes).
            let palmStated = s.scene.viewer.handGiven || !anchored.isEmpty
            // Per entity anchored to the hand: the root of its anchored subtree (its slot in
            // `anchored`), so a warning on any part of the subtree replaces the subtree's info.
            var rootOf: [Int: Int] = [:]
            var slot: [Int: Int] = [:]
            for (k, root) in anchored.enumerated() { slot[root] = k }
            for i in ents.indices where ents[i].anchor == .hand {
                var cur: Int? = i, steps = 0
                while let c = cur, ents.indices.contains(c), steps <= ents.count {
                    if let k = slot[c] { rootOf[i] = k; break }
                    cur = ents[c].parent; steps += 1
                }
            }
            final class Keepout: RuleProcessor {
                let rule: Int, anchored: [Int], candidates: [Int], keepout: Double, facing: Double
                let pose: (Double) -> (Vec3, Quat)
                let rootOf: [Int: Int]
                /// Skip the distance of boxes certainly farther than the keepout (`boxCertainlyFarther`).
                let skipFar = RuleShortcuts.enabled
                /// Per anchored subtree: the frame runs it was visible (the info, reported at the
                /// end unless a part of it got the warning: one problem, one finding) and whether
                /// it did.
                private var runs: [[(from: Int, fromTime: Double, to: Int, toTime: Double)]]
                private var warned: [Bool]
                init(_ r: Int, _ a: [Int], _ c: [Int], _ k: Double, _ fc: Double, _ roots: [Int: Int], _ p: @escaping (Double) -> (Vec3, Quat)) {
                    rule = r; anchored = a; candidates = c; keepout = k; facing = fc; rootOf = roots; pose = p
                    runs = Array(repeating: [], count: a.count); warned = Array(repeating: false, count: a.count)
                }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    for (k, e) in anchored.enumerated() where f.visible[e] {
                        if let last = runs[k].last, last.to == f.frame - 1 {
                            runs[k][runs[k].count - 1].to = f.frame; runs[k][runs[k].count - 1].toTime = f.time
                        } else {
                            runs[k].append((f.frame, f.time, f.frame, f.time))
                        }
                    }
                    let (hp, hq) = pose(f.time)
                    let palm = f.headPosition + f.headRotation.act(hp)
                    let normal = (f.headRotation * hq).normalized.act(Vec3(0, 0, 1))
                    let toEye = f.headPosition - palm
                    let dist = length(toEye)
                    guard dist > 1e-9, dot(normal, toEye / dist) > facing else { return }
                    let skipFar = self.skipFar, keepout = self.keepout, rule = self.rule
                    f.boxFrames.withUnsafeBufferPointer { boxes in
                    f.visible.withUnsafeBufferPointer { visible in
                    candidates.withUnsafeBufferPointer { candidates in
                        for e in candidates where visible[e] {
                            if skipFar, boxCertainlyFarther(boxes, e, from: palm, than: keepout) { continue }
                            let d = distanceToBox(f, e, from: palm)
                            if d < keepout - 1e-9 {
                                // Content the hand carries: aux 1, so the message says so.
                                let carried = rootOf[e]
                                if let k = carried { warned[k] = true }
                                out.report(rule: rule, e, frame: f.frame, time: f.time, measured: d, threshold: keepout,
                                           aux: carried == nil ? 0 : 1)
                            }
                        }
                    }}}
                }
                func finish(_ out: inout Findings, _ end: EndState) {
                    for (k, e) in anchored.enumerated() where !warned[k] {
                        for run in runs[k] {
                            out.reportRun(rule: rule, e, from: run.from, fromTime: run.fromTime, to: run.to, toTime: run.toTime,
                                          measured: 1, worstFrame: run.from, threshold: 0, severity: .info, unit: "count", variant: 1)
                        }
                    }
                }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    if agg.variant == 1 {
                        return "\(names.joinedNames) is anchored to the hand, where visionOS shows its Home indicator and Control Center; anchor it to the world or a window where you can, or keep it well clear of the palm"
                    }
                    if agg.aux == 1 {
                        return "\(names.joinedNames) is anchored to the hand and comes \(fmt(agg.measured)) m from the palm while the palm faces the viewer, inside the \(fmt(agg.threshold)) m kept clear for the system's Home indicator and Control Center; offset it beside or above the hand, at least \(fmt(agg.threshold)) m from the palm, or anchor it to the world or a window"
                    }
                    return "\(names.joinedNames) comes \(fmt(agg.measured)) m from the palm while the palm faces the viewer, inside the \(fmt(agg.threshold)) m kept clear for the system's hand overlays; move it away from the hand"
                }
            }
            return Keepout(r, anchored, palmStated ? candidates : [], keepout, facing, rootOf) { t in
                Simulator.sample(hand, at: t, default: (fallback.position, fallback.rotation))
            }
        },
    ]
}
