import SpatialModel
import Rules

// A saved report read as a baseline (`validate --baseline`, `report --baseline`) is read as a
// stream: a small JSON tokenizer over the file, one scene at a time, keeping only what the gate
// compares (per scene path: each violation's rule, severity, fingerprint, measured value and
// threshold; the fingerprints of the violations left out of the lists). `Report.read` parses a
// report whole with JSONSerialization, about 11 bytes of memory per byte of report, and so refuses
// reports over about 140 MB; a 224 MB report of 100 scenes (2 KB entity paths) took 980 MB to read
// that way. Read as a stream it takes about 250 bytes per violation kept, whatever the paths.

extension Report {
    /// What reading a baseline may take: the file's size and the violations it keeps (each about
    /// 250 bytes of memory). Both are work limits, far above what `validate` writes for a
    /// project (a 224 MB report of 100 scenes lists 30,000 violations).
    public struct BaselineLimits: Sendable {
        /// The largest baseline file read, in bytes (4 GiB).
        public var bytes: Int64 = 4 << 30
        /// The most violations (listed or left out of the lists) a baseline may hold (2,000,000,
        /// about 600 MB kept).
        public var violations = 2_000_000
        public init() {}
        public init(bytes: Int64, violations: Int) { self.bytes = bytes; self.violations = violations }
    }

    /// Reads a saved report as a baseline: its scenes (path and status), their violations with
    /// rule, severity, fingerprint, unit, measured value, threshold and counts, and the fingerprints
    /// of the violations each scene left out. Entity paths are kept only in the scenes whose path
    /// is not in `currentScenePaths` but may be one of them seen from another folder (matched by
    /// their entities: `BaselineMatcher`); messages, spans, diagnostics and geometry are skipped.
    /// Scenes that are neither in `currentScenePaths` or `legacyScenePaths` (the paths as earlier
    /// versions wrote them) nor aligned with one are not kept: only the kept violations count
    /// against `limits.violations`, so a baseline of a whole suite gates a run of any part of it.
    /// `fixedDetails` reads the whole violations the comparison finds fixed. As strict as `parse`
    /// about structure (format tag, nesting ≤ 64, paths ≤ `maxReportPathBytes`); errors name the
    /// line, column and byte offset.
    public static func readBaseline(path: String, currentScenePaths: Set<String>, legacyScenePaths: Set<String> = [],
                                    limits: BaselineLimits = BaselineLimits(),
                                    role: String = "baseline report") throws(Diagnostic) -> Report {
        // A scene the run does not name can match one it does only when one path ends with the
        // other by whole components (`BaselineComparison.alignedScenePaths`): only those keep
        // their entities (a baseline of 100 scenes read for a run of one keeps none).
        func suffixes(_ p: String) -> [String] {
            let parts = p.split(separator: "/")
            return parts.indices.map { parts[$0...].joined(separator: "/") }
        }
        let current = Set(currentScenePaths.map { $0.split(separator: "/").joined(separator: "/") })
        let currentSuffixes = Set(currentScenePaths.flatMap(suffixes))
        func aligned(_ p: String) -> Bool {
            !currentScenePaths.contains(p)
                && (currentSuffixes.contains(p.split(separator: "/").joined(separator: "/")) || suffixes(p).contains { current.contains($0) })
        }
        let reader = try BaselineStream(path: path, role: role, limits: limits)
        // A scene the run neither names (nor named as earlier versions wrote paths) nor may meet
        // from another folder takes no part in the comparison (`BaselineMatcher` looks scenes up by
        // those paths, and its alignment counts only such scenes): it is not kept, so a baseline of
        // a whole suite read for a run of some of its scenes holds only theirs.
        return try reader.readReport(wanted: { p in
            currentScenePaths.contains(p) || legacyScenePaths.contains(p) || aligned(p)
        }) { scene in
            var s = scene
            let keepEntities = aligned(s.path)
            for i in s.violations.indices {
                if !keepEntities { s.violations[i].entities = [] }
            }
            return s
        }
    }

    /// Warnings for a baseline (`readBaseline`'s report) that lists a scene more often than the run
    /// names it: `validate` writes a scene once for each time its run names it, so the extra copies
    /// come from reports joined by hand or a crafted file. Every copy is still compared (a violation
    /// is known when any copy lists it; one the run no longer has is fixed once per copy), so the
    /// gate does not change; the warning names the scene and the count. At most `limit` scenes are
    /// named, then one warning counts the rest.
    public static func repeatedSceneWarnings(baseline: Report, path: String, currentScenePaths: [String],
                                             limit: Int = 5) -> [Diagnostic] {
        var named: [String: Int] = [:]
        for p in currentScenePaths { named[p, default: 0] += 1 }
        var copies: [String: Int] = [:], order: [String] = []
        for s in baseline.scenes {
            if copies[s.path] == nil { order.append(s.path) }
            copies[s.path, default: 0] += 1
        }
        func times(_ n: Int) -> String { n == 1 ? "once" : n == 2 ? "twice" : "\(groupedThousands(Int64(n))) times" }
        let repeated = order.filter { (copies[$0] ?? 0) > max(1, named[$0] ?? 0) }
        var out = repeated.prefix(max(0, limit)).map { p in
            let n = copies[p] ?? 0, run = named[p] ?? 0
            return Diagnostic(.warning, file: path,
                              message: "the baseline report lists the scene '\(p)' \(times(n)), and this run names it \(run == 0 ? "under another path" : times(run)): "
                                  + "every copy is compared (a violation is known when any copy lists it; one the run no longer has is fixed once per copy)",
                              hint: "write the baseline from one run (`spatialcheck validate … --format json --output \(path)`): "
                                  + "a report lists a scene once for each time its run names it, so reports joined by hand repeat their scenes")
        }
        if repeated.count > out.count {
            let rest = repeated.count - out.count
            out.append(Diagnostic(.warning, file: path,
                                  message: "the baseline report repeats \(groupedThousands(Int64(rest))) more scene\(rest == 1 ? "" : "s") in the same way"))
        }
        return out
    }

    /// The fixed entries of `comparison` (made with a baseline from `readBaseline`) completed from
    /// the file at `path`: their violations' entities, message and location, read again as a
    /// stream, keeping only those.
    public static func fixedDetails(_ comparison: BaselineComparison, baselinePath path: String,
                                    limits: BaselineLimits = BaselineLimits(),
                                    role: String = "baseline report") throws(Diagnostic) -> BaselineComparison {
        struct Key: Hashable { var scene: String; var fingerprint: String }
        // The entries of listed violations (a left-out one has its message from
        // `LeftOutViolation.violation` and nothing more to read); `readBaseline` keeps no message.
        func listed(_ e: BaselineEntry) -> ReportViolation? {
            guard e.status == .fixed, let b = e.baseline, b.message.isEmpty else { return nil }
            return b
        }
        var wanted = Set<Key>()
        for e in comparison.entries { if let b = listed(e) { wanted.insert(Key(scene: e.scene, fingerprint: b.fingerprint)) } }
        guard !wanted.isEmpty else { return comparison }
        let scenesWanted = Set(wanted.map(\.scene))
        // In the file's order: the entries of one scene path and fingerprint take them in turn.
        var found: [Key: [ReportViolation]] = [:]
        let reader = try BaselineStream(path: path, role: role, limits: limits, full: true)
        _ = try reader.readReport(wanted: { scenesWanted.contains($0) }) { scene in
            if scenesWanted.contains(scene.path) {
                for v in scene.violations {
                    let k = Key(scene: scene.path, fingerprint: v.fingerprint)
                    if wanted.contains(k) { found[k, default: []].append(v) }
                }
            }
            var s = scene
            s.violations = []
            return s
        }
        var out = comparison
        var taken: [Key: Int] = [:]
        for i in out.entries.indices {
            guard let b = listed(out.entries[i]) else { continue }
            let k = Key(scene: out.entries[i].scene, fingerprint: b.fingerprint)
            let n = taken[k, default: 0]
            guard let list = found[k], n < list.count else { continue }
            taken[k] = n + 1
            var v = list[n]
            v.baseline = b.baseline
            out.entries[i].baseline = v
        }
        return out
    }
}

/// The streaming reader behind `Report.readBaseline`: a JSON tokenizer over a file read in
/// 64 KiB pieces, with the line, column and byte offset of what it reads for its errors.
final class BaselineStream {
    private let file: FileName.Stream
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var pos = 0, end = 0
    /// Bytes of the file before `buffer[0]`.
    private var before = 0
    private var line = 1, lineStart = 0
    private var depth = 0
    private var violationsKept = 0
    /// Which scenes' violations are read (`readReport`).
    private var wanted: (String) -> Bool = { _ in true }
    let path: String
    let role: String
    let limits: Report.BaselineLimits
    /// Whether violations are read whole (entities, message, location, spans) or only what a
    /// baseline compares.
    let full: Bool

    init(path: String, role: String, limits: Report.BaselineLimits, full: Bool = false) throws(Diagnostic) {
        self.path = path; self.role = role; self.limits = limits; self.full = full
        do { file = try FileName.Stream(path, limit: limits.bytes) } catch {
            throw Report.readFailure(error, path: path, role: role, limit: limits.bytes,
                                     tooLargeHint: "a report this large lists millions of violations (written with --max-violations 0), more than spatialcheck reads back; fix the rules with the most violations first (the report's summary counts them) or save the baseline with the default --max-violations")
        }
    }

    // MARK: Errors

    private var offset: Int { before + pos }
    private static let writeHint = "pass a report written by `spatialcheck validate --format json`"

    /// An error at the current place: line, column and byte offset.
    func fail(_ message: String, _ hint: String? = BaselineStream.writeHint) -> Diagnostic {
        Diagnostic(file: path, location: SourceLocation(line: line, column: offset - lineStart + 1),
                   message: "\(message) (byte \(offset) of the \(role))", hint: hint)
    }

    private func invalid(_ expected: String) throws(Diagnostic) -> Diagnostic {
        guard let b = try peek() else {
            return fail("the \(role) ends in the middle of its JSON (truncated?)",
                        "the file was cut short: write the report again with `spatialcheck validate --format json --output FILE`")
        }
        let found = b >= 0x21 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
        return fail("not valid JSON: expected \(expected), found \(found)")
    }

    // MARK: Bytes

    private func refill() throws(Diagnostic) -> Bool {
        before += end
        pos = 0
        do { end = try file.read(into: &buffer) } catch {
            end = 0
            throw Diagnostic(file: path, message: "cannot read the \(role) (a read error after byte \(before))")
        }
        if Int64(before) + Int64(end) > limits.bytes {
            throw fail("the \(role) grew past the \(limits.bytes)-byte limit while it was read", nil)
        }
        return end > 0
    }

    @inline(__always) private func peek() throws(Diagnostic) -> UInt8? {
        if pos == end { guard try refill() else { return nil } }
        return buffer[pos]
    }

    @inline(__always) private func advance(_ b: UInt8) {
        pos += 1
        if b == 0x0A { line += 1; lineStart = offset }
    }

    /// The next byte that is not JSON white space, not consumed.
    private func nextToken() throws(Diagnostic) -> UInt8? {
        while let b = try peek() {
            switch b {
            case 0x20, 0x09, 0x0D, 0x0A: advance(b)
            default: return b
            }
        }
        return nil
    }

    private func expect(_ c: UInt8, _ what: String) throws(Diagnostic) {
        guard try nextToken() == c else { throw try invalid(what) }
        advance(c)
    }

    // MARK: Values

    enum Kind { case object, array, string, number, literal }

    private func kind() throws(Diagnostic) -> Kind {
        guard let b = try nextToken() else { throw try invalid("a value") }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: throw try invalid("a value")
        }
    }

    private func enter() throws(Diagnostic) {
        depth += 1
        if depth > 64 { throw fail("the \(role) nests deeper than 64 levels; it is not a spatialcheck report") }
    }

    /// Reads an object, calling `member` with each key; `member` must read or skip the value.
    /// Keys longer than 64 bytes are passed as "" (no key of a report is that long).
    func object(_ member: (String) throws(Diagnostic) -> Void) throws(Diagnostic) {
        try expect(UInt8(ascii: "{"), "'{'")
        try enter()
        if try nextToken() == UInt8(ascii: "}") { advance(UInt8(ascii: "}")); depth -= 1; return }
        while true {
            guard try nextToken() == UInt8(ascii: "\"") else { throw try invalid("a member name in quotes") }
            let (key, length) = try string(keep: 64)
            try expect(UInt8(ascii: ":"), "':' after a member name")
            try member(length > 64 ? "" : key)
            switch try nextToken() {
            case UInt8(ascii: ","): advance(UInt8(ascii: ","))
            case UInt8(ascii: "}"): advance(UInt8(ascii: "}")); depth -= 1; return
            default: throw try invalid("',' or '}'")
            }
        }
    }

    /// Reads an array, calling `element` with each index; `element` must read or skip the value.
    func array(_ element: (Int) throws(Diagnostic) -> Void) throws(Diagnostic) {
        try expect(UInt8(ascii: "["), "'['")
        try enter()
        if try nextToken() == UInt8(ascii: "]") { advance(UInt8(ascii: "]")); depth -= 1; return }
        var i = 0
        while true {
            try element(i)
            i += 1
            switch try nextToken() {
            case UInt8(ascii: ","): advance(UInt8(ascii: ","))
            case UInt8(ascii: "]"): advance(UInt8(ascii: "]")); depth -= 1; return
            default: throw try invalid("',' or ']'")
            }
        }
    }

    /// Reads a string: at most its first `keep` UTF-8 bytes (cut at a character's start), and
    /// its whole length in bytes. Strings are checked as UTF-8 and for JSON's escapes.
    func string(keep: Int) throws(Diagnostic) -> (String, Int) {
        try expect(UInt8(ascii: "\""), "'\"'")
        var bytes: [UInt8] = []
        var length = 0
        func add(_ b: UInt8) {
            length += 1
            if bytes.count < keep { bytes.append(b) }
        }
        func hex4() throws(Diagnostic) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let h = try peek() else { throw try invalid("four hex digits") }
                let d: UInt32
                switch h {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
                default: throw try invalid("four hex digits after \\u")
                }
                advance(h)
                v = v << 4 | d
            }
            return v
        }
        while true {
            // Plain bytes in bulk.
            if pos == end { guard try refill() else { throw try invalid("the end of a string") } }
            var i = pos
            while i < end {
                let b = buffer[i]
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 { break }
                i += 1
            }
            if i > pos {
                let n = i - pos
                if bytes.count < keep { bytes.append(contentsOf: buffer[pos..<min(i, pos + keep - bytes.count)]) }
                length += n
                pos = i
                continue
            }
            guard let b = try peek() else { throw try invalid("the end of a string") }
            if b == UInt8(ascii: "\"") { advance(b); break }
            if b < 0x20 { throw try invalid("a character (control characters are escaped in JSON strings)") }
            advance(b)   // the backslash
            guard let e = try peek() else { throw try invalid("an escape") }
            advance(e)
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): add(e)
            case UInt8(ascii: "b"): add(0x08)
            case UInt8(ascii: "f"): add(0x0C)
            case UInt8(ascii: "n"): add(0x0A)
            case UInt8(ascii: "r"): add(0x0D)
            case UInt8(ascii: "t"): add(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    // A high surrogate: its low half follows as another \u escape.
                    guard try peek() == UInt8(ascii: "\\") else { throw try invalid("the low half of a surrogate pair") }
                    advance(UInt8(ascii: "\\"))
                    guard try peek() == UInt8(ascii: "u") else { throw try invalid("the low half of a surrogate pair") }
                    advance(UInt8(ascii: "u"))
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("not valid JSON: a surrogate pair's low half is missing") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("not valid JSON: a lone low surrogate")
                }
                for u in String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8 { add(u) }
            default: throw fail("not valid JSON: unknown escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        // A cut string ends at the start of a character.
        if length > bytes.count {
            while let last = bytes.last, last & 0xC0 == 0x80 { bytes.removeLast() }
            if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
        }
        guard let s = String(validating: bytes, as: UTF8.self) else { throw fail("a string of the \(role) is not valid UTF-8") }
        return (s, length)
    }

    /// Skips a string without keeping it (still checked for JSON's escapes).
    private func skipString() throws(Diagnostic) {
        _ = try string(keep: 0)
    }

    /// Reads a number token.
    func number() throws(Diagnostic) -> Double {
        var text = ""
        while let b = try peek() {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard text.utf8.count < 64 else { throw fail("not valid JSON: a number of more than 64 characters") }
                text.append(Character(Unicode.Scalar(b)))
                advance(b)
            default:
                guard let d = Double(text) else { throw fail("not valid JSON: '\(text)' is not a number") }
                return d
            }
        }
        throw try invalid("the rest of the report")
    }

    /// Reads true, false or null: true/false as 1/0, null as nil.
    private func literal() throws(Diagnostic) -> Double? {
        for (word, value) in [("true", 1.0), ("false", 0.0), ("null", Double.nan)] {
            guard try peek() == word.utf8.first else { continue }
            for c in word.utf8 {
                guard try peek() == c else { throw try invalid("'\(word)'") }
                advance(c)
            }
            return value.isNaN ? nil : value
        }
        throw try invalid("a value")
    }

    /// Skips any value.
    func skip() throws(Diagnostic) {
        switch try kind() {
        case .object: try object { _ throws(Diagnostic) in try self.skip() }
        case .array: try array { _ throws(Diagnostic) in try self.skip() }
        case .string: try skipString()
        case .number: _ = try number()
        case .literal: _ = try literal()
        }
    }

    /// A finite number (or a boolean, as 1 or 0, as `JSONSerialization` gives them), else nil;
    /// any other value is skipped.
    func optionalNumber() throws(Diagnostic) -> Double? {
        switch try kind() {
        case .number: let d = try number(); return d.isFinite ? d : nil
        case .literal: return try literal()
        default: try skip(); return nil
        }
    }

    /// A short keyword (a status or severity), nil when the value is not a string; only its first
    /// 16 bytes are kept, so a longer string matches no keyword.
    func optionalKeyword() throws(Diagnostic) -> String? {
        guard try kind() == .string else { try skip(); return nil }
        return try string(keep: 16).0
    }

    /// A string of at most `limit` bytes, nil when the value is not a string; a longer string is
    /// an error naming `what`.
    func optionalString(limit: Int, _ what: @autoclosure () -> String) throws(Diagnostic) -> String? {
        guard try kind() == .string else { try skip(); return nil }
        let (s, length) = try string(keep: limit + 1)
        guard length <= limit else {
            throw fail("\(what()) is \(length) bytes long; it is at most \(limit)")
        }
        return s
    }

    /// A string cut as `Report.capped` cuts messages, nil when the value is not a string.
    func optionalText() throws(Diagnostic) -> String? {
        guard try kind() == .string else { try skip(); return nil }
        // (A cut string keeps more than `maxReportTextBytes` bytes, so `capped` cuts it too.)
        let s = try string(keep: Report.maxReportTextBytes + 8).0
        return Report.capped(s)
    }

    // MARK: The report

    /// Reads the whole report, handing each scene (its violations normalized as `parse` does) to
    /// `keep`, which returns what of it to keep.
    /// Violations a scene holds, listed and left out (with their fingerprints), as the limit counts them.
    private static func held(_ s: SceneReport) -> Int {
        s.omitted.reduce(s.violations.count) { $0 + $1.violations.count }
    }

    /// Reads the report, handing each scene to `keep` as soon as it is read: what it returns is
    /// kept (nil: nothing), and only that counts against `limits.violations`. A scene whose path
    /// `wanted` refuses before its violations come (`validate` writes `path` first) has them
    /// skipped unread (still checked as JSON) and is not handed to `keep`.
    func readReport(wanted: @escaping (String) -> Bool = { _ in true },
                    _ keep: (SceneReport) throws(Diagnostic) -> SceneReport?) throws(Diagnostic) -> Report {
        self.wanted = wanted
        guard try nextToken() != nil else { throw fail("the \(role) is empty") }
        guard try kind() == .object else { throw fail("expected a JSON object at the top level") }
        var format: String?
        var scenes: [SceneReport]?
        var version = "?", pointAngle = Units.defaultPointAngle
        var failOn: Severity? = .error
        try object { key throws(Diagnostic) in
            switch key {
            case "format":
                let f = try self.optionalString(limit: 64, "format")
                guard f == Report.formatTag else {
                    throw self.fail("not a \(Report.formatTag) report (format is \(f ?? "not a string"))")
                }
                format = f
            case "tool":
                guard try self.kind() == .object else { try self.skip(); return }
                try self.object { k throws(Diagnostic) in
                    if k == "version", let v = try self.optionalText() { version = v } else if k != "version" { try self.skip() }
                }
            case "settings":
                guard try self.kind() == .object else { try self.skip(); return }
                try self.object { k throws(Diagnostic) in
                    switch k {
                    case "failOn":
                        let text = try self.kind() == .string ? try self.optionalString(limit: 16, "settings.failOn") : nil
                        switch text {
                        case "never": failOn = nil
                        case let t? where Severity(rawValue: t) != nil: failOn = Severity(rawValue: t)
                        default: throw self.fail("settings.failOn must be error, warning, info or never")
                        }
                    case "pointAngle": if let a = try self.optionalNumber() { pointAngle = a }
                    default: try self.skip()
                    }
                }
            case "scenes":
                guard try self.kind() == .array else { throw self.fail("'scenes' must be an array") }
                var list: [SceneReport] = []
                try self.array { i throws(Diagnostic) in
                    let scene = try self.scene(i)
                    guard self.wanted(scene.path) else {
                        self.violationsKept -= Self.held(scene)
                        return
                    }
                    let kept = try keep(scene)
                    // The limit is on what is held: what `keep` lets go no longer counts.
                    self.violationsKept -= Self.held(scene) - (kept.map(Self.held) ?? 0)
                    if let kept { list.append(kept) }
                }
                scenes = list
            case "shard":
                var index: Double?, count: Double?
                if try self.kind() == .object {
                    try self.object { k throws(Diagnostic) in
                        switch k {
                        case "index": index = try self.optionalNumber()
                        case "count": count = try self.optionalNumber()
                        default: try self.skip()
                        }
                    }
                } else { try self.skip() }
                guard let i = index, let n = count, abs(i) < 1e6, abs(n) < 1e6, Shard(index: Int(i), count: Int(n)) != nil else {
                    throw self.fail("'shard' must be {\"index\": i, \"count\": n} with 1 ≤ i ≤ n ≤ 1024",
                                    "pass a report written by `spatialcheck validate --shard i/n --format json`")
                }
            default:
                try self.skip()
            }
        }
        if try nextToken() != nil { throw fail("not valid JSON: more after the report's closing '}'") }
        guard format != nil else { throw fail("not a \(Report.formatTag) report (format is missing)") }
        guard let scenes else { throw fail("missing 'scenes' array") }
        return Report(toolVersion: version, pointAngle: pointAngle, failOn: failOn, scenes: scenes)
    }

    /// Reads scene `i` of the report.
    private func scene(_ i: Int) throws(Diagnostic) -> SceneReport {
        guard try kind() == .object else { throw fail("scenes[\(i)] needs 'path' and 'status' (checked or error)") }
        var path: String?, status: SceneReport.Status?
        var violations: [ReportViolation] = []
        var omitted: [OmittedViolations] = []
        var stopped: EarlyStop?
        var skipping = false
        try object { key throws(Diagnostic) in
            switch key {
            case "stopped": stopped = try self.earlyStop()
            case "path":
                path = try self.optionalString(limit: Report.maxReportPathBytes, "scenes[\(i)].path")
                skipping = path.map { !self.wanted($0) } ?? false
            case _ where skipping && (key == "violations" || key == "omittedViolations"):
                try self.skip()  // a scene this run does not compare (`wanted`)
            case "status":
                if let k = try self.optionalKeyword() { status = SceneReport.Status(rawValue: k) }
            case "violations":
                guard try self.kind() == .array else { try self.skip(); return }
                try self.array { j throws(Diagnostic) in violations.append(try self.violation(i, j)) }
            case "omittedViolations":
                guard try self.kind() == .array else { try self.skip(); return }
                try self.array { _ throws(Diagnostic) in if let o = try self.omitted() { omitted.append(o) } }
            default: try self.skip()
            }
        }
        guard let path, let status else { throw fail("scenes[\(i)] needs 'path' and 'status' (checked or error)") }
        var scene = SceneReport(path: path, status: status)
        scene.violations = violations
        scene.omitted = omitted
        scene.stopped = stopped
        scene.normalizeViolations()
        return scene
    }

    /// Reads a scene's `stopped` (what stopped it and after which frame, as `parse` reads it, without
    /// the projection): a comparison with a scene that stopped early is partial. nil when it is not one.
    private func earlyStop() throws(Diagnostic) -> EarlyStop? {
        guard try kind() == .object else { try skip(); return nil }
        var after: Double?, frames: Double?, limit: Double?, budget: Double?
        try object { key throws(Diagnostic) in
            switch key {
            case "afterFrame": after = try self.optionalNumber()
            case "frames": frames = try self.optionalNumber()
            case "trackingLimit": limit = try self.optionalNumber()
            case "pairTestBudget": budget = try self.optionalNumber()
            default: try self.skip()
            }
        }
        guard let after, let frames, after >= 0, after < 1e12, frames >= 0, frames < 1e12 else { return nil }
        if let budget, budget >= 0, budget < 1e18 { return EarlyStop(afterFrame: Int(after), frames: Int(frames), pairTestBudget: Int(budget)) }
        if let limit, limit >= 0, limit < 1e12 { return EarlyStop(afterFrame: Int(after), frames: Int(frames), trackingLimit: Int(limit)) }
        return nil
    }

    private func countViolation() throws(Diagnostic) {
        violationsKept += 1
        if violationsKept > limits.violations {
            throw fail("the \(role) lists more than \(limits.violations) violations for the scenes of this run (the fingerprints of violations left out of its listing included), more than spatialcheck reads back as a baseline",
                       "fix the rules with the most violations first (the report's summary counts them), or check the suite in parts (fewer scenes, or `--shard i/n`) with a baseline each")
        }
    }

    /// Reads violation `j` of scene `i`.
    private func violation(_ i: Int, _ j: Int) throws(Diagnostic) -> ReportViolation {
        try countViolation()
        let needs = "scenes[\(i)].violations[\(j)] needs rule, severity, measured and threshold"
        guard try kind() == .object else { throw fail(needs) }
        var rule: String?, severity: Severity?, measured: Double?, threshold: Double?
        var entities: [String] = [], spans: [ClosedRange<Int>] = []
        var unit = "", fingerprint = "", message = "", help = ""
        var frameCount = 0, worstFrame = 0, firstTime = 0.0, lastTime = 0.0, omittedSpans = 0
        var location: SourceLocation?
        var borderline = false
        try object { key throws(Diagnostic) in
            switch key {
            case "rule": rule = try self.optionalString(limit: Report.maxReportTextBytes, "scenes[\(i)].violations[\(j)].rule")
            case "severity":
                if let k = try self.optionalKeyword() { severity = Severity(rawValue: k) }
            case "measured": measured = try self.optionalNumber()
            case "threshold": threshold = try self.optionalNumber()
            case "unit": unit = try self.optionalString(limit: Report.maxReportTextBytes, "scenes[\(i)].violations[\(j)].unit") ?? ""
            case "fingerprint":
                fingerprint = try self.optionalString(limit: Report.maxReportTextBytes, "scenes[\(i)].violations[\(j)].fingerprint") ?? ""
            case "entities":
                guard try self.kind() == .array else { try self.skip(); return }
                try self.array { _ throws(Diagnostic) in
                    guard try self.kind() == .string else { try self.skip(); return }
                    let (e, length) = try self.string(keep: Report.maxReportPathBytes + 1)
                    guard length <= Report.maxReportPathBytes else {
                        throw self.fail("scenes[\(i)].violations[\(j)] names an entity path of \(length) bytes; an entity path is at most \(Report.maxReportPathBytes)")
                    }
                    entities.append(e)
                }
            case "frameCount": frameCount = Int(clamping: try self.optionalNumber() ?? 0)
            case "worstFrame": worstFrame = Int(clamping: try self.optionalNumber() ?? 0)
            case "firstTime": firstTime = try self.optionalNumber() ?? 0
            case "lastTime": lastTime = try self.optionalNumber() ?? 0
            case "message" where self.full: message = try self.optionalText() ?? ""
            case "help" where self.full:
                if try self.kind() == .string { help = try self.string(keep: Report.maxReportTextBytes).0 } else { try self.skip() }
            case "borderline" where self.full: borderline = (try self.optionalNumber() ?? 0) != 0
            case "omittedSpans": omittedSpans = Int(clamping: (try self.optionalNumber()).map { max(0, min($0, 1e12)) } ?? 0)
            case "location" where self.full:
                guard try self.kind() == .object else { try self.skip(); return }
                var l: Double?, c: Double?
                try self.object { k throws(Diagnostic) in
                    switch k {
                    case "line": l = try self.optionalNumber()
                    case "column": c = try self.optionalNumber()
                    default: try self.skip()
                    }
                }
                if let l, let c, abs(l) < 1e9, abs(c) < 1e9 { location = SourceLocation(line: Int(l), column: Int(c)) }
            case "spans" where self.full:
                guard try self.kind() == .array else { try self.skip(); return }
                try self.array { _ throws(Diagnostic) in
                    guard try self.kind() == .array else { try self.skip(); return }
                    var pair: [Double?] = []
                    try self.array { _ throws(Diagnostic) in pair.append(try self.optionalNumber()) }
                    guard pair.count == 2, let a = pair[0], let b = pair[1], a <= b, abs(a) < 1e12, abs(b) < 1e12 else { return }
                    spans.append(Int(a)...Int(b))
                }
            default: try self.skip()
            }
        }
        guard let rule, let severity, let measured, let threshold else { throw fail(needs) }
        var v = ReportViolation(rule: rule, severity: severity, entities: entities, spans: spans, frameCount: frameCount,
                                firstTime: firstTime, lastTime: lastTime, measured: measured, threshold: threshold, unit: unit,
                                worstFrame: worstFrame, message: message, help: help, fingerprint: fingerprint,
                                location: location, borderline: borderline)
        v.omittedSpans = omittedSpans
        return v
    }

    /// Reads one `omittedViolations` entry; nil when it is not one (as `parse` skips it).
    private func omitted() throws(Diagnostic) -> OmittedViolations? {
        guard try kind() == .object else { try skip(); return nil }
        var rule: String?, severity: Severity?, count: Double?
        var left: [LeftOutViolation] = []
        try object { key throws(Diagnostic) in
            switch key {
            case "rule": rule = try self.optionalString(limit: Report.maxReportTextBytes, "an omittedViolations rule")
            case "severity":
                if let k = try self.optionalKeyword() { severity = Severity(rawValue: k) }
            case "count": count = try self.optionalNumber()
            case "fingerprints":
                guard try self.kind() == .array else { try self.skip(); return }
                try self.array { _ throws(Diagnostic) in
                    guard try self.kind() == .array else { try self.skip(); return }
                    var fp: String?, m = Double.nan, t = Double.nan, n = 0
                    try self.array { k throws(Diagnostic) in
                        n += 1
                        switch k {
                        case 0:
                            if try self.kind() == .string { fp = String(try self.string(keep: 1024).0.prefix(64)) } else { try self.skip() }
                        case 1: m = try self.optionalNumber() ?? .nan
                        case 2: t = try self.optionalNumber() ?? .nan
                        default: try self.skip()
                        }
                    }
                    guard n == 3, let fp else { return }
                    try self.countViolation()
                    left.append(LeftOutViolation(fingerprint: fp, measured: m, threshold: t))
                }
            default: try skip()
            }
        }
        guard let rule, let severity, let count, count >= 1, count < 1e12 else { return nil }
        return OmittedViolations(rule: rule, severity: severity, count: Int(count), violations: Array(left.prefix(Int(count))))
    }
}
