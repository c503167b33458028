import Foundation
import Testing
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

    private func write() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-budget-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("budget.scene.yaml").path
        try Self.scene.write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
