import Testing
import Foundation
@testable import Reporting
import Rules
import SpatialModel

@Suite struct JSONWriterTests {
    @Test func keepsKeyOrderAndEscapes() {
        let v = JSON.object([("b", .int(1)), ("a", .string("q\"\\\n\u{01}")), ("c", .array([.number(44), .number(0.5)]))])
        #expect(v.serialized(pretty: false) == #"{"b": 1, "a": "q\"\\\n\u0001", "c": [44.0, 0.5]}"#)
    }

    @Test func roundsToSignificantDigits() {
        #expect(JSON.rounded(5.0000001192092896, digits: 6).serialized(pretty: false) == "5.0")
        #expect(JSON.rounded(11.988888888, digits: 5).serialized(pretty: false) == "11.989")
        #expect(JSON.rounded(-0.000123456789, digits: 3).serialized(pretty: false) == "-0.000123")
        #expect(JSON.rounded(.nan).serialized(pretty: false) == "null")
    }

    @Test func fixedPointFormatting() {
        #expect(fmt(1.23456, 2) == "1.23")
        #expect(fmt(-0.004, 2) == "0.00")
        #expect(fmt(-1.5, 0) == "-2")
        #expect(fmt(0.05, 3) == "0.050")
        #expect(fmtShort(0.0254) == "0.0254")
        #expect(fmtShort(5) == "5")
    }
}

@Suite struct ReportRenderingTests {
    static func sample() -> Report {
        let v = ReportViolation(
            rule: "target-center-spacing", severity: .error, entities: ["player/pause", "player/play"],
            spans: [0...1079], frameCount: 1080, firstTime: 0, lastTime: 1079.0 / 90, measured: 44,
            threshold: 60, unit: "pt", worstFrame: 0,
            message: "centres of player/pause and player/play are 44 pt apart; at least 60 pt needed",
            help: "https://developer.apple.com/design/human-interface-guidelines/spatial-layout",
            fingerprint: "3f1c", location: SourceLocation(line: 14, column: 9))
        return Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [
            SceneReport(path: "Scenes/a.scene.yaml", status: .checked, frameRate: 90, frames: 1080, duration: 12, violations: [v]),
            SceneReport(path: "Scenes/b.scene.yaml", status: .error, errors: [
                Diagnostic(file: "Scenes/b.scene.yaml", location: SourceLocation(line: 3, column: 5), message: "unknown key 'postion'", hint: "did you mean 'position'?"),
            ]),
        ])
    }

    @Test func jsonFollowsTheContract() {
        let json = Self.sample().json().serialized()
        #expect(json.hasPrefix("{\n  \"format\": \"spatialcheck-report/1\",\n  \"tool\": {\n    \"name\": \"spatialcheck\""))
        #expect(json.contains("\"summary\": {\n        \"error\": 1,\n        \"warning\": 0,\n        \"info\": 0\n      }"))
        #expect(json.contains("\"spans\": [[0, 1079]]"))
        #expect(json.contains("\"lastTime\": 11.9889"))
        #expect(json.contains("\"status\": \"error\""))
        #expect(json == Self.sample().json().serialized())
    }

    @Test func gateAndSummary() {
        let r = Self.sample()
        #expect(r.failsGate)
        #expect(r.hasLoadErrors)
        var lenient = r
        lenient.failOn = nil
        #expect(!lenient.failsGate)
        let text = r.text()
        #expect(text.contains("error [target-center-spacing] player/pause, player/play"))
        #expect(text.contains("Scenes/a.scene.yaml:14:9"))
        #expect(text.contains("1 scene checked: 1 error, 0 warnings, 0 info, 1 could not be loaded"))
        #expect(!text.contains("\u{1B}["))
    }

    /// The work-budget stop names the causes of that much work, a moving or turning viewer among
    /// them (a walking viewer among still windows also reaches the budget).
    @Test func theWorkBudgetStopNamesAMovingViewer() {
        let line = EarlyStop(afterFrame: 971, frames: 1800, pairTestBudget: 1_000_000_000).line
        #expect(line.hasPrefix("checking stopped after frame 971 of 1800: the scene took more than the work budget of 1,000,000,000 units"))
        #expect(line.contains("That much work comes from many entities moving for many frames, from a viewer moving or turning among many entities, "
                              + "or from many windows, volumes or controls on or around one spot: "))
    }
}

@Suite struct ReportFormatTests {
    static let rules = [RuleDescriptor(
        id: "target-center-spacing", name: "Target centre spacing", summary: "Interactive centres 60 pt apart.",
        fix: "Move targets apart.", helpURL: "https://developer.apple.com/design/human-interface-guidelines/spatial-layout",
        defaultSeverity: .error, category: "targets")]

    @Test(.enabled(if: ExternalTool.havePythonModule("jsonschema")))
    func sarifValidatesAgainstTheSchema() throws {
        let sarif = ReportRenderingTests.sample().sarif(rules: Self.rules).serialized()
        let schema = TestPaths.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/spec/sarif-schema-2.1.0.json").path
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            doc = json.load(sys.stdin)
            jsonschema.validate(doc, schema)
            r = doc["runs"][0]["results"][0]
            assert r["ruleId"] == "target-center-spacing" and r["ruleIndex"] == 0, r
            assert r["locations"][0]["physicalLocation"]["region"] == {"startLine": 14, "startColumn": 9}
            assert r["partialFingerprints"]["spatialcheck/v1"] == "3f1c"
            print("ok")
            """
        let result = try #require(ExternalTool.python(script, args: [schema], input: sarif))
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func junitIsWellFormedAndCountsFailures() throws {
        var report = ReportRenderingTests.sample()
        report.scenes[0].rulesChecked = ["target-center-spacing", "type-min-size"]
        let xmlText = report.junit()
        let script = """
            import sys, xml.dom.minidom
            d = xml.dom.minidom.parseString(sys.stdin.read())
            top = d.documentElement
            print(top.getAttribute("tests"), top.getAttribute("failures"), top.getAttribute("errors"))
            """
        let result = try #require(ExternalTool.python(script, input: xmlText))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "3 1 1")
    }

    @Test func markdownHasSummaryTable() {
        let md = ReportRenderingTests.sample().markdown()
        #expect(md.contains("**Comfort check failed**: 1 error, 0 warnings, 0 info, 1 scene could not be loaded."))
        #expect(md.contains("| `Scenes/a.scene.yaml` | violations | 1 | 0 | 0 |"))
        #expect(md.contains("[`target-center-spacing`](https://developer.apple.com/design/human-interface-guidelines/spatial-layout)"))
    }

    /// s26 F12: the Markdown table's time column gives seconds beside the frames, as the text
    /// report's time line does (1079 / 90 = 11.99 s), in a folded row's list too.
    @Test func markdownTimeColumnHasSeconds() {
        let md = ReportRenderingTests.sample().markdown()
        #expect(md.contains("| severity | rule | entities | measured | threshold | time | line |\n"))
        #expect(md.contains(" | 44.0 pt | 60.0 pt | t = 0.00–11.99 s, frames 0–1079 | 14 |\n"))
        #expect(ReportRenderingTests.sample().text().contains("    t = 0.00–11.99 s, frames 0–1079 (1080 frames, 12.00 s)\n"))
        var folded = ReportRenderingTests.sample()
        var second = folded.scenes[0].violations[0]
        second.entities = ["player/next", "player/play"]; second.fingerprint = "3f1d"
        second.message = "centres of player/next and player/play are 44 pt apart; at least 60 pt needed"
        second.spans = [90...179]; second.frameCount = 90; second.firstTime = 1; second.lastTime = 179.0 / 90
        folded.scenes[0].violations.append(second)
        let list = folded.markdown()
        #expect(list.contains("| 44.0 pt | 60.0 pt | t = 0.00–11.99 s, frames 0–1079, … | 14 |\n"))
        #expect(list.contains("- `player/next`, `player/play`: 44.0 pt, t = 1.00–1.99 s, frames 90–179, line 14\n"))
    }

    @Test func xmlEscaping() {
        #expect(Escape.xml("a<b & \"c\"\u{01}") == "a&lt;b &amp; &quot;c&quot;\\u{1}")
        #expect(sarifURI("Scenes/my scene.yaml") == "Scenes/my%20scene.yaml")
        #expect(sarifURI("/abs/x.yaml") == "file:///abs/x.yaml")
    }
}

@Suite struct ReportReaderAndBaselineTests {
    @Test func roundTripsThroughJSON() throws {
        let original = ReportRenderingTests.sample()
        let text = original.json().serialized()
        let parsed = try Report.parse(Data(text.utf8), path: "r.json")
        let again = parsed.json().serialized()
        let diff = zip(again.split(separator: "\n"), text.split(separator: "\n")).first { $0 != $1 }
        #expect(again == text, "first difference: \(String(describing: diff))")
    }

    @Test func rejectsGarbageWithAClearError() {
        for bad in ["", "[]", "{\"format\": \"other\"}", String(repeating: "[", count: 10_000), "{\"format\": \"spatialcheck-report/1\"}"] {
            #expect(throws: Diagnostic.self) { try Report.parse(Data(bad.utf8), path: "bad.json") }
        }
    }

    /// Regression (fuzzer, report target): a frame count beyond Int's range trapped while converting.
    /// Counts are clamped to ±10¹² like the other integers of a report.
    @Test func hugeCountsAreClampedNotFatal() throws {
        for (frames, expected) in [("2" + String(repeating: "2", count: 70), 1_000_000_000_000), ("-1e300", -1_000_000_000_000), ("42", 42)] {
            let text = #"{"format": "spatialcheck-report/1", "scenes": [{"path": "a.scene.yaml", "status": "checked", "frames": \#(frames)}]}"#
            let parsed = try Report.parse(Data(text.utf8), path: "r.json")
            #expect(parsed.scenes.first?.frames == expected, "frames \(frames)")
        }
    }

    static func violation(_ fingerprint: String, measured: Double, threshold: Double = 60) -> ReportViolation {
        ReportViolation(rule: "target-center-spacing", severity: .error, entities: ["a", "b"], spans: [0...9],
                        frameCount: 10, firstTime: 0, lastTime: 0.1, measured: measured, threshold: threshold,
                        unit: "pt", worstFrame: 0, message: "m", help: "h", fingerprint: fingerprint, location: nil)
    }

    static func report(_ vs: [ReportViolation]) -> Report {
        Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error,
               scenes: [SceneReport(path: "s.scene.yaml", status: .checked, frameRate: 90, frames: 10, duration: 0.111, violations: vs)])
    }

    @Test func classifiesAgainstBaseline() {
        let baseline = Self.report([Self.violation("keep", measured: 44), Self.violation("worse", measured: 50),
                                    Self.violation("better", measured: 40), Self.violation("gone", measured: 30)])
        let current = Self.report([Self.violation("keep", measured: 44), Self.violation("worse", measured: 40),
                                   Self.violation("better", measured: 50), Self.violation("added", measured: 20)])
        let c = BaselineComparison(current: current, baseline: baseline)
        func status(_ fp: String) -> BaselineStatus? {
            c.entries.first { ($0.current ?? $0.baseline)?.fingerprint == fp }?.status
        }
        #expect(status("keep") == .unchanged)
        #expect(status("worse") == .worsened)
        #expect(status("better") == .improved)
        #expect(status("gone") == .fixed)
        #expect(status("added") == .new)
        #expect(c.gating == ["worse", "added"])
        // A maximum-type threshold (distance walked 1.8 m > 1.5 m) worsens upward.
        let maxBase = Self.report([Self.violation("walk", measured: 1.8, threshold: 1.5)])
        let maxNow = Self.report([Self.violation("walk", measured: 2.1, threshold: 1.5)])
        #expect(BaselineComparison(current: maxNow, baseline: maxBase).entries.first?.status == .worsened)
    }

    /// The pairing `alignedScenePaths` made before session 10, every current path against every
    /// orphan (quadratic: 20,000 of each took more than 5 minutes), as the reference.
    static func quadraticAlignment(current: [String], baseline: [String]) -> [(String, String)] {
        let currentPaths = Set(current), baselinePaths = Set(baseline)
        let orphans = baseline.filter { !currentPaths.contains($0) }
        func parts(_ p: String) -> [Substring] { p.split(separator: "/") }
        func common(_ a: [Substring], _ b: [Substring]) -> Int {
            var n = 0
            while n < a.count, n < b.count, a[a.count - 1 - n] == b[b.count - 1 - n] { n += 1 }
            return n == min(a.count, b.count) ? n : 0
        }
        var pairs: [(String, String)] = []
        var used = Set<String>()
        for c in current where !baselinePaths.contains(c) && !used.contains(c) {
            let scored = orphans.map { ($0, common(parts($0), parts(c))) }.filter { $0.1 > 0 }
            guard let best = scored.map(\.1).max(), scored.filter({ $0.1 == best }).count == 1,
                  let match = scored.first(where: { $0.1 == best })?.0, !used.contains(match) else { continue }
            used.insert(match); used.insert(c)
            pairs.append((match, c))
        }
        return pairs
    }

    /// Regression (issue 16, session 10): a baseline's scenes that no current scene names are
    /// matched by path suffix; that compared every pair, so `report` of two untrusted reports of
    /// 20,000 scenes each did not finish in 5 minutes. The suffix index gives the same pairs:
    /// here on paths with shared and nested suffixes, ties, duplicates, extra slashes and empty
    /// paths, and on 20,000 × 20,000 scenes of which every tenth moved folder.
    @Test func baselineScenesFromAnotherFolderPairAsBefore() {
        let current = ["/ci/p/Scenes/a.scene.yaml", "/ci/p/Scenes/b.scene.yaml", "x/Scenes/b.scene.yaml", "c.scene.yaml",
                       "deep/one/two/d.scene.yaml", "e.scene.yaml", "q//r/f.scene.yaml", "", "/", "g.scene.yaml",
                       "n/h.scene.yaml", "m/h.scene.yaml", "same.scene.yaml", "k/i.scene.yaml", "k/i.scene.yaml"]
        let baseline = ["Scenes/a.scene.yaml", "Scenes/b.scene.yaml", "old/c.scene.yaml", "other/c.scene.yaml",
                        "two/d.scene.yaml", "one/two/d.scene.yaml", "root/e.scene.yaml", "r/f.scene.yaml", "//",
                        "a/g.scene.yaml", "a/g.scene.yaml", "h.scene.yaml", "same.scene.yaml", "i.scene.yaml", "z/k/i.scene.yaml"]
        let got = BaselineComparison.alignedScenePaths(current: current, baseline: baseline)
        let want = Self.quadraticAlignment(current: current, baseline: baseline)
        #expect(got.map { "\($0.0) -> \($0.1)" } == want.map { "\($0.0) -> \($0.1)" })
        #expect(got.map { "\($0.0) -> \($0.1)" } == ["Scenes/a.scene.yaml -> /ci/p/Scenes/a.scene.yaml", "Scenes/b.scene.yaml -> /ci/p/Scenes/b.scene.yaml",
                                                     "one/two/d.scene.yaml -> deep/one/two/d.scene.yaml", "root/e.scene.yaml -> e.scene.yaml",
                                                     "r/f.scene.yaml -> q//r/f.scene.yaml", "h.scene.yaml -> n/h.scene.yaml",
                                                     "z/k/i.scene.yaml -> k/i.scene.yaml"])
        // Many scenes: every tenth current scene is a baseline scene under another top folder.
        let many = (0..<20_000).map { "cur/d\($0 % 100)/s\($0).scene.yaml" }
        let old = (0..<20_000).map { $0 % 10 == 0 ? "base/cur/d\($0 % 100)/s\($0).scene.yaml" : "base/e\($0)/t\($0).scene.yaml" }
        let pairs = BaselineComparison.alignedScenePaths(current: many, baseline: old)
        #expect(pairs.count == 2_000)
        #expect(pairs.allSatisfy { $0.0 == "base/" + $0.1 })
    }

    /// Regression (issue 16, sessions 10 and 13): JSONSerialization takes about 64 bytes per
    /// value and 3 KB per object, so an 80 MB report that was one array of 40 million zeros took
    /// 2.3 GB to read, and 8 MB of `{"a":1},` 3.0 GB. A report whose estimate passes 1.5 GiB is
    /// refused before parsing.
    @Test func reportsThatWouldTakeTooMuchMemoryAreRefusedBeforeParsing() throws {
        #expect(Report.maxReportReadingBytes == 1_610_612_736)
        let head = #"{"format": "spatialcheck-report/1", "scenes": [], "x": ["#
        // 25,165,824 zeros and the header's 4 values (2 arrays, the top object):
        // 64 × 25,165,828 + 2 × 448 + 3,072 = 1,610,616,960 bytes, 4,224 over the limit.
        let zeros = head + String(repeating: "0,", count: 25_165_823) + "0]}"
        do {
            _ = try Report.parse(Data(zeros.utf8), path: "r.json")
            Issue.record("a report of 25 million values was read")
        } catch {
            #expect(error.message == "reading the report would take about 1536 MiB of memory, more than the 1536 MiB limit (25165828 JSON values, 1 of them objects)")
        }
        // 524,288 small objects (3,072 + 64 × 2 bytes each: 1,600 MiB) are refused although they
        // are only 4 MB of text and a million values.
        let objects = head + String(repeating: #"{"a":1},"#, count: 524_287) + #"{"a":1}]}"#
        #expect(throws: Diagnostic.self) { try Report.parse(Data(objects.utf8), path: "r.json") }
        // Commas and braces inside strings are neither values nor objects.
        let commas = head + "\"" + String(repeating: ",{", count: 25_000_001) + "\"]}"
        #expect(try Report.parse(Data(commas.utf8), path: "r.json").scenes.isEmpty)
    }

    /// Regression (issue 16, session 13): a 63 MB message in a saved report made 147 MB of HTML.
    /// Messages, hints and scene names are cut at 65,536 bytes, at a character boundary.
    @Test func longMessagesInASavedReportAreCut() throws {
        #expect(Report.maxReportTextBytes == 65_536)
        let long = String(repeating: "é", count: 50_000)           // 100,000 bytes
        let text = #"{"format": "spatialcheck-report/1", "scenes": [{"path": "s.scene.yaml", "status": "checked", "name": "\#(long)", "#
            + #""errors": [{"message": "\#(long)", "hint": "\#(long)"}], "#
            + #""violations": [{"rule": "r", "severity": "error", "measured": 1, "threshold": 2, "message": "\#(long)"}]}]}"#
        let report = try Report.parse(Data(text.utf8), path: "r.json")
        let scene = try #require(report.scenes.first)
        // 32,766 two-byte characters fill 65,532 bytes; the ellipsis takes 3 more.
        let cut = String(repeating: "é", count: 32_766) + "…"
        #expect(scene.violations.first?.message == cut)
        #expect(scene.name == cut)
        #expect(scene.errors.first?.message == cut)
        #expect(scene.errors.first?.hint == cut)
        #expect(cut.utf8.count == 65_535)
        // At the limit, nothing is cut.
        let fits = String(repeating: "a", count: 65_536)
        #expect(Report.capped(fits) == fits)
    }

    /// Regression (issue 16, session 10): a saved report is untrusted, and every format repeats a
    /// scene path per violation (SARIF per result: a 1 MB path in a 1.3 MB report made more than
    /// 300 MB of SARIF). Scene and entity paths longer than 4,096 bytes are refused.
    @Test func overlongPathsInASavedReportAreRefused() throws {
        #expect(Report.maxReportPathBytes == 4_096)
        func text(path: String, entity: String) -> String {
            #"{"format": "spatialcheck-report/1", "scenes": [{"path": "\#(path)", "status": "checked", "violations": [{"rule": "r", "severity": "error", "measured": 1, "threshold": 2, "entities": ["\#(entity)"]}]}]}"#
        }
        let fits = try Report.parse(Data(text(path: String(repeating: "p", count: 4_096), entity: String(repeating: "e", count: 4_096)).utf8), path: "r.json")
        #expect(fits.scenes.first?.path.count == 4_096 && fits.scenes.first?.violations.first?.entities.first?.count == 4_096)
        #expect(throws: Diagnostic.self) { try Report.parse(Data(text(path: String(repeating: "p", count: 4_097), entity: "e").utf8), path: "r.json") }
        do {
            _ = try Report.parse(Data(text(path: "a.scene.yaml", entity: String(repeating: "é", count: 2_049)).utf8), path: "r.json")
            Issue.record("an entity path of 4,098 bytes was read")
        } catch {
            #expect(error.message == "scenes[0].violations[0] names an entity path of 4098 bytes; an entity path is at most 4096")
            #expect(error.file == "r.json")
        }
    }

}

@Suite struct HTMLReportTests {
    static func snapshot() -> SceneSnapshot {
        SceneSnapshot(
            viewerPath: [SIMD2(0, 0), SIMD2(0, -1), SIMD2(0.5, -2)], boundaryOrigins: [SIMD2(0, 0)],
            footprints: [.init(path: "player", kind: "window", minX: -1.5, maxX: 1.5, minZ: -2, maxZ: -2),
                         .init(path: "player/play", kind: "element", minX: -0.05, maxX: 0.05, minZ: -2, maxZ: -2)],
            fieldOfView: SIMD2(90, 70),
            views: [0: .init(frame: 0, time: 0, boxes: [
                .init(path: "player/play", minAz: -1, maxAz: 1, minEl: -20, maxEl: -18, distance: 2),
                .init(path: "player/pause", minAz: 1, maxAz: 3, minEl: -20, maxEl: -18, distance: 2),
            ])])
    }

    @Test func isSelfContainedAndBalanced() throws {
        let html = ReportRenderingTests.sample().html(snapshots: ["Scenes/a.scene.yaml": Self.snapshot()])
        #expect(!html.contains("http://") || !html.contains("src=\"http"))
        // One script, our own inline one (sorting and filtering), nothing loaded.
        #expect(html.components(separatedBy: "<script").count == 2 && !html.contains("<script src"))
        #expect(html.contains("aria-label=\"top-down plan\""))
        #expect(html.contains("aria-label=\"view at frame 0\""))
        #expect(html.contains("aria-label=\"timeline\""))
        // Every opened element is closed (html.parser as an independent checker).
        let script = """
            import sys
            from html.parser import HTMLParser
            void = {"meta", "br", "img", "input", "link", "hr"}
            class P(HTMLParser):
                def __init__(self):
                    super().__init__(); self.stack = []; self.bad = []
                def handle_starttag(self, tag, attrs):
                    if tag not in void: self.stack.append(tag)
                def handle_startendtag(self, tag, attrs): pass
                def handle_endtag(self, tag):
                    if not self.stack or self.stack[-1] != tag: self.bad.append((tag, list(self.stack[-3:])))
                    else: self.stack.pop()
            p = P(); p.feed(sys.stdin.read())
            print("ok" if not p.bad and not p.stack else ("bad", p.bad[:3], p.stack[-3:]))
            """
        let result = try #require(ExternalTool.python(script, input: html))
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}

/// The "measured …, threshold …" line: two different numbers never print alike.
@Suite struct MeasureLineTests {
    @Test func moreDecimalsOnlyWhenTheRoundedValuesCollide() {
        // depth-text-flat at 4 pt in a window 1.5 m away: 4 × 1.5 × tan(0.0671°) = 0.00703 m against 0.005 m,
        // both "0.01" at 2 decimals.
        let offset = 4 * 1.5 * tan(0.0671 * Double.pi / 180)
        #expect(fmtMeasure(offset, 0.005) == ("0.007", "0.005"))
        #expect(fmtMeasure(0.05094, 0.05) == ("0.051", "0.050"))
        #expect(fmtMeasure(44, 60) == ("44.0", "60.0"))          // as fmtValue writes them
        #expect(fmtMeasure(0.05, 0.05) == ("0.05", "0.05"))      // equal: nothing to tell apart
    }
}
