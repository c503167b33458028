import Foundation
import SpatialModel
import Simulation
import CSpatialMath

private let spatialLayoutBP = Citation("spatial-layout", "Best practices")
private let eyesEasy = Citation("eyes", "Making items easy to see")
private let buttonsVision = Citation("buttons", "visionOS")

public enum TargetCenterSpacing: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-center-spacing", name: "Interactive centres 60 pt apart", category: .targets,
        defaultSeverity: .error, thresholdKey: "centerSpacing",
        parameters: [
            RuleParameter("centerSpacing", 60, "pt", .hig, "minimum centre-to-centre distance"),
            RuleParameter("edgeGap", 16, "pt", .hig, "edge gap that is enough on its own"),
        ],
        citations: [spatialLayoutBP, eyesEasy, buttonsVision],
        summary: "Two eye-targetable elements whose centres are closer than 60 pt and whose edges are less than 16 pt apart.",
        rationale: "People aim with their eyes, which are less precise than a finger; the HIG asks for room around every interactive element (centres at least 60 pt apart, or 16 pt between them) so each is easy to look at and its hover highlight does not run into its neighbour.",
        fixHint: "Move the elements so their centres are at least 60 pt apart, or leave at least 16 pt between their edges (next to an element longer than 64 pt, such as a slider or a field, always leave the 16 pt). For the marks of a chart, whose positions are the data, make the whole plot area one target that people scrub across instead, and leave the marks non-interactive (charts › Best practices).",
        platforms: [.visionOS, .iOS], unit: "pt", worse: .lower,
        notes: ["iOS AR: only world content is compared (screen-space UI, elements and head-anchored content, is target-hit-region-ios's), in on-screen points: with a scene `device`, the point angle is the camera view's angle of one screen point at the screen's centre, so pt_eq is the on-screen distance.",
                "Elements in one dynamic-scale 2D container are compared in the container's pt; anything else (elements of fixed-scale windows and volumes, pairs across containers, 3D entities) in angle, as pt_eq (angle / pointAngle), from the eye at each frame (hig-rules §2.3).",
                "A pair counts while both are visible. Across containers the verdict is angle-derived and may be borderline.",
                "Each violation carries the unit it was measured in: pt for a pair in one container, pt_eq otherwise (the same pair is always compared the same way). This also holds for target-no-overlap and target-large-hover-padding.",
                "In angle, each pair is measured in its own frame, whatever way the head points: the direction from the eye to the midpoint of the two centres, with world right and up across it (right = midpoint × world up; near straight up or down, world +x made square to it). Each centre sits at x = atan2(d·right, d·mid), y = atan2(d·up, d·mid) for its direction d (on the horizon, x is the azimuth difference: level scenes read as before), and each entity is the rectangle of its angular width and height around it, measured across its own line of sight with world right and up (a flat rectangle facing the eye spans 2·atan(w / 2d) by 2·atan(h / 2d)). So a pair behind the viewer, overhead or below is compared like one ahead, horizontal gaps away from the horizon are true angles (not azimuth differences, which grow by 1 / cos elevation: 1.3 times at 40° below), and a head that turns, pitches or rolls in place changes no verdict, value or span.",
                "Rows (role row: the rows of a system List or grouped Form, the items of a menu) are laid out and spaced by the system, and its hover effect highlights one row at a time: two rows of one 2D container stacked one above the other (their centres farther apart vertically than horizontally) are not compared by target-center-spacing or target-large-hover-padding, only by target-no-overlap; nor are the controls laid in two such rows (a switch in a Form row: its frame inside the row's), and a control is not compared with the row it lies in. Rows side by side, and a row and any other element, are compared as usual. Two tabs (role tab) stacked one above the other in one container are treated the same way: in visionOS the tab bar is always vertical and the system lays out its tabs (tab bars › visionOS); tabs side by side are compared as usual. Rows and tabs compared in angle (in a fixed-scale window) are compared as any other pair.",
                "Sheets, alerts, popovers and menus are modal (sheets › visionOS: a sheet floats in front of its parent window, dims it and becomes the target of people's interactions): while a window presented by another (presentation: sheet, alert, popover or menu) or an element with role sheet or alert is visible, the interactive content it covers (the rest of the presenting window; for an element, the other interactive elements of its container but those laid on it, inside its frame at its depth or in front; the first 16 sheet and alert elements of a container are modal) is in no pair of target-center-spacing, target-no-overlap or target-large-hover-padding.",
                "Large elements (sub-check `largeElement`, warning, pt, smaller is worse; beyond the contract, which tests centres AND gap): the 60 pt centre spacing stands for a 16 pt gap only between regular-size buttons (44 pt + 16 pt). When one element of a pair in one 2D container is long along the axis on which the two centres are farther apart (x when |Δx| ≥ |Δy|, else y): longer than any of the HIG's button sizes (64 pt, Extra Large) and not a large button (60 pt or more both ways, whose spacing is target-large-hover-padding's 4 pt of padding): a slider, a text field, a wide button, its centre can be far from a neighbour whose edge nearly touches it, so such a pair is reported when its centres are 60 pt or more apart but less than 16 pt separates their edges (eyes › Making items easy to see: a margin of at least 16 pt around the bounds of each item). Measured: the gap; aux: the centre distance. Pairs whose frames overlap are target-no-overlap's, two elements of 60 pt or more in both dimensions are target-large-hover-padding's (the buttons page's 4 pt of padding each), and two pickers that touch (the segments of a segmented control) or two touching tabs are parts of one system control, which the system lays out. Pairs compared in angle (across containers, fixed scale, 3D) are not given this sub-check.",
                "A flat element whose image is tilted (seen obliquely, off to the side and above or below) is compared by its own outline, the parallelogram of its two half-axes projected on the pair's frame, so neither the gap nor the overlap of tilted neighbours is judged from the upright boxes around their images. Sizes (pt_eq, for target-large-hover-padding's 60 pt) are the entity's thinnest width as seen (see the simulator's ptEq)."],
        subchecks: [RuleSubcheck("largeElement", unit: "pt")])
}

public enum TargetNoOverlap: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-no-overlap", name: "Interactive elements do not overlap", category: .targets,
        defaultSeverity: .error, thresholdKey: "maxOverlap",
        parameters: [
            RuleParameter("maxOverlap", 0, "pt", .hig, "allowed overlap of two hit regions"),
            RuleParameter("depthWindow", 0.1, "m", .configurable("projections overlapping at clearly different depths can still be told apart"),
                          "across containers, overlap counts only within this depth difference"),
        ],
        citations: [spatialLayoutBP],
        summary: "Hit regions of two interactive elements intersect.",
        rationale: "When controls overlap each other it is hard to pick the one you mean; the HIG asks that controls never overlap other interactive elements.",
        fixHint: "Separate the two elements so their frames no longer intersect (and then keep the spacing of target-center-spacing).",
        platforms: [.visionOS, .iOS], unit: "pt", worse: .higher,
        notes: ["Measured value: overlap depth, the smaller of the overlap's width and height. Same container → error; across containers (angular projection within 0.1 m of depth) → warning.",
                "iOS AR: world content only, on screen (see target-center-spacing)."])
}

public enum TargetLargeHoverPadding: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-large-hover-padding", name: "Large buttons keep hover padding", category: .targets,
        defaultSeverity: .warning, thresholdKey: "gap",
        parameters: [
            RuleParameter("gap", 8, "pt", .hig, "edge gap between two large buttons (4 pt of padding each)"),
            RuleParameter("largeSize", 60, "pt", .hig, "smaller dimension from which a button counts as large"),
        ],
        citations: [buttonsVision],
        summary: "Two buttons or controls of 60 pt or more whose edges are less than 8 pt apart.",
        rationale: "The HIG asks for 4 pt of padding around buttons of 60 pt and larger so their hover effects do not overlap. This tool reads it as 4 pt per button, an 8 pt gap (set gap: 4 for the looser reading).",
        fixHint: "Leave at least 8 pt between the edges of large buttons.",
        unit: "pt", worse: .lower,
        notes: ["Only pairs of 2D controls: elements, or asset nodes marked as UI, whose role is a control (every role but text and image). The guideline is about buttons, so 3D models and other interactive entities are not checked here; their spacing to everything stays with target-center-spacing.",
                "Within one container compared in pt; otherwise in angle, reported as pt_eq."])
}

/// The three pairwise target rules share one candidate search.
final class TargetPairAnalyzer: RuleProcessor {
    let spacingRule: Int?, overlapRule: Int?, paddingRule: Int?
    let spacing: Double, edgeGap: Double, maxOverlap: Double, depthWindow: Double, padGap: Double, largeSize: Double
    let pointAngle: Double
    struct StaticFinding { var rule: Int; var a: Int; var b: Int; var measured: Double; var aux: Double; var threshold: Double; var variant: Int }
    /// Violating same-container pairs, computed once (their elements do not move in the container).
    private(set) var staticFindings: [StaticFinding] = []
    /// The interactive members of each 2D container measured in points, by container index, and
    /// their hit rectangles (the input of `findStaticPairs`).
    private let containerMembers: [[Int]]
    private let containerRects: [[RectPt]]
    /// The interactive content a visible sheet, alert, popover or menu covers: left out of every
    /// pair while covered.
    private var cover: ModalCover
    /// Per entity: its role as an element (nil otherwise). Two rows (`row`: of a system list,
    /// form or menu) of one container are not given the spacing rules: the system lays its rows
    /// out.
    private let roles: [ElementRole?]
    /// Whether `staticFindings` were found (in the first frame), and whether there were more than
    /// the tracking limit allows.
    private var staticPairsFound = false, staticOverLimit = false
    /// Whether an angular finding has been tracked (has an aggregate), up to the current frame.
    private var angularTracked = false
    /// Entities compared in angle every frame, and their group (container, or themselves).
    private let dynamicEntities: [Int]
    private let group: [Int]
    private let staticInContainer: [Bool]
    /// 2D controls (elements or marked nodes with a control role): the only entities
    /// target-large-hover-padding compares.
    private let isControl: [Bool]
    private let runAngular: Bool
    private var grid = PairGrid()
    private var staticChecks = 0
    /// Per slot of the frame's angular pass: the entity's upright half-extents (degrees, around its
    /// line of sight with world up, `uprightExtent`), the radius of a cone around its direction
    /// that holds every pair it can have a finding with (`searchRadius`) with its cosine and sine,
    /// and the search's cells of that cone.
    private var halfW: [Double], halfH: [Double], radius: [Double], cosR: [Double], sinR: [Double], slot: [Int]
    private var coneCells: [SphereCells?]
    /// Per slot of the frame's angular pass: unit direction eye → centre, and whether the entity is
    /// flat (exactly two non-zero box half-axes, finite distance), so its image may be tilted.
    private var direction: [Vec3], flat: [Bool]
    /// A flat entity's two half-axes (in axis order), per slot.
    private var axisU: [Vec3], axisV: [Vec3]
    /// Per slot: what bounds the radius of a disc around the entity's image centre inside its
    /// image in any pair's frame (`Inscribed`, `spacingBound`).
    private var inscribed: [Inscribed]
    /// The radius (degrees) of a disc about an entity's image centre that lies inside its image
    /// in a pair's frame, for any pair whose directions are θ apart (θ < 90°): at least
    /// `min(upright, p·cos θ − q·sin θ)` (`radius(cos:sin:)`).
    /// - The upright image, centre ± (hw, hh), holds a disc of radius min(hw, hh) (`upright`; −∞
    ///   when an extent is not finite, which settles nothing).
    /// - A flat entity's tilted image is the parallelogram centre ± u ± v with u = k(a0·right,
    ///   a0·up), v = k(a1·right, a1·up), k = 180/π/distance (`imageQuad`); its sides lie |u×v|/|u|
    ///   and |u×v|/|v| from the centre, so it holds a disc of radius |u×v| / max(|u|, |v|). Since
    ///   right × up = −mid, |u×v| = k²|n·mid| with n = a0 × a1, and |u| ≤ k|a0|, |v| ≤ k|a1|
    ///   (projections). `mid` lies on the arc between the pair's two directions, at an angle
    ///   α ≤ θ from this entity's direction `dir`. With n's sign taken so that its angle β to `dir`
    ///   is at most 90°, the angle between n and `mid` is at most β + α < 180° (the triangle
    ///   inequality on the sphere), and cos falls on [0°, 180°], so
    ///   |n·mid| ≥ |n| cos(β + α) ≥ |n| cos(β + θ) = cos θ·|n·dir| − sin θ·|n × dir|:
    ///   the radius is at least p·cos θ − q·sin θ with p = k|n·dir| / max(|a0|, |a1|),
    ///   q = k|n × dir| / max(|a0|, |a1|). (Session 19 had |n·dir| − |n|·tan θ, the chord bound,
    ///   never larger: face-on 44 pt buttons 50 pt apart, bound 8.66 pt; now 6.24, as boxes 6.06.)
    ///   (p, q not finite: `upright` −∞.) A non-flat entity has p the largest finite value and
    ///   q = 0 (its disc is `upright`).
    /// Taking the smaller covers a flat entity whose image comes out upright too.
    struct Inscribed {
        var upright: Double, p: Double, q: Double
        /// An entity of upright half-extents `hw`, `hh` (degrees), its half-axes `axes` when it is
        /// flat (`flatAxes`; its image may then be tilted), at `distance` in unit `direction`.
        init(hw: Double, hh: Double, axes: (Vec3, Vec3)?, distance: Double, direction: Vec3) {
            upright = hw.isFinite && hh.isFinite ? min(hw, hh) : -Double.infinity
            p = .greatestFiniteMagnitude; q = 0
            guard let axes else { return }
            let n = cross(axes.0, axes.1), k = 180 / Double.pi / distance
            let longest = max(length(axes.0), length(axes.1))
            let p = k * abs(dot(n, direction)) / longest, q = k * length(cross(n, direction)) / longest
            if p.isFinite, q.isFinite { self.p = p; self.q = q } else { self.upright = -.infinity; self.p = 0; self.q = 0 }
        }
        init(upright: Double, p: Double, q: Double) { self.upright = upright; self.p = p; self.q = q }
        /// The disc's radius for a pair whose directions are θ apart (θ < 90°), from cos θ and sin θ.
        @inline(__always) func radius(cos c: Double, sin s: Double) -> Double { min(upright, p * c - q * s) }
    }

    /// An upper bound (degrees) on the edge gap the pair test measures for two entities in unit
    /// directions `da`, `db` (`cosv` their dot product, > 0) with inscribed discs `a`, `b`
    /// (`spacingBound`): the centres' chart distance, at most tan θ in radians, less the two
    /// radii (`Inscribed.radius(cos:sin:)`); and the margin it needs against the rounding of both
    /// sides (10⁻⁹ relative to the terms: far above the ~10⁻¹⁵ of the inputs and the arithmetic).
    /// Never below the exact gap by more than `slack` + 10⁻⁹° (tested on random pairs).
    @inline(__always)
    static func spacingGapBound(_ da: Vec3, _ db: Vec3, cos cosv: Double, _ a: Inscribed, _ b: Inscribed) -> (bound: Double, slack: Double) {
        // sin θ from the cross product (accurate for small angles), tan θ from it and cos θ.
        let s = length(cross(da, db)), t = s / cosv
        let reach = degrees(t)
        let ra = a.radius(cos: cosv, sin: s), rb = b.radius(cos: cosv, sin: s)
        let slack = 1e-9 * (reach + abs(ra) + abs(rb) + (a.q + b.q) * s)
        return (reach - ra - rb, slack)
    }

    /// Whether a bound of `spacingGapBound` shows the exact edge gap below `limit` degrees (with
    /// its slack, and 10⁻⁹ relative and 10⁻⁹° more). False for any NaN.
    @inline(__always)
    static func spacingSettles(_ e: (bound: Double, slack: Double), below limit: Double) -> Bool {
        e.bound + e.slack < limit * (1 - 1e-9) - 1e-9
    }
    var pairChecks: Int { staticChecks + grid.checks + listChecks }
    /// Of the angular search's candidate pairs (`grid.checks`), those it looked at
    /// (`PairGrid.examined`), for tests and bench.
    var gridExamined: Int { grid.examined }
    /// The angular search's candidate pairs (`PairGrid.checks`), for tests.
    var gridChecks: Int { grid.checks }
    var pairTests: Int { pairChecks }
    /// Findings reported (same-container ones in every frame, angular ones found or repeated), and
    /// runs extended over a streak of unchanged frames (`flushRepeats`).
    private(set) var findingsReported = 0, runsExtended = 0
    /// The pass's work so far in instructions (`RuleEngine.work`), from its counts and their costs
    /// measured with callgrind (`WorkCost.TargetPairs`).
    var work: Int {
        typealias C = WorkCost.TargetPairs
        return (staticChecks &+ grid.checks) &* C.gridPair &+ listChecks &* C.listedPair &+ angularTests &* C.tested
            &+ findingsReported &* C.finding &+ runsExtended &* C.extendedRun
    }
    /// Listed pairs looked at in frames tested from the candidate list.
    private var listChecks = 0
    /// Incremental evaluation. The angular pass is a function of the eye's position and up vector
    /// and, per entity, of the quantities in its `inputs` record (presence, distance, direction,
    /// angular extent, pt_eq, centre, box axes). An entity whose record is bit for bit the previous
    /// frame's is unchanged; when the eye is too, a pair of unchanged entities has the findings it
    /// had in the previous frame, so those are repeated instead of recomputed, and only pairs with
    /// a changed entity are searched and tested. The findings are the same values in the same
    /// aggregates, so reports are byte-identical to evaluating every pair in every frame.
    /// `incremental = false` does that (tests compare the two).
    var incremental = true
    /// Reused frames (nothing changed) and frames with some changed entities, for tests and bench.
    private(set) var reusedFrames = 0, partialFrames = 0
    static let inputWords = 18
    private var inputs: [UInt64]
    private var changed: [Bool]
    private var eyeInputs: [UInt64] = []
    struct PairFinding {
        var rule: Int; var ka: Int32; var kb: Int32; var a: Int; var b: Int; var measured: Double; var aux: Double; var threshold: Double
        /// Its aggregate's slot in `Findings`, once known (`Findings.report(slot:...)`).
        var slot: Int32 = -1
    }
    /// Candidate pairs for a moving eye (a neighbour list with a skin, as in molecular dynamics):
    /// the pairs whose upright images, each grown by half the search margin plus `skin`, met when
    /// the list was built. While no present entity's image edge has moved by more than `skin`
    /// since then and no entity has appeared, every pair the per-frame grid search could report
    /// with a finding is in the list (two images within the margin now were within margin + 2 ×
    /// skin then), so the frame tests the list's pairs instead of searching; the pair test itself
    /// is unchanged, so the findings are the same. Off (`incremental = false`) or when
    /// `maxOverlap` < 0 (then pairs farther apart than the margin could report), every frame
    /// searches.
    struct Candidate {
        var ka: Int32; var kb: Int32
        /// Asleep while the odometers of its two entities add up to less than this (`pairSleep`).
        var wake = -Double.infinity
        var slots: SIMD4<Int32> = SIMD4(repeating: -1)
    }
    private var candidates: [Candidate] = []
    private var listValid = false
    /// Per dynamic entity: its direction and its cone's radius grown by the skin when the list was
    /// built (NaN: not in the list then).
    private var builtDir: [Vec3], builtRadius: [Double]
    /// Per dynamic entity: its slot in this frame's angular pass, or -1.
    private var slotOf: [Int32]
    /// How far (degrees) an image edge may move before the list is rebuilt.
    let skin: Double
    /// Listed pairs that no rule can hold asleep (exact; off, every listed pair is looked at in
    /// every frame; tests compare the two). Issue 16: "a pair far from every threshold cannot flip
    /// until the eye or one of the two moves by a bound you can compute".
    ///
    /// Each dynamic entity has an odometer (`odometer`) that only grows (kept only while frames may
    /// test from the list, `listUsable`): in every angular pass it is present in, by the largest of (a) the angle its direction turned since the last pass it
    /// was present in (2·asin(chord / 2), degrees) plus the growth of its cone's radius
    /// (`searchRadius`, never its shrinking), (b) the change of its distance times
    /// `sleepDepthScale` and (c) the change of its pt_eq times `sleepSizeScale`, plus 10⁻⁹ against
    /// the rounding of the sum (far above an ulp while it stays below 10⁶). A step that is not
    /// finite, or an odometer past 10⁶, resets every odometer and wakes every pair. Between two
    /// passes, the angle between two entities' directions fell by at most the growth of their two
    /// odometers (the triangle inequality on the sphere), their radii grew by at most as much, and
    /// their distances and sizes changed by at most that over the scales. So a listed pair with a
    /// margin m in these units, the growth of its odometers that could first let a rule hold, stays
    /// without a finding while they grew by less than m, and is not looked at until then
    /// (`Candidate.wake`). Its margin is the larger of
    /// - its directions' angle beyond its two cones (the chord, in degrees, is never above the
    ///   angle), where no rule can hold (`searchRadius`) and the pair test rejects it first;
    /// - the smallest of what keeps each enabled rule from applying, the guard the pair test
    ///   stops at: centres farther apart than `centerSpacing` (the angle beyond it, degrees),
    ///   distances more than `depthWindow` apart (the difference beyond it, times the depth
    ///   scale), one of two controls smaller than `largeSize` (pt_eq below it, times the size
    ///   scale; never for a pair that is not two controls).
    /// Angles keep 10⁻³° in hand, so that the test's cosine comparisons (10⁻¹² off the
    /// threshold's) would reject the pair too; the others 10⁻⁹ relative and absolute. A list build
    /// starts every pair awake.
    var pairSleep = true
    /// Listed pair-frames skipped asleep, for tests.
    private(set) var pairsAsleep = 0
    /// Per dynamic entity: its odometer, and its direction, cone radius, distance and pt_eq in the
    /// last pass it was present in (none yet: `odometerSeen` false), for `pairSleep`.
    private var odometer: [Double], lastDirection: [Vec3], lastRadius: [Double], lastDistance: [Double], lastSize: [Double]
    private var odometerSeen: [Bool]
    /// Odometer units per metre of distance and per pt of pt_eq (`pairSleep`): what a walking
    /// eye turns the direction of content 5.7 m away by, per metre; a tenth of a degree per point.
    static let sleepDepthScale = 10.0, sleepSizeScale = 0.1
    /// Frames tested from the list, and list builds (for tests and bench).
    private(set) var listFrames = 0, listBuilds = 0
    /// At most this many listed pairs (64 per target, at least a million); a list that would be
    /// longer turns the list off for the run (`listDisabled`): every frame searches instead.
    lazy var listLimit = max(1_000_000, 64 * dynamicEntities.count)
    private(set) var listDisabled = false
    /// Whether frames may test from the list (`useList` starts from this; the skin is the search
    /// margin). Fixed for a run but for `listDisabled`, which never turns back.
    private var listUsable: Bool { incremental && !listDisabled && maxOverlap >= 0 && skin.isFinite && skin > 0 }
    /// The previous frame's angular findings, in the order they were reported, and a spare buffer.
    private var previous: [PairFinding] = [], spare: [PairFinding] = []
    /// Whether `previous` holds the previous frame's findings (they are kept only for a still eye).
    private var previousKept = false
    /// Frames in which nothing changed, not yet added to the runs of `previous` (`flushRepeats`).
    private var pending = RepeatStreak()
    /// The last frame the angular pass saw (its inputs are that frame's).
    private var angularFrame = -1
    /// Whether the closest points of two disjoint tilted images are searched only when their gap
    /// could make a finding (`quadGap(_:_:gapNeededBelow:)`); off, always (tests compare the two).
    var closestPointShortcut = true
    /// Pairs of disjoint tilted images whose closest points were not searched (a separating side
    /// showed them farther apart than any threshold that could report them), for tests and bench.
    private(set) var closestPointsSkipped = 0
    /// The spacing shortcuts (exact; off, every pair's centre separation and edge gap are computed
    /// as they are reported; tests compare the two). A pair of tilted images that only
    /// target-center-spacing could report (not at the same depth for target-no-overlap, not both
    /// large for target-large-hover-padding) needs of its outline gap only the verdict
    /// (`quadGapIsBelow`); the gap itself is the aggregate's `aux` only where the finding is the
    /// violation's worst, so it is computed at the end (`finish`) for the frame that stayed the
    /// worst, from the two image quads kept for it (`SpacingSlots`). And the centre separation
    /// (`acos`) is needed only for the verdict, settled by the cosine unless within 10⁻¹² of the
    /// threshold's, and for a value that could be a new worst: a cosine 10⁻¹² below the largest
    /// reported for the pair (`SpacingSlots`) gives a separation that is not (acos falls with a
    /// slope of at least 1, far beyond its rounding), and such a finding only extends its run.
    var spacingShortcut = true
    /// Spacing findings decided without their outline gap, and those that needed no separation.
    private(set) var gapsDeferred = 0, separationsSkipped = 0
    /// Spacing findings settled before the pair's frame (exact; off, they take the pair frame and
    /// the outline's verdict as every other pair; tests compare the two). A pair that only
    /// target-center-spacing could report (as for `spacingShortcut`) needs only whether its edge
    /// gap is below `edgeGap`. In the pair's frame each centre sits at
    /// ±(atan(tan α·cos φ), atan(tan α·sin φ)) (α its angle from the frame's midpoint direction,
    /// αa + αb = θ the angle between the two directions, φ the arc's direction across the
    /// midpoint), so the two centres are at most tan αa + tan αb ≤ tan θ apart (radians: atan(x)
    /// ≤ x, and tan is superadditive on [0, π/2)), both as the upright test's (Δx, Δy) and as the
    /// tilted images' centres. Each image, convex, holds a disc of radius ρ about its centre
    /// (`Inscribed`), so the images are at most max(0, D − ρa − ρb) apart along the segment between
    /// the centres. When D − ρa − ρb is below `edgeGap` (with a margin of 10⁻⁹ relative and
    /// 10⁻⁹° far above the rounding of either side), the exact test would pass the upright gap
    /// test (no early return), and whichever image it takes (tilted: `quadGapIsBelow` true;
    /// upright: `evaluate`'s gap below `edgeGap`) it reports one spacing finding whose value is the
    /// separation: so it is reported directly, and the edge gap (`aux`) is computed, by the same
    /// code (`spacingEdge`), only for the finding that stays its violation's worst: a finding that
    /// becomes the worst keeps the pair's inputs (`SpacingSlots.keepInputs`), and `finish` computes
    /// the gap of the frame that stayed the worst.
    var spacingBound = true
    /// The length (pt, along the axis between two centres) beyond which an element is longer than
    /// every button size the HIG gives (28, 32, 44, 52 and 64 pt): the centre spacing says nothing
    /// of its edges (`largeElement`).
    static let longElement = standardControlSizes.max() ?? 64
    /// Spacing findings settled by the bound (`spacingBound`), for tests and bench.
    private(set) var spacingsSettled = 0
    /// Whether a settled finding that becomes its violation's worst keeps the pair's inputs for
    /// `finish` (`SpacingSlots.keepInputs`); off, its edge gap is computed in its frame, as before
    /// (tests compare the two, bit for bit).
    var deferSettledEdges = true
    /// Per aggregate slot of target-center-spacing: the largest cosine of a centre separation
    /// reported to it, the frame whose finding left its gap for `finish`, and the two image quads
    /// of that frame (`SpacingSlots`).
    private let spacingSlots = SpacingSlots()
    /// Pairs given the angular pair test (not repeated from the previous frame, not skipped past
    /// the tracking limit), for tests.
    private(set) var angularTests = 0
    /// The thresholds as messages print them, formatted once.
    private let spacingText: String, edgeGapText: String, padGapText: String

    init(_ s: RuleSetup) {
        spacingRule = s.index(TargetCenterSpacing.metadata.id)
        overlapRule = s.index(TargetNoOverlap.metadata.id)
        paddingRule = s.index(TargetLargeHoverPadding.metadata.id)
        spacing = s.param(TargetCenterSpacing.metadata, "centerSpacing")
        edgeGap = s.param(TargetCenterSpacing.metadata, "edgeGap")
        maxOverlap = s.param(TargetNoOverlap.metadata, "maxOverlap")
        depthWindow = s.param(TargetNoOverlap.metadata, "depthWindow")
        padGap = s.param(TargetLargeHoverPadding.metadata, "gap")
        largeSize = s.param(TargetLargeHoverPadding.metadata, "largeSize")
        pointAngle = s.pointAngle
        spacingText = fmt(spacing); edgeGapText = fmt(edgeGap); padGapText = fmt(padGap)
        let ents = s.scene.entities
        var inContainer = [Bool](repeating: false, count: ents.count)
        var byContainer: [Int: [Int]] = [:]
        var dyn: [Int] = []
        var grp: [Int] = []
        // iOS AR: world targets only; screen-space UI (elements, head-anchored content) is
        // target-hit-region-ios's.
        let worldOnly = s.scene.platform == .iOS
        for i in ents.indices where ents[i].interactive && !(worldOnly && (ents[i].anchor != .world || ents[i].kind == .element)) {
            let e = ents[i]
            if let c = e.container, measuredInPoints(i, s.scene), e.animation == nil {
                inContainer[i] = true
                byContainer[c, default: []].append(i)
                grp.append(c)
            } else {
                grp.append(-(i + 1))
            }
            dyn.append(i)
        }
        staticInContainer = inContainer
        cover = ModalCover(s.scene)
        roles = ents.map { $0.kind == .element ? $0.role : nil }
        isControl = ents.indices.map { i in
            (ents[i].kind == .element || ents[i].kind == .node) && (ents[i].role.map { $0 != .text && $0 != .image } ?? false)
        }
        dynamicEntities = dyn
        group = grp
        runAngular = Set(grp).count > 1
        let n = dyn.count
        halfW = Array(repeating: 0, count: n); halfH = halfW; radius = halfW; cosR = halfW; sinR = halfW
        slot = Array(repeating: 0, count: n)
        coneCells = Array(repeating: nil, count: n)
        direction = Array(repeating: .zero, count: n); flat = Array(repeating: false, count: n)
        axisU = direction; axisV = direction
        inscribed = Array(repeating: Inscribed(upright: -.infinity, p: 0, q: 0), count: n)
        inputs = Array(repeating: 0, count: n * Self.inputWords); changed = Array(repeating: true, count: n)
        builtDir = Array(repeating: Vec3(repeating: .nan), count: n); builtRadius = Array(repeating: .nan, count: n)
        slotOf = Array(repeating: -1, count: n)
        odometer = Array(repeating: 0, count: n); lastDirection = direction; lastRadius = halfW
        lastDistance = halfW; lastSize = halfW
        odometerSeen = Array(repeating: false, count: n)
        skin = max(edgeGap, padGap) * pointAngle
        containerMembers = byContainer.keys.sorted().compactMap { byContainer[$0] }
        // Hit regions where stated (`hitRegion`), else the frames.
        containerRects = containerMembers.map { $0.map { ents[$0].hitFrame ?? ents[$0].frame ?? RectPt(x: 0, y: 0, width: 0, height: 0) } }
    }

    /// Same-container pairs, found once, in the first frame (when the tracking limit is known). At
    /// most `cap` findings are kept (`Findings.mostKept`). Returns whether there were more than
    /// that (`staticOverLimit`).
    private func findStaticPairs(cap: Int) -> Bool {
        var pg = PairGrid()
        var over = false
        for (members, rects) in zip(containerMembers, containerRects) where !over {
            let x0 = rects.map { $0.x }, y0 = rects.map { $0.y }
            let x1 = rects.map { $0.x + $0.width }, y1 = rects.map { $0.y + $0.height }
            // The row (`role: row`) each other member lies in (its frame inside the row's, half a
            // point of rounding), by index in `members`; -1 for none. Found with the same grid,
            // so the work is the pass's own.
            var rowOf = [Int](repeating: -1, count: members.count)
            if members.contains(where: { roles[$0] == .row }) {
                var inRows = PairGrid()
                inRows.search(count: members.count, minX: x0, minY: y0, maxX: x1, maxY: y1, cell: spacing, margin: 0) { i, j in
                    for (r, o) in [(i, j), (j, i)] where roles[members[r]] == .row && roles[members[o]] != .row && rowOf[o] < 0 {
                        if x0[o] >= x0[r] - 0.5 && y0[o] >= y0[r] - 0.5 && x1[o] <= x1[r] + 0.5 && y1[o] <= y1[r] + 0.5 { rowOf[o] = r }
                    }
                    return true
                }
            }
            pg.search(count: members.count, minX: x0, minY: y0, maxX: x1, maxY: y1, cell: spacing,
                      margin: max(edgeGap, padGap)) { i, j in
                let roleA = roles[members[i]], roleB = roles[members[j]]
                // A control inside a row is part of it (a switch in a Form row): not a pair.
                if (roleA == .row && rowOf[j] == i) || (roleB == .row && rowOf[i] == j) { return !over }
                let ca = rects[i].center, cb = rects[j].center
                let d = ca - cb
                let sep = (d.x * d.x + d.y * d.y).squareRoot()
                let g = rectGap(x0[i], y0[i], x1[i], y1[i], x0[j], y0[j], x1[j], y1[j])
                let sizeA = min(rects[i].width, rects[i].height), sizeB = min(rects[j].width, rects[j].height)
                func keep(_ f: StaticFinding) {
                    if staticFindings.count < cap { staticFindings.append(f) } else { over = true }
                }
                // Two rows of a system list, form or menu stacked one above the other (or what lies
                // in two such rows): the system spaces them, so only their overlap is judged. Rows
                // side by side are no list's rows and are compared as usual.
                // Two tabs stacked one above the other are the visionOS tab bar's, which is always
                // vertical and laid out by the system (tab bars › visionOS): the same.
                let ri = roleA == .row ? i : rowOf[i], rj = roleB == .row ? j : rowOf[j]
                let rows = (ri >= 0 && rj >= 0 && ri != rj
                    && abs(rects[ri].center.y - rects[rj].center.y) >= abs(rects[ri].center.x - rects[rj].center.x))
                    || (roleA == .tab && roleB == .tab && abs(d.y) >= abs(d.x))
                evaluate(members[i], members[j], sep: sep, gap: g.gap, overlap: g.overlap,
                         bothLarge: sizeA >= largeSize && sizeB >= largeSize && isControl[members[i]] && isControl[members[j]],
                         sameDepth: true, angular: false) {
                    if !rows || $0 == overlapRule {
                        keep(StaticFinding(rule: $0, a: members[i], b: members[j], measured: $1, aux: $2, threshold: $3, variant: 0))
                    }
                }
                // Sub-check `largeElement`: the centre spacing stands for a gap only between
                // regular-size elements (a 44 pt button 60 pt from another leaves 16 pt). When one of
                // the two is long along the axis their centres are farther apart on (a slider beside
                // a button, a field under a toggle it is offset from), the centres are far apart
                // because of that length, not of the gap, so the gap must hold on its own. Long:
                // more than every button size (`longElement`, 64 pt), and no large button (60 pt or
                // more both ways: it keeps the buttons page's 4 pt of padding, which
                // target-large-hover-padding judges).
                let horizontal = abs(d.x) >= abs(d.y)
                func long(_ k: Int) -> Bool {
                    let r = rects[k]
                    return (horizontal ? r.width : r.height) > Self.longElement
                        && !(roles[members[k]] == .button && min(r.width, r.height) >= largeSize)
                }
                // Two segments of a segmented control (pickers that touch) or two touching tabs of
                // a tab bar are parts of one system control, laid out by the system.
                let parts = roleA == roleB && (roleA == .picker || roleA == .tab) && g.gap < 0.5
                if let r = spacingRule, !rows, !parts, sep >= spacing, g.gap < edgeGap, g.overlap <= 0, long(i) || long(j),
                   !(sizeA >= largeSize && sizeB >= largeSize) {
                    keep(StaticFinding(rule: r, a: members[i], b: members[j], measured: g.gap, aux: sep, threshold: edgeGap, variant: 1))
                }
                return !over
            }
        }
        staticChecks = pg.checks
        return over
    }

    /// Applies the three rules to one pair.
    private func evaluate(_ a: Int, _ b: Int, sep: Double, gap: Double, overlap: Double, bothLarge: Bool,
                          sameDepth: Bool, angular: Bool, emit: (Int, Double, Double, Double) -> Void) {
        if let r = overlapRule, overlap > maxOverlap, sameDepth {
            emit(r, overlap, gap, maxOverlap)
        }
        if let r = spacingRule, sep < spacing, gap < edgeGap {
            emit(r, sep, gap, spacing)
        }
        if let r = paddingRule, bothLarge, gap < padGap {
            emit(r, gap, sep, padGap)
        }
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        if !staticPairsFound {
            staticPairsFound = true
            staticOverLimit = findStaticPairs(cap: out.mostKept)
        }
        findingsReported &+= staticFindings.count
        // Content under a visible sheet, alert, popover or menu is in no pair.
        if !cover.isEmpty { cover.update(f.visible) }
        let covered = cover.covered
        for s in staticFindings where f.visible[s.a] && f.visible[s.b] && !covered[s.a] && !covered[s.b] {
            out.report(rule: s.rule, s.a, s.b, frame: f.frame, time: f.time, measured: s.measured,
                       threshold: s.threshold, aux: s.aux,
                       severity: s.rule == overlapRule ? .error : s.variant == 1 ? .warning : nil, unit: "pt", variant: s.variant)
        }
        // Same-container violations beyond the ones kept cannot all be tracked: the scene stops
        // after this frame, as it would once they were shown.
        if staticOverLimit { out.markLimitReached() }
        guard runAngular else { return }
        let follows = f.frame == angularFrame &+ 1
        angularFrame = f.frame
        // A frame with the previous frame's values (the simulator says so) has the eye and every
        // input record the previous frame had: the comparison below would find nothing changed.
        if incremental, previousKept, follows, f.unchangedSincePrevious, RuleShortcuts.stillFrames {
            noteRepeat(f)
            return
        }
        // Angular pass: every visible interactive entity by its direction from the eye and its
        // upright extent around it (world up), with what the pair test needs of it computed once
        // per entity, not once per pair. Nothing here reads the head's orientation: the verdicts
        // depend on the eye's position and the content only.
        var n = 0
        let head = f.headPosition
        let eye = [head.x, head.y, head.z].map(\.bitPattern)
        let firstFrame = eyeInputs.isEmpty
        let eyeSame = eye == eyeInputs
        eyeInputs = eye
        var anyChanged = false
        // One exclusive access per buffer and frame, not one per element.
        inputs.withUnsafeMutableBufferPointer { rec in
        changed.withUnsafeMutableBufferPointer { chg in
            for (k, e) in dynamicEntities.enumerated() {
                let o = k * Self.inputWords
                var differs = false
                @inline(__always) func put(_ i: Int, _ v: UInt64) {
                    if rec[o + i] != v { rec[o + i] = v; differs = true }
                }
                let present = f.visible[e] && f.distance[e] > 0 && !covered[e]
                put(0, present ? 1 : 0)
                if present {
                    // What the pair test reads of the entity: its distance, centre and box (its
                    // direction and upright extent follow from them and the eye's position), whether
                    // it counts as large (pt_eq; only the verdict, so a head turning by rounding does
                    // not make it new) and whether the eye is inside it.
                    put(1, f.distance[e].bitPattern)
                    let c = f.center[e]
                    put(2, c.x.bitPattern); put(3, c.y.bitPattern); put(4, c.z.bitPattern)
                    let b = 12 * e
                    if b + 11 < f.boxFrames.count {
                        for i in 0..<12 { put(5 + i, f.boxFrames[b + i].bitPattern) }
                    } else {
                        let lo = f.boundsMin[e], hi = f.boundsMax[e]
                        for i in 0..<3 { put(5 + i, lo[i].bitPattern); put(8 + i, hi[i].bitPattern) }
                        for i in 11..<17 { put(i, 0) }
                    }
                    put(17, (f.ptEq[e] >= self.largeSize ? 1 : 0) | (f.angularWidth[e] >= 360 ? 2 : 0))
                }
                // An entity absent in both frames is unchanged (it is in no pair either way).
                chg[k] = differs
                if differs { anyChanged = true }
            }
        }}
        // `eyeSame` is false in the first frame (no previous eye). The findings are kept for the
        // next frame only while the eye stands still (and in the first frame): a moving eye's
        // findings are not reused, so they are not copied.
        let reuse = incremental && eyeSame && previousKept
        let keep = incremental && (eyeSame || firstFrame)
        previousKept = keep
        if reuse, !anyChanged {
            // The previous frame's findings, again: only their runs grow, so the frame is noted
            // and the runs extended once the streak of such frames ends (`flushRepeats`).
            noteRepeat(f)
            return
        }
        flushRepeats(&out)
        if reuse { partialFrames += 1 }
        var found = spare
        found.removeAll(keepingCapacity: true)
        if reuse {
            for var p in previous where !changed[Int(p.ka)] && !changed[Int(p.kb)] {
                reportAngular(&p, f, &out)
                found.append(p)
            }
            findingsReported &+= found.count
        }
        let pa = pointAngle
        let margin = max(edgeGap, padGap) * pa
        let columns = SphereCells.columns(cell: spacing * pa)
        halfW.withUnsafeMutableBufferPointer { hw in
        halfH.withUnsafeMutableBufferPointer { hh in
        radius.withUnsafeMutableBufferPointer { rad in
        cosR.withUnsafeMutableBufferPointer { cr in
        sinR.withUnsafeMutableBufferPointer { sr in
        coneCells.withUnsafeMutableBufferPointer { cc in
        slot.withUnsafeMutableBufferPointer { sl in
        direction.withUnsafeMutableBufferPointer { dir in
        flat.withUnsafeMutableBufferPointer { fl in
        axisU.withUnsafeMutableBufferPointer { au in
        axisV.withUnsafeMutableBufferPointer { av in
        inscribed.withUnsafeMutableBufferPointer { ins in
            for (k, e) in dynamicEntities.enumerated() where f.visible[e] && f.distance[e] > 0 && !covered[e] {
                sl[n] = k
                let d = normalize(f.center[e] - head)
                dir[n] = d
                let ext = Self.uprightExtent(f, e, eye: head, sight: d)
                hw[n] = ext.hw; hh[n] = ext.hh
                let r = Self.searchRadius(ext.hw, ext.hh, margin: margin)
                rad[n] = r
                cr[n] = cos(r / 180 * .pi); sr[n] = sin(r / 180 * .pi)
                cc[n] = Self.cone(d, radius: r, columns: columns)
                if let axes = Self.flatAxes(f, e), f.distance[e].isFinite {
                    fl[n] = true; au[n] = axes.0; av[n] = axes.1
                    ins[n] = Inscribed(hw: ext.hw, hh: ext.hh, axes: axes, distance: f.distance[e], direction: d)
                } else {
                    fl[n] = false
                    ins[n] = Inscribed(hw: ext.hw, hh: ext.hh, axes: nil, distance: f.distance[e], direction: d)
                }
                n += 1
            }
        }}}}}}}}}}}}
        // The pair test reads only these locals (no class properties: no exclusivity checks).
        let hw = halfW, hh = halfH, rad = radius, cosRad = cosR, sinRad = sinR, cones = coneCells
        let sl = slot, dir = direction, fl = flat, au = axisU, av = axisV, ins = inscribed
        let dyn = dynamicEntities, grp = group, still = staticInContainer, control = isControl, chg = changed
        // Only a run that can test from the list needs the odometers.
        if pairSleep, listUsable { advanceOdometers(f, count: n, slots: sl, directions: dir, radii: rad) }
        let maxOverlap = maxOverlap, edgeGap = edgeGap, padGap = padGap, largeSize = largeSize, depthWindow = depthWindow
        let spacing = spacing, canOverlap = overlapRule != nil, canSpace = spacingRule != nil, canPad = paddingRule != nil
        let spacingDegrees = spacing * pa
        let clearlyBeyond = margin.isFinite && margin >= 0 ? margin * (1 + 1e-9) : Double.infinity
        let spacingRuleIndex = spacingRule ?? -1, overlapRuleIndex = overlapRule ?? -1
        let shortcut = closestPointShortcut
        var skippedGaps = 0, tested = 0, reported = 0, trackedNow = false, deferred = 0, noSeparation = 0, settled = 0
        // The spacing shortcuts (`spacingShortcut`): the threshold's cosine, with a margin far
        // above the rounding of acos, degrees and the division by the point angle; and the kept
        // values, moved out of the properties for the frame (no exclusivity checks per pair).
        let spacingOnly = spacingShortcut
        let thetaT = spacing * pa / 180 * .pi
        let cosVerdict = spacingShortcut && pa > 0 && pa.isFinite && thetaT > 1e-6 && thetaT < .pi - 1e-6
        let cosAbove = cos(thetaT) + 1e-12, cosBelow = cos(thetaT) - 1e-12
        // A finding kept for the next frame (`keep`) needs its separation.
        let skipWorse = spacingShortcut && !keep
        // Room for the aggregates this frame may add (a slot beyond it is not deferred).
        if spacingShortcut { spacingSlots.reserve(out.aggregates.count + out.aggregates.count / 4 + 4_096) }
        let worstCos = spacingSlots.cosine, lateFrame = spacingSlots.frame
        let lateKind = spacingSlots.kind, lateKept = spacingSlots.kept
        let slotRoom = spacingSlots.capacity
        // The bound's verdict: the edge gap below this (degrees; `spacingSettles`).
        let settleBelow = edgeGap * pa
        let boundOn = spacingShortcut && spacingBound && edgeGap > 0 && edgeGap.isFinite && pa > 0 && pa.isFinite
        let deferEdges = deferSettledEdges
        let frameIndex = f.frame, frameTime = f.time
        defer {
            closestPointsSkipped += skippedGaps; angularTests += tested; findingsReported &+= reported
            gapsDeferred += deferred; separationsSkipped += noSeparation; spacingsSettled += settled
            if trackedNow { angularTracked = true }
        }
        // Set when the tracking limit is reached and no angular pair was tracked before this frame:
        // every pair left would be new (each pair is tested once a frame), so none is tested.
        var stop = false
        let angularTrackedBefore = angularTracked
        /// Tests the pair of slots i < j; `slots` caches the pair's aggregate per rule.
        @inline(__always) func test(_ i: Int, _ j: Int, _ slots: inout SIMD4<Int32>) {
            let ka = sl[i], kb = sl[j]
            let a = dyn[ka], b = dyn[kb]
            // Unchanged pair: its findings were repeated above.
            if reuse, !chg[ka], !chg[kb] { return }
            // Past the tracking limit only a pair already tracked can change anything (a new one
            // would be dropped): the rest are not tested, so the frame that reaches the limit
            // costs what it has tracked, not every pair of a stacked scene.
            if out.limitReached {
                guard angularTrackedBefore else { stop = true; return }
                if !trackedPair(a, b, out) { return }
            }
            tested += 1
            let cosv = max(-1, min(1, dot(dir[i], dir[j])))
            // Farther apart than their cones' radii: the images' gap in the pair's frame exceeds
            // the margin (`searchRadius`), so no rule can hold (cos(Ri + Rj) from each one's cosine
            // and sine; 10⁻¹² is far above their rounding).
            if maxOverlap >= 0, rad[i] + rad[j] < 180, cosv < cosRad[i] * cosRad[j] - sinRad[i] * sinRad[j] - 1e-12 { return }
            // The centre separation, computed when something needs its value (`spacingShortcut`;
            // NaN until then: computing it again gives the same value).
            var sep = Double.nan
            let bothLarge = f.ptEq[a] >= largeSize && f.ptEq[b] >= largeSize && control[a] && control[b]
            let sameDepth = abs(f.distance[a] - f.distance[b]) <= depthWindow
            // `sep < spacing`, from the cosine where it is clearly on one side.
            let closeCentres: Bool
            if cosVerdict, cosv > cosAbove {
                closeCentres = true
            } else if cosVerdict, cosv < cosBelow {
                closeCentres = false
            } else {
                sep = degrees(acos(cosv)) / pa
                closeCentres = sep < spacing
            }
            // Each rule also needs one of these, whatever the images' gap (`evaluate`: the overlap
            // at the same depth, the spacing with centres closer than `spacing`, the padding of
            // two large controls): without any, no finding, and neither the pair's frame nor a
            // tilted outline is worth computing. (Many of the pairs the cones let through in a
            // crowded scene: buttons' cones reach ~6.7° apart, spacing needs centres within ~4°,
            // and windows at different distances are rarely at the same depth.)
            guard (canOverlap && sameDepth) || (canSpace && closeCentres) || (canPad && bothLarge) else { return }
            // Only target-center-spacing can report the pair, and the bound shows its edge gap
            // below `edgeGap` (`spacingBound`): one spacing finding, without the pair's frame.
            // (Reported as the spacing-only path below reports it, written out again: a nested
            // function shared by the two made the counters it captures dynamically checked,
            // +4.9 % on the walking crowded scene.)
            if boundOn, canSpace, closeCentres, !(canOverlap && sameDepth), !(canPad && bothLarge), cosv > 0,
               (slots[0] >= 0 ? Int(slots[0]) : out.aggregates.count) < slotRoom {
                if Self.spacingSettles(Self.spacingGapBound(dir[i], dir[j], cos: cosv, ins[i], ins[j]), below: settleBelow) {
                    reported += 1
                    deferred += 1
                    settled += 1
                    let s0 = slots[0]
                    // A cosine clearly below the largest reported: not a new worst, only the run grows.
                    if skipWorse, s0 >= 0, Int(s0) < slotRoom, cosv < worstCos[Int(s0)] - 1e-12,
                       out.repeatWorse(slot: s0, rule: spacingRuleIndex, a, b, frame: f.frame, time: f.time) {
                        noSeparation += 1
                        trackedNow = true
                        return
                    }
                    if sep.isNaN { sep = degrees(acos(cosv)) / pa }
                    var p = PairFinding(rule: spacingRuleIndex, ka: Int32(truncatingIfNeeded: ka), kb: Int32(truncatingIfNeeded: kb),
                                        a: a, b: b, measured: sep, aux: .nan, threshold: spacing, slot: s0)
                    let worst = reportAngular(&p, f, &out)
                    slots[0] = p.slot
                    if p.slot >= 0 {
                        trackedNow = true
                        let k = Int(p.slot)
                        if k < slotRoom, !(worstCos[k] >= cosv) { worstCos[k] = cosv }
                        if worst {
                            // The edge gap the exact test would have reported, computed at the
                            // end by its code (`spacingEdge`) from the pair's inputs kept now, for
                            // the frame that stays the worst (a walking viewer's pairs make a new
                            // worst in most frames).
                            if deferEdges, k < slotRoom {
                                lateFrame[k] = Int32(truncatingIfNeeded: f.frame)
                                SpacingSlots.keepInputs(lateKept, lateKind, slot: k, f.center[a] - head, f.center[b] - head,
                                                        distA: f.distance[a], distB: f.distance[b], hw[i], hh[i], hw[j], hh[j],
                                                        flatA: fl[i], au[i], av[i], flatB: fl[j], au[j], av[j])
                            } else {
                                // In its frame (`deferSettledEdges` off; or no room to keep the
                                // inputs, which the bound's guard leaves to the exact path): the
                                // tilted images' quads kept for `finish`, or the upright gap now.
                                let edge = Self.spacingEdge(f.center[a] - head, f.center[b] - head, dir[i], dir[j],
                                                            distA: f.distance[a], distB: f.distance[b], hw[i], hh[i], hw[j], hh[j],
                                                            axesA: fl[i] ? (au[i], av[i]) : nil, axesB: fl[j] ? (au[j], av[j]) : nil)
                                if edge.tilted, k < slotRoom {
                                    lateFrame[k] = Int32(truncatingIfNeeded: f.frame)
                                    SpacingSlots.keepQuads(lateKept, lateKind, slot: k, edge.qa, edge.qb)
                                } else {
                                    if k < slotRoom { lateFrame[k] = -1 }
                                    let gap = edge.tilted ? quadGap(edge.qa, edge.qb).gap : edge.gap
                                    out.setAux(slot: k, rule: spacingRuleIndex, worstFrame: f.frame, gap / pa)
                                }
                            }
                        }
                    }
                    if keep, !out.limitReached { found.append(p) }
                    return
                }
            }
            // The pair's own frame: its midpoint direction, and across it world right and up.
            let (mid, right, up) = Self.pairFrame(f.center[a] - head, f.center[b] - head, dir[i])
            let ia = Self.components(dir[i], right, up, mid), ib = Self.components(dir[j], right, up, mid)
            // The centres' offsets along right and up, as angles seen from the eye:
            // x = atan2(d·right, d·mid), y = atan2(d·up, d·mid), their differences each in one
            // arctangent (the angle between the two (mid, right) and (mid, up) vectors; the
            // simulator's arctangent, `sm_atan2`: within an ulp of libm's at a fraction of its cost).
            let dx = degrees(sm_atan2(ia.x * ib.z - ia.z * ib.x, ia.z * ib.z + ia.x * ib.x))
            let dy = degrees(sm_atan2(ia.y * ib.z - ia.z * ib.y, ia.z * ib.z + ia.y * ib.y))
            var g = uprightGap(dx, dy, hw[i], hh[i], hw[j], hh[j])
            // No rule can hold for a pair that neither overlaps nor comes within a gap threshold.
            // (The first test, without dividing, settles most pairs: a gap clearly beyond the
            // margin fails both gap thresholds below.)
            if g.overlap == 0, maxOverlap >= 0, g.gap > clearlyBeyond { return }
            guard g.overlap / pa > maxOverlap || g.gap / pa < edgeGap || g.gap / pa < padGap else { return }
            // A flat element whose image is tilted is compared by its own outline, not by the
            // upright box around its image (which would bring tilted neighbours falsely close).
            // Both projected across the line of sight to the pair's midpoint, so that two parallel
            // elements keep parallel images. Only a flat entity's image can be tilted.
            if fl[i] || fl[j] {
                let ca = SIMD2(degrees(sm_atan2(ia.x, ia.z)), degrees(sm_atan2(ia.y, ia.z)))
                let cb = SIMD2(degrees(sm_atan2(ib.x, ib.z)), degrees(sm_atan2(ib.y, ib.z)))
                let qa = Self.imageQuad(f, a, ca, hw[i], hh[i], axes: fl[i] ? (au[i], av[i]) : nil, right: right, up: up)
                let qb = Self.imageQuad(f, b, cb, hw[j], hh[j], axes: fl[j] ? (au[j], av[j]) : nil, right: right, up: up)
                if qa.tilted || qb.tilted {
                    // Only a gap below these thresholds can make a finding when the quads are
                    // disjoint (their overlap, 0, is then never above a maxOverlap ≥ 0; below 0 the
                    // overlap finding reports the gap, so it is always computed): quadGap may skip
                    // the closest points of quads farther apart than that.
                    var gapNeeded = maxOverlap >= 0 && shortcut ? 0 : Double.infinity
                    if canSpace, closeCentres { gapNeeded = max(gapNeeded, edgeGap * pa) }
                    if canPad, bothLarge { gapNeeded = max(gapNeeded, padGap * pa) }
                    if spacingOnly, canSpace, closeCentres, !(canOverlap && sameDepth), !(canPad && bothLarge),
                       (slots[0] >= 0 ? Int(slots[0]) : out.aggregates.count) < slotRoom {
                        // Only target-center-spacing can report the pair: its verdict needs only
                        // whether the gap is below `edgeGap`, its value the separation, and the
                        // gap is computed at the end for the frame that stays the worst.
                        let v = quadGapIsBelow(qa.quad, qb.quad, gapNeededBelow: gapNeeded, scale: pa, limit: edgeGap)
                        if v.skipped { skippedGaps += 1 }
                        guard v.below else { return }
                        reported += 1
                        deferred += 1
                        let s0 = slots[0]
                        // A cosine clearly below the largest reported: not a new worst, only the run grows.
                        if skipWorse, s0 >= 0, Int(s0) < slotRoom, cosv < worstCos[Int(s0)] - 1e-12,
                           out.repeatWorse(slot: s0, rule: spacingRuleIndex, a, b, frame: f.frame, time: f.time) {
                            noSeparation += 1
                            trackedNow = true
                            return
                        }
                        if sep.isNaN { sep = degrees(acos(cosv)) / pa }
                        var p = PairFinding(rule: spacingRuleIndex, ka: Int32(truncatingIfNeeded: ka), kb: Int32(truncatingIfNeeded: kb),
                                            a: a, b: b, measured: sep, aux: .nan, threshold: spacing, slot: s0)
                        let worst = reportAngular(&p, f, &out)
                        slots[0] = p.slot
                        if p.slot >= 0 {
                            trackedNow = true
                            let k = Int(p.slot)
                            if k < slotRoom {
                                if !(worstCos[k] >= cosv) { worstCos[k] = cosv }
                                if worst {
                                    lateFrame[k] = Int32(truncatingIfNeeded: f.frame)
                                    SpacingSlots.keepQuads(lateKept, lateKind, slot: k, qa.quad, qb.quad)
                                }
                            } else if worst {
                                // No room to keep the quads: the gap now.
                                out.setAux(slot: k, rule: spacingRuleIndex, worstFrame: f.frame, quadGap(qa.quad, qb.quad).gap / pa)
                            }
                        }
                        if keep, !out.limitReached { found.append(p) }
                        return
                    }
                    g = quadGap(qa.quad, qb.quad, gapNeededBelow: gapNeeded)
                    if g.gap == .infinity { skippedGaps += 1 }
                    guard g.overlap / pa > maxOverlap || g.gap / pa < edgeGap || g.gap / pa < padGap else { return }
                }
            }
            if sep.isNaN { sep = degrees(acos(cosv)) / pa }
            evaluate(a, b, sep: sep, gap: g.gap / pa, overlap: g.overlap / pa, bothLarge: bothLarge,
                     sameDepth: sameDepth, angular: true) { rule, m, aux, thr in
                let r = rule == spacingRuleIndex ? 0 : rule == overlapRuleIndex ? 1 : 2
                var p = PairFinding(rule: rule, ka: Int32(truncatingIfNeeded: ka), kb: Int32(truncatingIfNeeded: kb),
                                    a: a, b: b, measured: m, aux: aux, threshold: thr, slot: slots[r])
                // The frame's number and time, not the frame: a closure that captured it would copy
                // it at every call (retaining each of its ~40 arrays: ~1,200 instructions a pair).
                reportAngular(&p, frame: frameIndex, time: frameTime, &out)
                reported += 1
                slots[r] = p.slot
                if p.slot >= 0 {
                    trackedNow = true
                    // The largest cosine reported to a spacing aggregate (its separation `m`).
                    if r == 0, Int(p.slot) < slotRoom, !(worstCos[Int(p.slot)] >= cosv) { worstCos[Int(p.slot)] = cosv }
                }
                // The findings are kept for the next frame, which a scene past the tracking limit
                // does not have (its list would grow with every pair of the frame).
                if keep, !out.limitReached { found.append(p) }
            }
        }
        // The list leaves out entities with a non-finite direction or extent (never visited by
        // the search either): a frame with one is searched.
        var useList = listUsable
        // Past the tracking limit already (a window's own pairs reached it) with no angular pair
        // tracked before: `test` would stop at its first pair, so neither the list nor the search
        // is walked. (Both skip a window's own pairs without calling `test`: a window of stacked
        // buttons made the frame walk all of its pairs twice before the scene stopped.)
        let walk = !(out.limitReached && !angularTrackedBefore)
        if !walk { useList = false }
        if useList {
            for i in 0..<n where cones[i] == nil {
                useList = false
                break
            }
        }
        if useList {
            // Which dynamic entity sits in which slot this frame, and whether the list still holds.
            var valid = listValid
            slotOf.withUnsafeMutableBufferPointer { so in
                for k in so.indices { so[k] = -1 }
                for i in 0..<n {
                    let k = sl[i]
                    so[k] = Int32(truncatingIfNeeded: i)
                    guard valid else { continue }
                    // The cone now lies inside the cone the list was built with: the angle the
                    // direction turned (from its chord) plus the radius now. NaN (not in the list
                    // when built) fails the comparison too.
                    let chord = length(dir[i] - builtDir[k])
                    let moved = degrees(2 * asin(min(1, chord / 2)))
                    if !(moved + rad[i] <= builtRadius[k]) { valid = false }
                }
            }
            if !valid {
                listBuilds += 1
                candidates.removeAll(keepingCapacity: true)
                for k in builtDir.indices { builtDir[k] = Vec3(repeating: .nan); builtRadius[k] = .nan }
                // Cones grown by the skin (and a little more for the cells, so that rounding
                // cannot leave out a pair at exactly the margin).
                var grown = [SphereCells?](repeating: nil, count: n)
                for i in 0..<n {
                    let k = sl[i]
                    builtDir[k] = dir[i]; builtRadius[k] = rad[i] + skin
                    grown[i] = Self.cone(dir[i], radius: (rad[i] + skin) * 1.001, columns: columns)
                }
                var list = candidates
                candidates = []
                let limit = listLimit
                grid.searchSphere(count: n, cells: grown, columns: columns) { i, j in
                    let ka = sl[i], kb = sl[j]
                    if grp[ka] == grp[kb], still[dyn[ka]], still[dyn[kb]] { return true }
                    guard list.count < limit else { return false }
                    list.append(Candidate(ka: Int32(truncatingIfNeeded: ka), kb: Int32(truncatingIfNeeded: kb)))
                    return true
                }
                if list.count >= limit {
                    // Thresholds so wide that most pairs are candidates: the list would cost more
                    // memory than it saves; search every frame from now on.
                    listDisabled = true
                    list = []
                } else {
                    listValid = true
                }
                candidates = list
            }
        }
        if useList, !listDisabled {
            listFrames += 1
            listChecks += candidates.count
            let so = slotOf
            let sleep = pairSleep, odo = odometer
            var asleep = 0
            candidates.withUnsafeMutableBufferPointer { cs in
                for c in cs.indices where !stop {
                    let ka = Int(cs[c].ka), kb = Int(cs[c].kb)
                    // Asleep (`pairSleep`): skipped before anything of its entities is read.
                    let o = sleep ? odo[ka] + odo[kb] : 0
                    if sleep, o < cs[c].wake { asleep += 1; continue }
                    let i = Int(so[ka]), j = Int(so[kb])
                    // A pair with an absent entity, or one the search would not visit: not sharing
                    // a cell (a large one shares every cell). The pairs tested are exactly the ones
                    // the search would test that can have a finding.
                    guard i >= 0, j >= 0, let ci = cones[i], let cj = cones[j] else { continue }
                    if sleep {
                        // No rule can hold now, with a margin (`pairSleep`): falls asleep.
                        let angle = degrees(length(dir[i] - dir[j])) * (1 - 1e-12) - 1e-3
                        var m = angle - rad[i] - rad[j]
                        if !(m > 0) {
                            let a = dyn[ka], b = dyn[kb]
                            // The smallest margin; NaN in any: none.
                            var g = Double.infinity
                            @inline(__always) func keep(_ v: Double) { g = v.isNaN ? -.infinity : min(g, v) }
                            /// A margin in metres or pt, less 10⁻⁹ relative and absolute, in odometer units.
                            @inline(__always) func keep(_ v: Double, scale: Double) { keep((v - 1e-9 * abs(v) - 1e-9) * scale) }
                            if canSpace { keep(angle - spacingDegrees) }
                            if canOverlap { keep(abs(f.distance[a] - f.distance[b]) - depthWindow, scale: Self.sleepDepthScale) }
                            if canPad, control[a], control[b] {
                                let sa = largeSize - f.ptEq[a], sb = largeSize - f.ptEq[b]
                                keep(sa.isNaN || sb.isNaN ? Double.nan : max(sa, sb), scale: Self.sleepSizeScale)
                            }
                            m = g
                        }
                        if m > 0 {
                            let w = o + m
                            cs[c].wake = w - (1e-12 * w + 1e-9)
                            continue
                        }
                    }
                    guard ci.large || cj.large || SphereCells.common(ci, cj, columns: columns).shared else { continue }
                    test(i, j, &cs[c].slots)
                }
            }
            pairsAsleep += asleep
        } else if walk {
            listValid = false
            var none = SIMD4<Int32>(repeating: -1)
            grid.searchSphere(count: n, cells: cones, columns: columns) { i, j in
                let ka = sl[i], kb = sl[j]
                if grp[ka] == grp[kb], still[dyn[ka]], still[dyn[kb]] { return true }
                none = SIMD4(repeating: -1)
                test(i, j, &none)
                return !stop
            }
        } else {
            listValid = false
        }
        spare = previous
        previous = found
        // A frame past the tracking limit kept only part of its findings: never repeat them.
        if out.limitReached { previousKept = false }
    }

    /// Adds the motion since the last pass to the odometers of the `count` entities present
    /// (`pairSleep`): slot i holds dynamic entity `slots[i]`, its direction and cone radius.
    private func advanceOdometers(_ f: FrameQuantities, count n: Int, slots: [Int], directions: [Vec3], radii: [Double]) {
        var reset = false
        let dyn = dynamicEntities
        /// How much a value changed (0 for the same infinity; NaN stays NaN).
        @inline(__always) func change(_ a: Double, _ b: Double) -> Double { a == b ? 0 : abs(a - b) }
        odometer.withUnsafeMutableBufferPointer { odo in
        lastDirection.withUnsafeMutableBufferPointer { ld in
        lastRadius.withUnsafeMutableBufferPointer { lr in
        lastDistance.withUnsafeMutableBufferPointer { ldist in
        lastSize.withUnsafeMutableBufferPointer { lsize in
        odometerSeen.withUnsafeMutableBufferPointer { seen in
            for i in 0..<n {
                let k = slots[i], d = directions[i], r = radii[i], e = dyn[k]
                let dist = f.distance[e], size = f.ptEq[e]
                if seen[k] {
                    let growth = r == lr[k] ? 0 : r - lr[k]
                    let chord = length(d - ld[k])
                    let turn = (chord.isNaN ? .nan : degrees(2 * asin(min(1, chord / 2)))) + (growth > 0 || growth.isNaN ? growth : 0)
                    let depth = change(dist, ldist[k]) * Self.sleepDepthScale, resize = change(size, lsize[k]) * Self.sleepSizeScale
                    // `max` may drop a NaN: each is checked.
                    if turn.isFinite, depth.isFinite, resize.isFinite {
                        odo[k] += max(turn, depth, resize) + 1e-9
                        if odo[k] > 1e6 { reset = true }
                    } else {
                        reset = true
                    }
                }
                seen[k] = true
                ld[k] = d; lr[k] = r; ldist[k] = dist; lsize[k] = size
            }
        }}}}}}
        if reset {
            for k in odometer.indices { odometer[k] = 0 }
            for c in candidates.indices { candidates[c].wake = -.infinity }
        }
    }

    /// A frame whose findings are the previous frame's, added to the streak `flushRepeats` extends.
    private func noteRepeat(_ f: FrameQuantities) {
        reusedFrames += 1
        pending.note(frame: f.frame, time: f.time)
    }

    /// Adds the frames of a streak of unchanged frames to the runs of the findings they repeated.
    /// Reporting a finding again with the same values, frame after frame, only extends its run (a
    /// value equal to the recorded worst is not a new worst), and each of these findings was
    /// reported in the frame before the streak: one run extension per finding and streak is what
    /// reporting it in every frame of the streak does, so reports stay byte-identical.
    private func flushRepeats(_ out: inout Findings) {
        guard let (from, fromTime, to, toTime) = pending.take() else { return }
        runsExtended &+= previous.count
        previous.withUnsafeMutableBufferPointer { ps in
            for k in ps.indices {
                out.extendRun(slot: &ps[k].slot, rule: ps[k].rule, ps[k].a, ps[k].b,
                              from: from, fromTime: fromTime, to: to, toTime: toTime)
            }
        }
    }

    func finish(_ out: inout Findings, _ end: EndState) {
        flushRepeats(&out)
        // The edge gaps left for the end: each where its frame is still the violation's worst.
        if let rule = spacingRule {
            let t = spacingSlots
            for s in 0..<t.capacity where t.frame[s] >= 0 {
                out.setAux(slot: s, rule: rule, worstFrame: Int(t.frame[s]), t.gap(slot: s) / pointAngle)
            }
        }
        spacingSlots.reserve(0, reset: true)
    }

    /// Whether any of the three rules tracks the pair (a, b).
    private func trackedPair(_ a: Int, _ b: Int, _ out: Findings) -> Bool {
        if let r = spacingRule, out.hasAggregate(rule: r, a, b) { return true }
        if let r = overlapRule, out.hasAggregate(rule: r, a, b) { return true }
        if let r = paddingRule, out.hasAggregate(rule: r, a, b) { return true }
        return false
    }

    /// Reports one finding of the angular pass.
    @inline(__always) @discardableResult
    private func reportAngular(_ p: inout PairFinding, _ f: FrameQuantities, _ out: inout Findings) -> Bool {
        reportAngular(&p, frame: f.frame, time: f.time, &out)
    }

    /// Reports one finding of the angular pass in frame `frame` at `time`.
    @inline(__always) @discardableResult
    private func reportAngular(_ p: inout PairFinding, frame: Int, time: Double, _ out: inout Findings) -> Bool {
        out.report(slot: &p.slot, rule: p.rule, p.a, p.b, frame: frame, time: time, measured: p.measured,
                   threshold: p.threshold, aux: p.aux, severity: p.rule == overlapRule ? .warning : nil, angular: true,
                   unit: "pt_eq")
    }

    /// The two non-zero half-axes of entity `e`'s box, in axis order, when exactly two are non-zero.
    @inline(__always)
    static func flatAxes(_ f: FrameQuantities, _ e: Int) -> (Vec3, Vec3)? {
        let a0 = f.boxAxis(e, 0), a1 = f.boxAxis(e, 1), a2 = f.boxAxis(e, 2)
        let z0 = a0 == .zero, z1 = a1 == .zero, z2 = a2 == .zero
        if z0, !z1, !z2 { return (a1, a2) }
        if !z0, z1, !z2 { return (a0, a2) }
        if !z0, !z1, z2 { return (a0, a1) }
        return nil
    }

    /// Entity `e`'s image in its pair's frame (degrees): the upright rectangle `center` ± (hw, hh)
    /// of its angular extent, or, for a flat box (one zero half-axis) whose image is tilted, the
    /// parallelogram around `center` of its two half-axes a projected on the plane across the
    /// pair's midpoint direction, (a·right, a·up) / distance in degrees (`pairFrame`).
    /// `axes`: its two half-axes when it is flat (`flatAxes`), else nil.
    @inline(__always)
    static func imageQuad(_ f: FrameQuantities, _ e: Int, _ center: SIMD2<Double>, _ hw: Double, _ hh: Double,
                          axes: (Vec3, Vec3)?, right: Vec3, up: Vec3) -> (quad: ImageQuad, tilted: Bool) {
        imageQuad(distance: f.distance[e], center, hw, hh, axes: axes, right: right, up: up)
    }

    /// `imageQuad` of an entity at `distance` (its `FrameQuantities.distance`).
    @inline(__always)
    static func imageQuad(distance d: Double, _ center: SIMD2<Double>, _ hw: Double, _ hh: Double,
                          axes: (Vec3, Vec3)?, right: Vec3, up: Vec3) -> (quad: ImageQuad, tilted: Bool) {
        let upright = ImageQuad(center: center, u: SIMD2(hw, 0), v: SIMD2(0, hh))
        guard let axes, d > 0, d.isFinite else { return (upright, false) }
        let k = 180 / Double.pi / d
        let u = SIMD2(dot(axes.0, right), dot(axes.0, up)) * k, v = SIMD2(dot(axes.1, right), dot(axes.1, up)) * k
        @inline(__always) func skew(_ p: SIMD2<Double>) -> Bool { min(abs(p.x), abs(p.y)) > 1e-6 * max(abs(p.x), abs(p.y)) }
        guard skew(u) || skew(v), u.x.isFinite, u.y.isFinite, v.x.isFinite, v.y.isFinite else { return (upright, false) }
        return (ImageQuad(center: center, u: u, v: v), true)
    }

    /// The edge gap (degrees) of the pair (a, b) as the pair test measures it (`consume`): in the
    /// pair's frame, the tilted images' two quads (`tilted`; the gap is `quadGap` of them), or the
    /// upright images' gap (`gap`). `pa`, `pb`: the two centres relative to the eye, `da`, `db`
    /// the unit directions to them, `distA`, `distB` their distances (`FrameQuantities.distance`);
    /// `axesA`, `axesB`: a flat entity's half-axes (`flatAxes`), else nil. The same arithmetic in
    /// the same order as the test, so the same bits. (Values only: it runs in `finish`, from the
    /// values a settled finding kept, `SpacingSlots.gap`.)
    @inline(never)
    static func spacingEdge(_ pa: Vec3, _ pb: Vec3, _ da: Vec3, _ db: Vec3, distA: Double, distB: Double,
                            _ hwa: Double, _ hha: Double, _ hwb: Double, _ hhb: Double,
                            axesA: (Vec3, Vec3)?, axesB: (Vec3, Vec3)?) -> (tilted: Bool, qa: ImageQuad, qb: ImageQuad, gap: Double) {
        let (mid, right, up) = pairFrame(pa, pb, da)
        let ia = components(da, right, up, mid), ib = components(db, right, up, mid)
        if axesA != nil || axesB != nil {
            let ca = SIMD2(degrees(sm_atan2(ia.x, ia.z)), degrees(sm_atan2(ia.y, ia.z)))
            let cb = SIMD2(degrees(sm_atan2(ib.x, ib.z)), degrees(sm_atan2(ib.y, ib.z)))
            let qa = imageQuad(distance: distA, ca, hwa, hha, axes: axesA, right: right, up: up)
            let qb = imageQuad(distance: distB, cb, hwb, hhb, axes: axesB, right: right, up: up)
            if qa.tilted || qb.tilted { return (true, qa.quad, qb.quad, .nan) }
        }
        let dx = degrees(sm_atan2(ia.x * ib.z - ia.z * ib.x, ia.z * ib.z + ia.x * ib.x))
        let dy = degrees(sm_atan2(ia.y * ib.z - ia.z * ib.y, ia.z * ib.z + ia.y * ib.y))
        let g = uprightGap(dx, dy, hwa, hha, hwb, hhb)
        let none = ImageQuad(center: .zero, u: .zero, v: .zero)
        return (false, none, none, g.gap)
    }

    /// `d`'s components along `right`, `up` and `mid` (written out: this runs per pair).
    @inline(__always)
    static func components(_ d: Vec3, _ right: Vec3, _ up: Vec3, _ mid: Vec3) -> Vec3 {
        Vec3(d.x * right.x + d.y * right.y + d.z * right.z, d.x * up.x + d.y * up.y + d.z * up.z,
             d.x * mid.x + d.y * mid.y + d.z * mid.z)
    }

    /// World right and up across the unit direction `m`: right = normalize(m × world up), up =
    /// right × m. Within 10⁻⁹ of straight up or down, where m × up vanishes, right is world +x made
    /// perpendicular to m. Nothing of the head's orientation enters.
    @inline(__always)
    static func acrossSight(_ m: Vec3) -> (right: Vec3, up: Vec3) {
        var r = Vec3(-m.z, 0, m.x), l = length(r)
        if !(l > 1e-9) { r = Vec3(1, 0, 0) - m.x * m; l = length(r) }
        let right = l > 0 ? r / l : Vec3(1, 0, 0)
        return (right, cross(right, m))
    }

    /// A pair's own frame: the direction `mid` from the eye to the midpoint of the two centres (`a`
    /// and `b`, relative to the eye; `fallback` when they are opposite), and world right and up
    /// across it (`acrossSight`). The verdicts depend on the eye's position and the content, not
    /// on where the head points.
    @inline(__always)
    static func pairFrame(_ a: Vec3, _ b: Vec3, _ fallback: Vec3) -> (mid: Vec3, right: Vec3, up: Vec3) {
        let s = a + b, l = length(s)
        let mid = l > 1e-12 && l.isFinite ? s / l : fallback
        let (right, up) = acrossSight(mid)
        return (mid, right, up)
    }

    /// Entity `e`'s upright angular width and height as seen from `eye`, halved (degrees): the
    /// corners of its box (`boxFrames`, else its bounds) projected on the plane across its line of
    /// sight `sight` (unit) with world right and up (`acrossSight`), each extent the difference of
    /// the largest and smallest angle atan2(corner·axis, corner·sight). A flat rectangle facing the
    /// eye spans 2·atan(w / 2d) by 2·atan(h / 2d) anywhere; with the head level this is the
    /// simulator's `angularWidth` and `angularHeight`, which use the head's up (so they would move
    /// with a rolled or pitched head). 180 × 90 when the eye is inside the bounds (360 × 180).
    static func uprightExtent(_ f: FrameQuantities, _ e: Int, eye: Vec3, sight: Vec3) -> (hw: Double, hh: Double) {
        if f.angularWidth[e] >= 360 { return (180, 90) }
        let (right, up) = acrossSight(sight)
        let o = 12 * e
        let c: Vec3, a0: Vec3, a1: Vec3, a2: Vec3
        if o + 11 < f.boxFrames.count {
            c = Vec3(f.boxFrames[o], f.boxFrames[o + 1], f.boxFrames[o + 2])
            a0 = f.boxAxis(e, 0); a1 = f.boxAxis(e, 1); a2 = f.boxAxis(e, 2)
        } else {
            let lo = f.boundsMin[e], hi = f.boundsMax[e], h = (hi - lo) / 2
            c = (lo + hi) / 2
            a0 = Vec3(h.x, 0, 0); a1 = Vec3(0, h.y, 0); a2 = Vec3(0, 0, h.z)
        }
        @inline(__always) func project(_ v: Vec3) -> Vec3 { Vec3(dot(v, right), dot(v, up), dot(v, sight)) }
        let p = project(c - eye), u0 = project(a0), u1 = project(a1), u2 = project(a2)
        /// Corner k of the box (bit i of k: the sign of axis i), projected.
        @inline(__always) func corner(_ k: Int) -> Vec3 { p + (k & 1 == 0 ? -u0 : u0) + (k & 2 == 0 ? -u1 : u1) + (k & 4 == 0 ? -u2 : u2) }
        // Every corner ahead of the plane across the sight: atan2(x, z) = atan(x / z) grows with
        // x / z, so the extremes are the extreme ratios (two arctangents per extent).
        var loX = Double.infinity, hiX = -Double.infinity, loY = Double.infinity, hiY = -Double.infinity
        var ahead = true
        for k in 0..<8 {
            let q = corner(k)
            guard q.z > 0 else { ahead = false; break }
            let rx = q.x / q.z, ry = q.y / q.z
            loX = min(loX, rx); hiX = max(hiX, rx); loY = min(loY, ry); hiY = max(hiY, ry)
        }
        if ahead {
            return (degrees(sm_atan2(hiX, 1) - sm_atan2(loX, 1)) / 2, degrees(sm_atan2(hiY, 1) - sm_atan2(loY, 1)) / 2)
        }
        loX = .infinity; hiX = -.infinity; loY = .infinity; hiY = -.infinity
        for k in 0..<8 {
            let q = corner(k)
            let h = degrees(sm_atan2(q.x, q.z)), v = degrees(sm_atan2(q.y, q.z))
            loX = min(loX, h); hiX = max(hiX, h); loY = min(loY, v); hiY = max(hiY, v)
        }
        return ((hiX - loX) / 2, (hiY - loY) / 2)
    }

    /// The radius (degrees) of a cone around an entity's direction such that two entities whose
    /// images could have a finding (upright images in their pair's frame within `margin` of each
    /// other, or overlapping) have cones that meet: their centres are at most Ri + Rj apart.
    /// In the pair's frame the two directions lie on opposite sides of the midpoint on one great
    /// circle, at angles αa, αb from it (their separation θ = αa + αb), along the direction φ, and
    /// x = atan(tan α · cos φ), y = atan(tan α · sin φ). atan(T·c) is concave in c, so
    /// atan(tan α · c) ≥ α·c for 0 ≤ c ≤ 1: |Δx| ≥ θ |cos φ|, |Δy| ≥ θ |sin φ|, and θ ≤ √(Δx² + Δy²).
    /// A finding needs |Δx| ≤ hwa + hwb + gx, |Δy| ≤ hha + hhb + gy with √(gx² + gy²) < margin, so
    /// (triangle inequality, twice) θ < √(hwa² + hha²) + √(hwb² + hhb²) + margin:
    /// R = √(hw² + hh²) + margin / 2 (grown by 10⁻⁹ against rounding).
    @inline(__always)
    static func searchRadius(_ hw: Double, _ hh: Double, margin: Double) -> Double {
        let r = (hw * hw + hh * hh).squareRoot() + margin / 2
        return r.isFinite ? min(360, r * (1 + 1e-9) + 1e-9) : r
    }

    /// The search's cells of the cone of `radius` degrees around the unit direction `d`: the box in
    /// world azimuth and elevation around it (an azimuth half-width of asin(sin R / cos el), all of
    /// the circle when the cone holds a pole), nil when not finite.
    @inline(__always)
    static func cone(_ d: Vec3, radius r: Double, columns: Int) -> SphereCells? {
        guard r.isFinite, d.x.isFinite, d.y.isFinite, d.z.isFinite else { return nil }
        let az = degrees(sm_atan2(d.x, -d.z)), el = degrees(sm_atan2(d.y, (d.x * d.x + d.z * d.z).squareRoot()))
        var half = Double.infinity
        if abs(el) + r < 90 {
            let s = sin(r / 180 * .pi) / cos(el / 180 * .pi)
            if s < 1 { half = degrees(asin(s)) * (1 + 1e-9) + 1e-9 }
        }
        return SphereCells.of(az: az, halfAz: half, el0: el - r, el1: el + r, columns: columns)
    }

    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        // A pair is always compared in the same space: pt inside one 2D container, pt_eq otherwise.
        // One of these per violating pair (`bench` and `--max-violations 0` write them all).
        let u = agg.unit ?? "pt"
        let a: String, b: String
        if names.count == 2 {
            (a, b) = names[1] < names[0] ? (names[1], names[0]) : (names[0], names[1])
        } else {
            let pair = names.sorted()
            a = pair.first ?? "?"; b = pair.count > 1 ? pair[1] : "?"
        }
        // Joined at once (`concatenated`): appending to a `String` piece by piece cost ~10,000
        // instructions per message.
        let measured = fmt(agg.measured)
        if rule == spacingRule, agg.variant == 1 {
            let edges = abs(agg.measured) < 0.01 ? "nothing separates the edges of " : concatenated("only ", measured, " ", u, " separate the edges of ")
            return concatenated(edges, a, " and ", b, ", whose centres are ", fmt(agg.aux), " ", u,
                                " apart only because one of them is longer than ", fmt(Self.longElement), " ", u,
                                " (a slider, field, row or wide button); leave at least ", edgeGapText, " ", u,
                                " between them so their hover effects do not touch")
        } else if rule == spacingRule {
            // A gap under 0.01 pt is none (touching or overlapping edges; across containers, the
            // rounding of the angular projection of touching edges).
            let edges = abs(agg.aux) < 0.01 ? " and nothing separates their edges" : concatenated(" and only ", fmt(agg.aux), " ", u, " separate their edges")
            return concatenated("centres of ", a, " and ", b, " are ", measured, " ", u, " apart", edges,
                                "; move them to at least ", spacingText, " ", u, " apart or leave ", edgeGapText, " ", u, " between them")
        } else if rule == overlapRule {
            // In angle the overlap is of what the eye sees: content at different depths (within
            // depthWindow) need not touch for the nearer to cover part of the farther.
            let seen = u == "pt_eq" ? " as seen from the eye (the nearer may cover part of the other without touching it)" : ""
            return concatenated(a, " and ", b, " overlap by ", measured, " ", u, seen, "; separate them so neither hit region covers the other")
        } else {
            return concatenated("large buttons ", a, " and ", b, " are only ", measured, " ", u, " apart at their edges; leave at least ",
                                padGapText, " ", u, " (4 pt of hover padding each)")
        }
    }
}

/// `TargetPairAnalyzer`'s values per aggregate slot of target-center-spacing, in buffers it reads
/// and writes through pointers in the pair test (no copy-on-write or exclusivity checks per pair):
/// the largest cosine of a centre separation reported to the aggregate (NaN: none), the frame whose
/// finding left its edge gap for the end (-1: none) and what that frame's gap is computed from
/// (`kept`, `kind`): the two image quads the pair test had built (`keepQuads`), or, for a finding
/// settled by the bound (`spacingBound`), the pair's inputs to the test (`keepInputs`), so that the
/// pair's frame, its arctangents and its quads are computed once, at the end, for the frame that
/// stayed the worst, and not for every new worst of a walking viewer's pairs.
final class SpacingSlots {
    /// Doubles kept per slot: two quads (12), or the pair's inputs (24).
    static let width = 24
    /// `kind` of a slot whose `kept` are two quads; any other value holds inputs (`inputs`), with
    /// `flatA` and `flatB` set for a flat entity (its half-axes kept).
    static let quads: UInt8 = 0, inputs: UInt8 = 1, flatA: UInt8 = 2, flatB: UInt8 = 4
    private(set) var capacity = 0
    private(set) var cosine = UnsafeMutablePointer<Double>.allocate(capacity: 1)
    private(set) var frame = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var kind = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private(set) var kept = UnsafeMutablePointer<Double>.allocate(capacity: width)

    /// Room for `count` slots at least (more, so that growing is rare), the values kept; with
    /// `reset`, exactly `count` slots, all empty.
    func reserve(_ count: Int, reset: Bool = false) {
        guard reset || count > capacity else { return }
        let n = reset ? max(0, count) : max(count, capacity + capacity / 2)
        let w = Self.width
        let c = UnsafeMutablePointer<Double>.allocate(capacity: max(1, n))
        let f = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, n))
        let k = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, n))
        let q = UnsafeMutablePointer<Double>.allocate(capacity: w * max(1, n))
        let old = reset ? 0 : capacity
        c.initialize(from: cosine, count: old); f.initialize(from: frame, count: old)
        k.initialize(from: kind, count: old); q.initialize(from: kept, count: w * old)
        (c + old).initialize(repeating: .nan, count: n - old)
        (f + old).initialize(repeating: -1, count: n - old)
        (k + old).initialize(repeating: Self.quads, count: n - old)
        (q + w * old).initialize(repeating: 0, count: w * (n - old))
        cosine.deallocate(); frame.deallocate(); kind.deallocate(); kept.deallocate()
        cosine = c; frame = f; kind = k; kept = q
        capacity = n
    }

    deinit { cosine.deallocate(); frame.deallocate(); kind.deallocate(); kept.deallocate() }

    /// Keeps the two image quads of slot `s` (`kept` and `kind` as the pair test holds them).
    @inline(__always)
    static func keepQuads(_ kept: UnsafeMutablePointer<Double>, _ kind: UnsafeMutablePointer<UInt8>, slot s: Int,
                          _ qa: ImageQuad, _ qb: ImageQuad) {
        let r = kept + width * s
        r[0] = qa.center.x; r[1] = qa.center.y; r[2] = qa.u.x; r[3] = qa.u.y; r[4] = qa.v.x; r[5] = qa.v.y
        r[6] = qb.center.x; r[7] = qb.center.y; r[8] = qb.u.x; r[9] = qb.u.y; r[10] = qb.v.x; r[11] = qb.v.y
        kind[s] = quads
    }

    /// Keeps what `TargetPairAnalyzer.spacingEdge` needs of the pair of slot `s`: the centres
    /// relative to the eye (`pa`, `pb`; the directions are `normalize` of them, as the pass computes
    /// them), the distances, the upright half-extents and, for a flat entity, its half-axes.
    @inline(__always)
    static func keepInputs(_ kept: UnsafeMutablePointer<Double>, _ kind: UnsafeMutablePointer<UInt8>, slot s: Int,
                           _ pa: Vec3, _ pb: Vec3, distA: Double, distB: Double,
                           _ hwa: Double, _ hha: Double, _ hwb: Double, _ hhb: Double,
                           flatA: Bool, _ ua: Vec3, _ va: Vec3, flatB: Bool, _ ub: Vec3, _ vb: Vec3) {
        let r = kept + width * s
        r[0] = pa.x; r[1] = pa.y; r[2] = pa.z; r[3] = pb.x; r[4] = pb.y; r[5] = pb.z
        r[6] = distA; r[7] = distB; r[8] = hwa; r[9] = hha; r[10] = hwb; r[11] = hhb
        r[12] = ua.x; r[13] = ua.y; r[14] = ua.z; r[15] = va.x; r[16] = va.y; r[17] = va.z
        r[18] = ub.x; r[19] = ub.y; r[20] = ub.z; r[21] = vb.x; r[22] = vb.y; r[23] = vb.z
        kind[s] = inputs | (flatA ? Self.flatA : 0) | (flatB ? Self.flatB : 0)
    }

    /// The edge gap (degrees) of the finding slot `s` keeps (its `frame` ≥ 0): `quadGap` of the
    /// kept quads, or what the pair test would have measured from the kept inputs (`spacingEdge`,
    /// the same code with the same values, so the same bits).
    func gap(slot s: Int) -> Double {
        let r = kept + Self.width * s, k = kind[s]
        if k == Self.quads {
            let qa = ImageQuad(center: SIMD2(r[0], r[1]), u: SIMD2(r[2], r[3]), v: SIMD2(r[4], r[5]))
            let qb = ImageQuad(center: SIMD2(r[6], r[7]), u: SIMD2(r[8], r[9]), v: SIMD2(r[10], r[11]))
            return quadGap(qa, qb).gap
        }
        let pa = Vec3(r[0], r[1], r[2]), pb = Vec3(r[3], r[4], r[5])
        let axesA = k & Self.flatA != 0 ? (Vec3(r[12], r[13], r[14]), Vec3(r[15], r[16], r[17])) : nil
        let axesB = k & Self.flatB != 0 ? (Vec3(r[18], r[19], r[20]), Vec3(r[21], r[22], r[23])) : nil
        let edge = TargetPairAnalyzer.spacingEdge(pa, pb, normalize(pa), normalize(pb), distA: r[6], distB: r[7],
                                                  r[8], r[9], r[10], r[11], axesA: axesA, axesB: axesB)
        return edge.tilted ? quadGap(edge.qa, edge.qb).gap : edge.gap
    }
}

public enum TargetHitRegionVisionOS: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-hit-region-visionos", name: "visionOS hit regions 60×60 pt, never below 28×28 pt", category: .targets,
        defaultSeverity: .error, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 28, "pt", .hig, "smallest allowed hit region (error)"),
            RuleParameter("custom", 60, "pt", .hig, "hit region for custom controls (warning)"),
        ],
        citations: [Citation("buttons", "Best practices"), Citation("accessibility", "Mobility"),
                    Citation("designing-for-games", "Look stunning on every display")],
        summary: "An interactive element smaller than 28×28 pt, or a custom control or a button of a non-standard size smaller than 60×60 pt.",
        rationale: "visionOS controls need a 60×60 pt hit region so eyes can land on them; 28×28 pt is the smallest control size the HIG allows. System controls get a system hit region (buttons only at the HIG's sizes: 28, 32, 44, 52, 64 pt), so below 60 pt only custom controls and buttons of other sizes are flagged.",
        fixHint: "Make the control at least 60×60 pt, or give it a 60×60 pt hit region (hitRegion: {size: [60, 60]}); never smaller than 28×28 pt.",
        unit: "pt", worse: .lower,
        notes: ["Not judged: a page control made interactive (pagecontrol-noninteractive reports it: in visionOS people do not interact with page controls, so the fix is to make it non-interactive, not larger).",
                "Elements of a dynamic-scale window or volume: the smaller side of the frame in pt. Elements of a fixed-scale window or volume and 3D interactive entities (models, asset nodes): pt_eq each frame (hig-rules §2.3), reported with unit pt_eq (and tagged borderline within ±15 % of the threshold). Custom = role custom, an interactive image or text (interactive: true, such as a tappable photo thumbnail: content made interactive is no system control), any 3D entity, or a button whose frame's smaller side (its height) is not one of the HIG's button sizes (28, 32, 44, 52 or 64 pt, ±0.5): other system controls (toggles, sliders, fields, …) and standard-size buttons get the system's hit region.",
                "One violation per element: its severity is that of its worst frame (error below 28, warning below 60), and its spans cover every frame below 60.",
                "A hitRegion (on an element: size or insets in pt; on an asset node: a shape in metres, or a USD Collider) replaces the bounds: the element or node is measured on it, and a control with a hitRegion of its own is judged by it rather than assumed to get the system's. The same hit regions are used by target-center-spacing, target-no-overlap and target-large-hover-padding."])
}

public enum TargetHitRegionIOS: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-hit-region-ios", name: "iOS touch targets 44×44 pt, never below 28×28 pt", category: .targets,
        defaultSeverity: .error, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 28, "pt", .hig, "smallest allowed touch target (error)"),
            RuleParameter("frequent", 44, "pt", .hig, "touch target of frequently used controls (warning)"),
        ],
        citations: [Citation("buttons", "Best practices"), Citation("accessibility", "Mobility"),
                    Citation("game-controls", "Touch controls")],
        summary: "A screen-space control in an iOS AR scene, or a control of a card placed in the world as the screen shows it, smaller than 44×44 pt (warning) or 28×28 pt (error).",
        rationale: "Fingers need 44×44 pt to hit a control reliably; less important controls can go down to 28×28 pt but no further.",
        fixHint: "Make the control at least 44×44 pt, or give it a 44×44 pt hit region (hitRegion: {size: [44, 44]}).",
        platforms: [.iOS], unit: "pt", worse: .lower,
        notes: ["Usage frequency is not in the scene data, so every interactive control is treated as frequently used.",
                "Screen-space controls: elements (the scene format's 2D UI) and head-anchored content. Interactive objects in the world (models, asset nodes, text) are judged by their on-screen size in ar-gesture-proximity.",
                "Controls of world cards (elements of a window or volume not anchored to the head: a card placed in the camera's world, ar-comfort-distance's reading) are measured as the screen shows them, on the frames they are on screen: the smaller side of the touch area (hit region, else frame) in metres ÷ (the depth of the control's centre along the camera's axis × tan(pointAngle)), the card taken as facing the camera (a turned card's foreshortening is not counted). Where the card was placed that is its size in the card's points; twice as far, half of it.",
                "Measured on the element's hitRegion when it has one (size, or its frame moved by insets), else its frame. System controls other than buttons (toggles, steppers, pickers and segmented controls, sliders, text fields, menus, tabs, links) get the system's touch area, as on visionOS: below 44 pt they are not flagged (below 28 pt they still are). Buttons, custom controls and interactive images or text are judged by their frame or hitRegion; so is any control with a hitRegion of its own."])
}

/// The HIG's visionOS button sizes in pt: Mini, Small, Regular, Large and Extra Large.
let standardControlSizes: [Double] = [28, 32, 44, 52, 64]

func makeHitRegionRule(_ s: RuleSetup, ios: Bool) -> RuleProcessor? {
    let meta = ios ? TargetHitRegionIOS.metadata : TargetHitRegionVisionOS.metadata
    guard let r = s.index(meta.id) else { return nil }
    let minimum = s.param(meta, "minimum")
    let upper = s.param(meta, ios ? "frequent" : "custom")
    let ents = s.scene.entities
    // iOS: screen-space controls only (elements, or head-anchored content); objects in the world
    // are ar-gesture-proximity's.
    // visionOS: an interactive page control is pagecontrol-noninteractive's, whose fix (make it
    // non-interactive) is the right one, not a larger hit region.
    let cands = ents.indices.filter {
        ents[$0].interactive && !(ios && ents[$0].kind != .element && ents[$0].anchor == .world) && !(!ios && ents[$0].role == .pageControl)
    }
    let inPoints = ents.indices.map { measuredInPoints($0, s.scene) }
    // Per 3D target's path: whether it is an asset node (its hit region is stated in an annotation
    // of its model that matches it), not a model (an annotation `nodes: "**"` states it).
    var regionForm: [String: Bool] = [:]
    for e in cands where ents[e].kind == .model || ents[e].kind == .node { regionForm[ents[e].path] = ents[e].kind == .node }
    // A system control gets the system's hit region; a button only at one of the HIG's button
    // sizes, read from its frame's smaller side in pt (its height). Other buttons, custom controls,
    // content made interactive (an image or text with `interactive: true`, such as a tappable photo
    // thumbnail: no system control, so no system hit region; hig-rules §1.2 counts "custom views
    // with hover" as targets) and 3D entities are judged as custom.
    // On iOS only the non-button system controls (toggles, steppers, segmented controls, …) get the
    // system's touch area. A control with a hit region of its own is judged by it.
    let standardSystem = ents.map { e -> Bool in
        guard e.kind == .element, e.hitRegion == nil, let role = e.role, !role.isContentOrCustom else { return false }
        guard role == .button else { return true }
        if ios { return false }
        guard let f = e.frame else { return false }
        let side = min(f.width, f.height)
        return standardControlSizes.contains { abs(side - $0) < 0.5 }
    }
    // iOS: the controls of world cards (a window or volume left in the world) are measured as the
    // screen shows them, on the frames they are on screen (aux 1 marks those findings).
    let card = ios ? WorldCardTouch(ents, pointAngle: s.pointAngle) : nil
    let pointAngle = s.pointAngle
    // 2D controls measured in angle (elements of fixed-scale windows and volumes): the smaller
    // side of their hit region in their container's points and its metres per point, by path, so
    // the fix can say how many points to give them and tell a control seen at a slant.
    var sidePt: [String: (pt: Double, mpp: Double)] = [:]
    for e in cands where !inPoints[e] && ents[e].kind == .element {
        if let fr = ents[e].hitFrame ?? ents[e].frame { sidePt[ents[e].path] = (min(fr.width, fr.height), metresPerPoint(of: e, in: s)) }
    }
    let sides = sidePt
    // A system button size still needs target-center-spacing's room around it (designer review R4:
    // 44 or 52 pt keys on a tight keypad's 56 pt pitch still fail it).
    let spacing = s.param(TargetCenterSpacing.metadata, "centerSpacing"), edgeGap = s.param(TargetCenterSpacing.metadata, "edgeGap")
    return ConditionRule(rule: r, meta: meta, candidates: cands, frameDuration: s.frameDuration, reads: .quantities, check: { f, e in
        guard f.visible[e] else { return nil }
        let ent = ents[e]
        // A 2D element of a dynamic-scale container is measured in its container's pt; anything
        // else (elements of fixed-scale containers, 3D models, marked nodes) in angle, as pt_eq.
        // An entity is always measured the same way, so its unit never changes.
        let size: Double, unit: String
        var aux = Double.nan
        if let card, card.metres[e] != nil {
            guard f.inFOV[e], let p = card.points(e, f) else { return nil }
            size = p; unit = "pt"; aux = 1
        } else if let fr = ent.hitFrame ?? ent.frame, inPoints[e] { size = min(fr.width, fr.height); unit = "pt" } else {
            // In angle: aux carries the eye distance (negative, apart from a card's 1), so the
            // message can give the size in metres where it is seen.
            size = f.ptEq[e]; unit = "pt_eq"; aux = -f.distance[e]
        }
        guard size.isFinite else { return nil }
        // A card's control seen from where the card was placed is its size in points, up to rounding.
        let tolerance = aux == 1 ? 1e-9 : 0
        if size < minimum - tolerance { return .init(measured: size, threshold: minimum, severity: .error, angular: unit == "pt_eq", aux: aux, unit: unit) }
        let custom = !standardSystem[e]
        // aux 2: a system button whose size in points is none of the HIG's button sizes (the
        // message names the sizes that get the system's hit region).
        if custom, size < upper - tolerance {
            let odd = !ios && unit == "pt" && ent.kind == .element && ent.role == .button && ent.hitRegion == nil
            return .init(measured: size, threshold: upper, severity: .warning, angular: unit == "pt_eq", aux: odd ? 2 : aux, unit: unit)
        }
        return nil
    }, message: { agg, names in
        let u = agg.unit ?? "pt"
        if agg.aux == 1 {
            return "\(names.joinedNames) shows \(fmt(agg.measured)) \(u) on screen at its smaller side (a card left in the world shrinks as the device moves away); make its touch area at least \(fmt(agg.threshold))×\(fmt(agg.threshold)) \(u) where people view it: a larger control or card, or the card placed nearer"
                + (agg.threshold < upper ? " (\(fmt(upper))×\(fmt(upper)) \(u) recommended)" : "")
        }
        // Below the minimum the fix is still the recommended size (designer review R4: the
        // minimum's size, 1 mm more for a 2.4 cm knob, still failed the recommendation).
        let below = agg.threshold < upper
        let target = below ? upper : agg.threshold
        var text = "\(names.joinedNames) is \(fmt(agg.measured)) \(u) at its smaller side"
            + (below ? ", below the \(fmt(agg.threshold))×\(fmt(agg.threshold)) \(u) minimum" : "")
            + "; make its hit region at least \(fmt(target))×\(fmt(target)) \(u)" + (below ? ", the recommended size" : "")
        if agg.aux < 0, agg.aux.isFinite, names.count == 1, let side = sides[names[0]], agg.measured > 0 {
            // A 2D control of a fixed-scale window: its pt_eq are proportional to its points where
            // it is read, so the size to give it is in the points its frame is written in. Seen at
            // a slant (less than 80 % of what its side reads facing the eye, 2·atan(side·mpp / 2d)),
            // that is its size facing the viewer, and the container wants turning toward them.
            let d = -agg.aux
            let facing = side.mpp > 0 ? degrees(2 * atan(side.pt * side.mpp / (2 * d))) / pointAngle : 0
            let slanted = facing.isFinite && agg.measured < 0.8 * facing
            let per = slanted ? facing : agg.measured
            func points(_ ptEq: Double) -> String { let n = fmt((side.pt * ptEq / per).rounded(.up)); return "\(n)×\(n) pt" }
            if slanted && facing >= target {
                return text + ": it is \(fmt(facing)) \(u) facing the viewer, but seen at a slant \(fmt(d)) m away; turn its fixed-scale container toward the viewer"
            }
            let slant = slanted ? " facing the viewer (it is seen at a slant, \(fmt(facing)) \(u) facing them: turn its container toward the viewer too)" : ""
            text += ": a frame or hitRegion of at least \(points(target))\(slant) in its fixed-scale container, read \(fmt(d)) m away, or give the container dynamic scale (scaleMode: dynamic), which keeps a control at its points wherever it is placed"
        } else if agg.aux < 0, agg.aux.isFinite {
            // The same in metres at the distance of its worst frame, for a side facing the eye.
            let d = -agg.aux, across = 2 * d * tan(radians(target * pointAngle / 2))
            let size = across < 1 ? "\(fmt((across * 1000).rounded() / 10)) cm" : "\(fmt(across)) m"
            text += ": about \(size) across where it faces the eye, \(fmt(d)) m away (more along a side seen at a slant), as a larger model or a hitRegion"
            // 3D content: how to state a hit region larger than the mesh, a sphere of that diameter
            // in millimetres rounded up (s30 trial F2).
            if names.count == 1, let node = regionForm[names[0]] {
                let sphere = "hitRegion: {shape: sphere, radius: \(fmt((across / 2 * 1000).rounded(.up) / 1000))}"
                text += " (RealityKit's collision shape; in the scene, "
                    + (node ? "\(sphere) for it in its model's annotations)" : "annotations: [{nodes: \"**\", \(sphere)}] on the model)")
            }
        } else if agg.aux == 2 {
            // The standard sizes on either side of the measured one.
            let below = standardControlSizes.last { $0 < agg.measured }, above = standardControlSizes.first { $0 > agg.measured }
            let nearest = [below, above].compactMap { $0.map { fmt($0) } }.joined(separator: " or ")
            let sizes = standardControlSizes.map { fmt($0) }
            text += " (hitRegion: {size: [\(fmt(upper)), \(fmt(upper))]}), or use a system button size, which gets the system's hit region ("
                + sizes.dropLast().joined(separator: ", ") + " or " + (sizes.last ?? "") + " pt"
                + (nearest.isEmpty ? ")" : "; nearest \(nearest) pt)")
                + ", with centres at least \(fmt(spacing)) pt apart or edges \(fmt(edgeGap)) pt apart (widen the pitch)"
        }
        return text
    })
}

extension ElementRole {
    /// A role that is no system control, so gets no system hit region when it is interactive:
    /// `custom`, and the content roles `image` and `text`.
    var isContentOrCustom: Bool { self == .custom || self == .image || self == .text }
}

public enum TargetSmallInRow: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-small-in-row", name: "Small buttons are not lined up", category: .targets,
        defaultSeverity: .warning, thresholdKey: "neighbourGap",
        parameters: [
            RuleParameter("smallSize", 32, "pt", .hig, "height up to which a button is Small (32 pt) or Mini (28 pt)"),
            RuleParameter("alignment", 2, "pt", .configurable("tolerance for 'same row or column'"), "largest centre offset of aligned buttons"),
            RuleParameter("neighbourGap", 60, "pt", .configurable("within one control plus its gap the buttons read as a row"), "edge gap up to which two buttons are neighbours"),
        ],
        citations: [buttonsVision],
        summary: "Small or Mini buttons lined up in a row or column next to each other.",
        rationale: "The HIG advises against lining up Small or Mini buttons in rows or columns: small targets next to each other are hard to tell apart with the eyes.",
        fixHint: "Use Regular (44 pt) buttons for rows and columns, or spread the small buttons apart.",
        unit: "pt", worse: .lower,
        notes: ["Within one container: each button of role button no taller than 32 pt and its nearest such neighbours (edge gap < 60 pt; all of them when several are equally near, as a grid's row and column neighbours often are); reported when their centres share a row or column (±2 pt). Measured: the edge gap."])
}

/// `target-small-in-row`, decided once per container (elements do not move inside it).
final class SmallInRowRule: RuleProcessor {
    let rule: Int
    let neighbourGap: Double
    private let alignment: Double, entityCount: Int
    /// Per container (in container order), its small buttons and their frames.
    private let containers: [(members: [Int], rects: [RectPt])]
    private(set) var pairs: [(a: Int, b: Int, gap: Double, row: Bool)] = []
    /// Whether `pairs` was found (in the first frame, when the tracking limit is known), and
    /// whether there were more than the limit could track (`findPairs`).
    private var pairsFound = false, overLimit = false
    init?(_ s: RuleSetup) {
        let m = TargetSmallInRow.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        let small = s.param(m, "smallSize")
        alignment = s.param(m, "alignment")
        neighbourGap = s.param(m, "neighbourGap")
        let ents = s.scene.entities
        entityCount = ents.count
        var byContainer: [Int: [Int]] = [:]
        for i in ents.indices where ents[i].role == .button && ents[i].interactive {
            let e = ents[i]
            guard let c = e.container, let fr = e.frame, fr.height <= small else { continue }
            byContainer[c, default: []].append(i)
        }
        containers = byContainer.keys.sorted().compactMap { c in
            byContainer[c].map { members in (members, members.map { ents[$0].frame ?? RectPt(x: 0, y: 0, width: 0, height: 0) }) }
        }
    }

    /// The lined-up pairs, sorted. At most `cap` are kept (`Findings.mostKept`; trial s34 F1:
    /// 99,000 small buttons stacked on one spot kept every pair, 5.3 GB). Returns whether there
    /// were more than that.
    private func findPairs(cap: Int) -> Bool {
        let tol = alignment, n = entityCount
        var grid = PairGrid()
        var seen = Set<Int>()
        var over = false
        for (members, rects) in containers where !over {
            let x0 = rects.map(\.x), y0 = rects.map(\.y)
            let x1 = rects.map { $0.x + $0.width }, y1 = rects.map { $0.y + $0.height }
            // Each button's nearest gap first, then every neighbour at that gap: in a grid a
            // button's row and column neighbours are often equally near, and both pairs are lined up.
            var nearest = [Double](repeating: .infinity, count: members.count)
            grid.search(count: members.count, minX: x0, minY: y0, maxX: x1, maxY: y1,
                        cell: max(neighbourGap, 1), margin: neighbourGap) { i, j in
                let g = rectGap(x0[i], y0[i], x1[i], y1[i], x0[j], y0[j], x1[j], y1[j]).gap
                guard g < neighbourGap else { return true }
                nearest[i] = min(nearest[i], g)
                nearest[j] = min(nearest[j], g)
                return true
            }
            grid.search(count: members.count, minX: x0, minY: y0, maxX: x1, maxY: y1,
                        cell: max(neighbourGap, 1), margin: neighbourGap) { i, j in
                let g = rectGap(x0[i], y0[i], x1[i], y1[i], x0[j], y0[j], x1[j], y1[j]).gap
                // A millionth of a point: equal gaps written in decimals may differ in their last bits.
                guard g < neighbourGap, g <= nearest[i] + Self.tie || g <= nearest[j] + Self.tie else { return true }
                let a = members[i], b = members[j]
                let key = min(a, b) * n + max(a, b)
                let ca = rects[i].center, cb = rects[j].center
                let row = abs(ca.y - cb.y) <= tol, column = abs(ca.x - cb.x) <= tol
                guard row || column, seen.insert(key).inserted else { return true }
                guard pairs.count < cap else { over = true; return false }
                pairs.append((min(a, b), max(a, b), g, row))
                return true
            }
        }
        pairs.sort { ($0.a, $0.b) < ($1.a, $1.b) }
        return over
    }
    /// Gaps within this many points of a button's nearest gap are ties (all of them its nearest).
    static let tie = 1e-6
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        if !pairsFound {
            pairsFound = true
            overLimit = findPairs(cap: out.mostKept)
        }
        for p in pairs where f.visible[p.a] && f.visible[p.b] {
            out.report(rule: rule, p.a, p.b, frame: f.frame, time: f.time, measured: p.gap, threshold: neighbourGap,
                       aux: p.row ? 1 : 0)
        }
        // Pairs beyond the ones kept cannot all be tracked: the scene stops after this frame.
        if overLimit { out.markLimitReached() }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        "small buttons \(names.sorted().joinedNames) are lined up in a \(agg.aux == 1 ? "row" : "column") \(fmt(agg.measured)) pt apart; use Regular (44 pt) buttons for rows and columns or spread them apart"
    }
}
