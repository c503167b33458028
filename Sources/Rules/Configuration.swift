import Foundation
import SpatialModel
import Yams

/// When the CLI exits non-zero.
public enum FailOn: String, Sendable, CaseIterable {
    case error, warning, info, never
    /// Whether a violation of `severity` fails the run.
    public func fails(_ severity: Severity) -> Bool {
        switch self {
        case .never: false
        case .error: severity == .error
        case .warning: severity != .info
        case .info: true
        }
    }
}

/// Per-rule settings from the config file.
public struct RuleSettings: Sendable, Equatable {
    public var enabled: Bool = true
    public var severity: Severity?
    /// Sets the rule's primary parameter (`RuleMetadata.thresholdKey`).
    public var threshold: Double?
    public var parameters: [String: Double] = [:]
    public init(enabled: Bool = true, severity: Severity? = nil, threshold: Double? = nil, parameters: [String: Double] = [:]) {
        self.enabled = enabled; self.severity = severity; self.threshold = threshold; self.parameters = parameters
    }
}

/// `ignore:` entry: suppress a rule for entities matching a glob (`*` within a path segment,
/// `**` across segments), with the reason recorded; with `scene`, only in the scenes whose path
/// (relative to the project root, as in fingerprints and baselines) matches that glob.
public struct IgnoreEntry: Sendable, Equatable {
    public var rule: String
    public var entity: String
    public var reason: String
    /// Glob over scene paths relative to the project root (`globMatch`); nil: every scene.
    public var scene: String?
    /// Where the entry is in its file (a warning names it when the entry silenced nothing).
    public var location: SourceLocation?
    public init(rule: String, entity: String, reason: String, scene: String? = nil, location: SourceLocation? = nil) {
        self.rule = rule; self.entity = entity; self.reason = reason; self.scene = scene; self.location = location
    }

    /// True when the entry applies to the scene at `path` (relative to the project root): it has no
    /// `scene` glob, or the glob matches the path.
    public func applies(toScene path: String) -> Bool { scene.map { globMatch($0, path) } ?? true }

    /// True when the entity glob matches at least one of a scene's entities: an entity path, or for
    /// a glob starting with '/' a USD prim path (`prims`, nil for an entity not read from USD). The
    /// globs `*` and `**` (what an entry without `entity` has) match any scene, even one without
    /// entities. `validate` warns about an entry that silenced nothing only when this holds in a
    /// checked scene (or its `scene` glob matched one): an entry meant for scenes another run checks
    /// is not named.
    public func matchesAnEntity(paths: [String], prims: [String?]) -> Bool {
        if entity == "**" || entity == "*" { return true }
        if isPrimGlob { return prims.contains { $0.map { globMatch(entity, $0) } ?? false } }
        return paths.contains { globMatch(entity, $0) }
    }

    /// "{rule: target-center-spacing, entity: board/**, scene: apps/game/**}" (no `scene` when it has none).
    public var described: String {
        "{rule: \(rule), entity: \(entity)\(scene.map { ", scene: \($0)" } ?? "")}"
    }

    /// True when this entry silences `rule` for a violation on `entities` (every entity must match).
    /// An `entity` glob starting with '/' is a USD prim path: it matches the prims the entities were
    /// read from (`prims`, parallel to `entities`; an entity not read from USD never matches it).
    public func matches(rule r: String, entities: [String], prims: [String?] = []) -> Bool {
        guard rule == "*" || rule == r else { return false }
        if entities.isEmpty { return entity == "**" || entity == "*" }
        if isPrimGlob {
            guard prims.count == entities.count else { return false }
            return prims.allSatisfy { $0.map { globMatch(entity, $0) } ?? false }
        }
        return entities.allSatisfy { globMatch(entity, $0) }
    }

    /// The glob names USD prim paths (entity paths never start with '/').
    public var isPrimGlob: Bool { entity.hasPrefix("/") }
}

/// `*` matches within one path segment, `**` across segments, `?` one character.
public func globMatch(_ pattern: String, _ path: String) -> Bool {
    let p = Array(pattern), s = Array(path)
    var memo = [Int: Bool]()
    func go(_ i: Int, _ j: Int) -> Bool {
        let key = i &* (s.count + 1) &+ j
        if let m = memo[key] { return m }
        var r: Bool
        if i == p.count {
            r = j == s.count
        } else if p[i] == "*" {
            if i + 1 < p.count, p[i + 1] == "*" {
                var k = i + 2
                // "**/" may also match zero segments.
                if k < p.count, p[k] == "/", go(k + 1, j) { memo[key] = true; return true }
                k = i + 2
                r = false
                var jj = j
                while jj <= s.count { if go(k, jj) { r = true; break }; jj += 1 }
            } else {
                r = false
                var jj = j
                while true {
                    if go(i + 1, jj) { r = true; break }
                    if jj >= s.count || s[jj] == "/" { break }
                    jj += 1
                }
            }
        } else if j < s.count, p[i] == "?" ? s[j] != "/" : p[i] == s[j] {
            r = go(i + 1, j + 1)
        } else {
            r = false
        }
        memo[key] = r
        return r
    }
    return go(0, 0)
}

/// The `.spatialcheck.yaml` configuration (cli-and-report.md).
public struct RuleConfiguration: Sendable {
    public var failOn: FailOn = .error
    /// `units.pointAngle`: degrees per point; overrides the scene's value when set.
    public var pointAngle: Double?
    public var rules: [String: RuleSettings] = [:]
    public var ignore: [IgnoreEntry] = []
    /// The file it came from, if any.
    public var path: String?
    /// What the file sets that is allowed but cannot be meant (a parameter beyond anything a scene
    /// can measure); commands print them to standard error before they run.
    public var warnings: [Diagnostic] = []

    public init(failOn: FailOn = .error, pointAngle: Double? = nil, rules: [String: RuleSettings] = [:],
                ignore: [IgnoreEntry] = [], path: String? = nil) {
        self.failOn = failOn; self.pointAngle = pointAngle; self.rules = rules; self.ignore = ignore; self.path = path
    }

    public static let `default` = RuleConfiguration()

    public func isEnabled(_ id: String) -> Bool { rules[id]?.enabled ?? true }

    public static let fileName = ".spatialcheck.yaml"

    /// The largest value a parameter of `unit` can take in any scene, where the unit has one: shares
    /// of the field of view 100 %, fractions, cosines and relative luminances 1, contrast ratios 21
    /// (white on black), angles 360°, points 360° at the finest accepted point angle (0.0005°:
    /// 720,000 pt). Distances, times, speeds, rates, counts and plain percentages (growth, overshoot)
    /// have no such bound (a scene may be any size and length), so nil.
    public static func physicalMaximum(unit: String) -> Double? {
        switch unit {
        case "% FOV": 100
        case "fraction", "cos", "luminance", "ΔL": 1
        case "ratio": 21
        case "deg": 360
        case "pt", "pt_eq": 360 / Units.minPointAngle
        default: nil
        }
    }

    /// What the configuration changes of the catalog's defaults, one line each in rule-id order:
    /// "target-center-spacing off", "target-center-spacing threshold (centerSpacing) 1 pt (default 60 pt)",
    /// "target-no-overlap severity info (default warning)". Reports print them so that a reviewer
    /// sees a change that weakens the gate (issue 16's outside trial: a committed config that
    /// turned rules off or a threshold down left no trace). `ignore` entries are reported with
    /// what each left out (`IgnoredViolations`), `failOn` with the settings.
    public var changesFromDefaults: [String] {
        var out: [String] = []
        for id in rules.keys.sorted() {
            guard let s = rules[id], let meta = RuleCatalog.metadata(id: id) else { continue }
            if !s.enabled { out.append("\(id) off"); continue }
            if let sev = s.severity, sev != meta.defaultSeverity {
                out.append("\(id) severity \(sev.rawValue) (default \(meta.defaultSeverity.rawValue))")
            }
            var values = s.parameters
            if let t = s.threshold, let key = meta.thresholdKey { values[key] = t }
            for p in meta.parameters {
                guard let v = values[p.key], v != p.defaultValue else { continue }
                // Named as written: `threshold` (what `init` writes) with the parameter it sets.
                let name = s.threshold != nil && p.key == meta.thresholdKey ? "threshold (\(p.key))" : p.key
                out.append("\(id) \(name) \(fmt(v)) \(p.unit) (default \(fmt(p.defaultValue)) \(p.unit))")
            }
        }
        return out
    }

    /// `.spatialcheck.yaml` in `directory` or its nearest parent that has one.
    public static func find(startingAt directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        let fm = FileManager.default
        for _ in 0..<256 {
            let candidate = url.appendingPathComponent(fileName).path
            if fm.fileExists(atPath: candidate) { return candidate }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
        return nil
    }

    /// Read and parse a config file.
    public static func load(path: String) throws -> RuleConfiguration {
        // `--config /dev/null`: no configuration, every rule with its defaults (s30 trial F13),
        // as other tools read an empty file there; the device itself reads as nothing here.
        if path == "/dev/null" { return try parse("", file: path) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw LoadFailure([Diagnostic(file: path, message: "cannot read the configuration file")])
        }
        return try parse(text, file: path)
    }

    /// Parse config text. Every problem found is reported at once, as `LoadFailure` diagnostics
    /// with line and column and, for misspelt keys or rule ids, the closest known name.
    public static func parse(_ text: String, file: String = fileName) throws -> RuleConfiguration {
        var diags: [Diagnostic] = []
        var warnings: [Diagnostic] = []
        var config = RuleConfiguration(path: file)
        func loc(_ n: Yams.Node?) -> SourceLocation? { n?.mark.map { SourceLocation(line: $0.line, column: $0.column) } }
        func err(_ n: Yams.Node?, _ msg: String, _ hint: String? = nil) {
            diags.append(Diagnostic(file: file, location: loc(n), message: msg, hint: hint))
        }
        func unknownKey(_ k: Yams.Node, _ known: [String], _ what: String) {
            let key = k.string ?? "?"
            err(k, "unknown key '\(key)' in \(what)", closestMatch(to: key, in: known).map { "did you mean '\($0)'?" }
                ?? "expected one of: \(known.joined(separator: ", "))")
        }
        func number(_ n: Yams.Node, _ what: String) -> Double? {
            if case .scalar = n, let v = n.float, v.isFinite { return v }
            err(n, "\(what) must be a finite number, found '\(n.string ?? "a collection")'")
            return nil
        }
        /// Every rule parameter is a distance, angle, time, size, count or switch: never negative.
        func parameter(_ n: Yams.Node, _ what: String) -> Double? {
            guard let v = number(n, what) else { return nil }
            if v < 0 { err(n, "\(what) must be 0 or more, found \(n.string ?? String(v))"); return nil }
            return v
        }
        /// A parameter beyond the largest value its unit can take in any scene is kept (the file is
        /// valid), with a warning: such a threshold makes its rule report everything it checks, or
        /// nothing (the session-17 trial's configuration of 10⁹ everywhere made every pair of
        /// controls violate and the run 74 times longer).
        func checkRange(_ n: Yams.Node, _ value: Double, _ p: RuleParameter?, rule: String, what: String) {
            guard let p, let bound = RuleConfiguration.physicalMaximum(unit: p.unit), value > bound else { return }
            let b = fmt(bound), unit = p.unit
            warnings.append(Diagnostic(.warning, file: file, location: loc(n),
                                       message: "rule '\(rule)': \(what) \(n.string ?? fmt(value)) \(unit) is beyond anything a scene can measure (at most \(b) \(unit)), so the rule reports everything it checks, or nothing",
                                       hint: "use a value from 0 to \(b) \(unit) (the default is \(fmt(p.defaultValue))), or turn the rule off with '\(rule): off'"))
        }
        func severity(_ n: Yams.Node) -> Severity? {
            if let s = n.string, let v = Severity(rawValue: s) { return v }
            err(n, "severity must be error, warning or info, found '\(n.string ?? "?")'",
                closestMatch(to: n.string ?? "", in: Severity.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" })
            return nil
        }
        func parseSettings(_ v: Yams.Node, meta: RuleMetadata?) -> RuleSettings {
            var s = RuleSettings()
            if case .scalar = v {
                if v.string == "off" || v.bool == false { s.enabled = false; return s }
                if v.string == "on" || v.bool == true { return s }
                if let sev = v.string.flatMap(Severity.init(rawValue:)) { s.severity = sev; return s }
                err(v, "a rule setting must be 'off', a severity, or a mapping")
                return s
            }
            guard let m = v.mapping else { err(v, "a rule setting must be 'off' or a mapping"); return s }
            let paramKeys = meta?.parameters.map(\.key) ?? []
            let known = ["severity", "threshold", "enabled"] + paramKeys
            for (k, pv) in m {
                let key = k.string ?? ""
                switch key {
                case "severity": s.severity = severity(pv)
                case "threshold":
                    if meta?.thresholdKey == nil {
                        err(k, "rule '\(meta?.id ?? "?")' has no threshold",
                            "it takes: \(known.filter { $0 != "threshold" }.joined(separator: ", "))")
                    }
                    s.threshold = parameter(pv, "threshold")
                    if let meta, let x = s.threshold {
                        checkRange(pv, x, meta.parameters.first { $0.key == meta.thresholdKey }, rule: meta.id, what: "threshold")
                    }
                case "enabled":
                    if let b = pv.bool { s.enabled = b } else { err(pv, "enabled must be true or false") }
                default:
                    if paramKeys.contains(key) {
                        if let x = parameter(pv, key) {
                            s.parameters[key] = x
                            if let meta { checkRange(pv, x, meta.parameters.first { $0.key == key }, rule: meta.id, what: key) }
                        }
                    } else {
                        unknownKey(k, known, "rule '\(meta?.id ?? "?")'")
                    }
                }
            }
            return s
        }

        let root: Yams.Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let e as YamlError {
            var l: SourceLocation?
            switch e {
            case .scanner(_, _, let m, _), .parser(_, _, let m, _): l = SourceLocation(line: m.line, column: m.column)
            default: l = nil
            }
            throw LoadFailure([Diagnostic(file: file, location: l, message: "invalid YAML: \(e)")])
        } catch {
            throw LoadFailure([Diagnostic(file: file, message: "invalid YAML: \(error)")])
        }
        guard let root else { return config }
        guard let top = root.mapping else {
            throw LoadFailure([Diagnostic(file: file, location: loc(root), message: "the configuration must be a mapping")])
        }
        let ids = RuleCatalog.allRuleIDs
        for (k, v) in top {
            switch k.string ?? "" {
            case "failOn":
                if let s = v.string, let f = FailOn(rawValue: s) { config.failOn = f } else {
                    err(v, "failOn must be error, warning, info or never, found '\(v.string ?? "?")'",
                        closestMatch(to: v.string ?? "", in: FailOn.allCases.map(\.rawValue)).map { "did you mean '\($0)'?" })
                }
            case "units":
                guard let m = v.mapping else { err(v, "units must be a mapping"); continue }
                for (uk, uv) in m {
                    if uk.string == "pointAngle" {
                        if let x = number(uv, "units.pointAngle") {
                            if Units.acceptsPointAngle(x) { config.pointAngle = x } else {
                                err(uv, "units.pointAngle must be \(Units.pointAngleRangeText), found \(x)", Units.pointAngleHint)
                            }
                        }
                    } else { unknownKey(uk, ["pointAngle"], "units") }
                }
            case "rules":
                guard let m = v.mapping else { err(v, "rules must be a mapping of rule ids"); continue }
                for (rk, rv) in m {
                    let id = rk.string ?? ""
                    guard let meta = RuleCatalog.metadata(id: id) else {
                        err(rk, "unknown rule id '\(id)'",
                            closestMatch(to: id, in: ids).map { "did you mean '\($0)'?" } ?? "run 'spatialcheck rules' for the list")
                        continue
                    }
                    config.rules[id] = parseSettings(rv, meta: meta)
                }
            case "ignore":
                guard let seq = v.sequence else { err(v, "ignore must be a list"); continue }
                for item in seq {
                    guard let m = item.mapping else { err(item, "each ignore entry must be a mapping {rule, entity, reason}"); continue }
                    var rule: String?, entity: String?, reason: String?, scene: String?
                    for (ik, iv) in m {
                        switch ik.string ?? "" {
                        case "rule":
                            rule = iv.string
                            if let r = rule, r != "*", !ids.contains(r) {
                                err(iv, "unknown rule id '\(r)'", closestMatch(to: r, in: ids).map { "did you mean '\($0)'?" })
                            }
                        case "entity": entity = iv.string
                        case "reason": reason = iv.string
                        case "scene":
                            // A glob over scene paths relative to the project root (as reports and
                            // fingerprints write them): never absolute, never empty.
                            guard case .scalar = iv, let glob = iv.string, !glob.trimmingCharacters(in: .whitespaces).isEmpty else {
                                err(iv, "an ignore entry's scene must be a glob over scene paths (e.g. \"apps/game/**\"), found \(iv.string.map { "'\($0)'" } ?? "a collection")")
                                continue
                            }
                            if glob.hasPrefix("/") {
                                err(iv, "an ignore entry's scene is matched against scene paths relative to the project root, found the absolute path '\(glob)'",
                                    "write the path as the reports show it (relative to the folder of .spatialcheck.yaml, or --root), e.g. \"apps/game/**\"")
                                continue
                            }
                            scene = glob
                        default: unknownKey(ik, ["rule", "entity", "reason", "scene"], "an ignore entry")
                        }
                    }
                    if rule == nil { err(item, "ignore entry needs 'rule'") }
                    if reason?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                        err(item, "ignore entry needs a 'reason' explaining why it is safe to ignore")
                    }
                    if let rule, let reason, !reason.isEmpty {
                        config.ignore.append(IgnoreEntry(rule: rule, entity: entity ?? "**", reason: reason, scene: scene, location: loc(item)))
                    }
                }
            default:
                unknownKey(k, ["failOn", "units", "rules", "ignore"], "the configuration")
            }
        }

        if !diags.isEmpty { throw LoadFailure(diags) }
        config.warnings = warnings
        return config
    }
}
