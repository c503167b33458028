import Foundation

/// The one list of hostile strings every output sink is tested with (issue 19, items 3–5): terminal
/// control sequences, invisible and direction-changing characters, forged CI annotations, markup,
/// mentions, script URLs and spreadsheet formulas.
enum HostileStrings {
    static let clearScreen = "\u{1B}[2J\u{1B}[Hcleared"
    static let oscTitle = "\u{1B}]0;pwned-title\u{07}"
    static let oscHyperlink = "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\"
    static let bell = "ring\u{07}bell"
    static let nul = "nul\u{0}byte"
    static let rightToLeftOverride = "invoice\u{202E}fdp.exe"
    static let isolates = "\u{2066}a\u{2069}\u{2067}b\u{2069}\u{2068}c\u{2069}"
    static let separators = "line\u{2028}separator\u{2029}paragraph"
    static let zeroWidth = "zero\u{200B}width\u{200C}non\u{200D}joiner\u{2060}word\u{FEFF}bom"
    static let forgedAnnotation = "ok\n::error file=x::forged"
    static let script = "<script>alert(1)</script>"
    static let escapedImage = "\\<img src=x onerror=alert(1)>"
    static let mention = "@octocat"
    static let javascriptURL = "javascript:alert(1)"
    static let formula = "=HYPERLINK(\"https://evil.example\",\"click\")"
    /// Workflow commands that need no line break when the value itself starts a line.
    static let lineStartAnnotation = "::error file=x::forged"
    static let legacyCommand = "##[error]forged"

    static let all: [String] = [
        clearScreen, oscTitle, oscHyperlink, bell, nul, rightToLeftOverride, isolates, separators, zeroWidth,
        forgedAnnotation, script, escapedImage, mention, javascriptURL, formula, lineStartAnnotation, legacyCommand,
    ]

    /// All of them in one string (for fields that hold one value).
    static let combined = all.joined(separator: " ")

    /// Scalars that must never appear raw in any output: ESC, BEL, NUL, other C0/C1 controls except
    /// the line break and tab a format uses itself, DEL, bidi overrides, embeddings, isolates and
    /// marks, line and paragraph separators, zero-width characters and the BOM.
    static func isForbidden(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x08, 0x0B...0x1F, 0x7F...0x9F: return true
        case 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029, 0x2060, 0xFEFF, 0x061C: return true
        default: return false
        }
    }

    /// What is wrong with `output` for a sink: raw forbidden scalars, a forged annotation at the
    /// start of a line, and (for HTML, Markdown and XML, `markup: true`) raw `<script` or `<img`.
    /// `githubCommands: true` is for `--format github`, whose lines are workflow commands of its
    /// own: there every line must be exactly one of them (`isOwnGitHubCommand`) instead.
    static func problems(in output: String, markup: Bool, githubCommands: Bool = false) -> [String] {
        var found: [String] = []
        let bad = Set(output.unicodeScalars.filter(isForbidden).map { String($0.value, radix: 16, uppercase: true) })
        if !bad.isEmpty { found.append("raw U+" + bad.sorted().joined(separator: ", U+")) }
        if !githubCommands, output.contains("\n::error") || output.hasPrefix("::error") { found.append("forged ::error line") }
        // CI runners read a line whose first non-blank characters are `::` or `##[` as a command.
        for line in output.split(separator: "\n") {
            if githubCommands {
                if !isOwnGitHubCommand(line) { found.append("not one of our workflow commands: \(line.prefix(60))") }
                continue
            }
            let start = line.drop { $0 == " " || $0 == "\t" }
            if start.hasPrefix("::") || start.hasPrefix("##[") || start.hasPrefix("##vso[") {
                found.append("a line that is a CI command: \(line.prefix(60))")
            }
        }
        if markup {
            let lower = output.lowercased()
            // The HTML report's own inline scripts open as `<script>` and a line break, and each 3D
            // replay's data as `<script type="application/json" class="replay-data">`; any other
            // raw `<script` came from input.
            let ours = lower.replacingOccurrences(of: "<script>\n", with: "")
                .replacingOccurrences(of: "<script type=\"application/json\" class=\"replay-data\">", with: "")
            if ours.contains("<script") { found.append("raw <script") }
            if lower.contains("<img") { found.append("raw <img") }
        }
        return found
    }

    /// True when `line` is exactly one workflow command as `--format github` writes it:
    /// `::error|warning|notice file=F,line=L,col=C,title=T::MESSAGE`, L and C positive integers,
    /// F and T without a raw `:` or `,` (percent-encoded, so a value can neither end the
    /// properties nor add one), and a MESSAGE without a raw line break (a forged
    /// `\n::error file=x::forged` stays inside it as `%0A::error file=x::forged`). The first `::`
    /// after the command ends the properties; a `::` inside the message is text, not a command.
    static func isOwnGitHubCommand(_ line: Substring) -> Bool {
        guard let kind = ["error", "warning", "notice"].first(where: { line.hasPrefix("::\($0) file=") }) else { return false }
        let rest = line.dropFirst("::\(kind) file=".count)
        guard let end = rest.range(of: "::") else { return false }
        let properties = rest[..<end.lowerBound].split(separator: ",", omittingEmptySubsequences: false)
        let message = rest[end.upperBound...]
        guard properties.count == 4, !properties.contains(where: { $0.contains(":") }),
              properties[1].hasPrefix("line="), let l = Int(properties[1].dropFirst(5)), l >= 1,
              properties[2].hasPrefix("col="), let c = Int(properties[2].dropFirst(4)), c >= 1,
              properties[3].hasPrefix("title="), properties[3].count > 6 else { return false }
        return !message.contains("\r") && !message.contains("\n")
    }
}
