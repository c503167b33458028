import Testing
import Foundation
import SpatialModel
import Rules
@testable import Reporting

/// The text report's small things: the per-rule summary that ends `validate`, singular "1 frame",
/// pt_eq explained where it first appears; and `--version --verbose`.
@Suite struct TextReportTests {
    static func report() -> Report {
        func v(_ rule: String, _ s: Severity, _ unit: String, frames: Int) -> ReportViolation {
            ReportViolation(rule: rule, severity: s, entities: ["a"], spans: [0...(frames - 1)], frameCount: frames, firstTime: 0,
                            lastTime: 0, measured: 40, threshold: 60, unit: unit, worstFrame: 0, message: "m", help: "https://x",
                            fingerprint: "0000000000000000", location: SpatialModel.SourceLocation(line: 3, column: 5))
        }
        var one = SceneReport(path: "a.scene.yaml", status: .checked, frameRate: 90, frames: 1, duration: 0.011, violations: [
            v("type-min-size", .warning, "pt_eq", frames: 1), v("target-center-spacing", .error, "pt", frames: 1),
        ])
        one.pointAngle = 0.0671
        let two = SceneReport(path: "b.scene.yaml", status: .checked, frameRate: 90, frames: 90, duration: 1, violations: [
            v("type-min-size", .warning, "pt_eq", frames: 2), v("fov-window-clutter", .info, "count", frames: 90),
            v("fov-window-clutter", .info, "count", frames: 90),
        ])
        return Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [one, two])
    }

    @Test func perRuleSummaryEndsTheReport() {
        let lines = Self.report().text(byRule: true).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let found = lines.firstIndex(of: "by rule:")
        #expect(found != nil)
        guard let at = found else { return }
        #expect(Array(lines[(at + 1)...]) == [
            "  target-center-spacing  1 error",
            "  type-min-size          2 warnings",
            "  fov-window-clutter     2 info",
            "2 scenes checked: 1 error, 2 warnings, 2 info",
            "",
        ])
        #expect(!Self.report().text().contains("by rule:"), "report's text has its own summary at the top")
    }

    /// Violations `--max-violations` left out count in the per-rule summary as in the total.
    @Test func perRuleSummaryCountsTheViolationsLeftOut() {
        var report = Self.report()
        report.scenes[0].omitted = [OmittedViolations(rule: "target-center-spacing", severity: .error, count: 4_999),
                                    OmittedViolations(rule: "type-min-size", severity: .warning, count: 7)]
        let text = report.text(byRule: true)
        #expect(text.contains("by rule:\n  target-center-spacing  5000 errors\n  type-min-size          9 warnings\n"))
        #expect(text.contains("2 scenes checked: 5000 errors, 9 warnings, 2 info"))
    }

    /// With a baseline, each rule's line says how many of its violations are new or worsened (those
    /// left out by `--max-violations` included), or that all are known.
    @Test func perRuleSummaryUnderABaselineNamesTheNewOnes() {
        var report = Self.report()
        report.scenes[0].violations[0].baseline = .unchanged
        report.scenes[0].violations[1].baseline = .new
        report.scenes[1].violations[0].baseline = .unchanged
        report.scenes[1].violations[1].baseline = .improved
        report.scenes[1].violations[2].baseline = .unchanged
        report.scenes[1].omitted = [OmittedViolations(rule: "type-min-size", severity: .warning, count: 2)]
        report.scenes[1].omitted[0].violations = [LeftOutViolation(fingerprint: "a", measured: 1, threshold: 2, baseline: .worsened),
                                                  LeftOutViolation(fingerprint: "b", measured: 1, threshold: 2, baseline: .unchanged)]
        let text = report.text(byRule: true)
        #expect(text.contains("by rule:\n  target-center-spacing  1 error  (1 new or worsened)\n  type-min-size          4 warnings  (1 new or worsened)\n  fov-window-clutter     2 info  (known)\n"),
                "\(text)")
    }

    @Test func oneFrameIsSingularAndPtEqIsExplainedOnce() {
        let text = Self.report().text()
        // The title line ends with the settings used: the report's pointAngle and its default
        // fixedPointSize, tan(0.0671°) · 1 m = 0.0671 · π/180 m ≈ 0.001171 m.
        #expect(text.contains("a.scene.yaml  1 frame at 90 Hz (0.01 s); pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt\n"))
        #expect(text.contains("(1 frame, 0.01 s)"))
        #expect(text.contains("b.scene.yaml  90 frames at 90 Hz"))
        #expect(text.contains("(2 frames, 0.02 s)"))
        let explanation = "    (pt_eq, point-equivalents: the angle the viewer sees divided by the angle of one point, 0.0671°, so it compares with the HIG's sizes in points at any distance)\n"
        #expect(text.components(separatedBy: explanation).count == 2, "once")
        // Right after the first pt_eq measurement.
        #expect(text.contains("measured 40.0 pt_eq, threshold 60.0 pt_eq; worst at frame 0\n" + explanation))
    }

    /// Numbers that say nothing the message and time range do not are left out (outside trials:
    /// "measured 3.99 s, threshold 0.00 s" for a scene that launches in full immersion, "measured
    /// 2, threshold 0" for two kinds of motion the message names); other numbers stay.
    @Test func numbersThatSayNothingAreLeftOut() {
        func v(_ rule: String, _ measured: Double, _ threshold: Double, _ unit: String) -> ReportViolation {
            ReportViolation(rule: rule, severity: .warning, entities: [], spans: [0...359], frameCount: 360, firstTime: 0,
                            lastTime: 3.99, measured: measured, threshold: threshold, unit: unit, worstFrame: 359,
                            message: "\(rule) message", help: "https://x", fingerprint: "0000000000000000", location: nil)
        }
        let cases: [(ReportViolation, String?)] = [
            (v("immersion-launch-style", 3.99, 0, "s"), nil),
            (v("motion-reduce-motion", 2, 0, "count"), nil),
            (v("a11y-labels", 1, 0, "count"), nil),
            (v("ar-coaching-shown", 2.5, 2, "s"), "    measured 2.50 s, threshold 2.00 s; worst at frame 359\n"),
            (v("fov-window-clutter", 4, 3, "count"), "    measured 4, threshold 3; worst at frame 359\n"),
            (v("target-no-overlap", 10, 0, "pt"), "    measured 10.0 pt, threshold 0.00 pt; worst at frame 359\n"),
        ]
        for (violation, line) in cases {
            let scene = SceneReport(path: "a.scene.yaml", status: .checked, frameRate: 90, frames: 360, duration: 4,
                                    violations: [violation])
            let text = Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [scene]).text()
            #expect(text.contains("\(violation.rule) message\n"))
            #expect(text.contains("    measured ") == (line != nil), "\(violation.rule)")
            if let line { #expect(text.contains(line), "\(violation.rule)") }
            #expect(text.contains("t = 0.00–3.99 s, frames 0–359 (360 frames, 4.00 s)"))
        }
    }

    @Test func versionVerboseNamesTheLibraries() throws {
        let r = try CLIHarness.run(["--version", "--verbose"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "spatialcheck 0.1.0")
        #expect(lines.contains { $0.range(of: #"^assimp \d+\.\d+\.\d+ \(3D import\)$"#, options: .regularExpression) != nil }, "\(lines)")
        // usd-core as the interpreter the USD reader runs reports it (asked here on its own).
        if let r = USDFixtures.python(["-c", "from pxr import Usd; print(Usd.GetVersion())"]) {
            if r.status == 0 {
                // "(0, 25, 5)" → "usd-core 0.25.5 (USD import)"
                let parts = r.output.filter { $0.isNumber || $0 == "," }.split(separator: ",").map(String.init)
                #expect(lines.contains("usd-core \(parts.joined(separator: ".")) (USD import)"), "\(lines)")
            } else {
                #expect(lines.contains("usd-core not found (USD import unavailable; install it with `pip install usd-core`)"), "\(lines)")
            }
        }
        #expect(try CLIHarness.run(["--version"]).stdout == "0.1.0\n")
    }
}
