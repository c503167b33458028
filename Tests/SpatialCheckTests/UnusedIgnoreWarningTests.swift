import Foundation
import Testing
import Reporting

/// The "silenced no violation" warning names only entries that could have applied to a scene of
/// the run (s30 trial F6: a pre-commit run on one app folder named every entry meant for the
/// others and advised removing them): an entry whose `scene` glob matches a checked scene, or one
/// without `scene` whose entity glob matches an entity of a checked scene.
@Suite(.serialized) struct UnusedIgnoreWarningTests {
    static let config = """
        ignore:
          - {rule: target-center-spacing, entity: "controls/*", scene: "b/**", reason: b's designer}
          - {rule: target-center-spacing, entity: "bord/**", reason: no such entity anywhere}
          - {rule: target-center-spacing, entity: "player/title", reason: an entity without that problem}
          - {rule: target-center-spacing, entity: "bord/**", scene: "a/**", reason: a typo in a's entry}

        """
    static let hint = "    hint: check the rule id and the entity path (`spatialcheck validate SCENE --format json` lists each violation's rule and entities), or remove the entry if the problem is fixed\n"

    static func warning(line: Int, _ entry: String, scenes: Int) -> String {
        ".spatialcheck.yaml:\(line):5: warning: the ignore entry \(entry) silenced no violation in the \(scenes) scene\(scenes == 1 ? "" : "s") checked\n" + hint
    }

    /// Checking only `a`: the entry for `b/**` is not named (it could not apply), nor `bord/**`
    /// without a scene (it matches no entity of `a`); `player/title` (an entity of a) and the
    /// entry scoped to `a/**` are.
    @Test func aRunOfOneFolderNamesOnlyEntriesThatCouldApplyThere() throws {
        let dir = try IgnoreEntrySceneTests.twoApps(config: Self.config)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIHarness.run(["validate", "a", "--format", "json"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr == Self.warning(line: 4, "{rule: target-center-spacing, entity: player/title}", scenes: 1)
                + Self.warning(line: 5, "{rule: target-center-spacing, entity: bord/**, scene: a/**}", scenes: 1), "\(r.stderr)")
    }

    /// Checking both: the `b/**` entry silences b's two errors, so it is not named either.
    @Test func aRunOfBothFoldersNamesTheSameEntries() throws {
        let dir = try IgnoreEntrySceneTests.twoApps(config: Self.config)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLIHarness.run(["validate", "a", "b", "--format", "json"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("\"scene\": \"b/**\",\n          \"count\": 2,"), "\(r.stdout)")
        #expect(r.stderr == Self.warning(line: 4, "{rule: target-center-spacing, entity: player/title}", scenes: 2)
                + Self.warning(line: 5, "{rule: target-center-spacing, entity: bord/**, scene: a/**}", scenes: 2), "\(r.stderr)")
    }
}
