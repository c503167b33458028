import Testing
import SpatialModel
import Rules
@testable import Reporting

/// `foldViolations`: which violations form one group, in which order, and the group's summary line.
@Suite struct FoldingTests {
    static func v(_ rule: String, _ entities: [String], measured: Double, threshold: Double = 60, unit: String = "pt",
                  severity: Severity = .error, message: String? = nil, baseline: BaselineStatus? = nil) -> ReportViolation {
        let msg = message ?? "centres of \(entities.joined(separator: " and ")) are \(Int(measured)) pt apart; move them to at least \(Int(threshold)) pt apart"
        var r = ReportViolation(rule: rule, severity: severity, entities: entities, spans: [0...0], frameCount: 1, firstTime: 0,
                                lastTime: 0, measured: measured, threshold: threshold, unit: unit, worstFrame: 0, message: msg,
                                help: "https://x", fingerprint: entities.joined(separator: "+"), location: nil)
        r.baseline = baseline
        return r
    }

    @Test func pairsOfOneContainerFoldIntoOneGroup() {
        let vs = [
            Self.v("target-center-spacing", ["keypad/one", "keypad/two"], measured: 56),
            Self.v("target-center-spacing", ["keypad/two", "keypad/three"], measured: 52),
            Self.v("target-center-spacing", ["keypad/four", "keypad/one"], measured: 56),
        ]
        let groups = foldViolations(vs)
        #expect(groups.count == 1)
        #expect(groups.first?.container == "keypad")
        #expect(groups.first?.isFolded == true)
        #expect(groups.first?.members.map(\.fingerprint) == ["keypad/one+keypad/two", "keypad/two+keypad/three", "keypad/four+keypad/one"])
        // Measured 52 to 56 pt, one threshold.
        #expect(groups.first?.summary == "3 pairs in keypad measure 52.0–56.0 pt, threshold 60.0 pt")
        #expect(groups.first?.measuredRange == 52...56)
        #expect(groups.first?.thresholdRange == 60...60)
    }

    @Test func differentContainerRuleSeverityCauseOrBaselineSplit() {
        let vs = [
            Self.v("target-center-spacing", ["keypad/one", "keypad/two"], measured: 56),                 // A
            Self.v("target-center-spacing", ["toolbar/a", "toolbar/b"], measured: 56),                   // other container
            Self.v("target-min-size", ["keypad/one"], measured: 40, message: "keypad/one is 40 pt"),     // other rule
            Self.v("target-center-spacing", ["keypad/three", "keypad/four"], measured: 50, severity: .warning), // other severity
            Self.v("target-center-spacing", ["keypad/five", "keypad/six"], measured: 0,
                   message: "keypad/five and keypad/six overlap"),                                       // other cause
            Self.v("target-center-spacing", ["keypad/one", "keypad/three"], measured: 55, unit: "deg"),  // other sub-check unit
            Self.v("target-center-spacing", ["keypad/seven", "keypad/eight"], measured: 54, baseline: .new), // other baseline status
            Self.v("target-center-spacing", ["keypad/two", "keypad/three"], measured: 57),               // joins A
        ]
        let groups = foldViolations(vs)
        #expect(groups.map(\.count) == [2, 1, 1, 1, 1, 1, 1])
        // Groups in the order of their first member; A's members in report order.
        #expect(groups.first?.members.map(\.fingerprint) == ["keypad/one+keypad/two", "keypad/two+keypad/three"])
        #expect(groups.map(\.container) == ["keypad", "toolbar", "keypad", "keypad", "keypad", "keypad", "keypad"])
        #expect(groups[2].summary == "1 entity in keypad measures 40.0 pt, threshold 60.0 pt")
    }

    @Test func containerIsTheDeepestCommonAncestor() {
        #expect(foldContainer(["app/keypad/row1/seven", "app/keypad/row2/four"]) == "app/keypad")
        #expect(foldContainer(["app/keypad/seven"]) == "app/keypad")
        #expect(foldContainer(["seven", "eight"]) == "")
        #expect(foldContainer([]) == "")
        let wholeScene = foldViolations([
            Self.v("fov-window-clutter", [], measured: 4, threshold: 3, unit: "count", message: "4 windows open"),
            Self.v("fov-window-clutter", [], measured: 5, threshold: 3, unit: "count", message: "5 windows open"),
        ])
        #expect(wholeScene.map(\.summary) == ["2 findings in the scene measure 4.00–5.00 count, threshold 3.00 count"])
    }

    @Test func numbersAndEntityPathsLeaveTheCauseKey() {
        let a = Self.v("r", ["p/k1", "p/k2"], measured: 1, message: "centres of p/k1 and p/k2 are 56.5 pt apart, 1,200 frames")
        let b = Self.v("r", ["p/k10", "p/k3"], measured: 1, message: "centres of p/k10 and p/k3 are 7 pt apart, 3 frames")
        #expect(foldCause(a) == "pt||centres of ‹e› and ‹e› are # pt apart, # frames")
        #expect(foldCause(a) == foldCause(b))
    }

    @Test func thresholdRangeIsStated() {
        let groups = foldViolations([
            Self.v("type-min-size", ["doc/a"], measured: 10, threshold: 12, unit: "pt_eq", message: "text doc/a is 10 pt_eq"),
            Self.v("type-min-size", ["doc/b"], measured: 9, threshold: 17, unit: "pt_eq", message: "text doc/b is 9 pt_eq"),
        ])
        #expect(groups.map(\.summary) == ["2 entities in doc measure 9.00–10.0 pt_eq, threshold 12.0–17.0 pt_eq"])
    }
}
