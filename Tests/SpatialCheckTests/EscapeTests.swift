import Testing
import Foundation
@testable import SpatialModel

/// `Escape`, one function per output sink, on the shared hostile strings (HostileStrings) and on
/// exact hand-written expectations.
@Suite struct EscapeTests {
    private let sinks: [(name: String, markup: Bool, escape: (String) -> String)] = [
        ("text", false, { Escape.text($0) }),
        ("xml", true, Escape.xml),
        ("html", true, Escape.html),
        ("markdown", true, Escape.markdown),
        ("markdownCode", true, Escape.markdownCode),
        ("sarifText", false, Escape.sarifText),
        ("csv", false, Escape.csv),
        ("githubData", false, Escape.githubData),
        ("githubProperty", false, Escape.githubProperty),
        ("json", false, jsonQuoted),
    ]

    @Test func noSinkPassesAHostileStringThrough() {
        for sink in sinks {
            for s in HostileStrings.all + [HostileStrings.combined] {
                let out = sink.escape(s)
                #expect(HostileStrings.problems(in: out, markup: sink.markup).isEmpty,
                        "\(sink.name)(\(s.debugDescription)) = \(out.debugDescription): \(HostileStrings.problems(in: out, markup: sink.markup))")
                #expect(!out.contains("\n") && !out.contains("\r"), "\(sink.name) kept a line break: \(out.debugDescription)")
            }
        }
    }

    @Test func textShowsEachUnsafeScalarAsAVisibleEscape() {
        #expect(Escape.text(HostileStrings.clearScreen) == "\\u{1B}[2J\\u{1B}[Hcleared")
        #expect(Escape.text(HostileStrings.oscTitle) == "\\u{1B}]0;pwned-title\\u{7}")
        #expect(Escape.text(HostileStrings.nul) == "nul\\u{0}byte")
        #expect(Escape.text(HostileStrings.rightToLeftOverride) == "invoice\\u{202E}fdp.exe")
        #expect(Escape.text(HostileStrings.isolates) == "\\u{2066}a\\u{2069}\\u{2067}b\\u{2069}\\u{2068}c\\u{2069}")
        #expect(Escape.text(HostileStrings.separators) == "line\\u{2028}separator\\u{2029}paragraph")
        #expect(Escape.text(HostileStrings.zeroWidth) == "zero\\u{200B}width\\u{200C}non\\u{200D}joiner\\u{2060}word\\u{FEFF}bom")
        #expect(Escape.text(HostileStrings.forgedAnnotation) == "ok\\n::error file=x::forged")
        #expect(Escape.text("tab\there\r") == "tab\\there\\r")
        // A value that may start a line cannot be a CI command (GitHub trims leading blanks).
        #expect(Escape.text(HostileStrings.lineStartAnnotation) == "\\u{3A}:error file=x::forged")
        #expect(Escape.text("  ##[error]x") == "  \\u{23}#[error]x")
        #expect(Escape.text("##vso[task.setvariable]x", limit: 60) == "\\u{23}#vso[task.setvariable]x")
        #expect(Escape.text("a::b ##c") == "a::b ##c")
        #expect(Escape.xml("::error::x") == "&#58;:error::x")
        #expect(Escape.html(" ##[error]") == " &#35;#[error]")
        #expect(Escape.markdown("::error::x") == "\\::error::x")
        #expect(Escape.text("del\u{7F} c1\u{9B}2J nel\u{85}") == "del\\u{7F} c1\\u{9B}2J nel\\u{85}")
        #expect(Escape.text("nonchar" + scalar(0xFFFE) + scalar(0xFFFF) + scalar(0xFDD0)) == "nonchar\\u{FFFE}\\u{FFFF}\\u{FDD0}")
        // Ordinary text, including other scripts and emoji without joiners, is unchanged.
        for plain in ["ui/main-window.button_1", "Ünïcödé 日本語 עברית العربية 🙂", "a <b> & \"c\" 'd' \\ e"] {
            #expect(Escape.text(plain) == plain)
        }
        // The length cap counts input scalars; the escapes do not count.
        #expect(Escape.text("ab\u{1B}cdef", limit: 4) == "ab\\u{1B}c…")
        #expect(Escape.text("abc", limit: 3) == "abc")
    }

    @Test func xmlAndHtmlUseEntitiesAndVisibleEscapes() {
        #expect(Escape.xml("a<b & \"c\" 'd'\u{01}") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;\\u{1}")
        #expect(Escape.html("a<b & \"c\" 'd'\u{1B}") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;\\u{1B}")
        #expect(Escape.html(HostileStrings.script) == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(Escape.html(HostileStrings.escapedImage) == "\\&lt;img src=x onerror=alert(1)&gt;")
        // XML 1.0 cannot carry U+FFFE/U+FFFF at all.
        #expect(Escape.xml(scalar(0xFFFE)) == "\\u{FFFE}")
    }

    @Test func markdownEscapesOnlyWhatCanMeanSomething() {
        // Ordinary ids and sentences read as they are.
        #expect(Escape.markdown("ui/main-window.button_1") == "ui/main-window.button_1")
        #expect(Escape.markdown("'play' is 0.3 m (44 pt) from 'back'; keep 60 pt.") == "'play' is 0.3 m (44 pt) from 'back'; keep 60 pt.")
        // `\<img …>`: the backslash is escaped and the tag is text, shown as typed.
        #expect(Escape.markdown(HostileStrings.escapedImage) == "\\\\&lt;img src=x onerror=alert(1)&gt;")
        #expect(Escape.markdown(HostileStrings.script) == "&lt;script&gt;alert(1)&lt;/script&gt;")
        // Mentions, issue references and autolinks are broken by an invisible joiner (written as an entity).
        #expect(Escape.markdown("@octocat and @org/team") == "@&#8205;octocat and @&#8205;org/team")
        #expect(Escape.markdown("see #12 or owner/repo#3") == "see \\#&#8205;12 or owner/repo\\#&#8205;3")
        #expect(Escape.markdown("https://evil.example/x") == "https:&#8205;//evil.example/x")
        #expect(Escape.markdown("go to www.evil.example") == "go to www&#8205;.evil.example")
        #expect(Escape.markdown("mail me@evil.example") == "mail me@&#8205;evil.example")
        // Links, images, code, emphasis, tables, strikethrough, math.
        #expect(Escape.markdown("![x](https://e/x.png) [y](javascript:alert(1))")
                == "!\\[x\\](https:&#8205;//e/x.png) \\[y\\](javascript:alert(1))")
        #expect(Escape.markdown("`code` *em* _em_ a|b ~~s~~ $x$") == "\\`code\\` \\*em\\* \\_em\\_ a\\|b \\~\\~s\\~\\~ \\$x\\$")
        // At the start of a line: no list, heading, quote or indented code.
        #expect(Escape.markdown("- item") == "\\- item")
        #expect(Escape.markdown("+ item") == "\\+ item")
        #expect(Escape.markdown("12. item") == "12\\. item")
        #expect(Escape.markdown("3) item") == "3\\) item")
        #expect(Escape.markdown("# title") == "\\# title")
        #expect(Escape.markdown("> quote") == "&gt; quote")
        #expect(Escape.markdown("    code") == "&#32;   code")
        // A line break or a control sequence is a visible escape, never a new line.
        #expect(Escape.markdown("a\n| x | y |\n<img>") == "a\\n\\| x \\| y \\|\\n&lt;img&gt;")
        #expect(Escape.markdown(HostileStrings.clearScreen) == "\\u{1B}\\[2J\\u{1B}\\[Hcleared")
    }

    @Test func markdownCodeSpansIdsUnlessACodeSpanCannotCarryThem() {
        #expect(Escape.markdownCode("player/controls/play") == "`player/controls/play`")
        #expect(Escape.markdownCode("@octocat https://x") == "`@octocat https://x`")
        #expect(Escape.markdownCode("@octocat <img>") == "@&#8205;octocat &lt;img&gt;")
        #expect(Escape.markdownCode("a\u{1B}[2J\nb") == "`a\\u{1B}[2J\\nb`")
        // A backtick or pipe would end the span or the table cell: escaped text instead.
        #expect(Escape.markdownCode("a`b") == "a\\`b")
        #expect(Escape.markdownCode("a\\|<img>") == "a\\\\\\|&lt;img&gt;")
        #expect(Escape.markdownCode("") == "")
    }

    @Test func sarifTextEscapesEmbeddedLinkBrackets() {
        #expect(Escape.sarifText("see [here](1) \u{202E}") == "see \\[here\\](1) \\u{202E}")
        #expect(Escape.sarifText("plain") == "plain")
    }

    @Test func csvFieldsAreOneLineAndNeverFormulas() {
        #expect(Escape.csv("player/play") == "player/play")
        #expect(Escape.csv("a,b") == "\"a,b\"")
        #expect(Escape.csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(Escape.csv(HostileStrings.formula) == "\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"click\"\")\"")
        #expect(Escape.csv("+1") == "'+1")
        #expect(Escape.csv("-2") == "'-2")
        #expect(Escape.csv("@SUM(A1)") == "'@SUM(A1)")
        #expect(Escape.csv("  =1+1") == "'  =1+1")
        #expect(Escape.csv("\u{FF1D}1+1") == "'\u{FF1D}1+1")
        #expect(Escape.csv("a\nb") == "a\\nb")
        #expect(Escape.csv("a;b") == "\"a;b\"")
    }

    @Test func githubCommandsCannotBeEndedOrForged() {
        #expect(Escape.githubData(HostileStrings.forgedAnnotation) == "ok%0A::error file=x::forged")
        #expect(Escape.githubData("100% done\r\n") == "100%25 done%0D%0A")
        #expect(Escape.githubData("\u{1B}[31mred") == "\\u{1B}[31mred")
        #expect(Escape.githubProperty("a:b,c%\nd") == "a%3Ab%2Cc%25%0Ad")
    }

    @Test func onlyHttpsURLsBecomeLinks() {
        #expect(Escape.httpsURL("https://developer.apple.com/design/") == "https://developer.apple.com/design/")
        #expect(Escape.httpsURL("HTTPS://example.com/a b") == "HTTPS://example.com/a%20b")
        #expect(Escape.httpsURL("https://e.example/\"><script>") == "https://e.example/%22%3E%3Cscript%3E")
        #expect(Escape.httpsURL("https://e.example/(x)\u{202E}") == "https://e.example/%28x%29%E2%80%AE")
        for bad in [HostileStrings.javascriptURL, "JavaScript:alert(1)", " https://x", "http://x", "data:text/html,<script>",
                    "//evil.example", "/relative", "", "https://" + String(repeating: "a", count: 3000)] {
            #expect(Escape.httpsURL(bad) == nil, "\(bad.prefix(40))")
        }
        #expect(Escape.appleDocumentationURL("https://developer.apple.com/design/human-interface-guidelines/")
                == "https://developer.apple.com/design/human-interface-guidelines/")
        #expect(Escape.appleDocumentationURL("https://developer.apple.com.evil.example/") == nil)
        #expect(Escape.appleDocumentationURL("https://evil.example/developer.apple.com/") == nil)
    }

    @Test func jsonStringsAreLosslessAndHoldNoInvisibleCharacters() throws {
        for s in HostileStrings.all + ["naïve 日本 🙂", scalar(0x10FFFF) + "\u{E0041}"] {
            let literal = jsonQuoted(s)
            #expect(HostileStrings.problems(in: literal, markup: false).isEmpty)
            let back = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
            #expect(back == s, "\(s.debugDescription) did not round-trip: \(literal)")
        }
        #expect(jsonQuoted("a\u{202E}b\u{2028}") == "\"a\\u202eb\\u2028\"")
        #expect(jsonQuoted("\u{E0041}") == "\"\\udb40\\udc41\"")  // a tag character: surrogate pair
    }
}

/// `Escape.html`, `xml` and `text` work on UTF-8 bytes and look each distinct scalar beyond ASCII
/// up once: they give what escaping one scalar at a time gives (`ScalarEscape`, the earlier
/// form), on hostile strings, every format character, raw file-name bytes and long runs of one
/// scalar in other scripts.
@Suite struct EscapeByteFastPathTests {
    /// The scalar-at-a-time markup escape, as it was written before the byte path.
    enum ScalarEscape {
        static func markup(_ s: String, apostrophe: String) -> String {
            var out = ""
            let command = Escape.startsLikeCommand(s)
            for u in s.unicodeScalars {
                if command, out.unicodeScalars.allSatisfy({ $0 == " " }), u == ":" || u == "#" {
                    out += u == ":" ? "&#58;" : "&#35;"; continue
                }
                switch u {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += apostrophe
                default:
                    if Escape.isUnsafe(u) { out += Escape.visible(u) } else { out.unicodeScalars.append(u) }
                }
            }
            return out
        }
        static func text(_ s: String) -> String {
            guard s.unicodeScalars.contains(where: Escape.isUnsafe) || Escape.startsLikeCommand(s) else { return s }
            var out = String.UnicodeScalarView()
            for u in s.unicodeScalars {
                if Escape.isUnsafe(u) { out.append(contentsOf: Escape.visible(u).unicodeScalars) } else { out.append(u) }
            }
            return Escape.neutralizingCommandPrefix(String(out))
        }
    }

    static var inputs: [String] {
        let bold = String(repeating: "\u{1D400}", count: 430)
        var all = HostileStrings.all + [HostileStrings.combined, bold, bold + "/" + bold + "0", "é0/é1", "Ω<&>\"'é",
            "日本語のボタン", "кнопка_1", "زر\u{061C}زر", "a\u{00AD}b", "a\u{200B}\u{200D}\u{2060}b", "\u{FEFF}x", "x\u{E0041}y",
            "  ::é", "##𝐀", " #x", ":é", "é::", "\u{85}next", "\u{9F}\u{A0}\u{A1}", "\u{2028}\u{2029}", "tab\tend\u{7F}",
            "e\u{301}\u{301}", " \u{301}::", "", " ", "&amp;", "\u{1F600}\u{1F3FB}"]
        all += [0xFFFE, 0xFFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x10FFFF, 0x10FF80, 0x10FFFF, 0x10FFC3, 0xE000, 0x110BD, 0x1D173]
            .map { "ab" + scalar($0) + "\u{1D400}" + scalar($0) }
        // Every scalar of the first planes' format characters and a sample beyond, twice each.
        let sample = stride(from: 0xA0, through: 0x2FFFF, by: 7).compactMap(Unicode.Scalar.init)
        all.append(String(String.UnicodeScalarView(sample + sample)))
        return all
    }

    @Test func markupIsTheScalarAtATimeEscape() {
        for s in Self.inputs {
            #expect(Escape.html(s) == ScalarEscape.markup(s, apostrophe: "&#39;"), "html(\(s.debugDescription))")
            #expect(Escape.xml(s) == ScalarEscape.markup(s, apostrophe: "&apos;"), "xml(\(s.debugDescription))")
            #expect(Escape.text(s) == ScalarEscape.text(s), "text(\(s.debugDescription))")
        }
    }

    @Test func formatCharactersAreEscapedByTheirValue() {
        #expect(Escape.html("a\u{200B}b") == "a\\u{200B}b")
        #expect(Escape.html("\u{1D400}\u{FEFF}\u{1D400}") == "\u{1D400}\\u{FEFF}\u{1D400}")
        #expect(Escape.text("\u{1D400}\u{AD}") == "\u{1D400}\\u{AD}")
        #expect(Escape.html(" ::\u{1D400}") == " &#58;:\u{1D400}")
    }
}

/// A string of one scalar given by its value (Swift string literals refuse noncharacters).
func scalar(_ v: UInt32) -> String { Unicode.Scalar(v).map { String($0) } ?? "" }
