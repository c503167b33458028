import ArgumentParser
import Foundation
import SpatialCheck
import Rules
import SceneLoader
import SpatialModel

extension SpatialCheck.BenchFormat: ExpressibleByArgument {}
extension SpatialCheck.BenchClock: ExpressibleByArgument {}

/// `spatialcheck bench SCENE`: frame rate, time per entity-frame by phase, and peak memory of the
/// validation pipeline on one scene (register with `Bench.self` in the root command's subcommands).
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the pipeline on a scene: frames per second, ns per entity-frame by phase, peak memory.",
        discussion: """
            Loads SCENE, then simulates --frames frames and runs every enabled rule on each (what \
            `validate` does, without rendering a report). Phases: animation (head pose, events, key \
            sampling), transforms (hierarchy, boxes, bounds), quantities (angles, sizes, velocities), \
            rules (per-frame checks), aggregation (closing runs, sorting violations). Use a release \
            build: debug builds are hundreds of times slower. Generate large scenes with Tools/gen-scenes.
            """)

    @Argument(help: "A scene file or a bare 3D asset.") var path: String
    @Option(parsing: .unconditional, help: "Frames to simulate, 1 to 100000000 (the scene's duration is replaced).")
    var frames: Int = 10_000
    @Option(help: "text or json.") var format: SpatialCheck.BenchFormat = .text
    @Option(help: "Configuration file (default: .spatialcheck.yaml in the current directory or the nearest parent, as validate; else, or with /dev/null, every rule with its default parameters).")
    var config: String?
    @Flag(name: .customLong("simulate-only"), help: "Measure the simulator alone, without the rules.") var simulateOnly = false
    @Option(name: .customLong("point-angle"), parsing: .unconditional,
            help: "Degrees per point, at least 0.0005 and below 1 (default: the config's units.pointAngle, else the scene's, else 0.0671).")
    var pointAngle: Double?
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(name: .customLong("repeat"), parsing: .unconditional,
            help: "Run the pipeline N times on the loaded scene (1 to 1000) and report the median run, the minimum, the maximum and the spread.")
    var repeats = 1
    @Option(name: .customLong("max-work"), parsing: .unconditional,
            help: "validate's work budget, in units of about 1,000 instructions (default \(WorkBudget.defaultUnits); 0 = no limit): --frames over it is refused before the run, and a run that passes it, or whose work projected from its steady frames is over 1.25 × it (as validate), stops after that frame and says so.")
    var maxWork = WorkBudget.defaultUnits
    @Option(name: .customLong("max-tracked"), parsing: .unconditional,
            help: "validate's limit on the distinct violations one scene may track (default \(WorkBudget.defaultTrackedViolations); 0 = no limit; about 1 KB of memory each): a run that reaches it stops after that frame and says so.")
    var maxTracked = WorkBudget.defaultTrackedViolations
    @Option(help: rootAssetsHelp) var root: String?
    @Option(help: "A saved `bench --format json` result of the same scene and --frames: compare the median ns per entity-frame with it. A result of another scene or another --frames is refused (exit 2); another entity count is a warning.")
    var baseline: String?
    @Option(name: .customLong("max-regression"),
            help: "With --baseline: the slowdown allowed, in % (\"10\" or \"10%\", default 10); slower exits with 1.")
    var maxRegression: String?
    @Option(help: "With --baseline: compare wall time (wall) or the process's CPU time (cpu: user + system, steadier on a shared CI runner).")
    var clock: SpatialCheck.BenchClock = .wall

    func validate() throws {
        if frames < 1 || frames > 100_000_000 { throw ValidationError("--frames must be between 1 and 100000000, found \(frames)") }
        if repeats < 1 || repeats > 1000 { throw ValidationError("--repeat must be between 1 and 1000, found \(repeats)") }
        if maxWork < 0 { throw ValidationError("--max-work must be 0 (no limit) or more, found \(maxWork)") }
        if maxTracked < 0 { throw ValidationError("--max-tracked must be 0 (no limit) or more, found \(maxTracked)") }
        try checkPointAngle(pointAngle)
        if maxRegression != nil && baseline == nil { throw ValidationError("--max-regression needs --baseline FILE") }
        if clock != .wall && baseline == nil { throw ValidationError("--clock needs --baseline FILE") }
        if let maxRegression, SpatialCheck.parsePercent(maxRegression) == nil {
            throw ValidationError("--max-regression must be a percentage of 0 or more such as 10 or 10%, found '\(maxRegression)'")
        }
    }

    func run() throws {
        var options = SpatialCheck.BenchOptions()
        options.frames = frames
        options.rules = !simulateOnly
        // The configuration and degrees per point exactly as validate resolves them.
        do {
            (options.configuration, options.load) = try SpatialCheck.resolveSettings(
                configPath: config, load: LoadOptions(pointAngle: pointAngle, confinementRoot: SpatialCheck.confinementRoot(root)))
        } catch {
            try finish(.failure(error.diagnostics), output: nil)
        }
        options.repeats = repeats
        options.budget = WorkBudget(units: maxWork, trackedViolations: maxTracked)
        var reference: SpatialCheck.BenchBaseline?
        if let baseline {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: baseline))
                reference = try SpatialCheck.BenchBaseline.parse(data, path: baseline, clock: clock)
            } catch let d as Diagnostic {
                try finish(.failure([d]), output: nil)
            } catch {
                try finish(.failure([Diagnostic(file: baseline, message: "cannot read the bench baseline",
                                                hint: "write one with `spatialcheck bench SCENE --repeat 5 --format json --output \(baseline)`")]),
                           output: nil)
            }
            // A baseline of another scene or another --frames is refused before the run (s27 F7).
            if let reference, let d = reference.mismatch(scene: path, reportPath: SpatialCheck.scenePaths(path, root: root).report,
                                                          frames: frames) {
                try finish(.failure([d]), output: nil)
            }
        }
        let outcome: SpatialCheck.Outcome
        do {
            let result = try SpatialCheck.bench(path: path, options: options)
            let gate = reference.map {
                SpatialCheck.gate(result, baseline: $0, maxRegressionPercent: maxRegression.flatMap(SpatialCheck.parsePercent) ?? 10,
                                  clock: clock)
            }
            outcome = SpatialCheck.Outcome(output: SpatialCheck.renderBench(result, format: format, gate: gate),
                                           diagnostics: options.configuration.warnings + (reference?.entityWarning(result).map { [$0] } ?? []),
                                           exitCode: gate?.regressed == true ? .violations : .clean)
        } catch {
            outcome = .failure(error.diagnostics)
        }
        try finish(outcome, output: output)
    }
}
