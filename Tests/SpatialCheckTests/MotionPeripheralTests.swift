import Foundation
import Testing
@testable import Rules
@testable import Simulation
import SpatialModel

/// `motion-peripheral` judges only motion inside the display's field of view (issue 14, item 5).
@Suite struct MotionPeripheralTests {
    @Test func displayFieldOfViewIsADocumentedParameter() throws {
        let m = MotionPeripheral.metadata
        let w = try #require(m.parameter("displayWidth")), h = try #require(m.parameter("displayHeight"))
        // Wider than the 90° × 70° comfort field.
        #expect(w.defaultValue == 100 && h.defaultValue == 90)
        #expect(w.defaultValue > 90 && h.defaultValue > 70)
        if case .external = w.origin {} else { Issue.record("displayWidth should name its external source") }
        #expect(m.notes.contains { $0.contains("display's field of view") })
    }

    /// A model moving at 30°/s (above the 10°/s limit), 4° × 4° in size, seen at `azimuth` and
    /// `elevation` in the head frame (eccentricity set to match: above 30°).
    static func run(azimuth: Double, elevation: Double = 0) -> [Violation] {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("bird", .model)
        return fx.run { _, f in
            f.azimuth[0] = azimuth; f.elevation[0] = elevation
            // Angle off the line of sight of that direction: cos ecc = cos az · cos el.
            f.eccentricity[0] = degrees(acos(cos(radians(azimuth)) * cos(radians(elevation))))
            f.angularVelocity[0] = 30
        }.1.rule("motion-peripheral")
    }

    @Test func motionOutsideTheDisplayIsNotJudged() {
        // 87° off axis: its near edge at 87 − 2 = 85° is beyond the display's 50° half width.
        #expect(Self.run(azimuth: 87).isEmpty)
        #expect(Self.run(azimuth: -87).isEmpty)
        // 48° below: its upper edge at 46° is beyond the 45° half height.
        #expect(Self.run(azimuth: 0, elevation: -48).isEmpty)
    }

    @Test func motionInsideTheDisplayBeyondTheComfortFieldIsJudged() {
        // 51° right: its near edge at 49° is on the display (≤ 50°), though outside the 45° comfort field.
        let side = Self.run(azimuth: 51)
        #expect(side.map(\.entities) == [["bird"]])
        #expect(side.first?.measured == 30 && side.first?.threshold == 10)
        // 40° right and 44° below: eccentricity acos(cos 40° · cos 44°) = 56.6°, upper edge at 42° ≤ 45°.
        let low = Self.run(azimuth: 40, elevation: -44)
        #expect(low.map(\.entities) == [["bird"]])
    }
}
