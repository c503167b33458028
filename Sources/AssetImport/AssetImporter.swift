import CAssimp
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SpatialModel
import Synchronization

/// Imports 3D assets through assimp's C API into `ImportedAsset`.
///
/// - Imports are serialised process-wide: assimp keeps its last error in a global string, so two
///   concurrent imports could report each other's messages.
/// - Post-processing: `Triangulate | GenBoundingBoxes` only. No `OptimizeGraph`,
///   `PreTransformVertices` or `JoinIdenticalVertices`: they rewrite the node tree and drop
///   animations and metadata.
/// - Nodes come out in depth-first pre-order (iterative walk; deeper than `maxNodeDepth` or more
///   than `maxNodeCount` nodes is an error). Each node carries its own meshes' vertices (each
///   instance of a shared mesh counts again) and triangles (faces with exactly three indices).
/// - Markings (scene format §7): node metadata `spatial` (glTF `extras`) first; an unknown or
///   missing role is a warning and the node falls back to the name prefixes, which are matched
///   case-insensitively (`btn_`, `button_` → button; `txt_`, `text_` → text).
/// - Animations: times in seconds (`mTicksPerSecond`, 25 when the file says 0). Channels for
///   node names that do not exist are skipped with a warning; keys with a non-finite time or
///   value (or a zero quaternion) are dropped with a warning. Unnamed clips are `animation<i>`.
/// - Errors are `Diagnostic`s naming `displayPath`, never crashes from malformed data that
///   assimp itself survives (assimp can still crash inside its own readers on fuzzed files).
/// - Units: see `ImportedAsset.declaredUnitScale` / `unitNote`. FBX `UnitScaleFactor` is
///   reported (as metres per unit) but not applied; COLLADA's `<unit>` and up axis are already
///   baked into the root node by assimp.
public enum AssetImporter {
    /// Default upper bound for an asset file's size.
    public static let defaultMaxFileSize = 512 * 1024 * 1024
    /// Node trees deeper than this are rejected (a guard against cycles and hostile files).
    public static let maxNodeDepth = 256
    /// Node trees larger than this are rejected.
    public static let maxNodeCount = 1_000_000

    static let hint = "check the file opens in Blender or another viewer; assimp \(versionMajorMinor) reads glTF/GLB, OBJ, FBX, COLLADA, PLY, STL, 3DS, …"

    private static let importLock = Mutex(())

    /// The linked assimp library's version, e.g. "5.2.4".
    public static var assimpVersion: String {
        "\(aiGetVersionMajor()).\(aiGetVersionMinor()).\(aiGetVersionPatch())"
    }
    static var versionMajorMinor: String { "\(aiGetVersionMajor()).\(aiGetVersionMinor())" }

    /// File extensions assimp can read (lowercased, without dots, sorted, unique).
    public static var supportedExtensions: [String] {
        var list = aiString()
        aiGetExtensionList(&list)
        let parts = swiftString(list).split(separator: ";").map { part -> String in
            var s = part.trimmingCharacters(in: .whitespaces).lowercased()
            if s.hasPrefix("*") { s.removeFirst() }
            if s.hasPrefix(".") { s.removeFirst() }
            return s
        }
        return Array(Set(parts.filter { !$0.isEmpty })).sorted()
    }

    /// Extensions of formats assimp has no reader for but users commonly bring to visionOS.
    static let usdExtensions: Set<String> = ["usd", "usda", "usdc", "usdz"]

    /// Imports the default scene of the file at `resolvedPath`; `displayPath` is how messages name it.
    /// Files the asset references must be inside the asset's project root
    /// (`AssetReferencePolicy.projectRoot(for:)`).
    public static func load(resolvedPath: String, displayPath: String) throws(Diagnostic) -> ImportedAsset {
        try load(resolvedPath: resolvedPath, displayPath: displayPath, maxFileSize: defaultMaxFileSize)
    }

    /// Imports the default scene of the file at `resolvedPath`, refusing files larger than
    /// `maxFileSize` bytes (the asset and each file it references). `references` says where
    /// referenced files may be (default: the asset's project root).
    public static func load(resolvedPath: String, displayPath: String, maxFileSize: Int,
                            references: AssetReferencePolicy? = nil) throws(Diagnostic) -> ImportedAsset {
        func fail(_ message: String, hint: String? = AssetImporter.hint) -> Diagnostic {
            Diagnostic(file: displayPath, message: message, hint: hint)
        }
        let ext = pathExtension(resolvedPath).lowercased()

        // Checks before assimp sees the file (one stat for existence, type and size).
        guard let st = try preflightStat(resolvedPath: resolvedPath, displayPath: displayPath) else {
            throw fail("asset file not found", hint: "check the path (relative paths are resolved against the scene file's folder)")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw fail("asset path is a directory, not a file", hint: "name the model file itself, e.g. model.glb")
        }
        guard access(resolvedPath, R_OK) == 0 else {
            throw fail("asset file is not readable (permission denied)", hint: "check the file's permissions")
        }
        let size = Int(st.st_size)
        if size > maxFileSize {
            throw fail("asset file is \(size) bytes, more than the limit of \(maxFileSize) bytes",
                       hint: "reduce the asset (decimate meshes, strip unused data) or raise the size limit")
        }
        if usdExtensions.contains(ext) {
            throw fail("cannot import .\(ext): assimp \(versionMajorMinor) has no USD/USDZ reader",
                       hint: "export the model as glTF/GLB (e.g. with Reality Converter or Blender) and reference that file")
        }

        let files = ConfinedFileSystem(policy: references, assetPath: resolvedPath, maxFileSize: maxFileSize)
        return try importLock.withLock { (_: inout ()) throws(Diagnostic) -> ImportedAsset in
            try files.withFileIO { (io: UnsafeMutablePointer<aiFileIO>) throws(Diagnostic) -> ImportedAsset in
                let flags = aiProcess_Triangulate.rawValue | aiProcess_GenBoundingBoxes.rawValue
                let scene = aiImportFileEx(resolvedPath, UInt32(flags), io)
                // A refused reference fails the import even when assimp carried on without the file.
                if let refused = files.diagnostic(displayPath: displayPath) {
                    if let scene { aiReleaseImport(scene) }
                    throw refused
                }
                guard let scene else {
                    var message = aiGetErrorString().map { String(cString: $0) } ?? ""
                    message = message.replacingOccurrences(of: resolvedPath, with: displayPath)
                    if message.isEmpty { message = "unknown error" }
                    if let detail = containerProblem(path: resolvedPath, ext: ext) { message += " (\(detail))" }
                    throw fail("assimp could not import the asset: " + message, hint: importHint(message: message, ext: ext))
                }
                defer { aiReleaseImport(scene) }
                if let refused = files.textureDiagnostic(scene: scene, displayPath: displayPath) { throw refused }
                var converter = SceneConverter(scene: scene, resolvedPath: resolvedPath,
                                               displayPath: displayPath, ext: ext)
                converter.assetFile = files.assetFile
                return try converter.convert()
            }
        }
    }

    /// The hint for a file assimp refused: `hint`, or for a COLLADA file whose numbers assimp could
    /// not parse, what is known to cause it. assimp 5.2's COLLADA reader fails on numbers padded
    /// with spaces inside an element (`<matrix>  0.0 0.0 …  </matrix>`, which other readers
    /// accept), so "it opens in Blender" is no help there: re-exporting is.
    static func importHint(message: String, ext: String) -> String {
        guard ext == "dae", message.contains("as a real number") else { return hint }
        return "assimp \(versionMajorMinor)'s COLLADA reader fails on numbers padded with spaces inside an element, which other tools read: re-export the model as glTF/GLB or USDZ (e.g. from Blender) and reference that file"
    }

    /// Checks that need no importer: the path leads to a regular file (a FIFO, socket or device
    /// would block the import until its timeout, or never end). Run before a worker is started too.
    static func preflight(resolvedPath: String, displayPath: String) throws(Diagnostic) {
        _ = try preflightStat(resolvedPath: resolvedPath, displayPath: displayPath)
    }

    /// `preflight`, returning the `stat` of the path (links followed), or nil when it fails (a
    /// missing file: reported by the caller's checks).
    static func preflightStat(resolvedPath: String, displayPath: String) throws(Diagnostic) -> stat? {
        var st = stat()
        guard stat(resolvedPath, &st) == 0 else { return nil }
        let type = st.st_mode & S_IFMT
        if type != S_IFREG && type != S_IFDIR {
            throw Diagnostic(file: displayPath,
                             message: "asset '\(displayPath)' is not a regular file (a FIFO, socket or device); it was not imported",
                             hint: "reference a regular model file")
        }
        return st
    }
}

extension AssetImporter {
    /// `(path as NSString).pathExtension`, without bridging for the usual last component (ASCII
    /// letters, digits, `_`, `-`, `.`, not starting or ending with a dot, no trailing slash);
    /// anything else goes through NSString.
    static func pathExtension(_ path: String) -> String {
        let fast = path.utf8.withContiguousStorageIfAvailable { b -> String? in
            guard let last = b.last, last != UInt8(ascii: "/") else { return nil }
            var start = b.count
            while start > 0, b[start - 1] != UInt8(ascii: "/") { start -= 1 }
            var dot: Int?
            for k in start..<b.count {
                let c = b[k]
                let plain = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
                if c == UInt8(ascii: ".") { dot = k } else if !plain { return nil }
            }
            guard let dot else { return "" }
            guard dot > start, dot < b.count - 1, b[start] != UInt8(ascii: ".") else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: b[(dot + 1)...]), as: UTF8.self)
        }
        return (fast ?? nil) ?? (path as NSString).pathExtension
    }

    /// The size of the file the path leads to (following symbolic links, so a link to a huge file
    /// is measured as the huge file), 0 when that fails; one system call instead of a dictionary
    /// of attributes with user and group name look-ups.
    static func fileSize(_ path: String) -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { return 0 }
        return Int(st.st_size)
    }

    /// assimp says only "No suitable reader found" for broken JSON or a bad GLB header; this names
    /// the actual problem for glTF files (called on the failure path only).
    static func containerProblem(path: String, ext: String) -> String? {
        guard ext == "gltf" || ext == "glb", let data = FileManager.default.contents(atPath: path) else { return nil }
        if data.count >= 4, data.prefix(4) == Data("glTF".utf8) { return nil }
        if ext == "glb" {
            let magic = data.prefix(4).map { (0x20..<0x7f).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
            return "not a GLB container: the header magic is '\(magic)', expected 'glTF'"
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            return "the file is not valid JSON"
        }
    }
}

/// Turns one `aiScene` into an `ImportedAsset`; lives only while the scene does.
struct SceneConverter {
    let scene: UnsafePointer<aiScene>
    let resolvedPath: String
    let displayPath: String
    let ext: String
    /// The asset as assimp read it, when it went through `ConfinedFileSystem`: the glTF facts and
    /// the COLLADA unit note read it from there instead of opening the path again.
    var assetFile: CheckedFile?
    var warnings: [String] = []

    init(scene: UnsafePointer<aiScene>, resolvedPath: String, displayPath: String, ext: String) {
        self.scene = scene; self.resolvedPath = resolvedPath; self.displayPath = displayPath; self.ext = ext
    }

    func fail(_ message: String, hint: String? = AssetImporter.hint) -> Diagnostic {
        Diagnostic(file: displayPath, message: message, hint: hint)
    }

    /// Geometry of one aiMesh, converted once and shared by every node that instances it.
    struct MeshData {
        var vertices: [Float]
        var triangles: Int
        /// Bounds of `vertices` as `ImportedAsset.bounds(of:by: .identity)` computes them.
        var bounds: AABB
    }

    mutating func convert() throws(Diagnostic) -> ImportedAsset {
        let sc = scene.pointee
        let sceneMeta = readMetadata(sc.mMetaData.map { UnsafePointer($0) })
        func meta(_ key: String) -> MetaValue? { sceneMeta.first { $0.key == key }?.value }

        let format = meta("SourceAsset_Format")?.string ?? Self.formatName(forExtension: ext)

        // Meshes.
        let meshCount = Int(sc.mNumMeshes)
        var meshCache = [MeshData?](repeating: nil, count: meshCount)
        var vertexPool = VertexPool()

        // Nodes, depth-first pre-order, iteratively.
        guard let root = sc.mRootNode else { throw fail("asset has no node hierarchy (assimp returned no root node)") }
        var nodes: [AssetNode] = []
        var stack: [(node: UnsafePointer<aiNode>, parent: Int?, depth: Int)] = [(UnsafePointer(root), nil, 0)]
        while let (ptr, parent, depth) = stack.popLast() {
            if depth > AssetImporter.maxNodeDepth {
                throw fail("asset node hierarchy is deeper than \(AssetImporter.maxNodeDepth) levels, the limit for an asset's hierarchy",
                           hint: "flatten long chains of nodes (apply their transforms in your 3D tool), or check that the file's node graph has no cycle")
            }
            if nodes.count >= AssetImporter.maxNodeCount {
                throw fail("asset has more than \(AssetImporter.maxNodeCount) nodes")
            }
            let n = ptr.pointee
            let name = swiftString(n.mName)
            let local = mat4(n.mTransformation)
            let index = nodes.count

            var vertices: [Float] = []
            var triangles = 0
            // The union of the meshes' own bounds is the bounds of their concatenated vertices.
            var meshBounds = AABB.empty
            var vertexTotal = 0
            let numNodeMeshes = Int(n.mNumMeshes)
            if numNodeMeshes > 0, let meshIndices = n.mMeshes {
                for k in 0..<numNodeMeshes {
                    let mi = Int(meshIndices[k])
                    guard mi < meshCount, let meshes = sc.mMeshes, let meshPtr = meshes[mi] else {
                        throw fail("asset node '\(name)' references mesh \(mi) but the scene has \(meshCount) meshes")
                    }
                    var data: MeshData
                    if let cached = meshCache[mi] { data = cached } else {
                        data = try convertMesh(meshPtr, index: mi)
                        // Meshes with equal vertices (assimp copies a shared glTF accessor per mesh) share one array.
                        data.vertices = vertexPool.intern(data.vertices)
                        meshCache[mi] = data
                    }
                    if numNodeMeshes == 1 {
                        vertices = data.vertices // shares the cached array's storage (no copy)
                    } else {
                        vertexTotal += data.vertices.count
                    }
                    triangles += data.triangles
                    meshBounds.formUnion(data.bounds)
                }
                if numNodeMeshes > 1 {
                    // Every mesh is converted and cached above: one allocation for their concatenation.
                    vertices.reserveCapacity(vertexTotal)
                    for k in 0..<numNodeMeshes {
                        let mi = Int(meshIndices[k])
                        if mi < meshCount, let data = meshCache[mi] { vertices.append(contentsOf: data.vertices) }
                    }
                }
            }

            // A singular transform (a zero scale) flattens or hides what is below it: legal, and used
            // to hide parts, but worth saying since bounds and sizes then collapse.
            let m = local.values
            let det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2])
                + m[8] * (m[1] * m[6] - m[5] * m[2])
            if abs(m[3]) > 1e-9 || abs(m[7]) > 1e-9 || abs(m[11]) > 1e-9 || abs(m[15] - 1) > 1e-9 {
                throw fail("asset node '\(name)' has a projective (non-affine) transform: its bottom row is [\(m[3]), \(m[7]), \(m[11]), \(m[15])], expected [0, 0, 0, 1]",
                           hint: "node transforms must be made of translation, rotation and scale; re-export the file")
            }
            if abs(det) < 1e-12 {
                warnings.append("node '\(name)' has a singular transform (a zero scale): its geometry and children collapse to a plane, line or point")
            }
            let marking = markNode(name: name, metadata: n.mMetaData.map { UnsafePointer($0) })
            nodes.append(AssetNode(name: name, parent: parent, subtreeEnd: index + 1, local: local,
                                   localTRS: local.decomposedTRS(), meshBounds: meshBounds,
                                   vertices: vertices, triangles: triangles, marking: marking))
            let numChildren = Int(n.mNumChildren)
            if numChildren > 0, let children = n.mChildren {
                for c in stride(from: numChildren - 1, through: 0, by: -1) {
                    guard let child = children[c] else { continue }
                    stack.append((UnsafePointer(child), index, depth + 1))
                }
            }
        }
        // Subtree ends: in reverse pre-order, each node extends its parent's range.
        for i in stride(from: nodes.count - 1, through: 1, by: -1) {
            if let p = nodes[i].parent { nodes[p].subtreeEnd = max(nodes[p].subtreeEnd, nodes[i].subtreeEnd) }
        }

        if !nodes.contains(where: { !$0.vertices.isEmpty }) {
            throw fail("asset has no geometry (no node references a mesh with vertices)",
                       hint: "export the meshes, not only cameras, lights or an armature")
        }
        let vertexCount = nodes.reduce(0) { $0 + $1.vertices.count / 3 }
        if nodes.allSatisfy({ $0.triangles == 0 }) {
            // A file that declares faces but delivered none lost them (a truncated PLY): an error.
            // One that declares none is a point cloud (a scan): it loads with its bounds.
            if let declared = Self.plyDeclaredFaces(path: resolvedPath, ext: ext), declared > 0 {
                throw fail("asset has no surface geometry: \(vertexCount) vertices but no triangles, though its header declares \(declared) faces (faces lost to truncation?)",
                           hint: "re-export the file; it looks cut short")
            }
            if ext == "obj", Self.objHasFaceLines(path: resolvedPath) {
                throw fail("asset has no surface geometry: \(vertexCount) vertices but no triangles, though it has face ('f') lines (faces lost to truncation or bad indices?)",
                           hint: "re-export the file; it looks cut short")
            }
            warnings.append("point cloud: \(vertexCount) vertices and no faces; loaded with its bounds and 0 triangles")
        }
        // The glTF JSON is read once (only the facts the two checks need) and shared by both.
        var gltfFacts: GLTFFacts?
        if ext == "gltf" || ext == "glb" {
            gltfFacts = if let assetFile { GLTFFacts.read(file: assetFile) } else { GLTFFacts.read(path: resolvedPath) }
            let (problem, oddity) = GLTFIndexCheck.hierarchyProblems(facts: gltfFacts)
            if let problem {
                throw fail(problem, hint: "glTF nodes must form trees (one parent per node, no cycles); validate the file with the Khronos glTF-Validator")
            }
            if let oddity { warnings.append(oddity) }
        }

        let animations = convertAnimations(nodes: nodes)
        let (unitScale, unitNote) = units(format: format, meta: meta)
        let (axisConversion, axisNote) = axes(format: format, meta: meta)

        if ext == "gltf" || ext == "glb" {
            if let warning = GLTFIndexCheck.droppedTriangleWarning(
                facts: gltfFacts, importedTriangles: importedTrianglesPerMesh(known: meshCache)) {
                warnings.append(warning)
            }
        }

        return ImportedAsset(path: displayPath, resolvedPath: resolvedPath, format: format, nodes: nodes,
                             animations: animations, declaredUnitScale: unitScale, unitNote: unitNote,
                             warnings: warnings, axisConversion: axisConversion, axisNote: axisNote)
    }

    /// The FBX `GlobalSettings` axis system, which assimp 5.2 reports as scene metadata (`UpAxis`,
    /// `UpAxisSign`, `FrontAxis`, `FrontAxisSign`, `CoordAxis`, `CoordAxisSign`; axes 0 = X, 1 = Y,
    /// 2 = Z, signs ±1) but does not apply. The conversion maps the file's up to +Y, its front (the
    /// side a model shows a default camera, +Z in Y-up files) to +Z, and its coord (right) axis to
    /// +X, so the asset arrives +Y up, −Z forward as Reality Converter and Blender import it. Its
    /// rows are `sign · e_axis`: row 0 the coord axis, row 1 the up axis, row 2 the front axis.
    /// Nil for other formats, for incomplete or inconsistent declarations (with a note saying so),
    /// and when the file already uses these axes.
    mutating func axes(format: String, meta: (String) -> MetaValue?) -> (Mat4?, String) {
        guard format.lowercased().contains("fbx") || ext == "fbx" else { return (nil, "") }
        func int(_ k: String) -> Int? {
            guard let v = meta(k)?.number, v.isFinite, v == v.rounded(), abs(v) <= 8 else { return nil }
            return Int(v)
        }
        guard let up = int("UpAxis"), let front = int("FrontAxis"), let coord = int("CoordAxis") else {
            return (nil, "FBX declares no axis system; read as +Y up, +Z front")
        }
        let upSign = int("UpAxisSign") ?? 1, frontSign = int("FrontAxisSign") ?? 1, coordSign = int("CoordAxisSign") ?? 1
        let axesOK = Set([up, front, coord]) == [0, 1, 2]
        let signsOK = [upSign, frontSign, coordSign].allSatisfy { $0 == 1 || $0 == -1 }
        let declared = "up \(Self.axisName(up, upSign)), front \(Self.axisName(front, frontSign)), right \(Self.axisName(coord, coordSign))"
        guard axesOK && signsOK else {
            warnings.append("FBX axis system is inconsistent (UpAxis \(up), FrontAxis \(front), CoordAxis \(coord), signs \(upSign), \(frontSign), \(coordSign)); axes left as they are")
            return (nil, "FBX axis system inconsistent; axes left as in the file")
        }
        if up == 1 && upSign == 1 && front == 2 && frontSign == 1 && coord == 0 && coordSign == 1 {
            return (nil, "FBX axes: \(declared) (already +Y up, +Z front; nothing to convert)")
        }
        // Row r of the 3×3 part: sign · e_axis. Column-major storage: m[col * 4 + row].
        var m = [Double](repeating: 0, count: 16)
        m[15] = 1
        for (row, axis, sign) in [(0, coord, coordSign), (1, up, upSign), (2, front, frontSign)] {
            m[axis * 4 + row] = Double(sign)
        }
        let r = Mat4(columnMajor: m)
        let det = r[0, 0] * (r[1, 1] * r[2, 2] - r[1, 2] * r[2, 1]) - r[0, 1] * (r[1, 0] * r[2, 2] - r[1, 2] * r[2, 0])
            + r[0, 2] * (r[1, 0] * r[2, 1] - r[1, 1] * r[2, 0])
        let mirror = det < 0 ? " and mirrored (the file is left-handed)" : ""
        return (r, "FBX axes: \(declared) → turned\(mirror) to +Y up, +Z front")
    }

    /// "+Z", "−Y": an FBX axis index and sign.
    static func axisName(_ axis: Int, _ sign: Int) -> String {
        (sign < 0 ? "−" : "+") + (axis == 0 ? "X" : axis == 1 ? "Y" : axis == 2 ? "Z" : "?")
    }

    /// True when an OBJ file has a face line (`f …`), read in 1 MiB chunks up to the first one.
    static func objHasFaceLines(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var atLineStart = true, sawF = false
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            for b in chunk {
                if sawF && (b == 0x20 || b == 0x09) { return true }
                sawF = atLineStart && (b == 0x66 || b == 0x46) // f or F
                atLineStart = b == 0x0A || b == 0x0D
            }
        }
        return false
    }

    /// For a PLY file, the face count its header declares (`element face N`; 0 when it declares no
    /// face element), read from the first 64 KiB; nil for other formats or an unreadable header.
    static func plyDeclaredFaces(path: String, ext: String) -> Int? {
        guard ext == "ply", let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 64 * 1024) else { return nil }
        // The header is ASCII up to `end_header`, even in binary files.
        let text = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
        var faces = 0
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.first == "end_header" { return faces }
            if words.count >= 3, words[0] == "element", words[1] == "face" || words[1] == "tristrips" {
                // Capped so that absurd declared counts cannot overflow the sum.
                faces = min(faces + min(max(Int(words[2]) ?? 1, 0), 1 << 40), 1 << 50)
            }
        }
        return faces
    }

    /// Triangle count of every aiMesh (not instances), in scene order; meshes already converted
    /// (`known`, indexed like the scene's meshes) are not counted again.
    func importedTrianglesPerMesh(known: [MeshData?] = []) -> [Int] {
        let sc = scene.pointee
        guard let meshes = sc.mMeshes else { return [] }
        return (0..<Int(sc.mNumMeshes)).map { i in
            if i < known.count, let data = known[i] { return data.triangles }
            guard let m = meshes[i]?.pointee else { return 0 }
            return Self.triangleCount(m)
        }
    }

    /// Faces with exactly three indices.
    static func triangleCount(_ mesh: aiMesh) -> Int {
        guard let faces = mesh.mFaces else { return 0 }
        var t = 0
        for f in 0..<Int(mesh.mNumFaces) where faces[f].mNumIndices == 3 { t += 1 }
        return t
    }

    func convertMesh(_ meshPtr: UnsafeMutablePointer<aiMesh>, index: Int) throws(Diagnostic) -> MeshData {
        let mesh = meshPtr.pointee
        let meshName = swiftString(mesh.mName)
        let label = meshName.isEmpty ? "#\(index)" : "'\(meshName)'"
        let nv = Int(mesh.mNumVertices)
        var vertices: [Float] = []
        var bounds = AABB.empty
        if nv > 0, let v = mesh.mVertices {
            // aiVector3D is three packed floats (ai_real = float): copy them in one go.
            if MemoryLayout<aiVector3D>.stride == 3 * MemoryLayout<Float>.stride {
                vertices = Array(unsafeUninitializedCapacity: nv * 3) { buffer, initialized in
                    guard let base = buffer.baseAddress else { initialized = 0; return }
                    UnsafeMutableRawPointer(base).copyMemory(from: UnsafeRawPointer(v), byteCount: nv * 3 * MemoryLayout<Float>.stride)
                    initialized = nv * 3
                }
            } else {
                vertices.reserveCapacity(nv * 3)
                for i in 0..<nv { vertices.append(v[i].x); vertices.append(v[i].y); vertices.append(v[i].z) }
            }
            // One pass: the first non-finite coordinate (its vertex is the first bad one) and the bounds.
            var lx = Float.infinity, ly = Float.infinity, lz = Float.infinity
            var hx = -Float.infinity, hy = -Float.infinity, hz = -Float.infinity
            var bad: Int?
            vertices.withUnsafeBufferPointer { f in
                guard let p = f.baseAddress else { return }
                for k in 0..<(f.count / 3) {
                    let x = p[3 * k], y = p[3 * k + 1], z = p[3 * k + 2]
                    guard x.isFinite, y.isFinite, z.isFinite else { bad = k; return }
                    // pointwiseMin / pointwiseMax: replace only where strictly smaller / larger.
                    lx = x < lx ? x : lx; ly = y < ly ? y : ly; lz = z < lz ? z : lz
                    hx = x > hx ? x : hx; hy = y > hy ? y : hy; hz = z > hz ? z : hz
                }
            }
            let lo = SIMD3<Float>(lx, ly, lz), hi = SIMD3<Float>(hx, hy, hz)
            if let bad {
                throw fail("asset \(displayPath) has non-finite vertex coordinates in mesh \(label) (vertex \(bad))",
                           hint: "re-export the model; NaN or infinite positions usually come from a broken modifier or exporter")
            }
            // As ImportedAsset.bounds(of:by: .identity): exact in Double, and `+ 0` turns -0 into +0
            // as the identity transform's translation does.
            bounds = AABB(min: SIMD3<Double>(lo) + 0, max: SIMD3<Double>(hi) + 0)
        }
        return MeshData(vertices: vertices, triangles: Self.triangleCount(mesh), bounds: bounds)
    }

    /// Scene format §7: `extras.spatial` first, then the name prefixes.
    mutating func markNode(name: String, metadata: UnsafePointer<aiMetadata>?) -> AssetMarking? {
        let entries = readMetadata(metadata)
        if let spatial = entries.first(where: { $0.key == "spatial" })?.value {
            let where_ = name.isEmpty ? "a node" : "node '\(name)'"
            if case .table = spatial {
                if let roleName = spatial["role"]?.string {
                    if let role = ElementRole(rawValue: roleName) {
                        return AssetMarking(role: role, interactive: spatial["interactive"]?.bool,
                                            primary: spatial["primary"]?.bool,
                                            fontSize: spatial["fontSize"]?.number, source: .extras)
                    }
                    var w = "\(where_): extras.spatial.role '\(roleName)' is not a known role (expected one of \(ElementRole.allCases.map(\.rawValue).joined(separator: ", ")))"
                    if let suggestion = closestMatch(to: roleName, in: ElementRole.allCases.map(\.rawValue)) {
                        w += "; did you mean '\(suggestion)'?"
                    }
                    warnings.append(w + "; marking ignored")
                } else {
                    warnings.append("\(where_): extras.spatial has no string 'role'; marking ignored")
                }
            } else {
                warnings.append("\(where_): extras.spatial is \(spatial.display), expected an object; marking ignored")
            }
        }
        let lower = name.lowercased()
        if lower.hasPrefix("btn_") || lower.hasPrefix("button_") {
            return AssetMarking(role: .button, source: .namePrefix)
        }
        if lower.hasPrefix("txt_") || lower.hasPrefix("text_") {
            return AssetMarking(role: .text, source: .namePrefix)
        }
        return nil
    }

    mutating func convertAnimations(nodes: [AssetNode]) -> [AssetClip] {
        let sc = scene.pointee
        guard sc.mNumAnimations > 0, let anims = sc.mAnimations else { return [] }
        var firstIndex: [String: Int] = [:]
        for (i, n) in nodes.enumerated() where firstIndex[n.name] == nil { firstIndex[n.name] = i }

        var clips: [AssetClip] = []
        for ai in 0..<Int(sc.mNumAnimations) {
            guard let anim = anims[ai]?.pointee else { continue }
            var name = swiftString(anim.mName)
            if name.isEmpty { name = "animation\(ai)" }
            let tps = anim.mTicksPerSecond > 0 && anim.mTicksPerSecond.isFinite ? anim.mTicksPerSecond : 25
            var dropped = 0
            var channels: [NodeChannel] = []
            if anim.mNumChannels > 0, let chans = anim.mChannels {
                for ci in 0..<Int(anim.mNumChannels) {
                    guard let ch = chans[ci]?.pointee else { continue }
                    let nodeName = swiftString(ch.mNodeName)
                    guard let node = firstIndex[nodeName] else {
                        warnings.append("animation '\(name)': channel for unknown node '\(nodeName)' skipped")
                        continue
                    }
                    var channel = NodeChannel(node: node)
                    channel.positions = vectorKeys(ch.mPositionKeys, Int(ch.mNumPositionKeys), tps, &dropped)
                    if let keys = ch.mRotationKeys {
                        for k in 0..<Int(ch.mNumRotationKeys) {
                            let key = keys[k]
                            // assimp stores quaternions as (w, x, y, z).
                            let q = Quat(x: Double(key.mValue.x), y: Double(key.mValue.y),
                                         z: Double(key.mValue.z), w: Double(key.mValue.w))
                            let t = key.mTime / tps
                            if q.isFinite && q.lengthSquared > 0 && t.isFinite {
                                channel.rotations.append(Key(time: t, value: q))
                            } else { dropped += 1 }
                        }
                    }
                    channel.scales = vectorKeys(ch.mScalingKeys, Int(ch.mNumScalingKeys), tps, &dropped)
                    channels.append(channel)
                }
            }
            if dropped > 0 {
                warnings.append("animation '\(name)': \(dropped) key(s) with non-finite time or value dropped")
            }
            var duration = anim.mDuration / tps
            if !duration.isFinite || duration < 0 {
                duration = channels.flatMap { $0.positions.map(\.time) + $0.rotations.map(\.time) + $0.scales.map(\.time) }.max() ?? 0
            }
            clips.append(AssetClip(name: name, duration: duration, channels: channels))
        }
        return clips
    }

    func units(format: String, meta: (String) -> MetaValue?) -> (Double?, String) {
        let f = format.lowercased()
        if f.contains("fbx") || ext == "fbx" {
            guard let usf = meta("UnitScaleFactor")?.number, usf.isFinite, usf > 0 else {
                return (nil, "FBX declares no UnitScaleFactor; read as file units (set assetUnits if they are not metres)")
            }
            let metres = usf / 100
            return (metres, "FBX UnitScaleFactor \(Self.number(usf)) (centimetres per unit): \(Self.number(metres)) m per unit")
        }
        if f.contains("collada") || ext == "dae" {
            return (nil, colladaUnitNote())
        }
        if f.contains("gltf") || ext == "gltf" || ext == "glb" {
            return (nil, "glTF is in metres by specification")
        }
        let label = ext.isEmpty ? format : ext.uppercased()
        return (nil, "\(label) carries no units; read as metres (set assetUnits if it is not)")
    }

    /// Reads `<unit …/>` and `<up_axis>` from the first 64 KiB of a COLLADA file.
    func colladaUnitNote() -> String {
        var data = Data()
        if let assetFile {
            data = Data(assetFile.bytes(at: 0, count: 64 * 1024))
        } else if let handle = FileHandle(forReadingAtPath: resolvedPath) {
            data = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
            try? handle.close()
        }
        if let (unit, up) = Self.colladaUnitAndUpASCII(data) {
            return "COLLADA \(unit) and \(up) applied by the importer (baked into the root node)"
        }
        return Self.colladaUnitNoteRegex(String(decoding: data, as: UTF8.self))
    }

    /// `colladaUnitNoteRegex`'s two searches done on bytes, for text that is ASCII without
    /// vertical tabs (where the regular expressions' `\b` and `\s` are plain ASCII classes:
    /// word = [A-Za-z0-9_], space = [ \t\n\f\r]); nil for any other text.
    static func colladaUnitAndUpASCII(_ data: Data) -> (unit: String, up: String)? {
        data.withUnsafeBytes { raw -> (unit: String, up: String)? in
            let t = raw.bindMemory(to: UInt8.self)
            var unusual: UInt8 = 0 // a branch-free scan (vectorised)
            for c in t { unusual |= (c & 0x80) | (c == 0x0B ? 1 : 0) }
            guard unusual == 0 else { return nil }
            func isWord(_ c: UInt8) -> Bool {
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
            }
            func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
            func starts(_ s: StaticString, at i: Int, in buf: UnsafeBufferPointer<UInt8>) -> Bool {
                let n = s.utf8CodeUnitCount
                guard i >= 0, i + n <= buf.count else { return false }
                for k in 0..<n where buf[i + k] != s.utf8Start[k] { return false }
                return true
            }
            func text(_ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: buf[r]), as: UTF8.self)
            }

            // <unit\b[^>]*>
            var unit = "no <unit> (metres)"
            var tagRange: Range<Int>?
            var p = 0
            while p + 5 <= t.count {
                if t[p] == UInt8(ascii: "<"), starts("<unit", at: p, in: t), p + 5 == t.count || !isWord(t[p + 5]) {
                    var e = p + 5
                    while e < t.count, t[e] != UInt8(ascii: ">") { e += 1 }
                    if e < t.count { tagRange = p..<(e + 1) }
                    break // no '>' after this one: none after a later one either
                }
                p += 1
            }
            if let tagRange {
                let tag = UnsafeBufferPointer(rebasing: t[tagRange])
                // \bNAME\s*=\s*"[^"]*"
                func attr(_ name: StaticString) -> String? {
                    let n = name.utf8CodeUnitCount
                    var q = 0
                    while q + n <= tag.count {
                        if starts(name, at: q, in: tag), q == 0 || !isWord(tag[q - 1]) {
                            var k = q + n
                            while k < tag.count, isSpace(tag[k]) { k += 1 }
                            if k < tag.count, tag[k] == UInt8(ascii: "=") {
                                k += 1
                                while k < tag.count, isSpace(tag[k]) { k += 1 }
                                if k < tag.count, tag[k] == UInt8(ascii: "\"") {
                                    var e = k + 1
                                    while e < tag.count, tag[e] != UInt8(ascii: "\"") { e += 1 }
                                    if e < tag.count { return text(tag, (k + 1)..<e) }
                                }
                            }
                        }
                        q += 1
                    }
                    return nil
                }
                var parts: [String] = []
                if let m = attr("meter") { parts.append("meter=\"\(m)\"") }
                if let n = attr("name") { parts.append("name=\"\(n)\"") }
                unit = "<unit" + (parts.isEmpty ? "" : " " + parts.joined(separator: " ")) + ">"
            }

            // <up_axis>\s*[XYZ]_UP\s*</up_axis>
            var up = "Y_UP"
            p = 0
            while p + 9 <= t.count {
                if t[p] == UInt8(ascii: "<"), starts("<up_axis>", at: p, in: t) {
                    var k = p + 9
                    while k < t.count, isSpace(t[k]) { k += 1 }
                    if k < t.count, t[k] == UInt8(ascii: "X") || t[k] == UInt8(ascii: "Y") || t[k] == UInt8(ascii: "Z"),
                       starts("_UP", at: k + 1, in: t) {
                        let axis = t[k]
                        var e = k + 4
                        while e < t.count, isSpace(t[e]) { e += 1 }
                        if starts("</up_axis>", at: e, in: t) {
                            up = String(UnicodeScalar(axis)) + "_UP"
                            break
                        }
                    }
                }
                p += 1
            }
            return (unit, up)
        }
    }

    /// The general case of `colladaUnitNote` (any text), with regular expressions.
    static func colladaUnitNoteRegex(_ text: String) -> String {
        var unit = "no <unit> (metres)"
        if let r = text.range(of: "<unit\\b[^>]*>", options: .regularExpression) {
            let tag = String(text[r])
            func attr(_ name: String) -> String? {
                guard let a = tag.range(of: "\\b\(name)\\s*=\\s*\"[^\"]*\"", options: .regularExpression) else { return nil }
                let s = tag[a]
                guard let q1 = s.firstIndex(of: "\"") else { return nil }
                return String(s[s.index(after: q1)...].dropLast())
            }
            var parts: [String] = []
            if let m = attr("meter") { parts.append("meter=\"\(m)\"") }
            if let n = attr("name") { parts.append("name=\"\(n)\"") }
            unit = "<unit" + (parts.isEmpty ? "" : " " + parts.joined(separator: " ")) + ">"
        }
        var up = "Y_UP"
        if let r = text.range(of: "<up_axis>\\s*[XYZ]_UP\\s*</up_axis>", options: .regularExpression) {
            let s = text[r]
            for axis in ["X_UP", "Y_UP", "Z_UP"] where s.contains(axis) { up = axis }
        }
        return "COLLADA \(unit) and \(up) applied by the importer (baked into the root node)"
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }

    static func formatName(forExtension ext: String) -> String {
        if let desc = aiGetImporterDesc(ext), let name = desc.pointee.mName {
            let s = String(cString: name)
            if !s.isEmpty { return s }
        }
        return ext.isEmpty ? "unknown format" : ext.uppercased()
    }
}

/// Position or scale keys in seconds; keys with a non-finite time or value are counted in `dropped`.
private func vectorKeys(_ keys: UnsafeMutablePointer<aiVectorKey>?, _ count: Int, _ ticksPerSecond: Double,
                        _ dropped: inout Int) -> [Key<Vec3>] {
    guard let keys else { return [] }
    var out: [Key<Vec3>] = []
    out.reserveCapacity(count)
    for k in 0..<count {
        let key = keys[k]
        let v = Vec3(Double(key.mValue.x), Double(key.mValue.y), Double(key.mValue.z))
        let t = key.mTime / ticksPerSecond
        if v.isFinite && t.isFinite { out.append(Key(time: t, value: v)) } else { dropped += 1 }
    }
    return out
}
