import Foundation
import SpatialModel

/// Typed access to a `YNode` tree that records a Diagnostic (with location, expectation and what was
/// found) for every mismatch and returns nil, so the loader can keep going and report all errors.
final class Reader {
    let file: String
    var diagnostics: [Diagnostic] = []
    var warnings: [Diagnostic] = []

    init(file: String) { self.file = file }

    var hasErrors: Bool { !diagnostics.isEmpty }

    /// The unknown keys already given the full "valid keys: …" hint, per list of allowed keys (the
    /// kind of mapping, as an index into `allowedLists`): the same unknown key in the same kind of
    /// mapping again (`hoverEffect` on 64 models) is still an error with its own location, but its
    /// hint is "valid keys as above" rather than the same 300 characters again.
    private var allowedLists: [[String]: Int] = [:]
    private var hintedUnknownKeys: Set<UnknownKey> = []
    private struct UnknownKey: Hashable { var key: String; var list: Int }

    /// Whether `key` is met for the first time among the keys unknown to a mapping that allows `allowed`.
    func firstUnknown(_ key: String, allowed: [String]) -> Bool {
        let list: Int
        if let known = allowedLists[allowed] { list = known } else { list = allowedLists.count; allowedLists[allowed] = list }
        return hintedUnknownKeys.insert(UnknownKey(key: key, list: list)).inserted
    }

    /// "Did you mean" suggestions left for this file. Each one is an edit-distance search, so a
    /// hostile file with 100,000 misspelt references to 100,000 entities would otherwise take hours.
    private var suggestionBudget = 200

    /// `closestMatch` with bounds: words over 64 characters, more than 2,000 candidates, or after
    /// 200 suggestions in one file, there is no suggestion (the message stays, without the hint).
    func suggest(_ word: String, in candidates: [String]) -> String? {
        guard suggestionBudget > 0, word.unicodeScalars.count <= 64, candidates.count <= 2_000 else { return nil }
        suggestionBudget -= 1
        return closestMatch(to: word, in: candidates.lazy.filter { $0.unicodeScalars.count <= 128 })
    }

    /// Messages quote the file's own text through `quoted` (short, escaped); `sanitizedMessage` is
    /// the safety net for text that reaches here otherwise (importer messages, asset node names).
    func error(_ loc: SourceLocation?, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(file: file, location: loc, message: sanitizedMessage(message),
                                      hint: hint.map(sanitizedMessage)))
    }

    func warning(_ loc: SourceLocation?, _ message: String, hint: String? = nil) {
        warnings.append(Diagnostic(.warning, file: file, location: loc, message: sanitizedMessage(message),
                                   hint: hint.map(sanitizedMessage)))
    }

    /// "a string "big"", "the number 3", "a list of 2 items", "a mapping", "true", "an empty value".
    static func describe(_ n: YNode) -> String {
        switch n.kind {
        case let .scalar(s):
            switch s.type {
            case .string:
                return "a string \"\(quoted(s.text, limit: 40))\""
            case .number:
                if let d = s.number, !d.isFinite { return "the non-finite number \(quoted(s.text))" }
                return "the number \(quoted(s.text))"
            case .bool: return "the boolean \(quoted(s.text))"
            case .null: return s.text.isEmpty ? "an empty value" : "null (\(quoted(s.text)))"
            }
        case let .sequence(items):
            return items.count == 1 ? "a list of 1 item" : "a list of \(items.count) items"
        case .mapping:
            return "a mapping"
        }
    }

    static func quoteList(_ names: [String], limit: Int = 12) -> String {
        let shown = names.prefix(limit).map { "'\(quoted($0))'" }.joined(separator: ", ")
        return names.count > limit ? shown + ", … (\(names.count) in all)" : shown
    }

    /// "did you mean 'x'?" or the list of valid names.
    func suggestion(for word: String, in candidates: [String]) -> String {
        if let m = suggest(word, in: candidates) { return "did you mean '\(m)'?" }
        return "valid values: " + Self.quoteList(candidates, limit: 20)
    }

    // MARK: - Shapes

    func mapping(_ n: YNode, _ what: @autoclosure () -> String) -> YMap? {
        if case let .mapping(pairs) = n.kind { return YMap(node: n, pairs: pairs) }
        error(n.loc, "\(what()) expects a mapping, found \(Self.describe(n))")
        return nil
    }

    func list(_ n: YNode, _ what: @autoclosure () -> String) -> [YNode]? {
        if case let .sequence(items) = n.kind { return items }
        error(n.loc, "\(what()) expects a list, found \(Self.describe(n))")
        return nil
    }

    func number(_ n: YNode, _ what: @autoclosure () -> String, expected: @autoclosure () -> String = "a number") -> Double? {
        guard case let .scalar(s) = n.kind, s.type == .number, let d = s.number else {
            error(n.loc, "\(what()) expects \(expected()), found \(Self.describe(n))")
            return nil
        }
        guard d.isFinite else {
            error(n.loc, "\(what()) must be a finite number, found \(quoted(s.text))",
                  hint: "NaN and infinity are not valid in a scene")
            return nil
        }
        guard abs(d) <= Limits.maxMagnitude else {
            error(n.loc, "\(what()) is out of range: \(quoted(s.text)) is larger in magnitude than \(Self.format(Limits.maxMagnitude))",
                  hint: "scene numbers are metres, points, seconds, degrees or Hz; none needs more than \(Self.format(Limits.maxMagnitude))")
            return nil
        }
        return d
    }

    /// A number satisfying `check`, which is described by `rule` ("greater than 0").
    func number(_ n: YNode, _ what: @autoclosure () -> String, rule: @autoclosure () -> String,
                _ check: (Double) -> Bool) -> Double? {
        guard let d = number(n, what(), expected: "a number \(rule())") else { return nil }
        guard check(d) else {
            error(n.loc, "\(what()) must be \(rule()), found \(Self.format(d))")
            return nil
        }
        return d
    }

    func positive(_ n: YNode, _ what: @autoclosure () -> String) -> Double? { number(n, what(), rule: "greater than 0") { $0 > 0 } }
    func nonNegative(_ n: YNode, _ what: @autoclosure () -> String) -> Double? { number(n, what(), rule: "0 or more") { $0 >= 0 } }

    func bool(_ n: YNode, _ what: @autoclosure () -> String) -> Bool? {
        if case let .scalar(s) = n.kind, s.type == .bool, let b = s.bool { return b }
        error(n.loc, "\(what()) expects true or false, found \(Self.describe(n))")
        return nil
    }

    /// Any non-empty scalar as text (so `label: 42` reads as "42").
    func string(_ n: YNode, _ what: @autoclosure () -> String) -> String? {
        if case let .scalar(s) = n.kind, s.type != .null { return s.text }
        error(n.loc, "\(what()) expects a string, found \(Self.describe(n))")
        return nil
    }

    /// One of `E`'s raw values. A value that is not one is an error suggesting the closest name:
    /// the one `aliases` maps it to (lowercased; abbreviations such as `cm`, which are too far from
    /// any name for the edit distance), else the nearest by edit distance.
    /// `hints`: lower-cased names that are no value of `E` but name something people model with
    /// one (a UI component that is not a role) → what to write instead; it replaces the "did you
    /// mean" of a close spelling.
    func enumValue<E: RawRepresentable & CaseIterable>(_ n: YNode, _ what: @autoclosure () -> String, _: E.Type,
                                                       aliases: [String: E] = [:], hints: [String: String] = [:]) -> E?
    where E.RawValue == String {
        guard case let .scalar(s) = n.kind, s.type != .null else {
            let names = E.allCases.map(\.rawValue)
            error(n.loc, "\(what()) expects one of \(Self.quoteList(names)), found \(Self.describe(n))")
            return nil
        }
        if let v = E(rawValue: s.text) { return v }
        let names = E.allCases.map(\.rawValue)
        let match = aliases[s.text.lowercased()]?.rawValue ?? suggest(s.text, in: names)
        // Every name (the roles are the longest list, 20): the one wanted may be far from the typo.
        error(n.loc, "\(what()) expects one of \(Self.quoteList(names, limit: 32)), found '\(quoted(s.text))'",
              hint: hints[s.text.lowercased()] ?? match.map { "did you mean '\($0)'?" })
        return nil
    }

    /// A list of exactly `count` finite numbers, described by `shape` ("[x, y, z] in metres").
    func numbers(_ n: YNode, count: Int, _ what: @autoclosure () -> String, shape: @autoclosure () -> String) -> [Double]? {
        guard case let .sequence(items) = n.kind else {
            error(n.loc, "\(what()) expects \(shape()), found \(Self.describe(n))")
            return nil
        }
        guard items.count == count else {
            error(n.loc, "\(what()) expects \(shape()) (\(count) numbers), found \(Self.describe(n))")
            return nil
        }
        var out: [Double] = []
        out.reserveCapacity(count)
        for item in items {
            // The usual case first, without the call: a finite number in range (as `number` accepts).
            if case let .scalar(s) = item.kind, s.type == .number, let d = s.number, d.isFinite, abs(d) <= Limits.maxMagnitude {
                out.append(d)
            } else if let d = number(item, "an item of \(what())") {
                out.append(d)
            }
        }
        return out.count == count ? out : nil
    }

    /// `numbers(n, count: 4, …)` without the array: the same checks, messages and order.
    func numbers4(_ n: YNode, _ what: @autoclosure () -> String, shape: @autoclosure () -> String) -> SIMD4<Double>? {
        guard case let .sequence(items) = n.kind else {
            error(n.loc, "\(what()) expects \(shape()), found \(Self.describe(n))")
            return nil
        }
        guard items.count == 4 else {
            error(n.loc, "\(what()) expects \(shape()) (4 numbers), found \(Self.describe(n))")
            return nil
        }
        var out = SIMD4<Double>()
        var ok = true
        for j in 0..<4 {
            let item = items[j]
            if case let .scalar(s) = item.kind, s.type == .number, let d = s.number, d.isFinite, abs(d) <= Limits.maxMagnitude {
                out[j] = d
            } else if let d = number(item, "an item of \(what())") {
                out[j] = d
            } else {
                ok = false
            }
        }
        return ok ? out : nil
    }

    func vec3(_ n: YNode, _ what: @autoclosure () -> String, shape: @autoclosure () -> String = "[x, y, z] in metres") -> Vec3? {
        guard let v = numbers(n, count: 3, what(), shape: shape()) else { return nil }
        return Vec3(v[0], v[1], v[2])
    }

    static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
        return String(d)
    }
}

/// A mapping with its keys checked against the keys the context allows.
struct YMap {
    let node: YNode
    let pairs: [YPair]
    var loc: SourceLocation { node.loc }

    subscript(key: String) -> YNode? { index(of: key).map { pairs[$0].value } }
    func keyLoc(_ key: String) -> SourceLocation? { index(of: key).map { pairs[$0].keyLoc } }
    func has(_ key: String) -> Bool { index(of: key) != nil }

    /// The first pair whose key equals `key` (as `==` decides). Lookup keys are the loader's own
    /// ASCII names (checked in debug builds), so a pair with an ASCII key of another length is
    /// skipped without a string comparison.
    func index(of key: String) -> Int? {
        assert(YPair.asciiLength(of: key) >= 0, "YMap lookup keys are ASCII")
        let n = key.utf8.count
        return pairs.firstIndex { $0.keyEquals(ascii: key, length: n) }
    }

    /// Whether `key` is one of `allowed` (the loader's ASCII key names), as `allowed.contains(key)`.
    static func isAllowed(_ p: YPair, in allowed: [String]) -> Bool {
        if p.asciiLength < 0 { return allowed.contains(p.key) }
        return allowed.contains { $0.utf8.count == p.asciiLength && $0 == p.key }
    }

    /// Reports every key not in `allowed`. `elsewhere` maps keys that are valid in other contexts to
    /// an explanation ("applies to window, volume").
    /// `hints` maps keys people write here by mistake to what to do instead (replacing "did you mean").
    func checkKeys(_ allowed: [String], in what: @autoclosure () -> String, reader: Reader, elsewhere: [String: String] = [:],
                   hints: [String: String] = [:]) {
        for p in pairs where !Self.isAllowed(p, in: allowed) {
            if let other = elsewhere[p.key] {
                reader.error(p.keyLoc, "'\(quoted(p.key))' is not a key of \(what()); it \(other)")
                continue
            }
            let hint: String
            if let given = hints[p.key] {
                hint = given
            } else if let m = reader.suggest(p.key, in: allowed) {
                hint = "did you mean '\(m)'?"
            } else if reader.firstUnknown(p.key, allowed: allowed) {
                hint = "valid keys: " + Reader.quoteList(allowed, limit: 40)
            } else {
                hint = "valid keys as above"
            }
            reader.error(p.keyLoc, "unknown key '\(quoted(p.key))' in \(what())", hint: hint)
        }
    }

    /// The value of the pair at `index` (-1: none), for an index found by key beforehand.
    func value(_ index: Int) -> YNode? { index >= 0 && index < pairs.count ? pairs[index].value : nil }

    /// `require(key, …)` for the pair at `index` (-1: none), found beforehand as `index(of: key)`.
    func require(_ index: Int, _ key: String, in what: @autoclosure () -> String, reader: Reader,
                 hint: @autoclosure () -> String? = nil) -> YNode? {
        if let v = value(index) { return v }
        reader.error(loc, "\(what()) is missing the required key '\(key)'", hint: hint())
        return nil
    }

    /// Reports a missing required key at the mapping's location.
    func require(_ key: String, in what: @autoclosure () -> String, reader: Reader,
                 hint: @autoclosure () -> String? = nil) -> YNode? {
        if let v = self[key] { return v }
        reader.error(loc, "\(what()) is missing the required key '\(key)'", hint: hint())
        return nil
    }
}
