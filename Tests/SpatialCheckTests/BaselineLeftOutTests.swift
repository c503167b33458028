import Foundation
import Testing
@testable import Reporting

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
}
