import Foundation
import SpatialModel
import Rules
import Reporting

extension SpatialCheck {
    public struct ReportOptions: Sendable {
        public var format: ReportFormat = .text
        public var baselinePath: String?
        public var failOn: FailOn?
        public var color = false
        /// Text output: list only scenes with violations or errors (as `validate --quiet`).
        public var quiet = false
        /// `--timestamp`: the time written as the report's `generatedAt` (nil: none).
        public var timestamp: Date?
        public init() {}
    }

    /// `spatialcheck report REPORT.json...`: merge saved reports, summarise by rule, scene and entity
    /// (worst first), compare with a baseline, render any format. The gate is `options.failOn`, else
    /// the strictest `failOn` of the reports (`Report.merge`). Reports are normalised as they are
    /// read (`Report.parse`): sorted entities and violations, missing fingerprints recomputed.
    public static func report(paths: [String], options: ReportOptions) -> Outcome {
        var reports: [Report] = []
        var diagnostics: [Diagnostic] = []
        func read(_ path: String) -> Report? {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return try Report.parse(data, path: path)
            } catch let d as Diagnostic {
                diagnostics.append(d)
            } catch {
                diagnostics.append(Diagnostic(file: path, message: "cannot read the report file"))
            }
            return nil
        }
        for p in paths { if let r = read(p) { reports.append(r) } }
        var merged = Report.merge(reports)
        if let failOn = options.failOn { merged.failOn = Severity(failOn) }
        merged.generatedAt = options.timestamp.map(Report.timestamp)
        var gating: Set<String>?
        if let b = options.baselinePath {
            guard let baseline = read(b) else { return .failure(diagnostics) }
            let c = BaselineComparison(current: merged, baseline: baseline)
            gating = c.gating
            merged.apply(c)
        }
        guard diagnostics.isEmpty else { return .failure(diagnostics) }
        let exit: ExitCode = merged.hasLoadErrors ? .loadError : merged.failsGate(gating: gating) ? .violations : .clean
        // SARIF stays under code scanning's result limit (after the gate has seen every violation).
        if options.format == .sarif { limitViolations(&merged, perRule: 0, total: sarifResultLimit) }
        // Saved reports carry no geometry, so the HTML has no pictures here.
        var output = render(merged, snapshots: [:], format: options.format, color: options.color, quiet: options.quiet)
        if options.format == .text { output = merged.summary() + "\n" + output }
        return Outcome(output: output, exitCode: exit)
    }
}

extension Report {
    /// Counts by rule, by scene and by entity, worst first (severity, then count).
    public func summary() -> String {
        struct Tally { var error = 0, warning = 0, info = 0
            var key: (Int, Int, Int) { (error, warning, info) }
            mutating func add(_ s: Severity) { switch s { case .error: error += 1; case .warning: warning += 1; case .info: info += 1 } }
        }
        var byRule: [String: Tally] = [:], byScene: [String: Tally] = [:], byEntity: [String: Tally] = [:]
        for s in scenes {
            for v in s.violations {
                byRule[v.rule, default: Tally()].add(v.severity)
                byScene[s.path, default: Tally()].add(v.severity)
                for e in v.entities { byEntity[s.path + " › " + e, default: Tally()].add(v.severity) }
            }
        }
        func section(_ title: String, _ t: [String: Tally], limit: Int = 20) -> String {
            guard !t.isEmpty else { return "" }
            let sorted = t.sorted { a, b in a.value.key != b.value.key ? a.value.key > b.value.key : a.key < b.key }
            let rows = sorted.prefix(limit).map { [$0.key, String($0.value.error), String($0.value.warning), String($0.value.info)] }
            var out = "\(title)\n" + table(header: ["", "errors", "warnings", "info"], rows: rows)
            if sorted.count > limit { out += "  … and \(sorted.count - limit) more\n" }
            return out + "\n"
        }
        return section("by rule", byRule) + section("by scene", byScene) + section("by entity", byEntity)
    }
}
