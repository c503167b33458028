import Foundation
import Testing
import SpatialModel
@testable import Reporting

/// `Report.readBaseline` reads a saved report as a stream, keeping what the baseline gate compares:
/// it gates exactly as the whole-report reader does, reads reports that reader refuses, and is as
/// strict about hostile files (errors name the line, column and byte offset).
@Suite(.serialized) struct BaselineReaderTests {
    /// The saved report of `Scenes/media-player.scene.yaml` (two 44 pt spacing errors), and a
    /// fresh directory.
    private func saved() throws -> (dir: String, json: String) {
        let dir = try CLIHarness.temporaryDirectory()
        let r = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player.scene.yaml"), "--format", "json",
                                    "--output", dir + "/base.json", "--fail-on", "never"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, try String(contentsOfFile: dir + "/base.json", encoding: .utf8))
    }

    private func write(_ text: String, _ dir: String, _ name: String) throws -> String {
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The report's fingerprints, in order.
    private func fingerprints(_ json: String) throws -> [String] {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scenes = try #require(top["scenes"] as? [[String: Any]])
        return scenes.flatMap { ($0["violations"] as? [[String: Any]] ?? []).compactMap { $0["fingerprint"] as? String } }
    }

    /// The scene path of the saved report, as the run that compares with it names it (a baseline
    /// scene no current path can match is skipped unread).
    private func namedScene(_ json: String) throws -> Set<String> {
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return [try #require((top["scenes"] as? [[String: Any]])?.first?["path"] as? String)]
    }

    /// The comparison with `baselinePath` as `readBaseline` + `fixedDetails` make it.
    private func streamed(_ current: Report, _ baselinePath: String) throws -> BaselineComparison {
        let b = try Report.readBaseline(path: baselinePath, currentScenePaths: Set(current.scenes.map(\.path)))
        return try Report.fixedDetails(BaselineComparison(current: current, baseline: b), baselinePath: baselinePath)
    }

    @Test func itGatesAsTheWholeReportReaderDoes() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fps = try fingerprints(json)
        #expect(fps.count == 2)
        let current = try Report.parse(Data(json.utf8), path: "base.json")
        // Against itself: both unchanged.
        let same = try streamed(current, dir + "/base.json")
        #expect(same.entries.map(\.status) == [.unchanged, .unchanged])
        // One fingerprint changed in the baseline: that violation is new, the changed one fixed,
        // and the fixed one is read whole (entities and message) as the whole-report reader has it.
        let changed = json.replacingOccurrences(of: fps[0], with: "00000000000000ff")
        let path = try write(changed, dir, "changed.json")
        let c = try streamed(current, path)
        #expect(c.count(.new) == 1 && c.count(.unchanged) == 1 && c.count(.fixed) == 1)
        let whole = BaselineComparison(current: current, baseline: try Report.read(path: path))
        #expect(c.entries.map(\.status) == whole.entries.map(\.status))
        let fixed = try #require(c.entries.first { $0.status == .fixed }?.baseline)
        let wholeFixed = try #require(whole.entries.first { $0.status == .fixed }?.baseline)
        #expect(fixed.fingerprint == "00000000000000ff")
        #expect(fixed.entities == wholeFixed.entities && !fixed.entities.isEmpty)
        #expect(fixed.message == wholeFixed.message && fixed.message.contains("44"))
        #expect(fixed.location == wholeFixed.location)
        #expect(c.gating == whole.gating && c.gating.count == 1)
    }

    /// A report the whole-report reader refuses before parsing (its pre-scan estimates more than
    /// 1.5 GiB of memory: 600,000 small objects in a scene's geometry) reads back as a baseline:
    /// what the gate does not need is skipped. The CLI gates with it: "0 new" against itself,
    /// "1 new" with one fingerprint changed.
    @Test func aReportTooLargeForTheWholeReaderGates() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let geometry = #""geometry": ["# + String(repeating: "{},", count: 600_000) + "{}], "
        let big = json.replacingOccurrences(of: #""path": "#, with: geometry + #""path": "#)
        #expect(big.utf8.count > json.utf8.count + 1_800_000, "the report's scene has no \"path\" member to put the geometry before")
        let path = try write(big, dir, "big.json")
        #expect(throws: Diagnostic.self) { try Report.read(path: path) }
        let scene = TestPaths.repo("Scenes/media-player.scene.yaml")
        let same = try CLIHarness.run(["validate", scene, "--baseline", path], cwd: dir)
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("against the baseline: 0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed"), "\(same.stdout)")
        let fps = try fingerprints(json)
        let changed = try write(big.replacingOccurrences(of: fps[1], with: "00000000000000ff"), dir, "changed.json")
        let one = try CLIHarness.run(["validate", scene, "--baseline", changed], cwd: dir)
        #expect(one.status == 1, "\(one.stdout)\(one.stderr)")
        #expect(one.stdout.contains("against the baseline: 1 new, 0 worsened, 1 unchanged, 0 improved, 1 fixed"), "\(one.stdout)")
        // The JSON report names the fixed violation whole (entities from the baseline's file).
        let out = try CLIHarness.run(["validate", scene, "--baseline", changed, "--format", "json"], cwd: dir)
        let top = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let fixed = try #require((top["baseline"] as? [String: Any])?["fixedViolations"] as? [[String: Any]])
        #expect(fixed.count == 1 && fixed.first?["fingerprint"] as? String == "00000000000000ff")
        #expect((fixed.first?["entities"] as? [String])?.count == 2)
    }

    /// The work limits (file size, violations kept) are the reader's, injectable: over them is a
    /// clear error, not a crash or an exhausted machine.
    @Test func theWorkLimitsAreClearErrors() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/base.json"
        let named = try namedScene(json)
        let size = try #require(FileName.status(path)).size
        do {
            _ = try Report.readBaseline(path: path, currentScenePaths: named, limits: .init(bytes: size - 1, violations: 10))
            Issue.record("a baseline over the byte limit was read")
        } catch {
            #expect(error.message == "the baseline report is \(size) bytes, more than the \(size - 1)-byte limit")
        }
        do {
            _ = try Report.readBaseline(path: path, currentScenePaths: named, limits: .init(bytes: size, violations: 1))
            Issue.record("a baseline over the violation limit was read")
        } catch {
            #expect(error.message.hasPrefix("the baseline report lists more than 1 violations"))
            #expect(error.location != nil)
        }
        #expect(try Report.readBaseline(path: path, currentScenePaths: named, limits: .init(bytes: size, violations: 2)).scenes.count == 1)
        // A scene the run does not compare is skipped unread: no limit applies to it.
        #expect(try Report.readBaseline(path: path, currentScenePaths: ["other.scene.yaml"], limits: .init(bytes: size, violations: 1)).scenes.isEmpty)
    }

    /// Only the scenes a run compares are kept and count against the violation limit: a baseline
    /// of a suite (here the scene twice more, under other folders' paths that no current path
    /// ends with or is the end of) gates a run of one of its scenes within a limit its whole
    /// content is over; the scene named and the one that may be it seen from another folder are
    /// kept (the trial of session 17: 12 scenes at the tracking limit, 6,000,000 fingerprints,
    /// were refused for a run of one).
    @Test func scenesTheRunCannotCompareAreDropped() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var scenes = try #require(top["scenes"] as? [[String: Any]])
        let first = try #require(scenes.first)
        let scenePath = try #require(first["path"] as? String)
        for other in ["suite/a/other.scene.yaml", "suite/b/another.scene.yaml"] {
            var copy = first
            copy["path"] = other
            scenes.append(copy)
        }
        top["scenes"] = scenes
        let path = try write(String(decoding: try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys]), as: UTF8.self), dir, "suite.json")
        // 6 violations in the file, 2 in the scene the run names.
        let one = try Report.readBaseline(path: path, currentScenePaths: [scenePath], limits: .init(bytes: 1 << 30, violations: 2))
        #expect(one.scenes.map(\.path) == [scenePath])
        #expect(one.scenes.first?.violations.count == 2)
        // A current path that ends with a baseline scene's path keeps that scene too (it may be it).
        let moved = try Report.readBaseline(path: path, currentScenePaths: ["elsewhere/suite/a/other.scene.yaml"],
                                            limits: .init(bytes: 1 << 30, violations: 2))
        #expect(moved.scenes.map(\.path) == ["suite/a/other.scene.yaml"])
        // Two scenes the run compares are over a limit of 2, and the error says what to do.
        do {
            _ = try Report.readBaseline(path: path, currentScenePaths: [scenePath, "suite/b/another.scene.yaml"],
                                        limits: .init(bytes: 1 << 30, violations: 2))
            Issue.record("4 violations of compared scenes were read within a limit of 2")
        } catch {
            #expect(error.message.contains("for the scenes of this run"))
            #expect(error.hint?.contains("--shard") == true)
        }
        // The scenes the run names as earlier versions wrote their paths count as named.
        let legacy = try Report.readBaseline(path: path, currentScenePaths: ["x/y.scene.yaml"], legacyScenePaths: [scenePath],
                                             limits: .init(bytes: 1 << 30, violations: 2))
        #expect(legacy.scenes.map(\.path) == [scenePath])
    }

    /// A baseline that lists one scene more often than the run names it (reports joined by hand,
    /// or the session-17 trial's 20,000 copies) is read with a warning naming the scene and the
    /// count, from `validate` and `report`; the gate is the one-copy baseline's.
    @Test func aSceneRepeatedInTheBaselineIsAWarning() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let scenes = try #require(top["scenes"] as? [[String: Any]])
        let first = try #require(scenes.first)
        let scenePath = try #require(first["path"] as? String)
        top["scenes"] = Array(repeating: first, count: 3)
        let path = try write(String(decoding: try JSONSerialization.data(withJSONObject: top, options: [.sortedKeys]), as: UTF8.self), dir, "thrice.json")
        let b = try Report.readBaseline(path: path, currentScenePaths: [scenePath])
        let once = Report.repeatedSceneWarnings(baseline: b, path: path, currentScenePaths: [scenePath])
        #expect(once.count == 1)
        #expect(once.first?.severity == .warning)
        #expect(once.first?.file == path)
        #expect(once.first?.message.contains("lists the scene '\(scenePath)' 3 times, and this run names it once") == true)
        #expect(once.first?.hint?.contains("--format json --output \(path)") == true)
        // A run naming the scene three times writes it three times: nothing to say.
        #expect(Report.repeatedSceneWarnings(baseline: b, path: path, currentScenePaths: Array(repeating: scenePath, count: 3)).isEmpty)
        // Seven repeated scenes: five named, one line for the other two.
        let many = Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error,
                          scenes: (0..<7).flatMap { k in (0..<2).map { _ in SceneReport(path: "s\(k).scene.yaml", status: .checked) } })
        let seven = Report.repeatedSceneWarnings(baseline: many, path: "b.json", currentScenePaths: (0..<7).map { "s\($0).scene.yaml" })
        #expect(seven.count == 6)
        for k in 0..<5 { #expect(seven[k].message.contains("lists the scene 's\(k).scene.yaml' twice, and this run names it once")) }
        #expect(seven.last?.message == "the baseline report repeats 2 more scenes in the same way")
        // End to end: the run warns on standard error and gates as against one copy (2 unchanged).
        let r = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player.scene.yaml"), "--baseline", path], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: the baseline report lists the scene '\(scenePath)' 3 times"))
        #expect(r.stdout.contains("0 new, 0 worsened, 2 unchanged, 0 improved, 0 fixed"), "\(r.stdout)")
        let j = try CLIHarness.run(["report", dir + "/base.json", "--baseline", path], cwd: dir)
        #expect(j.stderr.contains("warning: the baseline report lists the scene '\(scenePath)' 3 times, and this run names it once"), "\(j.stderr)")
    }

    /// Hostile baselines: each is refused with what is wrong, where (line, column, byte) and what
    /// to do.
    @Test func hostileBaselinesAreClearErrors() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let named = try namedScene(json)
        func error(_ text: String) throws -> Diagnostic {
            let path = try write(text, dir, "hostile.json")
            do {
                _ = try Report.readBaseline(path: path, currentScenePaths: named)
            } catch {
                return error
            }
            Issue.record("read: \(text.prefix(100))")
            return Diagnostic(file: "", message: "")
        }
        // Truncated in the middle: where it ends.
        let half = String(json.utf8.prefix(json.utf8.count / 2)) ?? ""
        let cut = try error(half)
        #expect(cut.message == "the baseline report ends in the middle of its JSON (truncated?) (byte \(half.utf8.count) of the baseline report)")
        #expect(cut.location?.line == half.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(cut.hint?.contains("write the report again") == true)
        // Nesting: 65 levels.
        let deep = #"{"format": "spatialcheck-report/1", "scenes": [], "x": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
        #expect(try error(deep).message.hasPrefix("the baseline report nests deeper than 64 levels"))
        // A fingerprint of 100,000 bytes (a real one has 16).
        let fp = try fingerprints(json)[0]
        let huge = try error(json.replacingOccurrences(of: fp, with: String(repeating: "a", count: 100_000)))
        #expect(huge.message.hasPrefix("scenes[0].violations[0].fingerprint is 100000 bytes long; it is at most 65536"))
        // An entity path longer than any `validate` writes.
        let top = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let first = try #require(((top["scenes"] as? [[String: Any]])?.first?["violations"] as? [[String: Any]])?.first)
        let entity = try #require((first["entities"] as? [String])?.first)
        let long = try error(json.replacingOccurrences(of: "\"\(entity)\"", with: "\"" + String(repeating: "e", count: 5000) + "\""))
        #expect(long.message.hasPrefix("scenes[0].violations[0] names an entity path of 5000 bytes; an entity path is at most 4096"))
        // Wrong format tag, no tag, not an object, trailing bytes, a bad escape.
        let tag = try error(json.replacingOccurrences(of: "spatialcheck-report/1", with: "spatialcheck-model/1"))
        #expect(tag.message.hasPrefix("not a spatialcheck-report/1 report (format is spatialcheck-model/1)"))
        #expect(tag.hint == "pass a report written by `spatialcheck validate --format json`")
        #expect(try error(#"{"scenes": []}"#).message.hasPrefix("not a spatialcheck-report/1 report (format is missing)"))
        #expect(try error("[1]").message.hasPrefix("expected a JSON object at the top level"))
        #expect(try error(json + "x").message.hasPrefix("not valid JSON: more after the report's closing '}'"))
        #expect(try error(#"{"format": "spatialcheck-report/1", "scenes": [], "x": "\q"}"#).message.hasPrefix("not valid JSON: unknown escape '\\q'"))
        #expect(try error(#"{"format": "spatialcheck-report/1", "scenes": [{"path": "a"}]}"#).message.hasPrefix("scenes[0] needs 'path' and 'status'"))
        #expect(try error("").message.hasPrefix("the baseline report is empty"))
        // A huge message is not needed by the gate: skipped, not an error.
        let message = try #require(first["message"] as? String)
        let path = try write(json.replacingOccurrences(of: message, with: String(repeating: "m", count: 300_000)), dir, "message.json")
        #expect(try Report.readBaseline(path: path, currentScenePaths: named).scenes.first?.violations.count == 2)
    }

    /// Entity paths are kept only for baseline scenes the run does not name (matched from another
    /// folder by them); the rest keep rule, severity, fingerprint and the measured values.
    @Test func entitiesAreKeptOnlyForScenesTheRunDoesNotName() throws {
        let (dir, json) = try saved()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/base.json"
        let whole = try Report.read(path: path)
        let scenePath = try #require(whole.scenes.first?.path)
        let named = try Report.readBaseline(path: path, currentScenePaths: [scenePath])
        let other = try Report.readBaseline(path: path, currentScenePaths: ["elsewhere/" + scenePath])
        let unrelated = try Report.readBaseline(path: path, currentScenePaths: ["elsewhere/other.scene.yaml"])
        #expect(named.scenes.first?.violations.allSatisfy { $0.entities.isEmpty && $0.message.isEmpty } == true)
        #expect(unrelated.scenes.isEmpty)  // nothing in this run can compare with it
        #expect(other.scenes.first?.violations.map(\.entities) == whole.scenes.first?.violations.map(\.entities))
        #expect(other.scenes.first?.violations.allSatisfy { $0.entities.count == 2 } == true)
        for (a, b) in zip(named.scenes.first?.violations ?? [], whole.scenes.first?.violations ?? []) {
            #expect(a.rule == b.rule && a.severity == b.severity && a.fingerprint == b.fingerprint)
            #expect(a.measured == b.measured && a.threshold == b.threshold && a.unit == b.unit)
        }
        _ = json
    }
}
