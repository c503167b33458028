import Foundation
import Testing
import SpatialModel
@testable import Reporting

/// The Markdown comment's 65,536-character limit with long, hostile entity ids: the first scene
/// that does not fit whole keeps as many of its first rows as fit and says how many violations it
/// leaves out (the session-17 trial's one-scene comment named no finding at all).
@Suite struct MarkdownCommentLimitTests {
    /// A window id of ~1.2 KB that tries markup, a link, a control sequence and another script.
    static let hostileWindow = "<script>alert(1)</script>](javascript:alert(1))\u{1B}[2J@here#12"
        + String(repeating: "\u{1D400}", count: 280)

    /// `count` violations of one scene, each of two buttons; `perWindow` of them share a window
    /// (and so fold into one row).
    static func scene(_ path: String, count: Int, perWindow: Int) -> SceneReport {
        let violations = (0..<count).map { k -> ReportViolation in
            let w = "\(hostileWindow)-\(k / perWindow)"
            let a = "\(w)/b\(k)", b = "\(w)/c\(k)"
            return ReportViolation(rule: "target-center-spacing", severity: .error, entities: [a, b], spans: [0...9], frameCount: 10,
                                   firstTime: 0, lastTime: 0.1, measured: 44, threshold: 60, unit: "pt", worstFrame: 0,
                                   message: "centres of \(a) and \(b) are 44 pt apart", help: "", fingerprint: String(k),
                                   location: SourceLocation(line: k + 1, column: 1))
        }
        return SceneReport(path: path, status: .checked, frameRate: 90, frames: 10, duration: 0.1, violations: violations)
    }

    static func report(_ scenes: [SceneReport]) -> Report {
        Report(toolVersion: "t", pointAngle: 0.0671, failOn: .error, scenes: scenes)
    }

    /// The table rows of a scene section (one per finding shown).
    static func rows(_ md: String) -> [Substring] {
        md.split(separator: "\n").filter { $0.hasPrefix("| error |") }
    }

    @Test func theOnlySceneKeepsItsFirstRows() throws {
        let md = Self.report([Self.scene("a.scene.yaml", count: 300, perWindow: 1)]).markdown()
        #expect(md.utf8.count <= 65_536)
        #expect(md.contains("\n### `a.scene.yaml`\n"))
        let shown = Self.rows(md).count
        #expect(shown > 0 && shown < 300)
        // The rows shown are the first ones, in order, each with its line under "What to change".
        let lines = md.split(separator: "\n").map(String.init)
        for k in 0..<shown { #expect(lines.contains { $0.hasPrefix("| error |") && $0.hasSuffix("| \(k + 1) |") }, "row \(k)") }
        #expect(md.split(separator: "\n").filter { $0.hasPrefix("- `target-center-spacing`") }.count == shown)
        #expect(md.contains("\n_\(300 - shown) more violations of this scene left out to stay under the 65536-character limit of a comment; the job's text, JSON or HTML report lists them._\n"))
        let note = try #require(md.split(separator: "\n").last)
        #expect(note == "_Left out to stay under the 65536-character limit of a comment: \(300 - shown) violations of the last scene shown. The full list is in the job's text, JSON or HTML report._")
        // Nothing from the ids became markup, a link, a mention or a control sequence.
        // (`]` is backslash-escaped, so no `](` ends a link text.)
        #expect(!md.contains("<script>") && !md.contains("\u{1B}") && !md.contains("@here"))
        #expect(md.contains("\\](javascript:") && !md.replacingOccurrences(of: "\\]", with: "").contains("]("))
        // A report that fits is the same as before: whole sections, no note.
        let small = Self.report([Self.scene("a.scene.yaml", count: 3, perWindow: 1)])
        #expect(Self.rows(small.markdown()).count == 3 && !small.markdown().contains("Left out"))
    }

    @Test func foldedRowsAreCountedAndLaterScenesLeftOut() throws {
        // 30 rows of 10 violations each, then a second scene of 5: the first rows are shown, the
        // last of them with as much of its list as fits.
        let md = Self.report([Self.scene("a.scene.yaml", count: 300, perWindow: 10), Self.scene("b.scene.yaml", count: 5, perWindow: 1)])
            .markdown(limit: 40_000)
        #expect(md.utf8.count <= 40_000)
        #expect(Self.rows(md).count > 0 && Self.rows(md).count < 30)
        // The violations listed under the folded rows (a cut list ends with "… and N more").
        let members = md.split(separator: "\n").filter { $0.hasPrefix("- ") && $0.contains(", frames 0–9, line ") }.count
        #expect(members > 0 && members < 300)
        let cut = Self.rows(md).count * 10 - members
        #expect(cut == 0 ? !md.contains("- … and") : md.contains("\n- … and \(cut) more, left out to stay under the limit\n"))
        #expect(md.contains("\n_\(300 - members) more violations of this scene left out to stay under the 40000-character limit of a comment;"))
        #expect(!md.contains("### `b.scene.yaml`"))
        #expect(md.hasSuffix("_Left out to stay under the 40000-character limit of a comment: \(300 - members) violations of the last scene shown and the details of 1 scene (5 violations). The full list is in the job's text, JSON or HTML report._\n"))
    }

    /// A scene that could not be loaded, with `listed` errors on lines 4, 5, … (column 20), and
    /// the loader's last error counting `unlisted` more when there are any.
    static func failedScene(_ path: String, listed: Int, unlisted: Int = 0) -> SceneReport {
        var errors = (0..<listed).map { k in
            Diagnostic(file: path, location: SourceLocation(line: k + 4, column: 20),
                       message: "'kind' of an entity expects one of 'window', 'group', found '<b>w*\(k)</b>'",
                       hint: "use one of the kinds listed")
        }
        if unlisted > 0 {
            errors.append(Diagnostic(file: path, location: SourceLocation(line: listed + 4, column: 20),
                                     message: "\(unlisted) more errors in this file not listed (only the first \(listed) are)",
                                     hint: "fix the errors listed above, then check the file again to see the rest"))
        }
        return SceneReport(path: path, status: .error, errors: errors)
    }

    /// The load-error lines of a scene section.
    static func loadErrors(_ md: String) -> [Substring] {
        md.split(separator: "\n").filter { $0.hasPrefix("- **load error** ") }
    }

    /// A scene that could not be loaded, with more errors than fit, shows its first errors in file
    /// order (trial s34 F9: the comment showed none, "the details of 1 scene (0 violations)"), and
    /// counts the rest with those the loader itself counted (3,000 errors: 1,000 listed, 2,000 counted).
    @Test func aSceneThatCouldNotBeLoadedShowsItsFirstErrors() throws {
        let report = Self.report([Self.failedScene("bad.scene.yaml", listed: 1_000, unlisted: 2_000)])
        let md = report.markdown()
        #expect(md.utf8.count <= 65_536)
        #expect(md == report.markdown())
        #expect(md.contains("\n### `bad.scene.yaml`\n"))
        let shown = Self.loadErrors(md)
        #expect(shown.count >= 3 && shown.count < 1_000)
        // Escaped as the format escapes messages: no HTML, no emphasis.
        for (k, line) in shown.enumerated() {
            #expect(line == "- **load error** `bad.scene.yaml:\(k + 4):20`: 'kind' of an entity expects one of 'window', 'group', found '&lt;b&gt;w\\*\(k)&lt;/b&gt;' — use one of the kinds listed", "error \(k)")
        }
        let rest = 3_000 - shown.count
        #expect(md.contains("\n_\(rest) more errors of this scene left out to stay under the 65536-character limit of a comment; the job's text, JSON or HTML report lists the first 1000._\n"))
        let note = try #require(md.split(separator: "\n").last)
        #expect(note == "_Left out to stay under the 65536-character limit of a comment: \(rest) errors of 1 scene that could not be loaded. The full list is in the job's text, JSON or HTML report._")
        #expect(!md.contains("the details of"))
        // Without a count from the loader, the rest are the errors the report lists.
        let fewer = Self.report([Self.failedScene("bad.scene.yaml", listed: 900)]).markdown()
        let n = 900 - Self.loadErrors(fewer).count
        #expect(n > 0 && fewer.contains("\n_\(n) more errors of this scene left out to stay under the 65536-character limit of a comment; the job's text, JSON or HTML report lists them._\n"))
        // Errors that fit are all shown, with no note.
        let small = Self.report([Self.failedScene("bad.scene.yaml", listed: 5)]).markdown()
        #expect(Self.loadErrors(small).count == 5 && !small.contains("left out"))
    }

    /// A scene that could not be loaded, after a scene whose violations fill the comment, still
    /// shows its first three errors: room for them is kept; a later scene with violations is left out.
    @Test func aSceneThatCouldNotBeLoadedIsShownAfterOneThatFillsTheComment() throws {
        let md = Self.report([Self.scene("a.scene.yaml", count: 300, perWindow: 1),
                              Self.failedScene("b.scene.yaml", listed: 50),
                              Self.scene("c.scene.yaml", count: 5, perWindow: 1)]).markdown(limit: 40_000)
        #expect(md.utf8.count <= 40_000)
        let violations = Self.rows(md).count
        #expect(violations > 0 && violations < 300)
        #expect(md.contains("\n### `b.scene.yaml`\n") && !md.contains("### `c.scene.yaml`"))
        let shown = Self.loadErrors(md)
        #expect(shown.count >= 3 && shown.count < 50)
        #expect(shown.first == "- **load error** `b.scene.yaml:4:20`: 'kind' of an entity expects one of 'window', 'group', found '&lt;b&gt;w\\*0&lt;/b&gt;' — use one of the kinds listed")
        #expect(md.hasSuffix("_Left out to stay under the 40000-character limit of a comment: \(300 - violations) violations of the last scene shown and \(50 - shown.count) errors of 1 scene that could not be loaded and the details of 1 scene (5 violations). The full list is in the job's text, JSON or HTML report._\n"))
    }

    @Test func aSceneWhoseFirstRowDoesNotFitIsLeftOutWhole() {
        let md = Self.report([Self.scene("a.scene.yaml", count: 3, perWindow: 1)]).markdown(limit: 2_000)
        #expect(Self.rows(md).isEmpty && !md.contains("### "))
        #expect(md.contains("the details of 1 scene (3 violations)"))
    }
}
