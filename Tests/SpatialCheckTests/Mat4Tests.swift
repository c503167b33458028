import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `Mat4` keeps its 16 values inline (`values`) instead of in an array: every operation gives the
/// same doubles, bit for bit, as the array-based code it replaced (written out here as it was).
@Suite struct Mat4Tests {
    /// The array-based `Mat4 *` as it was.
    private static func oldProduct(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 16)
        for c in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a[k * 4 + row] * b[c * 4 + k] }
                r[c * 4 + row] = s
            }
        }
        return r
    }

    /// The array-based `Transform.matrix` as it was.
    private static func oldMatrix(_ t: Transform) -> [Double] {
        let q = t.rotation, scale = t.scale, translation = t.translation
        let xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z
        let xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z
        let wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z
        let r: [Double] = [
            1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy),
            2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx),
            2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy),
        ]
        return [
            r[0] * scale.x, r[1] * scale.x, r[2] * scale.x, 0,
            r[3] * scale.y, r[4] * scale.y, r[5] * scale.y, 0,
            r[6] * scale.z, r[7] * scale.z, r[8] * scale.z, 0,
            translation.x, translation.y, translation.z, 1,
        ]
    }

    private static func bits(_ m: Mat4) -> [UInt64] { (0..<16).map { m.values[$0].bitPattern } }
    private static func bits(_ v: Vec3) -> [UInt64] { [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern] }

    @Test func operationsGiveTheArrayCodesDoublesToTheBit() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<500 {
            let t = rng.transform(unitRotation: true), u = rng.transform(unitRotation: false)
            let a = t.matrix, b = u.matrix
            #expect(a.m.map(\.bitPattern) == Self.oldMatrix(t).map(\.bitPattern))
            #expect(Self.bits(SceneBuilder.matrix(t)) == Self.bits(a))
            let old = Self.oldProduct(Self.oldMatrix(t), Self.oldMatrix(u))
            #expect((a * b).m.map(\.bitPattern) == old.map(\.bitPattern))
            #expect(SceneBuilder.product(a, b).m.map(\.bitPattern) == old.map(\.bitPattern))
            // transformPoint and translation read the same elements as before.
            let p = Vec3(rng.mixedDouble(), rng.mixedDouble(), rng.mixedDouble()), m = a.m
            let expected = Vec3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
                                m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                                m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
            #expect(Self.bits(a.transformPoint(p)) == Self.bits(expected))
            #expect(Self.bits(a.translation) == Self.bits(Vec3(m[12], m[13], m[14])))
            // Built from the array, the same matrix.
            #expect(Mat4(columnMajor: m) == a)
            #expect(Self.bits(Mat4(columnMajor: m)) == Self.bits(a))
        }
    }

    @Test func elementsSubscriptsAndTheArrayView() {
        var m = Mat4(columnMajor: (0..<16).map(Double.init))
        // Column-major: row 1 of column 2 is element 9.
        #expect(m[1, 2] == 9)
        #expect(m.values[9] == 9)
        m[1, 2] = -1
        #expect(m.m[9] == -1)
        m.m[3] = 42
        #expect(m[3, 0] == 42)
        #expect(Mat4.identity.m == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(Mat4.identity.isFinite)
        var n = Mat4.identity
        n[2, 3] = .nan
        #expect(!n.isFinite)
        n[2, 3] = .infinity
        #expect(!n.isFinite)
        // Equality and hashing are the values' (0 and -0 equal, as `[Double]`'s were).
        var z = Mat4.identity
        z[0, 1] = -0.0
        #expect(z == Mat4.identity)
        #expect(z.hashValue == Mat4.identity.hashValue)
        #expect(Set([z, Mat4.identity, m]).count == 2)
        // yawPitchRoll of a rotation reads its columns as before.
        let ypr = Transform(rotation: Quat(yaw: 30, pitch: -10, roll: 5)).matrix.yawPitchRoll
        #expect(ypr.map { abs($0.x - 30) < 1e-9 && abs($0.y + 10) < 1e-9 && abs($0.z - 5) < 1e-9 } == true)
        #expect(Mat4(columnMajor: [Double](repeating: 0, count: 16)).yawPitchRoll == nil)
    }
}
