import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// Tests of the env-* rules: environments and their ground plane.
/// Expected values are derived by hand from the geometry written out in each test.
@Suite struct RuleEnvironmentTests {
    @Test func aHiddenGroundedEnvironmentDoesNotExcuseAShownOne() throws {
        // Full immersion from t = 0.5 s (frame 45) in an environment without a floor; the grounded
        // one is never shown.
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 2
            entities:
              - {id: beach, kind: environment, groundPlane: true, visible: false}
              - {id: space, kind: environment, groundPlane: false}
            events:
              - {t: 0.5, action: setImmersion, style: full, trigger: user}
            """)
        let v = vs.filter { $0.rule == "env-ground-plane" }
        #expect(v.map(\.entities) == [["space"]])
        #expect(v.first?.spans == [45...179])
    }
}
