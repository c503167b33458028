import SpatialModel

/// How serious a violation is. Ordered error < warning < info for sorting (most severe first).
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case error, warning, info
    /// 0 = most severe.
    public var rank: Int { self == .error ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
}

/// The rule categories of hig-rules §1.
public enum RuleCategory: String, Sendable, CaseIterable {
    case fieldOfView = "field-of-view"
    case targets, depth, immersion, motion, typography
    case windows
    case environment
    case accessibility
    case ar
}

/// Where a parameter's default comes from (hig-rules §0.2).
public enum ParameterOrigin: Sendable, Equatable {
    /// The HIG's own number.
    case hig
    /// A configurable default chosen by this tool, with the reason.
    case configurable(String)
    /// A default taken from a non-HIG source, which is named.
    case external(String)

    public var tag: String {
        switch self {
        case .hig: "HIG"
        case .configurable: "CFG"
        case .external: "EXT"
        }
    }
    public var justification: String? {
        switch self {
        case .hig: nil
        case .configurable(let s), .external(let s): s
        }
    }
}

/// One tunable number of a rule. Keys are the names used in `.spatialcheck.yaml`.
public struct RuleParameter: Sendable {
    public var key: String
    public var defaultValue: Double
    public var unit: String
    public var origin: ParameterOrigin
    public var summary: String
    public init(_ key: String, _ defaultValue: Double, _ unit: String, _ origin: ParameterOrigin, _ summary: String) {
        self.key = key; self.defaultValue = defaultValue; self.unit = unit; self.origin = origin; self.summary = summary
    }
}

/// A HIG source: page slug › section · seed file tag (hig-rules §0.1).
public struct Citation: Sendable {
    public var page: String
    public var section: String
    public var seed: String
    public init(_ page: String, _ section: String, _ seed: String = "S0") {
        self.page = page; self.section = section; self.seed = seed
    }
    public var url: String { "https://developer.apple.com/design/human-interface-guidelines/\(page)" }
    public var text: String { section.isEmpty ? "\(page) · \(seed)" : "\(page) › \(section) · \(seed)" }
}

/// Which way a measured value gets worse.
public enum WorseDirection: String, Sendable {
    /// Larger is worse (distance travelled, speed, overlap, angle off-centre).
    case higher
    /// Smaller is worse (spacing, size, distance to the eye for reading).
    case lower
}

/// Everything a rule says about itself: id, wording, thresholds and their origins, sources,
/// fix and example scenes. `spatialcheck rules` / `explain` and the docs render from this.
public struct RuleMetadata: Sendable {
    public var id: String
    public var name: String
    public var category: RuleCategory
    public var defaultSeverity: Severity
    /// The parameter that `threshold:` in the config file sets.
    public var thresholdKey: String?
    public var parameters: [RuleParameter]
    public var citations: [Citation]
    public var summary: String
    public var rationale: String
    public var fixHint: String
    public var platforms: [Platform]
    /// Unit of `measured` / `threshold` in violations.
    public var unit: String
    public var worse: WorseDirection
    /// True when the threshold is an angle derived from points (pt_eq, deg): such verdicts within
    /// ±15 % of the threshold are tagged borderline (hig-rules §0.3, §2.4 A1).
    public var angleDerived: Bool
    /// How the rule reads an open point of the guideline, and how sustained conditions count.
    public var notes: [String]
    /// Names of the rule's further measurements (sub-checks) that are reported as violations of
    /// their own, beside the main one: a different quantity (looming speed beside angular speed,
    /// window coverage beside window count) is never merged with the main measurement of the same
    /// entities. The name goes into the fingerprint of those violations only, so the main
    /// measurement keeps its fingerprint.
    public var subchecks: [RuleSubcheck]

    public init(id: String, name: String, category: RuleCategory, defaultSeverity: Severity,
                thresholdKey: String?, parameters: [RuleParameter], citations: [Citation],
                summary: String, rationale: String, fixHint: String, platforms: [Platform] = [.visionOS],
                unit: String, worse: WorseDirection, angleDerived: Bool = false, notes: [String] = [],
                subchecks: [RuleSubcheck] = []) {
        self.id = id; self.name = name; self.category = category; self.defaultSeverity = defaultSeverity
        self.thresholdKey = thresholdKey; self.parameters = parameters; self.citations = citations
        self.summary = summary; self.rationale = rationale; self.fixHint = fixHint; self.platforms = platforms
        self.unit = unit; self.worse = worse; self.angleDerived = angleDerived; self.notes = notes
        self.subchecks = subchecks
    }

    /// Example scenes, relative to the package root: one that must trigger the rule, one that must not.
    public var failExample: String { "Scenes/rules/\(id)/fail.scene.yaml" }
    public var passExample: String { "Scenes/rules/\(id)/pass.scene.yaml" }
    public var help: String { citations.first?.url ?? "https://developer.apple.com/design/human-interface-guidelines/" }

    public func parameter(_ key: String) -> RuleParameter? { parameters.first { $0.key == key } }
    public func applies(to platform: Platform) -> Bool { platforms.contains(platform) }
}

/// A further measurement of a rule, reported as violations of its own (`RuleMetadata.subchecks`).
public struct RuleSubcheck: Sendable {
    /// Short name, part of the violation's fingerprint (e.g. `looming`).
    public var name: String
    /// Unit of `measured` / `threshold` in its violations.
    public var unit: String
    /// Which way its `measured` is worse, when not the rule's (`RuleMetadata.worse`): a distance
    /// "closer than" beside an angle "more than".
    public var worse: WorseDirection?
    public init(_ name: String, unit: String, worse: WorseDirection? = nil) {
        self.name = name; self.unit = unit; self.worse = worse
    }
}

/// A rule is one self-describing type (SwiftLint style).
public protocol RuleDescribing {
    static var metadata: RuleMetadata { get }
}
