/// One escaping function per output sink (docs/security.md). Every string that comes from input —
/// scene names, entity ids (also those taken from assets), clip names, asset paths, file names,
/// messages that quote them, and every string read back from a saved report — passes through the
/// function of the sink it is written to. Each is total (never fails) and idempotent in effect:
/// what it returns cannot change the sink's structure (no new line, no markup, no control
/// sequence, no annotation, no mention, no formula).
public enum Escape {
    /// Characters that must never reach a terminal, log or document raw: C0 and C1 controls (ESC,
    /// BEL, NUL, CSI …), DEL, bidirectional overrides and isolates (U+202A–202E, U+2066–2069,
    /// U+200E/200F, U+061C), line and paragraph separators (U+2028/2029), zero-width and other
    /// invisible format characters (U+200B–200D, U+2060–2064, U+FEFF, U+00AD …).
    @inlinable
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        if u.value < 0x20 || (u.value >= 0x7F && u.value <= 0x9F) { return true }
        if u.value < 0xA0 { return false }
        if u == "\u{2028}" || u == "\u{2029}" { return true }
        return u.properties.generalCategory == .format
    }

    /// `\u{1B}`-style visible escape of one unsafe scalar (`\n`, `\r`, `\t` for the usual three).
    public static func visible(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default: return "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Plain text for a terminal or a log: unsafe scalars become visible escapes. The result is
    /// one line.
    public static func text(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isUnsafe) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isUnsafe(u) { out.append(contentsOf: visible(u).unicodeScalars) } else { out.append(u) }
        }
        return String(out)
    }

    /// XML character data and attribute values (JUnit): `& < > " '` as entities, and unsafe
    /// scalars (most of which XML 1.0 cannot carry at all) as visible escapes.
    public static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if isUnsafe(u) { out += visible(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// HTML text and quoted attribute values: the same entities as XML, plus visible escapes.
    public static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if isUnsafe(u) { out += visible(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// Markdown inline text (also inside a table cell): every punctuation character that
    /// CommonMark or GitHub Flavored Markdown can give meaning to is backslash-escaped (so
    /// `\<img …>` stays text: its `\` becomes `\\` and its `<` `\<`), `<`/`>`/`&` become
    /// entities, `@` mentions and `#123` references are broken with a zero-width joiner so they
    /// notify and link nothing, and unsafe scalars become visible escapes.
    public static func markdown(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            switch u {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "@", "#": out.unicodeScalars.append(u); out += "\u{200D}"
            case "\\", "`", "*", "_", "{", "}", "[", "]", "(", ")", "+", "-", ".", "!", "|", "~", "=", ":", "\"", "'":
                out += "\\"; out.unicodeScalars.append(u)
            default:
                if isUnsafe(u) { out += "\\" + visible(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// One CSV field: always quoted, quotes doubled, unsafe scalars as visible escapes, and a
    /// leading `= + - @` (or tab/CR, already escaped) prefixed with `'` so that a spreadsheet does
    /// not run it as a formula.
    public static func csv(_ s: String) -> String {
        var body = text(s).replacingOccurrences(of: "\"", with: "\"\"")
        if let first = body.unicodeScalars.first, "=+-@".unicodeScalars.contains(first) { body = "'" + body }
        return "\"" + body + "\""
    }

    /// The message part of a GitHub workflow command (`::error …::MESSAGE`): `%`, CR and LF are
    /// percent-encoded as GitHub's runner expects, so a string cannot end the command and start
    /// another; other unsafe scalars become visible escapes.
    public static func githubData(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if isUnsafe(u) { out += visible(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// A property value of a GitHub workflow command (`file=…,title=…`): as `githubData`, plus
    /// `:` and `,` percent-encoded.
    public static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// A URL that may become a link (`href`): only `https:` URLs, with unsafe scalars and spaces
    /// percent-encoded; anything else (`javascript:`, `data:`, relative) gives nil.
    public static func httpsURL(_ s: String) -> String? {
        guard s.lowercased().hasPrefix("https://"), s.count <= 2048 else { return nil }
        var out = ""
        for u in s.unicodeScalars {
            if isUnsafe(u) || u == " " || u == "\"" || u == "'" || u == "<" || u == ">" || u == "\\" || u == "`" {
                for b in String(u).utf8 { out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2) }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
