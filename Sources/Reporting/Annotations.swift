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

    /// Every current violation (with a baseline, only new and worsened ones: known problems are not
    /// shown again), then every load error (`load-error`) and loader warning (`load-warning`).
    /// A finding without a source location (a scene-wide one) points at line 1, column 1 of the
    /// scene file. `file` is where the scene file is, as `path(_:)` gives it.
    func annotations(path: (SceneReport) -> String) -> [Annotation] {
        func level(_ s: Severity) -> String { s == .error ? "error" : s == .warning ? "warning" : "note" }
        var out: [Annotation] = []
        for scene in scenes {
            let file = path(scene)
            for v in scene.violations where v.baseline.map({ $0 == .new || $0 == .worsened }) ?? true {
                var message = v.message
                if let b = v.baseline { message += " (\(b.rawValue) since the baseline)" }
                out.append(Annotation(file: file, line: max(1, v.location?.line ?? 1), column: max(1, v.location?.column ?? 1),
                                      level: level(v.severity), message: message, rule: v.rule))
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
        }
        return out
    }

    /// `--format xcode`: `path:line:column: error|warning|note: message [rule-id]`, one line per
    /// finding, the form Xcode build phases, VS Code problem matchers and most editors read. The
    /// path is the scene file's absolute path when known (`SceneReport.filePath`), as Xcode needs.
    public func xcode() -> String {
        annotations { $0.filePath ?? $0.path }.map { a in
            "\(Escape.text(a.file)):\(a.line):\(a.column): \(a.level): \(Escape.text(a.message)) [\(Escape.text(a.rule))]\n"
        }.joined()
    }

    /// `--format github`: GitHub Actions workflow commands,
    /// `::error file=PATH,line=L,col=C,title=RULE::MESSAGE` (`warning` and `notice` for the other
    /// severities), which GitHub shows as annotations on the pull request's changed files. `file`
    /// must be relative to the repository root: `workspace` (the checkout, `GITHUB_WORKSPACE`)
    /// relativises `SceneReport.filePath`; without it the report's own path is used.
    public func github(workspace: String? = nil) -> String {
        func file(_ s: SceneReport) -> String {
            guard let workspace, let abs = s.filePath else { return s.path }
            let base = workspace.hasSuffix("/") ? workspace : workspace + "/"
            return abs.hasPrefix(base) ? String(abs.dropFirst(base.count)) : s.path
        }
        return annotations(path: file).map { a in
            let command = a.level == "note" ? "notice" : a.level
            return "::\(command) file=\(Escape.githubProperty(a.file)),line=\(a.line),col=\(a.column),title=\(Escape.githubProperty(a.rule))::"
                + Escape.githubData(a.message) + "\n"
        }.joined()
    }
}
