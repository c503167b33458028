import Foundation
import SpatialModel
import SceneLoader
import Simulation
import Rules
import Reporting
import AssetImport

extension SpatialCheck {
    public struct ValidateOptions: Sendable {
        public var format: ReportFormat = .text
        /// Overrides the configuration's `failOn`; nil keeps it.
        public var failOn: FailOn?
        /// `.spatialcheck.yaml` to use; nil searches the current directory and its parents.
        public var configPath: String?
        /// Directory where the configuration search starts (default: the current directory).
        public var configSearchDirectory: String?
        public var baselinePath: String?
        public var load = LoadOptions()
        /// Import assets in worker processes (see `AssetImportIsolation`); nil imports in-process.
        public var isolation: AssetImportIsolation?
        /// Scenes validated in parallel; output is identical to a serial run.
        public var jobs = 1
        public var color = false
        public var quiet = false
        /// `--expand`: text and Markdown show every violation on its own instead of folding
        /// violations of one rule in one container with the same cause (`foldViolations`).
        public var expand = false
        /// Called after each scene with (done, total), for progress on a terminal.
        public var progress: (@Sendable (Int, Int) -> Void)?
        /// Capture the geometry the HTML report draws (a second simulation pass per scene). nil:
        /// only when `format` is HTML.
        public var captureSnapshots: Bool?
        /// `--with-geometry`: write each scene's snapshot into the JSON report as `geometry`, so
        /// `spatialcheck report --format html` can draw the pictures later (implies capturing it).
        public var withGeometry = false
        /// Capture the HTML report's 3D replay (recorded in the snapshots' simulation pass). nil: when
        /// the format is HTML or `withGeometry` is set; false: `--no-replay`.
        public var replay: Bool? = nil
        /// `--timestamp`: the time written as the report's `generatedAt` (nil: none, byte-identical output).
        public var timestamp: Date?
        /// `--root`: the folder scene paths in the report (and so fingerprints) are relative to;
        /// nil finds it per scene (`ProjectRoot.find`), falling back to the working directory.
        public var root: String?
        /// `--shard i/n`: check only the scenes of this shard (`Shard`).
        public var shard: Shard?
        /// `--max-violations`: violations reported per rule and scene (0 = all); the rest are
        /// counted, not listed. The exit code is decided on all of them (`limitViolations`).
        public var maxViolations = SpatialCheck.defaultMaxViolationsPerRule
        /// `--max-work`: the largest simulation a scene may ask for (see `WorkBudget`).
        public var workBudget = WorkBudget()
        public init() {}
    }

    /// Everything `validate` computed, before rendering.
    public struct Validation: Sendable {
        public var report: Report
        public var snapshots: [String: SceneSnapshot]
        public var configuration: RuleConfiguration
        /// The comparison with `--baseline`: the entries of the violations the report keeps after
        /// `--max-violations` (each scene is compared, then limited, as soon as it is checked), then
        /// the fixed ones. A run naming one scene path twice is compared as a whole: then every
        /// violation's entry is here, and those left out of the report have no message
        /// (`RuleEngine.finish(deferringMessagesAbove:_:)`).
        public var baseline: BaselineComparison?
        public var exitCode: ExitCode
        public var diagnostics: [Diagnostic]
        /// True when the run stopped before checking anything (a bad configuration or an unreadable
        /// baseline): `report` is empty and must not be written anywhere.
        public var aborted = false
    }

    /// `spatialcheck validate PATH...`: load each scene (files, bare assets, or directories searched
    /// for scene files), simulate it, run the rules and render the report.
    public static func validate(paths: [String], options: ValidateOptions) -> Outcome {
        let v = runValidation(paths: paths, options: options)
        if v.aborted { return .failure(v.diagnostics) }
        let (format, color, quiet, expand) = (options.format, options.color, options.quiet, options.expand)
        return Outcome(streaming: { render(v, format: format, color: color, quiet: quiet, expand: expand, to: $0) },
                       diagnostics: v.diagnostics, exitCode: v.exitCode)
    }

    public static func runValidation(paths: [String], options: ValidateOptions) -> Validation {
        // Configuration, and one pointAngle for the scene, the simulator and the rules: the command
        // line's, else the config file's, else the scene's own (shared with inspect, simulate, bench).
        var configuration: RuleConfiguration
        var load: LoadOptions
        do {
            (configuration, load) = try resolveSettings(configPath: options.configPath,
                                                        searchDirectory: options.configSearchDirectory, load: options.load)
        } catch {
            return failedRun(error.diagnostics, configuration: .default)
        }
        if let failOn = options.failOn { configuration.failOn = failOn }
        // `--root` is also the confinement root of every scene's assets (security.md §3.1: one
        // root for report paths, baselines and assets).
        load.confinementRoot = load.confinementRoot ?? confinementRoot(options.root)

        // Scenes, in parallel when asked; results land in input order. A path that cannot be
        // checked (missing, an empty directory, ...) is a scene with status error, in its place.
        // Each is named by its path relative to the project root (`reportPath`), which also
        // decides its shard; `order` is its place in the whole run.
        let cwd = FileManager.default.currentDirectoryPath
        var inputs: [(input: Input, path: ScenePaths, order: Int)] = []
        for (order, input) in expandInputs(paths, allowExternal: options.load.allowExternalAssets, root: load.confinementRoot).enumerated() {
            let given: String
            switch input { case .scene(let p): given = p; case .error(let p, _): given = p }
            let names = scenePaths(given, root: options.root, cwd: cwd)
            if let shard = options.shard, !shard.contains(names.report) { continue }
            inputs.append((input, names, order))
        }
        inputs = refusingSharedReportPaths(inputs)
        let configNotes = unappliedConfigurations(
            scenes: inputs.compactMap { if case .scene(let p) = $0.input { return p } else { return nil } },
            applied: configuration.path, explicit: options.configPath != nil, root: options.root, cwd: cwd)
        let results = SceneResults(count: inputs.count)
        var scenesToCheck: [(index: Int, path: String, names: ScenePaths)] = []
        for (i, item) in inputs.enumerated() {
            switch item.input {
            case .scene(let path): scenesToCheck.append((i, path, item.path))
            case .error(_, let d):
                var s = SceneReport(path: item.path.report, status: .error, errors: [d])
                s.legacyPath = item.path.legacy
                s.filePath = item.path.file
                results.set(i, (s, nil), counts: false)
            }
        }
        let toCheck = scenesToCheck
        let config = configuration
        let sceneLoad = load
        let isolation = options.isolation
        let budget = options.workBudget
        let jobs = max(1, min(options.jobs, toCheck.count))
        let wantSnapshots = options.withGeometry || (options.captureSnapshots ?? (options.format == .html))
        // The HTML page and saved geometry carry the 3D replay unless it is turned off.
        let wantReplay = wantSnapshots && (options.replay ?? (options.format == .html || options.withGeometry))
        // Messages of the violations `--max-violations` may leave out are written after the limit.
        let messagesAbove = options.maxViolations > 0 ? options.maxViolations : nil
        // SARIF writes the violations `ignore` entries left out as suppressed results.
        let keepSuppressed = options.format == .sarif
        // Which violations `--max-violations` keeps depends on the scene alone (and, with a
        // baseline, on how each compares with it): leave the rest out as soon as a scene is
        // checked (and compared), so that a run holds at most that many per rule and scene instead
        // of every scene's tracked violations (up to `--max-tracked` each: 20 scenes of 1,000
        // stacked buttons took 8.2 GB, 5 with a baseline 4.8 GB). The comparison goes in the
        // run's order (`BaselineSteps`); only a run naming one scene path twice, whose gate and
        // matches then cross scenes, is compared as a whole at the end with every violation held.
        let reportPaths = inputs.map(\.path.report)
        // The baseline, read as a stream keeping what the gate compares (`Report.readBaseline`);
        // entity paths only of its scenes this run does not name (matched from another folder).
        var baselineReport: Report?
        var baselineWarnings: [Diagnostic] = []
        if let baselinePath = options.baselinePath {
            do {
                baselineReport = try Report.readBaseline(path: baselinePath, currentScenePaths: Set(reportPaths),
                                                         legacyScenePaths: Set(inputs.map(\.path.legacy)))
            } catch {
                return failedRun([error], configuration: configuration)
            }
            if let b = baselineReport {
                baselineWarnings = Report.repeatedSceneWarnings(baseline: b, path: baselinePath, currentScenePaths: reportPaths)
            }
        }
        let wholeComparison = baselineReport != nil && Set(reportPaths).count < reportPaths.count
        let limitEach = wholeComparison ? nil : messagesAbove
        let steps = wholeComparison ? nil : baselineReport.map {
            BaselineSteps(BaselineMatcher(baseline: $0, currentScenePaths: reportPaths), failOn: Severity(config.failOn),
                          perRule: limitEach)
        }
        let work: @Sendable (Int) -> Void = { n in
            let (i, path, names) = toCheck[n]
            var checked = checkScene(path: path, names: names, load: sceneLoad, isolation: isolation, configuration: config,
                                     snapshot: wantSnapshots, budget: budget, replay: wantReplay,
                                     deferringMessagesAbove: messagesAbove, keepSuppressed: keepSuppressed)
            results.addIgnored(checked.ignored, applicable: checked.ignoreApplicable)
            if let steps {
                // `store` may be handed an earlier-checked later scene: its own slot.
                steps.checked(n, checked) { m, checked in
                    results.set(toCheck[m].index, (checked.report, checked.snapshot), messages: checked.messages)
                }
            } else {
                if let limitEach { _ = limitViolations(&checked, perRule: limitEach) }
                results.set(i, (checked.report, checked.snapshot), messages: checked.messages)
            }
            let done = results.completed()
            options.progress?(done, toCheck.count)
        }
        checkInRunOrder(count: toCheck.count, jobs: jobs, steps: steps, work: work)
        var scenes: [SceneReport] = []
        var snapshots: [String: SceneSnapshot] = [:]
        let pending = results.allMessages()
        for (n, r) in results.all().enumerated() {
            var scene = r.report
            if options.shard != nil, n < inputs.count { scene.order = inputs[n].order }
            if options.withGeometry { scene.geometry = r.snapshot }
            scenes.append(scene)
            if let s = r.snapshot { snapshots[r.report.path] = s }
        }
        var report = Report(toolVersion: version, pointAngle: load.pointAngle ?? Units.defaultPointAngle,
                            failOn: Severity(configuration.failOn), scenes: scenes)
        report.generatedAt = options.timestamp.map(Report.timestamp)
        report.shard = options.shard
        report.notChecked = catalogNotChecked
        report.configurationChanges = configuration.changesFromDefaults
        report.violationLimit = options.maxViolations
        var comparison: BaselineComparison?
        let exit: ExitCode
        if let steps {
            // Each scene was compared (its violations carry their status) and limited as it came;
            // `apply` gives the kept ones the same statuses and records the fixed ones.
            let fixed = steps.matcher.fixed(checkedScenes: report.scenes.filter { $0.status == .checked }, perRule: options.maxViolations)
            var c = BaselineComparison(entries: steps.entries + fixed.entries)
            c.fixedNotListed = fixed.notListed
            if let baselinePath = options.baselinePath {
                do { c = try Report.fixedDetails(c, baselinePath: baselinePath) } catch { return failedRun([error], configuration: configuration) }
            }
            comparison = c
            report.apply(c)
            exit = exitCode(of: report, failsGate: steps.failsGate)
        } else if let baselineReport {
            var c = BaselineComparison(current: report, baseline: baselineReport, fixedPerRule: options.maxViolations)
            if let baselinePath = options.baselinePath {
                do { c = try Report.fixedDetails(c, baselinePath: baselinePath) } catch { return failedRun([error], configuration: configuration) }
            }
            comparison = c
            report.apply(c)
            exit = exitCode(of: report, failsGate: report.failsGate(gating: c.gating))
        } else {
            exit = exitCode(of: report, failsGate: report.failsGate)
        }
        // A run that stopped early (this one or the baseline's) makes a scene's comparison partial.
        if let baselineReport { report.partialComparisons = report.partialComparisons(baseline: baselineReport) }
        // Bounded output, after the gate has seen every violation; only the violations kept get
        // the messages `checkScene` left out.
        let keep = violationsKept(in: report, perRule: options.maxViolations,
                                  total: options.format == .sarif ? sarifResultLimit : nil)
        for (s, messages) in pending.enumerated() where s < report.scenes.count && s < keep.count {
            guard let messages else { continue }
            for i in messages.indices where i < keep[s].count && keep[s][i] {
                if let m = messages.message(ofViolation: i) { report.scenes[s].violations[i].message = m }
            }
        }
        limitViolations(&report, keeping: keep)
        if options.format == .sarif {
            limitFixed(&report, total: sarifResultLimit)
            limitSuppressed(&report, total: sarifResultLimit)
        }
        return Validation(report: report, snapshots: snapshots, configuration: configuration, baseline: comparison,
                          exitCode: exit, diagnostics: configuration.warnings + configNotes + baselineWarnings
                            + unusedIgnores(configuration, counts: options.shard == nil ? results.ignoredTotals() : nil,
                                            applicable: results.ignoreApplicable(),
                                            scenes: report.scenes.filter { $0.status == .checked }.count))
    }

    /// `limitViolations(_:perRule:)` for one checked scene, writing the messages of the violations
    /// it keeps first: the same violations, messages and omitted counts as limiting the whole
    /// report later (a rule's most severe violation stays, so the gate sees the same; SARIF's
    /// total limit then chooses among the same kept violations). Returns which of the scene's
    /// violations it kept.
    static func limitViolations(_ checked: inout CheckedScene, perRule: Int) -> [Bool] {
        var one = Report(toolVersion: version, pointAngle: Units.defaultPointAngle, failOn: nil, scenes: [checked.report])
        let keep = violationsKept(in: one, perRule: perRule)
        if let messages = checked.messages, let row = keep.first {
            for i in messages.indices where i < row.count && row[i] {
                if let m = messages.message(ofViolation: i) { one.scenes[0].violations[i].message = m }
            }
        }
        limitViolations(&one, keeping: keep)
        if let scene = one.scenes.first { checked.report = scene }
        checked.messages = nil
        return keep.first ?? []
    }

    /// The exit code of a report, given whether its violations fail the gate (`Report.failsGate`):
    /// 2 when a scene could not be loaded; 1 when a violation fails the gate; 2 when a scene
    /// stopped early and nothing failed (it was not checked to its end, so it cannot pass: "could
    /// not check", never "checked and passed"); else 0.
    static func exitCode(of report: Report, failsGate: Bool) -> ExitCode {
        if report.hasLoadErrors { return .loadError }
        if failsGate { return .violations }
        return report.isIncomplete ? .loadError : .clean
    }

    /// One configuration applies to a run (`--config`, else the `.spatialcheck.yaml` found from the
    /// current directory), but a scene's nearest `.spatialcheck.yaml` (at or above the scene) still
    /// makes its folder the scene's project root. When that file is not the one applied, its
    /// `failOn` and rules do not count for the scene: a warning on standard error for each such file
    /// (in the order of the scenes, naming the first scene and how many more) says so instead of
    /// ignoring it silently (s27 F6; docs/ci.md, "One configuration per run"). Reports are unchanged.
    static func unappliedConfigurations(scenes: [String], applied: String?, explicit: Bool, root: String?,
                                        cwd: String) -> [Diagnostic] {
        let appliedReal = applied.map { ProjectRoot.canonical(ProjectRoot.absolute($0)) }
        var nearest: [String: String?] = [:]   // canonical folder → its nearest configuration file
        func configuration(above folder: String) -> String? {
            if let known = nearest[folder] { return known }
            let found = RuleConfiguration.find(startingAt: folder)
            nearest[folder] = found
            return found
        }
        var order: [String] = []
        var seen: [String: (scene: String, count: Int)] = [:]
        for scene in scenes {
            let real = ProjectRoot.canonical(ProjectRoot.absolute(scene))
            guard let file = configuration(above: (real as NSString).deletingLastPathComponent), file != appliedReal else { continue }
            if let s = seen[file] { seen[file] = (s.scene, s.count + 1) } else { seen[file] = (scene, 1); order.append(file) }
        }
        let used = applied.map { "\(shownConfiguration($0, cwd: cwd))\(explicit ? " (--config)" : "")" }
            ?? "no configuration file (every rule's defaults, failOn: error)"
        return order.compactMap { file in
            guard let (scene, count) = seen[file] else { return nil }
            let folder = ProjectRoot.display((file as NSString).deletingLastPathComponent, from: cwd)
            let scenes = count == 1 ? scene : "\(scene) and \(count - 1) more scene\(count == 2 ? "" : "s") under \(folder)"
            let rootNote = root == nil ? "; its folder is still the project root of \(count == 1 ? "that scene" : "these scenes") (report paths, fingerprints, assets)" : ""
            return Diagnostic(.warning, file: shownConfiguration(file, cwd: cwd),
                              message: "is not applied to \(scenes): the run uses \(used), so this file's failOn and rules do not count there\(rootNote)",
                              hint: "one configuration per run: run from \(folder) (or pass --config \(shownConfiguration(file, cwd: cwd))) to check those scenes with it\(root == nil ? ", or pass --root with the repository's top folder to make it every scene's project root" : "")")
        }
    }

    /// A configuration file as messages name it: relative to the current directory when inside it
    /// (`./.spatialcheck.yaml` for its own), `../.spatialcheck.yaml` above it, else absolute.
    static func shownConfiguration(_ file: String, cwd: String) -> String {
        let real = ProjectRoot.canonical(ProjectRoot.absolute(file))
        let folder = ProjectRoot.display((real as NSString).deletingLastPathComponent, from: cwd)
        return (folder == "/" ? "" : folder) + "/" + (real as NSString).lastPathComponent
    }

    /// A warning for each `ignore` entry that silenced no violation in the scenes checked: a rule id
    /// or entity path that does not match (a renamed entity), or a problem since fixed (the
    /// session-18 trial: an entry `bord/**` matched nothing and nothing said so). Not with
    /// `--shard` (the entry may match in another shard), nor when no scene was checked, nor for an
    /// entry that could not have applied to a scene of the run (`applicable`, per entry: its `scene`
    /// glob matched a checked scene, or it has none and its entity glob matched an entity there;
    /// `IgnoreEntry.matchesAnEntity`), so a run of one app's folder does not name the entries meant
    /// for the others (s30 F6). An empty `applicable` counts every entry as applicable.
    static func unusedIgnores(_ configuration: RuleConfiguration, counts: [Int]?, applicable: [Bool] = [],
                              scenes: Int) -> [Diagnostic] {
        guard let counts, scenes > 0 else { return [] }
        return zip(configuration.ignore, counts).enumerated().compactMap { k, item in
            let (entry, n) = item
            guard n == 0, k >= applicable.count || applicable[k] else { return nil }
            return Diagnostic(.warning, file: configuration.path ?? RuleConfiguration.fileName, location: entry.location,
                              message: "the ignore entry \(entry.described) silenced no violation in the \(scenes) scene\(scenes == 1 ? "" : "s") checked",
                              hint: "check the rule id and the entity path (`spatialcheck validate SCENE --format json` lists each violation's rule and entities), or remove the entry if the problem is fixed")
        }
    }

    static func failedRun(_ diagnostics: [Diagnostic], configuration: RuleConfiguration) -> Validation {
        Validation(report: Report(toolVersion: version, pointAngle: Units.defaultPointAngle, failOn: .error, scenes: []),
                   snapshots: [:], configuration: configuration, baseline: nil, exitCode: .loadError,
                   diagnostics: diagnostics, aborted: true)
    }

    /// Loads, simulates and checks one scene: read from `path`, reported (and fingerprinted) as
    /// `names.report`, the path relative to the project root; a scene over `budget` is not simulated.
    static func checkScene(path: String, names: ScenePaths? = nil, load: LoadOptions, isolation: AssetImportIsolation? = nil,
                           configuration: RuleConfiguration, snapshot: Bool = true,
                           budget: WorkBudget = WorkBudget(), replay: Bool = false) -> (report: SceneReport, snapshot: SceneSnapshot?) {
        let checked = checkScene(path: path, names: names, load: load, isolation: isolation, configuration: configuration,
                                 snapshot: snapshot, budget: budget, replay: replay, deferringMessagesAbove: nil)
        return (checked.report, checked.snapshot)
    }

    /// Two different files whose paths relative to their own project roots are the same (folders
    /// each with a `.spatialcheck.yaml`: `appA/k.scene.yaml` and `appB/k.scene.yaml` are both
    /// `k.scene.yaml`) would share fingerprints, so a baseline of one would make the other's
    /// violations "unchanged". The first keeps the path; each later one is an error scene naming
    /// both and `--root`. (The same file given twice is left alone.)
    static func refusingSharedReportPaths(_ inputs: [(input: Input, path: ScenePaths, order: Int)])
        -> [(input: Input, path: ScenePaths, order: Int)] {
        var first: [String: ScenePaths] = [:]
        return inputs.map { item in
            guard case .scene(let given) = item.input else { return item }
            if let other = first[item.path.report], other.file != item.path.file {
                let d = Diagnostic(file: given, message: "its path relative to its project root, '\(item.path.report)', is also the path of \(other.legacy) (relative to another project root, the folder of another .spatialcheck.yaml): reports, fingerprints and baselines could not tell the two scenes apart",
                                   hint: "check them against one root (--root DIR, e.g. the repository's top folder) or in separate runs")
                return (.error(path: given, d), item.path, item.order)
            }
            if first[item.path.report] == nil { first[item.path.report] = item.path }
            return item
        }
    }

    /// A checked scene, with the messages left to write (`RuleEngine.finish(deferringMessagesAbove:_:)`).
    struct CheckedScene {
        var report: SceneReport
        var snapshot: SceneSnapshot?
        /// nil when every message is written (also when the scene was not simulated).
        var messages: PendingMessages?
        /// Per `ignore` entry of the configuration, the violations it silenced (empty: not checked).
        var ignored: [Int] = []
        /// Per `ignore` entry, whether it could have applied to the scene (`unusedIgnores`; empty:
        /// not checked).
        var ignoreApplicable: [Bool] = []
    }

    /// `checkScene`, leaving the message empty for the violations of every rule with more than
    /// `limit` violations in the scene (nil: none); `messages` writes them. Everything else in the
    /// report is the same.
    static func checkScene(path: String, names: ScenePaths?, load: LoadOptions, isolation: AssetImportIsolation?,
                           configuration: RuleConfiguration, snapshot: Bool, budget: WorkBudget, replay: Bool,
                           deferringMessagesAbove limit: Int?, keepSuppressed: Bool = false) -> CheckedScene {
        let names = names ?? ScenePaths(report: path, legacy: path, file: path)
        var scene: Scene
        do { scene = try loadScene(path: path, options: load, isolation: isolation) } catch {
            var failed = SceneReport(path: names.report, status: .error, errors: error.diagnostics)
            failed.legacyPath = names.legacy; failed.filePath = names.file; failed.repositoryPath = names.repository
            return CheckedScene(report: failed, snapshot: nil, messages: nil)
        }
        scene.path = names.report
        scene.relocateUSDPrims(sceneReportPath: names.report)
        let simulator = Simulator(scene: scene)
        if let over = budget.check(WorkBudget.work(of: scene, frames: simulator.frameCount), path: path) {
            return CheckedScene(report: SceneReport(path: path, status: .error, errors: [over]), snapshot: nil, messages: nil)
        }
        let engine = RuleEngine(scene: scene, configuration: configuration)
        engine.trackingLimit = budget.trackedViolations
        // Stops after the frame in which the tracking limit is reached, the work counted passes the
        // work budget, or the work projected from the steady frames does (`FrameStops`).
        struct Stop: Error { var stop: EarlyStop }
        let frames = simulator.frameCount
        var stops = FrameStops(budget: budget, frames: frames)
        var stopped: EarlyStop?
        do {
            try simulator.run { frame in
                engine.consume(frame)
                if let stop = stops.check(engine, frame: frame.frame) { throw Stop(stop: stop) }
            }
        } catch {
            // Only `Stop` is thrown (the simulator rethrows what its body throws).
            stopped = (error as? Stop)?.stop
                ?? EarlyStop(afterFrame: max(0, frames - 1), frames: frames, trackingLimit: budget.trackedViolations)
        }
        // One violation at a time into the report's form: no second array of them all.
        var violations: [ReportViolation] = []
        violations.reserveCapacity(engine.aggregateCount)
        // What the `ignore` entries left out: every fingerprint (a baseline compares them), and
        // for SARIF the first `limit` violations of each rule (those the engine wrote a message for).
        let ignores = configuration.ignore
        var ignoredPrints = Array(repeating: [String](), count: ignores.count)
        var suppressed: [SuppressedViolation] = []
        var suppressedPerRule: [String: Int] = [:]
        let pending = engine.finish(deferringMessagesAbove: limit, ignored: ignores.isEmpty ? nil : { k, v in
            guard k < ignoredPrints.count else { return }
            ignoredPrints[k].append(v.fingerprint)
            guard keepSuppressed else { return }
            let n = suppressedPerRule[v.rule, default: 0]
            suppressedPerRule[v.rule] = n + 1
            if n < (limit ?? Int.max) { suppressed.append(SuppressedViolation(violation: ReportViolation(v), reason: ignores[k].reason)) }
        }) { violations.append(ReportViolation($0)) }
        ReportViolation.attachUSDPrims(&violations, scene: scene)
        if !suppressed.isEmpty {
            var shown = suppressed.map(\.violation)
            ReportViolation.attachUSDPrims(&shown, scene: scene)
            for i in suppressed.indices where i < shown.count { suppressed[i].violation = shown[i] }
        }
        // Whether each entry could have applied here (`unusedIgnores`).
        let entityPaths = ignores.isEmpty ? [] : scene.entities.map(\.path)
        let primPaths: [String?] = ignores.contains(where: \.isPrimGlob) ? scene.entities.map { $0.usdPrim?.path } : []
        let applicable = ignores.map { e in
            e.applies(toScene: names.report) && (e.scene != nil || e.matchesAnEntity(paths: entityPaths, prims: primPaths))
        }
        let messages = pending.indices.isEmpty ? nil : pending
        if names.legacy != names.report {
            for i in violations.indices {
                violations[i].legacyFingerprint = legacyFingerprint(of: violations[i], path: names.report, legacyPath: names.legacy)
            }
        }
        var report = SceneReport(
            path: names.report, name: scene.name, status: .checked, platform: scene.platform.rawValue,
            frameRate: simulator.frameRate, frames: simulator.frameCount, duration: simulator.duration,
            violations: violations, warnings: scene.warnings, rulesChecked: engine.rules.map(\.id))
        report.legacyPath = names.legacy
        report.filePath = names.file
        report.repositoryPath = names.repository
        report.stopped = stopped
        report.pointAngle = configuration.pointAngle ?? scene.units.pointAngle
        report.fixedPointSize = scene.units.fixedPointSize
        report.ignored = zip(configuration.ignore, engine.ignoredCounts).enumerated().compactMap { k, item in
            let (entry, count) = item
            return count > 0 ? IgnoredViolations(rule: entry.rule, entity: entry.entity, scene: entry.scene, count: count,
                                                 location: entry.location, fingerprints: ignoredPrints[k]) : nil
        }
        report.suppressed = suppressed
        guard snapshot else {
            return CheckedScene(report: report, snapshot: nil, messages: messages, ignored: engine.ignoredCounts, ignoreApplicable: applicable)
        }
        let plan = snapshotPlan(scene: scene, violations: violations)
        // One more run of the simulation captures both the pictures' geometry and the replay.
        let snap = captureSnapshot(scene: scene, options: SimulationOptions(), frames: plan.frames,
                                   marked: plan.marked, worst: plan.worst, series: plan.series, replayOf: replay ? violations : nil,
                                   through: stopped?.afterFrame)
        // Kept as a saved report would give it back, so the page is the same either way.
        return CheckedScene(report: report, snapshot: snap.quantized(), messages: messages, ignored: engine.ignoredCounts,
                            ignoreApplicable: applicable)
    }

    /// What no tool checked, from the rule catalog: its rules not implemented and its
    /// manual-review items (`spatialcheck rules --manual` lists them).
    public static var catalogNotChecked: NotChecked {
        NotChecked(catalogRules: RuleCatalog.notChecked.count, manualReview: RuleCatalog.manualReview.count)
    }

    /// The last line of `validate`'s text output, written to standard error so that the report on
    /// standard output (or `--output`) stays byte-identical from run to run: "run time 1.42 s".
    public static func runTimeLine(seconds: Double) -> String {
        "run time \(fmt(max(0, seconds), 2)) s\n"
    }

    /// Renders a validation in the requested format.
    public static func render(_ v: Validation, format: ReportFormat, color: Bool = false, quiet: Bool = false,
                              expand: Bool = false) -> String {
        rendered { render(v, format: format, color: color, quiet: quiet, expand: expand, to: $0) }
    }

    /// Renders a validation into `sink`: the bytes of `render(_:format:...)`.
    public static func render(_ v: Validation, format: ReportFormat, color: Bool = false, quiet: Bool = false,
                              expand: Bool = false, to sink: ReportSink) {
        // The text of `validate` ends with a count per rule (`report` starts with its own summary).
        if format == .text { v.report.writeText(color: color, quiet: quiet, byRule: true, expand: expand, to: sink); return }
        render(v.report, snapshots: v.snapshots, format: format, color: color, quiet: quiet, expand: expand, to: sink)
    }

    /// Renders a report; `snapshots` (scene path → geometry) give the HTML report its pictures.
    public static func render(_ report: Report, snapshots: [String: SceneSnapshot], format: ReportFormat,
                              color: Bool = false, quiet: Bool = false, expand: Bool = false) -> String {
        rendered { render(report, snapshots: snapshots, format: format, color: color, quiet: quiet, expand: expand, to: $0) }
    }

    /// Renders a report into `sink`: JSON and SARIF are written as they are built (one violation
    /// at a time), text about 64 KiB at a time; the other formats are rendered whole, then written.
    public static func render(_ report: Report, snapshots: [String: SceneSnapshot], format: ReportFormat,
                              color: Bool = false, quiet: Bool = false, expand: Bool = false, to sink: ReportSink) {
        switch format {
        case .text: report.writeText(color: color, quiet: quiet, expand: expand, to: sink)
        case .json: report.writeJSON(to: sink)
        case .sarif: report.writeSARIF(rules: ruleDescriptors, to: sink)
        case .junit: sink.write(report.junit())
        case .markdown: sink.write(report.markdown(expand: expand))
        case .html: sink.write(report.html(snapshots: snapshots))
        case .xcode: sink.write(report.xcode())
        case .github: sink.write(report.github(workspace: githubWorkspace))
        }
    }

    /// What `render` writes into an in-memory sink, as a string.
    static func rendered(_ render: (ReportSink) -> Void) -> String {
        let sink = ReportSink(inMemory: "output")
        render(sink)
        return String(decoding: sink.contents, as: UTF8.self)
    }

    /// The checkout GitHub annotations are relative to: `GITHUB_WORKSPACE`, else the working directory.
    static var githubWorkspace: String {
        let env = ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"] ?? ""
        return env.isEmpty ? FileManager.default.currentDirectoryPath : env
    }

    /// The rule catalog as the renderers see it.
    public static var ruleDescriptors: [RuleDescriptor] {
        RuleCatalog.rules.map {
            RuleDescriptor(id: $0.id, name: $0.name, summary: $0.summary, fix: $0.fixHint,
                           helpURL: $0.citations.first?.url ?? "https://developer.apple.com/design/human-interface-guidelines/",
                           defaultSeverity: $0.defaultSeverity, category: $0.category.rawValue)
        }
    }
}

extension ReportViolation {
    init(_ v: Violation) {
        self.init(rule: v.rule, severity: v.severity, entities: v.entities,
                  spans: v.spans.compactMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil },
                  frameCount: v.frameCount, firstTime: v.firstTime, lastTime: v.lastTime, measured: v.measured,
                  threshold: v.threshold, unit: v.unit, worstFrame: v.worstFrame, message: v.message, help: v.help,
                  fingerprint: v.fingerprint, location: v.location, borderline: v.borderline)
        omittedSpans = v.omittedSpans
    }
}

extension Severity {
    /// The severity at which `failOn` starts failing, nil for `never`.
    init?(_ failOn: FailOn) { self.init(rawValue: failOn.rawValue) }
}

/// Results of parallel scene checks, stored by input index.
final class SceneResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [(report: SceneReport, snapshot: SceneSnapshot?)?]
    private var messages: [PendingMessages?]
    private var done = 0
    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        messages = Array(repeating: nil, count: count)
    }
    /// Stores slot `i` (with the messages still to write); `counts` says whether it is a checked scene
    /// (for progress).
    func set(_ i: Int, _ r: (report: SceneReport, snapshot: SceneSnapshot?), messages m: PendingMessages? = nil,
             counts: Bool = true) {
        lock.lock(); slots[i] = r; messages[i] = m; if counts { done += 1 }; lock.unlock()
    }
    /// The messages still to write, in the order of `all()`.
    func allMessages() -> [PendingMessages?] {
        lock.lock(); defer { lock.unlock() }
        return zip(slots, messages).compactMap { $0.0 == nil ? nil : .some($0.1) }
    }
    func completed() -> Int { lock.lock(); defer { lock.unlock() }; return done }
    /// Per `ignore` entry, the violations it silenced over the scenes checked so far; nil when no
    /// scene was checked.
    private var ignored: [Int]?
    func addIgnored(_ counts: [Int]) {
        guard !counts.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        ignored = ignored.map { zip($0, counts).map { $0 + $1 } } ?? counts
    }
    func ignoredTotals() -> [Int]? { lock.lock(); defer { lock.unlock() }; return ignored }
    /// Per `ignore` entry, whether it could have applied to a scene checked so far (`unusedIgnores`).
    private var applicable: [Bool] = []
    func addIgnored(_ counts: [Int], applicable scene: [Bool]) {
        addIgnored(counts)
        guard !scene.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        applicable = applicable.isEmpty ? scene : zip(applicable, scene).map { $0 || $1 }
    }
    func ignoreApplicable() -> [Bool] { lock.lock(); defer { lock.unlock() }; return applicable }
    func all() -> [(report: SceneReport, snapshot: SceneSnapshot?)] {
        lock.lock(); defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}

/// `validate --baseline`: compares each checked scene with the baseline in the run's order (the
/// order `BaselineComparison` compares a whole report in; a scene checked in parallel waits for
/// the ones before it), decides its part of the gate on all of its violations, then leaves out
/// the violations `--max-violations` does not keep, so a run holds the kept violations of the
/// scenes compared and the whole violations only of scenes waiting for an earlier one.
final class BaselineSteps: @unchecked Sendable {
    private let lock = NSCondition()
    private(set) var matcher: BaselineMatcher
    private let failOn: Severity?, perRule: Int?
    private var waiting: [Int: SpatialCheck.CheckedScene] = [:]
    private var next = 0
    /// The comparison's entries of the violations kept, in the run's order.
    private(set) var entries: [BaselineEntry] = []
    /// Whether a violation of a compared scene fails the gate (a new or worsened one at or above
    /// `failOn`): `Report.failsGate(gating:)` of the whole report, one scene at a time (a
    /// fingerprint names its scene, and no two scenes of such a run have the same path).
    private(set) var failsGate = false

    init(_ matcher: BaselineMatcher, failOn: Severity?, perRule: Int?) {
        self.matcher = matcher; self.failOn = failOn; self.perRule = perRule
    }

    /// Waits until scene `n` may be checked: until fewer than `window` scenes before it are still
    /// to be compared. A scene checked before an earlier one waits, whole, until that one is
    /// compared; without this, a slow first scene let `--jobs` workers check (and hold) every
    /// later scene meanwhile, so memory grew with the number of scenes. With it, at most `window`
    /// scenes are checked and not yet compared at any time. The worker with the oldest scene never
    /// waits, so the run always moves on.
    func waitForRoom(_ n: Int, window: Int) {
        lock.lock(); defer { lock.unlock() }
        while n >= next + max(1, window) { waitingWorkers += 1; lock.wait(); waitingWorkers -= 1 }
    }

    /// Workers waiting in `waitForRoom`, and the most scenes ever held checked but not compared
    /// (`BaselineStepsTests` observes both).
    private var waitingWorkers = 0, mostHeld = 0
    var state: (waitingWorkers: Int, mostHeld: Int) { lock.lock(); defer { lock.unlock() }; return (waitingWorkers, mostHeld) }

    /// Scene `n` of the checked scenes was checked: compares it and every later one already
    /// checked, in order, handing each (with its number) to `store` once it is compared and limited.
    func checked(_ n: Int, _ scene: SpatialCheck.CheckedScene, store: (Int, SpatialCheck.CheckedScene) -> Void) {
        lock.lock(); defer { lock.unlock() }
        waiting[n] = scene
        mostHeld = max(mostHeld, waiting.count)
        while var checked = waiting.removeValue(forKey: next) {
            let m = next
            next += 1
            let found = matcher.compare(checked.report)
            // The baseline violations its `ignore` entries left out are suppressed, not fixed.
            matcher.suppress(checked.report)
            var gating = Set<String>()
            for (i, e) in zip(checked.report.violations.indices, found) {
                checked.report.violations[i].baseline = e.status
                if e.status.gates { gating.insert(checked.report.violations[i].fingerprint) }
            }
            if !failsGate {
                failsGate = Report(toolVersion: SpatialCheck.version, pointAngle: Units.defaultPointAngle, failOn: failOn,
                                   scenes: [checked.report]).failsGate(gating: gating)
            }
            // The matches of the violations kept, which are in the same order.
            var kept = found
            if let perRule {
                let keep = SpatialCheck.limitViolations(&checked, perRule: perRule)
                kept = zip(found, keep).filter(\.1).map(\.0)
            }
            let scene = checked.report
            entries += zip(kept, scene.violations).map { matcher.entry($0, current: $1, scene: scene.path) }
            store(m, checked)
        }
        lock.broadcast()
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value - 1 }
}
