import Foundation
import SpatialModel
import Simulation

// Rules on windows, volumes and ornaments (hig-rules §1.7): content stays inside its window, other
// content keeps clear of the system window controls, interactive volumes use dynamic scale, and an
// ornament is no wider than its window. An ornament is a window nested in a window or volume
// (docs/scene-format.md, "Ornaments").

public enum WinContentInBounds: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "win-content-in-bounds", name: "Window content stays inside the window", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("layout", "visionOS"), Citation("ornaments", "")],
        summary: "An element of a window whose frame leaves the window's rectangle, 3D content nested in a window whose bounds reach past its edges in the window's plane, or content of a volume that reaches past the volume's bounds, where visionOS clips it, or an ornament that lies over its window's content.",
        rationale: "visionOS draws the window controls just outside a window's bounds in its XY plane: the Share menu above it, the window bar and the close and resize controls below it. Content that spills over the edges crowds those controls, especially below, and makes them hard to use.",
        fixHint: "Keep the element's frame inside [0, 0, width, height] of its window (or make the window larger); show controls that belong outside the window in an ornament (a child window) instead.",
        unit: "pt", worse: .higher,
        notes: ["Elements: the frame against the window's rectangle in points (fixed, so reported over every frame the element is visible). 3D content nested in a window (models, text, groups and volumes; not ornaments, which are child windows and belong outside): its box projected along the window's normal onto the window's plane, every frame, in the window's points.",
                "Measured: how far the content reaches past the farthest edge, in points; threshold 0. The message says when it spills past the bottom edge, where the window bar and the close and resize controls are.",
                "Volumes (sub-check volume, m): visionOS clips a volume's content at its bounds, so models, text and volumes held in a volume (their nearest window or volume ancestor) are reported while their box reaches more than 1 mm past the volume's box along any of its axes, every frame (a piece animated out of its board is clipped as it leaves). Measured: how far, in metres; threshold 0.",
                "Ornaments (sub-check ornament, pt; extension): an ornament presents controls related to its window without crowding or obscuring the window's contents (ornaments, intro), so one whose centre, projected along the window's normal, lies inside the window's face is reported in every frame both are visible when it lies inside by more than a quarter of its own size across that edge (more than three quarters of it over the window). Measured: how far inside its nearest edge, in the window's points; threshold 0. An ornament centred on the edge (a toolbar straddling the bottom edge, as visionOS draws one, its position rounded to the centimetre) or beyond it passes. The message gives the edge's position in metres. Ornament positions are in metres, while its size follows the window's points: a window moved to another distance keeps its size in view but not its ornament's offset, which this catches. Windows a window presents (presentation) are not ornaments."],
        subchecks: [RuleSubcheck("volume", unit: "m"), RuleSubcheck("ornament", unit: "pt")])
}

public enum WinControlsKeepout: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "win-controls-keepout", name: "Other content keeps clear of the window controls", category: .windows,
        defaultSeverity: .warning, thresholdKey: "keepoutBandPt",
        parameters: [RuleParameter("keepoutBandPt", 60, "pt", .configurable("about one 44 pt control plus a 16 pt gap; the HIG gives no band size"),
                                   "height of the band above the top edge and below the bottom edge of a window that other content must keep clear of"),
                     RuleParameter("depthToleranceM", 0.1, "m", .configurable("content this far behind the plane of a window 1 m from the eye still sits in the same layer as its controls (the depth window of target-no-overlap across containers); the layer grows in proportion to the eye's distance from the plane, so a layout keeps its verdict when it is placed nearer or farther, as windows keep their angular size; content farther behind is a separate layer, seen past the window's edges with the controls drawn in front of it"),
                                   "how far behind the plane of a window 1 m from the eye other content is still judged (in proportion to the distance for other windows); content in front of the plane is always judged")],
        citations: [Citation("layout", "visionOS"), Citation("toolbars", "visionOS"), Citation("context-menus", "visionOS")],
        summary: "Content that is not part of a top-level window (another window, a volume, a model, 3D text) whose image, seen from the eye, enters the band above or below the window where the system draws its controls.",
        rationale: "The system shows a window's Share menu above it and its window bar, close and resize controls below it. Other content drawn over those bands (a second window stacked close below, a model floating under a window) covers the controls or sits where people look for them, so they become hard to see and to target.",
        fixHint: "Move the other content at least one control height (60 pt) away from the window's top and bottom edges, or behind the window; attach controls that belong to the window as an ornament, which the system lays out around its controls.",
        unit: "pt", worse: .lower,
        notes: ["Per frame, for every visible top-level window and every other visible window, volume, model or 3D text that is not nested in it (its elements and ornaments are its own: see win-content-in-bounds and orn-width): the other content's box, clipped to the window's layer, is projected from the eye onto the window's plane. The layer runs from depthToleranceM × d / 1 m behind the plane, d being the eye's distance from the window's plane (0.16 m for a window 1.6 m away), to 10 cm from the eye (nothing that near is seen in focus, and its image has no bound). Content in front of the plane is drawn over the controls it is seen in front of, so all of it is taken; content farther behind is in another layer, seen past the window's edges with the controls drawn in front of it, as two windows at different depths are, so it is left out. A deep box that crosses that depth (a desk running from below the window back into the room) is judged by its part within the layer. A violation when the projection overlaps the window's width and reaches into the band keepoutBandPt high below the bottom edge or above the top edge.",
                "Measured: the gap in the window's points between the window's edge and the nearest projected edge of the other content (0 when it reaches the window itself); threshold keepoutBandPt. Two windows are one pair, reported once with the smaller gap (either one's controls).",
                "Reading: content in front of a window is judged however far in front it is: a panel 0.5 m in front of a window's bar hides it as surely as one in its plane, and more of it the nearer it comes to the eye. A window placed below another at the same distance (`placement`, which keeps windows upright on a sphere around the eye) stands in front of the other's plane, so it is judged wherever it is placed. Behind the plane the layer is relative to the distance, so a layout keeps its verdict at any distance (windows keep their angular size): a window 0.5 m behind another 1.6 m away (31 %) is a layer of its own, seen past the other's edges.",
                "Reading: ornaments are not counted: the HIG presents them as the way to add controls without interfering with the system's, and the system places its window controls around them."])
}

public enum VolScaleMode: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "vol-scale-mode", name: "Interactive volumes and windows use dynamic scale", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("windows", "visionOS volumes"), Citation("spatial-layout", "Scale")],
        summary: "A fixed-scale volume or window that holds interactive content or text (warning), or a fixed-scale volume that states it does not show a real object (representsRealObject: false, info).",
        rationale: "With fixed scale, content shrinks with distance like a physical object. That suits a virtual object that should look exactly like a real one, but interactive content and text must keep a usable size however far away people place them, so the HIG reserves fixed scale for noninteractive objects and asks to use it sparingly.",
        fixHint: "Give the volume dynamic scale (scaleMode: dynamic; .defaultWorldScaling(.dynamic) in SwiftUI) so its controls and text keep their angular size; keep fixed scale for a noninteractive object shown life-size, and say so (representsRealObject: true).",
        unit: "count", worse: .higher,
        notes: ["Warning: a volume, or a window with scaleMode: fixed, with interactive content or readable text anywhere inside it (its elements, nested entities and asset nodes). Measured: how many interactive or text entities it holds; threshold 0. A window nested directly in a window or volume (an ornament, a presented sheet) shares that one's scale: its content counts toward that one's finding, and it gets none of its own.",
                "Info: a fixed-scale volume (the format's default, as in visionOS) with no interactive content or text that states representsRealObject: false. Reading: a volume that says nothing may well show a real object, so unstated is not reported. Measured 1, threshold 0.",
                "Reported over the frames the volume or window is visible."])
}

public enum WinGlassBackground: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "win-glass-background", name: "Windows keep their glass background", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("windows", "visionOS windows"), Citation("materials", "visionOS")],
        summary: "A window (ornaments and presented windows included) whose background is not the system glass: an opaque colour, a tinted fill, or none (passthrough).",
        rationale: "visionOS windows use glass, which adapts to the lighting and lets the surroundings show through. Without it, UI and text become less legible and stop reading as one window; an opaque background hides people's surroundings and makes the window feel heavy and constricting.",
        fixHint: "Remove the custom background and keep the window's glass (the default; .glassBackgroundEffect() where you draw your own container). Put colour in smaller elements or a background layer of a button, not the whole window.",
        unit: "count", worse: .higher,
        notes: ["Windows that state a background other than glass (docs/scene-format.md, Appearance): a colour with alpha of 0.95 or more is opaque, one below is a tint in place of the glass, passthrough is no background at all. Unstated is glass, the default. Reported over the frames the window is visible; measured 1, threshold 0; the message says which of the three it is."])
}

public enum WinOpaqueArea: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "win-opaque-area", name: "Little opaque colour inside windows", category: .windows,
        defaultSeverity: .info, thresholdKey: "maxShare",
        parameters: [
            RuleParameter("maxShare", 50, "%", .configurable("most of the window; the HIG gives no share"), "largest share of a window's area opaque elements may cover"),
            RuleParameter("opaqueAlpha", 0.95, "ratio", .configurable("as win-glass-background: a colour this solid hides what is behind it"), "alpha from which an element's background colour is opaque"),
        ],
        citations: [Citation("materials", "visionOS")],
        summary: "Opaque colour fills (elements with an opaque background colour, not images or video) covering more than half of a window.",
        rationale: "Areas of opacity in a window block people's view of their surroundings, make them feel constricted and lower their awareness of the virtual and physical objects around them; the HIG asks to avoid opaque colours in a window and keep its glass.",
        fixHint: "Keep the window's glass and its content on it: drop the elements' opaque backgrounds, use translucent colours or system materials for panels, and keep solid colour for small accents.",
        platforms: [.visionOS], unit: "%", worse: .higher,
        notes: ["Opaque fills: visible elements of a window that state a background colour with alpha of at least opaqueAlpha (the element's own background, not one inherited); images and elements with media are content, not fills. Covered: the area of the union of their frames clipped to the window (overlaps counted once), ÷ the window's area, in %. The window's own background is win-glass-background's.",
                "Computed for every change of which fills are visible; reported on the window over the frames the share is above maxShare, measured the largest share, and the message names the fills (the first 10, then how many more)."])
}

public enum OrnCountVisible: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "orn-count-visible", name: "Few ornaments, and kept visible", category: .windows,
        defaultSeverity: .info, thresholdKey: "maxOrnaments",
        parameters: [
            RuleParameter("maxOrnaments", 2, "count", .configurable("a toolbar and one more; the HIG asks to constrain the number for the window's balance"), "ornaments of one window shown at once"),
            RuleParameter("minVisibleShare", 50, "%", .configurable("hidden most of the time its window is shown"), "share of its window's visible time an ornament is shown"),
        ],
        citations: [Citation("ornaments", "Best practices")],
        summary: "A window shows more than two ornaments at once, or an ornament is hidden for more than half the time its window is shown (sub-check `hidden`), in a window that plays no media and shows no photo.",
        rationale: "Ornaments elevate important actions but can distract from the content; the HIG asks to keep the window visually balanced by constraining their number, and to keep an ornament visible so people always have its controls, hiding it only when they dive into content such as a video or a photo.",
        fixHint: "Combine ornaments (one toolbar with groups instead of several bars), and keep the ones you have visible; hide an ornament only while people watch or view the window's content.",
        unit: "count", worse: .higher,
        notes: ["Ornaments: windows nested directly in a window or volume that it does not present (docs/scene-format.md, Ornaments). Count: the ornaments visible in a frame in which their window is visible; reported on the window over those frames, measured the most at once.",
                "Hidden (sub-check `hidden`, %, lower is worse): over the frames its window is visible, the share in which the ornament is visible; reported when below 50 %, over the frames it is hidden while its window is shown. Windows that play media (media on the window or one of its elements) or show a photo (an element of role image covering at least half of the window's area) are exempt: hiding controls while people watch a video or view a photo is what the HIG allows (windows › visionOS)."],
        subchecks: [RuleSubcheck("hidden", unit: "%", worse: .lower)])
}

public enum OrnWidth: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "orn-width", name: "An ornament is no wider than its window", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("ornaments", "Best practices")],
        summary: "An ornament (a window nested in a window or volume) that is wider than the window or volume it belongs to.",
        rationale: "The HIG asks to keep an ornament's width the same as or narrower than its window's: an ornament that sticks out past the sides can interfere with a tab bar or other vertical content on the window's side and unbalances the window.",
        fixHint: "Make the ornament narrower than its window (fewer or smaller controls, or move some into the window), or widen the window.",
        unit: "pt", worse: .higher,
        notes: ["Widths in the parent's points: an ornament shares the metres per point (and scale mode) of the window or volume it belongs to, as in visionOS, where it is part of its window's scene; it is not scaled from its own distance. Measured is the ornament's width, the threshold the parent's width (a volume's front face, in the volume's points), so a toolbar exactly as wide as its window is clean. Half a point of rounding is allowed.",
                "Reported over the frames the ornament is visible."])
}

extension FrameQuantities {
    /// Metres per point of window or volume `e` (or what it holds) in this frame: those it opened
    /// with, times the dynamic scale a move has given it since (`dynamicScale`).
    @inline(__always)
    func metresPerPoint(of e: Int, in scene: Scene) -> Double { scene.entities[e].metresPerPoint * dynamicScale[e] }
}

/// Whether entity `i` is an ornament: a window nested directly in a window or volume that does not
/// present it (no `presentation`: not a sheet, alert, popover or menu).
func isOrnament(_ scene: Scene, _ i: Int) -> Bool {
    let ents = scene.entities
    guard ents.indices.contains(i), ents[i].kind == .window, ents[i].presentation == nil,
          let p = ents[i].parent, ents.indices.contains(p) else { return false }
    return ents[p].kind == .window || ents[p].kind == .volume
}

/// Per entity: how it is presented when it is, or is nested in, a window presented by another
/// (`presentation`: a sheet, alert, popover or menu, which is none of that window's ornaments):
/// its own presentation, else its nearest presented ancestor's; nil otherwise. One pass when
/// parents come before their children (as the loader writes them), else a walk up; all nil,
/// without a pass, in a scene that presents nothing.
func presentedEntities(_ scene: Scene) -> [Presentation?] {
    let ents = scene.entities
    var how = [Presentation?](repeating: nil, count: ents.count)
    guard ents.contains(where: { $0.presentation != nil }) else { return how }
    for e in ents.indices {
        if let k = ents[e].presentation { how[e] = k; continue }
        guard let p = ents[e].parent, ents.indices.contains(p) else { continue }
        if p < e { how[e] = how[p]; continue }
        how[e] = nearestAncestor(of: e, ents) { ents[$0].presentation != nil }.flatMap { ents[$0].presentation }
    }
    return how
}

/// True when `e` is nested (at any depth) in entity `ancestor`.
func isNested(_ scene: Scene, _ e: Int, in ancestor: Int) -> Bool {
    nearestAncestor(of: e, scene.entities) { $0 == ancestor } != nil
}

/// The nearest entity above `e` (its parent first) that `test` accepts, nil when none. Bounded by
/// the entity count, so a malformed parent chain cannot loop.
func nearestAncestor(of e: Int, _ ents: [Entity], where test: (Int) -> Bool) -> Int? {
    var p = ents.indices.contains(e) ? ents[e].parent : nil, steps = 0
    while let q = p, ents.indices.contains(q), steps <= ents.count {
        if test(q) { return q }
        p = ents[q].parent; steps += 1
    }
    return nil
}

/// A window's plane at a frame: centre, unit right and up axes, half width and height in metres.
struct WindowPlane {
    var center: Vec3, right: Vec3, up: Vec3, normal: Vec3, halfWidth: Double, halfHeight: Double
    init(center: Vec3, right: Vec3, up: Vec3, normal: Vec3, halfWidth: Double, halfHeight: Double) {
        self.center = center; self.right = right; self.up = up; self.normal = normal
        self.halfWidth = halfWidth; self.halfHeight = halfHeight
    }
    init?(_ f: FrameQuantities, _ w: Int) {
        let a0 = f.boxAxis(w, 0), a1 = f.boxAxis(w, 1)
        let hw = length(a0), hh = length(a1)
        guard hw > 1e-9, hh > 1e-9, w < f.center.count else { return nil }
        center = f.center[w]; right = a0 / hw; up = a1 / hh
        if dot(up, f.upAxis[w]) < 0 { up = -up }
        if dot(right, cross(up, f.front[w])) < 0 { right = -right }
        normal = f.front[w]
        halfWidth = hw; halfHeight = hh
    }
    /// In-plane coordinates (metres right and up of the centre) of `p` projected along the normal.
    func planar(_ p: Vec3) -> SIMD2<Double> { SIMD2(dot(p - center, right), dot(p - center, up)) }
    /// Plane coordinates change by at most this times a displacement in the world.
    var stretch: Double { max(length(right), length(up), length(normal)) * (1 + 1e-9) }
}

/// The depths along a window's normal (s, metres in front of its plane) whose corners
/// win-controls-keepout takes: from `low` (behind the plane: −depthToleranceM × d / 1 m, d the
/// eye's height over the plane) to `high` (in front of it, up to `ControlsKeepoutRule.nearEye`
/// from the eye: d − 0.1 m).
struct KeepoutSlab {
    var low, high: Double
    /// Whether a corner at depth `s` is taken (false for NaN).
    @inline(__always) func contains(_ s: Double) -> Bool { s >= low && s <= high }

    /// Calls `body(a, b)` for pieces [a, b] that cover the slab, for an eye `eyeSide` in front of
    /// the plane: the part around the plane (|s| ≤ −low), then pieces towards the eye, each
    /// ending halfway between its start and the eye, so that each piece's region (`KeepoutReach`),
    /// which narrows towards the eye, is bounded by a box not much larger than the piece's own
    /// part of the cone from the eye to the window's bands. Not finite: the slab as one piece.
    func forEachPiece(eyeSide h: Double, _ body: (Double, Double) -> Void) {
        guard low <= high else { return }
        guard low.isFinite, high.isFinite, h.isFinite, h > 0 else { body(low, high); return }
        var a = low, b = min(high, max(low, -low))
        body(a, b)
        var pieces = 1
        while b < high {
            a = b
            let t = (h - a) / 2
            b = t > 2 * ControlsKeepoutRule.nearEye && pieces < 32 ? min(high, h - t) : high
            if !(b > a) { b = high }
            body(a, b)
            pieces += 1
        }
    }
}

/// Where, near a window's plane, the corners of content must lie for win-controls-keepout to be
/// able to report it, seen from the eye (used to look up only part of the plane's slab).
///
/// In the plane's coordinates (u, v along right and up from the centre, s along the normal), the
/// eye is at (Eu, Ev) at height h > 0, and a corner q in the slab projects from the eye to
/// P = E + (q − E) / μ, μ = (h − s) / h > 0: always on q's side of E. For corners with s in
/// [sa, sb] and heights h in [hLow, hHigh], μ lies in [μ0, μ1] (and μ ≥ nearEye / hHigh, since
/// the exact test takes no corner nearer the eye). So P.u ≥ b whenever
/// q.u ≥ Eu + max((b − Eu)·μ0, (b − Eu)·μ1), and P.u ≤ a whenever q.u ≤ Eu + min((a − Eu)·μ0,
/// (a − Eu)·μ1). The rule reports content only when the box of its corners' images reaches
/// −hw < u < hw and one band: below the window (some image v < −hh and some v > −hh − band) or
/// above it (some v > hh and some v < hh + band). So such content has a point of its box in the
/// slab (a corner, or where an edge crosses a plane of the slab) with q.u below the first bound
/// for b = hw and one above the second for a = −hw, and likewise for the two edges of one band.
/// When its corners lie within D of each other, every one of them at
/// depths [a, b] then lies in `region(depths: a, b, margin: D)`: an interval of u and, of v, a
/// strip around the band below or one around the band above, whose μ covers the depths within D
/// of the piece (a little wider, against rounding). An eye free to move `eyeSkin` along the plane
/// moves each bound by at most eyeSkin·|1 − μ|, which widens the strips.
struct KeepoutReach {
    struct Interval { var lower, upper: Double }
    /// The u interval, the v strips around the band below and the band above, and the
    /// floor-plan box around all of it.
    struct Region {
        var u, below, above: Interval; var world: PlateGrid.Bounds?
        /// Whether plane coordinates (x, y) lie in the region (false for NaN).
        @inline(__always) func contains(_ x: Double, _ y: Double) -> Bool {
            x >= u.lower && x <= u.upper && ((y >= below.lower && y <= below.upper) || (y >= above.lower && y <= above.upper))
        }
    }
    let plane: WindowPlane
    let slab: KeepoutSlab
    let eu, ev, hLow, hHigh, eyeSkin, bandM: Double
    /// Magnitudes of the points involved, for the allowance against rounding.
    let scale: Double

    /// `heights`: the lowest and highest height of the eye over the plane (the same for one eye);
    /// nil (no restriction) when they are not positive and finite.
    init?(plane: WindowPlane, eye: Vec3, heights hLow: Double, _ hHigh: Double, eyeSkin: Double = 0, slab: KeepoutSlab, bandM: Double) {
        guard hLow.isFinite, hHigh.isFinite, hLow > 0, hLow <= hHigh, eyeSkin.isFinite, eyeSkin >= 0,
              slab.low.isFinite, slab.high.isFinite, bandM.isFinite else { return nil }
        self.plane = plane; self.slab = slab; self.bandM = bandM
        self.hLow = hLow; self.hHigh = hHigh; self.eyeSkin = eyeSkin
        eu = dot(eye - plane.center, plane.right); ev = dot(eye - plane.center, plane.up)
        func m(_ p: Vec3) -> Double { max(abs(p.x), abs(p.y), abs(p.z)) }
        scale = 1 + m(eye) + m(plane.center) + hHigh + abs(slab.low) + abs(slab.high) + abs(eu) + abs(ev)
            + plane.halfWidth + plane.halfHeight + bandM + eyeSkin
        guard eu.isFinite, ev.isFinite, scale.isFinite else { return nil }
    }

    /// The plane-coordinate region holding every corner at depths [a, b] of reportable content
    /// whose corners lie within `margin` of each other, and the floor-plan rectangle around it at
    /// depths [a − margin, b + margin] (nil when the plane's axes are not orthonormal to 10⁻⁶); nil
    /// when `margin` is not finite or μ has no useful bound. The first piece's region also holds
    /// the corners of such content in front of the slab, and the last piece's those behind it:
    /// their μ is that of the part of the box in the slab, within `margin` of its end.
    func region(depths a: Double, _ b: Double, margin: Double) -> Region? {
        guard margin.isFinite, margin >= 0, a <= b else { return nil }
        // The depths of the corners that may set the bounds: within `margin` of the piece, in the slab.
        let sa = max(slab.low, a - margin), sb = max(sa, min(slab.high, b + margin))
        let mu1 = (sa < 0 ? 1 - sa / hLow : 1 - sa / hHigh) * (1 + 1e-9)
        let mu0 = max(ControlsKeepoutRule.nearEye / hHigh, sb > 0 ? 1 - sb / hLow : 1 - sb / hHigh) * (1 - 1e-9)
        guard mu0 > 1e-12, mu1 >= mu0, mu1.isFinite else { return nil }
        // Rounding of the images and coordinates, far above the few ulps involved.
        let slack = 1e-9 * mu1 * (scale + margin) / mu0
        let eyeTerm = eyeSkin * max(abs(1 - mu0), abs(1 - mu1)) * (1 + 1e-9)
        // Corners whose images lie above `lo` (below `hi`) lie above (below) these.
        func reach(_ e: Double, _ lo: Double, _ hi: Double) -> Interval {
            let lo = lo - slack, hi = hi + slack
            let l = e + min((lo - e) * mu0, (lo - e) * mu1), h = e + max((hi - e) * mu0, (hi - e) * mu1)
            return Interval(lower: l - margin - eyeTerm - slack, upper: h + margin + eyeTerm + slack)
        }
        let hh = plane.halfHeight
        let u = reach(eu, -plane.halfWidth, plane.halfWidth)
        let below = reach(ev, -hh - bandM, -hh), above = reach(ev, hh, hh + bandM)
        let v = Interval(lower: min(below.lower, above.lower), upper: max(below.upper, above.upper))
        guard u.lower.isFinite, u.upper.isFinite, v.lower.isFinite, v.upper.isFinite else { return nil }
        let r = plane.right, w = plane.up, n = plane.normal
        let eps = 1e-6
        let orthonormal = abs(dot(r, r) - 1) < eps && abs(dot(w, w) - 1) < eps && abs(dot(n, n) - 1) < eps
            && abs(dot(r, w)) < eps && abs(dot(r, n)) < eps && abs(dot(w, n)) < eps
        guard orthonormal else { return Region(u: u, below: below, above: above, world: nil) }
        // p = centre + u·right + v·up + s·normal, up to 3·10⁻⁶ of |(u, v, s)| for axes this close
        // to orthonormal: padded by 10⁻⁵ of the box's reach.
        let wa = a - margin, wb = b + margin
        let pad = 1e-5 * (max(abs(u.lower), abs(u.upper)) + max(abs(v.lower), abs(v.upper)) + max(abs(wa), abs(wb))) + slack
        func span(_ c: Double, _ ru: Double, _ rv: Double, _ rn: Double) -> (Double, Double) {
            let lo = c + min(ru * u.lower, ru * u.upper) + min(rv * v.lower, rv * v.upper) + min(rn * wa, rn * wb)
            let hi = c + max(ru * u.lower, ru * u.upper) + max(rv * v.lower, rv * v.upper) + max(rn * wa, rn * wb)
            return (lo - pad, hi + pad)
        }
        let x = span(plane.center.x, r.x, w.x, n.x), y = span(plane.center.y, r.y, w.y, n.y)
        let z = span(plane.center.z, r.z, w.z, n.z)
        guard x.0.isFinite, x.1.isFinite, y.0.isFinite, y.1.isFinite, z.0.isFinite, z.1.isFinite else {
            return Region(u: u, below: below, above: above, world: nil)
        }
        return Region(u: u, below: below, above: above, world: PlateGrid.Bounds(x0: x.0, x1: x.1, y0: y.0, y1: y.1, z0: z.0, z1: z.1))
    }
}

final class ContentInBoundsRule: RuleProcessor {
    let rule: Int
    /// Elements outside their window: (element, overflow pt, spills below).
    let elements: [(e: Int, overflow: Double, below: Bool)]
    /// 3D content nested in a window: (content, window).
    let nested: [(e: Int, w: Int)]
    /// 3D content in a volume (its nearest window or volume ancestor): (content, volume).
    let inVolume: [(e: Int, v: Int)]
    /// Ornaments (windows nested directly in a window, not presented by it) and their window.
    let ornaments: [(o: Int, w: Int)]
    let scene: Scene
    /// Entity by path, for messages (empty when no message needs it).
    let pathIndex: [String: Int]
    init?(_ s: RuleSetup) {
        guard let r = s.index(WinContentInBounds.metadata.id) else { return nil }
        rule = r; scene = s.scene
        var el: [(Int, Double, Bool)] = []
        var ne: [(Int, Int)] = [], orn: [(Int, Int)] = []
        for i in s.scene.entities.indices where s.scene.entities[i].parent != nil
            || (s.scene.entities[i].kind == .element && s.scene.entities[i].frame != nil) {
            let e = s.scene.entities[i]
            if e.kind == .element, let c = e.container, s.scene.entities[c].kind == .window,
               let size = s.scene.entities[c].sizePt, let fr = e.frame {
                let over = max(-fr.x, -fr.y, fr.x + fr.width - size.x, fr.y + fr.height - size.y)
                if over > 1e-6 { el.append((i, over, fr.y + fr.height - size.y > 1e-6)) }
            } else if let p = e.parent, s.scene.entities[p].kind == .window,
                      [.model, .text, .group, .volume].contains(e.kind) {
                ne.append((i, p))
            } else if isOrnament(s.scene, i), let p = e.parent, s.scene.entities[p].kind == .window {
                orn.append((i, p))
            }
        }
        elements = el; nested = ne; ornaments = orn
        // Content a volume holds: models, text and volumes whose nearest window or volume ancestor
        // is a volume (an ornament, a window in a volume, belongs outside it).
        let ents = s.scene.entities
        var vo: [(Int, Int)] = []
        for i in ents.indices where [.model, .text, .volume].contains(ents[i].kind) {
            if let v = nearestContainer(i, ents), ents[v].kind == .volume { vo.append((i, v)) }
        }
        inVolume = vo
        if el.isEmpty && ne.isEmpty && vo.isEmpty && orn.isEmpty { return nil }
        // Messages name an ornament's window and a piece's volume by path: one lookup each, not a
        // scan of the scene per violation.
        pathIndex = vo.isEmpty && orn.isEmpty ? [:] : Dictionary(ents.indices.map { (ents[$0].path, $0) }, uniquingKeysWith: { a, _ in a })
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        for x in elements where x.e < f.visible.count && f.visible[x.e] {
            out.report(rule: rule, x.e, frame: f.frame, time: f.time, measured: x.overflow, threshold: 0,
                       aux: x.below ? 1 : 0)
        }
        for x in nested where f.visible[x.e] && f.visible[x.w] {
            guard let plane = WindowPlane(f, x.w) else { continue }
            let mpp = f.metresPerPoint(of: x.w, in: scene)
            guard mpp > 0 else { continue }
            var over = 0.0, below = false
            for c in f.boxCorners(x.e) {
                let q = plane.planar(c)
                over = max(over, abs(q.x) - plane.halfWidth, abs(q.y) - plane.halfHeight)
                if q.y < -plane.halfHeight - 1e-9 { below = true }
            }
            let pt = over / mpp
            if pt > 1e-6 {
                out.report(rule: rule, x.e, frame: f.frame, time: f.time, measured: pt, threshold: 0, aux: below ? 1 : 0)
            }
        }
        // An ornament over its window's content (sub-check ornament): its centre, projected along
        // the window's normal, inside the window's face by more than a quarter of its own size
        // across that edge (more than three quarters of it over the window: a toolbar straddling
        // the edge, as visionOS draws one, with its position rounded, passes); measured how far
        // inside (pt) from the nearest edge (aux: which one, 0 bottom, 1 top, 2 left, 3 right).
        for x in ornaments where f.visible[x.o] && f.visible[x.w] {
            guard let plane = WindowPlane(f, x.w), let size = scene.entities[x.o].sizePt else { continue }
            let mpp = f.metresPerPoint(of: x.w, in: scene)
            guard mpp > 0 else { continue }
            let q = plane.planar(f.center[x.o])
            let insides = [plane.halfHeight + q.y, plane.halfHeight - q.y, plane.halfWidth + q.x, plane.halfWidth - q.x]
            guard let inside = insides.min(), inside.isFinite else { continue }
            let edge = insides.firstIndex(of: inside) ?? 0
            let across = (edge < 2 ? size.y : size.x) * f.metresPerPoint(of: x.o, in: scene)
            guard inside > across / 4 else { continue }
            out.report(rule: rule, x.o, frame: f.frame, time: f.time, measured: inside / mpp, threshold: 0,
                       aux: Double(edge), unit: "pt", variant: 2)
        }
        // A volume clips its content at its bounds (sub-check volume): how far the content's box
        // reaches past the volume's box along each of its axes, in metres.
        for x in inVolume where f.visible[x.e] && f.visible[x.v] {
            var over = 0.0
            let c = f.boxFrames.count >= 12 * x.v + 12
                ? Vec3(f.boxFrames[12 * x.v], f.boxFrames[12 * x.v + 1], f.boxFrames[12 * x.v + 2]) : f.center[x.v]
            for k in 0..<3 {
                let a = f.boxAxis(x.v, k), h = length(a)
                guard h > 0 else { continue }
                over = max(over, f.boxReach(x.e, along: a / h, from: c) - h)
            }
            if over > Self.volumeTolerance, over.isFinite {
                out.report(rule: rule, x.e, frame: f.frame, time: f.time, measured: over, threshold: 0, unit: "m", variant: 1)
            }
        }
    }
    /// Content reaching less than this past its volume's bounds (1 mm: a model resting on the
    /// volume's floor, rounding) is inside.
    static let volumeTolerance = 0.001
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        if agg.variant == 2 {
            let window = names.first.map { String($0.split(separator: "/").dropLast().joined(separator: "/")) } ?? "its window"
            let k = max(0, min(3, Int(agg.aux)))
            let edge = ["bottom", "top", "left", "right"][k]
            // Where the edge is, in metres from the window's centre along its axis (what the
            // ornament's `position` says).
            var to = ""
            if let w = names.first.flatMap({ pathIndex[String($0.split(separator: "/").dropLast().joined(separator: "/"))] }),
               let size = scene.entities[w].sizePt, scene.entities[w].metresPerPoint > 0 {
                let half = (k < 2 ? size.y : size.x) / 2 * scene.entities[w].metresPerPoint
                to = " (its centre at \(k < 2 ? "y" : "x") = \(String(format: "%.3f", k == 0 || k == 2 ? -half : half)) m in position, as visionOS draws a toolbar across the edge, or beyond)"
            }
            return "ornament \(names.joinedNames) lies over the content of \(window): its centre is \(fmt(agg.measured)) pt inside the window's \(edge) edge; move it out to that edge\(to) so it does not cover the window's content (an ornament's position is in metres from the window's centre: placed at another distance or size, the window needs it moved to its new edge); a sheet, alert, popover or menu the window opens is no ornament: say so with presentation: sheet, alert, popover or menu"
        }
        if agg.variant == 1 {
            // The volume that holds it (its nearest window or volume, as `inVolume` found it).
            let volume = names.first.flatMap { pathIndex[$0] }.flatMap { nearestContainer($0, scene.entities) }
                .flatMap { scene.entities[$0].kind == .volume ? scene.entities[$0].path : nil } ?? "its volume"
            return "\(names.joinedNames) reaches \(fmt(agg.measured)) m outside \(volume), and visionOS clips a volume's content at its bounds, so that part is not seen; keep it inside the volume (make the volume larger), or show it in an immersive space if it must come to the viewer"
        }
        let window = names.first.map { String($0.split(separator: "/").dropLast().joined(separator: "/")) } ?? "its window"
        let whereTo = agg.aux == 1 ? " and spills below its bottom edge, where the window bar and the close and resize controls are" : ""
        return "\(names.joinedNames) reaches \(fmt(agg.measured)) pt outside \(window)\(whereTo); keep window content inside the window's bounds"
    }
}

final class ControlsKeepoutRule: RuleProcessor {
    let rule: Int
    /// Top-level windows, and the content that can reach into their bands (windows, volumes,
    /// models, 3D text); a window's own descendants are not compared with it.
    let windows: [Int]
    let content: [Int]
    let band: Double
    /// `fmt(band)`, the threshold every message of the rule prints.
    let bandText: String
    /// Per entity: whether a window presents it (a sheet, alert, popover or menu, or what one
    /// holds; `presentedEntities`), and the paths of those with how they are presented: their
    /// messages give the HIG's advice for menus, or ask a sheet or alert to fit its window.
    let presented: [Bool]
    let presentedPaths: [String: Presentation]
    /// The exact test's slab per metre of the eye's height over the window's plane:
    /// `depthToleranceM` at `referenceDistance` (see `WinControlsKeepout`'s notes).
    let depthRate: Double
    /// The eye's height over a window's plane at which its slab is `depthToleranceM` thick.
    static let referenceDistance = 1.0
    /// Corners nearer the eye than this along a window's normal are not taken (metres): nothing
    /// that near is seen in focus, and the image of a corner at the eye has no bound.
    static let nearEye = 0.1
    /// The slab the exact test takes for an eye `eyeSide` in front of the plane (the same numbers
    /// in every mode: the search, the list and the definition).
    @inline(__always)
    static func exactSlab(depthRate: Double, eyeSide: Double) -> KeepoutSlab {
        KeepoutSlab(low: -(depthRate * eyeSide), high: eyeSide - nearEye)
    }
    let scene: Scene
    /// Test hook: compare every window with all content (the definition) instead of the content
    /// the grids find near the window. The violations are the same.
    var exhaustive = false
    /// Test hook: keep the candidate list below from frame to frame while it holds (on by
    /// default); off, every frame searches the grids. The violations are the same either way.
    var incremental = true
    /// Window–content pairs given the exact test (for tests: linear, not windows × content).
    private(set) var pairChecks = 0
    var pairTests: Int { pairChecks }
    /// What the rule's work is made of (`work`): windows searched or bounded (each sets up its
    /// reach and visits up to 15 grids), grid points visited, candidates sorted, pairs bounded
    /// (`classify`, at a build or a renewal) and those kept in the list (bounded again by
    /// `listCode`), renewed pieces × windows, and, of `pairChecks`, the listed pairs looked at.
    private(set) var windowSearches = 0, gridVisits = 0, candidatesSorted = 0, pairsBounded = 0, pairsKept = 0
    private(set) var renewalChecks = 0, listedChecks = 0
    /// This frame's corners and grids, per piece of visible content.
    private(set) var piecesPrepared = 0
    /// The rule's work so far in instructions (`RuleEngine.work`), from its counts and their costs
    /// measured with callgrind (`WorkCost`): a scene whose windows move in every frame searches
    /// again in every frame, at a cost that grows with the content near each window, which the
    /// pair tests alone do not show.
    var work: Int {
        typealias C = WorkCost.Keepout
        return windowSearches &* C.windowSearch &+ gridVisits &* C.gridVisit &+ candidatesSorted &* C.candidate
            &+ (pairChecks &- listedChecks) &* C.exactTest &+ listedChecks &* C.listedPair
            &+ (listedChecks &- settledFindings &- localFindings) &* C.listedUnsettled &+ pairsBounded &* C.bounded &+ pairsKept &* C.kept
            &+ renewalChecks &* C.renewalCheck &+ piecesPrepared &* C.piecePrepared
    }
    /// Whether a finding of this rule was tracked (has an aggregate) before the current frame: once
    /// the tracking limit is reached, only such pairs can change anything, and without any the
    /// rest of the frame is not tested (every finding would be new, and dropped).
    private var trackedBefore = false
    /// Frames evaluated from the candidate list, and how many of them built it (for tests).
    private(set) var listFrames = 0
    private(set) var listBuilds = 0
    /// List frames that renewed only the pairs of content that outran its skin or appeared
    /// (`updateList`), instead of building the whole list again.
    private(set) var listUpdates = 0
    /// Test hook: renew the pairs of content that outran its skin or appeared (on by default);
    /// off, such a frame builds the whole list again. The violations are the same either way.
    var partialUpdates = true
    /// Size classes: content whose corners lie within `classExtent[k]` of each other (the
    /// diagonal of the box around its 8 corners) goes into grid k; the last class, unbounded,
    /// holds the rest (and content with corners that are not finite). A window looks for the
    /// content of class k only within `classExtent[k]` of where a corner's image can fall on its
    /// bands, so large content, seen from far along the plane, is still found.
    static let classExtent: [Double] = [0.5, 2, 8, 32, .infinity]
    /// Grid `g` holds class `g % classes` of skin level `g / classes` (only level 0 when searching).
    private var grids = Array(repeating: PlateGrid(), count: ControlsKeepoutRule.gridCount)
    /// Per grid, this frame's corners of its visible content and whose they are.
    private var classCorners = Array(repeating: [Vec3](), count: ControlsKeepoutRule.gridCount)
    private var classOwner = Array(repeating: [Int32](), count: ControlsKeepoutRule.gridCount)
    static var gridCount: Int { classExtent.count * skinLevels.count }
    /// This frame's 8 box corners of each visible piece of content (as `boxCorners` gives them),
    /// from `firstCorner[o]` (8 × its index in `content`).
    private var corners: [Vec3] = []
    private var firstCorner: [Int32] = []
    /// The top-level entity above each entity (−1 for a top-level one, and for what a window
    /// presents): `o` is the top-level window `w`'s own content exactly when `root[o] == w` (what
    /// `isNested` and `presented` find).
    private var root: [Int32] = []
    private var seen: [Int] = []
    private var stamp = 0
    private var candidates: [Int] = []
    /// `collect`'s pieces of the slab: where each ends and its region.
    private var pieceScratch: [(end: Double, region: KeepoutReach.Region?)] = []

    // MARK: The candidate list
    //
    // A neighbour list with a skin, as in molecular dynamics (and `TargetPairAnalyzer`'s): when
    // it is built, each visible window keeps the content that could be reported with it while
    // the eye stays within `eyeSkin` of where it was then, every piece of content's corners
    // within its skin (`skinLevels`) of where they were, and the window itself exactly where it
    // was. The pairs of each window are found by the grids, with the slab and the `KeepoutReach`
    // region widened by those amounts, and kept only when an interval bound on their corners'
    // images (`classify`) leaves them a chance to reach the window's width and a band. While those
    // conditions hold and nothing has appeared, a frame gives the listed pairs of each window,
    // in content order, the unchanged exact test, or, for a pair whose bound certainly straddles
    // an edge, the finding that test gives it (a gap of 0 on that side): the same findings,
    // reported in the same order, as searching every frame. A few pieces of content that outran
    // their skins or appeared have their own pairs renewed (`updateList`); otherwise, when the
    // conditions stop holding, the list is built again. A list that does not survive its first
    // frame pauses the list for 1, 2, 4 … 64 frames (the frames in between search as before), so
    // a scene whose windows move in every frame costs about what it cost without the list.
    static let eyeSkin = 0.2
    /// Skins of content: still during the last list, not known (the first build, content not
    /// visible then), moving during the last list. A skin is a piece's own: its pairs are found
    /// and bounded with it, and the list holds while it has moved less.
    static let skinLevels: [Double] = [0.02, 0.05, 0.25]
    private var skinLevel: [UInt8] = []
    /// Per index into `content`: changed since the last build (set by `listHolds`).
    private var movedSinceBuild: [Bool] = []
    /// Per index into `content`, this frame: how far (at most) its corners are from where they
    /// were when its pairs were bounded (the build, or its renewal): 0 when unchanged.
    private var drift: [Double] = []
    /// A skin between the still and the moving one: a listed pair of content with a larger skin
    /// is bounded again with this one, which settles it in the frames it has drifted less.
    static let nearSkin = 0.05
    /// Per index into `windows`: its plane and metres per point at the build (nil: not tested).
    private var listPlanes: [WindowPlane?] = []
    /// Per index into `windows`: the widest slab of the exact test while the list holds
    /// (`ListBounds.slab`, for the eye within `eyeSkin` of the build's).
    private var listSlab: [KeepoutSlab] = []
    /// Lists longer than this are not kept (memory stays bounded): those frames search.
    static let maxListPairs = 1 << 22
    private var listValid = false
    /// Whether `listSeen` and `listBox` hold a frame's content (the first frame's or a build's).
    private var recorded = false
    private var listAge = 0
    private var backoff = 0
    private var pause = 0
    private var listEye = Vec3.zero
    /// At the build, per index into `content`: whether it was visible, and its box frame.
    private var listSeen: [Bool] = []
    private var listBox: [Double] = []
    /// At the build, per index into `windows`: whether it was visible, and what its plane is
    /// made of (centre, front, up axis, box frame: 21 numbers compared bit for bit).
    private var listShown: [Bool] = []
    private var listPlane: [UInt64] = []
    /// The pairs of window `windows[j]`: `listPairs[listStart[j] ..< listStart[j + 1]]`, content
    /// in increasing order, each with the slot of its aggregate (`Findings.report(slot:)`).
    private var listStart: [Int32] = []
    private var listPairs: [Int32] = []
    private var listSlot: [Int32] = []
    /// Per listed pair, what the build knows of its finding (`ListedPair`). Bits 0–1: tested (0),
    /// or found with a gap of 0 on that side (1, 2) for every eye and content position the list
    /// allows. Bits 2–3: the same for every eye the list allows while the content stays exactly
    /// where it was at the build (`movedSinceBuild` false), 3 for never reported then. Bits 4–5:
    /// the same while it has drifted at most `nearSkin` (`drift`). Bits 6–10: its certificate near
    /// the eye (`localVerdictShift`, `localTriesShift`). Bits 30–31: its streak (`streakBit`).
    private var listKnown: [UInt32] = []
    /// Listed pairs reported from `listKnown` without the exact test (for tests).
    private(set) var knownFindings = 0
    /// Listed pairs passed over without the exact test: their content is where it was when they
    /// were bounded, or within `nearSkin` of it, and the bounds for that show they cannot be
    /// reported (for tests).
    private(set) var settledFindings = 0
    /// Test hook: report pairs the build knows without the exact test (on by default); off,
    /// every listed pair is tested. The violations are the same either way.
    var knownShortcut = true

    // MARK: Certificates near the eye
    //
    // The build bounds a pair for every eye within `eyeSkin` (0.2 m) of its own. A window seen
    // far behind nearer content is covered by it everywhere, but the image of content much
    // nearer than the window moves several times as far as the eye, so over 0.2 m many such
    // pairs may or may not be reported and get the exact test in every frame, though the eye
    // moves a few millimetres a frame. For a pair of content that has not moved since the build
    // (its corners the build's, bit for bit, in a window's unchanged plane), the same bounds
    // (`classify`, no content skin) are taken for every eye within `localSkin` of this frame's:
    // when they settle the pair (never reported, or reported with a gap of 0 on a known side),
    // that verdict is the exact test's in every frame while the eye stays within `localSkin` of
    // where it was (`listLocal`); a pair they do not settle is tried again after 2, 4 … 256
    // frames. Content that moved since the build is certified the same way for every position
    // of its corners within `movingSkin` of a reference box of its own (`localRef`), which
    // follows it: when it has moved farther from it, the reference is taken again where it is
    // and its certificates lapse (its `localEpoch` changes). The findings are the exact test's.

    /// How far the eye may move from where a local certificate was taken (metres).
    static let localSkin = 0.03
    /// How far the corners of content that moved since the build may move from its reference
    /// box (`localRef`) while the certificates taken for that box hold (metres).
    static let movingSkin = 0.02
    /// Per index into `content`: the box frame (12 numbers, as `boxFrames`) and the corners (8,
    /// in `writeCorners`' order) its certificates near the eye were taken for, once it moved
    /// since the build, and how many times that reference was taken: a certificate holds while
    /// its content's count is the one it was taken with (`listLocal`'s w).
    private var localRef: [Double] = []
    private var localRefCorners: [Vec3] = []
    private var localEpoch: [UInt32] = []
    /// In `listKnown`, bits 6–7: the local certificate's verdict (0 none, 1 never reported, 2 or
    /// 3 a gap of 0 below or above the window); bits 8–10: how many certificates failed in a row.
    static let localVerdictShift: UInt32 = 6
    static let localTriesShift: UInt32 = 8
    static let localMask: UInt32 = 3 << localVerdictShift | 7 << localTriesShift
    /// Per listed pair: the eye where its local certificate was taken (x, y, z) and its content's
    /// `localEpoch` then (w), or after a failure the first frame at which one is tried again (w).
    private var listLocal: [SIMD4<Double>] = []
    /// Test hook: certify listed pairs for the eye near where it is (on by default); off, such
    /// pairs get the exact test in every frame. The violations are the same either way.
    var localCertificates = true
    /// Local certificates taken and succeeded (of them, for content that moved since the build),
    /// and listed pair-frames they settled (for tests).
    private(set) var localTries = 0, localCertified = 0, localMovingCertified = 0, localFindings = 0

    // MARK: Known findings over a streak of list frames
    //
    // A listed pair whose finding the list knows gives the same finding (a gap of 0 on a known
    // side), or none, in every frame while the list holds: by its bounds with the content's skin
    // (bits 0–1 of `listKnown`) or, while the content has not moved since the build, without it
    // (bits 2–3). Reported in one frame, such a finding only extends its run in the next (a
    // repeated value is never a new worst: `Aggregate.record` takes a strictly worse one; the
    // severity, threshold and unit are the same), so from the second frame of a streak on the
    // pair is not looked at frame by frame: `endKnownStreak` adds the streak's frames to its run
    // once, as `TargetPairAnalyzer.flushRepeats` does (and `updateList` for pairs it drops). A
    // streak lasts while frames follow one another, every entity's visibility is the streak's
    // first frame's, no content that had not moved since the build moves, the eye stays in front
    // of every window with such pairs, this rule tracks a finding and the tracking limit is not
    // reached; the pairs are counted (`pairChecks`, `knownFindings`, `settledFindings`) as if
    // they had been looked at.

    /// In `listKnown`: the pair is in the streak (its finding, or none, repeats the streak's first
    /// frame's), and it was reported then.
    static let streakBit: UInt32 = 1 << 31
    static let streakReportedBit: UInt32 = 1 << 30
    /// Test hook: repeat the known findings over a streak of list frames (on by default); off,
    /// every listed pair is looked at in every frame. The violations are the same either way.
    var knownStreaks = true
    /// Test hook: pass over a listed pair of moving content whose box cannot reach the slab this
    /// frame (`outsideSlab`) without the exact test (on by default). The violations are the same.
    var slabScreen = true
    /// Pair-frames the streaks repeated without looking at the pair (for tests).
    private(set) var streakPairFrames = 0
    /// The last frame evaluated with the streak's marks (its first frame or a later one); −1: none.
    private var streakLast = -1
    /// The frames after the streak's first that are not yet added to its findings' runs.
    private var streakFrames = RepeatStreak()
    /// Visibility of every entity in the streak's first frame.
    private var streakVisible: [Bool] = []
    /// Per index into `windows`: the window has pairs in the streak.
    private var streakWindow: [Bool] = []
    /// Set by `listHolds`: content that had not moved since the build moved this frame.
    private var newlyMoved = false
    /// Per entity: its index into `windows`, −1 for other entities.
    private var windowIndex: [Int32] = []

    init?(_ s: RuleSetup) {
        guard let r = s.index(WinControlsKeepout.metadata.id) else { return nil }
        rule = r; scene = s.scene
        let how = presentedEntities(s.scene)
        presented = how.map { $0 != nil }
        let ents = s.scene.entities
        presentedPaths = Dictionary(ents.indices.compactMap { e in how[e].map { (ents[e].path, $0) } }, uniquingKeysWith: { a, _ in a })
        band = s.param(WinControlsKeepout.metadata, "keepoutBandPt")
        depthRate = s.param(WinControlsKeepout.metadata, "depthToleranceM") / Self.referenceDistance
        bandText = fmt(band)
        windows = ents.indices.filter { ents[$0].kind == .window && ents[$0].parent == nil && ents[$0].sizePt != nil }
        content = ents.indices.filter { [.window, .volume, .model, .text].contains(ents[$0].kind) }
        // Nothing to compare when every piece of content is a window itself or inside it (a
        // top-level window has no ancestors). Counted per window in one walk up from each piece.
        // A sheet, alert, popover or menu a window presents (`presentation`) is not one of its
        // ornaments: the system does not lay the window's controls out around it, so it is judged
        // against the window's bands like any other content (context-menus › visionOS).
        var related = [Int: Int]()
        let isWindow = Set(windows)
        for o in content where !presented[o] {
            var p: Int? = o, steps = 0
            while let q = p, steps <= ents.count {
                if isWindow.contains(q) { related[q, default: 0] += 1 }
                p = ents[q].parent; steps += 1
            }
        }
        if windows.isEmpty || windows.allSatisfy({ related[$0, default: 0] >= content.count }) { return nil }
        seen = Array(repeating: 0, count: ents.count)
        firstCorner = Array(repeating: -1, count: ents.count)
        for (k, o) in content.enumerated() { firstCorner[o] = Int32(truncatingIfNeeded: 8 * k) }
        corners = Array(repeating: .zero, count: 8 * content.count)
        root = Array(repeating: -1, count: ents.count)
        for e in ents.indices {
            var p = ents[e].parent, top: Int? = nil, steps = 0
            while let q = p, q >= 0, q < ents.count, steps <= ents.count { top = q; p = ents[q].parent; steps += 1 }
            if let top, p == nil, !presented[e] { root[e] = Int32(truncatingIfNeeded: top) }
        }
        skinLevel = Array(repeating: 1, count: content.count)
        movedSinceBuild = Array(repeating: false, count: content.count)
        drift = Array(repeating: 0, count: content.count)
        localRef = Array(repeating: 0, count: 12 * content.count)
        localRefCorners = Array(repeating: .zero, count: 8 * content.count)
        localEpoch = Array(repeating: 0, count: content.count)
        listPlanes = Array(repeating: nil, count: windows.count)
        listSlab = Array(repeating: KeepoutSlab(low: 0, high: -1), count: windows.count)
        listSeen = Array(repeating: false, count: content.count)
        listBox = Array(repeating: 0, count: 12 * content.count)
        listShown = Array(repeating: false, count: windows.count)
        listPlane = Array(repeating: 0, count: 21 * windows.count)
        streakWindow = Array(repeating: false, count: windows.count)
        windowIndex = Array(repeating: -1, count: ents.count)
        for (j, w) in windows.enumerated() { windowIndex[w] = Int32(truncatingIfNeeded: j) }
    }

    /// Appends the 8 corners of `o`'s box frame to `out`, the values and order of
    /// `FrameQuantities.boxCorners` without its array.
    @inline(__always)
    private static func writeCorners(_ f: FrameQuantities, _ bf: UnsafeBufferPointer<Double>, _ o: Int,
                                     to out: UnsafeMutableBufferPointer<Vec3>, at first: Int) {
        guard first >= 0, first + 8 <= out.count else { return }
        let b = 12 * o
        guard o >= 0, b + 11 < bf.count else {
            for (i, c) in f.boxCorners(o).prefix(8).enumerated() { out[first + i] = c }
            return
        }
        let c = Vec3(bf[b], bf[b + 1], bf[b + 2])
        let a = Vec3(bf[b + 3], bf[b + 4], bf[b + 5]), e = Vec3(bf[b + 6], bf[b + 7], bf[b + 8])
        let d = Vec3(bf[b + 9], bf[b + 10], bf[b + 11])
        for k in 0..<8 {
            let x: Vec3 = k & 1 == 0 ? -a : a, y: Vec3 = k & 2 == 0 ? -e : e, z: Vec3 = k & 4 == 0 ? -d : d
            out[first + k] = c + x + y + z
        }
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        guard band.isFinite, band > 0 else { return }
        trackedBefore = out.tracks(rule: rule)
        let n = scene.entities.count
        let canList = incremental && !exhaustive && depthRate.isFinite && f.boxFrames.count >= 12 * n
            && f.visible.count >= n && f.center.count >= n && f.front.count >= n && f.upAxis.count >= n
        if canList, listValid, listHolds(f, &out) {
            listAge += 1; listFrames += 1
            evaluateList(f, &out)
            return
        }
        if listValid {
            endKnownStreak(&out)
            listValid = false
            if listAge <= 1 { backoff = min(max(1, 2 * backoff), 64); pause = backoff } else { backoff = 0 }
        }
        // The first frame searches and records where the content is: the first list is built in
        // the next frame, knowing what moved in between (see `chooseSkins`).
        let build = canList && pause == 0 && recorded
        if canList, !recorded { recordContent(f); recorded = true }
        if pause > 0 { pause -= 1 }
        if build { chooseSkins(f) }
        prepareCorners(f, classify: !exhaustive, bySkin: build)
        if build, buildList(f) {
            listValid = true; listAge = 1; listFrames += 1; listBuilds += 1
            evaluateList(f, &out)
        } else {
            evaluateSearching(f, &out)
        }
    }

    /// The findings a streak of known findings repeated get the streak's frames.
    func finish(_ out: inout Findings, _ end: EndState) { endKnownStreak(&out) }

    /// This frame's corners of the visible content, and (when `classify`) each piece's corners in
    /// the grid of its size class.
    private func prepareCorners(_ f: FrameQuantities, classify: Bool, bySkin: Bool) {
        let classes = Self.classExtent
        if classify {
            for k in 0..<Self.gridCount { classCorners[k].removeAll(keepingCapacity: true); classOwner[k].removeAll(keepingCapacity: true) }
        }
        var corners = self.corners
        self.corners = []
        defer { self.corners = corners }
        f.boxFrames.withUnsafeBufferPointer { bf in
        corners.withUnsafeMutableBufferPointer { cs in
            for (j, o) in content.enumerated() where f.visible[o] {
                let first = 8 * j
                piecesPrepared &+= 1
                if exhaustive {
                    for (i, c) in f.boxCorners(o).prefix(8).enumerated() { cs[first + i] = c }
                    continue
                }
                Self.writeCorners(f, bf, o, to: cs, at: first)
                guard classify else { continue }
                var lo = cs[first], hi = lo
                for i in (first + 1)..<(first + 8) { lo = pointwiseMin(lo, cs[i]); hi = pointwiseMax(hi, cs[i]) }
                // Rounded up a little, so the class bounds the exact spread of the corners.
                let spread = length(hi - lo) * (1 + 1e-9)
                var k = 0
                while k < classes.count - 1, !(spread <= classes[k]) { k += 1 }
                if bySkin { k += classes.count * Int(skinLevel[j]) }
                classCorners[k].append(contentsOf: cs[first..<(first + 8)])
                for _ in 0..<8 { classOwner[k].append(Int32(truncatingIfNeeded: o)) }
            }
        }}
        if classify { for k in 0..<Self.gridCount { grids[k].build(classCorners[k]) } }
    }

    /// Every frame's search: each visible window tests the content the grids find near it (all
    /// content when exhaustive).
    private func evaluateSearching(_ f: FrameQuantities, _ out: inout Findings) {
        let classes = Self.classExtent
        for w in windows where f.visible[w] {
            guard let plane = WindowPlane(f, w) else { continue }
            let mpp = f.metresPerPoint(of: w, in: scene)
            guard mpp > 0 else { continue }
            let eyeSide = dot(f.headPosition - plane.center, plane.normal)
            guard eyeSide > 1e-6 else { continue }
            let bandM = band * mpp
            // The slab test with a little slack, so rounding never loses a corner the exact test takes.
            let slab = KeepoutSlab(low: -(depthRate * eyeSide * (1 + 1e-9) + 1e-9),
                                   high: eyeSide - Self.nearEye + 1e-9 * (1 + eyeSide))
            windowSearches &+= 1
            candidates.removeAll(keepingCapacity: true)
            if exhaustive || !slab.low.isFinite || !slab.high.isFinite {
                candidates.append(contentsOf: content)
            } else {
                stamp += 1
                let reach = KeepoutReach(plane: plane, eye: f.headPosition, heights: eyeSide, eyeSide, slab: slab, bandM: bandM)
                for k in 0..<Self.gridCount where !classCorners[k].isEmpty {
                    collect(grid: k, plane: plane, slab: slab, eyeSide: eyeSide, reach: reach, margin: classes[k % classes.count])
                }
                sortIndices(&candidates, below: scene.entities.count)
            }
            candidatesSorted &+= candidates.count
            // In content order, as the definition visits them (the first of equal gaps is kept).
            for o in candidates where o != w && f.visible[o] && (!isNested(scene, o, in: w) || presented[o]) {
                guard !out.limitReached || trackedBefore else { return }
                if out.limitReached, !out.hasAggregate(rule: rule, w, o) { continue }
                pairChecks += 1
                var slot: Int32 = -1
                test(w, o, plane, eyeSide: eyeSide, bandM: bandM, mpp: mpp, f, slot: &slot, &out)
            }
        }
    }

    /// The frame from the list: each visible window's listed pairs, in content order. Pairs in a
    /// streak of known findings (`streakBit`) are only counted while it continues; a frame that
    /// does not continue the streak ends it and starts one.
    private func evaluateList(_ f: FrameQuantities, _ out: inout Findings) {
        let continuing = knownStreaks && streakLast >= 0 && streakContinues(f, out)
        if !continuing { endKnownStreak(&out) }
        let marking = knownStreaks && !continuing
        let starts = listStart, pairs = listPairs, moved = movedSinceBuild, drift = self.drift
        let near = Self.nearSkin, inStreak = Self.streakBit, reportedInStreak = Self.streakBit | Self.streakReportedBit
        let firstCorner = self.firstCorner, visible = f.visible, head = f.headPosition, frames = f.boxFrames
        let depthRate = self.depthRate, band = self.band, rule = self.rule, tracked = trackedBefore
        let reject = slabScreen
        var slots = listSlot, corners = self.corners, known = listKnown, marked = streakWindow, locals = listLocal
        listSlot = []; self.corners = []; listKnown = []; streakWindow = []; listLocal = []
        defer { listSlot = slots; self.corners = corners; listKnown = known; streakWindow = marked; listLocal = locals }
        let local = localCertificates && locals.count == known.count, localSkin2 = Self.localSkin * Self.localSkin
        let epochs = localEpoch, refCorners = localRefCorners
        let frame = f.frame
        var tries = 0, certified = 0, movingCertified = 0, localCount = 0
        if marking { for j in marked.indices { marked[j] = false } }
        var checks = 0, knownCount = 0, settledCount = 0, repeated = 0
        defer {
            pairChecks += checks; listedChecks &+= checks; knownFindings += knownCount; settledFindings += settledCount
            streakPairFrames &+= repeated
            localTries &+= tries; localCertified &+= certified; localMovingCertified &+= movingCertified
            localFindings &+= localCount; pairsBounded &+= tries
        }
        // Buffers: no uniqueness or exclusivity check per pair (only the bounds checks).
        slots.withUnsafeMutableBufferPointer { slots in
        known.withUnsafeMutableBufferPointer { known in
        locals.withUnsafeMutableBufferPointer { locals in
        corners.withUnsafeMutableBufferPointer { cs in
        frames.withUnsafeBufferPointer { bf in
        refCorners.withUnsafeBufferPointer { refs in
            let cs = UnsafeBufferPointer(cs)
            for (j, w) in windows.enumerated() where visible[w] {
                let a = Int(starts[j]), b = Int(starts[j + 1])
                // The plane of the build: the window is where it was then, bit for bit.
                guard a < b, let plane = listPlanes[j] else { continue }
                let mpp = f.metresPerPoint(of: w, in: scene)
                guard mpp > 0 else { continue }
                let eyeSide = dot(head - plane.center, plane.normal)
                guard eyeSide > 1e-6 else { continue }
                let bandM = band * mpp, slab = Self.exactSlab(depthRate: depthRate, eyeSide: eyeSide)
                for i in a..<b {
                    let code = known[i]
                    if continuing, code & inStreak != 0 {
                        // Visible, as in the streak's first frame. Its finding repeats that frame's
                        // (its run is extended when the streak ends), or it is passed over again.
                        if code & reportedInStreak == reportedInStreak {
                            checks += 1; knownCount += 1; repeated += 1
                            continue
                        }
                        if out.limitReached, !out.hasAggregate(rule: rule, w, Int(pairs[i])) { continue }
                        checks += 1; settledCount += 1; repeated += 1
                        continue
                    }
                    let o = Int(pairs[i])
                    guard visible[o] else { continue }
                    guard !out.limitReached || tracked else { return }
                    if out.limitReached, !out.hasAggregate(rule: rule, w, o) { continue }
                    checks += 1
                    let first = Int(firstCorner[o])
                    var side = UInt8(truncatingIfNeeded: code & 3), settled = false
                    // Whether what is known of the pair holds in every frame of the list (bounds
                    // with the content's skin), or while the content does not move (without it).
                    var lasting = side != 0
                    let k = first / 8
                    if first >= 0, k < moved.count, k < drift.count, !moved[k] || drift[k] <= near {
                        // The content is where it was when bounded, corner for corner, or within
                        // `nearSkin` of it.
                        let level: UInt32 = moved[k] ? 4 : 2
                        let verdict = UInt8(truncatingIfNeeded: (code >> level) & 3)
                        if verdict == 3 {
                            settledCount += 1
                            if marking, !moved[k] { known[i] |= inStreak; marked[j] = true }
                            continue
                        }
                        if verdict != 0 { side = verdict; lasting = !moved[k] }
                        settled = true
                    }
                    if side != 0 {
                        // What the exact test finds for this pair in every frame the list holds.
                        knownCount += 1
                        Self.reportCovered(rule: rule, band: band, w, o, gap: 0, side: Double(side), mpp: mpp, f,
                                           slot: &slots[i], &out)
                        if marking, lasting { known[i] |= reportedInStreak; marked[j] = true }
                        continue
                    }
                    let movedK = first >= 0 && k < moved.count && moved[k]
                    if local, settled || movedK, k < epochs.count {
                        // A certificate near the eye may settle the pair: for the content as it was at
                        // the build, or (moved since) anywhere within `movingSkin` of its reference.
                        let epoch = epochs[k]
                        var verdict = (code >> Self.localVerdictShift) & 3
                        let at = locals[i]
                        if verdict != 0 {
                            let d = head - Vec3(at.x, at.y, at.z)
                            if !(dot(d, d) <= localSkin2) || at.w != Double(epoch) { verdict = 0 }
                        }
                        // A certificate that lapsed is taken again at once; after a failure, later.
                        let lapsed = verdict == 0 && (code >> Self.localVerdictShift) & 3 != 0
                        if verdict == 0, lapsed || Double(frame) >= at.w {
                            // A new certificate for the eye within `localSkin` of this frame's.
                            tries += 1
                            // Set up for each try: a few tries a frame per window, and one of these kept
                            // across the loop would be copied (232 bytes) for every pair.
                            let bounds = ListBounds(plane: plane, eye: head, bandM: bandM, depthRate: depthRate,
                                                    eyeSkin: Self.localSkin)
                            let failed = (code >> Self.localTriesShift) & 7
                            var next = code & ~Self.localMask
                            let r = 8 * k
                            if bounds.de.isFinite, first >= 0, first + 8 <= cs.count, r + 8 <= refs.count {
                                let pair = movedK
                                    ? bounds.classify(UnsafeBufferPointer(rebasing: refs[r..<(r + 8)]), skin: Self.movingSkin)
                                    : bounds.classify(UnsafeBufferPointer(rebasing: cs[first..<(first + 8)]), skin: 0)
                                switch pair {
                                case .unreported: verdict = 1
                                case .straddles(let s): verdict = 1 + UInt32(s)
                                case .tested: break
                                }
                            }
                            if verdict != 0 {
                                certified += 1
                                if movedK { movingCertified += 1 }
                                next |= verdict << Self.localVerdictShift
                                locals[i] = SIMD4(head.x, head.y, head.z, Double(epoch))
                            } else {
                                // Tried again after 2, 4 … 256 frames.
                                next |= min(failed + 1, 7) << Self.localTriesShift
                                locals[i].w = Double(frame + (2 << Int(failed)))
                            }
                            known[i] = next
                        }
                        if verdict == 1 { localCount += 1; continue }
                        if verdict > 1 {
                            localCount += 1
                            Self.reportCovered(rule: rule, band: band, w, o, gap: 0, side: Double(verdict - 1), mpp: mpp, f,
                                               slot: &slots[i], &out)
                            continue
                        }
                    }
                    // Content that moved: many of its listed pairs have no part in the slab this frame.
                    if reject, !settled, Self.outsideSlab(bf, o, plane, slab) { continue }
                    guard let (gap, side) = Self.exactGap(cs, first, plane, head: head, eyeSide: eyeSide,
                                                          slab: slab, bandM: bandM) else { continue }
                    Self.reportCovered(rule: rule, band: band, w, o, gap: gap, side: side, mpp: mpp, f, slot: &slots[i], &out)
                }
            }
        }}}}}}
        if continuing {
            streakFrames.note(frame: f.frame, time: f.time)
            streakLast = f.frame
        } else if marking {
            // Two windows listed with each other share an aggregate: a pair stays in the streak
            // only when the other is in it too (or not listed), so that no finding of the streak's
            // aggregates is reported frame by frame while its run is extended afterwards.
            known.withUnsafeMutableBufferPointer { known in
                for (j, w) in windows.enumerated() where marked[j] {
                    for i in Int(starts[j])..<Int(starts[j + 1]) where known[i] & inStreak != 0 {
                        let jo = Int(windowIndex[Int(pairs[i])])
                        guard jo >= 0 else { continue }
                        // The other window's pairs are in increasing content order.
                        var lo = Int(starts[jo]), hi = Int(starts[jo + 1])
                        while lo < hi {
                            let mid = (lo + hi) / 2
                            if Int(pairs[mid]) < w { lo = mid + 1 } else { hi = mid }
                        }
                        if lo < Int(starts[jo + 1]), Int(pairs[lo]) == w, known[lo] & inStreak == 0 {
                            known[i] &= ~(Self.streakBit | Self.streakReportedBit)
                        }
                    }
                }
            }
            streakLast = f.frame
            _ = streakFrames.take()
            if streakVisible.count == visible.count {
                streakVisible.withUnsafeMutableBufferPointer { dst in visible.withUnsafeBufferPointer { src in _ = dst.update(fromContentsOf: src) } }
            } else {
                streakVisible = visible
            }
        }
    }

    /// Whether this frame continues the streak of known findings (see `streakBit`).
    private func streakContinues(_ f: FrameQuantities, _ out: Findings) -> Bool {
        guard f.frame == streakLast &+ 1, !out.limitReached, trackedBefore, !newlyMoved,
              f.visible.count == streakVisible.count else { return false }
        let same = f.visible.withUnsafeBytes { a in
            streakVisible.withUnsafeBytes { b -> Bool in
                guard a.count == b.count else { return false }
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return a.count == 0 }
                return memcmp(pa, pb, a.count) == 0
            }
        }
        guard same else { return false }
        let head = f.headPosition
        for (j, m) in streakWindow.enumerated() where m {
            // The eye in front of the plane of the build, as `evaluateList` tests it.
            guard j < listPlanes.count, let plane = listPlanes[j], dot(head - plane.center, plane.normal) > 1e-6 else { return false }
        }
        return true
    }

    /// Ends the streak of known findings: adds the frames after its first to the runs of the
    /// findings it repeated (what reporting them in each frame does) and clears its marks.
    private func endKnownStreak(_ out: inout Findings) {
        guard streakLast >= 0 else { return }
        streakLast = -1
        let starts = listStart, pairs = listPairs, rule = self.rule, marks = Self.streakBit | Self.streakReportedBit
        let span = streakFrames.take()
        var known = listKnown, slots = listSlot
        listKnown = []; listSlot = []
        defer { listKnown = known; listSlot = slots }
        for (j, w) in windows.enumerated() where j < streakWindow.count && streakWindow[j] {
            streakWindow[j] = false
            for i in Int(starts[j])..<Int(starts[j + 1]) where known[i] & marks != 0 {
                if let span, known[i] & marks == marks {
                    out.extendRun(slot: &slots[i], rule: rule, w, Int(pairs[i]), from: span.from, fromTime: span.fromTime,
                                  to: span.to, toTime: span.toTime)
                }
                known[i] &= ~marks
            }
        }
    }

    /// The exact test of window `w` against content `o` (the rule's definition), and its finding.
    @inline(__always)
    private func test(_ w: Int, _ o: Int, _ plane: WindowPlane, eyeSide: Double, bandM: Double, mpp: Double,
                      _ f: FrameQuantities, slot: inout Int32, _ out: inout Findings) {
        let found = corners.withUnsafeBufferPointer {
            Self.exactGap($0, Int(firstCorner[o]), plane, head: f.headPosition, eyeSide: eyeSide,
                          slab: Self.exactSlab(depthRate: depthRate, eyeSide: eyeSide), bandM: bandM)
        }
        guard let (gap, side) = found else { return }
        Self.reportCovered(rule: rule, band: band, w, o, gap: gap, side: side, mpp: mpp, f, slot: &slot, &out)
    }

    /// The finding of window `w`'s controls covered by content `o`, `gap` metres from the window's
    /// edge on `side` (1 below, 2 above); aux carries both, the window and the band.
    @inline(__always)
    static func reportCovered(rule: Int, band: Double, _ w: Int, _ o: Int, gap: Double, side: Double, mpp: Double,
                              _ f: FrameQuantities, slot: inout Int32, _ out: inout Findings) {
        out.report(slot: &slot, rule: rule, w, o, frame: f.frame, time: f.time, measured: gap / mpp, threshold: band,
                   aux: Double(w) * 4 + side, severity: nil, angular: false, unit: nil)
    }

    /// Whether no part of `o`'s box, its corners as `writeCorners` computes them from its box frame
    /// `bf[12·o ..< 12·o + 12]` (centre ± a0 ± a1 ± a2), lies in the exact test's slab (so no corner
    /// is taken and no edge crosses it): the whole box lies beyond one side, its centre's depth
    /// beyond that side by more than the half-axes reach along the normal and an allowance for rounding (10⁻⁹ of the magnitudes; the corners' and depths'
    /// rounding is about 10⁻¹⁵ of them). NaN or infinite values: false.
    @inline(__always)
    static func outsideSlab(_ bf: UnsafeBufferPointer<Double>, _ o: Int, _ plane: WindowPlane, _ slab: KeepoutSlab) -> Bool {
        let b = 12 * o
        guard o >= 0, b + 11 < bf.count else { return false }
        let n = plane.normal
        let c = Vec3(bf[b], bf[b + 1], bf[b + 2])
        let a0 = Vec3(bf[b + 3], bf[b + 4], bf[b + 5]), a1 = Vec3(bf[b + 6], bf[b + 7], bf[b + 8])
        let a2 = Vec3(bf[b + 9], bf[b + 10], bf[b + 11])
        let s = dot(c - plane.center, n)
        let r = abs(dot(a0, n)) + abs(dot(a1, n)) + abs(dot(a2, n))
        @inline(__always) func m(_ v: Vec3) -> Double { abs(v.x) + abs(v.y) + abs(v.z) }
        let allowance = 1e-9 * (1 + m(c) + m(a0) + m(a1) + m(a2) + m(plane.center)) * (1 + m(n))
        return s - r > slab.high + allowance || s + r < slab.low - allowance
    }

    /// A corner's distance in front of the plane, as the exact test computes it.
    @inline(__always)
    static func depth(_ c: Vec3, _ plane: WindowPlane) -> Double { dot(c - plane.center, plane.normal) }

    /// The exact test on the box with corners `cs[first ..< first + 8]` (in `boxCorners`' order:
    /// corners k and k ^ 1, k ^ 2, k ^ 4 share an edge): the gap (metres) between the window's
    /// edge and the image, seen from `head`, of the part of the box whose depth lies in `slab`
    /// (`exactSlab`), and its side (1 below, 2 above); nil when nothing is reported. That part is
    /// the box clipped to the slab: a convex solid whose vertices are the corners in the slab and
    /// the points where an edge crosses one of the slab's two planes, and whose image (the
    /// projection from the eye keeps straight lines straight in front of the eye) is spanned by
    /// the images of those vertices. A desk 1.6 m deep under a window is judged by its top where
    /// it passes under the window, not only by its corners.
    @inline(__always)
    static func exactGap(_ cs: UnsafeBufferPointer<Vec3>, _ first: Int, _ plane: WindowPlane, head: Vec3,
                         eyeSide: Double, slab: KeepoutSlab, bandM: Double) -> (Double, Double)? {
        guard first >= 0, first + 8 <= cs.count else { return nil }
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        // Bit k: corner k's depth is finite; is below the slab's low plane; is below its high
        // plane (a NaN depth is neither taken nor an edge's end).
        var inside = true, finite: UInt8 = 0, underLow: UInt8 = 0, underHigh: UInt8 = 0
        for k in 0..<8 {
            let c = cs[first + k]
            let sk = depth(c, plane)
            if sk.isFinite {
                let bit = UInt8(1) << k
                finite |= bit
                if sk < slab.low { underLow |= bit }
                if sk < slab.high { underHigh |= bit }
            }
            // In the slab, which ends `nearEye` short of the eye: λ ≤ eyeSide / nearEye.
            guard slab.contains(sk) else { inside = false; continue }
            let lambda = eyeSide / (eyeSide - sk)
            let q = plane.planar(head + (c - head) * lambda)
            lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
        }
        if !inside, slab.low <= slab.high {
            // Where an edge crosses a plane of the slab (both ends' depths finite, one below the
            // plane): edge (i, i | b) for each axis bit b, found from the bits, and its depths
            // computed again as above (cheaper than keeping them).
            var b = 1
            while b < 8 {
                let lower: UInt8 = b == 1 ? 0x55 : (b == 2 ? 0x33 : 0x0F)  // the corners i with i & b == 0
                let both = finite & (finite >> b) & lower
                for side in 0..<2 {
                    let under = side == 0 ? underLow : underHigh
                    var edges = (under ^ (under >> b)) & both
                    let at = side == 0 ? slab.low : slab.high
                    while edges != 0 {
                        let i = edges.trailingZeroBitCount, j = i | b
                        edges &= edges - 1
                        let ci = cs[first + i], si = depth(ci, plane), sj = depth(cs[first + j], plane)
                        let p = ci + (cs[first + j] - ci) * ((at - si) / (sj - si))
                        let q = plane.planar(head + (p - head) * (eyeSide / (eyeSide - at)))
                        lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
                    }
                }
                b <<= 1
            }
        }
        guard lo.x.isFinite, hi.x > -plane.halfWidth, lo.x < plane.halfWidth else { return nil }
        var gap = Double.infinity, side = 0.0
        if lo.y < -plane.halfHeight, hi.y > -plane.halfHeight - bandM {
            gap = max(0, -plane.halfHeight - hi.y); side = 1
        }
        if hi.y > plane.halfHeight, lo.y < plane.halfHeight + bandM {
            let g = max(0, lo.y - plane.halfHeight)
            if g < gap { gap = g; side = 2 }
        }
        guard gap.isFinite else { return nil }
        return (gap, side)
    }

    /// Whether the list built at the last build still holds this frame: the eye within
    /// `eyeSkin` of where it was, every visible window visible then and its plane unchanged bit
    /// for bit, and every visible piece of content visible then with its corners within its skin
    /// of where they were, or else few enough pieces that failed the last condition for
    /// `updateList` to renew their pairs. Brings the corners of content that changed up to date
    /// (the others keep the build's, the same numbers). An entity the simulator says cannot move
    /// (`FrameQuantities.canMove`) has the first frame's box in every frame, which is the build's:
    /// it is not compared.
    private func listHolds(_ f: FrameQuantities, _ out: inout Findings) -> Bool {
        newlyMoved = false
        guard length(f.headPosition - listEye) <= Self.eyeSkin else { return false }
        let canMove = f.canMove, stillKnown = canMove.count == f.visible.count
        let windowsHold = listPlane.withUnsafeBufferPointer { lp in
            for (j, w) in windows.enumerated() where f.visible[w] {
                guard listShown[j] else { return false }
                if stillKnown, !canMove[w] { continue }
                let k = 21 * j
                @inline(__always) func same(_ i: Int, _ v: Vec3) -> Bool {
                    lp[k + i] == v.x.bitPattern && lp[k + i + 1] == v.y.bitPattern && lp[k + i + 2] == v.z.bitPattern
                }
                guard same(0, f.center[w]), same(3, f.front[w]), same(6, f.upAxis[w]) else { return false }
                for i in 0..<12 where lp[k + 9 + i] != f.boxFrames[12 * w + i].bitPattern { return false }
            }
            return true
        }
        guard windowsHold else { return false }
        let seenThen = listSeen, levels = skinLevel, skins = Self.skinLevels
        // Renewing a piece's pairs tests it with every window: worth it for a few pieces only.
        let maxRenewed = partialUpdates ? max(16, content.count / 32) : 0
        var moved = movedSinceBuild, corners = self.corners, drift = self.drift
        var ref = localRef, refCorners = localRefCorners, epoch = localEpoch
        var renew: [Int] = []
        movedSinceBuild = []; self.corners = []; self.drift = []; localRef = []; localRefCorners = []; localEpoch = []
        defer {
            movedSinceBuild = moved; self.corners = corners; self.drift = drift
            localRef = ref; localRefCorners = refCorners; localEpoch = epoch
        }
        let skin = Self.movingSkin
        let contentHolds = f.boxFrames.withUnsafeBufferPointer { bf in
            listBox.withUnsafeBufferPointer { lb in
            ref.withUnsafeMutableBufferPointer { ref in
            refCorners.withUnsafeMutableBufferPointer { rc in
            corners.withUnsafeMutableBufferPointer { cs -> Bool in
                /// The reference of `content[k]`'s certificates near the eye (`localRef`) taken again
                /// where it is when asked to (`anew`) or when it is farther than `movingSkin` from it.
                @inline(__always) func follow(_ k: Int, _ o: Int, anew: Bool) {
                    let b = 12 * o, r = 12 * k
                    guard k < epoch.count, r + 12 <= ref.count, b + 12 <= bf.count else { return }
                    guard anew || !(Self.cornerDrift(bf, b, UnsafeBufferPointer(ref), r) <= skin) else { return }
                    for i in 0..<12 { ref[r + i] = bf[b + i] }
                    Self.writeCorners(f, bf, o, to: rc, at: 8 * k)
                    epoch[k] &+= 1
                }
                for (k, o) in content.enumerated() where f.visible[o] {
                    guard seenThen[k] else {
                        // Appeared since the build.
                        guard renew.count < maxRenewed else { return false }
                        renew.append(k)
                        drift[k] = 0
                        Self.writeCorners(f, bf, o, to: cs, at: 8 * k)
                        follow(k, o, anew: true)
                        continue
                    }
                    // Where it was at the build, bit for bit: nothing to do (not moved, drift 0).
                    if stillKnown, !canMove[o] { continue }
                    let b = 12 * o, l = 12 * k
                    var same = true
                    for i in 0..<12 where bf[b + i].bitPattern != lb[l + i].bitPattern { same = false; break }
                    if same {
                        // Back where it was: the build's corners again.
                        if moved[k] { Self.writeCorners(f, bf, o, to: cs, at: 8 * k); follow(k, o, anew: false) }
                        drift[k] = 0
                        continue
                    }
                    let distance = Self.cornerDrift(bf, b, lb, l)
                    if !moved[k] { newlyMoved = true }
                    follow(k, o, anew: !moved[k])
                    moved[k] = true
                    drift[k] = distance
                    if !(distance <= skins[Int(levels[k])]) {
                        guard renew.count < maxRenewed else { return false }
                        renew.append(k)
                        // Bounded again from where it is now.
                        drift[k] = 0
                    }
                    Self.writeCorners(f, bf, o, to: cs, at: 8 * k)
                }
                return true
            }}}}
        }
        guard contentHolds else { return false }
        if renew.isEmpty { return true }
        self.corners = corners
        defer { corners = self.corners }
        return updateList(f, renewing: renew, &out)
    }

    /// How far at most a corner of the box frame `a[i ..< i + 12]` lies from the same corner of
    /// `b[j ..< j + 12]`: corner = centre ± a0 ± a1 ± a2, so no corner moved more than the sum of
    /// how far the centre and each half-axis moved. The callers check the ranges.
    @inline(__always)
    static func cornerDrift(_ a: UnsafeBufferPointer<Double>, _ i: Int, _ b: UnsafeBufferPointer<Double>, _ j: Int) -> Double {
        var distance = 0.0
        for v in 0..<4 {
            let p = i + 3 * v, q = j + 3 * v
            distance += length(Vec3(a[p], a[p + 1], a[p + 2]) - Vec3(b[q], b[q + 1], b[q + 2]))
        }
        return distance
    }

    /// Renews the list's pairs of the pieces of content `renew` (indices into `content`: each
    /// outran its skin or appeared since the build), for the build's eye and windows: each such
    /// piece is given the skin of moving content (of content not known, when it appeared) and its
    /// box of this frame as its new reference, its old pairs are dropped, and `classify` decides
    /// its pairs with every window visible at the build, against this frame's corners (without
    /// the grids, which only narrow down what `classify` is asked). Every other pair keeps its
    /// place (and its aggregate's slot), and each window's pairs stay in content order, so the
    /// list frames test the pairs a whole build would keep in the same order (and perhaps a few
    /// more, which the exact test rejects). False (the list is then built again) when the list
    /// would grow beyond `maxListPairs`.
    private func updateList(_ f: FrameQuantities, renewing renew: [Int], _ out: inout Findings) -> Bool {
        let skins = Self.skinLevels
        stamp += 1
        let st = stamp
        for k in renew {
            let o = content[k]
            skinLevel[k] = listSeen[k] ? 2 : 1
            listSeen[k] = true
            for i in 0..<12 { listBox[12 * k + i] = f.boxFrames[12 * o + i] }
            seen[o] = st
        }
        let pieces = renew.map { content[$0] }.sorted()
        // Each piece's box centre and a bound on how far its corners lie from it (the sum of its
        // half-axes), so a window whose slab it cannot reach is passed over without `classify`.
        // Also its skin, and the magnitude for the allowance against rounding.
        func m(_ p: Vec3) -> Double { max(abs(p.x), abs(p.y), abs(p.z)) }
        var centres: [Vec3] = [], radii: [Double] = [], pieceSkin: [Double] = [], magnitude: [Double] = []
        let bf = f.boxFrames
        for o in pieces {
            let b = 12 * o
            let c = Vec3(bf[b], bf[b + 1], bf[b + 2])
            let r = length(Vec3(bf[b + 3], bf[b + 4], bf[b + 5])) + length(Vec3(bf[b + 6], bf[b + 7], bf[b + 8]))
                + length(Vec3(bf[b + 9], bf[b + 10], bf[b + 11]))
            centres.append(c); radii.append(r)
            pieceSkin.append(skins[Int(skinLevel[Int(firstCorner[o]) / 8])])
            magnitude.append(1 + m(c) + r)
        }
        // Local copies: the loops below read no stored property (no exclusivity check per pair).
        let oldStart = listStart, oldPairs = listPairs, oldSlot = listSlot, oldKnown = listKnown, oldLocal = listLocal
        let planes = listPlanes, root = self.root, firstCorner = self.firstCorner
        let corners = self.corners, seen = self.seen, eye = listEye, scene = self.scene
        let band = self.band, depthRate = self.depthRate, shortcut = knownShortcut, listSlab = self.listSlab
        let rule = self.rule, marks = Self.streakBit | Self.streakReportedBit
        let streak = streakFrames.pending
        var starts: [Int32] = [0], pairs: [Int32] = [], slots: [Int32] = [], known: [UInt32] = []
        var locals: [SIMD4<Double>] = []
        starts.reserveCapacity(oldStart.count)
        locals.reserveCapacity(oldPairs.count + pieces.count)
        pairs.reserveCapacity(oldPairs.count + pieces.count)
        slots.reserveCapacity(oldPairs.count + pieces.count)
        known.reserveCapacity(oldPairs.count + pieces.count)
        var fresh: [(o: Int32, known: UInt32)] = []
        var pending = 0
        renewalChecks &+= pieces.count &* windows.count
        var bounded = 0
        defer { pairsBounded &+= bounded }
        for (j, w) in windows.enumerated() {
            let a = Int(oldStart[j]), b = Int(oldStart[j + 1])
            fresh.removeAll(keepingCapacity: true)
            if let plane = planes[j] {
                // As `buildList` bounds them, for the build's eye (set up for the first piece that
                // reaches the window's slab).
                let stretch = plane.stretch
                var bounds: ListBounds?
                let planeMagnitude = m(plane.center)
                for (p, o) in pieces.enumerated() {
                    // Every corner farther from the plane than the slab (and its skin) wherever
                    // the piece goes within its skin: `classify` would skip them all.
                    let dc = pieceSkin[p] * stretch
                    let slab = listSlab[j]
                    let reach = (radii[p] * stretch + dc) * (1 + 1e-9)
                        + 1e-9 * (planeMagnitude + magnitude[p] + abs(slab.low) + abs(slab.high))
                    let depth = dot(centres[p] - plane.center, plane.normal)
                    guard depth + reach >= slab.low, depth - reach <= slab.high, o != w, Int(root[o]) != w else { continue }
                    let first = Int(firstCorner[o])
                    bounded += 1
                    let k = bounds ?? ListBounds(plane: plane, eye: eye, bandM: band * f.metresPerPoint(of: w, in: scene), depthRate: depthRate)
                    guard k.de.isFinite else { return false }
                    bounds = k
                    let pair = k.classify(corners[first..<(first + 8)], skin: pieceSkin[p])
                    if pair != .unreported {
                        fresh.append((Int32(truncatingIfNeeded: o), Self.listCode(pair, k, corners[first..<(first + 8)], skin: pieceSkin[p],
                                                                             shortcut: shortcut)))
                    }
                }
            }
            pairsKept &+= fresh.count
            // A window with neither renewed pieces nor new pairs keeps its pairs as they are: they
            // stay in the run of old pairs not yet copied (from `pending`), copied at once.
            if fresh.isEmpty, !oldPairs[a..<b].contains(where: { seen[Int($0)] == st }) {
                starts.append(Int32(truncatingIfNeeded: pairs.count + (b - pending)))
                guard pairs.count + (b - pending) <= Self.maxListPairs else { return false }
                continue
            }
            if pending < a {
                pairs.append(contentsOf: oldPairs[pending..<a]); slots.append(contentsOf: oldSlot[pending..<a])
                known.append(contentsOf: oldKnown[pending..<a]); locals.append(contentsOf: oldLocal[pending..<a])
            }
            pending = b
            // Merge: the old pairs without the renewed pieces, and the new ones, in content order.
            var i = a, n = 0
            while i < b || n < fresh.count {
                let old = i < b ? oldPairs[i] : Int32.max
                if i < b, seen[Int(old)] == st {
                    // Dropped: a finding repeated by the streak of known findings so far gets its
                    // frames now (`endKnownStreak`).
                    if let streak, oldKnown[i] & marks == marks {
                        var slot = oldSlot[i]
                        out.extendRun(slot: &slot, rule: rule, w, Int(old), from: streak.from, fromTime: streak.fromTime,
                                      to: streak.to, toTime: streak.toTime)
                    }
                    i += 1; continue
                }
                if n < fresh.count, fresh[n].o < old {
                    pairs.append(fresh[n].o); slots.append(-1); known.append(fresh[n].known); locals.append(.zero); n += 1
                } else if i < b {
                    pairs.append(old); slots.append(oldSlot[i]); known.append(oldKnown[i]); locals.append(oldLocal[i]); i += 1
                }
            }
            starts.append(Int32(truncatingIfNeeded: pairs.count))
            guard pairs.count <= Self.maxListPairs else { return false }
        }
        if pending < oldPairs.count {
            pairs.append(contentsOf: oldPairs[pending...]); slots.append(contentsOf: oldSlot[pending...])
            known.append(contentsOf: oldKnown[pending...]); locals.append(contentsOf: oldLocal[pending...])
        }
        listStart = starts; listPairs = pairs; listSlot = slots; listKnown = known; listLocal = locals
        listUpdates += 1
        return true
    }

    /// Records which content is visible and its box frames (the list's reference).
    private func recordContent(_ f: FrameQuantities) {
        for (k, o) in content.enumerated() {
            listSeen[k] = f.visible[o]
            for i in 0..<12 { listBox[12 * k + i] = f.boxFrames[12 * o + i] }
        }
    }

    /// Each piece of content's skin for the list about to be built: moving (changed during the
    /// last list, or since its build), still (visible and unchanged through it), or not known.
    private func chooseSkins(_ f: FrameQuantities) {
        for (k, o) in content.enumerated() {
            var level: UInt8 = 1
            if recorded, listSeen[k] {
                var changed = movedSinceBuild[k]
                if !changed {
                    for i in 0..<12 where f.boxFrames[12 * o + i].bitPattern != listBox[12 * k + i].bitPattern { changed = true; break }
                }
                level = changed ? 2 : 0
            }
            skinLevel[k] = level
            movedSinceBuild[k] = false
            drift[k] = 0
        }
    }

    /// Builds the list for this frame (the corners and grids are this frame's, the grids by skin
    /// level); false when it would be longer than `maxListPairs` (this frame then searches).
    private func buildList(_ f: FrameQuantities) -> Bool {
        let classes = Self.classExtent, skins = Self.skinLevels
        let head = f.headPosition
        listEye = head
        recordContent(f)
        for (j, w) in windows.enumerated() {
            listShown[j] = f.visible[w]
            let k = 21 * j
            for (i, v) in [f.center[w], f.front[w], f.upAxis[w]].enumerated() {
                listPlane[k + 3 * i] = v.x.bitPattern; listPlane[k + 3 * i + 1] = v.y.bitPattern; listPlane[k + 3 * i + 2] = v.z.bitPattern
            }
            for i in 0..<12 { listPlane[k + 9 + i] = f.boxFrames[12 * w + i].bitPattern }
        }
        listStart.removeAll(keepingCapacity: true); listPairs.removeAll(keepingCapacity: true)
        listKnown.removeAll(keepingCapacity: true)
        listStart.append(0)
        // Local buffers and copies: the loop over a window's candidates (millions of pairs in a
        // crowded scene) reads and appends to no stored property (no exclusivity check per pair).
        var pairs = listPairs, known = listKnown
        listPairs = []; listKnown = []
        defer { listPairs = pairs; listKnown = known }
        let root = self.root, firstCorner = self.firstCorner, skinLevel = self.skinLevel, corners = self.corners
        let visible = f.visible, shortcut = knownShortcut
        for (j, w) in windows.enumerated() {
            listPlanes[j] = nil
            listSlab[j] = KeepoutSlab(low: 0, high: -1)
            defer { listStart.append(Int32(truncatingIfNeeded: pairs.count)) }
            guard f.visible[w], let plane = WindowPlane(f, w) else { continue }
            let mpp = f.metresPerPoint(of: w, in: scene)
            guard mpp > 0 else { continue }
            listPlanes[j] = plane
            let bandM = band * mpp
            let bounds = ListBounds(plane: plane, eye: head, bandM: bandM, depthRate: depthRate)
            let stretch = bounds.stretch, de = bounds.de, h0 = bounds.h0
            guard de.isFinite, bounds.slab.low.isFinite, bounds.slab.high.isFinite else { return false }
            listSlab[j] = bounds.slab
            // The search of `evaluateSearching`, for every eye within `de` (its height within
            // h0 ± de, its offsets along the plane within de: `KeepoutReach`'s eye skin) and
            // corners within `dc` (the skin) of this frame's: the slab widened by dc, the region's
            // margin by the class's growth (2·dc) and the corners' displacement (dc).
            stamp += 1
            windowSearches &+= 1
            candidates.removeAll(keepingCapacity: true)
            for (level, skin) in skins.enumerated() {
                let dc = skin * stretch
                let slab = KeepoutSlab(low: bounds.slab.low - dc, high: bounds.slab.high + dc)
                let reach = KeepoutReach(plane: plane, eye: head, heights: h0 - de, h0 + de, eyeSkin: de, slab: slab, bandM: bandM)
                for c in classes.indices {
                    let g = level * classes.count + c
                    guard !classCorners[g].isEmpty else { continue }
                    collect(grid: g, plane: plane, slab: slab, eyeSide: h0, reach: reach, margin: classes[c] * stretch + 3 * dc)
                }
            }
            sortIndices(&candidates, below: scene.entities.count)
            candidatesSorted &+= candidates.count
            pairsBounded &+= candidates.count
            for o in candidates where o != w && visible[o] && Int(root[o]) != w {
                let first = Int(firstCorner[o])
                let pair = bounds.classify(corners[first..<(first + 8)], skin: skins[Int(skinLevel[first / 8])])
                if pair != .unreported {
                    pairs.append(Int32(truncatingIfNeeded: o))
                    known.append(Self.listCode(pair, bounds, corners[first..<(first + 8)], skin: skins[Int(skinLevel[first / 8])],
                                               shortcut: shortcut))
                }
            }
            guard pairs.count <= Self.maxListPairs else { return false }
        }
        pairsKept &+= pairs.count
        listSlot = Array(repeating: -1, count: pairs.count)
        listLocal = Array(repeating: .zero, count: pairs.count)
        return true
    }

    /// A window's plane seen from the eye of a list build, in plane coordinates, with what
    /// `classify` needs to bound its pairs: the eye's skin in plane units (`de`), its height over
    /// the plane and offsets along it, and the magnitudes for the allowance against rounding.
    ///
    /// The exact test's slab reaches `depthRate` times the eye's height over the plane behind it
    /// and `nearEye` short of the eye in front of it, and the height moves by at most `de`: every
    /// slab the list allows lies within `slab` and holds `certain` (with 10⁻⁹ of the magnitudes
    /// against rounding of the height, the product and the difference).
    struct ListBounds {
        let plane: WindowPlane
        let bandM, stretch, de, h0, eu, ev, scale: Double
        let slab, certain: KeepoutSlab
        init(plane: WindowPlane, eye: Vec3, bandM: Double, depthRate: Double, eyeSkin: Double = ControlsKeepoutRule.eyeSkin) {
            func m(_ p: Vec3) -> Double { max(abs(p.x), abs(p.y), abs(p.z)) }
            self.plane = plane; self.bandM = bandM
            stretch = plane.stretch
            de = eyeSkin * stretch
            let d0 = eye - plane.center
            h0 = dot(d0, plane.normal); eu = dot(d0, plane.right); ev = dot(d0, plane.up)
            let skins = ControlsKeepoutRule.skinLevels
            let h = 1 + m(plane.center) + m(eye) + abs(h0)
            let near = ControlsKeepoutRule.nearEye
            slab = KeepoutSlab(low: -(depthRate * (h0 + de + 1e-9 * h) * (1 + 1e-9) + 1e-9), high: h0 + de - near + 1e-9 * h)
            certain = KeepoutSlab(low: -(depthRate * (h0 - de - 1e-9 * h) * (1 - 1e-9) - 1e-9), high: h0 - de - near - 1e-9 * h)
            scale = 1 + m(plane.center) + m(eye) + de + skins[skins.count - 1] * stretch + plane.halfWidth
                + plane.halfHeight + bandM + abs(h0) + abs(eu) + abs(ev) + abs(slab.low) + abs(slab.high)
        }
        /// `classify` for content with these corners and this skin (metres in the world): corners
        /// that may be in the slab for some eye the list allows (in `slab`), and those certainly in
        /// it for every one (in `certain`).
        func classify<Corners: RandomAccessCollection<Vec3>>(_ cs: Corners, skin: Double) -> ListedPair {
            ControlsKeepoutRule.classify(cs, plane, eu: eu, ev: ev, h: h0, de: de, dc: skin * stretch, slab: slab,
                                         certain: certain, bandM: bandM, scale: scale)
        }
    }

    /// `listKnown`'s entry of a listed pair whose bounds with its skin are `pair`: with the
    /// shortcut, a pair tested with its skin is bounded again for its corners as they are (no
    /// skin), which may settle it while the content stays.
    static func listCode(_ pair: ListedPair, _ bounds: ListBounds, _ cs: ArraySlice<Vec3>, skin: Double, shortcut: Bool) -> UInt32 {
        let near = nearSkin
        guard shortcut else { return 0 }
        var code = UInt32(pair.side)
        guard pair == .tested else { return code }
        func verdict(_ skin: Double) -> UInt32 {
            let p = bounds.classify(cs, skin: skin)
            return p == .unreported ? 3 : UInt32(p.side)
        }
        code |= verdict(0) << 2
        if skin > near { code |= verdict(near) << 4 }
        return code
    }

    /// What the list can know of a pair while the eye and content stay within their skins.
    enum ListedPair: Equatable {
        /// No eye and corner position the skins allow can report it: not listed.
        case unreported
        /// It may be reported: the exact test decides, frame by frame.
        case tested
        /// Reported in every such frame with a gap of 0 pt on `side` (1: below the bottom edge,
        /// 2: above the top one): its image certainly straddles that edge.
        case straddles(side: UInt8)
        var side: UInt8 { if case .straddles(let s) = self { return s }; return 0 }
    }

    /// What the exact test can find for content with these corners (plane `plane`'s coordinates
    /// computed from them) while the eye (at eu, ev, height h in plane coordinates) moves by at
    /// most `de` and each corner by at most `dc` (in plane coordinates). A corner at (qu, qv, s)
    /// projects from the eye to qu + s·(qu − Eu) / (h − s) (likewise v): interval arithmetic over
    /// s ∈ [s0 − dc, s0 + dc] ∩ `slab`, Eu ∈ [eu ± de], h ∈ [h0 ± de] and h − s ≥ `nearEye` (the
    /// exact test takes no corner nearer the eye; `denominatorFloor`) bounds every image the exact
    /// test can compute, and the rule's conditions are tested on those bounds (with 10⁻⁹ of the
    /// magnitudes against rounding):
    /// - `unreported` when the box of all the bounds misses the window's width or both bands;
    /// - `straddles` when the points that certainly take part (corners with s within `certain`
    ///   for every position and, for content without a skin (dc = 0), the points where an edge
    ///   crosses a plane of the slab for every position) certainly reach across the window's width
    ///   and across one edge: the exact test then finds a gap of exactly 0 on that side whatever
    ///   the other points do (they can only widen the image), except that side 2 also needs every
    ///   point that may take part to stay above the bottom edge (else side 1 could be found);
    /// - `tested` otherwise, and whenever something is not finite or the eye can come within
    ///   10⁻³ of a corner.
    static func classify<Corners: RandomAccessCollection<Vec3>>(_ cs: Corners, _ plane: WindowPlane, eu: Double, ev: Double, h: Double,
                         de: Double, dc: Double, slab: KeepoutSlab, certain: KeepoutSlab, bandM: Double,
                         scale: Double, screen: Bool = true) -> ListedPair {
        if screen, let known = screenBox(cs, plane, eu: eu, ev: ev, h: h, de: de, dc: dc, slab: slab, bandM: bandM, scale: scale) {
            return known
        }
        var acc = ImageUnion(eu: eu, ev: ev, h: h, de: de, dc: dc, floor: denominatorFloor(h: h, de: de), mag: scale)
        var anyIn = false
        // Over the points that certainly take part: the largest lower and smallest upper bounds.
        var inULo = -Double.infinity, inUHi = Double.infinity, inVLo = -Double.infinity, inVHi = Double.infinity
        // Each corner's depth and plane coordinates, for the edges, and the depths' range.
        // (On the stack: SIMD8 lanes read and written by index cost several times as much.)
        let early: ListedPair? = withUnsafeTemporaryAllocation(of: Double.self, capacity: 24) { kept -> ListedPair? in
            var sMin = Double.infinity, sMax = -Double.infinity
            let box = cs.count == 8
            for (k, c) in cs.enumerated() {
                let d = c - plane.center
                let s = dot(d, plane.normal), qu = dot(d, plane.right), qv = dot(d, plane.up)
                guard s.isFinite, qu.isFinite, qv.isFinite else { return .tested }
                if box { kept[k] = s; kept[8 + k] = qu; kept[16 + k] = qv }
                sMin = min(sMin, s); sMax = max(sMax, s)
                let sl = max(s - dc, slab.low), sh = min(s + dc, slab.high)
                guard sl <= sh else { continue }
                guard let (u, v) = acc.add(qu, qu, qv, qv, sl, sh, sMag: abs(s)) else { return .tested }
                // In the slab for every position (the exact test's `slab`), with rounding of s far below
                // 10⁻⁹ of the magnitudes.
                let epsS = 1e-9 * (scale + abs(qu) + abs(qv) + abs(s))
                if s - dc - epsS > certain.low, s + dc + epsS < certain.high {
                    anyIn = true
                    inULo = max(inULo, u.0); inUHi = min(inUHi, u.1); inVLo = max(inVLo, v.0); inVHi = min(inVHi, v.1)
                }
            }
            // The points where an edge crosses a plane of the exact test's slab (`exactGap`): the
            // plane lies within [slab.low, certain.low] or [certain.high, slab.high] for every eye
            // the bounds allow, and the point between the edge's ends (each moved by at most dc).
            // A band no corner's depth range reaches is crossed by no edge (most boxes reach neither).
            let low = (slab.low, min(slab.high, max(slab.low, certain.low)))
            let high = (max(slab.low, min(slab.high, certain.high)), slab.high)
            let reachesLow = sMax + dc >= low.0 && sMin - dc <= low.1, reachesHigh = sMax + dc >= high.0 && sMin - dc <= high.1
            // Both planes' crossings certainly take part only while the slab is certainly not empty.
            let crossingsCertain = certain.low < certain.high
            if box, reachesLow || reachesHigh {
                var bit = 1
                while bit < 8 {
                    for i in 0..<8 where i & bit == 0 {
                        let j = i | bit
                        let eLo = min(kept[i], kept[j]) - dc, eHi = max(kept[i], kept[j]) + dc
                        for side in 0..<2 where side == 0 ? reachesLow : reachesHigh {
                            let band = side == 0 ? low : high
                            let sl = max(eLo, band.0), sh = min(eHi, band.1)
                            guard sl <= sh else { continue }
                            let (ui, uj, vi, vj) = (kept[8 + i], kept[8 + j], kept[16 + i], kept[16 + j])
                            let (si, sj) = (kept[i], kept[j]), sMag = max(abs(si), abs(sj))
                            let epsS = 1e-9 * (scale + sMag)
                            if dc == 0, crossingsCertain, min(si, sj) + epsS < band.0, max(si, sj) - epsS > band.1 {
                                // The edge crosses the plane for every eye the bounds allow: the
                                // point lies between where the plane's two extremes cut the edge
                                // (linear along it), and certainly takes part.
                                let t0 = (band.0 - si) / (sj - si), t1 = (band.1 - si) / (sj - si)
                                let u0 = ui + (uj - ui) * t0, u1 = ui + (uj - ui) * t1
                                let v0 = vi + (vj - vi) * t0, v1 = vi + (vj - vi) * t1
                                guard let (u, v) = acc.add(min(u0, u1), max(u0, u1), min(v0, v1), max(v0, v1), band.0, band.1,
                                                           sMag: sMag) else { return .tested }
                                anyIn = true
                                inULo = max(inULo, u.0); inUHi = min(inUHi, u.1); inVLo = max(inVLo, v.0); inVHi = min(inVHi, v.1)
                                continue
                            }
                            guard acc.add(min(ui, uj), max(ui, uj), min(vi, vj), max(vi, vj), sl, sh,
                                          sMag: sMag) != nil else { return .tested }
                        }
                    }
                    bit <<= 1
                }
            }
            return nil
        }
        if let early { return early }
        guard acc.any else { return .unreported }
        let uLo = acc.uLo, uHi = acc.uHi, vLo = acc.vLo, vHi = acc.vHi
        let eps = 1e-9 * acc.mag
        guard uLo.isFinite, uHi.isFinite, vLo.isFinite, vHi.isFinite, eps.isFinite else { return .tested }
        let hw = plane.halfWidth, hh = plane.halfHeight
        guard uHi + eps > -hw, uLo - eps < hw else { return .unreported }
        guard (vLo - eps < -hh && vHi + eps > -hh - bandM) || (vHi + eps > hh && vLo - eps < hh + bandM) else {
            return .unreported
        }
        guard anyIn, bandM > 0, inULo - eps > -hw, inUHi + eps < hw else { return .tested }
        if inVHi + eps < -hh, inVLo - eps > -hh { return .straddles(side: 1) }
        if inVHi + eps < hh, inVLo - eps > hh, vLo - eps > -hh { return .straddles(side: 2) }
        return .tested
    }

    /// The union of the image bounds `classify` adds, with the eye's and the skins' terms (a
    /// value, not a closure over `classify`'s variables, so nothing is boxed per call).
    struct ImageUnion {
        let eu, ev, h, de, dc, floor: Double
        var mag: Double
        var uLo = Double.infinity, uHi = -Double.infinity, vLo = Double.infinity, vHi = -Double.infinity
        var any = false

        /// Adds the images of points with plane coordinates in [uA, uB] × [vA, vB] (each moved by
        /// at most dc) at depths [sl, sh] within the slab, and returns them (nil: the eye may come
        /// within 10⁻³ of them). `sMag`: the magnitude of the depths they come from.
        @inline(__always)
        mutating func add(_ uA: Double, _ uB: Double, _ vA: Double, _ vB: Double, _ sl: Double, _ sh: Double,
                          sMag: Double) -> (u: (Double, Double), v: (Double, Double))? {
            let dLo = max(h - de - sh, floor), dHi = h + de - sl
            guard dLo > 1e-3 else { return nil }
            let u = keepoutImage(uA, uB, eu, sl: sl, sh: sh, dLo: dLo, dHi: dHi, dc: dc, de: de)
            let v = keepoutImage(vA, vB, ev, sl: sl, sh: sh, dLo: dLo, dHi: dHi, dc: dc, de: de)
            uLo = min(uLo, u.0); uHi = max(uHi, u.1); vLo = min(vLo, v.0); vHi = max(vHi, v.1)
            mag = max(mag, abs(u.0) + abs(u.1) + abs(v.0) + abs(v.1) + max(abs(uA), abs(uB)) + max(abs(vA), abs(vB)) + sMag)
            any = true
            return (u, v)
        }
    }

    /// Bounds on the images of points with a plane coordinate in [qLo, qHi] (each moved by at most
    /// dc) at depths [sl, sh], seen from an eye at coordinate e ± de whose height less the
    /// depths lies in [dLo, dHi] (dLo > 0): q + s·(q − E) / (h − s), by interval arithmetic.
    @inline(__always)
    static func keepoutImage(_ qLo: Double, _ qHi: Double, _ e: Double, sl: Double, sh: Double, dLo: Double, dHi: Double,
                             dc: Double, de: Double) -> (Double, Double) {
        let aLo = qLo - e - dc - de, aHi = qHi - e + dc + de
        let p0 = sl * aLo, p1 = sl * aHi, p2 = sh * aLo, p3 = sh * aHi
        let nLo = min(min(p0, p1), min(p2, p3)), nHi = max(max(p0, p1), max(p2, p3))
        return (qLo - dc + min(nLo / dLo, nLo / dHi), qHi + dc + max(nHi / dLo, nHi / dHi))
    }

    /// The least h − s of a corner the exact test takes (s ≤ eyeSide − `nearEye`) for an eye
    /// height within h ± de: `nearEye`, less the rounding of that difference (ulps of the height).
    static func denominatorFloor(h: Double, de: Double) -> Double {
        nearEye - 1e-15 * (1 + abs(h) + abs(de))
    }

    /// `classify`'s verdict when one bound of all the corners at once settles it, else nil: most
    /// pairs a build looks at are `unreported`, and this costs about a sixth of the corner-by-corner
    /// bounds. The corners' plane coordinates are computed as `classify` computes them; those that
    /// can be in the slab span a box (u, v, s), and the same interval arithmetic over that box
    /// encloses every corner's image interval. When the corners' depths do not all lie within the
    /// slab, an edge may cross one of its planes: then the box spans every corner's u and v (the
    /// crossing points lie between two corners) and the depths of the slab the corners reach. So
    /// when the box's images miss the window's width or both bands, with twice `classify`'s
    /// allowance for rounding (the two computations differ by a few ulps of the same magnitudes),
    /// every corner's and crossing's do: `unreported`. No part of the box that can be in
    /// the slab: `unreported`, and the eye able to come within 10⁻³ of the deepest one: `tested`,
    /// as `classify` finds them. Corners that are not finite, or bounds that are not: nil.
    static func screenBox<Corners: RandomAccessCollection<Vec3>>(_ cs: Corners, _ plane: WindowPlane, eu: Double, ev: Double, h: Double,
                          de: Double, dc: Double, slab: KeepoutSlab, bandM: Double, scale: Double) -> ListedPair? {
        guard eu.isFinite, ev.isFinite, h.isFinite, de.isFinite, dc.isFinite, slab.low.isFinite, slab.high.isFinite,
              bandM.isFinite, scale.isFinite, plane.halfWidth.isFinite, plane.halfHeight.isFinite else { return nil }
        var sLo = Double.infinity, sHi = -Double.infinity, sMag = 0.0
        var quLo = Double.infinity, quHi = -Double.infinity, qvLo = Double.infinity, qvHi = -Double.infinity
        // Over every corner: for the crossings.
        var allULo = Double.infinity, allUHi = -Double.infinity, allVLo = Double.infinity, allVHi = -Double.infinity
        var minS = Double.infinity, maxS = -Double.infinity, allSMag = 0.0
        for c in cs {
            let d = c - plane.center
            let s = dot(d, plane.normal), qu = dot(d, plane.right), qv = dot(d, plane.up)
            guard s.isFinite, qu.isFinite, qv.isFinite else { return nil }
            minS = min(minS, s); maxS = max(maxS, s); allSMag = max(allSMag, abs(s))
            allULo = min(allULo, qu); allUHi = max(allUHi, qu); allVLo = min(allVLo, qv); allVHi = max(allVHi, qv)
            let sl = max(s - dc, slab.low), sh = min(s + dc, slab.high)
            guard sl <= sh else { continue }
            sLo = min(sLo, sl); sHi = max(sHi, sh); sMag = max(sMag, abs(s))
            quLo = min(quLo, qu); quHi = max(quHi, qu); qvLo = min(qvLo, qv); qvHi = max(qvHi, qv)
        }
        if cs.count == 8, minS - dc < slab.low || maxS + dc > slab.high {
            // An edge may cross a plane of the slab.
            sLo = max(minS - dc, slab.low); sHi = min(maxS + dc, slab.high); sMag = allSMag
            quLo = allULo; quHi = allUHi; qvLo = allVLo; qvHi = allVHi
        }
        guard sLo <= sHi else { return .unreported }
        // The smallest of the corners' h − de − sh (subtraction is monotone, so exactly theirs),
        // raised to the floor as `classify` raises each.
        let dLo = max(h - de - sHi, denominatorFloor(h: h, de: de)), dHi = h + de - sLo
        guard dLo > 1e-3 else { return .tested }
        let (uLo, uHi) = keepoutImage(quLo, quHi, eu, sl: sLo, sh: sHi, dLo: dLo, dHi: dHi, dc: dc, de: de)
        let (vLo, vHi) = keepoutImage(qvLo, qvHi, ev, sl: sLo, sh: sHi, dLo: dLo, dHi: dHi, dc: dc, de: de)
        // Bounds `classify`'s magnitude (each corner's bounds lie within these).
        let mag = max(scale, 2 * (max(abs(uLo), abs(uHi)) + max(abs(vLo), abs(vHi)))
            + max(abs(quLo), abs(quHi)) + max(abs(qvLo), abs(qvHi)) + sMag)
        let eps = 2e-9 * mag
        guard uLo.isFinite, uHi.isFinite, vLo.isFinite, vHi.isFinite, eps.isFinite else { return nil }
        let hw = plane.halfWidth, hh = plane.halfHeight
        guard uHi + eps > -hw, uLo - eps < hw else { return .unreported }
        guard (vLo - eps < -hh && vHi + eps > -hh - bandM) || (vHi + eps > hh && vLo - eps < hh + bandM) else {
            return .unreported
        }
        return nil
    }

    /// Adds to `candidates` (once each, by `stamp`) the owners of grid `k`'s corners within
    /// `margin` of `slab` and, when `reach` bounds it, in the region of the slab's piece that holds
    /// them (`KeepoutReach`, for corners within `margin` of each other): one walk of the grid over
    /// the pieces' boxes, each corner looked up in its piece by its depth, those in front of the
    /// slab in its first piece and those behind it in its last. Content whose corners all lie
    /// outside the slab can still cross it (the exact test clips its box to the slab), and then
    /// each of its corners lies within `margin` of the part that crosses it; a corner outside the
    /// slab counts only when its box (its owner's 8 corners, stored together) does cross it. With
    /// no finite margin, every owner in the grid.
    private func collect(grid k: Int, plane: WindowPlane, slab: KeepoutSlab, eyeSide: Double, reach: KeepoutReach?, margin: Double) {
        guard slab.low <= slab.high else { return }
        let st = stamp
        // Local buffers: the visitor reads and writes no stored property (no exclusivity checks).
        var candidates = self.candidates, visits = 0, pieces = pieceScratch
        self.candidates = []; pieceScratch = []
        defer { self.candidates = candidates; pieceScratch = pieces; gridVisits &+= visits }
        guard margin.isFinite, margin >= 0 else {
            seen.withUnsafeMutableBufferPointer { seen in
                for owner in classOwner[k] {
                    visits &+= 1
                    let o = Int(owner)
                    guard seen[o] != st else { continue }
                    seen[o] = st
                    candidates.append(o)
                }
            }
            return
        }
        pieces.removeAll(keepingCapacity: true)
        // The pieces' ends and regions, and the floor-plan box around them (none when one piece
        // is not bounded: the whole slab is walked).
        var box: PlateGrid.Bounds?, bounded = true
        slab.forEachPiece(eyeSide: eyeSide) { a, b in
            let region = reach?.region(depths: a, b, margin: margin)
            if let w = region?.world {
                box = box.map { PlateGrid.Bounds(x0: min($0.x0, w.x0), x1: max($0.x1, w.x1), y0: min($0.y0, w.y0),
                                                 y1: max($0.y1, w.y1), z0: min($0.z0, w.z0), z1: max($0.z1, w.z1)) } ?? w
            } else {
                bounded = false
            }
            pieces.append((b, region))
        }
        let c0 = plane.center, n = plane.normal, r = plane.right, u = plane.up
        let within = bounded ? box : nil, list = pieces, last = pieces.count - 1
        seen.withUnsafeMutableBufferPointer { seen in
            classCorners[k].withUnsafeBufferPointer { pts in
                classOwner[k].withUnsafeBufferPointer { own in
                    grids[k].visitSlab(center: c0 + n * ((slab.low + slab.high) / 2), normal: n,
                                       halfThickness: (slab.high - slab.low) / 2 + margin, within: within) { i in
                        visits &+= 1
                        let o = Int(own[i])
                        guard seen[o] != st else { return }
                        let d = pts[i] - c0
                        let s = dot(d, n)
                        guard s >= slab.low - margin, s <= slab.high + margin else { return }
                        if s < slab.low || s > slab.high {
                            // A corner outside the slab: its owner counts only if its box crosses
                            // the slab; if not, no corner of it is in the slab either (seen).
                            let base = i & ~7
                            var lo = s, hi = s
                            for q in base..<(base + 8) {
                                let t = dot(pts[q] - c0, n)
                                lo = min(lo, t); hi = max(hi, t)
                            }
                            guard lo <= slab.high, hi >= slab.low else { seen[o] = st; return }
                        }
                        var p = 0
                        while p < last, s > list[p].end { p += 1 }
                        if p <= last, let region = list[p].region {
                            guard region.contains(dot(d, r), dot(d, u)) else { return }
                        }
                        seen[o] = st
                        candidates.append(o)
                    }
                }
            }
        }
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let code = agg.aux.isFinite && agg.aux >= 0 ? Int(agg.aux) : 1
        let w = code / 4
        let window = w < scene.entities.count ? scene.entities[w].path : (names.first ?? "the window")
        let other = names.first { $0 != window } ?? "other content"
        let edge = code % 4 == 2 ? ("above the top edge of ", ", where its Share menu appears") :
            ("below the bottom edge of ", ", where its window bar and close and resize controls are")
        // A menu or popover the window presents is laid out by the system: the HIG's advice
        // (context-menus › visionOS; toolbars › visionOS), not "move it".
        let fix: String
        switch presentedPaths[other] {
        case .menu?, .popover?:
            fix = "; keep the menu or popover no taller than its window (fewer items), avoid a pull-down menu in a bottom toolbar, or place the control that opens it higher so it opens upward"
        case .sheet?, .alert?:
            fix = "; give the sheet or alert a size that fits inside its window, so the window's controls stay clear"
        case nil:
            fix = "; move it clear of the window's controls"
        }
        // Joined at once: a crowded scene writes this message for hundreds of thousands of pairs.
        return concatenated(other, " reaches into the ", agg.threshold == band ? bandText : fmt(agg.threshold), " pt band ",
                            edge.0, window, edge.1, " (", fmt(agg.measured),
                            " pt from the edge as seen from the eye)", fix)
    }
}

func windowFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [WinContentInBounds.metadata.id]) { ContentInBoundsRule($0) },
        RuleFactory(ids: [WinControlsKeepout.metadata.id]) { ControlsKeepoutRule($0) },
        RuleFactory(ids: [VolScaleMode.metadata.id]) { s in
            guard let r = s.index(VolScaleMode.metadata.id) else { return nil }
            let ents = s.scene.entities
            var items: [StaticRule.Item] = []
            // Interactive or text entities nested in each entity: one walk up from each of them
            // (as `isNested` walks), not one scan of the scene per volume.
            var held = Array(repeating: 0, count: ents.count)
            for j in ents.indices where ents[j].interactive || ents[j].isReadable {
                var p = ents[j].parent, steps = 0
                while let q = p, steps <= ents.count {
                    if q >= 0 && q < ents.count { held[q] += 1; p = ents[q].parent } else { p = nil }
                    steps += 1
                }
            }
            // A window nested directly in a window or volume (an ornament, a sheet) shares its
            // scale, which is set there: its items count toward that one's finding, not its own.
            func sharesScale(_ i: Int) -> Bool {
                guard ents[i].kind == .window, let p = ents[i].parent, p >= 0, p < ents.count else { return false }
                return ents[p].kind == .window || ents[p].kind == .volume
            }
            for i in ents.indices where ents[i].scaleMode == .fixed && (ents[i].kind == .volume || ents[i].kind == .window) && !sharesScale(i) {
                let e = ents[i]
                let count = held[i]
                if count > 0 {
                    items.append(.init(entity: i, measured: Double(count), threshold: 0, severity: .warning, aux: 0))
                } else if e.kind == .volume, e.representsRealObject == false {
                    items.append(.init(entity: i, measured: 1, threshold: 0, severity: .info, aux: 1))
                }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                if agg.aux == 1 {
                    return "volume \(names.joinedNames) uses fixed scale but does not show a real object at its real size; prefer dynamic scale"
                }
                let n = Int(agg.measured)
                return "\(names.joinedNames) uses fixed scale but holds \(n) interactive or text item\(n == 1 ? "" : "s"), which shrink with distance; use dynamic scale so they keep a usable size"
            }
        },
        RuleFactory(ids: [WinOpaqueArea.metadata.id]) { s in
            let m = WinOpaqueArea.metadata
            guard let r = s.index(m.id), s.scene.platform == .visionOS else { return nil }
            let maxShare = s.param(m, "maxShare"), alpha = s.param(m, "opaqueAlpha")
            let ents = s.scene.entities
            // Per window: its opaque fills and their frames clipped to the window.
            var fills: [Int: [(e: Int, rect: RectPt)]] = [:]
            for e in ents.indices where ents[e].kind == .element && ents[e].role != .image && ents[e].media == nil {
                guard case .color(let c)? = ents[e].background, c.a >= alpha, let w = ents[e].container,
                      ents[w].kind == .window, let size = ents[w].sizePt, let f = ents[e].frame else { continue }
                let x0 = max(f.x, 0), y0 = max(f.y, 0), x1 = min(f.x + f.width, size.x), y1 = min(f.y + f.height, size.y)
                guard x1 > x0, y1 > y0 else { continue }
                fills[w, default: []].append((e, RectPt(x: x0, y: y0, width: x1 - x0, height: y1 - y0)))
            }
            // Only windows whose fills together could cover more than allowed.
            let windows = fills.keys.sorted().filter { w in
                guard let size = ents[w].sizePt, size.x > 0, size.y > 0 else { return false }
                let sum = (fills[w] ?? []).reduce(0) { $0 + $1.rect.width * $1.rect.height }
                return sum / (size.x * size.y) * 100 > maxShare
            }
            guard !windows.isEmpty else { return nil }
            // Per window: which fills were visible when the share was last computed, and the share.
            var last: [Int: (shown: [Bool], share: Double)] = [:]
            var named: [Int: Set<Int>] = [:]
            return ClosureRule({ f, out in
                for w in windows where f.visible[w] {
                    let list = fills[w] ?? []
                    let shown = list.map { f.visible[$0.e] }
                    var share = last[w]?.share ?? 0
                    if last[w]?.shown != shown {
                        let size = ents[w].sizePt ?? SIMD2(1, 1)
                        share = unionArea(zip(list, shown).compactMap { $1 ? $0.rect : nil }) / (size.x * size.y) * 100
                        last[w] = (shown, share)
                        // The fills named: those shown in any frame reported (the set changes only here).
                        if share > maxShare + 1e-9 { named[w, default: []].formUnion(zip(list, shown).compactMap { $1 ? $0.e : nil }) }
                    }
                    guard share > maxShare + 1e-9 else { continue }
                    out.report(rule: r, w, frame: f.frame, time: f.time, measured: share, threshold: maxShare, aux: Double(w))
                }
            }, message: { agg, names in
                let w = agg.aux.isFinite ? Int(agg.aux) : -1
                let list = (named[w] ?? []).sorted().map { ents[$0].path }
                return "opaque colour covers \(fmt(agg.measured)) % of window \(names.joinedNames) (more than \(fmt(agg.threshold)) %: \(list.joinedNames(atMost: namesListed))), blocking the view of the surroundings; keep the window's glass and use translucent colour or materials for large areas"
            })
        },
        RuleFactory(ids: [WinGlassBackground.metadata.id]) { s in
            guard let r = s.index(WinGlassBackground.metadata.id) else { return nil }
            let ents = s.scene.entities
            // aux: the background's alpha (0 for passthrough).
            let items: [StaticRule.Item] = ents.indices.compactMap { i in
                guard ents[i].kind == .window, let b = ents[i].background else { return nil }
                switch b {
                case .material(.glass): return nil
                case .material(.passthrough): return .init(entity: i, measured: 1, threshold: 0, aux: 0)
                case .color(let c): return .init(entity: i, measured: 1, threshold: 0, aux: c.a)
                }
            }
            guard !items.isEmpty else { return nil }
            let backgrounds = Dictionary(ents.indices.compactMap { i in ents[i].background.map { (ents[i].path, $0.text) } }, uniquingKeysWith: { a, _ in a })
            return StaticRule(rule: r, items: items) { agg, names in
                let paint = names.first.flatMap { backgrounds[$0] } ?? "a custom background"
                if agg.aux >= 0.95 {
                    return "window \(names.joinedNames) has an opaque background (\(paint)) instead of glass, which hides people's surroundings and feels heavy; keep the glass background"
                }
                if agg.aux > 0 {
                    return "window \(names.joinedNames) is tinted (\(paint)) instead of glass, which makes its content less legible as the room changes; keep the glass background and use colour in smaller areas"
                }
                return "window \(names.joinedNames) has no background (passthrough), so its content floats on the room and is harder to read and to see as one window; keep the glass background"
            }
        },
        RuleFactory(ids: [OrnCountVisible.metadata.id]) { s in
            let m = OrnCountVisible.metadata
            guard let r = s.index(m.id) else { return nil }
            let maxCount = s.param(m, "maxOrnaments"), minShare = s.param(m, "minVisibleShare")
            let sc = s.scene, ents = sc.entities
            var ornaments: [Int: [Int]] = [:]
            for i in ents.indices where isOrnament(sc, i) { if let p = ents[i].parent { ornaments[p, default: []].append(i) } }
            guard !ornaments.isEmpty else { return nil }
            let windows = ornaments.keys.sorted()
            // Windows that play media or show a photo (an image element over at least half of the
            // window: a photo viewer), where the HIG lets controls hide while people watch or look.
            var playsMedia = Set<Int>()
            for i in ents.indices {
                if ents[i].media != nil {
                    if ornaments[i] != nil { playsMedia.insert(i) }
                    if let c = ents[i].container, ornaments[c] != nil { playsMedia.insert(c) }
                } else if ents[i].kind == .element, ents[i].role == .image, let c = ents[i].container, ornaments[c] != nil,
                          let f = ents[i].frame, let size = ents[c].sizePt, f.width * f.height >= 0.5 * size.x * size.y {
                    playsMedia.insert(c)
                }
            }
            // Per ornament (not in a window that plays media): frames its window is shown, of them
            // those it is shown too, and the runs of frames it is hidden while its window is shown.
            let judged = windows.filter { !playsMedia.contains($0) }.flatMap { ornaments[$0] ?? [] }
            var shownWith = [Int](repeating: 0, count: judged.count), windowShown = shownWith
            var hiddenRuns = [[(from: Int, fromTime: Double, to: Int, toTime: Double)]](repeating: [], count: judged.count)
            return ClosureRule({ f, out in
                for w in windows where f.visible[w] {
                    let list = ornaments[w] ?? []
                    let n = list.reduce(0) { $0 + (f.visible[$1] ? 1 : 0) }
                    if Double(n) > maxCount { out.report(rule: r, w, frame: f.frame, time: f.time, measured: Double(n), threshold: maxCount) }
                }
                for (k, o) in judged.enumerated() {
                    guard let w = ents[o].parent, f.visible[w] else { continue }
                    windowShown[k] += 1
                    if f.visible[o] { shownWith[k] += 1; continue }
                    if let last = hiddenRuns[k].last, last.to == f.frame - 1 {
                        hiddenRuns[k][hiddenRuns[k].count - 1] = (last.from, last.fromTime, f.frame, f.time)
                    } else {
                        hiddenRuns[k].append((f.frame, f.time, f.frame, f.time))
                    }
                }
            }, finish: { out, _ in
                for (k, o) in judged.enumerated() {
                    guard windowShown[k] > 0, let last = hiddenRuns[k].last else { continue }
                    let share = Double(shownWith[k]) / Double(windowShown[k]) * 100
                    guard share < minShare - 1e-9 else { continue }
                    for run in hiddenRuns[k] {
                        out.reportRun(rule: r, o, from: run.from, fromTime: run.fromTime, to: run.to, toTime: run.toTime,
                                      measured: share, worstFrame: last.to, threshold: minShare, unit: "%", variant: 1)
                    }
                }
            }, message: { agg, names in
                agg.variant == 1
                    ? "ornament \(names.joinedNames) is shown only \(fmt(agg.measured)) % of the time its window is (less than \(fmt(agg.threshold)) %); keep an ornament visible so its controls are always at hand"
                    : "\(names.joinedNames) shows \(fmt(agg.measured)) ornaments at once (more than \(fmt(agg.threshold))); combine them to keep the window balanced"
            })
        },
        RuleFactory(ids: [OrnWidth.metadata.id]) { s in
            guard let r = s.index(OrnWidth.metadata.id) else { return nil }
            let ents = s.scene.entities
            var items: [StaticRule.Item] = []
            for i in ents.indices where ents[i].kind == .window {
                let o = ents[i]
                guard isOrnament(s.scene, i), let p = o.parent,
                      let size = o.sizePt, o.metresPerPoint > 0, ents[p].metresPerPoint > 0 else { continue }
                let parentWidthM: Double
                if ents[p].kind == .volume, let v = ents[p].sizeMetres { parentWidthM = v.x }
                else if let ps = ents[p].sizePt { parentWidthM = ps.x * ents[p].metresPerPoint }
                else { continue }
                let mpp = ents[p].metresPerPoint
                let widthInParent = size.x * o.metresPerPoint / mpp
                let parentPt = parentWidthM / mpp
                if widthInParent > parentPt + 0.5 {
                    items.append(.init(entity: i, measured: widthInParent, threshold: parentPt))
                }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                let parent = names.first.map { String($0.split(separator: "/").dropLast().joined(separator: "/")) } ?? "its window"
                return "ornament \(names.joinedNames) is \(fmt(agg.measured)) pt wide, wider than \(parent) (\(fmt(agg.threshold)) pt); keep an ornament no wider than its window"
            }
        },
    ]
}

/// Sorts `values`, entity indices in 0 ..< `bound`, in increasing order: a least significant
/// digit radix sort (two passes of up to 11 bits for up to 4 M entities) instead of comparisons.
/// A window's candidates number thousands in a crowded scene (10,000 windows in content ten times
/// denser than at 10k entities), and `sort()` was 4 % of such a run. Few values, or any outside
/// the bound, are sorted by comparison: the result is the same.
func sortIndices(_ values: inout [Int], below bound: Int) {
    let n = values.count
    guard n >= 256, bound > 1 else { values.sort(); return }
    let bits = Int.bitWidth - (bound - 1).leadingZeroBitCount
    let passes = (bits + 10) / 11, digitBits = (bits + passes - 1) / passes
    let mask = (1 << digitBits) - 1
    var scratch = [Int](repeating: 0, count: n)
    var count = [Int](repeating: 0, count: mask + 2)
    let inRange = values.withUnsafeMutableBufferPointer { a in
        scratch.withUnsafeMutableBufferPointer { b in
        count.withUnsafeMutableBufferPointer { c -> Bool in
            var src = a, dst = b
            for pass in 0..<passes {
                let shift = pass * digitBits
                for i in 0...(mask + 1) { c[i] = 0 }
                for v in src {
                    guard v >= 0, v < bound else { return false }
                    c[((v >> shift) & mask) + 1] += 1
                }
                for d in 0..<mask { c[d + 1] += c[d] }
                for v in src {
                    let d = (v >> shift) & mask
                    dst[c[d]] = v
                    c[d] += 1
                }
                swap(&src, &dst)
            }
            // After an odd number of passes the sorted values are in the scratch buffer.
            if passes % 2 == 1 { for i in 0..<n { a[i] = b[i] } }
            return true
        }}
    }
    if !inRange { values.sort() }
}

/// Points in a uniform grid over the floor plan (x, z), rebuilt per frame in linear time (a
/// counting sort by cell), for "which points may lie within this distance of a plane" queries:
/// only the cells the slab crosses are visited.
struct PlateGrid {
    private var cellStart: [Int32] = []
    private var items: [Int32] = []
    private var cellOf: [Int32] = []
    private var nonFinite: [Int32] = []
    private var minX = 0.0, minZ = 0.0, minY = 0.0, maxY = 0.0, cell = 1.0
    private var nx = 0, nz = 0

    /// `pointsPerCell`: the density aimed at (at most 4 / pointsPerCell cells per point).
    mutating func build(_ points: [Vec3], pointsPerCell: Double = 2) {
        items.removeAll(keepingCapacity: true); nonFinite.removeAll(keepingCapacity: true)
        nx = 0; nz = 0
        guard !points.isEmpty else { return }
        var loX = Double.infinity, hiX = -Double.infinity, loZ = Double.infinity, hiZ = -Double.infinity
        var loY = Double.infinity, hiY = -Double.infinity
        for p in points where p.x.isFinite && p.y.isFinite && p.z.isFinite {
            loX = min(loX, p.x); hiX = max(hiX, p.x); loZ = min(loZ, p.z); hiZ = max(hiZ, p.z)
            loY = min(loY, p.y); hiY = max(hiY, p.y)
        }
        // Points that are not finite are kept aside; every query visits them.
        if !loX.isFinite { loX = 0; hiX = 0; loZ = 0; hiZ = 0; loY = 0; hiY = 0 }
        let n = Double(points.count)
        // About `pointsPerCell` points per cell, at most 4·n / pointsPerCell cells; counts
        // computed in Double and capped before converting (no trap on huge extents).
        let density = pointsPerCell.isFinite ? max(pointsPerCell, 1e-2) : 2
        cell = max(1e-3, (max(hiX - loX, 1e-3) * max(hiZ - loZ, 1e-3) / n * density).squareRoot())
        let maxCells = 4 * n / density + 4
        func cells(_ extent: Double) -> Int { Int(min(maxCells, (extent / cell).rounded(.down) + 1)) }
        nx = cells(hiX - loX); nz = cells(hiZ - loZ)
        while Double(nx) * Double(nz) > maxCells { cell *= 2; nx = cells(hiX - loX); nz = cells(hiZ - loZ) }
        minX = loX; minZ = loZ; minY = loY; maxY = hiY
        cellStart = Array(repeating: 0, count: nx * nz + 1)
        if cellOf.count < points.count { cellOf = Array(repeating: 0, count: points.count) }
        for (k, p) in points.enumerated() {
            guard p.x.isFinite && p.y.isFinite && p.z.isFinite else { cellOf[k] = -1; nonFinite.append(Int32(truncatingIfNeeded: k)); continue }
            let c = index(p.x, minX, nx) * nz + index(p.z, minZ, nz)
            cellOf[k] = Int32(truncatingIfNeeded: c)
            cellStart[c + 1] += 1
        }
        for i in 0..<(nx * nz) { cellStart[i + 1] += cellStart[i] }
        items = Array(repeating: 0, count: points.count - nonFinite.count)
        var fill = cellStart
        for k in points.indices where cellOf[k] >= 0 {
            let c = Int(cellOf[k])
            items[Int(fill[c])] = Int32(truncatingIfNeeded: k)
            fill[c] += 1
        }
    }

    private func index(_ v: Double, _ lo: Double, _ n: Int) -> Int {
        Int(max(0, min(Double(n - 1), ((v - lo) / cell).rounded(.down))))
    }

    /// A box of world space (x, y, z).
    struct Bounds { var x0, x1, y0, y1, z0, z1: Double }

    /// The range of cells that holds the coordinates lo...hi along an axis starting at `start`
    /// with `n` cells (`slack` on each side against rounding).
    private func cellSpan(_ lo: Double, _ hi: Double, _ start: Double, _ n: Int, _ slack: Double) -> ClosedRange<Int> {
        let a = max(0, min(Double(n - 1), ((lo - slack - start) / cell).rounded(.down)))
        let b = max(0, min(Double(n - 1), ((hi + slack - start) / cell).rounded(.down)))
        return Int(a)...Int(max(a, b))
    }

    /// Calls `visit(k)` for every point k in a cell that the slab |(p − center)·normal| ≤ h crosses
    /// and, when `box` is given, that meets `box` (a superset of the points in the slab and the
    /// box; non-finite points always).
    func visitSlab(center: Vec3, normal n: Vec3, halfThickness h: Double, within box: Bounds? = nil, _ visit: (Int) -> Void) {
        guard nx > 0, nz > 0 else { return }
        @inline(__always) func cellRange(_ c: Int) { for k in Int(cellStart[c])..<Int(cellStart[c + 1]) { visit(Int(items[k])) } }
        // A point's cell is floor((p − min) / cell) per axis, monotone in p, so a range of
        // coordinates maps to a range of cells. `slack` (10⁻⁹ of the magnitudes involved, over
        // the 0.05 the normal's major component is at least) covers the rounding of the bounds
        // computed below many times over.
        let magnitude = 1 + max(abs(minX), abs(minZ), abs(minY), abs(maxY)) + cell * Double(max(nx, nz))
            + max(abs(center.x), abs(center.y), abs(center.z)) + (h.isFinite ? abs(h) : 0)
        let slack = 2e-8 * magnitude
        let xs = box.map { cellSpan($0.x0, $0.x1, minX, nx, slack) } ?? 0...(nx - 1)
        let zs = box.map { cellSpan($0.z0, $0.z1, minZ, nz, slack) } ?? 0...(nz - 1)
        // Along the axis the plane's normal leans on more, the slab's other coordinate is a linear
        // function of this one and of y; its range over a column (and over the points' heights,
        // and ±h) gives the cells to visit.
        let useZ = abs(n.z) >= abs(n.x)
        let major = useZ ? n.z : n.x, minor = useZ ? n.x : n.z
        let finite = center.x.isFinite && center.y.isFinite && center.z.isFinite && n.x.isFinite && n.y.isFinite && n.z.isFinite
        guard finite, abs(major) > 0.05, h.isFinite else {
            for ix in xs { for iz in zs { cellRange(ix * nz + iz) } }
            for k in nonFinite { visit(Int(k)) }
            return
        }
        let (nRows, cols, rows) = useZ ? (nz, xs, zs) : (nx, zs, xs)
        let (colMin, rowMin) = useZ ? (minX, minZ) : (minZ, minX)
        let (cCol, cRow) = useZ ? (center.x, center.z) : (center.z, center.x)
        // Heights: the points', within the box's.
        let bottom = box.map { max(minY, $0.y0) } ?? minY, top = box.map { min(maxY, $0.y1) } ?? maxY
        guard bottom <= top else {
            for k in nonFinite { visit(Int(k)) }
            return
        }
        let yAtMin = -(bottom - center.y) * n.y, yAtMax = -(top - center.y) * n.y
        let yLo = min(yAtMin, yAtMax), yHi = max(yAtMin, yAtMax)
        for col in cols {
            let a0 = colMin + Double(col) * cell - slack, a1 = colMin + Double(col + 1) * cell + slack
            let t0 = -(a0 - cCol) * minor, t1 = -(a1 - cCol) * minor
            let lo = (min(t0, t1) + yLo - h), hi = (max(t0, t1) + yHi + h)
            let r0 = cRow + (major > 0 ? lo : hi) / major - slack, r1 = cRow + (major > 0 ? hi : lo) / major + slack
            let i0 = max(rows.lowerBound, Int(max(0, min(Double(nRows - 1), ((r0 - rowMin) / cell).rounded(.down)))))
            let i1 = min(rows.upperBound, Int(max(0, min(Double(nRows - 1), ((r1 - rowMin) / cell).rounded(.down)))))
            guard i0 <= i1 else { continue }
            for row in i0...i1 {
                cellRange(useZ ? col * nz + row : row * nz + col)
            }
        }
        for k in nonFinite { visit(Int(k)) }
    }
}

/// The area of the union of rectangles (Klee's measure in the plane): a sweep along x over the
/// rectangles' left and right edges with a segment tree over the distinct y edges that holds, per
/// node, how many rectangles cover all of its interval and how much of it is covered. O(n log n).
func unionArea(_ rects: [RectPt]) -> Double {
    let rs = rects.filter { $0.width > 0 && $0.height > 0 && $0.x.isFinite && $0.y.isFinite && $0.width.isFinite && $0.height.isFinite }
    guard !rs.isEmpty else { return 0 }
    var ys = rs.flatMap { [$0.y, $0.y + $0.height] }
    ys.sort()
    var unique: [Double] = []
    for y in ys where unique.last != y { unique.append(y) }
    let intervals = unique.count - 1
    guard intervals > 0 else { return 0 }
    func index(_ y: Double) -> Int {
        var lo = 0, hi = unique.count - 1
        while lo < hi { let mid = (lo + hi) / 2; if unique[mid] < y { lo = mid + 1 } else { hi = mid } }
        return lo
    }
    // Events: x, the rectangle's y interval as indices [a, b), +1 entering, -1 leaving.
    var events: [(x: Double, a: Int, b: Int, d: Int)] = []
    events.reserveCapacity(rs.count * 2)
    for rect in rs {
        let a = index(rect.y), b = index(rect.y + rect.height)
        guard b > a else { continue }
        events.append((rect.x, a, b, 1)); events.append((rect.x + rect.width, a, b, -1))
    }
    events.sort { $0.x < $1.x || ($0.x == $1.x && $0.d > $1.d) }
    var count = [Int](repeating: 0, count: 4 * intervals), covered = [Double](repeating: 0, count: 4 * intervals)
    func update(_ node: Int, _ lo: Int, _ hi: Int, _ a: Int, _ b: Int, _ d: Int) {
        if b <= lo || hi <= a { return }
        if a <= lo && hi <= b {
            count[node] += d
        } else {
            let mid = (lo + hi) / 2
            update(2 * node, lo, mid, a, b, d)
            update(2 * node + 1, mid, hi, a, b, d)
        }
        covered[node] = count[node] > 0 ? unique[hi] - unique[lo] : (hi - lo == 1 ? 0 : covered[2 * node] + covered[2 * node + 1])
    }
    var area = 0.0, previous = events[0].x
    for ev in events {
        area += covered[1] * (ev.x - previous)
        previous = ev.x
        update(1, 0, intervals, ev.a, ev.b, ev.d)
    }
    return area
}
