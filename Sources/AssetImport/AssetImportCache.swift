import Foundation
import SpatialModel
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of the file a path leads to (symbolic links followed): device and inode, plus size
/// and modification time so that a file rewritten in place is a new file.
public struct AssetImportIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var modifiedNanoseconds: Int64

    /// nil when the path cannot be `stat`ed (missing, no permission).
    public init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        size = Int64(st.st_size)
        #if os(Linux)
        modified = Int64(st.st_mtim.tv_sec); modifiedNanoseconds = Int64(st.st_mtim.tv_nsec)
        #else
        modified = Int64(st.st_mtimespec.tv_sec); modifiedNanoseconds = Int64(st.st_mtimespec.tv_nsec)
        #endif
    }
}

extension Diagnostic {
    /// The same diagnostic for another name of the same file: `file` and every `asset 'OLD'` in
    /// the message become `display`. Used when one import serves several links to one file.
    public func renamingAsset(from old: String, to display: String) -> Diagnostic {
        guard old != display else { return self }
        var d = self
        if d.file == old { d.file = display }
        d.message = d.message.replacingOccurrences(of: "asset '\(old)'", with: "asset '\(display)'")
        return d
    }
}

/// Imports of one run (one `AssetImportIsolation` value and its copies), keyed by file identity and
/// reference policy: a file whose import failed (crash, timeout, malformed) is imported once per
/// run, however many links, spellings or scenes lead to it, so N links to a hanging asset cost one
/// timeout. Concurrent requests for a file being imported wait for that import and share its
/// result. Successful imports are not kept after they finish (each scene keeps its own assets),
/// which keeps the run's memory at what its scenes in flight need.
public final class AssetImportCache: Sendable {
    struct Key: Hashable {
        var identity: AssetImportIdentity
        var references: AssetReferencePolicy?
    }

    /// A finished import's result, shared with the imports that waited for it.
    final class Pending: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<(Result<ImportedAsset, Diagnostic>, display: String)?>(nil)
    }

    enum Entry {
        case running(Pending, waiters: Int)
        case failed(Diagnostic, display: String)
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let started = Mutex(0)

    /// Imports this cache let run (for tests: N links to one failing file start one).
    public var importsStarted: Int { started.withLock { $0 } }

    public init() {}

    /// Number of failures remembered (for tests).
    public var failureCount: Int {
        entries.withLock { $0.values.reduce(0) { if case .failed = $1 { $0 + 1 } else { $0 } } }
    }

    /// `importer()` for the file at `resolvedPath`, or the remembered failure / the running
    /// import's result for the same file.
    func load(resolvedPath: String, displayPath: String, references: AssetReferencePolicy?,
              _ importer: () throws(Diagnostic) -> ImportedAsset) throws(Diagnostic) -> ImportedAsset {
        guard let identity = AssetImportIdentity(path: resolvedPath) else { return try importer() }
        let key = Key(identity: identity, references: references)
        enum Role { case owner(Pending), waiter(Pending), failed(Diagnostic, String) }
        let role: Role = entries.withLock { table in
            switch table[key] {
            case .failed(let d, let display): return .failed(d, display)
            case .running(let p, let n):
                table[key] = .running(p, waiters: n + 1)
                return .waiter(p)
            case nil:
                let p = Pending()
                table[key] = .running(p, waiters: 0)
                return .owner(p)
            }
        }
        switch role {
        case .failed(let d, let display):
            throw d.renamingAsset(from: display, to: displayPath)
        case .waiter(let pending):
            pending.done.wait()
            pending.done.signal()  // pass it on to the next waiter
            guard let (result, display) = pending.result.withLock({ $0 }) else { return try importer() }
            switch result {
            case .success(var asset):
                asset.path = displayPath; asset.resolvedPath = resolvedPath
                return asset
            case .failure(let d):
                throw d.renamingAsset(from: display, to: displayPath)
            }
        case .owner(let pending):
            started.withLock { $0 += 1 }
            let result: Result<ImportedAsset, Diagnostic>
            do { result = .success(try importer()) } catch { result = .failure(error) }
            pending.result.withLock { $0 = (result, displayPath) }
            entries.withLock { table in
                if case .failure(let d) = result {
                    table[key] = .failed(d, display: displayPath)
                } else {
                    table[key] = nil
                }
            }
            pending.done.signal()
            return try result.get()
        }
    }
}
