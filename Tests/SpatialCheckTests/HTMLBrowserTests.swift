import Testing
import Foundation
import SpatialCheck
import Reporting

/// The HTML report in a real browser (issue 5): `Tools/check-html` opens it in headless Chromium,
/// screenshots it, and checks that it renders without console messages and that every picture is
/// drawn. Skipped when Chromium is missing, unless SPATIALCHECK_REQUIRE_TOOLS=1.
@Suite struct HTMLBrowserTests {
    @Test(arguments: ["Scenes/media-player.scene.yaml", "Scenes/rules/boundary-head-exit/fail.scene.yaml",
                      "Scenes/calculator-keypad-tight.scene.yaml", "Scenes/immersive-walk-boundary.scene.yaml"])
    func reportRendersWithPictures(scene: String) throws {
        guard haveChromium() else { return }
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        let run = SpatialCheck.runValidation(paths: [TestPaths.repo(scene)], options: options)
        let violations = run.report.scenes.reduce(0) { $0 + $1.violations.count }
        #expect(violations > 0, "the example should have violations to draw")
        let html = SpatialCheck.render(run, format: .html)
        let dir = try HeadlessChromium.tempDir("html")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try html.write(toFile: dir + "/report.html", atomically: true, encoding: .utf8)
        // The plan, the timeline, and the view of each card (folded findings share one card).
        let cards = run.report.scenes.reduce(0) { $0 + foldViolations($1.violations).count }
        let r = checkHTML(dir + "/report.html", dir + "/report.png", minPictures: 2 + cards)
        #expect(r.status == 0, "Tools/check-html failed for \(scene):\n\(r.output)")
        #expect(FileManager.default.fileExists(atPath: dir + "/report.png"))
    }

    /// The banner, the plan, a view and the timeline are screenshotted separately and each has ink
    /// (a picture of the page without its script is checked by check-html itself).
    @Test func bannerPlanViewAndTimelineScreenshotsAreNotBlank() throws {
        guard haveChromium() else { return }
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        let run = SpatialCheck.runValidation(paths: [TestPaths.repo("Scenes/immersive-walk-boundary.scene.yaml")], options: options)
        let dir = try HeadlessChromium.tempDir("html")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try SpatialCheck.render(run, format: .html).write(toFile: dir + "/report.html", atomically: true, encoding: .utf8)
        let r = checkHTML(dir + "/report.html", dir + "/report.png", minPictures: 3, savePictures: dir)
        #expect(r.status == 0, "\(r.output)")
        for name in ["banner", "plan", "view", "timeline"] {
            let data = FileManager.default.contents(atPath: dir + "/\(name).png") ?? Data()
            // A PNG, and more than a blank image compresses to.
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name).png")
            #expect(data.count > 2000, "\(name).png is \(data.count) bytes")
        }
    }

    /// The checker itself catches a page with a script error, an external image and no pictures.
    @Test func checkerRejectsABrokenPage() throws {
        guard haveChromium() else { return }
        let dir = try HeadlessChromium.tempDir("html")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            <!DOCTYPE html><html><body><p>x</p><script>console.error("boom"); missing();</script><script src="x.js"></script>
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="5" height="5" fill="#fff"/></svg>
            </body></html>
            """.write(toFile: dir + "/bad.html", atomically: true, encoding: .utf8)
        let r = checkHTML(dir + "/bad.html", dir + "/bad.png", minPictures: 1)
        #expect(r.status == 1)
        #expect(r.output.contains("console: \"boom\""))
        #expect(r.output.contains("Uncaught ReferenceError"))
        #expect(r.output.contains("loads 'x.js'"))
        #expect(r.output.contains("is blank"))
    }
}

private func haveChromium() -> Bool { HeadlessChromium.available(pythonModules: "zlib, struct, html.parser") }

private func checkHTML(_ report: String, _ png: String, minPictures: Int, savePictures: String? = nil) -> (status: Int32, output: String) {
    HeadlessChromium.runChecker("check-html", [report, png, "--min-pictures", String(minPictures)]
        + (savePictures.map { ["--save-pictures", $0] } ?? []))
}
