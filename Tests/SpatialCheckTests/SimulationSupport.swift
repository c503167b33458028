import Foundation
import Testing
@testable import Simulation
import SpatialModel

/// Builds `Scene` values directly (no loader): windows, models and elements from position,
/// rotation and size. Children must be added right after their parent's subtree so that the nodes
/// stay in depth-first pre-order.
struct TestSceneBuilder {
    var nodes: [Node] = []
    var entities: [Entity] = []
    var animations: [Animation] = []
    var events: [SceneEvent] = []

    /// Adds an entity whose node carries a box of `size` centred on its origin. `parent` is an
    /// entity index; `position`/`rotation` are relative to the parent (or the anchor frame).
    @discardableResult
    mutating func add(_ id: String, kind: EntityKind = .window, position: Vec3, rotation: Quat = .identity,
                      size: Vec3 = Vec3(1, 1, 0), parent: Int? = nil, anchor: Anchor = .world,
                      visible: Bool = true) -> Int {
        let index = nodes.count
        let parentNode = parent.map { entities[$0].node }
        let trs = Transform(translation: position, rotation: rotation)
        nodes.append(Node(name: id, parent: parentNode, subtreeEnd: index + 1, rest: trs.matrix, restTRS: trs,
                          geometry: AABB(min: -size / 2, max: size / 2), anchor: anchor,
                          entity: entities.count))
        // Extend every ancestor's subtree.
        var p = parentNode
        while let a = p {
            nodes[a].subtreeEnd = nodes.count
            p = nodes[a].parent
        }
        var e = Entity(id: id, path: parent.map { entities[$0].path + "/" + id } ?? id, kind: kind, node: index,
                       location: SourceLocation(line: 1, column: 1))
        e.parent = parent
        e.anchor = anchor
        e.visible = visible
        entities.append(e)
        return entities.count - 1
    }

    /// A keyframe animation of an entity's node.
    mutating func animate(_ entity: Int, positions: [(Double, Vec3)] = [], rotations: [(Double, Quat)] = [],
                          loop: Bool = false, speed: Double = 1) {
        let times = positions.map(\.0) + rotations.map(\.0)
        let channel = NodeChannel(node: entities[entity].node,
                                  positions: positions.map { Key(time: $0.0, value: $0.1) },
                                  rotations: rotations.map { Key(time: $0.0, value: $0.1) })
        animations.append(Animation(entity: entity, source: .keyframes, duration: times.max() ?? 0,
                                    loop: loop, speed: speed, channels: [channel]))
        entities[entity].animation = animations.count - 1
    }

    mutating func event(_ time: Double, _ action: SceneEvent.Action) {
        events.append(SceneEvent(time: time, action: action, location: nil))
    }

    func scene(duration: Double = 1, frameRate: Double = 90, immersion: ImmersionStyle = .shared,
               path: [ViewerKey]? = nil, motion: MotionPreset = .none) -> Scene {
        Scene(path: "test.yaml", immersion: immersion, frameRate: frameRate, duration: duration,
              viewer: Viewer(path: path, motion: motion), nodes: nodes, entities: entities,
              animations: animations, events: events.sorted { $0.time < $1.time })
    }
}

/// A head pose key from position and yaw/pitch in degrees.
func viewerKey(_ t: Double, _ position: Vec3 = Vec3(0, 1.6, 0), yaw: Double = 0, pitch: Double = 0) -> ViewerKey {
    ViewerKey(time: t, position: position, rotation: Quat(yaw: yaw, pitch: pitch, roll: 0))
}

/// Every frame's quantities (copies; fine for the small scenes of the tests).
func simulateAll(_ scene: Scene, _ options: SimulationOptions = SimulationOptions()) -> [FrameQuantities] {
    var frames: [FrameQuantities] = []
    Simulator(scene: scene, options: options).run { q in frames.append(copy q) }
    return frames
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Vec3, _ b: Vec3, _ tolerance: Double = 1e-9) -> Bool { length(a - b) <= tolerance }
