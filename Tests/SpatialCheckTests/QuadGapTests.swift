import Foundation
import Testing
@testable import Rules
import Simulation
import SpatialModel

/// `quadGap`, the gap and overlap depth of two image parallelograms (the outline test of tilted
/// targets): hand-derived cases, bit-for-bit agreement with the straightforward form (every corner
/// against every side, one square root each, corners in arrays) on random quads, and the shortcut
/// for disjoint quads whose gap no threshold needs.
@Suite struct QuadGapTests {
    /// The straightforward form: corners in arrays, the distance of every corner to every side of
    /// the other quad with its own square root, the smallest kept.
    static func reference(_ a: ImageQuad, _ b: ImageQuad) -> (gap: Double, overlap: Double) {
        let d = b.center - a.center
        var separated = false
        var penetration = Double.infinity
        func reach(_ n: SIMD2<Double>, _ q: ImageQuad) -> Double {
            abs(n.x * q.u.x + n.y * q.u.y) + abs(n.x * q.v.x + n.y * q.v.y)
        }
        for side in [a.u, a.v, b.u, b.v] {
            let l = (side.x * side.x + side.y * side.y).squareRoot()
            guard l > 0, l.isFinite else { continue }
            let n = SIMD2(-side.y / l, side.x / l)
            let sep = abs(n.x * d.x + n.y * d.y) - reach(n, a) - reach(n, b)
            if sep > 0 { separated = true } else { penetration = min(penetration, -sep) }
        }
        if !separated { return (0, penetration.isFinite ? penetration : 0) }
        func pointSegment(_ p: SIMD2<Double>, _ s0: SIMD2<Double>, _ s1: SIMD2<Double>) -> Double {
            let e = s1 - s0, w = p - s0
            let ee = e.x * e.x + e.y * e.y
            let t = ee > 0 ? min(1, max(0, (w.x * e.x + w.y * e.y) / ee)) : 0
            let c = w - t * e
            return (c.x * c.x + c.y * c.y).squareRoot()
        }
        let ca = a.corners, cb = b.corners
        var best = Double.infinity
        for i in 0..<4 {
            for j in 0..<4 {
                best = min(best, pointSegment(ca[i], cb[j], cb[(j + 1) % 4]), pointSegment(cb[i], ca[j], ca[(j + 1) % 4]))
            }
        }
        return (best.isFinite ? best : 0, 0)
    }

    /// Random quads from a fixed linear congruential generator: upright and tilted, long and thin,
    /// degenerate (a side of length 0, a point), overlapping, touching and far apart.
    static func randomQuads(count: Int) -> [(ImageQuad, ImageQuad)] {
        var state: UInt64 = 987_654_321
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        func vector(_ scale: Double) -> SIMD2<Double> {
            switch Int(next() * 8) {
            case 0: return .zero
            case 1: return SIMD2((next() - 0.5) * scale, 0)
            case 2: return SIMD2(0, (next() - 0.5) * scale)
            case 3: return SIMD2((next() - 0.5) * 1e-9, (next() - 0.5) * scale)
            default: return SIMD2((next() - 0.5) * scale, (next() - 0.5) * scale)
            }
        }
        return (0..<count).map { _ in
            let spread = [0.5, 3, 20][Int(next() * 3)]
            let a = ImageQuad(center: SIMD2((next() - 0.5) * spread, (next() - 0.5) * spread), u: vector(4), v: vector(4))
            let b = ImageQuad(center: SIMD2((next() - 0.5) * spread, (next() - 0.5) * spread), u: vector(4), v: vector(4))
            return (a, b)
        }
    }

    @Test func handDerivedGapsAndOverlaps() {
        let square = ImageQuad(center: SIMD2(0, 0), u: SIMD2(1, 0), v: SIMD2(0, 1))   // [-1, 1]²
        // The same square 3 to the right: its left side is 1 from the first one's right side.
        let right = quadGap(square, ImageQuad(center: SIMD2(3, 0.5), u: SIMD2(1, 0), v: SIMD2(0, 1)))
        #expect(right.gap == 1 && right.overlap == 0)
        // A diamond with corners (2, 0), (3, 1), (4, 0), (3, -1): its left corner is 1 from x = 1.
        let diamond = quadGap(square, ImageQuad(center: SIMD2(3, 0), u: SIMD2(0.5, 0.5), v: SIMD2(0.5, -0.5)))
        #expect(diamond.gap == 1 && diamond.overlap == 0)
        // Diagonally apart: corners (1, 1) and (2, 2), √2 apart.
        let corner = quadGap(square, ImageQuad(center: SIMD2(3, 3), u: SIMD2(1, 0), v: SIMD2(0, 1)))
        #expect(abs(corner.gap - 2.0.squareRoot()) < 1e-15 && corner.overlap == 0)
        // Overlapping by 0.5 across x (and 2 across y): depth 0.5.
        let overlap = quadGap(square, ImageQuad(center: SIMD2(1.5, 0), u: SIMD2(1, 0), v: SIMD2(0, 1)))
        #expect(overlap.gap == 0 && overlap.overlap == 0.5)
    }

    @Test func sameBitsAsTheStraightforwardForm() {
        var disjoint = 0, overlapping = 0, wrong = 0
        for (a, b) in Self.randomQuads(count: 20_000) {
            let fast = quadGap(a, b), slow = Self.reference(a, b)
            if fast.gap.bitPattern != slow.gap.bitPattern || fast.overlap.bitPattern != slow.overlap.bitPattern { wrong += 1 }
            if slow.gap > 0 { disjoint += 1 } else { overlapping += 1 }
        }
        #expect(wrong == 0)
        // Both branches are exercised.
        #expect(disjoint > 5_000 && overlapping > 2_000)
    }

    /// With a threshold, disjoint quads farther apart than it come back with an infinite gap; every
    /// other result is the exact one.
    @Test func theShortcutOnlyDropsGapsAboveTheThreshold() {
        var skipped = 0, exact = 0, wrong = 0
        for (k, (a, b)) in Self.randomQuads(count: 20_000).enumerated() {
            let threshold = [0, 0.25, 1, 3][k % 4]
            let got = quadGap(a, b, gapNeededBelow: threshold), slow = Self.reference(a, b)
            if got.gap == .infinity {
                skipped += 1
                if !(slow.gap > threshold && got.overlap == 0 && slow.overlap == 0) { wrong += 1 }
            } else {
                exact += 1
                if got.gap.bitPattern != slow.gap.bitPattern || got.overlap.bitPattern != slow.overlap.bitPattern { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(skipped > 2_000 && exact > 2_000)
        // Two diamonds with vertices (±2, 0), (0, ±2) and (50 ± 2, 0), (50, ±2): 46 apart. Their
        // sides' normals (±1, ±1)/√2 separate them by 50/√2 − 2√2 = 32.527 (the bound the shortcut
        // uses). Without a threshold (the default) or with NaN nothing is skipped.
        let far = (ImageQuad(center: .zero, u: SIMD2(1, 1), v: SIMD2(1, -1)), ImageQuad(center: SIMD2(50, 0), u: SIMD2(1, 1), v: SIMD2(-1, 1)))
        #expect(abs(Self.reference(far.0, far.1).gap - 46) < 1e-12)
        #expect(quadGap(far.0, far.1).gap == Self.reference(far.0, far.1).gap)
        #expect(quadGap(far.0, far.1, gapNeededBelow: .nan).gap == Self.reference(far.0, far.1).gap)
        #expect(quadGap(far.0, far.1, gapNeededBelow: 32.5).gap == .infinity)
        // A threshold above the separating side's bound (but below the gap): computed exactly.
        #expect(quadGap(far.0, far.1, gapNeededBelow: 32.53).gap == Self.reference(far.0, far.1).gap)
    }

    /// `quadGapIsBelow`, the verdict alone, against the verdict of `quadGap`'s gap on random quad
    /// pairs: every limit (around the gaps drawn, exactly at one, none, negative, infinite), scale
    /// and needed gap; both the early verdict (the corners nearest each other) and the full search
    /// are reached.
    @Test func theVerdictAloneIsQuadGapsVerdict() {
        var wrong = 0, below = 0, above = 0, skipped = 0
        for (k, (a, b)) in Self.randomQuads(count: 20_000).enumerated() {
            let scale = [1, 0.0671, 3][k % 3]
            let exact = quadGap(a, b).gap
            // A limit just below, at and just above the gap in the scaled unit, and others.
            let limit = [exact / scale, (exact / scale).nextDown, (exact / scale).nextUp, 0, -1, .infinity, 0.25, 2][k % 8]
            let needed = [Double.infinity, 0, limit * scale, 1][(k / 8) % 4]
            let got = quadGapIsBelow(a, b, gapNeededBelow: needed, scale: scale, limit: limit)
            let g = quadGap(a, b, gapNeededBelow: needed).gap
            if got.below != (g / scale < limit) || got.skipped != (g == .infinity) { wrong += 1 }
            if got.below { below += 1 } else { above += 1 }
            if got.skipped { skipped += 1 }
        }
        #expect(wrong == 0)
        #expect(below > 2_000 && above > 2_000 && skipped > 500)
        // Squares side by side 1 apart: 1 / 0.5 = 2 is not below 2, and is below 2's next value.
        let square = ImageQuad(center: SIMD2(0, 0), u: SIMD2(1, 0), v: SIMD2(0, 1))
        let next = ImageQuad(center: SIMD2(3, 0.5), u: SIMD2(1, 0), v: SIMD2(0, 1))
        #expect(!quadGapIsBelow(square, next, gapNeededBelow: .infinity, scale: 0.5, limit: 2).below)
        #expect(quadGapIsBelow(square, next, gapNeededBelow: .infinity, scale: 0.5, limit: 2.0.nextUp).below)
    }

    /// The target-pair rules with and without the shortcut on a crowded scene whose walking viewer
    /// sees tilted buttons of different windows close together: the same violations, and the
    /// shortcut really skipped closest-point searches.
    @Test func theRulesGiveTheSameViolationsWithAndWithoutTheShortcut() throws {
        let scene = try TargetPairIncrementalTests.load(yaml: TargetPairIncrementalTests.crowded())
        func run(shortcut: Bool) -> (violations: String, skipped: Int) {
            let engine = RuleEngine(scene: scene)
            engine.processor(TargetPairAnalyzer.self)?.closestPointShortcut = shortcut
            Simulator(scene: scene).run { engine.consume($0) }
            let vs = engine.finish()
            return (vs.map { String(describing: $0) }.joined(separator: "\n"),
                    engine.processor(TargetPairAnalyzer.self)?.closestPointsSkipped ?? -1)
        }
        let on = run(shortcut: true), off = run(shortcut: false)
        #expect(on.violations == off.violations)
        #expect(on.violations.contains("target-center-spacing"))
        #expect(on.skipped > 0)
        #expect(off.skipped == 0)
    }
}
