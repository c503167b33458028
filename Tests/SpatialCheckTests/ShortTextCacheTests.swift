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
