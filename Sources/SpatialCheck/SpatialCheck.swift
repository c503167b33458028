import Foundation
import SpatialModel
import SceneLoader
import Reporting
import Rules
import AssetImport

/// The library's front door: the operations the `spatialcheck` commands perform, usable from other
/// Swift code without the command-line layer. Each returns what to print and the exit code of the
/// contract (0 clean, 1 violations at or above --fail-on, 2 load errors or bad arguments).
public enum SpatialCheck {
    public static let version = "0.1.0"

    /// `--version --verbose`: the version, and those of the libraries that decide what is read.
    public static func versionDescription() -> String {
        var out = "spatialcheck \(version)\n"
        out += "assimp \(AssetImporter.assimpVersion) (3D import)\n"
        if let usd = USDImporter.usdCoreVersion() {
            out += "usd-core \(usd) (USD import)\n"
        } else {
            out += "usd-core not found (USD import unavailable; install it with `\(USDImporter.installHint)`)\n"
        }
        #if os(Linux)
        out += "platform Linux\n"
        #else
        out += "platform macOS\n"
        #endif
        out += "report format \(Report.formatTag), scene format spatialscene/1\n"
        return out
    }

    /// Exit codes of cli-and-report.md.
    public enum ExitCode: Int32, Sendable {
        case clean = 0
        case violations = 1
        case loadError = 2
    }

    /// What a command produced: the report for standard output (or --output), diagnostics for
    /// standard error, and the exit code. `writesOutput` is false when the command could not
    /// produce its report at all (a bad configuration, an unreadable baseline or input report, a
    /// scene `inspect` could not load): then nothing goes to standard output and no --output file
    /// is created or overwritten, so that an empty report can never be saved as a baseline.
    /// A report is rendered when it is written (`write(to:)`), straight into the output's buffer,
    /// so that it is never held whole in memory (`output` renders it into a string instead).
    public struct Outcome: Sendable {
        /// The output as one string (a streamed report is rendered for it, each time it is read).
        public var output: String {
            get {
                switch body {
                case .text(let s): return s
                case .stream(let render):
                    let sink = ReportSink(inMemory: "output")
                    render(sink)
                    return String(decoding: sink.contents, as: UTF8.self)
                }
            }
            set { body = .text(newValue) }
        }
        public var diagnostics: [Diagnostic]
        public var exitCode: ExitCode
        public var writesOutput: Bool
        private var body: Body
        private enum Body: Sendable {
            case text(String)
            case stream(@Sendable (ReportSink) -> Void)
        }
        public init(output: String, diagnostics: [Diagnostic] = [], exitCode: ExitCode = .clean, writesOutput: Bool = true) {
            self.body = .text(output); self.diagnostics = diagnostics; self.exitCode = exitCode; self.writesOutput = writesOutput
        }
        /// An outcome whose output `render` writes to a sink when it is written out.
        public init(streaming render: @escaping @Sendable (ReportSink) -> Void, diagnostics: [Diagnostic] = [],
                    exitCode: ExitCode = .clean) {
            self.body = .stream(render); self.diagnostics = diagnostics; self.exitCode = exitCode; self.writesOutput = true
        }

        /// Writes the output to `sink` (rendering a streamed report as it goes); the caller
        /// finishes the sink.
        public func write(to sink: ReportSink) {
            switch body {
            case .text(let s): sink.write(s)
            case .stream(let render): render(sink)
            }
        }

        /// Writes the output to `path` (`ReportFile`: the whole report or, on an error, the file
        /// untouched), or to standard output when `path` is nil. Nothing is written when
        /// `writesOutput` is false. Throws a `Diagnostic` naming the path and the system's reason.
        public func writeOutput(to path: String?) throws {
            guard writesOutput else { return }
            if let path {
                try ReportFile.write(path: path) { write(to: $0) }
            } else {
                let sink = ReportSink(fileDescriptor: 1, path: "standard output")
                write(to: sink)
                try sink.finish()
            }
        }

        /// A command that stopped before producing output: diagnostics only, exit code 2.
        public static func failure(_ diagnostics: [Diagnostic]) -> Outcome {
            Outcome(output: "", diagnostics: diagnostics, exitCode: .loadError, writesOutput: false)
        }
    }

    /// The configuration a command runs with, and the load options that follow from it; shared by
    /// `validate`, `inspect`, `simulate` and `bench` so that they see a scene the same way.
    ///
    /// - The configuration is `configPath`, else `.spatialcheck.yaml` in `searchDirectory` (default:
    ///   the current directory) or its nearest parent, else the defaults.
    /// - Degrees per point: `load.pointAngle` (`--point-angle`), else the configuration's
    ///   `units.pointAngle`, else the scene's own `units.pointAngle`, else 0.0671. The result is
    ///   both the loader's override and the rules' `pointAngle`.
    /// `--root` as a confinement root (`LoadOptions.confinementRoot`): absolute, joined to the
    /// current directory when relative; nil without `--root`.
    public static func confinementRoot(_ root: String?) -> String? {
        root.map { ProjectRoot.absolute($0) }
    }

    public static func resolveSettings(configPath: String?, searchDirectory: String? = nil,
                                       load: LoadOptions) throws(LoadFailure) -> (configuration: RuleConfiguration, load: LoadOptions) {
        var configuration = RuleConfiguration.default
        // A found file is named relative to the current directory when it is inside it, as scenes are.
        let path = configPath ?? RuleConfiguration.find(startingAt: searchDirectory ?? FileManager.default.currentDirectoryPath)
            .map { normalizedPath($0) }
        if let path {
            do { configuration = try RuleConfiguration.load(path: path) } catch {
                throw (error as? LoadFailure) ?? LoadFailure([Diagnostic(file: path, message: "\(error)")])
            }
        }
        var load = load
        if let pa = load.pointAngle { configuration.pointAngle = pa } else { load.pointAngle = configuration.pointAngle }
        return (configuration, load)
    }

    /// Whether text output gets ANSI colour: only text to standard output, never with `--no-color`
    /// or NO_COLOR set to a non-empty value (https://no-color.org); then on a terminal, or when
    /// FORCE_COLOR is set to a non-empty value other than `0` (https://force-color.org; CI logs
    /// that render colour are not terminals). `validate` and `report` both decide with this.
    public static func useColor(format: ReportFormat, writingToFile: Bool, noColorFlag: Bool,
                                environment: [String: String], stdoutIsTerminal: Bool) -> Bool {
        guard format == .text, !writingToFile, !noColorFlag, (environment["NO_COLOR"] ?? "").isEmpty else { return false }
        let force = environment["FORCE_COLOR"] ?? ""
        return stdoutIsTerminal || (!force.isEmpty && force != "0")
    }

    /// Loads a scene file (`*.scene.yaml/yml/json`, or any `*.yaml/yml/json` named directly:
    /// `SceneLoader.isSceneFileByName`) or a bare 3D asset. With `isolation`, assets are
    /// imported in a worker process so that an importer crash, hang or runaway allocation becomes an
    /// error for that asset; without it they are imported in this process.
    public static func loadScene(path: String, options: LoadOptions = .init(),
                                 isolation: AssetImportIsolation? = nil) throws(LoadFailure) -> Scene {
        // By the path's bytes: a name that is not UTF-8 is found too (FileName).
        guard let status = FileName.status(path) else {
            throw LoadFailure([missingPath(path)])
        }
        if status.isDirectory, !USDImporter.isRKAssets(path) {
            throw LoadFailure([Diagnostic(file: path, message: "is a directory, expected a scene file or a 3D asset",
                                          hint: "`spatialcheck validate DIR` searches a directory for scene files")])
        }
        let importer = AssetImporting.assimp(isolation: isolation)
        if SceneLoader.isSceneFileByName(path) { return try SceneLoader.load(path: path, options: options, importer: importer) }
        return try SceneLoader.loadBareAsset(path: path, options: options, importer: importer)
    }

    public enum InspectFormat: String, Sendable, CaseIterable { case text, json }

    /// `spatialcheck inspect PATH`: the loaded spatial model. The configuration (`configPath`, else
    /// `.spatialcheck.yaml` found from `configSearchDirectory` or the current directory) sets
    /// degrees per point as in `validate` (`resolveSettings`).
    public static func inspect(path: String, format: InspectFormat, options: LoadOptions = .init(),
                               isolation: AssetImportIsolation? = nil,
                               configPath: String? = nil, configSearchDirectory: String? = nil) -> Outcome {
        do {
            let load = try resolveSettings(configPath: configPath, searchDirectory: configSearchDirectory, load: options).load
            var scene = try loadScene(path: path, options: load, isolation: isolation)
            // USD layers relative to the project root, as `validate` names them.
            scene.relocateUSDPrims(sceneReportPath: scenePaths(path, root: nil).report)
            switch format {
            case .text: return Outcome(output: ModelDump.text(scene))  // warnings are part of the text
            case .json: return Outcome(output: ModelDump.json(scene).serialized(), diagnostics: scene.warnings)
            }
        } catch {
            return .failure(error.diagnostics)
        }
    }

    /// The error for a command-line path that does not exist.
    static func missingPath(_ path: String) -> Diagnostic {
        Diagnostic(file: path, message: "no such file or directory",
                   hint: "check the spelling, and that a relative path starts from the current directory; give a scene file "
                       + "ending in .scene.yaml, .scene.yml or .scene.json, a 3D asset, or a directory of scene files")
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

    /// One input of a run, in report order: a scene file to check, or a path that cannot be checked
    /// (it does not exist, a directory without scene files, a file found in a directory whose name
    /// has control characters or that links outside the directory) with its error; the latter is
    /// reported as a scene with `status: error`.
    public enum Input: Sendable, Equatable {
        case scene(String)
        case error(path: String, Diagnostic)
    }

    /// Expands the command line's paths: files as given, directories searched recursively for scene
    /// files (sorted, hidden folders and `.build` skipped). Found in a directory, a scene file whose
    /// name has control characters, or a symbolic link whose real path is outside the project root
    /// of the directory searched (`ProjectRoot.find(for: DIR, fallback: DIR)`, the asset path
    /// policy's root) or inside a `.git` folder, is an error instead (unless `allowExternal`): a
    /// pull request must not make the tool read `/etc/...` through a link, nor forge output lines
    /// through a file name.
    public static func expandPaths(_ paths: [String], allowExternal: Bool = false) -> (files: [String], errors: [Diagnostic]) {
        var files: [String] = []
        var errors: [Diagnostic] = []
        for input in expandInputs(paths, allowExternal: allowExternal) {
            switch input {
            case .scene(let f): files.append(f)
            case .error(_, let d): errors.append(d)
            }
        }
        return (files, errors)
    }

    /// `expandPaths` in report order: each path's scenes (a directory's sorted) or errors, in the
    /// order the paths were given. Paths are normalised (`normalizedPath`) and kept as they are
    /// otherwise (every output escapes them); names that are not UTF-8 are found and opened by
    /// their bytes (`FileName`).
    /// `root` (`--root`, absolute) replaces the project root of each directory searched.
    public static func expandInputs(_ paths: [String], allowExternal: Bool = false, root: String? = nil) -> [Input] {
        var inputs: [Input] = []
        for path in paths {
            guard let status = FileName.status(path) else {
                let shown = normalizedPath(path)
                inputs.append(.error(path: shown, missingPath(shown)))
                continue
            }
            // A Reality Composer Pro `.rkassets` folder is one asset, not a folder to search.
            guard status.isDirectory, !USDImporter.isRKAssets(path) else { inputs.append(.scene(normalizedPath(path))); continue }
            var found: [(path: String, error: Diagnostic?)] = []
            let searchRoot = ProjectRoot.find(for: path, explicit: root, fallback: path)
            for full in sceneFiles(in: path) {
                let name = (full as NSString).lastPathComponent
                if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    let shown = normalizedPath(full)
                    found.append((shown, Diagnostic(
                        file: shown, message: "the file name contains control characters; it was not loaded",
                        hint: "rename the file")))
                    continue
                }
                // The asset path policy's rule: the real path must be inside the project root of
                // the directory searched and not in a .git folder.
                if !allowExternal, let target = FileName.realPath(full), !ProjectRoot.contains(target, root: searchRoot) {
                    found.append((normalizedPath(full), Diagnostic(
                        file: normalizedPath(full), message: "is a symbolic link to a file outside the project root (or into a .git folder); it was not loaded",
                        hint: "the project root is \(ProjectRoot.display(searchRoot)) (\(root != nil ? "given with --root" : ProjectRoot.reason(for: searchRoot, explicit: false).replacingOccurrences(of: "the scene's own folder", with: "the folder searched"))); pass --allow-external-assets to follow links out of it, or name the file directly")))
                    continue
                }
                found.append((normalizedPath(full), nil))
            }
            if found.isEmpty {
                let shown = normalizedPath(path)
                inputs.append(.error(path: shown, Diagnostic(
                    file: shown, message: "no scene files (*.scene.yaml, *.scene.yml, *.scene.json) found in this directory",
                    hint: "put scene files in it, or name a scene file or a 3D asset directly (for a Reality Composer Pro project, its .rkassets folder or a .usda/.usdz scene; a scene file that places it, with model: PATH, gives a truer verdict)")))
            }
            for f in found.sorted(by: { $0.path < $1.path }) {
                inputs.append(f.error.map { .error(path: f.path, $0) } ?? .scene(f.path))
            }
        }
        return inputs
    }

    /// Folders of build products and downloaded dependencies that a directory search does not enter
    /// (Xcode's DerivedData, CocoaPods, Carthage, npm): copies of scenes there are not the project's.
    /// Named as a path, such a folder is searched.
    public static let skippedFolderNames: Set<String> = ["DerivedData", "Pods", "Carthage", "node_modules"]

    /// Scene files under `directory`, recursively: hidden entries (`.build`, `.git`, `.swiftpm`) and
    /// `skippedFolderNames` are skipped,
    /// symbolic links are not followed into directories (a linked scene file is listed), names are
    /// read as bytes (`FileName.entries`), at most 64 folders deep and 1,000,000 names in all.
    static func sceneFiles(in directory: String) -> [String] {
        var out: [String] = []
        var budget = 1_000_000
        func walk(_ dir: String, depth: Int) {
            guard depth <= 64, budget > 0, let names = FileName.entries(of: dir, limit: budget) else { return }
            budget -= names.count
            for name in names.sorted() {
                if name.hasPrefix(".") { continue }
                let full = dir.hasSuffix("/") ? dir + name : dir + "/" + name
                var st = stat()
                guard FileName.withCString(full, { lstat($0, &st) }) == 0 else { continue }
                if st.st_mode & S_IFMT == S_IFDIR {
                    if !skippedFolderNames.contains(name) { walk(full, depth: depth + 1) }
                } else if SceneLoader.isSceneFile(name) {
                    out.append(full)
                }
            }
        }
        walk(directory, depth: 0)
        return out
    }
}
