import Foundation
import SpatialModel
import Simulation

// What only works in a Full Space: ARKit data (hand tracking, planes, scene reconstruction, image
// anchors, world tracking) reaches an app only while it has an immersive space open.

public enum EnvArkitRequiresFullSpace: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "env-arkit-requires-full-space", name: "ARKit-anchored content needs a Full Space", category: .environment,
        defaultSeverity: .error, thresholdKey: nil,
        parameters: [],
        citations: [Citation("privacy", "visionOS"), Citation("augmented-reality", "visionOS")],
        summary: "Content anchored to the hand, a plane or an object (anchors ARKit provides) is shown while the app is in the Shared Space (no immersive space open).",
        rationale: "In visionOS, ARKit sends no data to apps in the Shared Space: hand tracking, plane estimation, scene reconstruction, image anchoring and world tracking need a Full Space (an open immersive space of any style, mixed included) and the person's permission. Content anchored to a hand in the Shared Space never follows the hand; content anchored to a plane or an object is never placed on it.",
        fixHint: "Open an immersive space (immersion: mixed or deeper) before showing hand-anchored content, and ask for hand-tracking permission when the feature needs it; in the Shared Space, place the content in a window or volume instead.",
        unit: "count", worse: .higher,
        notes: ["Reading: the scene format states hand anchoring (anchor: hand on an entity or asset node, or a RealityKit Anchoring component of type Hand), which needs ARKit hand tracking; a RealityKit Anchoring component of type Plane or Object (USD) needs ARKit plane detection or object tracking. Such content is simulated where it is authored (world-anchored: ARKit places it in the room at run time). Other ARKit providers (scene mesh, image anchors) and the permission step are not in the scene format yet, so they are not checked.",
                "Reported on the root of each hand-anchored subtree, and on each prim anchored to a plane or an object, over the frames it is visible while the immersion style is shared; measured 1, threshold 0.",
                "Fix for USD content (Reality Composer Pro): the message names the Anchoring component; change its target (or remove the component and place the entity in code) when the content must show in the Shared Space."])
}

func fullSpaceFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [EnvArkitRequiresFullSpace.metadata.id]) { s in
            let m = EnvArkitRequiresFullSpace.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            // What anchors each root, for the message: 0 the hand, 1 a plane, 2 an object; + 10 when
            // read from a USD Anchoring component (the fix is in Reality Composer Pro).
            var kindOf: [Int: Double] = [:]
            let roots = ents.indices.filter { i in
                // Fields read in place: binding `ents[i]` would copy the whole entity.
                guard ents[i].kind != .element else { return false }
                let usd: Double = ents[i].factSources.anchor == .file && ents[i].usdPrim != nil ? 10 : 0
                if ents[i].anchor == .hand {
                    guard ents[i].parent.map({ ents.indices.contains($0) ? ents[$0].anchor != .hand : true }) ?? true else { return false }
                    kindOf[i] = usd
                    return true
                }
                guard let a = ents[i].arkitAnchor else { return false }
                kindOf[i] = (a == .plane ? 1 : 2) + usd
                return true
            }
            guard !roots.isEmpty else { return nil }
            let kinds = kindOf  // read per frame: a constant, not a captured variable
            return ConditionRule(rule: r, meta: m, candidates: roots, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                f.immersion == .shared && f.visible[e] ? .init(measured: 1, threshold: 0, aux: kinds[e] ?? 0) : nil
            }, message: { a, names in
                let usd = a.aux >= 10
                switch a.aux.isFinite ? Int(a.aux) % 10 : 0 {
                case 1:
                    return "\(names.joinedNames) is anchored to a plane (a RealityKit Anchoring component of type Plane) while the app is in the Shared Space, where ARKit sends no plane data, so it is never placed on a surface; open an immersive space first, or change the Anchoring component's target in Reality Composer Pro to show it in a window or volume"
                case 2:
                    return "\(names.joinedNames) is anchored to an object (a RealityKit Anchoring component of type Object) while the app is in the Shared Space, where ARKit tracks no objects, so it is never placed; open an immersive space first, or change the Anchoring component's target in Reality Composer Pro to show it in a window or volume"
                default:
                    return "\(names.joinedNames) is anchored to the hand while the app is in the Shared Space, where ARKit sends no hand-tracking data, so it will not follow the hand; open an immersive space first (and ask for hand-tracking permission)"
                        + (usd ? " (in Reality Composer Pro: its Anchoring component's target is Hand)" : "")
                }
            })
        },
    ]
}
