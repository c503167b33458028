import SpatialModel
import Rules

/// `--shard i/n`: one of `count` deterministic parts of a run's scene list. A scene belongs to
/// shard `1 + h mod count`, where `h` is the FNV-1a 64-bit hash of its path relative to the
/// project root (the path the report writes), so a scene stays in its shard when scenes are added
/// or removed elsewhere, on every machine and in every working directory.
public struct Shard: Sendable, Equatable {
    /// 1-based.
    public var index: Int
    public var count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, count <= 1024, index >= 1, index <= count else { return nil }
        self.index = index; self.count = count
    }

    /// Parses `i/n` (1 ≤ i ≤ n ≤ 1024).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        self.init(index: i, count: n)
    }

    /// The shard (1-based) that the scene with root-relative path `path` belongs to among `count`.
    public static func of(_ path: String, count: Int) -> Int {
        var h = FNV1a64()
        h.combine(path)
        return Int(h.value % UInt64(max(1, count))) + 1
    }

    public func contains(_ path: String) -> Bool { Shard.of(path, count: count) == index }

    public var description: String { "\(index)/\(count)" }
}
