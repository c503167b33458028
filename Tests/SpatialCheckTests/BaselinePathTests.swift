import Testing
import Foundation

/// Baselines do not depend on the working directory or on how a scene's path is spelt: scene paths
/// in reports and fingerprints are relative to the project root (docs/ci.md, "Scene paths and
/// fingerprints"), and baselines written by earlier versions (paths relative to the working
/// directory) still match.
@Suite(.serialized) struct BaselinePathTests {
    private func run(_ args: [String], cwd: String) throws -> CLIHarness.Result { try CLIHarness.run(args, cwd: cwd) }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(200))")
    }

    /// `top/proj/Scenes/a.scene.yaml` (the media player: two 44 pt spacing errors), `marker` in
    /// `proj` (a `.spatialcheck.yaml` or a `.git` folder, or nothing), an empty `top/elsewhere`,
    /// and `top/link` → `proj`.
    private func project(marker: String?) throws -> String {
        let top = try CLIHarness.temporaryDirectory()
        let fm = FileManager.default
        try fm.createDirectory(atPath: top + "/proj/Scenes", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: top + "/elsewhere", withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestPaths.repo("Scenes/media-player.scene.yaml"), toPath: top + "/proj/Scenes/a.scene.yaml")
        switch marker {
        case ".git": try fm.createDirectory(atPath: top + "/proj/.git", withIntermediateDirectories: true)
        case let name?: try "failOn: error\n".write(toFile: top + "/proj/" + name, atomically: true, encoding: .utf8)
        case nil: break
        }
        try fm.createSymbolicLink(atPath: top + "/link", withDestinationPath: top + "/proj")
        return top
    }

    /// The summary line's baseline counts.
    private func counts(_ r: CLIHarness.Result) -> String? {
        r.stdout.split(separator: "\n").last { $0.contains("against the baseline") }.map { String($0.split(separator: ";").last ?? "") }
    }

    /// Two app folders, each with its own `.spatialcheck.yaml` and a scene at the same relative
    /// path: a baseline of the first must not make the second's violations "unchanged" (session
    /// 19's trial: "0 new … 26 unchanged", exit 0). The second is an error scene; `--root` checks both.
    @Test func twoScenesWithOneRootRelativePathAreNotConfused() throws {
        let top = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: top) }
        let fm = FileManager.default
        for app in ["appA", "appB"] {
            try fm.createDirectory(atPath: top + "/" + app, withIntermediateDirectories: true)
            try fm.copyItem(atPath: TestPaths.repo("Scenes/media-player.scene.yaml"), toPath: top + "/\(app)/k.scene.yaml")
            try "failOn: error\n".write(toFile: top + "/\(app)/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        }
        #expect(try run(["validate", "appA/k.scene.yaml", "--format", "json", "--output", "base.json", "--fail-on", "never"], cwd: top).status == 0)
        let both = try run(["validate", "appA/k.scene.yaml", "appB/k.scene.yaml", "--baseline", "base.json"], cwd: top)
        #expect(both.status == 2, "\(both.stdout)")
        #expect(both.stdout.contains("appB/k.scene.yaml") && both.stdout.contains("is also the path of appA/k.scene.yaml"), "\(both.stdout)")
        #expect(both.stdout.contains("--root DIR"))
        // One root: two scenes, two paths; the second's violations are new against the baseline
        // of the first (written with its own root, `k.scene.yaml`, matched by its last components).
        let rooted = try run(["validate", "appA/k.scene.yaml", "appB/k.scene.yaml", "--root", ".", "--format", "json", "--fail-on", "never"], cwd: top)
        let scenes = try #require(try object(rooted.stdout)["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["path"] as? String } == ["appA/k.scene.yaml", "appB/k.scene.yaml"])
        #expect(scenes.allSatisfy { $0["status"] as? String == "checked" })
    }

    @Test(arguments: [".spatialcheck.yaml", ".git", nil] as [String?])
    func aBaselinePassesFromAnotherFolderAndThroughALink(marker: String?) throws {
        let top = try project(marker: marker)
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(try run(["validate", "Scenes", "--format", "json", "--output", "base.json", "--fail-on", "never"], cwd: top + "/proj").status == 0)
        let base = try object(try String(contentsOfFile: top + "/proj/base.json", encoding: .utf8))
        let scenes = try #require(base["scenes"] as? [[String: Any]])
        #expect(scenes.first?["path"] as? String == "Scenes/a.scene.yaml")

        let known = " against the baseline: 0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed"
        let runs: [(args: [String], cwd: String)] = [
            (["validate", "../proj/Scenes/a.scene.yaml", "--baseline", "../proj/base.json"], top + "/elsewhere"),
            (["validate", top + "/link/Scenes", "--baseline", top + "/link/base.json"], top + "/elsewhere"),
            (["validate", "a.scene.yaml", "--baseline", "../base.json"], top + "/link/Scenes"),
            (["validate", "Scenes/../Scenes//a.scene.yaml", "--baseline", "base.json"], top + "/link"),
        ]
        for r in runs {
            let out = try run(r.args, cwd: r.cwd)
            #expect(out.status == 0, "\(r): \(out.stdout)\(out.stderr)")
            #expect(counts(out) == known, "\(r)")
        }
        // With a marker, the JSON report is the same byte for byte from anywhere.
        if marker != nil {
            let again = try run(["validate", top + "/link/Scenes/a.scene.yaml", "--format", "json", "--fail-on", "never"], cwd: top + "/elsewhere")
            #expect(again.stdout == (try String(contentsOfFile: top + "/proj/base.json", encoding: .utf8)))
        }
    }

    /// `--root` sets the root: the path (and so the fingerprint) is relative to it.
    @Test func rootOptionSetsThePaths() throws {
        let top = try project(marker: ".git")
        defer { try? FileManager.default.removeItem(atPath: top) }
        let r = try run(["validate", "proj/Scenes/a.scene.yaml", "--root", "proj/Scenes", "--format", "json", "--fail-on", "never"], cwd: top)
        let scenes = try #require((try object(r.stdout))["scenes"] as? [[String: Any]])
        #expect(scenes.first?["path"] as? String == "a.scene.yaml")
        let fps = Set(((scenes.first?["violations"] as? [[String: Any]]) ?? []).compactMap { $0["fingerprint"] as? String })
        #expect(fps == [fnv(["target-center-spacing", "a.scene.yaml", "controls/back", "controls/play"]),
                        fnv(["target-center-spacing", "a.scene.yaml", "controls/forward", "controls/play"])])
    }

    /// A baseline written by an earlier version from `proj/Scenes`: paths relative to that
    /// working directory, fingerprints hashed from them. It still matches, and nothing is "fixed".
    @Test func anOldBaselineStillMatches() throws {
        let top = try project(marker: ".git")
        defer { try? FileManager.default.removeItem(atPath: top) }
        let now = try run(["validate", "Scenes", "--format", "json", "--fail-on", "never"], cwd: top + "/proj").stdout
        // Rewrite as the old rule wrote it: path "a.scene.yaml" and fingerprints over that path,
        // computed here with FNV-1a written out independently.
        var doc = try object(now)
        var scenes = try #require(doc["scenes"] as? [[String: Any]])
        var vs = try #require(scenes[0]["violations"] as? [[String: Any]])
        #expect(vs.count == 2)
        for i in vs.indices {
            let entities = try #require(vs[i]["entities"] as? [String])
            let oldFP = fnv(["target-center-spacing", "a.scene.yaml"] + entities.sorted())
            #expect(vs[i]["fingerprint"] as? String == fnv(["target-center-spacing", "Scenes/a.scene.yaml"] + entities.sorted()))
            vs[i]["fingerprint"] = oldFP
        }
        scenes[0]["violations"] = vs
        scenes[0]["path"] = "a.scene.yaml"
        doc["scenes"] = scenes
        try JSONSerialization.data(withJSONObject: doc).write(to: URL(fileURLWithPath: top + "/proj/Scenes/old.json"))
        for cwd in [top + "/proj/Scenes", top + "/proj", top + "/elsewhere"] {
            let r = try run(["validate", top + "/proj/Scenes/a.scene.yaml", "--baseline", top + "/proj/Scenes/old.json"], cwd: cwd)
            #expect(r.status == 0, "\(cwd): \(r.stdout)")
            #expect(counts(r) == " against the baseline: 0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed", "\(cwd)")
        }
    }

    /// A new violation is still new when the baseline comes from another folder.
    @Test func aNewViolationIsNewFromAnotherFolder() throws {
        let top = try project(marker: ".spatialcheck.yaml")
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(try run(["validate", "Scenes", "--format", "json", "--output", "base.json", "--fail-on", "never"], cwd: top + "/proj").status == 0)
        try FileManager.default.copyItem(atPath: TestPaths.repo("Scenes/media-player.scene.yaml"), toPath: top + "/proj/Scenes/b.scene.yaml")
        let r = try run(["validate", "../proj/Scenes", "--baseline", "../proj/base.json"], cwd: top + "/elsewhere")
        #expect(r.status == 1)
        #expect(counts(r) == " against the baseline: 2 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed")
    }
}

/// FNV-1a 64-bit over the fields, each followed by the 0x1f separator (docs/reports.md, fingerprints).
func fnv(_ fields: [String]) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for f in fields {
        for b in Array(f.utf8) + [0x1f] { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
