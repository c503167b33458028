import Testing
import Foundation
@testable import AssetImport

/// `GLTFFacts` (the one-pass scanner behind the glTF checks) against the reading it replaced:
/// `JSONSerialization` and the casts the checks used. Same facts, same rejections.
@Suite struct GLTFFactsTests {
    /// The facts as the checks read them before, through Foundation.
    static func reference(_ data: Data) -> GLTFFacts? {
        guard let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        func ints(_ v: Any?) -> [Int]? { (v as? [NSNumber])?.map(\.intValue) }
        func int(_ v: Any?) -> Int? { (v as? NSNumber)?.intValue }
        var f = GLTFFacts()
        f.scene = int(json["scene"])
        f.scenes = (json["scenes"] as? [[String: Any]])?.map { ints($0["nodes"]) }
        f.nodes = (json["nodes"] as? [[String: Any]])?.map { GLTFFacts.Node(children: ints($0["children"]), mesh: int($0["mesh"])) }
        f.meshes = (json["meshes"] as? [[String: Any]])?.map { mesh in
            (mesh["primitives"] as? [[String: Any]])?.map { p in
                GLTFFacts.Primitive(mode: int(p["mode"]), indices: int(p["indices"]),
                                    position: int((p["attributes"] as? [String: Any])?["POSITION"]))
            }
        }
        f.accessorCounts = (json["accessors"] as? [[String: Any]])?.map { int($0["count"]) }
        return f
    }

    static let base = """
        {"asset": {"version": "2.0", "generator": "t\\u00e9st \\"q\\" \\\\ \\/"}, "scene": 0,
         "scenes": [{"nodes": [0, 2]}, {"nodes": [1]}],
         "nodes": [{"children": [1], "mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.5, -1e-3, 2E+1, 1]},
                   {"mesh": 1, "name": "btn_ok", "extras": {"spatial": {"role": "button"}, "mesh": 7}}, {}],
         "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "mode": 4}]},
                    {"primitives": [{"attributes": {"POSITION": 0}, "mode": 5}, {"attributes": {"POSITION": 1}}]}],
         "accessors": [{"count": 24, "min": [-1, -1, -1]}, {"count": 24}, {"count": 36, "type": "SCALAR"}],
         "buffers": [{"uri": "data:application/octet-stream;base64,AAAA", "byteLength": 3}]}
        """

    /// Variants of `base` as (label, text): typing corners and invalid JSON.
    static var variants: [(String, String)] {
        let b = base
        func sub(_ a: String, _ r: String) -> String { b.replacingOccurrences(of: a, with: r) }
        var v: [(String, String)] = [("base", b)]
        v.append(("scene bool", sub("\"scene\": 0", "\"scene\": true")))
        v.append(("scene false", sub("\"scene\": 0", "\"scene\": false")))
        v.append(("scene fraction", sub("\"scene\": 0", "\"scene\": 1.9")))
        v.append(("scene negative", sub("\"scene\": 0", "\"scene\": -1")))
        v.append(("scene string", sub("\"scene\": 0", "\"scene\": \"0\"")))
        v.append(("scene null", sub("\"scene\": 0", "\"scene\": null")))
        v.append(("scene exponent", sub("\"scene\": 0", "\"scene\": 1e0")))
        v.append(("scene 2^63", sub("\"scene\": 0", "\"scene\": 9223372036854775808")))
        v.append(("scene 2^64-1", sub("\"scene\": 0", "\"scene\": 18446744073709551615")))
        v.append(("scene 1e19", sub("\"scene\": 0", "\"scene\": 1e19")))
        v.append(("scene underflow", sub("\"scene\": 0", "\"scene\": 1e-400")))
        v.append(("children mixed", sub("\"children\": [1]", "\"children\": [1, \"x\"]")))
        v.append(("children bools", sub("\"children\": [1]", "\"children\": [true, false]")))
        v.append(("children object", sub("\"children\": [1]", "\"children\": {\"a\": 1}")))
        v.append(("children empty", sub("\"children\": [1]", "\"children\": []")))
        v.append(("node not object", sub("{}],", "5],")))
        v.append(("mesh string", sub("\"mesh\": 0,", "\"mesh\": \"0\",")))
        v.append(("attributes array", sub("{\"POSITION\": 0}, \"mode\": 5", "[0], \"mode\": 5")))
        v.append(("primitives not objects", sub("{\"attributes\": {\"POSITION\": 1}}", "1")))
        v.append(("accessor not object", sub("{\"count\": 24}, {\"count\": 36", "7, {\"count\": 36")))
        v.append(("count fraction", sub("\"count\": 36", "\"count\": 36.9")))
        v.append(("duplicate keys", String(b.dropLast()) + ", \"scene\": 1, \"scenes\": [{\"nodes\": [2]}]}"))
        v.append(("duplicate in node", sub("\"mesh\": 1,", "\"mesh\": 1, \"mesh\": null,")))
        v.append(("escaped key", sub("\"accessors\"", "\"acc\\u0065ssors\"")))
        v.append(("escaped key surrogate", sub("\"asset\"", "\"\\ud83d\\ude00\"")))
        v.append(("trailing commas", sub("\"count\": 24}, {\"count\": 36", "\"count\": 24,}, {\"count\": 36,").replacingOccurrences(of: "[0, 2]", with: "[0, 2,]")))
        v.append(("whitespace", sub(", ", " ,\r\n\t ")))
        v.append(("byte order mark", "\u{FEFF}" + b))
        v.append(("unicode text", sub("t\\u00e9st", "té中😀")))
        v.append(("nesting 510", sub("\"version\": \"2.0\"", "\"x\": " + String(repeating: "[", count: 510) + String(repeating: "]", count: 510))))
        v.append(("nesting 511", sub("\"version\": \"2.0\"", "\"x\": " + String(repeating: "[", count: 511) + String(repeating: "]", count: 511))))
        // Invalid JSON: both give nil.
        v.append(("top-level array", "[" + b + "]"))
        v.append(("empty", ""))
        v.append(("trailing garbage", b + " x"))
        v.append(("trailing NUL", b + "\u{0}"))
        v.append(("leading zero", sub("\"scene\": 0", "\"scene\": 01")))
        v.append(("bare dot", sub("\"scene\": 0", "\"scene\": 1.")))
        v.append(("overflow", sub("\"scene\": 0", "\"scene\": 1e400")))
        v.append(("long integer", sub("\"scene\": 0", "\"scene\": " + String(repeating: "9", count: 400))))
        v.append(("NaN", sub("\"scene\": 0", "\"scene\": NaN")))
        v.append(("comma only", sub("{}],", "{,}],")))
        v.append(("double comma", sub("\"mesh\": 1,", "\"mesh\": 1,,")))
        v.append(("single quotes", sub("\"scene\": 0", "'scene': 0")))
        v.append(("bad escape", sub("t\\u00e9st", "\\q")))
        v.append(("lone high surrogate", sub("t\\u00e9st", "\\ud800")))
        v.append(("lone low surrogate", sub("t\\u00e9st", "\\ude00")))
        v.append(("raw tab in string", sub("t\\u00e9st", "a\tb")))
        v.append(("unterminated", String(b.dropLast())))
        v.append(("literal typo", sub("\"scene\": 0", "\"scene\": tru")))
        return v
    }

    @Test("the scanner reads the same facts as JSONSerialization", arguments: variants.map(\.0))
    func sameFacts(label: String) throws {
        let text = try #require(Self.variants.first { $0.0 == label }?.1)
        let data = Data(text.utf8)
        #expect(GLTFFacts.parse(data) == Self.reference(data))
    }

    @Test("invalid UTF-8 and overlong or surrogate sequences are rejected as JSONSerialization does")
    func invalidUTF8() {
        for bad: [UInt8] in [[0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            var data = Data("{\"asset\": {\"x\": \"a".utf8)
            data.append(contentsOf: bad)
            data.append(contentsOf: Array("b\"}, \"scene\": 0}".utf8))
            #expect(GLTFFacts.parse(data) == Self.reference(data))
            #expect(GLTFFacts.parse(data) == nil)
        }
    }

    @Test("the base document is read, not rejected")
    func baseIsRead() throws {
        let facts = try #require(GLTFFacts.parse(Data(Self.base.utf8)))
        #expect(facts.nodes?.count == 3)
        #expect(facts.accessorCounts == [24, 24, 36])
        #expect(facts.meshes?.count == 2)
    }
}
