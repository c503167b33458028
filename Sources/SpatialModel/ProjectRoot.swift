import Foundation

/// The project root: the one folder that scene paths in reports and fingerprints are relative to
/// (docs/ci.md) and that every file an asset reads must resolve inside (docs/security.md).
///
/// For a file or folder `start`, the root is, in this order:
/// 1. `explicit` (`--root`), when given;
/// 2. the nearest folder at or above `start` that holds `.spatialcheck.yaml`;
/// 3. the nearest folder at or above `start` that holds `.git` (the enclosing git work tree);
/// 4. `fallback` (the working directory for report paths; the scene's or asset's own folder for
///    confinement).
/// The search starts from the real path of `start` (symbolic links resolved), so the root does
/// not depend on the working directory or on how the path is spelt.
public enum ProjectRoot {
    /// Name of the configuration file whose folder marks a project root.
    public static let configFileName = ".spatialcheck.yaml"

    public static func find(for start: String, explicit: String? = nil, fallback: String) -> String {
        if let explicit { return realPath(absolute(explicit)) ?? standardized(absolute(explicit)) }
        return discover(from: start) ?? realPath(absolute(fallback)) ?? standardized(absolute(fallback))
    }

    /// `canonical(absolute(find(for: file, fallback: fallback)))` for a file (not a directory) whose
    /// path `real` is already `canonical(absolute(_))`: the confinement root of an asset being
    /// imported, without resolving the asset's path a second time.
    public static func canonicalRoot(forCanonicalFile real: String, fallback: String) -> String {
        if let found = discover(fromCanonical: real, isDirectory: false) { return found }
        if let r = realPath(absolute(fallback)) { return r }
        return canonical(standardized(absolute(fallback)))
    }

    /// Steps 2 and 3 above; nil when neither marker is found up to `/`.
    public static func discover(from start: String) -> String? {
        let real = canonical(absolute(start))
        var isDir: ObjCBool = false
        let isDirectory = FileManager.default.fileExists(atPath: real, isDirectory: &isDir) && isDir.boolValue
        return discover(fromCanonical: real, isDirectory: isDirectory)
    }

    /// `discover(from:)` for a path that is already `canonical(absolute(_))`, when the caller knows
    /// whether it is a directory (an importer that has just checked the file). The result is a
    /// folder at or above `real`, so it is canonical too.
    public static func discover(fromCanonical real: String, isDirectory: Bool) -> String? {
        let dir = isDirectory ? real : (real as NSString).deletingLastPathComponent
        var gitRoot: String?
        var current = dir
        for _ in 0..<256 {
            let fm = FileManager.default
            if fm.fileExists(atPath: (current as NSString).appendingPathComponent(configFileName)) { return current }
            if gitRoot == nil, fm.fileExists(atPath: (current as NSString).appendingPathComponent(".git")) { gitRoot = current }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        return gitRoot
    }

    /// The git work tree holding `path` (the nearest folder at or above it, real path, with a
    /// `.git`), or nil. SARIF names scenes relative to it (code scanning resolves paths against
    /// the checkout) when it differs from the project root (s30 trial F5).
    public static func gitWorkTree(containing path: String) -> String? {
        var current = (canonical(absolute(path)) as NSString).deletingLastPathComponent
        let fm = FileManager.default
        for _ in 0..<256 {
            if fm.fileExists(atPath: (current as NSString).appendingPathComponent(".git")) { return current }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
        return nil
    }

    /// Why `root` is a file's project root, for messages: "given with --root" when `explicit`,
    /// else "it holds .spatialcheck.yaml", "the git work tree" or "the scene's own folder: no
    /// .spatialcheck.yaml or .git at or above it" (ci.md, security.md §3.1).
    public static func reason(for root: String, explicit: Bool) -> String {
        if explicit { return "given with --root" }
        let fm = FileManager.default
        if fm.fileExists(atPath: (root as NSString).appendingPathComponent(configFileName)) { return "it holds \(configFileName)" }
        if fm.fileExists(atPath: (root as NSString).appendingPathComponent(".git")) { return "the git work tree" }
        return "the scene's own folder: no \(configFileName) or .git at or above it"
    }

    /// The nearest project root above `root` (a folder holding `.spatialcheck.yaml` or `.git`,
    /// `discover`) that contains `real` (a canonical path), or nil: the `--root` to suggest when an
    /// asset lies outside `root` (a per-app `.spatialcheck.yaml` of a monorepo whose shared assets
    /// are in the repository).
    public static func widerRoot(above root: String, containing real: String) -> String? {
        var current = canonical(absolute(root))
        for _ in 0..<64 {
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            guard let found = discover(fromCanonical: parent, isDirectory: true) else { return nil }
            if contains(real, root: found) { return found }
            current = found
        }
        return nil
    }

    /// A folder as a message shows it: relative to `cwd` when inside it (`.` for `cwd` itself),
    /// `..`, `../..` … when it is a folder above `cwd`, else its absolute path.
    public static func display(_ folder: String, from cwd: String = FileManager.default.currentDirectoryPath) -> String {
        let f = canonical(absolute(folder))
        let c = canonical(absolute(cwd))
        if f == c { return "." }
        if f.hasPrefix(c == "/" ? "/" : c + "/") { return String(f.dropFirst(c == "/" ? 1 : c.count + 1)) }
        if c.hasPrefix(f == "/" ? "/" : f + "/") {
            let below = c.dropFirst(f == "/" ? 1 : f.count + 1).split(separator: "/").count
            return Array(repeating: "..", count: below).joined(separator: "/")
        }
        return f
    }

    /// `path` relative to `root` when it lies inside it (both compared by real path), else the
    /// standardized absolute real path.
    public static func relative(_ path: String, to root: String) -> String {
        let abs = absolute(path)
        let real = realPath(abs) ?? standardized(abs)
        let r = realPath(root) ?? standardized(absolute(root))
        if real == r { return "." }
        let prefix = r == "/" ? "/" : r + "/"
        return real.hasPrefix(prefix) ? String(real.dropFirst(prefix.count)) : real
    }

    /// True when the real path of `path` (symbolic links resolved, also for the existing prefix of
    /// a path that does not exist yet) lies inside `root`, and no component of it is `.git`.
    public static func contains(_ path: String, root: String) -> Bool {
        let real = canonical(absolute(path))
        let r = canonical(absolute(root))
        guard real == r || real.hasPrefix(r == "/" ? "/" : r + "/") else { return false }
        return !real.split(separator: "/").contains(".git")
    }

    /// `realpath` of the longest existing prefix of `path`, with the rest appended lexically.
    public static func canonical(_ path: String) -> String {
        let std = standardized(path)
        if let r = realPath(std) { return r }
        let parent = (std as NSString).deletingLastPathComponent
        if parent == std || parent.isEmpty { return std }
        return (canonical(parent) as NSString).appendingPathComponent((std as NSString).lastPathComponent)
    }

    /// `p` joined to the current directory when it is relative.
    public static func absolute(_ p: String) -> String {
        p.hasPrefix("/") ? p : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(p)
    }

    /// Lexical clean-up: `.` and `..` resolved, repeated slashes folded.
    public static func standardized(_ p: String) -> String {
        var parts: [Substring] = []
        for c in p.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(c)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func realPath(_ p: String) -> String? {
        guard let c = realpath(p, nil) else { return nil }
        defer { free(c) }
        return String(cString: c)
    }
}
