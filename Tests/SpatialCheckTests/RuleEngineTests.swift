import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

@Suite struct RuleEngineTests {
    func twoButtons(gapX: Double, width: Double = 44) -> RuleFixture {
        var fx = RuleFixture(duration: 10.0 / 90)
        let w = fx.window()
        fx.button("play", in: w, frame: RectPt(x: 600, y: 600, width: width, height: width), line: 12)
        fx.button("pause", in: w, frame: RectPt(x: 600 + gapX, y: 600, width: width, height: width), line: 14)
        return fx
    }

    @Test func buttons44ptApartAreOneSpacingError() {
        let fx = twoButtons(gapX: 44)
        let (_, vs) = fx.run()
        let v = vs.rule("target-center-spacing")
        #expect(v.count == 1)
        guard let s = v.first else { return }
        #expect(s.severity == .error)
        #expect(s.entities == ["player/pause", "player/play"])
        #expect(s.measured == 44)
        #expect(s.threshold == 60)
        #expect(s.unit == "pt")
        #expect(s.spans == [[0, 9]])
        #expect(s.frameCount == 10)
        #expect(s.message.contains("44 pt apart") && s.message.contains("nothing separates their edges"))
        #expect(s.help == "https://developer.apple.com/design/human-interface-guidelines/spatial-layout")
        #expect(s.location == SourceLocation(line: 14, column: 5))  // pause sorts first
        #expect(!s.borderline)
        #expect(vs.rule("target-no-overlap").isEmpty)  // touching is not overlapping
    }

    @Test func buttons60ptApartPass() {
        let (_, vs) = twoButtons(gapX: 60).run()
        #expect(vs.rule("target-center-spacing").isEmpty)
    }

    @Test func closeCentresWithWideGapPass() {
        // 30 pt buttons, centres 50 pt apart, 20 pt between edges: gap ≥ 16 is enough.
        let (_, vs) = twoButtons(gapX: 50, width: 30).run()
        #expect(vs.rule("target-center-spacing").isEmpty)
    }

    @Test func overlappingButtonsAreAnError() {
        let (_, vs) = twoButtons(gapX: 30).run()
        let o = vs.rule("target-no-overlap")
        #expect(o.count == 1)
        #expect(o.first?.measured == 14)
        #expect(o.first?.severity == .error)
    }

    @Test func pairSpansOnlyWhileBothVisible() {
        let fx = twoButtons(gapX: 44)
        let (_, vs) = fx.run { i, f in if (3...5).contains(i) { f.visible[2] = false } }
        #expect(vs.rule("target-center-spacing").first?.spans == [[0, 2], [6, 9]])
        #expect(vs.rule("target-center-spacing").first?.frameCount == 7)
    }

    @Test func tenThousandButtonsNeedLinearPairChecks() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window(size: SIMD2(8000, 8000))
        for r in 0..<100 {
            for c in 0..<100 {
                fx.button("b\(r)_\(c)", in: w, frame: RectPt(x: Double(c) * 80, y: Double(r) * 80, width: 44, height: 44))
            }
        }
        let (engine, vs) = fx.run()
        #expect(vs.filter { $0.rule.hasPrefix("target-") }.isEmpty)
        let n = 10_000
        #expect(engine.pairChecks > 0)
        #expect(engine.pairChecks < 20 * n)  // all pairs would be ~5·10⁷
    }

    @Test func crossContainerPairsAreComparedInAngle() {
        var fx = RuleFixture(duration: 3.0 / 90)
        let a = fx.window("left"), b = fx.window("right")
        let p = fx.button("ok", in: a, frame: RectPt(x: 0, y: 0, width: 44, height: 44))
        let q = fx.button("cancel", in: b, frame: RectPt(x: 0, y: 0, width: 44, height: 44))
        let pa = fx.scene.units.pointAngle
        let (_, vs) = fx.run { _, f in
            // 44 pt_eq apart on the same elevation, each 44 pt_eq wide: edges touch.
            for (e, az) in [(p, -22 * pa), (q, 22 * pa)] {
                f.azimuth[e] = az; f.elevation[e] = 0
                f.angularWidth[e] = 44 * pa; f.angularHeight[e] = 44 * pa
                f.center[e] = Vec3(2 * sin(radians(az)), 1.6, -2 * cos(radians(az)))
            }
        }
        let v = vs.rule("target-center-spacing")
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 44) < 0.01)
        #expect(v.first?.message.contains("pt_eq") == true)
    }

    @Test func spanAggregationKeepsWorstValueAndFrame() {
        var fx = RuleFixture(immersion: .full, duration: 10.0 / 90)
        fx.add("env", .environment)
        let values: [Int: Double] = [2: 1.8, 3: 2.5, 4: 1.9, 7: 1.6]
        let (_, vs) = fx.run { i, f in
            f.boundaryOrigin = Vec3(0, 1.6, 0)
            f.headDisplacement = values[i] ?? 0.2
        }
        let v = vs.rule("boundary-head-exit")
        #expect(v.count == 1)
        #expect(v.first?.spans == [[2, 4], [7, 7]])
        #expect(v.first?.frameCount == 4)
        #expect(v.first?.measured == 2.5)
        #expect(v.first?.worstFrame == 3)
        #expect(v.first?.entities == [])
        #expect(abs((v.first?.firstTime ?? 0) - 2.0 / 90) < 1e-12)
        #expect(abs((v.first?.lastTime ?? 0) - 7.0 / 90) < 1e-12)
    }

    @Test func boundaryExitAndFadeStartWhereTheHeadCrosses() {
        let fx = RuleFixture(immersion: .progressive, frameRate: 10, duration: 2.1)
        let (_, vs) = fx.run { i, f in
            f.boundaryOrigin = Vec3(0, 1.6, 0)
            f.headDisplacement = Double(i) / 10
        }
        #expect(vs.rule("boundary-head-exit").first?.spans == [[16, 20]])
        #expect(vs.rule("boundary-head-exit").first?.severity == .error)
        // Fade zone 1.2 m < r <= 1.5 m: frames 13-15; from 16 on the head is beyond the boundary.
        #expect(vs.rule("boundary-fade-zone").first?.spans == [[13, 15]])
        #expect(vs.rule("boundary-fade-zone").first?.severity == .warning)
    }

    @Test func noBoundaryInMixedImmersion() {
        let fx = RuleFixture(immersion: .mixed, frameRate: 10, duration: 2.1)
        let (_, vs) = fx.run { i, f in f.headDisplacement = Double(i) / 10 }
        #expect(vs.rule("boundary-head-exit").isEmpty)
    }

    func readingScene(seconds: Double, staticEnd: Bool) -> RuleFixture {
        // A viewer key after the end means the scene keeps going: not a static end.
        let viewer = staticEnd ? Viewer() : Viewer(path: [
            ViewerKey(time: 0, position: Vec3(0, 1.6, 0), rotation: .identity),
            ViewerKey(time: 60, position: Vec3(0, 1.6, 0), rotation: .identity),
        ])
        var fx = RuleFixture(frameRate: 10, duration: seconds, viewer: viewer)
        fx.add("note", .text) { e in e.fontSize = 17; e.scaleMode = .dynamic; e.string = "Hello, and welcome to the tour" }
        return fx
    }

    @Test func readingAtSixtyCentimetresForTwelveSeconds() {
        let (_, vs) = readingScene(seconds: 12, staticEnd: false).run { _, f in f.distance[0] = 0.6 }
        let v = vs.rule("depth-min-reading-distance")
        #expect(v.count == 1)
        #expect(v.first?.severity == .warning)
        // Frame 100 (t = 10 s) is where 10.1 s of reading has passed; from then on the whole run
        // is the violation, so its span starts where the reading began.
        #expect(v.first?.spans == [[0, 119]])
        #expect(v.first?.firstTime == 0)
        #expect(v.first?.measured == 0.6)
        #expect(v.first?.unit == "m")
    }

    @Test func readingRunCountsFromWhereItBegan() {
        // Far for 3 s, then at 0.6 m from frame 30 on: the 10 s dwell is passed at frame 130, and
        // the violation covers frames 30–149.
        let (_, vs) = readingScene(seconds: 15, staticEnd: false).run { i, f in f.distance[0] = i < 30 ? 2 : 0.6 }
        #expect(vs.rule("depth-min-reading-distance").first?.spans == [[30, 149]])
        // Closer than 1 m for 6 s, then again for 8 s: neither run outlasts the dwell.
        let (_, none) = readingScene(seconds: 15, staticEnd: false).run { i, f in f.distance[0] = (60..<70).contains(i) ? 2 : 0.6 }
        #expect(none.rule("depth-min-reading-distance").isEmpty)
    }

    @Test func readingForEightSecondsIsFine() {
        let (_, vs) = readingScene(seconds: 8, staticEnd: false).run { _, f in f.distance[0] = 0.6 }
        #expect(vs.rule("depth-min-reading-distance").isEmpty)
    }

    @Test func staticSceneCountsAsSustained() {
        // Nothing moves after the last frame: the reading condition lasts for ever.
        let (_, vs) = readingScene(seconds: 8, staticEnd: true).run { _, f in f.distance[0] = 0.6 }
        #expect(vs.rule("depth-min-reading-distance").first?.spans == [[0, 79]])
        let (_, one) = readingScene(seconds: 0, staticEnd: true).run { _, f in f.distance[0] = 0.6 }
        #expect(one.rule("depth-min-reading-distance").first?.spans == [[0, 0]])
    }

    @Test func nearContentOnlyBriefly() {
        let (_, vs) = readingScene(seconds: 12, staticEnd: false).run { _, f in f.distance[0] = 0.4 }
        #expect(vs.rule("depth-near-brief-only").first?.spans == [[0, 119]])
    }

    @Test func fingerprintIsStableAndIgnoresUnrelatedEntities() {
        let a = twoButtons(gapX: 44).run().1.rule("target-center-spacing").first?.fingerprint
        let b = twoButtons(gapX: 44).run().1.rule("target-center-spacing").first?.fingerprint
        var fx = twoButtons(gapX: 44)
        fx.add("unrelated", .model)
        let c = fx.run().1.rule("target-center-spacing").first?.fingerprint
        #expect(a != nil && a == b && a == c)
        #expect(a?.count == 16)
        #expect(a == violationFingerprint(rule: "target-center-spacing", scenePath: "Scenes/test.scene.yaml",
                                          entities: ["player/play", "player/pause"]))
        #expect(a != violationFingerprint(rule: "target-no-overlap", scenePath: "Scenes/test.scene.yaml",
                                          entities: ["player/play", "player/pause"]))
        // FNV-1a 64 reference value of the empty input.
        #expect(FNV1a64().hex == "cbf29ce484222325")
    }

    @Test func violationsSortBySeverityThenRule() {
        var fx = RuleFixture(immersion: .full, duration: 3.0 / 90)
        let w = fx.window()
        fx.button("a", in: w, frame: RectPt(x: 0, y: 0, width: 20, height: 20))
        fx.button("b", in: w, frame: RectPt(x: 20, y: 0, width: 20, height: 20))
        let (_, vs) = fx.run { _, f in f.boundaryOrigin = .zero; f.headDisplacement = 0 }
        let sevs = vs.map(\.severity)
        #expect(sevs == sevs.sorted())
        for (x, y) in zip(vs, vs.dropFirst()) where x.severity == y.severity { #expect(x.rule <= y.rule) }
        #expect(!vs.rule("immersion-launch-style").isEmpty)
    }

    @Test func explainSuggestsARuleForAMissingWord() {
        #expect(containingEveryWord(of: "target-spacing", in: RuleCatalog.rules.map(\.id)) == "target-center-spacing")
        #expect(containingEveryWord(of: "head locked", in: RuleCatalog.rules.map(\.id)) == "fov-head-locked")
        #expect(containingEveryWord(of: "teleport", in: RuleCatalog.rules.map(\.id)) == nil)
        #expect { try RuleCatalog.renderExplanation(id: "target-spacing") } throws: { error in
            (error as? UnknownRule)?.description == "unknown rule 'target-spacing'; did you mean 'target-center-spacing'?"
        }
    }

    @Test func smallNumbersKeepTwoSignificantDigits() {
        #expect(fmt(0.005) == "0.005")
        #expect(fmt(0.0234) == "0.023")
        #expect(fmt(0.05) == "0.05")
        #expect(fmt(12.5) == "12.5")
        #expect(fmt(1.006) == "1.01")
        #expect(fmt(60) == "60")
        #expect(fmt(-0.0) == "0")
        #expect(fmt(-0.004) == "-0.004")
    }

    @Test func mismatchedOrRepeatedFramesAreIgnored() {
        let fx = RuleFixture(duration: 2.0 / 90)
        let engine = RuleEngine(scene: fx.scene)
        engine.consume(FrameQuantities(entityCount: 5))  // wrong entity count: ignored, no crash
        var f = fx.frame(0)
        f.frame = 3
        engine.consume(f)
        engine.consume(f)                                 // repeated frame: ignored
        #expect(engine.finish().isEmpty)
    }

    @Test func thresholdOnARuleWithoutOneIsAnError() {
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("rules: {fov-no-head-turn: {threshold: 3}}") }
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("rules: {fov-no-head-turn: {bogus: 3}}") }
        #expect(throws: LoadFailure.self) { try RuleConfiguration.parse("failOn: [") }
    }

    /// `finish(deferringMessagesAbove:)` gives the same violations in the same order as `finish()`,
    /// with the messages of rules over the limit empty and written on demand. Five 44 pt buttons
    /// 50 pt apart in a row: 4 neighbouring pairs 50 pt apart with 6 pt between edges (the next ones
    /// are 100 pt apart and pass).
    @Test func deferredMessagesEqualTheEagerOnes() throws {
        var fx = RuleFixture(duration: 10.0 / 90)
        let w = fx.window()
        for k in 0..<5 {
            fx.button("b\(k)", in: w, frame: RectPt(x: 400 + 50 * Double(k), y: 600, width: 44, height: 44), line: 12 + 2 * k)
        }
        func run() -> RuleEngine {
            let engine = RuleEngine(scene: fx.scene)
            for i in 0..<fx.scene.frameCount { engine.consume(fx.frame(i)) }
            return engine
        }
        let eager = run().finish()
        let spacingCount = eager.filter { $0.rule == "target-center-spacing" }.count
        #expect(spacingCount == 4)
        #expect(eager.first { $0.rule == "target-center-spacing" }?.message
            == "centres of player/b0 and player/b1 are 50 pt apart and only 6 pt separate their edges; move them to at least 60 pt apart or leave 16 pt between them")
        var lazy: [Violation] = []
        let pending = run().finish(deferringMessagesAbove: 3) { lazy.append($0) }
        #expect(lazy.count == eager.count)
        // The rules with more than 3 violations (the spacing rule among them) are deferred.
        let counts = Dictionary(eager.map { ($0.rule, 1) }, uniquingKeysWith: +)
        let deferred = lazy.indices.filter { (counts[lazy[$0].rule] ?? 0) > 3 }
        #expect(deferred.contains { lazy[$0].rule == "target-center-spacing" })
        #expect(pending.indices == deferred)
        for i in lazy.indices {
            var v = lazy[i]
            if deferred.contains(i) {
                #expect(v.message.isEmpty)
                v.message = try #require(pending.message(ofViolation: i))
            } else {
                #expect(pending.message(ofViolation: i) == nil)
            }
            #expect(v == eager[i])
        }
        // No limit, or a limit the rule does not exceed (4 of 4): nothing deferred.
        for limit in [nil, 4] {
            var all: [Violation] = []
            #expect(run().finish(deferringMessagesAbove: limit) { all.append($0) }.indices.isEmpty)
            #expect(all == eager)
        }
    }
}
