import Testing
import Foundation
import SpatialModel
import Rules
@testable import Reporting

/// The baseline's verdicts in SARIF (`baselineState`), Markdown (counts first, new and worsened
/// first, a size cap) and HTML (badges).
@Suite struct BaselineStateReportingTests {
    /// Four violations marked new, worsened, unchanged and improved, and one fixed.
    static func report() -> Report {
        var r = AnnotationFormatTests.report()
        r.scenes.removeLast()
        var extra = r.scenes[0].violations[0]
        extra.rule = "type-min-size"; extra.entities = ["p/z"]; extra.severity = .warning; extra.message = "text is 14 pt"
        r.scenes[0].violations.append(extra)
        let statuses: [BaselineStatus] = [.unchanged, .improved, .worsened, .new]
        for i in r.scenes[0].violations.indices { r.scenes[0].violations[i].baseline = statuses[i] }
        var gone = r.scenes[0].violations[0]
        gone.rule = "depth-max-distance"; gone.entities = ["far"]; gone.fingerprint = "fedcba9876543210"; gone.message = "too far"
        r.fixedInBaseline = [(scene: r.scenes[0].path, violation: gone)]
        return r
    }

    static let rules = ["target-center-spacing", "fov-window-clutter", "depth-min-reading-distance", "type-min-size", "depth-max-distance"].map {
        RuleDescriptor(id: $0, name: $0, summary: "s", fix: "f", helpURL: "https://developer.apple.com/design/human-interface-guidelines/",
                       defaultSeverity: .warning, category: "c")
    }

    @Test(.enabled(if: ExternalTool.havePythonModule("jsonschema")))
    func sarifBaselineStateValidates() throws {
        let sarif = Self.report().sarif(rules: Self.rules).serialized()
        let schema = TestPaths.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/spec/sarif-schema-2.1.0.json").path
        let script = """
            import json, sys, jsonschema
            doc = json.load(sys.stdin)
            jsonschema.validate(doc, json.load(open(sys.argv[1])))
            rs = doc["runs"][0]["results"]
            print(json.dumps([[r["ruleId"], r.get("baselineState"), r["level"], r.get("kind", "fail")] for r in rs]))
            """
        let result = try #require(ExternalTool.python(script, args: [schema], input: sarif))
        #expect(result.status == 0, "\(result.output)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]])
        #expect(rows == [
            ["target-center-spacing", "unchanged", "error", "fail"],
            ["fov-window-clutter", "updated", "warning", "fail"],          // improved
            ["depth-min-reading-distance", "updated", "note", "fail"],     // worsened
            ["type-min-size", "new", "warning", "fail"],
            ["depth-max-distance", "absent", "none", "pass"],              // fixed
        ])
    }

    /// A fixed violation's message comes from the saved baseline (or names a rule id read from it):
    /// escaped for SARIF like every other result's (no control characters, links not live).
    @Test func sarifFixedResultsAreEscaped() throws {
        var r = Self.report()
        r.fixedInBaseline[0].violation.message = "[link](https://evil)\u{1B}[31m"
        let sarif = r.sarif(rules: Self.rules).serialized()
        #expect(sarif.contains("fixed since the baseline: \\\\[link\\\\](https://evil)"))
        #expect(!sarif.contains("\\u001b") && !sarif.contains("\u{1B}"))
    }

    @Test func sarifWithoutABaselineHasNoBaselineState() {
        #expect(!AnnotationFormatTests.report().sarif(rules: Self.rules).serialized().contains("baselineState"))
    }

    @Test func markdownOpensWithTheCountsAndListsNewFirst() throws {
        let md = Self.report().markdown()
        #expect(md.contains("**Against the baseline: 1 new, 1 worsened, 2 known, 1 fixed.**"))
        let table = md.components(separatedBy: "| severity | rule |").last ?? ""
        let order = ["type-min-size", "depth-min-reading-distance", "target-center-spacing", "fov-window-clutter"]
            .map { table.range(of: "`\($0)`")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil })
        let at = order.compactMap { $0 }
        #expect(at.count == 4 && max(at[0], at[1]) < min(at[2], at[3]), "new and worsened before the known ones")
        #expect(md.contains("| **new** |"))
        #expect(md.contains("| known (improved) |"))
    }

    /// The fixed violations are named in text, Markdown and HTML (not only counted), escaped for
    /// each, at most `Report.fixedShownLimit` of them, then how many more.
    @Test func fixedViolationsAreNamedInEveryHumanFormat() throws {
        let r = Self.report()
        let scene = r.scenes[0].path
        #expect(r.text(color: false).contains("fixed since the baseline:\n  \(scene): depth-max-distance far\n"))
        #expect(r.markdown().contains("Fixed since the baseline:\n\n- `\(scene)`: `depth-max-distance far`\n"))
        #expect(r.html(snapshots: [:]).contains("<li><code>\(scene)</code>: depth-max-distance far</li>"))
        // 25 fixed in the list and 3 not listed: 20 named, "… and 8 more".
        var many = r
        many.fixedInBaseline = (0..<25).map { i in
            var v = r.fixedInBaseline[0].violation
            v.entities = ["far\(i)"]
            return (scene: scene, violation: v)
        }
        many.fixedNotListed = 3
        let text = many.text(color: false)
        #expect(text.contains("  \(scene): depth-max-distance far19\n") && !text.contains("far20"))
        #expect(text.contains("  … and 8 more fixed (the JSON report's baseline.fixedViolations lists them)\n"))
        // A hostile entity path or scene: no markup, no escape sequence, no new line.
        var hostile = r
        hostile.fixedInBaseline[0].scene = "<b>x`y</b>\n::error::z.scene.yaml"
        hostile.fixedInBaseline[0].violation.entities = ["<script>\u{1B}[31m"]
        let html = hostile.html(snapshots: [:])
        // (The page has scripts of its own: the entity's is the one written as text.)
        #expect(!html.contains("<script>\u{1B}") && !html.contains("<b>x") && html.contains("&lt;script&gt;"))
        let md = hostile.markdown()
        #expect(!md.contains("<script>") && !md.contains("\n::error::"))
        let t = hostile.text(color: false)
        #expect(!t.contains("\u{1B}") && !t.contains("\n::error::"))
        let junit = hostile.junit()
        #expect(!junit.contains("\u{1B}") && !junit.contains("<script>") && !junit.contains("<b>") && !junit.contains("\n::error::"))
        #expect(junit.contains("&lt;b&gt;x`y&lt;/b&gt;\\n::error::z.scene.yaml: depth-max-distance &lt;script&gt;\\u{1B}[31m</system-out>"), "\(junit)")
    }

    @Test func markdownStaysUnderTheCommentLimit() throws {
        // 400 scenes of 4 violations: far more than 65,536 characters in full.
        let one = Self.report().scenes[0]
        var r = Self.report()
        r.scenes = (0..<400).map { var s = one; s.path = "Scenes/scene-\($0).scene.yaml"; return s }
        let full = r.markdown(limit: Int.max)
        #expect(full.count > 65_536)
        let capped = r.markdown()
        #expect(capped.count <= 65_536)
        #expect(capped.utf8.count <= 65_536)
        let note = try #require(capped.split(separator: "\n").last)
        #expect(note.hasPrefix("_Left out to stay under the 65536-character limit of a comment:"))
        // What the note says is left out is what is missing.
        let shownSections = capped.components(separatedBy: "\n### ").count - 1
        #expect(note.contains("the details of \(400 - shownSections) scenes (\((400 - shownSections) * 4) violations)"))
        let shownRows = capped.split(separator: "\n").filter { $0.hasPrefix("| `Scenes/scene-") }.count
        if shownRows < 400 { #expect(note.contains("\(400 - shownRows) rows of the scene table")) }
        // A report that fits is not touched.
        #expect(Self.report().markdown() == Self.report().markdown(limit: Int.max))
    }

    /// JUnit under a baseline fails as the exit code does: only a rule with a new or worsened
    /// violation at or above `--fail-on`; known ones pass, listed with their status.
    @Test func junitFailsOnlyOnNewAndWorsenedViolations() throws {
        var r = Self.report()
        r.failOn = .warning
        let xml = r.junit()
        // target-center-spacing (error, unchanged) and fov-window-clutter (warning, improved) pass;
        // type-min-size (warning, new) fails; depth-min-reading-distance (info, worsened) is below --fail-on.
        #expect(xml.contains("<testsuites name=\"spatialcheck\" tests=\"5\" failures=\"1\" errors=\"0\">"), "\(xml)")
        // The violation fixed since the baseline: one passing case of a last suite lists it.
        #expect(xml.hasSuffix("""
              <testsuite name="baseline" tests="1" failures="0" errors="0" skipped="0">
                <testcase classname="baseline" name="fixed since the baseline">
                  <system-out>\(r.scenes[0].path): depth-max-distance far</system-out>
                </testcase>
              </testsuite>
            </testsuites>

            """), "\(xml)")
        var none = r
        none.fixedInBaseline = []
        #expect(!none.junit().contains("baseline\""))
        let spacing = try #require(xml.components(separatedBy: "name=\"target-center-spacing\">").last?.components(separatedBy: "</testcase>").first)
        #expect(spacing.contains("<system-out>error: p/x, p/y:") && !spacing.contains("<failure"))
        #expect(spacing.contains("; known: unchanged since the baseline)</system-out>"))
        let newCase = try #require(xml.components(separatedBy: "name=\"type-min-size\">").last?.components(separatedBy: "</testcase>").first)
        #expect(newCase.contains("<failure message=\"text is 14 pt\" type=\"warning\">") && newCase.contains("; new since the baseline)"))
        // Without a baseline the same violations fail by severity alone: three rules at warning or above.
        var plain = AnnotationFormatTests.report()
        plain.scenes.removeLast()
        plain.failOn = .warning
        #expect(plain.junit().contains("failures=\"2\""))
    }

    /// Text lists new and worsened violations first; `--quiet` lists only them and counts the rest.
    @Test func textListsNewFirstAndQuietOnlyNew() throws {
        let r = Self.report()
        let full = r.text(color: false)
        let at = ["[type-min-size]", "[depth-min-reading-distance]", "[target-center-spacing]", "[fov-window-clutter]"].map { full.range(of: $0)?.lowerBound }
        let found = at.compactMap { $0 }
        #expect(found.count == 4 && max(found[0], found[1]) < min(found[2], found[3]), "\(full)")
        #expect(!full.contains("not listed"))
        let quiet = r.text(color: false, quiet: true)
        #expect(quiet.contains("[type-min-size]") && quiet.contains("[depth-min-reading-distance]"))
        #expect(!quiet.contains("[target-center-spacing]") && !quiet.contains("[fov-window-clutter]"))
        #expect(quiet.contains("  2 known violations not listed (unchanged or improved since the baseline; without --quiet they are)\n"))
        // A scene whose violations are all known is left out of the quiet text, like a clean one.
        var allKnown = r
        allKnown.scenes[0].violations = allKnown.scenes[0].violations.filter { $0.baseline == .unchanged }
        #expect(!allKnown.text(color: false, quiet: true).contains("10 frames at 90 Hz"))
        #expect(allKnown.text(color: false).contains("10 frames at 90 Hz"))
    }

    @Test func htmlHasBadges() {
        let html = Self.report().html(snapshots: [:])
        #expect(html.contains("<span class=\"badge badge-new\">1 new</span>"))
        #expect(html.contains("<span class=\"badge badge-fixed\">1 fixed</span>"))
        #expect(html.contains("<a href=\"https://developer.apple.com/design/human-interface-guidelines/spatial-layout\">type-min-size</a></code> <span class=\"badge badge-new\">new</span></h3>"))
        #expect(html.contains("<span class=\"badge badge-known\">known: unchanged</span>"))
        #expect(!AnnotationFormatTests.report().html(snapshots: [:]).contains("class=\"badge"))
    }

    /// s26 F12: a Markdown verdict that passes only because the baseline knows every finding at the
    /// gate's severity says "Gate passed" against the baseline and calls those findings known,
    /// not "Comfort check passed: 1 error". (The report: 1 error, unchanged; 2 warnings, one new;
    /// 1 info, worsened; the gate at error.)
    @Test func markdownVerdictPassingOnKnownErrorsSaysSo() {
        let md = Self.report().markdown()
        #expect(md.contains("\n**Gate passed** (no new or worsened errors against the baseline): 1 known error, 2 warnings, 1 info.\n"))
        #expect(!md.contains("Comfort check passed"))
        // Gated at warning, the new warning fails it: the usual verdict.
        var atWarning = Self.report()
        atWarning.failOn = .warning
        #expect(atWarning.markdown().contains("\n**Comfort check failed**: 1 error, 2 warnings, 1 info.\n"))
        // Gated at warning with the new warning gone: every error and warning is known.
        var known = atWarning
        known.scenes[0].violations.removeLast()
        #expect(known.markdown().contains("\n**Gate passed** (no new or worsened errors or warnings against the baseline): 1 known error, 1 known warning, 1 info.\n"))
        // Without a baseline, a clean gate is still "Comfort check passed".
        var plain = AnnotationFormatTests.report()
        plain.scenes.removeLast()
        plain.scenes[0].violations.removeFirst()
        #expect(plain.markdown().contains("\n**Comfort check passed**: 0 errors, 1 warning, 1 info.\n"))
    }

    /// A current report of one spacing (39 pt, an error) and one coverage (61.94 %, a warning), and
    /// its baseline: the spacing was 44 pt and a warning, the coverage 61.8062 %.
    static func worsened() -> Report {
        func v(_ rule: String, _ s: Severity, _ measured: Double, _ threshold: Double, _ unit: String, _ fp: String) -> ReportViolation {
            ReportViolation(rule: rule, severity: s, entities: rule == "fov-window-clutter" ? [] : ["c/back", "c/play"], spans: [0...89], frameCount: 90,
                            firstTime: 0, lastTime: 0.9889, measured: measured, threshold: threshold, unit: unit, worstFrame: 0,
                            message: "m", help: "https://developer.apple.com/design/human-interface-guidelines/spatial-layout",
                            fingerprint: fp, location: nil)
        }
        func report(_ vs: [ReportViolation]) -> Report {
            Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error,
                   scenes: [SceneReport(path: "p.scene.yaml", status: .checked, frameRate: 90, frames: 90, duration: 1, violations: vs)])
        }
        let baseline = report([v("target-center-spacing", .warning, 44, 60, "pt", "00000000000000a1"),
                               v("fov-window-clutter", .warning, 61.8062, 60, "%", "00000000000000b2")])
        var current = report([v("target-center-spacing", .error, 39, 60, "pt", "00000000000000a1"),
                              v("fov-window-clutter", .warning, 61.94, 60, "%", "00000000000000b2")])
        current.apply(BaselineComparison(current: current, baseline: baseline))
        return current
    }

    /// s26 F7: a worsened violation says what it was in the baseline, in every human format, and
    /// JSON gives the baseline's value as `baselineMeasured`.
    @Test func worsenedViolationsShowTheBaselineValue() throws {
        let r = Self.worsened()
        #expect(r.scenes[0].violations.map(\.baseline) == [.worsened, .worsened])
        let text = r.text()
        #expect(text.contains("error [target-center-spacing] c/back, c/play (worsened since the baseline: warning → error, 44.0 pt → 39.0 pt)\n"))
        #expect(text.contains("warning [fov-window-clutter] (whole scene) (worsened since the baseline: 61.8 % → 61.9 %)\n"))
        let md = r.markdown(expand: true)
        #expect(md.contains("| **worsened**: warning → error, 44.0 pt → 39.0 pt |\n"))
        #expect(md.contains("| **worsened**: 61.8 % → 61.9 % |\n"))
        let html = r.html(snapshots: [:])
        #expect(html.contains("worsened since the baseline: 61.8 % → 61.9 %; "))
        #expect(r.xcode().contains("m (worsened since the baseline: warning → error, 44.0 pt → 39.0 pt) [target-center-spacing]"))
        let json = r.json().serialized()
        #expect(json.contains("\"baseline\": \"worsened\",\n          \"baselineMeasured\": 44.0,"))
        #expect(json.contains("\"baselineMeasured\": 61.8062,"))
        // Values that print alike at the usual precision get more decimals.
        var close = r.scenes[0].violations[1]
        close.baselineMeasured = 61.81; close.measured = 61.84
        #expect(close.baselineChange(unit: "%") == "61.810 % → 61.840 %")
        // Only a worsened violation carries it.
        var known = close
        known.baseline = .unchanged
        #expect(known.baselineChange(unit: "%") == nil)
        #expect(!known.json().serialized().contains("baselineMeasured"))
    }
}
