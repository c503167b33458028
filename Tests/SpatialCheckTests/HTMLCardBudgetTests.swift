import Testing
import Foundation
import SpatialModel
import Rules
@testable import Reporting

/// The HTML page stays bounded over a run: entity paths longer than 81 characters are elided in
/// the middle in text and pictures (each card lists them whole once), and at most
/// `Report.htmlCardLimit` cards are drawn over all scenes, the most severe first; the rest are
/// counted per scene by rule and severity.
@Suite struct HTMLCardBudgetTests {
    static func violation(_ rule: String, _ severity: Severity, _ entities: [String], message: String) -> ReportViolation {
        ReportViolation(rule: rule, severity: severity, entities: entities, spans: [0...9], frameCount: 10, firstTime: 0, lastTime: 0.1,
                        measured: 30, threshold: 60, unit: "pt", worstFrame: 0, message: message, help: "", fingerprint: "0123456789abcdef",
                        location: nil)
    }

    /// A hostile path of 142 characters: 38 "é" (two bytes each) then `<script>` across the
    /// 40-character cut, ESC and U+202E, a Markdown link, 40 "ü" at the end.
    static let hostile = String(repeating: "é", count: 38) + "<script>alert(1)</script>\u{1B}[2J\u{202E}](javascript:alert(1))"
        + String(repeating: "ü", count: 40)

    @Test func longPathsAreElidedInTextAndListedWholeOnce() {
        let elided = elidedPath(Self.hostile)
        // The first 40 characters (38 "é" and "<s"), "…", the last 40 (the "ü").
        #expect(elided == String(repeating: "é", count: 38) + "<s…" + String(repeating: "ü", count: 40))
        #expect(elidedPath("short/path") == "short/path")
        #expect(elidedPath(String(repeating: "a", count: 81)) == String(repeating: "a", count: 81))
        #expect(elidedPath(String(repeating: "a", count: 82)) == String(repeating: "a", count: 40) + "…" + String(repeating: "a", count: 40))

        let v = Self.violation("target-center-spacing", .error, [Self.hostile, "w/b"], message: "centres of \(Self.hostile) and w/b are 30 pt apart")
        let report = Report(toolVersion: "t", pointAngle: Units.defaultPointAngle, failOn: .error,
                            scenes: [SceneReport(path: "s.scene.yaml", status: .checked, violations: [v])])
        let html = report.html(snapshots: [:])
        // Elided before escaping: the cut "<s" is escaped, nothing of the script is live.
        let shown = String(repeating: "é", count: 38) + "&lt;s…" + String(repeating: "ü", count: 40)
        #expect(html.contains("<p><b>\(shown), w/b</b>: centres of \(shown) and w/b are 30 pt apart</p>"))
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("\u{1B}") && !html.contains("\u{202E}"))
        // The whole path: once, in the card's details (without a replay, no data-entities needs it).
        let whole = Escape.html(Self.hostile)
        #expect(html.components(separatedBy: whole).count - 1 == 1)
        #expect(html.contains("data-entities=\"w/b\""))
        #expect(html.contains("<details class=\"paths\"><summary>Full entity paths (1)</summary><ul><li><code>\(whole)</code></li></ul></details>"))
    }

    /// Three scenes: an info, two warnings and an error finding (different rules, so no folding).
    static func run() -> Report {
        func scene(_ n: Int, _ vs: [ReportViolation]) -> SceneReport { SceneReport(path: "s\(n).scene.yaml", status: .checked, violations: vs) }
        return Report(toolVersion: "t", pointAngle: Units.defaultPointAngle, failOn: .error, scenes: [
            scene(0, [violation("type-min-size", .info, ["a/t"], message: "i0")]),
            scene(1, [violation("target-center-spacing", .warning, ["a/b", "a/c"], message: "w1"),
                      violation("type-min-size", .warning, ["a/u"], message: "w1b")]),
            scene(2, [violation("depth-max-distance", .error, ["far"], message: "e2")]),
        ])
    }

    @Test func theCardBudgetKeepsTheMostSevereInReportOrder() {
        let all = Self.run().html(snapshots: [:])
        #expect(all.components(separatedBy: "<article").count - 1 == 4)
        #expect(!all.contains("are not shown here"))
        #expect(all == Self.run().html(snapshots: [:], cards: 4))
        // Two cards: the error (scene 2), then the first warning in report order (scene 1's first).
        let two = Self.run().html(snapshots: [:], cards: 2)
        #expect(two.components(separatedBy: "<article").count - 1 == 2)
        #expect(two.contains("id=\"s2-g0\"") && two.contains("id=\"s1-g0\""))
        #expect(!two.contains("id=\"s1-g1\"") && !two.contains("id=\"s0-g0\""))
        #expect(two.contains("<p class=\"omitted\">1 more violation (type-min-size: 1 warning) are not shown here: the page shows at most 2 findings, the most severe first. They count in the tables above and in the exit code; the JSON and SARIF reports list them.</p>"))
        #expect(two.contains("<p class=\"omitted\">1 more violation (type-min-size: 1 info) are not shown here"))
        // The summary still counts everything, and the index links the cards not drawn to their scene.
        #expect(two.contains("<li class=\"count-error\"><b>1</b> error</li><li class=\"count-warning\"><b>2</b> warnings</li><li class=\"count-info\"><b>1</b> info</li>"))
        #expect(two.contains("<a href=\"#scene-0\">s0.scene.yaml</a>: ") && two.contains("<a href=\"#s1-g0\">s1.scene.yaml</a>: "))
        // No cards at all.
        #expect(Self.run().html(snapshots: [:], cards: 0).components(separatedBy: "<article").count == 1)
    }
}
