import Foundation
import SpatialModel
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Python workers that read USD (`USDWorkerScript`). One worker serves every USD asset of a run
/// (Python and usd-core start once, ~0.2 s); imports that run at the same time (`--jobs`) each take
/// an idle worker or start another. A worker that crashes, exceeds its memory limit or does not
/// answer within the timeout is killed and costs only the asset it was reading; the next request
/// starts a fresh one.
///
/// Limits inside the worker: `RLIMIT_AS` (memory, from `--import-memory`), `RLIMIT_CPU` (CPU
/// seconds, raised before each request by the timeout), no core files; it ends when this process
/// dies (Linux: `PR_SET_PDEATHSIG` SIGKILL; everywhere: its parent id changes, or standard input
/// reaches end-of-file). Workers are started from one long-lived thread, because Linux delivers
/// the parent-death signal when the *thread* that forked the child ends.
public final class USDWorkerPool: Sendable {
    static let shared = USDWorkerPool()

    /// The interpreter: `SPATIALCHECK_PYTHON` when set, else `python3` on PATH.
    static let pythonEnvironmentVariable = "SPATIALCHECK_PYTHON"

    private let idle = Mutex<[USDWorkerProcess]>([])
    private let spawner = SpawnerThread()

    /// Runs one request and returns the response line (without the newline).
    func run(_ request: USDWorkerRequest, timeout: Double, memoryLimitBytes: Int,
             displayPath: String) throws(Diagnostic) -> [UInt8] {
        let prefix = "asset '\(displayPath)' could not be imported: "
        let line: [UInt8]
        do {
            line = Array(try JSONEncoder().encode(request)) + [UInt8(ascii: "\n")]
        } catch {
            throw Diagnostic(file: displayPath, message: prefix + "the request could not be encoded")
        }
        // One retry when an idle worker turns out to have ended before the request reached it.
        for attempt in 0..<2 {
            let worker = try take(memoryLimitBytes: memoryLimitBytes, displayPath: displayPath)
            switch worker.exchange(line, timeout: timeout) {
            case .response(let bytes):
                idle.withLock { $0.append(worker) }
                return bytes
            case .notDelivered where attempt == 0 && worker.servedBefore:
                worker.kill()
                continue
            case .notDelivered, .ended:
                let status = worker.kill(grace: 2)
                throw failure(worker: worker, status: status, memoryLimitBytes: memoryLimitBytes, prefix: prefix,
                              displayPath: displayPath)
            case .timedOut:
                worker.kill()
                throw Diagnostic(file: displayPath,
                                 message: prefix + "the USD reader did not finish within \(WorkerRun.formatSeconds(timeout)) s",
                                 hint: "the file may be malformed or very large: re-export or simplify it, or allow more time with --import-timeout SECONDS")
            case .tooLarge:
                worker.kill()
                throw Diagnostic(file: displayPath, message: prefix + "the USD reader's result is larger than \(WorkerRun.formatBytes(USDWorkerProcess.maxResponseBytes))",
                                 hint: "reduce the asset (fewer prims)")
            }
        }
        throw Diagnostic(file: displayPath, message: prefix + "the USD reader could not be reached")
    }

    private func failure(worker: USDWorkerProcess, status: USDWorkerProcess.Status, memoryLimitBytes: Int,
                         prefix: String, displayPath: String) -> Diagnostic {
        let stderr = worker.stderrTail
        let last = stderr.split(whereSeparator: \.isNewline).last.map { String($0.prefix(300)) }
        if memoryLimitBytes > 0, WorkerRun.looksLikeMemoryExhaustion(stderr) || stderr.contains("MemoryError") {
            return Diagnostic(file: displayPath,
                              message: prefix + "the USD reader ran out of its \(WorkerRun.formatBytes(memoryLimitBytes)) memory limit",
                              hint: "the file may declare absurd sizes or be corrupt; if it is valid but large, raise the limit with --import-memory")
        }
        switch status {
        case .signalled(let sig) where sig == SIGXCPU:
            return Diagnostic(file: displayPath, message: prefix + "the USD reader used up its CPU time limit",
                              hint: "the file may be malformed or very large: re-export or simplify it, or allow more time with --import-timeout SECONDS")
        case .signalled(let sig):
            return Diagnostic(file: displayPath, message: prefix + "the USD reader crashed (signal \(sig))",
                              hint: "usd-core crashed reading the file, which usually means it is malformed: re-export it from Reality Composer Pro or your DCC")
        case .exited(let code):
            var message = prefix + "the USD reader ended unexpectedly (exit status \(code))"
            if let last { message += " (\(last))" }
            return Diagnostic(file: displayPath, message: message,
                              hint: "check the usd-core installation (\(USDImporter.installHint)); if the file is malformed, re-export it")
        }
    }

    private func take(memoryLimitBytes: Int, displayPath: String) throws(Diagnostic) -> USDWorkerProcess {
        let reused: USDWorkerProcess? = idle.withLock { list in
            guard let k = list.lastIndex(where: { $0.memoryLimitBytes == memoryLimitBytes }) else { return nil }
            return list.remove(at: k)
        }
        if let reused { return reused }
        let result = spawner.run { () -> Result<USDWorkerProcess, Diagnostic> in
            do throws(Diagnostic) {
                return .success(try USDWorkerProcess.start(memoryLimitBytes: memoryLimitBytes, displayPath: displayPath))
            } catch {
                return .failure(error)
            }
        }
        guard let result else {
            throw Diagnostic(file: displayPath, message: "asset '\(displayPath)' could not be imported: the USD reader could not be started")
        }
        return try result.get()
    }

    /// The virtual environment `Tools/deps.sh` installs usd-core into when pip may not install
    /// into python3 itself (PEP 668): `SPATIALCHECK_USD_VENV`, default ~/.local/share/spatialcheck/usd-venv.
    static var virtualEnvironment: String {
        let env = ProcessInfo.processInfo.environment
        if let v = env["SPATIALCHECK_USD_VENV"], !v.isEmpty { return v }
        return (env["HOME"] ?? NSHomeDirectory()) + "/.local/share/spatialcheck/usd-venv"
    }

    /// The Python interpreter to run, or nil when none is found: `SPATIALCHECK_PYTHON`, else the
    /// virtual environment of `Tools/deps.sh` when it exists, else `python3` on PATH.
    public static func pythonExecutable() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let p = env[pythonEnvironmentVariable], !p.isEmpty {
            return FileManager.default.isExecutableFile(atPath: p) ? p : nil
        }
        let venv = virtualEnvironment + "/bin/python3"
        if FileManager.default.isExecutableFile(atPath: venv) { return venv }
        let path = env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Runs closures on one thread that lives as long as the process (see `USDWorkerPool`).
final class SpawnerThread: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let pending = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in
            while true {
                self.pending.wait()
                let job = self.jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                job?()
            }
        }
        thread.name = "spatialcheck-usd-spawner"
        thread.start()
    }

    /// Runs `body` on the spawner thread and returns its result (nil only if it did not run).
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let box = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        jobs.withLock { $0.append { box.withLock { $0 = body() }; done.signal() } }
        pending.signal()
        done.wait()
        return box.withLock { $0 }
    }
}

/// One running Python worker.
final class USDWorkerProcess: @unchecked Sendable {
    // @unchecked: a worker is used by one request at a time (it is taken out of the pool's idle list
    // while in use); the lock-free fields below are only touched by that request's thread.
    enum Status { case exited(Int32), signalled(Int32) }
    enum Outcome { case response([UInt8]), notDelivered, ended, timedOut, tooLarge }

    static let maxResponseBytes = 512 * 1024 * 1024
    /// Seconds the worker may take to start Python and import usd-core.
    static let startTimeout: Double = 60

    let process: Process
    let memoryLimitBytes: Int
    private let input: FileHandle
    private let outputFD: Int32
    private let stderrDrain: PipeDrain
    private var buffer: [UInt8] = []
    private(set) var servedBefore = false
    private var ended = false

    private init(process: Process, memoryLimitBytes: Int, input: FileHandle, outputFD: Int32, stderrDrain: PipeDrain) {
        self.process = process; self.memoryLimitBytes = memoryLimitBytes; self.input = input
        self.outputFD = outputFD; self.stderrDrain = stderrDrain
    }

    static func start(memoryLimitBytes: Int, displayPath: String) throws(Diagnostic) -> USDWorkerProcess {
        let missing = "asset '\(displayPath)' could not be imported: reading USD needs Python 3 with usd-core (Pixar's OpenUSD); install it with `\(USDImporter.installHint)`"
        guard let python = USDWorkerPool.pythonExecutable() else {
            throw Diagnostic(file: displayPath, message: missing + " (no Python 3 found: neither SPATIALCHECK_PYTHON nor python3 on PATH)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        var arguments = ["-B", "-c", USDWorkerScript.source, "--parent=\(getpid())"]
        if memoryLimitBytes > 0, !AssetImporter.runningUnderAddressSanitizer {
            arguments.append("--memory=\(memoryLimitBytes)")
        }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONIOENCODING"] = "utf-8"
        process.environment = environment
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        do {
            try process.run()
        } catch {
            throw Diagnostic(file: displayPath, message: missing + " (\(python) could not be started: \(error.localizedDescription))")
        }
        try? inPipe.fileHandleForReading.close()
        try? outPipe.fileHandleForWriting.close()
        try? errPipe.fileHandleForWriting.close()
        let drain = PipeDrain(fileDescriptor: errPipe.fileHandleForReading.fileDescriptor,
                              limit: 16 * 1024, keepTail: true)
        let worker = USDWorkerProcess(process: process, memoryLimitBytes: memoryLimitBytes,
                                      input: inPipe.fileHandleForWriting,
                                      outputFD: outPipe.fileHandleForReading.fileDescriptor, stderrDrain: drain)
        // Keep the pipes' handles alive as long as the worker.
        worker.handles = [outPipe.fileHandleForReading, errPipe.fileHandleForReading]
        guard case .response(let hello) = worker.readLine(timeout: startTimeout) else {
            worker.kill()
            let tail = worker.stderrTail.split(whereSeparator: \.isNewline).last.map { " (\($0.prefix(200)))" } ?? ""
            throw Diagnostic(file: displayPath, message: missing + " (\(python) did not start the USD reader\(tail))")
        }
        struct Hello: Decodable { var hello: Int; var missing: String? }
        guard let h = try? JSONDecoder().decode(Hello.self, from: Data(hello)) else {
            worker.kill()
            throw Diagnostic(file: displayPath, message: missing + " (\(python) answered unexpectedly)")
        }
        if h.hello != 1 {
            worker.kill()
            // Under a small address-space limit the import of usd-core itself fails: the dynamic
            // loader cannot map its libraries, or Python runs out of memory.
            if memoryLimitBytes > 0, let why = h.missing,
               why.contains("MemoryError") || why.contains("failed to map segment") || WorkerRun.looksLikeMemoryExhaustion(why) {
                throw Diagnostic(file: displayPath,
                                 message: "asset '\(displayPath)' could not be imported: Python could not load usd-core within the \(WorkerRun.formatBytes(memoryLimitBytes)) import memory limit",
                                 hint: "raise the limit with --import-memory (usd-core needs about 200 MiB)")
            }
            throw Diagnostic(file: displayPath, message: missing + " (\(python) cannot import pxr)")
        }
        return worker
    }

    private var handles: [FileHandle] = []

    /// Sends one request line and reads the response line.
    func exchange(_ line: [UInt8], timeout: Double) -> Outcome {
        guard process.isRunning else { return .notDelivered }
        let written = AssetImportWorker.writeToStandardOutput(line, fileDescriptor: input.fileDescriptor)
        guard written else { return .notDelivered }
        let outcome = readLine(timeout: timeout)
        if case .response = outcome { servedBefore = true }
        return outcome
    }

    /// Reads up to the next newline within `timeout` seconds.
    func readLine(timeout: Double) -> Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var scanFrom = 0
        while true {
            if let nl = buffer[scanFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                return .response(line)
            }
            scanFrom = buffer.count
            if buffer.count > Self.maxResponseBytes { return .tooLarge }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timedOut }
            var fds = pollfd(fd: outputFD, events: Int16(POLLIN), revents: 0)
            let ms = Int32(min(remaining * 1000, 60_000).rounded(.up))
            let ready = poll(&fds, 1, max(1, ms))
            if ready < 0 {
                if errno == EINTR { continue }
                return .ended
            }
            if ready == 0 { continue }
            let n = chunk.withUnsafeMutableBytes { read(outputFD, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .ended
            }
            if n == 0 { return .ended }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Ends the worker (SIGKILL, after waiting up to `grace` seconds for it to end by itself, so
    /// that a crash keeps its own signal) and returns how it ended.
    @discardableResult
    func kill(grace: Double = 0) -> Status {
        if !ended {
            ended = true
            try? input.close()
            let until = Date().addingTimeInterval(grace)
            while process.isRunning, Date() < until { usleep(10_000) }
            if process.isRunning { sendSignal(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            _ = stderrDrain.wait(seconds: 2)
        }
        return process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus)
            : .exited(process.terminationStatus)
    }

    var stderrTail: String { String(decoding: stderrDrain.bytes, as: UTF8.self) }
}

/// `kill(2)`, named apart from `USDWorkerProcess.kill()`.
private func sendSignal(_ pid: pid_t, _ sig: Int32) {
    #if canImport(Glibc)
    _ = Glibc.kill(pid, sig)
    #else
    _ = Darwin.kill(pid, sig)
    #endif
}
