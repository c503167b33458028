import Testing
import Foundation
@testable import Reporting

/// `validate --shard i/n` and `report` joining the shards (docs/ci.md, "Sharding").
@Suite(.serialized) struct ShardTests {
    /// Given out of sorted order, so that the joined report must restore the order of the run.
    static let scenes = ["Scenes/reading-panel-too-close.scene.yaml", "Scenes/media-player.scene.yaml",
                         "Scenes/hud-head-locked.scene.yaml", "Scenes/calculator-keypad-tight.scene.yaml",
                         "Scenes/media-player-spaced.scene.yaml", "Scenes/no-such.scene.yaml",
                         "Scenes/reading-panel-comfortable.scene.yaml"]

    @Test func threeShardsJoinedEqualTheUnshardedReport() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let root = TestPaths.repoRoot.path
        let whole = try CLIHarness.run(["validate"] + Self.scenes + ["--format", "json", "--jobs", "2"], cwd: root)
        #expect(whole.status == 2, "a missing path is a load error")
        var seen: [String] = []
        for i in 1...3 {
            let r = try CLIHarness.run(["validate"] + Self.scenes + ["--shard", "\(i)/3", "--fail-on", "never", "--format", "json",
                                                                      "--output", dir + "/shard-\(i).json"], cwd: root)
            #expect(r.status == 0 || r.status == 2, "\(r.stderr)")
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/shard-\(i).json"))) as? [String: Any])
            #expect((doc["shard"] as? [String: Any])?["index"] as? Int == i)
            let paths = ((doc["scenes"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
            // Each scene is in the shard its path's FNV-1a hash says (computed here independently).
            for p in paths { #expect(shardOf(p, 3) == i, "\(p)") }
            seen += paths
        }
        #expect(seen.sorted() == Self.scenes.sorted(), "every scene in exactly one shard")
        let joined = try CLIHarness.run(["report", dir + "/shard-1.json", dir + "/shard-3.json", dir + "/shard-2.json", "--format", "json"], cwd: root)
        #expect(joined.status == whole.status)
        #expect(joined.stdout == whole.stdout, "joined shards differ from the unsharded report")
        // A missing shard is an error, not a smaller report.
        let partial = try CLIHarness.run(["report", dir + "/shard-1.json", dir + "/shard-2.json"], cwd: root)
        #expect(partial.status == 2)
        #expect(partial.stderr.contains("shard 3/3 of this run is missing"), "\(partial.stderr)")
    }

    /// A scene's shard depends only on its own path: adding scenes elsewhere moves nothing.
    @Test func aScenesShardDependsOnlyOnItsPath() {
        let before = (0..<40).map { "Scenes/s\($0).scene.yaml" }
        let after = before + (0..<25).map { "Other/new\($0).scene.yaml" }
        for n in [2, 3, 7] {
            let a = Dictionary(uniqueKeysWithValues: before.map { ($0, Shard.of($0, count: n)) })
            for p in after where a[p] != nil { #expect(Shard.of(p, count: n) == a[p]) }
            for p in after { #expect(Shard.of(p, count: n) == shardOf(p, n)) }
            // Not all in one shard (the hash spreads them).
            #expect(Set(before.map { Shard.of($0, count: n) }).count == n)
        }
    }

    @Test func shardArgumentsOutsideTheRangeAreRejected() throws {
        #expect(Shard(parsing: "2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "1/2/3"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
        let r = try CLIHarness.run(["validate", TestPaths.repo("Scenes/media-player.scene.yaml"), "--shard", "4/3"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--shard"))
    }

    private func shardOf(_ path: String, _ n: Int) -> Int {
        Int(UInt64(fnv([path]), radix: 16).map { $0 % UInt64(n) } ?? 0) + 1
    }
}
