import Testing
import Foundation
import SpatialCheck

/// The HTML report's 3D replay in a real browser (issue 18): `Tools/check-replay` opens the page in
/// headless Chromium with software WebGL and checks that it runs without console messages, draws,
/// and colours each violation's entities in their severity at the worst frame, and that without
/// JavaScript the replay stays hidden behind the static pictures. Skipped when Chromium is
/// missing, unless SPATIALCHECK_REQUIRE_TOOLS=1.
@Suite struct HTMLReplayBrowserTests {
    /// The fox crosses behind the field guide's buttons for about 3.5 s of 12 (its scene comment):
    /// at frame 0 the fox has no finding, at the worst frame it is drawn in the error colour.
    @Test func slidingToTheWorstFrameColoursTheEntity() throws {
        guard replayBrowserAvailable() else { return }
        let dir = try HeadlessChromium.tempDir("replay")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = try writeReport(["Scenes/fox-walks-past-ui.scene.yaml", "Scenes/media-player.scene.yaml"], to: dir + "/report.html")
        #expect(page.contains("class=\"replay\""))
        let r = checkReplay(dir + "/report.html", ["--expect-change", "--screenshot", dir + "/replay.png"])
        #expect(r.status == 0, "Tools/check-replay failed:\n\(r.output)")
        // The fox: no colour of a finding before it reaches the buttons, the error colour at the worst frame.
        #expect(r.output.contains("fox-path/fox (eye): #c0261b") || r.output.contains("fox-path/fox (orbit): #c0261b"), "\(r.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/replay.png"))
    }

    /// The checker fails a page whose replay lost its severities (the fox is not coloured) and one
    /// whose script is broken (no replay shown, a console error).
    @Test func checkerRejectsAWrongReplay() throws {
        guard replayBrowserAvailable() else { return }
        let dir = try HeadlessChromium.tempDir("replay")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = try writeReport(["Scenes/fox-walks-past-ui.scene.yaml"], to: dir + "/good.html")
        let noSeverity = page.replacingOccurrences(of: #""sev":\[[^\]]*(\][^\]]*)*?\],"ssev""#, with: #""sev":[],"ssev""#,
                                                   options: .regularExpression)
        #expect(noSeverity != page)
        try noSeverity.write(toFile: dir + "/nosev.html", atomically: true, encoding: .utf8)
        let a = checkReplay(dir + "/nosev.html", [])
        #expect(a.status == 1)
        #expect(a.output.contains("no severity at the card's worst frame"), "\(a.output)")
        let broken = page.replacingOccurrences(of: "(function(){\"use strict\";", with: "(function(){\"use strict\";missing();")
        try broken.write(toFile: dir + "/broken.html", atomically: true, encoding: .utf8)
        let b = checkReplay(dir + "/broken.html", [])
        #expect(b.status == 1)
        #expect(b.output.contains("console: "), "\(b.output)")
        #expect(b.output.contains("is not ready"), "\(b.output)")
    }
}

private func writeReport(_ scenes: [String], to path: String) throws -> String {
    var options = SpatialCheck.ValidateOptions()
    options.format = .html
    options.replay = true
    let run = SpatialCheck.runValidation(paths: scenes.map { TestPaths.repo($0) }, options: options)
    let html = SpatialCheck.render(run, format: .html)
    try html.write(toFile: path, atomically: true, encoding: .utf8)
    return html
}

private func replayBrowserAvailable() -> Bool { HeadlessChromium.available(pythonModules: "zlib, struct, json") }

private func checkReplay(_ report: String, _ args: [String]) -> (status: Int32, output: String) {
    HeadlessChromium.runChecker("check-replay", [report] + args)
}
