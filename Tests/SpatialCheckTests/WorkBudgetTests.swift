import Foundation
import Testing
import Reporting
import Simulation
@testable import Rules
@testable import SpatialCheck

/// The work budget (`--max-work`): checked after loading and before the first frame; a scene
/// over it is an error naming the scene, the numbers and the option.
@Suite struct WorkBudgetTests {
    /// One window with two buttons (3 entities) for 100 s at 90 Hz: 9,000 frames, 27,000
    /// entity-frames, one interactive pair.
    private static let scene = """
        format: spatialscene/1
        name: Budget
        platform: visionOS
        frameRate: 90
        duration: 100
        entities:
          - id: w
            kind: window
            placement: {distance: 2, azimuth: 0, elevation: 0}
            size: [400, 200]
            elements:
              - {id: a, role: button, frame: [40, 40, 60, 60]}
              - {id: b, role: button, frame: [200, 40, 60, 60]}
        """

    private func write(_ text: String = scene, name: String = "budget.scene.yaml") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-budget-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 20 windows of the same size on one spot: no window's image reaches into another's
    /// controls band, so win-controls-keepout finds nothing, but each window tests the 19 others
    /// in every frame: 380 pair tests a frame.
    private static let stackedWindows: String = {
        var s = "format: spatialscene/1\nname: Stacked windows\nframeRate: 90\nduration: 1\nentities:\n"
        for i in 0..<20 { s += "  - {id: w\(i), kind: window, position: [0, 1.6, -2], size: [400, 300]}\n" }
        return s
    }()

    /// An engine that has consumed the first `n` frames of the scene `text`, and the scene's frames.
    private func engine(_ text: String, name: String, consuming n: Int) throws -> (engine: RuleEngine, frames: Int) {
        let loaded = try SpatialCheck.loadScene(path: try write(text, name: name))
        let engine = RuleEngine(scene: loaded)
        var frames = 0
        Simulator(scene: loaded).run { f in
            if frames < n { engine.consume(f) }
            frames += 1
        }
        return (engine, frames)
    }

    @Test func stackedWindowsTestEveryOtherWindow() throws {
        let engine = try self.engine(Self.stackedWindows, name: "stacked-windows.scene.yaml", consuming: 2).engine
        #expect(engine.pairTests == 2 * 20 * 19)
    }

    /// Two windows whose scale toggles between 1 and 1.3 in every frame, 12 frames. B hangs
    /// 5 cm (about 21 pt at 2 m) below A in A's plane, so each reaches into the other's controls
    /// band (B below A's bottom edge, A above B's top edge) at either scale: every build of
    /// win-controls-keepout's candidate list must keep both pairs. The windows move in every
    /// frame, so no list survives the frame after its build, and the rule pauses the list for
    /// 1, 2, 4 … frames: frame 0 searches (and records the content), 1 builds, 2 searches, 3 builds,
    /// 4–5 search, 6 builds, 7–10 search, 11 builds.
    private static let togglingWindows = togglingWindows(seconds: 1)

    /// `togglingWindows` lasting `seconds` (12 frames a second).
    static func togglingWindows(seconds: Int) -> String {
        """
        format: spatialscene/1
        name: Toggling windows
        frameRate: 12
        duration: \(seconds)
        entities:
          - id: a
            kind: window
            position: [0, 1.6, -2]
            size: [400, 300]
            animation: {loop: true, keyframes: [{t: 0, scale: 1}, {t: 0.0833333, scale: 1.3}, {t: 0.1666667, scale: 1}]}
          - id: b
            kind: window
            position: [0, 1.55, -2]
            size: [400, 300]
            animation: {loop: true, keyframes: [{t: 0, scale: 1}, {t: 0.0833333, scale: 1.3}, {t: 0.1666667, scale: 1}]}
        """
    }

    /// The work of each frame of `togglingWindows`, in instructions, from counts derived by hand:
    /// both windows are visible in front of the eye in every frame, so each frame prepares 2
    /// pieces of content and searches (or bounds) 2 windows; each window's grid walk visits the
    /// 16 corners of the two windows (all in its slab and reach) and finds 2 candidates, itself and
    /// the other. A searching frame gives the other window the exact test (2 tests); a build bounds
    /// both candidates of each window (4), keeps the other window (2 pairs, which a finding in
    /// every frame keeps from being settled) and looks at the 2 listed pairs.
    private static func togglingWork(frame: Int) -> Int {
        typealias K = WorkCost.Keepout
        let builds: Set<Int> = [1, 3, 6, 11]
        var work = 2 * WorkCost.entityFrame + 2 * K.piecePrepared + 2 * K.windowSearch + 32 * K.gridVisit + 4 * K.candidate
        work += builds.contains(frame) ? 4 * K.bounded + 2 * K.kept + 2 * K.listedPair + 2 * K.listedUnsettled : 2 * K.exactTest
        return work
    }

    /// The counts `togglingWork` is made of, after frames 0–3.
    @Test func keepoutCountsItsSearchesAndBuilds() throws {
        let (engine, frames) = try self.engine(Self.togglingWindows, name: "toggling-windows.scene.yaml", consuming: 4)
        #expect(frames == 12)
        let keepout = try #require(engine.processor(ControlsKeepoutRule.self))
        #expect(keepout.listBuilds == 2)
        #expect(keepout.piecesPrepared == 8)
        #expect(keepout.windowSearches == 8)
        #expect(keepout.gridVisits == 4 * 32)
        #expect(keepout.candidatesSorted == 4 * 4)
        #expect(keepout.pairsBounded == 2 * 4)
        #expect(keepout.pairsKept == 2 * 2)
        #expect(keepout.listedChecks == 2 * 2)
        #expect(keepout.settledFindings == 0)
        #expect(keepout.pairChecks - keepout.listedChecks == 2 * 2)
        #expect(engine.work == (0..<4).reduce(0) { $0 + Self.togglingWork(frame: $1) } / WorkCost.unit)
        // Each window covers the other's controls band in every frame.
        #expect(engine.finish().filter { $0.rule == WinControlsKeepout.metadata.id }.count == 1)
    }

    /// A scene whose work is its keepout searches and list builds stops after the frame whose
    /// work passes the budget, although it makes 2 pair tests a frame (the old budget counted
    /// only those: it never stopped it).
    @Test func workPastTheBudgetStopsTheScene() throws {
        let path = try write(Self.togglingWindows, name: "toggling-windows.scene.yaml")
        // Work through frame k, in instructions.
        let through = (0..<12).map { k in (0...k).reduce(0) { $0 + Self.togglingWork(frame: $1) } }
        // One unit less than the work of frames 0–6: frame 6 (a build) passes it.
        let budget = through[6] / WorkCost.unit - 1
        #expect(through[5] / WorkCost.unit <= budget)
        // The 2 entities × 12 frames alone (96 units at 4 a frame) fit: the scene starts.
        #expect(Double(2 * 12) * WorkBudget.unitsPerEntityFrame <= Double(budget))
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.workBudget = WorkBudget(units: budget)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.status == .checked)
        #expect(scene.stopped == EarlyStop(afterFrame: 6, frames: 12, pairTestBudget: budget))
        // A stopped scene is not checked to its end: it cannot pass.
        #expect(v.exitCode == .loadError)
        let phrase = "checking stopped after frame 6 of 12: the scene took more than the work budget of \(budget) units (--max-work"
        for format in ReportFormat.allCases {
            let text = SpatialCheck.render(v, format: format)
            #expect(text.contains(phrase), "\(format)")
            // It says what to do.
            #expect(text.contains("raise the budget with --max-work N"), "\(format)")
        }
        // The totals say they cover only the frames checked (trial s34 F4), in text and Markdown.
        for format in [ReportFormat.text, .markdown] {
            #expect(SpatialCheck.render(v, format: format).contains(" (1 scene stopped early: its counts cover only the frames it checked)"), "\(format)")
        }
        // JSON names the budget, not a tracking limit, and `report` reads it back.
        let json = SpatialCheck.render(v, format: .json)
        #expect(json.contains("\"pairTestBudget\": \(budget)") && !json.contains("trackingLimit"))
        let read = try Report.parse(Data(json.utf8), path: "r.json")
        #expect(read.scenes.first?.stopped == EarlyStop(afterFrame: 6, frames: 12, pairTestBudget: budget))
        // One unit more and frame 6 fits: the scene stops after frame 7, the first to pass it.
        options.workBudget = WorkBudget(units: through[6] / WorkCost.unit)
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.stopped
                == EarlyStop(afterFrame: 7, frames: 12, pairTestBudget: through[6] / WorkCost.unit))
        // With the budget of all 12 frames, or none, every frame is checked.
        options.workBudget = WorkBudget(units: through[11] / WorkCost.unit)
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.stopped == nil)
        options.workBudget = .unlimited
        let all = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(all.report.scenes.first?.stopped == nil)
        #expect(all.report.scenes.first?.violations.count == 1)
    }

    /// `bench` keeps `validate`'s budget: its `--frames` replace the scene's length, so they are
    /// checked up front, and a run stops after the frame `validate` would stop after.
    @Test func benchStopsWhereValidateStops() throws {
        let path = try write(Self.togglingWindows, name: "toggling-windows.scene.yaml")
        let through = (0..<12).map { k in (0...k).reduce(0) { $0 + Self.togglingWork(frame: $1) } }
        var options = SpatialCheck.BenchOptions()
        options.frames = 12
        options.budget = WorkBudget(units: through[6] / WorkCost.unit - 1)
        let r = try SpatialCheck.bench(path: path, options: options)
        #expect(r.stoppedAfterFrame == 6)
        #expect(r.frames == 7)
        #expect(SpatialCheck.renderBench(r, format: .text).contains("stopped      after frame 6: the run passed the work budget (--max-work)"))
        #expect(SpatialCheck.renderBench(r, format: .json).contains("\"stoppedAfterFrame\": 6,"))
        // The budget of all 12 frames: no stop, and JSON says so with a null.
        options.budget = WorkBudget(units: through[11] / WorkCost.unit)
        let whole = try SpatialCheck.bench(path: path, options: options)
        #expect(whole.stoppedAfterFrame == nil && whole.frames == 12)
        #expect(SpatialCheck.renderBench(whole, format: .json).contains("\"stoppedAfterFrame\": null,"))
        // 10,000 frames of its 2 entities at 4 units each (80,000) over a budget of 79,999: refused
        // before the run.
        options.frames = 10_000
        options.budget = WorkBudget(units: 79_999)
        do {
            _ = try SpatialCheck.bench(path: path, options: options)
            Issue.record("bench ran over its budget")
        } catch {
            #expect(error.diagnostics.first?.message.contains("the work budget is 79,999 units (--max-work)") == true,
                    "\(error.diagnostics.map(\.message))")
        }
        options.budget = WorkBudget(units: 80_000)
        options.frames = 1
        #expect(try SpatialCheck.bench(path: path, options: options).frames == 1)
        // Every `--repeat` run counts (trial s34 F6: --repeat 1000 ran 1,000 times a scene the
        // budget let through once): 10,000 frames fit 80,000 units, three runs of them do not.
        // The hint names bench's own options (F5: it named validate's --duration).
        options.frames = 10_000
        options.repeats = 3
        do {
            _ = try SpatialCheck.bench(path: path, options: options)
            Issue.record("bench ran its repeats over the budget")
        } catch {
            let d = error.diagnostics.first
            #expect(d?.message.contains("240,000 units of work (2 entities × 10000 frames × 3 runs, 4 units each)") == true,
                    "\(error.diagnostics.map(\.message))")
            #expect(d?.hint == "ask for fewer frames with --frames N or fewer runs with --repeat N, or raise the budget with --max-work N (0 = no limit)")
        }
        options.frames = 1
        #expect(try SpatialCheck.bench(path: path, options: options).runs.count == 3)
    }

    @Test func overTheBudgetIsALoadErrorBeforeAnyFrame() throws {
        let path = try write()
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.workBudget = WorkBudget(units: 10_000)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(v.exitCode == .loadError)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.status == .error)
        let error = try #require(scene.errors.first)
        #expect(error.file == path)
        #expect(error.message == "the scene asks for at least 108,000 units of work (3 entities × 9000 frames, 4 units each); the work budget is 10,000 units (--max-work)")
        #expect(error.hint?.contains("--max-work N") == true)
        // It loaded: the reports head it as what it is, not "could not be loaded" (trial s19 F8b).
        #expect(scene.isOverWorkBudget)
        let text = SpatialCheck.render(v, format: .text)
        #expect(text.contains("  not checked: over the work budget\n") && !text.contains("could not be loaded"))
        #expect(text.contains("no scene checked: 1 not checked (over the work budget)"))
        let md = SpatialCheck.render(v, format: .markdown)
        #expect(md.contains("| not checked: over the work budget |") && md.contains(", 1 scene not checked (over the work budget)."))
        #expect(!md.contains("could not be loaded"))
        let html = SpatialCheck.render(v, format: .html)
        #expect(html.contains(">not checked: over the work budget</span>") && html.contains("; 1 not checked (over the work budget)"))
        #expect(!html.lowercased().contains("could not be loaded"))
        // A scene that could not be loaded keeps its heading.
        let missing = SpatialCheck.runValidation(paths: [path + ".missing.scene.yaml"], options: options)
        #expect(SpatialCheck.render(missing, format: .text).contains("could not be loaded"))
    }

    /// `simulate` writes a row per entity-frame: the same entity-frame budget refuses the scene
    /// before any row is written.
    @Test func simulateKeepsTheEntityFrameBudget() throws {
        let path = try write()
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-budget-trace-\(getpid()).csv").path
        _ = FileManager.default.createFile(atPath: trace, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: trace))
        let over = SpatialCheck.simulate(path: path, format: .csv, budget: WorkBudget(units: 10_000), to: handle)
        #expect(over.exitCode == .loadError)
        #expect(over.diagnostics.first?.message == "the scene asks for 27,000 entity-frames (3 entities × 9000 frames); the work budget is 10,000 (--max-work)")
        #expect((try? FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) == 0)
        let fits = SpatialCheck.simulate(path: path, format: .csv, budget: WorkBudget(units: 27_000), to: handle)
        try handle.close()
        #expect(fits.exitCode == .clean)
        #expect((try? FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0 > 0)
    }

    @Test func withinTheBudgetTheSceneIsChecked() throws {
        let path = try write()
        var options = SpatialCheck.ValidateOptions()
        // 27,000 entity-frames at 4 units each.
        options.workBudget = WorkBudget(units: 108_000)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(v.report.scenes.first?.status == .checked)
        options.workBudget = WorkBudget(units: 107_999)
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.status == .error)
        options.workBudget = .unlimited
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.status == .checked)
        // The default budget (10^9 units) leaves this scene far inside.
        #expect(WorkBudget().units == 1_000_000_000)
    }

    @Test func interactivePairsAreNotRefusedUpFront() throws {
        // The session 14 trial's scene: 1,000 still windows of 10 buttons, 30 s at 90 Hz. Its
        // 27,000,000 entity-frames cost 108,000,000 units, inside the default 10^9, so it is
        // checked; every interactive pair in every frame would have been 49,995,000 × 2,700 =
        // 1.35 × 10^11 "pair checks", which the up-front bound of sessions 9–13 refused.
        let work = WorkBudget.Work(entities: 10_000, frames: 2_700)
        #expect(work.units == 108_000_000)
        #expect(WorkBudget().check(work, path: "p.scene.yaml") == nil)
        // 250,000,000 entity-frames are the default's limit: one frame more is refused.
        #expect(WorkBudget().check(WorkBudget.Work(entities: 10_000, frames: 25_000), path: "p.scene.yaml") == nil)
        let over = try #require(WorkBudget().check(WorkBudget.Work(entities: 10_000, frames: 25_001), path: "p.scene.yaml"))
        #expect(over.message.hasPrefix("the scene asks for at least 1,000,040,000 units of work (10000 entities × 25001 frames"))
    }

    @Test func manyWellSpacedButtonsAreChecked() throws {
        // 1,000 buttons 100 pt apart in one window, 10 frames: 10,010 entity-frames (40,040
        // units) and 499,500 interactive pairs × 10 frames. With 49,000 units the old up-front
        // bound (100 × 49,000 = 4,900,000 < 4,995,000 pair checks) refused the scene; the pairs
        // the grid really visits and tests cost far less, so it is checked to its end.
        var text = "format: spatialscene/1\nname: Grid\nframeRate: 10\nduration: 1\nentities:\n"
        text += "  - id: w\n    kind: window\n    placement: {distance: 10, azimuth: 0, elevation: 0}\n    size: [4000, 2500]\n    elements:\n"
        for i in 0..<1_000 {
            text += "      - {id: b\(i), role: button, frame: [\(20 + 100 * (i % 40)), \(20 + 100 * (i / 40)), 60, 60]}\n"
        }
        var options = SpatialCheck.ValidateOptions()
        options.workBudget = WorkBudget(units: 49_000)
        let scene = try #require(SpatialCheck.runValidation(paths: [try write(text, name: "grid.scene.yaml")], options: options).report.scenes.first)
        #expect(scene.status == .checked)
        #expect(scene.stopped == nil)
        #expect(scene.frames == 10)
    }
}
