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
        citations: [Citation("layout", "visionOS")],
        summary: "An element of a window whose frame leaves the window's rectangle, or 3D content nested in a window whose bounds reach past its edges in the window's plane.",
        rationale: "visionOS draws the window controls just outside a window's bounds in its XY plane: the Share menu above it, the window bar and the close and resize controls below it. Content that spills over the edges crowds those controls, especially below, and makes them hard to use.",
        fixHint: "Keep the element's frame inside [0, 0, width, height] of its window (or make the window larger); show controls that belong outside the window in an ornament (a child window) instead.",
        unit: "pt", worse: .higher,
        notes: ["Elements: the frame against the window's rectangle in points (fixed, so reported over every frame the element is visible). 3D content nested in a window (models, text, groups and volumes; not ornaments, which are child windows and belong outside): its box projected along the window's normal onto the window's plane, every frame, in the window's points.",
                "Measured: how far the content reaches past the farthest edge, in points; threshold 0. The message says when it spills past the bottom edge, where the window bar and the close and resize controls are.",
                "Windows only: a volume clips its content at its bounds."])
}

public enum WinControlsKeepout: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "win-controls-keepout", name: "Other content keeps clear of the window controls", category: .windows,
        defaultSeverity: .warning, thresholdKey: "keepoutBandPt",
        parameters: [RuleParameter("keepoutBandPt", 60, "pt", .configurable("about one 44 pt control plus a 16 pt gap; the HIG gives no band size"),
                                   "height of the band above the top edge and below the bottom edge of a window that other content must keep clear of"),
                     RuleParameter("depthToleranceM", 0.1, "m", .configurable("content this close to the window's plane sits in the same layer as its controls (the depth window of target-no-overlap across containers); content farther in front or behind is a separate layer that people look past or through"),
                                   "how far in front of or behind the window's plane other content is judged")],
        citations: [Citation("layout", "visionOS"), Citation("toolbars", "visionOS"), Citation("context-menus", "visionOS")],
        summary: "Content that is not part of a top-level window (another window, a volume, a model, 3D text) whose image, seen from the eye, enters the band above or below the window where the system draws its controls.",
        rationale: "The system shows a window's Share menu above it and its window bar, close and resize controls below it. Other content drawn over those bands (a second window stacked close below, a model floating under a window) covers the controls or sits where people look for them, so they become hard to see and to target.",
        fixHint: "Move the other content at least one control height (60 pt) away from the window's top and bottom edges, or behind the window; attach controls that belong to the window as an ornament, which the system lays out around its controls.",
        unit: "pt", worse: .lower,
        notes: ["Per frame, for every visible top-level window and every other visible window, volume, model or 3D text that is not nested in it (its elements and ornaments are its own: see win-content-in-bounds and orn-width): the other content's box corners are projected from the eye onto the window's plane. Corners more than depthToleranceM in front of or behind the plane are left out: content in another layer is seen past or through, as two windows at different depths are. A violation when the projection overlaps the window's width and reaches into the band keepoutBandPt high below the bottom edge or above the top edge.",
                "Measured: the gap in the window's points between the window's edge and the nearest projected edge of the other content (0 when it reaches the window itself); threshold keepoutBandPt. Two windows are one pair, reported once with the smaller gap (either one's controls).",
                "Reading: ornaments are not counted: the HIG presents them as the way to add controls without interfering with the system's, and the system places its window controls around them."])
}

public enum VolScaleMode: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "vol-scale-mode", name: "Interactive volumes use dynamic scale", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("windows", "visionOS volumes"), Citation("spatial-layout", "Scale")],
        summary: "A fixed-scale volume or window that holds interactive content or text (warning), or a fixed-scale volume that states it does not show a real object (representsRealObject: false, info).",
        rationale: "With fixed scale, content shrinks with distance like a physical object. That suits a virtual object that should look exactly like a real one, but interactive content and text must keep a usable size however far away people place them, so the HIG reserves fixed scale for noninteractive objects and asks to use it sparingly.",
        fixHint: "Give the volume dynamic scale (scaleMode: dynamic; .defaultWorldScaling(.dynamic) in SwiftUI) so its controls and text keep their angular size; keep fixed scale for a noninteractive object shown life-size, and say so (representsRealObject: true).",
        unit: "count", worse: .higher,
        notes: ["Warning: a volume, or a window with scaleMode: fixed, with interactive content or readable text anywhere inside it (its elements, nested entities and asset nodes). Measured: how many interactive or text entities it holds; threshold 0.",
                "Info: a fixed-scale volume (the format's default, as in visionOS) with no interactive content or text that states representsRealObject: false. Reading: a volume that says nothing may well show a real object, so unstated is not reported. Measured 1, threshold 0.",
                "Reported over the frames the volume or window is visible."])
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
        notes: ["Widths compared in metres as people see them (an ornament is scaled from its own distance) and reported in the parent's points: measured is the ornament's width in the parent window's points, the threshold the parent's width (a volume's front face). Half a point of rounding is allowed.",
                "Reported over the frames the ornament is visible."])
}

/// True when `e` is nested (at any depth) in entity `ancestor`.
func isNested(_ scene: Scene, _ e: Int, in ancestor: Int) -> Bool {
    var p = scene.entities[e].parent
    var steps = 0
    while let q = p, steps <= scene.entities.count {
        if q == ancestor { return true }
        p = q < scene.entities.count ? scene.entities[q].parent : nil
        steps += 1
    }
    return false
}

/// A window's plane at a frame: centre, unit right and up axes, half width and height in metres.
struct WindowPlane {
    var center: Vec3, right: Vec3, up: Vec3, normal: Vec3, halfWidth: Double, halfHeight: Double
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
}

final class ContentInBoundsRule: RuleProcessor {
    let rule: Int
    /// Elements outside their window: (element, overflow pt, spills below).
    let elements: [(e: Int, overflow: Double, below: Bool)]
    /// 3D content nested in a window: (content, window).
    let nested: [(e: Int, w: Int)]
    let scene: Scene
    init?(_ s: RuleSetup) {
        guard let r = s.index(WinContentInBounds.metadata.id) else { return nil }
        rule = r; scene = s.scene
        var el: [(Int, Double, Bool)] = []
        var ne: [(Int, Int)] = []
        for (i, e) in s.scene.entities.enumerated() {
            if e.kind == .element, let c = e.container, s.scene.entities[c].kind == .window,
               let size = s.scene.entities[c].sizePt, let fr = e.frame {
                let over = max(-fr.x, -fr.y, fr.x + fr.width - size.x, fr.y + fr.height - size.y)
                if over > 1e-6 { el.append((i, over, fr.y + fr.height - size.y > 1e-6)) }
            } else if let p = e.parent, s.scene.entities[p].kind == .window,
                      [.model, .text, .group, .volume].contains(e.kind) {
                ne.append((i, p))
            }
        }
        elements = el; nested = ne
        if el.isEmpty && ne.isEmpty { return nil }
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        for x in elements where x.e < f.visible.count && f.visible[x.e] {
            out.report(rule: rule, x.e, frame: f.frame, time: f.time, measured: x.overflow, threshold: 0,
                       aux: x.below ? 1 : 0)
        }
        for x in nested where f.visible[x.e] && f.visible[x.w] {
            guard let plane = WindowPlane(f, x.w) else { continue }
            let mpp = scene.entities[x.w].metresPerPoint
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
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
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
    let depthTolerance: Double
    let scene: Scene
    /// Test hook: compare every window with all content (the definition) instead of the content
    /// the grid finds near its plane. The violations are the same.
    var exhaustive = false
    /// Window–content pairs given the exact test (for tests: linear, not windows × content).
    private(set) var pairChecks = 0
    private var grid = PlateGrid()
    /// This frame's box corners of the visible content (8 per piece, as `boxCorners` gives them),
    /// and whose they are.
    private var corners: [Vec3] = [], owner: [Int32] = []
    private var seen: [Int] = []
    private var stamp = 0
    private var candidates: [Int] = []

    init?(_ s: RuleSetup) {
        guard let r = s.index(WinControlsKeepout.metadata.id) else { return nil }
        rule = r; scene = s.scene
        band = s.param(WinControlsKeepout.metadata, "keepoutBandPt")
        depthTolerance = s.param(WinControlsKeepout.metadata, "depthToleranceM")
        let ents = s.scene.entities
        windows = ents.indices.filter { ents[$0].kind == .window && ents[$0].parent == nil && ents[$0].sizePt != nil }
        content = ents.indices.filter { [.window, .volume, .model, .text].contains(ents[$0].kind) }
        // Nothing to compare when every piece of content is a window itself or inside it (a
        // top-level window has no ancestors). Counted per window in one walk up from each piece.
        var related = [Int: Int]()
        let isWindow = Set(windows)
        for o in content {
            var p: Int? = o, steps = 0
            while let q = p, steps <= ents.count {
                if isWindow.contains(q) { related[q, default: 0] += 1 }
                p = ents[q].parent; steps += 1
            }
        }
        if windows.isEmpty || windows.allSatisfy({ related[$0, default: 0] >= content.count }) { return nil }
        seen = Array(repeating: 0, count: ents.count)
    }

    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        guard band.isFinite, band > 0 else { return }
        // Only corners within depthTolerance of a window's plane take part, so a piece of content
        // can be reported for a window only if one of its corners lies in that slab. The corners
        // go into a grid over the floor plan; each window visits the cells its slab crosses.
        corners.removeAll(keepingCapacity: true); owner.removeAll(keepingCapacity: true)
        if !exhaustive {
            for o in content where f.visible[o] {
                for c in f.boxCorners(o) { corners.append(c); owner.append(Int32(truncatingIfNeeded: o)) }
            }
            grid.build(corners)
        }
        // The slab test with a little slack, so rounding never loses a corner the exact test takes.
        let tol = depthTolerance * (1 + 1e-9) + 1e-9
        for w in windows where f.visible[w] {
            guard let plane = WindowPlane(f, w) else { continue }
            let mpp = scene.entities[w].metresPerPoint
            guard mpp > 0 else { continue }
            let eyeSide = dot(f.headPosition - plane.center, plane.normal)
            guard eyeSide > 1e-6 else { continue }
            let bandM = band * mpp
            candidates.removeAll(keepingCapacity: true)
            if exhaustive || !tol.isFinite {
                candidates.append(contentsOf: content)
            } else {
                stamp += 1
                let st = stamp
                grid.visitSlab(center: plane.center, normal: plane.normal, halfThickness: tol) { k in
                    let o = Int(owner[k])
                    guard seen[o] != st, abs(dot(corners[k] - plane.center, plane.normal)) <= tol else { return }
                    seen[o] = st
                    candidates.append(o)
                }
                candidates.sort()
            }
            // In content order, as the definition visits them (the first of equal gaps is kept).
            for o in candidates where o != w && f.visible[o] && !isNested(scene, o, in: w) {
                pairChecks += 1
                var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
                for c in f.boxCorners(o) {
                    let s = dot(c - plane.center, plane.normal)
                    guard abs(s) <= depthTolerance, s < eyeSide - 1e-6 else { continue }
                    let lambda = eyeSide / (eyeSide - s)
                    let q = plane.planar(f.headPosition + (c - f.headPosition) * lambda)
                    lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
                }
                guard lo.x.isFinite, hi.x > -plane.halfWidth, lo.x < plane.halfWidth else { continue }
                var gap = Double.infinity, side = 0.0
                if lo.y < -plane.halfHeight, hi.y > -plane.halfHeight - bandM {
                    gap = max(0, -plane.halfHeight - hi.y); side = 1
                }
                if hi.y > plane.halfHeight, lo.y < plane.halfHeight + bandM {
                    let g = max(0, lo.y - plane.halfHeight)
                    if g < gap { gap = g; side = 2 }
                }
                guard gap.isFinite else { continue }
                // aux: the window whose controls are covered, and the band (1 below, 2 above).
                out.report(rule: rule, w, o, frame: f.frame, time: f.time, measured: gap / mpp, threshold: band,
                           aux: Double(w) * 4 + side)
            }
        }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let code = agg.aux.isFinite && agg.aux >= 0 ? Int(agg.aux) : 1
        let w = code / 4
        let window = w < scene.entities.count ? scene.entities[w].path : (names.first ?? "the window")
        let other = names.first { $0 != window } ?? "other content"
        let edge = code % 4 == 2 ? "above the top edge of \(window), where its Share menu appears" :
            "below the bottom edge of \(window), where its window bar and close and resize controls are"
        return "\(other) reaches into the \(fmt(agg.threshold)) pt band \(edge) (\(fmt(agg.measured)) pt from the edge as seen from the eye); move it clear of the window's controls"
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
            for (i, e) in ents.enumerated() where e.scaleMode == .fixed && (e.kind == .volume || e.kind == .window) {
                let inside = ents.indices.filter { isNested(s.scene, $0, in: i) }
                let count = inside.filter { ents[$0].interactive || ents[$0].isReadable }.count
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
        RuleFactory(ids: [OrnWidth.metadata.id]) { s in
            guard let r = s.index(OrnWidth.metadata.id) else { return nil }
            let ents = s.scene.entities
            var items: [StaticRule.Item] = []
            for (i, o) in ents.enumerated() where o.kind == .window {
                guard let p = o.parent, ents[p].kind == .window || ents[p].kind == .volume,
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

    mutating func build(_ points: [Vec3]) {
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
        // About two points per cell, at most 4·n cells; counts computed in Double and capped
        // before converting (no trap on huge extents).
        cell = max(1e-3, (max(hiX - loX, 1e-3) * max(hiZ - loZ, 1e-3) / n * 2).squareRoot())
        func cells(_ extent: Double) -> Int { Int(min(2 * n + 1, (extent / cell).rounded(.down) + 1)) }
        nx = cells(hiX - loX); nz = cells(hiZ - loZ)
        while Double(nx) * Double(nz) > 4 * n + 4 { cell *= 2; nx = cells(hiX - loX); nz = cells(hiZ - loZ) }
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

    /// Calls `visit(k)` for every point k in a cell that the slab |(p − center)·normal| ≤ h crosses
    /// (a superset of the points in the slab; non-finite points always).
    func visitSlab(center: Vec3, normal n: Vec3, halfThickness h: Double, _ visit: (Int) -> Void) {
        guard nx > 0, nz > 0 else { return }
        @inline(__always) func cellRange(_ c: Int) { for k in Int(cellStart[c])..<Int(cellStart[c + 1]) { visit(Int(items[k])) } }
        // Along the axis the plane's normal leans on more, the slab's other coordinate is a linear
        // function of this one and of y; its range over a column (and over the points' heights,
        // and ±h) gives the cells to visit, one cell of margin on each side against rounding.
        let useZ = abs(n.z) >= abs(n.x)
        let major = useZ ? n.z : n.x, minor = useZ ? n.x : n.z
        let finite = center.x.isFinite && center.y.isFinite && center.z.isFinite && n.x.isFinite && n.y.isFinite && n.z.isFinite
        guard finite, abs(major) > 0.05, h.isFinite else {
            for c in 0..<(nx * nz) { cellRange(c) }
            return
        }
        let (nCols, nRows) = useZ ? (nx, nz) : (nz, nx)
        let (colMin, rowMin) = useZ ? (minX, minZ) : (minZ, minX)
        let (cCol, cRow) = useZ ? (center.x, center.z) : (center.z, center.x)
        let yAtMin = -(minY - center.y) * n.y, yAtMax = -(maxY - center.y) * n.y
        let yLo = min(yAtMin, yAtMax), yHi = max(yAtMin, yAtMax)
        for col in 0..<nCols {
            let a0 = colMin + Double(col) * cell, a1 = a0 + cell
            let t0 = -(a0 - cCol) * minor, t1 = -(a1 - cCol) * minor
            let lo = (min(t0, t1) + yLo - h), hi = (max(t0, t1) + yHi + h)
            let r0 = cRow + (major > 0 ? lo : hi) / major, r1 = cRow + (major > 0 ? hi : lo) / major
            let i0 = Int(max(0, min(Double(nRows - 1), ((r0 - rowMin) / cell).rounded(.down) - 1)))
            let i1 = Int(max(0, min(Double(nRows - 1), ((r1 - rowMin) / cell).rounded(.down) + 1)))
            guard i0 <= i1 else { continue }
            for row in i0...i1 {
                cellRange(useZ ? col * nz + row : row * nz + col)
            }
        }
        for k in nonFinite { visit(Int(k)) }
    }
}
