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
final class ConfinedFileSystem {
    let root: String?
    let assetRealPath: String
    let maxFileSize: Int
    /// The first refused reference (the one the error names; later ones add nothing and could be
    /// many: a hostile file may reference thousands of outside files).
    private(set) var refused: [RefusedReference] = []

    init(policy: AssetReferencePolicy, assetPath: String, maxFileSize: Int) {
        self.root = policy.root.map { ProjectRoot.canonical(ProjectRoot.absolute($0)) }
        self.assetRealPath = ProjectRoot.canonical(ProjectRoot.absolute(assetPath))
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
        if mode.contains("w") || mode.contains("a") || mode.contains("+") { return .writeMode }
        let real = ProjectRoot.canonical(ProjectRoot.absolute(path))
        if real == assetRealPath { return nil }
        if real.split(separator: "/").contains(".git") { return .gitFolder }
        if let root, !ProjectRoot.contains(real, root: root) { return .outsideRoot }
        return nil
    }

    func open(_ path: String, mode: String) -> UnsafeMutablePointer<aiFile>? {
        if let reason = refusal(for: path, mode: mode) {
            record(RefusedReference(requested: path, reason: reason))
            return nil
        }
        let real = ProjectRoot.canonical(ProjectRoot.absolute(path))
        // Non-blocking, so that opening a FIFO does not wait for a writer (cleared again below);
        // no symbolic link as the last component (`real` has none unless it could not be resolved).
        let fd = openFile(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0 else { close(fd); return nil }
        if (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            record(RefusedReference(requested: path, reason: .notRegular))
            return nil
        }
        if Int(st.st_size) > maxFileSize {
            close(fd)
            record(RefusedReference(requested: path, reason: .tooLarge(Int(st.st_size))))
            return nil
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        guard let file = fdopen(fd, "rb") else { close(fd); return nil }
        let handle = UnsafeMutablePointer<aiFile>.allocate(capacity: 1)
        handle.initialize(to: aiFile(ReadProc: confinedRead, WriteProc: confinedWrite, TellProc: confinedTell,
                                     FileSizeProc: confinedSize, SeekProc: confinedSeek, FlushProc: confinedFlush,
                                     UserData: UnsafeMutableRawPointer(file).assumingMemoryBound(to: CChar.self)))
        return handle
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
                    if let reason = refusal(for: full, mode: "rb") {
                        record(RefusedReference(requested: full, reason: reason))
                        guard var d = diagnostic(displayPath: displayPath) else { return nil }
                        d.hint = "spatialcheck does not read textures, but an asset must not point outside the project: re-export it with texture paths relative to the asset (or embedded textures), or pass --allow-external-assets if the asset is trusted"
                        return d
                    }
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

private func stream(_ file: UnsafeMutablePointer<aiFile>?) -> UnsafeMutablePointer<FILE>? {
    guard let user = file?.pointee.UserData else { return nil }
    return UnsafeMutableRawPointer(user).assumingMemoryBound(to: FILE.self)
}

private let confinedOpen: aiFileOpenProc = { io, path, mode in
    guard let fs = fileSystem(io), let path else { return nil }
    return fs.open(String(cString: path), mode: mode.map { String(cString: $0) } ?? "rb")
}

private let confinedClose: aiFileCloseProc = { _, file in
    guard let file else { return }
    if let f = stream(file) { fclose(f) }
    file.deinitialize(count: 1)
    file.deallocate()
}

private let confinedRead: aiFileReadProc = { file, buffer, size, count in
    guard let f = stream(file), let buffer, size > 0 else { return 0 }
    return fread(buffer, size, count, f)
}

private let confinedWrite: aiFileWriteProc = { _, _, _, _ in 0 }

private let confinedTell: aiFileTellProc = { file in
    guard let f = stream(file) else { return 0 }
    let p = ftello(f)
    return p < 0 ? 0 : Int(p)
}

private let confinedSize: aiFileTellProc = { file in
    guard let f = stream(file) else { return 0 }
    var st = stat()
    guard fstat(fileno(f), &st) == 0, st.st_size >= 0 else { return 0 }
    return Int(st.st_size)
}

private let confinedSeek: aiFileSeek = { file, offset, origin in
    guard let f = stream(file) else { return aiReturn_FAILURE }
    let whence: Int32
    switch origin {
    case aiOrigin_SET: whence = SEEK_SET
    case aiOrigin_CUR: whence = SEEK_CUR
    case aiOrigin_END: whence = SEEK_END
    default: return aiReturn_FAILURE
    }
    // assimp passes a size_t (Int here); relative seeks backwards arrive as negative values.
    let signed = off_t(offset)
    return fseeko(f, signed, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE
}

private let confinedFlush: aiFileFlushProc = { _ in }

/// `open(2)` without a mode argument (no file is created).
private func openFile(_ path: String, _ flags: Int32) -> Int32 {
    path.withCString { open($0, flags) }
}
