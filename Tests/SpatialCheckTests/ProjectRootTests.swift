import Foundation
import SpatialModel
import Testing

/// A hand-built folder tree under the temporary directory, torn down by the caller.
struct TempTree {
    let root: String

    init(_ label: String) throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("spatialcheck-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // The real path (on macOS /var is a link to /private/var), as ProjectRoot returns it.
        root = ProjectRoot.canonical(dir)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    @discardableResult
    func file(_ relative: String, _ contents: String = "x") -> String {
        let p = path(relative)
        try? FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: p, contents: Data(contents.utf8))
        return p
    }

    func data(_ relative: String, _ contents: [UInt8]) {
        let p = path(relative)
        try? FileManager.default.createDirectory(atPath: (p as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: p, contents: Data(contents))
    }

    func folder(_ relative: String) {
        try? FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    func link(_ relative: String, to destination: String) {
        try? FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: destination)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite("ProjectRoot: the project root and confinement")
struct ProjectRootTests {
    @Test("the folder of .spatialcheck.yaml wins over an enclosing git work tree")
    func configBeforeGit() throws {
        let t = try TempTree("root-config")
        defer { t.remove() }
        t.folder("repo/.git")
        t.file("repo/app/.spatialcheck.yaml", "failOn: error\n")
        let scene = t.file("repo/app/Scenes/a.scene.yaml")
        #expect(ProjectRoot.discover(from: scene) == t.path("repo/app"))
        #expect(ProjectRoot.find(for: scene, fallback: "/nowhere") == t.path("repo/app"))
        // Outside the configured folder, the git work tree is the root.
        let other = t.file("repo/tools/b.scene.yaml")
        #expect(ProjectRoot.discover(from: other) == t.path("repo"))
    }

    @Test("a .git file (a worktree) marks a work tree too; without markers the fallback is used")
    func gitFileAndFallback() throws {
        let t = try TempTree("root-git")
        defer { t.remove() }
        t.file("wt/.git", "gitdir: /elsewhere\n")
        #expect(ProjectRoot.discover(from: t.file("wt/x/y.glb")) == t.path("wt"))
        let lone = t.file("lone/m.glb")
        // The temporary folder has no marker above it.
        #expect(ProjectRoot.discover(from: lone) == nil)
        #expect(ProjectRoot.find(for: lone, fallback: t.path("lone")) == t.path("lone"))
        #expect(ProjectRoot.find(for: lone, explicit: t.path("wt/x/.."), fallback: "/") == t.path("wt"))
    }

    @Test("the search starts from the real path: a link into a project finds that project")
    func searchFollowsLinks() throws {
        let t = try TempTree("root-link")
        defer { t.remove() }
        t.file("proj/.spatialcheck.yaml")
        let real = t.file("proj/scenes/a.scene.yaml")
        t.folder("elsewhere")
        t.link("elsewhere/a.scene.yaml", to: real)
        #expect(ProjectRoot.discover(from: t.path("elsewhere/a.scene.yaml")) == t.path("proj"))
        // A path that does not exist yet, inside a linked folder, resolves through the link.
        t.link("elsewhere/scenes", to: t.path("proj/scenes"))
        #expect(ProjectRoot.discover(from: t.path("elsewhere/scenes/new.scene.yaml")) == t.path("proj"))
    }

    @Test("contains: inside by real path, never through .git, never out through a link")
    func containment() throws {
        let t = try TempTree("root-contains")
        defer { t.remove() }
        let root = t.path("proj")
        t.file("proj/.spatialcheck.yaml")
        t.file("proj/a/model.glb")
        t.file("proj/.git/config", "[core]\n")
        t.file("outside/secret.bin")
        t.link("proj/a/out", to: "../../outside")
        t.link("proj/a/in", to: "..")
        t.link("proj/a/git", to: "../.git/config")
        #expect(ProjectRoot.contains(t.path("proj/a/model.glb"), root: root))
        #expect(ProjectRoot.contains(t.path("proj/a/../a/model.glb"), root: root))
        #expect(ProjectRoot.contains(t.path("proj/a/in/a/model.glb"), root: root))
        #expect(ProjectRoot.contains(root, root: root))
        #expect(ProjectRoot.contains(t.path("proj/a/missing.bin"), root: root))
        #expect(!ProjectRoot.contains(t.path("proj/../outside/secret.bin"), root: root))
        #expect(!ProjectRoot.contains(t.path("proj/a/out/secret.bin"), root: root))
        #expect(!ProjectRoot.contains(t.path("proj/a/out/missing.bin"), root: root))
        #expect(!ProjectRoot.contains(t.path("proj/.git/config"), root: root))
        #expect(!ProjectRoot.contains(t.path("proj/a/git"), root: root))
        #expect(!ProjectRoot.contains("/etc/passwd", root: root))
        // A sibling whose name starts like the root is not inside it.
        t.file("proj2/x.bin")
        #expect(!ProjectRoot.contains(t.path("proj2/x.bin"), root: root))
    }

    @Test("canonical resolves links of the existing prefix and normalises the rest lexically")
    func canonicalPaths() throws {
        let t = try TempTree("root-canonical")
        defer { t.remove() }
        t.folder("real/sub")
        t.link("l", to: "real")
        #expect(ProjectRoot.canonical(t.path("l/sub/../x/y.bin")) == t.path("real/x/y.bin"))
        #expect(ProjectRoot.canonical(t.path("l//sub/./")) == t.path("real/sub"))
        #expect(ProjectRoot.standardized("/a/./b/../../../c//d") == "/c/d")
    }

    @Test("relative: inside the root relative, outside absolute")
    func relativePaths() throws {
        let t = try TempTree("root-relative")
        defer { t.remove() }
        let scene = t.file("proj/Scenes/a.scene.yaml")
        let outside = t.file("other/b.scene.yaml")
        #expect(ProjectRoot.relative(scene, to: t.path("proj")) == "Scenes/a.scene.yaml")
        #expect(ProjectRoot.relative(t.path("proj"), to: t.path("proj")) == ".")
        #expect(ProjectRoot.relative(outside, to: t.path("proj")) == outside)
    }
}
