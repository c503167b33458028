import Testing
import Foundation
@testable import SpatialCheck
@testable import Reporting
import Rules
import SpatialModel

/// Baselines compare at the precision the JSON report stores (6 significant digits of `measured`).
@Suite(.serialized) struct ReportBaselinePrecisionTests {
    /// Regression: `validate SCENE --format json --output bl.json`, then `validate SCENE --baseline
    /// bl.json` reported `board/red-ship-3 (worsened since the baseline)`: the unrounded value was
    /// compared with the rounded one. Over every scene in Scenes/, a fresh baseline is all unchanged.
    @Test func aFreshBaselineOfEverySceneIsUnchanged() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.failOn = .never
        options.jobs = 2
        options.configSearchDirectory = dir
        let first = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes")], options: options)
        #expect(!first.report.hasLoadErrors)
        let baselinePath = dir + "/baseline.json"
        let written = SpatialCheck.render(first, format: .json)
        try written.write(toFile: baselinePath, atomically: true, encoding: .utf8)
        // Counted from the written file with an independent JSON reader.
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String: Any])
        let writtenCount = ((doc["scenes"] as? [[String: Any]]) ?? []).reduce(0) { $0 + (($1["violations"] as? [Any])?.count ?? 0) }
        #expect(writtenCount > 50, "Scenes/ should have plenty of violations, found \(writtenCount)")

        options.failOn = .info          // the strictest gate: anything not unchanged would fail it
        options.baselinePath = baselinePath
        let second = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes")], options: options)
        let all = second.report.scenes.flatMap { s in s.violations.map { (scene: s.path, violation: $0) } }
        #expect(all.count == writtenCount)
        let changed = all.filter { $0.violation.baseline != .unchanged }
        #expect(changed.isEmpty, "not unchanged: \(changed.map { "\($0.scene) \($0.violation.rule) \($0.violation.entities) \(String(describing: $0.violation.baseline)) \($0.violation.measured)" })")
        #expect(second.baseline?.count(.fixed) == 0)
        #expect(second.exitCode == .clean)
    }

    /// The baseline holds `baselineText` as written in a JSON file; the current run measured `current`.
    private func status(current: Double, baselineText: String, threshold: Double) throws -> BaselineStatus? {
        let json = """
            {"format": "spatialcheck-report/1", "settings": {"failOn": "error"}, "scenes": [{"path": "s.scene.yaml",
             "status": "checked", "violations": [{"rule": "target-center-spacing", "severity": "error", "entities": ["a", "b"],
             "measured": \(baselineText), "threshold": \(threshold), "unit": "pt", "fingerprint": "f"}]}]}
            """
        let baseline = try Report.parse(Data(json.utf8), path: "baseline.json")
        let now = ReportReaderAndBaselineTests.report([ReportReaderAndBaselineTests.violation("f", measured: current, threshold: threshold)])
        return BaselineComparison(current: now, baseline: baseline).entries.first?.status
    }

    @Test func valuesAreComparedAtTheStoredPrecision() throws {
        // 0.1234564 is written as 0.123456: unchanged, although the relative difference is 3.2e-6.
        #expect(try status(current: 0.1234564, baselineText: "0.123456", threshold: 0.2) == .unchanged)
        // A hand-written 7th digit is below the stored precision.
        #expect(try status(current: 44, baselineText: "44.00001", threshold: 60) == .unchanged)
        // A difference in the 6th digit is real: 0.123457 is closer to the 0.2 minimum, 44.0 further below 60.
        #expect(try status(current: 0.1234566, baselineText: "0.123456", threshold: 0.2) == .improved)
        #expect(try status(current: 44, baselineText: "44.0001", threshold: 60) == .worsened)
        #expect(try status(current: 44, baselineText: "50", threshold: 60) == .worsened)
        #expect(try status(current: 44, baselineText: "40", threshold: 60) == .improved)
        // A maximum (distance walked past 1.5 m): higher is worse.
        #expect(try status(current: 1.8000004, baselineText: "1.8", threshold: 1.5) == .unchanged)
        #expect(try status(current: 1.80001, baselineText: "1.8", threshold: 1.5) == .worsened)
        #expect(try status(current: 1.79999, baselineText: "1.8", threshold: 1.5) == .improved)
    }
}

/// `report` reads reports strictly but normalises what it reads: order, fingerprints, failOn.
@Suite(.serialized) struct ReportReadNormalisationTests {
    /// The reference: the per-rule example scenes as `validate` writes them.
    private static func reference() throws -> String {
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.failOn = .never
        options.jobs = 2
        options.configSearchDirectory = FileManager.default.temporaryDirectory.path
        let v = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes/rules")], options: options)
        return SpatialCheck.render(v, format: .json)
    }

    /// Rewrites every violation of a report with `edit`, and the violation lists with `reorder`.
    private static func rewrite(_ text: String, reorder: ([[String: Any]]) -> [[String: Any]],
                                edit: ([String: Any]) -> [String: Any]) throws -> Data {
        var doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var scenes = try #require(doc["scenes"] as? [[String: Any]])
        for i in scenes.indices {
            guard let vs = scenes[i]["violations"] as? [[String: Any]] else { continue }
            scenes[i]["violations"] = reorder(vs.map(edit))
        }
        doc["scenes"] = scenes
        return try JSONSerialization.data(withJSONObject: doc)
    }

    /// Every fingerprint that the report's own fields determine is recomputed. (A sub-check in the
    /// unit of its rule's main measurement, such as fov-vertical-comfort's `span`, cannot be told
    /// from it without the fingerprint; those keep theirs here.)
    @Test func missingFingerprintsAreRecomputedAsValidateComputesThem() throws {
        let reference = try Self.reference()
        #expect(reference.contains("\"fingerprint\": \""))
        var strippedCount = 0
        let stripped = try Self.rewrite(reference, reorder: { $0 }) { v in
            var v = v
            let meta = RuleCatalog.metadata(id: v["rule"] as? String ?? "")
            if let meta, !meta.subchecks.contains(where: { $0.unit == meta.unit }) {
                v.removeValue(forKey: "fingerprint")
                strippedCount += 1
            }
            v["entities"] = Array(((v["entities"] as? [String]) ?? []).reversed())
            return v
        }
        #expect(strippedCount > 30)
        let read = try Report.parse(stripped, path: "stripped.json")
        let again = read.json().serialized()
        let diff = zip(again.split(separator: "\n"), reference.split(separator: "\n")).first { $0 != $1 }
        #expect(again == reference, "first difference: \(String(describing: diff))")
    }

    @Test func violationsAndEntitiesAreSortedOnRead() throws {
        let reference = try Self.reference()
        let shuffled = try Self.rewrite(reference, reorder: { $0.reversed() }) { v in
            var v = v
            v["entities"] = Array(((v["entities"] as? [String]) ?? []).reversed())
            return v
        }
        let again = try Report.parse(shuffled, path: "shuffled.json").json().serialized()
        let diff = zip(again.split(separator: "\n"), reference.split(separator: "\n")).first { $0 != $1 }
        #expect(again == reference, "first difference: \(String(describing: diff))")
    }

    @Test func failOnIsReadAsWritten() throws {
        func read(_ settings: String) throws -> Report {
            let json = #"{"format": "spatialcheck-report/1", \#(settings) "scenes": []}"#
            return try Report.parse(Data(json.utf8), path: "r.json")
        }
        #expect(try read(#""settings": {"failOn": "never"},"#).failOn == nil)
        #expect(try read(#""settings": {"failOn": "warning"},"#).failOn == .warning)
        #expect(try read(#""settings": {"failOn": "info"},"#).failOn == .info)
        #expect(try read("").failOn == .error, "a report that does not say gates at the default")
        #expect(throws: Diagnostic.self) { try read(#""settings": {"failOn": "sometimes"},"#) }
    }

    @Test func mergedReportsTakeTheStrictestFailOn() {
        func merged(_ settings: [Severity?]) -> Severity? {
            Report.merge(settings.map { Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: $0, scenes: []) }).failOn
        }
        #expect(merged([nil]) == nil)
        #expect(merged([nil, .error]) == .error)
        #expect(merged([.error, nil]) == .error)
        #expect(merged([nil, .warning, .error]) == .warning)
        #expect(merged([.info, .warning]) == .info)
        #expect(merged([]) == .error)
    }
}

/// Rendering details: scene-wide violations, timestamps, the gate in Markdown.
@Suite struct ReportRenderingContractTests {
    static func sceneWide() -> Report {
        let v = ReportViolation(
            rule: "fov-window-clutter", severity: .warning, entities: [], spans: [0...89], frameCount: 90,
            firstTime: 0, lastTime: 89.0 / 90, measured: 4, threshold: 3, unit: "count", worstFrame: 0,
            message: "4 windows and volumes are open at once", help: "https://developer.apple.com/design/human-interface-guidelines/spatial-layout",
            fingerprint: "579975a8d0f8d175", location: nil)
        return Report(toolVersion: "0.1.0", pointAngle: 0.0671, failOn: .error, scenes: [
            SceneReport(path: "Scenes/w.scene.yaml", status: .checked, frameRate: 90, frames: 90, duration: 1, violations: [v]),
        ])
    }

    @Test func aSceneWideViolationSaysWholeScene() {
        let text = Self.sceneWide().text()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Without a location, the violation points at the scene file's first line.
        #expect(lines.contains("  Scenes/w.scene.yaml:1:1: warning [fov-window-clutter] (whole scene)"))
        #expect(lines.contains("    https://developer.apple.com/design/human-interface-guidelines/spatial-layout"))
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") }, "a line ends with a space:\n\(text)")
        let md = Self.sceneWide().markdown()
        #expect(md.contains(" | (whole scene) | 4 | 3 | t = 0.00–0.99 s, frames 0–89 |  |\n"))
        #expect(md.contains("- `fov-window-clutter` (whole scene): 4 windows and volumes are open at once\n"))
        #expect(Self.sceneWide().junit().contains("warning: (whole scene): 4 windows"))
    }

    /// 1 750 000 000 s after the epoch is 2025-06-15 15:06:40 UTC (python's datetime agrees).
    @Test func timestampGoesInEachFormatsOwnPlace() throws {
        var report = Self.sceneWide()
        report.generatedAt = Report.timestamp(Date(timeIntervalSince1970: 1_750_000_000))
        let stamp = "2025-06-15T15:06:40Z"
        #expect(report.generatedAt == stamp)
        let json = report.json().serialized()
        #expect(json.contains("\n  },\n  \"generatedAt\": \"\(stamp)\",\n  \"settings\": {"), "generatedAt follows tool")
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(report.sarif(rules: []).serialized().utf8)) as? [String: Any])
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        #expect((run["invocations"] as? [[String: Any]])?.first?["endTimeUtc"] as? String == stamp)
        #expect(report.junit().contains("<testsuites name=\"spatialcheck\" tests=\"1\" failures=\"0\" errors=\"0\" timestamp=\"\(stamp)\">"))
        #expect(report.text().hasSuffix("\ngenerated at \(stamp)\n"))
        #expect(report.markdown().contains("\n\nGenerated at \(stamp).\n\n"))
        #expect(report.html(snapshots: [:]).contains("Generated at \(stamp)."))
        // Without it, nothing.
        report.generatedAt = nil
        let outputs = [report.json().serialized(), report.sarif(rules: []).serialized(), report.junit(), report.text(),
                       report.markdown(), report.html(snapshots: [:])]
        for o in outputs {
            #expect(!o.contains(stamp) && !o.contains("generatedAt") && !o.contains("endTimeUtc")
                    && !o.contains("timestamp=") && !o.lowercased().contains("generated at"))
        }
    }

    /// With a baseline applied, the Markdown verdict is the gate's: known violations do not fail it.
    @Test func markdownVerdictFollowsTheBaseline() {
        var report = ReportRenderingTests.sample()
        report.scenes.removeLast()  // no load error
        #expect(report.markdown().contains("**Comfort check failed**"))
        report.scenes[0].violations[0].baseline = .unchanged
        // It passes only because the baseline knows the error: the verdict says so (s26 F12).
        #expect(report.markdown().contains("**Gate passed** (no new or worsened errors against the baseline): 1 known error, 0 warnings, 0 info."))
        report.scenes[0].violations[0].baseline = .worsened
        #expect(report.markdown().contains("**Comfort check failed**"))
    }

    @Test func colourIsOneDecision() {
        func color(_ format: ReportFormat = .text, file: Bool = false, flag: Bool = false,
                   env: [String: String] = [:], tty: Bool = true) -> Bool {
            SpatialCheck.useColor(format: format, writingToFile: file, noColorFlag: flag, environment: env, stdoutIsTerminal: tty)
        }
        #expect(color())
        #expect(!color(env: ["NO_COLOR": "1"]))
        #expect(color(env: ["NO_COLOR": ""]), "no-color.org: an empty NO_COLOR does not count")
        #expect(!color(flag: true))
        #expect(!color(tty: false))
        #expect(!color(file: true))
        #expect(!color(.json))
        // FORCE_COLOR colours a log that is not a terminal; NO_COLOR and --no-color still win.
        #expect(color(env: ["FORCE_COLOR": "1"], tty: false))
        #expect(color(env: ["FORCE_COLOR": "true"], tty: false))
        #expect(!color(env: ["FORCE_COLOR": "0"], tty: false))
        #expect(!color(env: ["FORCE_COLOR": ""], tty: false))
        #expect(!color(env: ["FORCE_COLOR": "1", "NO_COLOR": "1"], tty: false))
        #expect(!color(flag: true, env: ["FORCE_COLOR": "1"], tty: false))
        #expect(!color(file: true, env: ["FORCE_COLOR": "1"]))
    }
}

/// The inputs of a run in report order, with the paths that cannot be checked in their place.
@Suite struct ReportInputTests {
    @Test func missingPathsAndEmptyDirectoriesAreInputsWithErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        try "format: spatialscene/1\nentities: []\n".write(toFile: dir + "/a.scene.yaml", atomically: true, encoding: .utf8)
        let inputs = SpatialCheck.expandInputs([dir + "/a.scene.yaml", dir + "/nope.scene.yaml", dir + "/empty"])
        #expect(inputs.count == 3)
        #expect(inputs.first == .scene(dir + "/a.scene.yaml"))
        guard inputs.count == 3, case .error(let missing, let d1) = inputs[1], case .error(let empty, let d2) = inputs[2] else {
            Issue.record("expected two errors after the scene: \(inputs)")
            return
        }
        #expect(missing == dir + "/nope.scene.yaml" && d1.file == missing)
        #expect(d1.message == "no such file or directory" && d1.hint?.contains("scene file") == true)
        #expect(empty == dir + "/empty" && d2.message.contains("no scene files"))
    }

    @Test func aMissingPathIsASceneOfItsOwnInTheReport() throws {
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = FileManager.default.temporaryDirectory.path
        let good = TestPaths.repo("Scenes/media-player.scene.yaml")
        let missing = TestPaths.repo("Scenes/nope.scene.yaml")
        let v = SpatialCheck.runValidation(paths: [missing, good], options: options)
        #expect(v.exitCode == .loadError)
        #expect(v.report.scenes.map(\.status) == [.error, .checked])
        #expect(v.report.scenes.first?.errors.first?.file == v.report.scenes.first?.path)
        #expect(v.report.scenes.first?.path.hasSuffix("Scenes/nope.scene.yaml") == true)
    }
}

private func temporaryDirectory() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}
