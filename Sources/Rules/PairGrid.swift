/// Finds pairs of axis-aligned rectangles that come within `margin` of each other, without
/// comparing every pair: each rectangle, grown by `margin / 2` on every side, is entered into
/// the cells of a uniform grid it covers, and only rectangles sharing a cell are compared. A pair
/// sharing several cells is visited once (in the first cell of their common range). Buffers are
/// kept between calls, so a per-frame search does not allocate once warmed up.
struct PairGrid {
    private var keys: [Int64] = []
    private var items: [Int32] = []
    private var order: [Int] = []
    private var bucket: [Int32] = []
    private var cx0: [Int32] = [], cy0: [Int32] = []
    /// `searchSphere`: each item's number of columns.
    private var cLen: [Int32] = []
    private var large: [Int] = []
    /// Rectangles covering more cells than this are compared with everything instead.
    static let maxCellsPerItem = 1024
    /// Number of candidate pairs: pairs sharing a cell, once per cell they share, and pairs with
    /// a large item (the cost measure the work budget counts).
    private(set) var checks = 0
    /// Of `checks`, the pairs actually looked at (`visitCells` skips, unexamined, pairs that
    /// cannot have their first shared cell where they meet), for tests and bench.
    private(set) var examined = 0
    /// `visitCells`: cells of more items than this skip the pairs that cannot be visited there,
    /// from the positions of the items starting in the cell's column, row, or both (a test hook:
    /// `Int.max` looks at every pair, as before; the pairs visited are the same).
    var anchoredCell = 16
    private var inColumn: [Int32] = [], inRow: [Int32] = [], inBoth: [Int32] = []

    static func cellIndex(_ v: Double, _ cell: Double) -> Int32 {
        let c = (v / cell).rounded(.down)
        guard c.isFinite else { return c > 0 ? Int32.max / 2 : Int32.min / 2 }
        return Int32(max(Double(Int32.min / 2), min(Double(Int32.max / 2), c)))
    }

    /// The cells a rectangle is entered in (grown by `margin / 2`), and whether it covers so many
    /// that it is compared with everything instead. Two rectangles are visited by `search` exactly
    /// when one of them is large or their ranges share a cell; a rectangle with a non-finite
    /// coordinate is never visited.
    @inline(__always)
    static func cells(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, cell: Double, margin: Double)
        -> (x0: Int32, y0: Int32, x1: Int32, y1: Int32, large: Bool) {
        let cell = cell > 0 && cell.isFinite ? cell : 1
        let half = max(0, margin / 2)
        let x0 = cellIndex(minX - half, cell), x1 = cellIndex(maxX + half, cell)
        let y0 = cellIndex(minY - half, cell), y1 = cellIndex(maxY + half, cell)
        let count = (Int(x1) - Int(x0) + 1) * (Int(y1) - Int(y0) + 1)
        return (x0, y0, x1, y1, count > maxCellsPerItem)
    }

    /// Calls `visit(i, j)` (i < j in input order) for every candidate pair of `minX…maxY`, until
    /// `visit` returns false (a caller that has all it may keep stops the search there).
    mutating func search(count n: Int, minX: [Double], minY: [Double], maxX: [Double], maxY: [Double],
                         cell: Double, margin: Double, visit: (Int, Int) -> Bool) {
        keys.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        large.removeAll(keepingCapacity: true)
        if cx0.count < n { cx0 = Array(repeating: 0, count: n); cy0 = cx0 }
        var loX = Int32.max, hiX = Int32.min, loY = Int32.max, hiY = Int32.min
        for i in 0..<n {
            guard minX[i].isFinite, minY[i].isFinite, maxX[i].isFinite, maxY[i].isFinite else { continue }
            let (x0, y0, x1, y1, isLarge) = Self.cells(minX[i], minY[i], maxX[i], maxY[i], cell: cell, margin: margin)
            cx0[i] = x0; cy0[i] = y0
            loX = min(loX, x0); hiX = max(hiX, x1); loY = min(loY, y0); hiY = max(hiY, y1)
            if isLarge { large.append(i); continue }
            for cx in x0...x1 {
                for cy in y0...y1 {
                    keys.append(Int64(cx) << 32 | Int64(UInt32(bitPattern: cy)))
                    items.append(Int32(i))
                }
            }
        }
        sortEntries(loX: loX, hiX: hiX, loY: loY, hiY: hiY)
        // Visit only in the first cell the two share.
        let x0 = cx0, y0 = cy0
        guard visitCells(x0: x0, y0: y0, { a, b, cx, cy in max(x0[a], x0[b]) == cx && max(y0[a], y0[b]) == cy }, visit) else { return }
        visitLarge(count: n, { _ in true }, visit)
    }

    /// Walks the entries (sorted by `sortEntries`) cell by cell and calls `visit(i, j)` (i < j) for
    /// every two items entered in one cell for which `firstShared(a, b, column, row)` says that cell
    /// is the first they share; false once `visit` has stopped the search.
    ///
    /// The first cell two items share has the column of one's first column (`x0`) and the row of
    /// one's first row (`y0`), in both searches (`max` of the two, or `SphereCells.firstColumn`).
    /// So in a cell of more than `anchoredCell` items only pairs that hold both an item starting
    /// in the cell's column and one starting in its row are given `firstShared`: a pair without is
    /// skipped unexamined. The pairs visited and their order are the same; what changes is the
    /// cost of items stacked over several cells (each pair shares all of them, and is visited in
    /// one): it was every pair in every cell before the one that visits it — all of a stacked
    /// scene's pairs, several times over, when its items wrap past column 0 of the sphere, with
    /// the cell that visits them sorted last (a model straight ahead of the eye) — and is now
    /// linear in those cells' items. `checks` still counts every pair sharing the cell, as the
    /// visiting of each did (so the work a scene counts, and where a budget stops it, are
    /// unchanged); `examined` counts the pairs given `firstShared`.
    @inline(__always)
    private mutating func visitCells(x0: [Int32], y0: [Int32], _ firstShared: (Int, Int, Int32, Int32) -> Bool,
                                     _ visit: (Int, Int) -> Bool) -> Bool {
        var s = 0
        while s < order.count {
            var e = s + 1
            let key = keys[order[s]]
            while e < order.count, keys[order[e]] == key { e += 1 }
            let m = e - s
            if m > 1 {
                let cx = Int32(truncatingIfNeeded: key >> 32), cy = Int32(truncatingIfNeeded: key)
                if m <= anchoredCell {
                    for p in s..<(e - 1) {
                        let a = Int(items[order[p]])
                        for q in (p + 1)..<e {
                            let b = Int(items[order[q]])
                            checks += 1
                            examined += 1
                            guard firstShared(a, b, cx, cy) else { continue }
                            guard visit(min(a, b), max(a, b)) else { return false }
                        }
                    }
                } else {
                    // Positions (in the cell) of the items starting in its column, in its row, and both.
                    inColumn.removeAll(keepingCapacity: true)
                    inRow.removeAll(keepingCapacity: true)
                    inBoth.removeAll(keepingCapacity: true)
                    for p in s..<e {
                        let a = Int(items[order[p]])
                        let ax = x0[a] == cx, ay = y0[a] == cy
                        if ax { inColumn.append(Int32(truncatingIfNeeded: p)) }
                        if ay { inRow.append(Int32(truncatingIfNeeded: p)) }
                        if ax && ay { inBoth.append(Int32(truncatingIfNeeded: p)) }
                    }
                    // Nothing starts in the column, or nothing in the row: no pair is visited here.
                    if inColumn.isEmpty || inRow.isEmpty {
                        checks += m * (m - 1) / 2
                        s = e
                        continue
                    }
                    // The next entry of each list after the current position.
                    var nextColumn = 0, nextRow = 0, nextBoth = 0
                    for p in s..<(e - 1) {
                        while nextColumn < inColumn.count, Int(inColumn[nextColumn]) <= p { nextColumn += 1 }
                        while nextRow < inRow.count, Int(inRow[nextRow]) <= p { nextRow += 1 }
                        while nextBoth < inBoth.count, Int(inBoth[nextBoth]) <= p { nextBoth += 1 }
                        let a = Int(items[order[p]])
                        let ax = x0[a] == cx, ay = y0[a] == cy
                        @inline(__always) func pair(_ q: Int) -> Bool {
                            let b = Int(items[order[q]])
                            examined += 1
                            guard firstShared(a, b, cx, cy) else { return true }
                            guard visit(min(a, b), max(a, b)) else {
                                // Counted as the pairs up to this one, as visiting each did.
                                checks += q - p
                                return false
                            }
                            return true
                        }
                        if ax && ay {
                            for q in (p + 1)..<e where !pair(q) { return false }
                        } else {
                            let list = ax ? inRow : ay ? inColumn : inBoth
                            var k = ax ? nextRow : ay ? nextColumn : nextBoth
                            while k < list.count {
                                guard pair(Int(list[k])) else { return false }
                                k += 1
                            }
                        }
                        checks += e - 1 - p
                    }
                }
            }
            s = e
        }
        return true
    }

    /// Calls `visit` for every pair of a large item with any other item `present` says was
    /// entered (each pair once), until `visit` returns false.
    @inline(__always)
    private mutating func visitLarge(count n: Int, _ present: (Int) -> Bool, _ visit: (Int, Int) -> Bool) {
        guard !large.isEmpty else { return }
        var isLarge = [Bool](repeating: false, count: n)
        for l in large { isLarge[l] = true }
        for l in large {
            for j in 0..<n where j != l && present(j) && (!isLarge[j] || j > l) {
                checks += 1
                examined += 1
                guard visit(min(l, j), max(l, j)) else { return }
            }
        }
    }
}

extension PairGrid {
    /// Fills `order` with the entry indices sorted by (cell, item). Entries were added in item
    /// order, so when the occupied cells span a small dense range (the usual case: rectangles in a
    /// bounded angular or point space), a stable counting sort over that range gives the order in
    /// linear time without allocating; otherwise a comparison sort.
    fileprivate mutating func sortEntries(loX: Int32, hiX: Int32, loY: Int32, hiY: Int32) {
        order.removeAll(keepingCapacity: true)
        let n = keys.count
        guard n > 0 else { return }
        let width = Int(hiX) - Int(loX) + 1, height = Int(hiY) - Int(loY) + 1
        guard width > 0, height > 0, width <= (1 << 20) / height, width * height <= max(4 * n, 4096) else {
            order.append(contentsOf: keys.indices)
            order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : items[$0] < items[$1] }
            return
        }
        let cells = width * height
        bucket.removeAll(keepingCapacity: true)
        bucket.append(contentsOf: repeatElement(0, count: cells + 1))
        @inline(__always) func dense(_ key: Int64) -> Int {
            let cx = Int(Int32(truncatingIfNeeded: key >> 32)), cy = Int(Int32(truncatingIfNeeded: key))
            return (cx - Int(loX)) * height + (cy - Int(loY))
        }
        for k in 0..<n { bucket[dense(keys[k]) + 1] += 1 }
        for c in 0..<cells { bucket[c + 1] += bucket[c] }
        order.append(contentsOf: repeatElement(0, count: n))
        for k in 0..<n {
            let c = dense(keys[k])
            order[Int(bucket[c])] = k
            bucket[c] += 1
        }
    }
}

/// Separation of two rectangles along x and y (0 where they overlap on that axis), and overlap depth.
@inline(__always)
func rectGap(_ ax0: Double, _ ay0: Double, _ ax1: Double, _ ay1: Double,
             _ bx0: Double, _ by0: Double, _ bx1: Double, _ by1: Double) -> (gap: Double, overlap: Double) {
    let dx = max(0, max(bx0 - ax1, ax0 - bx1))
    let dy = max(0, max(by0 - ay1, ay0 - by1))
    let ox = min(ax1, bx1) - max(ax0, bx0)
    let oy = min(ay1, by1) - max(ay0, by0)
    let overlap = ox > 0 && oy > 0 ? min(ox, oy) : 0
    return ((dx * dx + dy * dy).squareRoot(), overlap)
}

/// A parallelogram in a plane: centre ± u ± v.
struct ImageQuad {
    var center: SIMD2<Double>
    var u: SIMD2<Double>
    var v: SIMD2<Double>
    var corners: [SIMD2<Double>] { [center - u - v, center + u - v, center + u + v, center - u + v] }
}

/// Gap and overlap depth of two parallelograms, as `rectGap` gives them for upright rectangles:
/// the gap is the Euclidean distance between them (0 when they meet); the overlap depth, when they
/// overlap, the smallest penetration along the normals of their sides (for upright rectangles the
/// smaller of the overlap's width and height).
///
/// `gapNeededBelow`: a caller that only acts on a gap below this value (and on no overlap of
/// disjoint quads) can let the search for the closest points be skipped: when a separating side
/// already shows them farther apart than that (with a margin, 10⁻⁹ of the quads' size, far above rounding), the gap returned
/// is `.infinity`. The default computes the exact gap always.
func quadGap(_ a: ImageQuad, _ b: ImageQuad, gapNeededBelow: Double = .infinity) -> (gap: Double, overlap: Double) {
    // Written without arrays (this runs per pair and frame for tilted targets): the sides and
    // corners are visited in the same order, with the same arithmetic, as the array form.
    let d = b.center - a.center
    let sides = QuadSeparation(a, b, d)
    if !sides.separated {
        // No side separates them (or both are points): they overlap, or are points at one place.
        return (0, sides.penetration.isFinite ? sides.penetration : 0)
    }
    if sides.isBeyond(gapNeededBelow, a, b, d) { return (.infinity, 0) }
    let g = QuadPairCorners(a, b).smallest().squareRoot()
    return (g.isFinite ? g : 0, 0)
}

/// The verdict `quadGap(a, b, gapNeededBelow: gapNeeded).gap / scale < limit` alone, and whether
/// that `quadGap` would have skipped the closest points (its gap `.infinity`), with the same bits
/// as computing it, for less work: quads that overlap or that a separating side shows too far
/// apart are settled by the side tests as in `quadGap`; otherwise the corner of each quad nearest
/// the other (along the line between their centres) is measured against the other's four sides
/// first, and a distance among those that already passes the verdict settles it. That is exact:
/// the gap is the smallest of the 32 corner–side distances, each computed here with the same
/// arithmetic, and the square root and the division by `scale` > 0 are monotonic, so one distance
/// below the limit puts the smallest below it too. Else every distance is taken, as `quadGap` does
/// (the smallest of all 32 is the smallest with the first ones again: `min` never takes a NaN).
/// (Measured on the walking crowded scene: most spacing pairs' quads overlap, so the side tests
/// come first; the corner distances first cost more.)
func quadGapIsBelow(_ a: ImageQuad, _ b: ImageQuad, gapNeededBelow gapNeeded: Double, scale: Double,
                    limit: Double) -> (below: Bool, skipped: Bool) {
    guard scale > 0, scale.isFinite else {
        let g = quadGap(a, b, gapNeededBelow: gapNeeded).gap
        return (g / scale < limit, g == .infinity)
    }
    let d = b.center - a.center
    let sides = QuadSeparation(a, b, d)
    // Overlapping (or points at one place): `quadGap` gives the gap 0.
    if !sides.separated { return (0 / scale < limit, false) }
    if sides.isBeyond(gapNeeded, a, b, d) { return (Double.infinity / scale < limit, true) }
    let corners = QuadPairCorners(a, b)
    // Corner k of a quad is centre ∓ u ∓ v: 0 (−u −v), 1 (+u −v), 2 (+u +v), 3 (−u +v).
    @inline(__always) func corner(_ plusU: Bool, _ plusV: Bool) -> Int { plusU ? (plusV ? 2 : 1) : (plusV ? 3 : 0) }
    let nearA = corner(a.u.x * d.x + a.u.y * d.y >= 0, a.v.x * d.x + a.v.y * d.y >= 0)
    let nearB = corner(b.u.x * d.x + b.u.y * d.y < 0, b.v.x * d.x + b.v.y * d.y < 0)
    var first = Double.infinity
    for j in 0..<4 {
        first = min(first, corners.toSideOfB(nearA, j), corners.toSideOfA(nearB, j))
    }
    if first.squareRoot() / scale < limit { return (true, false) }
    let g = corners.smallest().squareRoot()
    return ((g.isFinite ? g : 0) / scale < limit, false)
}

/// The side tests both gap functions start with: each side's normal, in order (a.u, a.v, b.u,
/// b.v), either separates the quads (the largest such separation, a lower bound on the gap) or
/// not (the smallest penetration, the overlap depth when none separates).
private struct QuadSeparation {
    var separated = false
    var penetration = Double.infinity
    var separation = -Double.infinity

    @inline(__always) init(_ a: ImageQuad, _ b: ImageQuad, _ d: SIMD2<Double>) {
        @inline(__always) func reach(_ n: SIMD2<Double>, _ q: ImageQuad) -> Double {
            abs(n.x * q.u.x + n.y * q.u.y) + abs(n.x * q.v.x + n.y * q.v.y)
        }
        @inline(__always) func test(_ side: SIMD2<Double>) {
            let l = (side.x * side.x + side.y * side.y).squareRoot()
            guard l > 0, l.isFinite else { return }
            let n = SIMD2(-side.y / l, side.x / l)
            let sep = abs(n.x * d.x + n.y * d.y) - reach(n, a) - reach(n, b)
            if sep > 0 { separated = true; separation = max(separation, sep) } else { penetration = min(penetration, -sep) }
        }
        test(a.u); test(a.v); test(b.u); test(b.v)
    }

    /// Farther apart than a caller that acts only on a gap below `gapNeeded` cares about: the
    /// exact gap is larger still (the margin, 10⁻⁹ of the threshold and of the quads' coordinates,
    /// is many orders above the rounding of either value). A NaN threshold or separation never skips.
    @inline(__always) func isBeyond(_ gapNeeded: Double, _ a: ImageQuad, _ b: ImageQuad, _ d: SIMD2<Double>) -> Bool {
        guard gapNeeded < .infinity, separation.isFinite else { return false }
        let scale = abs(d.x) + abs(d.y) + abs(a.u.x) + abs(a.u.y) + abs(a.v.x) + abs(a.v.y)
            + abs(b.u.x) + abs(b.u.y) + abs(b.v.x) + abs(b.v.y)
        return separation > gapNeeded + 1e-9 * (1 + abs(gapNeeded) + scale)
    }
}

/// Disjoint convex polygons: the closest points are a corner of one and a side of the other. The
/// squared distance of each corner to each side, with each side's vector and squared length
/// computed once; the caller takes the square root once, of the smallest (the square root is
/// correctly rounded and monotonic, so that is the smallest of the distances).
private struct QuadPairCorners {
    let ca, cb, ea, eb: QuadCorners
    let eea, eeb: SIMD4<Double>

    @inline(__always) init(_ a: ImageQuad, _ b: ImageQuad) {
        ca = QuadCorners(a); cb = QuadCorners(b)
        ea = QuadCorners(sidesOf: ca); eb = QuadCorners(sidesOf: cb)
        @inline(__always) func len2(_ e: SIMD2<Double>) -> Double { e.x * e.x + e.y * e.y }
        eea = SIMD4(len2(ea.c0), len2(ea.c1), len2(ea.c2), len2(ea.c3))
        eeb = SIMD4(len2(eb.c0), len2(eb.c1), len2(eb.c2), len2(eb.c3))
    }

    @inline(__always) static func pointSegment2(_ p: SIMD2<Double>, _ s0: SIMD2<Double>, _ e: SIMD2<Double>, _ ee: Double) -> Double {
        let w = p - s0
        let t = ee > 0 ? min(1, max(0, (w.x * e.x + w.y * e.y) / ee)) : 0
        let c = w - t * e
        return c.x * c.x + c.y * c.y
    }
    /// Squared distance of a's corner `i` to b's side `j`, and the other way round.
    @inline(__always) func toSideOfB(_ i: Int, _ j: Int) -> Double { Self.pointSegment2(ca[i], cb[j], eb[j], eeb[j]) }
    @inline(__always) func toSideOfA(_ i: Int, _ j: Int) -> Double { Self.pointSegment2(cb[i], ca[j], ea[j], eea[j]) }

    /// The smallest of the 32 squared corner–side distances.
    @inline(__always) func smallest() -> Double {
        var best = Double.infinity
        for i in 0..<4 {
            for j in 0..<4 { best = min(best, toSideOfB(i, j), toSideOfA(i, j)) }
        }
        return best
    }
}

/// `ImageQuad.corners` without an array.
struct QuadCorners {
    let c0, c1, c2, c3: SIMD2<Double>
    @inline(__always) init(_ q: ImageQuad) {
        c0 = q.center - q.u - q.v; c1 = q.center + q.u - q.v; c2 = q.center + q.u + q.v; c3 = q.center - q.u + q.v
    }
    /// The sides of a quad with these corners: side k runs from corner k to corner k + 1 (mod 4).
    @inline(__always) init(sidesOf c: QuadCorners) {
        c0 = c.c1 - c.c0; c1 = c.c2 - c.c1; c2 = c.c3 - c.c2; c3 = c.c0 - c.c3
    }
    @inline(__always) subscript(_ i: Int) -> SIMD2<Double> {
        switch i { case 0: c0; case 1: c1; case 2: c2; default: c3 }
    }
}

/// Cells of a direction on the sphere: `columns` azimuth columns of 360° / `columns` that wrap
/// (column `columns` is column 0 again), and rows of the same height in elevation.
struct SphereCells {
    /// First column (0 ..< columns) and number of columns (1 ... columns, all of them for an item
    /// around a pole or wider than the circle), first and last row.
    var x0: Int32, len: Int32, y0: Int32, y1: Int32
    var large: Bool

    /// Azimuth columns for cells of about `cell` degrees (at least 1, at most 2¹⁶).
    static func columns(cell: Double) -> Int {
        guard cell > 0, cell.isFinite else { return 1 }
        return max(1, min(1 << 16, Int((360 / cell).rounded(.down))))
    }

    /// The cells of the box `az ± halfAz` × `el0 … el1` (degrees; azimuth in any range, it wraps),
    /// or nil when a value is not finite (such an item is never visited).
    static func of(az: Double, halfAz: Double, el0: Double, el1: Double, columns w: Int) -> SphereCells? {
        guard az.isFinite, halfAz.isFinite || halfAz == .infinity, el0.isFinite, el1.isFinite, w > 0 else { return nil }
        let width = 360 / Double(w)
        let y0 = PairGrid.cellIndex(max(-90, el0), width), y1 = PairGrid.cellIndex(min(90, el1), width)
        var x0: Int32 = 0, len = Int32(w)
        if halfAz < 180 {
            let c0 = PairGrid.cellIndex(az - halfAz, width), c1 = PairGrid.cellIndex(az + halfAz, width)
            let n = Int(c1) - Int(c0) + 1
            if n < w {
                x0 = Int32(((Int(c0) % w) + w) % w)
                len = Int32(n)
            }
        }
        let count = Int(len) * max(1, Int(y1) - Int(y0) + 1)
        return SphereCells(x0: x0, len: len, y0: y0, y1: max(y0, y1), large: count > PairGrid.maxCellsPerItem)
    }

    /// Whether two items share a cell (a large one shares every cell), and the first one they
    /// share (column, row), the cell `PairGrid.searchSphere` visits them in.
    @inline(__always)
    static func common(_ a: SphereCells, _ b: SphereCells, columns w: Int) -> (shared: Bool, x: Int32, y: Int32) {
        let y = max(a.y0, b.y0)
        guard y <= min(a.y1, b.y1) else { return (false, 0, 0) }
        // Cyclic intervals: they meet exactly when one's first column lies in the other; every
        // part of their intersection starts at one of the two first columns.
        let x = firstColumn(a.x0, a.len, b.x0, b.len, columns: w)
        return (x >= 0, x, y)
    }

    /// The first column two cyclic column ranges share (see `common`), or -1 when they share none.
    /// Both first columns lie in 0 ..< w, so their difference wraps with one addition.
    @inline(__always)
    static func firstColumn(_ xa: Int32, _ la: Int32, _ xb: Int32, _ lb: Int32, columns w: Int) -> Int32 {
        var ab = Int(xa) - Int(xb), ba = Int(xb) - Int(xa)
        if ab < 0 { ab += w }
        if ba < 0 { ba += w }
        let aInB = ab < Int(lb), bInA = ba < Int(la)
        return aInB && bInA ? min(xa, xb) : bInA ? xb : aInB ? xa : -1
    }
}

extension PairGrid {
    /// `search` for directions on the sphere: the items' cells (`SphereCells`, nil: never
    /// visited) wrap in azimuth, so two items across ±180° share cells like any others. Calls
    /// `visit(i, j)` (i < j) once for every pair sharing a cell (in the first they share, see
    /// `SphereCells.common`) and every pair with a large item, until `visit` returns false.
    mutating func searchSphere(count n: Int, cells: [SphereCells?], columns w: Int, visit: (Int, Int) -> Bool) {
        keys.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        large.removeAll(keepingCapacity: true)
        if cx0.count < n { cx0 = Array(repeating: 0, count: n); cy0 = cx0 }
        if cLen.count < n { cLen = Array(repeating: 0, count: n) }
        var loY = Int32.max, hiY = Int32.min
        for i in 0..<n {
            guard let c = cells[i] else { continue }
            cx0[i] = c.x0; cy0[i] = c.y0; cLen[i] = c.len
            if c.large { large.append(i); continue }
            loY = min(loY, c.y0); hiY = max(hiY, c.y1)
            for k in 0..<Int(c.len) {
                let cx = Int32((Int(c.x0) + k) % w)
                for cy in c.y0...c.y1 {
                    keys.append(Int64(cx) << 32 | Int64(UInt32(bitPattern: cy)))
                    items.append(Int32(i))
                }
            }
        }
        if !keys.isEmpty { sortEntries(loX: 0, hiX: Int32(w - 1), loY: loY, hiY: hiY) } else { order.removeAll(keepingCapacity: true) }
        // Visit only in the first cell the two share (both hold this one).
        let x0 = cx0, y0 = cy0, len = cLen
        guard visitCells(x0: x0, y0: y0, { a, b, cx, cy in
            max(y0[a], y0[b]) == cy && SphereCells.firstColumn(x0[a], len[a], x0[b], len[b], columns: w) == cx
        }, visit) else { return }
        visitLarge(count: n, { cells[$0] != nil }, visit)
    }
}

/// `rectGap` of the rectangles (±hwa, ±hha) and (dx, dy) ± (hwb, hhb): two upright images whose
/// centres are dx, dy apart (the first's minus the second's), from their half-extents.
@inline(__always)
func uprightGap(_ dx: Double, _ dy: Double, _ hwa: Double, _ hha: Double, _ hwb: Double, _ hhb: Double)
    -> (gap: Double, overlap: Double) {
    let adx = abs(dx), ady = abs(dy)
    let sx = hwa + hwb, sy = hha + hhb
    let gx = max(0, adx - sx), gy = max(0, ady - sy)
    // The overlap of [−a, a] and [d − b, d + b]: the shorter of the two, or what they share.
    let ox = min(sx - adx, 2 * min(hwa, hwb)), oy = min(sy - ady, 2 * min(hha, hhb))
    let overlap = ox > 0 && oy > 0 ? min(ox, oy) : 0
    return ((gx * gx + gy * gy).squareRoot(), overlap)
}
