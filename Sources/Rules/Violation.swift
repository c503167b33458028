import SpatialModel

/// One violation per (rule, entity set) per scene: the JSON contract of cli-and-report.md.
public struct Violation: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    /// Entity paths, sorted.
    public var entities: [String]
    /// Inclusive frame ranges `[first, last]` in which the condition held: every run, or when
    /// there were more than `Violation.maxListedSpans`, the first ones and the latest.
    public var spans: [[Int]]
    public var frameCount: Int
    public var firstTime: Double
    public var lastTime: Double
    /// Worst value over all frames (direction per rule), and where it occurred.
    public var measured: Double
    public var threshold: Double
    public var unit: String
    public var worstFrame: Int
    public var message: String
    public var help: String
    /// Hex FNV-1a 64-bit hash of rule id, scene path and sorted entity paths.
    public var fingerprint: String
    /// Source location of the first entity (nil for scene-level findings without one).
    public var location: SourceLocation?
    /// Within ±15 % of an angle-derived threshold (hig-rules §0.3).
    public var borderline: Bool
    /// Runs not listed in `spans` (between the first ones and the latest); their frames are in
    /// `frameCount`. 0 unless the condition started more than `maxListedSpans` times.
    public var omittedSpans: Int = 0

    /// Runs listed per violation at most (aggregation memory does not grow with the frames).
    public static var maxListedSpans: Int { Aggregate.maxStoredSpans }
}

/// Deterministic 64-bit FNV-1a (not Swift's seeded `Hasher`), so fingerprints are stable across runs.
public struct FNV1a64: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    public init() {}
    public mutating func combine(_ s: String) {
        for b in s.utf8 { value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        // Field separator so ("ab","c") and ("a","bc") differ.
        value = (value ^ 0x1f) &* 0x0000_0100_0000_01b3
    }
    /// Adds one byte without a field separator.
    mutating func combineByte(_ b: UInt8) { value = (value ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    /// The value as 16 lowercase hexadecimal digits, zero-padded.
    public var hex: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 16) { out in
            digits.withUTF8Buffer { d in
                for i in 0..<16 { out[i] = d[Int(truncatingIfNeeded: (value >> UInt64(60 - 4 * i)) & 0xf)] }
            }
            return 16
        }
    }
}

/// The fingerprint of a violation: rule id + scene path + sorted entity paths, and for a sub-check
/// of the rule (`RuleMetadata.subchecks`) its name, so that it differs from the main measurement
/// of the same entities.
public func violationFingerprint(rule: String, scenePath: String, entities: [String], subcheck: String? = nil) -> String {
    var h = FNV1a64()
    h.combine(rule)
    h.combine(scenePath)
    return violationFingerprint(prefix: h, sortedEntities: entities.sorted(), subcheck: subcheck)
}

/// `violationFingerprint(rule:scenePath:entities:subcheck:)` from the hash of its rule id and scene
/// path (`prefix`, the same for every violation of a rule in a scene) and the entity paths already
/// sorted: `RuleEngine.finish` hashes the prefix once per rule.
func violationFingerprint(prefix: FNV1a64, sortedEntities: [String], subcheck: String?) -> String {
    var h = prefix
    for e in sortedEntities { h.combine(e) }
    if let subcheck {
        // The same bytes as combining "#" + subcheck.
        h.combineByte(UInt8(ascii: "#"))
        h.combine(subcheck)
    }
    return h.hex
}
