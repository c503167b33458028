import Foundation
import SpatialModel
import Simulation

// Rules on entering and leaving deeper immersion: a visible way out, and changes that fade
// rather than cut.

private let transitioning = Citation("immersive-experiences", "Transitioning between immersive styles")

public enum ImmersionExitAffordance: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "immersion-exit-affordance", name: "Immersive experiences offer a way out", category: .immersion,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [transitioning],
        summary: "The scene is in progressive or full immersion and has no exit control (role: exit) (warning), or its exit control is never in view during an immersive segment (info).",
        rationale: "People need a clear, easy way to leave an immersive experience and get back to their surroundings; the HIG points to Keynote, which shows a prominent Exit button in its immersive rehearsal environment. The Digital Crown always works, but many people don't know it, and the app's own content fills their view.",
        fixHint: "Give the immersive experience a visible exit control (an element or asset node with role: exit, e.g. a Done or Exit button in an ornament or attachment) that people can find without searching.",
        unit: "count", worse: .higher,
        notes: ["Warning: every frame in progressive or full immersion when no entity of the scene has role exit (hidden ones count: an app may show it later); located at the setImmersion event that began the segment. Measured 1, threshold 0.",
                "Info: an exit control exists but none is both visible and in the comfortable field of view on any frame of an immersive segment; reported on the first exit control over the whole segment.",
                "Mixed immersion keeps passthrough around the content and is not judged."])
}

public enum ImmersionTransitionSmooth: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "immersion-transition-smooth", name: "Immersion changes fade, not cut", category: .immersion,
        defaultSeverity: .warning, thresholdKey: "minSeconds",
        parameters: [
            RuleParameter("minSeconds", 0.5, "s", .configurable("a visible, trackable fade: the HIG asks for gentle transitions but gives no duration"), "shortest transition for a large change of immersion"),
            RuleParameter("minChange", 0.25, "fraction", .configurable("a quarter of the way from passthrough to full immersion counts as a large change"), "change of immersion amount from which the transition time is judged"),
        ],
        citations: [transitioning, Citation("accessibility", "Cognitive")],
        summary: "A setImmersion change covering more than 25 % of the immersion range whose stated transition is shorter than 0.5 s.",
        rationale: "Sudden changes of immersion are jarring and can disorient people: the HIG asks for gentle, predictable transitions into and out of immersion, and for fades instead of motion for people who turn on Reduce Motion.",
        fixHint: "Fade the change over half a second or more (transition: 0.5 or longer), or let the system animate it (leave transition unstated).",
        unit: "s", worse: .lower,
        notes: ["Immersion amount: shared and mixed 0 (passthrough all around), progressive the lower end of the scene's environment range / 360° (120° / 360° = 0.33 by default, the least the Digital Crown shows), full 1. A change covers |new − old| of that range.",
                "Reading: only a stated transition (seconds, on the setImmersion event) is judged; an event without one uses the system's own animated transition and passes. transition: 0 is a hard cut.",
                "Reported at the frame each too-quick change takes effect, located at the first one's event; measured is the transition time (the shortest when several are too quick, which the message describes). Environment opacity over time is not in the scene format, so sudden opacity jumps are not checked."])
}

func immersionTransitionFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [ImmersionExitAffordance.metadata.id]) { s in
            let m = ImmersionExitAffordance.metadata
            guard let r = s.index(m.id) else { return nil }
            let exits = s.scene.entities.indices.filter { s.scene.entities[$0].role == .exit }
            final class Exit: RuleProcessor {
                let rule: Int, exits: [Int]
                var segment: (frame: Int, time: Double, style: ImmersionStyle)?
                var seen = false
                var last: (frame: Int, time: Double) = (0, 0)
                init(_ r: Int, _ x: [Int]) { rule = r; exits = x }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    guard f.immersion.hasBoundary else { close(&out); return }
                    if exits.isEmpty {
                        out.report(rule: rule, frame: f.frame, time: f.time, measured: 1, threshold: 0, aux: f.immersion == .full ? 1 : 0)
                        return
                    }
                    if segment == nil { segment = (f.frame, f.time, f.immersion); seen = false }
                    if !seen { seen = exits.contains { f.visible[$0] && f.inFOV[$0] } }
                    last = (f.frame, f.time)
                }
                func close(_ out: inout Findings) {
                    guard let seg = segment else { return }
                    segment = nil
                    if !seen, let e = exits.first {
                        out.reportRun(rule: rule, e, from: seg.frame, fromTime: seg.time, to: last.frame, toTime: last.time,
                                      measured: 1, worstFrame: seg.frame, threshold: 0, aux: 2, severity: .info)
                    }
                }
                func finish(_ out: inout Findings, _ end: EndState) { close(&out) }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    if agg.aux == 2 {
                        return "exit control \(names.joinedNames) is never in view during the immersive segment from t = \(fmt(agg.firstTime)) s; place it where people see it without searching"
                    }
                    return "the scene is in \(agg.aux == 1 ? "full" : "progressive") immersion with no exit control (role: exit); give people a visible way back to their surroundings"
                }
            }
            return locatedAtSegmentStart(r, s.scene, Exit(r, exits))
        },
        RuleFactory(ids: [ImmersionTransitionSmooth.metadata.id]) { s in
            let m = ImmersionTransitionSmooth.metadata
            guard let r = s.index(m.id) else { return nil }
            let minSeconds = s.param(m, "minSeconds"), minChange = s.param(m, "minChange")
            let ents = s.scene.entities
            let low = ents.indices.first { ents[$0].kind == .environment && ents[$0].immersionRange?.count == 2 }
                .flatMap { ents[$0].immersionRange?[0] } ?? 120
            let progressive = min(max(low / 360, 0), 1)
            func amount(_ st: ImmersionStyle) -> Double {
                switch st {
                case .shared, .mixed: 0
                case .progressive: progressive
                case .full: 1
                }
            }
            // The judged changes, in the order the simulator applies them.
            struct Change { var time: Double; var from: ImmersionStyle; var to: ImmersionStyle; var seconds: Double; var loc: SourceLocation? }
            var changes: [Change] = []
            var current = s.scene.immersion
            let ordered = s.scene.events.enumerated().filter { $0.element.time.isFinite }
                .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
            for (_, ev) in ordered {
                guard case .setImmersion(let style, _) = ev.action else { continue }
                defer { current = style }
                guard style != current, abs(amount(style) - amount(current)) > minChange + 1e-9,
                      let secs = ev.transition, secs < minSeconds - 1e-9 else { continue }
                changes.append(Change(time: ev.time, from: current, to: style, seconds: secs, loc: ev.location))
            }
            guard !changes.isEmpty else { return nil }
            final class Smooth: RuleProcessor {
                let rule: Int, changes: [Change], minSeconds: Double
                var next = 0
                init(_ r: Int, _ c: [Change], _ ms: Double) { rule = r; changes = c; minSeconds = ms }
                func consume(_ f: FrameQuantities, _ out: inout Findings) {
                    while next < changes.count, changes[next].time <= f.time + 1e-9 {
                        let c = changes[next]
                        out.report(rule: rule, frame: f.frame, time: f.time, measured: c.seconds, threshold: minSeconds, aux: Double(next))
                        out.setLocation(rule: rule, -1, -1, c.loc)
                        next += 1
                    }
                }
                func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
                    let k = Int(agg.aux.isFinite ? agg.aux : 0)
                    guard changes.indices.contains(k) else { return "an immersion change is shorter than \(fmt(minSeconds)) s" }
                    let c = changes[k]
                    let how = c.seconds == 0 ? "as a hard cut (transition: 0)" : "in \(fmt(c.seconds)) s"
                    // The other too-quick changes the run reached, each with its event's place (the
                    // violation is located at the first one's): the first `RaiseRule.listed`.
                    let others = changes.indices.prefix(next).filter { $0 != k }
                    var more = ""
                    if !others.isEmpty {
                        var list = others.prefix(RaiseRule.listed).map { i -> String in
                            let o = changes[i]
                            let at = o.loc.map { ", event at line \($0.line), column \($0.column)" } ?? ""
                            return "\(o.from.rawValue) to \(o.to.rawValue) at t = \(fmt(o.time)) s \(o.seconds == 0 ? "as a hard cut" : "in \(fmt(o.seconds)) s")\(at)"
                        }
                        if others.count > RaiseRule.listed { list.append("and \(others.count - RaiseRule.listed) more") }
                        more = "; \(others.count + 1) changes are too quick, this is the quickest; the other\(others.count == 1 ? "" : "s"): " + list.joined(separator: "; ")
                    }
                    return "immersion changes from \(c.from.rawValue) to \(c.to.rawValue) at t = \(fmt(c.time)) s \(how), quicker than the \(fmt(minSeconds)) s fade people can follow\(more); fade \(others.isEmpty ? "it" : "each") over \(fmt(minSeconds)) s or more"
                }
            }
            return Smooth(r, changes, minSeconds)
        },
    ]
}
