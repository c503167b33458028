import Foundation
import SpatialModel
import Simulation

// Posture: visionOS places windows and volumes relative to the head whether the person sits, stands
// or reclines; content an app fixes at a world height is where it is for one posture only.

public enum FovPostureVariants: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-posture-variants", name: "Absolute heights work in every posture", category: .fieldOfView,
        defaultSeverity: .info, thresholdKey: nil,
        parameters: [
            RuleParameter("seatedEyeHeight", 1.2, "m", .external("typical seated adult eye height (anthropometric tables)"), "eye height of the seated variant"),
            RuleParameter("standingEyeHeight", 1.6, "m", .external("typical standing adult eye height (anthropometric tables)"), "eye height of the standing variant"),
            RuleParameter("reclinedPitch", 30, "deg", .external("a person reclining in a chair or on a sofa looks up by about this much at rest"), "upward pitch of the head's resting line of sight in the reclined variant"),
            RuleParameter("floorContact", 0.05, "m", .configurable("content standing on the floor belongs there in every posture, like a real object"), "content whose lowest point is at most this high is on the floor and not judged"),
        ],
        citations: [Citation("designing-for-visionos", "Ergonomics"), Citation("spatial-layout", "Field of view"),
                    Citation("windows", "visionOS volumes")],
        summary: "Interactive or readable content placed at an absolute world height is more than 40° below or 20° above the comfortable line of sight when the person is seated (eye at 1.2 m), standing (1.6 m) or reclined (looking 30° up), although it is comfortable in the scene's own posture.",
        rationale: "visionOS places content relative to the wearer's head whether they sit, stand or lie down, so people can stay at rest. Content an app fixes at a height in the room assumes one posture: placed for a standing person it can sit high above a seated one, and content slightly below eye level is far below the line of sight of a person reclining.",
        fixHint: "Place the content relative to the viewer (placement, or the system's window and volume placement) instead of at a fixed world height, or let people move it; if it must stay fixed, keep it near eye level for the lowest and highest eye heights you support.",
        unit: "deg", worse: .higher,
        notes: ["Reading: judged are the interactive or readable world-anchored entities (the candidates of fov-vertical-comfort) under a top-level entity whose placementMode is absolute. placementMode defaults to headRelative for entities placed with `placement` and for windows and volumes (the system places those relative to the head whatever coordinates the scene gives), and to absolute for other top-level entities given a world `position` (models, text, groups at a fixed place in the room).",
                "Variants, computed per frame from the scene's own head path without running it again: seated and standing shift the eye by (variant eye height − the eye height at the first frame) vertically, and the elevation is that of the entity's centre against the world horizontal at the shifted eye; reclined keeps the eye and measures the elevation against a resting line of sight pitched 30° up (elevationWorld − 30°). A variant equal to the scene's own posture (the same eye height) adds nothing.",
                "Thresholds: fov-vertical-comfort's `below` (40°) and `above` (20°), as configured for that rule. Measured: the angle below or above the variant's resting line of sight at the worst frame; the message names every variant that fails and the worst one's elevation.",
                "Not judged: content standing on the floor (its lowest point at most 5 cm above y = 0 at that frame: a pet walking through the room, furniture), which belongs there whatever the person's posture; and scenes for iOS, where the camera, not a posture, sets the view.",
                "No double report: an entity that is outside the comfortable band at any frame in the scene's own posture is left to fov-vertical-comfort and not reported here."])
}

func postureFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [FovPostureVariants.metadata.id]) { s in
            let m = FovPostureVariants.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            // The top-level ancestor's placement mode decides for the whole subtree.
            func root(_ i: Int) -> Int {
                var j = i, steps = 0
                while let p = ents[j].parent, p >= 0, p < ents.count, steps < ents.count { j = p; steps += 1 }
                return j
            }
            let cands = ents.indices.filter {
                (ents[$0].interactive || ents[$0].isReadable) && ents[$0].anchor == .world
                    && ents[root($0)].placementMode == .absolute
            }
            guard !cands.isEmpty, s.scene.platform == .visionOS else { return nil }
            let v = FovVerticalComfort.metadata
            return PostureVariantsRule(rule: r, candidates: cands,
                                       below: s.param(v, "below"), above: s.param(v, "above"),
                                       seatedEye: s.param(m, "seatedEyeHeight"), standingEye: s.param(m, "standingEyeHeight"),
                                       reclinedPitch: s.param(m, "reclinedPitch"), floorContact: s.param(m, "floorContact"))
        },
    ]
}

/// `fov-posture-variants`: per frame and candidate, the elevation in each posture variant from the
/// frame's head position and the entity's centre (O(1) each, so linear in frames × candidates).
/// Findings are kept per entity until the end, because an entity that fails in the scene's own
/// posture at any frame belongs to fov-vertical-comfort and is dropped.
final class PostureVariantsRule: RuleProcessor {
    static let variantNames = ["seated", "standing", "reclined"]

    struct Run {
        var from: Int, to: Int, fromTime: Double, toTime: Double
        var measured: Double, worstFrame: Int, threshold: Double
        /// Variant (0 seated, 1 standing, 2 reclined) and side (−1 below, +1 above) at the worst frame.
        var variant: Int, side: Int
    }

    let rule: Int, candidates: [Int]
    let below: Double, above: Double, seatedEye: Double, standingEye: Double, reclinedPitch: Double, floorContact: Double
    /// Eye height at the first frame (the scene's own posture).
    var eye0: Double?
    var ownFails: [Bool]
    /// Per candidate: bit v set when variant v failed at some frame.
    var masks: [Int]
    var runs: [[Run]]

    init(rule: Int, candidates: [Int], below: Double, above: Double, seatedEye: Double, standingEye: Double, reclinedPitch: Double, floorContact: Double) {
        self.rule = rule; self.candidates = candidates
        self.below = below; self.above = above
        self.seatedEye = seatedEye; self.standingEye = standingEye; self.reclinedPitch = reclinedPitch
        self.floorContact = floorContact
        ownFails = Array(repeating: false, count: candidates.count)
        masks = Array(repeating: 0, count: candidates.count)
        runs = Array(repeating: [], count: candidates.count)
    }

    /// Signed excess outside [−below, +above]: (angle beyond, bound, side) or nil when inside.
    private func outside(_ el: Double) -> (measured: Double, threshold: Double, side: Int)? {
        if el < -below { return (-el, below, -1) }
        if el > above { return (el, above, 1) }
        return nil
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        let h = f.headPosition
        let y0: Double
        if let e = eye0 { y0 = e } else { y0 = h.y; eye0 = h.y }
        // Eye-height shifts of the seated and standing variants; a variant at the scene's own eye
        // height is the scene's own posture and adds nothing.
        let seatedShift: Double? = abs(seatedEye - y0) > 1e-9 ? seatedEye - y0 : nil
        let standingShift: Double? = abs(standingEye - y0) > 1e-9 ? standingEye - y0 : nil
        // One exclusive access per buffer and frame, not one per candidate.
        candidates.withUnsafeBufferPointer { candidates in
        ownFails.withUnsafeMutableBufferPointer { ownFails in
        masks.withUnsafeMutableBufferPointer { masks in
        runs.withUnsafeMutableBufferPointer { runs in
        for k in 0..<candidates.count {
            let e = candidates[k]
            guard f.visible[e], !ownFails[k] else { continue }
            let elW = f.elevationWorld[e]
            guard elW.isFinite else { continue }
            if outside(elW) != nil { ownFails[k] = true; runs[k] = []; continue }
            // On the floor: where it belongs in every posture.
            if f.boundsMin[e].y <= floorContact { continue }
            let c = f.center[e]
            let horiz = ((c.x - h.x) * (c.x - h.x) + (c.z - h.z) * (c.z - h.z)).squareRoot()
            var worst: (measured: Double, threshold: Double, side: Int, variant: Int)?
            for v in 0..<3 {
                let el: Double
                if v < 2 {
                    guard let dy = v == 0 ? seatedShift : standingShift else { continue }
                    let dyc = c.y - (h.y + dy)
                    guard horiz > 0 || dyc != 0 else { continue }
                    el = degrees(atan2(dyc, horiz))
                } else {
                    el = elW - reclinedPitch
                }
                guard let o = outside(el) else { continue }
                masks[k] |= 1 << v
                if worst == nil || o.measured > (worst?.measured ?? 0) { worst = (o.measured, o.threshold, o.side, v) }
            }
            guard let w = worst else { continue }
            if var last = runs[k].last, last.to == f.frame - 1 {
                last.to = f.frame; last.toTime = f.time
                if w.measured > last.measured {
                    last.measured = w.measured; last.worstFrame = f.frame; last.threshold = w.threshold
                    last.variant = w.variant; last.side = w.side
                }
                runs[k][runs[k].count - 1] = last
            } else {
                runs[k].append(Run(from: f.frame, to: f.frame, fromTime: f.time, toTime: f.time, measured: w.measured,
                                   worstFrame: f.frame, threshold: w.threshold, variant: w.variant, side: w.side))
            }
        }
        }}}}
    }

    func finish(_ out: inout Findings, _ end: EndState) {
        for (k, e) in candidates.enumerated() where !ownFails[k] {
            for run in runs[k] {
                // aux packs the failing variants (bits), the worst variant and its side for the message.
                let aux = Double(masks[k] * 8 + run.variant * 2 + (run.side < 0 ? 1 : 0))
                out.reportRun(rule: rule, e, from: run.from, fromTime: run.fromTime, to: run.to, toTime: run.toTime,
                              measured: run.measured, worstFrame: run.worstFrame, threshold: run.threshold, aux: aux)
            }
        }
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let code = agg.aux.isFinite && agg.aux >= 0 ? Int(agg.aux) : 0
        let mask = code / 8, worst = (code / 2) % 4, isBelow = code % 2 == 1
        let failing = (0..<3).filter { mask & (1 << $0) != 0 }.map { Self.variantNames[$0] }
        let posture: String
        switch worst {
        case 0: posture = "of a seated person (eye at \(fmt(seatedEye)) m)"
        case 1: posture = "of a standing person (eye at \(fmt(standingEye)) m)"
        default: posture = "of a reclined person (looking \(fmt(reclinedPitch))° up at rest)"
        }
        return "\(names.joinedNames) sits at a fixed world height that is comfortable in the scene's own posture but not when the person is \(failing.isEmpty ? "in another posture" : failing.joined(separator: ", ")): "
            + "\(fmt(agg.measured))° \(isBelow ? "below" : "above") the resting line of sight \(posture) (comfortable: \(fmt(below))° below to \(fmt(above))° above); "
            + "place it relative to the viewer instead of at a fixed height, or let people move it"
    }
}
