import Foundation

/// assimp 5.2 silently drops glTF triangles whose indices point past the vertex array. This
/// compares the triangles a glTF/GLB declares (from the JSON alone) with the triangles assimp
/// produced, and words a warning when some went missing. Both checks work on one `GLTFFacts`,
/// read once per import.
enum GLTFIndexCheck {
    /// A warning, or nil when counts agree or the JSON could not be read (`facts` nil).
    ///
    /// assimp loads glTF meshes lazily (in the order nodes reference them, unreferenced ones not
    /// at all) and makes one aiMesh per primitive, so the comparison is of totals: triangles
    /// declared by the distinct meshes reachable from the default scene versus triangles in all
    /// imported meshes (each counted once, not per instance).
    static func droppedTriangleWarning(facts: GLTFFacts?, importedTriangles: [Int]) -> String? {
        guard let facts, let meshes = facts.meshes, let accessors = facts.accessorCounts,
              let nodes = facts.nodes, let scenes = facts.scenes else { return nil }
        let sceneIndex = facts.scene ?? 0
        guard scenes.indices.contains(sceneIndex) else { return nil }

        // Distinct meshes reachable from the default scene (cycle-safe).
        var usedMeshes = Set<Int>()
        var visited = Set<Int>()
        var stack = scenes[sceneIndex] ?? []
        while let n = stack.popLast() {
            guard nodes.indices.contains(n), visited.insert(n).inserted else { continue }
            if let m = nodes[n].mesh { usedMeshes.insert(m) }
            stack += nodes[n].children ?? []
        }

        var declared = 0
        for m in usedMeshes {
            guard meshes.indices.contains(m) else { return nil }
            for prim in meshes[m] ?? [] {
                let mode = prim.mode ?? 4
                var count: Int?
                if let idx = prim.indices, accessors.indices.contains(idx) {
                    count = accessors[idx]
                } else if let pos = prim.position, accessors.indices.contains(pos) {
                    count = accessors[pos]
                }
                guard let count, count >= 0 else { return nil }
                switch mode {
                case 4: declared += count / 3
                case 5, 6: declared += max(0, count - 2)
                default: break
                }
            }
        }
        let imported = importedTriangles.reduce(0, +)
        guard imported < declared else { return nil }
        return "\(declared - imported) of \(declared) triangle(s) declared in the file were dropped by the importer (index out of range or degenerate primitive); validate the file with the Khronos glTF-Validator"
    }

    /// glTF requires the nodes to form disjoint trees; assimp 5.2 does not check. A true cycle
    /// (a chain of parents that comes back to its start) is an error: the import would loop or
    /// be cut at an arbitrary point. A node with two parents, or a scene root that is also a child,
    /// is imported once per parent, as other tools do (it shows up in real exports, such as
    /// Kenney's ships), so it is a warning.
    static func hierarchyProblems(facts: GLTFFacts?) -> (error: String?, warning: String?) {
        guard let facts, let nodes = facts.nodes else { return (nil, nil) }
        var parent = [Int?](repeating: nil, count: nodes.count)
        var warning: String?
        for (i, node) in nodes.enumerated() {
            for c in node.children ?? [] {
                guard nodes.indices.contains(c) else { return ("node \(i) lists child \(c), which does not exist", nil) }
                if c == i { return ("node \(i) lists itself as its child", nil) }
                if let p = parent[c] {
                    warning = warning ?? "node \(c) is the child of both node \(p) and node \(i) (glTF requires one parent); it is imported once under each"
                    continue
                }
                parent[c] = i
            }
        }
        let sceneIndex = facts.scene ?? 0
        if let scenes = facts.scenes, scenes.indices.contains(sceneIndex) {
            let roots = (scenes[sceneIndex] ?? []).filter { nodes.indices.contains($0) }
            // Nodes below the roots (a parent outside the scene, as in some exporters' wrappers, is harmless).
            var below = Set<Int>(), stack = roots.flatMap { nodes[$0].children ?? [] }
            while let n = stack.popLast() {
                guard nodes.indices.contains(n), below.insert(n).inserted else { continue }
                stack += nodes[n].children ?? []
            }
            for r in roots where below.contains(r) {
                if let p = parent[r] {
                    warning = warning ?? "node \(r) is a root of the scene and also the child of node \(p) (glTF requires roots to have no parent); it is imported at both places"
                }
            }
        }
        for start in nodes.indices {
            var n = parent[start], steps = 0
            while let p = n, steps <= nodes.count {
                if p == start { return ("the node hierarchy has a cycle through node \(start)", warning) }
                n = parent[p]; steps += 1
            }
        }
        return (nil, warning)
    }
}
