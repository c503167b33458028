import Foundation

/// The parts of a glTF document that `GLTFIndexCheck` needs, read in one pass over the JSON
/// without building a document tree: the default scene, each scene's root nodes, each node's
/// children and mesh, each mesh's primitives (mode, indices, POSITION) and each accessor's count.
///
/// The reader validates the whole text as JSON the way `JSONSerialization` does (RFC 8259
/// grammar plus a trailing comma before a closing bracket, numbers within Double's range, valid
/// UTF-8 in strings, escapes including surrogate pairs, an optional UTF-8 byte order mark,
/// nothing but whitespace after the top-level value, at most 512 nested containers) and returns
/// nil where it would have failed, so the checks see what they saw when they parsed with
/// Foundation. Values are typed as the checks cast them before: a number or a boolean
/// (`as? NSNumber`, true = 1) gives an integer as `NSNumber.intValue` does (truncated; integers
/// from 2^63 to 2^64 wrap, a double out of Int's range gives Int.min; the one difference: an
/// integer literal below -2^63 or from 2^64 on, an NSDecimalNumber in Foundation, gives Int.min);
/// an array counts only when every element has the expected type (`as? [NSNumber]`,
/// `as? [[String: Any]]`); a repeated key's last value wins.
struct GLTFFacts: Equatable {
    struct Node: Equatable {
        var children: [Int]? = nil // nil: absent or not an array of numbers
        var mesh: Int? = nil
    }
    struct Primitive: Equatable {
        var mode: Int? = nil
        var indices: Int? = nil
        var position: Int? = nil // attributes.POSITION
    }
    /// `scene`, when it is a number.
    var scene: Int? = nil
    /// `scenes` (nil unless an array of objects): each scene's `nodes` (nil when absent or not numbers).
    var scenes: [[Int]?]? = nil
    /// `nodes` (nil unless an array of objects).
    var nodes: [Node]? = nil
    /// `meshes` (nil unless an array of objects): each mesh's `primitives` (nil unless an array of objects).
    var meshes: [[Primitive]?]? = nil
    /// `accessors` (nil unless an array of objects): each accessor's `count`.
    var accessorCounts: [Int?]? = nil

    /// Reads the JSON of the glTF or GLB file at `path` (a GLB's JSON chunk only); nil when the
    /// file cannot be read or is not a JSON object.
    static func read(path: String) -> GLTFFacts? {
        // Non-blocking: a FIFO must not wait for a writer (it is not a regular file: nil).
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { close(fd); return nil }
        return read(file: CheckedFile(fd: fd, size: Int(st.st_size)))
    }

    /// `read(path:)` for a file already open (the asset as `ConfinedFileSystem` opened it): a GLB's
    /// JSON chunk only.
    static func read(file: CheckedFile) -> GLTFFacts? {
        let head = file.bytes(at: 0, count: 20)
        if head.count == 20, head[0..<4].elementsEqual("glTF".utf8) {
            let length = Int(head[12..<16].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            guard head[16..<20].elementsEqual("JSON".utf8), length < 256 * 1024 * 1024 else { return nil }
            let chunk = file.bytes(at: 20, count: length)
            guard chunk.count == length else { return nil }
            return parse(chunk)
        }
        return parse(file.bytes(at: 0, count: file.size))
    }

    /// The facts of one JSON text; nil when it is not valid JSON or not an object.
    static func parse(_ data: Data) -> GLTFFacts? {
        data.withUnsafeBytes { parse(bytes: $0) }
    }

    static func parse(_ bytes: [UInt8]) -> GLTFFacts? {
        bytes.withUnsafeBytes { parse(bytes: $0) }
    }

    private static func parse(bytes raw: UnsafeRawBufferPointer) -> GLTFFacts? {
        var reader = JSONFactReader(raw.bindMemory(to: UInt8.self))
        return reader.document()
    }
}

/// A validating JSON reader over UTF-8 bytes that keeps only the glTF facts (see `GLTFFacts`).
/// Every failure returns nil up to `document()`; nothing traps on malformed input.
private struct JSONFactReader {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0
    /// Open containers, the top-level one included (JSONSerialization allows 512).
    var depth = 0
    static let maxDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) { b = bytes }

    // MARK: document level

    mutating func document() -> GLTFFacts? {
        // JSONSerialization skips a UTF-8 byte order mark.
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        skipWhitespace()
        guard peek() == UInt8(ascii: "{") else { return nil }
        var facts = GLTFFacts()
        let ok = object { reader, key in
            switch key {
            case .scene: facts.scene = reader.integerOrSkip()
            case .scenes: facts.scenes = reader.objects { r in r.scene() }
            case .nodes: facts.nodes = reader.objects { r in r.node() }
            case .meshes: facts.meshes = reader.objects { r in r.mesh() }
            case .accessors: facts.accessorCounts = reader.objects { r in r.accessorCount() }
            default: return reader.skipValue()
            }
            return reader.ok
        }
        guard ok else { return nil }
        skipWhitespace()
        return i == b.count ? facts : nil
    }

    /// Set when a typed reader (integer list, object list) met invalid JSON inside its value.
    var ok = true

    // MARK: glTF objects

    mutating func scene() -> [Int]?? {
        var nodes: [Int]?
        guard object({ r, key in
            if key == .nodes { nodes = r.integers() } else { return r.skipValue() }
            return r.ok
        }) else { return nil }
        return .some(nodes)
    }

    mutating func node() -> GLTFFacts.Node? {
        var node = GLTFFacts.Node()
        guard object({ r, key in
            switch key {
            case .children: node.children = r.integers()
            case .mesh: node.mesh = r.integerOrSkip()
            default: return r.skipValue()
            }
            return r.ok
        }) else { return nil }
        return node
    }

    mutating func mesh() -> [GLTFFacts.Primitive]?? {
        var primitives: [GLTFFacts.Primitive]?
        guard object({ r, key in
            if key == .primitives { primitives = r.objects { r2 in r2.primitive() } } else { return r.skipValue() }
            return r.ok
        }) else { return nil }
        return .some(primitives)
    }

    mutating func primitive() -> GLTFFacts.Primitive? {
        var p = GLTFFacts.Primitive()
        guard object({ r, key in
            switch key {
            case .mode: p.mode = r.integerOrSkip()
            case .indices: p.indices = r.integerOrSkip()
            case .attributes:
                // `attributes as? [String: Any]`, then its POSITION; not an object: no POSITION.
                r.skipWhitespace()
                if r.peek() == UInt8(ascii: "{") {
                    var position: Int?
                    guard r.object({ r2, key2 in
                        if key2 == .POSITION { position = r2.integerOrSkip() } else { return r2.skipValue() }
                        return r2.ok
                    }) else { return false }
                    p.position = position
                } else {
                    p.position = nil
                    return r.skipValue()
                }
            default: return r.skipValue()
            }
            return r.ok
        }) else { return nil }
        return p
    }

    mutating func accessorCount() -> Int?? {
        var count: Int?
        guard object({ r, key in
            if key == .count { count = r.integerOrSkip() } else { return r.skipValue() }
            return r.ok
        }) else { return nil }
        return .some(count)
    }

    // MARK: typed values

    /// An array whose elements are all objects read by `element`, or nil (the value skipped)
    /// when the value is not such an array. Invalid JSON clears `ok`.
    mutating func objects<T>(_ element: (inout JSONFactReader) -> T?) -> [T]? {
        array { r in
            guard r.peek() == UInt8(ascii: "{") else { return .other }
            return element(&r).map { .value($0) } ?? .malformed
        }
    }

    /// An array of numbers or booleans as integers, or nil (the value skipped) otherwise.
    mutating func integers() -> [Int]? {
        array { r in r.scalarInteger().map { .value($0) } ?? .other }
    }

    /// What an array element reader found: a value of the wanted type, another value (left for
    /// the array reader to skip; the array is then not of the wanted type), or invalid JSON.
    enum ArrayItem<T> { case value(T), other, malformed }

    /// An array read element by element with `item`, or nil (the value skipped) when the value is
    /// not an array or an element is not of the wanted type. Invalid JSON clears `ok`.
    private mutating func array<T>(_ item: (inout JSONFactReader) -> ArrayItem<T>) -> [T]? {
        skipWhitespace()
        guard peek() == UInt8(ascii: "[") else {
            if !skipValue() { ok = false }
            return nil
        }
        guard enter() else { ok = false; return nil }
        i += 1
        var out: [T]? = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return out }
        while true {
            skipWhitespace()
            var typed = false
            if out != nil {
                switch item(&self) {
                case .value(let v): out?.append(v); typed = true
                case .other: break
                case .malformed: ok = false; return nil
                }
            }
            if !typed {
                out = nil
                guard skipValue() else { ok = false; return nil }
            }
            skipWhitespace()
            guard let c = next() else { ok = false; return nil }
            if c == UInt8(ascii: ",") {
                // JSONSerialization accepts a trailing comma before the closing bracket.
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return out }
                continue
            }
            guard c == UInt8(ascii: "]") else { ok = false; return nil }
            depth -= 1
            return out
        }
    }

    /// A number or boolean as an integer; any other value is skipped and gives nil.
    mutating func integerOrSkip() -> Int? {
        skipWhitespace()
        if let v = scalarInteger() { return v }
        if !skipValue() { ok = false }
        return nil
    }

    /// Consumes a number or boolean at the cursor and returns its `NSNumber.intValue`; leaves the
    /// cursor alone (nil) for anything else, and for a malformed number.
    mutating func scalarInteger() -> Int? {
        guard let c = peek() else { return nil }
        if c == UInt8(ascii: "t") {
            if literal("true") { return 1 }
            return nil
        }
        if c == UInt8(ascii: "f") {
            if literal("false") { return 0 }
            return nil
        }
        guard c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) else { return nil }
        let start = i
        guard let integral = scanNumber() else { i = start; return nil }
        if integral { // digits only, possibly negative
            let text = UnsafeBufferPointer(rebasing: b[start..<i])
            if let v = Self.parseInt64(text) { return Int(v) }
            if let u = Self.parseUInt64(text) { return Int(truncatingIfNeeded: u) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
        guard let d = Double(text) else { return Int.min }
        // NSNumber.intValue of a double: truncation toward zero; out of range as the x86 conversion.
        if d.isFinite, d > -9.3e18, d < 9.3e18, let v = Int(exactly: d.rounded(.towardZero)) { return v }
        return Int.min
    }

    static func parseInt64(_ t: UnsafeBufferPointer<UInt8>) -> Int64? {
        var k = 0
        let negative = t.first == UInt8(ascii: "-")
        if negative { k = 1 }
        guard k < t.count else { return nil }
        var v: Int64 = 0
        while k < t.count {
            let d = Int64(t[k] &- UInt8(ascii: "0"))
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            if o1 || o2 { return nil }
            v = s
            k += 1
        }
        return v
    }

    static func parseUInt64(_ t: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard t.first != UInt8(ascii: "-"), !t.isEmpty else { return nil }
        var v: UInt64 = 0
        for c in t {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(c &- UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            v = s
        }
        return v
    }

    // MARK: grammar

    enum Key { case scene, scenes, nodes, meshes, accessors, children, mesh, primitives, mode, indices, attributes, POSITION, count, other }

    /// Reads an object at the cursor, calling `member` with the reader positioned at each value
    /// (which it must consume). False on invalid JSON.
    mutating func object(_ member: (inout JSONFactReader, Key) -> Bool) -> Bool {
        skipWhitespace()
        guard peek() == UInt8(ascii: "{"), enter() else { return false }
        i += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return true }
        while true {
            skipWhitespace()
            guard let key = keyString() else { return false }
            skipWhitespace()
            guard next() == UInt8(ascii: ":") else { return false }
            skipWhitespace()
            guard member(&self, key) else { return false }
            skipWhitespace()
            guard let c = next() else { return false }
            if c == UInt8(ascii: ",") {
                // JSONSerialization accepts a trailing comma before the closing bracket.
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return true }
                continue
            }
            guard c == UInt8(ascii: "}") else { return false }
            depth -= 1
            return true
        }
    }

    mutating func enter() -> Bool {
        depth += 1
        return depth <= Self.maxDepth
    }

    /// Skips any value; false when it is not valid JSON.
    mutating func skipValue() -> Bool {
        skipWhitespace()
        guard let c = peek() else { return false }
        switch c {
        case UInt8(ascii: "{"):
            return object { r, _ in r.skipValue() }
        case UInt8(ascii: "["):
            guard enter() else { return false }
            i += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return true }
            while true {
                guard skipValue() else { return false }
                skipWhitespace()
                guard let d = next() else { return false }
                if d == UInt8(ascii: ",") {
                    skipWhitespace()
                    if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return true }
                    continue
                }
                guard d == UInt8(ascii: "]") else { return false }
                depth -= 1
                return true
            }
        case UInt8(ascii: "\""):
            return skipString(decodeInto: nil)
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default:
            return scanNumber() != nil
        }
    }

    /// A key, mapped to the names the checks look for (escapes decoded first).
    mutating func keyString() -> Key? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var hasEscape = false
        guard skipString(decodeInto: nil, sawEscape: &hasEscape) else { return nil }
        let end = i - 1
        if hasEscape {
            i = start - 1
            var bytes: [UInt8] = []
            guard skipString(decodeInto: &bytes) else { return nil }
            return bytes.withUnsafeBufferPointer { Self.key($0) }
        }
        return Self.key(UnsafeBufferPointer(rebasing: b[start..<end]))
    }

    static func key(_ t: UnsafeBufferPointer<UInt8>) -> Key {
        func eq(_ s: StaticString) -> Bool {
            guard s.utf8CodeUnitCount == t.count else { return false }
            for k in 0..<t.count where s.utf8Start[k] != t[k] { return false }
            return true
        }
        switch t.count {
        case 4: return eq("mode") ? .mode : eq("mesh") ? .mesh : .other
        case 5: return eq("scene") ? .scene : eq("nodes") ? .nodes : eq("count") ? .count : .other
        case 6: return eq("scenes") ? .scenes : eq("meshes") ? .meshes : .other
        case 7: return eq("indices") ? .indices : .other
        case 8: return eq("children") ? .children : eq("POSITION") ? .POSITION : .other
        case 9: return eq("accessors") ? .accessors : .other
        case 10: return eq("primitives") ? .primitives : eq("attributes") ? .attributes : .other
        default: return .other
        }
    }

    mutating func skipString(decodeInto out: UnsafeMutablePointer<[UInt8]>?) -> Bool {
        var unused = false
        return skipString(decodeInto: out, sawEscape: &unused)
    }

    /// Skips a string at the cursor (which is at its opening quote), validating its UTF-8, control
    /// characters and escapes; with `out`, appends its decoded UTF-8.
    mutating func skipString(decodeInto out: UnsafeMutablePointer<[UInt8]>?, sawEscape: inout Bool) -> Bool {
        guard next() == UInt8(ascii: "\"") else { return false }
        // Fast path: the closing quote, and nothing but plain ASCII before it (the usual case,
        // including long base64 data URIs), checked with a branch-free scan.
        if let base = b.baseAddress, i < b.count, let q = memchr(base + i, Int32(UInt8(ascii: "\"")), b.count - i) {
            let end = UnsafeRawPointer(q).assumingMemoryBound(to: UInt8.self) - base
            var unusual: UInt8 = 0
            for k in i..<end {
                let c = base[k]
                unusual |= (c & 0x80) | (c < 0x20 ? 1 : 0) | (c == 0x5C ? 1 : 0)
            }
            if unusual == 0 {
                if let out { out.pointee.append(contentsOf: UnsafeBufferPointer(start: base + i, count: end - i)) }
                i = end + 1
                return true
            }
        }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") { i += 1; return true }
            if c < 0x20 { return false }
            if c == UInt8(ascii: "\\") {
                sawEscape = true
                i += 1
                guard let e = next() else { return false }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out?.pointee.append(e)
                case UInt8(ascii: "b"): out?.pointee.append(0x08)
                case UInt8(ascii: "f"): out?.pointee.append(0x0C)
                case UInt8(ascii: "n"): out?.pointee.append(0x0A)
                case UInt8(ascii: "r"): out?.pointee.append(0x0D)
                case UInt8(ascii: "t"): out?.pointee.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return false }
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u"), let low = hex4(),
                              low >= 0xDC00 && low < 0xE000 else { return false }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        return false
                    }
                    if let out, let u = Unicode.Scalar(scalar) { out.pointee.append(contentsOf: Array(String(u).utf8)) }
                default: return false
                }
                continue
            }
            if c < 0x80 {
                out?.pointee.append(c)
                i += 1
                continue
            }
            // A multi-byte UTF-8 sequence: no overlongs, no surrogates, nothing above U+10FFFF.
            let n: Int
            var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
            switch c {
            case 0xC2...0xDF: n = 1
            case 0xE0: n = 2; lo = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: n = 2
            case 0xED: n = 2; hi = 0x9F
            case 0xF0: n = 3; lo = 0x90
            case 0xF1...0xF3: n = 3
            case 0xF4: n = 3; hi = 0x8F
            default: return false
            }
            guard i + n < b.count else { return false }
            let c1 = b[i + 1]
            guard c1 >= lo && c1 <= hi else { return false }
            for k in 2..<(n + 1) {
                guard b[i + k] & 0xC0 == 0x80 else { return false }
            }
            if let out { out.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...(i + n)])) }
            i += n + 1
        }
        return false
    }

    mutating func hex4() -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A")) + 10
            default: return nil
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    /// Scans an RFC 8259 number; true when it has no fraction or exponent, nil when malformed.
    mutating func scanNumber() -> Bool? {
        var integral = true
        let start = i
        if peek() == UInt8(ascii: "-") { i += 1 }
        guard let first = peek(), isDigit(first) else { return nil }
        i += 1
        if first != UInt8(ascii: "0") { while let c = peek(), isDigit(c) { i += 1 } }
        if peek() == UInt8(ascii: ".") {
            integral = false
            i += 1
            guard let c = peek(), isDigit(c) else { return nil }
            while let c = peek(), isDigit(c) { i += 1 }
        }
        var exponent = false
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            integral = false
            i += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            guard let c = peek(), isDigit(c) else { return nil }
            while let c = peek(), isDigit(c) { i += 1 }
            exponent = true
        }
        // JSONSerialization rejects a number beyond the range of Double (it only can be with an
        // exponent or more than 308 digits).
        if exponent || i - start > 300 {
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else { return nil }
        }
        return integral
    }

    @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    mutating func literal(_ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        for k in 0..<n where s.utf8Start[k] != b[i + k] { return false }
        i += n
        return true
    }

    @inline(__always) func peek() -> UInt8? { i < b.count ? b[i] : nil }

    @inline(__always) mutating func next() -> UInt8? {
        guard i < b.count else { return nil }
        defer { i += 1 }
        return b[i]
    }

    @inline(__always) mutating func skipWhitespace() {
        while i < b.count {
            let c = b[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i += 1
        }
    }
}
