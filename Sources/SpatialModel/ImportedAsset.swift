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

    public init(path: String, resolvedPath: String, format: String, nodes: [AssetNode],
                animations: [AssetClip], declaredUnitScale: Double?, unitNote: String,
                warnings: [String] = [], axisConversion: Mat4? = nil, axisNote: String = "") {
        self.path = path; self.resolvedPath = resolvedPath; self.format = format; self.nodes = nodes
        self.animations = animations; self.declaredUnitScale = declaredUnitScale
        self.unitNote = unitNote; self.warnings = warnings
        self.axisConversion = axisConversion; self.axisNote = axisNote
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
    /// UI metadata from glTF `extras.spatial` or a name prefix (scene format §7).
    public var marking: AssetMarking?
    /// What the file says about the node's interaction, hit region, anchor and accessibility (USD
    /// RealityKit components); empty when it says nothing. Scene-file annotations override it.
    public var facts: NodeFacts

    public init(name: String, parent: Int?, subtreeEnd: Int, local: Mat4, localTRS: Transform?,
                meshBounds: AABB, vertices: [Float], triangles: Int, marking: AssetMarking?,
                facts: NodeFacts = NodeFacts()) {
        self.name = name; self.parent = parent; self.subtreeEnd = subtreeEnd; self.local = local
        self.localTRS = localTRS; self.meshBounds = meshBounds; self.vertices = vertices
        self.triangles = triangles; self.marking = marking; self.facts = facts
    }
}

/// Interactive or readable content marked inside an asset (scene format §7).
public struct AssetMarking: Hashable, Sendable {
    public enum Source: String, Sendable { case extras, namePrefix }
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
