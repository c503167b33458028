import Foundation
import SpatialModel

// A compact, versioned, bounded binary encoding of `ImportedAsset` (and of a `Diagnostic`), used to
// carry an import result from the isolated worker process back to the parent.
//
// Layout (all integers and floats little-endian):
//
//     magic "SCAI" | version u16 | kind u8 (1 asset, 2 diagnostic) | reserved u8 (0)
//     payload length u64 | payload CRC-32 u32 | payload
//
// Asset payload (version 3): path, resolved path, format; the vertex table (a count, then each
// distinct vertex array once, as a float array); the nodes, each naming its vertex array by table
// index (u32, 0xFFFFFFFF for none); clips; unit scale and note; warnings; the axis conversion (an
// optional 4×4 matrix, 16 Doubles column-major) and its note. (Version 2 was the vertex table
// alone or the axis conversion alone, on two lines of work; 3 is both.) Nodes whose vertices are
// equal (the same mesh instanced by many nodes, or many meshes built from one glTF accessor) share
// one table entry, and after decoding they share one array's storage: the parent process holds
// each distinct vertex array once, however many nodes use it.
//
// Payload primitives: strings are a u32 byte count + UTF-8; arrays a u32 element count + elements;
// optionals a u8 tag (0 none, 1 some) + value; optional Bools one u8 (0 none, 1 false, 2 true);
// Ints are i64; Floats and Doubles their IEEE bit patterns (so every value, -0 and infinities
// included, round-trips exactly). Decoding never trusts a length: a count is checked against the
// bytes that remain (times the element's minimum size) before anything is allocated, every
// structural index (parents, subtree ends, channel targets) is range-checked, and trailing bytes
// are an error. Garbage throws a `Diagnostic`; it never traps.

/// The binary asset codec's constants and the error-record entry points.
public enum AssetCodec {
    /// "SCAI": spatialcheck asset import.
    public static let magic: [UInt8] = [0x53, 0x43, 0x41, 0x49]
    public static let version: UInt16 = 3
    static let headerSize = 4 + 2 + 1 + 1 + 8 + 4
    /// No single string (a name, a message) is longer than this.
    public static let maxStringBytes = 16 * 1024 * 1024
    /// No payload is longer than this (a guard against a corrupt length field).
    public static let maxPayloadBytes = 4 * 1024 * 1024 * 1024

    enum Kind: UInt8 { case asset = 1, diagnostic = 2 }

    /// A decoded record: an imported asset or the diagnostic the import produced.
    public enum Record: Sendable {
        case asset(ImportedAsset)
        case diagnostic(Diagnostic)
    }

    /// Encodes a diagnostic as an error record.
    public static func encode(_ diagnostic: Diagnostic) -> [UInt8] {
        var w = ByteWriter()
        w.diagnostic(diagnostic)
        return frame(kind: .diagnostic, payload: w.bytes)
    }

    /// Decodes either record kind. `file` names the data in the codec's own errors.
    public static func decodeRecord(_ bytes: [UInt8], file: String = "(encoded import result)") throws(Diagnostic) -> Record {
        let (kind, payload) = try unframe(bytes, file: file)
        var r = ByteReader(bytes: payload, file: file)
        let record: Record
        switch kind {
        case .asset: record = .asset(try r.asset())
        case .diagnostic: record = .diagnostic(try r.diagnostic())
        }
        try r.expectEnd()
        return record
    }

    static func frame(kind: Kind, payload: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.bytes.reserveCapacity(headerSize + payload.count)
        w.bytes += magic
        w.u16(version)
        w.u8(kind.rawValue)
        w.u8(0)
        w.u64(UInt64(payload.count))
        w.u32(crc32(payload[...]))
        w.bytes += payload
        return w.bytes
    }

    static func unframe(_ bytes: [UInt8], file: String) throws(Diagnostic) -> (Kind, ArraySlice<UInt8>) {
        func bad(_ what: String) -> Diagnostic {
            Diagnostic(file: file, message: "invalid encoded import result: \(what)",
                       hint: "the importer worker and this spatialcheck must be the same build")
        }
        guard bytes.count >= headerSize else { throw bad("\(bytes.count) bytes, shorter than the \(headerSize)-byte header") }
        guard Array(bytes[0..<4]) == magic else { throw bad("wrong magic") }
        var r = ByteReader(bytes: bytes[4..<headerSize], file: file)
        let version = try r.u16()
        guard version == Self.version else { throw bad("codec version \(version), expected \(Self.version)") }
        guard let kind = Kind(rawValue: try r.u8()) else { throw bad("unknown record kind") }
        guard try r.u8() == 0 else { throw bad("reserved header byte is not zero") }
        let length = try r.u64()
        let checksum = try r.u32()
        guard length <= UInt64(maxPayloadBytes), length == UInt64(bytes.count - headerSize) else {
            throw bad("payload length \(length) does not match the \(bytes.count - headerSize) bytes present (truncated?)")
        }
        let payload = bytes[headerSize...]
        guard crc32(payload) == checksum else { throw bad("checksum mismatch (corrupted data)") }
        return (kind, payload)
    }

    /// The whole record's size as its header declares it, from the first `headerSize` bytes; nil
    /// when they are not a header of this codec.
    static func declaredRecordSize(_ head: [UInt8]) -> Int? {
        guard head.count >= headerSize, Array(head[0..<4]) == magic else { return nil }
        var length: UInt64 = 0
        for i in 0..<8 { length |= UInt64(head[8 + i]) << (8 * UInt64(i)) }
        guard length <= UInt64(maxPayloadBytes) else { return nil }
        return headerSize + Int(length)
    }

    static let crcTable: [UInt32] = (0..<256).map { (i: Int) -> UInt32 in
        var c = UInt32(i)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// CRC-32 (IEEE 802.3, as zlib).
    static func crc32(_ data: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            data.withUnsafeBufferPointer { buffer in
                for b in buffer { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
            }
        }
        return c ^ 0xFFFF_FFFF
    }
}

extension ImportedAsset {
    /// The asset in the codec's binary form (see `AssetCodec`).
    public func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.asset(self)
        return AssetCodec.frame(kind: .asset, payload: w.bytes)
    }

    /// Decodes `encoded()` output; anything else throws a `Diagnostic` (never traps).
    public static func decode(_ bytes: [UInt8]) throws(Diagnostic) -> ImportedAsset {
        switch try AssetCodec.decodeRecord(bytes) {
        case .asset(let asset): return asset
        case .diagnostic(let d): throw d
        }
    }
}

// MARK: - Writing

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
    mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func count(_ n: Int) { u32(UInt32(clamping: n)) }
    mutating func string(_ s: String) {
        var utf8 = Array(s.utf8)
        if utf8.count > AssetCodec.maxStringBytes {
            // Cut on a scalar boundary so the result is still valid UTF-8.
            var end = AssetCodec.maxStringBytes
            while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
            utf8.removeSubrange(end...)
        }
        count(utf8.count)
        bytes += utf8
    }
    mutating func optionalBool(_ b: Bool?) { u8(b.map { $0 ? 2 : 1 } ?? 0) }
    mutating func optionalDouble(_ v: Double?) {
        if let v { u8(1); f64(v) } else { u8(0) }
    }
    mutating func optionalString(_ s: String?) {
        if let s { u8(1); string(s) } else { u8(0) }
    }
    mutating func vec3(_ v: Vec3) { f64(v.x); f64(v.y); f64(v.z) }
    mutating func quat(_ q: Quat) { f64(q.x); f64(q.y); f64(q.z); f64(q.w) }
    mutating func floats(_ values: [Float]) {
        count(values.count)
        #if _endian(little)
        values.withUnsafeBytes { bytes += $0 }
        #else
        for v in values { u32(v.bitPattern) }
        #endif
    }

    mutating func asset(_ a: ImportedAsset) {
        string(a.path); string(a.resolvedPath); string(a.format)
        let (table, refs) = Self.vertexTable(a.nodes)
        bytes.reserveCapacity(table.reduce(0) { $0 + 4 + $1.count * 4 } + a.nodes.count * 320 + 1024)
        count(table.count)
        for v in table { floats(v) }
        count(a.nodes.count)
        for (n, ref) in zip(a.nodes, refs) { node(n, vertexRef: ref) }
        count(a.animations.count)
        for c in a.animations { clip(c) }
        optionalDouble(a.declaredUnitScale)
        string(a.unitNote)
        count(a.warnings.count)
        for w in a.warnings { string(w) }
        if let m = a.axisConversion { u8(1); for i in 0..<16 { f64(m.values[i]) } } else { u8(0) }
        string(a.axisNote)
    }

    static let noVertices = UInt32.max

    /// The distinct vertex arrays of `nodes` (equal contents stored once) and each node's index
    /// into them.
    static func vertexTable(_ nodes: [AssetNode]) -> (table: [[Float]], refs: [UInt32]) {
        var pool = VertexPool()
        var refs: [UInt32] = []
        refs.reserveCapacity(nodes.count)
        for n in nodes {
            refs.append(n.vertices.isEmpty ? noVertices : UInt32(pool.index(of: n.vertices)))
        }
        return (pool.arrays, refs)
    }
}

/// Distinct vertex arrays by content (bit for bit): arrays that already share storage are
/// recognised without comparing, others by a hash and then `memcmp`.
struct VertexPool {
    private(set) var arrays: [[Float]] = []
    private var byStorage: [UnsafeRawPointer: Int] = [:]
    private var byContent: [Int: [Int]] = [:]

    /// The index of `vertices` among the distinct arrays, adding it when it is new.
    mutating func index(of vertices: [Float]) -> Int {
        let (base, digest) = vertices.withUnsafeBytes { raw -> (UnsafeRawPointer?, Int) in
            var h = Hasher()
            h.combine(bytes: raw)
            return (raw.baseAddress, h.finalize())
        }
        if let base, let k = byStorage[base], arrays[k].count == vertices.count { return k }
        if let k = byContent[digest]?.first(where: { ByteWriter.sameBits(arrays[$0], vertices) }) { return k }
        let k = arrays.count
        arrays.append(vertices)
        byContent[digest, default: []].append(k)
        if let base { byStorage[base] = k }
        return k
    }

    /// `vertices`, or the equal array already in the pool (sharing its storage).
    mutating func intern(_ vertices: [Float]) -> [Float] {
        vertices.isEmpty ? vertices : arrays[index(of: vertices)]
    }
}

extension ByteWriter {
    /// Bitwise equality (so -0 and 0, or two NaN payloads, are not merged).
    static func sameBits(_ a: [Float], _ b: [Float]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    mutating func node(_ n: AssetNode, vertexRef: UInt32) {
        string(n.name)
        if let p = n.parent { u8(1); int(p) } else { u8(0) }
        int(n.subtreeEnd)
        for i in 0..<16 { f64(n.local.values[i]) }
        if let t = n.localTRS { u8(1); vec3(t.translation); quat(t.rotation); vec3(t.scale) } else { u8(0) }
        vec3(n.meshBounds.min); vec3(n.meshBounds.max)
        u32(vertexRef)
        int(n.triangles)
        if let m = n.marking {
            u8(1)
            string(m.role.rawValue)
            optionalBool(m.interactive)
            optionalBool(m.primary)
            optionalDouble(m.fontSize)
            string(m.source.rawValue)
        } else {
            u8(0)
        }
    }

    mutating func clip(_ c: AssetClip) {
        string(c.name)
        f64(c.duration)
        count(c.channels.count)
        for ch in c.channels {
            int(ch.node)
            count(ch.positions.count)
            for k in ch.positions { f64(k.time); vec3(k.value) }
            count(ch.rotations.count)
            for k in ch.rotations { f64(k.time); quat(k.value) }
            count(ch.scales.count)
            for k in ch.scales { f64(k.time); vec3(k.value) }
        }
    }

    mutating func diagnostic(_ d: Diagnostic) {
        string(d.severity.rawValue)
        string(d.file)
        if let l = d.location { u8(1); int(l.line); int(l.column) } else { u8(0) }
        string(d.message)
        optionalString(d.hint)
    }
}

// MARK: - Reading

struct ByteReader {
    let bytes: ArraySlice<UInt8>
    var offset: Int
    let file: String

    init(bytes: ArraySlice<UInt8>, file: String) {
        self.bytes = bytes; self.offset = bytes.startIndex; self.file = file
    }

    var remaining: Int { bytes.endIndex - offset }

    func bad(_ what: String) -> Diagnostic {
        Diagnostic(file: file, message: "invalid encoded import result: \(what) (at byte \(offset - bytes.startIndex + AssetCodec.headerSize))",
                   hint: "the importer worker and this spatialcheck must be the same build")
    }

    mutating func take(_ n: Int) throws(Diagnostic) -> ArraySlice<UInt8> {
        guard n >= 0, n <= remaining else { throw bad("needs \(n) bytes, \(remaining) left (truncated?)") }
        defer { offset += n }
        return bytes[offset..<(offset + n)]
    }

    mutating func u8() throws(Diagnostic) -> UInt8 {
        guard remaining >= 1 else { throw bad("unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func le<T: FixedWidthInteger>(_: T.Type) throws(Diagnostic) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw bad("unexpected end of data") }
        var v: T = 0
        for i in 0..<size { v |= T(truncatingIfNeeded: bytes[offset + i]) << (8 * i) }
        offset += size
        return v
    }
    mutating func u16() throws(Diagnostic) -> UInt16 { try le(UInt16.self) }
    mutating func u32() throws(Diagnostic) -> UInt32 { try le(UInt32.self) }
    mutating func u64() throws(Diagnostic) -> UInt64 { try le(UInt64.self) }
    mutating func f64() throws(Diagnostic) -> Double { Double(bitPattern: try u64()) }
    mutating func int() throws(Diagnostic) -> Int {
        let v = Int64(bitPattern: try u64())
        guard let i = Int(exactly: v) else { throw bad("integer out of range") }
        return i
    }
    /// An element count, checked against the bytes left given each element's minimum encoded size.
    mutating func count(minElementSize: Int, limit: Int = Int(UInt32.max)) throws(Diagnostic) -> Int {
        let n = Int(try u32())
        guard n <= limit else { throw bad("count \(n) exceeds the limit of \(limit)") }
        guard n <= remaining / max(minElementSize, 1) else {
            throw bad("count \(n) needs at least \(n * minElementSize) bytes, \(remaining) left")
        }
        return n
    }
    mutating func string() throws(Diagnostic) -> String {
        let n = try count(minElementSize: 1, limit: AssetCodec.maxStringBytes)
        let raw = try take(n)
        guard let s = String(validating: raw, as: UTF8.self) else { throw bad("string is not valid UTF-8") }
        return s
    }
    mutating func flag() throws(Diagnostic) -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let t: throw bad("invalid optional tag \(t)")
        }
    }
    mutating func optionalBool() throws(Diagnostic) -> Bool? {
        switch try u8() {
        case 0: return nil
        case 1: return false
        case 2: return true
        case let t: throw bad("invalid optional Bool \(t)")
        }
    }
    mutating func optionalDouble() throws(Diagnostic) -> Double? { try flag() ? try f64() : nil }
    mutating func optionalString() throws(Diagnostic) -> String? { try flag() ? try string() : nil }
    mutating func vec3() throws(Diagnostic) -> Vec3 { Vec3(try f64(), try f64(), try f64()) }
    mutating func quat() throws(Diagnostic) -> Quat { Quat(x: try f64(), y: try f64(), z: try f64(), w: try f64()) }
    mutating func floats() throws(Diagnostic) -> [Float] {
        let n = try count(minElementSize: 4)
        let raw = try take(n * 4)
        var out = [Float](repeating: 0, count: n)
        out.withUnsafeMutableBytes { dst in
            raw.withUnsafeBytes { src in dst.copyMemory(from: src) }
        }
        #if !_endian(little)
        for i in out.indices { out[i] = Float(bitPattern: UInt32(littleEndian: out[i].bitPattern)) }
        #endif
        return out
    }
    mutating func expectEnd() throws(Diagnostic) {
        guard remaining == 0 else { throw bad("\(remaining) unexpected trailing bytes") }
    }

    // Minimum encoded sizes, for count checks.
    static let minNode = 4 + 1 + 8 + 128 + 1 + 48 + 4 + 8 + 1
    static let minClip = 4 + 8 + 4
    static let minChannel = 8 + 4 + 4 + 4

    mutating func asset() throws(Diagnostic) -> ImportedAsset {
        let path = try string(), resolvedPath = try string(), format = try string()
        let tableCount = try count(minElementSize: 4, limit: AssetImporter.maxNodeCount)
        var table: [[Float]] = []
        table.reserveCapacity(tableCount)
        for k in 0..<tableCount {
            let v = try floats()
            guard v.count % 3 == 0 else { throw bad("vertex array \(k) has \(v.count) coordinates, not a multiple of 3") }
            table.append(v)
        }
        let nodeCount = try count(minElementSize: Self.minNode, limit: AssetImporter.maxNodeCount)
        var nodes: [AssetNode] = []
        nodes.reserveCapacity(nodeCount)
        for i in 0..<nodeCount { nodes.append(try node(index: i, count: nodeCount, vertexTable: table)) }
        let clipCount = try count(minElementSize: Self.minClip)
        var clips: [AssetClip] = []
        clips.reserveCapacity(clipCount)
        for _ in 0..<clipCount { clips.append(try clip(nodeCount: nodeCount)) }
        let unitScale = try optionalDouble()
        let unitNote = try string()
        let warningCount = try count(minElementSize: 4)
        var warnings: [String] = []
        warnings.reserveCapacity(warningCount)
        for _ in 0..<warningCount { warnings.append(try string()) }
        var axisConversion: Mat4?
        if try flag() {
            var m = [Double](repeating: 0, count: 16)
            for i in 0..<16 { m[i] = try f64() }
            axisConversion = Mat4(columnMajor: m)
        }
        let axisNote = try string()
        return ImportedAsset(path: path, resolvedPath: resolvedPath, format: format, nodes: nodes,
                             animations: clips, declaredUnitScale: unitScale, unitNote: unitNote,
                             warnings: warnings, axisConversion: axisConversion, axisNote: axisNote)
    }

    mutating func node(index: Int, count nodeCount: Int, vertexTable: [[Float]]) throws(Diagnostic) -> AssetNode {
        let name = try string()
        var parent: Int?
        if try flag() {
            let p = try int()
            guard p >= 0, p < index else { throw bad("node \(index) has parent \(p), expected an earlier node") }
            parent = p
        }
        let subtreeEnd = try int()
        guard subtreeEnd > index, subtreeEnd <= nodeCount else {
            throw bad("node \(index) has subtree end \(subtreeEnd), outside \(index + 1)...\(nodeCount)")
        }
        var m: [Double] = []
        m.reserveCapacity(16)
        for _ in 0..<16 { m.append(try f64()) }
        var trs: Transform?
        if try flag() { trs = Transform(translation: try vec3(), rotation: try quat(), scale: try vec3()) }
        let bounds = AABB(min: try vec3(), max: try vec3())
        let ref = try u32()
        var vertices: [Float] = []
        if ref != ByteWriter.noVertices {
            guard Int(ref) < vertexTable.count else { throw bad("node \(index) uses vertex array \(ref) of \(vertexTable.count)") }
            vertices = vertexTable[Int(ref)]  // shares the table entry's storage
        }
        let triangles = try int()
        guard triangles >= 0 else { throw bad("node \(index) has a negative triangle count") }
        var marking: AssetMarking?
        if try flag() {
            let roleName = try string()
            guard let role = ElementRole(rawValue: roleName) else { throw bad("unknown role '\(roleName)'") }
            let interactive = try optionalBool(), primary = try optionalBool(), fontSize = try optionalDouble()
            let sourceName = try string()
            guard let source = AssetMarking.Source(rawValue: sourceName) else { throw bad("unknown marking source '\(sourceName)'") }
            marking = AssetMarking(role: role, interactive: interactive, primary: primary, fontSize: fontSize, source: source)
        }
        return AssetNode(name: name, parent: parent, subtreeEnd: subtreeEnd, local: Mat4(columnMajor: m),
                         localTRS: trs, meshBounds: bounds, vertices: vertices, triangles: triangles,
                         marking: marking)
    }

    mutating func clip(nodeCount: Int) throws(Diagnostic) -> AssetClip {
        let name = try string()
        let duration = try f64()
        let channelCount = try count(minElementSize: Self.minChannel)
        var channels: [NodeChannel] = []
        channels.reserveCapacity(channelCount)
        for _ in 0..<channelCount {
            let node = try int()
            guard node >= 0, node < nodeCount else { throw bad("animation '\(name)' targets node \(node) of \(nodeCount)") }
            var ch = NodeChannel(node: node)
            let np = try count(minElementSize: 32)
            ch.positions.reserveCapacity(np)
            for _ in 0..<np { ch.positions.append(Key(time: try f64(), value: try vec3())) }
            let nr = try count(minElementSize: 40)
            ch.rotations.reserveCapacity(nr)
            for _ in 0..<nr { ch.rotations.append(Key(time: try f64(), value: try quat())) }
            let ns = try count(minElementSize: 32)
            ch.scales.reserveCapacity(ns)
            for _ in 0..<ns { ch.scales.append(Key(time: try f64(), value: try vec3())) }
            channels.append(ch)
        }
        return AssetClip(name: name, duration: duration, channels: channels)
    }

    mutating func diagnostic() throws(Diagnostic) -> Diagnostic {
        let severityName = try string()
        guard let severity = Diagnostic.Severity(rawValue: severityName) else { throw bad("unknown severity '\(severityName)'") }
        let file = try string()
        var location: SourceLocation?
        if try flag() { location = SourceLocation(line: try int(), column: try int()) }
        let message = try string()
        let hint = try optionalString()
        return Diagnostic(severity, file: file, location: location, message: message, hint: hint)
    }
}
