import Testing
import Foundation
import SpatialModel
import Rules
@testable import Reporting

/// `foldViolations`: which violations form one group, in which order, and the group's summary line.
@Suite struct FoldingTests {
    static func v(_ rule: String, _ entities: [String], measured: Double, threshold: Double = 60, unit: String = "pt",
                  severity: Severity = .error, message: String? = nil, baseline: BaselineStatus? = nil) -> ReportViolation {
        let msg = message ?? "centres of \(entities.joined(separator: " and ")) are \(Int(measured)) pt apart; move them to at least \(Int(threshold)) pt apart"
        var r = ReportViolation(rule: rule, severity: severity, entities: entities, spans: [0...0], frameCount: 1, firstTime: 0,
                                lastTime: 0, measured: measured, threshold: threshold, unit: unit, worstFrame: 0, message: msg,
                                help: "https://x", fingerprint: entities.joined(separator: "+"), location: nil)
        r.baseline = baseline
        return r
    }

    @Test func pairsOfOneContainerFoldIntoOneGroup() {
        let vs = [
            Self.v("target-center-spacing", ["keypad/one", "keypad/two"], measured: 56),
            Self.v("target-center-spacing", ["keypad/two", "keypad/three"], measured: 52),
            Self.v("target-center-spacing", ["keypad/four", "keypad/one"], measured: 56),
        ]
        let groups = foldViolations(vs)
        #expect(groups.count == 1)
        #expect(groups.first?.container == "keypad")
        #expect(groups.first?.isFolded == true)
        // Worst first (52 pt is 8 pt short of 60, 56 pt 4 pt), equal ones in report order.
        #expect(groups.first?.members.map(\.fingerprint) == ["keypad/two+keypad/three", "keypad/one+keypad/two", "keypad/four+keypad/one"])
        // Measured 52 to 56 pt, one threshold.
        #expect(groups.first?.summary == "3 pairs in keypad measure 52.0–56.0 pt, threshold 60.0 pt")
        #expect(groups.first?.measuredRange == 52...56)
        #expect(groups.first?.thresholdRange == 60...60)
    }

    @Test func differentContainerRuleSeverityCauseOrBaselineSplit() {
        let vs = [
            Self.v("target-center-spacing", ["keypad/one", "keypad/two"], measured: 56),                 // A
            Self.v("target-center-spacing", ["toolbar/a", "toolbar/b"], measured: 56),                   // other container
            Self.v("target-min-size", ["keypad/one"], measured: 40, message: "keypad/one is 40 pt"),     // other rule
            Self.v("target-center-spacing", ["keypad/three", "keypad/four"], measured: 50, severity: .warning), // other severity
            Self.v("target-center-spacing", ["keypad/five", "keypad/six"], measured: 0,
                   message: "keypad/five and keypad/six overlap"),                                       // other cause
            Self.v("target-center-spacing", ["keypad/one", "keypad/three"], measured: 55, unit: "deg"),  // other sub-check unit
            Self.v("target-center-spacing", ["keypad/seven", "keypad/eight"], measured: 54, baseline: .new), // other baseline status
            Self.v("target-center-spacing", ["keypad/two", "keypad/three"], measured: 57),               // joins A
        ]
        let groups = foldViolations(vs)
        #expect(groups.map(\.count) == [2, 1, 1, 1, 1, 1, 1])
        // Groups in the order of their first member; A's members in report order.
        #expect(groups.first?.members.map(\.fingerprint) == ["keypad/one+keypad/two", "keypad/two+keypad/three"])
        #expect(groups.map(\.container) == ["keypad", "toolbar", "keypad", "keypad", "keypad", "keypad", "keypad"])
        #expect(groups[2].summary == "1 entity in keypad measures 40.0 pt, threshold 60.0 pt")
    }

    @Test func containerIsTheDeepestCommonAncestor() {
        #expect(foldContainer(["app/keypad/row1/seven", "app/keypad/row2/four"]) == "app/keypad")
        #expect(foldContainer(["app/keypad/seven"]) == "app/keypad")
        #expect(foldContainer(["seven", "eight"]) == "")
        #expect(foldContainer([]) == "")
        let wholeScene = foldViolations([
            Self.v("fov-window-clutter", [], measured: 4, threshold: 3, unit: "count", message: "4 windows open"),
            Self.v("fov-window-clutter", [], measured: 5, threshold: 3, unit: "count", message: "5 windows open"),
        ])
        #expect(wholeScene.map(\.summary) == ["2 findings in the scene measure 4–5, threshold 3"])
    }

    /// A count against a threshold of 0 is a yes/no check: the summary names the rule's statement
    /// (its catalog name) instead of "measure 1.00 count, threshold 0.00 count" (session-16 trial,
    /// type/al-cases). A count against another threshold keeps its numbers (above).
    @Test func yesNoChecksSayWhatIsNotMet() {
        let labels = foldViolations([
            Self.v("a11y-labels", ["w/hero"], measured: 1, threshold: 0, unit: "count", message: "w/hero has no accessibility label"),
            Self.v("a11y-labels", ["w/thumb"], measured: 1, threshold: 0, unit: "count", message: "w/thumb has no accessibility label"),
        ])
        #expect(labels.map(\.summary) == ["2 entities in w do not meet \"Custom controls, 3D content and meaningful images have VoiceOver labels\""])
        let one = foldViolations([Self.v("a11y-labels", ["w/hero"], measured: 1, threshold: 0, unit: "count", message: "w/hero has no label")])
        #expect(one.first?.summary == "1 entity in w does not meet \"Custom controls, 3D content and meaningful images have VoiceOver labels\"")
    }

    /// Outside trial (session 25, F1): one node of each of many models (`board/p00/nodes_0_`) has
    /// its model as parent, so each finding was a group of one (670 text lines for one board).
    /// The same part of sibling objects folds in their container; parts with other names, other
    /// causes, or windows at the scene's root (no common container) do not.
    @Test func theSamePartOfSiblingObjectsFolds() {
        func low(_ e: String, _ m: Double) -> ReportViolation {
            Self.v("fov-vertical-comfort", [e], measured: m, threshold: 40, unit: "deg", severity: .warning,
                   message: "\(e) is \(Int(m))° below eye level; move it closer to eye level")
        }
        let g = foldViolations([low("board/p00/nodes_0_", 41), low("board/p01/nodes_0_", 45), low("board/p02/nodes_0_", 42),
                                low("board/p03/other", 43), low("w1/ok", 50), low("w2/ok", 51)])
        #expect(g.map(\.container) == ["board", "board/p03", "w1", "w2"])
        #expect(g.map(\.count) == [3, 1, 1, 1])
        #expect(g.first?.members.map(\.entities) == [["board/p01/nodes_0_"], ["board/p02/nodes_0_"], ["board/p00/nodes_0_"]])
        #expect(g.first?.summary == "3 entities in board measure 41.0–45.0 deg, threshold 40.0 deg")
        #expect(g.map(\.members.first?.entities) == [["board/p01/nodes_0_"], ["board/p03/other"], ["w1/ok"], ["w2/ok"]])
    }

    @Test func numbersAndEntityPathsLeaveTheCauseKey() {
        let a = Self.v("r", ["p/k1", "p/k2"], measured: 1, message: "centres of p/k1 and p/k2 are 56.5 pt apart, 1,200 frames")
        let b = Self.v("r", ["p/k10", "p/k3"], measured: 1, message: "centres of p/k10 and p/k3 are 7 pt apart, 3 frames")
        #expect(foldCause(a) == "pt||centres of ‹e› and ‹e› are # pt apart, # frames")
        #expect(foldCause(a) == foldCause(b))
    }

    /// Regression (issue 16, session 10): taking the entity paths out of a message scanned the
    /// message once per entity, so a saved report with one violation of 100,000 entities and a
    /// 400,000-character message did not render as text in 5 minutes. The scan has a budget of
    /// 50,000,000 bytes per violation: the longest paths still go first, the rest stay in.
    @Test func manyEntitiesFoldWithinTheBudget() {
        #expect(foldReplacementBudget == 50_000_000)
        let filler = String(repeating: "y", count: 400_000)
        let entities = ["a/the-longest-entity-path"] + (0..<100_000).map { "e\($0)" }
        let v = Self.v("r", entities, measured: 1, message: "a/the-longest-entity-path is 5 pt from e99999 " + filler)
        // 124 replacements fit (each scans the whole message); e99999 is never reached.
        #expect(foldCause(v) == "pt||‹e› is # pt from e# " + filler)
        let few = Self.v("r", ["a/b", "a/bc"], measured: 1, message: "a/bc and a/b are 5 pt apart")
        #expect(foldCause(few) == "pt||‹e› and ‹e› are # pt apart")
    }

    /// The container, by bytes (what every fold and the snapshot plan take), is the component-wise
    /// common ancestor of the parents, for ASCII and non-ASCII paths.
    @Test func containerIsTheComponentContainer() {
        // The plain definition: parents split into components, the common leading components.
        func components(_ entities: [String]) -> String {
            let parents = entities.map { Array($0.split(separator: "/", omittingEmptySubsequences: false).dropLast()) }
            guard var common = parents.first else { return "" }
            for p in parents.dropFirst() {
                var n = 0
                while n < common.count && n < p.count && common[n] == p[n] { n += 1 }
                common = Array(common.prefix(n))
            }
            return common.joined(separator: "/")
        }
        #expect(components(["a/b/c", "a/b/d"]) == "a/b")
        #expect(components(["a/b", "a/bc"]) == "a")
        #expect(components(["a/bc/d", "a/b/c"]) == "a")
        #expect(components(["/a/b", "/a/c"]) == "/a")
        #expect(components(["x", "y"]) == "")
        let names = ["", "a", "b", "ab", "a/b", "a/bc", "a/b/c", "a/bc/d", "/a", "/a/b", "//a", "a//b", "a/b/", "x/a/b", "a/b/c/d", "/",
                     "é/a", "é/b", "é𝐀/a", "é/𝐀/c", "𝐀/b", "𝐀𝐀/b/c"]
        for x in names {
            for y in names {
                for z in ["a/b/e", "q", "é/𝐀/d"] {
                    #expect(foldContainer([x, y]) == components([x, y]), "\([x, y])")
                    #expect(foldContainer([x, y, z]) == components([x, y, z]), "\([x, y, z])")
                }
            }
        }
        #expect(foldContainer(["é/a", "é/b"]) == "é")
        #expect(foldContainer([]) == "")
    }

    /// The cause template, by bytes, is the plain one: each path out by Foundation's literal search
    /// (longest first), then every run of digits (with `.`/`,` inside) one `#`.
    @Test func causeTemplateIsThePlainOne() {
        func plain(_ entities: [String], _ message: String) -> String {
            var m = message
            for e in entities.sorted(by: { $0.utf8.count > $1.utf8.count }) where !e.isEmpty && !m.isEmpty {
                m = m.replacingOccurrences(of: e, with: "‹e›", options: .literal)
            }
            var out = "", inNumber = false
            var pending: Character?
            for c in m {
                if c.isASCII && c.isNumber {
                    if !inNumber { out.append("#"); inNumber = true }
                    pending = nil
                } else if inNumber && (c == "." || c == ",") && pending == nil {
                    pending = c
                } else {
                    if let p = pending { out.append(p); pending = nil }
                    inNumber = false
                    out.append(c)
                }
            }
            if let p = pending { out.append(p) }
            return out
        }
        // Hand-derived cases first: a path inside a longer one, a path that matches the `e` of a
        // marker already put in, separators in and after numbers, CR LF, non-ASCII paths.
        let t = { (entities: [String], message: String) in foldTemplate(Self.v("r", entities, measured: 1, message: message)) }
        #expect(t(["a/b", "a/bc"], "a/bc and a/b are 5 pt apart") == "‹e› and ‹e› are # pt apart")
        #expect(t(["w/e", "e"], "w/e by e") == "‹‹e›› by ‹e›")
        #expect(t(["x"], "1.5, 1,000 and 2.. or 3., x9\r\n4") == "#, # and #.. or #., ‹e›#\r\n#")
        #expect(t(["é/𝐀𝐀", "é/𝐀"], "é/𝐀𝐀 and é/𝐀 are 5 pt apart, 30°") == "‹e› and ‹e› are # pt apart, #°")
        let long = String(repeating: "𝐀", count: 400)
        #expect(t([long + "/k1", long + "/k10"], "\(long)/k10 and \(long)/k1 overlap") == "‹e› and ‹e› overlap")
        let entities: [[String]] = [[], ["e"], ["a", "a/b"], ["a/b", "b"], ["w/e", "e"], ["", "1"], ["x.1", "x"], ["aa", "a"],
                                    ["é"], ["𝐀", "𝐀𝐀"], ["w/é", "é"], ["‹e›"]]
        let messages = ["", "a/b and b are 1.5 pt apart", "e e‹e›", "aaa a", "1,2,,3..4 x.1x", "w/e\r\ne 10.", ".,1", "a/b/a/b",
                        "é 1", "a 1 °", "𝐀𝐀𝐀 2.5 𝐀", "w/é é‹e› 3,5"]
        for es in entities {
            for m in messages {
                #expect(t(es, m) == plain(es, m), "\(es) \(m)")
            }
        }
        #expect(foldCause(Self.v("r", ["é"], measured: 1, message: "é is 1.5 pt")) == "pt||‹e› is # pt")
    }

    @Test func thresholdRangeIsStated() {
        let groups = foldViolations([
            Self.v("type-min-size", ["doc/a"], measured: 10, threshold: 12, unit: "pt_eq", message: "text doc/a is 10 pt_eq"),
            Self.v("type-min-size", ["doc/b"], measured: 9, threshold: 17, unit: "pt_eq", message: "text doc/b is 9 pt_eq"),
        ])
        #expect(groups.map(\.summary) == ["2 entities in doc measure 9.00–10.0 pt_eq, threshold 12.0–17.0 pt_eq"])
    }
}

/// Folding in the text and Markdown reports, `--expand`, and the line of what no tool checked.
@Suite struct FoldedReportTests {
    static func report(members: Int) -> Report {
        // `members` key pairs in `keypad`, 56 pt apart except the second (52 pt), then a lone
        // size finding.
        var vs = (0..<members).map { i -> ReportViolation in
            var v = FoldingTests.v("target-center-spacing", ["keypad/k\(i)", "keypad/k\(i + 1)"], measured: i == 1 ? 52 : 56)
            v.location = SourceLocation(line: 10 + i, column: 7)
            v.spans = [0...89]; v.frameCount = 90; v.lastTime = 89.0 / 90
            return v
        }
        var lone = FoldingTests.v("target-min-size", ["keypad/k0"], measured: 40, threshold: 60, message: "keypad/k0 is 40 pt wide")
        lone.location = SourceLocation(line: 10, column: 7)
        vs.append(lone)
        var report = Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [
            SceneReport(path: "a.scene.yaml", status: .checked, frameRate: 90, frames: 90, duration: 1, violations: vs),
        ])
        report.notChecked = NotChecked(catalogRules: 164, manualReview: 69)
        return report
    }

    @Test func textShowsAGroupOnceWithItsMembers() {
        let text = Self.report(members: 3).text()
        #expect(text.contains("""
              a.scene.yaml:11:7: error [target-center-spacing] 3 pairs in keypad measure 52.0–56.0 pt, threshold 60.0 pt
                first: centres of keypad/k1 and keypad/k2 are 52 pt apart; move them to at least 60 pt apart
                https://x
                  - keypad/k1, keypad/k2 (line 11): 52.0 pt; t = 0.00–0.99 s, frames 0–89 (90 frames, 1.00 s)
                  - keypad/k0, keypad/k1 (line 10): 56.0 pt; t = 0.00–0.99 s, frames 0–89 (90 frames, 1.00 s)
                  - keypad/k2, keypad/k3 (line 12): 56.0 pt; t = 0.00–0.99 s, frames 0–89 (90 frames, 1.00 s)
              a.scene.yaml:10:7: error [target-min-size] keypad/k0
                keypad/k0 is 40 pt wide
                measured 40.0 pt, threshold 60.0 pt; worst at frame 0

            """))
        // The counts stay counts of violations.
        #expect(text.hasSuffix("to review by hand: 164 HIG guidelines spatialcheck does not check yet and 69 that only a person can judge (`spatialcheck rules --manual` lists them)\n1 scene checked: 4 errors, 0 warnings, 0 info\n"))
    }

    @Test func expandShowsEachViolation() {
        let text = Self.report(members: 3).text(expand: true)
        #expect(!text.contains("pairs in keypad"))
        #expect(text.components(separatedBy: "error [target-center-spacing] keypad/k").count == 4)
        #expect(text.contains("  a.scene.yaml:11:7: error [target-center-spacing] keypad/k1, keypad/k2\n    centres of keypad/k1 and keypad/k2 are 52 pt apart; move them to at least 60 pt apart\n    measured 52.0 pt, threshold 60.0 pt; worst at frame 0\n"))
    }

    @Test func longGroupsShowNineMembersAndACount() {
        let text = Self.report(members: 12).text()
        #expect(text.contains("12 pairs in keypad measure 52.0–56.0 pt, threshold 60.0 pt"))
        #expect(text.contains("      - keypad/k8, keypad/k9 (line 18)"))
        #expect(!text.contains("      - keypad/k9, keypad/k10"))
        #expect(text.contains("      … and 3 more (--expand lists each)\n"))
        #expect(!Self.report(members: 10).text().contains("more (--expand"), "10 members fit")
    }

    @Test func markdownFoldsIntoOneRowAndADetailsList() {
        let md = Self.report(members: 3).markdown()
        #expect(md.contains("| error | `target-center-spacing` | 3 pairs in `keypad` (listed below) | 52.0–56.0 pt | 60.0 pt | t = 0.00–0.99 s, frames 0–89, … | 11 |\n| error | `target-min-size` | `keypad/k0` | 40.0 pt | 60.0 pt | t = 0.00–0.00 s, frames 0–0 | 10 |\n"))
        #expect(md.contains("""
            <details><summary><code>target-center-spacing</code>: 3 pairs in keypad measure 52.0–56.0 pt, threshold 60.0 pt</summary>

            - `keypad/k1`, `keypad/k2`: 52.0 pt, t = 0.00–0.99 s, frames 0–89, line 11
            - `keypad/k0`, `keypad/k1`: 56.0 pt, t = 0.00–0.99 s, frames 0–89, line 10
            - `keypad/k2`, `keypad/k3`: 56.0 pt, t = 0.00–0.99 s, frames 0–89, line 12

            </details>
            """))
        #expect(md.contains("- `target-center-spacing` `keypad/k1`, `keypad/k2` and 2 more like it: centres of keypad/k1"))
        #expect(md.contains("\nto review by hand: 164 HIG guidelines spatialcheck does not check yet and 69 that only a person can judge (`spatialcheck rules --manual` lists them).\n"))
        let expanded = Self.report(members: 3).markdown(expand: true)
        #expect(!expanded.contains("<details><summary><code>"))
        #expect(expanded.contains("| error | `target-center-spacing` | `keypad/k1`, `keypad/k2` | 52.0 pt | 60.0 pt | t = 0.00–0.99 s, frames 0–89 | 11 |\n"))
    }

    @Test func machineFormatsKeepOneResultPerViolation() throws {
        let r = Self.report(members: 3)
        let json = r.json().serialized()
        #expect(json.components(separatedBy: "\"rule\": \"target-center-spacing\"").count == 4)
        #expect(json.contains("\"notChecked\": {\n    \"catalogRules\": 164,\n    \"manualReview\": 69\n  }"))
        #expect(r.xcode().split(separator: "\n").count == 4)
        let sarif = r.sarif(rules: []).serialized()
        #expect(sarif.components(separatedBy: "\"ruleId\"").count == 5)
    }

    @Test func htmlSummaryTextBreaksMentionsAndLinks() {
        #expect(markdownHTMLText("<b>@team #12 https://x www.y &#35;") == "&lt;b&gt;@&#8205;team #&#8205;12 https:&#8205;//x www&#8205;.y &amp;#&#8205;35;")
    }
}

/// The command line: `--expand`, the run time on standard error only, `rules --manual`.
@Suite struct FoldingCLITests {
    @Test func validateFoldsExpandsAndPutsTheRunTimeOnStderr() throws {
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let folded = try CLIHarness.run(["validate", scene])
        #expect(folded.status == 1)
        // controls/back–play and controls/forward–play, both 44 pt apart in the window `controls`.
        #expect(folded.stdout.contains("error [target-center-spacing] 2 pairs in controls measure 44.0 pt, threshold 60.0 pt\n"))
        #expect(folded.stdout.contains("\nto review by hand: \(RuleCatalog.notChecked.count) HIG guidelines spatialcheck does not check yet and \(RuleCatalog.manualReview.count) that only a person can judge"))
        #expect(folded.stderr.wholeMatch(of: /run time [0-9]+\.[0-9]{2} s\n/) != nil, "\(folded.stderr)")
        #expect(!folded.stdout.contains("run time"))
        let again = try CLIHarness.run(["validate", scene])
        #expect(again.stdout == folded.stdout, "the report stays byte-identical")

        let expanded = try CLIHarness.run(["validate", scene, "--expand"])
        #expect(expanded.status == 1)
        #expect(expanded.stdout.contains(":29:9: error [target-center-spacing] controls/back, controls/play\n"))
        #expect(expanded.stdout.contains(":31:9: error [target-center-spacing] controls/forward, controls/play\n"))
        #expect(!expanded.stdout.contains("pairs in controls"))

        let json = try CLIHarness.run(["validate", scene, "--format", "json"])
        #expect(json.stderr.isEmpty, "no run time outside the text report: \(json.stderr)")
    }

    @Test func reportTakesExpandToo() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let saved = dir + "/r.json"
        _ = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player.scene.yaml"), "--format", "json", "--output", saved])
        let folded = try CLIHarness.run(["report", saved, "--format", "markdown"])
        #expect(folded.stdout.contains("| 2 pairs in `controls` (listed below) | 44.0 pt | 60.0 pt |"))
        let expanded = try CLIHarness.run(["report", saved, "--format", "markdown", "--expand"])
        #expect(expanded.stdout.contains("| `controls/back`, `controls/play` | 44.0 pt | 60.0 pt | t = 0.00–11.99 s, frames 0–1079 | 29 |"))
    }

    @Test func rulesManualListsWhatNoRuleChecks() throws {
        let r = try CLIHarness.run(["rules", "--manual"])
        #expect(r.status == 0)
        #expect(r.stdout == RuleCatalog.renderNotChecked())
        #expect(try CLIHarness.run(["rules", "--manual", "--format", "json"]).status == 2)
    }

    /// `--max-violations` left violations of a group's rule and severity out of the scene's list:
    /// the summary says that its count and range are of the listed ones and how many the scene has
    /// (trial s19 F8a: "100 pairs in shelf measure 30.4–55.7 pt_eq" of 1,907), in every format
    /// that prints it; a rule with nothing left out keeps the plain summary.
    @Test func aGroupSaysHowManyOfItsRuleAreListed() {
        let vs = [
            FoldingTests.v("target-center-spacing", ["shelf/a", "shelf/b"], measured: 30.4),
            FoldingTests.v("target-center-spacing", ["shelf/b", "shelf/c"], measured: 55.7),
            FoldingTests.v("target-center-spacing", ["rack/a", "rack/b"], measured: 40),
            FoldingTests.v("target-center-spacing", ["rack/b", "rack/c"], measured: 41),
            FoldingTests.v("target-no-overlap", ["shelf/a", "shelf/b"], measured: 2, threshold: 0, message: "shelf/a and shelf/b overlap by 2 pt"),
            FoldingTests.v("target-no-overlap", ["shelf/b", "shelf/c"], measured: 3, threshold: 0, message: "shelf/b and shelf/c overlap by 3 pt"),
        ]
        let omitted = [OmittedViolations(rule: "target-center-spacing", severity: .error, count: 1_903),
                       OmittedViolations(rule: "target-center-spacing", severity: .warning, count: 7)]
        let groups = foldViolations(vs, omitted: omitted)
        // 4 listed + 1,903 left out = 1,907 errors of the rule; the warnings left out are another severity.
        let note = " (the listed ones: the scene has 1,907 target-center-spacing errors, 4 listed, 1,903 not listed: --max-violations)"
        #expect(groups.map(\.summary) == [
            "2 pairs in shelf measure 30.4–55.7 pt, threshold 60.0 pt" + note,
            "2 pairs in rack measure 40.0–41.0 pt, threshold 60.0 pt" + note,
            "2 pairs in shelf measure 2.00–3.00 pt, threshold 0.00 pt",
        ])
        // Without `omitted` (`--expand`, or nothing left out): as before.
        #expect(foldViolations(vs).first?.summary == "2 pairs in shelf measure 30.4–55.7 pt, threshold 60.0 pt")
        var scene = SceneReport(path: "s.scene.yaml", status: .checked, frameRate: 90, frames: 1, duration: 0.01, violations: vs)
        scene.omitted = omitted
        let report = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: [scene])
        #expect(report.text().contains("measure 30.4–55.7 pt, threshold 60.0 pt (the listed ones: the scene has 1,907 target-center-spacing errors, 4 listed"))
        #expect(report.markdown().contains("the scene has 1,907 target-center-spacing errors, 4 listed, 1,903 not listed"))
        #expect(report.html(snapshots: [:]).contains("the scene has 1,907 target-center-spacing errors, 4 listed, 1,903 not listed"))
    }

    /// The container in the summary comes from input (entity paths, or a saved report): each
    /// format escapes the summary with its note.
    @Test func theListedNoteIsEscapedInEveryFormat() {
        let box = "<script>alert(1)\u{1B}[2J"
        let vs = [FoldingTests.v("target-center-spacing", ["\(box)/a", "\(box)/b"], measured: 40),
                  FoldingTests.v("target-center-spacing", ["\(box)/b", "\(box)/c"], measured: 41)]
        var scene = SceneReport(path: "s.scene.yaml", status: .checked, frameRate: 90, frames: 1, duration: 0.01, violations: vs)
        scene.omitted = [OmittedViolations(rule: "target-center-spacing", severity: .error, count: 3)]
        let report = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: [scene])
        #expect(foldViolations(vs, omitted: scene.omitted).first?.summary
                == "2 pairs in \(box) measure 40.0–41.0 pt, threshold 60.0 pt (the listed ones: the scene has 5 target-center-spacing errors, 2 listed, 3 not listed: --max-violations)")
        let text = report.text(), md = report.markdown(), html = report.html(snapshots: [:])
        #expect(!text.contains("\u{1B}") && text.contains("the scene has 5 target-center-spacing errors"))
        #expect(!html.contains("<script>alert") && !html.contains("\u{1B}") && html.contains("the scene has 5 target-center-spacing errors"))
        #expect(!md.contains("<script>alert") && !md.contains("\u{1B}") && md.contains("the scene has 5 target-center-spacing errors"))
    }
}
