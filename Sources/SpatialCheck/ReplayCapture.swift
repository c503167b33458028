import Foundation
import SpatialModel
import Simulation
import Reporting

extension SpatialCheck {
    /// Replays a scene to capture what the HTML report's 3D replay plays back: every drawn entity's
    /// box (centre, orientation, size) per frame, reduced to keyframes; visibility; the head pose;
    /// the boundary origin and immersion style as they change; and, from the scene's violations,
    /// each entity's severity over the frames of their spans.
    /// `maxValues`: where the recording stops (`ReplayData.recordingLimit`; tests set it low).
    public static func captureReplay(scene: Scene, options: SimulationOptions = SimulationOptions(),
                              violations: [ReportViolation], maxValues: Int = ReplayData.recordingLimit) -> ReplayData {
        let simulator = Simulator(scene: scene, options: options)
        var recording = ReplayRecording(scene: scene, maxValues: maxValues)
        simulator.run { q in recording.observe(q) }
        return recording.finish(scene: scene, simulator: simulator, violations: violations)
    }
}

/// The replay's per-frame recording (`SpatialCheck.captureReplay`), fed by a simulator run of its
/// own or by the snapshot's (`captureSnapshot`), so the HTML report replays a scene once for both.
/// An entity whose box frame is bit for bit the one of the frame before has the same pose: it is
/// recorded as a hold (`TrackRecorder.repeatLast`) without computing the pose again.
struct ReplayRecording {
    let count: Int
    /// Environments and groups are not drawn (a group's box is its children's); nor is anything
    /// without bounds.
    let drawn: [Bool]
    var recorders: [TrackRecorder]
    var visibleFrom: [Int?]
    var visibility: [[ClosedRange<Int>]]
    var head = TrackRecorder(angles: [3, 4, 5])
    var boundary: [ReplayData.BoundaryChange] = []
    var immersion: [ReplayData.ImmersionChange] = []
    var lastFrame = 0
    /// Each entity's box frame (12 numbers) at the frame before, and what it gave there:
    /// 0 nothing known, 1 a recorded sample, 2 no pose (not finite or unbounded).
    var previousBox: [UInt64]
    var previousResult: [UInt8]
    /// Numbers recorded so far (`ReplayData.valueCount` of the keyframes and visibility runs), and
    /// whether the recording stopped at `maxValues` (`ReplayData.recordingLimit`): then the replay covers the frames
    /// up to `lastFrame` (a scene that hides and shows 1,000 entities in every frame of 100,000
    /// made a 590 MB page and 4.5 GB of memory before this bound).
    var recorded = 0
    var full = false
    let maxValues: Int

    init(scene: Scene, maxValues: Int = ReplayData.recordingLimit) {
        self.maxValues = maxValues
        count = scene.entities.count
        drawn = scene.entities.map { e in
            e.kind != .environment && e.kind != .group && !e.restWorldBounds.isEmpty
        }
        recorders = Array(repeating: TrackRecorder(angles: [3, 4, 5]), count: count)
        visibleFrom = [Int?](repeating: nil, count: count)
        visibility = [[ClosedRange<Int>]](repeating: [], count: count)
        previousBox = [UInt64](repeating: 0, count: 12 * count)
        previousResult = [UInt8](repeating: 0, count: count)
    }

    mutating func observe(_ q: borrowing FrameQuantities) {
        if full { return }
        let f = q.frame
        lastFrame = f
        var added = 0
        let boxFrames = q.boxFrames
        for e in 0..<min(count, q.entityCount) {
            if q.visible[e] {
                if visibleFrom[e] == nil { visibleFrom[e] = f }
            } else if let start = visibleFrom[e] {
                visibility[e].append(start...(f - 1)); visibleFrom[e] = nil
                added &+= 2
            }
            guard drawn[e] else { continue }
            let keys = recorders[e].keyframes.count
            defer { added &+= (recorders[e].keyframes.count &- keys) &* (1 + ReplayData.entityValues) }
            let o = 12 * e
            let pose: [Int]?
            if o + 11 < boxFrames.count {
                var same = previousResult[e] != 0
                for k in 0..<12 {
                    let bits = boxFrames[o + k].bitPattern
                    if previousBox[o + k] != bits { same = false; previousBox[o + k] = bits }
                }
                if same {
                    if previousResult[e] == 2 { continue }
                    if recorders[e].repeatLast(frame: f) { continue }
                }
                pose = boxPose(center: Vec3(boxFrames[o], boxFrames[o + 1], boxFrames[o + 2]),
                               q.boxAxis(e, 0), q.boxAxis(e, 1), q.boxAxis(e, 2))
                previousResult[e] = pose == nil ? 2 : 1
            } else {
                previousResult[e] = 0
                let lo = q.boundsMin[e], hi = q.boundsMax[e]
                pose = boxPose(center: (lo + hi) * 0.5, Vec3((hi.x - lo.x) / 2, 0, 0), Vec3(0, (hi.y - lo.y) / 2, 0),
                               Vec3(0, 0, (hi.z - lo.z) / 2))
            }
            guard let pose else { continue }
            recorders[e].append(frame: f, values: pose)
        }
        let p = q.headPosition
        let r = q.headRotation
        let angles = eulerYXZ(r.act(Vec3(1, 0, 0)), r.act(Vec3(0, 1, 0)), r.act(Vec3(0, 0, 1)))
        let headKeys = head.keyframes.count
        head.append(frame: f, values: [mm(p.x), mm(p.y), mm(p.z)] + angles)
        added &+= (head.keyframes.count &- headKeys) &* (1 + ReplayData.headValues)
        let origin = q.boundaryOrigin.map { SIMD3(mm($0.x), mm($0.y), mm($0.z)) }
        if boundary.isEmpty ? origin != nil : boundary[boundary.count - 1].origin != origin {
            boundary.append(.init(frame: f, origin: origin))
        }
        if immersion.last?.style != q.immersion.rawValue {
            immersion.append(.init(frame: f, style: q.immersion.rawValue))
        }
        recorded &+= added
        if recorded > maxValues { full = true }
    }

    /// `frames`: the frames the run covered (fewer than the simulator's when the check stopped early).
    func finish(scene: Scene, simulator: Simulator, violations: [ReportViolation], frames covered: Int? = nil) -> ReplayData {
        var visibility = visibility
        for e in 0..<count { if let start = visibleFrom[e] { visibility[e].append(start...lastFrame) } }
        // A recording that stopped at its limit covers the frames up to `lastFrame`.
        let all = min(simulator.frameCount, covered ?? simulator.frameCount)
        let frames = full ? min(all, lastFrame + 1) : all
        let severities = ReplayData.severityIntervals(entityPaths: scene.entities.map(\.path), violations: violations,
                                                      frameCount: frames)
        return ReplayData(
            frameCount: frames, frameRate: simulator.frameRate, fieldOfView: simulator.fieldOfView,
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
func boxPose(center c: Vec3, _ a0: Vec3, _ a1: Vec3, _ a2: Vec3) -> [Int]? {
    guard c.x.isFinite, c.y.isFinite, c.z.isFinite, abs(c.x) < 1e6, abs(c.y) < 1e6, abs(c.z) < 1e6 else { return nil }
    func length(_ a: Vec3) -> Double { (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot() }
    let l0 = length(a0), l1 = length(a1), l2 = length(a2)
    guard l0.isFinite && l0 < 1e6, l1.isFinite && l1 < 1e6, l2.isFinite && l2 < 1e6 else { return nil }
    // Orthonormal columns: the non-degenerate axes, completed by cross products (a flat window has
    // no thickness axis). Flipping an axis maps the box onto itself, so the third column is taken
    // as x × y (right-handed).
    var c0: Vec3? = l0 > 1e-9 ? a0 / l0 : nil
    var c1: Vec3? = l1 > 1e-9 ? a1 / l1 : nil
    var c2: Vec3? = l2 > 1e-9 ? a2 / l2 : nil
    switch (c0 == nil ? 0 : 1) + (c1 == nil ? 0 : 1) + (c2 == nil ? 0 : 1) {
    case 0:
        c0 = Vec3(1, 0, 0); c1 = Vec3(0, 1, 0); c2 = Vec3(0, 0, 1)
    case 1:
        if let a = c0 ?? c1 ?? c2 {
            let helper = abs(a.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)
            let b = normalize3(cross3(helper, a)), d = cross3(a, b)
            if c0 != nil { c0 = a; c1 = b; c2 = d } else if c1 != nil { c0 = d; c1 = a; c2 = b } else { c0 = b; c1 = d; c2 = a }
        }
    case 2:
        if let y = c1, let z = c2, c0 == nil { c0 = cross3(y, z) }
        if let z = c2, let x = c0, c1 == nil { c1 = cross3(z, x) }
        if let x = c0, let y = c1, c2 == nil { c2 = cross3(x, y) }
    default: break
    }
    guard let x0 = c0, let y0 = c1 else { return nil }
    let x = normalize3(x0)
    let y = normalize3(y0 - x * dot3(x, y0))
    let z = cross3(x, y)
    let e = eulerTenths(x, y, z)
    return [mm(c.x), mm(c.y), mm(c.z), e.yaw, e.pitch, e.roll, mm(2 * l0), mm(2 * l1), mm(2 * l2)]
}

/// Yaw, pitch, roll in tenths of a degree of the rotation whose columns are x, y, z, with
/// R = Ry(yaw)·Rx(pitch)·Rz(roll) (the order the replay script composes).
func eulerYXZ(_ x: Vec3, _ y: Vec3, _ z: Vec3) -> [Int] {
    let e = eulerTenths(x, y, z)
    return [e.yaw, e.pitch, e.roll]
}

/// `eulerYXZ` as a tuple.
func eulerTenths(_ x: Vec3, _ y: Vec3, _ z: Vec3) -> (yaw: Int, pitch: Int, roll: Int) {
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
    return (tenth(yaw), tenth(pitch), tenth(roll))
}

private func dot3(_ a: Vec3, _ b: Vec3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
private func cross3(_ a: Vec3, _ b: Vec3) -> Vec3 { Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }
private func normalize3(_ a: Vec3) -> Vec3 {
    let l = dot3(a, a).squareRoot()
    return l > 1e-12 && l.isFinite ? a / l : Vec3(0, 0, 1)
}
