import Foundation
import Testing
import Reporting
import Simulation
@testable import Rules
@testable import SpatialCheck

/// `WorkProjection`: a scene whose steady frames project its whole work well over the budget stops
/// after a few frames, saying the projection and the `--max-work` that would check it whole; a
/// still scene that pays nearly everything in frame 0 and finishes within the budget is not
/// stopped; what the projection cannot see still stops when the work counted passes the budget.
@Suite struct WorkProjectionTests {
    private func write(_ text: String, name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-projection-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The work counted after each frame of the scene at `path` (`RuleEngine.work`), every frame.
    private func workAfterEachFrame(_ path: String) throws -> [Int] {
        let scene = try SpatialCheck.loadScene(path: path)
        let engine = RuleEngine(scene: scene)
        var work: [Int] = []
        Simulator(scene: scene).run { f in
            engine.consume(f)
            work.append(engine.work)
        }
        return work
    }

    /// Two windows whose scale toggles in every frame, each reaching into the other's controls
    /// band (WorkBudgetTests' toggling windows), for 100 s at 12 Hz: the same work in frame after
    /// frame, 1,200 frames.
    private static let movingWindows = WorkBudgetTests.togglingWindows(seconds: 100)

    /// The projection `WorkProjection` makes after `done` frames from the window of the frames
    /// since `from` frames, by its documented formula.
    private func projected(_ w: [Int], done: Int, from: Int) -> Double {
        let rate = Double(w[done - 1] - w[from - 1]) / Double(done - from)
        return Double(w[done - 1]) + rate * Double(w.count - done)
    }

    @Test func aMovingSceneOverTheBudgetStopsEarlyWithItsProjection() throws {
        let path = try write(Self.movingWindows, name: "moving.scene.yaml")
        let w = try workAfterEachFrame(path)
        #expect(w.count == 1_200)
        // Half of what the whole scene takes: the old rule stopped it after about 600 frames.
        let budget = w[1_199] / 2
        // After 16 and after 32 frames the projection is over 1.25 × the budget: it stops after frame 31.
        #expect(projected(w, done: 16, from: 8) > 1.25 * Double(budget))
        #expect(projected(w, done: 32, from: 16) > 1.25 * Double(budget))
        let units = projected(w, done: 32, from: 16)
        let rate = Double(w[31] - w[15]) / 16
        var options = SpatialCheck.ValidateOptions()
        options.workBudget = WorkBudget(units: budget)
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        let scene = try #require(v.report.scenes.first)
        let stop = try #require(scene.stopped)
        #expect(stop.afterFrame == 31 && stop.frames == 1_200 && stop.pairTestBudget == budget)
        let p = try #require(stop.projection)
        #expect(p.window == 16...31)
        #expect(p.rate == Int(rate.rounded()))
        #expect(p.units == Int(units.rounded()))
        #expect(p.suggestedBudget == WorkProjection.suggestedBudget(p.units))
        #expect(p.suggestedBudget >= p.units)
        // Not checked to its end: it cannot pass.
        #expect(v.exitCode == .loadError)
        let n = { (x: Int) in groupedThousands(Int64(x)) }
        let phrase = "checking stopped after frame 31 of 1200, before the work budget was spent: frames 16–31 took \(n(p.rate)) units of work each, "
            + "so all 1,200 frames would take about \(n(p.units)) units, more than the work budget of \(n(budget)) units (--max-work"
        for format in ReportFormat.allCases {
            let text = SpatialCheck.render(v, format: format)
            #expect(text.contains(phrase), "\(format)")
            #expect(text.contains("check it whole with --max-work \(n(p.suggestedBudget)) (0 = no limit)"), "\(format)")
        }
        // JSON carries the projection, and `report` reads it back.
        let json = SpatialCheck.render(v, format: .json)
        #expect(json.contains("\"projectedWork\": \(p.units)"))
        let read = try Report.parse(Data(json.utf8), path: "r.json")
        #expect(read.scenes.first?.stopped == stop)
        // With the suggested budget the scene is checked whole.
        options.workBudget = WorkBudget(units: p.suggestedBudget)
        #expect(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first?.stopped == nil)
        // `bench` stops after the same frame and says why.
        var bench = SpatialCheck.BenchOptions()
        bench.frames = 1_200
        bench.budget = WorkBudget(units: budget)
        let r = try SpatialCheck.bench(path: path, options: bench)
        #expect(r.stoppedAfterFrame == 31 && r.projection?.units == p.units)
        #expect(SpatialCheck.renderBench(r, format: .json).contains("\"stoppedBy\": \"workProjection\""))
        #expect(SpatialCheck.renderBench(r, format: .json).contains("\"projectedWork\": \(p.units)"))
        #expect(SpatialCheck.renderBench(r, format: .text).contains("stopped      after frame 31: frames 16–31 took \(n(p.rate)) work units each"))
    }

    /// 30 volumes stacked on one spot in front of a still viewer, 10 s at 90 Hz: frame 0 tests
    /// every pair, the frames after it repeat its findings. With the whole scene's work as the
    /// budget it is checked to its end, although frame 0's work times the frames is far over it.
    @Test func aStillCrowdedSceneWithinTheBudgetIsNotStopped() throws {
        var text = "format: spatialscene/1\nname: Still stack\nframeRate: 90\nduration: 10\nentities:\n"
        for i in 0..<30 {
            text += "  - {id: v\(i), kind: volume, interactive: true, position: [\(Double(i) * 0.01), 1.6, -2], size: [0.1, 0.1, 0.1]}\n"
        }
        let path = try write(text, name: "still.scene.yaml")
        let w = try workAfterEachFrame(path)
        #expect(w.count == 900)
        let budget = w[899]
        // Frame 0 alone, projected over every frame, would be far over the budget.
        #expect(Double(w[0]) * 900 > 2 * Double(budget))
        var options = SpatialCheck.ValidateOptions()
        options.workBudget = WorkBudget(units: budget)
        let scene = try #require(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first)
        #expect(scene.status == .checked)
        #expect(scene.stopped == nil)
        #expect(scene.frames == 900)
    }

    /// 40 windows on one spot whose scale toggles in every frame, hidden until t = 90 s (frame
    /// 1,080) of 100 s at 12 Hz: before that only the entities count, so the projection sees a
    /// cheap scene; once they show, each searches the 39 others in every frame, and the work
    /// counted stops the scene after the frame that passes the budget, without a projection.
    @Test func whatTheProjectionCannotSeeStillStopsLate() throws {
        var text = "format: spatialscene/1\nname: Late crowd\nframeRate: 12\nduration: 100\nentities:\n"
        for i in 0..<40 {
            text += "  - {id: w\(i), kind: window, position: [0, 1.6, -2], size: [400, 300], visible: false, "
                + "animation: {loop: true, keyframes: [{t: 0, scale: 1}, {t: 0.0833333, scale: 1.3}, {t: 0.1666667, scale: 1}]}}\n"
        }
        text += "events:\n"
        for i in 0..<40 { text += "  - {t: 90, action: show, entity: w\(i)}\n" }
        let path = try write(text, name: "late.scene.yaml")
        let w = try workAfterEachFrame(path)
        #expect(w.count == 1_200)
        // The up-front check (40 entities × 1,200 frames × 4 units) must pass: the first frame
        // after the windows show whose work passes that by a unit or more is where the budget ends.
        let upFront = Int(WorkBudget.Work(entities: 40, frames: 1_200).units)
        let k = try #require((1_080..<1_200).first { w[$0] - 1 >= upFront && w[$0] > w[$0 - 1] })
        let budget = w[k] - 1
        // Before the windows show, the projection is under 1.25 × the budget.
        #expect(projected(w, done: 1_024, from: 512) <= 1.25 * Double(budget))
        var options = SpatialCheck.ValidateOptions()
        options.workBudget = WorkBudget(units: budget)
        let scene = try #require(SpatialCheck.runValidation(paths: [path], options: options).report.scenes.first)
        #expect(scene.stopped == EarlyStop(afterFrame: k, frames: 1_200, pairTestBudget: budget))
        #expect(scene.stopped?.projection == nil)
    }

    @Test func theSuggestedBudgetIsAQuarterAboveRoundedUpToTwoDigits() {
        // 1,234,567 × 1.25 = 1,543,208.75 → 1,600,000; 800 × 1.25 = 1,000; 1,000,000 × 1.25 = 1,250,000 → 1,300,000.
        #expect(WorkProjection.suggestedBudget(1_234_567) == 1_600_000)
        #expect(WorkProjection.suggestedBudget(800) == 1_000)
        #expect(WorkProjection.suggestedBudget(1_000_000) == 1_300_000)
    }

    /// The rule on hand-made counts: readings at 8, 16, 32 frames done; a stop needs the projection
    /// over 1.25 × the budget at two readings in a row; no budget, no stop.
    @Test func theRuleOnCountsByHand() {
        // 1,000 frames, 10 units a frame after frame 0's 5,000; budget 5,000: the projection
        // 5,000 + 10 × 999 ≈ 15,000 > 6,250 at 16 and at 32 frames done.
        var p = WorkProjection(budget: 5_000, frames: 1_000)
        var stoppedAt: Int?
        for f in 0..<1_000 where stoppedAt == nil {
            if let s = p.check(frame: f, work: 5_000 + 10 * f) {
                stoppedAt = f
                #expect(s.window == 16...31 && s.rate == 10 && s.units == 5_000 + 10 * 31 + 10 * (1_000 - 32))
            }
        }
        #expect(stoppedAt == 31)
        // The same with a budget of 12,000: 14,990 is not over 1.25 × 12,000 = 15,000: never stops.
        var q = WorkProjection(budget: 12_000, frames: 1_000)
        #expect((0..<1_000).allSatisfy { q.check(frame: $0, work: 5_000 + 10 * $0) == nil })
        var none = WorkProjection(budget: 0, frames: 1_000)
        #expect((0..<1_000).allSatisfy { none.check(frame: $0, work: 1_000_000 * $0) == nil })
    }
}
