import Foundation
import SpatialModel
import SceneLoader
import Reporting
import AssetImport

/// The library's front door: the operations the `spatialcheck` commands perform, usable from other
/// Swift code without the command-line layer. Each returns what to print and the exit code of the
/// contract (0 clean, 1 violations at or above --fail-on, 2 load errors or bad arguments).
public enum SpatialCheck {
    public static let version = "0.1.0"

    /// Exit codes of cli-and-report.md.
    public enum ExitCode: Int32, Sendable {
        case clean = 0
        case violations = 1
        case loadError = 2
    }

    /// What a command produced: the report for standard output (or --output), diagnostics for
    /// standard error, and the exit code.
    public struct Outcome: Sendable {
        public var output: String
        public var diagnostics: [Diagnostic]
        public var exitCode: ExitCode
        public init(output: String, diagnostics: [Diagnostic] = [], exitCode: ExitCode = .clean) {
            self.output = output; self.diagnostics = diagnostics; self.exitCode = exitCode
        }
    }

    /// Loads a scene file (`*.scene.yaml/yml/json`) or a bare 3D asset. With `isolation`, assets are
    /// imported in a worker process so that an importer crash, hang or runaway allocation becomes an
    /// error for that asset; without it they are imported in this process.
    public static func loadScene(path: String, options: LoadOptions = .init(),
                                 isolation: AssetImportIsolation? = nil) throws(LoadFailure) -> Scene {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadFailure([Diagnostic(file: path, message: "no such file",
                                          hint: "check the path; scene files end in .scene.yaml, .scene.yml or .scene.json")])
        }
        if isDirectory.boolValue {
            throw LoadFailure([Diagnostic(file: path, message: "is a directory, expected a scene file or a 3D asset",
                                          hint: "`spatialcheck validate DIR` searches a directory for scene files")])
        }
        let importer = AssetImporting.assimp(isolation: isolation)
        if SceneLoader.isSceneFile(path) { return try SceneLoader.load(path: path, options: options, importer: importer) }
        return try SceneLoader.loadBareAsset(path: path, options: options, importer: importer)
    }

    public enum InspectFormat: String, Sendable, CaseIterable { case text, json }

    /// `spatialcheck inspect PATH`: the loaded spatial model.
    public static func inspect(path: String, format: InspectFormat, options: LoadOptions = .init(),
                               isolation: AssetImportIsolation? = nil) -> Outcome {
        do {
            let scene = try loadScene(path: path, options: options, isolation: isolation)
            switch format {
            case .text: return Outcome(output: ModelDump.text(scene))  // warnings are part of the text
            case .json: return Outcome(output: ModelDump.json(scene).serialized(), diagnostics: scene.warnings)
            }
        } catch {
            return Outcome(output: "", diagnostics: error.diagnostics, exitCode: .loadError)
        }
    }

    /// One spelling per file, so that reports and fingerprints (rule + scene path + entities) match
    /// across runs however the path was typed: `./Scenes/a.scene.yaml`, `Scenes//a.scene.yaml` and
    /// `/repo/Scenes/a.scene.yaml` (run from /repo) all become `Scenes/a.scene.yaml`. Paths
    /// outside the current directory stay absolute.
    public static func normalizedPath(_ path: String, relativeTo cwd: String = FileManager.default.currentDirectoryPath) -> String {
        func clean(_ p: String) -> String {
            var parts: [Substring] = []
            for part in p.split(separator: "/", omittingEmptySubsequences: true) {
                if part == "." { continue }
                if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
                parts.append(part)
            }
            return "/" + parts.joined(separator: "/")
        }
        let standard = clean(path.hasPrefix("/") ? path : cwd + "/" + path)
        let base = clean(cwd)
        let prefix = base == "/" ? "/" : base + "/"
        return standard.hasPrefix(prefix) ? String(standard.dropFirst(prefix.count)) : standard
    }

    /// Expands the command line's paths: files as given, directories searched recursively for scene
    /// files (sorted, hidden folders and `.build` skipped). Found in a directory, a scene file whose
    /// name has control characters, or a symbolic link that leads outside the directory searched, is
    /// an error instead (unless `allowExternal`): a pull request must not make the tool read
    /// `/etc/...` through a link, nor forge output lines through a file name.
    public static func expandPaths(_ paths: [String], allowExternal: Bool = false) -> (files: [String], errors: [Diagnostic]) {
        var files: [String] = []
        var errors: [Diagnostic] = []
        let fm = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                errors.append(Diagnostic(file: path, message: "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else { files.append(normalizedPath(path)); continue }
            var found: [String] = []
            if let walker = fm.enumerator(atPath: path) {
                while let rel = walker.nextObject() as? String {
                    let name = (rel as NSString).lastPathComponent
                    if name.hasPrefix(".") || name == ".build" {
                        walker.skipDescendants()
                        continue
                    }
                    if SceneLoader.isSceneFile(rel) {
                        let full = path.hasSuffix("/") ? path + rel : path + "/" + rel
                        if rel.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                            let shown = String(String.UnicodeScalarView(full.unicodeScalars.map {
                                $0.properties.generalCategory == .control ? "?" : $0
                            }))
                            errors.append(Diagnostic(file: shown, message: "the file name contains control characters; it was not loaded",
                                                     hint: "rename the file"))
                            continue
                        }
                        if !allowExternal, let root = realPath(path), let target = realPath(full),
                           !(target == root || target.hasPrefix(root == "/" ? "/" : root + "/")) {
                            errors.append(Diagnostic(file: full, message: "is a symbolic link to a file outside \(path); it was not loaded",
                                                     hint: "pass --allow-external-assets to follow links out of the directory, or name the file directly"))
                            continue
                        }
                        found.append(normalizedPath(full))
                    }
                }
            }
            if found.isEmpty {
                errors.append(Diagnostic(file: path, message: "no scene files (*.scene.yaml, *.scene.yml, *.scene.json) found in this directory"))
            }
            files += found.sorted()
        }
        return (files, errors)
    }

    private static func realPath(_ p: String) -> String? {
        guard let c = realpath(p, nil) else { return nil }
        defer { free(c) }
        return String(cString: c)
    }
}
