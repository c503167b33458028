import Testing
import Foundation
import Rules

/// docs/rules.md is generated from the rule catalog; these tests keep it from drifting.
@Suite struct DocsTests {
    private static let regenerate = "Tools/gen-rule-docs"

    @Test func ruleReferenceMatchesTheCatalog() throws {
        let path = TestPaths.repo("docs/rules.md")
        let onDisk = try String(contentsOfFile: path, encoding: .utf8)
        let generated = RuleCatalog.renderMarkdown()
        guard onDisk != generated else { return }
        let a = onDisk.split(separator: "\n", omittingEmptySubsequences: false)
        let b = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let was = i < a.count ? String(a[i]) : "<end of file>"
        let now = i < b.count ? String(b[i]) : "<end of file>"
        Issue.record("""
            docs/rules.md is out of date with the rule catalog; run `\(Self.regenerate)` and commit the result.
            first difference at line \(i + 1):
              docs/rules.md: \(was)
              generated:     \(now)
            """)
    }

    @Test func ruleReferenceCoversEveryRuleAndItsExamplesExist() {
        let md = RuleCatalog.renderMarkdown()
        for m in RuleCatalog.rules {
            #expect(md.contains("### `\(m.id)`: \(m.name)"), "no section for \(m.id)")
            for example in [m.failExample, m.passExample] {
                #expect(md.contains("](../\(example))"), "no link to \(example)")
                #expect(FileManager.default.fileExists(atPath: TestPaths.repo(example)), "\(example) is missing")
            }
            for c in m.citations { #expect(md.contains("(\(c.url))"), "\(m.id): no link to \(c.url)") }
            for p in m.parameters { #expect(md.contains("`\(p.key)`"), "\(m.id): parameter \(p.key) not documented") }
        }
        for u in RuleCatalog.notChecked { #expect(md.contains("| `\(u.id)` |")) }
        for item in RuleCatalog.manualReview { #expect(md.contains("| `\(item.id)` |")) }
    }

    /// Every relative link in the hand-written docs points at a file that exists.
    @Test func relativeLinksInDocsResolve() throws {
        let docs = TestPaths.repo("docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }
        let link = try Regex(#"\]\(([^)#:\s]+)(#[^)]*)?\)"#)
        for f in files {
            let text = try String(contentsOfFile: docs + "/" + f, encoding: .utf8)
            for match in text.matches(of: link) {
                guard let target = match.output[1].substring.map(String.init) else { continue }
                let resolved = URL(fileURLWithPath: docs).appendingPathComponent(target).standardized.path
                #expect(FileManager.default.fileExists(atPath: resolved), "docs/\(f) links to \(target), which does not exist")
            }
        }
    }

    /// The example outputs in docs/reports.md are what the tool prints now.
    @Test func reportExamplesAreCurrent() throws {
        guard let bin = docsBinary, havePython() else { return }
        let r = runTool(["python3", TestPaths.repo("Tools/gen-report-docs"), "--check", "--bin", bin])
        #expect(r.status == 0, "\(r.output)\nrun `Tools/gen-report-docs` and commit docs/reports.md")
    }

    /// The CI examples of docs/ci.md, run locally: workflow steps, GitLab job, pre-commit hook.
    @Test func ciExamplesBehaveAsDocumented() throws {
        guard let bin = docsBinary, havePython() else { return }
        let r = runTool(["python3", TestPaths.repo("Tools/try-ci-docs"), "--no-install", "--bin", bin])
        #expect(r.status == 0, "Tools/try-ci-docs failed:\n\(r.output)")
        #expect(r.output.contains("all CI examples behaved as documented"))
    }
}

/// The built `spatialcheck`: SPATIALCHECK_BIN, else next to the test bundle, else .build/debug.
private let docsBinary: String? = {
    if let env = ProcessInfo.processInfo.environment["SPATIALCHECK_BIN"], !env.isEmpty { return env }
    var dirs: [URL] = []
    if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
    dirs.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    dirs.append(TestPaths.repoRoot.appendingPathComponent(".build/debug"))
    let found = dirs.map { $0.appendingPathComponent("spatialcheck").path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    if found == nil { Issue.record("the spatialcheck executable was not found next to the tests; set SPATIALCHECK_BIN") }
    return found
}()

private func havePython() -> Bool {
    let ok = ExternalTool.python("import sys")?.status == 0
    if !ok && ProcessInfo.processInfo.environment["SPATIALCHECK_REQUIRE_TOOLS"] == "1" {
        Issue.record("SPATIALCHECK_REQUIRE_TOOLS=1 but python3 is missing")
    }
    return ok
}

private func runTool(_ args: [String]) -> (status: Int32, output: String) {
    ExternalTool.run(args, in: TestPaths.repoRoot)
}
