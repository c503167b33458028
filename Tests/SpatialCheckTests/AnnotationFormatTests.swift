import Testing
import Foundation
import SpatialModel
import Rules
@testable import Reporting

/// `--format xcode` and `--format github`, and `path:line:col` on the first line of a text
/// violation (docs/reports.md).
@Suite struct AnnotationFormatTests {
    /// The line form issue 15 specifies.
    static func xcodeMatch(_ line: String) -> (file: String, line: String, column: String, level: String, rule: String)? {
        guard let m = line.wholeMatch(of: #/^(.+):(\d+):(\d+): (error|warning|note): (.+) \[([a-z0-9-]+)\]$/#) else { return nil }
        return (String(m.output.1), String(m.output.2), String(m.output.3), String(m.output.4), String(m.output.6))
    }

    /// A scene with an error at 14:9, a scene-wide warning without a location, an info, and a
    /// scene that could not be loaded; names chosen to test the escaping.
    static func report() -> Report {
        func v(_ rule: String, _ s: Severity, _ entities: [String], _ message: String, _ loc: SpatialModel.SourceLocation?) -> ReportViolation {
            ReportViolation(rule: rule, severity: s, entities: entities, spans: [0...9], frameCount: 10, firstTime: 0, lastTime: 0.1,
                            measured: 44, threshold: 60, unit: "pt", worstFrame: 0, message: message,
                            help: "https://developer.apple.com/design/human-interface-guidelines/spatial-layout",
                            fingerprint: "0123456789abcdef", location: loc)
        }
        var a = SceneReport(path: "Scenes/a,b:c.scene.yaml", status: .checked, frameRate: 90, frames: 10, duration: 0.1, violations: [
            v("target-center-spacing", .error, ["p/x", "p/y"], "centres of p/x and p/y are 44 pt apart\n::error::forged 100%", SpatialModel.SourceLocation(line: 14, column: 9)),
            v("fov-window-clutter", .warning, [], "4 windows and volumes are open at once", nil),
            v("depth-min-reading-distance", .info, ["t"], "text at 0.4 m", SpatialModel.SourceLocation(line: 3, column: 5)),
        ])
        a.filePath = "/work/proj/Scenes/a,b:c.scene.yaml"
        var broken = SceneReport(path: "Scenes/broken.scene.yaml", status: .error,
                                 errors: [Diagnostic(file: "Scenes/broken.scene.yaml", location: SpatialModel.SourceLocation(line: 3, column: 5),
                                                     message: "unknown key 'entites'", hint: "did you mean 'entities'?")])
        broken.filePath = "/work/proj/Scenes/broken.scene.yaml"
        return Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [a, broken])
    }

    @Test func xcodeLinesMatchTheCompilerForm() throws {
        let lines = Self.report().xcode().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        let body = lines.dropLast()
        #expect(body.count == 4, "one line per violation and per load error")
        var parsed: [(String, String, String, String, String)] = []
        for line in body {
            let m = try #require(Self.xcodeMatch(String(line)), "\(line)")
            parsed.append((m.file, m.line, m.column, m.level, m.rule))
        }
        #expect(parsed[0] == ("/work/proj/Scenes/a,b:c.scene.yaml", "14", "9", "error", "target-center-spacing"))
        // No location: line 1, column 1 of the scene file.
        #expect(parsed[1] == ("/work/proj/Scenes/a,b:c.scene.yaml", "1", "1", "warning", "fov-window-clutter"))
        #expect(parsed[2] == ("/work/proj/Scenes/a,b:c.scene.yaml", "3", "5", "note", "depth-min-reading-distance"))
        #expect(parsed[3] == ("/work/proj/Scenes/broken.scene.yaml", "3", "5", "error", "load-error"))
        // The newline in the message is shown, not written.
        #expect(body[0].hasSuffix(#"are 44 pt apart\n::error::forged 100% [target-center-spacing]"#))
    }

    @Test func githubCommandsAreEscaped() {
        let out = Self.report().github(workspace: "/work/proj")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines == [
            "::error file=Scenes/a%2Cb%3Ac.scene.yaml,line=14,col=9,title=target-center-spacing::centres of p/x and p/y are 44 pt apart%0A::error::forged 100%25",
            "::warning file=Scenes/a%2Cb%3Ac.scene.yaml,line=1,col=1,title=fov-window-clutter::4 windows and volumes are open at once",
            "::notice file=Scenes/a%2Cb%3Ac.scene.yaml,line=3,col=5,title=depth-min-reading-distance::text at 0.4 m",
            "::error file=Scenes/broken.scene.yaml,line=3,col=5,title=load-error::unknown key 'entites' (did you mean 'entities'?)",
        ])
        // Outside the workspace, the report's own (project-relative) path.
        #expect(Self.report().github(workspace: "/elsewhere").hasPrefix("::error file=Scenes/a%2Cb%3Ac.scene.yaml,line=14"))
    }

    /// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step: `--format
    /// github` writes no more of each level (a stop first, then violations in report order), and
    /// its first line, one of the ten notices, says how many it left out; `xcode` lists every one.
    @Test func githubAnnotatesTenOfEachLevel() throws {
        func v(_ s: Severity, _ k: Int) -> ReportViolation {
            ReportViolation(rule: "r-\(s.rawValue)", severity: s, entities: ["e\(k)"], spans: [0...0], frameCount: 1, firstTime: 0,
                            lastTime: 0, measured: 1, threshold: 2, unit: "pt", worstFrame: 0, message: "\(s.rawValue) \(k)",
                            help: "", fingerprint: "\(s.rawValue)\(k)", location: nil)
        }
        // Scene a: 30 info, then 30 warnings; scene b: 30 errors and a stop (a warning).
        let a = SceneReport(path: "a.scene.yaml", status: .checked, violations: (0..<30).map { v(.info, $0) } + (0..<30).map { v(.warning, $0) })
        var b = SceneReport(path: "b.scene.yaml", status: .checked, violations: (0..<30).map { v(.error, $0) })
        b.stopped = EarlyStop(afterFrame: 0, frames: 9, trackingLimit: 30)
        var report = Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [a, b])
        #expect(Report.githubAnnotationsPerLevel == 10)
        let lines = report.github().split(separator: "\n").map(String.init)
        // Notices: the count and 9 info findings; warnings: the stop and 9; errors: 10.
        // Left out: 21 info, 21 warnings, 20 errors.
        #expect(lines.first == "::notice title=annotation-limit::62 more findings are not annotated: GitHub shows at most 10 error, "
                + "10 warning and 10 notice annotations per step, and these are the first of each level. They count in the exit code; "
                + "--format text or json lists them, and a step per scene folder annotates more")
        #expect(lines.dropFirst().filter { $0.contains("title=r-") }.map { String($0.split(separator: ":").last ?? "") }
                == (0..<9).map { "info \($0)" } + (0..<9).map { "warning \($0)" } + (0..<10).map { "error \($0)" })
        #expect(lines.last?.hasPrefix("::warning file=b.scene.yaml,line=1,col=1,title=tracking-limit::checking stopped") == true)
        for level in ["::error", "::warning", "::notice"] { #expect(lines.filter { $0.hasPrefix(level + " ") }.count == 10, "\(level)") }
        #expect(lines.count == 30)
        #expect(report.xcode().split(separator: "\n").count == 91)
        // Known violations are not annotated and not counted: 9 warnings and 10 errors beside the
        // stop fit without the count.
        for i in 0..<30 { report.scenes[0].violations[i].baseline = .unchanged }
        for i in 39..<60 { report.scenes[0].violations[i].baseline = .unchanged }
        for i in 10..<30 { report.scenes[1].violations[i].baseline = .unchanged }
        let fit = report.github().split(separator: "\n")
        #expect(fit.count == 9 + 10 + 1 && !fit.contains { $0.contains("annotation-limit") })
    }

    /// What `--max-violations` left out is said in xcode and github as in every other format
    /// (docs/reports.md, "Violations per rule"): one note per scene, on line 1, with the line the
    /// text report prints; github puts it right after its own annotation-limit notice.
    @Test func violationsLeftOutByMaxViolationsAreCounted() throws {
        var a = SceneReport(path: "a.scene.yaml", status: .checked, violations: Self.report().scenes[0].violations)
        a.filePath = "/work/proj/a.scene.yaml"
        a.omitted = [OmittedViolations(rule: "target-center-spacing", severity: .error, count: 499_699),
                     OmittedViolations(rule: "target-no-overlap", severity: .warning, count: 1)]
        let clean = SceneReport(path: "b.scene.yaml", status: .checked, violations: [])
        let report = Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [a, clean])
        let said = "499700 more violations not shown (target-center-spacing: 499699 error, target-no-overlap: 1 warning); they count in the summary "
            + "and the exit code. Raise the limit with --max-violations N (0 = no limit)"
        let xcode = report.xcode().split(separator: "\n").map(String.init)
        #expect(xcode.count == 4)
        #expect(xcode[3] == "/work/proj/a.scene.yaml:1:1: note: \(said) [violation-limit]")
        #expect(Self.xcodeMatch(xcode[3])?.rule == "violation-limit")
        let github = report.github(workspace: "/work/proj").split(separator: "\n").map(String.init)
        #expect(github.count == 4)
        #expect(github[0] == "::notice file=a.scene.yaml,line=1,col=1,title=violation-limit::\(said)")
        #expect(github[1].hasPrefix("::error file=a.scene.yaml,line=14,col=9,title=target-center-spacing::"))
    }

    /// The same through the command line, on a real scene: the media player's two spacing errors
    /// with `--max-violations 1`.
    @Test func validateCountsLeftOutViolationsInXcodeAndGithub() throws {
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let said = "1 more violation not shown (target-center-spacing: 1 error); they count in the summary and the exit code. "
            + "Raise the limit with --max-violations N (0 = no limit)"
        let xcode = try CLIHarness.run(["validate", scene, "--format", "xcode", "--max-violations", "1"])
        #expect(xcode.status == 1)
        #expect(xcode.stdout.split(separator: "\n").map(String.init).contains("\(scene):1:1: note: \(said) [violation-limit]"))
        let github = try CLIHarness.run(["validate", scene, "--format", "github", "--max-violations", "1"])
        #expect(github.status == 1)
        #expect(github.stdout.split(separator: "\n").first.map(String.init)?.hasSuffix("title=violation-limit::\(said)") == true)
    }

    /// With a baseline, only new and worsened violations are annotated.
    @Test func knownViolationsAreNotAnnotated() {
        var r = Self.report()
        r.scenes[0].violations[0].baseline = .unchanged
        r.scenes[0].violations[1].baseline = .worsened
        r.scenes[0].violations[2].baseline = .improved
        let lines = r.xcode().split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix("4 windows and volumes are open at once (worsened since the baseline) [fov-window-clutter]"))
    }

    @Test func validateWritesXcodeLinesForRealScenes() throws {
        let r = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player.scene.yaml"), TestPaths.repo("Scenes/no-such.scene.yaml"),
                                    "--format", "xcode"])
        #expect(r.status == 2)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for l in lines { #expect(Self.xcodeMatch(l) != nil, "\(l)") }
        // The media player's two 44 pt pairs are on lines 29 and 31, column 9 (the play button's neighbours).
        #expect(lines[0].hasPrefix(TestPaths.repo("Scenes/media-player.scene.yaml") + ":29:9: error: centres of controls/back and controls/play are 44 pt apart"))
        #expect(lines[1].hasPrefix(TestPaths.repo("Scenes/media-player.scene.yaml") + ":31:9: error: "))
        #expect(lines[2].hasPrefix(TestPaths.repo("Scenes/no-such.scene.yaml") + ":1:1: error: no such file or directory"))
        #expect(lines[2].hasSuffix("[load-error]"))
    }

    @Test func textPutsTheLocationFirst() {
        let lines = Self.report().text().split(separator: "\n").map(String.init)
        #expect(lines.contains("  Scenes/a,b:c.scene.yaml:14:9: error [target-center-spacing] p/x, p/y"))
        #expect(lines.contains("  Scenes/a,b:c.scene.yaml:1:1: warning [fov-window-clutter] (whole scene)"))
    }
}
