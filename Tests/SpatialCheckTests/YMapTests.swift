import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `YMap`'s key lookups and key checks, which skip ASCII keys of another length without comparing
/// them: every answer must be the one `==` (Swift's canonical equivalence) gives.
@Suite struct YMapTests {
    private static func scalar(_ text: String, _ line: Int) -> YNode {
        YNode(kind: .scalar(YScalar(text: text, type: .string, number: nil, bool: nil)),
              loc: SourceLocation(line: line, column: 9))
    }

    /// A mapping with one pair per key, the pair on line i + 2 with the value "v<i>".
    private static func map(_ keys: [String]) -> YMap {
        let pairs = keys.enumerated().map { i, k in
            YPair(key: k, keyLoc: SourceLocation(line: i + 2, column: 3), value: scalar("v\(i)", i + 2))
        }
        return YMap(node: YNode(kind: .mapping(pairs), loc: SourceLocation(line: 1, column: 1)), pairs: pairs)
    }

    private static func text(_ n: YNode?) -> String? {
        guard let n, case let .scalar(s) = n.kind else { return nil }
        return s.text
    }

    @Test func asciiLengthIsTheByteCountOfAnAsciiKeyElseMinusOne() {
        #expect(YPair.asciiLength(of: "frame") == 5)
        #expect(YPair.asciiLength(of: "accessibilityLabel") == 18)
        #expect(YPair.asciiLength(of: "") == 0)
        #expect(YPair.asciiLength(of: "fram\u{E9}") == -1)
        #expect(YPair.asciiLength(of: "\u{212A}") == -1)
    }

    @Test func lookupFindsKeysOfEveryLengthAndNothingElse() {
        let m = Self.map(["id", "role", "frame", "depth", "accessibilityLabel"])
        #expect(Self.text(m["id"]) == "v0")
        #expect(Self.text(m["role"]) == "v1")
        #expect(Self.text(m["frame"]) == "v2")
        #expect(Self.text(m["depth"]) == "v3")
        #expect(Self.text(m["accessibilityLabel"]) == "v4")
        #expect(m.keyLoc("depth") == SourceLocation(line: 5, column: 3))
        #expect(m["label"] == nil)          // same length as frame and depth
        #expect(m["ids"] == nil)
        #expect(m["i"] == nil)
        #expect(m["Frame"] == nil)
        #expect(!m.has("fontSize"))
        #expect(m.has("role"))
        #expect(m.keyLoc("fontSize") == nil)
        #expect(m.index(of: "frame") == 2)
    }

    @Test func theFirstOfTwoEqualKeysWins() {
        let m = Self.map(["color", "color"])
        #expect(Self.text(m["color"]) == "v0")
        #expect(m.keyLoc("color") == SourceLocation(line: 2, column: 3))
    }

    @Test func nonAsciiKeysCompareAsSwiftStringsDo() {
        // U+212A KELVIN SIGN is canonically equivalent to "K" (its decomposition), so `==` holds
        // although the byte lengths differ (3 and 1); "é" precomposed and decomposed likewise.
        #expect("\u{212A}" == "K")
        let m = Self.map(["\u{212A}", "caf\u{E9}", "x\u{212A}y"])
        #expect(Self.text(m["K"]) == "v0")
        #expect(Self.text(m["xKy"]) == "v2")
        #expect(m["caf"] == nil)
        #expect(m["k"] == nil)
        #expect(m.index(of: "xKy") == 2)
    }

    @Test func checkKeysReportsEveryKeyNotAllowedWithItsLocation() {
        let r = Reader(file: "t.scene.yaml")
        let m = Self.map(["yaw", "pich", "roll", "rol", "\u{212A}"])
        m.checkKeys(["yaw", "pitch", "roll", "K"], in: "'rotation'", reader: r)
        #expect(r.diagnostics.map(\.message) == ["unknown key 'pich' in 'rotation'", "unknown key 'rol' in 'rotation'"])
        #expect(r.diagnostics.map(\.location) == [SourceLocation(line: 3, column: 3), SourceLocation(line: 5, column: 3)])
        #expect(r.diagnostics.map(\.hint) == ["did you mean 'pitch'?", "did you mean 'roll'?"])
    }

    @Test func checkKeysExplainsKeysThatBelongElsewhere() {
        let r = Reader(file: "t.scene.yaml")
        let m = Self.map(["frame", "position"])
        m.checkKeys(["id", "frame"], in: "element 'b'", reader: r, elsewhere: ["position": "is not used here"])
        #expect(r.diagnostics.map(\.message) == ["'position' is not a key of element 'b'; it is not used here"])
        #expect(r.diagnostics.first?.hint == nil)
    }
}
