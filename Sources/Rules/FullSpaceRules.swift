import Foundation
import SpatialModel
import Simulation

// What only works in a Full Space: ARKit data (hand tracking, planes, scene reconstruction, image
// anchors, world tracking) reaches an app only while it has an immersive space open.

public enum EnvArkitRequiresFullSpace: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "env-arkit-requires-full-space", name: "Hand-tracked content needs a Full Space", category: .environment,
        defaultSeverity: .error, thresholdKey: nil,
        parameters: [],
        citations: [Citation("privacy", "visionOS"), Citation("augmented-reality", "visionOS")],
        summary: "Content anchored to the hand is shown while the app is in the Shared Space (no immersive space open).",
        rationale: "In visionOS, ARKit sends no data to apps in the Shared Space: hand tracking, plane estimation, scene reconstruction, image anchoring and world tracking need a Full Space (an open immersive space of any style, mixed included) and the person's permission. Content anchored to a hand in the Shared Space never follows the hand.",
        fixHint: "Open an immersive space (immersion: mixed or deeper) before showing hand-anchored content, and ask for hand-tracking permission when the feature needs it; in the Shared Space, place the content in a window or volume instead.",
        unit: "count", worse: .higher,
        notes: ["Reading: the scene format states hand anchoring (anchor: hand on an entity or asset node, or a RealityKit Anchoring component of type Hand), which needs ARKit hand tracking. Other ARKit providers (planes, scene mesh, image anchors) and the permission step are not in the scene format yet, so they are not checked.",
                "Reported on the root of each hand-anchored subtree over the frames it is visible while the immersion style is shared; measured 1, threshold 0."])
}

func fullSpaceFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [EnvArkitRequiresFullSpace.metadata.id]) { s in
            let m = EnvArkitRequiresFullSpace.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let roots = ents.indices.filter { i in
                // Fields read in place: binding `ents[i]` would copy the whole entity.
                guard ents[i].anchor == .hand, ents[i].kind != .element else { return false }
                return ents[i].parent.map { ents.indices.contains($0) ? ents[$0].anchor != .hand : true } ?? true
            }
            guard !roots.isEmpty else { return nil }
            return ConditionRule(rule: r, meta: m, candidates: roots, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                f.immersion == .shared && f.visible[e] ? .init(measured: 1, threshold: 0) : nil
            }, message: { _, names in
                "\(names.joinedNames) is anchored to the hand while the app is in the Shared Space, where ARKit sends no hand-tracking data, so it will not follow the hand; open an immersive space first (and ask for hand-tracking permission)"
            })
        },
    ]
}
