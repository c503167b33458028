import CAssimp
import Foundation
import SpatialModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which files an import may read besides the asset itself (docs/security.md §3.1).
///
/// Every file assimp opens while importing an asset (glTF buffers, an OBJ's `mtllib`, COLLADA or
/// FBX side files) goes through `ConfinedFileSystem`, assimp's custom `aiFileIO`: a path is
/// resolved (`..` lexically, then every symbolic link, for the longest existing prefix) and must lie
/// inside `root` (unless `root` is nil) and outside every `.git` folder (always). It must also be a
/// regular file (a FIFO would block the import until its timeout) of at most the asset size limit.
/// A refused path is recorded and the import then fails naming the asset and the reference, even
/// when assimp would have carried on without the file. The check runs before the file is opened,
/// so a refusal reveals nothing about whether the file exists. `data:` URIs never reach the file
/// system and stay allowed.
public struct AssetReferencePolicy: Sendable, Hashable {
    /// The confinement root (`ProjectRoot.find`), or nil with `--allow-external-assets`.
    public var root: String?
    public init(root: String?) { self.root = root }

    /// No confinement root; `.git` folders, non-regular files and oversized files are still refused.
    public static let unconfined = AssetReferencePolicy(root: nil)

    /// The root for a scene or asset file: the project root of `path` (`ProjectRoot.find`), whose
    /// fallback is the file's own folder.
    public static func projectRoot(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return ProjectRoot.find(for: path, fallback: folder.isEmpty ? "." : folder)
    }
}

/// One refused reference of an import.
struct RefusedReference: Equatable {
    enum Reason: Equatable { case outsideRoot, gitFolder, notRegular, tooLarge(Int), writeMode }
    /// The path as assimp asked for it.
    var requested: String
    var reason: Reason
}

/// assimp's `aiFileIO` over the C library, with the policy of `AssetReferencePolicy`. Lives for one
/// import (imports are serialised, so its state is only touched from the importing thread).
///
/// System calls are what an import costs beyond assimp's own work (each is microseconds in a
/// virtual machine, and assimp opens the asset three to six times: an existence check, the
/// readers' signature checks, the read): a path is resolved once per open, a file is read with
/// `pread` from its descriptor (no stdio stream, no `fstat` per size query), and the asset itself
/// is opened and checked once per import, every later open of it sharing that descriptor.
final class ConfinedFileSystem {
    let root: String?
    /// The path the importer hands to assimp, as spelt (assimp opens the asset by this string).
    let assetPath: String
    let assetRealPath: String
    let maxFileSize: Int
    /// The asset, once opened and checked (shared by every handle on it; closed with this object).
    private(set) var assetFile: CheckedFile?
    /// The first refused reference (the one the error names; later ones add nothing and could be
    /// many: a hostile file may reference thousands of outside files).
    private(set) var refused: [RefusedReference] = []

    /// `policy` nil: the asset's project root (`AssetReferencePolicy.projectRoot(for:)`), found
    /// from the asset's real path, which is resolved once here and serves both the search and the
    /// confinement check.
    init(policy: AssetReferencePolicy?, assetPath: String, maxFileSize: Int) {
        let real = ProjectRoot.canonical(ProjectRoot.absolute(assetPath))
        if let policy {
            root = policy.root.map { ProjectRoot.canonical(ProjectRoot.absolute($0)) }
        } else {
            let folder = (assetPath as NSString).deletingLastPathComponent
            root = ProjectRoot.canonicalRoot(forCanonicalFile: real, fallback: folder.isEmpty ? "." : folder)
        }
        self.assetPath = assetPath
        self.assetRealPath = real
        self.maxFileSize = maxFileSize
    }

    /// Runs `body` with an `aiFileIO` whose callbacks go to this object.
    func withFileIO<R>(_ body: (UnsafeMutablePointer<aiFileIO>) throws(Diagnostic) -> R) throws(Diagnostic) -> R {
        let unmanaged = Unmanaged.passRetained(self)
        defer { unmanaged.release() }
        var io = aiFileIO(OpenProc: confinedOpen, CloseProc: confinedClose,
                          UserData: unmanaged.toOpaque().assumingMemoryBound(to: CChar.self))
        return try body(&io)
    }

    /// The decision for one path, before anything is opened; nil when it may be read.
    func refusal(for path: String, mode: String) -> RefusedReference.Reason? {
        if Self.writes(mode) { return .writeMode }
        return refusal(real: ProjectRoot.canonical(ProjectRoot.absolute(path)))
    }

    /// The decision for a resolved path (`ProjectRoot.canonical`), opened for reading.
    private func refusal(real: String) -> RefusedReference.Reason? {
        if real == assetRealPath { return nil }
        if real.split(separator: "/").contains(".git") { return .gitFolder }
        if let root, !ProjectRoot.contains(real, root: root) { return .outsideRoot }
        return nil
    }

    private static func writes(_ mode: String) -> Bool {
        mode.contains("w") || mode.contains("a") || mode.contains("+")
    }

    func open(_ path: String, mode: String) -> UnsafeMutablePointer<aiFile>? {
        if Self.writes(mode) {
            record(RefusedReference(requested: path, reason: .writeMode))
            return nil
        }
        // The asset as the importer named it was resolved when this object was made.
        let real = path == assetPath ? assetRealPath : ProjectRoot.canonical(ProjectRoot.absolute(path))
        if let reason = refusal(real: real) {
            record(RefusedReference(requested: path, reason: reason))
            return nil
        }
        let file: CheckedFile
        if real == assetRealPath, let assetFile {
            file = assetFile
        } else {
            guard let opened = openChecked(real, requested: path) else { return nil }
            if real == assetRealPath { assetFile = opened }
            file = opened
        }
        let handle = UnsafeMutablePointer<aiFile>.allocate(capacity: 1)
        let stream = Unmanaged.passRetained(FileStream(file))
        handle.initialize(to: aiFile(ReadProc: confinedRead, WriteProc: confinedWrite, TellProc: confinedTell,
                                     FileSizeProc: confinedSize, SeekProc: confinedSeek, FlushProc: confinedFlush,
                                     UserData: stream.toOpaque().assumingMemoryBound(to: CChar.self)))
        return handle
    }

    /// Opens `real` (already resolved and allowed) read-only: non-blocking, so that opening a FIFO
    /// does not wait for a writer, and without following a final symbolic link (`real` has none
    /// unless it could not be resolved); then refuses what is not a regular file or is too large.
    private func openChecked(_ real: String, requested: String) -> CheckedFile? {
        let fd = openFile(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { close(fd); return nil }
        if (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            record(RefusedReference(requested: requested, reason: .notRegular))
            return nil
        }
        if Int(st.st_size) > maxFileSize {
            close(fd)
            record(RefusedReference(requested: requested, reason: .tooLarge(Int(st.st_size))))
            return nil
        }
        // Blocking again for the reads. F_SETFL changes only O_APPEND, O_ASYNC, O_DIRECT,
        // O_NOATIME and O_NONBLOCK, and of these the file was opened with O_NONBLOCK alone.
        _ = fcntl(fd, F_SETFL, 0)
        return CheckedFile(fd: fd, size: Int(st.st_size))
    }

    /// Records the first refusal only (assimp asks for the same file more than once, spelt
    /// differently: existence checks, retries with other base folders).
    private func record(_ r: RefusedReference) {
        if refused.isEmpty { refused.append(r) }
    }

    /// The import error for the first refused reference of `displayPath`, or nil. (When a file is
    /// missing, assimp 5.2's glTF reader retries with mangled spellings of the path; the first
    /// refusal is the reference as the file wrote it.)
    func diagnostic(displayPath: String) -> Diagnostic? {
        guard let first = refused.first else { return nil }
        let assetFolder = ProjectRoot.standardized(ProjectRoot.absolute((assetRealPath as NSString).deletingLastPathComponent))
        let shown = Self.shownReference(first.requested, from: assetFolder)
        let what: String
        var hint = "move the file into the project (the folder of .spatialcheck.yaml, else the git work tree, else the asset's folder) or embed it (glTF: a .glb or a data: URI); pass --allow-external-assets only if the asset is trusted"
        switch first.reason {
        case .outsideRoot: what = "resolves (after '..' and symbolic links) outside the project root; files an asset references must be inside it"
        case .gitFolder:
            what = "is inside a .git folder, which is never read"
            hint = "reference a file outside .git (embed it, or copy it into the project)"
        case .notRegular:
            what = "is not a regular file (a FIFO, socket, device or directory)"
            hint = "reference a regular file"
        case .tooLarge(let size):
            what = "is \(size) bytes, more than the limit of \(maxFileSize) bytes"
            hint = "reduce the referenced file"
        case .writeMode:
            what = "was opened for writing by the importer, which is refused"
            hint = "this is a bug in spatialcheck or assimp; please report it with the file"
        }
        return Diagnostic(file: displayPath,
                          message: "asset '\(displayPath)' references '\(Self.shortened(shown))', which \(what)",
                          hint: hint)
    }

    /// Texture files the materials name (glTF images, OBJ `map_*`, FBX/COLLADA file textures) are
    /// not read by assimp, but the same policy applies to them: the error for the first one that
    /// resolves outside the root or into a `.git` folder, relative to the asset's folder (embedded
    /// `*N` textures and `data:` URIs are not files).
    func textureDiagnostic(scene: UnsafePointer<aiScene>, displayPath: String) -> Diagnostic? {
        let sc = scene.pointee
        guard sc.mNumMaterials > 0, let materials = sc.mMaterials else { return nil }
        let folder = (assetRealPath as NSString).deletingLastPathComponent
        // Textures embedded in the file (FBX keeps their original, possibly absolute, file name).
        var embedded: Set<String> = []
        if sc.mNumTextures > 0, let textures = sc.mTextures {
            for i in 0..<Int(min(sc.mNumTextures, 100_000)) {
                if let tex = textures[i] { embedded.insert(swiftString(tex.pointee.mFilename)) }
            }
        }
        var allowed: Set<String> = [] // paths already checked (materials often share a texture)
        for m in 0..<Int(min(sc.mNumMaterials, 100_000)) {
            guard let material = materials[m] else { continue }
            for t in 1...21 {
                let type = aiTextureType(rawValue: UInt32(t))
                let count = min(aiGetMaterialTextureCount(material, type), 1000)
                for i in 0..<count {
                    var path = aiString()
                    guard aiGetMaterialTexture(material, type, i, &path, nil, nil, nil, nil, nil, nil) == aiReturn_SUCCESS else { continue }
                    let raw = swiftString(path)
                    if raw.isEmpty || raw.hasPrefix("*") || raw.lowercased().hasPrefix("data:") || embedded.contains(raw) { continue }
                    // Windows separators (FBX and OBJ from Windows tools) are separators here too.
                    let reference = raw.replacingOccurrences(of: "\\", with: "/")
                    let full = reference.hasPrefix("/") ? reference : (folder as NSString).appendingPathComponent(reference)
                    if allowed.contains(full) { continue }
                    if let reason = refusal(for: full, mode: "rb") {
                        record(RefusedReference(requested: full, reason: reason))
                        guard var d = diagnostic(displayPath: displayPath) else { return nil }
                        d.hint = "spatialcheck does not read textures, but an asset must not point outside the project: re-export it with texture paths relative to the asset (or embedded textures), or pass --allow-external-assets if the asset is trusted"
                        return d
                    }
                    allowed.insert(full)
                }
            }
        }
        return nil
    }

    /// Visible escapes for control and format characters, at most 200 characters.
    static func shortened(_ s: String) -> String {
        let e = Escape.text(s)
        return e.count > 200 ? String(e.prefix(200)) + "…" : e
    }

    /// `requested` relative to the asset's folder when they share more than `/`, else absolute
    /// (both lexically normalised: this names the reference as written, not where links lead).
    static func shownReference(_ requested: String, from folder: String) -> String {
        let target = ProjectRoot.standardized(ProjectRoot.absolute(requested))
        let t = target.split(separator: "/"), f = folder.split(separator: "/")
        var common = 0
        while common < t.count, common < f.count, t[common] == f[common] { common += 1 }
        if common == 0 { return target }
        let ups = Array(repeating: "..", count: f.count - common)
        let rest = t[common...].map(String.init)
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

// MARK: - C callbacks

private func fileSystem(_ io: UnsafeMutablePointer<aiFileIO>?) -> ConfinedFileSystem? {
    guard let user = io?.pointee.UserData else { return nil }
    return Unmanaged<ConfinedFileSystem>.fromOpaque(UnsafeRawPointer(user)).takeUnretainedValue()
}

private func stream(_ file: UnsafeMutablePointer<aiFile>?) -> FileStream? {
    guard let user = file?.pointee.UserData else { return nil }
    return Unmanaged<FileStream>.fromOpaque(UnsafeRawPointer(user)).takeUnretainedValue()
}

private let confinedOpen: aiFileOpenProc = { io, path, mode in
    guard let fs = fileSystem(io), let path else { return nil }
    return fs.open(String(cString: path), mode: mode.map { String(cString: $0) } ?? "rb")
}

private let confinedClose: aiFileCloseProc = { _, file in
    guard let file else { return }
    if let user = file.pointee.UserData {
        Unmanaged<FileStream>.fromOpaque(UnsafeRawPointer(user)).release()
    }
    file.deinitialize(count: 1)
    file.deallocate()
}

private let confinedRead: aiFileReadProc = { file, buffer, size, count in
    guard let s = stream(file), let buffer, size > 0 else { return 0 }
    return s.read(into: UnsafeMutableRawPointer(buffer), size: size, count: count)
}

private let confinedWrite: aiFileWriteProc = { _, _, _, _ in 0 }

private let confinedTell: aiFileTellProc = { file in
    stream(file)?.position ?? 0
}

private let confinedSize: aiFileTellProc = { file in
    stream(file)?.file.size ?? 0
}

private let confinedSeek: aiFileSeek = { file, offset, origin in
    guard let s = stream(file) else { return aiReturn_FAILURE }
    // assimp passes a size_t (Int here); relative seeks backwards arrive as negative values.
    let base: Int
    switch origin {
    case aiOrigin_SET: base = 0
    case aiOrigin_CUR: base = s.position
    case aiOrigin_END: base = s.file.size
    default: return aiReturn_FAILURE
    }
    let (target, overflow) = base.addingReportingOverflow(offset)
    guard !overflow, target >= 0 else { return aiReturn_FAILURE }
    s.position = target
    return aiReturn_SUCCESS
}

private let confinedFlush: aiFileFlushProc = { _ in }

/// `open(2)` without a mode argument (no file is created).
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    path.withCString { open($0, flags) }
}

/// A regular file opened and checked by `ConfinedFileSystem`, read by offset; its size is the one
/// checked against the limit when it was opened, and reads never go past it.
final class CheckedFile {
    let fd: Int32
    let size: Int

    init(fd: Int32, size: Int) {
        self.fd = fd
        self.size = max(0, size)
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes at `offset` (not past `size`) into `buffer`; the number read.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) -> Int {
        guard offset >= 0, offset < size, count > 0 else { return 0 }
        let wanted = min(count, size - offset)
        var done = 0
        while done < wanted {
            let n = pread(fd, buffer + done, wanted - done, off_t(offset + done))
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return done
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file or on a read error).
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        let wanted = offset >= 0 && offset < size ? min(max(count, 0), size - offset) : 0
        guard wanted > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            initialized = buffer.baseAddress.map { read(into: UnsafeMutableRawPointer($0), count: wanted, at: offset) } ?? 0
        }
    }
}

/// One handle assimp holds on a `CheckedFile`: a position, as a stdio stream would keep.
final class FileStream {
    let file: CheckedFile
    var position = 0

    init(_ file: CheckedFile) { self.file = file }

    /// `fread` semantics: whole items read; the position moves by the bytes read.
    func read(into buffer: UnsafeMutableRawPointer, size: Int, count: Int) -> Int {
        let (total, overflow) = size.multipliedReportingOverflow(by: count)
        guard !overflow, total > 0 else { return 0 }
        let n = file.read(into: buffer, count: total, at: position)
        position += n
        return n / size
    }
}
