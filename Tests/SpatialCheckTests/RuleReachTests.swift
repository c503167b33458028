import Foundation
import Testing
@testable import Rules
@testable import Simulation
import SpatialModel

/// `target-direct-reach` and `target-hand-keepout` on synthetic frames whose geometry is written
/// out here: the head at (0, 1.6, 0) looking down −Z, boxes set per entity.
@Suite struct RuleReachTests {
    /// Entity `e`'s box: centre `c`, half-size `h` along the world axes.
    private static func box(_ f: inout FrameQuantities, _ e: Int, _ c: Vec3, half h: Double) {
        f.setBox(e, center: c, axes: (Vec3(h, 0, 0), Vec3(0, h, 0), Vec3(0, 0, h)))
        f.center[e] = c
        f.boundsMin[e] = c - Vec3(repeating: h); f.boundsMax[e] = c + Vec3(repeating: h)
    }

    // MARK: target-direct-reach

    @Test func touchOnlyContentBeyondArmsReach() {
        var fx = RuleFixture()
        fx.add("far", .model) { $0.interactive = true; $0.interaction = .direct }     // 0: warning
        fx.add("both", .model) { $0.interactive = true; $0.interaction = .both }      // 1: indirect works: clean
        fx.add("near", .model) { $0.interactive = true; $0.interaction = .direct }    // 2: within reach: clean
        fx.add("worn", .model) { $0.interactive = true; $0.interaction = .direct; $0.anchor = .hand } // 3: on the hand
        fx.add("unsaid", .model) { $0.interactive = true }                             // 4: interaction unknown
        let (_, v) = fx.run(frames: 2) { _, f in
            // Shoulders at (±0.18, 1.35, 0). far: a 9 cm box at (0, 1.3, -1.2), nearest point to the
            // right shoulder (0.045, 1.345, -1.155): √(0.135² + 0.005² + 1.155²) = 1.16287 m.
            Self.box(&f, 0, Vec3(0, 1.3, -1.2), half: 0.045)
            Self.box(&f, 1, Vec3(0, 1.3, -1.2), half: 0.045)
            // near: at (0.2, 1.3, -0.45): 0.405 m from the right shoulder.
            Self.box(&f, 2, Vec3(0.2, 1.3, -0.45), half: 0.045)
            Self.box(&f, 3, Vec3(0, 1.3, -1.2), half: 0.045)
            Self.box(&f, 4, Vec3(0, 1.3, -1.2), half: 0.045)
        }
        let r = v.rule("target-direct-reach")
        #expect(r.map(\.entities) == [["far"]])
        #expect(abs((r.first?.measured ?? 0) - 1.16287) < 1e-4)
        #expect(r.first?.threshold == 0.65)
        #expect(r.first?.spans == [[0, 1]])
    }

    @Test func shouldersTurnWithTheHead() {
        // Head turned 90° left: its right axis is −Z, so the shoulders are at (0, 1.35, ∓0.18).
        // The box at (0.5, 1.35, -0.2) (half 0.05): nearest point to (0, 1.35, -0.18) is
        // (0.45, 1.35, -0.18) → 0.45 m, within reach; looking ahead the shoulders are at
        // (±0.18, 1.35, 0) and the nearest is (0.45, 1.35, -0.15) from (0.18, 1.35, 0):
        // √(0.27² + 0.15²) = 0.30887 m, also within reach. At (1.0, 1.35, -0.2): turned,
        // 0.95 m; ahead, √(0.77² + 0.15²) = 0.78447 m.
        var fx = RuleFixture()
        fx.add("knob", .model) { $0.interactive = true; $0.interaction = .direct }
        let (_, turned) = fx.run(frames: 1) { _, f in
            f.headRotation = Quat(yaw: 90, pitch: 0, roll: 0)
            Self.box(&f, 0, Vec3(1.0, 1.35, -0.2), half: 0.05)
        }
        #expect(abs((turned.rule("target-direct-reach").first?.measured ?? 0) - 0.95) < 1e-9)
        let (_, ahead) = fx.run(frames: 1) { _, f in Self.box(&f, 0, Vec3(1.0, 1.35, -0.2), half: 0.05) }
        #expect(abs((ahead.rule("target-direct-reach").first?.measured ?? 0) - 0.78447) < 1e-5)
        let (_, close) = fx.run(frames: 1) { _, f in Self.box(&f, 0, Vec3(0.5, 1.35, -0.2), half: 0.05) }
        #expect(close.rule("target-direct-reach").isEmpty)
    }

    @Test func reachIsConfigurable() throws {
        var fx = RuleFixture()
        fx.add("knob", .model) { $0.interactive = true; $0.interaction = .direct }
        let config = try RuleConfiguration.parse("rules:\n  target-direct-reach: {threshold: 1.2}\n")
        let (_, v) = fx.run(frames: 1, configuration: config) { _, f in Self.box(&f, 0, Vec3(0, 1.3, -1.2), half: 0.045) }
        #expect(v.rule("target-direct-reach").isEmpty)   // 1.163 m ≤ 1.2 m
    }

    // MARK: target-hand-keepout

    /// Default standing hand: 0.35 m ahead and 0.30 m below the eye, its +Z pointing back at the
    /// eye, so the palm centre is at (0, 1.3, -0.35) and faces the viewer.
    @Test func contentNearAPalmThatFacesTheViewer() {
        var fx = RuleFixture()
        fx.add("card", .window)                                   // 0: 0.08 m from the palm → warning
        fx.add("far", .model)                                     // 1: 0.28 m away: clean
        fx.add("gem", .model) { $0.anchor = .hand }               // 2: hand-anchored → info; at the palm → warning
        fx.add("env", .environment)                               // 3: surroundings: not judged
        fx.add("child", .model, parent: 2) { $0.anchor = .hand }  // 4: inside the anchored subtree: no second info
        fx.add("ring", .model) { $0.anchor = .hand }              // 5: hand-anchored, 0.29 m clear of the palm → info
        let (_, v) = fx.run(frames: 2) { _, f in
            Self.box(&f, 5, Vec3(0.3, 1.3, -0.35), half: 0.01)    // 0.29 m
            Self.box(&f, 0, Vec3(0, 1.3, -0.45), half: 0.02)      // nearest point z = -0.43: 0.08 m
            Self.box(&f, 1, Vec3(0.3, 1.3, -0.35), half: 0.02)    // 0.28 m
            Self.box(&f, 2, Vec3(0, 1.33, -0.35), half: 0.01)     // 0.02 m above the palm
            Self.box(&f, 3, Vec3(0, 1.3, -0.35), half: 5)
            Self.box(&f, 4, Vec3(0, 2.3, -0.35), half: 0.01)      // 0.99 m away
        }
        let r = v.rule("target-hand-keepout")
        let warnings = r.filter { $0.severity == .warning }
        #expect(warnings.map(\.entities) == [["card"], ["gem"]])
        #expect(abs(warnings[0].measured - 0.08) < 1e-9)
        #expect(abs(warnings[1].measured - 0.02) < 1e-9)
        #expect(warnings.allSatisfy { $0.threshold == 0.15 && $0.unit == "m" })
        // The gem the hand carries at its palm is one problem: the warning, which says it is
        // anchored to the hand, and no info beside it (session 18's trial, sculpt-hand-palette).
        #expect(warnings[1].message.contains("is anchored to the hand and comes 0.02 m from the palm") == true)
        #expect(!warnings[0].message.contains("anchored"))
        let info = r.filter { $0.severity == .info }
        #expect(info.map(\.entities) == [["ring"]])
        #expect(info.first?.unit == "count" && info.first?.spans == [[0, 1]])
        #expect(info.first?.message.contains("anchored to the hand") == true)
    }

    @Test("without viewer.hand or hand-anchored content, nothing is judged against the default raised palm")
    func noStatedHandNoPalm() {
        // The board of the session 14 trial: content 0.08 m from where the default palm would be,
        // in a scene that says nothing about a hand.
        #expect(Self.nearPalm("board", .volume, hand: nil, frames: 2).isEmpty)
        // The same scene stating the (default) pose as its hand is judged: 0.08 m, a warning.
        let stated = Self.nearPalm("board", .volume, hand: [ViewerKey(time: 0, position: Vec3(0, -0.30, -0.35), rotation: .identity)], frames: 2)
        #expect(stated.map(\.entities) == [["board"]])
        #expect(abs((stated.first?.measured ?? 0) - 0.08) < 1e-9)
    }

    @Test func aPalmTurnedAwayHasNoOverlays() {
        // The same hand position turned 180° about its vertical: its +Z points away from the eye
        // (normal · direction to the eye = −0.76), so nothing near it is reported.
        let turned = [ViewerKey(time: 0, position: Vec3(0, -0.30, -0.35), rotation: Quat(yaw: 180, pitch: 0, roll: 0))]
        #expect(Self.nearPalm("card", .window, hand: turned, frames: 1).isEmpty)
        // Unturned (identity: +Z points back, 0.35 / 0.461 = 0.76 toward the eye) it faces the viewer.
        let facing = [ViewerKey(time: 0, position: Vec3(0, -0.30, -0.35), rotation: .identity)]
        #expect(Self.nearPalm("card", .window, hand: facing, frames: 1).map(\.entities) == [["card"]])
    }

    /// target-hand-keepout's findings for one entity whose box (half-size 0.02 m) is centred at
    /// (0, 1.3, −0.45), 0.08 m in front of the default palm, with `hand` as `viewer.hand` (nil:
    /// none given).
    private static func nearPalm(_ id: String, _ kind: EntityKind, hand: [ViewerKey]?, frames: Int) -> [Violation] {
        var fx = hand.map { RuleFixture(viewer: Viewer(hand: $0)) } ?? RuleFixture()
        fx.add(id, kind)
        let (_, v) = fx.run(frames: frames) { _, f in box(&f, 0, Vec3(0, 1.3, -0.45), half: 0.02) }
        return v.rule("target-hand-keepout")
    }
}
