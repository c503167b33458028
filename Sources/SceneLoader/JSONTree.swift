import Foundation
import SpatialModel

/// A fast path for scene files in plain JSON: builds the same tree libyaml's events give
/// (`TreeConverter`), with the same line:column on every value and key, in one pass over the bytes.
///
/// It accepts only what it can read exactly as libyaml reads it: a top-level object or array
/// of strict JSON (RFC 8259) with spaces and line feeds between tokens, within every loader limit
/// and without duplicate keys. Anything else — a syntax error, a tab or carriage return, a byte
/// order mark, a character libyaml rejects or reads as a line break (C1 controls, NEL, LS, PS,
/// U+FFFE/U+FFFF), a surrogate escape, a key over 1,000 bytes (libyaml's simple-key limit is
/// 1,024 characters), a duplicate key, a value over a limit — returns nil, and the file goes
/// through libyaml, which reports it as before. So this path changes speed, never a result.
struct JSONTree {
    private let u: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var line = 1
    /// Byte offset where the current line starts, and UTF-8 continuation bytes since then
    /// (columns count characters, as libyaml's do).
    private var lineStart = 0
    private var continuation = 0
    private var nodeCount = 0

    private struct Reject: Error {}

    private init(_ u: UnsafeBufferPointer<UInt8>) { self.u = u }

    /// The tree of `text` when it is a plain JSON document this path reads exactly, else nil.
    static func parse(_ text: String) -> YNode? {
        var text = text
        return text.withUTF8 { u -> YNode? in
            var p = JSONTree(u)
            do throws(Reject) {
                p.skipSpace()
                guard p.i < u.count, u[p.i] == UInt8(ascii: "{") || u[p.i] == UInt8(ascii: "[") else { return nil }
                let root = try p.value(depth: 1)
                p.skipSpace()
                return p.i == u.count ? root : nil
            } catch {
                return nil
            }
        }
    }

    private var location: SourceLocation {
        SourceLocation(line: line, column: i - lineStart - continuation + 1)
    }

    private mutating func skipSpace() {
        while i < u.count {
            let c = u[i]
            if c == UInt8(ascii: " ") {
                i += 1
            } else if c == UInt8(ascii: "\n") {
                i += 1
                line += 1
                lineStart = i
                continuation = 0
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(Reject) -> YNode {
        guard depth <= Limits.maxDepth, i < u.count else { throw Reject() }
        nodeCount += 1
        guard nodeCount <= Limits.maxNodes else { throw Reject() }
        let loc = location
        switch u[i] {
        case UInt8(ascii: "{"):
            i += 1
            var pairs: [YPair] = []
            pairs.reserveCapacity(4)
            skipSpace()
            if i < u.count, u[i] == UInt8(ascii: "}") {
                i += 1
                return YNode(kind: .mapping(pairs), loc: loc)
            }
            while true {
                skipSpace()
                guard i < u.count, u[i] == UInt8(ascii: "\"") else { throw Reject() }
                let keyStart = i, keyLine = line
                let keyLoc = location
                let key = try string()
                skipSpace()
                // libyaml's simple key: on one line, ':' within 1,024 characters of its start.
                guard i < u.count, u[i] == UInt8(ascii: ":"), line == keyLine, i - keyStart <= 1_000 else { throw Reject() }
                i += 1
                skipSpace()
                let v = try value(depth: depth + 1)
                pairs.append(YPair(key: key, keyLoc: keyLoc, value: v))
                skipSpace()
                guard i < u.count else { throw Reject() }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                guard u[i] == UInt8(ascii: "}") else { throw Reject() }
                i += 1
                break
            }
            if pairs.count > 1 { try checkDuplicates(pairs) }
            return YNode(kind: .mapping(pairs), loc: loc)
        case UInt8(ascii: "["):
            i += 1
            var items: [YNode] = []
            items.reserveCapacity(4)
            skipSpace()
            if i < u.count, u[i] == UInt8(ascii: "]") {
                i += 1
                return YNode(kind: .sequence(items), loc: loc)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < u.count else { throw Reject() }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                guard u[i] == UInt8(ascii: "]") else { throw Reject() }
                i += 1
                break
            }
            return YNode(kind: .sequence(items), loc: loc)
        case UInt8(ascii: "\""):
            // A quoted scalar is a string (`YAMLScalar.classify` with the `str` tag).
            return YNode(kind: .scalar(YScalar(text: try string(), type: .string)), loc: loc)
        default:
            return YNode(kind: .scalar(try literal()), loc: loc)
        }
    }

    /// A duplicate key goes to libyaml's path, which reports it.
    private func checkDuplicates(_ pairs: [YPair]) throws(Reject) {
        if pairs.count <= 16 {
            for a in 1..<pairs.count {
                for b in 0..<a where pairs[a].key == pairs[b].key { throw Reject() }
            }
        } else {
            var seen = Set<String>(minimumCapacity: pairs.count)
            for p in pairs where !seen.insert(p.key).inserted { throw Reject() }
        }
    }

    /// A number, `true`, `false` or `null`: typed as libyaml's plain scalar of the same text.
    private mutating func literal() throws(Reject) -> YScalar {
        let start = i
        while i < u.count {
            let c = u[i]
            let isToken = (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z"))
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "E")
            guard isToken else { break }
            i += 1
        }
        let token = UnsafeBufferPointer(rebasing: u[start..<i])
        guard !token.isEmpty, token.count <= 64, i == u.count || Self.isDelimiter(u[i]) else { throw Reject() }
        let text = String(decoding: token, as: UTF8.self)
        if text == "true" || text == "false" || text == "null" || Self.isNumber(token) {
            return YAMLScalar.classify(text, tag: "", plain: true)
        }
        throw Reject()
    }

    private static func isDelimiter(_ c: UInt8) -> Bool {
        c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: ",") || c == UInt8(ascii: "]")
            || c == UInt8(ascii: "}")
    }

    /// JSON's number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
    private static func isNumber(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        var j = 0
        func digits() -> Int {
            let s = j
            while j < t.count, t[j] >= UInt8(ascii: "0"), t[j] <= UInt8(ascii: "9") { j += 1 }
            return j - s
        }
        if j < t.count, t[j] == UInt8(ascii: "-") { j += 1 }
        guard j < t.count else { return false }
        if t[j] == UInt8(ascii: "0") { j += 1 } else if digits() == 0 { return false }
        if j < t.count, t[j] == UInt8(ascii: ".") {
            j += 1
            guard digits() > 0 else { return false }
        }
        if j < t.count, t[j] == UInt8(ascii: "e") || t[j] == UInt8(ascii: "E") {
            j += 1
            if j < t.count, t[j] == UInt8(ascii: "-") || t[j] == UInt8(ascii: "+") { j += 1 }
            guard digits() > 0 else { return false }
        }
        return j == t.count
    }

    /// A JSON string at `i` (the opening quote), read as libyaml reads a double-quoted scalar.
    private mutating func string() throws(Reject) -> String {
        i += 1
        let start = i
        // The common case: no escape, ASCII only.
        while i < u.count {
            let c = u[i]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
                i += 1
                return try checkedLength(s)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x7F { break }
            i += 1
        }
        var bytes = Array(u[start..<i])
        while i < u.count {
            let c = u[i]
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return try checkedLength(String(decoding: bytes, as: UTF8.self))
            case UInt8(ascii: "\\"):
                i += 1
                guard JSONEscape.decode(u, &i, into: &bytes) else { throw Reject() }
            default:
                guard c >= 0x20, c != 0x7F else { throw Reject() }
                if c >= 0x80 {
                    // Characters libyaml rejects or reads as a line break: C1 controls (NEL
                    // included), LS, PS, a byte order mark, U+FFFE and U+FFFF.
                    let c1 = i + 1 < u.count ? u[i + 1] : 0, c2 = i + 2 < u.count ? u[i + 2] : 0
                    if c == 0xC2, c1 < 0xA0 { throw Reject() }
                    if c == 0xE2, c1 == 0x80, c2 == 0xA8 || c2 == 0xA9 { throw Reject() }
                    if c == 0xEF, (c1 == 0xBB && c2 == 0xBF) || (c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)) { throw Reject() }
                    if c & 0xC0 == 0x80 { continuation += 1 }
                }
                bytes.append(c)
                i += 1
            }
        }
        throw Reject()
    }

    private func checkedLength(_ s: String) throws(Reject) -> String {
        guard s.utf8.count <= Limits.maxStringLength else { throw Reject() }
        return s
    }
}

/// JSON's backslash escapes, read as libyaml reads them in a double-quoted scalar (both fast
/// paths, `JSONTree` and `YAMLFastTree`, use it).
enum JSONEscape {
    /// Decodes the escape whose letter is at `u[i]` (just after the backslash) into `bytes` and
    /// moves `i` past it. False for anything the fast paths leave to libyaml: an unknown escape, a
    /// truncated or non-hex `\u`, or a surrogate (which libyaml rejects with its own error).
    @inline(__always)
    static func decode(_ u: UnsafeBufferPointer<UInt8>, _ i: inout Int, into bytes: inout [UInt8]) -> Bool {
        guard i < u.count else { return false }
        let e = u[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            guard i + 4 <= u.count else { return false }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let h = u[i]
                let d: UInt32
                switch h {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
                default: return false
                }
                v = v << 4 | d
                i += 1
            }
            guard let scalar = Unicode.Scalar(v) else { return false }
            bytes.append(contentsOf: String(Character(scalar)).utf8)
        default:
            return false
        }
        return true
    }
}
