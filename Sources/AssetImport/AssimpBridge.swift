import CAssimp
import SpatialModel

// Small, total conversions from assimp's C structs to Swift values. Nothing here keeps a
// pointer past the call; every count is checked before a pointer is dereferenced.

/// An assimp `aiString` as a Swift string (invalid UTF-8 is repaired, length is clamped).
func swiftString(_ s: aiString) -> String {
    let n = Int(min(s.length, 1023))
    return withUnsafeBytes(of: s.data) { raw in
        String(decoding: raw.prefix(n), as: UTF8.self)
    }
}

/// assimp's row-major `aiMatrix4x4` (a1…a4 is the first row) as a column-major `Mat4`.
func mat4(_ a: aiMatrix4x4) -> Mat4 {
    let f: [Float] = [
        a.a1, a.b1, a.c1, a.d1,
        a.a2, a.b2, a.c2, a.d2,
        a.a3, a.b3, a.c3, a.d3,
        a.a4, a.b4, a.c4, a.d4,
    ]
    return Mat4(columnMajor: f.map(Double.init))
}

/// A metadata value as assimp stores it (glTF `extras`, FBX global settings, source info).
indirect enum MetaValue {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case vector(Vec3)
    case table([(key: String, value: MetaValue)])

    var number: Double? {
        switch self {
        case .int(let v): Double(v)
        case .uint(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    subscript(key: String) -> MetaValue? {
        if case .table(let entries) = self { entries.first { $0.key == key }?.value } else { nil }
    }
    /// A short rendering for messages.
    var display: String {
        switch self {
        case .bool(let b): String(b)
        case .int(let v): String(v)
        case .uint(let v): String(v)
        case .double(let v): String(v)
        case .string(let s): "\"\(s)\""
        case .vector(let v): "[\(v.x), \(v.y), \(v.z)]"
        case .table: "{…}"
        }
    }
}

/// Reads an `aiMetadata` block into key/value pairs (nested blocks up to `depth` levels).
func readMetadata(_ meta: UnsafePointer<aiMetadata>?, depth: Int = 0) -> [(key: String, value: MetaValue)] {
    guard let meta, depth < 16 else { return [] }
    let md = meta.pointee
    let n = Int(md.mNumProperties)
    guard n > 0, n < 1_000_000, let keys = md.mKeys, let values = md.mValues else { return [] }
    var out: [(key: String, value: MetaValue)] = []
    out.reserveCapacity(n)
    for i in 0..<n {
        let key = swiftString(keys[i])
        let entry = values[i]
        guard let data = entry.mData else { continue }
        let value: MetaValue?
        switch entry.mType {
        case AI_BOOL: value = .bool(data.load(as: UInt8.self) != 0)
        case AI_INT32: value = .int(Int64(data.load(as: Int32.self)))
        case AI_UINT64: value = .uint(data.load(as: UInt64.self))
        case AI_FLOAT: value = .double(Double(data.load(as: Float.self)))
        case AI_DOUBLE: value = .double(data.load(as: Double.self))
        case AI_AISTRING: value = .string(swiftString(data.load(as: aiString.self)))
        case AI_AIVECTOR3D:
            let v = data.load(as: aiVector3D.self)
            value = .vector(Vec3(Double(v.x), Double(v.y), Double(v.z)))
        case AI_AIMETADATA:
            value = .table(readMetadata(data.assumingMemoryBound(to: aiMetadata.self), depth: depth + 1))
        default:
            if entry.mType.rawValue == 8 { // AI_INT64 in newer headers; not present in 5.2's enum
                value = .int(data.load(as: Int64.self))
            } else if entry.mType.rawValue == 9 { // AI_UINT32
                value = .uint(UInt64(data.load(as: UInt32.self)))
            } else {
                value = nil
            }
        }
        if let value { out.append((key, value)) }
    }
    return out
}
