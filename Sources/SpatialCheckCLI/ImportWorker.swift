import ArgumentParser
import AssetImport
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

    @Option(help: "How messages name the asset.") var display: String?
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
        let path = paths.first ?? ""
        let code = AssetImportWorker.main(path: path, display: display ?? path)
        if code != 0 { throw ExitCode(code) }
    }
}
