import Foundation
import Testing

/// `spatialcheck report`: the gate it applies to merged reports, and merging the same scene twice.
@Suite(.serialized) struct ReportCommandTests {
    /// One warning (depth-min-reading-distance: text read from 0.6 m for 12 s), no error.
    static let warningScene = """
        format: spatialscene/1
        duration: 12
        entities:
          - id: note
            kind: text
            placement: {distance: 0.6, azimuth: 0, elevation: -5}
            fontSize: 17
            string: A long article to read
        """

    /// Writes the scene and its saved report (`--fail-on never`) in a new directory.
    static func savedReport(settings: [String] = []) throws -> (dir: String, report: String) {
        let dir = try CLIHarness.temporaryDirectory()
        try warningScene.write(toFile: dir + "/note.scene.yaml", atomically: true, encoding: .utf8)
        let r = try CLIHarness.run(["validate", "note.scene.yaml", "--fail-on", "never", "--format", "json", "--output", "run.json"] + settings, cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, dir + "/run.json")
    }

    @Test func theGateIsTheConfigurationsFailOnUnlessGiven() throws {
        let (dir, report) = try Self.savedReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // No configuration: error, and the warning does not fail.
        #expect(try CLIHarness.run(["report", report], cwd: dir).status == 0)
        // The project gates at warning: merging its reports keeps that gate, as validate does.
        try "failOn: warning\n".write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        #expect(try CLIHarness.run(["validate", "note.scene.yaml"], cwd: dir).status == 1)
        let gated = try CLIHarness.run(["report", report], cwd: dir)
        #expect(gated.status == 1, "\(gated.stdout)")
        // --fail-on overrides it; --config names another file.
        #expect(try CLIHarness.run(["report", report, "--fail-on", "error"], cwd: dir).status == 0)
        try "failOn: never\n".write(toFile: dir + "/lenient.yaml", atomically: true, encoding: .utf8)
        #expect(try CLIHarness.run(["report", report, "--config", "lenient.yaml"], cwd: dir).status == 0)
        // A broken configuration is an error naming it, as for validate.
        try "failOn: sometimes\n".write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let broken = try CLIHarness.run(["report", report], cwd: dir)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains(".spatialcheck.yaml"), "\(broken.stderr)")
    }

    @Test func aSceneInTwoReportsIsNamedWithBoth() throws {
        let (dir, first) = try Self.savedReport()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let second = dir + "/reduce.json"
        let r = try CLIHarness.run(["validate", "note.scene.yaml", "--setting", "reduceMotion", "--fail-on", "never", "--format", "json", "--output", second], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let merged = try CLIHarness.run(["report", first, second], cwd: dir)
        #expect(merged.stderr.contains("warning: 1 scene is in more than one report: note.scene.yaml (\(first), \(second))"), "\(merged.stderr)")
        #expect(merged.stderr.contains("keeps each scene's result from the last report that has it"))
        // Each report alone: no such warning.
        #expect(try CLIHarness.run(["report", first], cwd: dir).stderr.isEmpty)
    }
}
