@testable import AssetImport
import Foundation
import SpatialModel
import Testing

/// Field-by-field, bit-exact comparison of two imported assets (floats by bit pattern).
func expectSameAsset(_ a: ImportedAsset, _ b: ImportedAsset, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    func bits(_ v: Vec3) -> [UInt64] { [v.x.bitPattern, v.y.bitPattern, v.z.bitPattern] }
    func bits(_ q: Quat) -> [UInt64] { [q.x.bitPattern, q.y.bitPattern, q.z.bitPattern, q.w.bitPattern] }
    #expect(a.path == b.path, sourceLocation: sourceLocation)
    #expect(a.resolvedPath == b.resolvedPath, sourceLocation: sourceLocation)
    #expect(a.format == b.format, sourceLocation: sourceLocation)
    #expect(a.declaredUnitScale?.bitPattern == b.declaredUnitScale?.bitPattern, sourceLocation: sourceLocation)
    #expect(a.unitNote == b.unitNote, sourceLocation: sourceLocation)
    #expect(a.warnings == b.warnings, sourceLocation: sourceLocation)
    #expect(a.axisConversion?.m.map(\.bitPattern) == b.axisConversion?.m.map(\.bitPattern), sourceLocation: sourceLocation)
    #expect(a.axisNote == b.axisNote, sourceLocation: sourceLocation)
    #expect(a.nodes.count == b.nodes.count, sourceLocation: sourceLocation)
    for (x, y) in zip(a.nodes, b.nodes) {
        #expect(x.name == y.name, sourceLocation: sourceLocation)
        #expect(x.parent == y.parent, sourceLocation: sourceLocation)
        #expect(x.subtreeEnd == y.subtreeEnd, sourceLocation: sourceLocation)
        #expect(x.local.m.map(\.bitPattern) == y.local.m.map(\.bitPattern), sourceLocation: sourceLocation)
        #expect((x.localTRS == nil) == (y.localTRS == nil), sourceLocation: sourceLocation)
        if let s = x.localTRS, let t = y.localTRS {
            #expect(bits(s.translation) == bits(t.translation), sourceLocation: sourceLocation)
            #expect(bits(s.rotation) == bits(t.rotation), sourceLocation: sourceLocation)
            #expect(bits(s.scale) == bits(t.scale), sourceLocation: sourceLocation)
        }
        #expect(bits(x.meshBounds.min) == bits(y.meshBounds.min), sourceLocation: sourceLocation)
        #expect(bits(x.meshBounds.max) == bits(y.meshBounds.max), sourceLocation: sourceLocation)
        #expect(x.vertices.map(\.bitPattern) == y.vertices.map(\.bitPattern), sourceLocation: sourceLocation)
        #expect(x.triangles == y.triangles, sourceLocation: sourceLocation)
        #expect(x.marking == y.marking, sourceLocation: sourceLocation)
        #expect(x.marking?.fontSize?.bitPattern == y.marking?.fontSize?.bitPattern, sourceLocation: sourceLocation)
    }
    #expect(a.animations.count == b.animations.count, sourceLocation: sourceLocation)
    for (c, d) in zip(a.animations, b.animations) {
        #expect(c.name == d.name, sourceLocation: sourceLocation)
        #expect(c.duration.bitPattern == d.duration.bitPattern, sourceLocation: sourceLocation)
        #expect(c.channels.count == d.channels.count, sourceLocation: sourceLocation)
        for (p, q) in zip(c.channels, d.channels) {
            #expect(p.node == q.node, sourceLocation: sourceLocation)
            #expect(p.positions.map { [$0.time.bitPattern] + bits($0.value) } == q.positions.map { [$0.time.bitPattern] + bits($0.value) },
                    sourceLocation: sourceLocation)
            #expect(p.rotations.map { [$0.time.bitPattern] + bits($0.value) } == q.rotations.map { [$0.time.bitPattern] + bits($0.value) },
                    sourceLocation: sourceLocation)
            #expect(p.scales.map { [$0.time.bitPattern] + bits($0.value) } == q.scales.map { [$0.time.bitPattern] + bits($0.value) },
                    sourceLocation: sourceLocation)
        }
    }
}

/// A small asset that uses every field and every optional both ways, with awkward values.
func syntheticAsset() -> ImportedAsset {
    let trs = Transform(translation: Vec3(1, -0.0, .pi), rotation: Quat(x: 0, y: 0.6, z: 0, w: 0.8), scale: Vec3(2, 2, 2))
    let root = AssetNode(name: "root ✓ ünïcode", parent: nil, subtreeEnd: 3, local: trs.matrix, localTRS: trs,
                         meshBounds: .empty, vertices: [], triangles: 0, marking: nil)
    let button = AssetNode(name: "btn_play", parent: 0, subtreeEnd: 3, local: .identity, localTRS: nil,
                           meshBounds: AABB(min: Vec3(-1, -1, -1), max: Vec3(1, 1, 1)),
                           vertices: [-1, -1, -1, 1, 1, 1, 0, -0.0, Float.leastNonzeroMagnitude],
                           triangles: 1, marking: AssetMarking(role: .button, source: .namePrefix))
    let label = AssetNode(name: "", parent: 1, subtreeEnd: 3,
                          local: Mat4(columnMajor: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1e300, -1e-300, 0, 1]),
                          localTRS: .identity, meshBounds: AABB(min: .zero, max: .one),
                          vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], triangles: 1,
                          marking: AssetMarking(role: .text, interactive: false, primary: true, fontSize: 17.5, source: .extras))
    let clip = AssetClip(name: "spin", duration: 2.5, channels: [
        NodeChannel(node: 1, positions: [Key(time: 0, value: .zero), Key(time: 2.5, value: Vec3(0, 1, 0))],
                    rotations: [Key(time: 1, value: Quat(x: 0, y: 1, z: 0, w: 0))],
                    scales: []),
        NodeChannel(node: 2),
    ])
    return ImportedAsset(path: "ui/panel.glb", resolvedPath: "/tmp/ui/panel.glb", format: "glTF2 Importer",
                         nodes: [root, button, label], animations: [clip, AssetClip(name: "", duration: 0, channels: [])],
                         declaredUnitScale: 0.01, unitNote: "FBX UnitScaleFactor 1 (centimetres per unit): 0.01 m per unit",
                         warnings: ["first", "zweite ⚠︎"])
}

@Suite("AssetIsolation: binary codec")
struct AssetIsolationCodecTests {
    static let realAssets = [
        "gltf-box-animated/BoxAnimated.gltf",
        "glb-fox-skinned/Fox.glb",
        "dae-teapot-instancenodes-inch/teapot_instancenodes.DAE",
        "fbx-global-settings-units/global_settings.fbx",
        "ply-wuson/Wuson.ply",
    ]

    @Test("real assets round-trip field by field", .enabled(if: TestPaths.haveSharedAssets), arguments: realAssets)
    func realRoundTrip(_ relative: String) throws {
        let asset = try AssetImporter.load(resolvedPath: TestPaths.asset(relative), displayPath: relative)
        let bytes = asset.encoded()
        let decoded = try ImportedAsset.decode(bytes)
        expectSameAsset(asset, decoded)
        #expect(decoded.encoded() == bytes)
    }

    @Test("every field and optional round-trips exactly")
    func syntheticRoundTrip() throws {
        let asset = syntheticAsset()
        let decoded = try ImportedAsset.decode(asset.encoded())
        expectSameAsset(asset, decoded)
        #expect(decoded.nodes[1].vertices[7].sign == .minus)
        #expect(decoded.nodes[0].meshBounds.min.x == .infinity)
        #expect(decoded.nodes[2].marking?.primary == true && decoded.nodes[2].marking?.interactive == false)
        #expect(decoded.nodes[1].marking?.interactive == nil)
    }

    @Test("a diagnostic round-trips as an error record and decode() throws it")
    func diagnosticRecord() throws {
        let d = Diagnostic(.error, file: "a.ply", location: SpatialModel.SourceLocation(line: 3, column: 7),
                           message: "assimp could not import the asset: ✗", hint: nil)
        let bytes = AssetCodec.encode(d)
        guard case .diagnostic(let back) = try AssetCodec.decodeRecord(bytes) else {
            Issue.record("expected a diagnostic record"); return
        }
        #expect(back == d)
        #expect(throws: d) { try ImportedAsset.decode(bytes) }
    }

    @Test("every truncation of an encoded asset throws")
    func truncated() throws {
        let bytes = syntheticAsset().encoded()
        for n in 0..<bytes.count {
            #expect(throws: Diagnostic.self) { try ImportedAsset.decode(Array(bytes[0..<n])) }
        }
        #expect(throws: Diagnostic.self) { try ImportedAsset.decode(bytes + [0]) }
    }

    @Test("every single-bit flip of an encoded asset throws")
    func bitFlips() throws {
        let bytes = syntheticAsset().encoded()
        for i in 0..<bytes.count {
            for bit in [0, 3, 7] {
                var garbled = bytes
                garbled[i] ^= UInt8(1 << bit)
                #expect(throws: Diagnostic.self) { try ImportedAsset.decode(garbled) }
            }
        }
    }

    @Test("random garbage throws")
    func garbage() {
        var rng = SplitMix64(seed: 42)
        for length in [0, 1, 4, 19, 20, 21, 100, 5000] {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                #expect(throws: Diagnostic.self) { try ImportedAsset.decode(bytes) }
                // The same garbage behind a valid header (and checksum) must fail in the payload.
                let framed = AssetCodec.frame(kind: .asset, payload: bytes)
                #expect(throws: Diagnostic.self) { try ImportedAsset.decode(framed) }
            }
        }
    }

    @Test("hostile lengths and indices behind a valid checksum throw before allocating")
    func hostilePayloads() {
        func payload(_ build: (inout ByteWriter) -> Void) -> [UInt8] {
            var w = ByteWriter()
            build(&w)
            return AssetCodec.frame(kind: .asset, payload: w.bytes)
        }
        let cases: [(String, [UInt8])] = [
            ("huge string length", payload { $0.u32(0xFFFF_FFFF) }),
            ("huge node count", payload { $0.string("p"); $0.string("r"); $0.string("f"); $0.u32(900_000) }),
            ("invalid UTF-8", payload { $0.u32(2); $0.u8(0xC3); $0.u8(0x28) }),
            ("huge vertex count", payload {
                $0.string("p"); $0.string("r"); $0.string("f"); $0.count(1)
                $0.string("n"); $0.u8(0); $0.int(1); for _ in 0..<16 { $0.f64(0) }; $0.u8(0)
                for _ in 0..<6 { $0.f64(0) }; $0.u32(0x4000_0000)
            }),
            ("parent after child", payload {
                var a = syntheticAsset(); a.nodes[1].parent = 2
                $0.asset(a)
            }),
            ("subtree end past the nodes", payload {
                var a = syntheticAsset(); a.nodes[0].subtreeEnd = 99
                $0.asset(a)
            }),
            ("channel for a missing node", payload {
                var a = syntheticAsset(); a.animations[0].channels[0].node = 3
                $0.asset(a)
            }),
            ("vertex count not a multiple of 3", payload {
                var a = syntheticAsset(); a.nodes[2].vertices.removeLast()
                $0.asset(a)
            }),
        ]
        for (name, bytes) in cases {
            #expect(throws: Diagnostic.self, "\(name)") { try ImportedAsset.decode(bytes) }
        }
        // A wrong version is named.
        var bytes = syntheticAsset().encoded()
        bytes[4] = 9
        #expect { try ImportedAsset.decode(bytes) } throws: { ($0 as? Diagnostic)?.message.contains("version 9") == true }
    }
}

/// A tiny deterministic generator for test data.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double of mixed magnitude and sign, negative zero included (for bit-for-bit comparisons
    /// of matrix arithmetic).
    mutating func mixedDouble() -> Double {
        switch Int.random(in: 0..<8, using: &self) {
        case 0: return -0.0
        case 1: return Double.random(in: -1e9...1e9, using: &self)
        default: return Double.random(in: -3...3, using: &self)
        }
    }

    /// A transform of `mixedDouble`s: translation, rotation (normalised when `unitRotation`), scale.
    mutating func transform(unitRotation: Bool) -> Transform {
        let translation = Vec3(mixedDouble(), mixedDouble(), mixedDouble())
        let q = Quat(x: mixedDouble(), y: mixedDouble(), z: mixedDouble(), w: mixedDouble())
        return Transform(translation: translation, rotation: unitRotation ? q.normalized : q,
                         scale: Vec3(mixedDouble(), mixedDouble(), mixedDouble()))
    }
}
