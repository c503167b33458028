import Foundation
import SpatialModel
import Simulation
import Reporting

extension SpatialCheck {
    /// Replays a scene to capture what the HTML report's 3D replay plays back: every drawn entity's
    /// box (centre, orientation, size) per frame, reduced to keyframes; visibility; the head pose;
    /// the boundary origin and immersion style as they change; and, from the scene's violations,
    /// each entity's severity over the frames of their spans.
    public static func captureReplay(scene: Scene, options: SimulationOptions = SimulationOptions(),
                              violations: [ReportViolation]) -> ReplayData {
        let simulator = Simulator(scene: scene, options: options)
        let count = scene.entities.count
        // Environments and groups are not drawn (a group's box is its children's); nor is anything
        // without bounds.
        let drawn = scene.entities.map { e in
            e.kind != .environment && e.kind != .group && !e.restWorldBounds.isEmpty
        }
        var recorders = Array(repeating: TrackRecorder(angles: [3, 4, 5]), count: count)
        var visibleFrom = [Int?](repeating: nil, count: count)
        var visibility = [[ClosedRange<Int>]](repeating: [], count: count)
        var head = TrackRecorder(angles: [3, 4, 5])
        var boundary: [ReplayData.BoundaryChange] = []
        var immersion: [ReplayData.ImmersionChange] = []
        var lastFrame = 0
        simulator.run { q in
            let f = q.frame
            lastFrame = f
            for e in 0..<min(count, q.entityCount) {
                if q.visible[e] {
                    if visibleFrom[e] == nil { visibleFrom[e] = f }
                } else if let start = visibleFrom[e] {
                    visibility[e].append(start...(f - 1)); visibleFrom[e] = nil
                }
                guard drawn[e] else { continue }
                let o = 12 * e
                let c: Vec3, axes: [Vec3]
                if o + 11 < q.boxFrames.count {
                    c = Vec3(q.boxFrames[o], q.boxFrames[o + 1], q.boxFrames[o + 2])
                    axes = [q.boxAxis(e, 0), q.boxAxis(e, 1), q.boxAxis(e, 2)]
                } else {
                    let lo = q.boundsMin[e], hi = q.boundsMax[e]
                    c = (lo + hi) * 0.5
                    axes = [Vec3((hi.x - lo.x) / 2, 0, 0), Vec3(0, (hi.y - lo.y) / 2, 0), Vec3(0, 0, (hi.z - lo.z) / 2)]
                }
                guard let pose = boxPose(center: c, axes: axes) else { continue }
                recorders[e].append(frame: f, values: pose)
            }
            let p = q.headPosition
            let r = q.headRotation
            let angles = eulerYXZ(r.act(Vec3(1, 0, 0)), r.act(Vec3(0, 1, 0)), r.act(Vec3(0, 0, 1)))
            head.append(frame: f, values: [mm(p.x), mm(p.y), mm(p.z)] + angles)
            let origin = q.boundaryOrigin.map { SIMD3(mm($0.x), mm($0.y), mm($0.z)) }
            if boundary.isEmpty ? origin != nil : boundary[boundary.count - 1].origin != origin {
                boundary.append(.init(frame: f, origin: origin))
            }
            if immersion.last?.style != q.immersion.rawValue {
                immersion.append(.init(frame: f, style: q.immersion.rawValue))
            }
        }
        for e in 0..<count { if let start = visibleFrom[e] { visibility[e].append(start...lastFrame) } }
        let severities = ReplayData.severityIntervals(entityPaths: scene.entities.map(\.path), violations: violations,
                                                      frameCount: simulator.frameCount)
        return ReplayData(
            frameCount: simulator.frameCount, frameRate: simulator.frameRate, fieldOfView: simulator.fieldOfView,
            entities: scene.entities.map { e in
                ReplayData.Entity(path: e.path, kind: e.kind.rawValue, parent: e.parent.flatMap { $0 >= 0 && $0 < count ? $0 : nil })
            },
            tracks: recorders.map { $0.finish() }, visibility: visibility, severities: severities.entities,
            sceneSeverities: severities.scene, head: head.finish(), boundary: boundary, immersion: immersion)
    }
}

/// Millimetres, clamped to ±1000 km (a hostile scene's far-off coordinate stays an integer).
func mm(_ x: Double) -> Int {
    guard x.isFinite else { return 0 }
    return Int((min(max(x, -1e6), 1e6) * 1000).rounded())
}

/// A box given by its centre and three half-axis vectors as [x, y, z (mm), yaw, pitch, roll (0.1°),
/// size x, y, z (mm)]; nil when a coordinate is not finite or the box is unbounded.
func boxPose(center c: Vec3, axes: [Vec3]) -> [Int]? {
    guard axes.count == 3, c.x.isFinite, c.y.isFinite, c.z.isFinite, abs(c.x) < 1e6, abs(c.y) < 1e6, abs(c.z) < 1e6 else { return nil }
    let lengths = axes.map { ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() }
    guard lengths.allSatisfy({ $0.isFinite && $0 < 1e6 }) else { return nil }
    // Orthonormal columns: the non-degenerate axes, completed by cross products (a flat window has
    // no thickness axis). Flipping an axis maps the box onto itself, so the third column is taken
    // as x × y (right-handed).
    var cols: [Vec3?] = zip(axes, lengths).map { a, l in l > 1e-9 ? a / l : nil }
    switch cols.filter({ $0 != nil }).count {
    case 0:
        cols = [Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)]
    case 1:
        if let k = cols.firstIndex(where: { $0 != nil }), let a = cols[k] {
            let helper = abs(a.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)
            let b = normalize3(cross3(helper, a)), d = cross3(a, b)
            cols = k == 0 ? [a, b, d] : k == 1 ? [d, a, b] : [b, d, a]
        }
    case 2:
        if let y = cols[1], let z = cols[2], cols[0] == nil { cols[0] = cross3(y, z) }
        if let z = cols[2], let x = cols[0], cols[1] == nil { cols[1] = cross3(z, x) }
        if let x = cols[0], let y = cols[1], cols[2] == nil { cols[2] = cross3(x, y) }
    default: break
    }
    guard let x0 = cols[0], let y0 = cols[1] else { return nil }
    let x = normalize3(x0)
    let y = normalize3(y0 - x * dot3(x, y0))
    let z = cross3(x, y)
    return [mm(c.x), mm(c.y), mm(c.z)] + eulerYXZ(x, y, z) + lengths.map { mm(2 * $0) }
}

/// Yaw, pitch, roll in tenths of a degree of the rotation whose columns are x, y, z, with
/// R = Ry(yaw)·Rx(pitch)·Rz(roll) (the order the replay script composes).
func eulerYXZ(_ x: Vec3, _ y: Vec3, _ z: Vec3) -> [Int] {
    // R[row][col]: column j is the image of axis j.
    let r12 = z.y, r02 = z.x, r22 = z.z, r10 = x.y, r11 = y.y, r00 = x.x, r20 = x.z
    let pitch = asin(min(1, max(-1, -r12)))
    var yaw: Double, roll: Double
    if abs(r12) < 0.99999 {
        yaw = atan2(r02, r22); roll = atan2(r10, r11)
    } else {
        yaw = atan2(-r20, r00); roll = 0
    }
    func tenth(_ a: Double) -> Int { a.isFinite ? Int((a * 1800 / Double.pi).rounded()) : 0 }
    return [tenth(yaw), tenth(pitch), tenth(roll)]
}

private func dot3(_ a: Vec3, _ b: Vec3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
private func cross3(_ a: Vec3, _ b: Vec3) -> Vec3 { Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }
private func normalize3(_ a: Vec3) -> Vec3 {
    let l = dot3(a, a).squareRoot()
    return l > 1e-12 && l.isFinite ? a / l : Vec3(0, 0, 1)
}
