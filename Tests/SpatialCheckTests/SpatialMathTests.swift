import Foundation
import CSpatialMath
import Testing

@Suite("SpatialMath (GLM core)")
struct SpatialMathTests {
    static func assertMatrix(_ got: ArraySlice<Double>, _ expected: [Double], _ tol: Double = 1e-12,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == 16, sourceLocation: sourceLocation)
        for (g, e) in zip(got, expected) {
            #expect(abs(g - e) <= tol, "got \(Array(got)) expected \(expected)", sourceLocation: sourceLocation)
        }
    }

    @Test func composeTRS() {
        // T(1,2,3) · R(90° about +Z) · S(2,3,4), column-major, worked by hand:
        // R·S columns: Rz(90)·(2,0,0) = (0,2,0); Rz(90)·(0,3,0) = (-3,0,0); (0,0,4).
        let s = 0.5.squareRoot()
        let trs = sm_trs(t: (1, 2, 3), q: (0, 0, s, s), s: (2, 3, 4))
        var out = [Double](repeating: 0, count: 16)
        sm_compose_trs([trs], &out, 1)
        Self.assertMatrix(out[...], [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1])
    }

    @Test func worldTransformsOfThreeLevelChain() {
        // node0: translate (1, 0, 0); node1 (child of 0): yaw 90° about +Y; node2 (child of 1):
        // translate (0, 0, -2), scale 2. Hand-multiplied world matrices:
        //   W0 = T(1,0,0)
        //   W1 = T(1,0,0)·Ry(90): columns (0,0,-1), (0,1,0), (1,0,0), origin (1,0,0)
        //   W2 = W1·T(0,0,-2)·S(2): columns 2·(0,0,-1), 2·(0,1,0), 2·(1,0,0);
        //        origin = (1,0,0) + Ry(90)·(0,0,-2) = (1,0,0) + (-2,0,0) = (-1,0,0)
        let s = 0.5.squareRoot()
        let locals = [
            sm_trs(t: (1, 0, 0), q: (0, 0, 0, 1), s: (1, 1, 1)),
            sm_trs(t: (0, 0, 0), q: (0, s, 0, s), s: (1, 1, 1)),
            sm_trs(t: (0, 0, -2), q: (0, 0, 0, 1), s: (2, 2, 2)),
        ]
        var local = [Double](repeating: 0, count: 48)
        sm_compose_trs(locals, &local, 3)
        var world = [Double](repeating: 0, count: 48)
        let parent: [Int32] = [-1, 0, 1]
        let rootIndex: [Int32] = [-1, -1, -1]
        sm_world_transforms(parent, local, nil, rootIndex, &world, 3)
        Self.assertMatrix(world[0..<16], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1])
        Self.assertMatrix(world[16..<32], [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1])
        Self.assertMatrix(world[32..<48], [0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, -1, 0, 0, 1])

        // The same chain under a root frame T(0, 1.6, 0): every origin moves up by 1.6.
        let frame: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1.6, 0, 1]
        sm_world_transforms(parent, local, frame, [0, -1, -1], &world, 3)
        Self.assertMatrix(world[32..<48], [0, 0, -2, 0, 0, 2, 0, 0, 2, 0, 0, 0, -1, 1.6, 0, 1])
    }

    @Test func transformAABB() {
        // Unit cube [-0.5, 0.5]³ rotated 45° about Y and moved to (0, 0, -2): x and z extents grow
        // to ±√2/2, y stays ±0.5. Empty boxes stay empty.
        let s = 0.5.squareRoot()
        let c = cos(Double.pi / 8), sn = sin(Double.pi / 8)
        var m = [Double](repeating: 0, count: 16)
        sm_compose_trs([sm_trs(t: (0, 0, -2), q: (0, sn, 0, c), s: (1, 1, 1))], &m, 1)
        let boxes: [Double] = [-0.5, -0.5, -0.5, 0.5, 0.5, 0.5]
        var out = [Double](repeating: 0, count: 6)
        sm_transform_aabbs(m, boxes, &out, 1)
        let expected = [-s, -0.5, -2 - s, s, 0.5, -2 + s]
        for (g, e) in zip(out, expected) { #expect(abs(g - e) < 1e-12) }
        sm_transform_aabbs(m, [1, 1, 1, 0, 0, 0], &out, 1)
        #expect(out[0] > out[3])
    }

    @Test func slerpHalfway() {
        // Half-way between identity and 90° about +Y is 45° about +Y: (0, sin 22.5°, 0, cos 22.5°).
        let s = 0.5.squareRoot()
        var out = [Double](repeating: 0, count: 4)
        sm_slerp([0, 0, 0, 1], [0, s, 0, s], [0.5], &out, 1)
        #expect(abs(out[0]) < 1e-12 && abs(out[2]) < 1e-12)
        #expect(abs(out[1] - 0.38268343236508984) < 1e-12)
        #expect(abs(out[3] - 0.9238795325112867) < 1e-12)
        // Shorter arc: the negated end quaternion gives the same result.
        sm_slerp([0, 0, 0, 1], [0, -s, 0, -s], [0.5], &out, 1)
        #expect(abs(out[1] - 0.38268343236508984) < 1e-12)
    }

    @Test func sampleKeysBatched() {
        // Track 0: x from 0 to 10 over [0, 2]; track 1: a single key; track 2: no keys.
        let times: [Double] = [0, 2, 5]
        let values: [Double] = [0, 0, 0, 10, 0, 0, 7, 8, 9]
        var out = [Double](repeating: -1, count: 9)
        sm_sample_vec3_keys(times, values, [0, 2, 0], [2, 1, 0], [0.5, 100, 1], &out, 3)
        #expect(out[0] == 2.5 && out[1] == 0 && out[2] == 0)
        #expect(out[3] == 7 && out[4] == 8 && out[5] == 9)
        #expect(out[6] == -1) // untouched
        // Hold before the first and after the last key.
        sm_sample_vec3_keys(times, values, [0], [2], [-3], &out, 1)
        #expect(out[0] == 0)
        sm_sample_vec3_keys(times, values, [0], [2], [9], &out, 1)
        #expect(out[0] == 10)
    }

    // MARK: sm_cover_rect (fov-window-clutter's coverage grid)

    /// The grid cells a rectangle covers, by the definition in spatialmath.h, one cell at a time:
    /// the cell's direction d, then d·s > 0, |d·right| <= tw·(d·s), |d·up| <= th·(d·s).
    static func coveredCells(rowSin: [Double], rowCos: [Double], colSin: [Double], colCos: [Double],
                             r0: Int, r1: Int, c0: Int, c1: Int, s: sm_vec3, right: sm_vec3, up: sm_vec3,
                             tw: Double, th: Double) -> Set<[Int]> {
        var cells = Set<[Int]>()
        for r in r0...r1 {
            for c in c0...c1 {
                // d = (cos e · sin a, sin e, −cos e · cos a); d·v = cos e · (sin a · v.x − cos a · v.z) + sin e · v.y.
                func dot(_ v: sm_vec3) -> Double { rowCos[r] * (colSin[c] * v.x - colCos[c] * v.z) + rowSin[r] * v.y }
                let ds = dot(s), dr = dot(right), du = dot(up)
                if ds > 0 && abs(dr) <= tw * ds && abs(du) <= th * ds { cells.insert([r, c]) }
            }
        }
        return cells
    }

    @Test func coverRectMatchesTheCellDefinition() {
        // 101 columns 2° apart around azimuth 0 (column 50 is exactly 0°: sin 0 = 0), 40 rows 3°
        // apart; two words per row. Column ranges of every length modulo 4 and across the word
        // boundary at column 64, on an empty grid and on one with cells already marked.
        let columns = 101, rows = 40, words = 2
        let colSin = (0..<columns).map { sin(Double($0 - 50) * 2 * .pi / 180) }
        let colCos = (0..<columns).map { cos(Double($0 - 50) * 2 * .pi / 180) }
        let rowSin = (0..<rows).map { sin(Double($0 - 20) * 3 * .pi / 180) }
        let rowCos = (0..<rows).map { cos(Double($0 - 20) * 3 * .pi / 180) }
        let ahead = sm_vec3(x: 0, y: 0, z: -1), right = sm_vec3(x: 1, y: 0, z: 0), up = sm_vec3(x: 0, y: 1, z: 0)
        // A rectangle turned 20° to the right: s = (sin 20°, 0, −cos 20°), right = (cos 20°, 0, sin 20°).
        let turned = (sm_vec3(x: sin(20 * .pi / 180), y: 0, z: -cos(20 * .pi / 180)),
                      sm_vec3(x: cos(20 * .pi / 180), y: 0, z: sin(20 * .pi / 180)))
        let cases: [(sm_vec3, sm_vec3, Double, Double, Int, Int, Int, Int)] = [
            (ahead, right, 0.5, 0.3, 0, rows - 1, 0, columns - 1),
            (ahead, right, 0.5, 0.3, 3, 30, 49, 51),
            (turned.0, turned.1, 0.3, 0.2, 5, 25, 60, 67),
            (turned.0, turned.1, 0.8, 0.6, 0, rows - 1, 1, 98),
            (ahead, right, 0.2, 0.4, 10, 12, 63, 64),
            (ahead, right, 0.25, 0.1, 17, 23, 44, 56),
            // An edge exactly on column 50: |d·right| <= 0 only where sin a = 0.
            (ahead, right, 0, 0.3, 0, rows - 1, 40, 60),
        ]
        for marked in [false, true] {
            for (s, r, tw, th, r0, r1, c0, c1) in cases {
                var mask = [UInt64](repeating: 0, count: rows * words)
                if marked { for i in mask.indices where i % 3 == 0 { mask[i] = 0x5555_5555_5555_5555 } }
                let before = mask
                let full = sm_cover_rect(rowSin, rowCos, colSin, colCos, Int32(columns), Int32(words), Int32(r0), Int32(r1),
                                         Int32(c0), Int32(c1), s, r, up, tw, th, &mask)
                let hits = Self.coveredCells(rowSin: rowSin, rowCos: rowCos, colSin: colSin, colCos: colCos,
                                             r0: r0, r1: r1, c0: c0, c1: c1, s: s, right: r, up: up, tw: tw, th: th)
                var expected = before
                for cell in hits { expected[cell[0] * words + cell[1] / 64] |= UInt64(1) << UInt64(cell[1] % 64) }
                #expect(mask == expected, "rectangle \(r0)...\(r1) × \(c0)...\(c1), marked \(marked)")
                // No row of 101 columns can become full with 128 bits a row.
                #expect(full == 0)
                if tw == 0 { #expect(!hits.isEmpty && hits.allSatisfy { $0[1] == 50 }) }
            }
        }
    }

    // MARK: sm_atan2 (every angle of the simulator goes through it; see sm_atan2.h)

    @Test func atan2HandValues() {
        // Exact angles of the unit circle, by hand.
        let cases: [(Double, Double, Double)] = [
            (1, 1, .pi / 4), (1, -1, 3 * .pi / 4), (-1, -1, -3 * .pi / 4), (-1, 1, -.pi / 4),
            (1, 3.0.squareRoot(), .pi / 6), (3.0.squareRoot(), 1, .pi / 3), (1, 0, .pi / 2), (-1, 0, -.pi / 2),
            (0, -1, .pi), (0, 1, 0), (2e-300, 1e-300, atan(2.0)), (1e300, -1e300, 3 * .pi / 4),
        ]
        for (y, x, expected) in cases {
            #expect(abs(sm_atan2(y, x) - expected) <= 4e-16 * max(1, abs(expected)), "atan2(\(y), \(x))")
        }
        // Signed zeros and non-finite arguments follow IEEE / libm.
        #expect(sm_atan2(0, 0) == 0 && sm_atan2(0, 0).sign == .plus)
        #expect(sm_atan2(-0.0, 0) == 0 && sm_atan2(-0.0, 0).sign == .minus)
        #expect(sm_atan2(0, -0.0) == .pi && sm_atan2(-0.0, -0.0) == -.pi)
        #expect(sm_atan2(-0.0, 1) == 0 && sm_atan2(-0.0, 1).sign == .minus)
        #expect(sm_atan2(.infinity, 1) == .pi / 2 && sm_atan2(1, -.infinity) == .pi)
        #expect(sm_atan2(.nan, 1).isNaN && sm_atan2(1, .nan).isNaN)
    }

    @Test func atan2WithinTwoUlpOfLibm() {
        // 300,000 deterministic arguments over signs, octants and 60 decades of magnitude,
        // compared with the platform's libm atan2 (independent of the code under test).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var worstUlps = 0.0
        for i in 0..<300_000 {
            let scale = i % 3 == 0 ? pow(10, next() * 60 - 30) : 1
            let y = (next() * 2 - 1) * scale
            let x = (next() * 2 - 1) * (i % 5 == 0 ? scale * pow(10, next() * 8 - 4) : scale)
            let expected = atan2(y, x)
            let ulps = abs(sm_atan2(y, x) - expected) / expected.ulp
            worstUlps = max(worstUlps, ulps)
        }
        #expect(worstUlps <= 2, "worst error \(worstUlps) ulp")
    }
}
