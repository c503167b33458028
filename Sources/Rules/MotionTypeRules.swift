import Foundation
import SpatialModel
import Simulation

public enum MotionPeripheral: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-peripheral", name: "Calm motion in the periphery", category: .motion,
        defaultSeverity: .warning, thresholdKey: "speed",
        parameters: [
            RuleParameter("speed", 10, "deg/s", .external("heuristic; the HIG gives no speed"), "fastest comfortable angular speed in the periphery"),
            RuleParameter("immersiveSpeed", 5, "deg/s", .external("heuristic; environments ask for gentler motion"), "the same in progressive or full immersion"),
            RuleParameter("eccentricity", 30, "deg", .external("border of near and far peripheral vision"), "where the periphery starts"),
            RuleParameter("minSize", 1, "deg", .configurable("ignore specks"), "smallest angular size considered"),
        ],
        citations: [Citation("accessibility", "visionOS"), Citation("spatial-layout", "Field of view"),
                    Citation("eyes", "Making items easy to see"), Citation("immersive-experiences", "Creating an environment")],
        summary: "Content more than 30° off the line of sight moves faster than 10°/s (5°/s in progressive or full immersion).",
        rationale: "Motion at the edge of vision pulls the eyes away and can be uncomfortable; the HIG asks to slow down and tone down animation there.",
        fixHint: "Slow the animation down, or move it closer to the centre of view.",
        unit: "deg/s", worse: .higher,
        notes: ["Angular speed is world-relative (head rotation removed), as computed by the simulator."])
}

public enum MotionTooFast: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-too-fast", name: "No jarring motion", category: .motion,
        defaultSeverity: .warning, thresholdKey: "speed",
        parameters: [RuleParameter("speed", 60, "deg/s", .external("heuristic; the HIG gives no speed"), "fastest comfortable angular speed anywhere")],
        citations: [Citation("designing-for-visionos", "Best practices")],
        summary: "Visible content moves faster than 60°/s across the view.",
        rationale: "The HIG asks to avoid overwhelming, jarring or too-fast motion.",
        fixHint: "Slow the motion down or shorten its path.",
        unit: "deg/s", worse: .higher,
        notes: ["The looming part (approach faster than 2 m/s within 3 m) is not implemented yet."])
}

public enum TypeMinSize: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-min-size", name: "Minimum text size", category: .typography,
        defaultSeverity: .error, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 12, "pt", .hig, "smallest visionOS text (default 17 pt)"),
            RuleParameter("minimumIOS", 11, "pt", .hig, "smallest iOS text (default 17 pt)"),
        ],
        citations: [Citation("typography", "Ensuring legibility"), Citation("accessibility", "Vision"),
                    Citation("designing-for-games", "Look stunning on every display")],
        summary: "Text smaller than the platform minimum: 12 pt on visionOS, 11 pt on iOS.",
        rationale: "Below these sizes text is hard to read for many people, whatever the font.",
        fixHint: "Use at least 12 pt on visionOS (17 pt for body text), 11 pt on iOS.",
        platforms: [.visionOS, .iOS], unit: "pt", worse: .lower,
        notes: ["Text in a dynamic-scale container, or dynamic 3D text, is compared by its font size in pt. Fixed-scale text (textHeight, or elements of a fixed-scale volume) is compared in pt_eq from the simulator each frame, so it fails as it moves away."])
}

public enum TypeLegibleAcrossScale: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-legible-across-scale", name: "Fixed-scale text stays legible when far", category: .typography,
        defaultSeverity: .warning, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 12, "pt_eq", .hig, "smallest text size"),
            RuleParameter("farDistance", 3, "m", .configurable("typical room depth"), "distance at which fixed-scale text must still be legible"),
        ],
        citations: [Citation("typography", "visionOS"), Citation("windows", "visionOS volumes")],
        summary: "Fixed-scale text would be smaller than 12 pt_eq seen from 3 m (or from the farthest distance the viewer reaches).",
        rationale: "Fixed-scale content shrinks with distance; the HIG asks that text stays legible across the scales and distances people use.",
        fixHint: "Make the text larger, or use dynamic scale for text-bearing content.",
        unit: "pt_eq", worse: .lower, angleDerived: true,
        notes: ["Em height in metres: textHeight, or fontSize × metres per point in a fixed-scale container; pt_eq = 2·atan(h / 2D) / pointAngle at D = max(3 m, farthest distance in the run)."])
}

public enum TypeBillboard: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-billboard", name: "3D text faces the viewer", category: .typography,
        defaultSeverity: .warning, thresholdKey: "maxAngle",
        parameters: [
            RuleParameter("maxAngle", 45, "deg", .configurable("cos 45° ≈ 0.71: 29 % foreshortening"), "warning above this viewing angle"),
            RuleParameter("infoAngle", 30, "deg", .configurable("13 % foreshortening"), "info above this viewing angle"),
        ],
        citations: [Citation("typography", "visionOS"), Citation("augmented-reality", "Communicating with people", "S0, S1")],
        summary: "3D text is seen at more than 30° (info) or 45° (warning) from its front.",
        rationale: "Text tied to a point in space should turn to face people so it is never read from the side or at a steep angle.",
        fixHint: "Turn the text toward the viewer (facing: viewer) or make it billboard.",
        unit: "deg", worse: .higher,
        notes: ["Angle between the text's front (+Z) and the direction to the eye. The roll check is not implemented."])
}

public enum EnvGroundPlane: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "env-ground-plane", name: "Immersive environments have a ground", category: .environment,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("immersive-experiences", "Creating an environment")],
        summary: "A progressive or full environment has no ground plane.",
        rationale: "Without a floor people feel they are floating; the HIG asks for a ground plane even under a 360° image.",
        fixHint: "Add a ground mesh to the environment and set groundPlane: true.",
        unit: "count", worse: .higher,
        notes: ["Checked from the environment's groundPlane flag: explicitly false fails while the immersion is progressive or full; an omitted flag is not judged (the asset may have a floor). Measured: 0 ground planes."])
}

public enum ArFrameRate: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-frame-rate", name: "AR content updates 60 times a second", category: .ar,
        defaultSeverity: .warning, thresholdKey: "rate",
        parameters: [RuleParameter("rate", 60, "fps", .hig, "update rate of virtual content")],
        citations: [Citation("augmented-reality", "Best practices", "S0, S1")],
        summary: "The iOS AR scene updates fewer than 60 times per second.",
        rationale: "Objects that update less often than the camera appear to jump or flicker.",
        fixHint: "Update the scene at 60 Hz (frameRate: 60).",
        platforms: [.iOS], unit: "fps", worse: .lower,
        notes: ["Checked from the scene's frame rate; per-animation sample rates are not in the scene data."])
}

func motionTypeFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [MotionPeripheral.metadata.id]) { s in
            let m = MotionPeripheral.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let speed = s.param(m, "speed"), imm = s.param(m, "immersiveSpeed")
            let ecc = s.param(m, "eccentricity"), minSize = s.param(m, "minSize")
            let cands = ents.indices.filter { movingCandidate(ents[$0]) }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                guard f.visible[e], f.eccentricity[e] > ecc, f.angularSize[e] > minSize else { return nil }
                let limit = f.immersion.hasBoundary ? imm : speed
                return f.angularVelocity[e] > limit ? .init(measured: f.angularVelocity[e], threshold: limit, aux: f.eccentricity[e]) : nil
            }, message: { agg, names in
                "\(names.joinedNames) moves at \(fmt(agg.measured))°/s \(fmt(agg.aux))° off the line of sight; slow it to at most \(fmt(agg.threshold))°/s or move it toward the centre of view"
            })
        },
        RuleFactory(ids: [MotionTooFast.metadata.id]) { s in
            let m = MotionTooFast.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let speed = s.param(m, "speed")
            let cands = ents.indices.filter { movingCandidate(ents[$0]) }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                f.visible[e] && f.angularVelocity[e] > speed ? .init(measured: f.angularVelocity[e], threshold: speed) : nil
            }, message: { agg, names in
                "\(names.joinedNames) moves at \(fmt(agg.measured))°/s across the view; keep motion below \(fmt(speed))°/s"
            })
        },
        RuleFactory(ids: [TypeMinSize.metadata.id]) { s in
            let m = TypeMinSize.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let minimum = s.scene.platform == .iOS ? s.param(m, "minimumIOS") : s.param(m, "minimum")
            // Font size in pt where it is scale-independent; nil → use pt_eq per frame.
            var fixedPt: [Int: Double] = [:]
            var cands: [Int] = []
            for (i, e) in ents.enumerated() where e.isReadable {
                let containerDynamic = e.container.map { $0 < ents.count && ents[$0].scaleMode == .dynamic } ?? false
                if let fs = e.fontSize, (e.kind == .element && (containerDynamic || s.scene.platform == .iOS)) || (e.kind == .text && e.scaleMode == .dynamic) {
                    fixedPt[i] = fs
                } else if e.fontSize == nil && e.textHeight == nil && e.kind == .element {
                    continue
                }
                cands.append(i)
            }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                guard f.visible[e] else { return nil }
                if let pt = fixedPt[e] { return pt < minimum ? .init(measured: pt, threshold: minimum, unit: "pt") : nil }
                let v = f.ptEq[e]
                return v.isFinite && v < minimum ? .init(measured: v, threshold: minimum, angular: true, unit: "pt_eq") : nil
            }, message: { agg, names in
                "text \(names.joinedNames) is \(fmt(agg.measured)) \(agg.unit ?? "pt"); make it at least \(fmt(minimum)) pt (17 pt for body text)"
            })
        },
        RuleFactory(ids: [TypeLegibleAcrossScale.metadata.id]) { s in ScaleLegibilityRule(s) },
        RuleFactory(ids: [TypeBillboard.metadata.id]) { s in
            let m = TypeBillboard.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let warn = s.param(m, "maxAngle"), info = s.param(m, "infoAngle")
            let cands = ents.indices.filter { ents[$0].kind == .text }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                guard f.visible[e] else { return nil }
                let toEye = f.headPosition - f.center[e]
                guard length(toEye) > 0, length(f.front[e]) > 0 else { return nil }
                let a = degrees(acos(max(-1, min(1, dot(normalize(f.front[e]), normalize(toEye))))))
                if a > warn { return .init(measured: a, threshold: warn, severity: .warning) }
                if a > info { return .init(measured: a, threshold: info, severity: .info) }
                return nil
            }, message: { agg, names in
                "text \(names.joinedNames) is read \(fmt(agg.measured))° off its front; turn it toward the viewer (within \(fmt(info))°)"
            })
        },
        RuleFactory(ids: [EnvGroundPlane.metadata.id]) { s in
            let m = EnvGroundPlane.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let envs = ents.indices.filter { ents[$0].kind == .environment }
            guard !envs.contains(where: { ents[$0].groundPlane == true }) else { return nil }
            let cands = envs.filter { ents[$0].groundPlane == false }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, check: { f, e in
                f.visible[e] && f.immersion.hasBoundary ? .init(measured: 0, threshold: 1) : nil
            }, message: { _, names in
                "environment \(names.joinedNames) has no ground plane in \(s.scene.immersion.rawValue == "full" ? "full" : "progressive or full") immersion; add a floor mesh so people do not feel they float"
            })
        },
        RuleFactory(ids: [ArFrameRate.metadata.id]) { s in
            let m = ArFrameRate.metadata
            guard let r = s.index(m.id) else { return nil }
            let rate = s.param(m, "rate"), actual = s.scene.frameRate
            guard actual < rate else { return nil }
            return StaticRule(rule: r, items: [.init(entity: -1, measured: actual, threshold: rate)], whileVisible: false) { _, _ in
                "the scene updates \(fmt(actual)) times per second; update AR content \(fmt(rate)) times per second so objects do not jump or flicker"
            }
        },
    ]
}

final class ScaleLegibilityRule: RuleProcessor {
    let rule: Int
    let minimum: Double, far: Double, pointAngle: Double
    /// Entity and em height in metres.
    let texts: [(entity: Int, height: Double)]
    private var farthest: Double
    private var reported = false
    init?(_ s: RuleSetup) {
        let m = TypeLegibleAcrossScale.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        minimum = s.param(m, "minimum"); far = s.param(m, "farDistance"); pointAngle = s.pointAngle
        farthest = far
        let ents = s.scene.entities
        var t: [(Int, Double)] = []
        for (i, e) in ents.enumerated() where e.isReadable {
            if e.kind == .text, e.scaleMode == .fixed, let h = e.textHeight { t.append((i, h)) }
            else if e.kind == .element, let c = e.container, c < ents.count, ents[c].scaleMode == .fixed, let fs = e.fontSize {
                t.append((i, fs * metresPerPoint(of: i, in: s)))
            }
        }
        texts = t
    }
    func ptEq(_ h: Double, _ d: Double) -> Double { degrees(2 * atan(h / (2 * d))) / pointAngle }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        for (e, _) in texts where f.distance[e].isFinite { farthest = max(farthest, f.distance[e]) }
    }
    func finish(_ out: inout Findings, _ end: EndState) {
        for (e, h) in texts {
            let v = ptEq(h, farthest)
            if v < minimum {
                out.reportRun(rule: rule, e, from: 0, fromTime: 0, to: end.lastFrame, toTime: end.lastTime,
                              measured: v, worstFrame: 0, threshold: minimum)
            }
        }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        "fixed-scale text \(names.joinedNames) would be \(fmt(agg.measured)) pt_eq seen from \(fmt(farthest)) m; make it larger or use dynamic scale so it stays at least \(fmt(minimum)) pt"
    }
}

/// Entities whose motion the motion rules judge: not groups or environments, and elements only when
/// they are animated themselves (otherwise they move with their container, which is reported).
func movingCandidate(_ e: Entity) -> Bool {
    switch e.kind {
    case .group, .environment: false
    case .element: e.animation != nil
    default: true
    }
}
