import Foundation
import Testing
import Reporting
import SpatialModel
@testable import SpatialCheck

/// A baseline violation that still occurs but an `ignore` entry now leaves out is `suppressed`,
/// not `fixed` (s30 trial F4: text, Markdown and HTML counted it as fixed since the baseline and
/// SARIF marked it absent). The baseline is written from `a/` and `b/` (two 44 pt spacing errors
/// each) without a configuration; then an entry hides a's two.
@Suite(.serialized) struct BaselineSuppressionTests {
    private func run(_ args: [String], cwd: String) throws -> CLIHarness.Result { try CLIHarness.run(args, cwd: cwd) }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(200))")
    }

    @Test func ignoredBaselineViolationsAreSuppressedNotFixed() throws {
        let dir = try IgnoreEntrySceneTests.twoApps(config: "")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = try run(["validate", "a", "b", "--format", "json", "--output", "base.json", "--fail-on", "never"], cwd: dir)
        #expect(saved.status == 0, "\(saved.stderr)")
        let base = try object(try String(contentsOfFile: dir + "/base.json", encoding: .utf8))
        let baseScenes = try #require(base["scenes"] as? [[String: Any]])
        let aPrints = ((baseScenes[0]["violations"] as? [[String: Any]]) ?? []).compactMap { $0["fingerprint"] as? String }
        #expect(aPrints.count == 2)

        // Without an ignore entry nothing changes: no `suppressed` count at all.
        let plain = try run(["validate", "a", "b", "--baseline", "base.json", "--format", "json"], cwd: dir)
        let plainBaseline = try #require(try object(plain.stdout)["baseline"] as? [String: Any])
        #expect(plainBaseline["suppressed"] == nil && plainBaseline["unchanged"] as? Int == 4)

        try """
            ignore:
              - {rule: target-center-spacing, entity: "controls/*", scene: "a/**", reason: reviewed with the designer}

            """.write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let text = try run(["validate", "a", "b", "--baseline", "base.json"], cwd: dir)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasSuffix("2 scenes checked: 2 errors, 0 warnings, 0 info; against the baseline: 0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed, 2 suppressed\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("fixed since the baseline"))

        let json = try run(["validate", "a", "b", "--baseline", "base.json", "--format", "json"], cwd: dir)
        let doc = try object(json.stdout)
        let counts = try #require(doc["baseline"] as? [String: Any])
        #expect(counts["fixed"] as? Int == 0 && counts["suppressed"] as? Int == 2 && counts["unchanged"] as? Int == 2 && counts["new"] as? Int == 0)
        #expect((counts["fixedViolations"] as? [Any])?.isEmpty == true)
        // The ignored violations' fingerprints are a's baseline fingerprints.
        let scenes = try #require(doc["scenes"] as? [[String: Any]])
        let ignored = try #require((scenes[0]["ignored"] as? [[String: Any]])?.first)
        #expect(ignored["fingerprints"] as? [String] == aPrints)

        let md = try run(["validate", "a", "b", "--baseline", "base.json", "--format", "markdown"], cwd: dir).stdout
        #expect(md.contains("**Against the baseline: 0 new, 0 worsened, 2 known, 0 fixed, 2 suppressed.**"), "\(md)")
        #expect(!md.contains("Fixed since the baseline"))
        let html = try run(["validate", "a", "b", "--baseline", "base.json", "--format", "html"], cwd: dir).stdout
        #expect(html.contains("<span class=\"badge badge-fixed\">0 fixed</span> <span class=\"badge badge-known\">2 suppressed</span>"))

        // SARIF: no `absent` result; a's two violations are results suppressed with the entry's reason.
        let sarif = try object(try run(["validate", "a", "b", "--baseline", "base.json", "--format", "sarif"], cwd: dir).stdout)
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]))
        #expect(results.count == 4)
        #expect(!results.contains { $0["baselineState"] as? String == "absent" })
        let suppressed = results.filter { $0["suppressions"] != nil }
        #expect(suppressed.compactMap { ($0["partialFingerprints"] as? [String: Any])?["spatialcheck/v1"] as? String } == aPrints)
        for r in suppressed {
            let s = (r["suppressions"] as? [[String: Any]]) ?? []
            #expect(s.count == 1 && s.first?["kind"] as? String == "external" && s.first?["justification"] as? String == "reviewed with the designer")
            #expect(r["baselineState"] as? String == "unchanged")
            let uri = ((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
                .flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String }
            #expect(uri == "a/player.scene.yaml")
        }

        // `report` compares a saved report the same way (from the ignored entries' fingerprints).
        try json.stdout.write(toFile: dir + "/current.json", atomically: true, encoding: .utf8)
        let again = try run(["report", "current.json", "--baseline", "base.json"], cwd: dir)
        #expect(again.stdout.hasSuffix("against the baseline: 0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed, 2 suppressed\n"), "\(again.stdout)")
    }

    /// SARIF's 25,000-result cap counts the suppressed results last: with room for 3 results, 2
    /// violations and 1 fixed one, none of the 2 suppressed ones stays; with room for 4, one does.
    @Test func suppressedResultsComeLastUnderTheSARIFCap() {
        func violation(_ fp: String) -> ReportViolation {
            ReportViolation(rule: "target-center-spacing", severity: .error, entities: ["c/x", "c/y"], spans: [], frameCount: 1,
                            firstTime: 0, lastTime: 0, measured: 44, threshold: 60, unit: "pt", worstFrame: 0,
                            message: "m", help: "", fingerprint: fp, location: nil)
        }
        func report() -> Report {
            var s = SceneReport(path: "a.scene.yaml", status: .checked, violations: [violation("0000000000000001"), violation("0000000000000002")])
            s.suppressed = [SuppressedViolation(violation: violation("0000000000000003"), reason: "r"),
                            SuppressedViolation(violation: violation("0000000000000004"), reason: "r")]
            var r = Report(toolVersion: "t", pointAngle: Units.defaultPointAngle, failOn: .error, scenes: [s])
            r.fixedInBaseline = [(scene: "a.scene.yaml", violation: violation("0000000000000005"))]
            return r
        }
        var three = report()
        SpatialCheck.limitSuppressed(&three, total: 3)
        #expect(three.scenes[0].suppressed.isEmpty)
        var four = report()
        SpatialCheck.limitSuppressed(&four, total: 4)
        #expect(four.scenes[0].suppressed.map(\.violation.fingerprint) == ["0000000000000003"])
    }
}
