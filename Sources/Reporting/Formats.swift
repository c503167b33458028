import SpatialModel
import Rules

/// What a renderer needs to know about a rule (taken from the rule catalog by the caller).
public struct RuleDescriptor: Sendable {
    public var id: String
    public var name: String
    public var summary: String
    public var fix: String
    public var helpURL: String
    public var defaultSeverity: Severity
    public var category: String
    public init(id: String, name: String, summary: String, fix: String, helpURL: String,
                defaultSeverity: Severity, category: String) {
        self.id = id; self.name = name; self.summary = summary; self.fix = fix; self.helpURL = helpURL
        self.defaultSeverity = defaultSeverity; self.category = category
    }
}

public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, sarif, junit, markdown, html
}

// MARK: - SARIF 2.1.0

extension Report {
    /// SARIF 2.1.0: one run; `tool.driver.rules` from the catalog; results with level, message,
    /// partial fingerprints and the scene file's line/column; load errors as tool notifications.
    public func sarif(rules: [RuleDescriptor]) -> JSON {
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        func level(_ s: Severity) -> String { s == .error ? "error" : s == .warning ? "warning" : "note" }
        func location(_ path: String, _ loc: SourceLocation?) -> JSON {
            var physical: [(String, JSON)] = [("artifactLocation", .object([("uri", .string(sarifURI(path)))]))]
            if let loc {
                physical.append(("region", .object([("startLine", .int(max(1, loc.line))), ("startColumn", .int(max(1, loc.column)))])))
            }
            return .object([("physicalLocation", .object(physical))])
        }
        var results: [JSON] = []
        var notifications: [JSON] = []
        for scene in scenes {
            for v in scene.violations {
                var r: [(String, JSON)] = [("ruleId", .string(v.rule))]
                if let i = index[v.rule] { r.append(("ruleIndex", .int(i))) }
                r += [
                    ("level", .string(level(v.severity))),
                    ("message", .object([("text", .string(v.message))])),
                    ("locations", .array([location(scene.path, v.location)])),
                    ("partialFingerprints", .object([("spatialcheck/v1", .string(v.fingerprint))])),
                    ("properties", .object([
                        ("entities", .array(v.entities.map(JSON.string))),
                        ("measured", .rounded(v.measured, digits: 6)),
                        ("threshold", .rounded(v.threshold, digits: 6)),
                        ("unit", .string(v.unit)),
                        ("frames", .int(v.frameCount)),
                        ("firstTime", .rounded(v.firstTime, digits: 6)),
                        ("lastTime", .rounded(v.lastTime, digits: 6)),
                        ("worstFrame", .int(v.worstFrame)),
                    ])),
                ]
                results.append(.object(r))
            }
            if let line = OmittedViolations.notShown(scene.omitted) {
                notifications.append(.object([("level", .string("note")), ("message", .object([("text", .string("\(scene.path): \(line)"))]))]))
            }
            // Every scene that could not be loaded (a load error, or a path that does not exist)
            // has at least one notification, its message naming the file.
            let errors = scene.status == .error && scene.errors.isEmpty
                ? [Diagnostic(file: scene.path, message: "could not be loaded")] : scene.errors
            for e in errors {
                let file = e.file.isEmpty ? scene.path : e.file
                notifications.append(.object([
                    ("level", .string("error")),
                    ("message", .object([("text", .string("\(file): \(e.message)" + (e.hint.map { " (\($0))" } ?? "")))])),
                    ("locations", .array([location(file, e.location)])),
                ]))
            }
        }
        let driverRules: [JSON] = rules.map { r in
            .object([
                ("id", .string(r.id)),
                ("name", .string(r.name)),
                ("shortDescription", .object([("text", .string(r.summary))])),
                ("fullDescription", .object([("text", .string(r.summary + " " + r.fix))])),
                ("helpUri", .string(r.helpURL)),
                ("help", .object([("text", .string(r.fix))])),
                ("defaultConfiguration", .object([("level", .string(level(r.defaultSeverity)))])),
                ("properties", .object([("category", .string(r.category))])),
            ])
        }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string("spatialcheck")),
                    ("version", .string(toolVersion)),
                    ("informationUri", .string("https://developer.apple.com/design/human-interface-guidelines/designing-for-visionos")),
                    ("rules", .array(driverRules)),
                ]))])),
                ("invocations", .array([.object([
                    ("executionSuccessful", .bool(!hasLoadErrors)),
                    ("toolExecutionNotifications", .array(notifications)),
                ] + (generatedAt.map { [("endTimeUtc", JSON.string($0))] } ?? []))])),
                ("results", .array(results)),
            ])])),
        ])
    }
}

/// SARIF wants URIs: relative paths stay relative (code scanning resolves them against the
/// checkout), absolute paths become file URIs; spaces and other reserved characters are escaped.
func sarifURI(_ path: String) -> String {
    var out = path.hasPrefix("/") ? "file://" : ""
    for u in path.unicodeScalars {
        if u.properties.isAlphabetic && u.isASCII || ("0"..."9").contains(u) || "-._~/".unicodeScalars.contains(u) {
            out.unicodeScalars.append(u)
        } else {
            for b in String(u).utf8 {
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
    }
    return out
}

// MARK: - JUnit

extension Report {
    /// JUnit XML: one test suite per scene, one test case per checked rule. Violations at or
    /// above `failOn` make the case fail; lower ones are listed in its system-out. A scene that
    /// could not be loaded is one case with an error.
    public func junit() -> String {
        var suites = ""
        var totalTests = 0, totalFailures = 0, totalErrors = 0
        for scene in scenes {
            var cases = ""
            var tests = 0, failures = 0, errors = 0
            if scene.status == .error {
                tests = 1; errors = 1
                let text = scene.errors.map(\.description).joined(separator: "\n")
                cases += "    <testcase classname=\"\(xml(scene.path))\" name=\"load\">\n"
                cases += "      <error message=\"\(xml(scene.errors.first?.message ?? "could not be loaded"))\" type=\"load\">\(xml(text))</error>\n"
                cases += "    </testcase>\n"
            } else {
                let byRule = Dictionary(grouping: scene.violations, by: \.rule)
                let ruleIDs = (scene.rulesChecked + byRule.keys).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
                for id in ruleIDs {
                    tests += 1
                    let vs = byRule[id] ?? []
                    let failing = vs.filter { v in failOn.map { v.severity.rank <= $0.rank } ?? false }
                    cases += "    <testcase classname=\"\(xml(scene.path))\" name=\"\(xml(id))\""
                    if vs.isEmpty { cases += "/>\n"; continue }
                    cases += ">\n"
                    let details = vs.map { v in
                        "\(v.severity.rawValue): \(v.entityList): \(v.message) " +
                            "(measured \(fmtValue(v.measured)) \(v.unit), threshold \(fmtValue(v.threshold)) \(v.unit); " +
                            "\(timeRange(v, frameRate: scene.frameRate)); \(scene.path):\(v.location?.line ?? 0))"
                    }.joined(separator: "\n")
                    if let first = failing.first {
                        failures += 1
                        cases += "      <failure message=\"\(xml(first.message))\" type=\"\(first.severity.rawValue)\">\(xml(details))</failure>\n"
                    } else {
                        cases += "      <system-out>\(xml(details))</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
            }
            totalTests += tests; totalFailures += failures; totalErrors += errors
            suites += "  <testsuite name=\"\(xml(scene.path))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
            suites += cases
            if let line = OmittedViolations.notShown(scene.omitted) { suites += "    <system-out>\(xml(line))</system-out>\n" }
            suites += "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"spatialcheck\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\""
            + (generatedAt.map { " timestamp=\"\(xml($0))\"" } ?? "") + ">\n"
            + suites + "</testsuites>\n"
    }
}

/// Escapes text for XML and HTML (attributes and content); drops characters XML 1.0 forbids.
public func xml(_ s: String) -> String {
    var out = ""
    for u in s.unicodeScalars {
        switch u {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default:
            if u.value < 0x20 && u != "\n" && u != "\t" && u != "\r" { continue }
            if u.value == 0xFFFE || u.value == 0xFFFF { continue }
            out.unicodeScalars.append(u)
        }
    }
    return out
}

// MARK: - Markdown

extension Report {
    /// A summary table for a pull-request comment, then the violations per scene.
    public func markdown() -> String {
        let e = count(.error), w = count(.warning), i = count(.info)
        let failed = scenes.filter { $0.status == .error }.count
        var out = "## spatialcheck\n\n"
        out += failsGate || hasLoadErrors ? "**Comfort check failed**" : "**Comfort check passed**"
        out += ": \(e) error\(e == 1 ? "" : "s"), \(w) warning\(w == 1 ? "" : "s"), \(i) info"
        out += failed > 0 ? ", \(failed) scene\(failed == 1 ? "" : "s") could not be loaded.\n\n" : ".\n\n"
        if let generatedAt { out += "Generated at \(generatedAt).\n\n" }
        out += "| scene | status | errors | warnings | info |\n| --- | --- | ---: | ---: | ---: |\n"
        for s in scenes {
            let status = s.status == .error ? "could not be loaded" : (s.violations.isEmpty ? "clean" : "violations")
            out += "| \(code(s.path)) | \(status) | \(s.count(.error)) | \(s.count(.warning)) | \(s.count(.info)) |\n"
        }
        for s in scenes where s.status == .error || !s.violations.isEmpty {
            out += "\n### \(code(s.path))\n\n"
            if s.status == .error {
                for d in s.errors {
                    let loc = d.location.map { ":\($0.line):\($0.column)" } ?? ""
                    out += "- **load error** \(code(d.file + loc)): \(md(d.message))\(d.hint.map { " — \(md($0))" } ?? "")\n"
                }
                continue
            }
            out += "| severity | rule | entities | measured | threshold | frames | line |\n"
            out += "| --- | --- | --- | ---: | ---: | --- | ---: |\n"
            for v in s.violations {
                let spans = v.spans.prefix(2).map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
                    + (v.spans.count > 2 ? ", …" : "")
                out += "| \(v.severity.rawValue) | [\(code(v.rule))](\(v.help)) | \(v.markdownEntities) "
                out += "| \(fmtValue(v.measured)) \(v.unit) | \(fmtValue(v.threshold)) \(v.unit) | \(spans) | \(v.location.map { String($0.line) } ?? "") |\n"
            }
            if let line = OmittedViolations.notShown(s.omitted) { out += "\n_\(md(line))_\n" }
            out += "\n<details><summary>What to change</summary>\n\n"
            for v in s.violations { out += "- \(code(v.rule)) \(v.markdownEntities): \(md(v.message))\n" }
            out += "\n</details>\n"
        }
        return out
    }
}

extension ReportViolation {
    /// The entities as code spans, or "(whole scene)" for a scene-wide violation.
    var markdownEntities: String { entities.isEmpty ? "(whole scene)" : entities.map(code).joined(separator: ", ") }
}

/// An inline code span (backticks inside are replaced; pipes escaped for tables).
func code(_ s: String) -> String {
    "`" + String(s.map { $0 == "`" ? "'" : $0 }).split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") + "`"
}

/// Escapes Markdown table/inline metacharacters.
func md(_ s: String) -> String {
    var out = ""
    for c in s {
        if "|`*_[]<>".contains(c) { out += "\\" }
        out.append(c == "\n" ? " " : c)
    }
    return out
}
