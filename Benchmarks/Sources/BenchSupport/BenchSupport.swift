import Foundation
import ReferenceKernel
import SpatialModel
import SceneLoader
import AssetImport
import Simulation
import Rules
import Reporting
import SpatialCheck

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
@inline(__always) public func nowNanoseconds() -> UInt64 { SimulationPhaseTimes.now() }

public func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The repository checkout this package lives in (Benchmarks/..).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() } // BenchSupport, Sources, Benchmarks
    return url.path
}()

/// Generated benchmark scenes: `$SPATIALCHECK_BENCH_SCENES` (default /tmp/spatialcheck-bench-scenes),
/// written by Tools/gen-scenes (seed 1) when missing.
public enum BenchScenes {
    public static let seed = 1
    public static var directory: String {
        ProcessInfo.processInfo.environment["SPATIALCHECK_BENCH_SCENES"] ?? "/tmp/spatialcheck-bench-scenes"
    }

    /// `crowded`: the crowded shape of issue 16 (`gen-scenes --crowded`: windows of eight buttons
    /// all around the viewer, targets dense in angle).
    public static func path(entities: Int, dense: Bool = false, crowded: Bool = false) -> String {
        let name = "bench-\(dense ? "dense-" : "")\(crowded ? "crowded-" : "")\(entities).scene.yaml"
        let path = (directory as NSString).appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: path) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", repositoryRoot + "/Tools/gen-scenes", "--entities", String(entities),
                           "--seed", String(seed), "--out-dir", directory] + (dense ? ["--dense"] : [])
                + (crowded ? ["--crowded"] : [])
            p.standardOutput = FileHandle.nullDevice
            try? p.run()
            p.waitUntilExit()
        }
        return path
    }

    public static func load(entities: Int, dense: Bool = false, crowded: Bool = false) -> Scene {
        let path = path(entities: entities, dense: dense, crowded: crowded)
        do { return try SpatialCheck.loadScene(path: path) } catch {
            fatalError("cannot load \(path): \(error.diagnostics.map(\.description).joined(separator: "; "))")
        }
    }

    /// The scene with its duration set so the simulator runs exactly `frames` frames.
    public static func withFrames(_ scene: Scene, _ frames: Int) -> Scene {
        var s = scene
        s.duration = (Double(max(1, frames)) - 0.5) / s.frameRate
        return s
    }
}

/// The reference kernel over a scene's data, laid out as the simulator lays it out.
public final class ReferenceRunner {
    let scene: Scene
    let simulator: Simulator
    var parent: [Int32], rootIndex: [Int32], local: [Double], world: [Double], boxes: [Double]
    var entityNode: [Int32], em: [Double]
    var center: [Double], distance: [Double], azimuth: [Double], elevation: [Double], elevationWorld: [Double]
    var eccentricity: [Double], width: [Double], height: [Double], ptEq: [Double], angularVelocity: [Double]
    var linearSpeed: [Double], prevCenter: [Double]
    var inFOV: [UInt8], fullyInFOV: [UInt8]
    public var checksum: Double = 0

    public init(scene: Scene) {
        self.scene = scene
        simulator = Simulator(scene: scene)
        let nodes = scene.nodes
        parent = nodes.enumerated().map { i, n in n.parent.map { $0 < i ? Int32($0) : -1 } ?? -1 }
        rootIndex = nodes.map { n in n.parent != nil ? -1 : (n.anchor == .head ? 0 : n.anchor == .hand ? 1 : -1) }
        local = nodes.flatMap { $0.rest.m.count == 16 ? $0.rest.m : Mat4.identity.m }
        world = Array(repeating: 0, count: nodes.count * 16)
        boxes = nodes.flatMap { n in
            n.geometry.isEmpty ? [.infinity, .infinity, .infinity, -.infinity, -.infinity, -.infinity]
                : [n.geometry.min.x, n.geometry.min.y, n.geometry.min.z, n.geometry.max.x, n.geometry.max.y, n.geometry.max.z]
        }
        entityNode = scene.entities.map { Int32(max(0, $0.node)) }
        em = scene.entities.map { e in
            guard e.isReadable else { return 0 }
            if let fs = e.fontSize, fs > 0, e.metresPerPoint > 0 { return fs * e.metresPerPoint }
            return e.textHeight ?? 0
        }
        let n = scene.entities.count
        center = Array(repeating: 0, count: 3 * n); prevCenter = center
        distance = Array(repeating: 0, count: n)
        azimuth = distance; elevation = distance; elevationWorld = distance; eccentricity = distance
        width = distance; height = distance; ptEq = distance; angularVelocity = distance; linearSpeed = distance
        inFOV = Array(repeating: 0, count: n); fullyInFOV = inFOV
    }

    static func matrix(_ p: Vec3, _ q: Quat) -> [Double] {
        let x = q.x, y = q.y, z = q.z, w = q.w
        return [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
                2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
                2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
                p.x, p.y, p.z, 1]
    }

    /// Runs `frames` frames of the reference (head pose and anchor frames per frame, as the
    /// simulator does) and returns the nanoseconds spent in the kernel itself.
    public func run(frames: Int) -> UInt64 {
        let n = scene.entities.count
        let pa = scene.units.pointAngle > 0 ? scene.units.pointAngle : Units.defaultPointAngle
        let fov = simulator.fieldOfView
        let dt = 1 / simulator.frameRate
        var prevHead: [Double] = [0, 0, 0]
        var spent: UInt64 = 0
        for i in 0..<frames {
            let (p, r) = simulator.headPose(at: Double(i) * dt)
            // The hand frame: the head pose followed by the hand's pose in the head frame.
            let hand = p + r.act(simulator.handPose(at: Double(i) * dt).position)
            let roots = Self.matrix(p, r) + Self.matrix(hand, r)
            var head = ref_head(p: (p.x, p.y, p.z), q: (r.x, r.y, r.z, r.w), fov_h: fov.x, fov_v: fov.y)
            let t0 = nowNanoseconds()
            center.withUnsafeMutableBufferPointer { c in
            distance.withUnsafeMutableBufferPointer { d in
            azimuth.withUnsafeMutableBufferPointer { az in
            elevation.withUnsafeMutableBufferPointer { el in
            elevationWorld.withUnsafeMutableBufferPointer { elw in
            eccentricity.withUnsafeMutableBufferPointer { ecc in
            width.withUnsafeMutableBufferPointer { w in
            height.withUnsafeMutableBufferPointer { h in
            ptEq.withUnsafeMutableBufferPointer { pt in
            angularVelocity.withUnsafeMutableBufferPointer { av in
            linearSpeed.withUnsafeMutableBufferPointer { ls in
            inFOV.withUnsafeMutableBufferPointer { inf in
            fullyInFOV.withUnsafeMutableBufferPointer { full in
            prevCenter.withUnsafeMutableBufferPointer { pc in
                var out = ref_outputs(center: c.baseAddress, distance: d.baseAddress, azimuth: az.baseAddress,
                                      elevation: el.baseAddress, elevation_world: elw.baseAddress,
                                      eccentricity: ecc.baseAddress, angular_width: w.baseAddress,
                                      angular_height: h.baseAddress, pt_eq: pt.baseAddress,
                                      angular_velocity: av.baseAddress, linear_speed: ls.baseAddress,
                                      in_fov: inf.baseAddress, fully_in_fov: full.baseAddress, prev_center: pc.baseAddress)
                ref_frame(parent, local, roots, rootIndex, &world, scene.nodes.count, boxes, entityNode, em, pa,
                          &head, prevHead, i == 0 ? 1 : 0, dt, &out, n)
            }}}}}}}}}}}}}}
            spent &+= nowNanoseconds() &- t0
            prevHead = [p.x, p.y, p.z]
        }
        checksum = distance.reduce(0, +) + ptEq.reduce(0) { $0 + ($1.isFinite ? $1 : 0) }
        return spent
    }
}

/// The simulator's transform-and-quantities stage (phases `transforms` + `quantities`) and its
/// animation phase over `frames` frames, without rules.
public func simulatorStage(scene: Scene, frames: Int) -> SimulationPhaseTimes {
    let s = BenchScenes.withFrames(scene, frames)
    var phases = SimulationPhaseTimes()
    var sink = 0.0
    Simulator(scene: s).run(phases: &phases) { q in sink += q.distance.first ?? 0 }
    blackHole(sink)
    return phases
}

@inline(never) public func blackHole<T>(_ x: T) { _ = x }

// MARK: - Assets

/// Primary files of the shared assets that assimp imports (`../shared/assets` relative to the
/// repository, or `$SPATIALCHECK_SHARED_ASSETS`); empty when the folder is absent.
public func sharedAssetFiles() -> [String] {
    let dir = ProcessInfo.processInfo.environment["SPATIALCHECK_SHARED_ASSETS"]
        ?? ((repositoryRoot as NSString).deletingLastPathComponent as NSString).appendingPathComponent("shared/assets")
    guard let folders = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [] }
    let primary: Set<String> = ["gltf", "glb", "obj", "fbx", "dae", "ply", "stl"]
    var files: [String] = []
    for folder in folders.sorted() where !folder.hasPrefix("broken-") && folder != "LICENSES" {
        let sub = (dir as NSString).appendingPathComponent(folder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: sub) else { continue }
        for name in names.sorted() where primary.contains((name as NSString).pathExtension.lowercased()) {
            files.append((sub as NSString).appendingPathComponent(name))
        }
    }
    // Files assimp itself refuses (a known-limitation case) are measured by neither side.
    return files.filter { AssimpAlone.importOnce($0) }
}

/// assimp alone (`aiImportFile` + `aiReleaseImport` with the importer's flags), reached through the
/// already linked library, so the comparison needs no second Clang module over assimp's headers.
public enum AssimpAlone {
    typealias ImportFn = @convention(c) (UnsafePointer<CChar>, UInt32) -> OpaquePointer?
    typealias ReleaseFn = @convention(c) (OpaquePointer?) -> Void
    nonisolated(unsafe) static let handle = dlopen(nil, RTLD_NOW)
    static let importFile: ImportFn? = dlsym(handle, "aiImportFile").map { unsafeBitCast($0, to: ImportFn.self) }
    static let release: ReleaseFn? = dlsym(handle, "aiReleaseImport").map { unsafeBitCast($0, to: ReleaseFn.self) }
    /// aiProcess_Triangulate | aiProcess_GenBoundingBoxes, as AssetImporter uses.
    static let flags: UInt32 = 0x8 | 0x8000_0000

    /// True when assimp imported the file.
    @discardableResult
    public static func importOnce(_ path: String) -> Bool {
        guard let importFile, let release else { return false }
        guard let s = importFile(path, flags) else { return false }
        release(s)
        return true
    }
}

/// Our model building: the importer (assimp inside) and the conversion to an `ImportedAsset`.
@discardableResult
public func importWithModel(_ path: String) -> Bool {
    (try? AssetImporter.load(resolvedPath: path, displayPath: path)) != nil
}

// MARK: - Target pairs (issue 16 item 1)

/// The angular pass of the three target-pair rules with their aggregation, Swift (`RuleEngine`
/// with only those rules enabled) against the C++ reference (`pair_reference.cpp`), fed the same
/// simulated frames: each frame is simulated once and handed to both, alternating which goes
/// first, each timed on its own.
public struct PairPassResult: Sendable {
    public var frames = 0
    public var swiftNanoseconds: UInt64 = 0
    public var referenceNanoseconds: UInt64 = 0
    /// Candidate pair tests (the grid's) and violating pair-frames (findings), per the reference.
    public var pairTests = 0
    public var violatingPairFrames = 0
    public var swiftPairTests = 0
    /// Violating pair-frames per the Swift pass: the frame counts of its violations summed.
    public var swiftViolatingPairFrames = 0
    /// `RuleEngine.finish` for these rules (messages, fingerprints, sort of the violations): work
    /// per violation, which the reference does not do; not in `swiftNanoseconds`.
    public var swiftFinishNanoseconds: UInt64 = 0
    public var ratio: Double { referenceNanoseconds > 0 ? Double(swiftNanoseconds) / Double(referenceNanoseconds) : .nan }
}

public let targetPairRuleIDs = ["target-center-spacing", "target-no-overlap", "target-large-hover-padding"]

public func pairPassComparison(scene: Scene, frames: Int) -> PairPassResult {
    let s = BenchScenes.withFrames(scene, frames)
    var settings: [String: RuleSettings] = [:]
    for r in RuleCatalog.rules where !targetPairRuleIDs.contains(r.id) { settings[r.id] = RuleSettings(enabled: false) }
    let engine = RuleEngine(scene: s, configuration: RuleConfiguration(rules: settings))
    // The analyzer's inputs, derived as `TargetPairAnalyzer.init` derives them: every interactive
    // entity; an element measured in its dynamic-scale container's pt and not animated is still in
    // its container (group = container), anything else is its own group.
    let ents = s.entities
    var dynamic: [Int32] = [], group: [Int32] = []
    var still = [UInt8](repeating: 0, count: ents.count)
    for (i, e) in ents.enumerated() where e.interactive {
        var inPoints = false
        if e.kind == .element, e.frame != nil {
            if s.platform == .iOS { inPoints = true } else if let c = e.container, c >= 0, c < ents.count { inPoints = ents[c].scaleMode == .dynamic }
        }
        if let c = e.container, inPoints, e.animation == nil {
            still[i] = 1; group.append(Int32(c))
        } else {
            group.append(Int32(-(i + 1)))
        }
        dynamic.append(Int32(i))
    }
    let control: [UInt8] = ents.map { e in
        (e.kind == .element || e.kind == .node) && (e.role.map { $0 != .text && $0 != .image } ?? false) ? 1 : 0
    }
    func p(_ id: String, _ key: String) -> Double {
        RuleCatalog.rules.first { $0.id == id }?.parameter(key)?.defaultValue ?? .nan
    }
    let pa = s.units.pointAngle > 0 ? s.units.pointAngle : Units.defaultPointAngle
    guard let ref = ref_pairs_create(ents.count, dynamic, group, dynamic.count, still, control,
                                     p("target-center-spacing", "centerSpacing"), p("target-center-spacing", "edgeGap"),
                                     p("target-no-overlap", "maxOverlap"), p("target-no-overlap", "depthWindow"),
                                     p("target-large-hover-padding", "gap"), p("target-large-hover-padding", "largeSize"), pa)
    else { return PairPassResult() }
    defer { ref_pairs_destroy(ref) }
    var result = PairPassResult()
    Simulator(scene: s).run { q in
        let refFirst = q.frame % 2 == 0
        func runRef() {
            let t0 = nowNanoseconds()
            q.visible.withUnsafeBytes { vis in
            q.center.withUnsafeBytes { ctr in
                let head = [q.headPosition.x, q.headPosition.y, q.headPosition.z]
                let up = [q.headUp.x, q.headUp.y, q.headUp.z]
                ref_pairs_frame(ref, Int64(q.frame), vis.bindMemory(to: UInt8.self).baseAddress, q.distance, q.azimuth,
                                q.elevation, q.angularWidth, q.angularHeight, q.ptEq,
                                ctr.bindMemory(to: Double.self).baseAddress, q.boxFrames, head, up)
            }}
            result.referenceNanoseconds += nowNanoseconds() - t0
        }
        if refFirst { runRef() }
        let t0 = nowNanoseconds()
        engine.consume(q)
        result.swiftNanoseconds += nowNanoseconds() - t0
        if !refFirst { runRef() }
        result.frames += 1
    }
    let t0 = nowNanoseconds()
    let violations = engine.finish()
    result.swiftFinishNanoseconds = nowNanoseconds() - t0
    result.swiftViolatingPairFrames = violations.reduce(0) { $0 + $1.frameCount }
    result.pairTests = Int(ref_pairs_checks(ref))
    result.violatingPairFrames = Int(ref_pairs_findings(ref))
    result.swiftPairTests = engine.pairChecks
    return result
}
