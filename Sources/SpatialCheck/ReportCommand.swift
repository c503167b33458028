import Foundation
import SpatialModel
import Rules
import Reporting

extension SpatialCheck {
    public struct ReportOptions: Sendable {
        public var format: ReportFormat = .text
        public var baselinePath: String?
        public var failOn: FailOn?
        /// `--config`: the configuration whose `failOn` is the gate without `failOn` (nil: the
        /// `.spatialcheck.yaml` found from the current directory, as `validate` finds it).
        public var configPath: String?
        public var color = false
        /// Text output: list only scenes with violations or errors (as `validate --quiet`).
        public var quiet = false
        /// `--expand`: text and Markdown show every violation on its own (no folding).
        public var expand = false
        /// `--timestamp`: the time written as the report's `generatedAt` (nil: none).
        public var timestamp: Date?
        /// `--root`: the project root the reports' scene paths are relative to, for the formats
        /// that need the file's absolute path (`xcode`); nil: found from the working directory.
        public var root: String?
        public init() {}
    }

    /// A scene in more than one of the merged reports keeps only the last one's results
    /// (`Report.merge`): say so, since two runs of the same scenes (the default run and the
    /// `--setting reduceMotion` run, say) merged together silently lose the first run's findings.
    /// One warning naming the first three such scenes and the reports they are in.
    static func scenesInSeveralReports(_ reports: [Report], paths: [String]) -> [Diagnostic] {
        var inReports: [String: [Int]] = [:], order: [String] = []
        for (k, r) in reports.enumerated() {
            for s in r.scenes {
                if inReports[s.path] == nil { order.append(s.path) }
                if inReports[s.path]?.last != k { inReports[s.path, default: []].append(k) }
            }
        }
        let repeated = order.filter { (inReports[$0]?.count ?? 0) > 1 }
        guard let first = repeated.first, let where0 = inReports[first] else { return [] }
        let named = repeated.prefix(3).map { p in "\(p) (\((inReports[p] ?? []).map { paths[$0] }.joined(separator: ", ")))" }
        let more = repeated.count > 3 ? " and \(repeated.count - 3) more" : ""
        return [Diagnostic(.warning, file: paths[where0.last ?? 0],
                           message: "\(repeated.count) scene\(repeated.count == 1 ? " is" : "s are") in more than one report: \(named.joined(separator: "; "))\(more); the merged report keeps each scene's result from the last report that has it, and the others' findings are not in it",
                           hint: "merge the reports of one run at a time (a run with --setting reduceMotion checks the same scenes again: report it on its own), or give each run's scenes once")]
    }

    /// `spatialcheck report REPORT.json...`: merge saved reports, summarise by rule, scene and entity
    /// (worst first), compare with a baseline, render any format. The gate is `options.failOn`, else
    /// the configuration's `failOn` (as `validate` takes it: a project that gates at `warning` keeps
    /// that gate when it merges shards), else `error`: a `failOn` saved in the reports is
    /// information only (shards are often written with `--fail-on never` so that every shard
    /// finishes; that must not open the merged gate).
    /// Reports are normalised as they are read (`Report.parse`): sorted entities and violations,
    /// missing fingerprints recomputed. The reports of all the shards of one run
    /// (`validate --shard i/n`) are put back in the unsharded order (`Report.joinShards`).
    public static func report(paths: [String], options: ReportOptions) -> Outcome {
        var reports: [Report] = []
        var diagnostics: [Diagnostic] = []
        func read(_ path: String) -> Report? {
            do { return try Report.read(path: path) } catch {
                diagnostics.append(error)
                return nil
            }
        }
        var readPaths: [String] = []
        for p in paths { if let r = read(p) { reports.append(r); readPaths.append(p) } }
        guard diagnostics.isEmpty else { return .failure(diagnostics) }
        var merged: Report
        var warnings: [Diagnostic] = []
        do {
            if let joined = try Report.joinShards(reports, paths: readPaths) {
                merged = joined
            } else {
                merged = Report.merge(reports)
                warnings = scenesInSeveralReports(reports, paths: readPaths)
            }
        } catch {
            return .failure([error])
        }
        let cwd = FileManager.default.currentDirectoryPath
        var gate = options.failOn
        if gate == nil, let path = options.configPath ?? RuleConfiguration.find(startingAt: cwd).map({ normalizedPath($0) }) {
            do { gate = try RuleConfiguration.load(path: path).failOn } catch {
                return .failure((error as? LoadFailure)?.diagnostics ?? [Diagnostic(file: path, message: "\(error)")])
            }
        }
        merged.failOn = Severity(gate ?? .error)
        let root = ProjectRoot.find(for: cwd, explicit: options.root.map { $0.hasPrefix("/") ? $0 : cwd + "/" + $0 }, fallback: cwd)
        for i in merged.scenes.indices where merged.scenes[i].filePath == nil {
            let p = merged.scenes[i].path
            merged.scenes[i].filePath = p.hasPrefix("/") ? p : (root == "/" ? "/" : root + "/") + p
        }
        for i in merged.scenes.indices where merged.scenes[i].repositoryPath == nil && !merged.scenes[i].path.hasPrefix("/") {
            merged.scenes[i].repositoryPath = merged.scenes[i].filePath.flatMap { SpatialCheck.repositoryPath($0, projectRoot: root) }
        }
        merged.generatedAt = options.timestamp.map(Report.timestamp)
        merged.notChecked = catalogNotChecked
        var gating: Set<String>?
        if let b = options.baselinePath {
            // Read as a stream, keeping what the comparison needs (`Report.readBaseline`).
            let c: BaselineComparison
            var partial: [PartialComparison] = []
            do {
                let baseline = try Report.readBaseline(path: b, currentScenePaths: Set(merged.scenes.map(\.path)))
                warnings += Report.repeatedSceneWarnings(baseline: baseline, path: b, currentScenePaths: merged.scenes.map(\.path))
                partial = merged.partialComparisons(baseline: baseline)
                c = try Report.fixedDetails(BaselineComparison(current: merged, baseline: baseline, fixedPerRule: defaultMaxViolationsPerRule),
                                            baselinePath: b)
            } catch {
                return .failure([error])
            }
            gating = c.gating
            merged.apply(c)
            merged.partialComparisons = partial
        }
        guard diagnostics.isEmpty else { return .failure(diagnostics) }
        let exit = exitCode(of: merged, failsGate: merged.failsGate(gating: gating))
        // SARIF stays under code scanning's result limit (after the gate has seen every violation).
        if options.format == .sarif {
            merged.violationLimit = listLimitOfSavedReports(merged)
            limitViolations(&merged, perRule: 0, total: sarifResultLimit)
            limitFixed(&merged, total: sarifResultLimit)
        }
        // Reports written with `validate --with-geometry` carry each scene's geometry: the HTML
        // draws its pictures from it (without it, the page has no pictures).
        var snapshots: [String: SceneSnapshot] = [:]
        for s in merged.scenes { if let g = s.geometry { snapshots[s.path] = g } }
        let report = merged, geometry = snapshots
        let (format, color, quiet, expand) = (options.format, options.color, options.quiet, options.expand)
        return Outcome(streaming: { sink in
            if format == .text { sink.write(report.summary() + "\n") }
            render(report, snapshots: geometry, format: format, color: color, quiet: quiet, expand: expand, to: sink)
        }, diagnostics: warnings, exitCode: exit)
    }
}

extension SpatialCheck {
    /// The `--max-violations` the saved reports behind `report` were cut with, as far as it is
    /// known: 0 when none of their scenes left a violation out (only SARIF's result limit can then
    /// leave any out), else nil (their runs' limit is not written).
    static func listLimitOfSavedReports(_ report: Report) -> Int? {
        report.scenes.allSatisfy { $0.omitted.isEmpty } ? 0 : nil
    }
}

extension Report {
    /// Counts by rule, by scene and by entity, worst first (severity, then count); names escaped
    /// for a terminal (`Escape.text`). By rule and by scene count every violation, also those
    /// `--max-violations` left out of the lists (`omittedViolations[].count`, the scene's summary),
    /// as the last line does (trial s22 F7); by entity can count only the listed ones, and says so
    /// when some were left out. Counts of a scene stopped in the middle of a frame are lower bounds,
    /// and the titles say so.
    public func summary() -> String {
        struct Tally { var error = 0, warning = 0, info = 0
            var key: (Int, Int, Int) { (error, warning, info) }
            mutating func add(_ s: Severity, _ n: Int = 1) { switch s { case .error: error += n; case .warning: warning += n; case .info: info += n } }
        }
        var byRule: [String: Tally] = [:], byScene: [String: Tally] = [:], byEntity: [String: Tally] = [:]
        var leftOut = 0
        for s in scenes {
            for v in s.violations {
                byRule[v.rule, default: Tally()].add(v.severity)
                for e in v.entities { byEntity[s.path + " › " + e, default: Tally()].add(v.severity) }
            }
            for o in s.omitted { byRule[o.rule, default: Tally()].add(o.severity, o.count) }
            leftOut += s.omittedCount
            guard !s.violations.isEmpty || s.omittedCount > 0 else { continue }
            for severity in Severity.allCases { byScene[s.path, default: Tally()].add(severity, s.count(severity)) }
        }
        let lowerBounds = lowerBoundScenes > 0 ? " (at least; a scene stopped at the tracking limit)" : ""
        let listedOnly = leftOut > 0 ? " (listed violations only: \(leftOut) more left out by --max-violations)" : ""
        func section(_ title: String, _ t: [String: Tally], limit: Int = 20) -> String {
            guard !t.isEmpty else { return "" }
            let sorted = t.sorted { a, b in a.value.key != b.value.key ? a.value.key > b.value.key : a.key < b.key }
            let rows = sorted.prefix(limit).map { [Escape.text($0.key), String($0.value.error), String($0.value.warning), String($0.value.info)] }
            var out = "\(title)\n" + table(header: ["", "errors", "warnings", "info"], rows: rows)
            if sorted.count > limit { out += "  … and \(sorted.count - limit) more\n" }
            return out + "\n"
        }
        return section("by rule" + lowerBounds, byRule) + section("by scene" + lowerBounds, byScene)
            + section("by entity" + listedOnly, byEntity)
    }
}
