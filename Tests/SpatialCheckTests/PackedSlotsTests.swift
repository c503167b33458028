import Testing
@testable import Rules

/// `PackedSlots`, the findings table keyed by one packed integer, and `Findings` built on it.
@Suite struct PackedSlotsTests {
    @Test func packingIsOneToOneAndRangeChecked() throws {
        let t = PackedSlots(ruleCount: 3, entityCount: 10)
        // ((rule · 64 + variant) · 11 + a + 1) · 11 + b + 1
        #expect(t.pack(rule: 0, -1, -1, variant: 0) == 0)
        #expect(t.pack(rule: 1, 2, 5, variant: 0) == 7_783)   // (64·11 + 3)·11 + 6
        #expect(t.pack(rule: 2, 9, 9, variant: 63) == 23_231)   // ((2·64 + 63)·11 + 10)·11 + 10
        #expect(t.pack(rule: 3, 0, 0, variant: 0) == nil)
        #expect(t.pack(rule: 0, 10, 0, variant: 0) == nil)
        #expect(t.pack(rule: 0, 0, 0, variant: 64) == nil)
        #expect(t.pack(rule: 0, -2, 0, variant: 0) == nil)
    }

    @Test func insertAndFindThroughGrowth() {
        var t = PackedSlots(ruleCount: 1, entityCount: 1000)
        var keys: [UInt64] = []
        for a in 0..<300 { for b in stride(from: a + 1, to: 1000, by: 97) { keys.append(t.pack(rule: 0, a, b, variant: 0) ?? 0) } }
        var seenBefore = 0
        for (i, k) in keys.enumerated() { if t.find(k) != -1 { seenBefore += 1 }; t.insert(k, slot: i) }
        #expect(seenBefore == 0)
        var wrong = 0
        for (i, k) in keys.enumerated() where t.find(k) != i { wrong += 1 }
        #expect(wrong == 0)
        #expect(t.find(t.pack(rule: 0, 999, 999, variant: 5) ?? 0) == -1)
    }

    /// A pair reported in either order, a sub-check and a scene-level finding are four aggregates;
    /// an index past the entities falls back to the dictionary and still aggregates.
    @Test func findingsKeepKeysApart() throws {
        let rules = Array(RuleCatalog.rules.prefix(2))
        var f = Findings(rules: rules, severityOverride: [nil, nil], entityCount: 4)
        f.report(rule: 0, 1, 3, frame: 0, time: 0, measured: 1, threshold: 2)
        f.report(rule: 0, 3, 1, frame: 1, time: 0, measured: 1, threshold: 2)
        f.report(rule: 0, 1, 3, frame: 2, time: 0, measured: 1, threshold: 2, variant: 1)
        f.report(rule: 1, frame: 2, time: 0, measured: 1, threshold: 2)
        f.report(rule: 1, 7, 9, frame: 3, time: 0, measured: 1, threshold: 2)
        f.report(rule: 1, 9, 7, frame: 4, time: 0, measured: 1, threshold: 2)
        #expect(f.aggregates.count == 4)
        #expect(f.aggregate(for: FindingKey(rule: 0, 3, 1))?.mergedSpans() == [[0, 1]])
        #expect(f.aggregate(for: FindingKey(rule: 0, 1, 3, variant: 1))?.mergedSpans() == [[2, 2]])
        #expect(f.aggregate(for: FindingKey(rule: 1))?.mergedSpans() == [[2, 2]])
        #expect(f.aggregate(for: FindingKey(rule: 1, 7, 9))?.mergedSpans() == [[3, 4]])
        #expect(f.aggregate(for: FindingKey(rule: 1, 0, 1)) == nil)
    }
}
