import Testing
import Foundation
@testable import SpatialCheck
@testable import Reporting
import SpatialModel
import Rules

/// The streamed report writer (`ReportSink`, `ReportFile`, `Report.writeJSON(to:)`,
/// `Report.writeSARIF(rules:to:)`, `Outcome.writeOutput(to:)`): the bytes written to a file equal
/// the committed golden reports and the in-memory rendering (`JSON.serialized()`), a large report
/// passes through the 64 KiB buffer many times unchanged, a failing write is an error naming the
/// output, and an `--output` file is either the whole report or left as it was.
@Suite struct ReportStreamingTests {
    /// Scene names with a golden report (`Scenes/golden/<name>.json`).
    private static let goldenNames: [String] = {
        let dir = TestPaths.repo("Scenes/golden")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    private static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    private static func bytes(_ path: String) throws -> Data {
        try #require(FileManager.default.contents(atPath: path), "\(path) was not written")
    }

    @Test func goldenNamesAreFound() {
        #expect(Self.goldenNames.count >= 12, "expected the golden reports in Scenes/golden, found \(Self.goldenNames)")
    }

    /// Each golden scene validated and streamed to a file through `Outcome.writeOutput(to:)`, as
    /// `validate --format json --output FILE` does: the file equals the committed golden byte for
    /// byte (the goldens were written by the in-memory writer), and so does the string rendering.
    @Test(arguments: goldenNames)
    func streamedReportEqualsGolden(_ name: String) throws {
        if name.hasPrefix("rcp-"), !USDFixtures.available { return }
        let golden = try Self.bytes(TestPaths.repo("Scenes/golden/\(name).json"))
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.failOn = .never
        options.configSearchDirectory = TestPaths.repoRoot.path
        options.root = TestPaths.repoRoot.path
        let outcome = SpatialCheck.validate(paths: [TestPaths.repo("Scenes/\(name).scene.yaml")], options: options)
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/\(name).json"
        try outcome.writeOutput(to: path)
        #expect(try Self.bytes(path) == golden, "streamed report of Scenes/\(name).scene.yaml differs from its golden")
        #expect(Data(outcome.output.utf8) == golden)
        // The golden read back and written again: the in-memory tree and the stream agree.
        let report = try Report.read(path: TestPaths.repo("Scenes/golden/\(name).json"))
        let sink = ReportSink(inMemory: "golden")
        report.writeJSON(to: sink)
        #expect(String(decoding: sink.contents, as: UTF8.self) == report.json().serialized())
    }

    /// A report made here: 3 scenes (one of 6,000 violations with strings that need escaping,
    /// one clean, one that could not be loaded) and a baseline with fixed violations.
    private static func largeReport() -> Report {
        let hostile = [HostileStrings.clearScreen, HostileStrings.nul, HostileStrings.rightToLeftOverride,
                       HostileStrings.separators, "quote \" and \\ backslash", "emoji 🦊 and é"]
        var violations: [ReportViolation] = []
        for i in 0..<6_000 {
            var v = ReportViolation(
                rule: i % 3 == 0 ? "target-spacing" : "text-size", severity: i % 5 == 0 ? .error : .warning,
                entities: ["window/button-\(i)", "window/\(hostile[i % hostile.count])"],
                spans: [0...(i % 90), (i % 90 + 2)...(i % 90 + 7)], frameCount: i % 90 + 7,
                firstTime: Double(i) / 90, lastTime: Double(i) / 90 + 0.5, measured: 40 + Double(i) / 7,
                threshold: 60, unit: "pt", worstFrame: i % 90,
                message: "buttons \(i) are \(40 + i % 20) pt apart: \(hostile[(i + 1) % hostile.count])",
                help: "https://developer.apple.com/design/human-interface-guidelines/eyes",
                fingerprint: String(i * 2_654_435_761, radix: 16), location: SourceLocation(line: i + 1, column: 3),
                borderline: i % 7 == 0)
            if i % 11 == 0 { v.omittedSpans = i }
            if i % 4 == 0 { v.baseline = .new } else if i % 4 == 1 { v.baseline = .unchanged }
            violations.append(v)
        }
        var big = SceneReport(path: "Scenes/crowd \(HostileStrings.bell).scene.yaml", name: "crowd", status: .checked,
                              frameRate: 90, frames: 90, duration: 1, violations: violations,
                              warnings: [Diagnostic(.warning, file: "a.glb", message: "units look like centimetres", hint: "set units")],
                              rulesChecked: ["target-spacing", "text-size"])
        big.omitted = [OmittedViolations(rule: "text-size", severity: .warning, count: 17)]
        let clean = SceneReport(path: "Scenes/clean.scene.yaml", status: .checked, frameRate: 60, frames: 60, duration: 1)
        let broken = SceneReport(path: "Scenes/broken.scene.yaml", status: .error,
                                 errors: [Diagnostic(file: "Scenes/broken.scene.yaml", location: SourceLocation(line: 2, column: 5),
                                                     message: "expected a mapping", hint: "indent the entity")])
        var report = Report(toolVersion: "9.9.9", pointAngle: 0.0671, failOn: .error, scenes: [big, clean, broken])
        report.fixedInBaseline = (0..<40).map { i in (scene: "Scenes/old.scene.yaml", violation: violations[i]) }
        report.notChecked = NotChecked(catalogRules: 3, manualReview: 4)
        return report
    }

    /// The large report streamed to a file: equal to the in-memory rendering, many buffers long,
    /// and a JSON reader finds every violation with its values.
    @Test func largeReportStreamsUnchanged() throws {
        let report = Self.largeReport()
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/large.json"
        try ReportFile.write(path: path) { report.writeJSON(to: $0) }
        let written = try Self.bytes(path)
        #expect(written == Data(report.json().serialized().utf8))
        #expect(written.count > 20 * ReportSink.bufferSize, "the report should fill the buffer many times, was \(written.count) bytes")

        let json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.count == 3)
        let violations = try #require(scenes[0]["violations"] as? [[String: Any]])
        #expect(violations.count == 6_000)
        // Violation 4321: measured 40 + 4321/7 = 657.285714… written with 6 significant digits,
        // entities "window/button-4321" and hostile[4321 % 6 = 1] (the NUL string); 4321 % 11 = 9,
        // so no omitted spans.
        let v = violations[4321]
        #expect(v["measured"] as? Double == 657.286)
        #expect(v["entities"] as? [String] == ["window/button-4321", "window/nul\u{0}byte"])
        #expect(v["omittedSpans"] == nil)
        #expect(violations[4323]["omittedSpans"] as? Int == 4323)  // 4323 = 11 · 393
        #expect(violations[0]["baseline"] as? String == "new")
        #expect((scenes[1]["violations"] as? [Any])?.isEmpty == true)
        #expect((scenes[2]["errors"] as? [[String: Any]])?.first?["hint"] as? String == "indent the entity")
        #expect((json["baseline"] as? [String: Any])?["fixed"] as? Int == 40)
        // Escapes are the lossless JSON ones: NUL and U+2028 never appear raw in the file.
        #expect(!written.contains(0))
        #expect(String(decoding: written, as: UTF8.self).contains("nul\\u0000byte"))
        #expect(!String(decoding: written, as: UTF8.self).contains("\u{2028}"))
    }

    /// SARIF streamed (results built one at a time) equals the in-memory tree's serialization.
    @Test func largeSARIFStreamsUnchanged() throws {
        let report = Self.largeReport()
        let rules = SpatialCheck.ruleDescriptors
        let sink = ReportSink(inMemory: "sarif")
        report.writeSARIF(rules: rules, to: sink)
        let streamed = String(decoding: sink.contents, as: UTF8.self)
        #expect(streamed == report.sarif(rules: rules).serialized())
        let json = try #require(try JSONSerialization.jsonObject(with: Data(streamed.utf8)) as? [String: Any])
        let run = try #require((json["runs"] as? [[String: Any]])?.first)
        // 6,000 results of the scene and 40 `absent` ones for the fixed violations, in that order.
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 6_040)
        #expect(results.last?["baselineState"] as? String == "absent")
        #expect(results.first?["ruleId"] as? String == "target-spacing")
    }

    /// The text report goes out in pieces of about the buffer's size: the same bytes as the whole
    /// string, and its last line is the summary of all 6,000 violations (1,200 errors: i % 5 == 0;
    /// 4,800 warnings; 17 more left out).
    @Test func largeTextStreamsUnchanged() throws {
        let report = Self.largeReport()
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/large.txt"
        try ReportFile.write(path: path) { report.writeText(byRule: true, expand: true, to: $0) }
        let written = try Self.bytes(path)
        let whole = report.text(byRule: true, expand: true)
        #expect(written == Data(whole.utf8))
        #expect(written.count > 20 * ReportSink.bufferSize, "the text should fill the buffer many times, was \(written.count) bytes")
        #expect(whole.hasSuffix("2 scenes checked: 1200 errors, 4817 warnings, 0 info, 1 could not be loaded; against the baseline: 1500 new, 0 worsened, 1500 unchanged, 0 improved, 40 fixed\n"))
    }

    /// A report without violations or scenes keeps the empty-array layout of the in-memory writer.
    @Test func emptyReportMatchesInMemoryLayout() {
        let report = Report(toolVersion: "1.0", pointAngle: 0.0671, failOn: nil, scenes: [])
        let sink = ReportSink(inMemory: "empty")
        report.writeJSON(to: sink)
        let text = String(decoding: sink.contents, as: UTF8.self)
        #expect(text == report.json().serialized())
        #expect(text.contains("\"scenes\": []\n"))
    }

    /// /dev/full accepts the open and fails every write with ENOSPC: the error names the path and
    /// the reason, for a report larger than the buffer (fails mid-way) and a small one (fails when
    /// the last buffer is written).
    @Test(arguments: [2, 6_000])
    func fullDeviceIsAnErrorNamingThePath(violations: Int) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        var report = Self.largeReport()
        report.scenes[0].violations = Array(report.scenes[0].violations.prefix(violations))
        let written = report
        let outcome = SpatialCheck.Outcome(streaming: { written.writeJSON(to: $0) })
        do {
            try outcome.writeOutput(to: "/dev/full")
            Issue.record("writing to /dev/full should fail")
        } catch let d as Diagnostic {
            #expect(d.file == "/dev/full")
            #expect(d.message == "cannot write the report: No space left on device")
            #expect(d.description.hasPrefix("/dev/full: error: cannot write the report"))
        }
    }

    /// A descriptor that is not open: the first flush fails, later writes are dropped, and
    /// `finish()` names the output.
    @Test func descriptorNotOpenIsAnErrorNamingThePath() {
        let sink = ReportSink(fileDescriptor: -1, path: "report.json")
        sink.write(String(repeating: "x", count: 3 * ReportSink.bufferSize))
        sink.write("tail")
        #expect(sink.bytesWritten == 0)
        do {
            try sink.finish()
            Issue.record("a descriptor that is not open should fail")
        } catch {
            #expect(error.file == "report.json")
            #expect(error.message == "cannot write the report: Bad file descriptor")
        }
    }

    /// A failure while the report is written leaves an existing --output file as it was and no
    /// temporary file behind; success replaces it whole and keeps its mode.
    @Test func outputFileIsReplacedOnlyAfterSuccess() throws {
        struct Interrupted: Error {}
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/report.json"
        try Data("old report\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(throws: Interrupted.self) {
            try ReportFile.write(path: path) { sink in
                sink.write(String(repeating: "partial ", count: 100_000))  // 800 kB: flushed to the temporary file
                throw Interrupted()
            }
        }
        #expect(try Self.bytes(path) == Data("old report\n".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["report.json"])

        let report = Self.largeReport()
        try ReportFile.write(path: path) { report.writeJSON(to: $0) }
        #expect(try Self.bytes(path) == Data(report.json().serialized().utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["report.json"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640)
    }

    /// A directory that does not exist, or a directory as the output: an error naming the path.
    @Test func unwritablePathsAreErrorsNamingThePath() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (path, reason) in [(dir + "/missing/r.json", "No such file or directory"), (dir, "it is a directory")] {
            do {
                try ReportFile.write(path: path) { $0.write("{}\n") }
                Issue.record("writing to \(path) should fail")
            } catch let d as Diagnostic {
                #expect(d.file == path)
                #expect(d.message == "cannot write the report: \(reason)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/missing"))
    }

    /// The CLI: `--output /dev/full` exits 2 with the error on standard error; a report to a
    /// file is the same bytes as the report to standard output.
    @Test func cliReportsAWriteFailureAndStreamsToFiles() throws {
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let toFile = try CLIHarness.run(["validate", scene, "--format", "json", "--fail-on", "never", "--output", dir + "/r.json"])
        let toStdout = try CLIHarness.run(["validate", scene, "--format", "json", "--fail-on", "never"])
        #expect(toFile.status == 0 && toStdout.status == 0, "\(toFile.stderr)\(toStdout.stderr)")
        #expect(try String(contentsOfFile: dir + "/r.json", encoding: .utf8) == toStdout.stdout)
        #expect(toStdout.stdout.hasPrefix("{\n  \"format\": \"spatialcheck-report/1\""))
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let full = try CLIHarness.run(["validate", scene, "--format", "json", "--output", "/dev/full"])
        #expect(full.status == 2)
        #expect(full.stderr.contains("/dev/full: error: cannot write the report: No space left on device"), "\(full.stderr)")
    }
}
