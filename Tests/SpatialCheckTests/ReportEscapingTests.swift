import Foundation
import Testing
import SpatialModel
import SceneLoader
import Simulation
@testable import Reporting
@testable import SpatialCheck

/// Every output format, end to end, with the hostile strings (HostileStrings) in everything that
/// comes from input: a scene's name, entity ids, an asset path, animation clip names, glTF node
/// names (a glTF written here), and every string of a hand-written saved report (`report`,
/// `--baseline`). No format may carry a raw control, bidi, separator or zero-width character, a
/// forged `::error` line, or (HTML, Markdown, XML) a raw `<script`/`<img`; the escaped forms
/// must be visible; JSON must give the exact strings back.
@Suite(.serialized) struct ReportEscapingTests {
    /// A file name that carries most of the hostile strings (a file name cannot hold NUL or `/`).
    static let hostileFileName = "m\u{1B}[2J\u{07}\u{202E}\u{2066}\u{2028}\u{200B}\n::error file=x::forged<img src=x onerror=alert(1)>@octocat.gltf"
    /// `hostileFileName` as a YAML double-quoted scalar.
    static let hostileFileNameYAML = "m\\e[2J\\a\\u202E\\u2066\\L\\u200B\\n::error file=x::forged<img src=x onerror=alert(1)>@octocat.gltf"
    /// All hostile strings but the one with NUL (a YAML scalar or a glTF name cannot keep it: both
    /// end up as C strings), joined.
    static let withoutNUL = HostileStrings.all.filter { !$0.contains("\u{0}") }.joined(separator: " ")
    /// `withoutNUL` as a YAML double-quoted scalar.
    static let combinedYAML = withoutNUL.unicodeScalars.map { u -> String in
        switch u {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        default: return u.value < 0x20 || u.value >= 0x7F ? String(format: "\\U%08X", u.value) : String(u)
        }
    }.joined()

    /// A glTF with one triangle, a node whose name and `extras.spatial.role` are hostile, and an
    /// animation clip named with all hostile strings (binary data in a `data:` URI).
    static func hostileGLTF() -> String {
        var bytes: [UInt8] = []
        func floats(_ xs: [Float]) { for x in xs { withUnsafeBytes(of: x.bitPattern.littleEndian) { bytes += $0 } } }
        floats([0, 1])                                   // times, offset 0, 8 bytes
        floats([0, 0, 0, 0, 0.1, 0])                     // translations, offset 8, 24 bytes
        floats([0, 0, 0, 0.2, 0, 0, 0, 0.2, 0])          // triangle, offset 32, 36 bytes
        let uri = "data:application/octet-stream;base64," + Data(bytes).base64EncodedString()
        let name = jsonQuoted(withoutNUL)
        return """
            {"asset": {"version": "2.0"},
             "scene": 0, "scenes": [{"nodes": [0]}],
             "nodes": [{"name": "root", "children": [1]},
                       {"name": \(name), "mesh": 0, "extras": {"spatial": {"role": \(name)}}}],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 2}}]}],
             "buffers": [{"byteLength": \(bytes.count), "uri": "\(uri)"}],
             "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 8},
                             {"buffer": 0, "byteOffset": 8, "byteLength": 24},
                             {"buffer": 0, "byteOffset": 32, "byteLength": 36}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                           {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"},
                           {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [0.2, 0.2, 0]}],
             "animations": [{"name": \(name), "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}],
                             "samplers": [{"input": 0, "output": 1}]}]}
            """
    }

    /// A folder with the hostile glTF (under a hostile file name), a scene that loads (hostile name,
    /// the glTF as a model) and one that does not (hostile id, missing asset, unknown clip).
    static func hostileProject() throws -> String {
        let dir = try CLIHarness.temporaryDirectory()
        try hostileGLTF().write(toFile: dir + "/" + hostileFileName, atomically: true, encoding: .utf8)
        try """
            format: spatialscene/1
            name: "\(combinedYAML)"
            entities:
              - {id: model, kind: model, asset: "\(hostileFileNameYAML)", position: [0, 1.5, -1.5]}
              - id: panel
                kind: window
                position: [0, 1.5, -2]
                size: [400, 300]
                elements: [{id: tab, role: tab, frame: [0, 0, 60, 60], accessibilityLabel: "\(combinedYAML)"}]
            """.write(toFile: dir + "/hostile.scene.yaml", atomically: true, encoding: .utf8)
        try """
            format: spatialscene/1
            entities:
              - {id: "\(combinedYAML)", kind: group}
              - {id: gone, kind: model, asset: "missing-\(hostileFileNameYAML)"}
              - {id: anim, kind: model, asset: "\(hostileFileNameYAML)", animation: {clip: "\(combinedYAML)-nope"}}
            """.write(toFile: dir + "/broken.scene.yaml", atomically: true, encoding: .utf8)
        return dir
    }

    static let markupFormats: Set<ReportFormat> = [.html, .markdown, .junit]

    /// Checks one rendered output; `visible` are escaped forms it must show.
    /// `githubCommands` for `--format github`, whose lines are its own workflow commands.
    static func check(_ output: String, _ label: String, markup: Bool, githubCommands: Bool = false, visible: [String] = []) {
        let problems = HostileStrings.problems(in: output, markup: markup, githubCommands: githubCommands)
        #expect(problems.isEmpty, "\(label): \(problems)")
        for v in visible { #expect(output.contains(v), "\(label) does not show \(v.debugDescription)") }
    }

    /// The escaped forms each format must show for the hostile strings.
    static func visibleForms(_ format: ReportFormat) -> [String] {
        switch format {
        case .text: return ["\\u{1B}[2J", "\\u{202E}", "\\u{2028}", "\\u{200B}", "\\n::error file=x::forged"]
        case .json: return ["\\u001b[2J", "\\u202e", "\\u2028", "\\u200b", "\\n::error file=x::forged"]
        // SARIF: JSON-escaped backslashes, and `[` escaped for embedded links.
        case .sarif: return ["\\\\u{1B}\\\\[2J", "\\\\u{202E}", "\\\\n::error file=x::forged"]
        case .junit: return ["\\u{1B}[2J", "\\u{202E}", "&lt;img src=x onerror=alert(1)&gt;"]
        case .markdown: return ["\\u{1B}", "\\u{202E}", "&lt;img src=x onerror=alert(1)&gt;", "@&#8205;octocat"]
        case .html: return ["\\u{1B}[2J", "\\u{202E}", "&lt;script&gt;", "&lt;img src=x onerror=alert(1)&gt;"]
        // One line per finding: only the check for raw unsafe characters and forged commands applies.
        case .xcode, .github: return []
        }
    }

    @Test func everyReportFormatEscapesASceneWithHostileStrings() throws {
        let dir = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = dir
        options.captureSnapshots = true
        let v = SpatialCheck.runValidation(paths: [dir + "/hostile.scene.yaml", dir + "/broken.scene.yaml"], options: options)
        let loaded = try #require(v.report.scenes.first)
        #expect(loaded.status == .checked, "\(loaded.errors.map(\.description))")
        #expect(loaded.name == Self.withoutNUL)
        // The glTF's hostile node name and role are quoted in a loader warning.
        #expect(loaded.warnings.contains { $0.message.contains("\\u{202E}") }, "\(loaded.warnings.map(\.message))")
        let broken = try #require(v.report.scenes.last)
        #expect(broken.status == .error)
        let messages = broken.errors.map(\.description).joined(separator: "\n")
        #expect(messages.contains("no animation clip"), "\(messages)")
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(v, format: format)
            Self.check(out, "\(format)", markup: Self.markupFormats.contains(format), githubCommands: format == .github,
                       visible: Self.visibleForms(format))
        }
        // JSON is lossless: the exact name comes back.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(SpatialCheck.render(v, format: .json).utf8)) as? [String: Any])
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect(scenes.first?["name"] as? String == Self.withoutNUL)
    }

    /// The notes a limit adds (session 22: counts that are lower bounds after a tracking-limit stop,
    /// a comparison with a baseline that is partial) name the scene: escaped in every format.
    @Test func limitNotesEscapeAHostileScenePath() throws {
        let dir = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = dir
        var v = SpatialCheck.runValidation(paths: [dir + "/hostile.scene.yaml"], options: options)
        #expect(v.report.scenes.first?.status == .checked)
        let stop = EarlyStop(afterFrame: 0, frames: 90, trackingLimit: 500_000)
        v.report.scenes[0].path = Self.withoutNUL
        v.report.scenes[0].stopped = stop
        v.report.partialComparisons = [PartialComparison(scene: Self.withoutNUL, baselineStop: stop, currentStop: stop)]
        // Compared with a baseline (Markdown and HTML say it in their baseline paragraph).
        #expect(!v.report.scenes[0].violations.isEmpty)
        for i in v.report.scenes[0].violations.indices { v.report.scenes[0].violations[i].baseline = .new }
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(v, format: format)
            if [.text, .markdown, .html, .sarif, .junit].contains(format) {
                #expect(out.contains("the comparison with the baseline is partial"), "\(format)")
            }
            Self.check(out, "\(format)", markup: Self.markupFormats.contains(format), githubCommands: format == .github,
                       visible: Self.visibleForms(format))
        }
    }

    /// Loader notes with their hints (the text report prints them), "did you mean" for a missing
    /// asset (a file name found in its folder) and `report`'s warning about a scene in several
    /// reports carry names from input: escaped in every format and on stderr.
    @Test func loaderNotesHintsAndMergeWarningsEscapeHostileNames() throws {
        let dir = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A looping animation and no `duration`: the note names the entity (an id holds letters,
        // digits, '-', '_' and '.' only), its hint the duration; the model is the hostile file.
        try """
            format: spatialscene/1
            name: "\(Self.combinedYAML)"
            entities:
              - id: "boucle-é"
                kind: model
                asset: "\(Self.hostileFileNameYAML)"
                position: [0, 1.5, -1.5]
                animation:
                  loop: true
                  keyframes:
                    - {t: 0, position: [0, 1.5, -1.5]}
                    - {t: 2, position: [0.5, 1.5, -1.5]}
            """.write(toFile: dir + "/loop.scene.yaml", atomically: true, encoding: .utf8)
        // The hostile file name with one letter changed: "did you mean" names the real one.
        let misspelt = Self.hostileFileNameYAML.replacingOccurrences(of: "octocat", with: "octocot")
        try """
            format: spatialscene/1
            entities:
              - {id: near, kind: model, asset: "\(misspelt)", position: [0, 1.5, -1.5]}
            """.write(toFile: dir + "/near.scene.yaml", atomically: true, encoding: .utf8)
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = dir
        let v = SpatialCheck.runValidation(paths: [dir + "/loop.scene.yaml", dir + "/near.scene.yaml"], options: options)
        let loop = try #require(v.report.scenes.first), near = try #require(v.report.scenes.last)
        #expect(loop.status == .checked, "\(loop.errors.map(\.description))")
        #expect(loop.warnings.contains { $0.message.contains("before one loop") && $0.hint?.contains("duration: 4") == true },
                "\(loop.warnings.map(\.description))")
        #expect(near.status == .error)
        #expect(near.errors.contains { $0.description.contains("did you mean") }, "\(near.errors.map(\.description))")
        for format in ReportFormat.allCases {
            let out = SpatialCheck.render(v, format: format)
            Self.check(out, "\(format)", markup: Self.markupFormats.contains(format), githubCommands: format == .github,
                       visible: Self.visibleForms(format))
            if format == .text { #expect(out.contains("    hint: set 'duration: 4'"), "\(out)") }
        }
        for d in loop.warnings + near.errors { Self.check(d.description, "stderr", markup: false) }
        // Two reports of the same (hostile) scene: the warning names it and both reports.
        let hostilePath = Self.withoutNUL + ".scene.yaml"
        var report = v.report
        report.scenes = [loop]
        report.scenes[0].path = hostilePath
        let warnings = SpatialCheck.scenesInSeveralReports([report, report], paths: [Self.withoutNUL + "-a.json", "b.json"])
        #expect(warnings.count == 1)
        for d in warnings {
            #expect(d.description.contains("1 scene is in more than one report"))
            Self.check(d.description, "report warning", markup: false, visible: ["\\u{1B}[2J", "\\n::error file=x::forged"])
        }
    }

    @Test func inspectAndTheCommandLineEscapeClipNodeAndFileNames() throws {
        let dir = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = SpatialCheck.inspect(path: dir + "/hostile.scene.yaml", format: .text, configSearchDirectory: dir)
        #expect(text.exitCode == .clean, "\(text.diagnostics.map(\.description))")
        // The clip name (from the glTF), the asset's file name and the element's accessibility
        // label (stated facts), escaped.
        Self.check(text.output, "inspect text", markup: false,
                   visible: ["animations: \\u{1B}[2J\\u{1B}[Hcleared", "\\u{1B}]8;;https://evil.example/", "m\\u{1B}[2J\\u{7}\\u{202E}",
                             "accessibility label \"\\u{1B}[2J"])
        let json = SpatialCheck.inspect(path: dir + "/hostile.scene.yaml", format: .json, configSearchDirectory: dir)
        Self.check(json.output, "inspect json", markup: false)
        let model = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let entities = try #require(model["entities"] as? [[String: Any]])
        let clips = entities.compactMap { $0["animations"] as? [[String: Any]] }.flatMap { $0 }.compactMap { $0["name"] as? String }
        #expect(clips.contains(Self.withoutNUL))
        #expect(entities.contains { $0["asset"] as? String == Self.hostileFileName })

        // The binary: diagnostics on standard error, the report on standard output.
        let failed = try CLIHarness.run(["inspect", "broken.scene.yaml"], cwd: dir)
        #expect(failed.status == 2)
        Self.check(failed.stderr, "inspect stderr", markup: false, visible: ["\\u{1B}[2J", "\\u{202E}"])
        #expect(failed.stderr.contains("broken.scene.yaml:"))
        for format in ["text", "markdown", "html", "junit", "sarif", "json"] {
            let r = try CLIHarness.run(["validate", "hostile.scene.yaml", "broken.scene.yaml", "--format", format], cwd: dir)
            #expect(r.status == 2)
            Self.check(r.stdout + r.stderr, "validate --format \(format)", markup: ["markdown", "html", "junit"].contains(format))
        }
    }

    /// A USD asset's RealityKit accessibility label is the file's own string: `inspect` prints it
    /// escaped, in the prims' list and in the entity's facts.
    @Test(.enabled(if: USDFixtures.available, "usd-core is not installed"))
    func inspectEscapesUSDComponentStrings() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // usda string escapes: \x1b is ESC, \x07 BEL, \n a line break.
        try #"""
            #usda 1.0
            (
                metersPerUnit = 1
                defaultPrim = "Root"
            )
            def Xform "Root"
            {
                def Cube "b"
                {
                    double size = 0.1
                    def RealityKitComponent "Accessibility"
                    {
                        uniform token info:id = "RealityKit.Accessibility"
                        string label = "ok\x1b[2J\x1b]0;pwned\x07\n::error file=forged.swift::forged"
                    }
                    def RealityKitCustomComponent "C"
                    {
                        uniform token info:id = "my.comp\x1b[31m\n::warning::x"
                    }
                }
            }
            """#.write(toFile: dir + "/label.usda", atomically: true, encoding: .utf8)
        let text = SpatialCheck.inspect(path: dir + "/label.usda", format: .text, configSearchDirectory: dir)
        #expect(text.exitCode == .clean, "\(text.diagnostics.map(\.description))")
        Self.check(text.output, "inspect text of a USD asset", markup: false,
                   visible: ["label \"ok\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\n::error", "accessibility label \"ok\\u{1B}[2J"])
    }

    @Test func theSimulationTraceEscapesEntityPaths() throws {
        var scene = try SceneLoader.load(text: """
            format: spatialscene/1
            duration: 0.02
            entities:
              - {id: a, kind: window, position: [0, 1.5, -2]}
              - {id: b, kind: window, position: [1, 1.5, -2]}
            """, path: "t.scene.yaml", baseDirectory: NSTemporaryDirectory())
        // Paths that a scene file cannot spell, as a library user might build them.
        scene.entities[0].path = HostileStrings.formula + HostileStrings.forgedAnnotation
        scene.entities[1].path = HostileStrings.combined
        for format in TraceFormat.allCases {
            var out = ""
            TraceWriter(scene: scene, format: format).write(to: &out)
            Self.check(out, "trace \(format)", markup: false)
            let lines = out.split(separator: "\n")
            // Two frames at 90 Hz: CSV has a header and a row per frame and entity, JSON Lines a line per frame.
            #expect(lines.count == (format == .csv ? 5 : 2), "\(format): \(lines.count) lines")
            if format == .csv {
                #expect(out.contains(",\"'=HYPERLINK(\"\"https://evil.example\"\",\"\"click\"\")ok\\n::error file=x::forged\","))
                // Every data row has the header's 21 fields (the quoted field's commas are inside quotes).
                for line in lines.dropFirst() {
                    var fields = 0, quoted = false
                    for c in line { if c == "\"" { quoted.toggle() } else if c == ",", !quoted { fields += 1 } }
                    #expect(fields + 1 == 21, "\(line)")
                }
            } else {
                let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
                let paths = ((first["entities"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
                #expect(paths == [HostileStrings.formula + HostileStrings.forgedAnnotation, HostileStrings.combined])
            }
        }
    }

    // MARK: Saved reports (item 5)

    /// A saved report written by hand, every string in it hostile; `help` is a script URL. With
    /// `foldedGroup`, a second violation like the first and three of their rule left out
    /// (`omittedViolations`): the two fold into one group whose summary names the rule and counts.
    static func hostileReport(help: String = HostileStrings.javascriptURL, foldedGroup: Bool = false) -> String {
        let h = jsonQuoted(HostileStrings.combined)
        let second = !foldedGroup ? "" : """
            ,
                {"rule": \(h), "severity": "error", "entities": [\(h), \(jsonQuoted(HostileStrings.mention))],
                 "spans": [[0, 89]], "frameCount": 90, "firstTime": 0, "lastTime": 0.99, "measured": 1.5, "threshold": 2,
                 "unit": \(h), "worstFrame": 3, "message": \(h), "help": \(jsonQuoted(help)), "fingerprint": "second",
                 "location": {"line": 4, "column": 5}}
            """
        let omitted = foldedGroup ? "\"omittedViolations\": [{\"rule\": \(h), \"severity\": \"error\", \"count\": 3}]," : ""
        return """
            {"format": "spatialcheck-report/1", "tool": {"name": "spatialcheck", "version": \(h)},
             "settings": {"pointAngle": 0.0671, "failOn": "error", "configurationChanges": [\(h)]},
             "scenes": [
              {"path": \(jsonQuoted("scenes/" + HostileStrings.combined + ".scene.yaml")), "name": \(h), "status": "checked",
               "frameRate": 90, "frames": 90, "duration": 1,
               "violations": [{"rule": \(h), "severity": "error", "entities": [\(h), \(jsonQuoted(HostileStrings.mention))],
                 "spans": [[0, 89]], "frameCount": 90, "firstTime": 0, "lastTime": 0.99, "measured": 1, "threshold": 2,
                 "unit": \(h), "worstFrame": 3, "message": \(h), "help": \(jsonQuoted(help)), "fingerprint": \(h),
                 "location": {"line": 3, "column": 5}}\(second)],
               "warnings": [{"message": \(h), "hint": \(h)}], \(omitted)
               "rulesChecked": [\(h)], "platform": \(h),
               "ignored": [{"rule": \(h), "entity": \(h), "count": 3, "location": {"line": 2, "column": 5}}]},
              {"path": \(jsonQuoted(HostileStrings.forgedAnnotation)), "status": "error",
               "errors": [{"message": \(h), "file": \(h), "hint": \(h), "location": {"line": 1, "column": 1}}]}]}
            """
    }

    @Test func savedReportsAreEscapedInEveryFormat() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.hostileReport(foldedGroup: true).write(toFile: dir + "/hostile.json", atomically: true, encoding: .utf8)
        for format in ReportFormat.allCases {
            var options = SpatialCheck.ReportOptions()
            options.format = format
            let r = SpatialCheck.report(paths: [dir + "/hostile.json"], options: options)
            #expect(r.diagnostics.isEmpty, "\(r.diagnostics.map(\.description))")
            #expect(r.exitCode == .loadError)
            Self.check(r.output, "report --format \(format)", markup: Self.markupFormats.contains(format),
                       githubCommands: format == .github, visible: Self.visibleForms(format))
            // The one-line formats escape the saved rule id too; in a workflow command the forged
            // annotation stays percent-encoded inside the message and the `file=` property.
            if format == .xcode { #expect(r.output.contains("[\\u{1B}[2J\\u{1B}[Hcleared "), "\(r.output)") }
            if format == .github {
                #expect(r.output.contains("ok%0A::error file=x::forged"), "\(r.output)")
                #expect(r.output.contains("::error file=ok%0A%3A%3Aerror file=x%3A%3Aforged,line=1,col=1,title=load-error::"), "\(r.output)")
            }
            // The lines a saved report's `ignored` and `configurationChanges` give (hostile here) are
            // printed, escaped as everything else, where each format prints them.
            if [.text, .markdown, .html, .junit, .sarif].contains(format) {
                #expect(r.output.contains("3 violations ignored by the configuration: "), "\(format)")
            }
            if [.text, .markdown, .html].contains(format) {
                #expect(r.output.contains("the configuration changes 1 default of the rule catalog: "), "\(format)")
                // The folded group of the two violations says how many of its (hostile) rule the
                // scene has: the rule id is escaped with the rest of the summary.
                #expect(r.output.contains(" not listed: --max-violations)"), "\(format)")
            }
            // `help: javascript:…` is never a link.
            #expect(!r.output.lowercased().contains("href=\"javascript"), "\(format)")
            #expect(!r.output.lowercased().contains("](javascript"), "\(format)")
        }
        // Markdown: the mention is broken, ids are not linked, the only links go to Apple.
        var options = SpatialCheck.ReportOptions()
        options.format = .markdown
        let md = SpatialCheck.report(paths: [dir + "/hostile.json"], options: options).output
        // Outside code spans (where GitHub mentions and links nothing) no mention survives.
        let outsideCode = md.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined()
        #expect(!outsideCode.contains("@octocat"))
        // Every Markdown link (`](` not escaped) goes to Apple's documentation; here there is none.
        var links = 0
        var rest = Substring(md)
        while let r = rest.range(of: "](") {
            if r.lowerBound == rest.startIndex || rest[rest.index(before: r.lowerBound)] != "\\" {
                links += 1
                #expect(rest[r.upperBound...].hasPrefix("https://developer.apple.com/"), "\(rest[r.lowerBound...].prefix(60))")
            }
            rest = rest[r.upperBound...]
        }
        #expect(links == 0)
        // The report's own `report` summary (text) escapes its by-scene/by-entity table too.
        options.format = .text
        Self.check(SpatialCheck.report(paths: [dir + "/hostile.json"], options: options).output, "summary", markup: false)
    }

    @Test func aHelpLinkIsAnHrefOnlyWhenItIsHttps() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func html(_ help: String) throws -> String {
            try Self.hostileReport(help: help).write(toFile: dir + "/r.json", atomically: true, encoding: .utf8)
            var options = SpatialCheck.ReportOptions()
            options.format = .html
            return SpatialCheck.report(paths: [dir + "/r.json"], options: options).output
        }
        func hrefs(_ page: String) -> [String] {
            page.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
                .filter { !$0.hasPrefix("#") }
        }
        #expect(hrefs(try html("javascript:alert(1)")).isEmpty)
        #expect(hrefs(try html("JAVASCRIPT:alert(1)")).isEmpty)
        #expect(hrefs(try html("data:text/html,<script>alert(1)</script>")).isEmpty)
        #expect(hrefs(try html("http://example.com/")).isEmpty)
        #expect(hrefs(try html("https://example.com/a\"onmouseover=\"alert(1)")) == ["https://example.com/a%22onmouseover=%22alert%281%29"])
        #expect(hrefs(try html("https://developer.apple.com/design/")) == ["https://developer.apple.com/design/"])
    }

    @Test func valuesThatStartALineCannotBeCICommands() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A saved report whose paths, rule, entity, message and hints are workflow commands.
        try """
            {"format": "spatialcheck-report/1", "settings": {"failOn": "error"},
             "scenes": [{"path": "::error file=a::forged.scene.yaml", "status": "checked", "frameRate": 90, "frames": 90,
               "duration": 1, "warnings": [{"message": "::notice::w"}],
               "violations": [{"rule": "::warning::rule", "severity": "error", "entities": ["##[error]entity"], "measured": 1,
                 "threshold": 2, "message": "::error file=x::forged", "help": "##vso[task.setvariable variable=x]1", "spans": [[0, 1]]}]},
              {"path": "##[error]p.scene.yaml", "status": "error",
               "errors": [{"message": "::error::m", "hint": "::error::h", "file": "::error::f"}]}]}
            """.write(toFile: dir + "/r.json", atomically: true, encoding: .utf8)
        for format in ReportFormat.allCases {
            var options = SpatialCheck.ReportOptions()
            options.format = format
            let r = SpatialCheck.report(paths: [dir + "/r.json"], options: options)
            Self.check(r.output, "report --format \(format)", markup: Self.markupFormats.contains(format),
                       githubCommands: format == .github)
        }
        // A scene file named like a command, found by a directory search and named directly.
        try "format: spatialscene/1\nentities:\n  - {id: w, kind: window}\n"
            .write(toFile: dir + "/::error file=x::forged.scene.yaml", atomically: true, encoding: .utf8)
        for args in [["validate", "."], ["validate", "::error file=x::forged.scene.yaml"], ["inspect", "::error file=x::forged.scene.yaml"],
                     ["validate", "::error file=x::missing.scene.yaml"], ["inspect", "::error file=x::missing.scene.yaml"]] {
            let r = try CLIHarness.run(args, cwd: dir)
            Self.check(r.stdout + r.stderr, "\(args)", markup: false)
            #expect((r.stdout + r.stderr).contains("\\u{3A}:error file=x::"), "\(args): \(r.stdout) \(r.stderr)")
        }
    }

    @Test func aHostileBaselineIsEscapedToo() throws {
        let dir = try Self.hostileProject()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The baseline's scene is the checked one, so its violation is "fixed" and listed.
        let baseline = Self.hostileReport().replacingOccurrences(
            of: jsonQuoted("scenes/" + HostileStrings.combined + ".scene.yaml"), with: "\"hostile.scene.yaml\"")
        try baseline.write(toFile: dir + "/baseline.json", atomically: true, encoding: .utf8)
        for format in ["text", "json", "markdown", "html", "junit", "sarif"] {
            let r = try CLIHarness.run(["validate", "hostile.scene.yaml", "--baseline", "baseline.json", "--format", format], cwd: dir)
            #expect(r.status != 2, "\(format): \(r.stderr)")
            Self.check(r.stdout + r.stderr, "validate --baseline --format \(format)", markup: ["markdown", "html", "junit"].contains(format))
        }
        let json = try CLIHarness.run(["validate", "hostile.scene.yaml", "--baseline", "baseline.json", "--format", "json"], cwd: dir)
        #expect(json.stdout.contains("\"fixed\": 1"), "\(json.stdout)")
    }
}
