// Small value types for the spatial model. World space is right-handed, +Y up, -Z forward,
// +X right, in metres (scene format §1). The per-frame hot path lives in Simulation (GLM);
// these types serve loading, rest-pose geometry and tests.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public typealias Vec3 = SIMD3<Double>

@inlinable public func dot(_ a: Vec3, _ b: Vec3) -> Double { (a * b).sum() }
@inlinable public func cross(_ a: Vec3, _ b: Vec3) -> Vec3 {
    Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
@inlinable public func length(_ a: Vec3) -> Double { dot(a, a).squareRoot() }
@inlinable public func normalize(_ a: Vec3) -> Vec3 {
    let l = length(a)
    return l > 0 ? a / l : a
}
@inlinable public func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
@inlinable public func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

extension SIMD3 where Scalar == Double {
    /// True when every component is finite (no NaN, no infinity).
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

/// A unit quaternion `x·i + y·j + z·k + w` (the scene format's `[x, y, z, w]` order).
public struct Quat: Hashable, Sendable {
    public var x, y, z, w: Double
    @inlinable public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x; self.y = y; self.z = z; self.w = w
    }
    public static let identity = Quat(x: 0, y: 0, z: 0, w: 1)

    /// Rotation of `angle` radians about `axis` (right-hand rule).
    public init(angle: Double, axis: Vec3) {
        let n = normalize(axis)
        let s = sin(angle / 2)
        self.init(x: n.x * s, y: n.y * s, z: n.z * s, w: cos(angle / 2))
    }

    /// The scene format's `rotation: {yaw, pitch, roll}` in degrees:
    /// `R = Ry(yaw) · Rx(pitch) · Rz(roll)`; positive yaw turns left, positive pitch tilts up,
    /// positive roll is counter-clockwise as seen by the viewer.
    public init(yaw: Double, pitch: Double, roll: Double) {
        self = Quat(angle: radians(yaw), axis: Vec3(0, 1, 0))
            * Quat(angle: radians(pitch), axis: Vec3(1, 0, 0))
            * Quat(angle: radians(roll), axis: Vec3(0, 0, 1))
    }

    public var lengthSquared: Double { x * x + y * y + z * z + w * w }
    public var normalized: Quat {
        let l = lengthSquared.squareRoot()
        guard l > 0 else { return .identity }
        return Quat(x: x / l, y: y / l, z: z / l, w: w / l)
    }
    @inlinable public var conjugate: Quat { Quat(x: -x, y: -y, z: -z, w: w) }
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }

    @inlinable public static func * (a: Quat, b: Quat) -> Quat {
        Quat(
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z)
    }

    /// Rotates a vector.
    @inlinable public func act(_ v: Vec3) -> Vec3 {
        let q = Vec3(x, y, z)
        let t = 2 * cross(q, v)
        return v + w * t + cross(q, t)
    }

    /// Spherical linear interpolation along the shorter arc.
    public static func slerp(_ a: Quat, _ b0: Quat, _ t: Double) -> Quat {
        var b = b0
        var c = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        if c < 0 { b = Quat(x: -b.x, y: -b.y, z: -b.z, w: -b.w); c = -c }
        if c > 0.9995 {
            return Quat(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
                        z: a.z + (b.z - a.z) * t, w: a.w + (b.w - a.w) * t).normalized
        }
        let theta = acos(min(1, c))
        let s = sin(theta)
        let wa = sin((1 - t) * theta) / s, wb = sin(t * theta) / s
        return Quat(x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y,
                    z: wa * a.z + wb * b.z, w: wa * a.w + wb * b.w)
    }
}

/// A 4×4 affine matrix, column-major (`values[col * 4 + row]`), as in GLM and assimp after transposition.
public struct Mat4: Hashable, Sendable {
    /// The 16 values inline: a heap array per matrix cost an allocation (and a release) for every
    /// node of a scene, two with its world matrix. Equality and hashing are the values' own, in
    /// this order, as they were for the array.
    public var values: SIMD16<Double>
    public init(columnMajor m: [Double]) {
        precondition(m.count == 16, "Mat4 needs 16 values")
        values = SIMD16(m)
    }
    @inlinable public init(values: SIMD16<Double>) { self.values = values }
    public static let identity = Mat4(values: SIMD16(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    /// The 16 values as an array (column-major); element reads are cheaper through `values`.
    public var m: [Double] {
        get { (0..<16).map { values[$0] } }
        set {
            precondition(newValue.count == 16, "Mat4 needs 16 values")
            values = SIMD16(newValue)
        }
    }

    @inlinable public subscript(row: Int, col: Int) -> Double {
        get { values[col * 4 + row] }
        set { values[col * 4 + row] = newValue }
    }

    public static func * (a: Mat4, b: Mat4) -> Mat4 {
        var r = SIMD16<Double>()
        for c in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a.values[k * 4 + row] * b.values[c * 4 + k] }
                r[c * 4 + row] = s
            }
        }
        return Mat4(values: r)
    }

    @inlinable public func transformPoint(_ p: Vec3) -> Vec3 {
        let m = values
        return Vec3(
            m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
            m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
            m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
    }

    @inlinable public var translation: Vec3 { Vec3(values[12], values[13], values[14]) }
    public var isFinite: Bool {
        for i in 0..<16 where !values[i].isFinite { return false }
        return true
    }

    /// The orientation of this matrix as the scene format's `{yaw, pitch, roll}` in degrees
    /// (`R = Ry(yaw) · Rx(pitch) · Rz(roll)`), read from its columns with scale divided out. With
    /// `R` written out, `R[1][2] = −sin pitch`, `(R[0][2], R[2][2]) = cos pitch · (sin yaw, cos yaw)` and
    /// `(R[1][0], R[1][1]) = cos pitch · (sin roll, cos roll)`; at pitch ±90° roll is 0 and the yaw
    /// comes from the first column. Nil when a column has zero or non-finite length.
    public var yawPitchRoll: Vec3? {
        let m = values
        let c0 = Vec3(m[0], m[1], m[2]), c1 = Vec3(m[4], m[5], m[6]), c2 = Vec3(m[8], m[9], m[10])
        let l0 = length(c0), l1 = length(c1), l2 = length(c2)
        guard l0 > 1e-12, l1 > 1e-12, l2 > 1e-12, l0.isFinite, l1.isFinite, l2.isFinite else { return nil }
        let x = c0 / l0, y = c1 / l1, z = c2 / l2
        let sp = min(1, max(-1, -z.y))
        let pitch = asin(sp)
        let yaw: Double, roll: Double
        if abs(sp) < 1 - 1e-12 {
            yaw = atan2(z.x, z.z)
            roll = atan2(x.y, y.y)
        } else {
            yaw = atan2(-x.z, x.x)
            roll = 0
        }
        // +0 turns a -0 into 0 so that text never shows "-0".
        return Vec3(degrees(yaw) + 0, degrees(pitch) + 0, degrees(roll) + 0)
    }
}

/// Translation, rotation and (possibly non-uniform) scale: `M = T · R · S`.
public struct Transform: Hashable, Sendable {
    public var translation: Vec3
    public var rotation: Quat
    public var scale: Vec3
    public init(translation: Vec3 = .zero, rotation: Quat = .identity, scale: Vec3 = .one) {
        self.translation = translation; self.rotation = rotation; self.scale = scale
    }
    public static let identity = Transform()

    public var matrix: Mat4 {
        let q = rotation
        let xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z
        let xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z
        let wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z
        let r0 = 1 - 2 * (yy + zz), r1 = 2 * (xy + wz), r2 = 2 * (xz - wy)
        let r3 = 2 * (xy - wz), r4 = 1 - 2 * (xx + zz), r5 = 2 * (yz + wx)
        let r6 = 2 * (xz + wy), r7 = 2 * (yz - wx), r8 = 1 - 2 * (xx + yy)
        return Mat4(values: SIMD16(
            r0 * scale.x, r1 * scale.x, r2 * scale.x, 0,
            r3 * scale.y, r4 * scale.y, r5 * scale.y, 0,
            r6 * scale.z, r7 * scale.z, r8 * scale.z, 0,
            translation.x, translation.y, translation.z, 1))
    }

    public var isFinite: Bool { translation.isFinite && rotation.isFinite && scale.isFinite }
}

/// An axis-aligned box. `empty` has min > max and absorbs nothing when unioned.
public struct AABB: Hashable, Sendable {
    public var min: Vec3
    public var max: Vec3
    public init(min: Vec3, max: Vec3) { self.min = min; self.max = max }
    public static let empty = AABB(min: Vec3(repeating: .infinity), max: Vec3(repeating: -.infinity))

    public var isEmpty: Bool { min.x > max.x || min.y > max.y || min.z > max.z }
    public var center: Vec3 { (min + max) / 2 }
    public var size: Vec3 { isEmpty ? .zero : max - min }

    public mutating func formUnion(_ p: Vec3) {
        min = pointwiseMin(min, p)
        max = pointwiseMax(max, p)
    }
    public mutating func formUnion(_ b: AABB) {
        guard !b.isEmpty else { return }
        min = pointwiseMin(min, b.min)
        max = pointwiseMax(max, b.max)
    }
    public var corners: [Vec3] {
        (0..<8).map { i in
            Vec3(i & 1 == 0 ? min.x : max.x, i & 2 == 0 ? min.y : max.y, i & 4 == 0 ? min.z : max.z)
        }
    }
    /// The box around the transformed corners (conservative for rotations).
    public func transformed(by t: Mat4) -> AABB {
        guard !isEmpty else { return self }
        // `t.transformPoint` of each corner, in `corners`' order, without the array: every
        // coordinate is `((x·m + y·m) + z·m) + t` as there, the same products summed in the same
        // order (so the same doubles), but each product made once for the two corners' values
        // of its coordinate instead of once per corner (6 products instead of 24, 4 sums shared).
        let m = t.values
        let cx = Vec3(m[0], m[1], m[2]), cy = Vec3(m[4], m[5], m[6]), cz = Vec3(m[8], m[9], m[10])
        let tr = Vec3(m[12], m[13], m[14])
        let x0 = cx * min.x, x1 = cx * max.x
        let y0 = cy * min.y, y1 = cy * max.y
        let z0 = cz * min.z, z1 = cz * max.z
        let s00 = x0 + y0, s10 = x1 + y0, s01 = x0 + y1, s11 = x1 + y1
        // `formUnion` from `empty`, lane by lane with `minimum`/`maximum` (what `pointwiseMin`
        // and `pointwiseMax` do per lane, NaN and signed zeros included), inline: the generic
        // calls cost more than the arithmetic.
        var lo = Vec3(repeating: .infinity), hi = Vec3(repeating: -.infinity)
        @inline(__always) func union(_ p: Vec3) {
            lo = Vec3(.minimum(lo.x, p.x), .minimum(lo.y, p.y), .minimum(lo.z, p.z))
            hi = Vec3(.maximum(hi.x, p.x), .maximum(hi.y, p.y), .maximum(hi.z, p.z))
        }
        union(s00 + z0 + tr)
        union(s10 + z0 + tr)
        union(s01 + z0 + tr)
        union(s11 + z0 + tr)
        union(s00 + z1 + tr)
        union(s10 + z1 + tr)
        union(s01 + z1 + tr)
        union(s11 + z1 + tr)
        return AABB(min: lo, max: hi)
    }
}
