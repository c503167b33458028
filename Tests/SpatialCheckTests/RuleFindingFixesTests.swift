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

    // MARK: Fix 2: the resting pose is H0 (t = 0, last recenter, immersion start)

    /// The viewer yaws from 0 to −90° (turns right) over t = 0…2 s and stays there. A panel at
    /// [2, 1.5, 0] (to the right of the starting pose) is shown at t = 3 s. With `event` at t = 3 s
    /// the resting pose is the turned one, and the panel is straight ahead of it (azimuth 0°,
    /// elevation −2.9°); without it, the panel is 90° to the right of the resting line of sight.
    private func turnRightThenShowPanel(event: SceneEvent.Action?) -> [Violation] {
        var fx = RuleFixture(frameRate: 10, duration: 5)
        let panel = fx.add("panel", .model) { e in e.interactive = true }
        if let event { fx.scene.events = [SceneEvent(time: 3, action: event, location: SourceLocation(line: 40, column: 5))] }
        return fx.run { i, f in
            let yaw = -90 * min(1, Double(i) / 20)
            let q = Quat(yaw: yaw, pitch: 0, roll: 0)
            f.headRotation = q
            f.headForward = q.act(Vec3(0, 0, -1))
            f.visible[panel] = i >= 30
            f.center[panel] = Vec3(2, 1.5, 0)
            if event.map({ if case .setImmersion = $0 { return true } else { return false } }) == true {
                f.immersion = i >= 30 ? .progressive : .shared
            }
        }.1.rule("fov-no-head-turn")
    }

    @Test func recenterResetsTheRestingPose() {
        #expect(turnRightThenShowPanel(event: .recenter).isEmpty)
    }

    @Test func enteringProgressiveImmersionResetsTheRestingPose() {
        #expect(turnRightThenShowPanel(event: .setImmersion(.progressive, trigger: .user)).isEmpty)
    }

    @Test func withoutRecenterTheStartingPoseStaysTheRestingPose() {
        let vs = turnRightThenShowPanel(event: nil)
        #expect(vs.count == 1)
        #expect(abs((vs.first?.measured ?? 0) - 90) < 1e-9)
        #expect(vs.first?.spans == [[30, 49]])
    }

    // MARK: Fix 3: the fade zone ends at the boundary

    /// Progressive immersion at 10 fps; the head is 1.0 m from H0 for frames 0–9, 1.3 m for 10–14
    /// (fading), 1.8 m for 15–24 (beyond the boundary: replaced, not fading) and 1.5 m for 25–27
    /// (on the boundary: still the fade zone), then 1.0 m. Fade: frames 10–14 and 25–27, 8 frames = 0.8 s.
    @Test func fadeZoneStopsAtTheBoundary() {
        var fx = RuleFixture(immersion: .progressive, frameRate: 10, duration: 3)
        fx.add("stage", .model)
        let d: (Int) -> Double = { i in
            switch i { case 10..<15: 1.3; case 15..<25: 1.8; case 25..<28: 1.5; default: 1.0 }
        }
        let vs = fx.run { i, f in
            f.boundaryOrigin = Vec3(0, 1.6, 0)
            f.headDisplacement = d(i)
            f.headPosition = Vec3(d(i), 1.6, 0)
        }.1
        let fade = vs.rule("boundary-fade-zone")
        #expect(fade.count == 1)
        #expect(fade.first?.spans == [[10, 14], [25, 27]])
        #expect(fade.first?.measured == 1.5)
        #expect(fade.first?.message.contains("fades for 0.8 s") == true)
        #expect(vs.rule("boundary-head-exit").first?.spans == [[15, 24]])
    }

    // MARK: Fix 4: boundary findings point at the segment's start

    /// 10 fps, 3 s. Immersive from frame `from` on; the head stays at H0, is 1.3 m away at frames
    /// 18–19 (fade zone) and 1.8 m away at frames 20–29 (beyond the boundary and the locomotion
    /// radius), so all three boundary rules fire.
    private func walkOut(immersion: ImmersionStyle, events: [SceneEvent], from: Int) -> [Violation] {
        var fx = RuleFixture(immersion: immersion, frameRate: 10, duration: 3,
                             viewer: Viewer(location: SourceLocation(line: 7, column: 1)))
        fx.add("stage", .model)
        fx.scene.events = events
        return fx.run { i, f in
            let d: Double = i >= 20 ? 1.8 : i >= 18 ? 1.3 : 0
            f.immersion = i >= from ? .progressive : .shared
            f.boundaryOrigin = i >= from ? Vec3(0, 1.6, 0) : nil
            f.headDisplacement = i >= from ? d : 0
            f.headPosition = Vec3(d, 1.6, 0)
        }.1
    }

    private static let boundaryRules = ["boundary-head-exit", "boundary-fade-zone", "boundary-style-vs-locomotion"]

    @Test func boundaryFindingsPointAtTheSetImmersionEvent() {
        let ev = SceneEvent(time: 1, action: .setImmersion(.progressive, trigger: .user), location: SourceLocation(line: 30, column: 5))
        let vs = walkOut(immersion: .shared, events: [ev], from: 10)
        for id in Self.boundaryRules {
            #expect(vs.rule(id).count == 1, "\(id)")
            #expect(vs.rule(id).first?.location == SourceLocation(line: 30, column: 5), "\(id)")
        }
    }

    @Test func boundaryFindingsOfAnImmersiveStartPointAtTheViewer() {
        let vs = walkOut(immersion: .progressive, events: [], from: 0)
        for id in Self.boundaryRules {
            #expect(vs.rule(id).count == 1, "\(id)")
            #expect(vs.rule(id).first?.location == SourceLocation(line: 7, column: 1), "\(id)")
        }
    }

    // MARK: Fix 5: declared head anchors get a meaningful measure

    /// A head-anchored HUD visible for 20 frames at 10 fps (2 s) while the head yaws 2° per frame:
    /// locked in view for 2 s, during which the head turned 38° (frame 0 → frame 19).
    @Test func declaredHeadAnchorReportsTimeLockedInView() {
        var fx = RuleFixture(frameRate: 10, duration: 3)
        let hud = fx.add("hud", .window) { e in e.anchor = .head }
        let vs = fx.run { i, f in
            let q = Quat(yaw: Double(min(i, 19)) * 2, pitch: 0, roll: 0)
            f.headRotation = q
            f.headForward = q.act(Vec3(0, 0, -1))
            f.visible[hud] = i < 20
        }.1.rule("fov-head-locked")
        #expect(vs.count == 1)
        let v = vs.first
        #expect(v?.unit == "s")
        #expect(abs((v?.measured ?? 0) - 2) < 1e-9)
        #expect(v?.threshold == 0)
        #expect(v?.spans == [[0, 19]])
        #expect(v?.message.contains("declared head-anchored (anchor: head), so it stays fixed in view for 2 s while the head turns up to 38°") == true)
        #expect(v?.message.contains("lazily follow") == true)
    }

    // MARK: Fix 6: hover padding is about buttons

    /// Two 64 pt buttons 6 pt apart in a window, a 60 pt_eq interactive model at the same direction
    /// as everything (0 pt_eq centre distance, overlapping edges), and two marked asset nodes with
    /// role button, also 60 pt_eq, overlapping everything in angle. The four controls make 6
    /// padding pairs: (a, b) in the window's pt, the other five in pt_eq; never a pair with the
    /// model, which keeps its target-center-spacing errors.
    @Test func hoverPaddingOnlyComparesControls() {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("a", in: w, frame: RectPt(x: 0, y: 0, width: 64, height: 64))
        fx.button("b", in: w, frame: RectPt(x: 70, y: 0, width: 64, height: 64))
        fx.add("fox", .model) { e in e.interactive = true }
        let board = fx.add("board", .model)
        fx.add("play", .node, parent: board) { e in e.role = .button; e.interactive = true }
        fx.add("stop", .node, parent: board) { e in e.role = .button; e.interactive = true }
        let vs = fx.run().1
        let padding = vs.rule("target-large-hover-padding").map(\.entities)
        #expect(padding.count == 6)
        #expect(padding.contains(["player/a", "player/b"]))
        #expect(padding.contains(["board/play", "board/stop"]))
        #expect(padding.contains(["board/play", "player/a"]))
        #expect(!padding.contains { $0.contains("fox") })
        #expect(vs.rule("target-center-spacing").contains { $0.entities == ["fox", "player/a"] })
    }
}
