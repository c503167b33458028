import Foundation
import Testing
import Simulation
import SpatialCheck
import SpatialModel

/// `SpatialCheck.bench`: counts and the shape of the phase times (never a timing threshold).
@Suite("Bench: frame counts and phase times")
struct BenchTests {
    private static let scene = """
        format: spatialscene/1
        name: Bench smoke
        duration: 1
        viewer: {motion: sway}
        entities:
          - id: w
            kind: window
            placement: {distance: 2, azimuth: 0, elevation: 0}
            elements:
              - {id: a, role: button, frame: [100, 100, 60, 60]}
              - {id: b, role: button, frame: [170, 100, 60, 60]}
          - id: spinner
            kind: volume
            size: [0.2, 0.2, 0.2]
            animation: {loop: true, keyframes: [{t: 0, position: [0, 1.5, -1]}, {t: 1, position: [0.5, 1.5, -1], rotation: {yaw: 90}}]}
        """

    private func withScene<T>(_ body: (String) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("smoke.scene.yaml").path
        try Self.scene.write(toFile: path, atomically: true, encoding: .utf8)
        return try body(path)
    }

    @Test func countsAndPhases() throws {
        for rules in [true, false] {
            var options = SpatialCheck.BenchOptions()
            options.frames = 37
            options.rules = rules
            let r = try withScene { try SpatialCheck.bench(path: $0, options: options) }
            #expect(r.frames == 37)
            #expect(r.entities == 4) // window, two elements, volume
            #expect(r.animations == 1)
            let phaseSum = r.phases.reduce(UInt64(0)) { $0 + $1.1 }
            #expect(phaseSum <= r.total)
            #expect(r.total > 0)
            if !rules { #expect(r.rules == 0 && r.aggregation == 0 && r.violations == 0) }
            #expect(r.peakRSS >= r.peakRSSAfterLoad && r.peakRSSAfterLoad > 0)
        }
    }

    @Test func profiledRunGivesTheSameQuantities() throws {
        let scene = try withScene { try SpatialCheck.loadScene(path: $0) }
        let sim = Simulator(scene: scene)
        var plain: [[Double]] = [], profiled: [[Double]] = []
        sim.run { q in plain.append(q.distance + q.ptEq + q.angularVelocity) }
        var phases = SimulationPhaseTimes()
        sim.run(phases: &phases) { q in profiled.append(q.distance + q.ptEq + q.angularVelocity) }
        #expect(plain == profiled)
        #expect(phases.frames == sim.frameCount)
    }

    @Test func jsonStructureDoesNotDependOnValues() throws {
        var options = SpatialCheck.BenchOptions()
        options.frames = 3
        let r = try withScene { try SpatialCheck.bench(path: $0, options: options) }
        var zero = r
        zero.animation = 0; zero.transforms = 0; zero.quantities = 0; zero.rules = 0; zero.aggregation = 0; zero.total = 0
        func keys(_ s: String) throws -> [String] {
            let obj = try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any] ?? [:]
            return obj.keys.sorted() + ((obj["phases"] as? [String: Any])?.keys.sorted() ?? [])
        }
        let a = SpatialCheck.renderBench(r, format: .json), b = SpatialCheck.renderBench(zero, format: .json)
        #expect(try keys(a) == keys(b))
        #expect(try keys(a).contains("nanosecondsPerEntityFrame"))
        #expect(SpatialCheck.renderBench(r, format: .text).contains("ns per entity-frame"))
    }
}
