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
}
