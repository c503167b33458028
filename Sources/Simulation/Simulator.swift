import CSpatialMath
import SpatialModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Overrides of the scene's own simulation settings (from the command line or a config file).
public struct SimulationOptions: Sendable, Hashable {
    /// Frames per second; nil keeps the scene's rate.
    public var frameRate: Double?
    /// Seconds to simulate; nil keeps the scene's duration.
    public var duration: Double?
    /// Comfortable field of view (horizontal, vertical) in degrees; nil keeps the viewer's.
    public var fieldOfView: SIMD2<Double>?

    public init(frameRate: Double? = nil, duration: Double? = nil, fieldOfView: SIMD2<Double>? = nil) {
        self.frameRate = frameRate; self.duration = duration; self.fieldOfView = fieldOfView
    }
}

/// Steps a scene frame by frame (t = i / frameRate for i in 0 ..< frameCount) and computes the
/// per-frame quantities of hig-rules §0.3.
///
/// The transform work of each frame is done in a handful of batched GLM calls (CSpatialMath):
/// key sampling, T·R·S composition of animated nodes, the world transforms of the whole hierarchy,
/// world boxes, entity bounds and the viewing quantities. Buffers are allocated once per `run`.
/// Deterministic: the same scene and options give bit-identical quantities.
public struct Simulator: Sendable {
    public let scene: Scene
    public let options: SimulationOptions
    public let frameRate: Double
    public let duration: Double
    public let fieldOfView: SIMD2<Double>
    /// Frame i is at t = i / frameRate; at least one frame.
    public let frameCount: Int


    // Static per-node data.
    private let nodeCount: Int
    private let parent: [Int32]
    private let rootFrameIndex: [Int32]
    private let restLocal: [Double]
    private let localBoxes: [Double]
    // Animated nodes: one TRS slot per driven node.
    private let slotNode: [Int32]
    private let slotRest: [sm_trs]
    // Key tracks. Vec3 tracks (positions and scales) and quaternion tracks, each sampled at the
    // clip time of its animation and written into a component of a slot.
    private let vecTimes: [Double], vecValues: [Double], vecBegin: [Int32], vecCount: [Int32]
    private let vecAnimation: [Int], vecSlot: [Int], vecIsScale: [Bool]
    private let quatTimes: [Double], quatValues: [Double], quatBegin: [Int32], quatCount: [Int32]
    private let quatAnimation: [Int], quatSlot: [Int]
    // Entities.
    private let entityNode: [Int32]
    private let geomBegin: [Int32], geomEnd: [Int32]
    /// Nodes whose world transform can change after the first frame (animated, head- or hand-anchored,
    /// or below such a node), in pre-order, and the entities whose bounds depend on one. Only these
    /// are recomputed after the first frame; the rest of the hierarchy keeps its values.
    private let movingNodes: [Int32]
    private let movingEntities: [Int32]
    private let entityMoves: [Bool]
    /// Looping animations that end somewhere else than they start, so each restart moves their
    /// content in one frame from the last key's pose to the first's (a pop, not motion): the
    /// animation's speed and length (its laps are `t · speed / duration`, as `clipTime` wraps it)
    /// and the entities it drives. In a restart frame those entities keep the previous frame's
    /// velocities (`run`).
    private let loopJumps: [(speed: Double, duration: Double, entities: [Int32])]
    /// Whether a frame whose quantities cannot differ from the previous frame's keeps them instead
    /// of recomputing them (see `run`); off, every frame computes them (tests compare the two).
    var reusesStillFrames = true
    private let initialVisible: [Bool]
    /// Entity indices in the order of their nodes (ties by index): the entities of a node
    /// subtree are one run of it (`setVisibility`).
    private let entitiesByNode: [Int]
    /// Em height in metres of readable entities (`fontSize · metresPerPoint` or `textHeight`), else 0,
    /// as stated: the kernel is given it times the text scale (`TextScale`).
    private let emMetres: [Double]
    /// The em height in metres at rest of content whose pt_eq is its em's angle (readable content
    /// and text with a fixed-scale font size or a text height), else 0; the frame's is this times
    /// its text scale (`TextScale.em`).
    public static func emMetres(_ e: Entity) -> Double {
        guard e.isReadable || e.kind == .text else { return 0 }
        let mpp = e.metresPerPoint
        if let fs = e.fontSize, fs > 0, mpp > 0, (fs * mpp).isFinite { return fs * mpp }
        if let th = e.textHeight, th > 0, th.isFinite { return th }
        return 0
    }
    /// Entities with text (an em, a font size or a text height) under a scale other than 1, and
    /// what their node's up length is divided by: their text scale is computed each frame their
    /// node can move (every other entity's is exactly 1).
    private let scaledText: [Int32]
    private let scaledTextDivisor: [Double]
    /// Top-level, world-anchored, dynamic-scale windows and volumes with position keys of their
    /// own: dynamic scale rescales them (and all they hold) whenever they move (`DynamicRescale`).
    private let rescaled: [DynamicRescale]
    /// Ornaments of volumes (windows nested directly in a volume, not presented by it), in node
    /// order: each frame they turn about their volume's local +Y axis towards the eye
    /// (`VolumeOrnament`). Empty in a scene without any: no work.
    private let volumeOrnaments: [VolumeOrnament]
    /// Events with finite times, in time order (stable for equal times).
    private let events: [SceneEvent]

    public init(scene: Scene, options: SimulationOptions = SimulationOptions()) {
        self.scene = scene
        self.options = options
        var rate = options.frameRate ?? scene.frameRate
        if !(rate.isFinite && rate > 0) { rate = scene.frameRate }
        if !(rate.isFinite && rate > 0) { rate = scene.platform.defaultFrameRate }
        frameRate = rate
        var dur = options.duration ?? scene.duration
        if !dur.isFinite || dur < 0 { dur = 0 }
        duration = dur
        fieldOfView = options.fieldOfView ?? scene.viewer.fieldOfView
        let n = (dur * rate - 1e-9).rounded(.up)
        frameCount = n.isFinite && n >= 1 ? (n > Double(Int32.max) ? Int(Int32.max) : Int(n)) : 1

        // Nodes.
        let nodes = scene.nodes
        nodeCount = nodes.count
        var parent = [Int32](repeating: -1, count: nodes.count)
        var rootFrame = [Int32](repeating: -1, count: nodes.count)
        var rest = [Double](repeating: 0, count: nodes.count * 16)
        var boxes = [Double](repeating: 0, count: nodes.count * 6)
        var anchorOf = [Anchor](repeating: .world, count: nodes.count)
        for (i, node) in nodes.enumerated() {
            if let p = node.parent, p >= 0, p < i {
                parent[i] = Int32(p)
                anchorOf[i] = anchorOf[p]
            } else {
                anchorOf[i] = node.anchor
                switch node.anchor {
                case .world: rootFrame[i] = -1
                case .head: rootFrame[i] = 0
                case .hand: rootFrame[i] = 1
                }
            }
            let m = node.rest.m.count == 16 && node.rest.isFinite ? node.rest.m : Mat4.identity.m
            for k in 0..<16 { rest[i * 16 + k] = m[k] }
            let g = node.geometry
            let gv = g.isEmpty || !g.min.isFinite || !g.max.isFinite
                ? [Double.infinity, .infinity, .infinity, -.infinity, -.infinity, -.infinity]
                : [g.min.x, g.min.y, g.min.z, g.max.x, g.max.y, g.max.z]
            for k in 0..<6 { boxes[i * 6 + k] = gv[k] }
        }
        self.parent = parent
        self.rootFrameIndex = rootFrame
        self.restLocal = rest
        self.localBoxes = boxes

        // Animation tracks.
        var slotOfNode = [Int](repeating: -1, count: nodes.count)
        var slotNode: [Int32] = [], slotRest: [sm_trs] = []
        var vTimes: [Double] = [], vValues: [Double] = [], vBegin: [Int32] = [], vCount: [Int32] = []
        var vAnim: [Int] = [], vSlot: [Int] = [], vScale: [Bool] = []
        var qTimes: [Double] = [], qValues: [Double] = [], qBegin: [Int32] = [], qCount: [Int32] = []
        var qAnim: [Int] = [], qSlot: [Int] = []
        func slot(for node: Int) -> Int {
            if slotOfNode[node] >= 0 { return slotOfNode[node] }
            let s = slotNode.count
            slotOfNode[node] = s
            slotNode.append(Int32(node))
            slotRest.append(Simulator.trs(nodes[node].restTRS))
            return s
        }
        // Keys with strictly increasing, finite times (later duplicates dropped).
        func cleaned<V>(_ keys: [Key<V>], valid: (V) -> Bool) -> [Key<V>] {
            var out: [Key<V>] = []
            for k in keys where k.time.isFinite && valid(k.value) {
                if let last = out.last, !(k.time > last.time) { continue }
                out.append(k)
            }
            return out
        }
        for (a, anim) in scene.animations.enumerated() where scene.plays(anim) {
            for ch in anim.channels where ch.node >= 0 && ch.node < nodes.count {
                let positions = cleaned(ch.positions) { $0.isFinite }
                let rotations = cleaned(ch.rotations) { $0.isFinite && $0.lengthSquared > 0 }
                let scales = cleaned(ch.scales) { $0.isFinite }
                if positions.isEmpty && rotations.isEmpty && scales.isEmpty { continue }
                let s = slot(for: ch.node)
                for (keys, isScale) in [(positions, false), (scales, true)] where !keys.isEmpty {
                    vBegin.append(Int32(vTimes.count)); vCount.append(Int32(keys.count))
                    for k in keys {
                        vTimes.append(k.time)
                        vValues.append(k.value.x); vValues.append(k.value.y); vValues.append(k.value.z)
                    }
                    vAnim.append(a); vSlot.append(s); vScale.append(isScale)
                }
                if !rotations.isEmpty {
                    qBegin.append(Int32(qTimes.count)); qCount.append(Int32(rotations.count))
                    for k in rotations {
                        qTimes.append(k.time)
                        let q = k.value.normalized
                        qValues.append(q.x); qValues.append(q.y); qValues.append(q.z); qValues.append(q.w)
                    }
                    qAnim.append(a); qSlot.append(s)
                }
            }
        }
        self.slotNode = slotNode; self.slotRest = slotRest
        vecTimes = vTimes; vecValues = vValues; vecBegin = vBegin; vecCount = vCount
        vecAnimation = vAnim; vecSlot = vSlot; vecIsScale = vScale
        quatTimes = qTimes; quatValues = qValues; quatBegin = qBegin; quatCount = qCount
        quatAnimation = qAnim; quatSlot = qSlot

        // Entities.
        let entities = scene.entities
        var eNode = [Int32](repeating: -1, count: entities.count)
        var gB = [Int32](repeating: 0, count: entities.count), gE = [Int32](repeating: 0, count: entities.count)
        // Entities are read in place (`entities[e].field`), not bound whole: binding one copies
        // every field (strings, arrays) of a large struct, ≈ 800 instructions an entity.
        for e in entities.indices {
            let node = entities[e].node, geometry = entities[e].geometryNodes
            if node >= 0 && node < nodes.count { eNode[e] = Int32(node) }
            let lo = min(max(geometry.lowerBound, 0), nodes.count)
            let hi = min(max(geometry.upperBound, lo), nodes.count)
            gB[e] = Int32(lo); gE[e] = Int32(hi)
        }
        entityNode = eNode; geomBegin = gB; geomEnd = gE
        var moves = [Bool](repeating: false, count: nodes.count)
        for i in 0..<nodes.count {
            moves[i] = slotOfNode[i] >= 0 || rootFrame[i] >= 0 || (parent[i] >= 0 && moves[Int(parent[i])])
        }
        // Ornaments of volumes keep their side towards the eye: they turn whenever the eye's position
        // or their volume can move (then they and all they hold move); otherwise they turn once, in
        // the first frame.
        var ornaments: [VolumeOrnament] = []
        let eyeMoves = scene.viewer.motion == .sway
            || scene.viewer.path.contains { $0.position != scene.viewer.path[0].position }
        for e in entities.indices where entities[e].kind == .window && entities[e].presentation == nil {
            let n = Int(eNode[e])
            guard n >= 0, let pe = entities[e].parent, entities.indices.contains(pe), entities[pe].kind == .volume,
                  eNode[pe] >= 0, parent[n] == eNode[pe] else { continue }
            let end = min(max(nodes[n].subtreeEnd, n + 1), nodes.count)
            let turns = eyeMoves || moves[n]
            if turns { for k in n..<end { moves[k] = true } }
            ornaments.append(VolumeOrnament(node: Int32(n), volumeNode: eNode[pe], animated: slotOfNode[n] >= 0,
                                            turns: turns, subtree: (n..<end).map { Int32($0) }, members: []))
        }
        ornaments.sort { $0.node < $1.node }
        movingNodes = moves.indices.filter { moves[$0] }.map { Int32($0) }
        let entMoves = entities.indices.map { e in
            (eNode[e] >= 0 && moves[Int(eNode[e])]) || (Int(gB[e])..<Int(gE[e])).contains { moves[$0] }
        }
        entityMoves = entMoves
        movingEntities = entMoves.indices.filter { entMoves[$0] }.map { Int32($0) }
        loopJumps = Simulator.loopJumps(scene, entityNode: eNode, geomBegin: gB, geomEnd: gE)
        // An entity starts hidden when it, or an entity whose node contains its node, is hidden.
        let byNode = entities.indices.sorted { (entities[$0].node, $0) < (entities[$1].node, $1) }
        entitiesByNode = byNode
        var visible = entities.map(\.visible)
        for e in entities.indices where !entities[e].visible {
            Simulator.setVisibility(false, of: e, in: &visible, scene: scene, byNode: byNode)
        }
        initialVisible = visible
        // The entities each volume ornament holds (itself included): one run of `byNode`.
        for k in ornaments.indices {
            let n = Int(ornaments[k].node)
            ornaments[k].members = Simulator.entities(inNodes: n..<(n + ornaments[k].subtree.count), byNode: byNode, entities)
        }
        volumeOrnaments = ornaments
        emMetres = entities.map(Simulator.emMetres)
        let textScale = TextScale(scene: scene)
        let withText = entities.indices.filter { e in
            textScale.scaled[e] && eNode[e] >= 0
                && (entities[e].isReadable || entities[e].kind == .text || entities[e].fontSize != nil || entities[e].textHeight != nil)
        }
        scaledText = withText.map { Int32($0) }
        scaledTextDivisor = withText.map { textScale.divisor[$0] }
        var positioned = Set<Int>()
        for k in vSlot.indices where !vScale[k] { positioned.insert(vSlot[k]) }
        var rescaled: [DynamicRescale] = []
        for e in entities.indices {
            let n = Int(eNode[e])
            guard n >= 0, entities[e].parent == nil, entities[e].anchor == .world, entities[e].scaleMode == .dynamic,
                  entities[e].kind == .window || entities[e].kind == .volume, parent[n] < 0, rootFrame[n] < 0,
                  slotOfNode[n] >= 0, positioned.contains(slotOfNode[n]),
                  entities[e].metresPerPoint > 0, entities[e].metresPerPoint.isFinite else { continue }
            // The entities whose node lies in its subtree: one run of `byNode`.
            let end = min(max(nodes[n].subtreeEnd, n + 1), nodes.count)
            rescaled.append(DynamicRescale(slot: slotOfNode[n], metresPerPoint: entities[e].metresPerPoint,
                                           members: Simulator.entities(inNodes: n..<end, byNode: byNode, entities)))
        }
        self.rescaled = rescaled
        events = scene.events.enumerated()
            .filter { $0.element.time.isFinite }
            .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            .map(\.element)
    }

    static func trs(_ t: Transform) -> sm_trs {
        let ok = t.isFinite
        let tr = ok ? t.translation : .zero
        let q = ok && t.rotation.lengthSquared > 0 ? t.rotation.normalized : .identity
        let s = ok ? t.scale : .one
        return sm_trs(t: (tr.x, tr.y, tr.z), q: (q.x, q.y, q.z, q.w), s: (s.x, s.y, s.z))
    }

    /// Sets `visible` of entity `e` and of every entity whose node lies in `e`'s node subtree,
    /// except that showing leaves a presentation nested in `e` that starts hidden (a window with
    /// `presentation` and `visible: false`: an alert a sheet opens) hidden, with what it holds: it
    /// opens with its own `show`. `byNode`: the entities in the order of their nodes, so the work
    /// is the subtree's, not the scene's.
    static func setVisibility(_ value: Bool, of e: Int, in visible: inout [Bool], scene: Scene, byNode: [Int]) {
        guard e >= 0, e < scene.entities.count else { return }
        visible[e] = value
        let ents = scene.entities
        let n = ents[e].node
        guard n >= 0, n < scene.nodes.count else { return }
        let end = min(max(scene.nodes[n].subtreeEnd, n + 1), scene.nodes.count)
        var closedUntil = n
        for j in byNode[firstEntity(atOrAfter: n, byNode: byNode, ents)...] {
            let node = ents[j].node
            guard node < end else { break }
            if node < closedUntil, j != e { continue }
            if value, j != e, ents[j].presentation != nil, !ents[j].visible {
                closedUntil = max(closedUntil, min(max(scene.nodes[node].subtreeEnd, node + 1), end))
                continue
            }
            visible[j] = value
        }
    }

    /// The index in `byNode` (entity indices in the order of their nodes) of the first entity whose
    /// node is `node` or after it (`byNode.count` when none): binary search.
    static func firstEntity(atOrAfter node: Int, byNode: [Int], _ ents: [Entity]) -> Int {
        var lo = 0, hi = byNode.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ents[byNode[mid]].node < node { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The entities whose node lies in `nodes` (a subtree's node range): one run of `byNode`.
    static func entities(inNodes nodes: Range<Int>, byNode: [Int], _ ents: [Entity]) -> [Int32] {
        let lo = firstEntity(atOrAfter: nodes.lowerBound, byNode: byNode, ents),
            hi = max(lo, firstEntity(atOrAfter: nodes.upperBound, byNode: byNode, ents))
        return byNode[lo..<hi].map { Int32($0) }
    }

    // MARK: Viewer

    /// The head pose at time t: the path (linear position, slerp orientation, held outside its
    /// keys) with the motion preset on top.
    ///
    /// Presets (deterministic, ω = 2π · 0.25 Hz for sway):
    /// - `sway`: position += R_path · (0.02 sin ωt, 0.02 sin 2ωt / 2, 0); yaw += 3 sin ωt,
    ///   pitch += 3 sin 2ωt (head-relative);
    /// - `look-around`: yaw += 40 sin(2πt / 8), pitch += 15 sin(4πt / 8) (head-relative).
    public func headPose(at t: Double) -> (position: Vec3, rotation: Quat) {
        var (position, rotation) = Simulator.sample(scene.viewer.path, at: t,
                                                    default: (Vec3(0, scene.viewer.eyeHeight, 0), .identity))
        switch scene.viewer.motion {
        case .none:
            break
        case .sway:
            let w = 2 * Double.pi * 0.25 * t
            position += rotation.act(Vec3(0.02 * sin(w), 0.01 * sin(2 * w), 0))
            rotation = (rotation * Quat(yaw: 3 * sin(w), pitch: 3 * sin(2 * w), roll: 0)).normalized
        case .lookAround:
            let w = 2 * Double.pi * t / 8
            rotation = (rotation * Quat(yaw: 40 * sin(w), pitch: 15 * sin(2 * w), roll: 0)).normalized
        }
        return (position, rotation)
    }

    /// The hand's pose at time t in the head frame (`viewer.hand`, by default the posture's pose):
    /// the frame `anchor: hand` content is held in is the head pose followed by this one.
    public func handPose(at t: Double) -> (position: Vec3, rotation: Quat) {
        let pose = scene.viewer.posture.defaultHandPose
        return Simulator.sample(scene.viewer.hand, at: t, default: (pose.position, pose.rotation))
    }

    /// A keyframed pose at time t: position linear, rotation slerp, held before the first and after
    /// the last key; `fallback` for an empty path or non-finite values.
    public static func sample(_ path: [ViewerKey], at t: Double, default fallback: (Vec3, Quat)) -> (Vec3, Quat) {
        var (position, rotation) = fallback
        if let first = path.first, let last = path.last {
            if !(t > first.time) || path.count == 1 {
                position = first.position; rotation = first.rotation
            } else if t >= last.time {
                position = last.position; rotation = last.rotation
            } else {
                // Binary search: the last key with time <= t.
                var lo = 0, hi = path.count - 1
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2
                    if path[mid].time <= t { lo = mid } else { hi = mid }
                }
                let a = path[lo], b = path[hi]
                let span = b.time - a.time
                let u = span > 0 ? (t - a.time) / span : 0
                position = a.position + (b.position - a.position) * u
                rotation = Quat.slerp(a.rotation.normalized, b.rotation.normalized, u)
            }
        }
        if !position.isFinite { position = fallback.0 }
        rotation = rotation.isFinite ? rotation.normalized : fallback.1
        return (position, rotation)
    }

    /// The looping animations whose restart jumps (`loopJumps`): a track whose first and last keys
    /// differ (a rotation up to sign), with a period of at least two frames (a shorter loop has no
    /// frame-to-frame motion to keep), and the entities whose node or geometry lies under a node
    /// it drives. Found per driven subtree, not per entity: the entities whose node is in it and
    /// those on its root's ancestors whose geometry reaches into it, by binary searches of the
    /// entities sorted by node (nodes are in pre-order, so a subtree is a range, and an entity's
    /// geometry, inside its own subtree, meets another subtree only from an ancestor). A scene of
    /// 1,000 looping entities among 10,000 took 342 M instructions when every animation looked at
    /// every entity.
    static func loopJumps(_ scene: Scene, entityNode: [Int32], geomBegin: [Int32], geomEnd: [Int32]) -> [(speed: Double, duration: Double, entities: [Int32])] {
        let nodes = scene.nodes
        var out: [(speed: Double, duration: Double, entities: [Int32])] = []
        var byNode: [(node: Int32, entity: Int32)]?
        var mark = [Int](repeating: -1, count: entityNode.count)
        /// The first index of `list` whose node is at least `n`.
        func first(_ list: [(node: Int32, entity: Int32)], atLeast n: Int) -> Int {
            var i = 0, j = list.count
            while i < j { let m = (i + j) / 2; if Int(list[m].node) < n { i = m + 1 } else { j = m } }
            return i
        }
        for (a, anim) in scene.animations.enumerated() where anim.loop && scene.plays(anim) {
            let period = anim.speed.isFinite && anim.speed != 0 ? anim.duration / abs(anim.speed) : 0
            guard period.isFinite, period >= 2 / scene.frameRate else { continue }
            func differ(_ a: Vec3?, _ b: Vec3?) -> Bool {
                guard let a, let b, a.isFinite, b.isFinite else { return false }
                return length(a - b) > 1e-9 * max(1, length(a), length(b))
            }
            func turns(_ a: Quat?, _ b: Quat?) -> Bool {
                guard let a, let b, a.isFinite, b.isFinite, a.lengthSquared > 0, b.lengthSquared > 0 else { return false }
                let x = a.normalized, y = b.normalized
                return abs(x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w) < 1 - 1e-12
            }
            var ents: [Int32] = []
            func add(_ e: Int32) {
                guard mark[Int(e)] != a else { return }
                mark[Int(e)] = a
                ents.append(e)
            }
            for ch in anim.channels where ch.node >= 0 && ch.node < nodes.count {
                guard differ(ch.positions.first?.value, ch.positions.last?.value) || differ(ch.scales.first?.value, ch.scales.last?.value)
                        || turns(ch.rotations.first?.value, ch.rotations.last?.value) else { continue }
                if byNode == nil {
                    byNode = entityNode.indices.filter { entityNode[$0] >= 0 }.map { (node: entityNode[$0], entity: Int32($0)) }
                        .sorted { $0.node != $1.node ? $0.node < $1.node : $0.entity < $1.entity }
                }
                let list = byNode ?? []
                let lo = ch.node, hi = min(max(nodes[ch.node].subtreeEnd, lo + 1), nodes.count)
                // Entities whose node is in [lo, hi).
                var i = first(list, atLeast: lo)
                while i < list.count, Int(list[i].node) < hi { add(list[i].entity); i += 1 }
                // Entities above it whose geometry reaches into it.
                var p = nodes[lo].parent
                var steps = 0
                while let q = p, q >= 0, q < nodes.count, steps < nodes.count {
                    var k = first(list, atLeast: q)
                    while k < list.count, Int(list[k].node) == q {
                        let e = list[k].entity
                        if Int(geomBegin[Int(e)]) < hi && lo < Int(geomEnd[Int(e)]) { add(e) }
                        k += 1
                    }
                    p = nodes[q].parent; steps += 1
                }
            }
            if !ents.isEmpty { out.append((anim.speed, anim.duration, ents.sorted())) }
        }
        return out
    }

    /// Clip time of animation `a` at scene time t: `t · speed`, wrapped for looping animations,
    /// clamped to `[0, duration]` otherwise.
    static func clipTime(_ anim: Animation, at t: Double) -> Double {
        let speed = anim.speed.isFinite ? anim.speed : 1
        let ct = t * speed
        let d = anim.duration
        guard d.isFinite, d > 0, ct.isFinite else { return 0 }
        if anim.loop {
            let r = fmod(ct, d)
            return r < 0 ? r + d : r
        }
        return min(max(ct, 0), d)
    }

    // MARK: Running

    /// Simulates every frame in order and hands each frame's quantities to `body`. The value is
    /// overwritten in place for the next frame: read it, do not keep it.
    public func run(_ body: (borrowing FrameQuantities) throws -> Void) rethrows {
        var unused = SimulationPhaseTimes()
        try run(profiling: false, phases: &unused, body)
    }

    /// Like `run(_:)`, and adds the time spent in each phase of the simulator (monotonic clock,
    /// read a few times per frame, never per entity) to `phases`. The time spent in `body` is not
    /// counted. The quantities are identical to `run(_:)`'s.
    public func run(phases: inout SimulationPhaseTimes, _ body: (borrowing FrameQuantities) throws -> Void) rethrows {
        try run(profiling: true, phases: &phases, body)
    }

    @inline(__always)
    private func run(profiling: Bool, phases: inout SimulationPhaseTimes,
                     _ body: (borrowing FrameQuantities) throws -> Void) rethrows {
        let entityCount = scene.entities.count
        let nNodes = nodeCount
        var q = FrameQuantities(entityCount: entityCount)
        // After the first frame only these entities' boxes, centres and axes are recomputed.
        q.canMove = entityMoves
        var visible = initialVisible
        var local = restLocal
        var world = [Double](repeating: 0, count: nNodes * 16)
        var worldBoxes = [Double](repeating: 0, count: nNodes * 6)
        var entBoxes = [Double](repeating: 0, count: entityCount * 6)
        var boxFrames = [Double](repeating: 0, count: entityCount * 12)
        var rootFrames = [Double](repeating: 0, count: 32)
        var rootTRS = [sm_trs](repeating: sm_trs(), count: 2)
        var slots = slotRest
        var vecSampleT = [Double](repeating: 0, count: vecBegin.count)
        var vecOut = [Double](repeating: 0, count: vecBegin.count * 3)
        var quatSampleT = [Double](repeating: 0, count: quatBegin.count)
        var quatOut = [Double](repeating: 0, count: quatBegin.count * 4)
        var clipT = [Double](repeating: 0, count: scene.animations.count)
        var prevCenter = [Double](repeating: 0, count: entityCount * 3)
        var prevDistance = [Double](repeating: 0, count: entityCount)
        var prevLocalDir = [Double](repeating: 0, count: entityCount * 3)
        var prevHead = Vec3.zero
        var kept: [(Int, Double, Double, Double)] = []
        // A frame's quantities are a function of the head pose, the entities' boxes and, for the
        // velocities, the previous frame's pose and boxes. When nothing in the scene can move (no
        // animated or anchored node) and the head pose is bit for bit that of the two frames
        // before, they are the previous frame's: `q` keeps them instead of the kernel rewriting
        // the same values (a seated viewer looking at still content costs no quantities).
        let stillScene = reusesStillFrames && movingEntities.isEmpty
        var lastPose = SIMD8<UInt64>(repeating: 0), samePose = 0
        // Content attached to the head or hand moves with the eye: its motion is judged in the head frame.
        let entities = scene.entities
        let headAttached = entities.indices.map { entities[$0].anchor != .world }
        // The em heights the kernel measures: the stated ones times the text scale.
        var emWorld = emMetres
        // Dynamic rescaling: where each window was last (its rest pose before the first frame) and
        // its scale.
        var rescaleAt = rescaled.map { slotRest[$0.slot].t }
        var rescaleFactor = [Double](repeating: 1, count: rescaled.count)
        // Volume ornaments: each one's turn and its volume's centre and unit +Y axis in the last frame.
        var turn = OrnamentTurns(count: volumeOrnaments.count)

        let dt = 1 / frameRate
        let pointAngle = scene.units.pointAngle > 0 && scene.units.pointAngle.isFinite
            ? scene.units.pointAngle : Units.defaultPointAngle
        var style = scene.immersion
        var origin: Vec3?
        var nextEvent = 0

        var clock: UInt64 = profiling ? SimulationPhaseTimes.now() : 0
        /// Adds the time since the last mark to `slot` (profiling only).
        @inline(__always) func mark(_ slot: inout UInt64) {
            guard profiling else { return }
            let c = SimulationPhaseTimes.now()
            slot &+= c &- clock
            clock = c
        }

        for i in 0..<frameCount {
            let t = Double(i) / frameRate
            // Head.
            let (p, r) = headPose(at: t)
            let forward = r.act(Vec3(0, 0, -1))
            q.frame = i
            q.time = t
            q.deltaTime = dt
            q.headPosition = p
            q.headRotation = r
            q.headForward = forward
            q.headUp = r.act(Vec3(0, 1, 0))
            q.headYaw = degrees(atan2(-forward.x, -forward.z))
            q.headPitch = degrees(asin(min(1, max(-1, forward.y))))

            // Events up to and including t.
            if i == 0 && style.hasBoundary { origin = p }
            let eventsBefore = nextEvent
            while nextEvent < events.count, events[nextEvent].time <= t + 1e-9 {
                switch events[nextEvent].action {
                case .setImmersion(let newStyle, _):
                    if newStyle.hasBoundary {
                        if !style.hasBoundary || origin == nil { origin = p }
                    } else {
                        origin = nil
                    }
                    style = newStyle
                case .recenter:
                    if style.hasBoundary { origin = p }
                case .show(let e):
                    Simulator.setVisibility(true, of: e, in: &visible, scene: scene, byNode: entitiesByNode)
                case .hide(let e):
                    Simulator.setVisibility(false, of: e, in: &visible, scene: scene, byNode: entitiesByNode)
                case .ar:
                    break
                }
                nextEvent += 1
            }
            q.eventsTookEffect = nextEvent != eventsBefore
            q.immersion = style
            q.boundaryOrigin = origin
            if let o = origin {
                let d = p - o
                q.headDisplacement = length(d)
                q.headDisplacementHorizontal = (d.x * d.x + d.z * d.z).squareRoot()
            } else {
                q.headDisplacement = 0
                q.headDisplacementHorizontal = 0
            }

            // Anchor frames: the head, and the hand (its pose in the head frame after the head's).
            let (hp, hq) = handPose(at: t)
            let hand = p + r.act(hp)
            let hr = (r * hq).normalized
            rootTRS[0] = sm_trs(t: (p.x, p.y, p.z), q: (r.x, r.y, r.z, r.w), s: (1, 1, 1))
            rootTRS[1] = sm_trs(t: (hand.x, hand.y, hand.z), q: (hr.x, hr.y, hr.z, hr.w), s: (1, 1, 1))
            sm_compose_trs(rootTRS, &rootFrames, 2)

            // Animations: sample every track in two batched calls, then compose the driven nodes.
            if !slotNode.isEmpty {
                for (a, anim) in scene.animations.enumerated() { clipT[a] = Simulator.clipTime(anim, at: t) }
                for k in 0..<vecSampleT.count { vecSampleT[k] = clipT[vecAnimation[k]] }
                for k in 0..<quatSampleT.count { quatSampleT[k] = clipT[quatAnimation[k]] }
                sm_sample_vec3_keys(vecTimes, vecValues, vecBegin, vecCount, vecSampleT, &vecOut, vecBegin.count)
                sm_sample_quat_keys(quatTimes, quatValues, quatBegin, quatCount, quatSampleT, &quatOut, quatBegin.count)
                for s in 0..<slots.count { slots[s] = slotRest[s] }
                for k in 0..<vecSlot.count {
                    let v = (vecOut[3 * k], vecOut[3 * k + 1], vecOut[3 * k + 2])
                    if vecIsScale[k] { slots[vecSlot[k]].s = v } else { slots[vecSlot[k]].t = v }
                }
                for k in 0..<quatSlot.count {
                    slots[quatSlot[k]].q = (quatOut[4 * k], quatOut[4 * k + 1], quatOut[4 * k + 2], quatOut[4 * k + 3])
                }
                // Dynamic scale: a window or volume that has moved since the previous frame (or, in
                // the first, from where it was placed) takes the metres per point of its distance
                // from the eye now, and keeps them while it stays (hig-rules §2.4 A2, onPlacement).
                for k in rescaled.indices {
                    let t = slots[rescaled[k].slot].t
                    if t.0 != rescaleAt[k].0 || t.1 != rescaleAt[k].1 || t.2 != rescaleAt[k].2 {
                        rescaleAt[k] = t
                        let f = scene.units.dynamicPointSize(atDistance: length(Vec3(t.0, t.1, t.2) - p)) / rescaled[k].metresPerPoint
                        if f.isFinite, f > 0, f != rescaleFactor[k] {
                            rescaleFactor[k] = f
                            for m in rescaled[k].members {
                                let e = Int(m)
                                q.dynamicScale[e] = f
                                // Its em scales with it (text under a scale of its own gets its em
                                // again from its text scale below: its node moves with the window).
                                if emMetres[e] > 0 { emWorld[e] = TextScale.em(emMetres[e], scale: f) }
                            }
                        }
                    }
                    let f = rescaleFactor[k]
                    if f != 1 {
                        let sc = slots[rescaled[k].slot].s
                        slots[rescaled[k].slot].s = (sc.0 * f, sc.1 * f, sc.2 * f)
                    }
                }
                sm_compose_trs_indexed(slots, slotNode, &local, slots.count)
            }

            mark(&phases.animation)

            // Hierarchy, boxes, entity bounds and quantities: four batched calls.
            if i == 0 {
                sm_world_transforms(parent, local, rootFrames, rootFrameIndex, &world, nNodes)
                if !volumeOrnaments.isEmpty {
                    turnVolumeOrnaments(eye: p, first: true, local: &local, world: &world, rootFrames: rootFrames,
                                        turns: &turn, prevCenter: &prevCenter)
                }
                sm_transform_aabbs(world, localBoxes, &worldBoxes, nNodes)
                sm_entity_bounds(world, localBoxes, worldBoxes, nNodes, entityNode, geomBegin, geomEnd,
                                 &entBoxes, &boxFrames, nil, entityCount)
            } else {
                sm_world_transforms_subset(parent, local, rootFrames, rootFrameIndex, &world, movingNodes, movingNodes.count)
                if !volumeOrnaments.isEmpty {
                    turnVolumeOrnaments(eye: p, first: false, local: &local, world: &world, rootFrames: rootFrames,
                                        turns: &turn, prevCenter: &prevCenter)
                }
                sm_transform_aabbs_subset(world, localBoxes, &worldBoxes, movingNodes, movingNodes.count)
                sm_entity_bounds(world, localBoxes, worldBoxes, nNodes, entityNode, geomBegin, geomEnd,
                                 &entBoxes, &boxFrames, movingEntities, movingEntities.count)
            }
            // Text scales: the length of the node's world +Y axis, for text under a scale, on the
            // first frame and whenever its node can have moved.
            if !scaledText.isEmpty {
                world.withUnsafeBufferPointer { w in
                    for k in scaledText.indices {
                        let e = Int(scaledText[k])
                        guard i == 0 || entityMoves[e] else { continue }
                        let s = TextScale.upLength(w, node: Int(entityNode[e])) / scaledTextDivisor[k]
                        // Its world em follows every scale above it; its text scale, which sizes its
                        // points, leaves out dynamic scale's (points stay points).
                        q.textScale[e] = s / q.dynamicScale[e]
                        if emMetres[e] > 0 { emWorld[e] = TextScale.em(emMetres[e], scale: s) }
                    }
                }
            }
            mark(&phases.transforms)
            let pose = SIMD8<UInt64>(p.x.bitPattern, p.y.bitPattern, p.z.bitPattern, r.x.bitPattern,
                                     r.y.bitPattern, r.z.bitPattern, r.w.bitPattern, 0)
            samePose = i > 0 && pose == lastPose ? samePose + 1 : 0
            lastPose = pose
            // What the quantities are a function of (as for keeping them, below), and what else a
            // frame carries: visibility, immersion and the boundary origin change only at events.
            q.unchangedSincePrevious = movingEntities.isEmpty && samePose >= 2 && nextEvent == eventsBefore
            if stillScene && samePose >= 2 {
                phases.stillFrames += 1
            } else {
                // A looping animation that restarted since the previous frame popped its content
                // back to its first key: that is not motion, so those entities keep the previous
                // frame's velocities (which `q` still holds).
                kept.removeAll(keepingCapacity: true)
                if i > 0 {
                    for jump in loopJumps {
                        let laps = { (time: Double) in (time * jump.speed / jump.duration).rounded(.down) }
                        guard laps(t) != laps(Double(i - 1) / frameRate) else { continue }
                        for e in jump.entities {
                            let k = Int(e)
                            kept.append((k, q.angularVelocity[k], q.linearSpeed[k], q.approachSpeed[k]))
                        }
                    }
                }
                var head = sm_head(p: (p.x, p.y, p.z), q: (r.x, r.y, r.z, r.w),
                                   fov_h: fieldOfView.x, fov_v: fieldOfView.y)
                var motion = sm_motion_state(prev_center: nil, prev_local_dir: nil, prev_distance: nil,
                                             prev_head: (prevHead.x, prevHead.y, prevHead.z),
                                             has_prev: i == 0 ? 0 : 1, dt: dt)
                prevCenter.withUnsafeMutableBufferPointer { pc in
                    prevLocalDir.withUnsafeMutableBufferPointer { pl in
                        prevDistance.withUnsafeMutableBufferPointer { pd in
                            motion.prev_center = pc.baseAddress
                            motion.prev_local_dir = pl.baseAddress
                            motion.prev_distance = pd.baseAddress
                            q.withOutputs { out in
                                sm_entity_quantities(&head, entBoxes, boxFrames, world, nNodes, entityNode, emWorld,
                                                     headAttached, pointAngle, i == 0 ? nil : entityMoves,
                                                     &motion, &out, entityCount)
                            }
                        }
                    }
                }
            }
            for (k, w, v, a) in kept {
                q.angularVelocity[k] = w; q.linearSpeed[k] = v; q.approachSpeed[k] = a
            }
            prevHead = p
            q.visible.withUnsafeMutableBufferPointer { dst in
                visible.withUnsafeBufferPointer { src in _ = dst.update(fromContentsOf: src) }
            }
            mark(&phases.quantities)
            phases.frames += 1
            // Lend the box frames to the consumer without a copy (an O(1) swap of buffers); they
            // come back before the next frame writes them.
            swap(&q.boxFrames, &boxFrames)
            try body(q)
            swap(&q.boxFrames, &boxFrames)
            if profiling { clock = SimulationPhaseTimes.now() }
        }
    }
}

extension Simulator {
    /// Turns each ornament of a volume (`volumeOrnaments`; in the first frame all of them, after it
    /// those that can turn) about its volume's local +Y axis through the volume's centre by the yaw
    /// from the volume's +Z to the direction of the eye, projected on the volume's horizontal plane,
    /// so that it keeps, relative to the viewer, the side it was written on (HIG, Windows ›
    /// visionOS: "the ornament remains in the same position, relative to the viewer's perspective,
    /// as they move around the volume"). Continuous, not snapped to faces. Its local transform
    /// (relative to the volume) becomes `Ry(θ) · local`, and the world transforms of its subtree
    /// are computed again. `world` holds this frame's transforms of the volumes. An eye straight
    /// above or below a volume's centre (no horizontal direction) turns its ornaments by 0.
    ///
    /// The turn is the viewer's doing, not motion of the content (it keeps the ornament where the
    /// viewer sees it): after the first frame, the previous centres (`prevCenter`) of the entities
    /// an ornament holds are turned by the change of its turn, about its volume's +Y axis through
    /// its centre as they were in the previous frame, so the velocities measured next hold only
    /// the volume's and the content's own motion.
    private func turnVolumeOrnaments(eye p: Vec3, first: Bool, local: inout [Double], world: inout [Double],
                                     rootFrames: [Double], turns: inout OrnamentTurns, prevCenter: inout [Double]) {
        for (k, o) in volumeOrnaments.enumerated() where first || o.turns {
            let v = 16 * Int(o.volumeNode), n = 16 * Int(o.node)
            // The eye in the volume's frame: (p − origin) · axis / |axis|² (a TRS matrix's columns
            // are its rotated axes times their scales); only x and z matter.
            let dx = p.x - world[v + 12], dy = p.y - world[v + 13], dz = p.z - world[v + 14]
            let xx = world[v] * world[v] + world[v + 1] * world[v + 1] + world[v + 2] * world[v + 2]
            let zz = world[v + 8] * world[v + 8] + world[v + 9] * world[v + 9] + world[v + 10] * world[v + 10]
            guard xx > 0, zz > 0 else { continue }
            let lx = (dx * world[v] + dy * world[v + 1] + dz * world[v + 2]) / xx
            let lz = (dx * world[v + 8] + dy * world[v + 9] + dz * world[v + 10]) / zz
            let theta = lx * lx + lz * lz > 0 && lx.isFinite && lz.isFinite ? atan2(lx, lz) : 0
            let c = cos(theta), s = sin(theta)
            let centre = Vec3(world[v + 12], world[v + 13], world[v + 14])
            let yy = world[v + 4] * world[v + 4] + world[v + 5] * world[v + 5] + world[v + 6] * world[v + 6]
            let up = yy > 0 && yy.isFinite ? Vec3(world[v + 4], world[v + 5], world[v + 6]) / yy.squareRoot() : Vec3(0, 1, 0)
            if !first, theta != turns.theta[k] {
                // Rodrigues: q' = pivot + r cos δ + (a × r) sin δ + a (a · r)(1 − cos δ), r = q − pivot.
                let d = theta - turns.theta[k], cd = cos(d), sd = sin(d)
                let a = turns.axis[k], pivot = turns.centre[k]
                for m in o.members {
                    let b = 3 * Int(m)
                    let r = Vec3(prevCenter[b], prevCenter[b + 1], prevCenter[b + 2]) - pivot
                    let q = pivot + r * cd + cross(a, r) * sd + a * (dot(a, r) * (1 - cd))
                    prevCenter[b] = q.x; prevCenter[b + 1] = q.y; prevCenter[b + 2] = q.z
                }
            }
            turns.theta[k] = theta; turns.centre[k] = centre; turns.axis[k] = up
            // Ry(θ) · L, column by column (column-major): x' = c·x + s·z, z' = −s·x + c·z.
            // The unturned transform: this frame's animated one, else the rest one.
            if !o.animated { for j in n..<(n + 16) { local[j] = restLocal[j] } }
            for j in stride(from: n, to: n + 16, by: 4) {
                let x = local[j], z = local[j + 2]
                local[j] = c * x + s * z
                local[j + 2] = -s * x + c * z
            }
            sm_world_transforms_subset(parent, local, rootFrames, rootFrameIndex, &world, o.subtree, o.subtree.count)
        }
    }
}

/// Per volume ornament, during a run: its turn (radians) and its volume's centre and unit +Y axis
/// in world space, as of the last frame that turned it.
struct OrnamentTurns {
    var theta: [Double]
    var centre: [Vec3]
    var axis: [Vec3]
    init(count: Int) {
        theta = [Double](repeating: 0, count: count)
        centre = [Vec3](repeating: .zero, count: count)
        axis = [Vec3](repeating: Vec3(0, 1, 0), count: count)
    }
}

/// Nanoseconds the simulator spent in each phase, summed over the frames of `Simulator.run(phases:_:)`.
/// - `animation`: head pose, events, anchor frames, key sampling and T·R·S of animated nodes;
/// - `transforms`: world transforms of the hierarchy, world boxes, entity bounds and box frames (after
///   the first frame only for the nodes and entities that can move);
/// - `quantities`: the viewing quantities and their copy into `FrameQuantities` (with velocities).
public struct SimulationPhaseTimes: Sendable, Hashable {
    public var animation: UInt64 = 0
    public var transforms: UInt64 = 0
    public var quantities: UInt64 = 0
    public var frames: Int = 0
    /// Frames whose quantities were the previous frame's, kept instead of recomputed (nothing in the
    /// scene can move and the head pose had not changed for two frames).
    public var stillFrames: Int = 0
    public init() {}
    public var total: UInt64 { animation &+ transforms &+ quantities }

    /// Monotonic clock in nanoseconds (CLOCK_MONOTONIC).
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// A window or volume that dynamic scale rescales when it moves: its animation slot, its metres
/// per point as loaded, and the entities it holds (itself included).
struct DynamicRescale: Sendable {
    let slot: Int
    let metresPerPoint: Double
    let members: [Int32]
}

/// An ornament of a volume: its node (a child of its volume's node), its volume's node, whether an
/// animation composes its local transform each frame (else its rest transform is the one turned),
/// whether it can turn after the first frame (the eye's position or its volume can move), its
/// node subtree in pre-order (computed again after the turn), and the entities it holds (itself
/// included), whose previous centres the turn's change turns with it (`turnVolumeOrnaments`).
struct VolumeOrnament: Sendable {
    let node: Int32
    let volumeNode: Int32
    let animated: Bool
    let turns: Bool
    let subtree: [Int32]
    var members: [Int32]
}
