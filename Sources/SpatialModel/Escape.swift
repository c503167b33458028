/// One escaping function per output sink (docs/security.md §3.3). Every string that comes from
/// input — scene names, entity ids (also those taken from assets), clip names, asset paths, file
/// names, messages that quote them, and every string read back from a saved report — passes
/// through the function of the sink it is written to. Each is total (never fails) and what it
/// returns cannot change the sink's structure: no new line, no markup, no control sequence, no
/// annotation, no mention, no link, no formula.
///
/// | sink | function |
/// | --- | --- |
/// | terminal, log, plain text, text inside a SARIF/JSON value meant for people | `text` |
/// | XML (JUnit) | `xml` |
/// | HTML (and SVG inside it) | `html`; an `href` only from `httpsURL` |
/// | Markdown (PR comments) | `markdown` (inline text), `markdownCode` (ids and paths) |
/// | SARIF `message.text` | `sarifText` |
/// | CSV field | `csv` |
/// | GitHub workflow command | `githubData` (message), `githubProperty` (`file=`, `title=` …) |
/// | JSON string | `jsonQuoted` (JSONString.swift): lossless `\uXXXX` escapes |
public enum Escape {
    /// Characters that must never reach a terminal, log or document raw: C0 and C1 controls (ESC,
    /// BEL, NUL, CSI …), DEL, bidirectional overrides, embeddings, isolates and marks (U+202A–202E,
    /// U+2066–2069, U+200E/200F, U+061C), line and paragraph separators (U+2028/2029), zero-width
    /// and other invisible format characters (every Unicode `Cf` scalar: U+200B–200D, U+2060–2064,
    /// U+FEFF, U+00AD, tag characters …), noncharacters (U+FFFE, U+FFFF, U+FDD0–FDEF …; XML cannot
    /// carry the first two), and the bytes of a file name that is not UTF-8 (`FileName`).
    @inlinable
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        if u.value < 0x20 || (u.value >= 0x7F && u.value <= 0x9F) { return true }
        if u.value < 0xA0 { return false }
        if u == "\u{2028}" || u == "\u{2029}" { return true }
        if (u.value >= 0xFDD0 && u.value <= 0xFDEF) || (u.value & 0xFFFE) == 0xFFFE { return true }
        if FileName.rawByte(u) != nil { return true }
        return u.properties.generalCategory == .format
    }

    /// Visible escape of one unsafe scalar: `\n`, `\r`, `\t` for the usual three, `\xFF` for a
    /// byte of a non-UTF-8 file name, else `\u{1B}` (Swift's notation, upper-case hex).
    public static func visible(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            if let b = FileName.rawByte(u) { return "\\x" + hex(b) }
            return "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// Plain text for a terminal or a log: unsafe scalars become visible escapes, everything else
    /// is kept. The result is one line without control sequences. A value may start a line (a
    /// path, a message on a line of its own), and CI runners read a line whose first non-blank
    /// characters are `::` (GitHub workflow commands) or `##` (`##[error]`, `##vso[…]`) as a
    /// command: such a leading `:` or `#` is shown as `\u{3A}` / `\u{23}`.
    public static func text(_ s: String) -> String {
        guard hasUnsafe(s) || startsLikeCommand(s) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars {
            if isUnsafe(u) { out.append(contentsOf: visible(u).unicodeScalars) } else { out.append(u) }
        }
        return neutralizingCommandPrefix(String(out))
    }

    /// `text(s)` cut to `limit` characters (Unicode scalars of the input) with `…`: for quoting a
    /// file's own text in a message.
    public static func text(_ s: String, limit: Int) -> String {
        var out = ""
        var n = 0
        for u in s.unicodeScalars {
            if n >= limit { out += "…"; break }
            if isUnsafe(u) { out += visible(u) } else { out.unicodeScalars.append(u) }
            n += 1
        }
        return neutralizingCommandPrefix(out)
    }

    /// True when `s`, after leading spaces, starts with `::` or `##`.
    static func startsLikeCommand(_ s: String) -> Bool {
        let rest = s.drop { $0 == " " }
        return rest.hasPrefix("::") || rest.hasPrefix("##")
    }

    static func neutralizingCommandPrefix(_ s: String) -> String {
        guard startsLikeCommand(s), let i = s.firstIndex(where: { $0 != " " }) else { return s }
        return String(s[..<i]) + (s[i] == ":" ? "\\u{3A}" : "\\u{23}") + String(s[s.index(after: i)...])
    }

    /// XML character data and attribute values (JUnit): `& < > " '` as entities, unsafe scalars
    /// (most of which XML 1.0 cannot carry at all) as visible escapes, and a leading `::`/`##` (a
    /// CI command, see `text`) starts with a character reference.
    public static func xml(_ s: String) -> String { markup(s, apostrophe: "&apos;") }

    /// HTML (and inline SVG) text and quoted attribute values: the same entities as XML, plus
    /// visible escapes. Never used inside `<script>` or `<style>` (the report has neither from
    /// input); a link target comes from `httpsURL`, then this.
    public static func html(_ s: String) -> String { markup(s, apostrophe: "&#39;") }

    /// `xml` and `html`: they differ only in how they write `'`. Works on the UTF-8 bytes: a byte
    /// that needs nothing is copied as it is, and a scalar beyond ASCII is looked up
    /// (`isUnsafe`, a category lookup) once per distinct scalar (`SafeScalars`): 1.7 KB ids of
    /// U+1D400 spent 22 % of an HTML report in the lookups. The same bytes as escaping each
    /// scalar in turn.
    private static func markup(_ s: String, apostrophe: String) -> String {
        // Printable ASCII without `& < > " '` and not a CI command comes out as it is.
        if s.utf8.allSatisfy({ b in
            b >= 0x20 && b < 0x7F && b != UInt8(ascii: "&") && b != UInt8(ascii: "<") && b != UInt8(ascii: ">")
                && b != UInt8(ascii: "\"") && b != UInt8(ascii: "'")
        }) && !startsLikeCommand(s) {
            return s
        }
        let command = startsLikeCommand(s)
        var copy = s
        return copy.withUTF8 { p -> String in
            var out: [UInt8] = []
            out.reserveCapacity(p.count + 16)
            var safe = SafeScalars()
            // Only spaces written so far (a CI command's `:` or `#` comes right after them).
            var leading = true
            var i = 0
            while i < p.count {
                let b = p[i]
                if b < 0x80 {
                    i += 1
                    if command, leading, b == UInt8(ascii: ":") || b == UInt8(ascii: "#") {
                        out.append(contentsOf: (b == UInt8(ascii: ":") ? "&#58;" : "&#35;").utf8)  // a CI command at a line start (see `text`)
                        leading = false
                        continue
                    }
                    if b != UInt8(ascii: " ") { leading = false }
                    switch b {
                    case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                    case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                    case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                    case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                    case UInt8(ascii: "'"): out.append(contentsOf: apostrophe.utf8)
                    default:
                        if b < 0x20 || b == 0x7F { out.append(contentsOf: visible(Unicode.Scalar(b)).utf8) } else { out.append(b) }
                    }
                    continue
                }
                leading = false
                let (u, n) = scalar(p, at: i)
                if safe.isUnsafe(u) { out.append(contentsOf: visible(u).utf8) } else { out.append(contentsOf: p[i..<(i + n)]) }
                i += n
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// True when `s` holds an unsafe scalar (`isUnsafe`), looking up each distinct scalar beyond
    /// ASCII once.
    static func hasUnsafe(_ s: String) -> Bool {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return false }
        var copy = s
        return copy.withUTF8 { p -> Bool in
            var safe = SafeScalars()
            var i = 0
            while i < p.count {
                let b = p[i]
                if b < 0x80 {
                    if b < 0x20 || b == 0x7F { return true }
                    i += 1
                    continue
                }
                let (u, n) = scalar(p, at: i)
                if safe.isUnsafe(u) { return true }
                i += n
            }
            return false
        }
    }

    /// The scalar whose UTF-8 encoding starts at `i` (a lead byte of valid UTF-8, as a `String`
    /// holds), and its length in bytes; U+FFFD for a malformed or cut sequence (never in a `String`).
    static func scalar(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let b0 = UInt32(p[i])
        let n = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 1
        guard n > 1, i + n <= p.count else { return ("\u{FFFD}", 1) }
        var v = b0 & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for k in 1..<n { v = v << 6 | UInt32(p[i + k] & 0x3F) }
        return (Unicode.Scalar(v) ?? "\u{FFFD}", n)
    }

    /// `isUnsafe` of scalars beyond ASCII, remembering the last safe scalar of each of 64 slots:
    /// text in one script repeats few scalars.
    struct SafeScalars {
        private var slots: [UInt32] = []
        mutating func isUnsafe(_ u: Unicode.Scalar) -> Bool {
            if u.value < 0xA0 { return Escape.isUnsafe(u) }
            if slots.isEmpty { slots = Array(repeating: 0, count: 64) }
            let k = Int(u.value & 63)
            if slots[k] == u.value { return false }
            if Escape.isUnsafe(u) { return true }
            slots[k] = u.value
            return false
        }
    }

    /// Breaks a GitHub mention, issue reference or autolink without showing anything: a zero-width
    /// joiner, written as an entity so that the Markdown source itself has no invisible character.
    public static let markdownBreak = "&#8205;"

    /// Markdown inline text, anywhere in a line, in a table cell or a list item (GitHub Flavored
    /// Markdown). Only what can mean something is escaped, so ordinary words and ids read as they
    /// are:
    /// - `<`, `>`, `&` become entities: no raw HTML (`\<img src=x onerror=…>` gives
    ///   `\\&lt;img …&gt;`, shown as typed), no autolink in angle brackets, no block quote;
    /// - `\` `` ` `` `*` `[` `]` `|` `~` `$` `#` are backslash-escaped (escapes, code spans,
    ///   emphasis, links and images, table cells, strikethrough, math, headings); `_` too unless it
    ///   sits between two letters or digits (where it cannot start emphasis: `button_1` stays);
    /// - a leading `-`, `+`, `=`, or digits followed by `.`/`)` (a list or heading at the start of
    ///   a line), a leading `:` (a CI command, see `text`) and a leading space are escaped;
    /// - `@` (mentions, e-mail autolinks), `#` before a letter or digit (issue references such as
    ///   `#12`, `owner/repo#12`), `:` before `/` (`https://…` autolinks) and `www.` get an
    ///   invisible zero-width joiner (`markdownBreak`), so nothing notifies or links;
    /// - unsafe scalars (newlines, ESC, bidi …) become visible escapes such as `\u{1B}`.
    public static func markdown(_ s: String) -> String {
        let u = Array(s.unicodeScalars)
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        func isWordChar(_ i: Int) -> Bool {
            guard u.indices.contains(i) else { return false }
            return u[i].properties.isAlphabetic || u[i].properties.numericType != nil
        }
        // A leading ordered-list marker: digits then `.` or `)`.
        var leadingDigits = 0
        while leadingDigits < u.count, ("0"..."9").contains(u[leadingDigits]) { leadingDigits += 1 }
        for i in u.indices {
            let c = u[i]
            if i == 0, c == "-" || c == "+" || c == "=" || c == ":" {
                out += "\\"; out.unicodeScalars.append(c); continue
            }
            if i == 0, c == " " { out += "&#32;"; continue }
            if i > 0, i == leadingDigits, c == "." || c == ")" {
                out += "\\"; out.unicodeScalars.append(c); continue
            }
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\\", "`", "*", "[", "]", "|", "~", "$":
                out += "\\"; out.unicodeScalars.append(c)
            case "#":
                out += "\\#"
                if isWordChar(i + 1) { out += markdownBreak }
            case "_":
                if !(isWordChar(i - 1) && isWordChar(i + 1)) { out += "\\" }
                out += "_"
            case "@":
                out += "@" + markdownBreak
            case ":":
                out += ":"
                if i + 1 < u.count, u[i + 1] == "/" { out += markdownBreak }
            case ".":
                if i >= 3, String(String.UnicodeScalarView(u[(i - 3)..<i])).lowercased() == "www" { out += markdownBreak }
                out += "."
            default:
                if isUnsafe(c) { out += visible(c) } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// An id or a path in Markdown: an inline code span of `text(s)` (monospace; inside it nothing
    /// is markup, nothing mentions or links), or `markdown(s)` when a code span cannot carry it
    /// safely or would show a tag as typed (a backtick, `|`, `<` or `>` in it, or empty), so that
    /// the Markdown source never holds a raw tag either.
    public static func markdownCode(_ s: String) -> String {
        let t = text(s)
        if t.isEmpty || t.unicodeScalars.contains(where: { "`|<>".unicodeScalars.contains($0) }) { return markdown(s) }
        return "`" + t + "`"
    }

    /// SARIF `message.text` (plain text, but `[text](target)` is an embedded link that code
    /// scanning shows as one): `text(s)` with `[` and `]` backslash-escaped, as SARIF 2.1.0 §3.11.5
    /// asks for literal brackets.
    public static func sarifText(_ s: String) -> String {
        let t = text(s)
        guard t.contains("[") || t.contains("]") else { return t }
        var out = ""
        for u in t.unicodeScalars {
            if u == "[" || u == "]" { out += "\\" }
            out.unicodeScalars.append(u)
        }
        return out
    }

    /// One word of a POSIX shell command line, for a command a person copies: as it is when it
    /// holds only characters no shell treats specially, else in single quotes (a quote inside as
    /// `'\''`); unsafe scalars as visible escapes, so the word is one line.
    public static func shellWord(_ s: String) -> String {
        let t = text(s)
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-/+,:@%=".unicodeScalars)
        if !t.isEmpty, t.unicodeScalars.allSatisfy({ plain.contains($0) }) { return t }
        return "'" + t.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// One CSV field (RFC 4180): unsafe scalars as visible escapes (so a field is one line);
    /// quoted, with quotes doubled, when it holds `,` `;` or `"`; and a field whose first
    /// non-space character is `= + - @` (or their full-width forms) is prefixed with `'` so that a
    /// spreadsheet does not run it as a formula (`=HYPERLINK(…)`).
    public static func csv(_ s: String) -> String {
        var body = text(s)
        if let first = body.unicodeScalars.first(where: { $0 != " " }),
           "=+-@\u{FF1D}\u{FF0B}\u{FF0D}\u{FF20}".unicodeScalars.contains(first) {
            body = "'" + body
        }
        guard body.contains(where: { $0 == "," || $0 == ";" || $0 == "\"" }) else { return body }
        return "\"" + body.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The message part of a GitHub workflow command (`::error …::MESSAGE`): `%`, CR and LF are
    /// percent-encoded as GitHub's runner expects, so a string cannot end the command and start
    /// another (`\n::error file=x::forged` stays inside one message); other unsafe scalars become
    /// visible escapes.
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
        return neutralizingCommandPrefix(out)
    }

    /// A property value of a GitHub workflow command (`file=…,title=…`): as `githubData`, plus
    /// `:` and `,` percent-encoded.
    public static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// A URL that may become a link (`href`, a Markdown link target): only `https:` URLs (any
    /// letter case) of at most 2,048 characters, with unsafe scalars and the characters that could
    /// end an attribute or a Markdown link (space, quotes, `< > ( ) \ ` | { } ^`) percent-encoded;
    /// anything else (`javascript:`, `data:`, `http:`, relative, a leading space) gives nil.
    /// Escape the result for its sink too (`html`).
    public static func httpsURL(_ s: String) -> String? {
        guard s.lowercased().hasPrefix("https://"), s.unicodeScalars.count <= 2048 else { return nil }
        var out = ""
        for u in s.unicodeScalars {
            if isUnsafe(u) || " \"'<>()\\`|{}^".unicodeScalars.contains(u) {
                if let b = FileName.rawByte(u) { out += "%" + hex(b); continue }
                for b in String(u).utf8 { out += "%" + hex(b) }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Links in Markdown go only to Apple's documentation: `httpsURL(s)` when it is under
    /// `https://developer.apple.com/`, else nil.
    public static func appleDocumentationURL(_ s: String) -> String? {
        guard let url = httpsURL(s), url.lowercased().hasPrefix("https://developer.apple.com/") else { return nil }
        return url
    }

    static func hex(_ b: UInt8) -> String {
        let h = String(b, radix: 16, uppercase: true)
        return b < 16 ? "0" + h : h
    }
}
