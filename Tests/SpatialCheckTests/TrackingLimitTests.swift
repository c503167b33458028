import Foundation
import Testing
import Reporting
import Simulation
import SpatialModel
@testable import Rules
@testable import SpatialCheck

/// The tracking limit (`--max-tracked`, `WorkBudget.trackedViolations`): the engine keeps at most
/// that many distinct violations, so memory stays bounded whatever the scene; `validate` stops the
/// scene after the frame in which the limit is reached, and every format says so.
@Suite struct TrackingLimitTests {
    /// One window with 30 buttons of 44 pt on one spot, 1 s at 90 Hz (90 frames): every one of
    /// the 30 · 29 / 2 = 435 pairs has its centres 0 pt apart (target-center-spacing). Also
    /// `LimitNotesTests`' scene.
    static let scene: String = {
        var s = """
            format: spatialscene/1
            name: Stacked buttons
            platform: visionOS
            frameRate: 90
            duration: 1
            entities:
              - id: w
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [1280, 720]
                elements:

            """
        for i in 0..<30 { s += "          - {id: b\(i), role: button, frame: [600, 330, 44, 44]}\n" }
        return s
    }()

    private func write(_ text: String = scene, name: String = "stacked.scene.yaml") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-tracking-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func validate(_ path: String, tracked: Int, format: ReportFormat = .json) -> SpatialCheck.Validation {
        var options = SpatialCheck.ValidateOptions()
        options.format = format
        options.maxViolations = 0
        options.workBudget = WorkBudget(trackedViolations: tracked)
        return SpatialCheck.runValidation(paths: [path], options: options)
    }

    @Test func withoutALimitEveryPairIsTracked() throws {
        let v = validate(try write(), tracked: 0)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.stopped == nil)
        #expect(scene.frames == 90)
        #expect(scene.violations.filter { $0.rule == "target-center-spacing" }.count == 435)
        // Under the default limit the report is the same as without one.
        let byDefault = validate(try write(), tracked: WorkBudget.defaultTrackedViolations)
        #expect(SpatialCheck.render(byDefault, format: .json) == SpatialCheck.render(v, format: .json))
    }

    @Test func theSceneStopsAfterTheFrameThatReachesTheLimit() throws {
        let v = validate(try write(), tracked: 100)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.status == .checked)
        #expect(scene.stopped == EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 100))
        // Exactly the limit is tracked, and every tracked violation is from frame 0.
        #expect(scene.violations.count == 100)
        #expect(scene.violations.allSatisfy { $0.spans == [0...0] })
        // The exit code still fails on what was found.
        #expect(v.exitCode == .violations)
    }

    /// `bench` keeps the same limit (its memory was unbounded: 2,000 buttons on one spot took
    /// 3.6 GB in one frame): it stops after the frame `validate` stops after, and says why.
    @Test func benchStopsWhereValidateStopsAtTheLimit() throws {
        let path = try write()
        var options = SpatialCheck.BenchOptions()
        options.frames = 90
        options.budget = WorkBudget(trackedViolations: 100)
        let r = try SpatialCheck.bench(path: path, options: options)
        #expect(r.stoppedAfterFrame == 0 && r.frames == 1 && r.stoppedByTrackingLimit)
        #expect(r.violations == 100)
        #expect(SpatialCheck.renderBench(r, format: .text).contains(
            "stopped      after frame 0: it reached the most distinct violations one scene may track (--max-tracked)"))
        #expect(SpatialCheck.renderBench(r, format: .json).contains("\"stoppedBy\": \"trackingLimit\""))
        // Without a limit every one of the 435 pairs (and the other rules' findings) over all 90 frames.
        options.budget = WorkBudget(trackedViolations: 0)
        let whole = try SpatialCheck.bench(path: path, options: options)
        #expect(whole.stoppedAfterFrame == nil && whole.frames == 90 && !whole.stoppedByTrackingLimit)
        #expect(whole.violations == validate(path, tracked: 0).report.scenes[0].violations.count)
    }

    @Test func theEngineDropsFindingsPastTheLimit() throws {
        let loaded = try SpatialCheck.loadScene(path: try write())
        let engine = RuleEngine(scene: loaded)
        engine.trackingLimit = 50
        var frames = 0
        Simulator(scene: loaded).run { f in
            if frames < 3 { engine.consume(f) }
            frames += 1
        }
        #expect(engine.trackingLimitReached)
        #expect(engine.aggregateCount == 50)
        #expect(engine.finish().count == 50)
    }

    /// The engine's aggregate keys, in the order the findings first came, when `limit` distinct
    /// violations may be tracked (0 = all), over the scene's first `frames` frames, and the
    /// engine itself (for its processors' counters).
    private func trackedKeys(_ scene: Scene, limit: Int, frames: Int = 2) -> (keys: [FindingKey], engine: RuleEngine) {
        let engine = RuleEngine(scene: scene)
        engine.trackingLimit = limit
        var n = 0
        Simulator(scene: scene).run { f in
            if n < frames { engine.consume(f) }
            n += 1
        }
        return (engine.findingKeys, engine)
    }

    /// A window's own pairs are found once, and no more of them than could be tracked: with a limit
    /// of 100, the analyzer keeps 101 of the 870 findings (435 stacked pairs, each too close and
    /// overlapping), the 101st makes the scene stop, and the violations tracked are the first 100
    /// an unlimited run finds.
    @Test func sameContainerPairsAreKeptUpToTheLimit() throws {
        let loaded = try SpatialCheck.loadScene(path: try write())
        let all = trackedKeys(loaded, limit: 0)
        let pairRules = Set([TargetCenterSpacing.metadata.id, TargetNoOverlap.metadata.id].compactMap { id in
            all.engine.rules.firstIndex { $0.id == id }
        })
        #expect(all.keys.filter { pairRules.contains($0.rule) }.count == 870)
        #expect(all.engine.processor(TargetPairAnalyzer.self)?.staticFindings.count == 870)
        let limited = trackedKeys(loaded, limit: 100)
        #expect(limited.engine.trackingLimitReached)
        #expect(limited.engine.processor(TargetPairAnalyzer.self)?.staticFindings.count == 101)
        #expect(limited.keys == Array(all.keys.prefix(100)))
    }

    /// target-small-in-row keeps no more lined-up pairs than could be tracked (trial s34 F1:
    /// 99,000 small buttons on one spot kept all 4.9 billion pairs, 5.3 GB): 30 small (28 pt)
    /// buttons on one spot are 435 pairs lined up 0 pt apart; with a limit of 100, 101 are kept
    /// and the scene stops.
    @Test func smallButtonsInARowAreKeptUpToTheLimit() throws {
        let small = Self.scene.replacingOccurrences(of: "frame: [600, 330, 44, 44]", with: "frame: [600, 330, 28, 28]")
        let loaded = try SpatialCheck.loadScene(path: try write(small, name: "stacked-small.scene.yaml"))
        let all = trackedKeys(loaded, limit: 0)
        #expect(all.engine.processor(SmallInRowRule.self)?.pairs.count == 435)
        #expect(!all.engine.trackingLimitReached)
        let limited = trackedKeys(loaded, limit: 100)
        #expect(limited.engine.processor(SmallInRowRule.self)?.pairs.count == 101)
        #expect(limited.engine.trackingLimitReached)
    }

    /// 30 one-button windows on one spot are compared in angle (across containers): past the limit
    /// the frame tests no more pairs (each would be new), and the violations tracked are the first
    /// 100 an unlimited run finds.
    /// `count` one-button windows straight ahead, window i at `distance(i)` metres, for one second.
    static func stackedWindows(_ count: Int, name: String, distance: (Int) -> Double) -> String {
        var yaml = """
            format: spatialscene/1
            name: \(name)
            frameRate: 90
            duration: 1
            entities:

            """
        for i in 0..<count {
            yaml += "  - {id: w\(i), kind: window, placement: {distance: \(distance(i)), azimuth: 0, elevation: 0}, size: [100, 100], "
            yaml += "elements: [{id: b, role: button, frame: [28, 28, 44, 44]}]}\n"
        }
        return yaml
    }

    @Test func stackedWindowsStopTestingPairsAtTheLimit() throws {
        let yaml = Self.stackedWindows(30, name: "Stacked windows") { 2 + Double($0) * 0.001 }
        let loaded = try SpatialCheck.loadScene(path: try write(yaml, name: "stacked-windows.scene.yaml"))
        let all = trackedKeys(loaded, limit: 0, frames: 1)
        let spacing = try #require(all.engine.rules.firstIndex { $0.id == TargetCenterSpacing.metadata.id })
        let overlap = try #require(all.engine.rules.firstIndex { $0.id == TargetNoOverlap.metadata.id })
        #expect(all.keys.filter { $0.rule == spacing }.count == 435)
        #expect(all.engine.processor(TargetPairAnalyzer.self)?.angularTests == 435)
        let limited = trackedKeys(loaded, limit: 100, frames: 1)
        #expect(limited.engine.trackingLimitReached)
        #expect(limited.keys == Array(all.keys.prefix(100)))
        // Each pair is too close and overlaps (all within the 0.1 m depth window): two findings a
        // pair. Pairs are tested until one's findings are dropped, and no more.
        let pairKeys = limited.keys.filter { $0.rule == spacing || $0.rule == overlap }.count
        #expect(pairKeys % 2 == 0 && pairKeys > 0)
        #expect(limited.engine.processor(TargetPairAnalyzer.self)?.angularTests == pairKeys / 2 + 1)
    }

    /// 200 one-button windows on one spot straight ahead (as the 50,000 `btn_` nodes of one model
    /// are: each its own group, compared in angle). Their cones wrap past the sphere's column 0,
    /// so the cell that visits their pairs sorts after others they all share: the walk looked at
    /// all 19,900 pairs in each of those cells before visiting any (50,000 nodes: 23 s). Now each
    /// pair is looked at once: the list built in frame 0 visits the 19,900, and the frame tests
    /// the list.
    @Test func stackedContentStraightAheadIsLookedAtOncePerPair() throws {
        let yaml = Self.stackedWindows(200, name: "Stacked windows ahead") { _ in 2 }
        let loaded = try SpatialCheck.loadScene(path: try write(yaml, name: "stacked-ahead.scene.yaml"))
        let run = trackedKeys(loaded, limit: 0, frames: 1)
        let pairs = try #require(run.engine.processor(TargetPairAnalyzer.self))
        #expect(pairs.gridExamined == 200 * 199 / 2)
        // The candidates counted (the work budget's) are every cell each pair shares, as before:
        // the same whole number of cells for every pair, more than one.
        #expect(pairs.gridChecks % (200 * 199 / 2) == 0 && pairs.gridChecks / (200 * 199 / 2) > 1)
        #expect(pairs.angularTests == 200 * 199 / 2)
    }

    /// A window of 30 stacked buttons reaches a limit of 100 with its own pairs, before the angular
    /// pass: no angular pair was tracked, so every pair the pass could test would be dropped, and it
    /// walks none (it walked all 435 of the window's own pairs, which it skips, twice).
    @Test func theAngularPassWalksNothingPastTheLimitOfAWindowsOwnPairs() throws {
        let yaml = Self.scene + """
              - id: v
                kind: window
                placement: {distance: 2.5, azimuth: 40, elevation: 0}
                size: [400, 300]
                elements:
                  - {id: x, role: button, frame: [100, 100, 44, 44]}

            """
        let loaded = try SpatialCheck.loadScene(path: try write(yaml, name: "stacked-and-one.scene.yaml"))
        let all = trackedKeys(loaded, limit: 0, frames: 1)
        let limited = trackedKeys(loaded, limit: 100, frames: 1)
        #expect(limited.engine.trackingLimitReached)
        #expect(limited.keys == Array(all.keys.prefix(100)))
        let unlimited = try #require(all.engine.processor(TargetPairAnalyzer.self))
        #expect(unlimited.gridExamined >= 435)
        let pairs = try #require(limited.engine.processor(TargetPairAnalyzer.self))
        #expect(pairs.staticFindings.count == 101)
        #expect(pairs.gridChecks == 0 && pairs.gridExamined == 0 && pairs.angularTests == 0)
    }

    /// 30 small windows side by side in a large window's controls band (335 window–content
    /// findings of win-controls-keepout in a frame): with a limit of 100 the rule stops testing
    /// pairs once its findings are dropped, and the violations tracked are the first 100 an
    /// unlimited run finds.
    @Test func theKeepoutRuleStopsTestingPairsAtTheLimit() throws {
        var yaml = """
            format: spatialscene/1
            name: Keepout stack
            duration: 1
            entities:
              - {id: main, kind: window, placement: {distance: 2, azimuth: 0, elevation: 0}, size: [1280, 720]}

            """
        for i in 0..<30 { yaml += "  - {id: s\(i), kind: window, position: [\(-0.3 + 0.02 * Double(i)), -0.26, -2], size: [100, 40]}\n" }
        let loaded = try SpatialCheck.loadScene(path: try write(yaml, name: "keepout-stack.scene.yaml"))
        let all = trackedKeys(loaded, limit: 0, frames: 1)
        let keepout = try #require(all.engine.rules.firstIndex { $0.id == "win-controls-keepout" })
        #expect(all.keys.filter { $0.rule == keepout }.count == 335)
        #expect(all.engine.processor(ControlsKeepoutRule.self)?.pairChecks ?? 0 >= 335)
        let limited = trackedKeys(loaded, limit: 100, frames: 1)
        #expect(limited.engine.trackingLimitReached)
        #expect(limited.keys == Array(all.keys.prefix(100)))
        // One finding a pair: the pairs tested are the ones tracked and the one dropped, at most
        // (a pair tested without a finding also counts).
        let tracked = limited.keys.filter { $0.rule == keepout }.count
        let checks = try #require(limited.engine.processor(ControlsKeepoutRule.self)?.pairChecks)
        #expect(tracked > 0 && checks < all.engine.processor(ControlsKeepoutRule.self)?.pairChecks ?? 0)
        #expect(checks >= tracked + 1)
    }

    @Test func everyFormatSaysTheSceneStopped() throws {
        let v = validate(try write(), tracked: 100)
        let phrase = "checking stopped in frame 0 of 90: the scene reached 100 distinct violations"
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(v, format: format)
            #expect(out.contains(phrase), "\(format)")
            #expect(out.contains("--max-tracked N"), "\(format)")
        }
        // JSON carries the numbers, and `report` reads them back.
        let json = SpatialCheck.render(v, format: .json)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scenes = try #require(root["scenes"] as? [[String: Any]])
        let stopped = try #require(scenes.first?["stopped"] as? [String: Any])
        #expect(stopped["afterFrame"] as? Int == 0 && stopped["frames"] as? Int == 90 && stopped["trackingLimit"] as? Int == 100)
        let read = try Report.parse(Data(json.utf8), path: "r.json")
        #expect(read.scenes.first?.stopped == EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 100))
    }
}
