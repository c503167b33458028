import Reporting
@testable import SpatialCheck
import Foundation
import Testing
@testable import Simulation
@testable import Rules
import SpatialModel

/// Builds synthetic scenes and frames for the rule tests.
struct RuleFixture {
    var scene: Scene
    init(path: String = "Scenes/test.scene.yaml", platform: Platform = .visionOS, immersion: ImmersionStyle = .shared,
         frameRate: Double = 90, duration: Double = 1, viewer: Viewer = Viewer()) {
        scene = Scene(path: path, platform: platform, immersion: immersion, frameRate: frameRate, duration: duration, viewer: viewer)
    }

    @discardableResult
    mutating func add(_ id: String, _ kind: EntityKind, parent: Int? = nil, line: Int = 1,
                      _ configure: (inout Entity) -> Void = { _ in }) -> Int {
        let index = scene.entities.count
        let path = parent.map { scene.entities[$0].path + "/" + id } ?? id
        var e = Entity(id: id, path: path, kind: kind, node: index, location: SourceLocation(line: line, column: 5))
        e.parent = parent
        configure(&e)
        scene.entities.append(e)
        return index
    }

    @discardableResult
    mutating func window(_ id: String = "player", size: SIMD2<Double> = SIMD2(1280, 720)) -> Int {
        add(id, .window) { e in e.sizePt = size; e.scaleMode = .dynamic; e.metresPerPoint = 0.00234; e.placementDistance = 2 }
    }

    @discardableResult
    mutating func button(_ id: String, in window: Int, frame: RectPt, role: ElementRole = .button, line: Int = 10) -> Int {
        add(id, .element, parent: window, line: line) { e in
            e.container = window; e.role = role; e.interactive = true; e.frame = frame
            e.metresPerPoint = 0.00234; e.scaleMode = .dynamic
        }
    }

    /// A frame with every entity visible, 2 m straight ahead, in the field of view and still.
    func frame(_ i: Int, rate: Double? = nil) -> FrameQuantities {
        let n = scene.entities.count
        var f = FrameQuantities(entityCount: n)
        f.frame = i
        f.time = Double(i) / (rate ?? scene.frameRate)
        f.headPosition = Vec3(0, 1.6, 0)
        f.immersion = scene.immersion
        for e in 0..<n {
            f.center[e] = Vec3(0, 1.6, -2)
            f.boundsMin[e] = Vec3(-0.05, 1.55, -2); f.boundsMax[e] = Vec3(0.05, 1.65, -2)
            f.front[e] = Vec3(0, 0, 1); f.upAxis[e] = Vec3(0, 1, 0)
            f.distance[e] = 2
            f.angularWidth[e] = 4; f.angularHeight[e] = 4; f.angularSize[e] = 4
            f.ptEq[e] = 60
        }
        f.boxFrames = Array(repeating: 0, count: 12 * n)
        for e in 0..<n { f.setBox(e, center: Vec3(0, 1.6, -2), axes: (Vec3(0.05, 0, 0), Vec3(0, 0.05, 0), Vec3(0, 0, 0))) }
        return f
    }

    /// Runs `frames` frames through a fresh engine, letting `edit` change each frame first.
    func run(frames: Int? = nil, configuration: RuleConfiguration = .default,
             _ edit: (Int, inout FrameQuantities) -> Void = { _, _ in }) -> (RuleEngine, [Violation]) {
        let engine = RuleEngine(scene: scene, configuration: configuration)
        for i in 0..<(frames ?? scene.frameCount) {
            var f = frame(i)
            edit(i, &f)
            engine.consume(f)
        }
        return (engine, engine.finish())
    }
}

extension Array where Element == Violation {
    func rule(_ id: String) -> [Violation] { filter { $0.rule == id } }
}

extension FrameQuantities {
    /// Sets entity `e`'s box frame (centre and three half-axis vectors), as the simulator writes it.
    mutating func setBox(_ e: Int, center c: Vec3, axes: (Vec3, Vec3, Vec3)) {
        let v = [c, axes.0, axes.1, axes.2]
        for (k, x) in v.enumerated() { for j in 0..<3 { boxFrames[12 * e + 3 * k + j] = x[j] } }
    }
}

/// Shared helpers of the end-to-end rule tests (loader → simulator → rules).
enum RuleScenes {
    /// Runs the rules with the default configuration over a loaded scene.
    static func run(_ scene: Scene) -> [Violation] {
        let engine = RuleEngine(scene: scene, configuration: .default)
        Simulator(scene: scene).run { engine.consume($0) }
        return engine.finish()
    }

    /// Writes `yaml` to a fresh folder (with copies of `assets`: file name → path in the
    /// repository) and checks it with the default configuration (or `config`).
    static func check(_ yaml: String, config: String? = nil, assets: [String: String] = [:]) throws -> [ReportViolation] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rule-scene-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, source) in assets.sorted(by: { $0.key < $1.key }) {
            try FileManager.default.copyItem(atPath: TestPaths.repo(source), toPath: dir.appendingPathComponent(name).path)
        }
        let path = dir.appendingPathComponent("t.scene.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let configuration = try config.map { try RuleConfiguration.parse($0) } ?? .default
        let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: configuration, snapshot: false)
        #expect(report.status == .checked, "\(report.errors.map(\.description))")
        return report.violations
    }

    /// The violations of rule `id` on its fail example, `Scenes/rules/<id>/fail.scene.yaml`.
    static func exampleViolations(_ id: String) -> [ReportViolation] {
        let path = TestPaths.repo("Scenes/rules/\(id)/fail.scene.yaml")
        let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: .default)
        return report.violations.filter { $0.rule == id }
    }

    /// A scene with a 1280×720 pt window `w` 2 m ahead for one second at 90 Hz, with `elements` (the
    /// keys of one flow mapping each) as `e0`, `e1`, … at 60×60 pt, 100 pt apart so no spacing rule
    /// fires: e_i's frame is [100 + 100·i, 330, 60, 60]. `background` adds the window's background
    /// line. The window's line is 5, its `elements:` line 9 (10 with a background), e_i's line
    /// the next plus i.
    static func window(platform: String = "visionOS", background: String? = nil, _ elements: [String]) -> String {
        windowScene(platform: platform, windowKeys: background.map { ["background: \"\($0)\""] } ?? [],
                    elements: elements.enumerated().map { i, e in "{id: e\(i), frame: [\(100 + 100 * i), 330, 60, 60], " + e + "}" })
    }

    /// A scene of one second at 90 Hz (with `settings: <settings>` when given) with a window `w`
    /// `distance` m straight ahead of `size` pt: `windowKeys` are more lines of the window's
    /// mapping (after `kind`), `elements` its elements, one YAML flow mapping (or block) each.
    /// Line by line: format, platform, duration, [settings], `entities:`, `- id: w`, `kind`,
    /// the window keys, `placement`, `size`, `elements:`, then the elements.
    static func windowScene(platform: String = "visionOS", settings: String? = nil, windowKeys: [String] = [],
                            distance: String = "2", size: String = "[1280, 720]", elements: [String]) -> String {
        var lines = ["format: spatialscene/1", "platform: \(platform)", "duration: 1"]
        if let settings { lines.append("settings: " + settings) }
        lines += ["entities:", "  - id: w", "    kind: window"]
        lines += windowKeys.map { "    " + $0 }
        lines += ["    placement: {distance: \(distance), azimuth: 0, elevation: 0}", "    size: \(size)", "    elements:"]
        lines.append(elements.map { "      - " + $0 }.joined(separator: "\n"))
        return lines.joined(separator: "\n")
    }

    /// Angle in degrees between the directions from `eye` to `a` and to `b`.
    static func angle(_ a: Vec3, _ b: Vec3, eye: Vec3 = Vec3(0, 1.6, 0)) -> Double {
        degrees(acos(dot(normalize(a - eye), normalize(b - eye))))
    }

    static let pointAngle = Units.defaultPointAngle
    /// Metres per point of fixed-scale content: tan(0.0671°) · 1 m.
    static let fixedPoint = tan(radians(pointAngle))
    /// Metres per point of a dynamic window per metre of placement distance: tan(0.0671°).
    static let pointsPerMetreAngle = tan(radians(Units.defaultPointAngle))
}
