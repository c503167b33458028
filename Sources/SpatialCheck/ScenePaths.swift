import Foundation
import SpatialModel
import Rules
import Reporting

/// The names of one scene in a run (docs/ci.md, "Scene paths and fingerprints").
public struct ScenePaths: Sendable, Equatable {
    /// Relative to the project root (absolute when the scene is outside it): what reports write,
    /// what fingerprints hash and what decides the shard. The same whatever the working directory
    /// and however the path was spelt (symbolic links in its folders resolved).
    public var report: String
    /// Relative to the working directory, as earlier versions wrote it (to read their baselines).
    public var legacy: String
    /// Absolute, for formats that point editors at the file (`xcode`).
    public var file: String
    /// Relative to the enclosing git work tree when that is not the project root (an app folder
    /// with its own `.spatialcheck.yaml` in a monorepo), else nil: SARIF's artifact path.
    public var repository: String? = nil
}

extension SpatialCheck {
    /// The names of the scene at `path` (as expanded from the command line, relative to `cwd` or
    /// absolute). The project root is `root` (`--root`), else the folder of the nearest
    /// `.spatialcheck.yaml` at or above the scene, else its enclosing git work tree, else `cwd`.
    public static func scenePaths(_ path: String, root: String?, cwd: String = FileManager.default.currentDirectoryPath) -> ScenePaths {
        let absolute = "/" + normalizedPath(path.hasPrefix("/") ? path : cwd + "/" + path, relativeTo: "/")
        let projectRoot = ProjectRoot.find(for: absolute, explicit: root.map { $0.hasPrefix("/") ? $0 : cwd + "/" + $0 }, fallback: cwd)
        return ScenePaths(report: rootRelative(absolute, root: projectRoot), legacy: normalizedPath(path, relativeTo: cwd), file: absolute,
                          repository: repositoryPath(absolute, projectRoot: projectRoot))
    }

    /// `absolute` relative to the git work tree that holds it, when that work tree is not
    /// `projectRoot` (compared by real path); nil otherwise.
    static func repositoryPath(_ absolute: String, projectRoot: String) -> String? {
        guard let git = ProjectRoot.gitWorkTree(containing: absolute), git != ProjectRoot.canonical(projectRoot) else { return nil }
        return rootRelative(absolute, root: git)
    }

    /// `absolute` relative to `root`: its folder is compared by real path (so a symbolic link to the
    /// project, or `..` through one, gives the same result), its file name kept as it is (a scene
    /// that is itself a link keeps its own name).
    static func rootRelative(_ absolute: String, root: String) -> String {
        let folder = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard !name.isEmpty, absolute != "/" else { return absolute }
        let relFolder = ProjectRoot.relative(folder.isEmpty ? "/" : folder, to: root)
        if relFolder == "." { return name }
        return relFolder.hasSuffix("/") ? relFolder + name : relFolder + "/" + name
    }

    /// The fingerprint a violation had when scene paths were relative to the working directory:
    /// the same rule, entities and sub-check, with `legacyPath` in place of `path`.
    static func legacyFingerprint(of v: ReportViolation, path: String, legacyPath: String) -> String? {
        let subchecks: [String?] = [nil] + (RuleCatalog.metadata(id: v.rule)?.subchecks.map(\.name) ?? [])
        for sub in subchecks where violationFingerprint(rule: v.rule, scenePath: path, entities: v.entities, subcheck: sub) == v.fingerprint {
            return violationFingerprint(rule: v.rule, scenePath: legacyPath, entities: v.entities, subcheck: sub)
        }
        return nil
    }
}
