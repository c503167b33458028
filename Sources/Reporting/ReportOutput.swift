#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SpatialModel

/// Where a report's bytes go while it is rendered: a 64 KiB buffer, written to a file descriptor
/// each time it fills (or kept in memory for `output` strings and tests). Renderers append to it
/// as they go (`Report.writeJSON(to:)`), so a report is never held whole in memory on its way out.
/// The first write that fails stops all later writing; `finish()` reports it, naming `path`.
public final class ReportSink: TextOutputStream {
    /// Bytes gathered before they are written out.
    public static let bufferSize = 65_536

    /// What the output is called in an error message: the `--output` path, or "standard output".
    public let path: String
    private let fd: Int32?
    private var buffer: [UInt8] = []
    private var failure: String?
    /// Bytes handed to the descriptor (or kept, in memory) so far.
    public private(set) var bytesWritten = 0

    /// A writer to an open descriptor it does not own (the caller closes it, after `finish()`).
    public init(fileDescriptor: Int32, path: String) {
        self.fd = fileDescriptor; self.path = path
        buffer.reserveCapacity(ReportSink.bufferSize)
    }

    /// A writer that keeps every byte (`contents`): for a report wanted as a string.
    public init(inMemory path: String = "memory") {
        self.fd = nil; self.path = path
    }

    public func write(_ string: String) {
        guard failure == nil else { return }
        if fd == nil { buffer.append(contentsOf: string.utf8); bytesWritten += string.utf8.count; return }
        if buffer.count + string.utf8.count <= ReportSink.bufferSize {
            buffer.append(contentsOf: string.utf8)
            if buffer.count == ReportSink.bufferSize { flush() }
            return
        }
        flush()
        if string.utf8.count < ReportSink.bufferSize {
            buffer.append(contentsOf: string.utf8)
        } else {
            // A long string (a whole text report) goes straight out, without another copy.
            var s = string
            s.withUTF8 { writeOut($0) }
        }
    }

    /// Writes what is buffered.
    public func flush() {
        guard fd != nil, !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer { writeOut($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and throws the first write error: a `Diagnostic` naming `path`,
    /// with the system's reason.
    public func finish() throws(Diagnostic) {
        flush()
        if let failure { throw ReportSink.cannotWrite(path, failure) }
    }

    /// The bytes kept by an in-memory sink (empty for one writing to a descriptor).
    public var contents: [UInt8] { fd == nil ? buffer : [] }

    private func writeOut(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, let fd, var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return
            }
            if n == 0 { failure = "the device accepted no more bytes"; return }
            p += n; left -= n; bytesWritten += n
        }
    }

    static func cannotWrite(_ path: String, _ reason: String) -> Diagnostic {
        Diagnostic(file: path, message: "cannot write the report: \(reason)",
                   hint: "check that the directory exists and is writable and that the device has space, or write elsewhere with --output FILE")
    }
}

private func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}

/// Writes a report to `--output FILE` so that the file is either the whole report or untouched:
/// the bytes go to a temporary file next to it (`.NAME.` and 8 random hex digits, in the same
/// directory so that the rename stays on one file system), which replaces `FILE` by `rename(2)`
/// only once everything was written and closed; on any error the temporary file is removed and an existing `FILE` keeps
/// its old contents. A new file gets the mode `0666` less the umask, as any file the tool
/// creates; an existing one keeps its mode. A path that exists and is not a regular file (a
/// device such as `/dev/stdout` or `/dev/null`, a FIFO) cannot be replaced and is written in
/// place instead.
public enum ReportFile {
    public static func write(path: String, _ body: (ReportSink) throws -> Void) throws {
        var st = stat()
        let exists = stat(path, &st) == 0
        if exists && (st.st_mode & S_IFMT) != S_IFREG {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw ReportSink.cannotWrite(path, "it is a directory") }
            let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard fd >= 0 else { throw ReportSink.cannotWrite(path, String(cString: strerror(errno))) }
            defer { close(fd) }
            let sink = ReportSink(fileDescriptor: fd, path: path)
            try body(sink)
            try sink.finish()
            return
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let prefix: String = (directory == "/" ? "/" : directory + "/") + "." + name + "."
        // A new name each try; `O_EXCL` never opens an existing file, and the mode 0666 passes
        // through the umask as for any file the tool creates.
        var temporary = "", fd: Int32 = -1
        for _ in 0..<100 {
            temporary = prefix + String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw ReportSink.cannotWrite(path, String(cString: strerror(errno))) }
        var isOpen = true
        do {
            if exists && fchmod(fd, st.st_mode & 0o7777) != 0 {
                throw ReportSink.cannotWrite(path, String(cString: strerror(errno)))
            }
            let sink = ReportSink(fileDescriptor: fd, path: path)
            try body(sink)
            try sink.finish()
            isOpen = false
            if close(fd) != 0 { throw ReportSink.cannotWrite(path, String(cString: strerror(errno))) }
            if rename(temporary, path) != 0 { throw ReportSink.cannotWrite(path, String(cString: strerror(errno))) }
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
    }
}
