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

    /// 20 windows of the same size on one spot, 1 s at 90 Hz (1,800 entity-frames): no window's
    /// image reaches into another's controls band, so win-controls-keepout finds nothing, but each
    /// window tests the 19 others in every frame: 380 pair tests a frame.
    private static let stackedWindows: String = {
        var s = "format: spatialscene/1\nname: Stacked windows\nframeRate: 90\nduration: 1\nentities:\n"
        for i in 0..<20 { s += "  - {id: w\(i), kind: window, position: [0, 1.6, -2], size: [400, 300]}\n" }
        return s
    }()

    @Test func pairTestsPastTheBudgetStopTheScene() throws {
        let path = try write(Self.stackedWindows, name: "stacked-windows.scene.yaml")
        let loaded = try SpatialCheck.loadScene(path: path)
        let engine = RuleEngine(scene: loaded)
        var frames = 0
        Simulator(scene: loaded).run { f in
            if frames < 2 { engine.consume(f) }
            frames += 1
        }
        #expect(engine.pairTests == 2 * 20 * 19)
        // A budget of 2,000 fits the 1,800 entity-frames; frames 0–4 make 1,900 pair tests, frame 5
        // passes 2,000, and the scene stops after it.
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.workBudget = WorkBudget(entityFrames: 2_000)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.status == .checked)
        #expect(scene.stopped == EarlyStop(afterFrame: 5, frames: 90, pairTestBudget: 2_000))
        // Nothing fails the gate, but the scene was not checked to its end: it cannot pass.
        #expect(v.exitCode == .loadError)
        #expect(SpatialCheck.render(v, format: .markdown).contains("**Comfort check failed**"))
        let phrase = "checking stopped after frame 5 of 90: the rules made more pair tests than the work budget of 2,000 (--max-work)"
        for format in ReportFormat.allCases {
            #expect(SpatialCheck.render(v, format: format).contains(phrase), "\(format)")
        }
        // JSON names the budget, not a tracking limit, and `report` reads it back.
        let json = SpatialCheck.render(v, format: .json)
        #expect(json.contains("\"pairTestBudget\": 2000") && !json.contains("trackingLimit"))
        let read = try Report.parse(Data(json.utf8), path: "r.json")
        #expect(read.scenes.first?.stopped == EarlyStop(afterFrame: 5, frames: 90, pairTestBudget: 2_000))
        // Without a budget every frame is checked, and the same scene passes.
        options.workBudget = .unlimited
        let all = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(all.report.scenes.first?.stopped == nil)
        #expect(all.exitCode == .clean)
    }

    @Test func overTheBudgetIsALoadErrorBeforeAnyFrame() throws {
        let path = try write()
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.workBudget = WorkBudget(entityFrames: 10_000)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(v.exitCode == .loadError)
        let scene = try #require(v.report.scenes.first)
        #expect(scene.status == .error)
        let error = try #require(scene.errors.first)
        #expect(error.file == path)
        #expect(error.message == "the scene asks for 27,000 entity-frames (3 entities × 9000 frames); the work budget is 10,000 (--max-work)")
        #expect(error.hint?.contains("--max-work N") == true)
    }

    /// `simulate` writes a row per entity-frame: the same entity-frame budget refuses the scene
    /// before any row is written.
    @Test func simulateKeepsTheEntityFrameBudget() throws {
        let path = try write()
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-budget-trace-\(getpid()).csv").path
        _ = FileManager.default.createFile(atPath: trace, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: trace))
        let over = SpatialCheck.simulate(path: path, format: .csv, budget: WorkBudget(entityFrames: 10_000), to: handle)
        #expect(over.exitCode == .loadError)
        #expect(over.diagnostics.first?.message == "the scene asks for 27,000 entity-frames (3 entities × 9000 frames); the work budget is 10,000 (--max-work)")
        #expect((try? FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) == 0)
        let fits = SpatialCheck.simulate(path: path, format: .csv, budget: WorkBudget(entityFrames: 27_000), to: handle)
        try handle.close()
        #expect(fits.exitCode == .clean)
        #expect((try? FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) ?? 0 > 0)
    }

    @Test func withinTheBudgetTheSceneIsChecked() throws {
        let path = try write()
        var options = SpatialCheck.ValidateOptions()
        options.workBudget = WorkBudget(entityFrames: 27_000)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        #expect(v.report.scenes.first?.status == .checked)
        options.workBudget = .unlimited
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.status == .checked)
        // The default budget (10^9 entity-frames) leaves this scene far inside.
        #expect(WorkBudget().entityFrames == 1_000_000_000)
    }

    @Test func pairChecksHaveTheirOwnBound() {
        // 1,000 interactive entities: 499,500 pairs × 10 frames = 4,995,000 pair checks, over
        // 100 × 20,000; the 10,000 entity-frames are within 20,000.
        let work = WorkBudget.Work(entities: 1_000, frames: 10, interactive: 1_000)
        #expect(work.entityFrames == 10_000)
        #expect(work.pairChecks == 4_995_000)
        let d = WorkBudget(entityFrames: 20_000).check(work, path: "p.scene.yaml")
        #expect(d?.message == "the scene may need up to 4,995,000 pair checks (1000 interactive entities, 499,500 pairs × 10 frames); the budget is 2,000,000 (100 × --max-work)")
        #expect(WorkBudget(entityFrames: 50_000).check(work, path: "p.scene.yaml") == nil)
        #expect(WorkBudget.unlimited.check(work, path: "p.scene.yaml") == nil)
    }
}
