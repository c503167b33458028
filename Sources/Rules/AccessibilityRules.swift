import Foundation
import SpatialModel
import Simulation

// Rules on what VoiceOver can say about content and whether its text can be read against what is
// behind it. They read what the scene states (element keys, entity keys, asset-node annotations,
// USD Accessibility components); a fact nobody states is unknown and never a violation, except
// where the HIG's own default decides (a custom control or 3D object has no label by default).

public enum A11yLabels: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "a11y-labels", name: "Custom controls, 3D content and meaningful images have VoiceOver labels", category: .accessibility,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("voiceover", "Descriptions", "S0, S1"), Citation("accessibility", "Vision")],
        summary: "Interactive 3D content, a custom control, or a meaningful image with no accessibility label; or interactive content marked decorative (hidden from VoiceOver).",
        rationale: "VoiceOver describes the interface with labels people never see. System controls get a label from their text, but the HIG asks for labels on every custom element and every meaningful image; only purely decorative images may be left out. A RealityKit entity, or a custom view, says nothing to VoiceOver until the app gives it an AccessibilityComponent or .accessibilityLabel.",
        fixHint: "Give it a label (accessibilityLabel: \"Blue ship\" in the scene; AccessibilityComponent.label in RealityKit, .accessibilityLabel() in SwiftUI), or mark a purely visual image decorative: true (.accessibilityHidden(true)).",
        platforms: [.visionOS, .iOS],
        unit: "count", worse: .higher,
        notes: ["Needs a label: an interactive model, an interactive asset node (marked, annotated, or with a RealityKit InputTarget), an interactive element of role custom, an element or asset node of role image, and anything stated decorative: false. A label is an accessibilityLabel (scene key, annotation, or the USD Accessibility component); on an element its visible text (label) counts too.",
                "Reading: standard controls (button, toggle, slider, text field, link, menu, tab, picker, stepper, exit) are not judged: SwiftUI gives them a label from their text or SF Symbol, and whether that text is clear is a manual review (mr-button-content). Windows, volumes, text and environments are not judged. decorative: true excludes an image or non-interactive 3D object.",
                "Interactive content stated decorative: true is reported too (message: hidden from VoiceOver): an element people can act on must stay reachable with VoiceOver.",
                "Reported over the frames the entity is visible; measured is 1 (one entity), threshold 0."])
}

/// Why an entity fails `a11y-labels`: nil when it passes or nothing decides.
func missingLabelReason(_ e: Entity) -> Double? {
    let labelled = !(e.accessibilityLabel ?? "").isEmpty || (e.kind == .element && !(e.label ?? "").isEmpty)
    if e.interactive && e.decorative == true && (e.kind == .model || e.kind == .node || e.kind == .element) { return 1 }
    if labelled || e.decorative == true { return nil }
    switch e.kind {
    case .model: return e.interactive || e.decorative == false ? 0 : nil
    case .node: return e.interactive || e.role == .image || e.decorative == false ? 0 : nil
    case .element:
        if e.role == .image { return 0 }
        if e.role == .custom && e.interactive { return 0 }
        return e.decorative == false ? 0 : nil
    default: return nil
    }
}

public enum TypeContrast: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-contrast", name: "Text contrasts with what is behind it", category: .typography,
        defaultSeverity: .warning, thresholdKey: "ratioNormal",
        parameters: [
            RuleParameter("ratioNormal", 4.5, "ratio", .hig, "minimum contrast for text up to 17 pt, regular weight"),
            RuleParameter("ratioLarge", 3, "ratio", .hig, "minimum contrast for text of largeTextPt and more, or bold"),
            RuleParameter("largeTextPt", 18, "pt", .hig, "size from which text counts as large"),
            RuleParameter("glassBright", 0.18, "luminance", .configurable("glass adapts to what is behind it; 0.18 (#767676) is the brightest backdrop on which the system's default white text still has 4.5:1, the legibility the system keeps on glass"), "relative luminance of glass in front of a bright room"),
            RuleParameter("glassDark", 0.01, "luminance", .configurable("glass in front of a dark room, about #1A1A1A"), "relative luminance of glass in front of a dark room"),
            RuleParameter("passthroughBright", 0.8, "luminance", .configurable("a white wall under room light as passthrough shows it, about #E6E6E6"), "relative luminance of a bright real-world backdrop"),
            RuleParameter("passthroughDark", 0.01, "luminance", .configurable("a dim room, about #1A1A1A"), "relative luminance of a dark real-world backdrop"),
        ],
        citations: [Citation("accessibility", "Vision"), Citation("typography", "visionOS"), Citation("color", "visionOS")],
        summary: "Text whose contrast ratio with its background (WCAG 2) is below 4.5:1, or 3:1 for text of 18 pt and more or bold. Glass and passthrough backgrounds are judged against a bright and a dark sample.",
        rationale: "Low-contrast text is hard to read for everyone and impossible for many people with low vision. The HIG sets 4.5:1 for text up to 17 pt and 3:1 for larger or bold text, and in visionOS asks for maximum contrast against the glass behind text. Glass and the real world change with the room, so text must hold up in front of a bright wall and in a dark room alike.",
        fixHint: "Use the system's primary (white) text on glass, or a text colour further from the background; put text that floats over passthrough on glass or an opaque background; or make it larger or bold.",
        platforms: [.visionOS, .iOS],
        unit: "ratio", worse: .lower,
        notes: ["Checked: content with text (text entities, elements and asset nodes of role text, and elements with a label) whose colour or background is stated. Colour: its color (hex; alpha is blended over the background), else the system's primary text: white on visionOS; on iOS an unstated text colour adapts to its background and is not judged.",
                "Background: its own background, else its container's (element → window/volume, text/model → the nearest ancestor that states one), else the default: glass for windows on visionOS, passthrough for volumes and world content; on iOS an unstated background is unknown and not judged. A colour with alpha is blended over what is behind it.",
                "Contrast ratio (WCAG 2): (L1 + 0.05) / (L2 + 0.05) with relative luminance L = 0.2126 R + 0.7152 G + 0.0722 B of the linearised sRGB components. Glass and passthrough are each tested against two greys of the configured luminances; measured is the lowest ratio.",
                "Size: fontSize times the scale above the text at rest (the length of its local +Y axis in world space; not on iOS elements, which are screen space); for 3D text sized in metres (height), its em (times that scale) as seen from its placement distance at t = 0, in pt_eq; else 17 pt (the body size). Bold, heavy and black weights count as large.",
                "Defaults: the glass samples bracket what glass shows between a bright and a dark room (the system keeps its own white text legible on glass, so the bright sample is the brightest grey on which white still reaches 4.5:1); the passthrough samples are a lit white wall and a dim room. On those two, no text colour reaches 4.5:1 (the best grey reaches about 3.8:1): normal-size text straight on passthrough needs glass or a background behind it.",
                "Reported over the frames the entity is visible; measured is the lowest ratio, threshold the ratio its size needs."])
}

public enum TypeTabLabels: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-tab-labels", name: "Tabs have a symbol and a short label", category: .typography,
        defaultSeverity: .warning, thresholdKey: "maxCharacters",
        parameters: [
            RuleParameter("maxCharacters", 15, "characters", .configurable("the HIG asks for short labels read at a glance, one word where possible, without a number"), "longest tab label before it is reported (info)"),
        ],
        citations: [Citation("tab-bars", "visionOS"), Citation("tab-bars", "Best practices")],
        summary: "A tab with no symbol or no text label (warning), or a label of more than one word or more than 15 characters (info).",
        rationale: "In visionOS the tab bar shows only its symbols until people look at it, then reveals the labels; so each tab needs a symbol to be recognised collapsed and a label that reads at a glance when it expands. The HIG asks for single-word labels where possible.",
        fixHint: "Give every tab an SF Symbol (symbol: house) and a one-word text label (label: Home).",
        unit: "count", worse: .higher,
        notes: ["Tabs: elements and asset nodes of role tab. Symbol: the symbol key; label: the label key (the tab's visible text); an accessibilityLabel alone is not a visible label.",
                "Warning: no symbol, or no label (measured 1, threshold 0). Info: a label of more than one word or more than maxCharacters characters (measured: its length in characters, or its word count when that is what fails).",
                "visionOS only (on iOS a tab bar's labels are always shown). Reported over the frames the tab is visible."])
}

// MARK: - Contrast

/// What entity `i`'s text is drawn on: the opaque colours to test it against, how to name them in
/// a message, and the system material when it is drawn straight on one (no colour over it); nil
/// when unknown (iOS content with no stated background).
func contrastBackdrop(_ s: RuleSetup, _ i: Int, depth: Int = 0) -> (colors: [RGBA], name: String, material: SystemMaterial?)? {
    let m = TypeContrast.metadata
    let ios = s.scene.platform == .iOS
    func samples(_ mat: SystemMaterial) -> (colors: [RGBA], name: String, material: SystemMaterial?) {
        switch mat {
        case .glass: ([RGBA.grey(luminance: s.param(m, "glassBright")), RGBA.grey(luminance: s.param(m, "glassDark"))], "glass", mat)
        case .passthrough: ([RGBA.grey(luminance: s.param(m, "passthroughBright")), RGBA.grey(luminance: s.param(m, "passthroughDark"))], "passthrough", mat)
        }
    }
    guard depth < 64, s.scene.entities.indices.contains(i) else { return nil }
    let x = s.scene.entities[i]
    let up = x.container ?? x.parent
    func below() -> (colors: [RGBA], name: String, material: SystemMaterial?)? {
        if let up { return contrastBackdrop(s, up, depth: depth + 1) }
        return ios ? nil : samples(.passthrough)
    }
    switch x.background {
    case .material(let mat)?:
        return samples(mat)
    case .color(let c)?:
        if c.a >= 1 { return ([c], c.hex, nil) }
        return below().map { b in (b.colors.map { c.over($0) }, "\(c.hex) over \(b.name)", nil) }
    case nil:
        if x.kind == .window { return ios ? nil : samples(.glass) }
        return below()
    }
}

/// True for content that shows text: text entities, elements and asset nodes of role text, and
/// elements with a visible label.
func showsText(_ e: Entity) -> Bool {
    e.isReadable || (e.kind == .element && !(e.label ?? "").isEmpty)
}

func accessibilityFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [A11yLabels.metadata.id]) { s in
            guard let r = s.index(A11yLabels.metadata.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices {
                if let why = missingLabelReason(s.scene.entities[i]) { items.append(.init(entity: i, measured: 1, threshold: 0, aux: why)) }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                if agg.aux == 1 {
                    return "\(names.joinedNames) is interactive but marked decorative, so VoiceOver skips it and its users cannot reach it; remove decorative: true and give it a label"
                }
                return "\(names.joinedNames) has no accessibility label, so VoiceOver cannot say what it is; give it one (AccessibilityComponent, .accessibilityLabel), or mark a purely visual image decorative: true"
            }
        },
        RuleFactory(ids: [TypeContrast.metadata.id]) { s in
            let m = TypeContrast.metadata
            guard let r = s.index(m.id) else { return nil }
            let normal = s.param(m, "ratioNormal"), large = s.param(m, "ratioLarge"), largePt = s.param(m, "largeTextPt")
            var items: [StaticRule.Item] = []
            var texts: [String: String] = [:]
            var textScale: TextScale?  // made for the first text with a font size
            for i in s.scene.entities.indices where showsText(s.scene.entities[i]) && (s.scene.entities[i].color != nil || s.scene.entities[i].background != nil) {
                let e = s.scene.entities[i]
                let fg: RGBA
                switch e.color {
                case .color(let c)?: fg = c
                case .material?: continue
                case nil:
                    guard s.scene.platform == .visionOS else { continue }
                    fg = RGBA(1, 1, 1)
                }
                guard let back = contrastBackdrop(s, i) else { continue }
                var worst = Double.infinity, worstSample = 0
                for (k, b) in back.colors.enumerated() {
                    let ratio = RGBA.contrastRatio(fg.over(b).relativeLuminance, b.relativeLuminance)
                    if ratio < worst { worst = ratio; worstSample = k }
                }
                // A stated font size follows the scale above the text (at rest; not on iOS, whose
                // elements are screen space).
                let screen = s.scene.platform == .iOS && e.kind == .element
                var size = 17.0, unit = "pt"
                if let fs = e.fontSize {
                    if screen {
                        size = fs
                    } else {
                        let ts = textScale ?? TextScale(scene: s.scene)
                        textScale = ts
                        size = fs * ts.restScale(of: i, in: s.scene)
                    }
                } else if let h = e.textHeight, h > 0, e.placementDistance > 0, s.pointAngle > 0 {
                    // 3D text sized in metres: its em as seen from where it is placed (t = 0).
                    let ts = textScale ?? TextScale(scene: s.scene)
                    textScale = ts
                    size = degrees(2 * atan(h * ts.restScale(of: i, in: s.scene) / (2 * e.placementDistance))) / s.pointAngle
                    unit = "pt_eq"
                }
                let bold = e.fontWeight?.isBold ?? false
                let need = size >= largePt || bold ? large : normal
                guard worst.isFinite, worst < need - 1e-9 else { continue }
                let weight = e.fontWeight?.rawValue ?? "regular"
                let colour = e.color == nil ? "white (the default)" : fg.hex
                let against = back.colors.count > 1 ? " (against the \(worstSample == 0 ? "bright" : "dark") \(back.name) sample)" : ""
                texts[e.path] = "text \(colour) on \(back.name) has a contrast ratio of \(fmt(worst, beside: need)):1\(against), below the \(fmt(need)):1 that \(fmt(size)) \(unit) \(weight) text needs"
                items.append(.init(entity: i, measured: worst, threshold: need))
            }
            return StaticRule(rule: r, items: items) { _, names in
                let what = names.first.flatMap { texts[$0] } ?? "its text has too little contrast"
                return "\(names.joinedNames): \(what); use a colour further from its background, glass or an opaque background behind it, or larger or bold text"
            }
        },
        RuleFactory(ids: [TypeTabLabels.metadata.id]) { s in
            let m = TypeTabLabels.metadata
            guard let r = s.index(m.id) else { return nil }
            let maxChars = s.param(m, "maxCharacters")
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices where s.scene.entities[i].role == .tab && (s.scene.entities[i].kind == .element || s.scene.entities[i].kind == .node) {
                let e = s.scene.entities[i]
                let label = (e.label ?? "").trimmingCharacters(in: .whitespaces)
                let symbol = (e.symbol ?? "").trimmingCharacters(in: .whitespaces)
                if symbol.isEmpty || label.isEmpty {
                    // aux 0: no symbol, 1: no label, 2: neither.
                    let aux: Double = symbol.isEmpty && label.isEmpty ? 2 : symbol.isEmpty ? 0 : 1
                    items.append(.init(entity: i, measured: 1, threshold: 0, severity: .warning, aux: aux))
                    continue
                }
                let words = label.split(whereSeparator: { $0 == " " || $0 == "\t" }).count
                if Double(label.count) > maxChars {
                    items.append(.init(entity: i, measured: Double(label.count), threshold: maxChars, severity: .info, aux: 3))
                } else if words > 1 {
                    items.append(.init(entity: i, measured: Double(words), threshold: 1, severity: .info, aux: 4))
                }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                let n = names.joinedNames
                switch agg.aux {
                case 0: return "tab \(n) has a label but no symbol; in visionOS the collapsed tab bar shows only symbols, so give it an SF Symbol (symbol: NAME)"
                case 1: return "tab \(n) has a symbol but no text label; the expanded tab bar shows labels, so give it a short one (label: WORD; an accessibilityLabel does not count, the tab bar does not show it)"
                case 2: return "tab \(n) has neither a symbol nor a text label; give it both: symbol: NAME (an SF Symbol, shown when the tab bar is collapsed) "
                    + "and label: WORD (shown when it is expanded). An accessibilityLabel does not count: VoiceOver reads it, the tab bar does not show it"
                case 3: return "tab \(n) has a \(fmt(agg.measured))-character label, longer than \(fmt(agg.threshold)); keep tab labels short enough to read at a glance"
                default: return "tab \(n) has a \(fmt(agg.measured))-word label; use a single word where possible"
                }
            }
        },
    ]
}
