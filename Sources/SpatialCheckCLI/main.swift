import ArgumentParser
import Foundation
import SpatialCheck
import SpatialModel
import SceneLoader
import Simulation
import Rules
import Reporting
import AssetImport

struct SpatialCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spatialcheck",
        abstract: "Validate and simulate visionOS / ARKit scenes against Apple's Human Interface Guidelines.",
        discussion: """
            Start with `spatialcheck validate SCENE` for a report, and `spatialcheck inspect SCENE` \
            to see how the scene was understood. `spatialcheck rules` lists what is checked; \
            `spatialcheck explain RULE` tells why and how to fix it. No scene yet: \
            `spatialcheck init --example` writes a commented one to start from.

            Scene files end in .scene.yaml, .scene.yml or .scene.json; bare 3D assets (glTF, GLB, OBJ, \
            FBX, DAE, PLY, STL, ...) and USD (.usda, .usdc, .usdz, a Reality Composer Pro .rkassets \
            folder; needs usd-core) are accepted too. A scene file says where content stands and \
            who looks at it: a bare asset is checked as it stands in its own file, seen from a \
            standing viewer at the origin.
            """,
        version: SpatialCheck.version,
        subcommands: [Validate.self, Inspect.self, Simulate.self, Report.self, Rules.self, Explain.self, Bench.self, Schema.self, Init.self,
                      ImportWorkerCommand.self]
    )
}

/// Writes a command's outcome: output to stdout or --output (`Outcome.writeOutput`: a report is
/// streamed as it is rendered; an --output file is replaced only once all of it was written),
/// diagnostics to stderr; exits with its code (2 when the output cannot be written). An outcome
/// without output (the command stopped before producing it) writes nothing, and leaves an existing
/// --output file alone.
/// `trailer` goes to stderr last (validate's run time: on stderr so that the report stays
/// byte-identical from run to run); it is asked for after the output is written.
func finish(_ outcome: SpatialCheck.Outcome, output: String?, trailer: () -> String? = { nil }) throws -> Never {
    for d in outcome.diagnostics {
        FileHandle.standardError.write(Data((d.description + "\n").utf8))
    }
    do {
        try outcome.writeOutput(to: output)
    } catch let d as Diagnostic {
        FileHandle.standardError.write(Data((d.description + "\n").utf8))
        throw ExitCode(2)
    } catch {
        FileHandle.standardError.write(Data("spatialcheck: cannot write \(Escape.text(output ?? "standard output")): \(Escape.text("\(error)"))\n".utf8))
        throw ExitCode(2)
    }
    if let trailer = trailer() { FileHandle.standardError.write(Data(trailer.utf8)) }
    throw ExitCode(outcome.exitCode.rawValue)
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the loaded spatial model: entities, kinds, roles, world bounds in metres, units, animations.")

    @Argument(help: "A scene file or a bare 3D asset.") var path: String
    @Option(help: "Output format: text or json (spatialcheck-model/1).") var format: SpatialCheck.InspectFormat = .text
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @OptionGroup var configuration: ConfigOptions
    @Option(help: rootAssetsHelp) var root: String?
    @OptionGroup var scene: SceneOptions
    @OptionGroup var imports: ImportIsolationOptions

    func run() throws {
        try finish(SpatialCheck.inspect(path: path, format: format, options: imports.applied(to: scene.loadOptions(root: root)), isolation: imports.isolation,
                                        configPath: configuration.config),
                   output: output)
    }
}

/// `--root` of inspect and simulate: what it does there (validate's also names report paths).
let rootAssetsHelp: ArgumentHelp = "Project root: assets, and every file they reference, must be inside it (default: the folder of the nearest .spatialcheck.yaml, else the git work tree, else the scene's folder). Give a monorepo's top folder to load shared assets from outside an app's folder."

/// `--config`, shared by validate, inspect and simulate (bench has its own help text).
struct ConfigOptions: ParsableArguments {
    @Option(help: "Configuration file (default: .spatialcheck.yaml in the current directory or the nearest parent; /dev/null: none, every rule with its defaults); its units.pointAngle applies unless --point-angle is given.")
    var config: String?
}

extension SpatialCheck.InspectFormat: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}

/// `--point-angle`, for every command that takes it: the range a scene's `units.pointAngle` accepts.
func checkPointAngle(_ pointAngle: Double?) throws {
    if let pointAngle, !Units.acceptsPointAngle(pointAngle) {
        throw ValidationError("--point-angle must be \(Units.pointAngleRangeText), found \(pointAngle) (\(Units.pointAngleHint))")
    }
}

/// Options that change how a scene is loaded and stepped.
struct SceneOptions: ParsableArguments {
    // `.unconditional`: a negative number is taken as the value (and then rejected with the valid
    // range) rather than read as an unknown option.
    @Option(name: .customLong("frame-rate"), parsing: .unconditional,
            help: "Simulation rate in Hz (default: the scene's, else 90 visionOS / 60 iOS).")
    var frameRate: Double?
    @Option(parsing: .unconditional,
            help: "Seconds to simulate (default: the scene's duration, else the end of its path, animations and events).")
    var duration: Double?
    @Option(name: .customLong("point-angle"), parsing: .unconditional,
            help: "Degrees per point, at least 0.0005 and below 1 (default: the config's units.pointAngle, else the scene's, else 0.0671).")
    var pointAngle: Double?
    @Flag(name: .customLong("allow-external-assets"),
          help: "Let scenes and assets reference files outside the project root (the folder of .spatialcheck.yaml, else the git work tree, else the scene's folder; after '..', absolute paths and symlinks). .git folders stay unread. Only for trusted scenes.")
    var allowExternalAssets = false
    @Option(name: .customLong("setting"),
            help: "Run every scene with this accessibility setting on, as if its file said settings: {NAME: true}: reduceMotion or dimFlashingLights (repeatable).")
    var settings: [String] = []

    func validate() throws {
        for s in settings where !["reduceMotion", "dimFlashingLights"].contains(s) {
            throw ValidationError("--setting takes reduceMotion or dimFlashingLights, found '\(s)'")
        }
        if let frameRate, !(frameRate.isFinite && frameRate > 0 && frameRate <= 10_000) {
            throw ValidationError("--frame-rate must be a number of Hz greater than 0 and at most 10000, found \(frameRate)")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a number of seconds greater than 0, found \(duration)")
        }
        try checkPointAngle(pointAngle)
    }

    var loadOptions: LoadOptions { loadOptions(root: nil) }

    /// With `--root`, which is also the assets' confinement root (docs/security.md §3.1).
    func loadOptions(root: String?) -> LoadOptions {
        var o = LoadOptions(pointAngle: pointAngle, frameRate: frameRate, duration: duration, allowExternalAssets: allowExternalAssets,
                            confinementRoot: SpatialCheck.confinementRoot(root))
        o.settings = SystemSettings(reduceMotion: settings.contains("reduceMotion"),
                                    dimFlashingLights: settings.contains("dimFlashingLights"))
        return o
    }
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the per-frame trace: head pose, and per entity world position, distance, angles, size.",
        discussion: "CSV has one row per frame and visible entity; JSON Lines one object per frame. Pipe it into a plotting tool.")

    @Argument(help: "A scene file or a bare 3D asset.") var path: String
    @Option(help: "csv or jsonl.") var format: TraceFormat = .csv
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(name: .customLong("max-work"), parsing: .unconditional,
            help: "Largest entities × frames the trace may have (default \(WorkBudget.defaultUnits); 0 = no limit): a row per entity-frame. A scene over it is an error (exit 2) before any frame is written.")
    var maxWork = WorkBudget.defaultUnits
    @OptionGroup var configuration: ConfigOptions
    @Option(help: rootAssetsHelp) var root: String?
    @OptionGroup var scene: SceneOptions
    @OptionGroup var imports: ImportIsolationOptions

    func validate() throws {
        if maxWork < 0 { throw ValidationError("--max-work must be 0 (no limit) or more, found \(maxWork)") }
    }

    func run() throws {
        let output = self.output
        // The output is opened once the scene has loaded, so a load error leaves no empty file.
        let open = { () throws(Diagnostic) -> FileHandle in
            guard let output else { return FileHandle.standardOutput }
            guard FileManager.default.createFile(atPath: output, contents: nil), let h = FileHandle(forWritingAtPath: output) else {
                throw Diagnostic(file: output, message: "cannot write the trace to this file")
            }
            return h
        }
        try finish(SpatialCheck.simulate(path: path, format: format, options: imports.applied(to: scene.loadOptions(root: root)), isolation: imports.isolation,
                                         configPath: configuration.config, budget: WorkBudget(units: maxWork), open: open),
                   output: nil)
    }
}

// `--version --verbose` (in either order, alone): the versions of the tool and its libraries.
if Set(CommandLine.arguments.dropFirst()) == ["--version", "--verbose"], CommandLine.arguments.count == 3 {
    FileHandle.standardOutput.write(Data(SpatialCheck.versionDescription().utf8))
    exit(0)
}

// Bad arguments exit with 2, as the contract says (argument-parser's default is 64).
// The arguments as bytes: a file name that is not UTF-8 stays openable (CommandLine.arguments
// would replace its bytes with U+FFFD; see FileName).
let arguments = (1..<Int(CommandLine.argc)).compactMap { i in CommandLine.unsafeArgv[i].map { FileName.decode(cString: $0) } }
do {
    var command = try SpatialCheckCommand.parseAsRoot(arguments)
    try command.run()
} catch {
    let code = SpatialCheckCommand.exitCode(for: error)
    if code == .validationFailure {
        let message = SpatialCheckCommand.fullMessage(for: error)
            .split(separator: "\n", omittingEmptySubsequences: false).map { Escape.text(String($0)) }.joined(separator: "\n")
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
    SpatialCheckCommand.exit(withError: error)
}

extension ReportFormat: ExpressibleByArgument {}
extension Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}
extension FailOn: ExpressibleByArgument {}

/// True when standard output/error is a terminal (colour and progress only then).
func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

/// Colour for `validate` and `report`: one decision (`SpatialCheck.useColor`) for both.
func useColor(format: ReportFormat, output: String?, noColor: Bool) -> Bool {
    SpatialCheck.useColor(format: format, writingToFile: output != nil, noColorFlag: noColor,
                          environment: ProcessInfo.processInfo.environment, stdoutIsTerminal: isTerminal(1))
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate scenes frame by frame and report where they break the HIG's comfort guidance.",
        discussion: """
            PATH is a scene file (*.scene.yaml, *.scene.yml, *.scene.json; named directly, any .yaml, .yml \
            or .json file), a bare 3D asset, or a directory searched recursively for scene files (hidden folders, \
            DerivedData, Pods, Carthage and node_modules are skipped). Exit codes: 0 clean, 1 violations at or above --fail-on \
            (after the baseline), 2 a scene or asset could not be loaded, or bad arguments.

            No scene yet? `spatialcheck init --example` writes a commented starter scene to edit; \
            `spatialcheck schema scene` describes every key.

            Baselines: save a report with `--format json --output baseline.json`; later runs with \
            `--baseline baseline.json` fail only on new or worsened violations.
            """)

    @Argument(help: "Scene files, bare assets or directories.") var paths: [String]
    @Option(help: "text, json, sarif, junit, markdown, html, xcode (path:line:col: error: …) or github (workflow annotations).")
    var format: ReportFormat = .text
    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.") var output: String?
    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails the run: error, warning, info or never (default: the config's, else error).")
    var failOn: FailOn?
    @OptionGroup var configuration: ConfigOptions
    @Option(help: "A saved JSON report: only new or worsened violations count toward --fail-on.") var baseline: String?
    @Option(parsing: .unconditional, help: "Scenes checked in parallel, 1 to 256 (the output is identical to a serial run).")
    var jobs: Int = 1
    @Flag(help: "Text output: list only scenes with violations or errors; with a baseline, only new and worsened violations (the others counted in one line).") var quiet = false
    @Flag(help: "Text and Markdown: show every violation on its own (by default violations of one rule in one container with the same cause are shown once, with their list).")
    var expand = false
    @Flag(name: .customLong("no-color"), help: "No ANSI colour, even on a terminal (NO_COLOR does the same).") var noColor = false
    @Flag(help: "Write when the report was made (UTC): JSON generatedAt, SARIF endTimeUtc, JUnit timestamp, a line in the others.")
    var timestamp = false
    @Flag(name: .customLong("with-geometry"), help: "JSON: write each scene's geometry (plan, views, timeline series) so `spatialcheck report --format html` can draw the pictures later.")
    var withGeometry = false

    @Flag(name: .customLong("no-replay"), help: "HTML and --with-geometry: leave out the interactive 3D replay (saves a simulation pass per scene).")
    var noReplay = false
    @Option(help: "Project root that scene paths (and so fingerprints) are relative to, and that assets (and every file they reference) must be inside (default: per scene, the folder of the nearest .spatialcheck.yaml, else the git work tree, else the current directory for paths and the scene's folder for assets). Give a monorepo's top folder to load shared assets from outside an app's folder.")
    var root: String?
    @Option(help: "Check only shard i of n (e.g. 2/3; 1 ≤ i ≤ n ≤ 1024): a stable split of the scenes for a CI matrix; merge the JSON reports with `spatialcheck report`.")
    var shard: Shard?
    @Option(name: .customLong("max-violations"), parsing: .unconditional,
            help: "Violations listed per rule and scene (default \(SpatialCheck.defaultMaxViolationsPerRule); 0 = all). The rest are counted in the summary and the exit code; SARIF lists at most \(SpatialCheck.sarifResultLimit) results, GitHub annotations at most \(Reporting.Report.githubAnnotationsPerLevel) of each level (what GitHub shows of a step).")
    var maxViolations = SpatialCheck.defaultMaxViolationsPerRule
    @Option(name: .customLong("max-work"), parsing: .unconditional,
            help: "The work one scene may take, in units of about 1,000 instructions (default \(WorkBudget.defaultUnits), a few minutes of CPU; 0 = no limit). Each entity costs \(Int(WorkBudget.unitsPerEntityFrame)) units a frame, and the rules whose work grows with pairs (the target rules, win-controls-keepout) add what they do: a scene whose entities × frames alone are over it is refused (exit 2) before any frame is simulated; a scene that passes it while simulating stops after that frame and its report says so, and so does one whose work, projected from its steady frames (read after 16, 32, 64 … frames), is over 1.25 × the budget at two readings in a row: its report gives the projection and the --max-work that would check it whole.")
    var maxWork = WorkBudget.defaultUnits
    @Option(name: .customLong("max-tracked"), parsing: .unconditional,
            help: "Most distinct violations one scene may track (default \(WorkBudget.defaultTrackedViolations); 0 = no limit; about 1 KB of memory each). A scene that reaches it stops after that frame and its report says so.")
    var maxTracked = WorkBudget.defaultTrackedViolations
    @OptionGroup var scene: SceneOptions
    @OptionGroup var imports: ImportIsolationOptions

    func validate() throws {
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, found \(jobs)") }
        if maxViolations < 0 { throw ValidationError("--max-violations must be 0 (no limit) or more, found \(maxViolations)") }
        if maxWork < 0 { throw ValidationError("--max-work must be 0 (no limit) or more, found \(maxWork)") }
        if maxTracked < 0 { throw ValidationError("--max-tracked must be 0 (no limit) or more, found \(maxTracked)") }
    }

    func run() throws {
        var options = SpatialCheck.ValidateOptions()
        options.format = format
        options.failOn = failOn
        options.configPath = configuration.config
        options.baselinePath = baseline
        options.load = imports.applied(to: scene.loadOptions)
        options.isolation = imports.isolation
        options.jobs = jobs
        options.quiet = quiet
        options.expand = expand
        options.timestamp = timestamp ? Date() : nil
        options.withGeometry = withGeometry
        if noReplay { options.replay = false }
        options.root = root
        options.shard = shard
        options.maxViolations = maxViolations
        options.workBudget = WorkBudget(units: maxWork, trackedViolations: maxTracked)
        options.color = useColor(format: format, output: output, noColor: noColor)
        if isTerminal(2) {
            options.progress = { done, total in
                guard total > 1 else { return }
                FileHandle.standardError.write(Data("\rchecked \(done)/\(total) scenes\(done == total ? "\n" : "")".utf8))
            }
        }
        let start = Date()
        let outcome = SpatialCheck.validate(paths: paths, options: options)
        // The run time goes to stderr (the report itself stays byte-identical), after the text report.
        let trailer = { format == .text && outcome.writesOutput ? SpatialCheck.runTimeLine(seconds: Date().timeIntervalSince(start)) : nil }
        try finish(outcome, output: output, trailer: trailer)
    }
}

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge saved JSON reports, summarise them (by rule, scene and entity, worst first), compare with a baseline, render any format.")

    @Argument(help: "Reports written by `validate --format json`.") var reports: [String]
    @Option(help: "Compare with this saved report: new, worsened, unchanged, improved, fixed.") var baseline: String?
    @Option(help: "text, json, sarif, junit, markdown, html, xcode or github.") var format: ReportFormat = .text
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?
    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails: error, warning, info or never (default: the configuration's failOn, else error; the failOn saved in the reports is not used).")
    var failOn: FailOn?
    @Option(help: "Configuration file whose failOn is the gate when --fail-on is not given (default: .spatialcheck.yaml in the current directory or the nearest parent).")
    var config: String?
    @Option(help: "Project root the reports' scene paths are relative to, for --format xcode (default: found from the current directory).")
    var root: String?
    @Flag(help: "Text output: list only scenes with violations or errors; with a baseline, only new and worsened violations (the others counted in one line).") var quiet = false
    @Flag(help: "Text and Markdown: show every violation on its own (by default violations of one rule in one container with the same cause are shown once, with their list).")
    var expand = false
    @Flag(name: .customLong("no-color"), help: "No ANSI colour, even on a terminal (NO_COLOR does the same).") var noColor = false
    @Flag(help: "Write when the report was made (UTC): JSON generatedAt, SARIF endTimeUtc, JUnit timestamp, a line in the others.")
    var timestamp = false

    func run() throws {
        var options = SpatialCheck.ReportOptions()
        options.format = format
        options.baselinePath = baseline
        options.failOn = failOn
        options.configPath = config
        options.quiet = quiet
        options.expand = expand
        options.root = root
        options.timestamp = timestamp ? Date() : nil
        options.color = useColor(format: format, output: output, noColor: noColor)
        try finish(SpatialCheck.report(paths: reports, options: options), output: output)
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every rule: id, category, default severity, thresholds, HIG source; then what needs manual review.")
    enum Format: String, ExpressibleByArgument { case text, json, markdown }
    @Option(help: "text, json, or markdown (the rule reference, docs/rules.md).") var format: Format = .text
    @Flag(help: "List only what no rule checks: the catalog rules not implemented and the manual-review items.")
    var manual = false

    func validate() throws {
        if manual && format != .text { throw ValidationError("--manual prints text only; the JSON and Markdown forms include the same lists") }
    }

    func run() throws {
        if manual {
            print(RuleCatalog.renderNotChecked(), terminator: "")
            return
        }
        switch format {
        case .text: print(RuleCatalog.renderList(), terminator: "")
        case .json: print(SpatialCheck.ruleCatalogJSON().serialized(), terminator: "")
        case .markdown: print(RuleCatalog.renderMarkdown(), terminator: "")
        }
    }
}

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of scene files, the configuration file or the JSON report, for editors and validators.",
        discussion: "Save it and point the editor at it: `# yaml-language-server: $schema=spatialcheck-scene.schema.json` as a scene file's first line.")
    @Argument(help: "scene, config or report.") var kind: SpatialCheck.SchemaKind

    func run() throws {
        print(SpatialCheck.schema(kind).serialized(), terminator: "")
    }
}

extension SpatialCheck.SchemaKind: ExpressibleByArgument {}
extension SpatialCheck.CIProvider: ExpressibleByArgument {}

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a commented .spatialcheck.yaml (every rule with its default), with --ci a CI workflow, or with --example a starter scene; writes only missing files, never over one.")
    @Option(help: "Also write a workflow: github (.github/workflows/spatialcheck.yml) or gitlab (.gitlab-ci.yml).")
    var ci: SpatialCheck.CIProvider?
    @Option(help: "Folder to write into (default: the current directory).") var directory: String?
    @Flag(help: "Write a commented starter scene, example.scene.yaml, instead of the configuration: a window with elements, an ornament and 3D text, with one finding to fix.")
    var example = false

    func run() throws {
        try finish(SpatialCheck.initialize(directory: directory ?? FileManager.default.currentDirectoryPath, ci: ci, example: example), output: nil)
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One rule in full: what it measures, why (HIG page and section), parameters, and example scenes that fail and pass.")
    @Argument(help: "A rule id, e.g. target-center-spacing.") var rule: String

    func run() throws {
        do {
            print(try RuleCatalog.renderExplanation(id: rule, checkout: SpatialCheck.packageCheckout()), terminator: "")
        } catch {
            FileHandle.standardError.write(Data("spatialcheck: \(Escape.text("\(error)"))\n".utf8))
            throw ExitCode(2)
        }
    }
}
