import SpatialModel

/// Turns what a USD prim says about itself (`USDNodeFacts`, from its RealityKit components) into
/// the facts the scene loader and the rules use for every asset (`NodeFacts`), which scene-file
/// annotations may then override (docs/scene-format.md, "Annotations" and "USD").
enum USDFactBridge {
    /// Fills `facts` of every node that has USD facts. `nodes` are in parent-before-child order
    /// with local transforms in metres (the stage's units and up axis already applied at the root),
    /// so composing them gives each node's scale in the asset, which converts a `Collider`'s extent
    /// and pose (authored in the prim's own units) to metres.
    static func fillNodeFacts(_ nodes: inout [AssetNode]) {
        var world: [Mat4] = []
        world.reserveCapacity(nodes.count)
        for i in nodes.indices {
            let parent = nodes[i].parent.flatMap { $0 < world.count ? world[$0] : nil } ?? .identity
            world.append(parent * nodes[i].local)
            guard let u = nodes[i].usd else { continue }
            nodes[i].facts = facts(u, scale: columnLengths(world[i]))
        }
    }

    /// Notes for prims RealityKit cannot deliver input to as the file stands: an enabled
    /// `InputTarget` applies to its prim and the prims below it, and each of those needs a
    /// collision shape of its own; a prim with an InputTarget and no `Collider` on it or below it
    /// gets no input unless the app adds collision shapes in code (`generateCollisionShapes`).
    /// At most `limit` prims are named, then how many more.
    static func inputNotes(_ nodes: [AssetNode], limit: Int = 5) -> [String] {
        // Whether a Collider is on each node or below it, children to parents (nodes are in
        // parent-before-child order): one pass, however deep the hierarchy.
        var collides = nodes.map { n in n.usd?.components.contains { $0.id == "RealityKit.Collider" } ?? false }
        for i in nodes.indices.reversed() where collides[i] {
            if let p = nodes[i].parent, p >= 0, p < i { collides[p] = true }
        }
        var named: [String] = []
        var more = 0
        for i in nodes.indices where nodes[i].usd?.interactive == true && !collides[i] {
            if named.count < limit { named.append(nodes[i].usd?.primPath ?? nodes[i].name) } else { more += 1 }
        }
        guard !named.isEmpty else { return [] }
        let list = named.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "")
        let one = named.count + more == 1
        return ["\(list) \(one ? "has" : "have") an InputTarget but no Collider on \(one ? "it" : "them") or below: RealityKit delivers input only to prims with a collision shape, so unless the app adds one in code (generateCollisionShapes), \(one ? "it gets" : "they get") no input; \(one ? "it is" : "they are") measured by \(one ? "its" : "their") mesh bounds (add a Collider component in Reality Composer Pro)"]
    }

    static func facts(_ u: USDNodeFacts, scale: Vec3) -> NodeFacts {
        var f = NodeFacts()
        f.interactive = u.interactive
        if u.interactive == true {
            switch (u.allowsDirectInput, u.allowsIndirectInput) {
            case (true?, false?): f.interaction = .direct
            case (false?, true?): f.interaction = .indirect
            case (true?, true?): f.interaction = .both
            default: break  // RCP writes nothing for "All": both kinds, but say nothing not authored
            }
        }
        if let h = u.hitRegion {
            let s = Vec3(h.size.x * scale.x, h.size.y * scale.y, h.size.z * scale.z)
            let c = Vec3(h.pose.translation.x * scale.x, h.pose.translation.y * scale.y, h.pose.translation.z * scale.z)
            let kind: HitShape.Kind
            switch h.shape {
            case .box: kind = .box(size: s)
            case .sphere: kind = .sphere(radius: max(s.x, s.y, s.z) / 2)
            case .capsule: kind = .capsule(radius: max(s.x, s.z) / 2, height: s.y)
            }
            f.hitRegion = .shape(HitShape(kind, center: c, origin: .node))
        }
        switch u.anchor {
        case .head?: f.anchor = .head
        case .hand?: f.anchor = .hand
        case .plane?: f.anchor = .world; f.arkitAnchor = .plane  // placed by ARKit, then fixed in the room
        case .object?: f.anchor = .world; f.arkitAnchor = .object
        case nil: break
        default: f.anchor = .world  // image, world transform, …: fixed in the room
        }
        f.accessibilityLabel = u.accessibilityLabel
        return f
    }

    /// Lengths of the first three columns: the scale along each local axis.
    static func columnLengths(_ m: Mat4) -> Vec3 {
        func len(_ c: Int) -> Double {
            let x = m[0, c], y = m[1, c], z = m[2, c]
            return (x * x + y * y + z * z).squareRoot()
        }
        return Vec3(len(0), len(1), len(2))
    }
}
