import SpatialModel
import Rules

// MARK: - xcode and github: one line per finding, for editors, IDEs and CI logs

extension Report {
    /// A finding as the one-line formats show it: where, how bad, what, which rule.
    struct Annotation {
        var file: String
        var line: Int
        var column: Int
        var level: String   // error, warning, note
        var message: String
        var rule: String
    }

    /// Annotations `--format github` writes at most of each level (error, warning, notice): GitHub
    /// shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per job
    /// (actions/toolkit, docs/problem-matchers.md, "Limitations"); past that a workflow command is
    /// dropped without a word (the session-18 trial's 50 `::error` lines showed 10) and only
    /// lengthens the log (a scene at the tracking limit with `--max-violations 0` wrote 500,001
    /// lines, 126 MB).
    public static let githubAnnotationsPerLevel = 10

    /// The rule id the annotation formats give a scene's "N more violations not shown" line
    /// (`OmittedViolations.notShown`, what `--max-violations` left out).
    public static let violationLimitRule = "violation-limit"

    /// Every current violation (with a baseline, only new and worsened ones: known problems are not
    /// shown again), then a note of how many `--max-violations` left out (`violation-limit`), then
    /// every load error (`load-error`) and loader warning (`load-warning`).
    /// A finding without a source location (a scene-wide one) points at line 1, column 1 of the
    /// scene file. `file` is where the scene file is, as `path(_:)` gives it. With `perSeverity` (by
    /// `Severity.rank`), at most that many violations of each severity, the first in report order;
    /// `leftOut` counts the others.
    func annotations(path: (SceneReport) -> String, perSeverity: [Int]? = nil) -> (annotations: [Annotation], leftOut: Int) {
        func level(_ s: Severity) -> String { s == .error ? "error" : s == .warning ? "warning" : "note" }
        var quota = [Int.max, Int.max, Int.max]
        var leftOut = 0
        if let perSeverity {
            var count = [0, 0, 0]
            for scene in scenes { for v in scene.violations where v.gates { count[v.severity.rank] += 1 } }
            for r in quota.indices {
                quota[r] = min(count[r], max(0, r < perSeverity.count ? perSeverity[r] : 0))
                leftOut += count[r] - quota[r]
            }
        }
        var out: [Annotation] = []
        for scene in scenes {
            let file = path(scene)
            for v in scene.violations where v.gates {
                guard quota[v.severity.rank] > 0 else { continue }
                quota[v.severity.rank] -= 1
                var message = v.message
                if v.baseline != nil { message += " (\(v.baselineNote(unit: v.unit)))" }
                out.append(Annotation(file: file, line: max(1, v.location?.line ?? 1), column: max(1, v.location?.column ?? 1),
                                      level: level(v.severity), message: message, rule: v.rule))
            }
            // What `--max-violations` left out of this scene, as every format says it (a note on line 1).
            if let line = OmittedViolations.notShown(scene.omitted) {
                out.append(Annotation(file: file, line: 1, column: 1, level: "note", message: line, rule: Report.violationLimitRule))
            }
            let errors = scene.status == .error && scene.errors.isEmpty
                ? [Diagnostic(file: scene.path, message: "could not be loaded")] : scene.errors
            for e in errors {
                // A load error names its own file (an asset, say) when it is not the scene.
                let message = (e.file.isEmpty || e.file == scene.path || e.file == scene.legacyPath ? "" : e.file + ": ")
                    + e.message + (e.hint.map { " (\($0))" } ?? "")
                out.append(Annotation(file: file, line: max(1, e.location?.line ?? 1), column: max(1, e.location?.column ?? 1),
                                      level: "error", message: message, rule: "load-error"))
            }
            for w in scene.warnings {
                out.append(Annotation(file: file, line: max(1, w.location?.line ?? 1), column: max(1, w.location?.column ?? 1),
                                      level: "warning", message: w.message + (w.hint.map { " (\($0))" } ?? ""), rule: "load-warning"))
            }
            if let stopped = scene.stopped {
                out.append(Annotation(file: file, line: 1, column: 1, level: "warning", message: stopped.line, rule: stopped.annotationRule))
            }
            if let partial = partialComparison(scene.path) {
                out.append(Annotation(file: file, line: 1, column: 1, level: "warning", message: partial.line, rule: "baseline-partial"))
            }
        }
        return (out, leftOut)
    }

    /// `--format xcode`: `path:line:column: error|warning|note: message [rule-id]`, one line per
    /// finding, the form Xcode build phases, VS Code problem matchers and most editors read. The
    /// path is the scene file's absolute path when known (`SceneReport.filePath`), as Xcode needs.
    public func xcode() -> String {
        annotations { $0.filePath ?? $0.path }.annotations.map { a in
            "\(Escape.text(a.file)):\(a.line):\(a.column): \(a.level): \(Escape.text(a.message)) [\(Escape.text(a.rule))]\n"
        }.joined()
    }

    /// `--format github`: GitHub Actions workflow commands,
    /// `::error file=PATH,line=L,col=C,title=RULE::MESSAGE` (`warning` and `notice` for the other
    /// severities), which GitHub shows as annotations on the pull request's changed files. `file`
    /// must be relative to the repository root: `workspace` (the checkout, `GITHUB_WORKSPACE`)
    /// relativises `SceneReport.filePath`; without it the report's own path is used. At most
    /// `githubAnnotationsPerLevel` annotations of each level, what GitHub shows of one step: load
    /// errors, loader warnings, early stops and each scene's count of violations `--max-violations`
    /// left out first, then the violations of that level in report order; when something is left
    /// out, a first line, a notice without a file (one of the ten), says how many. The counts of
    /// violations left out come right after it. The exit code is decided on every violation.
    public func github(workspace: String? = nil) -> String {
        let perLevel = Report.githubAnnotationsPerLevel
        func file(_ s: SceneReport) -> String {
            guard let workspace, let abs = s.filePath else { return s.path }
            let base = workspace.hasSuffix("/") ? workspace : workspace + "/"
            return abs.hasPrefix(base) ? String(abs.dropFirst(base.count)) : s.path
        }
        func rank(_ level: String) -> Int { level == "error" ? 0 : level == "warning" ? 1 : 2 }
        // Room per level; one notice is kept for the line that counts what is left out.
        var room = [perLevel, perLevel, perLevel - 1]
        // What is always annotated (no violation) takes its room first.
        var fixed = [0, 0, 0]
        for a in annotations(path: file, perSeverity: [0, 0, 0]).annotations { fixed[rank(a.level)] += 1 }
        let (all, leftOutViolations) = annotations(path: file, perSeverity: room.indices.map { max(0, room[$0] - fixed[$0]) })
        var leftOut = leftOutViolations
        var listed: [Annotation] = []
        for a in all {
            let r = rank(a.level)
            if room[r] > 0 { room[r] -= 1; listed.append(a) } else { leftOut += 1 }
        }
        // First, so that it is never the notice GitHub drops.
        let note = leftOut == 0 ? "" : "::notice title=annotation-limit::" + Escape.githubData(
            "\(leftOut) more finding\(leftOut == 1 ? " is" : "s are") not annotated: GitHub shows at most \(perLevel) error, "
            + "\(perLevel) warning and \(perLevel) notice annotations per step, and these are the first of each level. "
            + "They count in the exit code; --format text or json lists them, and a step per scene folder annotates more") + "\n"
        // The counts of violations left out come first too, for the same reason.
        let ordered = listed.filter { $0.rule == Report.violationLimitRule } + listed.filter { $0.rule != Report.violationLimitRule }
        return note + ordered.map { a in
            let command = a.level == "note" ? "notice" : a.level
            return "::\(command) file=\(Escape.githubProperty(a.file)),line=\(a.line),col=\(a.column),title=\(Escape.githubProperty(a.rule))::"
                + Escape.githubData(a.message) + "\n"
        }.joined()
    }
}
