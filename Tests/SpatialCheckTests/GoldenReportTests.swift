import Testing
import Foundation
@testable import SpatialCheck
import Reporting

/// The project's own comfort regression suite: every realistic scene in `Scenes/` (not the
/// per-rule examples in `Scenes/rules/`) has its JSON report committed as
/// `Scenes/golden/<name>.json`, and the report produced now must match it byte for byte.
/// `Tools/update-goldens` rewrites the goldens after an intended change.
@Suite(.serialized) struct GoldenReportTests {
    /// Scene names (file names without `.scene.yaml`) in `Scenes/`, sorted.
    private static let sceneNames: [String] = names(in: "Scenes", suffix: ".scene.yaml")
    /// Golden names (file names without `.json`) in `Scenes/golden/`, sorted.
    private static let goldenNames: [String] = names(in: "Scenes/golden", suffix: ".json")

    @Test func everySceneHasAGoldenAndEveryGoldenHasAScene() {
        #expect(Self.sceneNames.count >= 12, "expected at least 12 scenes in Scenes/, found \(Self.sceneNames)")
        let scenes = Set(Self.sceneNames), goldens = Set(Self.goldenNames)
        let missing = scenes.subtracting(goldens).sorted()
        let orphans = goldens.subtracting(scenes).sorted()
        #expect(missing.isEmpty, "scenes without a golden report: \(missing.map { "Scenes/\($0).scene.yaml" }); run Tools/update-goldens")
        #expect(orphans.isEmpty, "goldens without a scene: \(orphans.map { "Scenes/golden/\($0).json" }); run Tools/update-goldens (it removes them)")
    }

    @Test(arguments: sceneNames)
    func reportMatchesGolden(_ name: String) throws {
        // The USD example scenes need usd-core; locally they are left out without it (CI requires it).
        if name.hasPrefix("rcp-"), !USDFixtures.available { return }
        let scene = "Scenes/\(name).scene.yaml"
        let goldenPath = TestPaths.repo("Scenes/golden/\(name).json")
        let golden = try #require(FileManager.default.contents(atPath: goldenPath),
                                  "no golden for \(scene); run Tools/update-goldens \(name)")
        let current = try Self.report(relativePath: scene)
        if let diff = Self.lineDiff(golden: String(decoding: golden, as: UTF8.self), current: current) {
            Issue.record("""
                the report of \(scene) differs from Scenes/golden/\(name).json:
                \(diff)
                If the change is intended, regenerate with: Tools/update-goldens \(name)
                """)
        } else {
            #expect(Data(current.utf8) == golden, "byte-for-byte comparison with Scenes/golden/\(name).json")
        }
    }

    @Test func goldensAreStableAcrossRuns() throws {
        let a = try Self.report(relativePath: "Scenes/fox-walks-past-ui.scene.yaml")
        let b = try Self.report(relativePath: "Scenes/fox-walks-past-ui.scene.yaml")
        #expect(a == b)
    }

    /// Shows that the suite catches a regression: moving one calculator key 10 pt to the left (a
    /// 2 pt gap to its neighbour) changes the report, and the diff names the rule, the keys and the
    /// measured gap.
    @Test func movingOneKeyTenPointsIsCaught() throws {
        let name = "calculator-keypad"
        let original = try String(contentsOfFile: TestPaths.repo("Scenes/\(name).scene.yaml"), encoding: .utf8)
        let key = "{id: eight, role: button, frame: [104, 192, 60, 60]"
        #expect(original.contains(key), "the calculator scene no longer has key 'eight' at x = 104")
        let moved = original.replacingOccurrences(of: key, with: "{id: eight, role: button, frame: [94, 192, 60, 60]")
        // The scene uses no assets, so the temporary copy can live anywhere; its path is mapped back to
        // the scene's own path so that only the verdict differs.
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("spatialcheck-golden-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("\(name).scene.yaml").path
        try moved.write(toFile: copy, atomically: true, encoding: .utf8)
        let current = try Self.report(path: copy)
            .replacingOccurrences(of: "\"path\": \"\(copy)\"", with: "\"path\": \"Scenes/\(name).scene.yaml\"")

        let golden = try String(contentsOfFile: TestPaths.repo("Scenes/golden/\(name).json"), encoding: .utf8)
        let diff = try #require(Self.lineDiff(golden: golden, current: current), "moving a key must change the report")
        #expect(diff.contains("\"warning\": 1"), "diff should show the new warning in the summary:\n\(diff)")
        #expect(diff.contains("\"rule\": \"target-large-hover-padding\""), "diff should name the rule:\n\(diff)")
        #expect(diff.contains("calculator/eight") && diff.contains("calculator/seven"), "diff should name the keys:\n\(diff)")
        #expect(diff.contains("\"measured\": 2.0"), "diff should show the 2 pt gap:\n\(diff)")

        // The same facts, read from the JSON itself.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(current.utf8)) as? [String: Any])
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        let violations = try #require(scenes.first?["violations"] as? [[String: Any]])
        #expect(violations.count == 1)
        let v = try #require(violations.first)
        #expect(v["rule"] as? String == "target-large-hover-padding")
        #expect(v["entities"] as? [String] == ["calculator/eight", "calculator/seven"])
        #expect(v["measured"] as? Double == 2.0)
        #expect(v["threshold"] as? Double == 8.0)
    }

    @Test func lineDiffNamesChangedLines() {
        let golden = "a\nb\nc\nd\n", current = "a\nB\nc\nd\ne\n"
        let diff = Self.lineDiff(golden: golden, current: current) ?? ""
        #expect(diff.contains("- 2: b"))
        #expect(diff.contains("+ 2: B"))
        #expect(diff.contains("+ 5: e"))
        #expect(Self.lineDiff(golden: golden, current: golden) == nil)
    }

    // MARK: - Helpers

    /// Runs the library's validation as `spatialcheck validate PATH --format json --fail-on never`
    /// would from the repository root.
    private static func report(relativePath: String) throws -> String {
        try enterRepoRoot()
        return try report(path: relativePath)
    }

    private static func report(path: String) throws -> String {
        var options = SpatialCheck.ValidateOptions()
        options.format = .json
        options.failOn = .never
        options.configSearchDirectory = TestPaths.repoRoot.path
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        return SpatialCheck.render(v, format: .json)
    }

    /// Scene paths in the reports (and their fingerprints) are relative to the repository root, as
    /// `Tools/update-goldens` runs them; `swift test` normally runs there already.
    private static func enterRepoRoot() throws {
        let fm = FileManager.default
        let here = URL(fileURLWithPath: fm.currentDirectoryPath).resolvingSymlinksInPath().path
        let root = TestPaths.repoRoot.resolvingSymlinksInPath().path
        if here != root {
            try #require(fm.changeCurrentDirectoryPath(root), "cannot change to the repository root \(root)")
        }
    }

    private static func names(in relativeDirectory: String, suffix: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.repo(relativeDirectory))) ?? []
        return files.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }
            .map { String($0.dropLast(suffix.count)) }
            .sorted()
    }

    /// A readable line diff (longest common subsequence of lines): `- N: text` for golden lines that
    /// are gone, `+ N: text` for current lines that are new, N being the line number in that file.
    /// Shows the first `limit` differing lines; nil when the texts are equal.
    private static func lineDiff(golden: String, current: String, limit: Int = 20) -> String? {
        guard golden != current else { return nil }
        let a = golden.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = current.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let ma = Array(a[prefix..<(a.count - suffix)]), mb = Array(b[prefix..<(b.count - suffix)])
        var lines: [String] = []
        var total = 0
        func removed(_ i: Int) { total += 1; if lines.count < limit { lines.append("- \(prefix + i + 1): \(ma[i])") } }
        func added(_ j: Int) { total += 1; if lines.count < limit { lines.append("+ \(prefix + j + 1): \(mb[j])") } }
        if ma.count * mb.count <= 4_000_000 {
            // lcs[i][j] = length of the LCS of ma[i...] and mb[j...].
            let w = mb.count + 1
            var lcs = [Int32](repeating: 0, count: (ma.count + 1) * w)
            for i in stride(from: ma.count - 1, through: 0, by: -1) {
                for j in stride(from: mb.count - 1, through: 0, by: -1) {
                    lcs[i * w + j] = ma[i] == mb[j] ? lcs[(i + 1) * w + j + 1] + 1 : max(lcs[(i + 1) * w + j], lcs[i * w + j + 1])
                }
            }
            var i = 0, j = 0
            while i < ma.count || j < mb.count {
                if i < ma.count, j < mb.count, ma[i] == mb[j] { i += 1; j += 1 }
                else if i < ma.count, j == mb.count || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] { removed(i); i += 1 }
                else { added(j); j += 1 }
            }
        } else {
            // Too large for the table: compare line by line.
            for k in 0..<max(ma.count, mb.count) where k >= ma.count || k >= mb.count || ma[k] != mb[k] {
                if k < ma.count { removed(k) }
                if k < mb.count { added(k) }
            }
        }
        if total == 0 { lines.append("(the texts differ only in line endings or a final newline)") }
        let more = total > lines.count ? "\n… and \(total - lines.count) more differing lines" : ""
        return "\(total) differing lines (- golden, + current):\n" + lines.joined(separator: "\n") + more
    }
}
