// `swift package spatialcheck [PATHS...] [OPTIONS]`: builds and runs the `spatialcheck` tool on the
// package's scene files (*.scene.yaml, *.scene.yml, *.scene.json, searched from the package folder;
// hidden folders and .build are skipped) or on the given paths, and prints one xcode-format
// diagnostic per violation (`path:line:col: error: message [rule-id]`). Fails (non-zero exit) when
// the check fails: a violation at or above --fail-on, or a scene that could not be loaded.
//
// Options passed on to `spatialcheck validate`: --fail-on, --baseline, --config, --root, --format,
// --jobs, --max-violations (each with a value) and --allow-external-assets, --expand, --quiet.
import Foundation
import PackagePlugin

@main
struct SpatialCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // The tool is built through the package manager rather than declared as the plugin's
        // dependency: SwiftPM cannot yet give a plugin an executable target that a product of the
        // same package also uses ("no product named 'SpatialCheckCLI'",
        // swiftlang/swift-package-manager#8831).
        let result = try packageManager.build(.product("spatialcheck"), parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded, let tool = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "spatialcheck" }) else {
            throw SpatialCheckRun.Failed("could not build the spatialcheck tool:\n" + result.logText)
        }
        try SpatialCheckRun.run(tool: tool.url, directory: context.package.directoryURL, arguments: arguments)
    }
}

enum SpatialCheckRun {
    /// Options that take a value, and flags, passed on to `validate` unchanged.
    static let valueOptions = ["fail-on", "baseline", "config", "root", "format", "jobs", "max-violations"]
    static let flags = ["allow-external-assets", "expand", "quiet"]

    struct Failed: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
        init(status: Int32) {
            description = status == 1 ? "spatialcheck found violations at or above --fail-on (exit 1)"
                : "spatialcheck could not check every scene, or was given bad arguments (exit \(status))"
        }
    }

    static func run(tool: URL, directory: URL, arguments: [String]) throws {
        var extractor = ArgumentExtractor(arguments)
        var passed: [String] = []
        var format = "xcode"
        for name in valueOptions {
            for value in extractor.extractOption(named: name) {
                if name == "format" { format = value } else { passed += ["--\(name)", value] }
            }
        }
        for name in flags where extractor.extractFlag(named: name) > 0 { passed.append("--\(name)") }
        let given = extractor.remainingArguments
        // Relative paths are the package's (swift package runs plugins from the package folder).
        let paths = given.isEmpty ? [directory.path] : given.map { $0.hasPrefix("/") ? $0 : directory.appendingPathComponent($0).path }

        let process = Process()
        process.executableURL = tool
        process.arguments = ["validate", "--format", format, "--no-color"] + passed + paths
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { throw Failed(status: process.terminationStatus) }
    }
}
