import Foundation
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
    case text, json, sarif, junit, markdown, html, xcode, github
}

// MARK: - SARIF 2.1.0

extension Report {
    /// SARIF 2.1.0: one run; `tool.driver.rules` from the catalog; results with level, message,
    /// partial fingerprints and the scene file's line/column; load errors as tool notifications.
    public func sarif(rules: [RuleDescriptor]) -> JSON { sarifPart(rules: rules).materialized() }

    /// Streams `sarif(rules:).serialized()` to `sink`, building one result at a time.
    public func writeSARIF(rules: [RuleDescriptor], to sink: ReportSink) {
        var out = sink
        sarifPart(rules: rules).serialize(to: &out)
    }

    func sarifPart(rules: [RuleDescriptor]) -> JSONPart {
        let index = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        func level(_ s: Severity) -> String { s == .error ? "error" : s == .warning ? "warning" : "note" }
        func location(_ path: String, _ loc: SourceLocation?) -> JSON {
            var physical: [(String, JSON)] = [("artifactLocation", .object([("uri", .string(sarifURI(path)))]))]
            if let loc {
                physical.append(("region", .object([("startLine", .int(max(1, loc.line))), ("startColumn", .int(max(1, loc.column)))])))
            }
            return .object([("physicalLocation", .object(physical))])
        }
        // Strings from input (entity ids, messages, and everything of a saved report) are
        // escaped for people (Escape.text; message text also for SARIF's embedded links).
        func result(_ scene: SceneReport, _ v: ReportViolation) -> [(String, JSON)] {
            var r: [(String, JSON)] = [("ruleId", .string(Escape.text(v.rule)))]
            if let i = index[v.rule] { r.append(("ruleIndex", .int(i))) }
            r += [
                ("level", .string(level(v.severity))),
                ("message", .object([("text", .string(Escape.sarifText(v.message)))])),
                ("locations", .array([location(scene.repositoryPath ?? scene.path, v.location)])),
                ("partialFingerprints", .object([("spatialcheck/v1", .string(Escape.text(v.fingerprint)))])),
            ]
            if let b = v.baseline { r.append(("baselineState", .string(b.sarifBaselineState))) }
            var properties: [(String, JSON)] = [("entities", .array(v.entities.map { .string(Escape.text($0)) }))]
            if !v.usdPrims.isEmpty {
                let prims: [JSON] = v.usdPrims.map { p in
                    .object([("entity", .string(Escape.text(p.entity))), ("path", .string(Escape.text(p.prim.path))),
                             ("layer", .string(Escape.text(p.prim.layer)))])
                }
                properties.append(("usdPrims", .array(prims)))
            }
            properties += [
                ("measured", .rounded(v.measured, digits: 6)),
                ("threshold", .rounded(v.threshold, digits: 6)),
                ("unit", .string(Escape.text(v.unit))),
                ("frames", .int(v.frameCount)),
                ("firstTime", .rounded(v.firstTime, digits: 6)),
                ("lastTime", .rounded(v.lastTime, digits: 6)),
                ("worstFrame", .int(v.worstFrame)),
            ]
            r.append(("properties", .object(properties)))
            return r
        }
        // Fixed violations (in the baseline, gone now): `absent` results, of kind `pass`.
        func fixedResult(_ f: (scene: String, violation: ReportViolation)) -> [(String, JSON)] {
            var r: [(String, JSON)] = [("ruleId", .string(f.violation.rule))]
            if let i = index[f.violation.rule] { r.append(("ruleIndex", .int(i))) }
            r += [
                ("kind", .string("pass")),
                ("level", .string("none")),
                ("message", .object([("text", .string(Escape.sarifText("fixed since the baseline: " + f.violation.message)))])),
                ("locations", .array([location(f.scene, f.violation.location)])),
                ("partialFingerprints", .object([("spatialcheck/v1", .string(f.violation.fingerprint))])),
                ("baselineState", .string("absent")),
            ]
            return r
        }
        var notifications: [JSON] = []
        if fixedNotListed > 0 {
            let n = fixedNotListed
            notifications.append(.object([("level", .string("note")), ("message", .object([("text", .string(
                "\(groupedThousands(Int64(n))) more violation\(n == 1 ? "" : "s") of the baseline \(n == 1 ? "is" : "are") fixed and not listed (at most --max-violations of each rule and scene, within code scanning's result limit)"))]))]))
        }
        for scene in scenes {
            for line in [OmittedViolations.notShown(scene.omitted, sarif: true, perRule: violationLimit), IgnoredViolations.line(scene.ignored)].compactMap({ $0 }) {
                notifications.append(.object([("level", .string("note")), ("message", .object([("text", .string("\(scene.path): \(line)"))]))]))
            }
            if let stopped = scene.stopped {
                notifications.append(.object([("level", .string("warning")), ("message", .object([("text", .string("\(scene.path): \(stopped.line)"))]))]))
            }
            if let partial = partialComparison(scene.path) {
                notifications.append(.object([("level", .string("warning")), ("message", .object([("text", .string(Escape.sarifText("\(scene.path): \(partial.line)")))]))]))
            }
            // Every scene that could not be loaded (a load error, or a path that does not exist)
            // has at least one notification, its message naming the file.
            let errors = scene.status == .error && scene.errors.isEmpty
                ? [Diagnostic(file: scene.path, message: "could not be loaded")] : scene.errors
            for e in errors {
                let file = e.file.isEmpty ? scene.path : e.file
                notifications.append(.object([
                    ("level", .string("error")),
                    ("message", .object([("text", .string(Escape.sarifText("\(file): \(e.message)" + (e.hint.map { " (\($0))" } ?? ""))))])),
                    ("locations", .array([location(file, e.location)])),
                ]))
            }
        }
        // Violations an `ignore` entry left out (kept by `validate --format sarif`): results with an
        // external suppression giving the entry's reason, which code scanning shows as dismissed.
        func suppressedResult(_ scene: SceneReport, _ s: SuppressedViolation) -> [(String, JSON)] {
            result(scene, s.violation) + [("suppressions", .array([.object([("kind", .string("external")),
                                                                         ("justification", .string(Escape.sarifText(s.reason)))])]))]
        }
        // Results are built as they are written: every violation of every scene, then the fixed
        // ones, then the suppressed ones.
        let violationResults = scenes.lazy.flatMap { scene in scene.violations.lazy.map { JSONPart.members(result(scene, $0)) } }
        let fixedResults = fixedInBaseline.lazy.map { JSONPart.members(fixedResult($0)) }
        let suppressedResults = scenes.lazy.flatMap { scene in scene.suppressed.lazy.map { JSONPart.members(suppressedResult(scene, $0)) } }
        let results = AnySequence([AnySequence(violationResults), AnySequence(fixedResults), AnySequence(suppressedResults)].joined())
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
        let run: [(String, JSONPart)] = JSONPart.members([
            ("tool", .object([("driver", .object([
                ("name", .string("spatialcheck")),
                ("version", .string(Escape.text(toolVersion))),
                ("informationUri", .string("https://developer.apple.com/design/human-interface-guidelines/designing-for-visionos")),
                ("rules", .array(driverRules)),
            ]))])),
            ("properties", .object([("settings", .object([
                ("pointAngle", .rounded(pointAngle)),
                ("fixedPointSize", .rounded(fixedPointSize)),
            ] + sceneSettingsJSON()))])),
            ("invocations", .array([.object([
                ("executionSuccessful", .bool(!isIncomplete)),
                ("toolExecutionNotifications", .array(notifications)),
            ] + (generatedAt.map { [("endTimeUtc", JSON.string($0))] } ?? []))])),
        ]) + [("results", .objects(results))]
        return .object([
            ("$schema", .value(.string("https://json.schemastore.org/sarif-2.1.0.json"))),
            ("version", .value(.string("2.1.0"))),
            ("runs", .objects(AnySequence([run]))),
        ])
    }
}

extension Report {
    /// Scenes checked with settings of their own (a scene's `units`), for SARIF's run properties:
    /// `[("scenes", [{path, pointAngle, fixedPointSize}])]`, or nothing when every scene used the run's.
    func sceneSettingsJSON() -> [(String, JSON)] {
        let own: [JSON] = scenes.compactMap { s in
            guard s.status == .checked else { return nil }
            let pa = s.pointAngle ?? pointAngle, fp = s.fixedPointSize ?? fixedPointSize
            guard pa != pointAngle || fp != fixedPointSize else { return nil }
            return .object([("path", .string(s.path)), ("pointAngle", .rounded(pa)), ("fixedPointSize", .rounded(fp))])
        }
        return own.isEmpty ? [] : [("scenes", .array(own))]
    }
}

/// SARIF wants URIs: relative paths stay relative (code scanning resolves them against the
/// checkout), absolute paths become file URIs; every byte of the path's file-system form
/// (`FileName.bytes`) except ASCII letters, digits and `-._~/` is percent-encoded, so control,
/// bidi and other invisible characters, and a name that is not UTF-8, appear only as `%XX`.
func sarifURI(_ path: String) -> String {
    var out = path.hasPrefix("/") ? "file://" : ""
    for b in FileName.bytes(path) {
        let u = Unicode.Scalar(b)
        if b < 0x80, u.properties.isAlphabetic || ("0"..."9").contains(u) || "-._~/".unicodeScalars.contains(u) {
            out.unicodeScalars.append(u)
        } else {
            let hex = String(b, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return out
}

// MARK: - JUnit

extension Report {
    /// JUnit XML: one test suite per scene, one test case per checked rule. Violations at or
    /// above `failOn` make the case fail (with a baseline, only new and worsened ones, as the exit
    /// code); the others are listed in its system-out. A scene that
    /// could not be loaded is one case with an error. With violations of the baseline fixed, a last
    /// suite `baseline` holds one passing case, `fixed since the baseline`, that lists them (the
    /// s31 trial's F7: a test viewer showed nothing of them). Every string from input goes through
    /// `Escape.xml` (line by line where the element holds several lines).
    public func junit() -> String {
        var suites = ""
        var totalTests = 0, totalFailures = 0, totalErrors = 0
        for scene in scenes {
            var cases = ""
            var tests = 0, failures = 0, errors = 0
            let path = Escape.xml(scene.path)
            if scene.status == .error {
                tests = 1; errors = 1
                // Diagnostic.description has already escaped its parts; its one line break (before
                // the hint) is kept.
                let text = xmlLines(scene.errors.map(\.description))
                cases += "    <testcase classname=\"\(path)\" name=\"load\">\n"
                cases += "      <error message=\"\(Escape.xml(scene.errors.first?.message ?? "could not be loaded"))\" type=\"load\">\(text)</error>\n"
                cases += "    </testcase>\n"
            } else {
                let byRule = Dictionary(grouping: scene.violationsNewFirst, by: \.rule)
                let ruleIDs = (scene.rulesChecked + byRule.keys).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.sorted()
                for id in ruleIDs {
                    tests += 1
                    let vs = byRule[id] ?? []
                    // With a baseline, only new and worsened violations fail (as the exit code):
                    // known ones are listed in the passing case's system-out with their status.
                    let failing = vs.filter { v in
                        failOn.map { v.severity.rank <= $0.rank } ?? false && v.gates
                    }
                    cases += "    <testcase classname=\"\(path)\" name=\"\(Escape.xml(id))\""
                    if vs.isEmpty { cases += "/>\n"; continue }
                    cases += ">\n"
                    // One line per violation: each escaped whole (a line break inside a message
                    // becomes a visible `\n`), then joined.
                    let details = vs.map { v in
                        let shown = fmtMeasure(v.measured, v.threshold)
                        let status = v.baseline.map { "; " + ($0.gates ? v.baselineNote(unit: v.unit) : "known: \($0.rawValue) since the baseline") } ?? ""
                        return Escape.xml("\(v.severity.rawValue): \(v.entityList): \(v.message) " +
                            "(measured \(shown.measured) \(v.unit), threshold \(shown.threshold) \(v.unit); " +
                            "\(timeRange(v, frameRate: scene.frameRate)); \(scene.path):\(v.location?.line ?? 0)\(status))")
                    }.joined(separator: "\n")
                    if let first = failing.first {
                        failures += 1
                        cases += "      <failure message=\"\(Escape.xml(first.message))\" type=\"\(first.severity.rawValue)\">\(details)</failure>\n"
                    } else {
                        cases += "      <system-out>\(details)</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
            }
            totalTests += tests; totalFailures += failures; totalErrors += errors
            suites += "  <testsuite name=\"\(path)\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\">\n"
            // The settings the scene was checked with (hig-rules §2.4 A3: every report states them).
            if scene.status == .checked {
                suites += "    <properties>\n"
                suites += "      <property name=\"pointAngle\" value=\"\(JSON.format(JSON.roundedValue(scene.pointAngle ?? pointAngle) ?? pointAngle))\"/>\n"
                suites += "      <property name=\"fixedPointSize\" value=\"\(JSON.format(JSON.roundedValue(scene.fixedPointSize ?? fixedPointSize) ?? fixedPointSize))\"/>\n"
                suites += "    </properties>\n"
            }
            suites += cases
            let notes = [OmittedViolations.notShown(scene.omitted), IgnoredViolations.line(scene.ignored), scene.stopped?.line,
                         partialComparison(scene.path)?.line].compactMap { $0 }
            if !notes.isEmpty { suites += "    <system-out>\(Escape.xml(notes.joined(separator: "\n")))</system-out>\n" }
            suites += "  </testsuite>\n"
        }
        let fixed = fixedList(head: "", item: { scene, what in "\(Escape.text(scene)): \(Escape.text(what))\n" }, more: { "\($0)\n" }, tail: "")
        if !fixed.isEmpty {
            totalTests += 1
            suites += "  <testsuite name=\"baseline\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            suites += "    <testcase classname=\"baseline\" name=\"fixed since the baseline\">\n"
            suites += "      <system-out>\(xmlLines([String(fixed.dropLast())]))</system-out>\n"
            suites += "    </testcase>\n  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"spatialcheck\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(totalErrors)\""
            + (generatedAt.map { " timestamp=\"\(Escape.xml($0))\"" } ?? "") + ">\n"
            + suites + "</testsuites>\n"
    }
}

/// Text inside an HTML element of a Markdown comment (a `<summary>`, where Markdown is not read):
/// HTML-escaped (`Escape.html`), with mentions, issue references and autolinks broken as
/// `Escape.markdown` breaks them (`Escape.markdownBreak`), so nothing notifies or links.
func markdownHTMLText(_ s: String) -> String {
    Escape.html(s)
        .replacingOccurrences(of: "@", with: "@" + Escape.markdownBreak)
        .replacingOccurrences(of: #"(?<!&)#"#, with: "#" + Escape.markdownBreak, options: .regularExpression)
        .replacingOccurrences(of: "://", with: ":" + Escape.markdownBreak + "//")
        .replacingOccurrences(of: "www.", with: "www" + Escape.markdownBreak + ".")
}

/// Diagnostics (`Diagnostic.description`, whose parts are already escaped and whose only line
/// break is the one before the hint) as XML character data: each line through `Escape.xml`,
/// joined by real line breaks. Not for raw text: a line break from input must be escaped first.
func xmlLines(_ entries: [String]) -> String {
    entries.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        .map { Escape.xml(String($0)) }.joined(separator: "\n")
}

// MARK: - Markdown

extension Report {
    /// GitHub's limit on the body of a pull-request comment, in characters.
    public static let markdownCommentLimit = 65_536

    /// A summary table for a pull-request comment, then the violations per scene (with a baseline:
    /// a line of counts first, and in each scene new and worsened violations first). Kept under
    /// `limit` UTF-8 bytes (so under as many characters): scenes that do not fit are left out,
    /// and a last line says how many. Paths, rule ids and entity ids are code spans
    /// (`Escape.markdownCode`), messages and hints escaped inline text (`Escape.markdown`): nothing
    /// from input becomes HTML, a link, a mention or a new line. The only links go to Apple's
    /// documentation (`Escape.appleDocumentationURL`). Violations of one rule in one container with
    /// the same cause (`foldViolations`) are one row, with their list in a `<details>` block after
    /// the table; `expand` gives every violation its own row.
    public func markdown(limit: Int = Report.markdownCommentLimit, expand: Bool = false) -> String {
        let e = count(.error), w = count(.warning), i = count(.info)
        var out = "## spatialcheck\n\n"
        let passed = !(failsGate || isIncomplete)
        // Findings at the gate's severity that pass only because the baseline knows them (s26 F12:
        // "Comfort check passed: 26 errors" read as a contradiction in a ticket): the headline
        // says the gate passed against the baseline and calls them known.
        let knownAtGate = passed && baselineCounts != nil && failOn.map { f in Severity.allCases.contains { $0 <= f && count($0) > 0 } } == true
        func counted(_ n: Int, _ s: Severity) -> String {
            let known = knownAtGate && failOn.map { s <= $0 } == true && n > 0 ? "known " : ""
            return "\(n) \(known)\(s == .info ? "info" : "\(s.rawValue)\(n == 1 ? "" : "s")")"
        }
        if knownAtGate, let failOn {
            let gated = failOn == .error ? "errors" : failOn == .warning ? "errors or warnings" : "findings"
            out += "**Gate passed** (no new or worsened \(gated) against the baseline)"
        } else {
            out += passed ? "**Comfort check passed**" : "**Comfort check failed**"
        }
        // A gate switched off (`failOn: never`, from the command line or the configuration) passes
        // whatever it finds: say so where a reviewer reads "passed".
        if failOn == nil, e + w + i > 0, !isIncomplete { out += " (fail on: never)" }
        out += ": " + lowerBoundsPrefix + [counted(e, .error), counted(w, .warning), counted(i, .info)].joined(separator: ", ") + countsNote
        // A scene refused for the work budget loaded: it is named as what it is.
        out += notCheckedParts(namingScenes: true).map { ", " + $0 }.joined() + ".\n\n"
        if let counts = baselineCounts {
            let suppressed = counts.suppressed > 0 ? ", \(counts.suppressed) suppressed" : ""
            out += "**Against the baseline: \(counts.new) new, \(counts.worsened) worsened, \(counts.known) known, \(counts.fixed) fixed\(suppressed).**"
            out += " Only new and worsened violations fail the check.\n\n"
            out += fixedList(head: "Fixed since the baseline:\n\n", item: { "- \(Escape.markdownCode($0)): \(Escape.markdownCode($1))\n" },
                             more: { "- \(Escape.markdown($0))\n" }, tail: "\n")
            // A run that stopped early makes the comparison partial: each such scene (at most five).
            for p in partialComparisons.prefix(5) { out += "**\(Escape.markdownCode(p.scene)): \(Escape.markdown(p.line)).**\n\n" }
            if partialComparisons.count > 5 { out += "_The comparison is partial for \(partialComparisons.count - 5) more scenes in the same way._\n\n" }
        }
        if let generatedAt { out += "Generated at \(Escape.markdown(generatedAt)).\n\n" }
        out += "Settings: \(Report.settingsText(pointAngle: pointAngle, fixedPointSize: fixedPointSize))"
        let own = scenes.filter { s in
            s.status == .checked && ((s.pointAngle.map { $0 != pointAngle } ?? false) || (s.fixedPointSize.map { $0 != fixedPointSize } ?? false))
        }
        for s in own {
            out += "; \(Escape.markdownCode(s.path)): \(Report.settingsText(pointAngle: s.pointAngle ?? pointAngle, fixedPointSize: s.fixedPointSize ?? fixedPointSize))"
        }
        out += ".\n\n"
        // Room kept for the line saying what was left out.
        let budget = max(0, limit - 400)
        var leftOutRows = 0, leftOutScenes = 0, leftOutViolations = 0
        out += "| scene | status | errors | warnings | info |\n| --- | --- | ---: | ---: | ---: |\n"
        for s in scenes {
            // A scene clean only because `ignore` entries left its violations out says so.
            let ignored = s.ignoredCount
            let clean = ignored > 0 ? "clean (\(groupedThousands(Int64(ignored))) ignored)" : "clean"
            let status = s.status == .error ? s.notCheckedStatus : (s.violations.isEmpty ? clean : "violations")
            // A scene stopped in the middle of a frame counted only what it tracked: at least that.
            let atLeast = s.stopped?.partialFrame == true ? "at least " : ""
            let row = "| \(Escape.markdownCode(s.path)) | \(status) | \(atLeast)\(s.count(.error)) | \(atLeast)\(s.count(.warning)) | \(atLeast)\(s.count(.info)) |\n"
            if leftOutRows > 0 || out.utf8.count + row.utf8.count > budget / 2 { leftOutRows += 1; continue }
            out += row
        }
        // A scene's details with only its first `shown` violations (in the order of its rows and
        // their lists) when it does not fit whole: the rows holding them, a folded row's list cut.
        // A scene that could not be checked: its first `shown` errors, in file order.
        func details(_ s: SceneReport, _ groups: [ViolationGroup], shown: Int) -> String {
            var out = "\n### \(Escape.markdownCode(s.path))\n\n"
            if s.status == .error {
                for d in s.errors.prefix(shown) {
                    let loc = d.location.map { ":\($0.line):\($0.column)" } ?? ""
                    out += "- **\(s.isOverWorkBudget ? "not checked" : "load error")** \(Escape.markdownCode(d.file + loc)): \(Escape.markdown(d.message))"
                    out += "\(d.hint.map { " — \(Escape.markdown($0))" } ?? "")\n"
                }
                if shown < s.errors.count {
                    // Our own words and numbers only; with the errors the loader counted but did not list.
                    let n = s.errorsNotShown(shown)
                    out += "\n_\(n) more error\(n == 1 ? "" : "s") of this scene left out to stay under the \(limit)-character limit of a comment; "
                    out += "the job's text, JSON or HTML report lists \(s.unlistedErrors.map { "the first \($0.listed)" } ?? (n == 1 ? "it" : "them"))._\n"
                }
                return out
            }
            if s.violations.isEmpty {
                // Clean, yet a configuration hid violations or the check stopped early: say so.
                let lines = [IgnoredViolations.line(s.ignored).map { "_\(Escape.markdown($0))_" },
                             s.stopped.map { "**\(Escape.markdown($0.line))**" }].compactMap { $0 }
                return out + lines.joined(separator: "\n\n") + "\n"
            }
            var listed: [(group: ViolationGroup, members: Int)] = []
            var left = shown
            for g in groups where left > 0 { listed.append((g, min(left, g.count))); left -= min(left, g.count) }
            let hasBaseline = s.violations.contains { $0.baseline != nil }
            out += "| severity | rule | entities | measured | threshold | time | line |\(hasBaseline ? " baseline |" : "")\n"
            out += "| --- | --- | --- | ---: | ---: | --- | ---: |\(hasBaseline ? " --- |" : "")\n"
            func spans(_ v: ReportViolation) -> String {
                v.spans.prefix(2).map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ") + (v.spans.count > 2 ? ", …" : "")
            }
            // The time column: seconds (what a tester reproducing on a device needs), then frames.
            func time(_ v: ReportViolation) -> String { "\(secondsRange(v)), frames \(spans(v))" }
            func range(_ r: ClosedRange<Double>) -> String {
                let lo = fmtValue(r.lowerBound), hi = fmtValue(r.upperBound)
                return lo == hi ? lo : "\(lo)–\(hi)"
            }
            for (g, _) in listed {
                guard let v = g.members.first else { continue }
                let unit = Escape.markdown(v.unit)
                if g.isFolded {
                    let place = g.container.isEmpty ? "in the scene" : "in \(Escape.markdownCode(g.container))"
                    out += "| \(v.severity.rawValue) | \(v.markdownRule) | \(g.count) \(foldNoun(g.members)) \(place) (listed below) "
                    if g.members.allSatisfy({ numbersSayNothing(unit: $0.unit, $0.measured, $0.threshold) }) {
                        out += "|  |  | \(time(v)), … | \(v.location.map { String($0.line) } ?? "") |"
                    } else {
                        out += "| \(withUnit(range(g.measuredRange), 0.5, unit: unit)) | \(withUnit(range(g.thresholdRange), 0.5, unit: unit)) | \(time(v)), … | \(v.location.map { String($0.line) } ?? "") |"
                    }
                } else {
                    out += "| \(v.severity.rawValue) | \(v.markdownRule) | \(v.markdownEntities) "
                    let shown = fmtMeasure(v.measured, v.threshold)
                    let numbers = numbersSayNothing(unit: v.unit, v.measured, v.threshold) ? "  |  |"
                        : " \(withUnit(shown.measured, v.measured, unit: unit)) | \(withUnit(shown.threshold, v.threshold, unit: unit)) |"
                    out += "|\(numbers) \(time(v)) | \(v.location.map { String($0.line) } ?? "") |"
                }
                // A worsened violation says what changed (`baselineChange`); a folded row's members say it in its list.
                let change = g.isFolded ? nil : v.baselineChange(unit: unit)
                out += hasBaseline ? " \(v.baseline.map { $0.gates ? "**\($0.rawValue)**\(change.map { ": " + $0 } ?? "")" : "known (\($0.rawValue))" } ?? "") |\n" : "\n"
            }
            let total = groups.reduce(0) { $0 + $1.count }
            if shown < total {
                // Our own words and numbers only.
                let n = total - shown
                out += "\n_\(n) more violation\(n == 1 ? "" : "s") of this scene left out to stay under the \(limit)-character limit of a comment; "
                out += "the job's text, JSON or HTML report lists \(n == 1 ? "it" : "them")._\n"
            }
            if let line = OmittedViolations.notShown(s.omitted) { out += "\n_\(Escape.markdown(line))_\n" }
            if let line = IgnoredViolations.line(s.ignored) { out += "\n_\(Escape.markdown(line))_\n" }
            if let stopped = s.stopped { out += "\n**\(Escape.markdown(stopped.line))**\n" }
            for (g, k) in listed where g.isFolded {
                out += "\n<details><summary><code>\(markdownHTMLText(g.rule))</code>: \(markdownHTMLText(g.summary))</summary>\n\n"
                for m in g.members.prefix(k) {
                    out += "- \(m.markdownEntities): "
                    if !numbersSayNothing(unit: m.unit, m.measured, m.threshold) {
                        let unit = Escape.markdown(m.unit)
                        out += "\(m.baselineChange(unit: unit) ?? withUnit(fmtValue(m.measured), m.measured, unit: unit)), "
                    }
                    out += "\(secondsRange(m)), frames \(spans(m))"
                    out += "\(m.location.map { ", line \($0.line)" } ?? "")\n"
                }
                if k < g.count { out += "- … and \(g.count - k) more, left out to stay under the limit\n" }
                out += "\n</details>\n"
            }
            out += "\n<details><summary>What to change</summary>\n\n"
            for (g, _) in listed {
                guard let v = g.members.first else { continue }
                if g.isFolded {
                    out += "- \(Escape.markdownCode(v.rule)) \(v.markdownEntities) and \(g.count - 1) more like it: \(Escape.markdown(v.message))\n"
                } else {
                    out += "- \(Escape.markdownCode(v.rule)) \(v.markdownEntities): \(Escape.markdown(v.message))\n"
                }
            }
            out += "\n</details>\n"
            return out
        }
        // A scene that could not be checked shows at least its first errors wherever it comes
        // (trial s34 F9: a failed scene's errors were left out whole): room for them is kept until
        // its turn, for the first such scenes while it takes at most a quarter of the comment.
        let firstErrors = 3
        var kept: [Int: Int] = [:], reserved = 0
        for (index, s) in scenes.enumerated() where s.status == .error {
            let n = details(s, [], shown: min(firstErrors, s.errors.count)).utf8.count
            if reserved + n > budget / 4 { break }
            kept[index] = n; reserved += n
        }
        // Scenes in full while they fit; the first that does not keeps as many of its first rows
        // (folded groups) or errors as fit, and says how many it leaves out; the rest are left out,
        // but for the first errors of a scene that could not be checked.
        var partlyShown = 0, closed = false, errorsLeftOut = 0, errorScenesCut = 0
        for (index, s) in scenes.enumerated() where s.status == .error || !s.violations.isEmpty || !s.ignored.isEmpty || s.stopped != nil {
            reserved -= kept[index] ?? 0
            if closed && kept[index] == nil { leftOutScenes += 1; leftOutViolations += s.violations.count; continue }
            let room = budget - reserved
            let groups: [ViolationGroup] = s.status == .error ? []
                : expand ? s.violationsNewFirst.flatMap { foldViolations([$0]) } : foldViolations(s.violationsNewFirst, omitted: s.omitted)
            let total = s.status == .error ? s.errors.count : groups.reduce(0) { $0 + $1.count }
            let whole = details(s, groups, shown: total)
            if out.utf8.count + whole.utf8.count <= room { out += whole; continue }
            closed = true
            // The most violations or errors that fit (a section grows with each one it shows).
            var fits = 0, above = total
            while above - fits > 1 {
                let k = (fits + above) / 2
                if out.utf8.count + details(s, groups, shown: k).utf8.count <= room { fits = k } else { above = k }
            }
            if fits > 0 {
                out += details(s, groups, shown: fits)
                if s.status == .error { errorsLeftOut += s.errorsNotShown(fits); errorScenesCut += 1 } else { partlyShown = total - fits }
            } else {
                leftOutScenes += 1; leftOutViolations += s.violations.count
            }
        }
        // Our own words and numbers only (nothing from input): the backticks are a code span.
        if let notChecked { out += "\n\(notChecked.line).\n" }
        if let line = configurationLine { out += "\n\(Escape.markdown(line)).\n" }
        if leftOutRows > 0 || leftOutScenes > 0 || partlyShown > 0 || errorsLeftOut > 0 {
            var parts: [String] = []
            if leftOutRows > 0 { parts.append("\(leftOutRows) row\(leftOutRows == 1 ? "" : "s") of the scene table") }
            if partlyShown > 0 { parts.append("\(partlyShown) violation\(partlyShown == 1 ? "" : "s") of the last scene shown") }
            if errorsLeftOut > 0 {
                parts.append("\(errorsLeftOut) error\(errorsLeftOut == 1 ? "" : "s") of \(errorScenesCut) scene\(errorScenesCut == 1 ? "" : "s") that could not be loaded")
            }
            if leftOutScenes > 0 {
                parts.append("the details of \(leftOutScenes) scene\(leftOutScenes == 1 ? "" : "s") (\(leftOutViolations) violation\(leftOutViolations == 1 ? "" : "s"))")
            }
            out += "\n_Left out to stay under the \(limit)-character limit of a comment: \(parts.joined(separator: " and ")). "
            out += "The full list is in the job's text, JSON or HTML report._\n"
        }
        return out
    }

    /// With a baseline: counts of new, worsened, known (unchanged or improved), fixed and suppressed
    /// (still there, left out by an `ignore` entry) violations.
    var baselineCounts: (new: Int, worsened: Int, known: Int, fixed: Int, suppressed: Int)? {
        guard let c = baselineStatusCounts else { return nil }
        return (c[.new] ?? 0, c[.worsened] ?? 0, (c[.unchanged] ?? 0) + (c[.improved] ?? 0), c[.fixed] ?? 0, c[.suppressed] ?? 0)
    }
}

extension SceneReport {
    /// The loader's last error when it lists only a file's first errors ("2000 more errors in this
    /// file not listed (only the first 1000 are)", `SceneBuilder.failure`): how many it counts and
    /// how many are listed before it.
    var unlistedErrors: (count: Int, listed: Int)? {
        guard status == .error, let m = errors.last?.message else { return nil }
        let digits = m.prefix { $0.isASCII && $0.isNumber }
        guard let count = Int(digits), m.dropFirst(digits.count).hasPrefix(" more error"),
              m.hasSuffix(" in this file not listed (only the first \(errors.count - 1) are)") else { return nil }
        return (count, errors.count - 1)
    }

    /// The errors of a scene that could not be checked past its first `shown`: those listed after
    /// them, and any the loader counted instead of listing.
    func errorsNotShown(_ shown: Int) -> Int {
        guard let unlisted = unlistedErrors else { return max(0, errors.count - shown) }
        return max(0, unlisted.listed - shown) + unlisted.count
    }

    /// Violations with new and worsened ones first (otherwise in report order).
    var violationsNewFirst: [ReportViolation] {
        return violations.filter(\.gates) + violations.filter { !$0.gates }
    }
}

extension BaselineStatus {
    /// SARIF's `baselineState`: new; updated (worsened or improved: present in both, changed);
    /// unchanged; absent (fixed).
    public var sarifBaselineState: String {
        switch self {
        case .new: return "new"
        case .worsened, .improved: return "updated"
        case .unchanged: return "unchanged"
        case .fixed: return "absent"
        // Never a result's state (a suppressed baseline violation is no result of its own).
        case .suppressed: return "unchanged"
        }
    }
}

extension ReportViolation {
    /// The entities as code spans, or "(whole scene)" for a scene-wide violation.
    /// An entity read from a USD prim is followed by its prim and layer: `` `Body~2` (USD `/Root/B` in `a.usda`) ``.
    var markdownEntities: String {
        guard !entities.isEmpty else { return "(whole scene)" }
        return entities.map { e in
            guard let p = usdPrims.first(where: { $0.entity == e })?.prim else { return Escape.markdownCode(e) }
            return "\(Escape.markdownCode(e)) (USD \(Escape.markdownCode(p.path)) in \(Escape.markdownCode(p.layer)))"
        }.joined(separator: ", ")
    }

    /// The rule id, linked to its HIG page when `help` is a page of Apple's documentation.
    var markdownRule: String {
        guard let url = Escape.appleDocumentationURL(help) else { return Escape.markdownCode(rule) }
        return "[\(Escape.markdownCode(rule))](\(url))"
    }
}
