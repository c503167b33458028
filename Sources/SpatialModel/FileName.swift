#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the file system has them: bytes, not necessarily UTF-8.
///
/// Swift strings are Unicode, and both `CommandLine.arguments` and Foundation's directory
/// listings replace bytes that are not UTF-8 with U+FFFD, so such a file could not be opened
/// ("no such file"). Paths in this package are therefore decoded with `decode`, which keeps
/// each byte that is not part of valid UTF-8 as one scalar of a reserved range (U+10FF80 +
/// byte − 0x80, at the end of Supplementary Private Use Area-B), and files are opened through
/// `bytes` / `withCString`, which turn those scalars back into the bytes. A valid UTF-8 name that
/// itself contains a scalar of the reserved range is decoded byte by byte too, so the mapping is
/// lossless both ways. Printing goes through `Escape`, which shows a kept byte as `\xFF`.
public enum FileName {
    private static let base: UInt32 = 0x10FF00

    /// The byte a scalar of the reserved range stands for (0x80…0xFF), else nil.
    @inlinable
    public static func rawByte(_ u: Unicode.Scalar) -> UInt8? {
        u.value >= 0x10FF80 ? UInt8(truncatingIfNeeded: u.value - 0x10FF00) : nil
    }

    /// True when `s` holds a byte that is not UTF-8 (so Foundation's path APIs cannot open it).
    public static func hasRawBytes(_ s: String) -> Bool { s.unicodeScalars.contains { rawByte($0) != nil } }

    /// Decodes a file name or path: valid UTF-8 as itself, any other byte as its reserved scalar.
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let b = Array(bytes)
        var out = String.UnicodeScalarView()
        var i = 0
        func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            k < b.count && b[k] >= lo && b[k] <= hi
        }
        func raw(_ byte: UInt8) { out.append(Unicode.Scalar(base + UInt32(byte)) ?? "\u{FFFD}") }
        while i < b.count {
            let c = b[i]
            var length = 0
            switch c {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = cont(i + 1) ? 2 : 0
            case 0xE0: length = cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0
            case 0xE1...0xEC, 0xEE...0xEF: length = cont(i + 1) && cont(i + 2) ? 3 : 0
            case 0xED: length = cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0
            case 0xF0: length = cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0
            case 0xF1...0xF3: length = cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
            case 0xF4: length = cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0
            default: length = 0
            }
            guard length > 0 else { raw(c); i += 1; continue }
            var v: UInt32
            switch length {
            case 1: v = UInt32(c)
            case 2: v = UInt32(c & 0x1F)
            case 3: v = UInt32(c & 0x0F)
            default: v = UInt32(c & 0x07)
            }
            for k in 1..<length { v = v << 6 | UInt32(b[i + k] & 0x3F) }
            if v >= 0x10FF80 || Unicode.Scalar(v) == nil {
                for k in 0..<length { raw(b[i + k]) }  // the reserved range itself: kept as bytes
            } else if let s = Unicode.Scalar(v) {
                out.append(s)
            }
            i += length
        }
        return String(out)
    }

    /// Decodes a NUL-terminated C string (an `argv` entry, a `d_name`, a `realpath` result).
    public static func decode(cString p: UnsafePointer<CChar>) -> String {
        decode(UnsafeRawBufferPointer(start: p, count: strlen(p)))
    }

    /// The bytes to give the file system for `path` (no terminating NUL).
    public static func bytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for u in path.unicodeScalars {
            if let b = rawByte(u) { out.append(b) } else { out.append(contentsOf: String(u).utf8) }
        }
        return out
    }

    /// Calls `body` with `path` as a NUL-terminated C path of its bytes.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var b = bytes(path).map { CChar(bitPattern: $0) }
        b.append(0)
        return try body(b)
    }

    /// What `stat(2)` says about a path (following symbolic links), or nil when it does not exist
    /// or cannot be examined.
    public struct Status: Sendable {
        public var isDirectory: Bool
        public var isRegular: Bool
        public var size: Int64
    }

    public static func status(_ path: String) -> Status? {
        var st = stat()
        let r = withCString(path) { stat($0, &st) }
        guard r == 0 else { return nil }
        let type = st.st_mode & S_IFMT
        return Status(isDirectory: type == S_IFDIR, isRegular: type == S_IFREG, size: Int64(st.st_size))
    }

    /// `realpath(3)` of `path`, decoded; nil when it cannot be resolved.
    public static func realPath(_ path: String) -> String? {
        guard let c = withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(c) }
        return decode(cString: c)
    }

    /// The names in a directory (without `.` and `..`), decoded; nil when it cannot be read. At
    /// most `limit` names are returned.
    public static func entries(of directory: String, limit: Int = 1_000_000) -> [String]? {
        guard let dir = withCString(directory, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(dir) {
            // d_name is NUL-terminated inside the entry, which may be shorter than the 256-byte
            // field: read up to the NUL through a pointer, never the whole field.
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let p = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
            let name = decode(cString: p)
            if name == "." || name == ".." { continue }
            names.append(name)
        }
        return names
    }

    /// Reads at most `limit` bytes of a regular file (after symbolic links), opened by its bytes.
    /// Throws `ReadError.notRegular` for a FIFO, socket, device or directory without blocking on
    /// it, `tooLarge(size)` when `stat` already says the file is over `limit`.
    public enum ReadError: Error, Sendable, Equatable {
        case missing, notRegular, tooLarge(Int64), unreadable
    }

    public static func read(_ path: String, limit: Int) throws(ReadError) -> [UInt8] {
        let fd = withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        guard Int64(st.st_size) <= Int64(limit) else { throw .tooLarge(Int64(st.st_size)) }
        var out: [UInt8] = []
        out.reserveCapacity(Int(st.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while out.count <= limit {
            let n = chunk.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw .unreadable }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        // The file grew after the size check: at most limit + chunk bytes were read.
        if out.count > limit { throw .tooLarge(Int64(out.count)) }
        return out
    }

    /// A regular file read in pieces (`read(into:)`), opened as `read` opens one (by its path's
    /// bytes, without blocking on a FIFO or device, refused when `stat` says it is over `limit`):
    /// for files too large to hold whole, such as a saved report read as a baseline.
    public final class Stream {
        private let fd: Int32
        /// The file's size when it was opened.
        public let size: Int64
        public init(_ path: String, limit: Int64) throws(ReadError) {
            let fd = withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            guard fd >= 0 else { throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable }
            var st = stat()
            guard fstat(fd, &st) == 0 else { close(fd); throw .unreadable }
            guard st.st_mode & S_IFMT == S_IFREG else { close(fd); throw .notRegular }
            guard Int64(st.st_size) <= limit else { close(fd); throw .tooLarge(Int64(st.st_size)) }
            self.fd = fd
            self.size = Int64(st.st_size)
        }
        deinit { close(fd) }
        /// Fills `buffer` from its start with the next bytes of the file: how many (0 at its end).
        public func read(into buffer: inout [UInt8]) throws(ReadError) -> Int {
            while true {
                let n = buffer.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, $0.count) }
                if n < 0 { if errno == EINTR { continue }; throw .unreadable }
                return n
            }
        }
    }
}

#if canImport(Glibc)
private func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Glibc.read(fd, p, n) }
#elseif canImport(Darwin)
private func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Darwin.read(fd, p, n) }
#endif
