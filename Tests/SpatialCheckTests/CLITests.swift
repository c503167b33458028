import Testing
import Foundation
import SpatialCheck

/// The command-line contract (spec/cli-and-report.md): exit codes, options, baselines, `report`,
/// `explain`, run against the built `spatialcheck` executable.
@Suite struct CLITests {
    @Test func cleanSceneExitsZero() throws {
        let r = try cli(["validate", TestPaths.repo("Scenes/rules/target-center-spacing/pass.scene.yaml")])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("no violations"))
    }

    @Test func violationsExitOneAndFailOnNeverExitsZero() throws {
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let r = try cli(["validate", scene])
        #expect(r.status == 1)
        #expect(r.stdout.contains("[target-center-spacing]"))
        #expect(try cli(["validate", scene, "--fail-on", "never"]).status == 0)
        // Errors are counted at --fail-on warning and info too.
        #expect(try cli(["validate", scene, "--fail-on", "warning"]).status == 1)
    }

    @Test func loadErrorExitsTwoAndIsInTheReport() throws {
        let dir = try tempDir()
        try "format: spatialscene/1\nentities:\n  - id: a\n    kind: window\n    postion: 1\n"
            .write(toFile: dir + "/broken.scene.yaml", atomically: true, encoding: .utf8)
        let r = try cli(["validate", "broken.scene.yaml", "--format", "json"], cwd: dir)
        #expect(r.status == 2)
        #expect(r.stdout.contains("\"status\": \"error\""))
        #expect(try cli(["validate", "missing.scene.yaml"], cwd: dir).status == 2)
    }

    @Test func aYAMLOrJSONFileNamedDirectlyIsReadAsAScene() throws {
        // A scene not named *.scene.yaml is read as a scene when named on the command line (it
        // was handed to the 3D importer, whose error said to open it in Blender).
        let dir = try tempDir()
        let scene = try String(contentsOfFile: TestPaths.repo("Scenes/rules/target-center-spacing/pass.scene.yaml"), encoding: .utf8)
        try scene.write(toFile: dir + "/my-app.yaml", atomically: true, encoding: .utf8)
        let ok = try cli(["validate", "my-app.yaml"], cwd: dir)
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
        #expect(ok.stdout.contains("no violations"))
        // A JSON file that is not a scene gets the scene loader's error, naming the file.
        try "{\"name\": \"x\"}\n".write(toFile: dir + "/notes.json", atomically: true, encoding: .utf8)
        let bad = try cli(["validate", "notes.json"], cwd: dir)
        #expect(bad.status == 2)
        #expect(bad.stdout.contains("notes.json:1:") && bad.stdout.contains("format"), "\(bad.stdout)")
        #expect(!bad.stdout.contains("assimp"))
        // A directory search still picks *.scene.* files only.
        let search = try cli(["validate", "."], cwd: dir)
        #expect(search.status == 2 && search.stdout.contains("no scene file"), "\(search.stdout)\(search.stderr)")
    }

    @Test func badArgumentsExitTwo() throws {
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let jobs = try cli(["validate", scene, "--jobs", "0"])
        #expect(jobs.status == 2)
        #expect(jobs.stderr.contains("--jobs"))
        #expect(try cli(["validate", scene, "--no-such-flag"]).status == 2)
        #expect(try cli(["validate", scene, "--format", "pdf"]).status == 2)
        #expect(try cli(["validate", scene, "--fail-on", "sometimes"]).status == 2)
    }

    @Test func parallelJobsGiveByteIdenticalJSON() throws {
        let dir = TestPaths.repo("Scenes/rules")
        let serial = try cli(["validate", dir, "--format", "json", "--fail-on", "never"])
        let parallel = try cli(["validate", dir, "--format", "json", "--fail-on", "never", "--jobs", "4"])
        #expect(serial.status == 0 && parallel.status == 0, "\(serial.stderr)\(parallel.stderr)")
        #expect(serial.stdout.contains("\"format\": \"spatialcheck-report/1\""))
        #expect(serial.stdout.components(separatedBy: "\"status\": \"checked\"").count > 50)
        #expect(serial.stdout == parallel.stdout)
    }

    @Test func outputFileHoldsTheReport() throws {
        let dir = try tempDir()
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let r = try cli(["validate", scene, "--format", "sarif", "--output", dir + "/out.sarif"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let written = try String(contentsOfFile: dir + "/out.sarif", encoding: .utf8)
        #expect(written.contains("\"version\": \"2.1.0\""))
        #expect(try cli(["validate", scene, "--output", "/nonexistent-dir/x.txt"]).status == 2)
        // -o is the short form: the same bytes as standard output.
        let short = try cli(["validate", scene, "--format", "json", "-o", dir + "/short.json"])
        let stdout = try cli(["validate", scene, "--format", "json"])
        #expect(short.status == 1 && short.stdout.isEmpty)
        #expect(try String(contentsOfFile: dir + "/short.json", encoding: .utf8) == stdout.stdout)
    }

    /// Write a baseline, then: unchanged passes, a worsened value fails, an added violation fails,
    /// a fixed violation is reported as fixed. Fingerprints use the scene path, so the copy keeps its name.
    @Test func baselineFlow() throws {
        let dir = try tempDir()
        let scene = dir + "/player.scene.yaml"
        let original = try String(contentsOfFile: TestPaths.repo("Scenes/media-player.scene.yaml"), encoding: .utf8)
        func edit(_ from: String, _ to: String) throws {
            let text = original.replacingOccurrences(of: from, with: to)
            #expect(text != original, "edit did not apply: \(from)")
            try text.write(toFile: scene, atomically: true, encoding: .utf8)
        }
        try original.write(toFile: scene, atomically: true, encoding: .utf8)
        let write = try cli(["validate", "player.scene.yaml", "--format", "json", "--output", "baseline.json"], cwd: dir)
        #expect(write.status == 1)
        let gate = ["validate", "player.scene.yaml", "--baseline", "baseline.json", "--format", "json"]

        let unchanged = try cli(gate, cwd: dir)
        #expect(unchanged.status == 0, "\(unchanged.stdout)")
        #expect(unchanged.stdout.contains("\"unchanged\": 2"))

        // Back button narrower and closer: its centre is 39 pt from play's instead of 44.
        try edit("{id: back, role: button, frame: [150, 22, 44, 44]", "{id: back, role: button, frame: [160, 22, 34, 44]")
        let worsened = try cli(gate, cwd: dir)
        #expect(worsened.status == 1)
        #expect(worsened.stdout.contains("\"baseline\": \"worsened\""))
        #expect(worsened.stdout.contains("\"worsened\": 1"))

        // Captions toggle moved next to the forward button: a new violation.
        try edit("{id: captions, role: toggle, frame: [380, 22, 60, 44]", "{id: captions, role: toggle, frame: [282, 22, 60, 44]")
        let added = try cli(gate, cwd: dir)
        #expect(added.status == 1)
        #expect(added.stdout.contains("\"baseline\": \"new\""))

        // Forward button moved 60 pt from play: that violation is fixed, nothing else changed.
        try edit("{id: forward, role: button, frame: [238, 22, 44, 44]", "{id: forward, role: button, frame: [254, 22, 44, 44]")
        let fixed = try cli(gate, cwd: dir)
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(fixed.stdout.contains("\"fixed\": 1"))
        #expect(fixed.stdout.contains("\"fixedViolations\": [\n"))
        let text = try cli(["validate", "player.scene.yaml", "--baseline", "baseline.json"], cwd: dir)
        #expect(text.stdout.contains("0 new, 0 worsened, 1 unchanged, 0 improved, 1 fixed"))

        // A baseline that cannot be read is a load error.
        #expect(try cli(["validate", "player.scene.yaml", "--baseline", "nope.json"], cwd: dir).status == 2)
    }

    @Test func reportMergesAndComparesWithABaseline() throws {
        let dir = try tempDir()
        let a = TestPaths.repo("Scenes/media-player.scene.yaml")
        let b = TestPaths.repo("Scenes/rules/boundary-head-exit/fail.scene.yaml")
        #expect(try cli(["validate", a, "--format", "json", "--output", dir + "/a.json"]).status == 1)
        #expect(try cli(["validate", b, "--format", "json", "--output", dir + "/b.json"]).status == 1)
        let merged = try cli(["report", dir + "/a.json", dir + "/b.json", "--format", "json"])
        #expect(merged.status == 1)
        #expect(merged.stdout.contains("media-player.scene.yaml") && merged.stdout.contains("boundary-head-exit/fail.scene.yaml"))
        let summary = try cli(["report", dir + "/a.json", dir + "/b.json"])
        #expect(summary.stdout.hasPrefix("by rule"))
        #expect(summary.stdout.contains("by scene") && summary.stdout.contains("by entity"))
        // Against a baseline holding both, nothing is new.
        let same = try cli(["report", dir + "/a.json", dir + "/b.json", "--baseline", dir + "/a.json", "--format", "json"])
        #expect(same.status == 1, "b's violations are new against a")
        #expect(same.stdout.contains("\"baseline\": \"new\"") && same.stdout.contains("\"baseline\": \"unchanged\""))
        #expect(try cli(["report", dir + "/a.json", "--baseline", dir + "/a.json"]).status == 0)
        #expect(try cli(["report", dir + "/a.json", "--fail-on", "never"]).status == 0)
        #expect(try cli(["report", dir + "/missing.json"]).status == 2)
    }

    @Test func explainUnknownRuleSuggests() throws {
        let r = try cli(["explain", "target-centre-spacing"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean 'target-center-spacing'?"))
        let ok = try cli(["explain", "target-center-spacing"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("Scenes/rules/target-center-spacing/fail.scene.yaml"))
    }

    @Test func rulesMarkdownIsTheReference() throws {
        let r = try cli(["rules", "--format", "markdown"])
        #expect(r.status == 0)
        #expect(r.stdout == (try String(contentsOfFile: TestPaths.repo("docs/rules.md"), encoding: .utf8)),
                "docs/rules.md is stale: run Tools/gen-rule-docs")
    }
}

// MARK: - Running the executable

private struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built `spatialcheck`: SPATIALCHECK_BIN, else next to the test bundle (.build/<config>/), else .build/debug.
private let spatialcheckBinary: String? = {
    let fm = FileManager.default
    if let env = ProcessInfo.processInfo.environment["SPATIALCHECK_BIN"], !env.isEmpty { return env }
    var dirs: [URL] = []
    if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
    dirs.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    dirs.append(Bundle.main.bundleURL)
    dirs.append(Bundle.main.bundleURL.deletingLastPathComponent())
    dirs.append(TestPaths.repoRoot.appendingPathComponent(".build/debug"))
    for d in dirs {
        let p = d.appendingPathComponent("spatialcheck").path
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: p, isDirectory: &isDir), !isDir.boolValue, fm.isExecutableFile(atPath: p) { return p }
    }
    return nil
}()

private struct NoBinary: Error, CustomStringConvertible {
    var description: String { "the spatialcheck executable was not found next to the tests; build it or set SPATIALCHECK_BIN" }
}

/// The harness for other CLI test files (CLI*Tests.swift).
enum CLIHarness {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }
    /// Runs the built `spatialcheck` with NO_COLOR=1, plus `environment` (a nil value removes a variable).
    static func run(_ args: [String], cwd: String? = nil, environment: [String: String?] = [:]) throws -> Result {
        let r = try cli(args, cwd: cwd, environment: environment)
        return Result(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }
    static func binary() throws -> String {
        guard let bin = spatialcheckBinary else { throw NoBinary() }
        return bin
    }
    static func temporaryDirectory() throws -> String { try tempDir() }
}

private func cli(_ args: [String], cwd: String? = nil, environment: [String: String?] = [:]) throws -> CLIResult {
    guard let bin = spatialcheckBinary else { throw NoBinary() }
    let dir = try tempDir()
    let out = dir + "/stdout", err = dir + "/stderr"
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: bin)
    p.arguments = args
    p.currentDirectoryURL = URL(fileURLWithPath: cwd ?? dir)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    env["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the child at once (no backtracer holding its files)
    for (k, v) in environment { env[k] = v }
    p.environment = env
    p.standardInput = FileHandle.nullDevice
    p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try p.run()
    p.waitUntilExit()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    return CLIResult(status: p.terminationStatus,
                     stdout: try String(contentsOfFile: out, encoding: .utf8),
                     stderr: try String(contentsOfFile: err, encoding: .utf8))
}

/// A fresh directory under the system temporary directory.
private func tempDir() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

@Suite struct PathNormalisationTests {
    @Test func oneSpellingPerFile() {
        let cwd = "/repo"
        #expect(SpatialCheck.normalizedPath("./Scenes/a.scene.yaml", relativeTo: cwd) == "Scenes/a.scene.yaml")
        #expect(SpatialCheck.normalizedPath("Scenes//b/../a.scene.yaml", relativeTo: cwd) == "Scenes/a.scene.yaml")
        #expect(SpatialCheck.normalizedPath("/repo/Scenes/a.scene.yaml", relativeTo: cwd) == "Scenes/a.scene.yaml")
        #expect(SpatialCheck.normalizedPath("/elsewhere/x.scene.yaml", relativeTo: cwd) == "/elsewhere/x.scene.yaml")
        #expect(SpatialCheck.normalizedPath("../x.scene.yaml", relativeTo: cwd) == "/x.scene.yaml")
    }
}

/// s27 F6: a monorepo with a per-app `.spatialcheck.yaml` under the repository's own. The app's
/// file makes its folder the scenes' project root; `--root` widens the root for assets too (and
/// keeps the confinement); the asset error names the root and why; a configuration that is not
/// applied to a scene is named on standard error, and reports stay as they were.
@Suite struct CLIMonorepoTests {
    private func monorepo() throws -> TempTree {
        let t = try TempTree("monorepo")
        t.folder(".git")
        t.file(".spatialcheck.yaml", "failOn: error\n")
        t.file("apps/furniture/.spatialcheck.yaml", "failOn: warning\n")
        t.file("assets/tri.obj", "v 0 0 0\nv 0.5 0 0\nv 0 0.5 0\nf 1 2 3\n")
        t.file("apps/furniture/scenes/x.scene.yaml",
               "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: ../../../assets/tri.obj, position: [0, 1.5, -2]}\n")
        return t
    }

    static let note = "./apps/furniture/.spatialcheck.yaml"

    @Test func sharedAssetsNeedTheRepositoryAsRootAndTheErrorSaysSo() throws {
        let t = try monorepo()
        defer { t.remove() }
        let refused = try CLIHarness.run(["validate", "apps/furniture/scenes/x.scene.yaml"], cwd: t.root)
        #expect(refused.status == 2)
        #expect(refused.stdout.contains("apps/furniture/scenes/x.scene.yaml:3:33: error: asset '../../../assets/tri.obj' resolves (after '..' and symbolic links) outside the project root; assets must be inside it\n      hint: the project root is apps/furniture (it holds .spatialcheck.yaml): pass --root . (it holds .spatialcheck.yaml) to load assets from anywhere under it, or move the asset into apps/furniture; --allow-external-assets turns the check off for a trusted scene\n"), "\(refused.stdout)")
        // From the app's folder the root is shown as `.`, the wider one as `../..`.
        let fromApp = try CLIHarness.run(["validate", "scenes/x.scene.yaml"], cwd: t.path("apps/furniture"))
        #expect(fromApp.status == 2)
        #expect(fromApp.stdout.contains("hint: the project root is . (it holds .spatialcheck.yaml): pass --root ../.. (it holds .spatialcheck.yaml) to load assets from anywhere under it, or move the asset into .;"), "\(fromApp.stdout)")

        // --root . loads the shared asset and names the scene from the repository's top.
        let rooted = try CLIHarness.run(["validate", "apps/furniture/scenes/x.scene.yaml", "--root", ".", "--format", "json"], cwd: t.root)
        #expect(rooted.status == 0, "\(rooted.stdout)\(rooted.stderr)")
        #expect(rooted.stdout.contains("\"path\": \"apps/furniture/scenes/x.scene.yaml\""))
        #expect(rooted.stdout.contains("\"status\": \"checked\""))
        // Also for inspect, simulate and bench.
        #expect(try CLIHarness.run(["inspect", "apps/furniture/scenes/x.scene.yaml"], cwd: t.root).status == 2)
        #expect(try CLIHarness.run(["inspect", "apps/furniture/scenes/x.scene.yaml", "--root", "."], cwd: t.root).status == 0)
        #expect(try CLIHarness.run(["simulate", "apps/furniture/scenes/x.scene.yaml", "--root", ".", "--duration", "0.1"], cwd: t.root).status == 0)
        #expect(try CLIHarness.run(["bench", "apps/furniture/scenes/x.scene.yaml", "--root", ".", "--frames", "5"], cwd: t.root).status == 0)

        // The confinement stays: an asset outside --root, or a link out of it, is refused.
        t.file("apps/furniture/scenes/far.scene.yaml",
               "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: ../../../../outside/tri.obj}\n")
        let elsewhere = try TempTree("monorepo-outside")
        defer { elsewhere.remove() }
        elsewhere.file("tri.obj", "v 0 0 0\nv 0.5 0 0\nv 0 0.5 0\nf 1 2 3\n")
        t.link("assets/link.obj", to: elsewhere.path("tri.obj"))
        t.file("apps/furniture/scenes/link.scene.yaml",
               "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: ../../../assets/link.obj}\n")
        let repo = t.path("")
        let far = try CLIHarness.run(["validate", "furniture/scenes/far.scene.yaml", "furniture/scenes/link.scene.yaml", "--root", repo], cwd: t.path("apps"))
        #expect(far.status == 2)
        let hint = "      hint: the project root is .. (given with --root): move the asset into it, or pass --root DIR with a folder that holds both the scene and the asset; --allow-external-assets turns the check off for a trusted scene\n"
        #expect(far.stdout.contains("furniture/scenes/far.scene.yaml:3:33: error: asset '../../../../outside/tri.obj' resolves (after '..' and symbolic links) outside the project root; assets must be inside it\n" + hint), "\(far.stdout)")
        #expect(far.stdout.contains("furniture/scenes/link.scene.yaml:3:33: error: asset '../../../assets/link.obj' resolves (after '..' and symbolic links) outside the project root; assets must be inside it\n" + hint), "\(far.stdout)")
    }

    @Test func aConfigurationNotAppliedToASceneIsNamed() throws {
        let t = try monorepo()
        defer { t.remove() }
        t.file("apps/furniture/scenes/y.scene.yaml", "format: spatialscene/1\nentities: []\n")
        t.file("apps/dataviz/scenes/d.scene.yaml", "format: spatialscene/1\nentities: []\n")
        let args = ["validate", "apps", "--root", ".", "--format", "json"]
        let run = try CLIHarness.run(args, cwd: t.root)
        #expect(run.status == 0)
        #expect(run.stderr.contains("apps/furniture/.spatialcheck.yaml: warning: is not applied to apps/furniture/scenes/x.scene.yaml and 1 more scene under apps/furniture: the run uses ./.spatialcheck.yaml, so this file's failOn and rules do not count there\n    hint: one configuration per run: run from apps/furniture (or pass --config apps/furniture/.spatialcheck.yaml) to check those scenes with it\n"), "\(run.stderr)")
        // One warning per file: the dataviz scenes use the applied configuration.
        #expect(run.stderr.components(separatedBy: "is not applied").count == 2)
        // Without --root the app's folder is still the scenes' root, and the warning says so.
        let plain = try CLIHarness.run(["validate", "apps/furniture/scenes/y.scene.yaml"], cwd: t.root)
        #expect(plain.stderr.contains("apps/furniture/.spatialcheck.yaml: warning: is not applied to apps/furniture/scenes/y.scene.yaml: the run uses ./.spatialcheck.yaml, so this file's failOn and rules do not count there; its folder is still the project root of that scene (report paths, fingerprints, assets)\n    hint: one configuration per run: run from apps/furniture (or pass --config apps/furniture/.spatialcheck.yaml) to check those scenes with it, or pass --root with the repository's top folder to make it every scene's project root\n"), "\(plain.stderr)")
        // --config names the file the run uses.
        let config = try CLIHarness.run(["validate", "apps/furniture/scenes/y.scene.yaml", "--config", ".spatialcheck.yaml"], cwd: t.root)
        #expect(config.stderr.contains("the run uses ./.spatialcheck.yaml (--config), so"), "\(config.stderr)")
        // Run with the app's own configuration: nothing to say.
        let own = try CLIHarness.run(["validate", "scenes/y.scene.yaml"], cwd: t.path("apps/furniture"))
        #expect(!own.stderr.contains("is not applied"), "\(own.stderr)")
        let given = try CLIHarness.run(["validate", "apps/furniture/scenes/y.scene.yaml", "--config", "apps/furniture/.spatialcheck.yaml"], cwd: t.root)
        #expect(!given.stderr.contains("is not applied"), "\(given.stderr)")
        // The report is the same with and without the warning's cause.
        try FileManager.default.removeItem(atPath: t.path("apps/furniture/.spatialcheck.yaml"))
        let without = try CLIHarness.run(args, cwd: t.root)
        #expect(!without.stderr.contains("is not applied"))
        #expect(without.stdout == run.stdout)
    }
}
