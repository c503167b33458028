@testable import AssetImport
import Foundation
import SceneLoader
import SpatialCheck
import SpatialModel
import Testing

/// Command lines of running processes whose arguments contain `marker` (Linux, via /proc).
private func processes(containing marker: String) -> [Int32] {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: "/proc") else { return [] }
    var found: [Int32] = []
    for e in entries {
        guard let pid = Int32(e), let data = fm.contents(atPath: "/proc/\(e)/cmdline") else { continue }
        let args = String(decoding: data, as: UTF8.self)
        // A zombie has an empty command line; it is gone as a process.
        if args.contains(marker), args.contains(AssetImportWorker.commandName) { found.append(pid) }
    }
    return found
}

/// An ASCII STL triangle (a valid asset whatever its name).
private let triangleSTL = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 2 0\nendloop\nendfacet\nendsolid t\n"

@Suite("Import worker: arguments, special files, one import per file, self-limits",
       .enabled(if: WorkerExecutable.available))
struct ImportWorkerTests {
    @Test("file names that look like options, or contain '=', spaces or newlines, are passed as names",
          arguments: ["-h.stl", "--help.stl", "--display=x.stl", "-- .stl", "a=b c.stl", "line\nbreak.stl", "--root=..stl"])
    func namesAreNeverOptions(name: String) throws {
        let t = try TempTree("worker-names")
        defer { t.remove() }
        let path = t.file(name, triangleSTL)
        let asset = try AssetImporter.load(resolvedPath: path, displayPath: name,
                                           isolation: WorkerExecutable.isolation(timeout: 20))
        #expect(asset.path == name)
        #expect(asset.nodes.flatMap(\.vertices) == [0, 0, 0, 1, 0, 0, 0, 2, 0])
        // A missing file with such a name is named exactly in the error.
        let missing = t.path("missing-" + name)
        do {
            _ = try AssetImporter.load(resolvedPath: missing, displayPath: name, isolation: WorkerExecutable.isolation(timeout: 20))
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.file == name)
            #expect(error.message == "asset file not found")
        }
    }

    @Test("the worker's arguments carry every value with '=' and the path after '--'")
    func argumentShape() {
        let args = WorkerRun.workerArguments(resolvedPath: "/p/-h.obj", displayPath: "-h.obj",
                                             isolation: WorkerExecutable.isolation(timeout: 7),
                                             references: AssetReferencePolicy(root: "/p"), parentPID: 42)
        #expect(args == [AssetImportWorker.commandName, "--display=-h.obj", "--root=/p", "--parent-pid=42",
                         "--cpu-seconds=12", "--", "/p/-h.obj"])
        let open = WorkerRun.workerArguments(resolvedPath: "/p/a.glb", displayPath: "a.glb",
                                             isolation: WorkerExecutable.isolation(timeout: 0.5),
                                             references: .unconfined, parentPID: 42)
        #expect(open.contains("--allow-external") && open.contains("--cpu-seconds=6"))
    }

    @Test("a FIFO, also behind a symbolic link, is refused at once, not after the import timeout")
    func fifoIsRefused() throws {
        let t = try TempTree("worker-fifo")
        defer { t.remove() }
        #expect(mkfifo(t.path("pipe.glb"), 0o600) == 0)
        t.link("link.glb", to: "pipe.glb")
        for name in ["pipe.glb", "link.glb"] {
            // A timeout of 600 s: a FIFO that reached the worker would fail this test by its message
            // (or hang it), not by a clock.
            do {
                _ = try AssetImporter.load(resolvedPath: t.path(name), displayPath: name,
                                           isolation: WorkerExecutable.isolation(timeout: 600))
                Issue.record("a FIFO loaded")
            } catch {
                #expect(error.message == "asset '\(name)' is not a regular file (a FIFO, socket or device); it was not imported")
            }
            do {
                _ = try AssetImporter.load(resolvedPath: t.path(name), displayPath: name)
                Issue.record("a FIFO loaded in-process")
            } catch {
                #expect(error.message == "asset '\(name)' is not a regular file (a FIFO, socket or device); it was not imported")
            }
        }
    }

    @Test("the scene loader refuses a FIFO asset whatever the importer")
    func sceneLoaderRefusesFIFO() throws {
        let t = try TempTree("worker-scene-fifo")
        defer { t.remove() }
        #expect(mkfifo(t.path("pipe.glb"), 0o600) == 0)
        t.link("link.glb", to: "pipe.glb")
        t.file("m.stl", triangleSTL)
        t.link("ok.stl", to: "m.stl")
        let count = ImportCounter()
        let importer = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            count.increment()
            return try AssetImporter.load(resolvedPath: resolved, displayPath: display)
        }
        let text = "format: spatialscene/1\nentities:\n" + ["pipe.glb", "link.glb", "ok.stl"].enumerated().map {
            "  - {id: e\($0.offset), kind: model, asset: '\($0.element)', position: [0, 1, -2]}\n"
        }.joined()
        var messages: [String] = []
        do { _ = try SceneLoader.load(path: t.file("s.scene.yaml", text), importer: importer) } catch {
            messages = error.diagnostics.map(\.message)
        }
        #expect(messages == ["pipe.glb", "link.glb"].map { "asset '\($0)' is not a regular file (a FIFO, socket or device); it was not imported" })
        #expect(count.value == 1)  // only the regular file (through its link) reached the importer
    }

    @Test("a scene's imports stop at its import budget: the assets after it are errors naming the budget and the slowest import")
    func importBudgetBoundsAScene() throws {
        let t = try TempTree("import-budget")
        defer { t.remove() }
        for name in ["a", "b", "c"] { t.file("\(name).stl", triangleSTL) }
        let count = ImportCounter()
        let importer = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            count.increment()
            usleep(20_000)  // 20 ms, more than the whole budget below: the first import uses it up
            return try AssetImporter.load(resolvedPath: resolved, displayPath: display)
        }
        var options = LoadOptions()
        options.importBudget = 0.01
        let text = "format: spatialscene/1\nentities:\n" + ["a.stl", "b.stl", "c.stl", "a.stl"].enumerated().map {
            "  - {id: e\($0.offset), kind: model, asset: '\($0.element)', position: [0, 1, -2]}\n"
        }.joined()
        var errors: [Diagnostic] = []
        do { _ = try SceneLoader.load(path: t.file("s.scene.yaml", text), options: options, importer: importer) } catch {
            errors = error.diagnostics
        }
        #expect(count.value == 1)  // a.stl, imported once for both of its entities
        #expect(errors.map { String($0.message.prefix(70)) } == ["b.stl", "c.stl"].map {
            String("asset '\($0)' was not imported: this scene's imports have already taken ".prefix(70))
        })
        for e in errors {
            #expect(e.message.contains(", its import budget of 0.01 s; the slowest was 'a.stl' ("), "\(e.message)")
            #expect(e.hint?.contains("--import-budget SECONDS") == true)
        }
    }

    @Test("several links to one hanging asset cost one import: each real file is imported once per run")
    func linksShareOneImport() throws {
        let t = try TempTree("worker-links")
        defer { t.remove() }
        let target = t.file("hang.stl", triangleSTL)
        for i in 1...4 { t.link("l\(i).stl", to: "hang.stl") }
        let marker = t.root
        // The fault makes every worker hang until its 1 s timeout.
        let isolation = WorkerExecutable.isolation(timeout: 1, fault: "hang")
        var messages: [String] = []
        for name in ["hang.stl", "l1.stl", "l2.stl", "l3.stl", "l4.stl"] {
            do {
                _ = try AssetImporter.load(resolvedPath: t.path(name), displayPath: name, isolation: isolation)
            } catch {
                messages.append(error.message)
            }
        }
        #expect(messages == ["hang.stl", "l1.stl", "l2.stl", "l3.stl", "l4.stl"].map {
            "asset '\($0)' could not be imported: the importer did not finish within 1 s"
        })
        #expect(isolation.cache.importsStarted == 1)
        #expect(isolation.cache.failureCount == 1)
        #expect(processes(containing: marker).isEmpty)
        // A new run (a new isolation value) imports again.
        let again = WorkerExecutable.isolation(timeout: 20)
        #expect(throws: Never.self) { try AssetImporter.load(resolvedPath: target, displayPath: "hang.stl", isolation: again) }
    }

    @Test("a copy of the tool under another name still imports in its worker, with its --import-timeout")
    func renamedToolKeepsItsIsolation() throws {
        let t = try TempTree("worker-renamed")
        defer { t.remove() }
        t.file("hang.stl", triangleSTL)
        // A hard link is a copy under another name without copying the binary (else a real copy).
        let renamed = t.path("sc")
        do { try FileManager.default.linkItem(atPath: try CLIHarness.binary(), toPath: renamed) } catch {
            try FileManager.default.copyItem(atPath: try CLIHarness.binary(), toPath: renamed)
        }
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: renamed)
        tool.arguments = ["inspect", "--import-timeout", "1", t.path("hang.stl")]
        // The fault acts only inside the worker: imported in this process, the triangle loads.
        var environment = ProcessInfo.processInfo.environment
        environment[AssetImportWorker.faultEnvironmentVariable] = "hang"
        tool.environment = environment
        let err = Pipe()
        tool.standardInput = FileHandle.nullDevice
        tool.standardOutput = FileHandle.nullDevice
        tool.standardError = err
        try tool.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        tool.waitUntilExit()
        #expect(tool.terminationStatus == 2)
        #expect(stderr.contains("the importer did not finish within 1 s"), "\(stderr)")
    }

    @Test("within a scene, links and spellings of one file share one import")
    func sceneImportsEachFileOnce() throws {
        let t = try TempTree("worker-scene-links")
        defer { t.remove() }
        t.file("m.stl", triangleSTL)
        t.link("a.stl", to: "m.stl")
        t.link("b.stl", to: "m.stl")
        let count = ImportCounter()
        let importer = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            count.increment()
            throw Diagnostic(file: display, message: "asset '\(display)' could not be imported: the importer did not finish within 30 s")
        }
        let text = "format: spatialscene/1\nentities:\n" + ["m.stl", "a.stl", "./b.stl", "sub/../a.stl"].enumerated().map {
            "  - {id: e\($0.offset), kind: model, asset: '\($0.element)', position: [0, 1, -2]}\n"
        }.joined()
        t.folder("sub")
        let scene = t.file("s.scene.yaml", text)
        var messages: [String] = []
        do { _ = try SceneLoader.load(path: scene, importer: importer) } catch { messages = error.diagnostics.map(\.message) }
        #expect(count.value == 1)
        #expect(messages == ["m.stl", "a.stl", "./b.stl", "sub/../a.stl"].map {
            "asset '\($0)' could not be imported: the importer did not finish within 30 s"
        })
    }

    /// assimp 5.2's PLY header parser loops on this truncated header; the timeout contains it.
    @Test("a truncated PLY header that loops assimp is stopped by the timeout",
          .enabled(if: AssetImporter.assimpVersion.hasPrefix("5.2.")),
          .enabled(if: !AssetImporter.runningUnderAddressSanitizer))
    func loopingPLYIsContained() throws {
        let t = try TempTree("worker-ply")
        defer { t.remove() }
        // The header stops in the middle of a property line, as in the corpus file.
        let ply = "ply\nformat ascii 1.0\nCreated by a test\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\npro"
        let path = t.file("loop.ply", ply)
        do {
            _ = try AssetImporter.load(resolvedPath: path, displayPath: "loop.ply", isolation: WorkerExecutable.isolation(timeout: 2))
            Issue.record("the truncated PLY loaded")
        } catch {
            #expect(error.message == "asset 'loop.ply' could not be imported: the importer did not finish within 2 s")
        }
        #expect(processes(containing: t.root).isEmpty)
    }

    #if os(Linux)
    @Test("killing spatialcheck with SIGKILL during a hanging import leaves no worker behind",
          arguments: ["fault", "ply"])
    func workerEndsWithItsParent(kind: String) throws {
        if kind == "ply", !AssetImporter.assimpVersion.hasPrefix("5.2.") { return }
        let t = try TempTree("worker-orphan")
        defer { t.remove() }
        let name: String
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        if kind == "fault" {
            name = "hang.stl"
            t.file(name, triangleSTL)
            environment[AssetImportWorker.faultEnvironmentVariable] = "hang"
        } else {
            name = "loop.ply"
            t.file(name, "ply\nformat ascii 1.0\nCreated by a test\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\npro")
        }
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: try CLIHarness.binary())
        tool.arguments = ["inspect", "--import-timeout", "600", t.path(name)]
        tool.environment = environment
        tool.standardInput = FileHandle.nullDevice
        tool.standardOutput = FileHandle.nullDevice
        tool.standardError = FileHandle.nullDevice
        try tool.run()
        // Wait for the worker to start (it names the temporary folder in its arguments).
        var workers: [Int32] = []
        for _ in 0..<300 where workers.isEmpty {
            usleep(50_000)
            workers = processes(containing: t.root)
        }
        #expect(!workers.isEmpty, "the worker did not start")
        kill(tool.processIdentifier, SIGKILL)
        tool.waitUntilExit()
        usleep(1_000_000)
        let left = processes(containing: t.root)
        #expect(left.isEmpty, "workers still running: \(left)")
        for pid in left { kill(pid, SIGKILL) }
    }
    #endif

    @Test("the worker ends at once when its expected parent is not its parent")
    func workerChecksItsParent() throws {
        let t = try TempTree("worker-parent")
        defer { t.remove() }
        let path = t.file("m.stl", triangleSTL)
        // The worker's exit status when told its parent is `parent`.
        func status(parent: Int32) throws -> Int32 {
            let worker = Process()
            worker.executableURL = URL(fileURLWithPath: try CLIHarness.binary())
            worker.arguments = [AssetImportWorker.commandName, "--display=m.stl", "--parent-pid=\(parent)", "--", path]
            worker.standardOutput = FileHandle.nullDevice
            worker.standardError = FileHandle.nullDevice
            try worker.run()
            worker.waitUntilExit()
            return worker.terminationStatus
        }
        #expect(try status(parent: 1) == 0)  // parent pid 1 (or less) means "no check"
        // A pid that is never this test's process: the worker must exit (status 70) before importing.
        #expect(try status(parent: getpid() + 1_000_000) == 70)
    }

    @Test("a worker past its CPU-time limit is stopped by the kernel and reported as such",
          .enabled(if: !AssetImporter.runningUnderAddressSanitizer))
    func cpuLimitIsReported() {
        // SIGXCPU is what RLIMIT_CPU sends; the parent's message names the limit.
        let run = WorkerRun(end: .signalled(SIGXCPU), stdout: [], stdoutOverflow: false, stdoutComplete: true, stderr: "")
        do {
            _ = try run.asset(displayPath: "spin.ply", isolation: WorkerExecutable.isolation(timeout: 3))
            Issue.record("no error")
        } catch {
            #expect(error.message == "asset 'spin.ply' could not be imported: the importer used up its CPU-time limit of 8 s")
        }
    }
}

/// A thread-safe counter for importer stubs.
final class ImportCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
