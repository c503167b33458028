import ArgumentParser
import AssetImport
import SceneLoader
import Foundation

/// Hidden worker for isolated asset imports: imports one asset in this process and writes the
/// encoded result (or the import's Diagnostic) to standard output. The parent spatialcheck runs it
/// under a timeout and a memory limit, so that assimp crashing on a malformed file costs only that
/// asset. Not for direct use; see `AssetImportWorker` and `AssetImportIsolation`.
///
/// `--benchmark N PATH...` (also hidden) times in-process against isolated imports of each PATH.
struct ImportWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: AssetImportWorker.commandName,
        abstract: "Internal: import one asset in a worker process.",
        shouldDisplay: false)

    // The parent passes every value as `--name=VALUE` and the path after `--`, so that a file
    // named `-h.obj` or `--display=x` is never read as an option.
    @Option(help: "How messages name the asset.") var display: String?
    @Option(help: "Files the asset references must be inside this folder (default: the asset's project root).")
    var root: String?
    @Flag(name: .customLong("allow-external"), help: "Referenced files may be anywhere (except .git folders).")
    var allowExternal = false
    @Option(name: .customLong("parent-pid"), help: "End when this process is no longer the parent.")
    var parentPID: Int32?
    @Option(name: .customLong("cpu-seconds"), help: "CPU-time limit of this worker.")
    var cpuSeconds: Int?
    @Option(help: .hidden) var benchmark: Int?
    @Argument(help: "The resolved asset path (with --benchmark: any number of paths).") var paths: [String]

    func validate() throws {
        if benchmark == nil, paths.count != 1 { throw ValidationError("expected exactly one asset path") }
        if let benchmark, benchmark < 1 { throw ValidationError("--benchmark needs a positive repetition count") }
    }

    func run() throws {
        if let benchmark {
            print(AssetImportBenchmark.run(paths: paths, repetitions: benchmark))
            return
        }
        AssetImportWorker.enforceLimits(parentPID: parentPID, cpuSeconds: cpuSeconds)
        let path = paths.first ?? ""
        let references: AssetReferencePolicy? = allowExternal ? .unconfined : root.map { AssetReferencePolicy(root: $0) }
        let code = AssetImportWorker.main(path: path, display: display ?? path, references: references)
        if code != 0 { throw ExitCode(code) }
    }
}

/// Options for isolated asset imports, ready for the integrator to add to the scene-loading
/// commands (`@OptionGroup var importOptions: ImportIsolationOptions`) and pass `isolation` on
/// to the loader. The isolation hints name `--import-timeout` and `--import-memory`.
struct ImportIsolationOptions: ParsableArguments {
    @Option(name: .customLong("import-timeout"), parsing: .unconditional,
            help: "Seconds one asset import may take before it is stopped (default: 30).")
    var importTimeout: Double = AssetImportIsolation.defaultTimeout
    @Option(name: .customLong("import-memory"), parsing: .unconditional,
            help: "Memory limit for one asset import, in GiB (default: 4; 0 for none; enforced on Linux).")
    var importMemory: Double = Double(AssetImportIsolation.defaultMemoryLimitBytes) / 1_073_741_824
    @Option(name: .customLong("import-budget"), parsing: .unconditional,
            help: "Seconds one scene's asset imports may take together (default: 300); its assets after that are errors.")
    var importBudget: Double = LoadOptions.defaultImportBudget
    @Flag(name: .customLong("no-import-isolation"),
          help: "Import assets inside this process (faster; a crash in the importer ends the run).")
    var noImportIsolation = false

    func validate() throws {
        if !(importTimeout.isFinite && importTimeout > 0) {
            throw ValidationError("--import-timeout must be a positive number of seconds")
        }
        if !(importBudget.isFinite && importBudget > 0) {
            throw ValidationError("--import-budget must be a positive number of seconds")
        }
        if !(importMemory.isFinite && importMemory >= 0 && importMemory <= 1024) {
            throw ValidationError("--import-memory must be a number of GiB between 0 (no limit) and 1024")
        }
    }

    /// `options` with this run's import budget.
    func applied(to options: LoadOptions) -> LoadOptions {
        var o = options
        o.importBudget = importBudget
        return o
    }

    /// The isolation to import with, or nil for in-process imports (also when this process's
    /// executable cannot be located).
    var isolation: AssetImportIsolation? {
        if noImportIsolation { return nil }
        return AssetImportIsolation.current(timeout: importTimeout,
                                            memoryLimitBytes: Int(importMemory * 1_073_741_824), thisExecutable: true)
    }
}
