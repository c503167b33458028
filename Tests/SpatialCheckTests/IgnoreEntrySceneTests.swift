import Foundation
import Testing
import Reporting
@testable import Rules
import SpatialModel

/// `ignore` entries scoped to scenes with `scene:` (s30 trial F3): in a monorepo an entry written
/// for one app's `board` also silenced another app's window with the same id, and the report
/// called that scene clean. Two copies of the media player (two 44 pt target-center-spacing
/// errors each: controls/back–play and controls/forward–play) under `a/` and `b/` of one project.
@Suite(.serialized) struct IgnoreEntrySceneTests {
    private func run(_ args: [String], cwd: String) throws -> CLIHarness.Result { try CLIHarness.run(args, cwd: cwd) }

    /// A project root holding `a/player.scene.yaml` and `b/player.scene.yaml`, configured by `config`.
    static func twoApps(config: String) throws -> String {
        let dir = try CLIHarness.temporaryDirectory()
        let player = try String(contentsOfFile: TestPaths.repo("Scenes/media-player.scene.yaml"), encoding: .utf8)
        for app in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + app, withIntermediateDirectories: true)
            try player.write(toFile: dir + "/\(app)/player.scene.yaml", atomically: true, encoding: .utf8)
        }
        try config.write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text.prefix(200))")
    }

    @Test func theSceneKeyIsAGlobOverScenePaths() throws {
        let config = try RuleConfiguration.parse("""
            ignore:
              - {rule: fov-vertical-comfort, entity: "board/**", scene: "apps/game/**", reason: tabletop game}
              - {rule: fov-vertical-comfort, entity: "board/**", scene: "apps/*/board.scene.yaml", reason: one level}
              - {rule: fov-vertical-comfort, entity: "board/**", reason: every scene}
            """)
        let game = try #require(config.ignore.first), one = config.ignore[1], every = config.ignore[2]
        #expect(game.scene == "apps/game/**")
        #expect(game.applies(toScene: "apps/game/board.scene.yaml"))
        #expect(game.applies(toScene: "apps/game/levels/1/board.scene.yaml"))
        #expect(!game.applies(toScene: "apps/tv/board.scene.yaml"))
        #expect(!game.applies(toScene: "board.scene.yaml"))
        #expect(one.applies(toScene: "apps/tv/board.scene.yaml"))
        #expect(!one.applies(toScene: "apps/tv/x/board.scene.yaml"))  // `*` stays within a segment
        #expect(every.scene == nil && every.applies(toScene: "anything/at/all.scene.yaml"))
        #expect(game.described == "{rule: fov-vertical-comfort, entity: board/**, scene: apps/game/**}")
        #expect(every.described == "{rule: fov-vertical-comfort, entity: board/**}")
    }

    @Test func aBadSceneValueIsAnErrorWithItsPlace() {
        let text = """
            ignore:
              - {rule: "*", entity: "a/*", scene: [x], reason: r}
              - {rule: "*", entity: "a/*", scene: "/abs/**", reason: r}
              - {rule: "*", entity: "a/*", scen: "x/**", reason: r}
            """
        do {
            _ = try RuleConfiguration.parse(text, file: ".spatialcheck.yaml")
            Issue.record("expected errors")
        } catch let f as LoadFailure {
            let d = f.diagnostics
            #expect(d.count == 3)
            #expect(d.map(\.location) == [SourceLocation(line: 2, column: 39), SourceLocation(line: 3, column: 39),
                                          SourceLocation(line: 4, column: 32)])
            #expect(d.first?.message == "an ignore entry's scene must be a glob over scene paths (e.g. \"apps/game/**\"), found a collection")
            #expect(d.dropFirst().first?.message == "an ignore entry's scene is matched against scene paths relative to the project root, found the absolute path '/abs/**'")
            #expect(d.last?.message == "unknown key 'scen' in an ignore entry")
            #expect(d.last?.hint == "did you mean 'scene'?")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// The entry for `a/**` hides a's two spacing errors and leaves b's: b fails the gate, a is
    /// "clean (2 ignored)", and every format names the scene glob.
    @Test func anEntryScopedToOneSceneLeavesTheOthersViolations() throws {
        let dir = try Self.twoApps(config: """
            ignore:
              - {rule: target-center-spacing, entity: "controls/*", scene: "a/**", reason: reviewed with the designer}

            """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = try run(["validate", "a", "b", "--format", "json"], cwd: dir)
        #expect(json.status == 1, "\(json.stderr)")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        let scenes = try #require(try object(json.stdout)["scenes"] as? [[String: Any]])
        #expect(scenes.map { $0["path"] as? String } == ["a/player.scene.yaml", "b/player.scene.yaml"])
        #expect((scenes[0]["violations"] as? [Any])?.count == 0)
        let b = (scenes[1]["violations"] as? [[String: Any]]) ?? []
        #expect(b.map { $0["entities"] as? [String] ?? [] } == [["controls/back", "controls/play"], ["controls/forward", "controls/play"]])
        #expect(scenes[1]["ignored"] == nil)
        let ignored = try #require((scenes[0]["ignored"] as? [[String: Any]])?.first)
        #expect(ignored["scene"] as? String == "a/**" && ignored["count"] as? Int == 2 && ignored["entity"] as? String == "controls/*")

        let text = try run(["validate", "a", "b"], cwd: dir).stdout
        #expect(text.contains("a/player.scene.yaml (Media player)  1080 frames at 90 Hz (12.00 s); pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt\n  no violations\n  2 violations ignored by the configuration: target-center-spacing controls/* in a/** (line 2) 2\n"), "\(text)")
        let md = try run(["validate", "a", "b", "--format", "markdown"], cwd: dir).stdout
        #expect(md.contains("| `a/player.scene.yaml` | clean (2 ignored) | 0 | 0 | 0 |\n| `b/player.scene.yaml` | violations | 2 | 0 | 0 |\n"), "\(md)")
        let html = try run(["validate", "a", "b", "--format", "html"], cwd: dir).stdout
        #expect(html.contains("<span class=\"status-clean\">✓ clean (2 ignored)</span>"))
        #expect(!html.contains("✓ clean</span>"))
    }

    /// Without any ignore entry the scene status is plain "clean" (nothing changed there).
    @Test func aCleanSceneWithoutIgnoredViolationsIsPlainClean() throws {
        let dir = try Self.twoApps(config: "rules:\n  target-center-spacing: off\n")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let md = try run(["validate", "a", "--format", "markdown"], cwd: dir).stdout
        #expect(md.contains("| `a/player.scene.yaml` | clean | 0 | 0 | 0 |\n"), "\(md)")
    }
}
