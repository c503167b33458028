import Foundation
import Testing
@testable import Rules
@testable import Simulation
import SpatialModel

/// `env-arkit-requires-full-space`: hand-anchored content shown while the immersion style is
/// shared. Synthetic frames at 90 Hz; the style is set per frame.
@Suite struct RuleFullSpaceTests {
    @Test func handAnchoredContentInTheSharedSpaceIsAnError() {
        var fx = RuleFixture(duration: 0.1)
        let compass = fx.add("compass", .model) { $0.anchor = .hand }          // 0: root of a hand subtree
        fx.add("needle", .model, parent: compass) { $0.anchor = .hand }     // 1: inside it: not reported again
        fx.add("card", .window)                                               // 2: world content: clean
        // Frames 0–3 shared, 4–8 mixed (a Full Space).
        let (_, v) = fx.run(frames: 9) { i, f in f.immersion = i < 4 ? .shared : .mixed }
        let r = v.rule("env-arkit-requires-full-space")
        #expect(r.map(\.entities) == [["compass"]])
        #expect(r.first?.severity == .error)
        #expect(r.first?.spans == [[0, 3]])
        #expect(r.first?.measured == 1 && r.first?.threshold == 0)
        #expect(r.first?.message.contains("Shared Space") == true)
    }

    @Test func hiddenOrFullSpaceContentIsClean() {
        var fx = RuleFixture(duration: 0.1)
        fx.add("compass", .model) { $0.anchor = .hand }
        let (_, hidden) = fx.run(frames: 3) { _, f in f.visible[0] = false }
        #expect(hidden.rule("env-arkit-requires-full-space").isEmpty)
        let (_, full) = fx.run(frames: 3) { _, f in f.immersion = .full }
        #expect(full.rule("env-arkit-requires-full-space").isEmpty)
    }
}
