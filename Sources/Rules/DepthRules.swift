import Foundation
import SpatialModel
import Simulation

public enum DepthMinReadingDistance: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-min-reading-distance", name: "Reading content at least 1 m away", category: .depth,
        defaultSeverity: .warning, thresholdKey: "distance",
        parameters: [
            RuleParameter("distance", 1.0, "m", .hig, "closest comfortable distance for content read over time"),
            RuleParameter("dwell", 10, "s", .configurable("'over time': a glance or a short notification is fine"), "how long the content must stay closer before it counts"),
            RuleParameter("glanceLength", 20, "characters", .configurable("a label of two or three words (\"Red fox\", \"Now playing\") is read at a glance, not over time; set 0 to count every text"),
                          "text entities and text elements outside windows whose text is at most this long are labels, not reading content"),
        ],
        citations: [Citation("eyes", "Best practices")],
        summary: "Text or a window stays in view closer than 1 m for more than 10 s (labels of up to 20 characters outside windows are read at a glance and not counted).",
        rationale: "Reading close up strains the eyes; the HIG asks to place content people read or use over time at least one metre away.",
        fixHint: "Place the content at least 1 m from the viewer (windows default to about 2 m).",
        unit: "m", worse: .lower,
        notes: ["Counts text entities, text elements of non-window containers, and windows while visible and in the field of view. A window with text elements is read at the nearest of its centre and its text elements that are visible and in view (each at its own distance: the near side of a window turned 60° is read closer than its centre), and the message names the text when it is the nearest; a window without text elements at its centre. Not counted: hand-anchored content (as close as the arm holds it; depth-near-brief-only judges it) and touch panels, windows whose interactive elements all take direct touch (interaction: direct), which must be within reach (target-direct-reach) and which the HIG allows close when used briefly (depth-near-brief-only).",
                "Content exactly at the threshold complies: a distance counts as closer only when it is below the threshold by more than a billionth of it, far above the rounding of placement's trigonometry (a window placed at exactly 1 m is a few 10⁻¹⁶ m nearer at some azimuths) and far below what a report prints. The same holds for depth-near-brief-only.",
                "Reading: the HIG's guidance is for content people 'read or engage with over time' (hig-rules: text blocks, windows, video, documents). A text entity, or a text element of a volume or other non-window container, whose text (string or label) is at most glanceLength characters (20: \"Red fox\", \"Lounge Chair · 78 cm\") is a label read at a glance and is not counted; text without a string or label counts, as do windows and their text elements whatever their length. Characters, not words, so that text without spaces between words (Chinese, Japanese) is measured too.",
                "A frame stands for its whole interval, so frame i has held the condition for t_i − t_start + 1/frameRate seconds; frames after the 10 s are reported.",
                "Static end: if the condition still holds at the last frame and nothing moves or changes after it, the whole run is reported as sustained (a still scene of a reading panel at 0.6 m fails even when it is only one frame long); the message then says so, and that hiding the content with an event marks it as brief.",
                "Moved by the person: top-level content whose own keyframes are trigger: user (the person drags a window closer) and that opened at least the threshold away is an info when read closer, not a warning: people may put a window where they like (windows › visionOS), and the app placed it well. Content that opened closer is judged as usual."])
}

public enum DepthNearBriefOnly: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-near-brief-only", name: "Very close content only briefly", category: .depth,
        defaultSeverity: .warning, thresholdKey: "distance",
        parameters: [
            RuleParameter("distance", 0.5, "m", .external("inside arm reach, where the eyes' convergence effort rises steeply"), "distance counted as very close"),
            RuleParameter("dwell", 10, "s", .configurable("brief use"), "longest acceptable time that close"),
        ],
        citations: [Citation("eyes", "Best practices")],
        summary: "Visible content stays closer than 0.5 m for more than 10 s.",
        rationale: "Content very close to the eyes is uncomfortable to look at for long; the HIG reserves close placement for things used briefly.",
        fixHint: "Move the content further away, or show it close only briefly.",
        unit: "m", worse: .lower,
        notes: ["Same dwell and static-end reading as depth-min-reading-distance. The message says when the viewer walked up to world-anchored content (the eye moved more than 0.3 m from where it started). Hand-anchored content is as close as the hand holds it (viewer.hand, by default 0.46 m from the eye), and head-anchored content as close as it is placed: their messages say so instead, since walking does not change that distance. Hand-anchored content is an info: people hold their hand where they like and lower it when done, so a palette on the default hand (0.46 m, closer than 0.5 m) is not a warning after 10 s; its message says to keep what people read for long in the world. A violation reported only because of the static end says so (\"until the scene ends\") instead of a time the scene does not show."])
}

public enum DepthTextFlat: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-text-flat", name: "Text stays on its background", category: .depth,
        defaultSeverity: .warning, thresholdKey: "maxOffset",
        parameters: [RuleParameter("maxOffset", 0.005, "m", .external("noticeable parallax at 1–2 m"), "largest offset of text in front of or behind its background")],
        citations: [Citation("spatial-layout", "Depth"), Citation("typography", "visionOS")],
        summary: "A text element floats more than 5 mm in front of (or sits behind) its background: the element it lies on, or its window or volume face.",
        rationale: "Text lifted off its background is harder to read and can be uncomfortable; the HIG keeps depth for larger elements. Text sunk behind the element it lies on is hidden by it.",
        fixHint: "Give the text the depth of the element it lies on (0 on the window's surface), so it lies on its background and in front of it.",
        unit: "m", worse: .higher,
        notes: ["Elements: the background is the frontmost (largest depth) other element of the same window or volume that is not text and whose frame contains the centre of the text's frame (a card, an image, a button); without one, the window or volume face at depth 0. Offset = |depth − background's depth| (pt) × the container's metres per point. Text more than maxOffset behind its background is hidden by it, and the message says so.",
                "Text entities placed as children of a window: the distance of the text's centre from the window's plane, each frame. Extruded 3D text is not described by the scene format and is not checked."])
}

public enum DepthWindowContentExtent: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-window-content-extent", name: "Window content stays shallow", category: .depth,
        defaultSeverity: .warning, thresholdKey: "maxExtent",
        parameters: [RuleParameter("maxExtent", 0.05, "m", .configurable("placeholder for the unknown system clip depth; tune it"), "largest distance of window content from the window plane")],
        citations: [Citation("windows", "visionOS windows"), Citation("image-views", "visionOS")],
        summary: "Content of a window reaches more than 50 mm in front of or behind the window's surface.",
        rationale: "The system clips window content that extends too far from the window; deep 3D content belongs in a volume.",
        fixHint: "Flatten the content or move it into a volume.",
        unit: "m", worse: .higher,
        notes: ["Elements: |depth| × metres per point. Child entities of a window: how far their box reaches from the window's plane along its normal, each frame; the box is the child's oriented box when it has one geometry node (text, a panel, a one-mesh model), so a window turned toward the viewer is judged like a straight one, and its world-aligned box otherwise. Content that reaches exactly the limit as written passes (1 nm is allowed for the rounding of world coordinates).",
                "Not counted: a window nested directly in a window (an ornament, or a sheet, alert, popover or menu it presents). The system floats it in a plane of its own slightly in front of the window (ornaments; toolbars › visionOS: \"in a parallel plane that's slightly in front of the window\"), and does not clip it like the window's content."])
}

public enum DepthLayerCount: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-layer-count", name: "Few depth layers", category: .depth,
        defaultSeverity: .info, thresholdKey: "maxLayers",
        parameters: [
            RuleParameter("maxLayers", 3, "count", .configurable("window plane, raised controls, bars"), "most distinct depths in one container"),
            RuleParameter("tolerance", 0.005, "m", .configurable("depths closer than this read as one layer"), "clustering tolerance"),
        ],
        citations: [Citation("spatial-layout", "Depth")],
        summary: "The readable, interactive and image elements of one window sit at more than three distinct depths.",
        rationale: "Every change of depth makes the eyes refocus; the HIG asks to check how many depths an app uses.",
        fixHint: "Put elements on fewer depth levels.",
        unit: "count", worse: .higher,
        notes: ["Elements counted: readable (text), interactive and images (a raised photo is a depth layer as much as a raised button). Their depths (depth in pt × the container's metres per point) are sorted and a new layer starts where a depth is more than the tolerance beyond the first depth of the current layer. The message lists each layer's depth in mm and its elements (the first three by id, then how many more)."])
}

public enum DepthModalForward: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "depth-modal-forward", name: "Custom sheets and alerts come forward", category: .depth,
        defaultSeverity: .info, thresholdKey: nil,
        parameters: [],
        citations: [Citation("spatial-layout", "Depth"), Citation("sheets", "visionOS"), Citation("alerts", "visionOS")],
        summary: "A sheet or alert drawn as an element of its window (a custom modal overlay) lies in the window's plane or behind it instead of in front of it.",
        rationale: "Depth tells people what matters now: when visionOS presents a sheet or an alert it floats in front of its window, slightly forward along z, and the window recedes. A custom overlay drawn flat in the window gets none of that: people see a rectangle on the window, not a modal step in front of it.",
        fixHint: "Present it with the system's sheet or alert (SwiftUI .sheet, .alert: a child window with presentation: sheet or alert in the scene), which comes forward by itself; or raise the custom overlay in front of the window (depth > 0, with its controls at its depth or in front).",
        platforms: [.visionOS], unit: "pt", worse: .lower,
        notes: ["Custom modal overlays: elements of role sheet or alert (the first 16 of a container, as the modal cover reads them). Measured their depth in points (positive toward the viewer), threshold 0: reported when it is 0 or less. A presented child window (presentation: sheet or alert) is the system's, which places it forward, and is not judged. Reported over the frames the overlay is visible."])
}

/// True when every run of a dwell rule's violation is shorter than its dwell: it was reported only
/// because it still held when the scene came to rest (`ConditionRule.finish`, the static end), so
/// "for more than N s" would state a time the scene does not show.
func staticEndOnly(_ agg: Aggregate, dwell: Double, frameDuration dt: Double) -> Bool {
    agg.lastTime - agg.firstTime + dt <= dwell + 1e-9
}

func depthFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [DepthMinReadingDistance.metadata.id]) { s in
            let m = DepthMinReadingDistance.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let d = s.param(m, "distance"), dwell = s.param(m, "dwell"), glance = s.param(m, "glanceLength")
            // Closer than the threshold by more than rounding (`belowDistance`): a window placed at
            // exactly 1 m complies whatever its azimuth.
            let dBelow = belowDistance(d)
            // A label read at a glance: text of at most `glance` characters (none stated: counted).
            func isGlanceLabel(_ i: Int) -> Bool {
                guard let text = ents[i].string ?? ents[i].label else { return false }
                return Double(text.count) <= glance
            }
            // Touch panels: windows whose interactive elements all take direct touch. They must be
            // within reach (target-direct-reach), so never 1 m away; the HIG allows close content
            // people interact with briefly, which depth-near-brief-only judges.
            var direct = [Bool](repeating: false, count: ents.count), other = direct
            for i in ents.indices where ents[i].interactive {
                guard let c = ents[i].container, c < ents.count, ents[c].kind == .window else { continue }
                if ents[i].interaction == .direct { direct[c] = true } else { other[c] = true }
            }
            // A window's text elements, read where they are: a window turned away brings the text
            // on its near side closer than its centre.
            var textsOf = [[Int]](repeating: [], count: ents.count)
            for i in ents.indices where ents[i].kind == .element && ents[i].isReadable {
                if let c = ents[i].container, c < ents.count, ents[c].kind == .window { textsOf[c].append(i) }
            }
            var cands: [Int] = [], windowsWithText: [Int] = []
            for i in ents.indices {
                // Fields read in place: binding `ents[i]` would copy the whole entity.
                // Hand-held content is as close as the arm holds it: depth-near-brief-only's.
                if ents[i].anchor == .hand { continue }
                if ents[i].kind == .window {
                    guard !(direct[i] && !other[i]) else { continue }
                    if textsOf[i].isEmpty { cands.append(i) } else { windowsWithText.append(i) }
                    continue
                }
                guard ents[i].isReadable else { continue }
                if let c = ents[i].container, c < ents.count, ents[c].kind == .window { continue }
                if isGlanceLabel(i) { continue }
                cands.append(i)
            }
            // The same lists flat, captured immutable: the check, run for every visible window with
            // text in every frame, then neither checks exclusive access to a captured variable nor
            // retains an inner array.
            var textStart = [Int](repeating: 0, count: ents.count + 1), textList: [Int] = []
            for w in ents.indices {
                textList += textsOf[w]
                textStart[w + 1] = textList.count
            }
            let dt = s.frameDuration
            let ids = ents.map(\.id)
            // Top-level content the person moves (its own keyframes, trigger: user) that opened at
            // least `d` away: people may put a window where they like (windows › visionOS), so
            // reading it closer after their move is an info (variant 1), not the app's placement.
            let anims = s.scene.animations
            let personMoved = ents.indices.map { i in
                guard ents[i].parent == nil, let a = ents[i].animation, a >= 0, a < anims.count,
                      anims[a].trigger == .user, anims[a].source == .keyframes else { return false }
                return !(ents[i].placementDistance < dBelow)
            }
            // aux: the index of the window's text element that was nearest (NaN: the window's centre).
            let message = { (agg: Aggregate, names: [String]) -> String in
                let k = agg.aux.isFinite ? Int(agg.aux) : -1
                let at = ids.indices.contains(k) ? " (at its text \(ids[k]), its nearest)" : ""
                if agg.variant == 1 {
                    return "\(names.joinedNames) is read from \(fmt(agg.measured)) m\(at) after the person moved it there (its keyframes are trigger: user); it opened at least \(fmt(d)) m away, and people may put a window where they like, so nothing to change unless the app moves it closer itself"
                }
                if staticEndOnly(agg, dwell: dwell, frameDuration: dt) {
                    return "\(names.joinedNames) is read from \(fmt(agg.measured)) m\(at) until the scene ends, and a still ending counts as lasting (more than \(fmt(dwell)) s); place it at least \(fmt(d)) m away, or hide it with an event when it is no longer needed"
                }
                return "\(names.joinedNames) is read from \(fmt(agg.measured)) m\(at) for more than \(fmt(dwell)) s; place it at least \(fmt(d)) m away"
            }
            let plain = ConditionRule(rule: r, meta: m, candidates: cands, dwell: dwell, frameDuration: dt,
                                      gate: .below(\.distance, dBelow, inFOV: true), reads: .quantities, check: { f, e in
                guard f.visible[e] && f.inFOV[e] && f.distance[e] < dBelow else { return nil }
                return personMoved[e] ? .init(measured: f.distance[e], threshold: d, severity: .info, variant: 1)
                    : .init(measured: f.distance[e], threshold: d)
            }, message: message)
            guard !windowsWithText.isEmpty else { return plain }
            // A window with text: the nearer of its centre (when in view) and its text elements
            // visible and in view.
            let starts = textStart, texts = textList
            let withText = ConditionRule(rule: r, meta: m, candidates: windowsWithText, dwell: dwell, frameDuration: dt,
                                         gate: .visible, reads: .quantities, check: { f, w in
                guard f.visible[w], w + 1 < starts.count else { return nil }
                var near = f.inFOV[w] ? f.distance[w] : .infinity, at = Double.nan
                for i in starts[w]..<starts[w + 1] {
                    let k = texts[i]
                    if f.visible[k] && f.inFOV[k] && f.distance[k] < near { near = f.distance[k]; at = Double(k) }
                }
                guard near < dBelow else { return nil }
                return .init(measured: near, threshold: d, severity: personMoved[w] ? .info : nil, aux: at, variant: personMoved[w] ? 1 : 0)
            }, message: message)
            return MultiProcessor([plain, withText]) { _, agg, names in message(agg, names) }
        },
        RuleFactory(ids: [DepthNearBriefOnly.metadata.id]) { s in
            let m = DepthNearBriefOnly.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let d = s.param(m, "distance"), dwell = s.param(m, "dwell"), dBelow = belowDistance(d)
            let kinds: Set<EntityKind> = [.window, .volume, .model, .text]
            let cands = ents.indices.filter { kinds.contains(ents[$0].kind) }
            let startHead = s.scene.viewer.path.first?.position ?? Vec3(0, s.scene.viewer.eyeHeight, 0)
            // aux: 1 the viewer walked up to world content; 2 held on the hand; 3 attached to the head.
            let anchorAux = ents.indices.map { ents[$0].anchor == .hand ? 2.0 : ents[$0].anchor == .head ? 3.0 : 0.0 }
            let dt = s.frameDuration
            let rule = ConditionRule(rule: r, meta: m, candidates: cands, dwell: dwell, frameDuration: dt,
                                     gate: .below(\.distance, dBelow), reads: .quantities, check: { f, e in
                guard f.visible[e], f.distance[e] < dBelow else { return nil }
                // Content on the hand is as close as people choose to hold it (a palette they glance
                // at, then lower): an info, not a warning.
                if anchorAux[e] == 2 { return .init(measured: f.distance[e], threshold: d, severity: .info, aux: 2) }
                if anchorAux[e] > 0 { return .init(measured: f.distance[e], threshold: d, aux: anchorAux[e]) }
                let moved = length(f.headPosition - startHead) > 0.3
                return .init(measured: f.distance[e], threshold: d, aux: moved ? 1 : 0)
            }, message: { agg, names in
                // How long: "for more than 10 s", or, when only the still ending made it last, that
                // (and that hiding it with an event marks it as brief).
                let stillEnd = staticEndOnly(agg, dwell: dwell, frameDuration: dt)
                let held = stillEnd
                    ? "until the scene ends, and a still ending counts as lasting (more than \(fmt(dwell)) s)"
                    : "for more than \(fmt(dwell)) s"
                let hide = stillEnd ? ", or hide it with an event when it is no longer needed" : ""
                switch agg.aux {
                case 2:
                    return "\(names.joinedNames) is held on the hand \(fmt(agg.measured)) m from the eyes \(held); people hold it as close as they like, which suits tools they glance at, but put what they read for long in the world at least \(fmt(d)) m away"
                case 3:
                    return "\(names.joinedNames) moves with the head \(fmt(agg.measured)) m from the eyes \(held); place it at least \(fmt(d)) m away or show it only briefly\(hide)"
                default:
                    let walked = agg.aux == 1 ? " (the viewer walked up to it)" : ""
                    // The walk is said before a static end's longer clause, after "for more than N s" as before.
                    let when = stillEnd ? "\(walked) \(held)" : " \(held)\(walked)"
                    return "\(names.joinedNames) stays \(fmt(agg.measured)) m from the eyes\(when); keep content closer than \(fmt(d)) m only briefly\(hide)"
                }
            })
            return rule
        },
        RuleFactory(ids: [DepthTextFlat.metadata.id]) { s in
            let m = DepthTextFlat.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let maxOff = s.param(m, "maxOffset")
            var items: [StaticRule.Item] = []
            var textChildren: [Int] = [], window = [Int](repeating: -1, count: ents.count)
            // Per container: its elements that are not text and have a frame, the backgrounds text
            // can lie on, frontmost (largest depth) first, document order among equals.
            var backdrops: [Int: [Int]] = [:]
            for i in ents.indices where ents[i].kind == .element && !ents[i].isReadable && ents[i].frame != nil {
                if let c = ents[i].container { backdrops[c, default: []].append(i) }
            }
            for c in backdrops.keys {
                backdrops[c]?.sort { ents[$0].depthPt != ents[$1].depthPt ? ents[$0].depthPt > ents[$1].depthPt : $0 < $1 }
            }
            // Per reported element (by path, as the message gets it): the element it lies on.
            var backgroundOf: [String: (id: String, depthPt: Double)] = [:]
            for i in ents.indices where ents[i].isReadable {
                let e = ents[i]
                if e.kind == .element {
                    var bg: Int?
                    if let c = e.container, let f = e.frame, let cands = backdrops[c] {
                        let p = f.center
                        bg = cands.first { j in
                            guard let g = ents[j].frame else { return false }
                            return p.x >= g.x && p.x <= g.x + g.width && p.y >= g.y && p.y <= g.y + g.height
                        }
                    }
                    let signed = (e.depthPt - (bg.map { ents[$0].depthPt } ?? 0)) * metresPerPoint(of: i, in: s)
                    let off = abs(signed)
                    if off.isFinite && off > maxOff {
                        items.append(.init(entity: i, measured: off, threshold: maxOff, aux: signed < 0 ? -1 : 1))
                        if let bg { backgroundOf[e.path] = (ents[bg].id, ents[bg].depthPt) }
                    }
                } else if let p = e.parent, p >= 0, p < ents.count, ents[p].kind == .window {
                    textChildren.append(i); window[i] = p
                }
            }
            // aux: -1 when the text sits behind its background (sunk into it), else 1. Measured and
            // threshold stay in metres, the unit of maxOffset and of baselines saved before; the
            // message speaks millimetres.
            let background = backgroundOf
            let message = { (agg: Aggregate, names: [String]) -> String in
                let mm = fmt(agg.measured * 1000, beside: maxOff * 1000), limit = "at most \(fmt(maxOff * 1000)) mm"
                if names.count == 1, let bg = background[names[0]] {
                    let fix = "set its depth to \(fmt(bg.depthPt)) pt, the depth of \(bg.id) (\(limit))"
                    return agg.aux < 0
                        ? "text \(names.joinedNames) sits \(mm) mm behind \(bg.id), the element it lies on, which hides it; \(fix)"
                        : "text \(names.joinedNames) floats \(mm) mm in front of \(bg.id), the element it lies on; \(fix)"
                }
                if names.count > 1 && !names.allSatisfy({ background[$0] == nil }) {
                    let place = agg.aux < 0 ? "sits \(mm) mm behind its background" : "floats \(mm) mm in front of its background"
                    return "text \(names.joinedNames) \(place); give each the depth of the element it lies on (\(limit))"
                }
                let place = agg.aux < 0 ? "sits \(mm) mm behind its background's surface" : "floats \(mm) mm in front of its background"
                return "text \(names.joinedNames) \(place); set its depth to 0 (\(limit))"
            }
            let elements = StaticRule(rule: r, items: items, message: message)
            guard !textChildren.isEmpty else { return elements }
            // A text entity placed as a child of a window: the offset of its centre from the
            // window's plane, each frame (either may be animated).
            let windowOf = window
            let children = ConditionRule(rule: r, meta: m, candidates: textChildren, frameDuration: s.frameDuration, gate: .visible,
                                         reads: .quantities, check: { f, e in
                let w = windowOf[e]
                guard f.visible[e], f.visible[w] else { return nil }
                let lf = length(f.front[w])
                guard lf > 0 else { return nil }
                let signed = dot(f.center[e] - f.center[w], f.front[w] / lf), off = abs(signed)
                return off.isFinite && off > maxOff ? .init(measured: off, threshold: maxOff, aux: signed < 0 ? -1 : 1) : nil
            }, message: message)
            return MultiProcessor([elements, children]) { _, agg, names in message(agg, names) }
        },
        RuleFactory(ids: [DepthWindowContentExtent.metadata.id]) { s in WindowExtentRule(s) },
        RuleFactory(ids: [DepthModalForward.metadata.id]) { s in
            guard let r = s.index(DepthModalForward.metadata.id), s.scene.platform == .visionOS else { return nil }
            let ents = s.scene.entities
            var perContainer: [Int: Int] = [:]
            var items: [StaticRule.Item] = []
            for e in ents.indices where ents[e].kind == .element && (ents[e].role == .sheet || ents[e].role == .alert) {
                guard let c = ents[e].container, perContainer[c, default: 0] < 16 else { continue }
                perContainer[c, default: 0] += 1
                if ents[e].depthPt <= 0 { items.append(.init(entity: e, measured: ents[e].depthPt, threshold: 0, aux: ents[e].role == .alert ? 1 : 0)) }
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                let what = agg.aux == 1 ? "alert" : "sheet"
                return "\(names.joinedNames) is a custom \(what) drawn \(agg.measured < 0 ? "\(fmt(-agg.measured)) pt behind" : "in the plane of") its window, so it does not come forward as a modal view should; present it as a system \(what) (a child window with presentation: \(what)), or raise it in front of the window (depth above 0)"
            }
        },
        RuleFactory(ids: [DepthLayerCount.metadata.id]) { s in
            let m = DepthLayerCount.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let maxLayers = s.param(m, "maxLayers"), tol = s.param(m, "tolerance")
            var depths: [Int: [(depth: Double, id: String)]] = [:]
            for i in ents.indices where ents[i].kind == .element && (ents[i].interactive || ents[i].isReadable || ents[i].role == .image) {
                guard let c = ents[i].container else { continue }
                depths[c, default: []].append((ents[i].depthPt * metresPerPoint(of: i, in: s), ents[i].id))
            }
            var items: [StaticRule.Item] = []
            // Per reported container (by path, as the message gets it): its layers described.
            var layersText: [String: String] = [:]
            for c in depths.keys.sorted() {
                let ds = (depths[c] ?? []).sorted { $0.depth != $1.depth ? $0.depth < $1.depth : $0.id < $1.id }
                var layers: [(depth: Double, ids: [String])] = []
                for x in ds {
                    if let last = layers.last, x.depth - last.depth <= tol { layers[layers.count - 1].ids.append(x.id) } else { layers.append((x.depth, [x.id])) }
                }
                guard Double(layers.count) > maxLayers, c < ents.count else { continue }
                items.append(.init(entity: c, measured: Double(layers.count), threshold: maxLayers))
                layersText[ents[c].path] = layers.map { layer in
                    let shown = layer.ids.prefix(3).joined(separator: ", ")
                    let more = layer.ids.count > 3 ? " and \(layer.ids.count - 3) more" : ""
                    return "\(fmt(layer.depth * 1000)) mm: \(shown)\(more)"
                }.joined(separator: "; ")
            }
            return StaticRule(rule: r, items: items) { agg, names in
                let layers = names.count == 1 ? layersText[names[0]].map { " (\($0))" } ?? "" : ""
                return "the elements of \(names.joinedNames) sit at \(fmt(agg.measured)) different depths\(layers); use at most \(fmt(maxLayers))"
            }
        },
    ]
}

/// Whether element `i` is judged in its container's pt (hig-rules §2.3): a 2D element in a
/// dynamic-scale container, whose size in pt holds at every distance, or any element of an iOS
/// scene (screen space). Elements of fixed-scale windows and volumes have a size in metres and are
/// judged per frame in pt_eq, like other fixed-scale content.
/// The distance below which content is closer than the threshold `d` by more than rounding: the
/// trigonometry of `placement` leaves the last bits of a distance to chance (a window placed at
/// exactly 1 m is a few 10⁻¹⁶ m nearer at some azimuths), and a designer who types the HIG's
/// own number complies. A billionth of the threshold is far above that rounding and far below
/// anything a report prints.
func belowDistance(_ d: Double) -> Double { d - abs(d) * 1e-9 }

/// The nearest window or volume above entity `i` (its parent or further up), nil when none.
func nearestContainer(_ i: Int, _ ents: [Entity]) -> Int? {
    var p = ents.indices.contains(i) ? ents[i].parent : nil, steps = 0
    while let q = p, ents.indices.contains(q), steps <= ents.count {
        if ents[q].kind == .volume || ents[q].kind == .window { return q }
        p = ents[q].parent; steps += 1
    }
    return nil
}

/// Whether the nearest window or volume above entity `i` is a dynamic-scale volume (whose content,
/// 3D text sized in metres included, keeps the angular size it opens with).
func inDynamicVolume(_ i: Int, _ ents: [Entity]) -> Bool {
    nearestContainer(i, ents).map { ents[$0].kind == .volume && ents[$0].scaleMode == .dynamic } ?? false
}

func measuredInPoints(_ i: Int, _ scene: Scene) -> Bool {
    let ents = scene.entities
    guard i >= 0, i < ents.count, ents[i].kind == .element, ents[i].frame != nil else { return false }
    if scene.platform == .iOS { return true }
    guard let c = ents[i].container, c >= 0, c < ents.count else { return false }
    return ents[c].scaleMode == .dynamic
}

/// Metres per point of an element (its own value, else its container's, else the fixed-scale default).
func metresPerPoint(of i: Int, in s: RuleSetup) -> Double {
    let ents = s.scene.entities
    if ents[i].metresPerPoint > 0 { return ents[i].metresPerPoint }
    if let c = ents[i].container, c < ents.count, ents[c].metresPerPoint > 0 { return ents[c].metresPerPoint }
    return s.scene.units.fixedPointSize
}

final class WindowExtentRule: RuleProcessor {
    /// Metres of rounding allowed on extents measured in world coordinates.
    static let rounding = 1e-9
    let rule: Int
    let maxExtent: Double
    let elementItems: StaticRule
    /// (window, child entity) pairs checked each frame.
    let children: [(window: Int, child: Int)]
    init?(_ s: RuleSetup) {
        let m = DepthWindowContentExtent.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        let maxE = s.param(m, "maxExtent")
        maxExtent = maxE
        let ents = s.scene.entities
        var items: [StaticRule.Item] = []
        var kids: [(Int, Int)] = []
        // Only entities either branch can take are bound (a bound entity is a copy of every field).
        for i in ents.indices where ents[i].kind == .element ? ents[i].container != nil : ents[i].parent != nil {
            let e = ents[i]
            if e.kind == .element, let c = e.container, c < ents.count, ents[c].kind == .window {
                let off = abs(e.depthPt) * metresPerPoint(of: i, in: s)
                if off > maxE { items.append(.init(entity: i, measured: off, threshold: maxE)) }
            } else if e.kind != .element, e.kind != .window, let p = e.parent, p < ents.count, ents[p].kind == .window {
                // A window nested in a window is an ornament or a presentation: the system floats
                // it in a plane of its own in front of the window (ornaments; toolbars ›
                // visionOS), not window content the system clips.
                kids.append((p, i))
            }
        }
        elementItems = StaticRule(rule: r, items: items) { _, _ in "" }
        children = kids
    }
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        elementItems.consume(f, &out)
        for (w, c) in children where f.visible[c] {
            // The child's box (oriented when it has one geometry node) projected on the window's
            // normal, from the window's plane: a turned window's content is as shallow as a straight one's.
            let lf = length(f.front[w])
            guard lf > 0 else { continue }
            let ext = f.boxReach(c, along: f.front[w] / lf, from: f.center[w])
            // Measured in world coordinates: content written exactly at the limit may come out a
            // rounding above it (0.02 m + half of 0.06 m from a window 1.5 m away), so 1 nm is allowed.
            if ext.isFinite, ext > maxExtent + Self.rounding {
                out.report(rule: rule, c, frame: f.frame, time: f.time, measured: ext, threshold: maxExtent)
            }
        }
    }
    func finish(_ out: inout Findings, _ end: EndState) { elementItems.finish(&out, end) }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        "\(names.joinedNames) reaches \(fmt(agg.measured * 1000, beside: maxExtent * 1000)) mm from its window's surface (at most \(fmt(maxExtent * 1000)) mm); flatten it or move it into a volume"
    }
}
