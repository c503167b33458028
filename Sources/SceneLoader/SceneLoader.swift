import Foundation
import SpatialModel
import AssetImport

/// Loads `spatialscene/1` scene files (YAML or JSON) and bare assets into a `Scene`.
///
/// `shared/spec/scene-format.md` is the contract. Where it leaves things open, this loader decides:
///
/// - **Parsing.** YAML and JSON go through the same path (libyaml's events, `YAMLTree.swift`; JSON is YAML
///   flow syntax; plain JSON and the block-style YAML scenes are written in take exact fast paths,
///   `JSONTree.swift` and `YAMLFastTree.swift`, which leave everything else to libyaml),
///   so every error in either carries `line:column`. All errors of a file are collected in one run
///   and returned sorted by location as a `LoadFailure`; warnings go to `Scene.warnings`.
///   Limits (`SceneLimits`, docs/security.md): file size 16 MiB, nesting depth 64, 1,000,000 YAML
///   values after alias expansion, 64 KiB per string, 100,000 entities (elements included),
///   1,000,000 scene nodes, 50,000,000 triangles, 100,000 keys per keyframe list (and events),
///   1,000,000 simulated frames. Duplicate keys are a YAML error.
/// - **Untrusted input.** Assets, and every file they reference, must resolve inside the
///   confinement root (the project root, `LoadOptions.confinementRoot`) unless
///   `LoadOptions.allowExternalAssets`. Diagnostics quote at most a short, control-character-escaped
///   excerpt of the offending token, never whole lines of the file (Yams' error snippets are dropped).
///   Plain `yes`/`no`/`on`/`off` read as booleans (YAML 1.1, as Yams resolves them); where a string is
///   expected any scalar is read as its text.
/// - **Nodes and entities.** `Scene.nodes` is depth-first pre-order. Under an entity's node come, in
///   order: its elements' nodes (windows, volumes), then for a model or environment with an asset an
///   "asset root" node (uniform scale = unit scale) and the asset's nodes, then its scene `children`.
///   `geometryNodes`: own node for windows, volumes, text and elements; node ..< end of the asset
///   nodes for models/environments; the whole subtree for groups; the node's asset subtree for marked
///   nodes. Entity paths are ids joined by `/`; ids must be unique among siblings (elements and
///   children of one entity are siblings) and paths unique overall.
/// - **Anchors.** Root nodes are relative to their anchor frame: world, the head frame at t = 0
///   (viewer path's first key) or the hand frame (`viewer.hand`'s first pose in the head frame, by
///   default the posture's `defaultHandPose`). Rest world poses (and so d0, bounds) use the viewer's
///   t = 0 pose.
/// - **placement** (top-level only) is relative to the eye at t = 0: direction
///   `(sin az·cos el, sin el, −cos az·cos el)` rotated by the viewer's initial yaw; the resulting world
///   point is expressed in the entity's anchor frame.
/// - **facing.** `viewer` (default for top-level entities placed with `placement`, and for top-level
///   windows and text, without `rotation`/`quaternion`; written on the entity or inside `placement`)
///   turns about +Y so +Z points at the eye: `yaw = atan2(eye.x − p.x, eye.z − p.z)`; a `rotation`
///   given together with explicit `facing: viewer` is applied after that turn (`R = Ry(face)·R_user`).
///   The turn is a world yaw, converted into the parent's frame for children. Keyframe rotations of a
///   facing entity are applied after the same turn.
/// - **Scale.** `s = tan(pointAngle)·d0` for dynamic containers (d0 = eye at t = 0 to the container's
///   rest world centre), `units.fixedPointSize` for fixed ones. Windows are zero-depth boxes
///   `W·s × H·s` in the XY plane; volumes need `size` (no default); their `sizePt` is the front face
///   `(w/s, h/s)`. Text with `fontSize` is dynamic (`em = fontSize·s`, `textHeight = em`); text with
///   `height` is fixed (`textHeight = height`, `fontSize` nil). Text geometry is an estimate:
///   `max(1, characters) × 0.55 em` wide, `em` high, 0 deep.
/// - **Elements** default to role `custom`; they also accept `primary` and `visible`.
/// - **Assets.** Unit scale = `assetUnits` ?? the asset's `declaredUnitScale` ?? 1. For COLLADA the
///   importer already baked `<unit>` into the root, so `assetUnits` multiplies on top of that.
///   `node:` keeps that node's subtree; the node keeps its own local transform, its ancestors' are
///   dropped. Asset nodes whose transform cannot be decomposed keep their rest matrix and get an
///   identity `restTRS`. Rest bounds are exact (vertices through the full rest world matrix).
///   Assets are imported once per resolved path. A missing asset whose name exists in the same folder
///   in another letter case gets a hint naming that file (only that folder is read, and only after
///   the path policy accepted the path). Marked nodes whose names repeat get a `~2`, `~3`
///   suffix in their path (with a warning).
/// - **Annotations** (`Annotations.swift`). `annotations` on a model or environment state facts for
///   asset nodes matched by path glob (names from the asset's top node joined by `/`; a glob
///   without `/` matches names). Marked nodes, nodes with file facts (`AssetNode.facts`) and
///   annotated nodes become entities in node order; facts: annotation > file > name prefix >
///   default. A 3D `hitRegion` becomes a node of its own (a child of the node, appended after the
///   asset) that is the entity's only geometry node; an element's 2D `hitRegion` replaces its
///   node's geometry. An `anchor` fact re-roots the node in that anchor frame, keeping its rest
///   world pose.
/// - **Animation.** A keyframe that omits a component holds the entity's static value; every
///   keyframe gives a key in every component. `speed` is accepted for keyframes too.
/// - **Duration.** Default: the latest of the last viewer key, the end of every non-looping animation
///   (`duration / speed`) and the last event (an addition to the spec), at least one frame.
/// - **Stricter than the spec text** (all reported as errors): `anchor` on a child (children follow
///   their parent's anchor); a volume without `size`; text without `string`; dynamic-scale content
///   (default windows, dynamic volumes, `fontSize` text) placed exactly at the eye (d0 = 0, no size);
///   viewer path and keyframe times below 0. (`range` loads with any two finite numbers; whether it is
///   valid is the rule immersion-range-valid's verdict.)
/// - **Events** are sorted by time (stable); `entity` is a path or an id that is unique in the scene.
/// - **Diagnostics** without a location (command-line overrides, unreadable files) sort first.
/// - **Warnings.** A model whose rest bounds exceed 50 m or stay under 1 mm in every dimension; a
///   volume `size` over 20 m in a dimension (likely points) and a window `size` under 10 pt in a
///   dimension (likely metres). Warnings never fail a load nor change the exit code.
/// - **YAML syntax errors** keep libyaml's text, are placed inside the file (an error at the end of
///   the input goes to where the unclosed construct starts, else to the end of the last line) and
///   get a plain-language hint for the common ones (tabs, indentation, unclosed brackets and quotes).
public enum SceneLoader {
    /// True for `*.scene.yaml`, `*.scene.yml` and `*.scene.json` (case-insensitive).
    public static func isSceneFile(_ path: String) -> Bool {
        let p = path.lowercased()
        return p.hasSuffix(".scene.yaml") || p.hasSuffix(".scene.yml") || p.hasSuffix(".scene.json")
    }

    /// True for a file that `validate` or `inspect` named on the command line reads as a scene: a
    /// scene file, or any `*.yaml`, `*.yml` or `*.json` file (no 3D format the importer reads
    /// uses those names, so `my-app.yaml` is read as the scene it is meant to be and a file
    /// that is not one gets the scene loader's errors). A folder search keeps to `isSceneFile`.
    public static func isSceneFileByName(_ path: String) -> Bool {
        let p = path.lowercased()
        return isSceneFile(p) || p.hasSuffix(".yaml") || p.hasSuffix(".yml") || p.hasSuffix(".json")
    }

    /// True for a folder that is one asset: a Reality Composer Pro `.rkassets` folder (USD).
    public static func isAssetFolder(_ path: String) -> Bool { USDImporter.isRKAssets(path) }

    /// Reads and loads the scene file at `path`; assets are resolved relative to its directory.
    public static func load(path: String, options: LoadOptions = .init(),
                            importer: AssetImporting = .assimp) throws(LoadFailure) -> Scene {
        let text = try readText(path: path)
        let base = (path as NSString).deletingLastPathComponent
        return try load(text: text, path: path, baseDirectory: base.isEmpty ? "." : base,
                        options: options, importer: importer)
    }

    /// Loads scene text; `path` is how messages name the file, `baseDirectory` resolves asset paths.
    public static func load(text: String, path: String, baseDirectory: String, options: LoadOptions = .init(),
                            importer: AssetImporting = .assimp) throws(LoadFailure) -> Scene {
        if text.utf8.count > Limits.maxFileSize {
            throw LoadFailure([Diagnostic(file: path, message: "the scene file is \(text.utf8.count) bytes; the limit is \(Limits.maxFileSize) bytes")])
        }
        var converter = TreeConverter(file: path)
        guard let root = converter.parse(text) else { throw LoadFailure(converter.diagnostics) }
        let builder = SceneBuilder(path: path, baseDirectory: baseDirectory, options: options, importer: importer)
        let scene = Result { () throws(LoadFailure) -> Scene in try builder.build(root: root) }
        TreeDisposal.release(consume root, large: text.utf8.count >= TreeDisposal.minimumBytes)
        return try scene.get()
    }

    /// A bare asset as a scene: default viewer, `immersion: shared`, one model entity named after the
    /// file placed at the origin as authored (unit scale = the file's declared unit, else 1), plus
    /// the asset's marked nodes.
    public static func loadBareAsset(path: String, options: LoadOptions = .init(),
                                     importer: AssetImporting = .assimp) throws(LoadFailure) -> Scene {
        let builder = SceneBuilder(path: path, baseDirectory: FileManager.default.currentDirectoryPath,
                                   options: options, importer: importer)
        return try builder.buildBareAsset()
    }

    /// Reads a scene file by its path's bytes (a name that is not UTF-8 is found too, `FileName`):
    /// only a regular file (after symbolic links; a FIFO, `/dev/zero` or a socket would block or
    /// never end), its size checked with `fstat` before reading and at most the limit read.
    static func readText(path: String) throws(LoadFailure) -> String {
        let bytes: [UInt8]
        do { bytes = try FileName.read(path, limit: Limits.maxFileSize) } catch {
            switch error {
            case .missing:
                throw LoadFailure([Diagnostic(file: path, message: "scene file not found")])
            case .notRegular:
                if FileName.status(path)?.isDirectory == true {
                    throw LoadFailure([Diagnostic(file: path, message: "expected a scene file, found a directory")])
                }
                throw LoadFailure([Diagnostic(file: path, message: "the scene file is not a regular file",
                                              hint: "pass a scene file, not a device, FIFO or socket")])
            case .tooLarge(let size):
                throw LoadFailure([Diagnostic(file: path, message: "the scene file is \(size) bytes; the limit is \(Limits.maxFileSize) bytes",
                                              hint: "scene files describe layout; keep geometry in assets")])
            case .unreadable:
                throw LoadFailure([Diagnostic(file: path, message: "cannot read the scene file")])
            }
        }
        // One copy, validated on the way: the bytes straight into the string. A file that starts
        // with a byte order mark keeps Foundation's reading of it (through `Data`, two more copies
        // of the file; only such files pay for them).
        let bom = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        guard let text = bom ? String(data: Data(bytes), encoding: .utf8) : String(validating: bytes, as: UTF8.self) else {
            throw LoadFailure([Diagnostic(file: path, message: "the scene file is not valid UTF-8 text")])
        }
        return text
    }
}

/// Overrides from the command line or the config file; nil keeps the scene's value.
public struct LoadOptions: Sendable {
    public var pointAngle: Double?
    public var frameRate: Double?
    public var duration: Double?
    /// Assets referenced by a scene, and every file an asset references (glTF buffers and images,
    /// OBJ `mtllib`, textures, ...), must resolve (after `..`, absolute paths and symlinks) inside
    /// the confinement root and outside `.git` folders unless this is true
    /// (`--allow-external-assets`; `.git` stays refused for files assets reference). A bare asset
    /// named on the command line is always allowed itself.
    public var allowExternalAssets: Bool
    /// The confinement root; nil: the project root of the scene or bare asset
    /// (`ProjectRoot.find(for: file, fallback: file's folder)`: the folder of the nearest
    /// `.spatialcheck.yaml`, else the enclosing git work tree, else the file's own folder). Use
    /// `SceneLoader.confinementRoot(for:options:)` for the root that applies to a file.
    public var confinementRoot: String?
    /// Accessibility settings turned on for the run in addition to the scene's own `settings`
    /// (`--setting reduceMotion`): the Reduce Motion / Dim Flashing Lights variant of every scene.
    public var settings = SystemSettings()
    /// Seconds one scene's asset imports may take together (`--import-budget`): once its imports
    /// have taken this long, its remaining assets are errors instead of imports, so a scene of many
    /// distinct slow or hanging assets costs at most about this plus one import's timeout, not
    /// assets × timeout (docs/security.md §4). Legitimate scenes stay far below it, so their
    /// reports do not depend on the clock.
    public var importBudget: Double = LoadOptions.defaultImportBudget
    /// Five minutes of importing per scene.
    public static let defaultImportBudget: Double = 300
    public init(pointAngle: Double? = nil, frameRate: Double? = nil, duration: Double? = nil,
                allowExternalAssets: Bool = false, confinementRoot: String? = nil) {
        self.pointAngle = pointAngle; self.frameRate = frameRate; self.duration = duration
        self.allowExternalAssets = allowExternalAssets; self.confinementRoot = confinementRoot
    }
}

extension SceneLoader {
    /// The folder everything a scene or bare asset at `path` reads must resolve inside:
    /// `options.confinementRoot` when set, else the project root of `path`; nil with
    /// `allowExternalAssets`. (Importers get it as `AssetReferencePolicy`.)
    public static func confinementRoot(for path: String, options: LoadOptions) -> String? {
        if options.allowExternalAssets { return nil }
        if let explicit = options.confinementRoot {
            return ProjectRoot.canonical(ProjectRoot.absolute(explicit))
        }
        return AssetReferencePolicy.projectRoot(for: path)
    }

    /// The policy for files that assets of the scene or bare asset at `path` reference.
    public static func referencePolicy(for path: String, options: LoadOptions) -> AssetReferencePolicy {
        AssetReferencePolicy(root: confinementRoot(for: path, options: options))
    }
}

/// The loader's hard limits (docs/security.md lists them with their reasons). Exceeding one is an
/// error Diagnostic naming the file (and the location, where there is one); never a crash or a hang.
public enum SceneLimits {
    /// Bytes of a scene file.
    public static let maxFileSize = Limits.maxFileSize
    /// Nesting depth of YAML/JSON collections.
    public static let maxDepth = Limits.maxDepth
    /// YAML values (scalars, lists, mappings) after alias expansion.
    public static let maxValues = Limits.maxNodes
    /// Bytes of one string value or key.
    public static let maxStringLength = Limits.maxStringLength
    /// Entities and elements in one scene (asset-marked nodes not counted).
    public static let maxEntities = Limits.maxEntities
    /// Scene graph nodes (entities, elements and every imported asset node).
    public static let maxSceneNodes = Limits.maxSceneNodes
    /// Triangles over all assets of one scene (each use of an asset counts).
    public static let maxTriangles = Limits.maxTriangles
    /// Vertices over all assets of one scene (each use counts).
    public static let maxVertices = Limits.maxVertices
    /// Bytes of an entity's or element's path (ids joined with '/', as reports name it).
    public static let maxEntityPath = Limits.maxEntityPath
    /// Keys in one keyframe list (viewer path, one entity's keyframes) and events in a scene.
    public static let maxKeyframes = Limits.maxKeyframes
    /// Simulated frames: ceil(duration × frame rate).
    public static let maxFrames = Limits.maxFrames
    /// Largest magnitude, in metres, of a derived world coordinate: every node's world position
    /// and every entity's rest bounds, also with the largest keys of its animations.
    public static let maxWorldCoordinate = Limits.maxWorldCoordinate
}

/// How assets are imported; tests inject synthetic `ImportedAsset` values.
public struct AssetImporting: Sendable {
    /// Imports `resolvedPath` (named `displayPath` in messages); files the asset references must
    /// satisfy the policy (its root is `SceneLoader.confinementRoot(for:options:)`).
    public var importAsset: @Sendable (_ resolvedPath: String, _ displayPath: String,
                                       _ references: AssetReferencePolicy) throws(Diagnostic) -> ImportedAsset
    /// An importer that reads no referenced files (or enforces no policy on them), e.g. a test stub.
    public init(load: @escaping @Sendable (_ resolvedPath: String, _ displayPath: String) throws(Diagnostic) -> ImportedAsset) {
        self.importAsset = { (resolved: String, display: String, _: AssetReferencePolicy) throws(Diagnostic) -> ImportedAsset in
            try load(resolved, display)
        }
    }
    /// `importAsset` with the policy of the asset's own project root (as before the policy was
    /// passed in; the scene loader passes its root explicitly).
    public var load: @Sendable (_ resolvedPath: String, _ displayPath: String) throws(Diagnostic) -> ImportedAsset {
        let run = importAsset
        return { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
            try run(resolved, display, AssetReferencePolicy(root: AssetReferencePolicy.projectRoot(for: resolved)))
        }
    }
    public init(confined: @escaping @Sendable (_ resolvedPath: String, _ displayPath: String,
                                               _ references: AssetReferencePolicy) throws(Diagnostic) -> ImportedAsset) {
        self.importAsset = confined
    }
    /// The assimp-based importer of the AssetImport module; USD files and `.rkassets` folders go to
    /// `USDImporter` (always in its Python worker process). Both apply the reference policy.
    public static let assimp = AssetImporting(confined: { (resolved: String, display: String, policy: AssetReferencePolicy) throws(Diagnostic) -> ImportedAsset in
        if USDImporter.handles(resolved) {
            return try USDImporter.load(resolvedPath: resolved, displayPath: display, references: policy)
        }
        return try AssetImporter.load(resolvedPath: resolved, displayPath: display, maxFileSize: AssetImporter.defaultMaxFileSize,
                               references: policy)
    })
    /// assimp in a worker process (crash, hang and memory contained), or in this process when
    /// `isolation` is nil; USD goes to `USDImporter` with the same timeout and memory limit.
    public static func assimp(isolation: AssetImportIsolation?) -> AssetImporting {
        guard let isolation else { return .assimp }
        return AssetImporting(confined: { (resolved: String, display: String, policy: AssetReferencePolicy) throws(Diagnostic) -> ImportedAsset in
            if USDImporter.handles(resolved) {
                return try USDImporter.load(resolvedPath: resolved, displayPath: display, references: policy, isolation: isolation)
            }
            return try AssetImporter.load(resolvedPath: resolved, displayPath: display, isolation: isolation, references: policy)
        })
    }
}

/// Frees a finished tree on another thread. Freeing it node by node (an array per collection, a
/// value-witness destroy per value) is about a tenth of loading a large scene, and nothing waits
/// for it: the scene holds nothing of the tree but strings, which are reference counted
/// atomically. The box is the only owner of the tree once `release` returns, so the tree is
/// freed where the box drops it, off the caller's thread.
final class TreeDisposal: @unchecked Sendable {
    private var root: YNode?

    private init(_ root: consuming YNode) {
        self.root = root
    }

    /// Files smaller than this free their tree on the caller's thread: handing it off (a worker
    /// thread started on first use) costs more than freeing a small tree.
    static let minimumBytes = 256 * 1024

    static func release(_ root: consuming YNode, large: Bool) {
        guard large else { return }
        let box = TreeDisposal(root)
        DispatchQueue.global(qos: .utility).async { box.root = nil }
    }
}
