import Foundation
import SpatialModel

/// Imports USD (`.usda`, `.usdc`, `.usd`, `.usdz`) and Reality Composer Pro `.rkassets` folders
/// through Pixar's OpenUSD Python package `usd-core`, in a Python worker process
/// (`USDWorkerScript`), into the same `ImportedAsset` model assimp imports produce.
///
/// - Composition is USD's own: sublayers, references, payloads (all loaded), authored variant
///   selections, inherits, specializes. The stage's `metersPerUnit` and `upAxis` (root layer) are
///   applied as the transform of node 0 (a synthetic node named after the file), so the asset is in
///   metres, +Y up; `declaredUnitScale` is nil (already applied) and `unitNote` says what was
///   applied. Referenced layers in other units are not rescaled (USD does not either); the worker
///   warns when the referencing prim does not compensate.
/// - Nodes: every active, defined, loaded prim (instance proxies included) except materials,
///   shaders, geometry subsets and RealityKit component prims, in pre-order. Local transforms are
///   USD's (`XformCache`, all xformOp kinds, `!resetXformStack!` honoured) at the stage's start
///   time code (default time when the stage has no time range).
/// - Geometry: each boundable prim's local `extent` (authored, else computed by USD for meshes and
///   the implicit Cube, Sphere, Cylinder, Capsule, Cone and Plane) as its 8 corners, so world bounds
///   equal `UsdGeom.BBoxCache`'s aligned world range. Invisible prims (`visibility = invisible`,
///   inherited), prims whose hierarchical opacity is 0, and guide/proxy purpose contribute no
///   geometry. Triangles: meshes' `faceVertexCounts` (n − 2 per face); implicit shapes get nominal
///   counts (`USDWorkerScript.IMPLICIT_TRIANGLES`).
/// - Animation: time-sampled transforms become one clip per stage (`timeline`), key times in
///   seconds from the start time code (`timeCodesPerSecond`).
/// - RealityKit components are kept per node (`USDNodeFacts.components`, custom ones too) and read
///   into facts: InputTarget → interactive (marking role `custom`, source `usdComponent`), direct /
///   indirect input; Collider → hit region; Anchoring → anchor; Accessibility → label; Billboard;
///   HierarchicalFade → opacity.
/// - Confinement: before the stage is opened the worker walks every layer the root layer pulls in
///   (sublayers, references, payloads, those inside variants, value clips) and refuses one that
///   resolves, after symbolic links, outside `confinementRoot` or inside a `.git` folder, unless
///   `allowExternal`. Missing layers load with a warning.
public enum USDImporter {
    /// Extensions read by this importer (lowercased).
    public static let fileExtensions: Set<String> = ["usd", "usda", "usdc", "usdz"]

    /// True for a USD file or an `.rkassets` folder.
    public static func handles(_ path: String) -> Bool {
        let ext = AssetImporter.pathExtension(path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased()
        return fileExtensions.contains(ext) || ext == "rkassets"
    }

    /// True for a path whose name ends in `.rkassets` (a Reality Composer Pro asset folder).
    public static func isRKAssets(_ path: String) -> Bool {
        AssetImporter.pathExtension(path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased() == "rkassets"
    }

    /// The hint given whenever usd-core or Python is missing.
    public static let installHint = "pip install usd-core"

    /// The version of usd-core the USD reader would use ("0.25.5"), or nil when Python or usd-core
    /// is missing (for `--version --verbose`; starts Python once, outside any worker).
    public static func usdCoreVersion() -> String? {
        guard let python = USDWorkerPool.pythonExecutable() else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        p.arguments = ["-B", "-c", "from pxr import Usd; print('.'.join(str(x) for x in Usd.GetVersion()))"]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        p.environment = environment
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        let v = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return v.range(of: #"^[0-9]+(\.[0-9]+)*$"#, options: .regularExpression) != nil ? v : nil
    }

    /// Imports the USD asset at `resolvedPath` (file or `.rkassets` folder); `displayPath` names it
    /// in messages. `confinementRoot`: every layer must resolve inside it (default: the project root
    /// of the asset — `ProjectRoot.find` — else the asset's own folder). `isolation` supplies the
    /// timeout and memory limit (defaults when nil); the worker is always a separate process.
    public static func load(resolvedPath: String, displayPath: String, confinementRoot: String? = nil,
                            allowExternal: Bool = false,
                            isolation: AssetImportIsolation? = nil) throws(Diagnostic) -> ImportedAsset {
        let prefix = "asset '\(displayPath)' could not be imported: "
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolvedPath, isDirectory: &isDirectory) else {
            throw Diagnostic(file: displayPath, message: prefix + "file not found",
                             hint: "check the path (relative paths are resolved against the scene file's folder)")
        }
        if isDirectory.boolValue, !isRKAssets(resolvedPath) {
            throw Diagnostic(file: displayPath, message: prefix + "it is a directory",
                             hint: "name a USD file, or a Reality Composer Pro .rkassets folder")
        }
        if !isDirectory.boolValue {
            let size = AssetImporter.fileSize(resolvedPath)
            if size > AssetImporter.defaultMaxFileSize {
                throw Diagnostic(file: displayPath,
                                 message: prefix + "the file is \(size) bytes, more than the limit of \(AssetImporter.defaultMaxFileSize) bytes",
                                 hint: "reduce the asset (decimate meshes, strip unused data)")
            }
        }
        let absolute = ProjectRoot.canonical(resolvedPath.hasPrefix("/") ? resolvedPath
            : FileManager.default.currentDirectoryPath + "/" + resolvedPath)
        let folder = isDirectory.boolValue ? absolute : (absolute as NSString).deletingLastPathComponent
        let root = ProjectRoot.find(for: absolute, explicit: confinementRoot, fallback: folder)
        let timeout = isolation?.timeout ?? AssetImportIsolation.defaultTimeout
        let memory = isolation?.memoryLimitBytes ?? AssetImportIsolation.defaultMemoryLimitBytes
        let request = USDWorkerRequest(path: absolute, display: displayPath, root: root,
                                       external: allowExternal, cpu: timeout)
        let bytes = try USDWorkerPool.shared.run(request, timeout: timeout, memoryLimitBytes: memory,
                                                 displayPath: displayPath)
        return try USDAssetDecoder.decode(bytes, displayPath: displayPath, resolvedPath: resolvedPath,
                                          isFolder: isDirectory.boolValue)
    }
}

/// One request line to the worker.
struct USDWorkerRequest: Encodable {
    var path: String
    var display: String
    var root: String
    var external: Bool
    var cpu: Double
}

// MARK: - Decoding the worker's response

struct USDWorkerResponse: Decodable {
    var ok: Bool
    var error: String?
    var hint: String?
    var refused: Bool?
    var memory: Bool?
    var stages: [Stage]?
    var nodes: [Node]?
    var warnings: [String]?

    struct Stage: Decodable {
        var file: String
        var metersPerUnit: Double
        var metersPerUnitAuthored: Bool
        var upAxis: String
        var upAxisAuthored: Bool
        var timeCodesPerSecond: Double
        var start: Double
        var end: Double
        var hasTimeRange: Bool
        var layers: Int
        var defaultPrim: String?
    }

    struct Node: Decodable {
        var n: String
        var p: Int
        var m: [Double]?
        var path: String?
        var t: String?
        var b: [Double]?
        var tri: Int?
        var hid: Int?
        var pur: String?
        var c: [Component]?
        var k: [[Double]]?
        var stage: Int?
    }

    struct Component: Decodable {
        var name: String
        var custom: Bool
        var id: String
        var fields: [Field]
    }

    struct Field: Decodable {
        var field: USDField
        init(from decoder: Decoder) throws {
            var c = try decoder.unkeyedContainer()
            let name = try c.decode(String.self)
            let value = try c.decode(Value.self)
            field = USDField(name: name, value: value.value)
        }
    }

    struct Value: Decodable {
        var value: USDValue
        private struct StructKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        init(from decoder: Decoder) throws {
            if let keyed = try? decoder.container(keyedBy: StructKey.self) {
                let fields = try keyed.decode([Field].self, forKey: StructKey(stringValue: "struct"))
                value = .structure(fields.map(\.field))
                return
            }
            if var list = try? decoder.unkeyedContainer() {
                var items: [USDValue] = []
                while !list.isAtEnd { items.append(try list.decode(Value.self).value) }
                value = .list(items)
                return
            }
            let single = try decoder.singleValueContainer()
            if let b = try? single.decode(Bool.self) { value = .bool(b); return }
            if let d = try? single.decode(Double.self) { value = .number(d); return }
            value = .string(try single.decode(String.self))
        }
    }
}

enum USDAssetDecoder {
    /// The most warnings one USD asset keeps; the rest are counted in one more line.
    static let maxWarnings = 20

    static func decode(_ bytes: [UInt8], displayPath: String, resolvedPath: String,
                       isFolder: Bool) throws(Diagnostic) -> ImportedAsset {
        let prefix = "asset '\(displayPath)' could not be imported: "
        let response: USDWorkerResponse
        do {
            response = try JSONDecoder().decode(USDWorkerResponse.self, from: Data(bytes))
        } catch {
            throw Diagnostic(file: displayPath, message: prefix + "the USD reader returned an unreadable result",
                             hint: "this is a bug in spatialcheck's USD worker; please report it with the file")
        }
        guard response.ok else {
            let message = response.error ?? "the USD reader failed"
            if response.memory == true {
                throw Diagnostic(file: displayPath, message: prefix + message,
                                 hint: "the file may declare absurd sizes or be corrupt; if it is valid but large, raise the limit with --import-memory")
            }
            throw Diagnostic(file: displayPath, message: prefix + message,
                             hint: response.hint ?? "check that the file opens in usdview or Reality Composer Pro")
        }
        let stages = (response.stages ?? []).map {
            USDStageFacts(file: $0.file, metersPerUnit: $0.metersPerUnit, metersPerUnitAuthored: $0.metersPerUnitAuthored,
                          upAxis: $0.upAxis, upAxisAuthored: $0.upAxisAuthored,
                          timeCodesPerSecond: $0.timeCodesPerSecond, startTimeCode: $0.start,
                          endTimeCode: $0.end, layerCount: $0.layers, defaultPrim: $0.defaultPrim)
        }
        let raw = response.nodes ?? []
        guard !raw.isEmpty else {
            throw Diagnostic(file: displayPath, message: prefix + "the stage has no prims",
                             hint: "check that the file is a USD scene")
        }
        var warnings = response.warnings ?? []
        var nodes: [AssetNode] = []
        nodes.reserveCapacity(raw.count)
        var opacity = [Double](repeating: 1, count: raw.count)
        var hasOpacity = [Bool](repeating: false, count: raw.count)
        var stageOf = [Int](repeating: 0, count: raw.count)
        var depth = [Int](repeating: 0, count: raw.count)
        for (i, r) in raw.enumerated() {
            guard r.p < i, r.p >= -1 else {
                throw Diagnostic(file: displayPath, message: prefix + "the USD reader returned an inconsistent hierarchy at '\(r.n)'",
                                 hint: "this is a bug in spatialcheck's USD worker; please report it with the file")
            }
            let parent = r.p >= 0 ? r.p : nil
            // The same bound as the assimp importer's node trees (entity paths and every walk up
            // a hierarchy grow with it).
            depth[i] = parent.map { depth[$0] + 1 } ?? 0
            if depth[i] > AssetImporter.maxNodeDepth {
                throw Diagnostic(file: displayPath,
                                 message: prefix + "its prim hierarchy is deeper than \(AssetImporter.maxNodeDepth) levels (at '\(r.path ?? r.n)')",
                                 hint: "flatten the hierarchy: no RealityKit scene needs that many nested prims")
            }
            if let s = r.stage { stageOf[i] = s } else if let parent { stageOf[i] = stageOf[parent] }
            let local = r.m.flatMap { $0.count == 16 && $0.allSatisfy(\.isFinite) ? Mat4(columnMajor: $0) : nil } ?? .identity
            let components = (r.c ?? []).map { USDComponent(id: $0.id, name: $0.name, custom: $0.custom, fields: $0.fields.map(\.field)) }
            var facts = USDNodeFacts(primPath: r.path ?? "", typeName: r.t ?? "", components: components)
            if stages.indices.contains(stageOf[i]) { facts.stageFile = stages[stageOf[i]].file }
            facts.purpose = r.pur
            // Hierarchical opacity.
            var o = parent.map { opacity[$0] } ?? 1
            var opacityApplies = parent.map { hasOpacity[$0] } ?? false
            if let fade = components.first(where: { $0.id == "RealityKit.HierarchicalFade" }) {
                o *= min(1, max(0, fade.fields[field: "opacity"]?.number ?? 1))
                opacityApplies = true
            }
            opacity[i] = o; hasOpacity[i] = opacityApplies
            if opacityApplies { facts.opacity = o }
            facts.visible = r.hid != 1 && !(opacityApplies && o <= 0)
            apply(components, to: &facts)
            var meshBounds = AABB.empty
            var vertices: [Float] = []
            var triangles = 0
            let rendered = facts.visible && r.pur != "guide" && r.pur != "proxy"
            if rendered, let b = r.b, b.count == 6, b.allSatisfy(\.isFinite) {
                let lo = Vec3(b[0], b[1], b[2]), hi = Vec3(b[3], b[4], b[5])
                meshBounds = AABB(min: lo, max: hi)
                vertices.reserveCapacity(24)
                for k in 0..<8 {
                    vertices.append(Float(k & 1 == 0 ? lo.x : hi.x))
                    vertices.append(Float(k & 2 == 0 ? lo.y : hi.y))
                    vertices.append(Float(k & 4 == 0 ? lo.z : hi.z))
                }
                triangles = max(0, r.tri ?? 0)
            }
            let marking: AssetMarking? = facts.interactive == true
                ? AssetMarking(role: .custom, interactive: true, source: .usdComponent) : nil
            let hasFacts = r.path != nil && r.path != "/"
            nodes.append(AssetNode(name: r.n, parent: parent, subtreeEnd: i + 1, local: local,
                                   localTRS: local.decomposedTRS(), meshBounds: meshBounds, vertices: vertices,
                                   triangles: triangles, marking: marking, usd: hasFacts ? facts : nil))
        }
        for i in stride(from: nodes.count - 1, through: 0, by: -1) {
            if let p = nodes[i].parent { nodes[p].subtreeEnd = max(nodes[p].subtreeEnd, nodes[i].subtreeEnd) }
        }
        // Animation: one clip per stage with time samples.
        var clips: [AssetClip] = []
        var skipped = 0
        for (s, stage) in (response.stages ?? []).enumerated() where stage.hasTimeRange {
            let tcps = stage.timeCodesPerSecond > 0 && stage.timeCodesPerSecond.isFinite ? stage.timeCodesPerSecond : 24
            var channels: [NodeChannel] = []
            for (i, r) in raw.enumerated() where stageOf[i] == s {
                guard let keys = r.k, !keys.isEmpty else { continue }
                var ch = NodeChannel(node: i)
                for key in keys where key.count == 17 {
                    let t = (key[0] - stage.start) / tcps
                    let m = Array(key[1...])
                    guard t.isFinite, m.allSatisfy(\.isFinite), let trs = Mat4(columnMajor: m).decomposedTRS() else {
                        skipped += 1
                        continue
                    }
                    ch.positions.append(Key(time: t, value: trs.translation))
                    ch.rotations.append(Key(time: t, value: trs.rotation))
                    ch.scales.append(Key(time: t, value: trs.scale))
                }
                if !ch.positions.isEmpty { channels.append(ch) }
            }
            guard !channels.isEmpty else { continue }
            let name = stages.count > 1 ? "\((stage.file as NSString).deletingPathExtension) timeline" : "timeline"
            clips.append(AssetClip(name: name, duration: max(0, (stage.end - stage.start) / tcps), channels: channels))
        }
        if skipped > 0 {
            warnings.append("\(skipped) animation keys have a sheared or non-finite transform and were left out")
        }
        let ext = isFolder ? "rkassets" : AssetImporter.pathExtension(resolvedPath).lowercased()
        let format = isFolder ? "USD (Reality Composer Pro .rkassets, \(stages.count) scene\(stages.count == 1 ? "" : "s"))"
            : "USD (\(ext))"
        USDFactBridge.fillNodeFacts(&nodes)
        warnings += USDFactBridge.inputNotes(nodes)
        // One line per missing layer or composition error adds up (5,000 missing references made
        // 10,000 lines on standard error): the first ones say what is wrong.
        if warnings.count > maxWarnings {
            let more = warnings.count - maxWarnings
            warnings.removeSubrange(maxWarnings...)
            warnings.append("and \(more) more warning\(more == 1 ? "" : "s") from the USD reader (the first \(maxWarnings) are shown)")
        }
        return ImportedAsset(path: displayPath, resolvedPath: resolvedPath, format: format, nodes: nodes,
                             animations: clips, declaredUnitScale: nil,
                             unitNote: stages.map(\.unitNote).joined(separator: "; "),
                             warnings: warnings, usdStages: stages)
    }

    /// Reads the RealityKit components RCP writes into facts (docs/scene-format.md, "USD").
    static func apply(_ components: [USDComponent], to facts: inout USDNodeFacts) {
        for c in components {
            switch c.id {
            case "RealityKit.InputTarget":
                facts.interactive = c.fields[field: "enabled"]?.bool ?? true
                facts.allowsDirectInput = c.fields[field: "allowsDirectInput"]?.bool ?? true
                facts.allowsIndirectInput = c.fields[field: "allowsIndirectInput"]?.bool ?? true
            case "RealityKit.Collider":
                if let shape = c.fields[field: "Shape"]?.fields { facts.hitRegion = hitRegion(shape) }
            case "RealityKit.Anchoring":
                facts.anchor = anchor(c.fields[field: "descriptor"]?.fields ?? c.fields)
            case "RealityKit.Accessibility":
                if c.fields[field: "isEnabled"]?.bool != false, let label = c.fields[field: "label"]?.string, !label.isEmpty {
                    facts.accessibilityLabel = label
                }
            case "RealityKit.Billboard":
                facts.billboard = c.fields[field: "blendFactor"]?.number ?? 1
            default:
                break
            }
        }
    }

    static func hitRegion(_ shape: [USDField]) -> USDHitRegion? {
        let type = (shape[field: "shapeType"]?.string ?? "Box").lowercased()
        let size: Vec3
        let kind: USDHitRegion.Shape
        switch type {
        case "box":
            guard let e = shape[field: "extent"]?.numbers, e.count == 3 else { return nil }
            kind = .box; size = Vec3(abs(e[0]), abs(e[1]), abs(e[2]))
        case "sphere":
            guard let r = shape[field: "radius"]?.number else { return nil }
            kind = .sphere; size = Vec3(repeating: 2 * abs(r))
        case "capsule":
            guard let r = shape[field: "radius"]?.number else { return nil }
            let h = max(abs(shape[field: "height"]?.number ?? 2 * r), 2 * abs(r))
            kind = .capsule; size = Vec3(2 * abs(r), h, 2 * abs(r))
        default:
            return nil
        }
        guard size.isFinite else { return nil }
        var pose = Transform.identity
        if let p = shape[field: "pose"]?.fields {
            if let t = p[field: "position"]?.numbers, t.count == 3 { pose.translation = Vec3(t[0], t[1], t[2]) }
            if let q = p[field: "orientation"]?.numbers, q.count == 4 {
                let quat = Quat(x: q[1], y: q[2], z: q[3], w: q[0])
                let n = (quat.x * quat.x + quat.y * quat.y + quat.z * quat.z + quat.w * quat.w).squareRoot()
                if n.isFinite, n > 1e-12 { pose.rotation = Quat(x: quat.x / n, y: quat.y / n, z: quat.z / n, w: quat.w / n) }
            }
        }
        guard pose.translation.isFinite else { return nil }
        let half = size / 2
        let bounds = AABB(min: -half, max: half).transformed(by: pose.matrix)
        return USDHitRegion(shape: kind, size: size, pose: pose, bounds: bounds)
    }

    static func anchor(_ descriptor: [USDField]) -> USDNodeFacts.AnchorKind? {
        if let type = descriptor[field: "type"]?.string {
            return USDNodeFacts.AnchorKind(rawValue: type.lowercased()) ?? .other
        }
        if descriptor[field: "transform"] != nil { return .world }
        return descriptor.isEmpty ? nil : .other
    }
}

extension USDImporter {
    /// `load` under the scene loader's reference policy: its root confines every layer; a policy
    /// without a root (`--allow-external-assets`) lets layers resolve anywhere but in `.git`.
    /// With `isolation`, a file whose import failed is imported once per run, as assimp's are
    /// (`AssetImportCache`): N scenes that reference one hanging USD file cost one timeout.
    public static func load(resolvedPath: String, displayPath: String, references: AssetReferencePolicy,
                            isolation: AssetImportIsolation? = nil) throws(Diagnostic) -> ImportedAsset {
        let run = { () throws(Diagnostic) -> ImportedAsset in
            try load(resolvedPath: resolvedPath, displayPath: displayPath, confinementRoot: references.root,
                     allowExternal: references.root == nil, isolation: isolation)
        }
        guard let isolation else { return try run() }
        return try isolation.cache.load(resolvedPath: resolvedPath, displayPath: displayPath, references: references, run)
    }
}
