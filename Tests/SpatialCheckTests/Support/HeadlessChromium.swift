import Foundation
import Testing

/// What the browser tests share: finding headless Chromium, running a checker script of Tools/
/// that drives it, and a scratch folder for the pages and screenshots.
enum HeadlessChromium {
    /// True when a Chromium is on PATH (or CHROMIUM names one) and python3 can import
    /// `pythonModules` (the checker's imports, comma-separated). A missing Chromium fails the test
    /// instead of skipping it when SPATIALCHECK_REQUIRE_TOOLS=1.
    static func available(pythonModules: String) -> Bool {
        let env = ProcessInfo.processInfo.environment
        let path = (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell"]
        let found = env["CHROMIUM"].map { FileManager.default.isExecutableFile(atPath: $0) }
            ?? names.contains { n in path.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + n) } }
        if !found && env["SPATIALCHECK_REQUIRE_TOOLS"] == "1" {
            Issue.record("SPATIALCHECK_REQUIRE_TOOLS=1 but Chromium is missing (apt-get install chromium, or set CHROMIUM)")
        }
        return found && ExternalTool.python("import \(pythonModules)")?.status == 0
    }

    /// Runs `python3 Tools/<tool> args…`; returns its exit status and its output (stdout and
    /// stderr together).
    static func runChecker(_ tool: String, _ args: [String]) -> (status: Int32, output: String) {
        ExternalTool.run(["python3", TestPaths.repo("Tools/" + tool)] + args)
    }

    /// A new empty folder `spatialcheck-<prefix>-<UUID>` in the temporary directory.
    static func tempDir(_ prefix: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
