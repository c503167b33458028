import Foundation

/// assimp 5.2 silently drops glTF triangles whose indices point past the vertex array. This
/// compares the triangles a glTF/GLB declares (per primitive, from the JSON alone) with the
/// triangles assimp produced per mesh, and words a warning when some went missing.
enum GLTFIndexCheck {
    /// A warning, or nil when counts agree or the JSON cannot be read cheaply.
    static func droppedTriangleWarning(path: String, importedTriangles: [Int]) -> String? {
        guard let json = readJSON(path: path),
              let meshes = json["meshes"] as? [[String: Any]],
              let accessors = json["accessors"] as? [[String: Any]] else { return nil }
        // assimp makes one aiMesh per primitive, in file order.
        var declared: [Int] = []
        for mesh in meshes {
            for prim in (mesh["primitives"] as? [[String: Any]]) ?? [] {
                let mode = (prim["mode"] as? NSNumber)?.intValue ?? 4
                var count: Int?
                if let idx = (prim["indices"] as? NSNumber)?.intValue, accessors.indices.contains(idx) {
                    count = (accessors[idx]["count"] as? NSNumber)?.intValue
                } else if let attrs = prim["attributes"] as? [String: Any],
                          let pos = (attrs["POSITION"] as? NSNumber)?.intValue, accessors.indices.contains(pos) {
                    count = (accessors[pos]["count"] as? NSNumber)?.intValue
                }
                guard let count else { return nil }
                switch mode {
                case 4: declared.append(count / 3)
                case 5, 6: declared.append(max(0, count - 2))
                default: declared.append(0)
                }
            }
        }
        guard declared.count == importedTriangles.count else { return nil }
        let missing = zip(declared, importedTriangles).reduce(0) { $0 + max(0, $1.0 - $1.1) }
        guard missing > 0 else { return nil }
        let total = declared.reduce(0, +)
        return "\(missing) of \(total) triangle(s) declared in the file were dropped by the importer (index out of range or degenerate primitive); validate the file with the Khronos glTF-Validator"
    }

    private static func readJSON(path: String) -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var jsonData = data
        if data.count >= 20, data.prefix(4) == Data("glTF".utf8) {
            // GLB: 12-byte header, then chunk 0 (length, type "JSON", payload).
            let length = data.subdata(in: 12..<16).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            let type = data.subdata(in: 16..<20)
            guard type == Data("JSON".utf8), Int(length) <= data.count - 20 else { return nil }
            jsonData = data.subdata(in: 20..<(20 + Int(length)))
        }
        return (try? JSONSerialization.jsonObject(with: jsonData)) as? [String: Any]
    }
}
