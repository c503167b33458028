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
    private var large: [Int] = []
    /// Rectangles covering more cells than this are compared with everything instead.
    let maxCellsPerItem = 1024
    /// Number of candidate pairs examined (the cost measure).
    private(set) var checks = 0

    static func cellIndex(_ v: Double, _ cell: Double) -> Int32 {
        let c = (v / cell).rounded(.down)
        guard c.isFinite else { return c > 0 ? Int32.max / 2 : Int32.min / 2 }
        return Int32(max(Double(Int32.min / 2), min(Double(Int32.max / 2), c)))
    }

    /// Calls `visit(i, j)` (i < j in input order) for every candidate pair of `minX…maxY`.
    mutating func search(count n: Int, minX: [Double], minY: [Double], maxX: [Double], maxY: [Double],
                         cell: Double, margin: Double, visit: (Int, Int) -> Void) {
        keys.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        large.removeAll(keepingCapacity: true)
        if cx0.count < n { cx0 = Array(repeating: 0, count: n); cy0 = cx0 }
        let cell = cell > 0 && cell.isFinite ? cell : 1
        let half = max(0, margin / 2)
        var loX = Int32.max, hiX = Int32.min, loY = Int32.max, hiY = Int32.min
        for i in 0..<n {
            guard minX[i].isFinite, minY[i].isFinite, maxX[i].isFinite, maxY[i].isFinite else { continue }
            let x0 = Self.cellIndex(minX[i] - half, cell), x1 = Self.cellIndex(maxX[i] + half, cell)
            let y0 = Self.cellIndex(minY[i] - half, cell), y1 = Self.cellIndex(maxY[i] + half, cell)
            cx0[i] = x0; cy0[i] = y0
            loX = min(loX, x0); hiX = max(hiX, x1); loY = min(loY, y0); hiY = max(hiY, y1)
            let cells = (Int(x1) - Int(x0) + 1) * (Int(y1) - Int(y0) + 1)
            if cells > maxCellsPerItem { large.append(i); continue }
            for cx in x0...x1 {
                for cy in y0...y1 {
                    keys.append(Int64(cx) << 32 | Int64(UInt32(bitPattern: cy)))
                    items.append(Int32(i))
                }
            }
        }
        sortEntries(loX: loX, hiX: hiX, loY: loY, hiY: hiY)
        var s = 0
        while s < order.count {
            var e = s + 1
            let key = keys[order[s]]
            while e < order.count, keys[order[e]] == key { e += 1 }
            if e - s > 1 {
                let cx = Int32(truncatingIfNeeded: key >> 32), cy = Int32(truncatingIfNeeded: key)
                for p in s..<(e - 1) {
                    let a = Int(items[order[p]])
                    for q in (p + 1)..<e {
                        let b = Int(items[order[q]])
                        checks += 1
                        // Visit only in the first cell the two share.
                        guard max(cx0[a], cx0[b]) == cx, max(cy0[a], cy0[b]) == cy else { continue }
                        visit(min(a, b), max(a, b))
                    }
                }
            }
            s = e
        }
        if !large.isEmpty {
            var isLarge = [Bool](repeating: false, count: n)
            for l in large { isLarge[l] = true }
            for l in large {
                for j in 0..<n where j != l && (!isLarge[j] || j > l) {
                    checks += 1
                    visit(min(l, j), max(l, j))
                }
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
