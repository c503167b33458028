import Testing
import Foundation

/// `spatialcheck schema scene|config|report`: every scene in Scenes/ and every golden report
/// validates against the generated schemas (python-jsonschema as the validator, PyYAML to read
/// the YAML), and misspelt keys, unknown enum values and rule ids are rejected.
@Suite(.serialized) struct SchemaTests {
    static let available = ExternalTool.havePythonModule("jsonschema") && ExternalTool.havePythonModule("yaml")

    /// Validates each file (YAML or JSON) against the schema; prints one line per file, "ok" or the error.
    static let validator = """
        import json, sys, yaml, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft7Validator.check_schema(schema)
        v = jsonschema.Draft7Validator(schema)
        for path in sys.argv[2:]:
            text = open(path, encoding="utf-8").read()
            doc = json.loads(text) if path.endswith(".json") else yaml.safe_load(text)
            errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
            print(path + ": " + ("ok" if not errors else errors[0].message + " at " + "/".join(map(str, errors[0].absolute_path))))
        """

    private func schemaFile(_ kind: String, in dir: String) throws -> String {
        let r = try CLIHarness.run(["schema", kind])
        #expect(r.status == 0, "\(r.stderr)")
        let path = dir + "/\(kind).schema.json"
        try r.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func validate(_ kind: String, _ files: [String]) throws -> [String: String] {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schema = try schemaFile(kind, in: dir)
        let r = try #require(ExternalTool.python(Self.validator, args: [schema] + files))
        #expect(r.status == 0, "\(r.output)")
        var out: [String: String] = [:]
        for line in r.output.split(separator: "\n") {
            guard let sep = line.range(of: ": ") else { continue }
            out[String(line[..<sep.lowerBound])] = String(line[sep.upperBound...])
        }
        return out
    }

    private func files(under folder: String, suffixes: [String]) -> [String] {
        let root = TestPaths.repo(folder)
        let found = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return found.filter { f in suffixes.contains { f.hasSuffix($0) } }.sorted().map { root + "/" + $0 }
    }

    @Test(.enabled(if: available)) func everySceneInScenesValidates() throws {
        let scenes = files(under: "Scenes", suffixes: [".scene.yaml", ".scene.yml", ".scene.json"])
        #expect(scenes.count >= 70)
        let results = try validate("scene", scenes)
        #expect(results.count == scenes.count)
        for s in scenes { #expect(results[s] == "ok", "\(s): \(results[s] ?? "not checked")") }
    }

    @Test(.enabled(if: available)) func everyGoldenReportValidates() throws {
        let goldens = files(under: "Scenes/golden", suffixes: [".json"])
        #expect(goldens.count >= 19)
        let results = try validate("report", goldens)
        for g in goldens { #expect(results[g] == "ok", "\(g): \(results[g] ?? "not checked")") }
    }

    @Test(.enabled(if: available)) func reportsWithBaselineAndShardValidate() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        _ = try CLIHarness.run(["validate", scene, "--format", "json", "--output", dir + "/base.json", "--fail-on", "never"])
        _ = try CLIHarness.run(["validate", scene, TestPaths.repo("Scenes/missing.scene.yaml"), "--baseline", dir + "/base.json",
                                "--format", "json", "--output", dir + "/gated.json", "--timestamp"])
        _ = try CLIHarness.run(["validate", scene, "--shard", "1/1", "--format", "json", "--output", dir + "/shard.json"])
        let results = try validate("report", [dir + "/base.json", dir + "/gated.json", dir + "/shard.json"])
        #expect(results.values.allSatisfy { $0 == "ok" }, "\(results)")
    }

    /// A report whose ignore entries (one scoped to a scene) left out baseline violations: its
    /// `ignored[].scene`, `ignored[].fingerprints` and `baseline.suppressed` are in the schema.
    @Test(.enabled(if: available)) func aReportWithSuppressedBaselineViolationsValidates() throws {
        let dir = try IgnoreEntrySceneTests.twoApps(config: "")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try CLIHarness.run(["validate", "a", "b", "--format", "json", "--output", "base.json", "--fail-on", "never"], cwd: dir)
        try "ignore:\n  - {rule: target-center-spacing, entity: \"controls/*\", scene: \"a/**\", reason: reviewed}\n"
            .write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let r = try CLIHarness.run(["validate", "a", "b", "--baseline", "base.json", "--format", "json", "--output", "gated.json"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let gated = try String(contentsOfFile: dir + "/gated.json", encoding: .utf8)
        #expect(gated.contains("\"suppressed\": 2,") && gated.contains("\"scene\": \"a/**\","))
        #expect(try validate("report", [dir + "/gated.json"])[dir + "/gated.json"] == "ok")
        #expect(try validate("config", [dir + "/.spatialcheck.yaml"])[dir + "/.spatialcheck.yaml"] == "ok")
    }

    @Test(.enabled(if: available)) func theConfigurationsValidate() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = dir + "/good.yaml"
        try """
            failOn: warning
            units: {pointAngle: 0.0671}
            rules:
              target-center-spacing: {severity: error, threshold: 60}
              fov-important-centered: off
              type-min-size: warning
            ignore:
              - {rule: depth-min-reading-distance, entity: "hud/*", reason: "brief notification"}
              - {rule: target-center-spacing, entity: "board/**", scene: "apps/game/**", reason: "tabletop game"}
            """.write(toFile: good, atomically: true, encoding: .utf8)
        // The tool accepts it too.
        let check = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player-spaced.scene.yaml"), "--config", good])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try validate("config", [good])[good] == "ok")
    }

    /// A misspelt key, an unknown enum value, a key of another kind and an unknown rule are rejected,
    /// each where it is.
    @Test(.enabled(if: available)) func misspeltKeysAreRejected() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let base = try String(contentsOfFile: TestPaths.repo("Scenes/media-player.scene.yaml"), encoding: .utf8)
        let cases: [(String, String, String)] = [
            ("entites.scene.yaml", base.replacingOccurrences(of: "\nentities:", with: "\nentites:"), "entites"),
            ("elevaton.scene.yaml", base.replacingOccurrences(of: "elevation: -30", with: "elevaton: -30"), "elevaton"),
            ("role.scene.yaml", base.replacingOccurrences(of: "role: button", with: "role: buton"), "buton"),
            ("kindkey.scene.yaml", base.replacingOccurrences(of: "size: [480, 88]", with: "size: [480, 88]\n    asset: x.glb"), "asset"),
        ]
        var paths: [String] = []
        for (name, text, _) in cases {
            #expect(text != base, "\(name): the edit did not apply")
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
            paths.append(dir + "/" + name)
        }
        let results = try validate("scene", paths)
        for ((name, _, word), path) in zip(cases, paths) {
            let r = results[path] ?? "not checked"
            #expect(r != "ok" && r.contains(word), "\(name): \(r)")
            // The loader rejects it too.
            #expect(try CLIHarness.run(["validate", path]).status == 2, "\(name)")
        }
        let config = dir + "/bad.yaml"
        try "rulez:\n  target-center-spacing: off\n".write(toFile: config, atomically: true, encoding: .utf8)
        let rule = dir + "/badrule.yaml"
        try "rules:\n  target-centre-spacing: off\n".write(toFile: rule, atomically: true, encoding: .utf8)
        let param = dir + "/badparam.yaml"
        try "rules:\n  target-center-spacing: {treshold: 60}\n".write(toFile: param, atomically: true, encoding: .utf8)
        let c = try validate("config", [config, rule, param])
        #expect(c[config]?.contains("rulez") == true, "\(c)")
        #expect(c[rule]?.contains("target-centre-spacing") == true, "\(c)")
        #expect(c[param]?.contains("treshold") == true, "\(c)")
    }

    /// Enumerations come from the code: every rule id, and each rule's parameters, are in the
    /// configuration schema.
    @Test func configSchemaListsEveryRuleAndParameter() throws {
        let r = try CLIHarness.run(["schema", "config"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let rules = try #require(((doc["properties"] as? [String: Any])?["rules"] as? [String: Any])?["properties"] as? [String: Any])
        let catalog = try #require(try JSONSerialization.jsonObject(with: Data(try CLIHarness.run(["rules", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let ids = ((catalog["rules"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count >= 25)
        #expect(Set(rules.keys) == Set(ids))
        #expect(try CLIHarness.run(["schema", "scen"]).status == 2)
    }

    /// s26 F13: the `ignore` entity glob's description says what the matcher does (`globMatch`,
    /// `IgnoreEntry.matches`): `*` stays within one segment, and a pair needs both entities to match.
    @Test func configSchemaDescribesIgnoreGlobsAsMatched() throws {
        let r = try CLIHarness.run(["schema", "config"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let ignore = try #require((doc["properties"] as? [String: Any])?["ignore"] as? [String: Any])
        let entity = try #require(((ignore["items"] as? [String: Any])?["properties"] as? [String: Any])?["entity"] as? [String: Any])
        #expect(entity["description"] as? String == "glob over entity paths: * matches within one path segment (never '/'), ** across segments, ? one character; a violation with several entities (a pair) is ignored only when every one of them matches, a whole-scene violation only by *, ** or no entity; starting with '/': the USD prim path of an entity read from USD")
    }

    /// s26 F7: the report schema lists the worsened violation's `baselineMeasured`.
    @Test func reportSchemaListsBaselineMeasured() throws {
        let r = try CLIHarness.run(["schema", "report"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"baselineMeasured\": {\n"))
        #expect(r.stdout.contains("only when baseline is worsened: the baseline violation's measured value, to compare with measured"))
    }

    /// s27 F13: the schemas give the loader's own bounds for units.pointAngle (at least 0.0005,
    /// less than 1) and units.fixedPointSize (0.00001–0.1), so an editor refuses what validate refuses.
    @Test func pointSizeBoundsAreTheLoaders() throws {
        func units(_ kind: String) throws -> [String: Any] {
            let r = try CLIHarness.run(["schema", kind])
            #expect(r.status == 0)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            return try #require(((doc["properties"] as? [String: Any])?["units"] as? [String: Any])?["properties"] as? [String: Any])
        }
        for kind in ["scene", "config"] {
            let angle = try #require(try units(kind)["pointAngle"] as? [String: Any])
            #expect((angle["minimum"] as? NSNumber)?.doubleValue == 0.0005, "\(kind)")
            #expect((angle["exclusiveMaximum"] as? NSNumber)?.doubleValue == 1, "\(kind)")
            #expect(angle["exclusiveMinimum"] == nil, "\(kind)")
            #expect(angle["description"] as? String == "degrees per point, at least 0.0005 and less than 1 degree per point (visionOS: 0.0671)")
        }
        let fixed = try #require(try units("scene")["fixedPointSize"] as? [String: Any])
        #expect((fixed["minimum"] as? NSNumber)?.doubleValue == 0.00001)
        #expect((fixed["maximum"] as? NSNumber)?.doubleValue == 0.1)
        #expect(try units("config")["fixedPointSize"] == nil)
    }

    /// s27 F13: the trial's `units: {pointAngle: 0.0001}` is refused by the schema as by the loader;
    /// the bounds themselves are accepted.
    @Test(.enabled(if: available)) func pointAnglesTheLoaderRefusesFailTheSchema() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var configs: [String] = []
        for (name, value) in [("small", "0.0001"), ("min", "0.0005"), ("one", "1"), ("visionos", "0.0671")] {
            let path = dir + "/\(name).yaml"
            try "units: {pointAngle: \(value)}\n".write(toFile: path, atomically: true, encoding: .utf8)
            configs.append(path)
        }
        let c = try validate("config", configs)
        #expect(c[configs[0]] == "0.0001 is less than the minimum of 0.0005 at units/pointAngle")
        #expect(c[configs[1]] == "ok")
        #expect(c[configs[2]] == "1 is greater than or equal to the maximum of 1.0 at units/pointAngle")
        #expect(c[configs[3]] == "ok")
        let scenes = [("small", "pointAngle: 0.0001"), ("fixed", "fixedPointSize: 0.2"), ("ok", "fixedPointSize: 0.1")].map { name, units in
            (dir + "/\(name).scene.yaml", "format: spatialscene/1\nunits: {\(units)}\n")
        }
        for (path, text) in scenes { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let r = try validate("scene", scenes.map(\.0))
        #expect(r[scenes[0].0] == "0.0001 is less than the minimum of 0.0005 at units/pointAngle")
        #expect(r[scenes[1].0] == "0.2 is greater than the maximum of 0.1 at units/fixedPointSize")
        #expect(r[scenes[2].0] == "ok")
        // The loader agrees.
        #expect(try CLIHarness.run(["validate", scenes[0].0]).status == 2)
        #expect(try CLIHarness.run(["validate", scenes[1].0]).status == 2)
    }
}
