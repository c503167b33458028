import Testing
import Foundation

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

    @Test func itNeverOverwrites() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "failOn: warning\n".write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let r = try CLIHarness.run(["init", "--ci", "github"], cwd: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains(".spatialcheck.yaml: error: already exists"), "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/.spatialcheck.yaml", encoding: .utf8) == "failOn: warning\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/.github"), "nothing written when one file exists")
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
                print([s.get("run", s.get("uses")) for s in steps][-1])
            else:
                print(d["spatialcheck"]["script"][-1])
            """
        let out = try #require(ExternalTool.python(script, args: [dir + "/" + file, ci]))
        #expect(out.status == 0, "\(out.output)")
        #expect(out.output.contains(".build/release/spatialcheck validate . --jobs 2 --format \(ci == "github" ? "github" : "junit")"), "\(out.output)")
        #expect(try CLIHarness.run(["init", "--ci", ci], cwd: dir).status == 2)
    }
}
