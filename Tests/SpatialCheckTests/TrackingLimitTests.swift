import Foundation
import Testing
import Reporting
import Simulation
@testable import Rules
@testable import SpatialCheck

/// The tracking limit (`--max-tracked`, `WorkBudget.trackedViolations`): the engine keeps at most
/// that many distinct violations, so memory stays bounded whatever the scene; `validate` stops the
/// scene after the frame in which the limit is reached, and every format says so.
@Suite struct TrackingLimitTests {
    /// One window with 30 buttons of 44 pt on one spot, 1 s at 90 Hz (90 frames): every one of
    /// the 30 · 29 / 2 = 435 pairs has its centres 0 pt apart (target-center-spacing).
    private static let scene: String = {
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

    private func write() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-tracking-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("stacked.scene.yaml").path
        try Self.scene.write(toFile: path, atomically: true, encoding: .utf8)
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

    @Test func everyFormatSaysTheSceneStopped() throws {
        let v = validate(try write(), tracked: 100)
        let phrase = "checking stopped after frame 0 of 90: the scene reached 100 distinct violations"
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
