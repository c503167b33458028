import Foundation
import Testing
@testable import Reporting
@testable import SpatialCheck

/// A baseline saved with the default `--max-violations` holds every violation's fingerprint,
/// the left-out ones in `omittedViolations[].fingerprints`: the next run of the same scene is all
/// unchanged, and a left-out violation that worsens, appears or goes is seen as such.
@Suite struct BaselineLeftOutTests {
    /// A window with 10 buttons of 44 pt in a row at a 56 pt pitch: each of the 9 neighbouring
    /// pairs has centres 56 pt apart and 12 pt between edges (target-center-spacing: < 60 pt and
    /// < 16 pt); pairs two apart are 112 pt apart. `closer`: the last button's x moves left by that
    /// many points (its pair with b8 gets worse).
    static func scene(buttons: Int = 10, closer: Double = 0) -> String {
        var s = """
            format: spatialscene/1
            name: Row
            duration: 0.1
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [800, 200]
                elements:

            """
        for i in 0..<buttons {
            let x = 20 + 56 * Double(i) - (i == 9 ? closer : 0)
            s += "      - {id: b\(i), role: button, frame: [\(x), 80, 44, 44]}\n"
        }
        return s
    }

    struct Run { var status: Int32; var out: String }
    static func run(_ args: [String], in dir: String) throws -> Run {
        let r = try CLIHarness.run(args, cwd: dir)
        return Run(status: r.status, out: r.stdout + r.stderr)
    }

    static func spacing(_ json: String) throws -> (listed: [String], leftOut: [String]) {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scene = try #require((doc["scenes"] as? [[String: Any]])?.first)
        let listed = ((scene["violations"] as? [[String: Any]]) ?? []).filter { $0["rule"] as? String == "target-center-spacing" }
            .compactMap { $0["fingerprint"] as? String }
        let omitted = ((scene["omittedViolations"] as? [[String: Any]]) ?? []).filter { $0["rule"] as? String == "target-center-spacing" }
        let left = omitted.flatMap { ($0["fingerprints"] as? [[Any]]) ?? [] }.compactMap { $0.first as? String }
        return (listed, left)
    }

    @Test func aBaselineWithLeftOutViolationsGatesTheirChanges() throws {
        let tree = try TempTree("baseline-left-out")
        tree.file(".spatialcheck.yaml", "")
        let path = tree.file("row.scene.yaml", Self.scene())
        let dir = tree.root
        let write = try Self.run(["validate", path, "--format", "json", "--output", "base.json", "--fail-on", "never",
                                  "--max-violations", "2"], in: dir)
        #expect(write.status == 0, "\(write.out)")
        let base = try String(contentsOfFile: tree.path("base.json"), encoding: .utf8)
        let (listed, left) = try Self.spacing(base)
        // 9 pairs: 2 listed, the other 7 left out with their fingerprints.
        #expect(listed.count == 2 && left.count == 7)
        #expect(Set(listed + left).count == 9)

        // The same scene against it: all unchanged, exit 0 (before: 7 new, exit 1).
        let same = try Self.run(["validate", path, "--baseline", "base.json", "--max-violations", "2"], in: dir)
        #expect(same.status == 0, "\(same.out)")
        #expect(same.out.contains("against the baseline: 0 new, 0 worsened"))
        #expect(try Self.run(["report", "base.json", "--baseline", "base.json"], in: dir).status == 0)

        // The b8–b9 pair (left out: its names sort last) moves 6 pt closer: worsened, exit 1.
        let full = try Self.run(["validate", path, "--format", "json", "--max-violations", "0", "--fail-on", "never"], in: dir)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(full.out.utf8)) as? [String: Any])
        let all = try #require((doc["scenes"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]])
        let lastPair = try #require(all.first { ($0["entities"] as? [String]) == ["w/b8", "w/b9"] }?["fingerprint"] as? String)
        #expect(left.contains(lastPair))
        tree.file("row.scene.yaml", Self.scene(closer: 6))
        let worse = try Self.run(["validate", path, "--baseline", "base.json", "--max-violations", "2"], in: dir)
        #expect(worse.status == 1, "\(worse.out)")
        #expect(worse.out.contains("0 new, 1 worsened, 8 unchanged"))
        // The same through saved reports: `report` compares the left-out ones of the current report too.
        _ = try Self.run(["validate", path, "--format", "json", "--output", "now.json", "--fail-on", "never",
                          "--max-violations", "2"], in: dir)
        let merged = try Self.run(["report", "now.json", "--baseline", "base.json"], in: dir)
        #expect(merged.status == 1, "\(merged.out)")
        #expect(merged.out.contains("0 new, 1 worsened, 8 unchanged"))

        // Without the last button its pair is fixed, though the baseline listed it only by fingerprint.
        tree.file("row.scene.yaml", Self.scene(buttons: 9))
        let gone = try Self.run(["validate", path, "--baseline", "base.json", "--max-violations", "2", "--format", "json"], in: dir)
        #expect(gone.status == 0, "\(gone.out)")
        let summary = try #require((try JSONSerialization.jsonObject(with: Data(gone.out.utf8)) as? [String: Any])?["baseline"] as? [String: Any])
        #expect(summary["fixed"] as? Int == 1 && summary["new"] as? Int == 0 && summary["unchanged"] as? Int == 8)
        let fixed = try #require((summary["fixedViolations"] as? [[String: Any]])?.first)
        #expect(fixed["fingerprint"] as? String == lastPair)
    }

    /// A change that fixes a crowded scene lists its baseline's fixed violations like the others:
    /// at most --max-violations of each rule and scene, the rest counted (`fixedNotListed`), in JSON
    /// and SARIF (a 5,000-point chart made non-interactive listed 400,677 fixed results, 265 MB).
    /// The row's 9 spacing pairs, all listed in one baseline and 2 listed + 7 left out in the
    /// other, are all fixed when only one button remains.
    @Test func fixedViolationsAreListedLikeTheOthers() throws {
        let tree = try TempTree("baseline-fixed-limit")
        tree.file(".spatialcheck.yaml", "")
        let path = tree.file("row.scene.yaml", Self.scene())
        let dir = tree.root
        for (name, limit) in [("all.json", "0"), ("two.json", "2")] {
            let w = try Self.run(["validate", path, "--format", "json", "--output", name, "--fail-on", "never", "--max-violations", limit], in: dir)
            #expect(w.status == 0, "\(w.out)")
        }
        tree.file("row.scene.yaml", Self.scene(buttons: 1))
        for base in ["all.json", "two.json"] {
            let r = try Self.run(["validate", path, "--baseline", base, "--format", "json", "--max-violations", "3"], in: dir)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any], "\(r.out)")
            let summary = try #require(doc["baseline"] as? [String: Any])
            #expect(summary["fixed"] as? Int == 9, "\(base)")
            #expect((summary["fixedViolations"] as? [[String: Any]])?.count == 3, "\(base)")
            #expect(summary["fixedNotListed"] as? Int == 6, "\(base)")
            // Unlimited: all nine listed, no count of unlisted ones.
            let all = try Self.run(["validate", path, "--baseline", base, "--format", "json", "--max-violations", "0"], in: dir)
            let allDoc = try #require(try JSONSerialization.jsonObject(with: Data(all.out.utf8)) as? [String: Any])
            let allSummary = try #require(allDoc["baseline"] as? [String: Any])
            #expect((allSummary["fixedViolations"] as? [[String: Any]])?.count == 9 && allSummary["fixedNotListed"] == nil)
            // SARIF: three `absent` results and a notification counting the other six.
            let sarif = try Self.run(["validate", path, "--baseline", base, "--format", "sarif", "--max-violations", "3"], in: dir)
            #expect(sarif.out.components(separatedBy: "\"absent\"").count - 1 == 3, "\(base)")
            #expect(sarif.out.contains("6 more violations of the baseline are fixed and not listed"))
        }
    }

    /// SARIF's result limit counts the fixed (`absent`) results after the violations.
    @Test func sarifLimitLeavesFixedViolationsTheRoomLeft() {
        func violation(_ i: Int) -> ReportViolation {
            ReportViolation(rule: "target-center-spacing", severity: .error, entities: ["w/b\(i)"], spans: [0...0], frameCount: 1,
                            firstTime: 0, lastTime: 0, measured: 1, threshold: 60, unit: "pt_eq", worstFrame: 0, message: "m",
                            help: "", fingerprint: String(format: "%016x", i), location: nil)
        }
        var report = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: [])
        report.scenes = [SceneReport(path: "a.scene.yaml", status: .checked, violations: (0..<3).map(violation))]
        report.fixedInBaseline = (10..<15).map { (scene: "a.scene.yaml", violation: violation($0)) }
        report.fixedNotListed = 1
        SpatialCheck.limitFixed(&report, total: 6)
        #expect(report.fixedInBaseline.map(\.violation.fingerprint) == (10..<13).map { String(format: "%016x", $0) })
        #expect(report.fixedNotListed == 3)
        #expect(report.baselineStatusCounts?[.fixed] == 6)
    }
}
