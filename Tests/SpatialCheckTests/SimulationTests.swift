import Foundation
import Testing
@testable import Simulation
import SpatialModel

@Suite("Simulation: viewing quantities")
struct SimulationQuantityTests {
    @Test func straightAheadAndAfterYawLeft() {
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2))
        let ahead = simulateAll(b.scene(duration: 0.1))[0]
        #expect(close(ahead.distance[0], 2))
        #expect(close(ahead.eccentricity[0], 0))
        #expect(close(ahead.azimuth[0], 0))
        #expect(close(ahead.elevation[0], 0))
        #expect(ahead.fullyInFOV[0] && ahead.inFOV[0])

        // Head yawed 30° LEFT: the entity is now 30° to the right.
        let turned = simulateAll(b.scene(duration: 0.1, path: [viewerKey(0, yaw: 30)]))
        #expect(close(turned[0].headYaw, 30))
        #expect(close(turned[0].azimuth[0], 30))
        #expect(close(turned[0].eccentricity[0], 30))
        #expect(close(turned[0].distance[0], 2))
        // A still, world-locked entity does not move in the world.
        #expect(turned[1].angularVelocity[0] == 0)
    }

    @Test func elevationAgainstHeadAndWorld() {
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2))
        let q = simulateAll(b.scene(duration: 0.1, path: [viewerKey(0, pitch: 10)]))[0]
        #expect(close(q.headPitch, 10))
        #expect(close(q.elevation[0], -10))
        #expect(close(q.elevationWorld[0], 0))
        #expect(close(q.eccentricity[0], 10))
    }

    @Test func angularSizeOfFlatBox() {
        // 1 m × 0.5 m flat window at 2 m: 2·atan(0.5 / 2) = 28.0725°, 2·atan(0.25 / 2) = 14.2500°.
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2), size: Vec3(1, 0.5, 0))
        let q = simulateAll(b.scene(duration: 0.1))[0]
        #expect(close(q.angularWidth[0], 28.072486935852957, 1e-9))
        #expect(close(q.angularHeight[0], 14.250032697803729, 1e-9))
        #expect(close(q.angularSize[0], 28.072486935852957, 1e-9))
        #expect(close(q.boundsMin[0], Vec3(-0.5, 1.35, -2)) && close(q.boundsMax[0], Vec3(0.5, 1.85, -2)))
        // Turned 90° about Y the flat window is seen edge-on: no width left.
        var e = TestSceneBuilder()
        e.add("w", position: Vec3(0, 1.6, -2), rotation: Quat(yaw: 90, pitch: 0, roll: 0), size: Vec3(1, 0.5, 0))
        let edge = simulateAll(e.scene(duration: 0.1))[0]
        #expect(edge.angularWidth[0] < 1e-9)
        #expect(close(edge.front[0], Vec3(1, 0, 0)))
    }

    @Test func pointEquivalentsOfElementAndText() {
        // Dynamic window placed at d0 = 2 m: metres per point s = tan(pa)·2. A 60 pt element at its
        // centre subtends 2·atan(30·s / 2) = 2·atan(30·tan pa); ptEq = that / pa ≈ 59.975.
        let pa = Units.defaultPointAngle
        let s = tan(pa * .pi / 180) * 2
        var b = TestSceneBuilder()
        let w = b.add("win", position: Vec3(0, 1.6, -2), size: Vec3(1280 * s, 720 * s, 0))
        let el = b.add("button", kind: .element, position: .zero, size: Vec3(60 * s, 60 * s, 0), parent: w)
        b.entities[el].role = .button
        b.entities[el].metresPerPoint = s
        let text = b.add("label", kind: .element, position: Vec3(0, 0.2, 0), size: Vec3(200 * s, 22 * s, 0), parent: w)
        b.entities[text].role = .text
        b.entities[text].fontSize = 17
        b.entities[text].metresPerPoint = s
        let q = simulateAll(b.scene(duration: 0.1))[0]
        let expected = 2 * atan(30 * tan(pa * .pi / 180)) * 180 / .pi / pa
        #expect(close(q.ptEq[el], expected, 1e-9))
        #expect(abs(q.ptEq[el] - 60) < 0.05)
        // Text: em = 17·s at distance d = √(2² + 0.2²), seen 0.2 m above eye level: the line of
        // sight s = (0, 0.2, −2) / d, right = (1, 0, 0), up = right × s = (0, 2, 0.2) / d. Its em
        // segment (half h = 17·s / 2 along +Y) is measured across its baseline (+X, along right),
        // i.e. along up: Y·up = 2 / d (foreshortened), Y·s = 0.2 / d, so t± = ±(h·2/d) / (d ± h·0.2/d).
        // Slightly under 17 pt because it sits off-axis.
        let d = (4 + 0.04).squareRoot()
        let h = 17 * s / 2, em = h * 2 / d
        let textExpected = (atan(em / (d + h * 0.2 / d)) + atan(em / (d - h * 0.2 / d))) * 180 / .pi / pa
        #expect(close(q.ptEq[text], textExpected, 1e-9))
        #expect(abs(q.ptEq[text] - 17) < 0.2)
    }

    @Test func boundsOfGroupsAndGeometryFreeEntities() {
        var b = TestSceneBuilder()
        let g = b.add("group", kind: .group, position: Vec3(0, 1.6, -3))
        b.add("left", kind: .model, position: Vec3(-1, 0, 0), size: Vec3(0.2, 0.2, 0.2), parent: g)
        b.add("right", kind: .model, position: Vec3(1, 0.5, 0), size: Vec3(0.2, 0.2, 0.2), parent: g)
        b.nodes[0].geometry = .empty
        b.entities[g].geometryNodes = 0..<3
        let marker = b.add("marker", kind: .group, position: Vec3(0.5, 1, -1))
        b.nodes[3].geometry = .empty
        let q = simulateAll(b.scene(duration: 0.1))[0]
        // Union of the children's boxes: x −1.1…1.1, y 1.5…2.2, z −3.1…−2.9.
        #expect(close(q.boundsMin[g], Vec3(-1.1, 1.5, -3.1)) && close(q.boundsMax[g], Vec3(1.1, 2.2, -2.9)))
        #expect(close(q.center[g], Vec3(0, 1.85, -3)))
        // No geometry: a zero-size box at the node's world origin.
        #expect(q.boundsMin[marker] == Vec3(0.5, 1, -1) && q.boundsMax[marker] == Vec3(0.5, 1, -1))
        #expect(q.angularSize[marker] == 0 && q.inFOV[marker])
    }

    @Test func fieldOfViewFlags() {
        var b = TestSceneBuilder()
        b.add("ahead", position: Vec3(0, 1.6, -2), size: Vec3(0.2, 0.2, 0))
        // 60° to the right at 2 m.
        b.add("side", position: Vec3(2 * sin(Double.pi / 3), 1.6, -2 * cos(Double.pi / 3)), size: Vec3(0.1, 0.1, 0))
        // 2 m wide, 1 m away, from x = 0.2 to 2.2: azimuth from atan(0.2) = 11.3° to atan(2.2) = 65.6°.
        b.add("wide", position: Vec3(1.2, 1.6, -1), size: Vec3(2, 0.2, 0))
        b.add("behind", position: Vec3(0, 1.6, 2), size: Vec3(0.5, 0.5, 0))
        let q = simulateAll(b.scene(duration: 0.1))[0]
        #expect(q.inFOV[0] && q.fullyInFOV[0])
        #expect(!q.inFOV[1] && !q.fullyInFOV[1])
        #expect(close(q.azimuth[1], 60))
        #expect(q.inFOV[2] && !q.fullyInFOV[2])
        #expect(!q.inFOV[3] && !q.fullyInFOV[3])
        #expect(close(q.eccentricity[3], 180))
        // A 150° × 70° field of view (override) takes the wide box in entirely.
        let wide = simulateAll(b.scene(duration: 0.1), SimulationOptions(fieldOfView: SIMD2(150, 70)))[0]
        #expect(wide.fullyInFOV[2] && wide.fullyInFOV[1])
    }

    @Test func headAndHandAnchoredEntities() {
        var b = TestSceneBuilder()
        b.add("hud", position: Vec3(0, 0, -1), size: Vec3(0.2, 0.2, 0), anchor: .head)
        b.add("palm", kind: .model, position: .zero, size: Vec3(0.05, 0.05, 0.05), anchor: .hand)
        // The head yaws from 0 to 90° left over 2 s (45°/s).
        let frames = simulateAll(b.scene(duration: 2, path: [viewerKey(0), viewerKey(2, yaw: 90)]))
        for q in frames {
            #expect(abs(q.azimuth[0]) < 1e-9 && abs(q.elevation[0]) < 1e-9 && close(q.distance[0], 1))
            // Hand (the standing posture's default pose): 0.30 m below and 0.35 m in front of the
            // eye: elevation −atan(0.30 / 0.35) = −40.601°, distance √(0.09 + 0.1225) = 0.46098 m.
            #expect(close(q.elevation[1], -40.60129464500447, 1e-9))
            #expect(close(q.distance[1], (0.09 + 0.1225).squareRoot()))
        }
        // Head-locked content moves with the head, so the eye sees it still: ω = 0 (it is judged by
        // fov-head-locked, not by the motion rules).
        #expect(frames[90].angularVelocity[0] < 1e-9)
        #expect(close(frames[90].headYaw, 45, 1e-9))
    }

    @Test func walkingTowardStillContentIsNotContentMotion() {
        var b = TestSceneBuilder()
        b.add("target", position: Vec3(0, 1.6, -5))
        b.add("side", position: Vec3(2, 1.6, -2))
        let frames = simulateAll(b.scene(duration: 3, path: [viewerKey(0), viewerKey(3, Vec3(0, 1.6, -3))]))
        // The distance shrinks at 1 m/s, but the content does not move: no looming, no angular motion.
        #expect(close(frames[90].distance[0], 4, 1e-9))
        #expect(abs(frames[90].approachSpeed[0]) < 1e-9)
        #expect(frames[90].linearSpeed[0] == 0)
        #expect(frames[90].angularVelocity[1] < 1e-9)
        #expect(frames[0].approachSpeed[0] == 0)
    }

    @Test func movingContentSeenFromAStillViewer() {
        var b = TestSceneBuilder()
        b.add("drone", position: Vec3(0, 1.6, -5))
        // Approaches at 1 m/s straight on, then nothing else moves.
        b.animate(0, positions: [(0, Vec3(0, 1.6, -5)), (2, Vec3(0, 1.6, -3))])
        let frames = simulateAll(b.scene(duration: 2))
        #expect(close(frames[45].approachSpeed[0], 1, 1e-9))
        #expect(frames[45].angularVelocity[0] < 1e-9)
        // Lateral motion at 2 m: x goes 0 → 1 m over 1 s. Between frames 45 and 46 (t = 0.5, 0.5111)
        // the direction turns by atan(0.5111/2) − atan(0.5/2).
        var c = TestSceneBuilder()
        c.add("drone", position: Vec3(0, 1.6, -2))
        c.animate(0, positions: [(0, Vec3(0, 1.6, -2)), (1, Vec3(1, 1.6, -2))])
        let lateral = simulateAll(c.scene(duration: 1))
        let expected = (atan((46.0 / 90) / 2) - atan((45.0 / 90) / 2)) * 180 / .pi * 90
        #expect(close(lateral[46].angularVelocity[0], expected, 1e-6))
    }

    /// The kernel finishes most entities in branch-free loops over a block and visits the others
    /// (moving, attached, straddling the eye's frontal plane, the eye inside) one by one: entities of
    /// every kind side by side in one block, each with the values it has alone.
    @Test func commonAndRareEntitiesSideBySide() {
        var b = TestSceneBuilder()
        let still = b.add("still", position: Vec3(0, 1.6, -2), size: Vec3(1, 0.5, 0))
        let drone = b.add("drone", position: Vec3(0, 1.6, -2), size: Vec3(0.1, 0.1, 0))
        b.animate(drone, positions: [(0, Vec3(0, 1.6, -2)), (1, Vec3(1, 1.6, -2))])
        let hud = b.add("hud", position: Vec3(0, 0, -1), size: Vec3(0.2, 0.2, 0), anchor: .head)
        // 2 m wide, turned 60° about Y, one end in view and the other behind the eye (as in
        // FlatBoxQuantitiesTests).
        let straddling = b.add("straddling", position: Vec3(0.3, 1.6, -0.2), rotation: Quat(yaw: 60, pitch: 0, roll: 0),
                               size: Vec3(2, 0.2, 0))
        let behind = b.add("behind", position: Vec3(0, 1.6, 2), size: Vec3(0.5, 0.5, 0))
        let around = b.add("around", position: Vec3(0, 1.6, 0), size: Vec3(1, 1, 1))
        let still2 = b.add("still2", position: Vec3(0, 1.6, -2), size: Vec3(1, 0.5, 0))
        let frames = simulateAll(b.scene(duration: 1))
        let q = frames[46]
        for e in [still, still2] {
            // 2·atan(0.5 / 2) by 2·atan(0.25 / 2); still content: no motion, -(x - x) / dt = -0.
            #expect(close(q.angularWidth[e], 28.072486935852957) && close(q.angularHeight[e], 14.250032697803729))
            #expect(q.linearSpeed[e] == 0 && q.angularVelocity[e] == 0)
            #expect(q.approachSpeed[e] == 0 && q.approachSpeed[e].sign == .minus)
            #expect(q.inFOV[e] && q.fullyInFOV[e] && close(q.distance[e], 2))
        }
        // x = t m at 2 m: between frames 45 and 46 the direction turns by atan(0.5111 / 2) − atan(0.5 / 2).
        let expected = (atan((46.0 / 90) / 2) - atan((45.0 / 90) / 2)) * 180 / .pi * 90
        #expect(close(q.angularVelocity[drone], expected, 1e-6) && close(q.linearSpeed[drone], 1, 1e-9))
        #expect(close(q.distance[hud], 1) && q.angularVelocity[hud] == 0 && q.linearSpeed[hud] == 0)
        #expect(q.inFOV[straddling] && !q.fullyInFOV[straddling])
        #expect(!q.inFOV[behind] && !q.fullyInFOV[behind] && close(q.eccentricity[behind], 180))
        #expect(q.angularWidth[around] == 360 && q.angularHeight[around] == 180 && q.inFOV[around] && !q.fullyInFOV[around])
        // The first frame has no previous one: every velocity 0, the approach speed +0.
        #expect(frames[0].approachSpeed[still] == 0 && frames[0].approachSpeed[still].sign == .plus)
        #expect(frames[0].angularVelocity[drone] == 0 && frames[0].linearSpeed[drone] == 0)
    }
}

@Suite("Simulation: frames in which nothing can move")
struct SimulationStillFrameTests {
    /// Every quantity of every frame as text (shortest round-trip doubles: bit for bit but NaN
    /// payloads), with the simulator keeping still frames' quantities or recomputing them.
    static func trace(_ scene: Scene, keep: Bool) -> (frames: [String], still: Int) {
        var sim = Simulator(scene: scene)
        sim.reusesStillFrames = keep
        var phases = SimulationPhaseTimes()
        var out: [String] = []
        sim.run(phases: &phases) { q in out.append(String(describing: copy q)) }
        return (out, phases.stillFrames)
    }

    static func windows() -> TestSceneBuilder {
        var b = TestSceneBuilder()
        b.add("ahead", position: Vec3(0, 1.6, -2))
        b.add("left", position: Vec3(-1.5, 1.2, -1), rotation: Quat(yaw: 40, pitch: 0, roll: 0))
        b.add("behind", position: Vec3(0.5, 2.5, 3))
        return b
    }

    /// A seated viewer before still windows: from the third frame on (the pose then equals the two
    /// frames before) nothing is recomputed, and every frame is what computing it gives.
    @Test func aStillViewerBeforeStillContent() {
        let scene = Self.windows().scene(duration: 1)
        let kept = Self.trace(scene, keep: true), computed = Self.trace(scene, keep: false)
        #expect(kept.frames.count == 90)
        #expect(kept.still == 88 && computed.still == 0)
        #expect(kept.frames == computed.frames)
    }

    /// The viewer walks 1 m in 1 s (frames 0–90; the keys interpolate exactly: 0 + (−1 − 0) · 1 =
    /// −1) and then stands: frame 91 has frame 90's pose, frame 92 that of the two before, so 92…179
    /// (88 frames) are kept; the walk's frames are all computed.
    @Test func aViewerWhoWalksThenStands() {
        let scene = Self.windows().scene(duration: 2, path: [viewerKey(0), viewerKey(1, Vec3(0, 1.6, -1))])
        let kept = Self.trace(scene, keep: true), computed = Self.trace(scene, keep: false)
        #expect(kept.frames.count == 180)
        #expect(kept.still == 88)
        #expect(kept.frames == computed.frames)
    }

    /// `canMove`: the animated window and the head-anchored panel can move; the other windows
    /// cannot, and their box frames, centres and axes are the first frame's, bit for bit, in every
    /// frame of a walking, turning viewer's run (what win-controls-keepout relies on to skip them).
    @Test func entitiesThatCannotMoveKeepTheFirstFramesBoxes() {
        var b = Self.windows()
        b.animate(0, positions: [(0, Vec3(0, 1.6, -2)), (0.5, Vec3(0.5, 1.6, -2))])
        b.add("hud", position: Vec3(0, 0, -1), size: Vec3(0.2, 0.2, 0), anchor: .head)
        let frames = simulateAll(b.scene(duration: 1, path: [viewerKey(0), viewerKey(1, Vec3(0.3, 1.6, -0.5), yaw: 20)]))
        #expect(frames.count == 90)
        #expect(frames[0].canMove == [true, false, false, true])
        for q in frames {
            #expect(q.canMove == frames[0].canMove)
            for e in [1, 2] {
                #expect(q.boxFrames[(12 * e)..<(12 * e + 12)].map(\.bitPattern) == frames[0].boxFrames[(12 * e)..<(12 * e + 12)].map(\.bitPattern))
                #expect(q.center[e] == frames[0].center[e] && q.front[e] == frames[0].front[e] && q.upAxis[e] == frames[0].upAxis[e])
            }
        }
        // The two that can move do.
        #expect(frames[45].center[0] != frames[0].center[0])
        #expect(frames[45].center[3] != frames[0].center[3])
    }

    /// Animated content can move in any frame: nothing is kept, even once the animation ends.
    @Test func animatedContentIsAlwaysComputed() {
        var b = Self.windows()
        b.animate(0, positions: [(0, Vec3(0, 1.6, -2)), (0.5, Vec3(0.5, 1.6, -2))])
        let scene = b.scene(duration: 1)
        let kept = Self.trace(scene, keep: true), computed = Self.trace(scene, keep: false)
        #expect(kept.still == 0)
        #expect(kept.frames == computed.frames)
    }
}

@Suite("Simulation: viewer path")
struct SimulationViewerTests {
    @Test func pathInterpolationAndHold() {
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2))
        let scene = b.scene(duration: 4, frameRate: 10, path: [viewerKey(0), viewerKey(2, Vec3(2, 1.6, 0), yaw: 90)])
        let frames = simulateAll(scene)
        #expect(frames.count == 40)
        // Half-way: position (1, 1.6, 0), slerp(yaw 0, yaw 90, ½) = yaw 45.
        #expect(close(frames[10].headPosition, Vec3(1, 1.6, 0)))
        #expect(close(frames[10].headYaw, 45))
        #expect(close(frames[10].headForward, Vec3(-0.5.squareRoot(), 0, -0.5.squareRoot())))
        // Held after the last key.
        #expect(close(frames[30].headPosition, Vec3(2, 1.6, 0)))
        #expect(close(frames[30].headYaw, 90))
        #expect(close(frames[39].headYaw, 90))
    }

    @Test func motionPresetsAreDeterministicAndBounded() {
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2))
        for motion in [MotionPreset.sway, .lookAround] {
            let a = simulateAll(b.scene(duration: 8, motion: motion))
            let c = simulateAll(b.scene(duration: 8, motion: motion))
            var maxYaw = 0.0, maxPitch = 0.0
            for (x, y) in zip(a, c) {
                #expect(x.headPosition == y.headPosition && x.headRotation == y.headRotation)
                maxYaw = max(maxYaw, abs(x.headYaw)); maxPitch = max(maxPitch, abs(x.headPitch))
            }
            let (yawLimit, pitchLimit) = motion == .sway ? (3.0, 3.0) : (40.0, 15.0)
            #expect(maxYaw <= yawLimit + 0.5 && maxYaw > yawLimit * 0.9)
            #expect(maxPitch <= pitchLimit + 0.5 && maxPitch > pitchLimit * 0.9)
        }
    }

    @Test func walkingViewerInFullImmersion() {
        // Full immersion from t = 0: H0 = (0, 1.6, 0). Walk to (0, 1.6, −3) over 3 s at 90 Hz.
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -5))
        b.event(2, .recenter)
        let frames = simulateAll(b.scene(duration: 4, immersion: .full,
                                         path: [viewerKey(0), viewerKey(3, Vec3(0, 1.6, -3))]))
        #expect(frames.count == 360)
        #expect(frames[0].boundaryOrigin == Vec3(0, 1.6, 0))
        #expect(frames[0].headDisplacement == 0)
        // Frame 135 is t = 1.5 exactly: displacement exactly 1.5, so not > 1.5.
        #expect(frames[135].headDisplacement == 1.5)
        #expect(close(frames[136].headDisplacement, 136.0 / 90.0))
        #expect(frames.firstIndex { $0.headDisplacement > 1.5 } == 136)
        #expect(frames[136].headDisplacementHorizontal == frames[136].headDisplacement)
        // Recenter at t = 2 (frame 180): H0 = (0, 1.6, −2).
        #expect(close(frames[179].headDisplacement, 179.0 / 90.0))
        #expect(close(frames[180].boundaryOrigin ?? .zero, Vec3(0, 1.6, -2)))
        #expect(frames[180].headDisplacement < 1e-12)
        #expect(close(frames[270].headDisplacement, 1))
        #expect(close(frames[359].headDisplacement, 1))
    }
}

@Suite("Simulation: animation")
struct SimulationAnimationTests {
    static func keyframed(loop: Bool, speed: Double = 1) -> Scene {
        var b = TestSceneBuilder()
        let e = b.add("m", kind: .model, position: Vec3(0, 1.6, -2), size: Vec3(0.2, 0.2, 0.2))
        b.animate(e, positions: [(0, Vec3(0, 1.6, -2)), (2, Vec3(1, 1.6, -2))], loop: loop, speed: speed)
        return b.scene(duration: 4, frameRate: 10)
    }

    @Test func keyframeSamplingClampAndLoop() {
        let once = simulateAll(Self.keyframed(loop: false))
        #expect(close(once[10].center[0], Vec3(0.5, 1.6, -2)))   // t = 1, mid-interval
        #expect(close(once[30].center[0], Vec3(1, 1.6, -2)))     // t = 3, held at the end
        let looped = simulateAll(Self.keyframed(loop: true))
        #expect(close(looped[25].center[0].x, 0.25))             // t = 2.5 → clip 0.5
        #expect(close(looped[30].center[0].x, 0.5))              // t = 3 → clip 1
        let fast = simulateAll(Self.keyframed(loop: false, speed: 2))
        #expect(close(fast[5].center[0].x, 0.5))                 // t = 0.5 → clip 1
        #expect(close(fast[5].linearSpeed[0], 1, 1e-9))           // 0.5 m/s · 2
    }

    @Test func clipsOfDifferentLengthsLoopIndependently() {
        var b = TestSceneBuilder()
        let a = b.add("a", kind: .model, position: Vec3(0, 1.6, -2), size: Vec3(0.1, 0.1, 0.1))
        let c = b.add("c", kind: .model, position: Vec3(0, 1.6, -3), size: Vec3(0.1, 0.1, 0.1))
        b.animate(a, positions: [(0, Vec3(0, 1.6, -2)), (2, Vec3(2, 1.6, -2))], loop: true)
        b.animate(c, positions: [(0, Vec3(0, 1.6, -3)), (3, Vec3(3, 1.6, -3))], loop: true)
        let frames = simulateAll(b.scene(duration: 6, frameRate: 10))
        #expect(close(frames[40].center[a].x, 0) && close(frames[40].center[c].x, 1))  // t = 4: 0 and 1
        #expect(close(frames[50].center[a].x, 1) && close(frames[50].center[c].x, 2))  // t = 5: 1 and 2
    }

    @Test func rotationKeysSlerp() {
        var b = TestSceneBuilder()
        let e = b.add("m", kind: .model, position: Vec3(0, 1.6, -2), size: Vec3(1, 0.1, 0))
        b.animate(e, rotations: [(0, .identity), (2, Quat(yaw: 90, pitch: 0, roll: 0))])
        let frames = simulateAll(b.scene(duration: 2, frameRate: 10))
        // Half-way: yaw 45, so the node's front (+Z) is (sin 45°, 0, cos 45°); translation kept at rest.
        let h = 0.5.squareRoot()
        #expect(close(frames[10].front[0], Vec3(h, 0, h)))
        #expect(close(frames[10].center[0], Vec3(0, 1.6, -2)))
    }

    @Test func boxAnimatedTranslationChannel() {
        // Keys of BoxAnimated.gltf's translation sampler (node 0), decoded from its base64 buffer:
        // t = 0, 1.25, 2.5, 3.708329916; y = 0, 2.52, 2.52, 0 (float32 2.5199999809265137).
        let y = 2.5199999809265137
        var b = TestSceneBuilder()
        let group = b.add("boxes", kind: .group, position: Vec3(0, 0, -3), size: .zero)
        let box = b.add("box", kind: .model, position: .zero, size: Vec3(1, 1, 1), parent: group)
        let keys: [(Double, Vec3)] = [(0, .zero), (1.25, Vec3(0, y, 0)), (2.5, Vec3(0, y, 0)),
                                      (3.708329916000366, .zero)]
        b.animate(box, positions: keys, loop: true)
        let frames = simulateAll(b.scene(duration: 4, frameRate: 8))
        // t = 0.625 (frame 5), mid first interval: y = 1.26, under the group's translation (0, 0, −3).
        #expect(close(frames[5].center[box], Vec3(0, y / 2, -3)))
        #expect(close(frames[15].center[box], Vec3(0, y, -3)))    // t = 1.875, hold interval
        #expect(close(frames[5].boundsMax[box], Vec3(0.5, y / 2 + 0.5, -2.5)))
        // The group (no geometry of its own size) stays at rest.
        #expect(close(frames[5].center[group], Vec3(0, 0, -3)))
    }
}

@Suite("Simulation: events")
struct SimulationEventTests {
    @Test func showHideAffectDescendants() {
        var b = TestSceneBuilder()
        let panel = b.add("panel", position: Vec3(0, 1.6, -2))
        let button = b.add("button", kind: .element, position: Vec3(0, 0, 0.01), size: Vec3(0.1, 0.1, 0), parent: panel)
        let other = b.add("other", position: Vec3(1, 1.6, -2))
        b.event(1, .hide(entity: panel))
        b.event(2, .show(entity: panel))
        b.event(2.5, .hide(entity: 99))  // out of range: ignored
        let frames = simulateAll(b.scene(duration: 3, frameRate: 10))
        #expect(frames[9].visible == [true, true, true])
        #expect(frames[10].visible[panel] == false && frames[10].visible[button] == false && frames[10].visible[other])
        #expect(frames[20].visible == [true, true, true])
        #expect(frames[29].visible == [true, true, true])

        // `visible: false` on a parent starts its descendants hidden too.
        var h = TestSceneBuilder()
        let p = h.add("panel", position: Vec3(0, 1.6, -2), visible: false)
        let c = h.add("button", kind: .element, position: .zero, size: Vec3(0.1, 0.1, 0), parent: p)
        h.event(1, .show(entity: p))
        let hidden = simulateAll(h.scene(duration: 2, frameRate: 10))
        #expect(!hidden[0].visible[p] && !hidden[0].visible[c])
        #expect(hidden[10].visible[p] && hidden[10].visible[c])
    }

    @Test func setImmersionSetsBoundaryOrigin() {
        var b = TestSceneBuilder()
        b.add("w", position: Vec3(0, 1.6, -2))
        b.event(1.5, .setImmersion(.full, trigger: .user))
        b.event(2, .setImmersion(.progressive, trigger: .system))
        b.event(3, .setImmersion(.mixed, trigger: .user))
        // Walking along −Z at 0.5 m/s so the origin records where the head was.
        let frames = simulateAll(b.scene(duration: 4, frameRate: 10,
                                         path: [viewerKey(0), viewerKey(4, Vec3(0, 1.6, -2))]))
        #expect(frames[14].immersion == .shared && frames[14].boundaryOrigin == nil)
        #expect(frames[14].headDisplacement == 0)
        #expect(frames[15].immersion == .full)
        #expect(close(frames[15].boundaryOrigin ?? .zero, Vec3(0, 1.6, -0.75)))
        // full → progressive keeps the boundary origin.
        #expect(frames[20].immersion == .progressive)
        #expect(close(frames[20].boundaryOrigin ?? .zero, Vec3(0, 1.6, -0.75)))
        #expect(close(frames[20].headDisplacement, 0.25))
        #expect(frames[30].immersion == .mixed && frames[30].boundaryOrigin == nil)
        #expect(frames[30].headDisplacement == 0)
    }
}

@Suite("Simulation: robustness and traces")
struct SimulationTraceTests {
    static func busyScene() -> Scene {
        var b = TestSceneBuilder()
        let w = b.add("player", position: Vec3(0, 1.6, -2), size: Vec3(1.2, 0.7, 0))
        b.add("play, \"quoted\"", kind: .element, position: Vec3(0, -0.3, 0.01), size: Vec3(0.07, 0.07, 0), parent: w)
        let m = b.add("ball", kind: .model, position: Vec3(1, 1, -2), size: Vec3(0.3, 0.3, 0.3))
        b.animate(m, positions: [(0, Vec3(1, 1, -2)), (1.3, Vec3(-1, 1.5, -3))], loop: true, speed: 1.7)
        b.event(0.5, .hide(entity: m))
        b.event(1, .show(entity: m))
        b.event(1.2, .setImmersion(.full, trigger: .user))
        return b.scene(duration: 2, immersion: .shared, path: [viewerKey(0), viewerKey(2, Vec3(0.3, 1.6, -0.4), yaw: -20)],
                       motion: .sway)
    }

    static func trace(_ scene: Scene, _ format: TraceFormat) -> String {
        var out = ""
        TraceWriter(scene: scene, format: format).write(to: &out)
        return out
    }

    @Test func tracesAreByteIdentical() throws {
        let scene = Self.busyScene()
        let csv1 = Self.trace(scene, .csv), csv2 = Self.trace(scene, .csv)
        let json1 = Self.trace(scene, .jsonl), json2 = Self.trace(scene, .jsonl)
        #expect(csv1 == csv2)
        #expect(json1 == json2)
        let lines = csv1.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == TraceWriter.csvHeader)
        // 180 frames; 3 visible entities except while the ball is hidden (t in [0.5, 1): 45 frames).
        #expect(lines.count == 1 + 180 * 3 - 45 + 1)  // + trailing empty piece
        #expect(csv1.contains(",\"player/play, \"\"quoted\"\"\","))
        let columns = TraceWriter.csvHeader.split(separator: ",").count
        #expect(lines[1].split(separator: ",").count == columns)
        let jsonLines = json1.split(separator: "\n")
        #expect(jsonLines.count == 180)
        for line in jsonLines {
            let obj = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(obj?["head"] != nil && obj?["entities"] is [Any])
        }
        #expect(jsonLines[0].hasPrefix("{\"frame\":0,\"t\":0.000000,\"head\":{"))
    }

    @Test func optionsOverrideRateDurationAndEmptyFrames() {
        var b = TestSceneBuilder()
        let w = b.add("w", position: Vec3(0, 1.6, -2), visible: false)
        let scene = b.scene(duration: 5, frameRate: 90)
        let sim = Simulator(scene: scene, options: SimulationOptions(frameRate: 60, duration: 2))
        #expect(sim.frameCount == 120)
        var times: [Double] = []
        sim.run { q in times.append(q.time) }
        #expect(times.count == 120 && times[60] == 1 && close(times[119], 119.0 / 60.0))
        // No visible entity: each CSV frame still has one row, with empty entity columns.
        var out = ""
        TraceWriter(scene: scene, options: SimulationOptions(duration: 0.05), format: .csv).write(to: &out)
        let rows = out.split(separator: "\n")
        #expect(rows.count == 1 + 5)
        #expect(rows[1] == "0,0.000000,0.000000,1.600000,0.000000,0.000000,0.000000,shared,0.000000,,,,,,,,,,,,")
        #expect(rows[1].split(separator: ",", omittingEmptySubsequences: false).count
                == TraceWriter.csvHeader.split(separator: ",").count)
        _ = w
    }

    @Test func numberFormatting() {
        #expect(TraceWriter.number(1.5) == "1.500000")
        #expect(TraceWriter.number(-2.25) == "-2.250000")
        #expect(TraceWriter.number(-0.0000001) == "0.000000")
        #expect(TraceWriter.number(0.0000005) == "0.000001")
        #expect(TraceWriter.number(123456.1234564) == "123456.123456")
        #expect(TraceWriter.number(1e20) == "100000000000000000000.000000")
        #expect(TraceWriter.number(.nan) == "nan" && TraceWriter.jsonNumber(.infinity) == "null")
    }

    @Test func malformedInputDoesNotCrash() {
        var b = TestSceneBuilder()
        let e = b.add("a", position: Vec3(.nan, 1, -2))
        b.add("b", position: Vec3(0, 1.6, -2))
        b.entities[1].geometryNodes = 5..<12
        b.nodes[1].parent = 7   // not a preceding node: treated as a root
        b.nodes[0].restTRS.rotation = Quat(x: 0, y: 0, z: 0, w: 0)
        b.animate(e, positions: [(1, .zero), (1, Vec3(1, 1, 1)), (.nan, .zero)], loop: true, speed: .nan)
        b.event(0.1, .show(entity: -3))
        var scene = b.scene(duration: 0.5)
        scene.viewer.path = [ViewerKey(time: 0, position: Vec3(.infinity, 0, 0), rotation: Quat(x: 0, y: 0, z: 0, w: 0))]
        var count = 0
        Simulator(scene: scene, options: SimulationOptions(frameRate: 0, duration: -1)).run { _ in count += 1 }
        #expect(count == 1)
        Simulator(scene: scene).run { _ in count += 1 }
        #expect(count == 46)
        _ = Self.trace(scene, .jsonl)
    }
}
