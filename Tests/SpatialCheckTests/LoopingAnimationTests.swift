import Foundation
import Testing
@testable import Simulation
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Looping animations: the restart of a loop that ends away from where it starts is a pop, not
/// motion; a scene whose only motion loops is told when its default duration cuts the loop short.
@Suite struct LoopingAnimationTests {
    /// A puck 2 m ahead at eye height slides from x = −0.5 to +0.5 m in 2 s and starts again: at
    /// 10 Hz frame i is at x = −0.5 + 0.5 · (t mod 2), t = i / 10.
    static func puck(duration: String? = "duration: 4.5") -> String {
        """
        format: spatialscene/1
        frameRate: 10
        \(duration ?? "")
        entities:
          - id: puck
            kind: volume
            size: [0.1, 0.1, 0.1]
            position: [-0.5, 1.6, -2]
            animation:
              loop: true
              keyframes:
                - {t: 0, position: [-0.5, 1.6, -2]}
                - {t: 2, position: [0.5, 1.6, -2]}
        """
    }

    @Test func aLoopsRestartKeepsThePreviousFramesSpeed() throws {
        let scene = try LoaderFixture.load(Self.puck())
        var speeds: [Double] = [], linear: [Double] = []
        Simulator(scene: scene).run { f in speeds.append(f.angularVelocity[0]); linear.append(f.linearSpeed[0]) }
        #expect(speeds.count == 45)
        func x(_ i: Int) -> Double { -0.5 + 0.5 * (Double(i) / 10).truncatingRemainder(dividingBy: 2) }
        // Seen from the eye 2 m away, the angle between two frames' directions, per second.
        func omega(_ i: Int) -> Double { abs(atan2(x(i), 2) - atan2(x(i - 1), 2)) * 180 / .pi * 10 }
        for i in 1..<45 where i != 20 && i != 40 {
            #expect(abs(speeds[i] - omega(i)) < 1e-6, "frame \(i): \(speeds[i]) vs \(omega(i))")
            #expect(abs(linear[i] - 0.5) < 1e-9, "frame \(i)")
        }
        // Frames 20 and 40 start the loop again (x from 0.45 back to −0.5, 26.7° in 0.1 s, which
        // would read 267°/s): they keep frames 19's and 39's speeds, 13.70°/s and 0.5 m/s.
        #expect(abs(omega(19) - (atan2(0.45, 2) - atan2(0.4, 2)) * 180 / .pi * 10) < 1e-9)
        #expect(speeds[20] == speeds[19] && speeds[40] == speeds[39])
        #expect(linear[20] == linear[19] && linear[40] == linear[39])
        #expect(speeds.max() ?? 0 < 15)
        // So no motion rule sees a 267°/s flick.
        let v = try RuleScenes.check(Self.puck())
        #expect(v.filter { $0.rule.hasPrefix("motion-") }.isEmpty, "\(v.map(\.message))")
    }

    @Test func aLoopThatEndsWhereItStartsIsMotionAllTheWay() throws {
        // Out and back (−0.5 → 0.5 → −0.5 m in 2 s): no restart jump, every frame is measured.
        let text = Self.puck().replacingOccurrences(of: "- {t: 2, position: [0.5, 1.6, -2]}",
                                                     with: "- {t: 1, position: [0.5, 1.6, -2]}\n        - {t: 2, position: [-0.5, 1.6, -2]}")
        let scene = try LoaderFixture.load(text)
        var speeds: [Double] = []
        Simulator(scene: scene).run { f in speeds.append(f.angularVelocity[0]) }
        // Frame 20 (t = 2, x = −0.5) came from frame 19 (t = 1.9, x = −0.4): 0.1 m, not a pop.
        let expected = abs(atan2(-0.5, 2) - atan2(-0.4, 2)) * 180 / .pi * 10
        #expect(abs(speeds[20] - expected) < 1e-6, "\(speeds[20]) vs \(expected)")
    }

    @Test func aDefaultDurationThatCutsTheLoopShortIsNoted() throws {
        // No duration: the contract's default (no path, no non-looping animation, no event) is one
        // frame, 0.1 s at 10 Hz, shorter than one 2 s loop.
        let scene = try LoaderFixture.load(Self.puck(duration: nil))
        #expect(scene.duration == 0.1)
        let notes = scene.warnings.filter { $0.message.contains("loops an animation") }
        #expect(notes.count == 1)
        #expect(notes.first?.message == "'puck' loops an animation of 2 s, but without 'duration' the run ends after 1 frame (0.1 s), before one loop: its motion is not judged")
        #expect(notes.first?.hint == "set 'duration: 4' at the top level to simulate two loops")
        #expect(notes.first?.location?.line == 5)
        // A stated duration, even a short one, is the author's choice: no note.
        #expect(try LoaderFixture.load(Self.puck(duration: "duration: 1")).warnings.filter { $0.message.contains("loops") }.isEmpty)
    }
}
