import Foundation
import CSpatialMath
import SpatialModel
import Simulation

public enum FovImportantCentered: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-important-centered", name: "Primary content stays centred", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: "centralCone",
        parameters: [
            RuleParameter("centralCone", 15, "deg", .external("typical comfortable eye-only rotation (ergonomics)"), "info when primary content is further than this from the line of sight"),
            RuleParameter("grace", 2, "s", .configurable("allows brief glances away"), "warning when primary content is not fully in the field of view for longer than this"),
        ],
        citations: [Citation("spatial-layout", "Field of view"), Citation("eyes", "Encouraging interaction"), Citation("layout", "Visual hierarchy")],
        summary: "Content marked primary sits off the centre of view (info), or leaves the comfortable field of view for more than 2 s (warning).",
        rationale: "The HIG asks to keep what matters in the middle of the field of view, also during immersive experiences, so people do not have to hunt for it or hold their head turned.",
        fixHint: "Place primary content straight ahead of the viewer (within 15° of the line of sight) and keep it there as the viewer moves.",
        unit: "deg", worse: .higher,
        notes: ["Every entity with primary: true counts as the active task while visible. The field of view is the scene's viewer.fieldOfView (default 90°×70°).",
                "Off centre (info): measured is the angle between the line of sight and the direction to the content's centre; reported on every frame it exceeds 15°.",
                "Out of view (sub-check `outOfView`, warning): less than three quarters of the content is inside the field of view for longer than the grace time. Measured: how long it stayed out, in seconds (the longest run); the spans cover each whole run, grace time included.",
                "Share in view: content entirely inside the field of view is in view; otherwise the share of its apparent rectangle (the rectangle across the line of sight to its centre that spans its angular width and height, as fov-window-clutter's coverage counts it) inside |azimuth| ≤ h/2, |elevation| ≤ v/2 of the head frame, horizontal share × vertical share. Content wider than most of the field of view cannot be entirely inside it after a glance: the HIG's default window (1280 × 720 pt at 2 m, 73.7° of the 90° view) turned 10° from is 97 % in view and stays in view; the same window 40° to the side is 57 % in view and is out. Content the eye is inside of is out of view."],
        subchecks: [RuleSubcheck("outOfView", unit: "s")])
}

public enum FovLaunchPlacement: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-launch-placement", name: "Content opens in front of the viewer", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: "centralCone",
        parameters: [RuleParameter("centralCone", 15, "deg", .external("typical comfortable eye-only rotation (ergonomics)"), "largest angle off the line of sight at open")],
        citations: [Citation("spatial-layout", "Field of view"), Citation("eyes", "Best practices"), Citation("designing-for-visionos", "Best practices")],
        summary: "Primary content is more than 15° off the line of sight, or not fully in view, when the scene starts or when a Full Space opens; another window or volume opens entirely beside or behind the field of view (info).",
        rationale: "The system opens the first window in front of people; content an app places itself should appear in front too, so nobody has to look for it.",
        fixHint: "Place primary content straight ahead of the head pose at launch (or at the moment the immersive space opens).",
        unit: "deg", worse: .higher,
        notes: ["Checked at frame 0 and at the first frame of each Full Space, for entities marked primary: when the style leaves shared (for mixed, progressive or full) and when it rises to progressive or full from a style without a boundary; the head pose of that frame is H0.",
                "Content hidden at those moments is judged when it is shown (a show event opens it), with the head pose of that frame.",
                "Measured is the angle off the line of sight. Content within the cone that is not fully in view gets the fix that applies: larger than the field of view (its angular width or height over viewer.fieldOfView's) → make it narrower or shorter, measured as that width or height against the field of view's (sub-check size, so that a baseline sees it grow); it fits but reaches past an edge → centre it or make it smaller.",
                "Other windows and volumes the app opens (not primary, not ornaments or nested in another entity): info when one opens entirely beside or behind the field of view (its azimuth in the head frame minus half its angular width beyond half of viewer.fieldOfView's width) at frame 0, or when it is shown later (sub-check outOfView, measured its azimuth against half the field of view's width, 45° by default). Above or below is fov-vertical-comfort's, as for fov-no-head-turn: people look down at content. A scene with no primary entity still gets this check: a participant window placed behind the viewer is named even when nothing is marked primary."],
        subchecks: [RuleSubcheck("size", unit: "deg"), RuleSubcheck("outOfView", unit: "deg")])
}

public enum FovNoHeadTurn: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-no-head-turn", name: "Interactive content within the resting field of view", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("designing-for-visionos", "Best practices"), Citation("eyes", "Best practices")],
        summary: "An interactive element lies outside the field of view of the resting head pose (world content: to the side; its height is fov-vertical-comfort's), or head-anchored content outside the head's field of view.",
        rationale: "People should reach what they must use without turning their head or moving; the HIG asks to keep interactive content within the field of view of the head at rest.",
        fixHint: "Bring the element within half the field of view (±45° horizontally by default) of the viewer's starting direction; head-anchored content within ±45° horizontally and ±35° vertically of the line of sight in the head frame, where it stays (world content's height is fov-vertical-comfort's).",
        unit: "deg", worse: .higher,
        notes: ["The resting pose is H0 (hig-rules §0.3): the head pose at t = 0, replaced by the head pose at each recenter event and when progressive or full immersion begins (the frame at which the event takes effect). Scene data has no 'required at' times, so every visible interactive element counts as required.",
                "Measured: the azimuth or elevation (whichever exceeds its half-FOV by more) relative to the resting pose; the field of view comes from viewer.fieldOfView.",
                "One vertical band (reading): for world-anchored content the vertical direction is fov-vertical-comfort's (40° below to 20° above the world horizontal), and this rule judges only the azimuth; head-anchored content is judged in both directions. The two rules cite the same HIG bullet (accessibility › visionOS: keep interface elements within the field of view, prefer horizontal layouts to vertical ones that strain the neck), and looking up or down at world content is a tilt of the neck, which the comfortable band judges; the ±35° half of the 70° default field of view is a deliberately conservative display number (hig-rules §0.3), and judging both would call a button 39° below comfortable by one rule and out of reach by the other. With fov-vertical-comfort turned off, this rule judges both directions again.",
                "Head-anchored content moves with the head, so it is judged where the head frame holds it (its azimuth and elevation off the line of sight in each frame, both directions), not against the resting pose: a head-locked button 30° to the right is 30° off wherever the viewer looks, and one 60° to the right can never be brought into view by turning (fov-head-locked reports head-locked content as such).",
                "Hand-anchored content is left out: it sits where viewer.hand holds it (by default 40.6° below the line of sight standing), wherever the viewer looks, so no placement in front of the resting pose applies to it."])
}

public enum FovHeadLocked: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-head-locked", name: "No head-locked content", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [
            RuleParameter("headTurn", 10, "deg", .configurable("a clear head movement"), "head rotation over the window that reveals head-lock"),
            RuleParameter("maxDirectionChange", 1, "deg", .configurable("world-anchored or lazily following content moves more than this"), "largest head-relative direction change of head-locked content"),
            RuleParameter("maxDistanceChange", 0.02, "m", .configurable("separates rigid head-lock from world anchoring"), "largest head-relative distance change of head-locked content"),
            RuleParameter("window", 2, "s", .configurable("long enough for a deliberate head turn"), "time window of the inference"),
        ],
        citations: [Citation("spatial-layout", "Field of view"), Citation("accessibility", "visionOS")],
        summary: "Content anchored to the head, or world content that follows the head rigidly.",
        rationale: "Content that moves with the head makes people feel stuck and confined, hides their surroundings and gets in the way of Pointer Control; the HIG asks to anchor content in the person's space.",
        fixHint: "Anchor the content in the world (anchor: world) and let people move it; if it must follow, let it lag and settle rather than lock to the head.",
        unit: "deg", worse: .higher,
        notes: ["anchor: head is reported on every visible frame. Measured: how long (s) the content stayed fixed in view, the longest continuous visible run (threshold 0 s: any time is too long); the message also gives the head rotation during that run.",
                "When the content covers more than 10 % of the field of view (angular width × height over the field of view's, at its largest), the message says so: large head-locked content also hides the surroundings.",
                "Inference for world-anchored top-level entities: at frame t, if the head turned ≥ 10° since t − 2 s while the entity's head-relative direction changed < 1° and its distance < 2 cm, and the entity itself moved more than 2 cm in the world over those 2 s (so still content that the viewer walks around while looking at it is not head-locked), frame t is reported; measured is the head turn. Only judged when the entity was visible over the whole window. The scene cannot say who leads: an app moving content with the head and a viewer following content that moves on its own look the same, so the message names both readings."])
}

public enum FovVerticalComfort: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-vertical-comfort", name: "Comfortable vertical placement", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [
            RuleParameter("below", 40, "deg", .external("ergonomic viewing zones sit below eye level"), "largest comfortable angle below the world horizontal"),
            RuleParameter("above", 20, "deg", .external("neck extension tires sooner than flexion"), "largest comfortable angle above the world horizontal"),
            RuleParameter("verticalSpan", 30, "deg", .configurable("a layout taller than this needs head tilts to scan"), "info when a container's interactive elements span more than this vertically, and more than horizontally"),
        ],
        citations: [Citation("accessibility", "visionOS")],
        summary: "Interactive or readable content more than 40° below or 20° above eye level; a container whose interactive elements are laid out taller than 30° and taller than wide (info).",
        rationale: "The HIG prefers horizontal layouts to tall ones that strain the neck; content far above or below eye level has to be reached by tilting the head.",
        fixHint: "Move the content closer to eye level, preferably slightly below it.",
        unit: "deg", worse: .higher,
        notes: ["Measured: the angle above or below the world horizontal at eye height (elevationWorld); the threshold is the bound on that side. World-anchored content only: head- and hand-anchored content moves with the head or hand, so looking at it does not mean tilting the neck toward a fixed place (hand-anchored content sits where viewer.hand holds it, by default 40.6° below the line of sight standing and 49.4° seated).",
                "Vertical layout (sub-check `span`, info, reported on the window or volume): each frame, over the container's visible interactive elements (at least two), the vertical span is max(elevation + angularHeight/2) − min(elevation − angularHeight/2) and the horizontal span max(azimuth + angularWidth/2) − min(azimuth − angularWidth/2), from each element's direction and angular extent seen from the eye in the head frame (azimuths taken relative to the first element, so a layout behind the viewer does not wrap). Reported when the vertical span exceeds 30° and the horizontal span; measured is the vertical span, and the message gives the horizontal one. Not judged while the eye is nearer to the container's centre than depth-near-brief-only's distance (0.5 m) or inside its bounds: a viewer walking through a window sees its two stacked buttons span 89°, which says where the eye is, not how the window is laid out."],
        subchecks: [RuleSubcheck("span", unit: "deg")])
}

public enum FovWindowClutter: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-window-clutter", name: "Not too many windows at once", category: .fieldOfView,
        defaultSeverity: .info, thresholdKey: "maxWindows",
        parameters: [
            RuleParameter("maxWindows", 3, "count", .configurable("one primary window plus two auxiliary ones"), "most windows and volumes open at once"),
            RuleParameter("maxCoverage", 60, "%", .configurable("leaves a visible share of passthrough"), "warning when the windows and volumes cover more of the field of view than this in the Shared Space"),
        ],
        citations: [Citation("spatial-layout", "Best practices"), Citation("windows", "visionOS windows")],
        summary: "More than three windows and volumes are open at the same time (info), or in the Shared Space they cover more than 60 % of the field of view (warning).",
        rationale: "Many windows hide the surroundings and can make people feel overwhelmed or boxed in.",
        fixHint: "Show fewer windows at once: combine related content or open auxiliary windows only on demand. For coverage, also make them smaller; moving them farther away helps only fixed-scale windows and volumes (dynamic-scale windows keep their angular size at any distance).",
        unit: "count", worse: .higher,
        notes: ["Count: windows and volumes open (shown) at the same frame, in view or not. A window or volume nested inside another window or volume (an ornament, an attachment) is part of it and not counted; it still counts toward coverage.",
                "Coverage (sub-check `coverage`, warning, only while the immersion style is shared): the solid angle of the union of the visible windows and volumes inside the field of view ÷ the field of view's solid angle, in %. The field of view is |azimuth| ≤ h/2, |elevation| ≤ v/2 in the head frame (viewer.fieldOfView), π/2 · 2 sin 35° = 1.80 sr by default. Each entity counts as its apparent rectangle: the rectangle across the line of sight to its centre that spans its angular width and height (as the simulator measures them), which for a flat window facing the eye is the window itself (a 1280 × 720 pt window, 73.7° × 45.7°, is 0.94 sr, 52 % of the view). Computed once per frame on a fixed 128 × 128 grid over the field of view, uniform in azimuth and elevation: a cell counts when the direction of its centre passes through a rectangle, and each row weighs its exact solid angle, Δazimuth · (sin e_top − sin e_bottom). Error: only cells an outline crosses can be misjudged, each by at most its weight (1/16384 of the view in azimuth, up to 1.06/16384 by elevation), so at worst about 2.4 % for a 1280 × 720 pt window's 380 outline cells; in practice the misjudged cells fall on both sides and the tests find the result within 0.5 percentage points of the exact value."],
        subchecks: [RuleSubcheck("coverage", unit: "%")])
}

extension FovImportantCentered {
    /// Share of an entity's apparent rectangle in view below which it counts as out of view.
    static let minShareInView = 0.75

    /// Share (0–1) of entity `e`'s apparent rectangle (centred on its azimuth and elevation in the
    /// head frame, its angular width by height) inside |azimuth| ≤ halfH, |elevation| ≤ halfV.
    /// Content the eye is inside of (360 × 180) or with no extent reads 0 unless entirely in view.
    static func shareInView(_ f: borrowing FrameQuantities, _ e: Int, halfH: Double, halfV: Double) -> Double {
        if f.fullyInFOV[e] { return 1 }
        let w = f.angularWidth[e], h = f.angularHeight[e], az = f.azimuth[e], el = f.elevation[e]
        guard w > 0, h > 0, w < 360, h < 180, w.isFinite, h.isFinite, az.isFinite, el.isFinite else { return 0 }
        let sh = max(0, min(az + w / 2, halfH) - max(az - w / 2, -halfH)) / w
        let sv = max(0, min(el + h / 2, halfV) - max(el - h / 2, -halfV)) / h
        return sh * sv
    }
}

func fovFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [FovImportantCentered.metadata.id]) { s in
            let ents = s.scene.entities
            let m = FovImportantCentered.metadata
            guard let r = s.index(m.id) else { return nil }
            let cone = s.param(m, "centralCone"), grace = s.param(m, "grace")
            let cands = ents.indices.filter { ents[$0].primary }
            let halfH = s.scene.viewer.fieldOfView.x / 2, halfV = s.scene.viewer.fieldOfView.y / 2
            let off = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                    gate: .above(\.eccentricity, cone), reads: .quantities, check: { f, e in
                f.visible[e] && f.eccentricity[e] > cone ? .init(measured: f.eccentricity[e], threshold: cone, severity: .info, angular: true) : nil
            }, message: { _, _ in "" })
            // Out of view (sub-check 1): measured is how long the run has lasted (n frames: n · dt).
            let out = ConditionRule(rule: r, meta: m, candidates: cands, dwell: grace, measuresRunLength: true,
                                    frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                f.visible[e] && !f.fullyInFOV[e] && FovImportantCentered.shareInView(f, e, halfH: halfH, halfV: halfV) < FovImportantCentered.minShareInView
                    ? .init(measured: 0, threshold: grace, severity: .warning, unit: "s", variant: 1) : nil
            }, message: { _, _ in "" })
            return MultiProcessor([off, out]) { _, agg, names in
                agg.variant == 1
                    ? "primary content \(names.joinedNames) stays partly out of the comfortable field of view (less than \(fmt(FovImportantCentered.minShareInView * 100)) % of it in view) for "
                        + (agg.measured > grace ? "up to \(fmt(agg.measured)) s at a time (more than \(fmt(grace)) s)" : "the last \(fmt(agg.measured)) s, and the scene comes to rest that way")
                        + "; place it where the viewer spends most time looking, or bring it back into view when they turn away for long"
                    : "primary content \(names.joinedNames) is up to \(fmt(agg.measured))° off the line of sight; keep it within \(fmt(cone))° of where the viewer usually looks"
            }
        },
        RuleFactory(ids: [FovNoHeadTurn.metadata.id]) { s in
            let ents = s.scene.entities
            let fovH = s.scene.viewer.fieldOfView.x, fovV = s.scene.viewer.fieldOfView.y
            let m = FovNoHeadTurn.metadata
            guard let r = s.index(m.id) else { return nil }
            let rest = RestingPose(s.scene)
            // Hand-held content is wherever the hand holds it: turning the head toward a fixed
            // place does not reach it (as fov-vertical-comfort, it is left out).
            let cands = ents.indices.filter { ents[$0].interactive && ents[$0].anchor != .hand }
            // One vertical band for world content: where it sits above or below is fov-vertical-
            // comfort's (from the world horizontal, 40° below to 20° above) while that rule runs, so
            // a button 39° below is not "comfortable" by one rule and "move it" by the other.
            let verticalElsewhere = s.index(FovVerticalComfort.metadata.id) != nil
            let horizontalOnly = ents.indices.map { verticalElsewhere && ents[$0].anchor == .world }
            // Head-anchored content moves with the head: it is where the head frame puts it
            // wherever the viewer looks, so it is judged there (the frame's azimuth and elevation,
            // both directions), not against the resting pose a turned head has left.
            let headAnchored = ents.indices.map { ents[$0].anchor == .head }
            // The verdict is a function of the entity's centre and the resting pose only: while
            // both are unchanged (still content; the pose changes only at its epochs) the last
            // result is reused instead of recomputed.
            func noHeadTurn(_ center: Vec3, horizontalOnly: Bool) -> ConditionRule.Hit? {
                let v = rest.inverseRotation.act(center - rest.position)
                let horiz = (v.x * v.x + v.z * v.z).squareRoot()
                guard horiz > 0 || v.y != 0 else { return nil }
                return beyond(az: degrees(atan2(v.x, -v.z)), el: degrees(atan2(v.y, horiz)), horizontalOnly: horizontalOnly)
            }
            func beyond(az: Double, el: Double, horizontalOnly: Bool) -> ConditionRule.Hit? {
                let exH = abs(az) - fovH / 2, exV = horizontalOnly ? -Double.infinity : abs(el) - fovV / 2
                guard exH > 0 || exV > 0 else { return nil }
                return exH >= exV ? .init(measured: abs(az), threshold: fovH / 2, aux: 0) : .init(measured: abs(el), threshold: fovV / 2, aux: 1)
            }
            let memo = RuleShortcuts.enabled ? CenterMemo(count: ents.count) : nil
            // The resting pose changes only at events, which no frame with the previous frame's values has.
            let rule = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, gate: .visible,
                                     reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                if headAnchored[e] {
                    // aux 2 / 3: horizontally / vertically, in the head frame (the message says so).
                    guard var hit = beyond(az: f.azimuth[e], el: f.elevation[e], horizontalOnly: false) else { return nil }
                    hit.aux += 2
                    return hit
                }
                let c = f.center[e]
                guard let memo else { return noHeadTurn(c, horizontalOnly: horizontalOnly[e]) }
                if let known = memo.lookup(e, c, epoch: rest.epoch) {
                    return known ? .init(measured: memo.measured[e], threshold: memo.threshold[e], aux: memo.aux[e]) : nil
                }
                let hit = noHeadTurn(c, horizontalOnly: horizontalOnly[e])
                memo.store(e, c, epoch: rest.epoch, hit)
                return hit
            }, message: { agg, names in
                let axis = agg.aux == 1 || agg.aux == 3 ? "vertically" : "horizontally"
                if agg.aux >= 2 {
                    return "\(names.joinedNames) is \(fmt(agg.measured))° \(axis) off the line of sight, beyond the \(fmt(agg.threshold))° half field of view; it is head-anchored, so it stays there wherever the viewer looks: move it within the field of view of the head frame"
                }
                return "\(names.joinedNames) is \(fmt(agg.measured))° \(axis) from the resting line of sight, beyond the \(fmt(agg.threshold))° half field of view; move it in front of the viewer's resting pose (where the viewer starts, enters immersion or last recentered)"
            })
            return HookedProcessor(rule, before: { rest.advance($0) })
        },
        RuleFactory(ids: [FovHeadLocked.metadata.id]) { s in HeadLockRule(s) },
        RuleFactory(ids: [FovLaunchPlacement.metadata.id]) { s in
            let m = FovLaunchPlacement.metadata
            guard let r = s.index(m.id) else { return nil }
            let cone = s.param(m, "centralCone")
            let ents = s.scene.entities
            let cands = ents.indices.filter { ents[$0].primary }
            // The other windows and volumes the app opens (top-level: not ornaments or windows
            // inside another entity), judged only for opening entirely out of view (sub-check
            // outOfView, info).
            let others = ents.indices.filter { i in
                !ents[i].primary && (ents[i].kind == .window || ents[i].kind == .volume) && ents[i].parent == nil
            }
            guard !cands.isEmpty || !others.isEmpty else { return nil }
            final class Launch: RuleProcessor {
                let rule: Int, cone: Double, cands: [Int], others: [Int], fov: SIMD2<Double>
                var previous: ImmersionStyle?
                /// Per candidate, then per other window or volume: visible on the previous frame
                /// (content that appears opens then).
                var wasVisible: [Bool]
                init(_ r: Int, _ c: Double, _ e: [Int], others: [Int], fov: SIMD2<Double>) {
                    rule = r; cone = c; cands = e; self.others = others; self.fov = fov
                    wasVisible = Array(repeating: false, count: e.count + others.count)
                }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    // Content hidden at the opening opens when it is shown.
                    var appearing: [Int] = []
                    for (k, e) in cands.enumerated() {
                        if f.visible[e] && !wasVisible[k] && previous != nil { appearing.append(e) }
                        wasVisible[k] = f.visible[e]
                    }
                    // Other windows and volumes at launch, or when they are shown: one that opens
                    // entirely outside the field of view is not seen until people turn to it. What is
                    // shown changes only at events, so the others are looked at only then.
                    for (k, e) in others.enumerated() where previous == nil || f.eventsTookEffect {
                        let shown = f.visible[e] && (previous == nil || !wasVisible[cands.count + k])
                        wasVisible[cands.count + k] = f.visible[e]
                        // Beside or behind the viewer: the image's near side past the field of view's
                        // edge. Above or below is fov-vertical-comfort's (people look down at content).
                        let az = abs(f.azimuth[e])
                        if shown, az - f.angularWidth[e] / 2 > fov.x / 2 {
                            out.report(rule: rule, e, frame: f.frame, time: f.time, measured: az, threshold: fov.x / 2,
                                       severity: .info, angular: true, variant: 2)
                        }
                    }
                    // A Full Space opens when the style leaves the Shared Space (to mixed, progressive
                    // or full), and the boundary's H0 is set again when progressive or full begins.
                    let opening: Bool
                    if let p = previous {
                        opening = f.immersion != p && ((p == .shared && f.immersion != .shared) || (f.immersion.hasBoundary && !p.hasBoundary))
                    } else {
                        opening = true
                    }
                    previous = f.immersion
                    let judged = opening ? cands : appearing
                    for e in judged where f.visible[e] && (f.eccentricity[e] > cone || !f.fullyInFOV[e]) {
                        // aux, for content within the cone that is not fully in view: its angular width
                        // when that is more than the field of view's, minus its height when that is,
                        // 0 when it fits but reaches past an edge; NaN for content off the cone.
                        var aux = Double.nan
                        if f.eccentricity[e] <= cone {
                            let w = f.angularWidth[e], h = f.angularHeight[e]
                            aux = w > fov.x && w / fov.x >= h / fov.y ? w : h > fov.y ? -h : 0
                        }
                        if aux.isFinite, aux != 0 {
                            // Larger than the field of view: measured by that size (sub-check size).
                            out.report(rule: rule, e, frame: f.frame, time: f.time, measured: abs(aux), threshold: aux > 0 ? fov.x : fov.y,
                                       aux: aux, angular: true, variant: 1)
                            continue
                        }
                        out.report(rule: rule, e, frame: f.frame, time: f.time, measured: f.eccentricity[e], threshold: cone,
                                   aux: aux, angular: true)
                    }
                }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    if agg.variant == 2 {
                        return "\(names.joinedNames) opens \(fmt(agg.measured))° to the side of the line of sight, entirely outside the field of view, so people do not see it until they turn to it; open it in front of them or next to the window they are using"
                    }
                    let a = agg.aux
                    if a > 0 {
                        return "primary content \(names.joinedNames) is \(fmt(a))° wide, wider than the \(fmt(fov.x))° field of view, so it cannot open fully in view; make it narrower"
                    } else if a < 0 {
                        return "primary content \(names.joinedNames) is \(fmt(-a))° tall, taller than the \(fmt(fov.y))° field of view, so it cannot open fully in view; make it shorter"
                    } else if a == 0 {
                        return "primary content \(names.joinedNames) opens \(fmt(agg.measured))° off the line of sight but reaches past the edge of the field of view; centre it in front of the viewer or make it smaller"
                    }
                    return "primary content \(names.joinedNames) opens \(fmt(agg.measured))° off the line of sight (or not fully in view); place it within \(fmt(cone))° in front of the viewer"
                }
            }
            return Launch(r, cone, cands, others: others, fov: s.scene.viewer.fieldOfView)
        },
        RuleFactory(ids: [FovVerticalComfort.metadata.id]) { s in
            let ents = s.scene.entities
            let m = FovVerticalComfort.metadata
            guard let r = s.index(m.id) else { return nil }
            let below = s.param(m, "below"), above = s.param(m, "above"), maxSpan = s.param(m, "verticalSpan")
            let cands = ents.indices.filter { (ents[$0].interactive || ents[$0].isReadable) && ents[$0].anchor == .world }
            let band = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                     gate: .outside(\.elevationWorld, -below, above), reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                let el = f.elevationWorld[e]
                if el < -below { return .init(measured: -el, threshold: below, aux: -1) }
                if el > above { return .init(measured: el, threshold: above, aux: 1) }
                return nil
            }, message: { _, _ in "" })
            // Vertical layout (sub-check 1): per container, the spans of its interactive elements.
            // Judged from where people use the layout: not while the eye is very close to the
            // container (depth-near-brief-only's distance) or inside it, where walking through a
            // window makes two stacked buttons span 89° and says nothing about the layout.
            let groups = ContainerGroups(ents) { ents[$0].interactive }
            let near = s.param(DepthNearBriefOnly.metadata, "distance")
            let span = ConditionRule(rule: r, meta: m, candidates: groups.containers, frameDuration: s.frameDuration,
                                     gate: .visible, reads: .quantities, check: { f, c in
                guard f.visible[c], f.distance[c] >= near, f.angularWidth[c] < 360,
                      let (v, h) = groups.spans(of: c, f), v > maxSpan, v > h else { return nil }
                return .init(measured: v, threshold: maxSpan, severity: .info, aux: h, variant: 1)
            }, message: { _, _ in "" })
            // An element sits where its window or volume puts it: the fix is to move that. The map
            // from element to container is only for messages: built on the first one that needs it.
            var containerOf: [String: String]?
            func container(of path: String) -> String? {
                if containerOf == nil {
                    var map: [String: String] = [:]
                    for e in cands where ents[e].kind == .element {
                        if let c = ents[e].container, c >= 0, c < ents.count { map[ents[e].path] = ents[c].path }
                    }
                    containerOf = map
                }
                return containerOf?[path]
            }
            return MultiProcessor([band, span]) { _, agg, names in
                if agg.variant == 1 {
                    return "the interactive elements of \(names.joinedNames) span \(fmt(agg.measured))° vertically but only \(fmt(agg.aux))° horizontally; lay them out horizontally (at most \(fmt(maxSpan))° tall) so people need not tilt their head to scan them"
                }
                let position = "\(names.joinedNames) is \(fmt(agg.measured))° \(agg.aux < 0 ? "below" : "above") eye level (comfortable: \(fmt(below))° below to \(fmt(above))° above)"
                if names.count == 1, let c = names.first.flatMap(container(of:)) {
                    let by = fmt(agg.measured - agg.threshold)
                    return position + "; \(agg.aux < 0 ? "raise" : "lower") \(c), which holds it, by at least \(by)° (or move it \(agg.aux < 0 ? "up" : "down") in \(c))"
                }
                return position + "; move it closer to eye level"
            }
        },
        RuleFactory(ids: [FovWindowClutter.metadata.id]) { s in
            let ents = s.scene.entities
            let m = FovWindowClutter.metadata
            guard let r = s.index(m.id) else { return nil }
            let maxN = s.param(m, "maxWindows"), maxCoverage = s.param(m, "maxCoverage")
            let wins = ents.indices.filter { ents[$0].kind == .window || ents[$0].kind == .volume }
            // Counted: windows and volumes not inside another one (a window nested in a window or
            // volume is an ornament or attachment of it, part of the same window).
            let isContainer = { (i: Int) in ents[i].kind == .window || ents[i].kind == .volume }
            let topLevel = wins.filter { w in
                var p = ents[w].parent
                while let q = p, q >= 0, q < ents.count { if isContainer(q) { return false }; p = ents[q].parent }
                return true
            }
            let count = ConditionRule(rule: r, meta: m, candidates: [-1], frameDuration: s.frameDuration, reads: .quantities, check: { f, _ in
                var n = 0
                for w in topLevel where f.visible[w] { n += 1 }
                return Double(n) > maxN ? .init(measured: Double(n), threshold: maxN) : nil
            }, message: { _, _ in "" })
            // Moving content away makes it cover less only at fixed scale: a dynamic-scale window
            // keeps its angular size at any distance (spatial-layout › Scale).
            let farther = wins.contains { ents[$0].scaleMode == .fixed }
                ? "move the fixed-scale ones farther away or "
                : "or "
            // Coverage (sub-check 1): once per frame over all windows and volumes, Shared Space only.
            let grid = FieldOfViewCoverage(fieldOfView: s.scene.viewer.fieldOfView)
            let bounded = RuleShortcuts.enabled
            let coverage = ConditionRule(rule: r, meta: m, candidates: wins.isEmpty ? [] : [-1], frameDuration: s.frameDuration,
                                         reads: .quantities, check: { f, _ in
                guard f.immersion == .shared else { return nil }
                // The angular sizes' bound first (never below the grid's share): most frames stay
                // under maxCoverage without the grid.
                guard !bounded || grid.percentBound(of: wins, f, upTo: maxCoverage) >= maxCoverage else { return nil }
                let pct = grid.percent(of: wins, f)
                return pct > maxCoverage ? .init(measured: pct, threshold: maxCoverage, severity: .warning, unit: "%", variant: 1) : nil
            }, message: { _, _ in "" })
            return MultiProcessor([count, coverage]) { _, agg, _ in
                agg.variant == 1
                    ? "windows and volumes cover \(fmt(agg.measured)) % of the field of view in the Shared Space (at most \(fmt(maxCoverage)) % recommended); make them smaller (by at least \(fmt(agg.measured - maxCoverage)) % of the view in all), \(farther)show fewer at once so people keep seeing their surroundings"
                    : "\(fmt(agg.measured)) windows and volumes are open at once, in view or not (at most \(fmt(maxN)) recommended); combine them or open the extra ones on demand"
            }
        },
    ]
}

/// `fov-window-clutter` coverage: the solid angle of the union of the windows' and volumes'
/// apparent rectangles inside the field of view, as a share of the field of view's solid angle.
///
/// The field of view is |azimuth| ≤ h/2, |elevation| ≤ v/2 in the head frame. It is sampled on a
/// fixed 128 × 128 grid, uniform in azimuth and elevation, two `UInt64`s of 64 columns per row; each
/// row weighs its exact solid angle, Δazimuth · (sin e_top − sin e_bottom). A cell is covered when
/// the direction of its centre passes through an entity's apparent rectangle: the rectangle across
/// the line of sight s to its centre, s ± tan(angularWidth/2) · right ± tan(angularHeight/2) · up
/// (right = s × head up, up = right × s, as the simulator measures the extents), which for a flat
/// window facing the eye is the window itself. Only the cells inside the rectangle's azimuth ×
/// elevation bounds (plus a cell) are tested, so the work is linear in the covered cells. The head-
/// frame directions of the cell centres are computed once; nothing is allocated per frame.
final class FieldOfViewCoverage {
    static let rows = 128, columns = 128, words = 2
    let halfH: Double, halfV: Double
    let cellH: Double, cellV: Double
    /// Solid-angle weight of each row as a share of the field of view (sums to 1).
    let rowWeight: [Double]
    /// Sine and cosine of each row's centre elevation (row 0 at the bottom) and of each column's
    /// centre azimuth: a cell centre's head-frame direction is (cos e · sin a, sin e, −cos e · cos a).
    private let rowSin: [Double], rowCos: [Double], colSin: [Double], colCos: [Double]
    private var mask: [UInt64]
    /// The field of view's solid angle (sr), h · 2 sin(v/2), the share's denominator.
    let solidAngle: Double
    /// `percentBound`'s widening (radians): half a cell's diagonal, with 1 % to spare for the
    /// difference between the great-circle and the azimuth × elevation distance across a cell.
    private let cellMargin: Double

    init(fieldOfView: SIMD2<Double>) {
        let h = fieldOfView.x.isFinite ? min(max(fieldOfView.x, 0), 360) : 0
        let v = fieldOfView.y.isFinite ? min(max(fieldOfView.y, 0), 180) : 0
        halfH = h / 2; halfV = v / 2
        cellH = h / Double(Self.columns); cellV = v / Double(Self.rows)
        var w: [Double] = []
        for r in 0..<Self.rows {
            let lo = -halfV + Double(r) * cellV
            w.append(sin(radians(lo + cellV)) - sin(radians(lo)))
        }
        let sum = w.reduce(0, +)
        rowWeight = w.map { sum > 0 && sum.isFinite ? $0 / sum : 0 }
        solidAngle = radians(h) * sum
        cellMargin = 1.01 * radians((cellH * cellH + cellV * cellV).squareRoot() / 2)
        let (hv, hh, cv, ch) = (v / 2, h / 2, v / Double(Self.rows), h / Double(Self.columns))
        let el = (0..<Self.rows).map { radians(-hv + (Double($0) + 0.5) * cv) }
        let az = (0..<Self.columns).map { radians(-hh + (Double($0) + 0.5) * ch) }
        rowSin = el.map(sin); rowCos = el.map(cos); colSin = az.map(sin); colCos = az.map(cos)
        mask = Array(repeating: 0, count: Self.rows * Self.words)
    }

    /// The cell index on an axis for an angle, clamped to the grid.
    private static func cell(_ angle: Double, start: Double, size: Double, count: Int) -> Int {
        guard angle.isFinite, size > 0 else { return angle > 0 ? count - 1 : 0 }
        return Int(max(0, min(Double(count - 1), ((angle - start) / size).rounded(.down))))
    }

    /// An upper bound of `percent(of: entities, f)` from the entities' angular sizes alone (no
    /// grid), for callers that only need the coverage when it may reach `limit` (%): the sum stops
    /// once it does. Per entity, with w × h its angular width × height in radians: its apparent
    /// rectangle's solid angle 4·asin(sin(w/2)·sin(h/2)) is at most w·h and its perimeter at most
    /// 2(w + h); a counted cell's centre lies in the rectangle, so the cell lies within δ (half a
    /// cell's diagonal) of it, and the counted cells within the rectangle widened by δ: at most
    /// w·h + 2(w + h)·δ + π·δ² sr. The union is at most the sum. An entity around the eye (the
    /// whole view, which the grid's rounding can put a hair above 100 %) and a field of view
    /// without a solid angle have no bound: +∞.
    func percentBound(of entities: [Int], _ f: FrameQuantities, upTo limit: Double) -> Double {
        entities.withUnsafeBufferPointer { percentBound(of: $0, f, upTo: limit) }
    }

    func percentBound(of entities: UnsafeBufferPointer<Int>, _ f: FrameQuantities, upTo limit: Double) -> Double {
        guard solidAngle > 0, solidAngle.isFinite else { return .infinity }
        let d = cellMargin
        var sum = 0.0
        for e in entities where f.visible[e] && f.inFOV[e] {
            let aw = f.angularWidth[e], ah = f.angularHeight[e]
            guard aw.isFinite, ah.isFinite, aw > 0, ah > 0 else { continue }
            if aw >= 180 || ah >= 180 || length(f.center[e] - f.headPosition) == 0 { return .infinity }
            let w = radians(aw), h = radians(ah)
            sum += 100 * (w * h + 2 * (w + h) * d + .pi * d * d) / solidAngle
            if sum >= limit { break }
        }
        return sum
    }

    /// Covered share of the field of view, in %, by the visible entities of `entities` that are in it.
    func percent(of entities: [Int], _ f: FrameQuantities) -> Double {
        entities.withUnsafeBufferPointer { percent(of: $0, f) }
    }

    func percent(of entities: UnsafeBufferPointer<Int>, _ f: FrameQuantities) -> Double {
        // One exclusive access to the mask for the whole frame.
        mask.withUnsafeMutableBufferPointer { percent(of: entities, f, mask: $0) }
    }

    /// `percent(of: entities, f)`, or nil once the union is known to cover more than `limit` (%):
    /// the grid stops when the running share of the rows filled so far passes `limit` by more than
    /// its rounding (the mask only grows, so the share cannot fall back below it). For callers that
    /// need the share only when it stays below `limit`.
    func percent(of entities: UnsafeBufferPointer<Int>, _ f: FrameQuantities, unlessAbove limit: Double) -> Double? {
        mask.withUnsafeMutableBufferPointer { mask in
            rowBits.withUnsafeMutableBufferPointer { rowBits in
                for r in rowBits.indices { rowBits[r] = 0 }
                var running = 0.0
                let target = limit + 1e-6
                let any = fill(entities, f, mask: mask) { r0, r1 in
                    // The rows the last rectangle touched: their new share replaces their old one.
                    for r in r0...r1 {
                        var n = 0
                        for k in 0..<Self.words { n += mask[r * Self.words + k].nonzeroBitCount }
                        if n != rowBits[r] {
                            running += rowWeight[r] * Double(n - rowBits[r]) / Double(Self.columns)
                            rowBits[r] = n
                        }
                    }
                    return 100 * running >= target
                }
                guard let any else { return nil }
                return any ? total(mask) : 0
            }
        }
    }

    /// Covered bits per row, for `covers`' running share.
    private var rowBits = Array(repeating: 0, count: FieldOfViewCoverage.rows)

    private func percent(of entities: UnsafeBufferPointer<Int>, _ f: FrameQuantities, mask: UnsafeMutableBufferPointer<UInt64>) -> Double {
        fill(entities, f, mask: mask) { _, _ in false } == true ? total(mask) : 0
    }

    /// The covered share of the view in % from a filled mask.
    private func total(_ mask: UnsafeMutableBufferPointer<UInt64>) -> Double {
        var covered = 0.0
        for r in 0..<Self.rows {
            var n = 0
            for k in 0..<Self.words { n += mask[r * Self.words + k].nonzeroBitCount }
            if n > 0 { covered += rowWeight[r] * Double(n) / Double(Self.columns) }
        }
        return 100 * covered
    }

    /// Fills `mask` with the cells the entities cover. Returns whether any entity was drawn, or
    /// nil when `stop` (called with the rows r0...r1 a rectangle was drawn on) said to stop.
    private func fill(_ entities: UnsafeBufferPointer<Int>, _ f: FrameQuantities, mask: UnsafeMutableBufferPointer<UInt64>,
                      stop: (Int, Int) -> Bool) -> Bool? {
        for k in mask.indices { mask[k] = 0 }
        let toHead = f.headRotation.conjugate
        let up = Vec3(0, 1, 0)
        var any = false
        var fullRows = 0
        for e in entities where f.visible[e] && f.inFOV[e] {
            let local = toHead.act(f.center[e] - f.headPosition)
            let aw = f.angularWidth[e], ah = f.angularHeight[e]
            guard aw.isFinite, ah.isFinite, aw > 0, ah > 0 else { continue }
            if aw >= 180 || ah >= 180 || length(local) == 0 {
                // The eye is inside (or nearly inside) the bounds: the whole view.
                for k in mask.indices { mask[k] = UInt64.max }
                any = true
                break
            }
            let s = normalize(local)
            var right = cross(s, up)
            right = length(right) < 1e-9 ? Vec3(1, 0, 0) : normalize(right)
            let u = cross(right, s)
            let tw = tan(radians(aw / 2)), th = tan(radians(ah / 2))
            let sx = s.x, sy = s.y, sz = s.z, rx = right.x, ry = right.y, rz = right.z, ux = u.x, uy = u.y, uz = u.z
            // Azimuth × elevation bounds from the corners and edge midpoints, widened by a cell.
            var azLo = Double.infinity, azHi = -Double.infinity, elLo = Double.infinity, elHi = -Double.infinity
            var wraps = false
            for k in 0..<8 {
                let i: Double = k < 3 ? -1 : (k < 5 ? 0 : 1)
                let j: Double = k < 3 ? Double(k - 1) : (k < 5 ? (k == 3 ? -1 : 1) : Double(k - 6))
                let p = s + (i * tw) * right + (j * th) * u
                if p.z >= 0 { wraps = true }
                let az = degrees(sm_atan2(p.x, -p.z)), el = degrees(sm_atan2(p.y, (p.x * p.x + p.z * p.z).squareRoot()))
                azLo = min(azLo, az); azHi = max(azHi, az); elLo = min(elLo, el); elHi = max(elHi, el)
            }
            // A rectangle around the straight-up (or -down) direction spans every azimuth up to 90°.
            let zenith = sy > 0 && abs(ry) <= tw * sy && abs(uy) <= th * sy
            let nadir = sy < 0 && abs(ry) <= -tw * sy && abs(uy) <= -th * sy
            if zenith { elHi = 90; wraps = true }
            if nadir { elLo = -90; wraps = true }
            let c0 = wraps ? 0 : Self.cell(azLo - cellH, start: -halfH, size: cellH, count: Self.columns)
            let c1 = wraps ? Self.columns - 1 : Self.cell(azHi + cellH, start: -halfH, size: cellH, count: Self.columns)
            let r0 = Self.cell(elLo - cellV, start: -halfV, size: cellV, count: Self.rows)
            let r1 = Self.cell(elHi + cellV, start: -halfV, size: cellV, count: Self.rows)
            guard c0 <= c1, r0 <= r1 else { continue }
            // The bits of columns c0...c1 in each word of a row.
            fullRows += Int(sm_cover_rect(rowSin, rowCos, colSin, colCos, Int32(Self.columns), Int32(Self.words), Int32(r0), Int32(r1), Int32(c0), Int32(c1),
                                          sm_vec3(x: sx, y: sy, z: sz), sm_vec3(x: rx, y: ry, z: rz),
                                          sm_vec3(x: ux, y: uy, z: uz), tw, th, mask.baseAddress))
            any = true
            if stop(r0, r1) { return nil }
            // Every row covered: the rest cannot add anything.
            if fullRows >= Self.rows { break }
        }
        return any
    }
}

/// The interactive elements of each window and volume, for per-container layout checks: a flat
/// list grouped by container, with each container's range (set up once, read per frame).
final class ContainerGroups {
    let containers: [Int]
    private let members: [Int]
    /// Each entity's range in `members` (empty for entities that are not such containers).
    private let range: [Range<Int>]

    init(_ ents: [Entity], _ include: (Int) -> Bool) {
        var by: [Int: [Int]] = [:]
        for i in ents.indices where ents[i].kind == .element || ents[i].kind == .node {
            guard let c = ents[i].container, c >= 0, c < ents.count, ents[c].kind == .window || ents[c].kind == .volume, include(i) else { continue }
            by[c, default: []].append(i)
        }
        var m: [Int] = [], r = Array(repeating: 0..<0, count: ents.count)
        let cs = by.keys.sorted().filter { (by[$0]?.count ?? 0) >= 2 }
        for c in cs {
            let list = by[c] ?? []
            r[c] = m.count..<(m.count + list.count)
            m += list
        }
        containers = cs; members = m; range = r
    }

    /// Vertical and horizontal angular span (degrees) of the visible members of container `c`,
    /// from their directions and angular extents in the head frame; nil with fewer than two.
    func spans(of c: Int, _ f: FrameQuantities) -> (vertical: Double, horizontal: Double)? {
        guard c >= 0, c < range.count else { return nil }
        let rg = range[c]
        var n = 0
        var ref = 0.0
        var top = -Double.infinity, bottom = Double.infinity, right = -Double.infinity, left = Double.infinity
        for k in rg {
            let e = members[k]
            guard f.visible[e] else { continue }
            let el = f.elevation[e], h = f.angularHeight[e] / 2, w = f.angularWidth[e] / 2
            var az = f.azimuth[e]
            guard el.isFinite, h.isFinite, w.isFinite, az.isFinite else { continue }
            if n == 0 { ref = az }
            // Relative to the first member, wrapped to ±180° (azimuths differ by less than 360°).
            var d = az - ref
            if d >= 180 { d -= 360 } else if d <= -180 { d += 360 }
            az = ref + d
            top = max(top, el + h); bottom = min(bottom, el - h)
            right = max(right, az + w); left = min(left, az - w)
            n += 1
        }
        guard n >= 2 else { return nil }
        return (top - bottom, right - left)
    }
}

/// `fov-head-locked`: declared head anchors, plus rigid head-following inferred over a time window.
final class HeadLockRule: RuleProcessor {
    let rule: Int
    let declared: [Int]
    let inferred: [Int]
    let window: Int
    let headTurn: Double, maxDir: Double, maxDist: Double
    private var headFwd: [Vec3]
    private var relDir: [Vec3]
    private var relDist: [Double]
    /// World centres over the window: content that rigidly follows a turning head moves in the
    /// world; still content the viewer walks around does not.
    private var worldCenter: [Vec3]
    private var filled = 0
    private var pos = 0
    private let dt: Double
    /// Per declared entity: start time and head forward of the current visible run (nil when hidden),
    /// and the largest head rotation since the run began.
    private var runStart: [Double?]
    /// Per inferred entity: the last frame it was hidden (-1: never); it is judged only when it was
    /// visible over the whole comparison window.
    private var lastHidden: [Int]
    private var runForward: [Vec3]
    private var runTurn: [Double]
    /// Largest share of the field of view each reported entity covered (its angular width × height
    /// over the field of view's), by entity path for the message; the catalog escalates above 10 %.
    private var cover: [String: Double] = [:]
    private let paths: [String]
    private let fieldOfView: SIMD2<Double>
    /// Paths of the declared entities whose head anchor is a USD Anchoring component (the fix is
    /// in Reality Composer Pro, not a scene key).
    private let anchoredInUSD: Set<String>

    init?(_ s: RuleSetup) {
        let m = FovHeadLocked.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        let ents = s.scene.entities
        // The outermost head-anchored entities: top-level ones, and asset nodes anchored by their facts.
        declared = ents.indices.filter { i in
            ents[i].anchor == .head && (ents[i].parent.map { ents.indices.contains($0) && ents[$0].anchor != .head } ?? true)
        }
        paths = ents.map(\.path)
        anchoredInUSD = Set(declared.filter { ents[$0].factSources.anchor == .file && ents[$0].usdPrim != nil }.map { ents[$0].path })
        fieldOfView = s.scene.viewer.fieldOfView
        dt = s.frameDuration
        runStart = Array(repeating: nil, count: declared.count)
        runForward = Array(repeating: Vec3(0, 0, -1), count: declared.count)
        runTurn = Array(repeating: 0, count: declared.count)
        let kinds: Set<EntityKind> = [.window, .volume, .model, .text]
        inferred = ents.indices.filter { ents[$0].anchor == .world && ents[$0].parent == nil && kinds.contains(ents[$0].kind) }
        lastHidden = Array(repeating: -1, count: inferred.count)
        headTurn = s.param(m, "headTurn"); maxDir = s.param(m, "maxDirectionChange"); maxDist = s.param(m, "maxDistanceChange")
        let w = s.param(m, "window") * s.scene.frameRate
        // Bound the ring buffers (slots × entities) so a huge configured window cannot exhaust memory.
        let cap = max(1, 4_000_000 / max(1, inferred.count))
        window = w.isFinite ? max(1, min(cap, Int(w.rounded()))) : 1
        let slots = window + 1
        headFwd = Array(repeating: Vec3(0, 0, -1), count: slots)
        // The rings grow by one slot per frame until they hold `slots` (`consume`): a slot is read
        // only once every slot has been written, so a short run does not fill (and touch) rings of
        // the whole window (2 s at 90 Hz × 2,500 inferred entities = 32 MB on the sparse 10k scene).
        relDir = []; relDir.reserveCapacity(slots * inferred.count)
        relDist = []; relDist.reserveCapacity(slots * inferred.count)
        worldCenter = []; worldCenter.reserveCapacity(slots * inferred.count)
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        for (k, e) in declared.enumerated() {
            guard f.visible[e] else { runStart[k] = nil; continue }
            if runStart[k] == nil { runStart[k] = f.time; runForward[k] = f.headForward; runTurn[k] = 0 }
            let turn = degrees(acos(max(-1, min(1, dot(normalize(runForward[k]), normalize(f.headForward))))))
            runTurn[k] = max(runTurn[k], turn)
            // A frame stands for its interval: after this frame the content has been locked in view
            // for t − t_start + dt seconds.
            out.report(rule: rule, e, frame: f.frame, time: f.time, measured: f.time - (runStart[k] ?? f.time) + dt,
                       threshold: 0, aux: runTurn[k], unit: "s")
            noteCover(e, f)
        }
        guard !inferred.isEmpty else { return }
        lastHidden.withUnsafeMutableBufferPointer { lastHidden in
            inferred.withUnsafeBufferPointer { inferred in
                for k in 0..<inferred.count where !f.visible[inferred[k]] { lastHidden[k] = f.frame }
            }
        }
        let slots = window + 1
        let inv = f.headRotation.conjugate
        headFwd[pos] = f.headForward
        // Directions in the head frame, kept unnormalised (normalised only when compared, on the
        // frames where the head has turned enough). One exclusive access per frame.
        let base = pos * inferred.count
        let missing = base + inferred.count - relDir.count
        if missing > 0 {
            // The first pass over the ring (pos = frames seen so far, the rings hold `base`
            // entries): this frame's slot is added, then written like any other.
            relDir.append(contentsOf: repeatElement(.zero, count: missing))
            relDist.append(contentsOf: repeatElement(0, count: missing))
            worldCenter.append(contentsOf: repeatElement(.zero, count: missing))
        }
        relDir.withUnsafeMutableBufferPointer { dir in
            relDist.withUnsafeMutableBufferPointer { dist in
                worldCenter.withUnsafeMutableBufferPointer { world in
                    let head = f.headPosition
                    inferred.withUnsafeBufferPointer { inferred in
                        for k in 0..<inferred.count {
                            let e = inferred[k], c = f.center[e]
                            dir[base + k] = inv.act(c - head)
                            dist[base + k] = f.distance[e]
                            world[base + k] = c
                        }
                    }
                }
            }
        }
        filled = min(filled + 1, slots)
        if filled == slots {
            let old = (pos + 1) % slots
            let turn = degrees(acos(max(-1, min(1, dot(normalize(headFwd[old]), normalize(f.headForward))))))
            if turn >= headTurn {
                // The direction changed by less than maxDir ⇔ its cosine is above cos(maxDir).
                let cosMaxDir = cos(radians(min(180, max(0, maxDir))))
                for (k, e) in inferred.enumerated() where f.visible[e] && lastHidden[k] < f.frame - window {
                    let i0 = old * inferred.count + k, i1 = pos * inferred.count + k
                    let a = normalize(relDir[i0]), b = normalize(relDir[i1])
                    if dot(a, b) > cosMaxDir, abs(relDist[i0] - relDist[i1]) < maxDist,
                       length(worldCenter[i1] - worldCenter[i0]) > maxDist {
                        out.report(rule: rule, e, frame: f.frame, time: f.time, measured: turn, threshold: headTurn)
                        noteCover(e, f)
                    }
                }
            }
        }
        pos = (pos + 1) % slots
    }

    private func noteCover(_ e: Int, _ f: FrameQuantities) {
        let area = fieldOfView.x * fieldOfView.y
        guard area > 0, e < paths.count else { return }
        let share = min(1, min(f.angularWidth[e], fieldOfView.x) * min(f.angularHeight[e], fieldOfView.y) / area)
        if share.isFinite, share > cover[paths[e], default: 0] { cover[paths[e]] = share }
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let share = names.compactMap { cover[$0] }.max() ?? 0
        let large = share > 0.1
            ? " It covers up to \(fmt(share * 100)) % of the field of view, so it also hides much of the surroundings and what people want to look at."
            : ""
        let usd = agg.unit == "s" && names.contains(where: anchoredInUSD.contains)
            ? " (in Reality Composer Pro: its Anchoring component's target is Head; change the target, or remove the component and place the entity in code)"
            : ""
        return lockMessage(agg, names) + usd + large
    }

    private func lockMessage(_ agg: Aggregate, _ names: [String]) -> String {
        agg.unit == "s"
            ? "\(names.joinedNames) is declared head-anchored (anchor: head), so it stays fixed in view for \(fmt(agg.measured)) s"
                + (agg.aux > 0 ? " while the head turns up to \(fmt(agg.aux))°" : "")
                + " and goes wherever the head goes; anchor it in the world (anchor: world) and let people move it, or, if it must stay near, make it lazily follow the head (lag and settle) instead of locking to it"
            : "\(names.joinedNames) moved with the head, keeping its place in view while the head turned \(fmt(agg.measured))°: if the app moves it with the head, anchor it in the world instead; if the viewer is following content that moves on its own (a bird in flight), nothing needs to change"
    }
}

/// Per entity, the last finding (or none) of a check that reads only the entity's centre and what
/// an "epoch" number versions (a resting pose, say): `lookup` returns it while the centre is the
/// same bit for bit and the epoch is the same, so still content is not recomputed. The buffers are
/// allocated once and read through pointers (no exclusivity check per access).
final class CenterMemo {
    private let count: Int
    /// Per entity: the centre's three bit patterns and the epoch + 1 (0: nothing stored).
    private let key: UnsafeMutablePointer<UInt64>
    let hit: UnsafeMutablePointer<Bool>
    let measured: UnsafeMutablePointer<Double>, threshold: UnsafeMutablePointer<Double>, aux: UnsafeMutablePointer<Double>

    init(count n: Int) {
        count = max(0, n)
        let capacity = max(1, count)
        key = .allocate(capacity: 4 * capacity); key.initialize(repeating: 0, count: 4 * capacity)
        hit = .allocate(capacity: capacity); hit.initialize(repeating: false, count: capacity)
        measured = .allocate(capacity: capacity); measured.initialize(repeating: .nan, count: capacity)
        threshold = .allocate(capacity: capacity); threshold.initialize(repeating: .nan, count: capacity)
        aux = .allocate(capacity: capacity); aux.initialize(repeating: .nan, count: capacity)
    }
    deinit {
        key.deallocate(); hit.deallocate(); measured.deallocate(); threshold.deallocate(); aux.deallocate()
    }

    /// Whether entity `e` had a finding when last checked with this centre and epoch; nil when it
    /// was not (or the entity is out of range).
    func lookup(_ e: Int, _ c: Vec3, epoch: Int) -> Bool? {
        guard e >= 0, e < count else { return nil }
        let o = 4 * e
        guard key[o + 3] == UInt64(truncatingIfNeeded: epoch) &+ 1, key[o] == c.x.bitPattern,
              key[o + 1] == c.y.bitPattern, key[o + 2] == c.z.bitPattern else { return nil }
        return hit[e]
    }

    func store(_ e: Int, _ c: Vec3, epoch: Int, _ h: ConditionRule.Hit?) {
        guard e >= 0, e < count else { return }
        let o = 4 * e
        key[o] = c.x.bitPattern; key[o + 1] = c.y.bitPattern; key[o + 2] = c.z.bitPattern
        key[o + 3] = UInt64(truncatingIfNeeded: epoch) &+ 1
        hit[e] = h != nil
        measured[e] = h?.measured ?? .nan; threshold[e] = h?.threshold ?? .nan; aux[e] = h?.aux ?? .nan
    }
}

/// H0 of hig-rules §0.3 for the field-of-view rules: the head pose at t = 0, replaced by the head
/// pose of the frame at which a recenter event, or a step into progressive or full immersion (the
/// immersive space opening, where the boundary origin is set), takes effect.
final class RestingPose {
    private var cursor: EventCursor
    private var style: ImmersionStyle
    private var started = false
    private(set) var position = Vec3.zero
    private(set) var inverseRotation = Quat.identity
    /// How many times the pose has been set (it changes only then).
    private(set) var epoch = 0
    init(_ scene: Scene) { cursor = EventCursor(scene); style = scene.immersion }
    /// Call once per frame, in frame order, before the rules read the pose.
    func advance(_ f: FrameQuantities) {
        var reset = !started
        started = true
        for ev in cursor.advance(to: f.time) {
            switch ev.action {
            case .recenter: reset = true
            case .setImmersion(let newStyle, _):
                if newStyle.hasBoundary && !style.hasBoundary { reset = true }
                style = newStyle
            case .show, .hide, .ar: break
            }
        }
        if reset { position = f.headPosition; inverseRotation = f.headRotation.conjugate; epoch += 1 }
    }
}
