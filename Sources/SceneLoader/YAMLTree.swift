import Foundation
import SpatialModel
import Yams

/// A scene document after parsing: Yams' node tree reduced to what the loader reads, with a
/// line:column on every node and every mapping key. Built with hard limits (nesting depth, node
/// count after alias expansion, string length) so hostile input cannot exhaust the stack or memory.
struct YNode {
    enum Kind {
        case scalar(YScalar)
        case sequence([YNode])
        case mapping([YPair])
    }
    var kind: Kind
    var loc: SourceLocation
}

struct YPair {
    var key: String
    var keyLoc: SourceLocation
    var value: YNode
}

struct YScalar {
    enum ScalarType { case string, number, bool, null }
    var text: String
    var type: ScalarType
    /// The value of a number (possibly non-finite: `.nan`, `.inf`, `1e999`).
    var number: Double?
    var bool: Bool?
}

enum Limits {
    static let maxDepth = 64
    static let maxNodes = 1_000_000
    static let maxStringLength = 64 * 1024
    static let maxFileSize = 16 * 1024 * 1024
    static let maxEntities = 100_000
    static let maxSceneNodes = 1_000_000
    static let maxTriangles = 50_000_000
    /// Vertices transformed for rest bounds, over all asset uses (point clouds have no triangles).
    static let maxVertices = 150_000_000
    static let maxKeyframes = 100_000
    static let maxFrames = 1_000_000
    /// YAML values reached through aliases (an anchor used again), counted per use.
    static let maxAliasValues = 100_000
    /// Largest magnitude of any number in a scene (metres, points, seconds, degrees, Hz).
    static let maxMagnitude = 1e9
    /// Largest magnitude of a derived world coordinate at load (positions, bounds; docs/security.md §2.2).
    static let maxWorldCoordinate = 1e12
    /// Highest frame rate in Hz (the same bound as `--frame-rate`).
    static let maxFrameRate = 10_000.0
    /// Characters of a file's own text (a key, a value) quoted in a message.
    static let maxQuoted = 60
    /// Characters of one diagnostic message or hint.
    static let maxMessage = 2_000
}

/// Text from an untrusted file made safe to print: `Escape.text` (control, bidi, zero-width and
/// other invisible characters become visible escapes such as `\n` and `\u{1B}`, so a value cannot
/// forge extra output lines, terminal sequences or CI workflow commands), cut to `limit`
/// characters.
func quoted(_ s: String, limit: Int = Limits.maxQuoted) -> String {
    Escape.text(s, limit: limit)
}

/// A whole message or hint escaped the same way and capped at `Limits.maxMessage` characters
/// (a safety net behind `quoted`, for text from elsewhere: importer messages, asset node names).
func sanitizedMessage(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: Escape.isUnsafe) || s.unicodeScalars.count > Limits.maxMessage else { return s }
    return Escape.text(s, limit: Limits.maxMessage)
}

struct TreeConverter {
    let file: String
    var diagnostics: [Diagnostic] = []
    private var nodeCount = 0
    private var aliasCount = 0
    private var collectionMarks = Set<Int>()
    private var fatal = false

    init(file: String) { self.file = file }

    /// Parses `text` into a tree, or returns nil with `diagnostics` describing why.
    mutating func parse(_ text: String) -> YNode? {
        if let loc = Self.complexKeyWithAnchors(text) {
            diagnostics.append(Diagnostic(file: file, location: loc,
                                          message: "a list, mapping or alias used as a mapping key is not supported in scene files",
                                          hint: "keys are plain names such as 'position'; anchors and aliases may be used as values only"))
            return nil
        }
        let root: Yams.Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            diagnostics.append(Self.diagnostic(for: error, file: file, text: text))
            return nil
        } catch {
            diagnostics.append(Diagnostic(file: file, message: "cannot parse the scene file"))
            return nil
        }
        guard let root else {
            diagnostics.append(Diagnostic(file: file, location: SourceLocation(line: 1, column: 1),
                                          message: "the scene file is empty",
                                          hint: "a scene starts with 'format: spatialscene/1'"))
            return nil
        }
        let tree = convert(root, depth: 1)
        return fatal ? nil : tree
    }

    /// Yams hashes every mapping key while composing (to find duplicates); an alias bomb used as a
    /// key makes that exponential before any limit of ours can apply. Scene keys are plain names,
    /// so when the text defines anchors, a key that is an alias (`*a: `), a flow collection
    /// (`[..]: `, `{..}: `) or an explicit `? ` key is rejected up front. Conservative: quotes are
    /// not tracked, so such patterns inside strings of a file that uses anchors are rejected too.
    static func complexKeyWithAnchors(_ text: String) -> SourceLocation? {
        let scalars = Array(text.unicodeScalars)
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" }
        func isAnchorChar(_ c: Unicode.Scalar) -> Bool {
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_")
        }
        func tokenStart(_ i: Int) -> Bool {
            var j = i - 1
            while j >= 0, isSpace(scalars[j]) { j -= 1 }
            if j < 0 || scalars[j] == "\n" { return true }
            return "[{,:-?".unicodeScalars.contains(scalars[j]) && (j == i - 1 || isSpace(scalars[j + 1]) || scalars[j] != "-")
        }
        /// True when a `:` indicator follows position `i` (after optional spaces).
        func colonIndicator(after i: Int) -> Bool {
            var j = i
            while j < scalars.count, isSpace(scalars[j]) { j += 1 }
            guard j < scalars.count, scalars[j] == ":" else { return false }
            let k = j + 1
            return k >= scalars.count || isSpace(scalars[k]) || "\n\r,]}".unicodeScalars.contains(scalars[k])
        }
        // Only documents that define anchors can carry a bomb.
        var hasAnchor = false
        for (i, c) in scalars.enumerated() where c == "&" && i + 1 < scalars.count && isAnchorChar(scalars[i + 1]) && tokenStart(i) {
            hasAnchor = true
            break
        }
        guard hasAnchor else { return nil }
        /// The previous character that is not a space, tab or line break (for flow entries that span lines).
        func previousSignificant(_ i: Int) -> Unicode.Scalar? {
            var j = i - 1
            while j >= 0, isSpace(scalars[j]) || scalars[j] == "\n" || scalars[j] == "\r" { j -= 1 }
            return j >= 0 ? scalars[j] : nil
        }
        var line = 1, col = 1
        var i = 0
        // Open flow collections ('[' or '{'), to know when an entry of a flow mapping is a key.
        var flow: [Unicode.Scalar] = []
        while i < scalars.count {
            let c = scalars[i]
            if c == "\n" { line += 1; col = 1; i += 1; continue }
            var bad = false
            // In a flow mapping, an entry that starts with an alias, a collection or '?' is a key
            // even without ':' (`{*a}`, `{[*a]}`).
            let flowMapEntry = flow.last == "{" && (previousSignificant(i).map { $0 == "{" || $0 == "," } ?? false)
            if c == "*", tokenStart(i) || flowMapEntry, i + 1 < scalars.count, isAnchorChar(scalars[i + 1]) {
                var j = i + 1
                while j < scalars.count, isAnchorChar(scalars[j]) { j += 1 }
                bad = flowMapEntry || colonIndicator(after: j)
            } else if c == "]" || c == "}" {
                bad = colonIndicator(after: i + 1)
                if !flow.isEmpty { flow.removeLast() }
            } else if c == "[" || c == "{" {
                bad = flowMapEntry
                flow.append(c)
            } else if c == "?", tokenStart(i) || flowMapEntry {
                // libyaml reads '?' as an explicit key anywhere in flow context ('[?*a]').
                bad = !flow.isEmpty || i + 1 >= scalars.count || isSpace(scalars[i + 1]) || scalars[i + 1] == "\n"
            }
            if bad { return SourceLocation(line: line, column: col) }
            col += 1
            i += 1
        }
        return nil
    }

    static func location(_ mark: Mark?) -> SourceLocation {
        guard let mark else { return SourceLocation(line: 1, column: 1) }
        return SourceLocation(line: max(1, mark.line), column: max(1, mark.column))
    }

    /// Yams' errors carry the whole YAML text (`yaml:`) and their descriptions print a snippet of
    /// it; only the problem, the context and the marks are used here, so no line of the file is
    /// echoed. (The problem text itself is libyaml's fixed wording, possibly naming one character.)
    static func diagnostic(for error: YamlError, file: String, text: String? = nil) -> Diagnostic {
        let d = rawDiagnostic(for: error, file: file, text: text)
        var location = d.location
        if location == nil, case let .reader(_, offset?, _, _) = error, let text {
            location = Self.location(ofByte: offset, in: text)
        }
        return Diagnostic(file: file, location: location, message: sanitizedMessage(d.message),
                          hint: d.hint.map(sanitizedMessage))
    }

    /// Line and column (in characters) of a UTF-8 byte offset.
    static func location(ofByte offset: Int, in text: String) -> SourceLocation? {
        guard offset >= 0, offset <= text.utf8.count else { return nil }
        var line = 1, column = 1, bytes = 0
        for c in text.unicodeScalars {
            if bytes >= offset { break }
            bytes += String(c).utf8.count
            if c == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(line: line, column: column)
    }

    private static func rawDiagnostic(for error: YamlError, file: String, text: String?) -> Diagnostic {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            return syntaxDiagnostic(problem: problem, context: context, mark: mark, file: file, text: text)
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.prefix(5).map { "'\(quoted($0))'" }.joined(separator: ", ")
            return Diagnostic(file: file, location: location(context.mark),
                              message: "duplicate key \(keys) in one mapping",
                              hint: "each key may appear once; remove or rename the repeated one")
        case let .reader(problem, offset, _, _):
            return Diagnostic(file: file, message: "cannot read the scene file: \(problem)"
                              + (offset.map { " at byte \($0)" } ?? ""))
        case .memory:
            return Diagnostic(file: file, message: "cannot parse the scene file: out of memory")
        default:
            return Diagnostic(file: file, message: "cannot parse the scene file")
        }
    }

    static let tabHint = "YAML does not allow tabs for indentation; use spaces"
    static let indentationHint = "check the indentation of this line and the one above, and that a key's value with ':' is quoted"

    /// A libyaml scanner, parser or composer error: libyaml's own text (kept, so it can be looked
    /// up), at a location inside the file, with a plain-language hint for the common problems.
    ///
    /// libyaml reports errors found at the end of the input (an unclosed `[`, `{` or quote) at the
    /// position after the last character, which for a file ending in a line break is a line the
    /// file does not have. Such a location is replaced by the context mark (where the unclosed
    /// construct starts) when that is inside the file, else by the end of the last line.
    static func syntaxDiagnostic(problem: String, context: YamlError.Context?, mark: Mark, file: String,
                                 text: String?) -> Diagnostic {
        var loc = location(mark)
        var atEnd = false
        var line: [Unicode.Scalar] = []
        if let text {
            let doc = DocumentLines(text, keep: [mark.line] + (context.map { [$0.mark.line] } ?? []))
            if !doc.contains(loc) {
                atEnd = true
                if let c = context.map({ location($0.mark) }), doc.contains(c) { loc = c } else { loc = doc.end }
            }
            line = doc.kept[loc.line] ?? []
        }
        var message = "YAML syntax error: \(problem)"
        if atEnd && !problem.contains("end of stream") { message += " at the end of the file" }
        if let context { message += " (\(context.text) at \(context.mark.line):\(context.mark.column))" }
        return Diagnostic(file: file, location: loc, message: message,
                          hint: syntaxHint(problem: problem, context: context?.text ?? "", line: line, column: loc.column))
    }

    /// Plain-language advice for libyaml's most common messages; nil when there is none.
    /// `line` is the text of the line the error is reported on (without its line break).
    static func syntaxHint(problem: String, context: String, line: [Unicode.Scalar], column: Int) -> String? {
        let p = problem.lowercased()
        let indent = line.prefix { $0 == " " || $0 == "\t" }
        let at: Unicode.Scalar? = column >= 1 && column <= line.count ? line[column - 1] : nil
        if p.contains("tab character") || at == "\t" || (indent.contains("\t") && column <= indent.count + 1) {
            return tabHint
        }
        if p.contains("nesting") { return "nesting is limited to \(Limits.maxDepth) levels" }
        if p.contains("cannot start any token"), let at {
            return "'\(quoted(String(at)))' cannot start an unquoted value in YAML; put the value in quotes"
        }
        let indentation = ["mapping values are not allowed", "did not find expected key", "block end",
                           "did not find expected '-' indicator", "block sequence entries are not allowed",
                           "could not find expected ':'"]
        if indentation.contains(where: p.contains) { return indentationHint }
        if p.contains("did not find expected ',' or ']'") {
            return "a list in brackets needs a closing ']' and ',' between its items"
        }
        if p.contains("did not find expected ',' or '}'") {
            return "a mapping in braces needs a closing '}' and ',' between its entries"
        }
        if p.contains("end of stream"), context.contains("quoted scalar") {
            return "a quoted value is not closed; add the closing quote"
        }
        return nil
    }

    private mutating func fail(_ loc: SourceLocation, _ message: String, hint: String? = nil) {
        if !fatal { diagnostics.append(Diagnostic(file: file, location: loc, message: sanitizedMessage(message), hint: hint)) }
        fatal = true
    }

    private mutating func convert(_ node: Yams.Node, depth: Int, viaAlias: Bool = false) -> YNode {
        let loc = Self.location(node.mark)
        let empty = YNode(kind: .scalar(YScalar(text: "", type: .null)), loc: loc)
        if fatal { return empty }
        // Yams resolves an alias to the anchored node itself, mark included: a collection whose
        // mark was converted before is an alias use, and everything under it is alias expansion.
        var viaAlias = viaAlias
        if !viaAlias, node.isCollection, let mark = node.mark {
            viaAlias = !collectionMarks.insert(mark.line &* 1_000_003 &+ mark.column).inserted
        }
        if viaAlias {
            aliasCount += 1
            if aliasCount > Limits.maxAliasValues {
                fail(loc, "the scene expands to more than \(Limits.maxAliasValues) YAML values through aliases",
                     hint: "this limit protects against alias bombs ('billion laughs'); repeat the content instead of an alias")
                return empty
            }
        }
        nodeCount += 1
        if nodeCount > Limits.maxNodes {
            fail(loc, "the scene has more than \(Limits.maxNodes) YAML values (after expanding aliases)",
                 hint: "this limit protects against alias bombs; split the scene")
            return empty
        }
        if depth > Limits.maxDepth {
            fail(loc, "the scene is nested more than \(Limits.maxDepth) levels deep")
            return empty
        }
        switch node {
        case let .scalar(s):
            return YNode(kind: .scalar(scalar(s, loc: loc)), loc: loc)
        case let .alias(a):
            // Yams resolves aliases while composing; a bare alias node carries no value.
            return YNode(kind: .scalar(YScalar(text: "*\(a.anchor.rawValue)", type: .null)), loc: loc)
        case let .sequence(seq):
            var items: [YNode] = []
            items.reserveCapacity(seq.count)
            for item in seq {
                items.append(convert(item, depth: depth + 1, viaAlias: viaAlias))
                if fatal { return empty }
            }
            return YNode(kind: .sequence(items), loc: loc)
        case let .mapping(map):
            var pairs: [YPair] = []
            for (k, v) in map {
                let kloc = Self.location(k.mark)
                guard case let .scalar(ks) = k else {
                    fail(kloc, "a mapping key must be a plain name, found a \(k.sequence != nil ? "list" : "mapping")")
                    return empty
                }
                if ks.string.unicodeScalars.count > Limits.maxStringLength {
                    fail(kloc, "a key is longer than \(Limits.maxStringLength) characters")
                    return empty
                }
                let value = convert(v, depth: depth + 1, viaAlias: viaAlias)
                if fatal { return empty }
                pairs.append(YPair(key: ks.string, keyLoc: kloc, value: value))
            }
            return YNode(kind: .mapping(pairs), loc: loc)
        }
    }

    private mutating func scalar(_ s: Yams.Node.Scalar, loc: SourceLocation) -> YScalar {
        let text = s.string
        // YAML 1.1 sexagesimal numbers (`1:30:00`) overflow and trap inside Yams' Int constructor
        // with enough components; scenes have no use for them, so they stay strings.
        if text.contains(":") {
            return YScalar(text: text, type: .string)
        }
        if text.utf8.count > Limits.maxStringLength {
            fail(loc, "a value is \(text.utf8.count) bytes long; the limit is \(Limits.maxStringLength)")
            return YScalar(text: "", type: .null)
        }
        let node = Yams.Node.scalar(s)
        switch Tag.Name(rawValue: node.tag.rawValue) {
        case .str:
            return YScalar(text: text, type: .string)
        case .null:
            return YScalar(text: text, type: .null)
        case .bool:
            if let b = node.bool { return YScalar(text: text, type: .bool, bool: b) }
            return YScalar(text: text, type: .string)
        case .int:
            if let i = node.int { return YScalar(text: text, type: .number, number: Double(i)) }
            if let d = Double(text.replacingOccurrences(of: "_", with: "")) {
                return YScalar(text: text, type: .number, number: d)
            }
            return YScalar(text: text, type: .string)
        case .float:
            if let d = node.float { return YScalar(text: text, type: .number, number: d) }
            return YScalar(text: text, type: .string)
        default:
            return YScalar(text: text, type: .string)
        }
    }
}

private extension Yams.Node {
    var isCollection: Bool {
        switch self {
        case .sequence, .mapping: true
        default: false
        }
    }
}

/// The lines of a document as libyaml counts them, for placing error marks: line breaks are LF,
/// CR, CR LF, NEL, LS and PS; columns count Unicode scalars; a leading byte-order mark is not a
/// column. One pass; only the lines asked for are kept.
struct DocumentLines {
    /// Number of lines (a final line break does not start another line).
    private(set) var count = 0
    /// Scalars of the last line, and of each line asked for by number (without the line break).
    private(set) var lastLength = 0
    private(set) var kept: [Int: [Unicode.Scalar]] = [:]

    init(_ text: String, keep: [Int]) {
        let wanted = Set(keep)
        var number = 1, length = 0
        var keeping = wanted.contains(1)
        var current: [Unicode.Scalar] = []
        var previousCR = false
        var first = true
        func endLine() {
            if keeping { kept[number] = current }
            lastLength = length
            count = number
            number += 1; length = 0; current = []
            keeping = wanted.contains(number)
        }
        for c in text.unicodeScalars {
            defer { first = false }
            if c == "\u{FEFF}" && first { continue }
            if c == "\n" && previousCR { previousCR = false; continue }
            previousCR = c == "\r"
            if c == "\n" || c == "\r" || c == "\u{85}" || c == "\u{2028}" || c == "\u{2029}" {
                endLine()
                continue
            }
            length += 1
            if keeping { current.append(c) }
        }
        if length > 0 { endLine() }
    }

    /// True when `loc` is a character of the document or the position just after a line's end.
    func contains(_ loc: SourceLocation) -> Bool {
        guard loc.line >= 1, loc.line <= count else { return false }
        let length = loc.line == count ? lastLength : (kept[loc.line]?.count ?? Int.max - 1)
        return loc.column >= 1 && loc.column <= length + 1
    }

    /// The position just after the last character (1:1 for an empty document).
    var end: SourceLocation {
        count == 0 ? SourceLocation(line: 1, column: 1) : SourceLocation(line: count, column: lastLength + 1)
    }
}
