import Testing
import Foundation
@testable import SpatialCheck

/// `spatialcheck init [--ci github|gitlab]`.
@Suite(.serialized) struct InitCommandTests {
    @Test func theWrittenConfigurationIsTheDefaults() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIHarness.run(["init"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote .spatialcheck.yaml\n")
        let text = try String(contentsOfFile: dir + "/.spatialcheck.yaml", encoding: .utf8)
        // Every rule of the catalog is in it.
        let catalog = try #require(try JSONSerialization.jsonObject(with: Data(try CLIHarness.run(["rules", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let ids = ((catalog["rules"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count >= 25)
        for id in ids { #expect(text.contains("\n  \(id): "), "\(id)") }
        // A stated severity would give all of a rule's findings one severity (the session-18
        // trial: a hit region under 28 pt is an error, under 44 pt a warning; `severity: error`
        // made both errors), so the file states none.
        #expect(!text.contains("{severity:"))
        // Nor a point angle: one in the file overrides each scene's own and an iOS device's.
        #expect(!text.contains("\nunits:"))
        // It loads, and checking with it gives the same report as the built-in defaults on every
        // rule's fail and pass examples (every rule's findings, tiered severities included).
        let scenes = TestPaths.repo("Scenes/rules")
        let with = try CLIHarness.run(["validate", scenes, "--config", dir + "/.spatialcheck.yaml", "--format", "json", "--jobs", "2",
                                       "--max-violations", "0", "--root", TestPaths.repoRoot.path])
        let without = try CLIHarness.run(["validate", scenes, "--format", "json", "--jobs", "2", "--max-violations", "0",
                                          "--root", TestPaths.repoRoot.path])
        #expect(with.stdout.contains("\"severity\": \"warning\"") && with.stdout.contains("\"severity\": \"error\""))
        #expect(with.stderr.isEmpty, "\(with.stderr)")
        #expect(with.stdout == without.stdout)
        #expect(with.status == without.status)
    }

    /// `init --example`: the starter scene loads, has exactly the one finding its comment announces
    /// (play at x 150–194, next at 200–244: centres 172 and 222 pt, 50 pt apart, 6 pt between the
    /// edges), and the fix its comment gives (next at x = 240: centres 90 pt apart) passes.
    @Test func theExampleSceneHasTheOneFindingItsCommentAnnounces() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIHarness.run(["init", "--example"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote example.scene.yaml\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.spatialcheck.yaml"), "the example comes instead of the configuration")
        let path = dir + "/example.scene.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("move `next` to x = 240"))
        let v = try CLIHarness.run(["validate", path, "--format", "json"], cwd: dir)
        #expect(v.status == 1, "\(v.stderr)")
        #expect(v.stderr.isEmpty, "no loader note: \(v.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(v.stdout.utf8)) as? [String: Any])
        let found = ((report["scenes"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]]) ?? []
        #expect(found.count == 1)
        #expect(found.first?["rule"] as? String == "target-center-spacing")
        #expect(found.first?["entities"] as? [String] == ["library/transport/next", "library/transport/play"])
        #expect(abs((found.first?["measured"] as? Double ?? 0) - 50) < 1e-6)
        // Twice never overwrites.
        #expect(try CLIHarness.run(["init", "--example"], cwd: dir).status == 2)
        let fixed = dir + "/fixed.scene.yaml"
        try text.replacingOccurrences(of: "{id: next, role: button, frame: [200,", with: "{id: next, role: button, frame: [240,")
            .write(toFile: fixed, atomically: true, encoding: .utf8)
        let clean = try CLIHarness.run(["validate", fixed], cwd: dir)
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("no violations"))
    }

    /// An existing file is kept and named; the missing ones are written (the s31 trial's F1: a
    /// project that ran `init` earlier adds the workflow later); when all exist, nothing is written.
    @Test func itNeverOverwrites() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "failOn: warning\n".write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let r = try CLIHarness.run(["init", "--ci", "github"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote .github/workflows/spatialcheck.yml\n")
        #expect(r.stderr.contains(".spatialcheck.yaml: warning: already exists and was kept as it is"), "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/.spatialcheck.yaml", encoding: .utf8) == "failOn: warning\n")
        let workflow = dir + "/.github/workflows/spatialcheck.yml"
        #expect(FileManager.default.fileExists(atPath: workflow))
        try "# mine\n".write(toFile: workflow, atomically: true, encoding: .utf8)
        let again = try CLIHarness.run(["init", "--ci", "github"], cwd: dir)
        #expect(again.status == 2)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains(".spatialcheck.yaml: error: already exists") && again.stderr.contains("spatialcheck.yml: error: already exists"),
                "\(again.stderr)")
        #expect(try String(contentsOfFile: workflow, encoding: .utf8) == "# mine\n")
        #expect(try String(contentsOfFile: dir + "/.spatialcheck.yaml", encoding: .utf8) == "failOn: warning\n")
    }

    @Test(.enabled(if: ExternalTool.havePythonModule("yaml")), arguments: ["github", "gitlab"])
    func theWorkflowIsWrittenAndParses(ci: String) throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIHarness.run(["init", "--ci", ci], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let file = ci == "github" ? ".github/workflows/spatialcheck.yml" : ".gitlab-ci.yml"
        #expect(r.stdout == "wrote .spatialcheck.yaml\nwrote \(file)\n")
        let script = """
            import sys, yaml
            d = yaml.safe_load(open(sys.argv[1]))
            if sys.argv[2] == "github":
                steps = d["jobs"]["comfort"]["steps"]
                print([s.get("run", s.get("uses")) for s in steps][-2])
            else:
                print(d["spatialcheck"]["script"][-1])
            """
        let out = try #require(ExternalTool.python(script, args: [dir + "/" + file, ci]))
        #expect(out.status == 0, "\(out.output)")
        #expect(out.output.contains(".build/release/spatialcheck validate . --jobs 2 --quiet $(test -f spatialcheck-baseline.json && echo --baseline spatialcheck-baseline.json)"),
                "\(out.output)")
        #expect(try CLIHarness.run(["init", "--ci", ci], cwd: dir).status == 2)
    }

    // MARK: Where the workflow gets spatialcheck from (s30 trial F13)

    @Test func remoteURLsACIRunnerCanClone() {
        #expect(SpatialCheck.remoteURL("https://github.com/acme/spatialcheck.git") == "https://github.com/acme/spatialcheck.git")
        #expect(SpatialCheck.remoteURL("https://me:ghp_secret@github.com/acme/sc.git") == "https://github.com/acme/sc.git")
        #expect(SpatialCheck.remoteURL("git@github.com:acme/sc.git") == "git@github.com:acme/sc.git")
        #expect(SpatialCheck.remoteURL("ssh://git@gitlab.example.com/acme/sc.git") == "ssh://git@gitlab.example.com/acme/sc.git")
        for local in ["/work/main", "../spatialcheck", "file:///srv/sc.git", "https://github.com/a b", "https://host", "@h:x",
                      "https://github.com/a/b\n  run: curl evil", "git@host:/abs", ""] {
            #expect(SpatialCheck.remoteURL(local) == nil, "\(local)")
        }
    }

    @Test func theSourceIsThisPackageOrTheExecutablesCheckout() throws {
        #expect(SpatialCheck.toolSource(directory: TestPaths.repoRoot.path, executable: nil) == .thisPackage)
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(SpatialCheck.toolSource(directory: dir, executable: nil) == .unknown)
        // A package checkout with a network remote, and an executable built in it.
        let tool = dir + "/tool"
        try FileManager.default.createDirectory(atPath: tool + "/.build/release", withIntermediateDirectories: true)
        try Data("products: [.executable(name: \"spatialcheck\", targets: [\"CLI\"])]\n".utf8).write(to: URL(fileURLWithPath: tool + "/Package.swift"))
        try Data().write(to: URL(fileURLWithPath: tool + "/.build/release/spatialcheck"))
        let app = dir + "/app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        // Not a git checkout: unknown.
        #expect(SpatialCheck.toolSource(directory: app, executable: tool + "/.build/release/spatialcheck") == .unknown)
        // Without a remote: the commit alone.
        for args in [["git", "init", "-q"], ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x"]] {
            #expect(ExternalTool.run(args, in: URL(fileURLWithPath: tool)).status == 0)
        }
        let head = ExternalTool.run(["git", "rev-parse", "HEAD"], in: URL(fileURLWithPath: tool)).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.count == 40)
        #expect(SpatialCheck.toolSource(directory: app, executable: tool + "/.build/release/spatialcheck") == .git(url: nil, revision: head))
        // A local path as origin is no URL a runner can clone: still the commit alone.
        #expect(ExternalTool.run(["git", "remote", "add", "origin", "/srv/sc.git"], in: URL(fileURLWithPath: tool)).status == 0)
        #expect(SpatialCheck.toolSource(directory: app, executable: tool + "/.build/release/spatialcheck") == .git(url: nil, revision: head))
        #expect(ExternalTool.run(["git", "remote", "set-url", "origin", "https://me:tok@example.com/acme/sc.git"], in: URL(fileURLWithPath: tool)).status == 0)
        #expect(SpatialCheck.toolSource(directory: app, executable: tool + "/.build/release/spatialcheck")
                == .git(url: "https://example.com/acme/sc.git", revision: head))
    }

    /// Each source's workflow parses, builds spatialcheck where it says, and runs that build; an
    /// unknown source stops the job with an error that says what to set.
    @Test(.enabled(if: ExternalTool.havePythonModule("yaml")), arguments: SpatialCheck.CIProvider.allCases)
    func theWorkflowBuildsFromItsSource(ci: SpatialCheck.CIProvider) throws {
        let rev = String(repeating: "ab", count: 20)
        let sources: [SpatialCheck.ToolSource] = [.thisPackage, .git(url: "git@github.com:acme/sc.git", revision: rev), .unknown,
                                                  .git(url: nil, revision: rev)]
        let script = """
            import sys, yaml, json
            d = yaml.safe_load(sys.stdin)
            if sys.argv[1] == "github":
                job = d["jobs"]["comfort"]
                steps = [s.get("run", s.get("uses")) for s in job["steps"]]
                print(json.dumps([job.get("env", {}), steps[-3].strip().split("\\n"), steps[-2]]))
            else:
                job = d["spatialcheck"]
                env = {k: v for k, v in job["variables"].items() if k != "DEBIAN_FRONTEND"}
                print(json.dumps([env, job["before_script"][2:], job["script"][-1]]))
            """
        var parsed: [[Any]] = []
        for source in sources {
            let text = ci == .github ? SpatialCheck.githubWorkflow(source) : SpatialCheck.gitlabPipeline(source)
            let out = try #require(ExternalTool.python(script, args: [ci.rawValue], input: text))
            #expect(out.status == 0, "\(out.output)\n\(text)")
            parsed.append(try #require(try JSONSerialization.jsonObject(with: Data(out.output.utf8)) as? [Any]))
        }
        let gate = "validate . --jobs 2 --quiet $(test -f spatialcheck-baseline.json && echo --baseline spatialcheck-baseline.json)"
        // This package: built in place.
        #expect((parsed[0][0] as? [String: String]) == [:])
        #expect((parsed[0][1] as? [String]) == ["swift build -c release --product spatialcheck"])
        #expect((parsed[0][2] as? String) == ".build/release/spatialcheck " + gate)
        // A repository: cloned outside the checkout at the commit, built and run there.
        #expect((parsed[1][0] as? [String: String]) == ["SPATIALCHECK_GIT": "git@github.com:acme/sc.git", "SPATIALCHECK_REF": rev])
        let build = try #require(parsed[1][1] as? [String])
        #expect(build.dropFirst() == ["git clone --quiet \"$SPATIALCHECK_GIT\" /tmp/spatialcheck",
                                      "git -C /tmp/spatialcheck checkout --quiet \"$SPATIALCHECK_REF\"",
                                      "swift build -c release --package-path /tmp/spatialcheck --product spatialcheck"])
        #expect((parsed[1][2] as? String) == "/tmp/spatialcheck/.build/release/spatialcheck " + gate)
        // Unknown: the first build line stops with the error while SPATIALCHECK_GIT is empty.
        let env = try #require(parsed[2][0] as? [String: String])
        #expect(env["SPATIALCHECK_GIT"] == "")
        let guardLine = try #require((parsed[2][1] as? [String])?.first)
        let stop = ExternalTool.run(["env", "SPATIALCHECK_GIT=", "bash", "-c", guardLine])
        #expect(stop.status == 1 && stop.output.contains("error: set SPATIALCHECK_GIT"), "\(stop.output)")
        #expect(ExternalTool.run(["env", "SPATIALCHECK_GIT=x", "bash", "-c", guardLine]).status == 0)
        #expect(env["SPATIALCHECK_REF"] == "main")
        // A checkout without a network remote: the URL to fill in, the commit pinned (s31 trial F4).
        #expect((parsed[3][0] as? [String: String]) == ["SPATIALCHECK_GIT": "", "SPATIALCHECK_REF": rev])
        #expect((parsed[3][1] as? [String])?.first == guardLine)
    }

    /// The generated gate, run as the CI runner would (bash, in the project's folder, with the
    /// package's build at `.build/release`): the starter scene's one violation fails it and is in
    /// its log; after the baseline command its comment gives, it passes; GitHub's annotation step
    /// writes the annotation without failing, and GitLab's job keeps its JUnit report either way
    /// (the s31 trial's F2 and F3: no baseline step, no log).
    @Test(.enabled(if: ExternalTool.havePythonModule("yaml")), arguments: SpatialCheck.CIProvider.allCases)
    func theGeneratedGateRunsAndHonoursABaseline(ci: SpatialCheck.CIProvider) throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/.build/release", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/.build/release/spatialcheck", withDestinationPath: try CLIHarness.binary())
        try SpatialCheck.exampleScene.write(toFile: dir + "/example.scene.yaml", atomically: true, encoding: .utf8)
        let text = ci == .github ? SpatialCheck.githubWorkflow(.thisPackage) : SpatialCheck.gitlabPipeline(.thisPackage)
        let script = """
            import sys, yaml, json
            d = yaml.safe_load(sys.stdin)
            if sys.argv[1] == "github":
                steps = d["jobs"]["comfort"]["steps"]
                print(json.dumps([[s["run"] for s in steps if s.get("id") == "check"], [steps[-1]["run"]], steps[-1]["if"]]))
            else:
                print(json.dumps([d["spatialcheck"]["script"], [], ""]))
            """
        let out = try #require(ExternalTool.python(script, args: [ci.rawValue], input: text))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(out.output.utf8)) as? [Any])
        let gate = try #require(parsed[0] as? [String])
        let annotate = try #require(parsed[1] as? [String])
        func run(_ lines: [String]) -> (status: Int32, output: String) {
            let r = ExternalTool.run(["bash", "-e", "-c", lines.joined(separator: "\n")], in: URL(fileURLWithPath: dir))
            return (r.status, r.output)
        }
        let failing = run(gate)
        #expect(failing.status == 1, "\(failing.output)")
        #expect(failing.output.contains("example.scene.yaml:") && failing.output.contains("[target-center-spacing]"), "\(failing.output)")
        if ci == .gitlab {
            let junit = try String(contentsOfFile: dir + "/spatialcheck-junit.xml", encoding: .utf8)
            #expect(junit.contains("failures=\"1\""), "\(junit)")
        } else {
            #expect(parsed[2] as? String == "${{ failure() && steps.check.outcome == 'failure' }}")
            let notes = run(annotate)
            #expect(notes.status == 0)
            #expect(notes.output.contains("::error file=example.scene.yaml,"), "\(notes.output)")
        }
        // The baseline command of the file's comment, then the gate passes with the one violation known.
        let command = try #require(text.split(separator: "\n").first { $0.hasPrefix("#   spatialcheck validate") })
        let save = run([".build/release/" + command.dropFirst(4)])
        #expect(save.status == 0, "\(save.output)")
        let passing = run(gate)
        #expect(passing.status == 0, "\(passing.output)")
        #expect(passing.output.contains("against the baseline: 0 new, 0 worsened, 1 unchanged"), "\(passing.output)")
        if ci == .gitlab {
            let junit = try String(contentsOfFile: dir + "/spatialcheck-junit.xml", encoding: .utf8)
            #expect(junit.contains("failures=\"0\"") && junit.contains("known: unchanged since the baseline"), "\(junit)")
        }
    }
}
