import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Tests of the ar-* rules (iOS / iPadOS ARKit).
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct RuleARTests {
    @Test func arFrameRate() {
        let fx = RuleFixture(platform: .iOS, frameRate: 30, duration: 0.1)
        #expect(fx.run().1.rule("ar-frame-rate").first?.measured == 30)
    }
}
