import Foundation
import Testing
@testable import SpatialCheck
import SpatialModel

/// `bench --repeat N` (median and spread) and `--baseline FILE --max-regression P%` (the CI gate),
/// on synthetic numbers: no timing is measured or asserted.
@Suite struct BenchBaselineTests {
    /// A result whose runs took `runs` ns per entity-frame (1,000 entity-frames each).
    private func result(runs: [Double]) -> SpatialCheck.BenchResult {
        var r = SpatialCheck.BenchResult(
            path: "s.scene.yaml", entities: 100, nodes: 100, animations: 0, frames: 10, frameRate: 90,
            loadNanoseconds: 0, animation: 0, transforms: 0, quantities: 0, rules: 0, aggregation: 0,
            total: UInt64(runs.first ?? 0) * 1_000, violations: 0, peakRSSAfterLoad: 1, peakRSS: 1)
        r.runs = runs
        return r
    }

    @Test func medianAndSpread() {
        let odd = result(runs: [300, 100, 200]).spread
        #expect(odd.median == 200 && odd.min == 100 && odd.max == 300)
        #expect(odd.percent == 100)  // (300 − 100) / 200
        // An even count takes the lower middle run, a run that happened.
        let even = result(runs: [400, 100, 300, 200]).spread
        #expect(even.median == 200 && even.percent == 150)
        // One run: itself, no spread.
        let one = result(runs: [250]).spread
        #expect(one.median == 250 && one.percent == 0)
    }

    @Test func gateAllowsUpToTheRegression() {
        let base = SpatialCheck.BenchBaseline(path: "b.json", scene: "s", entities: 100, nanosecondsPerEntityFrame: 200)
        // Median 220 against 200: +10 %.
        let g = SpatialCheck.gate(result(runs: [230, 220, 210]), baseline: base, maxRegressionPercent: 10)
        #expect(g.current == 220 && g.baseline == 200)
        #expect(abs(g.changePercent - 10) < 1e-9)
        #expect(!g.regressed)
        #expect(SpatialCheck.gate(result(runs: [221]), baseline: base, maxRegressionPercent: 10).regressed)
        // Faster is never a regression, even with 0 % allowed.
        let faster = SpatialCheck.gate(result(runs: [150]), baseline: base, maxRegressionPercent: 0)
        #expect(faster.changePercent == -25 && !faster.regressed)
        #expect(SpatialCheck.gate(result(runs: [201]), baseline: base, maxRegressionPercent: 0).regressed)
        #expect(SpatialCheck.gate(result(runs: [221]), baseline: base, maxRegressionPercent: 10).summary.contains("REGRESSION"))
    }

    /// A run whose own spread is wider than the change allowed cannot tell a regression from
    /// noise, and says so (session 19's trial: an unchanged binary read +30 % on a shared runner).
    @Test func aSpreadWiderThanTheAllowedChangeIsInconclusive() {
        let base = SpatialCheck.BenchBaseline(path: "b.json", scene: "s", entities: 100, nanosecondsPerEntityFrame: 200)
        // Runs 200, 260, 300: median 260 (+30 %), spread (300 − 200) / 260 = 38.5 %.
        let noisy = SpatialCheck.gate(result(runs: [300, 200, 260]), baseline: base, maxRegressionPercent: 10)
        #expect(noisy.regressed && noisy.inconclusive)
        #expect(abs((noisy.spreadPercent ?? 0) - 100.0 * 100 / 260) < 1e-9)
        #expect(noisy.summary.contains("— REGRESSION over the allowed +10 %; but this run's own spread, 38.5 %, is larger than the +10 % allowed"))
        // Runs 219, 220, 221 (spread 0.9 %): a clear verdict, whichever way.
        let steady = SpatialCheck.gate(result(runs: [219, 220, 221]), baseline: base, maxRegressionPercent: 5)
        #expect(steady.regressed && !steady.inconclusive && !steady.summary.contains("spread"))
        // Fewer than 3 runs: no spread to judge by.
        #expect(SpatialCheck.gate(result(runs: [300, 200]), baseline: base, maxRegressionPercent: 10).spreadPercent == nil)
        #expect(SpatialCheck.renderBench(result(runs: [300, 200, 260]), format: .json, gate: noisy).contains("\"inconclusive\": true"))
        // The advice fits the clock in use: CPU time is already the steadier one (s21 trial F4c).
        #expect(noisy.summary.hasSuffix("use --clock cpu, more --repeat runs, or a --max-regression above the spread"))
        let cpu = SpatialCheck.BenchGate(baseline: 200, current: 260, maxRegressionPercent: 10, clock: .cpu, spreadPercent: 38.5)
        #expect(cpu.inconclusive && !cpu.summary.contains("--clock cpu"))
        #expect(cpu.summary.hasSuffix("use more --repeat runs, a runner with less else running, or a --max-regression above the spread"))
    }

    @Test func percentages() {
        #expect(SpatialCheck.parsePercent("10") == 10)
        #expect(SpatialCheck.parsePercent("10%") == 10)
        #expect(SpatialCheck.parsePercent(" 2.5 % ") == 2.5)
        #expect(SpatialCheck.parsePercent("0") == 0)
        #expect(SpatialCheck.parsePercent("-5") == nil)
        #expect(SpatialCheck.parsePercent("ten") == nil)
        #expect(SpatialCheck.parsePercent("inf") == nil)
    }

    @Test func baselineIsABenchResultAndRoundTrips() throws {
        let r = result(runs: [300, 100, 200])
        let json = SpatialCheck.renderBench(r, format: .json)
        let back = try SpatialCheck.BenchBaseline.parse(Data(json.utf8), path: "b.json")
        // The saved value is the median of the runs.
        #expect(back.nanosecondsPerEntityFrame == 200)
        #expect(back.entities == 100 && back.scene == "s.scene.yaml")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let rep = try #require(obj["repeat"] as? [String: Any])
        #expect((rep["runs"] as? NSNumber)?.intValue == 3)
        #expect((rep["medianNanosecondsPerEntityFrame"] as? NSNumber)?.doubleValue == 200)
        #expect(throws: Diagnostic.self) { try SpatialCheck.BenchBaseline.parse(Data("{}".utf8), path: "b.json") }
        #expect(throws: Diagnostic.self) {
            try SpatialCheck.BenchBaseline.parse(Data(#"{"format": "spatialcheck-bench/1", "nanosecondsPerEntityFrame": 0}"#.utf8), path: "b.json")
        }
    }

    @Test func gateAppearsInBothFormats() {
        let base = SpatialCheck.BenchBaseline(path: "b.json", scene: "s", entities: 100, nanosecondsPerEntityFrame: 100)
        let r = result(runs: [150, 140, 160])
        let g = SpatialCheck.gate(r, baseline: base, maxRegressionPercent: 20)
        #expect(g.regressed)  // +50 %
        #expect(SpatialCheck.renderBench(r, format: .text, gate: g).contains("+50.0 % — REGRESSION over the allowed +20 %"))
        #expect(SpatialCheck.renderBench(r, format: .text, gate: g).contains("repeat       3 runs: median 150.00"))
        #expect(SpatialCheck.renderBench(r, format: .json, gate: g).contains(#""regressed": true"#))
    }

    /// `--clock cpu`: the gate compares the median of the runs' CPU time, read from the baseline's
    /// `medianCpuNanosecondsPerEntityFrame`; a baseline without CPU time is refused for it.
    @Test func cpuClockGatesOnCPUTime() throws {
        var r = result(runs: [300, 100, 200])
        r.cpuRuns = [120, 90, 60]
        r.cpu = 90_000  // the median run's CPU time: 90 ns × 1,000 entity-frames
        let json = SpatialCheck.renderBench(r, format: .json)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((obj["cpuNanosecondsPerEntityFrame"] as? NSNumber)?.doubleValue == 90)
        #expect((obj["cpuSeconds"] as? NSNumber)?.doubleValue == 0.00009)
        let back = try SpatialCheck.BenchBaseline.parse(Data(json.utf8), path: "b.json", clock: .cpu)
        #expect(back.nanosecondsPerEntityFrame == 90)  // the CPU median, not the wall median 200
        var now = result(runs: [150])
        now.cpuRuns = [99]
        let g = SpatialCheck.gate(now, baseline: back, maxRegressionPercent: 10, clock: .cpu)
        #expect(g.current == 99 && abs(g.changePercent - 10) < 1e-9 && !g.regressed)
        now.cpuRuns = [100]
        #expect(SpatialCheck.gate(now, baseline: back, maxRegressionPercent: 10, clock: .cpu).regressed)
        #expect(SpatialCheck.renderBench(now, format: .text, gate: g).contains("99.00 ns of CPU per entity-frame against the baseline's 90.00"))
        #expect(SpatialCheck.renderBench(now, format: .json, gate: g).contains(#""clock": "cpu""#))
        // A result without CPU time (older versions) is refused for the CPU clock, read for the wall.
        let old = #"{"format": "spatialcheck-bench/1", "nanosecondsPerEntityFrame": 200}"#
        #expect(throws: Diagnostic.self) { try SpatialCheck.BenchBaseline.parse(Data(old.utf8), path: "b.json", clock: .cpu) }
        #expect(try SpatialCheck.BenchBaseline.parse(Data(old.utf8), path: "b.json").nanosecondsPerEntityFrame == 200)
    }

    /// s27 F7: a baseline of another scene or another --frames is refused, naming both; one of the
    /// same scene written from another folder still matches; another entity count is a warning.
    @Test func aBaselineOfAnotherSceneOrLengthIsRefused() throws {
        let json = SpatialCheck.renderBench(result(runs: [200]), format: .json)
            .replacingOccurrences(of: #""scene": "s.scene.yaml""#, with: #""scene": "apps/dataviz/scenes/dataviz.scene.yaml""#)
        let b = try SpatialCheck.BenchBaseline.parse(Data(json.utf8), path: "perf-dataviz.json")
        #expect(b.frames == 10 && !b.stoppedEarly && b.entities == 100)
        let other = try #require(b.mismatch(scene: "apps/dataviz/scenes/scatter.scene.yaml",
                                            reportPath: "apps/dataviz/scenes/scatter.scene.yaml", frames: 10))
        #expect(other.description == "perf-dataviz.json: error: is a bench result of apps/dataviz/scenes/dataviz.scene.yaml, not of apps/dataviz/scenes/scatter.scene.yaml: a time per entity-frame of another scene gates nothing\n    hint: pass this scene's own baseline, or write one with `spatialcheck bench apps/dataviz/scenes/scatter.scene.yaml --frames 10 --repeat 5 --format json --output perf-scatter.json`")
        let frames = try #require(b.mismatch(scene: "apps/dataviz/scenes/dataviz.scene.yaml",
                                             reportPath: "apps/dataviz/scenes/dataviz.scene.yaml", frames: 300))
        #expect(frames.message == "is a bench result over 10 frames, and this run asks for 300 (--frames): times per entity-frame over different lengths are not comparable")
        #expect(frames.hint == "run with --frames 10, as the baseline was, or write a new baseline with `spatialcheck bench apps/dataviz/scenes/dataviz.scene.yaml --frames 300 --repeat 5 --format json --output perf-dataviz.json`")
        // The same scene: as given, relative to its root, or from a folder below (a path suffix).
        #expect(b.mismatch(scene: "apps/dataviz/scenes/dataviz.scene.yaml", reportPath: "apps/dataviz/scenes/dataviz.scene.yaml", frames: 10) == nil)
        #expect(b.mismatch(scene: "scenes/dataviz.scene.yaml", reportPath: "scenes/dataviz.scene.yaml", frames: 10) == nil)
        #expect(b.mismatch(scene: "/elsewhere/x/dataviz.scene.yaml", reportPath: "x/dataviz.scene.yaml", frames: 10) != nil)
        // A baseline that stopped early ran fewer frames than asked: its length is not compared.
        var stopped = b
        stopped.stoppedEarly = true
        #expect(stopped.mismatch(scene: "apps/dataviz/scenes/dataviz.scene.yaml", reportPath: "x", frames: 300) == nil)
        // Another entity count: compared, with a warning.
        var grown = result(runs: [200])
        grown.entities = 28
        #expect(b.entityWarning(result(runs: [200])) == nil)
        #expect(b.entityWarning(grown)?.description == "perf-dataviz.json: warning: was written for 100 entities of apps/dataviz/scenes/dataviz.scene.yaml, and the scene now has 28: the times are compared per entity-frame, but a changed scene can be faster or slower for other reasons\n    hint: write the baseline again in the change that edits the scene")
    }

    /// s27 F7: a validate report passed as a bench baseline is named as one, and the hint suggests a
    /// new file beside it, never overwriting the validate baseline.
    @Test func aValidateReportAsBenchBaselineSuggestsANewName() {
        let report = #"{"format": "spatialcheck-report/1", "scenes": []}"#
        #expect(throws: Diagnostic(file: "apps/spatialcheck-baseline.json",
                                   message: "not a spatialcheck bench result (format spatialcheck-bench/1): it is a validate report (spatialcheck-report/1), such as a validate --baseline",
                                   hint: "keep it for validate, and write one under a new name with `spatialcheck bench SCENE --repeat 5 --format json --output apps/perf-baseline.json`")) {
            try SpatialCheck.BenchBaseline.parse(Data(report.utf8), path: "apps/spatialcheck-baseline.json")
        }
        #expect(throws: Diagnostic(file: "perf-baseline.json", message: "not a spatialcheck bench result (format spatialcheck-bench/1)",
                                   hint: "write one under a new name with `spatialcheck bench SCENE --repeat 5 --format json --output perf-bench.json`")) {
            try SpatialCheck.BenchBaseline.parse(Data("[]".utf8), path: "perf-baseline.json")
        }
    }
}
