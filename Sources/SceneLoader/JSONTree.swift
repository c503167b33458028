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
    private let texts: ShortTextCache
    /// The values and pairs of the arrays and objects being read (`ScratchStack`).
    private let items: ScratchStack<YNode>
    private let pairs: ScratchStack<YPair>

    private typealias Reject = FastPathReject

    private init(_ u: UnsafeBufferPointer<UInt8>, _ texts: ShortTextCache, _ items: ScratchStack<YNode>,
                 _ pairs: ScratchStack<YPair>) {
        self.u = u
        self.texts = texts
        self.items = items
        self.pairs = pairs
    }

    /// The tree of `text` when it is a plain JSON document this path reads exactly, else nil.
    static func parse(_ text: String) -> YNode? {
        var text = text
        return text.withUTF8 { u -> YNode? in
            ShortTextCache.with { texts -> YNode? in
                ScratchStack<YNode>.with { items -> YNode? in
                    ScratchStack<YPair>.with { pairs -> YNode? in
                        var p = JSONTree(u, texts, items, pairs)
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
            let mark = pairs.mark
            skipSpace()
            if i < u.count, u[i] == UInt8(ascii: "}") {
                i += 1
                return YNode(kind: .mapping([]), loc: loc)
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
                pairs.push(YPair(key: key, keyLoc: keyLoc, value: v))
                skipSpace()
                guard i < u.count else { throw Reject() }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                guard u[i] == UInt8(ascii: "}") else { throw Reject() }
                i += 1
                break
            }
            let list = pairs.take(from: mark)
            if list.count > 1 { try FastPathText.checkDuplicates(list) }
            return YNode(kind: .mapping(list), loc: loc)
        case UInt8(ascii: "["):
            i += 1
            let mark = items.mark
            skipSpace()
            if i < u.count, u[i] == UInt8(ascii: "]") {
                i += 1
                return YNode(kind: .sequence([]), loc: loc)
            }
            while true {
                skipSpace()
                items.push(try value(depth: depth + 1))
                skipSpace()
                guard i < u.count else { throw Reject() }
                if u[i] == UInt8(ascii: ",") { i += 1; continue }
                guard u[i] == UInt8(ascii: "]") else { throw Reject() }
                i += 1
                break
            }
            return YNode(kind: .sequence(items.take(from: mark)), loc: loc)
        case UInt8(ascii: "\""):
            // A quoted scalar is a string (`YAMLScalar.classify` with the `str` tag).
            return YNode(kind: .scalar(YScalar(text: try string(), type: .string)), loc: loc)
        default:
            return YNode(kind: .scalar(try literal()), loc: loc)
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
        let isWord = token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8) || token.elementsEqual("null".utf8)
        guard isWord || Self.isNumber(token) else { throw Reject() }
        // Typed once per distinct short text (`ShortTextCache.scalar`).
        let texts = self.texts
        return texts.scalar(u, start, i) { YAMLScalar.classify(texts.text(u, start, i), tag: "", plain: true) }
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
        try FastPathText.doubleQuoted(u, &i, continuation: &continuation, cache: texts)
    }
}
