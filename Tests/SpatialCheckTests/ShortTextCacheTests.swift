import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `ShortTextCache`, through which the YAML and JSON fast paths make the strings of short
/// scalars and keys: always the string decoding the bytes gives, whatever the cache held before.
@Suite struct ShortTextCacheTests {
    @Test func textsEqualDecodedStrings() {
        var rng = SplitMix64(seed: 18)
        // Letters and digits (many collisions in 512 slots), NUL, DEL, controls, UTF-8 and invalid
        // bytes (which decoding repairs and the cache must not take).
        let alphabet: [UInt8] = Array("ab01-._xyz".utf8) + [0, 0x7F, 0x01, 0xC3, 0xA9, 0xFF, 0x80]
        ShortTextCache.with { cache in
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...10, using: &rng)
            // Mostly words from a small alphabet, so that words come back, after others took their slot.
            let small = Int.random(in: 0..<4, using: &rng) != 0
            let bytes = (0..<n).map { _ in alphabet[Int.random(in: 0..<(small ? 4 : alphabet.count), using: &rng)] }
            let prefix = [UInt8](repeating: UInt8(ascii: "q"), count: Int.random(in: 0...3, using: &rng))
            let buffer = prefix + bytes + [UInt8(ascii: "!")]
            buffer.withUnsafeBufferPointer { u in
                let s = cache.text(u, prefix.count, prefix.count + n)
                let expected = String(decoding: bytes, as: UTF8.self)
                #expect(s == expected)
                #expect(Array(s.utf8) == Array(expected.utf8))
            }
        }
        }
    }

    @Test func scalarsAreWhatMakeGivesForTheirBytes() {
        var rng = SplitMix64(seed: 29)
        // Texts of every type (YAML 1.1's numbers, bools and nulls among them), and numbers enough
        // to evict each other from the 512 slots.
        let words = ["0", "1", "44", "-3", "0.5", "1e3", "012", "0x1F", "yes", "No", "~", "null", "true", ".inf",
                     "-.inf", ".nan", "button", "b0", "w12", "-0", "+1", "1_000", "é", "a b", "12345678", "123456789"]
        ShortTextCache.with { cache in
            var made = 0
            for _ in 0..<20_000 {
                let text = Int.random(in: 0..<3, using: &rng) == 0 ? String(Int.random(in: 0..<3_000, using: &rng))
                    : words[Int.random(in: 0..<words.count, using: &rng)]
                let bytes = Array(text.utf8)
                let prefix = [UInt8](repeating: UInt8(ascii: "q"), count: Int.random(in: 0...3, using: &rng))
                let buffer = prefix + bytes + [UInt8(ascii: ",")]
                let expected = YAMLScalar.classify(text, tag: "", plain: true)
                let v = buffer.withUnsafeBufferPointer { u in
                    cache.scalar(u, prefix.count, prefix.count + bytes.count) {
                        made += 1
                        return YAMLScalar.classify(String(decoding: u[prefix.count..<(prefix.count + bytes.count)], as: UTF8.self),
                                                   tag: "", plain: true)
                    }
                }
                #expect(v.text == expected.text)
                #expect(v.type == expected.type)
                #expect(v.number?.bitPattern == expected.number?.bitPattern)
                #expect(v.bool == expected.bool)
            }
            // The repeated words are typed once each (until another text takes their slot).
            #expect(made < 10_000)
        }
    }

    /// `YAMLTreeTests.render` with every scalar's text (a cached scalar brings its own).
    private static func renderWithTexts(_ n: YNode) -> String {
        switch n.kind {
        case let .scalar(s): return "\(s.type)(\(s.text), \(s.number.map { "\($0.bitPattern)" } ?? "-"), \(s.bool.map { "\($0)" } ?? "-"))"
        case let .sequence(items): return "[" + items.map(renderWithTexts).joined(separator: ", ") + "]"
        case let .mapping(pairs): return "{" + pairs.map { "\($0.key)/\($0.asciiLength): \(renderWithTexts($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    private static func both(_ text: String) -> (fast: String?, libyaml: String?) {
        var c = TreeConverter(file: "t.scene.yaml", fastPaths: false)
        let fast = (JSONTree.parse(text) ?? YAMLFastTree.parse(text)).map { renderWithTexts($0) + YAMLTreeTests.render($0) }
        return (fast, c.parse(text).map { renderWithTexts($0) + YAMLTreeTests.render($0) })
    }

    @Test func repeatedScalarsOfEveryTypeMatchLibyaml() {
        // Each text three times, as a value in block and flow context, so that later uses are
        // cache hits; every type YAML 1.1 gives plain scalars.
        let words = ["0", "1", "44", "-3", "0.5", "1e3", "012", "0x1F", "yes", "No", "~", "null", "true", ".inf",
                     "-.inf", ".nan", "button", "b0", "-0", "+1", "1_000", "é", "a b", "12345678", "123456789", "0o7"]
        var yaml = "root:\n"
        for _ in 0..<3 {
            for (n, w) in words.enumerated() { yaml += "  - {k\(n): \(w), l: [\(w), \(w)]}\n  - \(w)\n  - \(w): 1\n" }
        }
        let (fast, slow) = Self.both(yaml)
        #expect(fast != nil)
        #expect(fast == slow)
        let literals = ["0", "1", "44", "-3", "0.5", "1e3", "-0", "true", "false", "null", "12345678", "1.5E-3", "-0.0"]
        let row = "[" + literals.joined(separator: ", ") + "]"
        let json = "{\"root\": [" + Array(repeating: row, count: 3).joined(separator: ",\n ") + "]}\n"
        let (fastJSON, slowJSON) = Self.both(json)
        #expect(fastJSON != nil)
        #expect(fastJSON == slowJSON)
    }

    private static func libyaml(_ text: String) -> String? {
        var c = TreeConverter(file: "t.scene.yaml", fastPaths: false)
        return c.parse(text).map(YAMLTreeTests.render)
    }

    @Test func manyShortWordsInOneFileMatchLibyaml() {
        // 1,500 keys and values of 1 to 9 bytes (more than the cache's 512 slots), each used twice.
        let words = (0..<1_500).map { n in String("k\(n * 7919 % 100_003)xyzw".prefix(1 + n % 9)) }
        var yaml = "root:\n"
        var json = "{\"root\": [\n"
        for (n, w) in words.enumerated() {
            yaml += "  - {id: \(w), \(w)x: '\(w)', n: \(n % 700), role: \"\(w)\"}\n"
            json += "  {\"id\": \"\(w)\", \"\(w)x\": \"\(w)\", \"n\": \(n % 700), \"role\": \"\(w)\"}" + (n + 1 < words.count ? ",\n" : "\n")
        }
        json += "]}\n"
        let fast = YAMLFastTree.parse(yaml).map(YAMLTreeTests.render)
        #expect(fast != nil)
        #expect(fast == Self.libyaml(yaml))
        let fastJSON = JSONTree.parse(json).map(YAMLTreeTests.render)
        #expect(fastJSON != nil)
        #expect(fastJSON == Self.libyaml(json))
    }
}
