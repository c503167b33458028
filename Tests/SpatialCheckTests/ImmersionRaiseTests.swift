import Foundation
import Testing
@testable import Rules
@testable import Simulation
import SpatialModel

/// `immersion-user-initiated` with several system raises (issue 14, item 7): one violation for the
/// scene, whose message names every raise with its time and its event's line and column.
@Suite struct ImmersionRaiseTests {
    /// Line numbers of the events below (1-based, as the loader reports them): the scene text is
    /// written here, so they are counted by hand: line 10 and line 11, column 5 (after "  - ").
    static func scene(_ first: String, _ second: String) -> String {
        header(duration: 4) + """
          - {t: 0.5, action: setImmersion, style: shared, trigger: user}
          - {t: 1, action: setImmersion, style: mixed, trigger: \(first)}
          - {t: 2.5, action: setImmersion, style: full, trigger: \(second)}
        """
    }

    /// One window, up to the `events:` line: the first event is on line 9.
    static func header(duration: Int) -> String {
        """
        format: spatialscene/1
        duration: \(duration)
        entities:
          - id: main
            kind: window
            placement: {distance: 2, azimuth: 0, elevation: 0}
            size: [800, 500]
        events:

        """
    }

    static func violations(_ text: String) throws -> [Violation] {
        let scene = try LoaderFixture.load(text)
        let engine = RuleEngine(scene: scene)
        Simulator(scene: scene).run { engine.consume($0) }
        return engine.finish().rule("immersion-user-initiated")
    }

    @Test func twoSystemRaisesAreOneViolationNamingBoth() throws {
        let vs = try Self.violations(Self.scene("system", "system"))
        #expect(vs.count == 1)
        let v = try #require(vs.first)
        // mixed from t = 1 s until the next change at 2.5 s: frames 90…224 at 90 Hz, 1.5 s;
        // full from 2.5 s to the end of the 4 s run: frames 225…359, 1.5 s.
        #expect(v.spans == [[90, 359]])
        #expect(v.message.contains("rises 2 times"))
        #expect(v.message.contains("to mixed at t = 1 s (event at line 10, column 5) for 1.5 s"), "\(v.message)")
        #expect(v.message.contains("to full at t = 2.5 s (event at line 11, column 5) for 1.5 s"), "\(v.message)")
        // The violation's own location is the first raise's event.
        #expect(v.location == SourceLocation(line: 10, column: 5))
        // Measured: the longest raise so far at a frame, each frame counting its whole interval
        // (t − start + 1/90 s): 359/90 − 2.5 + 1/90 = 1.5 s, as the message says.
        #expect(close(v.measured, 360.0 / 90 - 2.5, 1e-9))
    }

    @Test func oneSystemRaiseKeepsItsSingleMessage() throws {
        let vs = try Self.violations(Self.scene("user", "system"))
        #expect(vs.count == 1)
        let v = try #require(vs.first)
        #expect(v.spans == [[225, 359]])
        #expect(v.message.hasPrefix("immersion rises to full at t = 2.5 s from a system event"), "\(v.message)")
        // Frames 225…359 at 90 Hz: 135 frames, each its whole 1/90 s interval, 1.5 s (was "1.49 s").
        #expect(v.message.contains("stays raised for 1.5 s;"), "\(v.message)")
        #expect(close(v.measured, 1.5, 1e-9))
        #expect(v.location == SourceLocation(line: 11, column: 5))
    }

    /// Twelve system raises to full, each lowered by the user 0.4 s later: the message names the
    /// first ten (raise k at t = k + 0.5 s on line 9 + 2k) and counts the other two, so a scene of
    /// thousands of raises does not write a message of megabytes.
    @Test func manyRaisesAreCountedBeyondTheTenthNamed() throws {
        var text = Self.header(duration: 13)
        for k in 0..<12 {
            text += "  - {t: \(k).5, action: setImmersion, style: full, trigger: system}\n"
            text += "  - {t: \(k).9, action: setImmersion, style: shared, trigger: user}\n"
        }
        let v = try #require(try Self.violations(text).first)
        #expect(v.message.contains("rises 12 times"), "\(v.message)")
        #expect(v.message.contains("to full at t = 0.5 s (event at line 9, column 5)"), "\(v.message)")
        #expect(v.message.contains("to full at t = 9.5 s (event at line 27, column 5)"), "\(v.message)")
        #expect(!v.message.contains("t = 10.5 s"), "\(v.message)")
        #expect(v.message.contains("; and 2 more; enter deeper immersion"), "\(v.message)")
    }

    @Test func userRaisesPass() throws {
        #expect(try Self.violations(Self.scene("user", "user")).isEmpty)
    }
}
