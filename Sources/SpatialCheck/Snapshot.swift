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
        var outlines: [[SIMD2<Double>]] = Array(repeating: [], count: scene.entities.count)
        simulator.run { q in
            if q.frame == 0 {
                for e in 0..<min(q.entityCount, outlines.count) {
                    outlines[e] = convexHull(q.boxCorners(e).map { SIMD2($0.x, $0.z) })
                }
            }
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
                var minAz = Double.infinity, maxAz = -Double.infinity, minEl = Double.infinity, maxEl = -Double.infinity
                var inFront = false
                for c in q.boxCorners(e) {
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
        let footprints = scene.entities.enumerated().compactMap { i, e -> SceneSnapshot.Footprint? in
            let b = e.restWorldBounds
            guard !b.isEmpty, e.kind != .element, e.kind != .node else { return nil }
            return .init(path: e.path, kind: e.kind.rawValue, minX: b.min.x, maxX: b.max.x, minZ: b.min.z, maxZ: b.max.z,
                         outline: i < outlines.count ? outlines[i] : [])
        }
        return SceneSnapshot(viewerPath: path, boundaryOrigins: origins, footprints: footprints,
                             fieldOfView: simulator.fieldOfView, views: views)
    }
}

/// Convex hull of points in the plane (Andrew's monotone chain), counter-clockwise, without
/// repeated or collinear points; fewer than 3 points when they are all on a line.
func convexHull(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
    let p = points.filter { $0.x.isFinite && $0.y.isFinite }.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
    guard p.count >= 3 else { return p }
    func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }
    var lower: [SIMD2<Double>] = [], upper: [SIMD2<Double>] = []
    for q in p {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 1e-12 { lower.removeLast() }
        lower.append(q)
    }
    for q in p.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 1e-12 { upper.removeLast() }
        upper.append(q)
    }
    return Array(lower.dropLast() + upper.dropLast())
}
