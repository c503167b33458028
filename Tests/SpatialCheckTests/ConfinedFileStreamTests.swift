@testable import AssetImport
import CAssimp
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SpatialModel
import Testing

/// The handles `ConfinedFileSystem` gives assimp: read by offset from one checked descriptor, with
/// the stdio semantics assimp expects (whole items counted, the position moved by the bytes read).
@Suite("Confined file streams: stdio semantics over one checked descriptor")
struct ConfinedFileStreamTests {
    /// Bytes 0, 1, …, 99.
    static let bytes = (0..<100).map { UInt8($0) }

    /// Runs `body` with the file system of an import of `asset` (confined to `root`).
    static func withFiles(root: String, asset: String,
                          _ body: (ConfinedFileSystem, UnsafeMutablePointer<aiFileIO>) -> Void) {
        let files = ConfinedFileSystem(policy: AssetReferencePolicy(root: root), assetPath: asset,
                                       maxFileSize: AssetImporter.defaultMaxFileSize)
        _ = try? files.withFileIO { (io: UnsafeMutablePointer<aiFileIO>) throws(Diagnostic) in body(files, io) }
    }

    static func open(_ io: UnsafeMutablePointer<aiFileIO>, _ path: String) -> UnsafeMutablePointer<aiFile>? {
        io.pointee.OpenProc?(io, path, "rb")
    }

    static func close(_ io: UnsafeMutablePointer<aiFileIO>, _ file: UnsafeMutablePointer<aiFile>) {
        io.pointee.CloseProc?(io, file)
    }

    /// Opens `path` through `io`, runs `body` with the handle and closes it (an issue when it
    /// does not open).
    static func withOpened(_ io: UnsafeMutablePointer<aiFileIO>, _ path: String,
                           _ body: (UnsafeMutablePointer<aiFile>) -> Void) {
        guard let file = open(io, path) else {
            Issue.record("\(path) not opened")
            return
        }
        defer { close(io, file) }
        body(file)
    }

    /// `count` items of `size` bytes: the item count returned and the bytes delivered.
    static func read(_ file: UnsafeMutablePointer<aiFile>, size: Int, count: Int) -> (Int, [UInt8]) {
        var buffer = [CChar](repeating: 0, count: max(1, size * count))
        let items = buffer.withUnsafeMutableBufferPointer { file.pointee.ReadProc?(file, $0.baseAddress, size, count) ?? -1 }
        let delivered = buffer.prefix(items * size).map { UInt8(bitPattern: $0) }
        return (items, delivered)
    }

    static func seek(_ file: UnsafeMutablePointer<aiFile>, _ offset: Int, _ origin: aiOrigin) -> Bool {
        file.pointee.SeekProc?(file, offset, origin) == aiReturn_SUCCESS
    }

    static func append(_ bytes: [UInt8], to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            Issue.record("cannot append to \(path)")
            return
        }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(bytes))
        try? handle.close()
    }

    static func tell(_ file: UnsafeMutablePointer<aiFile>) -> Int { file.pointee.TellProc?(file) ?? -1 }

    @Test("reads, seeks and tells as fread/fseeko/ftello do; a short read at the end counts whole items only")
    func stdioSemantics() throws {
        let t = try TempTree("stream")
        t.data("a/side.bin", Self.bytes)
        t.data("a/asset.bin", [1, 2, 3])
        Self.withFiles(root: t.root, asset: t.path("a/asset.bin")) { _, io in Self.withOpened(io, t.path("a/side.bin")) { f in
            #expect(f.pointee.FileSizeProc?(f) == 100)
            var r = Self.read(f, size: 4, count: 10)
            #expect(r.0 == 10)
            #expect(r.1 == Array(Self.bytes[0..<40]))
            #expect(Self.tell(f) == 40)
            // Backwards relative seeks arrive as negative values.
            #expect(Self.seek(f, -8, aiOrigin_CUR))
            r = Self.read(f, size: 8, count: 3)
            #expect(r.0 == 3)
            #expect(r.1 == Array(Self.bytes[32..<56]))
            // 10 bytes left: two whole 4-byte items, and the position moves past all ten.
            #expect(Self.seek(f, -10, aiOrigin_END))
            r = Self.read(f, size: 4, count: 5)
            #expect(r.0 == 2)
            #expect(r.1 == Array(Self.bytes[90..<98]))
            #expect(Self.tell(f) == 100)
            // Past the end is a valid position that reads nothing; before the start is not.
            #expect(Self.seek(f, 150, aiOrigin_SET))
            #expect(Self.read(f, size: 1, count: 10).0 == 0)
            #expect(Self.tell(f) == 150)
            #expect(!Self.seek(f, -151, aiOrigin_CUR))
            #expect(Self.tell(f) == 150)
            #expect(Self.seek(f, 5, aiOrigin_SET))
            r = Self.read(f, size: 1, count: 3)
            #expect(r.1 == [5, 6, 7])
        }}
    }

    @Test("every open of the asset within one import reads the file as first opened, up to the size checked then")
    func assetOpenedOnce() throws {
        let t = try TempTree("stream-asset")
        let asset = t.path("a/model.bin")
        t.data("a/model.bin", Self.bytes)
        t.data("a/other.bin", [7, 7, 7, 7])
        Self.withFiles(root: t.root, asset: asset) { files, io in
            Self.withOpened(io, asset) { _ in }
            // Swapped for another file and then grown: later opens still read the checked file.
            #expect(rename(t.path("a/other.bin"), asset) == 0)
            Self.append([9, 9, 9], to: asset)
            Self.withOpened(io, asset) { second in
                #expect(second.pointee.FileSizeProc?(second) == 100)
                let r = Self.read(second, size: 1, count: 1000)
                #expect(r.0 == 100)
                #expect(r.1 == Self.bytes)
            }
            #expect(files.assetFile?.size == 100)
        }
    }

    @Test("a referenced file that grows after it was opened is read only up to the size checked at open")
    func readsStopAtCheckedSize() throws {
        let t = try TempTree("stream-grow")
        t.data("a/asset.bin", [1])
        t.data("a/side.bin", Self.bytes)
        Self.withFiles(root: t.root, asset: t.path("a/asset.bin")) { _, io in Self.withOpened(io, t.path("a/side.bin")) { f in
            Self.append([UInt8](repeating: 0xAB, count: 50), to: t.path("a/side.bin"))
            let r = Self.read(f, size: 1, count: 500)
            #expect(r.0 == 100)
            #expect(r.1 == Self.bytes)
        }}
    }
}
