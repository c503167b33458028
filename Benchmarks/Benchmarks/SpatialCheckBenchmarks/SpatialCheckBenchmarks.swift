// The package-benchmark suite of issue 7. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
//   swift package --package-path Benchmarks benchmark --filter "validate.*"
//   swift package --package-path Benchmarks benchmark baseline update main / baseline check main
// Scenes come from Tools/gen-scenes (seed 1), generated into $SPATIALCHECK_BENCH_SCENES
// (default /tmp/spatialcheck-bench-scenes) on first use.
//
// Metrics: `.default`, `.memory`, `.extended`, `.system` only: the retain/release metrics (`.arc`,
// `.retainCount`, `.objectAllocCount`, so `.all`) crash on Swift 6.3 (platform-notes.md).
import Benchmark
import BenchSupport
import Foundation
import Reporting
import Rules
import Simulation
import SpatialCheck
import SpatialModel

/// Frames simulated per benchmark iteration, by scene size (keeps one iteration around 0.1–1 s).
private func framesPerIteration(_ entities: Int) -> Int {
    switch entities {
    case ..<1_000: return 2_000
    case ..<10_000: return 300
    case ..<100_000: return 30
    default: return 5
    }
}

/// Runs every frame of `scene`; returns a value that depends on the quantities.
private func simulateAll(_ scene: Scene) -> Double {
    var sink = 0.0
    Simulator(scene: scene).run { q in sink += q.distance.first ?? 0 }
    return sink
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 20
    )

    for n in [100, 1_000, 10_000, 100_000] {
        let frames = framesPerIteration(n)
        // One iteration = `frames` frames of the scene; ns per entity-frame = time / (frames × n).
        let perEntityFrame = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal],
            timeUnits: .nanoseconds, warmupIterations: 1, scalingFactor: .one,
            maxDuration: .seconds(10), maxIterations: 20)

        let simulate: (Benchmark, Scene) -> Void = { benchmark, scene in
            let s = BenchScenes.withFrames(scene, frames)
            for _ in benchmark.scaledIterations { BenchSupport.blackHole(simulateAll(s)) }
        }
        Benchmark("simulate \(n) entities × \(frames) frames", configuration: perEntityFrame,
                  closure: simulate, setup: { () async throws -> Scene in BenchScenes.load(entities: n) })

        Benchmark("validate \(n) entities × \(frames) frames", configuration: perEntityFrame) { (benchmark: Benchmark, scene: Scene) -> Void in
            let s = BenchScenes.withFrames(scene, frames)
            for _ in benchmark.scaledIterations {
                let engine = RuleEngine(scene: s)
                Simulator(scene: s).run { q in engine.consume(q) }
                BenchSupport.blackHole(engine.finish().count)
            }
        } setup: { () async throws -> Scene in
            BenchScenes.load(entities: n)
        }

        if n <= 10_000 {
            Benchmark("reference kernel \(n) entities × \(frames) frames", configuration: perEntityFrame) { (benchmark: Benchmark, runner: ReferenceRunner) -> Void in
                for _ in benchmark.scaledIterations { BenchSupport.blackHole(runner.run(frames: frames)) }
            } setup: { () async throws -> ReferenceRunner in
                ReferenceRunner(scene: BenchScenes.load(entities: n))
            }
        }
    }

    // The crowded shape (issue 16): 1,000 windows of eight buttons around the viewer.
    for n in [1_000, 10_000] {
        let frames = n == 10_000 ? 18 : 180
        let perEntityFrame = Benchmark.Configuration(
            metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal],
            timeUnits: .nanoseconds, warmupIterations: 1, scalingFactor: .one,
            maxDuration: .seconds(10), maxIterations: 20)
        Benchmark("validate crowded \(n) entities × \(frames) frames", configuration: perEntityFrame) { (benchmark: Benchmark, scene: Scene) -> Void in
            let s = BenchScenes.withFrames(scene, frames)
            for _ in benchmark.scaledIterations {
                let engine = RuleEngine(scene: s)
                Simulator(scene: s).run { q in engine.consume(q) }
                BenchSupport.blackHole(engine.finish().count)
            }
        } setup: { () async throws -> Scene in
            BenchScenes.load(entities: n, crowded: true)
        }
    }

    Benchmark("load 10000-entity scene (YAML, model building)") { benchmark in
        let path = BenchScenes.path(entities: 10_000)
        for _ in benchmark.scaledIterations { BenchSupport.blackHole(try? SpatialCheck.loadScene(path: path)) }
    }

    // Asset import: assimp alone against the full importer, over the same files.
    let files = sharedAssetFiles()
    if !files.isEmpty {
        Benchmark("import shared assets: assimp alone (\(files.count) files)") { benchmark in
            for _ in benchmark.scaledIterations { for f in files { AssimpAlone.importOnce(f) } }
        }
        Benchmark("import shared assets: AssetImporter (\(files.count) files)") { benchmark in
            for _ in benchmark.scaledIterations { for f in files { importWithModel(f) } }
        }
    }

    // Report rendering of a validation with many violations (the dense 1,000-entity scene).
    Benchmark("render report (dense 1000 entities, all formats)") { (benchmark: Benchmark, validation: SpatialCheck.Validation) -> Void in
        for _ in benchmark.scaledIterations {
            for format in [ReportFormat.text, .json, .sarif, .junit, .markdown, .html] {
                BenchSupport.blackHole(SpatialCheck.render(validation, format: format).utf8.count)
            }
        }
    } setup: { () async throws -> SpatialCheck.Validation in
        var options = SpatialCheck.ValidateOptions()
        options.load.duration = 2
        options.configSearchDirectory = "/"
        return SpatialCheck.runValidation(paths: [BenchScenes.path(entities: 1_000, dense: true)], options: options)
    }
}
