import Foundation
import Testing
@testable import SceneLoader
@testable import Rules
import SpatialModel

/// The accepted point sizes (docs/scene-format.md, "Points"; docs/security.md §2.2): a point angle
/// of at least 0.0005° and below 1° (visionOS 0.0671°, iPhone/iPad 0.05–0.1°), a fixed point size of
/// 0.00001–0.1 m (default 1.17 mm), in the scene, an override, the configuration and an iOS device.
@Suite struct UnitsRangeTests {
    static let angleHint = "visionOS's point is 0.0671° (the default); an iPhone's or iPad's camera view is about 0.05–0.1°; remove 'pointAngle' for visionOS, or give the iOS 'device'"

    @Test(arguments: [("5e-324", "5e-324"), ("1e-300", "1e-300"), ("0.0004999", "0.0004999"), ("1", "1"), ("-0.0671", "-0.0671")])
    func pointAnglesOutsideTheRangeAreAnErrorAtTheirLine(value: String, shown: String) {
        let errs = LoaderFixture.errors("format: spatialscene/1\nunits: {pointAngle: \(value)}\n")
        #expect(errs.map(\.message) == ["'units.pointAngle' must be at least 0.0005 and less than 1 degree per point, found \(shown)"])
        #expect(errs.first?.location == SourceLocation(line: 2, column: 21))
        #expect(errs.first?.hint == Self.angleHint)
    }

    @Test(arguments: ["5e-324", "1e-300", "0.0000099", "0.2"])
    func fixedPointSizesOutsideTheRangeAreAnErrorAtTheirLine(value: String) {
        let errs = LoaderFixture.errors("format: spatialscene/1\nunits:\n  fixedPointSize: \(value)\n")
        #expect(errs.map(\.message) == ["'units.fixedPointSize' must be between 0.00001 and 0.1 metres per point, found \(Reader.format(Double(value) ?? 0))"])
        #expect(errs.first?.location?.line == 3)
        #expect(errs.first?.hint == "the default is one point at 1 m, 0.00117 m at visionOS's 0.0671°: remove 'fixedPointSize' to use it")
    }

    @Test func theBoundsThemselvesLoad() throws {
        for units in ["{pointAngle: 0.0005}", "{pointAngle: 0.9999}", "{fixedPointSize: 0.00001}", "{fixedPointSize: 0.1}"] {
            let s = try LoaderFixture.load("format: spatialscene/1\nunits: \(units)\n")
            #expect(s.units.pointAngle >= 0.0005, "\(units)")
        }
    }

    @Test func anOverrideOutsideTheRangeIsAnError() {
        do {
            _ = try LoaderFixture.load("format: spatialscene/1\n", options: LoadOptions(pointAngle: 1e-300))
            Issue.record("expected failure")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["the pointAngle override must be at least 0.0005 and less than 1 degree per point, found 1e-300"])
            #expect(error.diagnostics.first?.location == nil)
        }
    }

    @Test func aDevicePointAngleOutsideTheRangeIsAnErrorAtItsFieldOfView() {
        // A 4000 × 3000 pt screen in portrait is 3000 pt wide; 0.1° across it:
        // atan(2·tan(0.05°) / 3000) = 0.00174533 / 3000 rad = 3.33e-5° per point.
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            platform: iOS
            device:
              screen: [4000, 3000]
              fieldOfView: 0.1
            """)
        #expect(errs.map(\.message) == ["the point angle of 'device' (3000 pt wide, a 0.1° field of view) is 3.33e-05°; it must be at least 0.0005 and less than 1 degree per point"])
        #expect(errs.first?.location?.line == 5)
    }

    @Test func theConfigurationsPointAngleHasTheSameRange() {
        do {
            _ = try RuleConfiguration.parse("units: {pointAngle: 1e-300}\n", file: ".spatialcheck.yaml")
            Issue.record("expected an error")
        } catch let f as LoadFailure {
            #expect(f.diagnostics.map(\.message) == ["units.pointAngle must be at least 0.0005 and less than 1 degree per point, found 1e-300"])
            #expect(f.diagnostics.first?.location?.line == 1)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect((try? RuleConfiguration.parse("units: {pointAngle: 0.0005}\n"))?.pointAngle == 0.0005)
    }
}
