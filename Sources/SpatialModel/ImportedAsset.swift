/// A 3D asset as imported (through assimp, by the AssetImport module), in the file's own units and
/// axes except where the importer itself converts them (COLLADA bakes `<unit>` and up-axis into its
/// root node). No assimp type leaks past this struct.
public struct ImportedAsset: Sendable {
    /// The path as given by the user (for messages); `resolvedPath` is the absolute file.
    public var path: String
    public var resolvedPath: String
    /// The importer that read it, e.g. "glTF2 Importer", "Autodesk FBX Importer".
    public var format: String
    /// Nodes of the default scene in depth-first pre-order: a node's subtree is the contiguous
    /// range `index ..< subtreeEnd`. `nodes[0]` is the root.
    public var nodes: [AssetNode]
    public var animations: [AssetClip]
    /// The metres-per-file-unit the file declares and which the importer did NOT apply
    /// (FBX `UnitScaleFactor` / 100), or nil when the file declares none or the importer applied it.
    public var declaredUnitScale: Double?
    /// Human-readable account of the file's units, e.g. "FBX UnitScaleFactor 500 (cm per unit) → 5 m per unit",
    /// "COLLADA <unit meter=\"0.0254\" name=\"inch\"> baked into the root node by the importer",
    /// "glTF is in metres by specification", "STL carries no units".
    public var unitNote: String
    /// Warnings that do not stop the import (e.g. a node with no geometry requested by `node:`).
    public var warnings: [String]
    /// The turn (or, for a left-handed file, turn and mirror) that brings the axes the file declares
    /// to visionOS's +Y up, +Z front (−Z forward), +X right, which the importer did NOT apply: FBX
    /// `GlobalSettings` `UpAxis`/`FrontAxis`/`CoordAxis` and their signs. Nil when the file declares
    /// no axes, already uses these, or the importer applied them itself (COLLADA `<up_axis>`).
    /// A pure 3×3 orthonormal matrix (no translation); the loader applies it at the asset's root.
    public var axisConversion: Mat4?
    /// Human-readable account of the file's axes, e.g. "FBX axes: up +Z, front −Y, right +X →
    /// turned to +Y up, +Z front (−90° about X)"; empty when the format has no declaration.
    public var axisNote: String
    /// What a USD import read about the stage(s) (nil for other formats): units, axes, time.
    public var usdStages: [USDStageFacts]?

    public init(path: String, resolvedPath: String, format: String, nodes: [AssetNode],
                animations: [AssetClip], declaredUnitScale: Double?, unitNote: String,
                warnings: [String] = [], axisConversion: Mat4? = nil, axisNote: String = "",
                usdStages: [USDStageFacts]? = nil) {
        self.path = path; self.resolvedPath = resolvedPath; self.format = format; self.nodes = nodes
        self.animations = animations; self.declaredUnitScale = declaredUnitScale
        self.unitNote = unitNote; self.warnings = warnings
        self.axisConversion = axisConversion; self.axisNote = axisNote
        self.usdStages = usdStages
    }

    public var triangleCount: Int { nodes.reduce(0) { $0 + $1.triangles } }
}

/// One node of an imported asset.
public struct AssetNode: Sendable {
    public var name: String
    public var parent: Int?
    /// One past the last node of this node's subtree (pre-order).
    public var subtreeEnd: Int
    /// Rest local transform relative to the parent, as stored in the file.
    public var local: Mat4
    /// The same, decomposed (used as the base that animation channels override); nil when the
    /// matrix has shear and cannot be decomposed exactly.
    public var localTRS: Transform?
    /// Bounds of this node's own meshes in the node's local frame; `.empty` when it has none.
    public var meshBounds: AABB
    /// Mesh vertex positions of this node's own meshes, in the node's local frame, flattened xyz.
    /// Kept so that rest-pose world bounds are exact (transforming vertices, not boxes).
    public var vertices: [Float]
    /// Triangles of this node's own meshes (each instance counts).
    public var triangles: Int
    /// UI metadata from glTF `extras.spatial`, a name prefix or a USD `InputTarget` (scene format §7).
    public var marking: AssetMarking?
    /// What the file says about the node's interaction, hit region, anchor and accessibility (USD
    /// RealityKit components); empty when it says nothing. Scene-file annotations override it.
    public var facts: NodeFacts
    /// What a USD import read about this prim (nil for other formats): its RealityKit components,
    /// shown by `inspect`; the facts derived from them are in `facts`.
    public var usd: USDNodeFacts?

    public init(name: String, parent: Int?, subtreeEnd: Int, local: Mat4, localTRS: Transform?,
                meshBounds: AABB, vertices: [Float], triangles: Int, marking: AssetMarking?,
                facts: NodeFacts = NodeFacts(), usd: USDNodeFacts? = nil) {
        self.name = name; self.parent = parent; self.subtreeEnd = subtreeEnd; self.local = local
        self.localTRS = localTRS; self.meshBounds = meshBounds; self.vertices = vertices
        self.triangles = triangles; self.marking = marking; self.facts = facts; self.usd = usd
    }
}

/// Interactive or readable content marked inside an asset (scene format §7).
public struct AssetMarking: Hashable, Sendable {
    public enum Source: String, Sendable { case extras, namePrefix, usdComponent }
    public var role: ElementRole
    public var interactive: Bool?
    public var primary: Bool?
    public var fontSize: Double?
    public var source: Source
    public init(role: ElementRole, interactive: Bool? = nil, primary: Bool? = nil,
                fontSize: Double? = nil, source: Source) {
        self.role = role; self.interactive = interactive; self.primary = primary
        self.fontSize = fontSize; self.source = source
    }
}

/// An animation clip of an asset, with times already converted to seconds.
public struct AssetClip: Sendable {
    public var name: String
    public var duration: Double
    public var channels: [NodeChannel]
    public init(name: String, duration: Double, channels: [NodeChannel]) {
        self.name = name; self.duration = duration; self.channels = channels
    }
}

/// Keys for one node. A channel with no keys for a component leaves that component at rest.
public struct NodeChannel: Sendable {
    /// Index into the asset's (or, after loading, the scene's) node array.
    public var node: Int
    public var positions: [Key<Vec3>]
    public var rotations: [Key<Quat>]
    public var scales: [Key<Vec3>]
    public init(node: Int, positions: [Key<Vec3>] = [], rotations: [Key<Quat>] = [], scales: [Key<Vec3>] = []) {
        self.node = node; self.positions = positions; self.rotations = rotations; self.scales = scales
    }
}

public struct Key<Value: Sendable & Hashable>: Sendable, Hashable {
    public var time: Double
    public var value: Value
    public init(time: Double, value: Value) { self.time = time; self.value = value }
}

// MARK: - USD facts

/// One composed USD stage of an import (a `.rkassets` folder has one per top-level scene).
public struct USDStageFacts: Sendable, Hashable {
    /// The root layer, relative to the asset's folder.
    public var file: String
    public var metersPerUnit: Double
    /// False when the layer does not author it and USD's fallback (0.01) applies.
    public var metersPerUnitAuthored: Bool
    /// "Y" or "Z".
    public var upAxis: String
    public var upAxisAuthored: Bool
    public var timeCodesPerSecond: Double
    public var startTimeCode: Double
    public var endTimeCode: Double
    /// Layers composed (root, sublayers, references, payloads; each once).
    public var layerCount: Int
    public var defaultPrim: String?

    public init(file: String, metersPerUnit: Double, metersPerUnitAuthored: Bool, upAxis: String,
                upAxisAuthored: Bool, timeCodesPerSecond: Double, startTimeCode: Double,
                endTimeCode: Double, layerCount: Int, defaultPrim: String?) {
        self.file = file; self.metersPerUnit = metersPerUnit; self.metersPerUnitAuthored = metersPerUnitAuthored
        self.upAxis = upAxis; self.upAxisAuthored = upAxisAuthored; self.timeCodesPerSecond = timeCodesPerSecond
        self.startTimeCode = startTimeCode; self.endTimeCode = endTimeCode; self.layerCount = layerCount
        self.defaultPrim = defaultPrim
    }

    /// What the importer applied, e.g. "metersPerUnit 0.01 (authored) and upAxis Z (authored) of
    /// Scene.usda applied: ×0.01, Z-up → Y-up (−90° about X)".
    public var unitNote: String {
        let mpu = metersPerUnitAuthored ? "metersPerUnit \(Self.format(metersPerUnit))"
            : "metersPerUnit not authored (USD's fallback \(Self.format(metersPerUnit)))"
        let up = upAxisAuthored ? "upAxis \(upAxis)" : "upAxis not authored (USD's fallback \(upAxis))"
        var applied = "×\(Self.format(metersPerUnit)) to metres"
        if upAxis == "Z" { applied += ", Z-up → Y-up (−90° about X)" }
        return "USD stage \(file): \(mpu), \(up); applied to the composed stage: \(applied)"
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

/// A value of a RealityKit component field as authored in USD.
public indirect enum USDValue: Sendable, Hashable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([USDValue])
    /// A nested `RealityKitStruct` (e.g. Collider's `Shape`, Anchoring's `descriptor`).
    case structure([USDField])

    public var number: Double? { if case let .number(v) = self { return v } else { return nil } }
    public var bool: Bool? { if case let .bool(v) = self { return v } else { return nil } }
    public var string: String? { if case let .string(v) = self { return v } else { return nil } }
    public var numbers: [Double]? {
        guard case let .list(items) = self else { return nil }
        let out = items.compactMap(\.number)
        return out.count == items.count ? out : nil
    }
    public var fields: [USDField]? { if case let .structure(f) = self { return f } else { return nil } }
}

public struct USDField: Sendable, Hashable {
    public var name: String
    public var value: USDValue
    public init(name: String, value: USDValue) { self.name = name; self.value = value }
}

extension Array where Element == USDField {
    /// The first field named `name`.
    public subscript(field name: String) -> USDValue? { first { $0.name == name }?.value }
}

/// A RealityKit component prim (`RealityKitComponent` / `RealityKitCustomComponent`) as authored.
public struct USDComponent: Sendable, Hashable {
    /// `info:id`, e.g. "RealityKit.InputTarget"; custom components carry their own id.
    public var id: String
    /// The prim's name, e.g. "InputTarget".
    public var name: String
    public var custom: Bool
    public var fields: [USDField]
    public init(id: String, name: String, custom: Bool, fields: [USDField]) {
        self.id = id; self.name = name; self.custom = custom; self.fields = fields
    }
}

/// A Collider shape: the entity's hit region for the target rules (instead of its mesh bounds).
public struct USDHitRegion: Sendable, Hashable {
    public enum Shape: String, Sendable { case box, sphere, capsule }
    public var shape: Shape
    /// Box: full extent; sphere: (2r, 2r, 2r); capsule: (2r, height, 2r) along +Y.
    public var size: Vec3
    /// The shape's pose in the prim's local frame (`Shape.pose`).
    public var pose: Transform
    /// The shape's axis-aligned bounds in the prim's local frame (file units).
    public var bounds: AABB
    public init(shape: Shape, size: Vec3, pose: Transform, bounds: AABB) {
        self.shape = shape; self.size = size; self.pose = pose; self.bounds = bounds
    }
}

/// What a USD prim says about itself, derived from its RealityKit components and attributes.
/// Scene-file annotations (scene format, "USD") may override each of these.
public struct USDNodeFacts: Sendable, Hashable {
    public enum AnchorKind: String, Sendable { case plane, hand, head, object, world, image, face, body, other }
    public var primPath: String
    /// The file of the stage that holds `primPath` (the stage's `file`: relative to the asset's
    /// folder, or to the `.rkassets` folder for one of its scenes).
    public var stageFile: String = ""
    public var typeName: String
    /// False when the prim or an ancestor is `invisible`, or its hierarchical opacity is 0.
    public var visible: Bool
    /// Product of the `HierarchicalFade` opacities from the root down (nil when none applies).
    public var opacity: Double?
    /// `purpose` when not `default` (guide and proxy geometry is left out of bounds).
    public var purpose: String?
    /// `InputTarget` present and enabled (nil: no InputTarget, interactivity unknown).
    public var interactive: Bool?
    public var allowsDirectInput: Bool?
    public var allowsIndirectInput: Bool?
    public var hitRegion: USDHitRegion?
    public var anchor: AnchorKind?
    public var accessibilityLabel: String?
    /// `Billboard.blendFactor` when the prim has a Billboard component.
    public var billboard: Double?
    public var components: [USDComponent]

    public init(primPath: String, typeName: String, visible: Bool = true, opacity: Double? = nil,
                purpose: String? = nil, interactive: Bool? = nil, allowsDirectInput: Bool? = nil,
                allowsIndirectInput: Bool? = nil, hitRegion: USDHitRegion? = nil, anchor: AnchorKind? = nil,
                accessibilityLabel: String? = nil, billboard: Double? = nil, components: [USDComponent] = []) {
        self.primPath = primPath; self.typeName = typeName; self.visible = visible; self.opacity = opacity
        self.purpose = purpose; self.interactive = interactive; self.allowsDirectInput = allowsDirectInput
        self.allowsIndirectInput = allowsIndirectInput; self.hitRegion = hitRegion; self.anchor = anchor
        self.accessibilityLabel = accessibilityLabel; self.billboard = billboard; self.components = components
    }
}

/// The USD facts of an asset as a scene uses it (`AssetUse.usd`), for `inspect`.
public struct USDAssetSummary: Sendable, Hashable {
    public var stages: [USDStageFacts]
    /// Prims that carry RealityKit components or are hidden, in pre-order.
    public var prims: [USDNodeFacts]
    public init(stages: [USDStageFacts], prims: [USDNodeFacts]) { self.stages = stages; self.prims = prims }
}

extension ImportedAsset {
    /// The USD summary of the nodes in `range` (nil for non-USD assets).
    public func usdSummary(nodes range: Range<Int>) -> USDAssetSummary? {
        guard let stages = usdStages else { return nil }
        let prims = nodes[range].compactMap(\.usd).filter { !$0.components.isEmpty || !$0.visible }
        return USDAssetSummary(stages: stages, prims: prims)
    }
}
