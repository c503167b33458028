import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `Mat4` keeps its 16 values inline (`values`) instead of in an array: every operation gives the
/// same doubles, bit for bit, as the array-based code it replaced (written out here as it was).
@Suite struct SceneBuilderInlineMatrixTests {
    /// The array-based `Mat4 *` as it was.
    private static func oldProduct(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 16)
        for c in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a[k * 4 + row] * b[c * 4 + k] }
                r[c * 4 + row] = s
            }
        }
        return r
    }

    /// The array-based `Transform.matrix` as it was.
    private static func oldMatrix(_ t: Transform) -> [Double] {
        let q = t.rotation, scale = t.scale, translation = t.translation
        let xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z
        let xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z
        let wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z
        let r: [Double] = [
            1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy),
            2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx),
            2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy),
        ]
        return [
            r[0] * scale.x, r[1] * scale.x, r[2] * scale.x, 0,
            r[3] * scale.y, r[4] * scale.y, r[5] * scale.y, 0,
            r[6] * scale.z, r[7] * scale.z, r[8] * scale.z, 0,
            translation.x, translation.y, translation.z, 1,
        ]
    }

    private static func bits(_ m: Mat4) -> [UInt64] { (0..<16).map { m.values[$0].bitPattern } }
    private static func bits(_ v: Vec3) -> [UInt64] { [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern] }

    @Test func operationsGiveTheArrayCodesDoublesToTheBit() {
        var rng = SplitMix64(seed: 17)
        func d() -> Double {
            // Mixed magnitudes and signs, negative zero included.
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return -0.0
            case 1: return Double.random(in: -1e9...1e9, using: &rng)
            default: return Double.random(in: -3...3, using: &rng)
            }
        }
        for _ in 0..<500 {
            let t = Transform(translation: Vec3(d(), d(), d()), rotation: Quat(x: d(), y: d(), z: d(), w: d()).normalized,
                              scale: Vec3(d(), d(), d()))
            let u = Transform(translation: Vec3(d(), d(), d()), rotation: Quat(x: d(), y: d(), z: d(), w: d()),
                              scale: Vec3(d(), d(), d()))
            let a = t.matrix, b = u.matrix
            #expect(a.m.map(\.bitPattern) == Self.oldMatrix(t).map(\.bitPattern))
            #expect(Self.bits(SceneBuilder.matrix(t)) == Self.bits(a))
            let old = Self.oldProduct(Self.oldMatrix(t), Self.oldMatrix(u))
            #expect((a * b).m.map(\.bitPattern) == old.map(\.bitPattern))
            #expect(SceneBuilder.product(a, b).m.map(\.bitPattern) == old.map(\.bitPattern))
            // transformPoint and translation read the same elements as before.
            let p = Vec3(d(), d(), d()), m = a.m
            let expected = Vec3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
                                m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                                m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
            #expect(Self.bits(a.transformPoint(p)) == Self.bits(expected))
            #expect(Self.bits(a.translation) == Self.bits(Vec3(m[12], m[13], m[14])))
            // Built from the array, the same matrix.
            #expect(Mat4(columnMajor: m) == a)
            #expect(Self.bits(Mat4(columnMajor: m)) == Self.bits(a))
        }
    }

    @Test func elementsSubscriptsAndTheArrayView() {
        var m = Mat4(columnMajor: (0..<16).map(Double.init))
        // Column-major: row 1 of column 2 is element 9.
        #expect(m[1, 2] == 9)
        #expect(m.values[9] == 9)
        m[1, 2] = -1
        #expect(m.m[9] == -1)
        m.m[3] = 42
        #expect(m[3, 0] == 42)
        #expect(Mat4.identity.m == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(Mat4.identity.isFinite)
        var n = Mat4.identity
        n[2, 3] = .nan
        #expect(!n.isFinite)
        n[2, 3] = .infinity
        #expect(!n.isFinite)
        // Equality and hashing are the values' (0 and -0 equal, as `[Double]`'s were).
        var z = Mat4.identity
        z[0, 1] = -0.0
        #expect(z == Mat4.identity)
        #expect(z.hashValue == Mat4.identity.hashValue)
        #expect(Set([z, Mat4.identity, m]).count == 2)
        // yawPitchRoll of a rotation reads its columns as before.
        let ypr = Transform(rotation: Quat(yaw: 30, pitch: -10, roll: 5)).matrix.yawPitchRoll
        #expect(ypr.map { abs($0.x - 30) < 1e-9 && abs($0.y + 10) < 1e-9 && abs($0.z - 5) < 1e-9 } == true)
        #expect(Mat4(columnMajor: [Double](repeating: 0, count: 16)).yawPitchRoll == nil)
    }
}

/// `ShortTextCache`, through which the YAML and JSON fast paths make the strings of short
/// scalars and keys: always the string decoding the bytes gives, whatever the cache held before.
@Suite struct YAMLFastTreeTextCacheTests {
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

/// `element` builds an element's entity in place in the table when it has only the keys it reads
/// itself, and in a local copy when it has others (facts, media, appearance): both give the same
/// entity.
@Suite struct SceneBuilderElementInPlaceTests {
    @Test func bothWaysGiveTheSameElement() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inplace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.scene.yaml").path
        let element = "role: button, frame: [10, 20, 44, 44], depth: 3, fontSize: 17, label: Go, primary: true, visible: false, interactive: false"
        try """
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: [800, 600]
                elements:
                  - {id: a, \(element)}
                  - {id: b, \(element), accessibilityLabel: Go}
                  - {id: c, role: text, frame: [0, 0, 100, 20]}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: path)
        let byId = Dictionary(uniqueKeysWithValues: scene.entities.enumerated().map { ($0.element.id, $0.offset) })
        let w = try #require(byId["w"]), ia = try #require(byId["a"]), ib = try #require(byId["b"]), ic = try #require(byId["c"])
        let a = scene.entities[ia], b = scene.entities[ib], c = scene.entities[ic]
        for (e, i) in [(a, ia), (b, ib), (c, ic)] {
            #expect(e.kind == .element)
            #expect(e.path == "w/" + e.id)
            #expect(e.geometryNodes == e.node..<(e.node + 1))
            #expect(scene.nodes[e.node].entity == i)
            #expect(e.parent == w && e.container == w)
            #expect(e.anchor == scene.entities[w].anchor && e.scaleMode == scene.entities[w].scaleMode)
            #expect(e.metresPerPoint == scene.entities[w].metresPerPoint)
        }
        #expect(a.location == SpatialModel.SourceLocation(line: 7, column: 9))
        #expect(b.location == SpatialModel.SourceLocation(line: 8, column: 9))
        // The same values in place (a) and through the copy (b, which has a fact key).
        for e in [a, b] {
            #expect(e.role == .button)
            #expect(e.frame == RectPt(x: 10, y: 20, width: 44, height: 44))
            #expect(e.depthPt == 3 && e.fontSize == 17 && e.label == "Go")
            #expect(e.primary && !e.visible && !e.interactive)
            #expect(e.factSources.interactive == .annotation)
        }
        #expect(a.placementDistance.bitPattern == b.placementDistance.bitPattern)
        #expect(a.restWorldBounds == b.restWorldBounds)
        #expect(a.accessibilityLabel == nil && b.accessibilityLabel == "Go")
        // Defaults where nothing is written.
        #expect(c.role == .text && c.depthPt == 0 && c.fontSize == nil && c.label == nil)
        #expect(!c.primary && c.visible && c.interactive == ElementRole.text.defaultInteractive)
        #expect(c.factSources.interactive == FactSources().interactive)
    }
}
