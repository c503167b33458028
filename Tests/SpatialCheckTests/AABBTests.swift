import Testing
import SpatialModel

/// `AABB.transformed(by:)` shares each coordinate's products between the corners; its box must
/// be the one of the eight corners transformed one by one (`transformPoint`, in `corners`' order),
/// bit for bit.
@Suite struct AABBTests {
    /// The box around `b`'s corners, each through `transformPoint`, unioned in `corners`' order.
    private static func cornerByCorner(_ b: AABB, _ m: Mat4) -> AABB {
        var r = AABB.empty
        for c in b.corners { r.formUnion(m.transformPoint(c)) }
        return r
    }

    private static func bits(_ b: AABB) -> [UInt64] {
        [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z].map(\.bitPattern)
    }

    @Test func transformedIsTheBoxOfTheTransformedCornersToTheBit() {
        var rng = SplitMix64(seed: 23)
        for k in 0..<400 {
            let m = rng.transform(unitRotation: k % 2 == 0).matrix
            let a = Vec3(rng.mixedDouble(), rng.mixedDouble(), rng.mixedDouble())
            // Flat boxes (one dimension 0, as windows are) and points among them.
            var extent = Vec3(abs(rng.mixedDouble()), abs(rng.mixedDouble()), abs(rng.mixedDouble()))
            if k % 5 == 0 { extent.z = 0 }
            if k % 17 == 0 { extent = .zero }
            let box = AABB(min: a, max: a + extent)
            #expect(Self.bits(box.transformed(by: m)) == Self.bits(Self.cornerByCorner(box, m)), "case \(k)")
        }
        // Non-finite matrices and boxes: NaN, infinities and signed zeros take the same
        // minimum/maximum as `formUnion` gives them.
        let special: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1, -2.5, 1e308]
        for k in 0..<200 {
            var m = rng.transform(unitRotation: false).matrix
            m.values[k % 16] = special[k % special.count]
            if k % 3 == 0 { m.values[(k / 3) % 16] = special[(k / 7) % special.count] }
            let a = Vec3(special[k % 8], rng.mixedDouble(), special[(k / 8) % 8])
            let box = AABB(min: a, max: a + Vec3(abs(rng.mixedDouble()), special[(k + 3) % 8].magnitude, 1))
            guard !box.isEmpty else { continue }
            #expect(Self.bits(box.transformed(by: m)) == Self.bits(Self.cornerByCorner(box, m)), "special case \(k)")
        }
        // A window's box in front of the viewer, worked out by hand: a 2 × 1 box turned 90° about
        // +Y (x → -z) and moved by (1, 2, 3).
        let turn = Transform(translation: Vec3(1, 2, 3), rotation: Quat(yaw: 90, pitch: 0, roll: 0)).matrix
        let window = AABB(min: Vec3(-1, -0.5, 0), max: Vec3(1, 0.5, 0)).transformed(by: turn)
        #expect(abs(window.min.x - 1) < 1e-12 && abs(window.max.x - 1) < 1e-12)
        #expect(window.min.y == 1.5 && window.max.y == 2.5)
        #expect(abs(window.min.z - 2) < 1e-12 && abs(window.max.z - 4) < 1e-12)
        // The empty box stays empty.
        #expect(AABB.empty.transformed(by: turn).isEmpty)
    }
}
