import Testing
@testable import Simulation
@testable import Rules
import SpatialModel

/// Regression tests for the rule fixes found with the scene corpus (expectations derived by hand).
@Suite struct RuleFindingFixesTests {
    // MARK: Fix 1: a finding carries its own unit

    /// A window with two 2D buttons 70 pt apart (edge gap 6 pt) and an interactive 3D model that the
    /// fixture puts at the same direction as everything else: the button pair is compared in the
    /// window's pt, every pair with the model in angle (pt_eq), and the model's own size is pt_eq.
    @Test func pairsAcrossContainersAndModelsReportPtEq() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("a", in: w, frame: RectPt(x: 0, y: 0, width: 64, height: 64))
        fx.button("b", in: w, frame: RectPt(x: 70, y: 0, width: 64, height: 64))
        let fox = fx.add("fox", .model) { e in e.interactive = true }
        let vs = fx.run { _, f in f.ptEq[fox] = 40 }.1

        let inWindow = vs.rule("target-large-hover-padding").first { $0.entities == ["player/a", "player/b"] }
        #expect(inWindow?.unit == "pt")
        #expect(inWindow?.measured == 6)
        #expect(inWindow?.message.contains("6 pt apart") == true)

        // Same direction: centres 0 pt_eq apart, edges overlapping.
        let spacing = vs.rule("target-center-spacing").first { $0.entities == ["fox", "player/a"] }
        #expect(spacing?.unit == "pt_eq")
        #expect(spacing?.measured == 0)
        #expect(spacing?.message.contains("0 pt_eq apart") == true)
        #expect(spacing?.message.contains(" pt ") == false)

        let size = vs.rule("target-hit-region-visionos").first { $0.entities == ["fox"] }
        #expect(size?.unit == "pt_eq")
        #expect(size?.measured == 40)
        #expect(size?.message == "fox is 40 pt_eq at its smaller side; make its hit region at least 60×60 pt_eq")
        // The 2D buttons keep pt.
        #expect(vs.rule("target-hit-region-visionos").allSatisfy { $0.entities == ["fox"] })
    }

    /// Overlap across containers (same depth): pt_eq, with the overlap in angle.
    @Test func overlapAcrossContainersIsPtEq() {
        var fx = RuleFixture(duration: 2.0 / 90)
        fx.add("left", .model) { e in e.interactive = true }
        fx.add("right", .model) { e in e.interactive = true }
        let vs = fx.run { _, f in
            // 4° wide each, centres 2° apart: 2° of overlap = 2 / 0.0671 pt_eq.
            f.azimuth[0] = -1; f.azimuth[1] = 1
        }.1.rule("target-no-overlap")
        #expect(vs.count == 1)
        #expect(vs.first?.unit == "pt_eq")
        #expect(abs((vs.first?.measured ?? 0) - 2 / 0.0671) < 1e-6)
    }
}
