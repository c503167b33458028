import Foundation
import Testing
import Reporting
import SpatialModel
import Rules
@testable import SpatialCheck

/// What a limit left out or cut short is said as it is (session 22 trial F9, F3, F4, F7): SARIF's
/// note names only the limit that applies, a scene stopped at the tracking limit in the middle of
/// a frame gives its counts as lower bounds, a comparison with a baseline of a stopped run says it
/// is partial, and `spatialcheck report` counts every violation in its tables.
@Suite(.serialized) struct LimitNotesTests {
    /// `TrackingLimitTests.scene`: one window with 30 buttons of 44 pt on one spot, 1 s at 90 Hz:
    /// every one of the 30 · 29 / 2 = 435 pairs has its centres 0 pt apart (target-center-spacing)
    /// in every frame.
    private static let scene = TrackingLimitTests.scene
    private static let pairs = 30 * 29 / 2

    private static let dir: String = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-limit-notes-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    private func write(_ text: String = scene, name: String = "stacked.scene.yaml") throws -> String {
        let path = Self.dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func validate(_ path: String, tracked: Int, maxViolations: Int = 0, format: ReportFormat = .json,
                          baseline: String? = nil) -> SpatialCheck.Validation {
        var options = SpatialCheck.ValidateOptions()
        options.format = format
        options.maxViolations = maxViolations
        options.baselinePath = baseline
        options.workBudget = WorkBudget(trackedViolations: tracked)
        return SpatialCheck.runValidation(paths: [path], options: options)
    }

    private func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    // MARK: F9: SARIF's note

    /// The texts of SARIF's run notifications.
    private func sarifNotes(_ r: Report) throws -> [String] {
        let root = try object(r.sarif(rules: []).serialized())
        let runs = try #require(root["runs"] as? [[String: Any]])
        let invocations = try #require(runs.first?["invocations"] as? [[String: Any]])
        let notes = try #require(invocations.first?["toolExecutionNotifications"] as? [[String: Any]])
        return notes.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
    }

    @Test func sarifNoteUnderNoListLimitNamesOnlySARIFsOwnCap() throws {
        // `--max-violations 0 --format sarif`: nothing is left out per rule; SARIF's total limit
        // (here 100, as `validate` applies its 25,000) leaves out the rest.
        let v = validate(try write(), tracked: 0, maxViolations: 0, format: .sarif)
        #expect(v.report.violationLimit == 0)
        var r = v.report
        let all = r.scenes[0].violations.count
        #expect(all >= Self.pairs)
        SpatialCheck.limitViolations(&r, perRule: 0, total: 100)
        let notes = try sarifNotes(r)
        let note = try #require(notes.first { $0.contains("not shown") })
        #expect(note.contains("\(all - 100) more violations not shown"))
        #expect(note.contains("SARIF keeps at most 25,000 results"))
        #expect(!note.contains("Raise the limit with --max-violations"), "the advice is already followed: \(note)")
    }

    @Test func sarifNoteUnderAListLimitStillNamesIt() throws {
        let v = validate(try write(), tracked: 0, maxViolations: 10, format: .sarif)
        #expect(v.report.violationLimit == 10)
        let note = try #require(try sarifNotes(v.report).first { $0.contains("not shown") })
        #expect(note.contains("Raise the limit with --max-violations N (0 = no limit)"))
        #expect(note.contains("SARIF keeps at most 25,000 results"))
        // A report read back does not know the limit its lists were cut with: both are named.
        var unknown = v.report
        unknown.violationLimit = nil
        #expect(try sarifNotes(unknown).contains { $0.contains("Raise the limit with --max-violations N") })
        // The other formats never had SARIF's sentence.
        #expect(OmittedViolations.notShown(v.report.scenes[0].omitted)?.contains("SARIF") == false)
    }

    @Test func reportCommandSARIFOfAnUncutReportNamesOnlySARIFsCap() throws {
        // A saved report that lists every violation (`--max-violations 0`): only SARIF's cap can
        // leave any out when `report --format sarif` renders it.
        let v = validate(try write(), tracked: 0, maxViolations: 0)
        let saved = Self.dir + "/uncut.json"
        try SpatialCheck.render(v, format: .json).write(toFile: saved, atomically: true, encoding: .utf8)
        var read = try Report.read(path: saved)
        #expect(read.violationLimit == nil)
        #expect(read.scenes.allSatisfy { $0.omitted.isEmpty })
        read.violationLimit = SpatialCheck.listLimitOfSavedReports(read)
        #expect(read.violationLimit == 0)
        SpatialCheck.limitViolations(&read, perRule: 0, total: 50)
        let note = try #require(try sarifNotes(read).first { $0.contains("not shown") })
        #expect(!note.contains("--max-violations N"))
        // A saved report with lists cut by its own --max-violations: the limit is not known.
        let cut = validate(try write(), tracked: 0, maxViolations: 10)
        let cutPath = Self.dir + "/cut.json"
        try SpatialCheck.render(cut, format: .json).write(toFile: cutPath, atomically: true, encoding: .utf8)
        #expect(SpatialCheck.listLimitOfSavedReports(try Report.read(path: cutPath)) == nil)
    }
}

extension LimitNotesTests {
    // MARK: F3: counts of a scene stopped in the middle of a frame

    @Test func countsOfAFrameCheckedInPartAreLowerBoundsInEveryFormat() throws {
        let path = try write()
        let whole = validate(path, tracked: 0)
        let cut = validate(path, tracked: 100)
        let stop = try #require(cut.report.scenes.first?.stopped)
        #expect(stop == EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 100))
        #expect(stop.partialFrame)
        // Frame 0 alone has every stacked pair; the stopped run counted only what it tracked.
        let e = cut.report.count(.error), w = cut.report.count(.warning), i = cut.report.count(.info)
        #expect(e + w + i == 100)
        #expect(whole.report.scenes[0].violations.filter { $0.rule == "target-center-spacing" && $0.spans.first?.lowerBound == 0 }.count == Self.pairs)
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(cut, format: format)
            #expect(out.contains("checking stopped in frame 0 of 90: the scene reached 100 distinct violations"), "\(format)")
            #expect(out.contains("frame 0 was checked only in part"), "\(format)")
            #expect(out.contains("lower bound"), "\(format)")
            #expect(out.contains("--max-tracked N"), "\(format)")
            #expect(!out.contains("cover frame 0 only"), "\(format)")
        }
        let text = SpatialCheck.render(cut, format: .text)
        #expect(text.contains("1 scene checked: at least \(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(i) info (lower bounds:"))
        #expect(text.contains("by rule (at least;"))
        let md = SpatialCheck.render(cut, format: .markdown)
        #expect(md.contains("**Comfort check failed**: at least \(e) error"))
        #expect(md.contains("| at least \(e) |"))
        let html = SpatialCheck.render(cut, format: .html)
        #expect(html.contains("<b>≥ \(e)</b>"))
        #expect(html.contains("data-sort=\"\(e)\">≥ \(e)</td>"))
        #expect(html.contains("The counts are lower bounds: 1 scene stopped at the tracking limit in a frame checked only in part."))
        // JSON keeps its numbers and says what they are; `report` reads that back.
        let json = SpatialCheck.render(cut, format: .json)
        let scenes = try #require(try object(json)["scenes"] as? [[String: Any]])
        let summary = try #require(scenes.first?["summary"] as? [String: Any])
        #expect(summary["error"] as? Int == e)
        let stopped = try #require(scenes.first?["stopped"] as? [String: Any])
        #expect(stopped["partialFrame"] as? Bool == true)
        #expect(stopped["countsAreLowerBounds"] as? Bool == true)
        let read = try Report.parse(Data(json.utf8), path: "r.json")
        #expect(read.scenes.first?.stopped?.partialFrame == true)
    }

    @Test func aWorkBudgetStopChecksItsLastFrameWhole() {
        let stop = EarlyStop(afterFrame: 6, frames: 12, pairTestBudget: 1000)
        #expect(!stop.partialFrame)
        #expect(stop.line.contains("the counts and spans cover frames 0–6 only"))
        var s = SceneReport(path: "a.scene.yaml", status: .checked, frames: 12)
        s.stopped = stop
        let r = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: [s])
        #expect(!r.text().contains("at least"))
        #expect(!r.json().serialized().contains("partialFrame"))
    }
}

extension LimitNotesTests {
    // MARK: F4: a comparison with a baseline of a stopped run

    /// A baseline saved from `validate(path, tracked:)` with every violation listed.
    private func saveBaseline(_ path: String, tracked: Int, name: String) throws -> String {
        let out = Self.dir + "/" + name
        try SpatialCheck.render(validate(path, tracked: tracked), format: .json).write(toFile: out, atomically: true, encoding: .utf8)
        return out
    }

    @Test func theBaselineReaderKeepsWhereTheBaselineStopped() throws {
        let path = try write(name: "read-stop.scene.yaml")
        let v = validate(path, tracked: 100)
        let baseline = try saveBaseline(path, tracked: 100, name: "read-stop.json")
        let read = try Report.readBaseline(path: baseline, currentScenePaths: [v.report.scenes[0].path])
        #expect(read.scenes.first?.stopped == EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 100))
        let unstopped = try saveBaseline(path, tracked: 0, name: "read-whole.json")
        #expect(try Report.readBaseline(path: unstopped, currentScenePaths: [v.report.scenes[0].path]).scenes.first?.stopped == nil)
    }

    @Test func violationsAnIncompleteBaselineNeverTrackedAreNewGateAndEveryFormatSaysWhy() throws {
        let path = try write(name: "partial.scene.yaml")
        let whole = validate(path, tracked: 0)
        let total = whole.report.scenes[0].violations.count
        #expect(total > 100)
        let baseline = try saveBaseline(path, tracked: 100, name: "partial-baseline.json")
        // The same scene, checked whole against the baseline that tracked its first 100.
        let v = validate(path, tracked: 0, baseline: baseline)
        let counts = try #require(v.report.baselineStatusCounts)
        #expect(counts[.unchanged] == 100)
        #expect(counts[.new] == total - 100)
        #expect(v.exitCode == .violations, "violations an incomplete baseline never tracked still gate")
        let partial = try #require(v.report.partialComparisons.first)
        #expect(v.report.partialComparisons.count == 1)
        #expect(partial.scene == v.report.scenes[0].path)
        #expect(partial.baselineStop == EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 100))
        #expect(partial.currentStop == nil)
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(v, format: format)
            #expect(out.contains("the comparison with the baseline is partial"), "\(format)")
            #expect(out.contains("the run that saved the baseline stopped at the tracking limit (--max-tracked 100) in frame 0 of 90"), "\(format)")
            #expect(out.contains("raise --max-tracked"), "\(format)")
        }
        let json = try object(SpatialCheck.render(v, format: .json))
        let b = try #require(json["baseline"] as? [String: Any])
        let scenes = try #require(b["partialScenes"] as? [[String: Any]])
        #expect(scenes.count == 1)
        #expect(scenes.first?["scene"] as? String == v.report.scenes[0].path)
        #expect(scenes.first?["baselineStopped"] as? Bool == true)
        #expect(scenes.first?["currentStopped"] as? Bool == false)
        // `spatialcheck report --baseline` says the same.
        let current = Self.dir + "/partial-current.json"
        try SpatialCheck.render(whole, format: .json).write(toFile: current, atomically: true, encoding: .utf8)
        var options = SpatialCheck.ReportOptions()
        options.baselinePath = baseline
        let r = SpatialCheck.report(paths: [current], options: options)
        #expect(r.output.contains("the comparison with the baseline is partial"))
        #expect(r.exitCode == .violations)
    }

    @Test func bothRunsStoppedIsNamedAndACompleteComparisonHasNoNote() throws {
        let path = try write(name: "both.scene.yaml")
        let baseline = try saveBaseline(path, tracked: 100, name: "both-baseline.json")
        let v = validate(path, tracked: 100, baseline: baseline)
        let partial = try #require(v.report.partialComparisons.first)
        #expect(partial.baselineStop != nil && partial.currentStop != nil)
        #expect(partial.line.contains("and this run stopped at the tracking limit (--max-tracked 100) in frame 0 of 90"))
        // Both tracked the same first 100: nothing new, nothing fixed.
        let counts = try #require(v.report.baselineStatusCounts)
        #expect(counts[.unchanged] == 100 && (counts[.new] ?? 0) == 0 && (counts[.fixed] ?? 0) == 0)
        // Neither run stopped: no note.
        let complete = try saveBaseline(path, tracked: 0, name: "both-complete.json")
        let clean = validate(path, tracked: 0, baseline: complete)
        #expect(clean.report.partialComparisons.isEmpty)
        #expect(!SpatialCheck.render(clean, format: .text).contains("partial"))
        #expect(!SpatialCheck.render(clean, format: .json).contains("partialScenes"))
    }

}

extension LimitNotesTests {
    // MARK: F7: `spatialcheck report` tables

    @Test func reportTablesCountTheViolationsLeftOutOfTheLists() throws {
        let path = try write(name: "tables.scene.yaml")
        let whole = validate(path, tracked: 0)
        // Expected per rule and severity, from the run that lists every violation.
        var expected: [String: [Int]] = [:]
        for v in whole.report.scenes[0].violations { expected[v.rule, default: [0, 0, 0]][v.severity.rank] += 1 }
        let listed = validate(path, tracked: 0, maxViolations: 10)
        #expect(listed.report.scenes[0].omittedCount > 0)
        let saved = Self.dir + "/tables.json"
        try SpatialCheck.render(listed, format: .json).write(toFile: saved, atomically: true, encoding: .utf8)
        let summary = try Report.read(path: saved).summary()
        let lines = summary.split(separator: "\n").map(String.init)
        for (rule, c) in expected {
            let row = lines.first { $0.hasPrefix("  \(rule) ") }
            let cells = row?.split(separator: " ").map(String.init) ?? []
            #expect(cells == [rule] + c.map(String.init), "\(rule): \(row ?? "no row")")
        }
        let scenePath = whole.report.scenes[0].path
        let sceneRow = lines.first { $0.hasPrefix("  \(scenePath) ") }?.split(separator: " ").map(String.init)
        let e = whole.report.count(.error), w = whole.report.count(.warning), i = whole.report.count(.info)
        #expect(sceneRow == [scenePath, String(e), String(w), String(i)])
        // The entity table can count only the listed violations, and says so.
        #expect(summary.contains("by entity (listed violations only"))
        // Counts of a scene stopped at the tracking limit are lower bounds: the titles say so.
        let cut = validate(path, tracked: 100)
        let stoppedPath = Self.dir + "/tables-stopped.json"
        try SpatialCheck.render(cut, format: .json).write(toFile: stoppedPath, atomically: true, encoding: .utf8)
        #expect(try Report.read(path: stoppedPath).summary().contains("by rule (at least; a scene stopped at the tracking limit)"))
        #expect(!summary.contains("at least"))
    }
}
