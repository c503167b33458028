@testable import AssetImport
import Foundation
import SpatialModel
import Testing

/// Distinct vertex storages among an asset's nodes and their total size in bytes: what the
/// process holds for vertices, however many nodes use them.
private func vertexStorage(_ asset: ImportedAsset) -> (arrays: Int, bytes: Int) {
    var seen: Set<UnsafeRawPointer> = []
    var bytes = 0
    for n in asset.nodes where !n.vertices.isEmpty {
        n.vertices.withUnsafeBytes { raw in
            if let base = raw.baseAddress, seen.insert(base).inserted { bytes += raw.count }
        }
    }
    return (seen.count, bytes)
}

/// A glTF with `meshes` meshes (one node each) that all use one POSITION accessor of `vertices`
/// vertices and one index accessor: the shape that made the parent process hold one copy per mesh.
private func sharedAccessorGLTF(meshes: Int, vertices: Int) -> String {
    var buffer: [UInt8] = []
    for i in 0..<vertices {
        for v in [Float(i % 100) * 0.01, Float(i / 100) * 0.01, 0] {
            buffer += withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init)
        }
    }
    let positionBytes = buffer.count
    for i in 0..<vertices { buffer += withUnsafeBytes(of: UInt32(i).littleEndian, Array.init) }
    let maxY = Float((vertices - 1) / 100) * 0.01
    let doc: [String: Any] = [
        "asset": ["version": "2.0"], "scene": 0, "scenes": [["nodes": Array(0..<meshes)]],
        "nodes": (0..<meshes).map { ["mesh": $0] },
        "meshes": (0..<meshes).map { _ in ["primitives": [["attributes": ["POSITION": 0], "indices": 1]]] },
        "accessors": [
            ["bufferView": 0, "componentType": 5126, "count": vertices, "type": "VEC3",
             "min": [0, 0, 0], "max": [0.99, Double(maxY), 0]],
            ["bufferView": 1, "componentType": 5125, "count": vertices, "type": "SCALAR"],
        ],
        "bufferViews": [["buffer": 0, "byteLength": positionBytes],
                        ["buffer": 0, "byteOffset": positionBytes, "byteLength": buffer.count - positionBytes]],
        "buffers": [["byteLength": buffer.count,
                     "uri": "data:application/octet-stream;base64," + Data(buffer).base64EncodedString()]],
    ]
    let data = (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

@Suite("AssetCodec: each distinct vertex array once")
struct AssetCodecVertexTableTests {
    func node(_ name: String, parent: Int?, end: Int, _ vertices: [Float]) -> AssetNode {
        AssetNode(name: name, parent: parent, subtreeEnd: end, local: .identity, localTRS: .identity,
                  meshBounds: .empty, vertices: vertices, triangles: vertices.count / 9, marking: nil)
    }

    @Test("shared and equal arrays are encoded once and shared after decoding; different bits are kept apart")
    func table() throws {
        let a: [Float] = [0, 0, 0, 1, 0, 0, 0, 1, 0]
        let equalCopy: [Float] = [0, 0, 0, 1, 0, 0, 0, 1, 0]
        let negativeZero: [Float] = [-0.0, 0, 0, 1, 0, 0, 0, 1, 0]
        let nodes = [node("root", parent: nil, end: 5, []), node("a", parent: 0, end: 2, a), node("b", parent: 0, end: 3, a),
                     node("c", parent: 0, end: 4, equalCopy), node("d", parent: 0, end: 5, negativeZero)]
        // With an axis conversion (Z up → Y up: x → x, y → −z, z → y) so it travels too.
        let zUp = Mat4(columnMajor: [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1])
        let asset = ImportedAsset(path: "x.glb", resolvedPath: "/x.glb", format: "t", nodes: nodes, animations: [],
                                  declaredUnitScale: nil, unitNote: "", axisConversion: zUp, axisNote: "z up")
        let (table, refs) = ByteWriter.vertexTable(asset.nodes)
        #expect(table.count == 2)
        #expect(refs == [ByteWriter.noVertices, 0, 0, 0, 1])
        let bytes = asset.encoded()
        // Header 20; payload: strings 9 + 10 + 5; table 4 + 2 × (4 + 36); node count 4; nodes of
        // name (4 + n) + parent (1, +8) + end 8 + matrix 128 + TRS 81 + bounds 48 + vertex ref 4 +
        // triangles 8 + marking 1: root 287, a…d 292 each; clips 4, unit 1, note 4, warnings 4;
        // axis conversion flag 1 + 16 × 8, axis note 4 + 4 ("z up").
        #expect(bytes.count == 20 + 24 + 84 + 4 + 287 + 4 * 292 + 13 + 129 + 8)
        let decoded = try ImportedAsset.decode(bytes)
        expectSameAsset(decoded, asset)
        #expect(decoded.axisConversion?.m == [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1])
        #expect(vertexStorage(decoded) == (2, 72))
    }

    @Test("a hostile answer naming a vertex array that does not exist is an error, not a trap")
    func badReference() throws {
        let asset = ImportedAsset(path: "x.glb", resolvedPath: "/x.glb", format: "t",
                                  nodes: [node("root", parent: nil, end: 1, [0, 0, 0, 1, 0, 0, 0, 1, 0])], animations: [],
                                  declaredUnitScale: nil, unitNote: "")
        var bytes = asset.encoded()
        // The node's vertex reference is the u32 after its bounds: 4 bytes before the triangle
        // count (i64) and the marking flag at the end of the node. After the node: clips (count 4),
        // unit (flag 1), unit note 4, warnings 4, axis conversion (flag 1, none), axis note 4.
        let refOffset = bytes.count - (1 + 8 + 4) - (4 + 1 + 4 + 4 + 1 + 4)
        #expect(Array(bytes[refOffset..<(refOffset + 4)]) == [0, 0, 0, 0])
        bytes[refOffset] = 7
        let payload = Array(bytes[AssetCodec.headerSize...])
        let crc = AssetCodec.crc32(payload[...])
        for i in 0..<4 { bytes[16 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        #expect { try ImportedAsset.decode(bytes) } throws: {
            ($0 as? Diagnostic)?.message.hasPrefix("invalid encoded import result: node 0 uses vertex array 7 of 1") == true
        }
    }

    @Test("500 meshes sharing one accessor: the answer and the decoded asset hold the vertices once",
          .enabled(if: WorkerExecutable.available))
    func sharedAccessorIsHeldOnce() throws {
        let t = try TempTree("codec-shared")
        defer { t.remove() }
        let vertices = 3000, meshes = 500
        let path = t.file("shared.gltf", sharedAccessorGLTF(meshes: meshes, vertices: vertices))
        let asset = try AssetImporter.load(resolvedPath: path, displayPath: "shared.gltf",
                                           isolation: WorkerExecutable.isolation(timeout: 120))
        // Every mesh node still has all its vertices (nothing dropped)...
        let meshNodes = asset.nodes.filter { !$0.vertices.isEmpty }
        #expect(meshNodes.count == meshes)
        #expect(meshNodes.allSatisfy { $0.vertices.count == 3 * vertices && $0.triangles == vertices / 3 })
        #expect(meshNodes.first?.vertices[(3 * 2999)..<(3 * 3000)] == [Float(99) * 0.01, Float(29) * 0.01, 0])
        // ...but the process holds them once: 3000 × 12 bytes, not 500 times that (18 MB).
        #expect(vertexStorage(asset) == (1, vertices * 12))
        // The answer carries them once too: 36,000 bytes of vertices and about 300 bytes per node
        // (it was 18 MB: one copy per mesh).
        let answer = asset.encoded()
        #expect(answer.count < vertices * 12 + (meshes + 1) * 320, "\(answer.count)")
        // The in-process importer shares them too (assimp itself holds one copy per mesh while it runs).
        let direct = try AssetImporter.load(resolvedPath: path, displayPath: "shared.gltf")
        #expect(vertexStorage(direct) == (1, vertices * 12))
        #expect(direct.nodes.filter { !$0.vertices.isEmpty }.count == meshes)
    }
}
