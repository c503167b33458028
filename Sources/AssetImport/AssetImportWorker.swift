import CAssimp
import Foundation
import SpatialModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The child side of isolated imports: `spatialcheck __import-asset --display=NAME [--root=DIR |
/// --allow-external] [--parent-pid=PID] [--cpu-seconds=N] -- PATH` imports in-process and writes one `AssetCodec` record (the asset, or the import's Diagnostic) to stdout.
///
/// Exit status 0 means a record was written (either kind); anything else is a worker failure
/// (bad arguments, stdout closed). Crashes inside assimp end the process with a signal, which the
/// parent (`AssetImporter.load(resolvedPath:displayPath:isolation:)`) turns into a Diagnostic.
public enum AssetImportWorker {
    /// The hidden subcommand's name.
    public static let commandName = "__import-asset"

    /// TEST-ONLY fault injection: when this environment variable is `segv`, `abort`, `hang` or
    /// `alloc`, the worker crashes with SIGSEGV, aborts, sleeps forever, or allocates until its
    /// memory limit stops it, instead of importing; `noise` prints to stdout and then imports.
    /// Never set it outside tests.
    public static let faultEnvironmentVariable = "SPATIALCHECK_WORKER_FAULT"

    /// Imports `path` in this process and returns the encoded record and the exit status to use.
    /// `references`: where files the asset references may be (nil: the asset's project root).
    public static func run(path: String, display: String,
                           references: AssetReferencePolicy? = nil) -> (bytes: [UInt8], exitCode: Int32) {
        restoreDefaultSignals()
        injectFaultIfRequested()
        do {
            let asset = try AssetImporter.load(resolvedPath: path, displayPath: display,
                                               maxFileSize: AssetImporter.defaultMaxFileSize, references: references)
            return (asset.encoded(), 0)
        } catch {
            return (AssetCodec.encode(error), 0)
        }
    }

    /// The worker's own limits, so that it cannot outlive the parent that waits for it nor spin for
    /// ever when the parent is gone (docs/security.md §4), set before anything is imported:
    ///
    /// - a CPU-time limit (`RLIMIT_CPU`) of `cpuSeconds` (SIGXCPU) and 5 s more (SIGKILL);
    /// - the end of the parent ends the worker: on Linux a parent-death signal (SIGKILL), then a
    ///   check that the parent is still `parentPID` (it may have died before the signal was armed);
    ///   on every platform a watchdog thread that exits when the parent changes (the worker is
    ///   re-parented to init or a subreaper when its parent dies).
    #if os(Linux)
    static let cpuResource = __rlimit_resource_t(RLIMIT_CPU.rawValue)
    #else
    static let cpuResource = RLIMIT_CPU
    #endif

    public static func enforceLimits(parentPID: Int32?, cpuSeconds: Int?) {
        if let cpuSeconds, cpuSeconds > 0 {
            let soft = rlim_t(cpuSeconds)
            var limit = rlimit()
            if getrlimit(cpuResource, &limit) == 0 {
                let hard = min(limit.rlim_max, soft + 5)  // RLIM_INFINITY is the largest value
                limit.rlim_cur = min(soft, hard)
                limit.rlim_max = hard
                _ = setrlimit(cpuResource, &limit)
            }
        }
        guard let parentPID, parentPID > 1 else { return }
        #if os(Linux)
        _ = spatialcheck_set_parent_death_signal(SIGKILL)
        #endif
        if getppid() != parentPID { _exit(70) }
        let watchdog = Thread {
            while true {
                usleep(100_000)
                if getppid() != parentPID { _exit(70) }
            }
        }
        watchdog.stackSize = 64 * 1024
        watchdog.start()
    }

    /// Writes all of `bytes` to `fd` (standard output by default); false when the write fails
    /// (e.g. a closed pipe).
    public static func writeToStandardOutput(_ bytes: [UInt8], fileDescriptor fd: Int32 = STDOUT_FILENO) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var done = 0
            while done < raw.count {
                let n = write(fd, base + done, raw.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                done += n
            }
            return true
        }
    }

    /// Runs the worker as a process's whole job: import, write to stdout, return the exit status.
    /// While importing, standard output is pointed at standard error, so that anything assimp (or
    /// anything else) prints cannot corrupt the record; the record goes to the original stdout.
    public static func main(path: String, display: String, references: AssetReferencePolicy? = nil) -> Int32 {
        let resultFD = dup(STDOUT_FILENO)
        if resultFD >= 0 { _ = dup2(STDERR_FILENO, STDOUT_FILENO) }
        let (bytes, code) = run(path: path, display: display, references: references)
        fflush(nil)
        let written = writeToStandardOutput(bytes, fileDescriptor: resultFD >= 0 ? resultFD : STDOUT_FILENO)
        if resultFD >= 0 { close(resultFD) }
        guard written else {
            FileHandle.standardError.write(Data("spatialcheck \(commandName): cannot write the result to standard output\n".utf8))
            return 3
        }
        return code
    }

    /// A child inherits its spawning thread's signal mask, and Dispatch / Swift concurrency
    /// threads block most signals: unblock them so that the parent's SIGTERM on timeout works.
    static func restoreDefaultSignals() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { signal(sig, SIG_DFL) }
    }

    static func injectFaultIfRequested() {
        guard let fault = ProcessInfo.processInfo.environment[faultEnvironmentVariable], !fault.isEmpty else { return }
        switch fault {
        case "segv":
            raise(SIGSEGV)
        case "abort":
            abort()
        case "noise":
            // Something in the process printing to stdout must not corrupt the result record.
            print("noise on standard output from the importer")
            fflush(nil)
            _ = "noise via write(2)\n".withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        case "hang":
            while true { sleep(60) }
        case "alloc":
            // Reserve (without touching) 256 MiB blocks until an allocation fails, which the Swift
            // runtime reports as "Could not allocate memory" before trapping; give up after 1 TiB
            // so that a platform without an address-space limit is not harmed.
            var blocks: [UnsafeMutableRawPointer] = []
            for _ in 0..<4096 {
                guard let p = malloc(256 * 1024 * 1024) else {
                    FileHandle.standardError.write(Data("fatal error: Could not allocate memory.\n".utf8))
                    abort()
                }
                blocks.append(p)
            }
            withExtendedLifetime(blocks) {
                FileHandle.standardError.write(Data("alloc fault: 1 TiB reserved without hitting a limit\n".utf8))
            }
            exit(4)
        default:
            FileHandle.standardError.write(Data("unknown \(faultEnvironmentVariable) '\(fault)' (expected segv, abort, hang, alloc or noise)\n".utf8))
            exit(5)
        }
    }
}
