import Foundation
import SpatialModel
import Simulation

// Rules on how interactive content takes input and answers the eyes: its hover effect and
// whether it can be reached with indirect gestures. They read the facts an app usually states in
// code (element keys, asset-node annotations, asset files); a fact nobody states is unknown and
// never a violation.

public enum TargetHoverFeedback: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-hover-feedback", name: "Interactive content shows a hover effect", category: .targets,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("eyes", ""), Citation("eyes", "Best practices"), Citation("buttons", "Change log")],
        summary: "An interactive element or asset node whose hover effect is stated as none (warning), or a button with a custom hover effect (info).",
        rationale: "In visionOS people look at an element to target it, and the hover effect is the feedback that tells them it is interactive and that their look landed on it; the HIG asks every interactive element to have one and to prefer the standard effect. visionOS buttons do not support custom hover effects (buttons change log, February 2, 2024).",
        fixHint: "Give the element a hover effect: keep the system one on standard controls, add HoverEffectComponent (RealityKit) or .hoverEffect() (SwiftUI) to custom content and entities, and state it in the scene (hoverEffect: system). Don't give a button a custom hover effect.",
        unit: "count", worse: .higher,
        notes: ["Reading: a hover effect lives in the app's code (SwiftUI .hoverEffect, RealityKit HoverEffectComponent), not in its assets (RealityKit USD files carry none), so a hover effect nobody states is unknown and never a violation. Standard 2D controls get the system's hover effect by default. Only a stated `hoverEffect: none` (false) on something interactive, from the scene file (an element key or an asset-node annotation) or the asset file, is a warning.",
                "Info: an entity of role button whose hover effect is stated as custom. highlight and lift are standard effects, not custom.",
                "visionOS only (iOS AR content has no hover). Reported over the frames the entity is visible; measured is 1 (one entity), threshold 0."])
}

public enum TargetIndirectAvailable: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-indirect-available", name: "UI controls take indirect input", category: .targets,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("gestures", "visionOS"), Citation("designing-for-visionos", "Best practices")],
        summary: "A UI control (button, toggle, slider, menu, text field, …) that takes direct touch only (interaction: direct).",
        rationale: "People mostly use indirect gestures (look and pinch, with their hands resting in their lap or at their sides); the HIG asks apps to support them and to prefer indirect input for UI and buttons, keeping direct touch for close-up objects. A control that only reacts to touch is out of reach for anyone not standing next to it and for assistive input.",
        fixHint: "Let the control take indirect input too (interaction: both; in RealityKit InputTargetComponent(allowedInputTypes: .all)), or use a standard SwiftUI control, which takes both.",
        unit: "count", worse: .higher,
        notes: ["UI controls: 2D elements of every interactive role (button, toggle, slider, textField, link, menu, tab, picker, stepper, custom) and asset nodes marked with a control role (every role but text, image and custom). 3D models and unmarked asset nodes are objects, for which direct input is fine.",
                "Reading: only a stated interaction: direct is a violation; a control whose interaction nobody states is unknown (SwiftUI controls take both).",
                "visionOS only (on iOS every screen control is touched directly). Reported over the frames the control is visible; measured is 1 (one control), threshold 0."])
}

/// True for a UI control: a 2D element of an interactive role, or an asset node marked with a
/// control role (custom roles on asset nodes are 3D objects).
func isUIControl(_ e: Entity) -> Bool {
    guard let role = e.role, role != .text, role != .image else { return false }
    switch e.kind {
    case .element: return true
    case .node: return role != .custom
    default: return false
    }
}

func inputFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [TargetHoverFeedback.metadata.id]) { s in
            guard let r = s.index(TargetHoverFeedback.metadata.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices where s.scene.entities[i].interactive {
                let e = s.scene.entities[i]
                if e.hoverEffect == HoverEffect.none {
                    items.append(.init(entity: i, measured: 1, threshold: 0, severity: .warning, aux: 0))
                } else if e.hoverEffect == .custom, e.role == .button {
                    items.append(.init(entity: i, measured: 1, threshold: 0, severity: .info, aux: 1))
                }
            }
            return StaticRule(rule: r, items: items) { agg, names in
                if agg.aux == 1 {
                    return "button \(names.joinedNames) has a custom hover effect, which visionOS buttons don't support; use the standard hover effect"
                }
                return "\(names.joinedNames) is interactive but its hover effect is none, so people get no feedback when they look at it; give it the system hover effect (HoverEffectComponent, .hoverEffect())"
            }
        },
        RuleFactory(ids: [TargetIndirectAvailable.metadata.id]) { s in
            guard let r = s.index(TargetIndirectAvailable.metadata.id) else { return nil }
            var items: [StaticRule.Item] = []
            for i in s.scene.entities.indices where s.scene.entities[i].interactive && s.scene.entities[i].interaction == .direct && isUIControl(s.scene.entities[i]) {
                items.append(.init(entity: i, measured: 1, threshold: 0, aux: inputFromUSD(s.scene.entities[i]) ? 1 : .nan))
            }
            return StaticRule(rule: r, items: items) { agg, names in
                "\(names.joinedNames) is a UI control that takes direct touch only; let it take indirect input too (interaction: both) so people can look and pinch from where they are"
                    + (agg.aux == 1 ? rcpAllowedInputHint : "")
            }
        },
    ]
}

/// Whether an entity's input kinds were read from a USD InputTarget component (not a scene key).
func inputFromUSD(_ e: Entity) -> Bool { e.factSources.interaction == .file && e.usdPrim != nil }

/// The fix in Reality Composer Pro for a prim whose InputTarget takes direct input only, added to
/// messages that say "interaction: both" when the fact came from the USD file.
let rcpAllowedInputHint = " (in Reality Composer Pro: set its InputTarget component's allowed input to All)"
