import Foundation
import SpatialModel
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How to run imports out of process, so that a crash, hang or runaway allocation inside assimp
/// becomes a Diagnostic for that one asset instead of ending the whole run.
///
/// The worker is `executable __import-asset --display=NAME … -- PATH` (see `AssetImportWorker`),
/// started through `/bin/sh` so that `ulimit -v` can cap its address space (enforced on Linux;
/// macOS accepts but does not enforce it, so there the limit is best effort) and `ulimit -c 0`
/// keeps crashes from writing core files.
public struct AssetImportIsolation: Sendable {
    public static let defaultTimeout: Double = 30
    public static let defaultMemoryLimitBytes = 4 * 1024 * 1024 * 1024
    /// The most bytes of encoded answer the parent accepts (docs/security.md §4: the parent holds
    /// at most this and its decoded form per import in flight).
    public static let defaultMaxOutputBytes = 1024 * 1024 * 1024

    /// The `spatialcheck` executable that provides the hidden worker subcommand.
    public var executable: String
    /// Seconds one import may take before the worker is terminated (then killed).
    public var timeout: Double
    /// Address-space limit for the worker in bytes; 0 or less for none.
    public var memoryLimitBytes: Int
    /// The most bytes of encoded result the parent accepts from the worker.
    public var maxOutputBytes: Int
    /// Extra environment for the worker (tests use it for `AssetImportWorker.faultEnvironmentVariable`).
    public var environment: [String: String]
    /// Failed imports of this run by file identity (shared by copies of this value): each real
    /// file is imported once per run, however many links lead to it.
    public var cache: AssetImportCache

    public init(executable: String, timeout: Double = defaultTimeout,
                memoryLimitBytes: Int = defaultMemoryLimitBytes,
                maxOutputBytes: Int = defaultMaxOutputBytes, environment: [String: String] = [:],
                cache: AssetImportCache = AssetImportCache()) {
        self.executable = executable; self.timeout = timeout; self.memoryLimitBytes = memoryLimitBytes
        self.maxOutputBytes = maxOutputBytes; self.environment = environment; self.cache = cache
    }

    /// Isolation through this process's own executable, or nil when this process is not `spatialcheck`
    /// (`thisExecutable`: the command-line tool, which is, whatever its file is called).
    public static func current(timeout: Double = defaultTimeout,
                               memoryLimitBytes: Int = defaultMemoryLimitBytes,
                               thisExecutable: Bool = false) -> AssetImportIsolation? {
        (thisExecutable ? AssetImporter.ownExecutable() : AssetImporter.defaultWorkerExecutable()).map {
            AssetImportIsolation(executable: $0, timeout: timeout, memoryLimitBytes: memoryLimitBytes)
        }
    }
}

extension AssetImporter {
    /// Imports like `load(resolvedPath:displayPath:)`, but in a worker process when `isolation` is
    /// given: the worker's crash (signal), timeout or exhausted memory limit is a Diagnostic naming
    /// `displayPath`. With `isolation == nil` this is the in-process import.
    ///
    /// Blocks the calling thread until the worker ends (at most about `timeout` + 2 s); the
    /// worker's output is drained on dedicated threads. Isolated imports run in parallel (each
    /// worker has its own assimp), unlike in-process ones, which are serialised.
    ///
    /// `references` says where files the asset references may be (nil: the asset's project root);
    /// the worker enforces it (`ConfinedFileSystem`).
    public static func load(resolvedPath: String, displayPath: String, isolation: AssetImportIsolation?,
                            references: AssetReferencePolicy? = nil) throws(Diagnostic) -> ImportedAsset {
        guard let isolation else {
            return try load(resolvedPath: resolvedPath, displayPath: displayPath, maxFileSize: defaultMaxFileSize,
                            references: references)
        }
        // A FIFO would keep the worker waiting until its timeout: refuse it here, at once.
        try preflight(resolvedPath: resolvedPath, displayPath: displayPath)
        return try isolation.cache.load(resolvedPath: resolvedPath, displayPath: displayPath,
                                        references: references) { () throws(Diagnostic) -> ImportedAsset in
            let outcome = try WorkerRun.run(resolvedPath: resolvedPath, displayPath: displayPath, isolation: isolation,
                                            references: references)
            return try outcome.asset(displayPath: displayPath, isolation: isolation)
        }
    }

    /// The path of this process's executable when it is `spatialcheck` (so that it can run the
    /// import worker), else nil (e.g. inside a test runner or another program using the library).
    public static func defaultWorkerExecutable() -> String? {
        executableCandidates().lazy.filter { path in
            // Accept a symlink named spatialcheck (e.g. to a versioned install) or its target.
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let resolved = url.resolvingSymlinksInPath().path
            return url.lastPathComponent == "spatialcheck" || (resolved as NSString).lastPathComponent == "spatialcheck"
        }.compactMap(executableFile).first
    }

    /// The path of this process's executable, whatever its name: the command-line tool uses it for
    /// its workers, so that a copy installed under another name (`sc`, `spatialcheck-1.2`) keeps
    /// its imports isolated, its `--import-timeout` and its cache of failed imports.
    public static func ownExecutable() -> String? {
        executableCandidates().lazy.compactMap(executableFile).first
    }

    /// Where this process's executable may be: /proc/self/exe (Linux), the main bundle's
    /// executable, argv[0] (resolved against the working directory or PATH).
    private static func executableCandidates() -> [String] {
        var candidates: [String] = []
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(exe)
        }
        #endif
        if let exe = Bundle.main.executablePath { candidates.append(exe) }
        if let argv0 = CommandLine.arguments.first, !argv0.isEmpty {
            if argv0.contains("/") {
                let absolute = argv0.hasPrefix("/") ? argv0
                    : FileManager.default.currentDirectoryPath + "/" + argv0
                candidates.append(absolute)
            } else {
                let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
                for dir in path.split(separator: ":") where !dir.isEmpty {
                    candidates.append(String(dir) + "/" + argv0)
                }
            }
        }
        return candidates
    }

    /// `path` with its symbolic links resolved, when that is an executable file.
    private static func executableFile(_ path: String) -> String? {
        let resolved = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        return FileManager.default.isExecutableFile(atPath: resolved) ? resolved : nil
    }
}

/// Reads one pipe to its end on a dedicated thread (blocking reads stay off the GCD pool), so the
/// child never blocks on a full pipe while the parent waits for it.
final class PipeDrain: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var overflow = false
    }
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)

    /// `limit`: keep at most this many bytes; `keepTail` keeps the last ones (stderr), else the
    /// first ones and `overflow` records that more came.
    init(fileDescriptor fd: Int32, limit: Int, keepTail: Bool) {
        let thread = Thread { [self] in
            var local: [UInt8] = []
            var overflow = false
            let chunk = 64 * 1024
            var buffer = [UInt8](repeating: 0, count: chunk)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, chunk) }
                if n < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if n == 0 { break }
                if !keepTail, local.count < AssetCodec.headerSize, local.count + n >= AssetCodec.headerSize {
                    // The record's header declares its length: reserve it once (within the limit)
                    // instead of growing by doubling, which would briefly hold up to three times
                    // the answer.
                    var head = local
                    head += buffer[0..<(AssetCodec.headerSize - local.count)]
                    if let total = AssetCodec.declaredRecordSize(head), total <= limit { local.reserveCapacity(total) }
                }
                if keepTail {
                    local += buffer[0..<n]
                    if local.count > 2 * limit { local.removeFirst(local.count - limit) }
                } else if local.count + n <= limit {
                    local += buffer[0..<n]
                } else {
                    overflow = true // keep draining so that the child is not blocked
                }
            }
            if keepTail, local.count > limit { local.removeFirst(local.count - limit) }
            state.withLock { $0 = State(bytes: local, overflow: overflow) }
            finished.signal()
        }
        thread.start()
    }

    /// Waits up to `seconds` for the end of the stream; false when it has not come.
    func wait(seconds: Double) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var overflow: Bool { state.withLock { $0.overflow } }
}

/// One run of the worker process and how it ended.
struct WorkerRun {
    enum End {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
    }
    var end: End
    var stdout: [UInt8]
    var stdoutOverflow: Bool
    var stdoutComplete: Bool
    var stderr: String

    static let stderrLimit = 64 * 1024

    /// The worker's arguments after the executable: every value attached with `=` and the path
    /// after `--`, so that no file name can be read as an option.
    static func workerArguments(resolvedPath: String, displayPath: String, isolation: AssetImportIsolation,
                                references: AssetReferencePolicy?, parentPID: Int32) -> [String] {
        var args = [AssetImportWorker.commandName, "--display=" + displayPath]
        if let references {
            if let root = references.root { args.append("--root=" + root) } else { args.append("--allow-external") }
        }
        args.append("--parent-pid=\(parentPID)")
        args.append("--cpu-seconds=\(cpuSeconds(timeout: isolation.timeout))")
        args += ["--", resolvedPath]
        return args
    }

    /// The worker's own CPU-time limit: above the parent's wall-clock timeout (CPU time cannot
    /// exceed it in a single-threaded import), so it only acts when the parent is gone.
    static func cpuSeconds(timeout: Double) -> Int {
        let t = timeout.isFinite && timeout > 0 ? min(timeout, 1e6) : AssetImportIsolation.defaultTimeout
        return Int(t.rounded(.up)) + 5
    }

    static func run(resolvedPath: String, displayPath: String, isolation: AssetImportIsolation,
                    references: AssetReferencePolicy? = nil) throws(Diagnostic) -> WorkerRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        var script = "ulimit -c 0 2>/dev/null; "
        // AddressSanitizer reserves terabytes of address space for its shadow memory, so an
        // instrumented worker cannot start under an address-space limit: sanitizer builds (tests
        // only) run without it.
        if isolation.memoryLimitBytes > 0, !AssetImporter.runningUnderAddressSanitizer {
            let kib = max(1, isolation.memoryLimitBytes / 1024)
            script += "ulimit -v \(kib) 2>/dev/null || echo 'spatialcheck: could not set the import memory limit' >&2; "
        }
        script += "exec \"$0\" \"$@\""
        process.arguments = ["-c", script, isolation.executable]
            + workerArguments(resolvedPath: resolvedPath, displayPath: displayPath, isolation: isolation,
                              references: references, parentPID: getpid())
        var environment = ProcessInfo.processInfo.environment
        // A crashing worker should end at once: Swift's backtracer would spend time (and stderr)
        // symbolicating assimp frames nobody reads here. Callers can still override it.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        for (k, v) in isolation.environment { environment[k] = v }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        do {
            try process.run()
        } catch {
            throw Diagnostic(file: displayPath,
                             message: "asset '\(displayPath)' could not be imported: the importer worker '\(isolation.executable)' could not be started (\(error.localizedDescription))",
                             hint: "check that the spatialcheck executable is installed and runnable")
        }
        // The parent's copies of the write ends are closed by Process; close ours explicitly too
        // so that the drains see end-of-file when the worker exits.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        let stdoutDrain = PipeDrain(fileDescriptor: out.fileHandleForReading.fileDescriptor,
                                    limit: max(0, isolation.maxOutputBytes), keepTail: false)
        let stderrDrain = PipeDrain(fileDescriptor: err.fileHandleForReading.fileDescriptor,
                                    limit: stderrLimit, keepTail: true)

        var timedOut = false
        let timeout = isolation.timeout.isFinite && isolation.timeout > 0 ? isolation.timeout : AssetImportIsolation.defaultTimeout
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + 2) == .timedOut, process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                _ = exited.wait(timeout: .now() + 10)
            }
        }
        // The worker has ended (or is being killed); its pipes reach end-of-file promptly.
        let stdoutComplete = stdoutDrain.wait(seconds: 10)
        let stderrComplete = stderrDrain.wait(seconds: 2)
        // A drain that has not finished still reads its descriptor: leave that one open.
        if stdoutComplete { try? out.fileHandleForReading.close() }
        if stderrComplete { try? err.fileHandleForReading.close() }

        let end: End
        if timedOut {
            end = .timedOut
        } else if process.isRunning {
            end = .timedOut
        } else if process.terminationReason == .uncaughtSignal {
            end = .signalled(process.terminationStatus)
        } else {
            end = .exited(process.terminationStatus)
        }
        return WorkerRun(end: end, stdout: stdoutComplete ? stdoutDrain.bytes : [],
                         stdoutOverflow: stdoutDrain.overflow, stdoutComplete: stdoutComplete,
                         stderr: String(decoding: stderrDrain.bytes, as: UTF8.self))
    }

    /// True when the worker's stderr or message says an allocation failed.
    static func looksLikeMemoryExhaustion(_ text: String) -> Bool {
        let t = text.lowercased()
        return ["could not allocate memory", "bad_alloc", "out of memory", "cannot allocate memory",
                "memory exhausted", "failed to allocate"].contains { t.contains($0) }
    }

    /// The last non-empty line of the worker's stderr, for messages.
    var stderrLastLine: String? {
        stderr.split(whereSeparator: \.isNewline).last.map { String($0.prefix(300)) }
    }

    func asset(displayPath: String, isolation: AssetImportIsolation) throws(Diagnostic) -> ImportedAsset {
        let prefix = "asset '\(displayPath)' could not be imported: "
        let limit = Self.formatBytes(isolation.memoryLimitBytes)
        let memoryMessage = prefix + "the importer ran out of its \(limit) memory limit"
        let memoryHint = "the file may declare absurd sizes or be corrupt: re-export it (e.g. from Blender as glTF/GLB) or reduce it; if it is valid but large, raise the limit with --import-memory"
        let crashHint = "assimp \(AssetImporter.versionMajorMinor) crashed reading the file, which usually means it is malformed: re-export it (e.g. from Blender as glTF/GLB); if it opens elsewhere, please report it with the file to assimp (https://github.com/assimp/assimp/issues)"
        func fail(_ message: String, _ hint: String) -> Diagnostic {
            Diagnostic(file: displayPath, message: message, hint: hint)
        }
        let limited = isolation.memoryLimitBytes > 0

        switch end {
        case .timedOut:
            throw fail(prefix + "the importer did not finish within \(Self.formatSeconds(isolation.timeout)) s",
                       "the file may be malformed (assimp can loop on corrupt data) or very large: re-export or simplify it, or allow more time with --import-timeout SECONDS")
        case .signalled(let signal) where signal == SIGXCPU:
            throw fail(prefix + "the importer used up its CPU-time limit of \(Self.cpuSeconds(timeout: isolation.timeout)) s",
                       "the file may be malformed (assimp can loop on corrupt data) or very large: re-export or simplify it, or allow more time with --import-timeout SECONDS")
        case .signalled(let signal):
            if limited && (Self.looksLikeMemoryExhaustion(stderr) || signal == SIGKILL) {
                throw fail(memoryMessage + " (signal \(signal))", memoryHint)
            }
            throw fail(prefix + "the importer crashed (signal \(signal))", crashHint)
        case .exited(let status) where status != 0:
            if limited && Self.looksLikeMemoryExhaustion(stderr) {
                throw fail(memoryMessage, memoryHint)
            }
            var message = prefix + "the importer worker failed with exit status \(status)"
            if let line = stderrLastLine { message += " (\(line))" }
            throw fail(message, "check that '\(isolation.executable)' is the spatialcheck build that is running; if the file is malformed, re-export it")
        case .exited:
            break
        }
        if stdoutOverflow {
            throw fail(prefix + "the importer's result is larger than \(Self.formatBytes(isolation.maxOutputBytes))",
                       "reduce the asset (decimate meshes, strip unused data)")
        }
        guard stdoutComplete else {
            throw fail(prefix + "the importer's output did not end", crashHint)
        }
        let record: AssetCodec.Record
        do {
            record = try AssetCodec.decodeRecord(stdout, file: displayPath)
        } catch {
            throw fail(prefix + "the importer returned an unreadable result (\(error.message))",
                       "check that '\(isolation.executable)' is the spatialcheck build that is running")
        }
        switch record {
        case .asset(let asset):
            return asset
        case .diagnostic(var d):
            if limited && Self.looksLikeMemoryExhaustion(d.message) {
                throw fail(memoryMessage + " (\(d.message))", memoryHint)
            }
            d.file = displayPath
            throw d
        }
    }

    /// "4 GiB", "512 MiB", "1000 bytes".
    static func formatBytes(_ n: Int) -> String {
        let gib = 1024 * 1024 * 1024, mib = 1024 * 1024
        if n >= gib, n % gib == 0 { return "\(n / gib) GiB" }
        if n >= gib { return String(format: "%.1f GiB", Double(n) / Double(gib)) }
        if n >= mib, n % mib == 0 { return "\(n / mib) MiB" }
        if n >= mib { return String(format: "%.1f MiB", Double(n) / Double(mib)) }
        return "\(n) bytes"
    }

    static func formatSeconds(_ s: Double) -> String {
        if s == s.rounded(), abs(s) < 1e9 { return String(Int(s)) }
        return String(format: "%g", s)
    }
}

extension AssetImporter {
    /// True in a build instrumented with AddressSanitizer (`swift test --sanitize=address`).
    public static let runningUnderAddressSanitizer: Bool = {
        #if os(Linux)
        return dlsym(nil, "__asan_init") != nil  // RTLD_DEFAULT is a null handle on glibc
        #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__asan_init") != nil  // RTLD_DEFAULT on Darwin
        #endif
    }()
}
