import Foundation
import SpatialModel
import Rules

/// Violations of one rule in one container with the same cause, shown to people as one finding
/// ("15 pairs in calculator measure 56 pt, threshold 60 pt") with the list behind it. Folding is
/// for the people-facing formats only (text, Markdown, HTML); JSON, SARIF, JUnit, xcode, github and
/// fingerprints stay one result per violation.
public struct ViolationGroup: Sendable {
    /// The rule id of every member.
    public var rule: String
    /// The severity of every member.
    public var severity: Severity
    /// The deepest entity path that holds every entity of every member ("" = the scene root).
    public var container: String
    /// What the members have in common beyond rule, container and severity: the sub-check (the
    /// unit of the measurement), the baseline status and the form of the message with entity
    /// paths and numbers taken out. Equal keys (with equal rule, container and severity) fold.
    public var cause: String
    /// The violations, in the order of the report.
    public var members: [ReportViolation]
    /// One line for people: how many, where, the measured value (or its range `min–max`) and the
    /// threshold (or its range). Plain text from input (paths, units): renderers escape it.
    public var summary: String

    public init(rule: String, severity: Severity, container: String, cause: String, members: [ReportViolation], summary: String) {
        self.rule = rule; self.severity = severity; self.container = container; self.cause = cause
        self.members = members; self.summary = summary
    }

    /// More than one member: shown once, with the members behind it.
    public var isFolded: Bool { members.count > 1 }
    public var count: Int { members.count }
    /// Smallest and largest measured value of the members.
    public var measuredRange: ClosedRange<Double> { ViolationGroup.range(members.map { $0.measured }) }
    /// Smallest and largest threshold of the members.
    public var thresholdRange: ClosedRange<Double> { ViolationGroup.range(members.map { $0.threshold }) }

    static func range(_ xs: [Double]) -> ClosedRange<Double> {
        let finite = xs.filter { !$0.isNaN }
        guard let lo = finite.min(), let hi = finite.max() else { return 0...0 }
        return lo...hi
    }
}

/// Folds violations (one scene's, in report order) into groups: violations with the same rule,
/// severity, container (`ViolationGroup.container`) and cause (`ViolationGroup.cause`) form one
/// group; any other violation is a group of one. Groups are in the order of their first member in
/// report order; members worst first (`foldMargin`, the farthest past its threshold; equal ones in
/// report order), so a group's first line, message and location are its worst member's (a keypad's
/// 4 pt gaps before its 5.66 pt diagonals), and the same input gives the same groups.
///
/// `omitted`: what `--max-violations` left out of the scene's list (`SceneReport.omitted`). A folded
/// group whose rule and severity lost violations to the limit says in its summary that its count
/// and range are of the listed ones, and how many the scene has (trial s19 F8a: "100 pairs in shelf"
/// of 1,907).
public func foldViolations(_ violations: [ReportViolation], omitted: [OmittedViolations] = []) -> [ViolationGroup] {
    // (The container is hashed and compared by its bytes: `PathKey`.)
    struct Key: Hashable {
        var rule: String; var severity: Severity; var container: String; var cause: String
        static func == (a: Key, b: Key) -> Bool {
            a.rule == b.rule && a.severity == b.severity && PathKey(a.container) == PathKey(b.container) && a.cause == b.cause
        }
        func hash(into h: inout Hasher) { h.combine(rule); h.combine(severity); h.combine(PathKey(container)); h.combine(cause) }
    }
    var order: [Key] = []
    var members: [[ReportViolation]] = []
    var group: [Key: Int] = [:]
    for v in violations {
        let key = Key(rule: v.rule, severity: v.severity, container: foldContainer(v.entities), cause: foldCause(v))
        if let g = group[key] {
            members[g].append(v)
        } else {
            group[key] = order.count
            order.append(key)
            members.append([v])
        }
    }
    var containers = order.map(\.container)
    mergeSameParts(&order, &members, &containers)
    // Per rule and severity with violations left out: (listed, left out).
    var limited: [String: (listed: Int, left: Int)] = [:]
    for o in omitted where o.count > 0 { limited["\(o.severity.rawValue) \(o.rule)", default: (0, 0)].left += o.count }
    if !limited.isEmpty {
        for v in violations { limited["\(v.severity.rawValue) \(v.rule)"]?.listed += 1 }
    }
    return order.indices.map { g in
        let key = order[g], found = members[g], container = containers[g]
        let vs = found.count < 2 ? found : found.enumerated().sorted { a, b in
            let ma = foldMargin(a.element), mb = foldMargin(b.element)
            return ma != mb ? ma > mb : a.offset < b.offset
        }.map(\.element)
        var summary = foldSummary(vs, container: container)
        if vs.count > 1, let l = limited["\(key.severity.rawValue) \(key.rule)"] {
            summary += foldListedNote(rule: key.rule, severity: key.severity, listed: l.listed, left: l.left)
        }
        return ViolationGroup(rule: key.rule, severity: key.severity, container: container, cause: key.cause,
                              members: vs, summary: summary)
    }
}

/// How far a violation is past its threshold, |measured − threshold| (a violation is always on the
/// wrong side of it, whichever way its rule counts worse), for the order of a group's members: the
/// members of one group share rule, severity and sub-check. 0 when either is not a number.
func foldMargin(_ v: ReportViolation) -> Double {
    let m = abs(v.measured - v.threshold)
    return m.isFinite ? m : 0
}

/// The deepest common ancestor of the parents of `entities` ("" when they share none, or for a
/// scene-wide violation): the longest prefix of the first path's parent that ends at a component
/// boundary of every path's parent and equals its start, compared by UTF-8 bytes (a `/` byte never
/// occurs inside a multi-byte character, so components are whole scalars). `snapshotPlan` folds
/// every tracked violation of a scene (up to `--max-tracked`), so this runs 500,000 times for
/// 1,000 stacked buttons: no array of components per path.
func foldContainer(_ entities: [String]) -> String {
    guard let firstPath = entities.first else { return "" }
    let slash = UInt8(ascii: "/")
    func parent(_ s: String) -> [UInt8] {
        let bytes = Array(s.utf8)
        return Array(bytes[..<(bytes.lastIndex(of: slash) ?? 0)])
    }
    let first = parent(firstPath)
    var common = first.count
    for e in entities.dropFirst() {
        let q = parent(e)
        var i = 0
        while i < common, i < q.count, first[i] == q[i] { i += 1 }
        if (i == common || first[i] == slash) && (i == q.count || q[i] == slash) {
            common = i
        } else {
            common = first[..<i].lastIndex(of: slash) ?? 0
        }
    }
    return String(decoding: first[..<common], as: UTF8.self)
}

/// The cause key of a violation: its unit (a sub-check measures in a unit of its own), its
/// baseline status, and its message with its entity paths replaced by `‹e›` and every number by `#`.
func foldCause(_ v: ReportViolation) -> String {
    "\(v.unit)|\(v.baseline?.rawValue ?? "")|\(foldTemplate(v))"
}

/// `mergeSameParts`' key: rule, severity and cause; the objects' parent; the part's name.
private struct FoldPart: Hashable { var key: String; var parent: PathKey; var name: String }

/// Folds the same part of sibling objects into their container, as the objects themselves would
/// fold: when a scene makes one node of each of 64 models a target (`board/p00/nodes_0_`,
/// `board/p01/nodes_0_`, …), each node's parent is its own model, so the first grouping leaves 64
/// groups of one. Groups whose members are each one entity with the same last path component `N`,
/// inside containers that share a non-empty parent `P` (`P/m1/N`, `P/m2/N`), with equal rule,
/// severity and cause, become one group in `P`, at the first one's place. Windows at the scene's
/// root (no `P`) stay apart.
private func mergeSameParts<Key>(_ order: inout [Key], _ members: inout [[ReportViolation]], _ containers: inout [String]) {
    let slash = UInt8(ascii: "/")
    var first: [FoldPart: Int] = [:]
    var into = Array(0..<order.count)
    var parents: [Int: String] = [:]
    var merged = false
    for (g, vs) in members.enumerated() {
        guard let v = vs.first, v.entities.count == 1 else { continue }
        let path = Array(v.entities[0].utf8)
        guard let last = path.lastIndex(of: slash), let mid = path[..<last].lastIndex(of: slash), mid > 0 else { continue }
        let name = String(decoding: path[(last + 1)...], as: UTF8.self)
        let parent = String(decoding: path[..<mid], as: UTF8.self)
        // Every member the same part name in the same parent (a group of one, in practice).
        guard vs.allSatisfy({ m in
            m.entities.count == 1 && m.entities[0].utf8.count == path.count && m.entities[0].hasSuffix("/" + name)
                && m.entities[0].hasPrefix(parent + "/")
        }) else { continue }
        let part = FoldPart(key: "\(v.rule)|\(v.severity.rawValue)|\(foldCause(v))", parent: PathKey(parent), name: name)
        if let g0 = first[part] { into[g] = g0; parents[g] = parent; merged = true } else { first[part] = g }
    }
    guard merged else { return }
    var keptOrder: [Key] = [], keptMembers: [[ReportViolation]] = [], keptContainers: [String] = []
    var at: [Int: Int] = [:]
    for g in members.indices {
        if into[g] == g {
            at[g] = keptMembers.count
            keptOrder.append(order[g]); keptMembers.append(members[g]); keptContainers.append(containers[g])
        } else if let k = at[into[g]] {
            keptMembers[k] += members[g]
            keptContainers[k] = parents[g] ?? keptContainers[k]
        }
    }
    order = keptOrder; members = keptMembers; containers = keptContainers
}

/// The marker an entity path becomes in a cause.
private let foldEntityMarker = "\u{2039}e\u{203A}"

/// The message of `v` with its entities and numbers taken out (`foldCause`), on UTF-8 bytes:
/// every occurrence of an entity path (its exact scalars; longest paths first, so that `a/b` is
/// not half-replaced through `a`, each over the message as the ones before left it, leftmost
/// first, non-overlapping) becomes `‹e›`, every run of ASCII digits `#`. Every fold (text, HTML,
/// Markdown, the snapshot plan) takes every violation's cause, up to 500,000 a scene with
/// `--max-violations 0`. Until session 17 messages or paths with a non-ASCII character went
/// through Foundation's `replacingOccurrences` and `Character`s instead: ~46 M instructions a
/// violation for 1.7 KB ids of `𝐀` (quadratic in the path's length), ten times the ASCII path at
/// any length (trial s17 §1).
func foldTemplate(_ v: ReportViolation) -> String {
    var message = Array(v.message.utf8)
    // A saved report is untrusted: one violation with 100,000 entities and a long message would
    // scan the message 100,000 times (`foldReplacementBudget`); past the budget the remaining
    // entities are left in (such a violation folds only with an identical message). An empty
    // message (as `snapshotPlan` sees the violations whose messages are deferred) has nothing to
    // replace.
    var budget = foldReplacementBudget
    let marker = Array(foldEntityMarker.utf8)
    for e in message.isEmpty ? [] : v.entities.sorted(by: { $0.utf8.count > $1.utf8.count }) where !e.isEmpty {
        let pattern = Array(e.utf8)
        budget -= message.count + pattern.count
        if budget < 0 { break }
        message = replacingBytes(pattern, with: marker, in: message)
    }
    return String(decoding: foldNumbers(message), as: UTF8.self)
}

/// `text` with every non-overlapping occurrence of `pattern` (leftmost first) replaced, by a
/// Knuth–Morris–Pratt scan: linear in both lengths, so a repetitive path such as 400 × `𝐀` does not
/// cost its length times the message's, as a naive search does (folding causes; the HTML page's
/// elided paths, `elidingPaths`).
func replacingBytes(_ pattern: [UInt8], with replacement: [UInt8], in text: [UInt8]) -> [UInt8] {
    let m = pattern.count
    guard m > 0, m <= text.count else { return text }
    // fail[i]: length of the longest proper border of pattern[0...i].
    var fail = [Int](repeating: 0, count: m)
    var k = 0
    for i in 1..<max(1, m) {
        while k > 0 && pattern[i] != pattern[k] { k = fail[k - 1] }
        if pattern[i] == pattern[k] { k += 1 }
        fail[i] = k
    }
    var out: [UInt8] = []
    out.reserveCapacity(text.count + 8)
    var copied = 0
    k = 0
    for i in text.indices {
        while k > 0 && text[i] != pattern[k] { k = fail[k - 1] }
        if text[i] == pattern[k] { k += 1 }
        if k == m {
            // A match ends at i; the next one starts after it (no overlap).
            let at = i + 1 - m
            out += text[copied..<at]
            out += replacement
            copied = i + 1
            k = 0
        }
    }
    out += text[copied...]
    return out
}

/// Every run of ASCII digits as one `#`; a decimal point or thousands separator between digits
/// stays inside the number (`1.5` and `1,000` are one), a separator after one is kept.
private func foldNumbers(_ text: [UInt8]) -> [UInt8] {
    let dot = UInt8(ascii: "."), comma = UInt8(ascii: ",")
    var template: [UInt8] = []
    template.reserveCapacity(text.count)
    var inNumber = false
    var pendingSeparator: UInt8?
    for c in text {
        if c >= 0x30 && c <= 0x39 {
            if !inNumber { template.append(UInt8(ascii: "#")); inNumber = true }
            pendingSeparator = nil
        } else if inNumber && (c == dot || c == comma) && pendingSeparator == nil {
            pendingSeparator = c
        } else {
            if let s = pendingSeparator { template.append(s); pendingSeparator = nil }
            inNumber = false
            template.append(c)
        }
    }
    if let s = pendingSeparator { template.append(s) }
    return template
}

/// Bytes of message scanned per violation while taking its entity paths out (`foldCause`): far
/// above what `validate` writes (two entities, a message under 2,000 characters).
let foldReplacementBudget = 50_000_000

/// What the members are: entities (one entity each), pairs (two each) or findings.
func foldNoun(_ vs: [ReportViolation]) -> String {
    let n = vs.count
    let sizes = Set(vs.map { $0.entities.count })
    switch sizes.count == 1 ? sizes.first : nil {
    case 1?: return n == 1 ? "entity" : "entities"
    case 2?: return n == 1 ? "pair" : "pairs"
    default: return n == 1 ? "finding" : "findings"
    }
}

/// What a group's summary adds when `--max-violations` left violations of its rule and severity
/// out of the scene's list: its count and range are of the listed ones, and the scene has more
/// (" — listed ones only: the scene has 1,907 target-center-spacing errors, 100 listed").
func foldListedNote(rule: String, severity: Severity, listed: Int, left: Int) -> String {
    let total = listed + left
    let noun: String
    switch severity {
    case .error: noun = total == 1 ? "error" : "errors"
    case .warning: noun = total == 1 ? "warning" : "warnings"
    case .info: noun = "info"
    }
    return " (the listed ones: the scene has \(groupedThousands(Int64(total))) \(rule) \(noun), "
        + "\(groupedThousands(Int64(listed))) listed, \(groupedThousands(Int64(left))) not listed: --max-violations)"
}

/// "15 pairs in calculator measure 56 pt, threshold 60 pt"; a range of values as `min–max`.
func foldSummary(_ vs: [ReportViolation], container: String) -> String {
    let n = vs.count
    let noun = foldNoun(vs)
    let place = container.isEmpty ? "in the scene" : "in \(container)"
    let unit = vs.first?.unit ?? ""
    func value(_ r: ClosedRange<Double>) -> String {
        // Counts are whole numbers without the word ("2 words, at most 1" reads "measure 2, threshold 1").
        if unit == "count", r.lowerBound == r.lowerBound.rounded(), r.upperBound == r.upperBound.rounded(),
           abs(r.lowerBound) < 1e15, abs(r.upperBound) < 1e15 {
            let lo = Int(r.lowerBound), hi = Int(r.upperBound)
            return lo == hi ? "\(lo)" : "\(lo)–\(hi)"
        }
        let lo = fmtValue(r.lowerBound), hi = fmtValue(r.upperBound)
        return (lo == hi ? lo : "\(lo)–\(hi)") + (unit.isEmpty ? "" : " \(unit)")
    }
    // A yes/no check (no label, a control left up during coaching), a count or a duration checked
    // against 0 (`numbersSayNothing`): "measure 1.00 count, threshold 0.00 count" says nothing, so
    // the rule's own statement is named.
    if vs.allSatisfy({ numbersSayNothing(unit: $0.unit, $0.measured, $0.threshold) }),
       let name = RuleCatalog.metadata(id: vs.first?.rule ?? "")?.name {
        return "\(n) \(noun) \(place) \(n == 1 ? "does" : "do") not meet \"\(name)\""
    }
    let verb = n == 1 ? "measures" : "measure"
    return "\(n) \(noun) \(place) \(verb) \(value(ViolationGroup.range(vs.map { $0.measured }))), threshold \(value(ViolationGroup.range(vs.map { $0.threshold })))"
}
