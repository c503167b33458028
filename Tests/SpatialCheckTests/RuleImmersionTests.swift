import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Tests of the immersion-* rules: who raises immersion, launch style, valid ranges.
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct RuleImmersionTests {
    @Test func systemTriggeredImmersionAndLaunchStyle() {
        var fx = RuleFixture(frameRate: 10, duration: 2)
        fx.scene.events = [SceneEvent(time: 1, action: .setImmersion(.full, trigger: .system), location: SourceLocation(line: 30, column: 5))]
        let vs = fx.run { i, f in f.immersion = i >= 10 ? .full : .shared }.1
        let v = vs.rule("immersion-user-initiated")
        #expect(v.first?.spans == [[10, 19]])
        #expect(v.first?.location == SourceLocation(line: 30, column: 5))
        #expect(vs.rule("immersion-launch-style").isEmpty)
    }

    @Test func invalidImmersionRange() {
        var fx = RuleFixture(immersion: .progressive, duration: 1.0 / 90)
        fx.add("forest", .environment) { e in e.immersionRange = [200, 120]; e.groundPlane = false }
        let vs = fx.run { _, f in f.boundaryOrigin = .zero }.1
        #expect(vs.rule("immersion-range-valid").first?.severity == .error)
        #expect(vs.rule("env-ground-plane").first?.entities == ["forest"])
    }
}
