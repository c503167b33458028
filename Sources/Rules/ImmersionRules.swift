import Foundation
import SpatialModel
import Simulation

private let immersionPassthrough = Citation("immersive-experiences", "Immersion and passthrough")

public enum BoundaryHeadExit: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "boundary-head-exit", name: "Head stays inside the 1.5 m boundary", category: .immersion,
        defaultSeverity: .error, thresholdKey: "radius",
        parameters: [
            RuleParameter("radius", 1.5, "m", .hig, "boundary distance from the head position where immersion began (or the last recenter)"),
            RuleParameter("horizontal", 0, "count", .configurable("the HIG says 'from the initial position of the head', read literally as 3D; 1 measures horizontally only"), "1 = horizontal distance only"),
        ],
        citations: [immersionPassthrough, Citation("immersive-experiences", "Immersion styles")],
        summary: "In progressive or full immersion the head moves more than 1.5 m from where immersion began.",
        rationale: "Beyond about 1.5 m the system replaces a progressive or full experience with the app icon, interrupting it.",
        fixHint: "Keep required movement within 1.5 m of the starting position, or use the mixed style, which has no boundary.",
        unit: "m", worse: .higher,
        notes: ["Location: the setImmersion event that started the progressive/full segment, or the viewer (viewer:) when the scene starts in progressive or full immersion."])
}

public enum BoundaryFadeZone: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "boundary-fade-zone", name: "Head stays out of the boundary fade zone", category: .immersion,
        defaultSeverity: .warning, thresholdKey: "radius",
        parameters: [
            RuleParameter("radius", 1.5, "m", .hig, "boundary distance"),
            RuleParameter("margin", 0.3, "m", .configurable("the HIG gives no fade distance"), "how far inside the boundary fading starts"),
        ],
        citations: [immersionPassthrough],
        summary: "In progressive or full immersion the head comes within 0.3 m of the 1.5 m boundary, where the experience fades.",
        rationale: "As the head nears the boundary the system fades the experience and lets passthrough in.",
        fixHint: "Keep the viewer within about 1.2 m of the starting position.",
        unit: "m", worse: .higher,
        notes: ["Reported while the head is in the fade zone, radius − margin < r ≤ radius (1.2 m < r ≤ 1.5 m), r measured as boundary-head-exit measures it (in 3D, or horizontally with its `horizontal` option); beyond the radius the experience is replaced, which is boundary-head-exit's finding. frameCount / frameRate is the total fade time; measured is the largest r in the zone.",
                "Location: the setImmersion event that started the progressive/full segment, or the viewer (viewer:) when the scene starts in progressive or full immersion."])
}

public enum BoundaryStyleVsLocomotion: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "boundary-style-vs-locomotion", name: "Immersion style fits the movement", category: .immersion,
        defaultSeverity: .error, thresholdKey: "radius",
        parameters: [RuleParameter("radius", 1.5, "m", .hig, "movement beyond which progressive/full immersion is interrupted")],
        citations: [Citation("immersive-experiences", "Promoting comfort")],
        summary: "The viewer travels more than 1.5 m during a progressive or full segment while recenters keep the head inside boundary-head-exit's boundary.",
        rationale: "Small movements are fine, but experiences that make people walk get interrupted in progressive and full immersion; mixed has no boundary.",
        fixHint: "Use the mixed immersion style for experiences that need walking.",
        unit: "m", worse: .higher,
        notes: ["Unlike boundary-head-exit, recenter events do not reset the origin: this measures how far the experience makes people travel from where the immersive segment began.",
                "One walk, one error: frames on which boundary-head-exit reports the head beyond its boundary are its finding (its fix also names the mixed style), so this rule reports the travel that recenters hide from it (or every frame when boundary-head-exit is turned off).",
                "Location: the setImmersion event that started the progressive/full segment, or the viewer (viewer:) when the scene starts in progressive or full immersion."])
}

public enum ImmersionRangeValid: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "immersion-range-valid", name: "Valid immersion range", category: .immersion,
        defaultSeverity: .error, thresholdKey: nil,
        parameters: [],
        citations: [Citation("immersive-experiences", "Immersion styles")],
        summary: "An environment's custom immersion range is not within 0°–360° with min ≤ max.",
        rationale: "The Digital Crown adjusts progressive immersion between 120° and 360° by default or within a custom range, which must make sense.",
        fixHint: "Give range: [min, max] with 0 < min ≤ max ≤ 360 (default [120, 360]).",
        unit: "deg", worse: .higher,
        notes: ["Reported over the frames the environment is visible: as in every rule, hidden content is not judged."])
}

public enum ImmersionLaunchStyle: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "immersion-launch-style", name: "Launch in the Shared Space or mixed", category: .immersion,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("immersive-experiences", "Best practices"), Citation("launching", "visionOS")],
        summary: "The scene starts in progressive or full immersion.",
        rationale: "Starting in the Shared Space or mixed lets people get their bearings and decide when to go deeper.",
        fixHint: "Start with immersion: shared or mixed and enter deeper immersion from a user action.",
        unit: "s", worse: .higher,
        notes: ["Measured: seconds spent in the launch style before it changes."])
}

public enum ImmersionUserInitiated: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "immersion-user-initiated", name: "People choose deeper immersion", category: .immersion,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("immersive-experiences", "Transitioning between immersive styles"), Citation("playing-video", "visionOS")],
        summary: "Immersion goes up because of a system event, not a user action.",
        rationale: "People should decide when to enter deeper immersion; the HIG warns against starting fully immersive experiences automatically.",
        fixHint: "Raise immersion only in response to a user action (setImmersion with trigger: user).",
        unit: "s", worse: .higher,
        notes: ["The scene's setImmersion events carry trigger user/system; a step up with trigger system is reported over the frames it stays in force. Measured: how long it lasted (the longest raise when there are several), each frame counting its whole interval (360 frames at 90 Hz are 4 s), as the depth rules count.",
                "Several system raises in one scene are one violation: its message names every raise with its time, its event's line and column and how long it lasted; its location is the first raise's event."])
}

func immersionFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [BoundaryHeadExit.metadata.id]) { s in
            let m = BoundaryHeadExit.metadata
            guard let r = s.index(m.id) else { return nil }
            let radius = s.param(m, "radius"), horizontal = s.param(m, "horizontal") >= 0.5
            return locatedAtSegmentStart(r, s.scene, ConditionRule(rule: r, meta: m, candidates: [-1], frameDuration: s.frameDuration, check: { f, _ in
                let d = horizontal ? f.headDisplacementHorizontal : f.headDisplacement
                return f.immersion.hasBoundary && f.boundaryOrigin != nil && d > radius ? .init(measured: d, threshold: radius) : nil
            }, message: { agg, _ in
                "the head moves \(fmt(agg.measured)) m from where immersion began, beyond the \(fmt(radius)) m boundary, so the system interrupts the experience; keep movement within \(fmt(radius)) m or use the mixed style"
            }))
        },
        RuleFactory(ids: [BoundaryFadeZone.metadata.id]) { s in
            let m = BoundaryFadeZone.metadata
            guard let r = s.index(m.id) else { return nil }
            let radius = s.param(m, "radius"), margin = s.param(m, "margin")
            // Measured like boundary-head-exit (its `horizontal` option), so the zone and the exit agree.
            let horizontal = s.param(BoundaryHeadExit.metadata, "horizontal") >= 0.5
            let start = radius - margin
            let dt = s.frameDuration
            return locatedAtSegmentStart(r, s.scene, ConditionRule(rule: r, meta: m, candidates: [-1], frameDuration: dt, check: { f, _ in
                // The fade zone is start < r ≤ radius; beyond the radius the experience is replaced by
                // the app icon (boundary-head-exit), not fading.
                guard f.immersion.hasBoundary, f.boundaryOrigin != nil else { return nil }
                let d = horizontal ? f.headDisplacementHorizontal : f.headDisplacement
                return d > start && d <= radius ? .init(measured: d, threshold: start) : nil
            }, message: { agg, _ in
                let frames = agg.frameCount
                return "the head comes \(fmt(agg.measured)) m from where immersion began, inside the fade zone that starts at \(fmt(start)) m; the experience fades for \(fmt(Double(frames) * dt)) s. Keep the viewer within \(fmt(start)) m"
            }))
        },
        RuleFactory(ids: [BoundaryStyleVsLocomotion.metadata.id]) { s in
            LocomotionRule(s).map { locatedAtSegmentStart($0.rule, s.scene, $0) }
        },
        RuleFactory(ids: [ImmersionRangeValid.metadata.id]) { s in
            let m = ImmersionRangeValid.metadata
            guard let r = s.index(m.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices where s.scene.entities[i].immersionRange != nil {
                let e = s.scene.entities[i]
                guard let range = e.immersionRange else { continue }
                if range.count != 2 { items.append(.init(entity: i, measured: Double(range.count), threshold: 2, aux: -1)); continue }
                let lo = range[0], hi = range[1]
                if !(lo > 0) { items.append(.init(entity: i, measured: lo, threshold: 0, aux: 0)) }
                else if !(hi <= 360) { items.append(.init(entity: i, measured: hi, threshold: 360, aux: 1)) }
                else if !(lo <= hi) { items.append(.init(entity: i, measured: lo, threshold: hi, aux: 2)) }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                switch agg.aux {
                case -1: "\(names.joinedNames) has an immersion range with \(fmt(agg.measured)) values; give exactly [min, max]"
                case 0: "\(names.joinedNames) has an immersion range starting at \(fmt(agg.measured))°; the minimum must be above 0° (default 120°)"
                case 1: "\(names.joinedNames) has an immersion range up to \(fmt(agg.measured))°; the maximum is 360°"
                default: "\(names.joinedNames) has an immersion range whose minimum \(fmt(agg.measured))° exceeds its maximum \(fmt(agg.threshold))°; swap them"
                }
            }
        },
        RuleFactory(ids: [ImmersionLaunchStyle.metadata.id]) { s in
            let m = ImmersionLaunchStyle.metadata
            guard let r = s.index(m.id), s.scene.immersion.hasBoundary else { return nil }
            let initial = s.scene.immersion
            final class Launch: RuleProcessor {
                let rule: Int; let initial: ImmersionStyle; var active = true
                init(_ r: Int, _ i: ImmersionStyle) { rule = r; initial = i }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    guard active else { return }
                    guard f.immersion == initial else { active = false; return }
                    out.report(rule: rule, frame: f.frame, time: f.time, measured: f.time, threshold: 0)
                }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    "the scene launches in \(initial.rawValue) immersion; start in the Shared Space or mixed and let people choose to go deeper"
                }
            }
            return Launch(r, initial)
        },
        RuleFactory(ids: [ImmersionUserInitiated.metadata.id]) { s in
            let m = ImmersionUserInitiated.metadata
            guard let r = s.index(m.id) else { return nil }
            // Style changes in time order (stable for equal times, as the simulator applies them);
            // a system step up is in force until the next change.
            var raises: [SystemRaise] = []
            var current = s.scene.immersion
            let ordered = s.scene.events.enumerated()
                .filter { $0.element.time.isFinite }
                .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            for (_, ev) in ordered {
                guard case .setImmersion(let style, let trigger) = ev.action else { continue }
                if let last = raises.last, last.end == .infinity { raises[raises.count - 1].end = ev.time }
                if style > current && trigger == .system { raises.append(SystemRaise(start: ev.time, end: .infinity, style: style, loc: ev.location)) }
                current = style
            }
            guard !raises.isEmpty else { return nil }
            return RaiseRule(r, raises, frameDuration: s.frameDuration)
        },
    ]
}

/// A step up of the immersion style caused by a system event.
struct SystemRaise {
    var start: Double
    var end: Double
    var style: ImmersionStyle
    var loc: SourceLocation?
}

/// `immersion-user-initiated`: one violation for all system raises of a scene (the scene is its
/// entity set), whose message names the raises that happened (the first `listed`, then how many
/// more), with its time, its event's line and how long it lasted; the violation's location is the
/// first raise's event.
final class RaiseRule: RuleProcessor {
    let rule: Int
    let raises: [SystemRaise]
    let dt: Double
    /// Per raise: how long it has been in force by the last frame reported (nil: not yet reached).
    private var lasted: [Double?]
    init(_ r: Int, _ x: [SystemRaise], frameDuration: Double) {
        rule = r; raises = x; dt = frameDuration
        lasted = Array(repeating: nil, count: x.count)
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        for (k, x) in raises.enumerated() where f.time >= x.start - 1e-9 && f.time < x.end - 1e-9 {
            // A frame stands for its whole interval (the depth rules' convention): 360 frames at
            // 90 Hz are 4 s.
            out.report(rule: rule, frame: f.frame, time: f.time, measured: f.time - x.start + dt, threshold: 0, aux: x.start)
            out.setLocation(rule: rule, -1, -1, x.loc)
            lasted[k] = f.time - x.start + dt
        }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        let seen = raises.indices.filter { lasted[$0] != nil }
        let advice = "enter deeper immersion only when people ask for it (trigger: user)"
        guard seen.count > 1 else {
            let styles = Set(raises.map(\.style.rawValue)).sorted().joined(separator: ", ")
            let from = agg.aux.isFinite ? " at t = \(fmt(agg.aux)) s" : ""
            return "immersion rises to \(styles)\(from) from a system event, not a user action, and stays raised for \(fmt(agg.measured)) s; \(advice)"
        }
        // The first `listed` raises by name: a scene of 100,000 raising events made this one
        // message megabytes long in every report format.
        var list = seen.prefix(Self.listed).map { k -> String in
            let x = raises[k]
            let at = x.loc.map { " (event at line \($0.line), column \($0.column))" } ?? ""
            return "to \(x.style.rawValue) at t = \(fmt(x.start)) s\(at) for \(fmt(lasted[k] ?? 0)) s"
        }
        if seen.count > Self.listed { list.append("and \(seen.count - Self.listed) more") }
        return "immersion rises \(seen.count) times from a system event, not a user action: \(list.joined(separator: "; ")); \(advice)"
    }
    /// Raises a message names one by one.
    static let listed = 10
}

final class LocomotionRule: RuleProcessor {
    let rule: Int
    let radius: Double
    /// boundary-head-exit's radius and `horizontal` option when that rule runs (nil: off): a
    /// frame it reports is its finding, not this one's (one walk, one error).
    let exit: (radius: Double, horizontal: Bool)?
    private var segmentStart: Vec3?
    init?(_ s: RuleSetup) {
        let m = BoundaryStyleVsLocomotion.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        radius = s.param(m, "radius")
        let em = BoundaryHeadExit.metadata
        exit = s.index(em.id) == nil ? nil : (s.param(em, "radius"), s.param(em, "horizontal") >= 0.5)
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        guard f.immersion.hasBoundary else { segmentStart = nil; return }
        let start = segmentStart ?? f.headPosition
        segmentStart = start
        let d = length(f.headPosition - start)
        guard d > radius else { return }
        if let exit, f.boundaryOrigin != nil,
           (exit.horizontal ? f.headDisplacementHorizontal : f.headDisplacement) > exit.radius { return }
        out.report(rule: rule, frame: f.frame, time: f.time, measured: d, threshold: radius)
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        "the viewer travels \(fmt(agg.measured)) m from where the immersive segment began (more than \(fmt(radius)) m); use the mixed immersion style for experiences that need walking"
    }
}

/// Gives a scene-level boundary finding a source location, so SARIF and editors can annotate it:
/// the `setImmersion` event that started the current progressive/full segment, or the viewer
/// (`viewer:`) when the scene starts in such a style (or the event has no location). The first
/// segment in which the rule fires names the location.
func locatedAtSegmentStart(_ rule: Int, _ scene: Scene, _ inner: RuleProcessor) -> RuleProcessor {
    final class Segment {
        var cursor: EventCursor
        var style: ImmersionStyle
        var location: SourceLocation?
        let viewer: SourceLocation?
        init(_ scene: Scene) {
            cursor = EventCursor(scene); style = scene.immersion; viewer = scene.viewer.location
            location = scene.immersion.hasBoundary ? viewer : nil
        }
        func advance(_ f: FrameQuantities) {
            for ev in cursor.advance(to: f.time) {
                guard case .setImmersion(let newStyle, _) = ev.action else { continue }
                if newStyle.hasBoundary && !style.hasBoundary { location = ev.location ?? viewer }
                style = newStyle
            }
        }
    }
    let segment = Segment(scene)
    let key = FindingKey(rule: rule)
    return HookedProcessor(inner, before: { segment.advance($0) }, after: { f, out in
        if out.aggregate(for: key)?.lastFrame == f.frame { out.setLocation(rule: rule, -1, -1, segment.location) }
    })
}
