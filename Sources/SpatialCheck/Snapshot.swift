import Foundation
import SpatialModel
import Simulation
import Reporting

extension SpatialCheck {
    /// Replays a scene to capture what the HTML report draws: the viewer path, boundary origins,
    /// rest footprints, and the view from the eye at the requested frames.
    static func captureSnapshot(scene: Scene, options: SimulationOptions, frames wanted: Set<Int>) -> SceneSnapshot {
        let simulator = Simulator(scene: scene, options: options)
        let step = max(1, simulator.frameCount / 400)
        var path: [SIMD2<Double>] = []
        var origins: [SIMD2<Double>] = []
        var views: [Int: SceneSnapshot.View] = [:]
        simulator.run { q in
            if q.frame % step == 0 || q.frame == simulator.frameCount - 1 {
                path.append(SIMD2(q.headPosition.x, q.headPosition.z))
            }
            if let o = q.boundaryOrigin {
                let p = SIMD2(o.x, o.z)
                if origins.last != p { origins.append(p) }
            }
            guard wanted.contains(q.frame) else { return }
            var boxes: [SceneSnapshot.ViewBox] = []
            let inverse = q.headRotation.conjugate
            for e in 0..<q.entityCount where q.visible[e] {
                let box = AABB(min: q.boundsMin[e], max: q.boundsMax[e])
                var minAz = Double.infinity, maxAz = -Double.infinity, minEl = Double.infinity, maxEl = -Double.infinity
                var inFront = false
                for c in box.corners {
                    let v = inverse.act(c - q.headPosition)
                    if -v.z > 1e-6 { inFront = true }
                    let az = degrees(atan2(v.x, -v.z))
                    let el = degrees(atan2(v.y, (v.x * v.x + v.z * v.z).squareRoot()))
                    minAz = min(minAz, az); maxAz = max(maxAz, az); minEl = min(minEl, el); maxEl = max(maxEl, el)
                }
                guard inFront, maxAz - minAz < 180 else { continue }
                boxes.append(.init(path: scene.entities[e].path, minAz: minAz, maxAz: maxAz,
                                   minEl: minEl, maxEl: maxEl, distance: q.distance[e]))
            }
            views[q.frame] = .init(frame: q.frame, time: q.time, boxes: boxes)
        }
        let footprints = scene.entities.compactMap { e -> SceneSnapshot.Footprint? in
            let b = e.restWorldBounds
            guard !b.isEmpty, e.kind != .element, e.kind != .node else { return nil }
            return .init(path: e.path, kind: e.kind.rawValue, minX: b.min.x, maxX: b.max.x, minZ: b.min.z, maxZ: b.max.z)
        }
        return SceneSnapshot(viewerPath: path, boundaryOrigins: origins, footprints: footprints,
                             fieldOfView: simulator.fieldOfView, views: views)
    }
}
