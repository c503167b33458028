import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// `immersion-exit-affordance` and `immersion-transition-smooth`, end to end. Two seconds at
/// 90 Hz: an event at t = 0.5 s takes effect at frame 45; the last frame is 179.
@Suite struct RuleImmersionTransitionTests {
    /// A scene that enters `style` at t = 0.5 s (its event on line 11, or 16 with `exitInView`).
    private static func scene(start: String = "shared", style: String, transition: String? = nil,
                              range: String? = nil, extra: String = "") -> String {
        """
        format: spatialscene/1
        immersion: \(start)
        duration: 2
        entities:
          - id: forest
            kind: environment
            groundPlane: true
        \(range.map { "    range: \($0)" } ?? "")
        \(extra)
        events:
          - {t: 0.5, action: setImmersion, style: \(style), trigger: user\(transition.map { ", transition: \($0)" } ?? "")}
        """
    }

    private static let exitInView = """
          - id: controls
            kind: window
            placement: {distance: 1.5, azimuth: 0, elevation: -15}
            size: [200, 100]
            elements:
              - {id: done, role: exit, frame: [40, 20, 120, 60], label: Done}
        """

    // MARK: immersion-exit-affordance

    @Test func fullImmersionWithoutAnExitIsAWarning() throws {
        let v = try RuleScenes.check(Self.scene(style: "full")).filter { $0.rule == "immersion-exit-affordance" }
        #expect(v.count == 1)
        #expect(v.first?.entities == [])
        #expect(v.first?.severity == .warning)
        #expect(v.first?.spans == [45...179])
        #expect(v.first?.location?.line == 11)
        #expect(v.first?.message.contains("full immersion with no exit control") == true)
    }

    @Test func aVisibleExitPassesAndMixedIsNotJudged() throws {
        #expect(try RuleScenes.check(Self.scene(style: "progressive", extra: Self.exitInView))
            .filter { $0.rule == "immersion-exit-affordance" }.isEmpty)
        #expect(try RuleScenes.check(Self.scene(style: "mixed")).filter { $0.rule == "immersion-exit-affordance" }.isEmpty)
    }

    @Test func anExitNeverInViewIsInfo() throws {
        // The exit control is behind the viewer (azimuth 180°) for the whole immersive segment.
        let behind = Self.exitInView.replacingOccurrences(of: "azimuth: 0", with: "azimuth: 180")
        let v = try RuleScenes.check(Self.scene(style: "full", extra: behind)).filter { $0.rule == "immersion-exit-affordance" }
        #expect(v.map(\.entities) == [["controls/done"]])
        #expect(v.first?.severity == .info)
        #expect(v.first?.spans == [45...179])
        #expect(v.first?.message.contains("never in view") == true)
    }

    // MARK: immersion-transition-smooth

    @Test func aCutIntoFullImmersionIsAWarning() throws {
        let v = try RuleScenes.check(Self.scene(style: "full", transition: "0", extra: Self.exitInView))
            .filter { $0.rule == "immersion-transition-smooth" }
        #expect(v.count == 1)
        #expect(v.first?.measured == 0 && v.first?.threshold == 0.5 && v.first?.unit == "s")
        #expect(v.first?.spans == [45...45])
        #expect(v.first?.location?.line == 16)   // the event, after the 6 lines of the exit window
        #expect(v.first?.message.contains("from shared to full at t = 0.5 s as a hard cut") == true)
    }

    @Test func severalQuickChangesAreOneViolationNamingEachOfThem() throws {
        // shared → full as a cut at 0.5 s (line 11 with the exit window: 16), full → progressive in
        // 0.2 s at 1 s (line 17), and a third at 5 s, after the scene's 2 s end: not reached, not named.
        let text = Self.scene(style: "full", transition: "0", extra: Self.exitInView) + """

              - {t: 1, action: setImmersion, style: progressive, trigger: user, transition: 0.2}
              - {t: 5, action: setImmersion, style: full, trigger: user, transition: 0.1}
            """
        let v = try RuleScenes.check(text).filter { $0.rule == "immersion-transition-smooth" }
        #expect(v.count == 1)
        #expect(v.first?.measured == 0)          // the quickest, the cut
        #expect(v.first?.location?.line == 16)   // the first change's event
        let message = v.first?.message ?? ""
        #expect(message.contains("from shared to full at t = 0.5 s as a hard cut"), "\(message)")
        #expect(message.contains("2 changes are too quick, this is the quickest; the other: full to progressive at t = 1 s in 0.2 s, event at line 17, column 5"), "\(message)")
        #expect(!message.contains("t = 5"), "\(message)")
        #expect(message.hasSuffix("fade each over 0.5 s or more"), "\(message)")
    }

    @Test func onlyAStatedShortTransitionOfALargeChangeIsJudged() throws {
        func judged(_ s: String) throws -> [Double] {
            try RuleScenes.check(s).filter { $0.rule == "immersion-transition-smooth" }.map(\.measured)
        }
        #expect(try judged(Self.scene(style: "full", transition: "0.4", extra: Self.exitInView)) == [0.4])
        #expect(try judged(Self.scene(style: "full", transition: "0.5", extra: Self.exitInView)) == [])
        #expect(try judged(Self.scene(style: "full", extra: Self.exitInView)) == [])          // the system's own fade
        #expect(try judged(Self.scene(style: "mixed", transition: "0")) == [])                // no change of amount
        // Progressive shows at least 120° / 360° = 0.33 of the range by default: more than 0.25.
        #expect(try judged(Self.scene(style: "progressive", transition: "0", extra: Self.exitInView)) == [0])
        // With range [30, 360] it starts at 30° / 360° = 0.083: a small change.
        #expect(try judged(Self.scene(style: "progressive", transition: "0", range: "[30, 360]", extra: Self.exitInView)) == [])
        // Down from full to progressive (1 → 0.33) counts too.
        #expect(try judged(Self.scene(start: "full", style: "progressive", transition: "0.2", extra: Self.exitInView)) == [0.2])
    }

    @Test func transitionIsASetImmersionKey() throws {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: a, kind: window}
            events:
              - {t: 1, action: hide, entity: a, transition: 1}
              - {t: 2, action: setImmersion, style: full, transition: -1}
            """)
        #expect(errs.contains { $0.message.contains("'transition'") && $0.location?.line == 5 })
        #expect(errs.contains { $0.message.contains("'transition' of a setImmersion event") && $0.location?.line == 6 })
    }
}
