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
        #expect(text.contains("2 scenes checked: 1 error, 0 warnings, 0 info, 1 could not be loaded"))
        #expect(!text.contains("\u{1B}["))
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
