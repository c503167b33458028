import Foundation
import SpatialModel

/// A fast path for scene files in the YAML that scenes are written in (`Tools/gen-scenes`, the
/// files in `Scenes/`): builds the same tree libyaml's events give (`TreeConverter`), with the same
/// line:column on every value and key, in one pass over the bytes, as `JSONTree` does for JSON.
///
/// It reads only this subset, exactly as libyaml reads it:
/// - a root block mapping at column 0; block mappings of `key: value` lines and block sequences of
///   `- item` lines (also at the indentation of their key, as YAML allows), indented with spaces;
///   a sequence item may be a block mapping that starts on the `-` line;
/// - flow mappings `{k: v, …}` and sequences `[a, …]`, also over several lines;
/// - plain scalars on one line (without `:` in them), single-quoted and double-quoted scalars on
///   one line (double-quoted with JSON's escapes only), keys of at most 1,000 bytes;
/// - comments (`#` after a space or at the start of a line) and blank lines.
///
/// Anything else — a document marker or directive, an anchor, alias or tag, a block scalar (`|`,
/// `>`), a value left empty or written on the line after its key, a scalar over several lines, a
/// tab, a carriage return, a byte order mark, a character libyaml rejects or reads as a line break,
/// an explicit or complex key, a duplicate key, a trailing comma, a value over a limit, any syntax
/// error — returns nil, and the file goes through libyaml, which reads and reports it as before. So
/// this path changes speed, never a result or a message.
struct YAMLFastTree {
    private let u: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var line = 1
    /// Byte offset where the current line starts, and UTF-8 continuation bytes since then
    /// (columns count characters, as libyaml's do).
    private var lineStart = 0
    private var continuation = 0
    private var nodeCount = 0
    /// The indentation of the content line the scanner stands at (after `nextContentLine`), -1 at
    /// the end of the file.
    private var indent = 0
    private let texts: ShortTextCache
    /// The values and pairs of the collections being read (`ScratchStack`).
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

    private static let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n"), hash = UInt8(ascii: "#")
    private static let colon = UInt8(ascii: ":"), dash = UInt8(ascii: "-"), comma = UInt8(ascii: ",")
    private static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    private static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    private static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")

    /// The tree of `text` when it is a YAML document in the subset this path reads exactly, else nil.
    static func parse(_ text: String) -> YNode? {
        var text = text
        return text.withUTF8 { u -> YNode? in
            ShortTextCache.with { texts -> YNode? in
                ScratchStack<YNode>.with { items -> YNode? in
                    ScratchStack<YPair>.with { pairs -> YNode? in
                        var p = YAMLFastTree(u, texts, items, pairs)
                        do throws(Reject) {
                            try p.nextContentLine()
                            // The root: a block mapping at column 0 (an empty document goes to libyaml).
                            guard p.indent == 0 else { return nil }
                            let root = try p.blockMapping(column: 0, depth: 1, firstKey: nil)
                            return p.indent < 0 ? root : nil
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

    @inline(__always) private func at(_ j: Int) -> UInt8 { j < u.count ? u[j] : 0 }

    /// Whether `c` (0 at the end) ends a token: a space, a line break or the end.
    @inline(__always) private static func isBlankOrEnd(_ c: UInt8) -> Bool {
        c == space || c == newline || c == 0
    }

    @inline(__always) private static func isFlowIndicator(_ c: UInt8) -> Bool {
        c == comma || c == openBracket || c == closeBracket || c == openBrace || c == closeBrace
    }

    // MARK: Lines, spaces and comments

    /// Counts one value at `depth` against the loader's limits (a value over one goes to libyaml,
    /// which reports it).
    @inline(__always) private mutating func count(depth: Int) throws(Reject) {
        nodeCount += 1
        guard nodeCount <= Limits.maxNodes, depth <= Limits.maxDepth else { throw Reject() }
    }

    /// A byte of a scalar or comment that is not plain printable ASCII: accepted (and counted for
    /// columns) unless libyaml rejects it or reads it as a line break or a byte order mark.
    @inline(__always) private mutating func checkOther(_ c: UInt8) throws(Reject) {
        try FastPathText.checkOther(c, u, i, continuation: &continuation)
    }

    /// Skips a comment from its `#` to the line break (not consumed).
    private mutating func skipComment() throws(Reject) {
        while i < u.count {
            let c = u[i]
            if c == Self.newline { return }
            if c < 0x20 || c >= 0x7F { try checkOther(c) }
            i += 1
        }
    }

    /// After the last token of a line: spaces, an optional comment after a space, then the line
    /// break (consumed) or the end of the file.
    private mutating func endOfLine() throws(Reject) {
        while i < u.count, u[i] == Self.space { i += 1 }
        guard i < u.count else { return }
        if u[i] == Self.hash {
            guard i > 0, u[i - 1] == Self.space else { throw Reject() }
            try skipComment()
            guard i < u.count else { return }
        }
        guard u[i] == Self.newline else { throw Reject() }
        i += 1
        line += 1
        lineStart = i
        continuation = 0
    }

    /// Moves to the first character of the next line with content (skipping blank and comment
    /// lines; the scanner stands at the start of a line) and sets `indent`, -1 at the end.
    private mutating func nextContentLine() throws(Reject) {
        while true {
            while i < u.count, u[i] == Self.space { i += 1 }
            guard i < u.count else {
                indent = -1
                return
            }
            let c = u[i]
            if c == Self.newline {
                i += 1
                line += 1
                lineStart = i
                continuation = 0
                continue
            }
            if c == Self.hash {
                try skipComment()
                continue
            }
            indent = i - lineStart
            // `---` and `...` at column 0 are document markers.
            if indent == 0, c == Self.dash || c == UInt8(ascii: "."), at(i + 1) == c, at(i + 2) == c { throw Reject() }
            return
        }
    }

    /// Spaces, line breaks and comments between the tokens of a flow collection. A line inside
    /// one must be indented past the block collection that holds it (`blockColumn`).
    @inline(__always)
    private mutating func skipFlowSpace(blockColumn: Int) throws(Reject) {
        // The usual cases inline: no space (before `,` and the closing bracket) or one space
        // before a token (after `,` and `: `).
        guard i < u.count else { return }
        let c = u[i]
        if c != Self.space && c != Self.newline && c != Self.hash { return }
        if c == Self.space, i + 1 < u.count {
            let next = u[i + 1]
            if next != Self.space && next != Self.newline && next != Self.hash {
                i += 1
                return
            }
        }
        try skipFlowSpaceSlowly(blockColumn: blockColumn)
    }

    private mutating func skipFlowSpaceSlowly(blockColumn: Int) throws(Reject) {
        while i < u.count {
            let c = u[i]
            if c == Self.space {
                i += 1
            } else if c == Self.newline {
                i += 1
                line += 1
                lineStart = i
                continuation = 0
                while i < u.count, u[i] == Self.space { i += 1 }
                guard i < u.count, u[i] == Self.newline || i - lineStart > blockColumn else { throw Reject() }
            } else if c == Self.hash {
                // A comment needs a space or a line break before it.
                guard i > 0, u[i - 1] == Self.space || u[i - 1] == Self.newline else { throw Reject() }
                try skipComment()
            } else {
                return
            }
        }
    }

    // MARK: Block collections

    @inline(__always) private var atSequenceEntry: Bool {
        u[i] == Self.dash && (i + 1 == u.count || u[i + 1] == Self.space || u[i + 1] == Self.newline)
    }

    /// A block mapping whose keys start at `column` (the scanner stands at its first key, or just
    /// after it when `firstKey` was read by a sequence item). On return the scanner stands at
    /// the first line that is not part of it (`indent` < `column`).
    private mutating func blockMapping(column: Int, depth: Int, firstKey: (Key, SourceLocation)?) throws(Reject) -> YNode {
        try count(depth: depth)
        let mark = pairs.mark
        var pending = firstKey
        let loc = firstKey?.1 ?? location
        while true {
            let key: Key, keyLoc: SourceLocation
            if let k = pending {
                (key, keyLoc) = k
                pending = nil
            } else {
                guard !atSequenceEntry else { throw Reject() }
                keyLoc = location
                let keyStart = i
                key = self.key(try scalar(flow: false))
                guard afterKey(start: keyStart) else { throw Reject() }
            }
            // The scanner stands after `:`.
            while i < u.count, u[i] == Self.space { i += 1 }
            let value: YNode
            if i == u.count || u[i] == Self.newline || u[i] == Self.hash {
                try endOfLine()
                try nextContentLine()
                if indent > column {
                    value = atSequenceEntry ? try blockSequence(column: indent, depth: depth + 1, indentless: false)
                        : try blockMapping(column: indent, depth: depth + 1, firstKey: nil)
                } else if indent == column, atSequenceEntry {
                    value = try blockSequence(column: column, depth: depth + 1, indentless: true)
                } else {
                    // An empty value (null): libyaml's path reads it.
                    throw Reject()
                }
            } else {
                value = try inlineValue(depth: depth + 1, blockColumn: column)
                try endOfLine()
                try nextContentLine()
            }
            pairs.push(YPair(key: key.text, keyLoc: keyLoc, value: value, asciiLength: key.asciiLength))
            if indent < column { break }
            // A deeper line would continue a plain scalar or be an error; `- ` here is an error.
            guard indent == column, !atSequenceEntry else { throw Reject() }
        }
        let list = pairs.take(from: mark)
        if list.count > 1 { try FastPathText.checkDuplicates(list) }
        return YNode(kind: .mapping(list), loc: loc)
    }

    /// After a key scalar that started at byte `start`: optional spaces, then `:` followed by a
    /// space, a line break or the end, on the same line and within libyaml's simple-key length.
    /// The scanner stands after the `:`.
    private mutating func afterKey(start: Int) -> Bool {
        while i < u.count, u[i] == Self.space { i += 1 }
        guard i < u.count, u[i] == Self.colon, Self.isBlankOrEnd(at(i + 1)), i - start <= 1_000 else { return false }
        i += 1
        return true
    }

    /// A block sequence whose `-` are at `column` (the scanner stands at the first). `indentless`:
    /// at the column of the mapping key it is the value of (it ends at a line that is not an entry).
    private mutating func blockSequence(column: Int, depth: Int, indentless: Bool) throws(Reject) -> YNode {
        try count(depth: depth)
        let loc = location
        let mark = items.mark
        while true {
            // At `-`: a space, then the item on the same line.
            guard at(i + 1) == Self.space else { throw Reject() }
            i += 2
            while i < u.count, u[i] == Self.space { i += 1 }
            guard i < u.count else { throw Reject() }
            let c = u[i]
            guard c != Self.newline, c != Self.hash, !atSequenceEntry else { throw Reject() }
            if c == Self.openBrace || c == Self.openBracket {
                items.push(try flowCollection(depth: depth + 1, blockColumn: column))
                try endOfLine()
                try nextContentLine()
            } else {
                // A scalar, or the first key of a block mapping that starts on this line.
                let itemColumn = i - lineStart - continuation
                let itemLoc = location, start = i
                let s = try scalar(flow: false)
                let save = i
                if afterKey(start: start) {
                    // Every byte before the key on this line is ASCII (spaces and `-`).
                    items.push(try blockMapping(column: itemColumn, depth: depth + 1, firstKey: (key(s), itemLoc)))
                } else {
                    i = save
                    try count(depth: depth + 1)
                    items.push(YNode(kind: .scalar(value(of: s)), loc: itemLoc))
                    try endOfLine()
                    try nextContentLine()
                }
            }
            if indent < column { break }
            guard indent == column else { throw Reject() }
            if !atSequenceEntry {
                // A key of the mapping an indentless sequence is the value of ends it.
                guard indentless else { throw Reject() }
                break
            }
        }
        return YNode(kind: .sequence(items.take(from: mark)), loc: loc)
    }

    /// A value on the line of its key: a flow collection or a scalar.
    private mutating func inlineValue(depth: Int, blockColumn: Int) throws(Reject) -> YNode {
        let c = u[i]
        if c == Self.openBrace || c == Self.openBracket { return try flowCollection(depth: depth, blockColumn: blockColumn) }
        try count(depth: depth)
        let loc = location
        return YNode(kind: .scalar(value(of: try scalar(flow: false))), loc: loc)
    }

    // MARK: Flow collections

    private mutating func flowCollection(depth: Int, blockColumn: Int) throws(Reject) -> YNode {
        try count(depth: depth)
        let loc = location
        let isMapping = u[i] == Self.openBrace
        let close = isMapping ? Self.closeBrace : Self.closeBracket
        i += 1
        try skipFlowSpace(blockColumn: blockColumn)
        guard i < u.count else { throw Reject() }
        if u[i] == close {
            i += 1
            return YNode(kind: isMapping ? .mapping([]) : .sequence([]), loc: loc)
        }
        let mark = isMapping ? pairs.mark : items.mark
        while true {
            if isMapping {
                let keyLoc = location, keyStart = i, keyLine = line
                let c = u[i]
                guard c != Self.openBrace, c != Self.openBracket else { throw Reject() }
                let key = self.key(try scalar(flow: true))
                // The value on the same line, after `: `.
                guard afterKey(start: keyStart), line == keyLine, at(i) == Self.space else { throw Reject() }
                while i < u.count, u[i] == Self.space { i += 1 }
                let value = try flowNode(depth: depth + 1, blockColumn: blockColumn)
                pairs.push(YPair(key: key.text, keyLoc: keyLoc, value: value, asciiLength: key.asciiLength))
            } else {
                items.push(try flowNode(depth: depth + 1, blockColumn: blockColumn))
            }
            try skipFlowSpace(blockColumn: blockColumn)
            guard i < u.count else { throw Reject() }
            if u[i] == Self.comma {
                i += 1
                try skipFlowSpace(blockColumn: blockColumn)
                // A trailing comma goes to libyaml.
                guard i < u.count, u[i] != close else { throw Reject() }
                continue
            }
            guard u[i] == close else { throw Reject() }
            i += 1
            break
        }
        if isMapping {
            let list = pairs.take(from: mark)
            if list.count > 1 { try FastPathText.checkDuplicates(list) }
            return YNode(kind: .mapping(list), loc: loc)
        }
        return YNode(kind: .sequence(items.take(from: mark)), loc: loc)
    }

    /// A value inside a flow collection, starting at the scanner.
    private mutating func flowNode(depth: Int, blockColumn: Int) throws(Reject) -> YNode {
        guard i < u.count else { throw Reject() }
        let c = u[i]
        if c == Self.openBrace || c == Self.openBracket { return try flowCollection(depth: depth, blockColumn: blockColumn) }
        try count(depth: depth)
        let loc = location
        return YNode(kind: .scalar(value(of: try scalar(flow: true))), loc: loc)
    }

    // MARK: Scalars

    /// A scalar as read: a quoted one's text, or a plain one's bytes `u[start..<end]` (its
    /// `String` is made only when it is used: as a key, or once per distinct text in
    /// `value(of:)`).
    private struct Scalar {
        var quoted: String?
        var start: Int
        var end: Int
    }

    /// A mapping key's text, and its length when it is all ASCII, else -1 (`YPair.asciiLength`).
    private struct Key {
        var text: String
        var asciiLength: Int
    }

    /// A plain or quoted scalar on one line, starting at the scanner.
    private mutating func scalar(flow: Bool) throws(Reject) -> Scalar {
        guard i < u.count else { throw Reject() }
        let c = u[i]
        if c == Self.doubleQuote || c == Self.singleQuote {
            return Scalar(quoted: c == Self.doubleQuote ? try doubleQuoted() : try singleQuoted(), start: -1, end: -1)
        }
        let start = i
        try plain(flow: flow)
        return Scalar(quoted: nil, start: start, end: i)
    }

    /// `s` as a mapping key; a plain key's ASCII length is counted from its bytes.
    private func key(_ s: Scalar) -> Key {
        if let text = s.quoted { return Key(text: text, asciiLength: YPair.asciiLength(of: text)) }
        var any: UInt8 = 0
        for j in s.start..<s.end { any |= u[j] }
        return Key(text: texts.text(u, s.start, s.end), asciiLength: any < 0x80 ? s.end - s.start : -1)
    }

    /// Powers of ten that are exact doubles, for `value(of:)`.
    private static let exactPowersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A scalar's value as `TreeConverter` types it: a quoted scalar is a string (`YAMLScalar.classify`
    /// with the `str` tag), a plain one is classified as YAML 1.1 reads it. The two common forms
    /// are read here without building strings: a word that starts with a letter no number, bool or
    /// null starts with is a string, and a decimal `-?(0|[1-9][0-9]*)(\.[0-9]+)?` of at most 15
    /// digits is that number — an integer exactly, a fraction as digits / 10^k, which is correctly
    /// rounded (both are exact doubles, and IEEE division rounds correctly), so the same double as
    /// `Double(String)` gives. Everything else goes through `YAMLScalar.classify`. A plain
    /// scalar's value depends on its bytes alone, so a short one is typed once per distinct text
    /// (`ShortTextCache.scalar`).
    private func value(of s: Scalar) -> YScalar {
        if let text = s.quoted { return YScalar(text: text, type: .string) }
        let u = self.u, texts = self.texts, start = s.start, end = s.end
        return texts.scalar(u, start, end) { Self.plainValue(u, start, end, text: texts.text(u, start, end)) }
    }

    /// The value of the plain scalar `u[start..<end]` (whose string is `text`), as `value(of:)` says.
    private static func plainValue(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, text: String) -> YScalar {
        let c0 = u[start]
        switch c0 {
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
             UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            break
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return YScalar(text: text, type: .string)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), Self.dash:
            if let v = decimal(u, start, end) { return YScalar(text: text, type: .number, number: v) }
        default:
            break
        }
        return YAMLScalar.classify(text, tag: "", plain: true)
    }

    /// The value of `u[start..<end]` when it is a short decimal (see `value(of:)`), else nil.
    private static func decimal(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var j = start
        let negative = u[j] == Self.dash
        if negative { j += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        let intStart = j
        while j < end, u[j] >= 0x30, u[j] <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(u[j] - 0x30)
            digits += 1
            j += 1
        }
        // `0` followed by digits is octal in YAML 1.1; `-0` is the double -0.0 (classify's path).
        guard j > intStart, u[intStart] != 0x30 || j == intStart + 1 else { return nil }
        var fraction = 0
        if j < end, u[j] == UInt8(ascii: ".") {
            j += 1
            let fractionStart = j
            while j < end, u[j] >= 0x30, u[j] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(u[j] - 0x30)
                digits += 1
                j += 1
            }
            fraction = j - fractionStart
            guard fraction > 0 else { return nil }
        }
        guard j == end, digits <= 15 else { return nil }
        if fraction == 0 {
            if negative && mantissa == 0 { return nil }
            return negative ? -Double(mantissa) : Double(mantissa)
        }
        let v = Double(mantissa) / exactPowersOfTen[fraction]
        return negative ? -v : v
    }

    /// Whether a plain scalar may start with `c` (followed by `next`): not an indicator, and `-`
    /// only before a letter, digit or `.`.
    @inline(__always) private static func canStartPlain(_ c: UInt8, _ next: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case dash:
            return (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || next == UInt8(ascii: ".")
                || ((next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z"))
        case UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
             UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
             UInt8(ascii: "`"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
             UInt8(ascii: "}"), UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: " "):
            return false
        default:
            // Other printable ASCII, and non-ASCII (checked while reading); controls are not.
            return c > 0x20 && c != 0x7F
        }
    }

    /// A plain scalar on one line: up to `: `, ` #`, the line break, or in a flow collection
    /// `,[]{}`; spaces inside are kept, trailing spaces are not. A `:` not followed by a space
    /// (libyaml's rules for it differ by version and context) goes to libyaml. The scanner ends
    /// after the scalar (its bytes are `Scalar`'s range; no string is made here).
    private mutating func plain(flow: Bool) throws(Reject) {
        let n = u.count
        guard i < n, Self.canStartPlain(u[i], at(i + 1)) else { throw Reject() }
        let start = i
        // The position in a local (not `i`, a stored property written back on every byte).
        var j = i
        var end = j
        while true {
            // A run of non-space characters.
            while j < n {
                let c = u[j]
                // The usual bytes first: `-./0-9A-Za-z` end nothing and need no check (in either
                // context), so they cost one or two comparisons instead of the eight below.
                if c &- 0x2D <= 0x39 - 0x2D || (c | 0x20) &- 0x61 <= 0x7A - 0x61 {
                    j += 1
                    continue
                }
                if c == Self.space || c == Self.newline { break }
                if c == Self.colon {
                    guard Self.isBlankOrEnd(at(j + 1)) else { throw Reject() }
                    break
                }
                if flow, Self.isFlowIndicator(c) { break }
                if c < 0x20 || c >= 0x7F { try FastPathText.checkOther(c, u, j, continuation: &continuation) }
                j += 1
            }
            end = j
            // Spaces, then more of the scalar unless what follows ends it.
            var k = j
            while k < n, u[k] == Self.space { k += 1 }
            guard k > j, k < n else { break }
            let c = u[k]
            if c == Self.newline || c == Self.hash || (c == Self.colon && Self.isBlankOrEnd(at(k + 1)))
                || (flow && Self.isFlowIndicator(c)) { break }
            j = k
        }
        i = end
        guard end - start <= Limits.maxStringLength else { throw Reject() }
    }

    /// A single-quoted scalar on one line (`''` is a quote).
    private mutating func singleQuoted() throws(Reject) -> String {
        i += 1
        let start = i
        var bytes: [UInt8]?
        while i < u.count {
            let c = u[i]
            if c == Self.singleQuote {
                if at(i + 1) == Self.singleQuote {
                    if bytes == nil { bytes = Array(u[start..<i]) }
                    bytes?.append(c)
                    i += 2
                    continue
                }
                let s = bytes.map { String(decoding: $0, as: UTF8.self) }
                    ?? String(decoding: UnsafeBufferPointer(rebasing: u[start..<i]), as: UTF8.self)
                i += 1
                return try FastPathText.checkedLength(s)
            }
            if c < 0x20 || c >= 0x7F { try checkOther(c) }
            bytes?.append(c)
            i += 1
        }
        throw Reject()
    }

    /// A double-quoted scalar on one line with JSON's escapes (as `JSONTree` reads it).
    private mutating func doubleQuoted() throws(Reject) -> String {
        try FastPathText.doubleQuoted(u, &i, continuation: &continuation, cache: texts)
    }

}
