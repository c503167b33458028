import SpatialModel

/// How a scale above text changes its size. `scale` is ordinary TRS (docs/scene-format.md): it
/// scales the geometry of the entity and of everything nested under it, so the em height of its
/// text too. A text's world em height is its stated em (`fontSize` × metres per point, or
/// `textHeight`) times its *text scale*: the length of its node's local +Y axis in world space
/// (its own scale and every ancestor's, animated ones included), divided, for a node of an
/// asset, by the asset's unit scale (a marked `fontSize` is in points, not in the asset's units).
///
/// The text scale is exactly 1 for an entity with no scale other than 1 on the path from its node
/// to the root, at rest or animated (`scaled` false): such text keeps the em it states bit for bit.
public struct TextScale: Sendable {
    /// Per entity: whether some node from its own up to the root has a scale other than 1 (at rest
    /// or in an animation that plays), an asset's unit scale aside.
    public let scaled: [Bool]
    /// Per entity: what the length of its node's world +Y axis is divided by (the unit scale of
    /// the asset its node belongs to), else 1.
    public let divisor: [Double]

    public init(scene: Scene) {
        let nodes = scene.nodes, ents = scene.entities
        // Nodes with an animated scale other than 1 (a keyframe that omits the scale still gives a
        // key, of the static value: keys of 1 on a node at rest scale 1 scale nothing).
        var animated = [Bool](repeating: false, count: nodes.count)
        for anim in scene.animations where scene.plays(anim) {
            for ch in anim.channels where ch.node >= 0 && ch.node < nodes.count && ch.scales.contains(where: { $0.value != .one }) {
                animated[ch.node] = true
            }
        }
        // Asset roots: the node a model's asset hangs from carries the asset's unit scale.
        var unitScale = [Double](repeating: 0, count: nodes.count)
        for m in ents.indices {
            guard let u = ents[m].asset?.unitScale, u > 0, u.isFinite else { continue }
            let mn = ents[m].node
            guard mn >= 0, mn < nodes.count else { continue }
            let end = min(max(nodes[mn].subtreeEnd, mn + 1), nodes.count)
            for n in (mn + 1)..<end where nodes[n].parent == mn && nodes[n].entity == m {
                unitScale[n] = u
                break
            }
        }
        // Nodes are in pre-order (a parent before its children).
        var nodeScaled = [Bool](repeating: false, count: nodes.count)
        var nodeDivisor = [Double](repeating: 1, count: nodes.count)
        for n in nodes.indices {
            let p = nodes[n].parent.flatMap { $0 >= 0 && $0 < n ? $0 : nil }
            let own: Bool
            if unitScale[n] > 0 {
                own = animated[n] || nodes[n].restTRS.scale != Vec3(repeating: unitScale[n])
                nodeDivisor[n] = unitScale[n]
            } else {
                own = animated[n] || nodes[n].restTRS.scale != .one
                nodeDivisor[n] = p.map { nodeDivisor[$0] } ?? 1
            }
            nodeScaled[n] = own || (p.map { nodeScaled[$0] } ?? false)
        }
        scaled = ents.map { $0.node >= 0 && $0.node < nodes.count && nodeScaled[$0.node] }
        divisor = ents.map { $0.node >= 0 && $0.node < nodes.count ? nodeDivisor[$0.node] : 1 }
    }

    /// Entity `e`'s text scale at rest (no animation applied): from the rest transforms of its
    /// node and its ancestors (exactly 1 when no scale lies above it). For rules that judge a
    /// scene once, not per frame.
    public func restScale(of e: Int, in scene: Scene) -> Double {
        guard e >= 0, e < scaled.count, scaled[e] else { return 1 }
        let nodes = scene.nodes
        var path: [Int] = []
        var n: Int? = scene.entities[e].node
        while let k = n, k >= 0, k < nodes.count, path.count <= nodes.count {
            path.append(k)
            n = nodes[k].parent.flatMap { $0 < k ? $0 : nil }
        }
        var m = Mat4.identity
        for k in path.reversed() { m = m * (nodes[k].rest.isFinite ? nodes[k].rest : .identity) }
        let v = m.values
        return Self.length(v[4], v[5], v[6]) / divisor[e]
    }

    /// The length of column 1 (local +Y) of the column-major 4×4 matrix at `world[offset...]`,
    /// without the underflow or overflow of squaring its components (a text under `scale: 1e-200`
    /// has a length of 1e-200, not 0): 0 when a component is NaN, infinity when one is infinite.
    @inline(__always)
    public static func upLength(_ world: UnsafeBufferPointer<Double>, node: Int) -> Double {
        let o = 16 * node + 4
        guard node >= 0, o + 2 < world.count else { return 1 }
        return length(world[o], world[o + 1], world[o + 2])
    }

    /// |(x, y, z)| scaled by its largest component, so that neither underflow nor overflow.
    public static func length(_ x: Double, _ y: Double, _ z: Double) -> Double {
        if x.isNaN || y.isNaN || z.isNaN { return 0 }
        let m = max(abs(x), abs(y), abs(z))
        guard m > 0, m.isFinite else { return m }
        let a = x / m, b = y / m, c = z / m
        return m * (a * a + b * b + c * c).squareRoot()
    }

    /// The world em height of text whose stated em is `em` under text scale `s`: `em · s`, kept a
    /// positive finite number (a product that underflows to 0 stays the smallest positive double,
    /// so the text is still measured by its em, as 0 pt_eq; one that overflows the largest).
    @inline(__always)
    public static func em(_ em: Double, scale s: Double) -> Double {
        let v = em * s
        if v.isNaN { return .leastNonzeroMagnitude }
        return min(max(v, .leastNonzeroMagnitude), .greatestFiniteMagnitude)
    }
}
