import Foundation
import Testing
@testable import Rules

/// The aggregation of per-frame findings into violations keeps memory flat in the number of
/// frames: at most `Aggregate.maxStoredSpans` runs per violation, the runs in between counted.
@Suite struct FindingsAggregationTests {
    private func findings() -> Findings {
        let rules = Array(RuleCatalog.rules.prefix(1))
        return Findings(rules: rules, severityOverride: [nil], entityCount: 2)
    }

    /// A pair that violates on every other frame (frames 0, 2, 4, …): `frames / 2` runs of one frame.
    private func toggling(frames: Int) -> Aggregate? {
        var f = findings()
        for frame in stride(from: 0, to: frames, by: 2) {
            f.report(rule: 0, 0, 1, frame: frame, time: Double(frame) / 90, measured: 40, threshold: 60)
        }
        return f.aggregates.first
    }

    @Test func storedSpansDoNotGrowWithFrames() throws {
        let short = try #require(toggling(frames: 1_000))
        let long = try #require(toggling(frames: 100_000))
        // 500 and 50,000 runs; 100 stored in both.
        #expect(short.mergedSpans().count == 100)
        #expect(long.mergedSpans().count == 100)
        #expect(short.spans.count == long.spans.count)
        #expect(short.omittedSpans == 400)
        #expect(long.omittedSpans == 49_900)
        // Every frame is still counted, and the first and last frames are right.
        #expect(short.frameCount == 500)
        #expect(long.frameCount == 50_000)
        #expect(long.firstFrame == 0 && long.lastFrame == 99_998)
        // The first 99 runs and the latest.
        let spans = long.mergedSpans()
        #expect(spans[0] == [0, 0] && spans[1] == [2, 2] && spans[98] == [196, 196])
        #expect(spans[99] == [99_998, 99_998])
    }

    @Test func fewRunsAreAllKept() throws {
        var f = findings()
        for frame in [0, 1, 2, 10, 11, 20] {
            f.report(rule: 0, 0, 1, frame: frame, time: 0, measured: 40, threshold: 60)
        }
        let a = try #require(f.aggregates.first)
        #expect(a.mergedSpans() == [[0, 2], [10, 11], [20, 20]])
        #expect(a.omittedSpans == 0)
        #expect(a.frameCount == 6)
    }

    /// A dwell rule reports the frames before the crossing at once, then each frame, and at the end a
    /// whole run that overlaps what it reported: no frame is counted twice.
    @Test func overlappingRunsMergeExactly() throws {
        var f = findings()
        f.reportRun(rule: 0, 0, from: 5, fromTime: 0, to: 9, toTime: 0, measured: 1, worstFrame: 5, threshold: 2)
        for frame in 10...14 { f.report(rule: 0, 0, frame: frame, time: 0, measured: 1, threshold: 2) }
        f.reportRun(rule: 0, 0, from: 5, fromTime: 0, to: 20, toTime: 0, measured: 1, worstFrame: 5, threshold: 2)
        // A run reported late, before the others (a whole-scene finding at the end).
        f.reportRun(rule: 0, 0, from: 0, fromTime: 0, to: 2, toTime: 0, measured: 1, worstFrame: 0, threshold: 2)
        let a = try #require(f.aggregates.first)
        #expect(a.mergedSpans() == [[0, 2], [5, 20]])
        #expect(a.frameCount == 19)
        #expect(a.omittedSpans == 0)
    }

    @Test func listedAndOmittedRunsAddUpToAllRuns() throws {
        let a = try #require(toggling(frames: 1_000))
        #expect(a.mergedSpans().count + a.omittedSpans == 500)
        #expect(Violation.maxListedSpans == 100)
    }

    /// One run, however long, is stored inline: one stored span and no flat tail; a second run is
    /// stored after it.
    @Test func oneRunIsStoredInline() throws {
        var f = findings()
        for frame in 3...40 { f.report(rule: 0, 0, 1, frame: frame, time: 0, measured: 40, threshold: 60) }
        var a = try #require(f.aggregates.first)
        #expect(a.storedSpanCount == 1)
        #expect(a.spans == [3, 40])
        #expect(a.mergedSpans() == [[3, 40]])
        #expect(a.frameCount == 38)
        a.add(frame: 42, time: 0)
        a.add(frame: 43, time: 0)
        #expect(a.storedSpanCount == 2)
        #expect(a.spans == [3, 40, 42, 43])
        #expect(a.frameCount == 40)
        #expect(a.firstFrame == 3 && a.lastFrame == 43)
    }

    /// A run reported late merges with the inline first run and the ones after it: before it
    /// (a new first run), touching it (adjacent frames join), and across several.
    @Test func lateRunsMergeWithTheInlineRun() {
        var a = Aggregate()
        a.addSpan(10, 12)
        a.addSpan(0, 3)  // before the only run: becomes the first
        #expect(a.mergedSpans() == [[0, 3], [10, 12]])
        #expect(a.frameCount == 7)
        a.addSpan(20, 20)
        a.addSpan(4, 9)  // joins 0–3 and 10–12 (adjacent on both sides)
        #expect(a.mergedSpans() == [[0, 12], [20, 20]])
        #expect(a.frameCount == 14)
        a.addSpan(5, 25)  // overlaps everything from frame 5
        #expect(a.mergedSpans() == [[0, 25]])
        #expect(a.storedSpanCount == 1)
        #expect(a.frameCount == 26)
        #expect(a.omittedSpans == 0)
    }

    /// With the store full, a late run that joins the first three stored runs frees two places; the
    /// omitted runs stay counted. Runs at frames 0, 2, …, 998 (500): stored 0 … 196 and 998.
    @Test func lateRunIntoAFullStoreKeepsTheLatest() throws {
        var a = try #require(toggling(frames: 1_000))
        a.addSpan(0, 4)  // 0, 2 and 4 become one run of 5 frames
        let spans = a.mergedSpans()
        #expect(spans.count == 98)
        #expect(spans[0] == [0, 4] && spans[1] == [6, 6] && spans[96] == [196, 196])
        #expect(spans[97] == [998, 998])
        #expect(a.omittedSpans == 400)
        // 500 frames, plus the 5 of the late run (frames 0, 2 and 4 are counted again: with runs
        // omitted, the overlap cannot be told exactly; the count stays within first … last).
        #expect(a.frameCount == 505)
    }
}
