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
            root = try Yams.compose(yaml: text, .basic)
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
        // YAML 1.1 sexagesimal numbers (`1:30:00`) and times stay strings (scenes have no use for them).
        if text.utf8.contains(UInt8(ascii: ":")) {
            return YScalar(text: text, type: .string)
        }
        if text.utf8.count > Limits.maxStringLength {
            fail(loc, "a value is \(text.utf8.count) bytes long; the limit is \(Limits.maxStringLength)")
            return YScalar(text: "", type: .null)
        }
        // The tag as parsed, not resolved: "" for a plain scalar without a tag (`Resolver.basic`
        // never runs a regular expression; `YAMLScalar` classifies it), `tag:yaml.org,2002:str` for
        // a quoted one, else an explicit tag.
        return YAMLScalar.classify(text, tag: s.tag.description, plain: s.style == .plain || s.style == .any)
    }
}

/// YAML 1.1 scalar typing as the loader has always read it (Yams' default resolver and
/// constructors: bool, int, float, null, and everything else a string), done by hand in one pass
/// over the text instead of up to seven regular expressions per value.
///
/// Plain (unquoted, untagged) scalars:
/// - null: empty, `~`, `null`, `Null`, `NULL`;
/// - bool: `yes`/`no`, `true`/`false`, `on`/`off` in lower case, capitalised or upper case;
/// - int: `[-+]?(0|[1-9][0-9_]*)`, binary `0b…`, octal `0…` / `0o…`, hex `0x…` (underscores
///   ignored); a value too large for Int is read as a Double;
/// - float: `[-+]?[0-9][0-9_]*(.[0-9_]*)?([eE][-+]?[0-9]+)?`, `.[0-9_]+` with an optional signed
///   exponent, `[-+]?.inf` (any of `inf`/`Inf`/`INF`), `.nan` (`nan`/`NaN`/`NAN`);
/// - anything else (including `-.5`, which YAML 1.1 does not read as a number, dates and
///   anything containing `:`) is a string.
/// Quoted scalars are strings. An explicit tag (`!!int 3`, `!!str yes`) types the value as that
/// tag says; a value the tag's constructor cannot read stays a string (an `!!int` then tries a Double).
enum YAMLScalar {
    static let strTag = "tag:yaml.org,2002:str"
    static let nullTag = "tag:yaml.org,2002:null"
    static let boolTag = "tag:yaml.org,2002:bool"
    static let intTag = "tag:yaml.org,2002:int"
    static let floatTag = "tag:yaml.org,2002:float"

    enum Resolved { case string, null, bool, int, float }

    static func classify(_ text: String, tag: String, plain: Bool) -> YScalar {
        let resolved: Resolved
        switch tag {
        case "": resolved = resolve(text)
        case nullTag: resolved = .null
        case boolTag: resolved = .bool
        case intTag: resolved = .int
        case floatTag: resolved = .float
        default: resolved = .string
        }
        switch resolved {
        case .string:
            return YScalar(text: text, type: .string)
        case .null:
            return YScalar(text: text, type: .null)
        case .bool:
            if let b = bool(text) { return YScalar(text: text, type: .bool, bool: b) }
            return YScalar(text: text, type: .string)
        case .int:
            if plain, let i = decimalInt(text) { return YScalar(text: text, type: .number, number: Double(i)) }
            if plain, let i = int(text) { return YScalar(text: text, type: .number, number: Double(i)) }
            if let d = Double(withoutUnderscores(text)) { return YScalar(text: text, type: .number, number: d) }
            return YScalar(text: text, type: .string)
        case .float:
            if plain, let d = float(text) { return YScalar(text: text, type: .number, number: d) }
            return YScalar(text: text, type: .string)
        }
    }

    /// The type YAML 1.1's implicit resolution gives a plain scalar (the order of Yams' default
    /// resolver: bool, int, float, then null; everything else is a string).
    static func resolve(_ text: String) -> Resolved {
        var text = text
        return text.withUTF8 { u in
            if isBool(u) { return .bool }
            if isInt(u) { return .int }
            if isFloat(u) { return .float }
            if u.isEmpty || (u.count == 1 && u[0] == UInt8(ascii: "~")) { return .null }
            if u.count == 4, ["null", "Null", "NULL"].contains(String(decoding: u, as: UTF8.self)) { return .null }
            return .string
        }
    }

    private static let boolWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]

    private static func isBool(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        guard (2...5).contains(u.count) else { return false }
        return boolWords.contains(String(decoding: u, as: UTF8.self))
    }

    private static func isDigit(_ c: UInt8, radix: Int = 10) -> Bool {
        switch radix {
        case 2: return c == 0x30 || c == 0x31
        case 8: return c >= 0x30 && c <= 0x37
        case 16: return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
        default: return c >= 0x30 && c <= 0x39
        }
    }

    /// `[-+]?(0b[01_]+ | 0o?[0-7_]+ | 0 | [1-9][0-9_]* | 0x[0-9a-fA-F_]+)` (sexagesimal is excluded
    /// earlier: it contains ':').
    private static func isInt(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if i < u.count, u[i] == UInt8(ascii: "-") || u[i] == UInt8(ascii: "+") { i += 1 }
        guard i < u.count else { return false }
        func all(from j: Int, radix: Int) -> Bool {
            j < u.count && u[j...].allSatisfy { $0 == UInt8(ascii: "_") || isDigit($0, radix: radix) }
        }
        if u[i] == UInt8(ascii: "0") {
            if i + 1 == u.count { return true }
            switch u[i + 1] {
            case UInt8(ascii: "b"): return all(from: i + 2, radix: 2)
            case UInt8(ascii: "x"): return all(from: i + 2, radix: 16)
            case UInt8(ascii: "o"): return all(from: i + 2, radix: 8)
            default: return all(from: i + 1, radix: 8)
            }
        }
        guard isDigit(u[i]) else { return false }
        return u[(i + 1)...].allSatisfy { $0 == UInt8(ascii: "_") || isDigit($0) }
    }

    private static func isFloat(_ u: UnsafeBufferPointer<UInt8>) -> Bool {
        let dot = UInt8(ascii: "."), us = UInt8(ascii: "_")
        var i = 0
        let signed = i < u.count && (u[i] == UInt8(ascii: "-") || u[i] == UInt8(ascii: "+"))
        if signed { i += 1 }
        guard i < u.count else { return false }
        if u[i] == dot {
            let rest = String(decoding: u[(i + 1)...], as: UTF8.self)
            if rest == "inf" || rest == "Inf" || rest == "INF" { return true }
            if signed { return false }
            if rest == "nan" || rest == "NaN" || rest == "NAN" { return true }
            // `.[0-9_]+([eE][-+][0-9]+)?`
            var j = i + 1
            let start = j
            while j < u.count, isDigit(u[j]) || u[j] == us { j += 1 }
            guard j > start else { return false }
            return exponent(u, from: j, signRequired: true)
        }
        // `[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`
        guard isDigit(u[i]) else { return false }
        var j = i + 1
        while j < u.count, isDigit(u[j]) || u[j] == us { j += 1 }
        if j < u.count, u[j] == dot {
            j += 1
            while j < u.count, isDigit(u[j]) || u[j] == us { j += 1 }
        }
        return exponent(u, from: j, signRequired: false)
    }

    /// True when `u[j...]` is empty or an exponent `[eE][-+]?[0-9]+` (sign required if asked).
    private static func exponent(_ u: UnsafeBufferPointer<UInt8>, from j: Int, signRequired: Bool) -> Bool {
        if j == u.count { return true }
        guard u[j] == UInt8(ascii: "e") || u[j] == UInt8(ascii: "E") else { return false }
        var k = j + 1
        if k < u.count, u[k] == UInt8(ascii: "-") || u[k] == UInt8(ascii: "+") { k += 1 } else if signRequired { return false }
        guard k < u.count else { return false }
        return u[k...].allSatisfy { isDigit($0) }
    }

    private static func withoutUnderscores(_ text: String) -> String {
        text.utf8.contains(UInt8(ascii: "_")) ? String(text.unicodeScalars.filter { $0 != "_" }) : text
    }

    /// Yams' `Bool.construct`: true/yes/on and false/no/off in any letter case.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// The common case of `int`: `[-+]?[1-9][0-9]{0,17}` or `0`, read without building strings.
    static func decimalInt(_ text: String) -> Int? {
        var value = 0, digits = 0, negative = false, first = true
        for c in text.utf8 {
            if first, c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { negative = c == UInt8(ascii: "-"); first = false; continue }
            guard c >= 0x30, c <= 0x39 else { return nil }
            if digits == 0, c == 0x30 { return text.utf8.count == 1 ? 0 : nil }
            first = false
            digits += 1
            guard digits <= 18 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }

    /// Yams' `Int.construct` for a plain scalar: underscores dropped, `0x`/`0b`/`0o`/`0` prefixes
    /// select the radix after an optional sign; nil when out of Int's range.
    static func int(_ text: String) -> Int? {
        let withSign = withoutUnderscores(text)
        if withSign == "0" { return 0 }
        let negative = withSign.hasPrefix("-")
        let hasSign = negative || withSign.hasPrefix("+")
        let digits = withSign.dropFirst(hasSign ? 1 : 0)
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        return Int(withSign)
    }

    /// Yams' `Double.construct` for a plain scalar (sexagesimal excluded earlier).
    static func float(_ text: String) -> Double? {
        guard text.utf8.contains(UInt8(ascii: ".")) else { return Double(withoutUnderscores(text)) }
        switch text.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default: return Double(withoutUnderscores(text))
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
