import Testing
@testable import Rules

/// `PairGrid`'s walk over the cells: a pair sharing several cells is visited in the first one, and
/// in a crowded cell (more than `anchoredCell` items) only pairs that can have their first shared
/// cell there are looked at. The pairs visited, their order, where a visitor's stop ends the
/// search and the candidate count (`checks`, the work counted) are those of looking at every
/// pair (`anchoredCell = Int.max`); only `examined` differs.
@Suite struct PairGridTests {
    /// 36 columns of 10°. `n` boxes straight ahead, ±15° in azimuth and −5…+15° in elevation:
    /// columns 34, 35, 0, 1 (they wrap past column 0) and rows −1, 0, 1 — 12 cells; the cells sort
    /// by column, so the first they share, (34, −1), comes after the 6 cells of columns 0 and 1.
    static func stacked(_ n: Int) -> [SphereCells?] {
        Array(repeating: SphereCells.of(az: 0, halfAz: 15, el0: -5, el1: 15, columns: 36), count: n)
    }

    /// Boxes spread over 60° around the seam and ±30° in elevation (a fixed generator, so the
    /// test is the same every run), with cells of 10 to 40 items.
    static func spread(_ n: Int) -> [SphereCells?] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<n).map { _ in
            let el = next() * 60 - 30, h = 1 + next() * 12
            return SphereCells.of(az: next() * 60 - 30, halfAz: 1 + next() * 15, el0: el - h, el1: el + h, columns: 36)
        }
    }

    /// The pairs visited (in order) until `stopAfter` of them, with the grid's counts.
    static func walk(_ cells: [SphereCells?], anchoredCell: Int, stopAfter: Int = .max) -> (visits: [[Int]], checks: Int, examined: Int) {
        var grid = PairGrid()
        grid.anchoredCell = anchoredCell
        var visits: [[Int]] = []
        grid.searchSphere(count: cells.count, cells: cells, columns: 36) { i, j in
            visits.append([i, j])
            return visits.count < stopAfter
        }
        return (visits, grid.checks, grid.examined)
    }

    @Test func stackedBoxesAcrossTheSeamAreLookedAtOnce() throws {
        let n = 100, pairs = n * (n - 1) / 2
        let cells = Self.stacked(n)
        let first = try #require(cells[0])
        #expect(first.x0 == 34 && first.len == 4 && first.y0 == -1 && first.y1 == 1)
        let every = Self.walk(cells, anchoredCell: .max)
        let anchored = Self.walk(cells, anchoredCell: 16)
        // Every pair once, in item order, either way; 12 shared cells each.
        #expect(anchored.visits == every.visits)
        #expect(anchored.visits.count == pairs)
        #expect(anchored.checks == 12 * pairs && every.checks == 12 * pairs)
        // Looking at every pair of every cell examined all 12; the anchored walk only the pairs
        // of the cell that visits them.
        #expect(every.examined == 12 * pairs)
        #expect(anchored.examined == pairs)
    }

    @Test func aStoppedSearchStopsAtTheSamePairAndCount() {
        let n = 100
        let cells = Self.stacked(n)
        for stop in [1, 99, 100, 2_500, 4_950] {
            let every = Self.walk(cells, anchoredCell: .max, stopAfter: stop)
            let anchored = Self.walk(cells, anchoredCell: 16, stopAfter: stop)
            #expect(anchored.visits == every.visits)
            #expect(anchored.visits.count == stop)
            #expect(anchored.checks == every.checks)
            // The 6 cells sorted before the one that visits: 6 · 4,950 pairs looked at before the
            // first visit, none by the anchored walk.
            #expect(every.examined == 6 * 4_950 + stop)
            #expect(anchored.examined == stop)
        }
    }

    @Test func spreadBoxesAreVisitedAsWhenEveryPairIsLookedAt() {
        let cells = Self.spread(400) + Self.stacked(30)
        let every = Self.walk(cells, anchoredCell: .max)
        for threshold in [0, 2, 16] {
            let anchored = Self.walk(cells, anchoredCell: threshold)
            #expect(anchored.visits == every.visits)
            #expect(anchored.checks == every.checks)
            #expect(anchored.examined < every.examined)
            for stop in [1, every.visits.count / 3, every.visits.count - 1] {
                let a = Self.walk(cells, anchoredCell: threshold, stopAfter: stop)
                let e = Self.walk(cells, anchoredCell: .max, stopAfter: stop)
                #expect(a.visits == e.visits)
                #expect(a.checks == e.checks)
            }
        }
        #expect(every.visits.count > 1_000)
    }

    /// The planar search (same-container pairs) walks its cells the same way.
    @Test func thePlanarSearchVisitsAsWhenEveryPairIsLookedAt() {
        let n = 300
        // 300 rectangles of 44 × 44 in three stacks and a row, on cells of 60 (margin 16).
        var x0: [Double] = [], y0: [Double] = []
        for i in 0..<n {
            if i < 200 {
                x0.append(Double(100 * (i % 2))); y0.append(30)
            } else {
                x0.append(Double(23 * (i - 200))); y0.append(200)
            }
        }
        let x1: [Double] = x0.map { $0 + 44 }, y1: [Double] = y0.map { $0 + 44 }
        func walk(_ threshold: Int, stopAfter: Int = .max) -> (visits: [[Int]], checks: Int, examined: Int) {
            var grid = PairGrid()
            grid.anchoredCell = threshold
            var visits: [[Int]] = []
            grid.search(count: n, minX: x0, minY: y0, maxX: x1, maxY: y1, cell: 60, margin: 16) { i, j in
                visits.append([i, j])
                return visits.count < stopAfter
            }
            return (visits, grid.checks, grid.examined)
        }
        let every = walk(.max), anchored = walk(16)
        #expect(anchored.visits == every.visits)
        #expect(anchored.checks == every.checks)
        #expect(anchored.examined < every.examined)
        let e = walk(.max, stopAfter: 5_000), a = walk(16, stopAfter: 5_000)
        #expect(a.visits == e.visits && a.checks == e.checks)
    }
}
