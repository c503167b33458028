import Foundation
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
        notes: ["Every entity with primary: true counts as the active task while visible. The field of view is the scene's viewer.fieldOfView (default 90°×70°)."])
}

public enum FovLaunchPlacement: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-launch-placement", name: "Content opens in front of the viewer", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: "centralCone",
        parameters: [RuleParameter("centralCone", 15, "deg", .external("typical comfortable eye-only rotation (ergonomics)"), "largest angle off the line of sight at open")],
        citations: [Citation("spatial-layout", "Field of view"), Citation("eyes", "Best practices"), Citation("designing-for-visionos", "Best practices")],
        summary: "Primary content is more than 15° off the line of sight, or not fully in view, when the scene starts or when a Full Space opens.",
        rationale: "The system opens the first window in front of people; content an app places itself should appear in front too, so nobody has to look for it.",
        fixHint: "Place primary content straight ahead of the head pose at launch (or at the moment the immersive space opens).",
        unit: "deg", worse: .higher,
        notes: ["Checked at frame 0 and at the first frame of each progressive/full segment, for entities marked primary; the head pose of that frame is H0."])
}

public enum FovNoHeadTurn: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-no-head-turn", name: "Interactive content within the resting field of view", category: .fieldOfView,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("designing-for-visionos", "Best practices"), Citation("eyes", "Best practices")],
        summary: "An interactive element lies outside the field of view of the resting head pose.",
        rationale: "People should reach what they must use without turning their head or moving; the HIG asks to keep interactive content within the field of view of the head at rest.",
        fixHint: "Bring the element within half the field of view (±45° horizontally, ±35° vertically by default) of the viewer's starting direction.",
        unit: "deg", worse: .higher,
        notes: ["The resting pose is H0 (hig-rules §0.3): the head pose at t = 0, replaced by the head pose at each recenter event and when progressive or full immersion begins (the frame at which the event takes effect). Scene data has no 'required at' times, so every visible interactive element counts as required.",
                "Measured: the azimuth or elevation (whichever exceeds its half-FOV by more) relative to the resting pose; the field of view comes from viewer.fieldOfView."])
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
                "Inference for world-anchored top-level entities: at frame t, if the head turned ≥ 10° since t − 2 s while the entity's head-relative direction changed < 1° and its distance < 2 cm, frame t is reported; measured is the head turn."])
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
        notes: ["Measured: the angle above or below the world horizontal at eye height (elevationWorld); the threshold is the bound on that side.",
                "Vertical layout (sub-check `span`, info, reported on the window or volume): each frame, over the container's visible interactive elements (at least two), the vertical span is max(elevation + angularHeight/2) − min(elevation − angularHeight/2) and the horizontal span max(azimuth + angularWidth/2) − min(azimuth − angularWidth/2), from each element's direction and angular extent seen from the eye in the head frame (azimuths taken relative to the first element, so a layout behind the viewer does not wrap). Reported when the vertical span exceeds 30° and the horizontal span; measured is the vertical span, and the message gives the horizontal one."],
        subchecks: [RuleSubcheck("span", unit: "deg")])
}

public enum FovWindowClutter: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "fov-window-clutter", name: "Not too many windows at once", category: .fieldOfView,
        defaultSeverity: .info, thresholdKey: "maxWindows",
        parameters: [
            RuleParameter("maxWindows", 3, "count", .configurable("one primary window plus two auxiliary ones"), "most windows and volumes visible at once"),
            RuleParameter("maxCoverage", 60, "%", .configurable("leaves a visible share of passthrough"), "warning when the windows and volumes cover more of the field of view than this in the Shared Space"),
        ],
        citations: [Citation("spatial-layout", "Best practices"), Citation("windows", "visionOS windows")],
        summary: "More than three windows and volumes are visible at the same time (info), or in the Shared Space they cover more than 60 % of the field of view (warning).",
        rationale: "Many windows hide the surroundings and can make people feel overwhelmed or boxed in.",
        fixHint: "Show fewer windows at once: combine related content or open auxiliary windows only on demand.",
        unit: "count", worse: .higher,
        notes: ["Count: windows and volumes visible at the same frame, in view or not.",
                "Coverage (sub-check `coverage`, warning, only while the immersion style is shared): the solid angle of the union of the visible windows' and volumes' angular rectangles inside the field of view ÷ the field of view's solid angle, in %. A rectangle is the centre's azimuth and elevation (head frame) ± angularWidth/2 and ± angularHeight/2, clipped to the field of view (viewer.fieldOfView: ±h/2 in azimuth, ±v/2 in elevation); solid angle is measured in azimuth × elevation, Δazimuth · (sin e_top − sin e_bottom), so the field of view is h · 2 sin(v/2). Computed once per frame, exactly for up to 64 rectangles in view (a sweep over their elevation edges, merging the azimuth intervals of each band). Beyond 64 (no real layout) the union is rasterised on a fixed 64 × 64 grid over the field of view instead (a cell counts when its centre is covered; rows weigh their exact solid angle), which keeps the work linear: a cell cut by an edge is misjudged by at most half its area, so each rectangle adds at most one column and one row of cells to the error, about 1/64 + 1.06/64 ≈ 3.2 % of the default 90° × 70° field of view."],
        subchecks: [RuleSubcheck("coverage", unit: "%")])
}

func fovFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [FovImportantCentered.metadata.id]) { s in
            let ents = s.scene.entities
            let fovH = s.scene.viewer.fieldOfView.x, fovV = s.scene.viewer.fieldOfView.y
            _ = (ents, fovH, fovV)
            let m = FovImportantCentered.metadata
            guard let r = s.index(m.id) else { return nil }
            let cone = s.param(m, "centralCone"), grace = s.param(m, "grace")
            let cands = ents.indices.filter { ents[$0].primary }
            let off = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                f.visible[e] && f.eccentricity[e] > cone ? .init(measured: f.eccentricity[e], threshold: cone, severity: .info, angular: true) : nil
            }, message: { _, _ in "" })
            let out = ConditionRule(rule: r, meta: m, candidates: cands, dwell: grace, frameDuration: s.frameDuration, check: { f, e in
                f.visible[e] && !f.fullyInFOV[e] ? .init(measured: f.eccentricity[e], threshold: cone, severity: .warning) : nil
            }, message: { _, _ in "" })
            return MultiProcessor([off, out]) { _, agg, names in
                agg.severity == .warning
                    ? "primary content \(names.joinedNames) leaves the comfortable field of view for more than \(fmt(grace)) s (up to \(fmt(agg.measured))° off the line of sight); keep it within \(fmt(cone))° of where the viewer looks"
                    : "primary content \(names.joinedNames) is up to \(fmt(agg.measured))° off the line of sight; keep it within \(fmt(cone))°"
            }
        },
        RuleFactory(ids: [FovNoHeadTurn.metadata.id]) { s in
            let ents = s.scene.entities
            let fovH = s.scene.viewer.fieldOfView.x, fovV = s.scene.viewer.fieldOfView.y
            _ = (ents, fovH, fovV)
            let m = FovNoHeadTurn.metadata
            guard let r = s.index(m.id) else { return nil }
            let rest = RestingPose(s.scene)
            let cands = ents.indices.filter { ents[$0].interactive }
            let rule = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                guard f.visible[e] else { return nil }
                let v = rest.inverseRotation.act(f.center[e] - rest.position)
                let horiz = (v.x * v.x + v.z * v.z).squareRoot()
                guard horiz > 0 || v.y != 0 else { return nil }
                let az = degrees(atan2(v.x, -v.z)), el = degrees(atan2(v.y, horiz))
                let exH = abs(az) - fovH / 2, exV = abs(el) - fovV / 2
                guard exH > 0 || exV > 0 else { return nil }
                return exH >= exV ? .init(measured: abs(az), threshold: fovH / 2, aux: 0) : .init(measured: abs(el), threshold: fovV / 2, aux: 1)
            }, message: { agg, names in
                let axis = agg.aux == 1 ? "vertically" : "horizontally"
                return "\(names.joinedNames) is \(fmt(agg.measured))° \(axis) from the resting line of sight, beyond the \(fmt(agg.threshold))° half field of view; move it in front of the viewer's resting pose (where the viewer starts, enters immersion or last recentered)"
            })
            return HookedProcessor(rule, before: { rest.advance($0) })
        },
        RuleFactory(ids: [FovHeadLocked.metadata.id]) { s in HeadLockRule(s) },
        RuleFactory(ids: [FovLaunchPlacement.metadata.id]) { s in
            let m = FovLaunchPlacement.metadata
            guard let r = s.index(m.id) else { return nil }
            let cone = s.param(m, "centralCone")
            let cands = s.scene.entities.indices.filter { s.scene.entities[$0].primary }
            guard !cands.isEmpty else { return nil }
            final class Launch: RuleProcessor {
                let rule: Int, cone: Double, cands: [Int]
                var previous: ImmersionStyle?
                init(_ r: Int, _ c: Double, _ e: [Int]) { rule = r; cone = c; cands = e }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    let opening = previous == nil || (f.immersion.hasBoundary && !(previous?.hasBoundary ?? false))
                    previous = f.immersion
                    guard opening else { return }
                    for e in cands where f.visible[e] && (f.eccentricity[e] > cone || !f.fullyInFOV[e]) {
                        out.report(rule: rule, e, frame: f.frame, time: f.time, measured: f.eccentricity[e], threshold: cone, angular: true)
                    }
                }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    "primary content \(names.joinedNames) opens \(fmt(agg.measured))° off the line of sight (or not fully in view); place it within \(fmt(cone))° in front of the viewer"
                }
            }
            return Launch(r, cone, cands)
        },
        RuleFactory(ids: [FovVerticalComfort.metadata.id]) { s in
            let ents = s.scene.entities
            let fovH = s.scene.viewer.fieldOfView.x, fovV = s.scene.viewer.fieldOfView.y
            _ = (ents, fovH, fovV)
            let m = FovVerticalComfort.metadata
            guard let r = s.index(m.id) else { return nil }
            let below = s.param(m, "below"), above = s.param(m, "above"), maxSpan = s.param(m, "verticalSpan")
            let cands = ents.indices.filter { (ents[$0].interactive || ents[$0].isReadable) && ents[$0].anchor == .world }
            let band = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                guard f.visible[e] else { return nil }
                let el = f.elevationWorld[e]
                if el < -below { return .init(measured: -el, threshold: below, aux: -1) }
                if el > above { return .init(measured: el, threshold: above, aux: 1) }
                return nil
            }, message: { _, _ in "" })
            // Vertical layout (sub-check 1): per container, the spans of its interactive elements.
            let groups = ContainerGroups(ents) { ents[$0].interactive }
            let span = ConditionRule(rule: r, meta: m, candidates: groups.containers, frameDuration: s.frameDuration, check: { f, c in
                guard f.visible[c], let (v, h) = groups.spans(of: c, f), v > maxSpan, v > h else { return nil }
                return .init(measured: v, threshold: maxSpan, severity: .info, aux: h, variant: 1)
            }, message: { _, _ in "" })
            return MultiProcessor([band, span]) { _, agg, names in
                agg.variant == 1
                    ? "the interactive elements of \(names.joinedNames) span \(fmt(agg.measured))° vertically but only \(fmt(agg.aux))° horizontally; lay them out horizontally (at most \(fmt(maxSpan))° tall) so people need not tilt their head to scan them"
                    : "\(names.joinedNames) is \(fmt(agg.measured))° \(agg.aux < 0 ? "below" : "above") eye level (comfortable: \(fmt(below))° below to \(fmt(above))° above); move it closer to eye level"
            }
        },
        RuleFactory(ids: [FovWindowClutter.metadata.id]) { s in
            let ents = s.scene.entities
            let fovH = s.scene.viewer.fieldOfView.x, fovV = s.scene.viewer.fieldOfView.y
            _ = (ents, fovH, fovV)
            let m = FovWindowClutter.metadata
            guard let r = s.index(m.id) else { return nil }
            let maxN = s.param(m, "maxWindows"), maxCoverage = s.param(m, "maxCoverage")
            let wins = ents.indices.filter { ents[$0].kind == .window || ents[$0].kind == .volume }
            let count = ConditionRule(rule: r, meta: m, candidates: [-1], frameDuration: s.frameDuration, check: { f, _ in
                var n = 0
                for w in wins where f.visible[w] { n += 1 }
                return Double(n) > maxN ? .init(measured: Double(n), threshold: maxN) : nil
            }, message: { _, _ in "" })
            // Coverage (sub-check 1): once per frame over all windows and volumes, Shared Space only.
            let grid = FieldOfViewCoverage(fieldOfView: s.scene.viewer.fieldOfView, capacity: wins.count)
            let coverage = ConditionRule(rule: r, meta: m, candidates: wins.isEmpty ? [] : [-1], frameDuration: s.frameDuration, check: { f, _ in
                guard f.immersion == .shared else { return nil }
                let pct = grid.percent(of: wins, f)
                return pct > maxCoverage ? .init(measured: pct, threshold: maxCoverage, severity: .warning, unit: "%", variant: 1) : nil
            }, message: { _, _ in "" })
            return MultiProcessor([count, coverage]) { _, agg, _ in
                agg.variant == 1
                    ? "windows and volumes cover \(fmt(agg.measured)) % of the field of view in the Shared Space (at most \(fmt(maxCoverage)) % recommended); make them smaller, move them farther away or show fewer at once so people keep seeing their surroundings"
                    : "\(fmt(agg.measured)) windows and volumes are visible at once (at most \(fmt(maxN)) recommended); combine them or open the extra ones on demand"
            }
        },
    ]
}

/// `fov-window-clutter` coverage: the union of angular rectangles (azimuth × elevation in the head
/// frame, clipped to the field of view) as a share of the field of view's solid angle.
///
/// Exact for up to `exactLimit` rectangles: a sweep over their elevation edges, where each band
/// between consecutive edges contributes its merged azimuth length × (sin e_top − sin e_bottom).
/// That is quadratic in the rectangles, so beyond the limit (never in a real layout) the union is
/// rasterised on a fixed 64 × 64 grid instead, one `UInt64` of 64 columns per row, in linear time.
/// No allocation per frame: the buffers are sized at setup and reused.
final class FieldOfViewCoverage {
    static let rows = 64, columns = 64, exactLimit = 64
    let halfH: Double, halfV: Double
    let cellH: Double, cellV: Double
    /// Solid-angle weight of each grid row as a share of the field of view (sums to 1).
    let rowWeight: [Double]
    /// Solid angle of the field of view in steradians: h · 2 sin(v/2).
    let total: Double
    private var mask: [UInt64]
    private var a0: [Double] = [], a1: [Double] = [], e0: [Double] = [], e1: [Double] = []
    private var edges: [Double] = []
    private var order: [Int] = []

    init(fieldOfView: SIMD2<Double>, capacity: Int) {
        halfH = fieldOfView.x / 2; halfV = fieldOfView.y / 2
        cellH = fieldOfView.x / Double(Self.columns); cellV = fieldOfView.y / Double(Self.rows)
        total = radians(fieldOfView.x) * 2 * sin(radians(fieldOfView.y / 2))
        var w = (0..<Self.rows).map { r -> Double in
            let lo = -fieldOfView.y / 2 + Double(r) * fieldOfView.y / Double(Self.rows)
            return sin(radians(lo + fieldOfView.y / Double(Self.rows))) - sin(radians(lo))
        }
        let sum = w.reduce(0, +)
        w = w.map { sum > 0 && sum.isFinite ? $0 / sum : 0 }
        rowWeight = w
        mask = Array(repeating: 0, count: Self.rows)
        for buffer in [\FieldOfViewCoverage.a0, \.a1, \.e0, \.e1] { self[keyPath: buffer].reserveCapacity(capacity) }
        edges.reserveCapacity(2 * min(capacity, Self.exactLimit))
        order.reserveCapacity(min(capacity, Self.exactLimit))
    }

    /// Covered share of the field of view, in %, by the visible entities of `entities` that are in it.
    func percent(of entities: [Int], _ f: FrameQuantities) -> Double {
        guard total > 0, total.isFinite else { return 0 }
        a0.removeAll(keepingCapacity: true); a1.removeAll(keepingCapacity: true)
        e0.removeAll(keepingCapacity: true); e1.removeAll(keepingCapacity: true)
        for e in entities where f.visible[e] && f.inFOV[e] {
            let az = f.azimuth[e], el = f.elevation[e]
            let w = f.angularWidth[e] / 2, h = f.angularHeight[e] / 2
            let l = max(-halfH, az - w), r = min(halfH, az + w), b = max(-halfV, el - h), t = min(halfV, el + h)
            guard l.isFinite, r.isFinite, b.isFinite, t.isFinite, r > l, t > b else { continue }
            a0.append(l); a1.append(r); e0.append(b); e1.append(t)
        }
        if a0.isEmpty { return 0 }
        return 100 * (a0.count <= Self.exactLimit ? exact() : rasterised())
    }

    /// Sweep over the elevation edges (insertion sorts: at most `exactLimit` rectangles).
    private func exact() -> Double {
        let n = a0.count
        edges.removeAll(keepingCapacity: true); order.removeAll(keepingCapacity: true)
        for k in 0..<n { edges.append(e0[k]); edges.append(e1[k]); order.append(k) }
        for i in 1..<edges.count {
            let x = edges[i]; var j = i - 1
            while j >= 0 && edges[j] > x { edges[j + 1] = edges[j]; j -= 1 }
            edges[j + 1] = x
        }
        for i in 1..<n {
            let x = order[i]; var j = i - 1
            while j >= 0 && a0[order[j]] > a0[x] { order[j + 1] = order[j]; j -= 1 }
            order[j + 1] = x
        }
        var covered = 0.0
        for i in 1..<edges.count where edges[i] > edges[i - 1] {
            let lo = edges[i - 1], hi = edges[i], mid = (lo + hi) / 2
            // Azimuth union of the rectangles spanning this band (walked in order of left edge).
            var length = 0.0, start = 0.0, end = -Double.infinity
            for k in order where e0[k] < mid && mid < e1[k] {
                if a0[k] > end {
                    if end > start { length += end - start }
                    start = a0[k]; end = a1[k]
                } else if a1[k] > end {
                    end = a1[k]
                }
            }
            if end > start { length += end - start }
            covered += radians(length) * (sin(radians(hi)) - sin(radians(lo)))
        }
        return min(1, covered / total)
    }

    /// Rasterisation on the 64 × 64 grid: a cell counts when its centre is covered.
    private func rasterised() -> Double {
        for r in 0..<Self.rows { mask[r] = 0 }
        for k in a0.indices {
            guard let cols = Self.cells(a0[k], a1[k], start: -halfH, cell: cellH, count: Self.columns),
                  let rows = Self.cells(e0[k], e1[k], start: -halfV, cell: cellV, count: Self.rows) else { continue }
            let n = cols.upperBound - cols.lowerBound + 1
            let bits: UInt64 = (n >= 64 ? UInt64.max : (UInt64(1) << UInt64(n)) - 1) << UInt64(cols.lowerBound)
            for r in rows { mask[r] |= bits }
        }
        var covered = 0.0
        for r in 0..<Self.rows where mask[r] != 0 {
            covered += rowWeight[r] * Double(mask[r].nonzeroBitCount) / Double(Self.columns)
        }
        return covered
    }

    /// Index range of the cells whose centres lie in [lo, hi] on an axis of `count` cells of size
    /// `cell` starting at `start`; nil when none.
    private static func cells(_ lo: Double, _ hi: Double, start: Double, cell: Double, count: Int) -> ClosedRange<Int>? {
        guard lo.isFinite, hi.isFinite, cell > 0, hi >= lo else { return nil }
        let first = ((lo - start) / cell - 0.5).rounded(.up), last = ((hi - start) / cell - 0.5).rounded(.down)
        let a = max(0, min(Double(count), first)), b = max(-1, min(Double(count - 1), last))
        guard a <= b else { return nil }
        return Int(a)...Int(b)
    }
}

/// The interactive elements of each window and volume, for per-container layout checks: a flat
/// list grouped by container, with each container's range (set up once, read per frame).
final class ContainerGroups {
    let containers: [Int]
    private let members: [Int]
    private let range: [Int: Range<Int>]

    init(_ ents: [Entity], _ include: (Int) -> Bool) {
        var by: [Int: [Int]] = [:]
        for (i, e) in ents.enumerated() where e.kind == .element || e.kind == .node {
            guard let c = e.container, c >= 0, c < ents.count, ents[c].kind == .window || ents[c].kind == .volume, include(i) else { continue }
            by[c, default: []].append(i)
        }
        var m: [Int] = [], r: [Int: Range<Int>] = [:]
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
        guard let rg = range[c] else { return nil }
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
            az = ref + (az - ref - 360 * ((az - ref) / 360).rounded())
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
    private var filled = 0
    private var pos = 0
    private let dt: Double
    /// Per declared entity: start time and head forward of the current visible run (nil when hidden),
    /// and the largest head rotation since the run began.
    private var runStart: [Double?]
    private var runForward: [Vec3]
    private var runTurn: [Double]

    init?(_ s: RuleSetup) {
        let m = FovHeadLocked.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        let ents = s.scene.entities
        declared = ents.indices.filter { ents[$0].anchor == .head && ents[$0].parent == nil }
        dt = s.frameDuration
        runStart = Array(repeating: nil, count: declared.count)
        runForward = Array(repeating: Vec3(0, 0, -1), count: declared.count)
        runTurn = Array(repeating: 0, count: declared.count)
        let kinds: Set<EntityKind> = [.window, .volume, .model, .text]
        inferred = ents.indices.filter { ents[$0].anchor == .world && ents[$0].parent == nil && kinds.contains(ents[$0].kind) }
        headTurn = s.param(m, "headTurn"); maxDir = s.param(m, "maxDirectionChange"); maxDist = s.param(m, "maxDistanceChange")
        let w = s.param(m, "window") * s.scene.frameRate
        // Bound the ring buffers (slots × entities) so a huge configured window cannot exhaust memory.
        let cap = max(1, 4_000_000 / max(1, inferred.count))
        window = w.isFinite ? max(1, min(cap, Int(w.rounded()))) : 1
        let slots = window + 1
        headFwd = Array(repeating: Vec3(0, 0, -1), count: slots)
        relDir = Array(repeating: .zero, count: slots * inferred.count)
        relDist = Array(repeating: 0, count: slots * inferred.count)
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
        }
        guard !inferred.isEmpty else { return }
        let slots = window + 1
        let inv = f.headRotation.conjugate
        headFwd[pos] = f.headForward
        for (k, e) in inferred.enumerated() {
            relDir[pos * inferred.count + k] = normalize(inv.act(f.center[e] - f.headPosition))
            relDist[pos * inferred.count + k] = f.distance[e]
        }
        filled = min(filled + 1, slots)
        if filled == slots {
            let old = (pos + 1) % slots
            let turn = degrees(acos(max(-1, min(1, dot(normalize(headFwd[old]), normalize(f.headForward))))))
            if turn >= headTurn {
                for (k, e) in inferred.enumerated() where f.visible[e] {
                    let a = relDir[old * inferred.count + k], b = relDir[pos * inferred.count + k]
                    let change = degrees(acos(max(-1, min(1, dot(a, b)))))
                    if change < maxDir, abs(relDist[old * inferred.count + k] - relDist[pos * inferred.count + k]) < maxDist {
                        out.report(rule: rule, e, frame: f.frame, time: f.time, measured: turn, threshold: headTurn)
                    }
                }
            }
        }
        pos = (pos + 1) % slots
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        agg.unit == "s"
            ? "\(names.joinedNames) is declared head-anchored (anchor: head), so it stays fixed in view for \(fmt(agg.measured)) s"
                + (agg.aux > 0 ? " while the head turns up to \(fmt(agg.aux))°" : "")
                + " and goes wherever the head goes; anchor it in the world (anchor: world) and let people move it, or, if it must stay near, make it lazily follow the head (lag and settle) instead of locking to it"
            : "\(names.joinedNames) follows the head rigidly (it kept its place in view while the head turned \(fmt(agg.measured))°); anchor it in the world instead"
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
            case .show, .hide: break
            }
        }
        if reset { position = f.headPosition; inverseRotation = f.headRotation.conjugate }
    }
}
