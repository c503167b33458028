import Foundation

/// How the catalog's sources read for people: the HIG page and section only. The catalog's
/// internal tags — seed-file tags (`S0`, `S1`, `S0, S1`, `S1 only`, `(S3 same)`, `S2 Color`) and
/// references to the spec (`hig-rules §2.3`) — stay in the data and never reach `rules`,
/// `explain`, reports or the generated docs.
extension RuleCatalog {
    public static func forPeople(_ text: String) -> String {
        var s = text
        for (pattern, replacement) in displayPatterns {
            s = s.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return s.trimmingCharacters(in: .whitespaces)
    }

    /// Applied in order. A tag is `S` and one digit as a word of its own.
    static let displayPatterns: [(String, String)] = [
        // "(hig-rules §2.3)" and a bare "hig-rules §0.3".
        (#"\s*\(hig-rules §[0-9.]*[0-9]\)"#, ""),
        (#"\s*hig-rules §[0-9.]*[0-9]"#, ""),
        // " · S0, S1", " · S0/S1", " · S1 only".
        (#"\s*·\s*S[0-9](\s*[,/]\s*S[0-9])*(\s+only)?\b"#, ""),
        // "(S3 same)", "(S0, S1)", and any remark about a seed file ("(heading lost in S0 body)").
        (#"\s*\([^()]*\bS[0-9]\b[^()]*\)"#, ""),
        // "S2 Color (4.5:1 …)": the seed's own name stays.
        (#"\bS[0-9]\s+(?=[A-Z])"#, ""),
        // A tag left alone after a separator ("; S1 only").
        (#"(^|[;,]\s*)S[0-9](\s+only)?\b"#, "$1"),
    ]
}

extension Citation {
    /// The HIG page and section (`page › section`), as people see it (no seed tag).
    public var displayText: String { RuleCatalog.forPeople(section.isEmpty ? page : "\(page) › \(section)") }
}
