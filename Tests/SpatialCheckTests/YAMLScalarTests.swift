import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// How the loader types YAML scalars (YAML 1.1 as scene files have always been read, now without
/// Yams' regular expressions): every expectation is written out by hand from the YAML 1.1 type
/// definitions (yaml.org/type/bool, int, float, null) and from what the format relies on.
@Suite struct YAMLScalarTests {
    /// The scalar that `v: <value>` parses to, through the loader's own parser.
    private func value(_ yaml: String) -> YScalar? {
        var converter = TreeConverter(file: "t.scene.yaml")
        guard let root = converter.parse("v: \(yaml)\n"), case let .mapping(pairs) = root.kind,
              let first = pairs.first, case let .scalar(s) = first.value.kind else { return nil }
        return s
    }

    private func number(_ yaml: String) -> Double? {
        guard let s = value(yaml), s.type == .number else { return nil }
        return s.number
    }

    private func type(_ yaml: String) -> YScalar.ScalarType? { value(yaml)?.type }

    @Test func nulls() {
        for text in ["", "~", "null", "Null", "NULL"] { #expect(type(text) == .null, "\(text)") }
        for text in ["nULL", "nil", "None", "'null'", "\"~\""] { #expect(type(text) == .string, "\(text)") }
    }

    @Test func booleans() {
        let expected: [(String, Bool)] = [
            ("yes", true), ("Yes", true), ("YES", true), ("no", false), ("No", false), ("NO", false),
            ("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false),
            ("on", true), ("On", true), ("ON", true), ("off", false), ("Off", false), ("OFF", false),
        ]
        for (text, b) in expected {
            let s = value(text)
            #expect(s?.type == .bool && s?.bool == b, "\(text)")
        }
        // Mixed case, single letters and quoted words are strings.
        for text in ["tRUE", "yEs", "y", "n", "'yes'", "\"true\""] { #expect(type(text) == .string, "\(text)") }
    }

    @Test func integers() {
        let expected: [(String, Double)] = [
            ("0", 0), ("42", 42), ("-7", -7), ("+3", 3), ("1_000", 1000), ("123456789012345", 123456789012345),
            ("0x1F", 31), ("-0x10", -16), ("0b101", 5), ("017", 15), ("0o17", 15), ("0_", 0),
            // Beyond Int: read as a Double.
            ("99999999999999999999", 1e20),
        ]
        for (text, n) in expected { #expect(number(text) == n, "\(text)") }
        #expect(number("-0") == 0)
    }

    @Test func floats() {
        let expected: [(String, Double)] = [
            ("1.5", 1.5), ("-2.25", -2.25), ("+0.5", 0.5), ("1.", 1), ("1e3", 1000), ("2.5E-1", 0.25),
            (".5", 0.5), (".5e+2", 50), ("1_0.5", 10.5), ("08", 8), ("09.5", 9.5),
        ]
        for (text, n) in expected { #expect(number(text) == n, "\(text)") }
        #expect(number(".inf") == .infinity)
        #expect(number("+.Inf") == .infinity)
        #expect(number("-.INF") == -.infinity)
        #expect(number(".nan")?.isNaN == true)
        #expect(number(".NaN")?.isNaN == true)
    }

    @Test func notNumbers() {
        // YAML 1.1 does not read these as numbers: a signed or exponent-only leading dot, a lone
        // sign or prefix, mixed letters, dates, times and anything with ':'.
        for text in ["-.5", ".5e2", "+.nan", ".iNf", "+", "0x", "0b", "0o", "1e", "1e+", "12abc", "1.2.3",
                     "2001-12-14", "1:30", "1:30:00", "12:00:00.5", "<<", "=", "abc", "1 2"] {
            #expect(type(text) == .string, "\(text)")
        }
    }

    @Test func quotedScalarsStayStrings() {
        for text in ["'42'", "\"42\"", "'1.5'", "\"0x1F\"", "'.inf'", "\"\""] {
            let s = value(text)
            #expect(s?.type == .string, "\(text)")
        }
        #expect(value("'42'")?.text == "42")
    }

    @Test func explicitTags() {
        #expect(type("!!str 42") == .string)
        #expect(type("!!str yes") == .string)
        #expect(number("!!int '42'") == 42)     // a quoted value under !!int is read as a number
        #expect(number("!!float 3") == 3)
        #expect(type("!!float '3'") == .string) // the float constructor reads plain scalars only
        #expect(value("!!bool 'yes'")?.bool == true)
        #expect(type("!!null x") == .null)
        #expect(type("!custom 3") == .string)
    }

    /// Keys are names: a quoted key and the same plain key are one key, so they are duplicates
    /// (Yams' default resolver typed `on` as a boolean and let both through, and the loader then
    /// saw the key `on` twice).
    @Test func quotedAndPlainKeysAreTheSameKey() {
        var converter = TreeConverter(file: "t.scene.yaml")
        #expect(converter.parse("m:\n  on: 1\n  'on': 2\n") == nil)
        #expect(converter.diagnostics.count == 1)
        #expect(converter.diagnostics.first?.message == "duplicate key 'on' in one mapping (first at line 2, column 3)")
        #expect(converter.diagnostics.first?.location == SourceLocation(line: 3, column: 3))
    }

    @Test func classifyDirectly() {
        // The same classification without the parser: "" is an untagged plain scalar.
        #expect(YAMLScalar.classify("12", tag: "", plain: true).number == 12)
        #expect(YAMLScalar.classify("12", tag: YAMLScalar.strTag, plain: false).type == .string)
        #expect(YAMLScalar.resolve("0x1F") == .int)
        #expect(YAMLScalar.resolve("1.5e3") == .float)
        #expect(YAMLScalar.resolve("Off") == .bool)
        #expect(YAMLScalar.resolve("~") == .null)
        #expect(YAMLScalar.resolve("0x1G") == .string)
    }
}
