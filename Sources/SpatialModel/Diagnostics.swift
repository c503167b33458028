/// A line and column in a scene file, both starting at 1.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: Self, b: Self) -> Bool { (a.line, a.column) < (b.line, b.column) }
    public var description: String { "\(line):\(column)" }
}

/// One problem found while loading a scene or importing an asset.
///
/// Rendered as `file:line:column: error: message` followed by an indented hint, like a compiler,
/// so editors and CI logs link straight to the spot.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    /// The file the problem is in (a scene file or an asset), as the user named it.
    public var file: String
    public var location: SourceLocation?
    /// What is wrong, including what was expected and what was found.
    public var message: String
    /// What to do about it, when there is something useful to say (e.g. "did you mean 'position'?").
    public var hint: String?

    public init(_ severity: Severity = .error, file: String, location: SourceLocation? = nil,
                message: String, hint: String? = nil) {
        self.severity = severity; self.file = file; self.location = location
        self.message = message; self.hint = hint
    }

    /// For a terminal or a log: the file, message and hint pass through `Escape.text`, so the only
    /// line break is the one before the hint and nothing from input can start a line or a control
    /// sequence.
    public var description: String {
        var s = Escape.text(file)
        if let location { s += ":\(location.line):\(location.column)" }
        s += ": \(severity.rawValue): \(Escape.text(message))"
        if let hint { s += "\n    hint: \(Escape.text(hint))" }
        return s
    }
}

/// A scene or asset that could not be loaded, with every problem found in one pass.
public struct LoadFailure: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Suggests the closest of `candidates` to a misspelt `word` (Levenshtein distance, case-insensitive),
/// or nil when nothing is close enough to be a plausible typo.
public func closestMatch(to word: String, in candidates: some Sequence<String>) -> String? {
    let w = Array(word.lowercased())
    var best: (match: String, distance: Int)?
    for c in candidates {
        let d = editDistance(w, Array(c.lowercased()))
        if let b = best, d > b.distance || (d == b.distance && c >= b.match) { continue }
        best = (c, d)
    }
    guard let best else { return nil }
    let limit = max(2, w.count / 3)
    return best.distance <= limit ? best.match : nil
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                cur[j] = Swift.min(cur[j], before[j - 2] + 1)
            }
        }
        (before, prev, cur) = (prev, cur, before)
    }
    return prev[b.count]
}
