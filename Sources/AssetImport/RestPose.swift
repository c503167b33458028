import SpatialModel

extension Mat4 {
    /// Exact decomposition `M = T · R · S` of an affine matrix, or nil when the matrix has a
    /// projective row, shear, a (near-)zero scale axis or non-finite entries. A mirroring matrix
    /// (negative determinant) gets its X scale negated so that `R` stays a proper rotation.
    /// `tolerance` bounds the deviation of `R` from orthonormal (entries of `Rᵀ·R − I`); the
    /// default absorbs the rounding of single-precision file data.
    public func decomposedTRS(tolerance: Double = 1e-5) -> Transform? {
        guard isFinite else { return nil }
        // Affine only: bottom row (0, 0, 0, 1).
        guard abs(self[3, 0]) <= tolerance, abs(self[3, 1]) <= tolerance, abs(self[3, 2]) <= tolerance,
              abs(self[3, 3] - 1) <= tolerance else { return nil }
        var c0 = Vec3(self[0, 0], self[1, 0], self[2, 0])
        var c1 = Vec3(self[0, 1], self[1, 1], self[2, 1])
        var c2 = Vec3(self[0, 2], self[1, 2], self[2, 2])
        let det = dot(c0, cross(c1, c2))
        var sx = length(c0), sy = length(c1), sz = length(c2)
        let largest = Swift.max(sx, sy, sz)
        guard largest > 0, det.isFinite,
              abs(det) > 1e-12 * largest * largest * largest,
              Swift.min(sx, sy, sz) > 1e-9 * largest else { return nil }
        c0 /= sx; c1 /= sy; c2 /= sz
        if det < 0 { sx = -sx; c0 = -c0 }
        // R must be orthonormal, otherwise there is shear.
        let off = [dot(c0, c1), dot(c0, c2), dot(c1, c2)]
        guard off.allSatisfy({ abs($0) <= tolerance }) else { return nil }
        let q = Self.quaternion(c0, c1, c2)
        return Transform(translation: translation, rotation: q, scale: Vec3(sx, sy, sz))
    }

    /// The unit quaternion of the rotation matrix with columns c0, c1, c2 (Shepperd's method).
    static func quaternion(_ c0: Vec3, _ c1: Vec3, _ c2: Vec3) -> Quat {
        let m00 = c0.x, m10 = c0.y, m20 = c0.z
        let m01 = c1.x, m11 = c1.y, m21 = c1.z
        let m02 = c2.x, m12 = c2.y, m22 = c2.z
        let trace = m00 + m11 + m22
        var q: Quat
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Quat(x: (m21 - m12) / s, y: (m02 - m20) / s, z: (m10 - m01) / s, w: s / 4)
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = Quat(x: s / 4, y: (m01 + m10) / s, z: (m02 + m20) / s, w: (m21 - m12) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = Quat(x: (m01 + m10) / s, y: s / 4, z: (m12 + m21) / s, w: (m02 - m20) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = Quat(x: (m02 + m20) / s, y: (m12 + m21) / s, z: s / 4, w: (m10 - m01) / s)
        }
        q = q.normalized
        if q.w < 0 { q = Quat(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }
        return q
    }
}

extension ImportedAsset {
    /// Rest-pose world matrices of every node: `world[i] = root · world[parent] · local[i]`
    /// (parent before child, i.e. world = parent · child).
    public func restWorldMatrices(root: Mat4 = .identity) -> [Mat4] {
        var world: [Mat4] = []
        world.reserveCapacity(nodes.count)
        for (i, node) in nodes.enumerated() {
            if let p = node.parent, p < i {
                world.append(world[p] * node.local)
            } else {
                world.append(root * node.local)
            }
        }
        return world
    }

    /// The exact rest-pose world AABB: every vertex of every node transformed by its node's
    /// world matrix (`root · … · parent · local`), not the transformed mesh boxes.
    /// `.empty` when the asset has no vertices.
    public func restBounds(root: Mat4 = .identity) -> AABB {
        let world = restWorldMatrices(root: root)
        var box = AABB.empty
        for i in nodes.indices { box.formUnion(Self.bounds(of: nodes[i].vertices, by: world[i])) }
        return box
    }

    /// The exact rest-pose AABB of the subtree rooted at `node`, with `root` standing in for the
    /// world matrix of that node's parent frame (pass `restWorldMatrices()[parent]` for the
    /// authored placement, or `.identity` for the subtree on its own).
    public func restBounds(ofSubtree node: Int, root: Mat4 = .identity) -> AABB {
        guard nodes.indices.contains(node) else { return .empty }
        let end = Swift.min(nodes[node].subtreeEnd, nodes.count)
        var world = [Mat4](repeating: .identity, count: end - node)
        var box = AABB.empty
        for i in node..<end {
            let n = nodes[i]
            if i != node, let p = n.parent, p >= node, p < i {
                world[i - node] = world[p - node] * n.local
            } else {
                world[i - node] = root * n.local
            }
            box.formUnion(Self.bounds(of: n.vertices, by: world[i - node]))
        }
        return box
    }

    static func bounds(of vertices: [Float], by m: Mat4) -> AABB {
        guard vertices.count >= 3 else { return .empty }
        let c = m.values
        var lo = Vec3(repeating: .infinity), hi = Vec3(repeating: -.infinity)
        vertices.withUnsafeBufferPointer { v in
            var i = 0
            while i + 2 < v.count {
                let x = Double(v[i]), y = Double(v[i + 1]), z = Double(v[i + 2])
                let p = Vec3(c[0] * x + c[4] * y + c[8] * z + c[12],
                             c[1] * x + c[5] * y + c[9] * z + c[13],
                             c[2] * x + c[6] * y + c[10] * z + c[14])
                lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p)
                i += 3
            }
        }
        return AABB(min: lo, max: hi)
    }
}
