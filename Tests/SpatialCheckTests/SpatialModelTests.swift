import Testing
@testable import SpatialModel

@Suite struct SpatialModelTests {
    @Test func yawPositiveTurnsForwardLeft() {
        // Ry(+90°) maps -Z (forward) to -X (left), scene format §1.
        let f = Quat(yaw: 90, pitch: 0, roll: 0).act(Vec3(0, 0, -1))
        #expect(abs(f.x - -1) < 1e-12 && abs(f.y) < 1e-12 && abs(f.z) < 1e-12)
    }

    @Test func pitchPositiveTiltsForwardUp() {
        let f = Quat(yaw: 0, pitch: 30, roll: 0).act(Vec3(0, 0, -1))
        #expect(abs(f.y - 0.5) < 1e-12)
        #expect(abs(f.z - -(3.0.squareRoot() / 2)) < 1e-12)
    }

    @Test func compositionIsYawThenPitchThenRoll() {
        // R = Ry(90)·Rx(90): forward -Z is first pitched up to +Y, then yaw leaves +Y unchanged.
        let q = Quat(yaw: 90, pitch: 90, roll: 0)
        let f = q.act(Vec3(0, 0, -1))
        #expect(abs(f.y - 1) < 1e-12)
        // The entity's right axis +X is pitched to +X, then yawed 90° left to -Z.
        let r = q.act(Vec3(1, 0, 0))
        #expect(abs(r.z - -1) < 1e-12)
    }

    @Test func frameCountMatchesContractExample() {
        // cli-and-report.md: 12 s at 90 Hz is 1080 frames, the last at 11.989 s.
        let s = Scene(path: "x", frameRate: 90, duration: 12)
        #expect(s.frameCount == 1080)
        #expect(Scene(path: "x", frameRate: 90, duration: 0).frameCount == 1)
    }

    @Test func closestMatchSuggestsTypos() {
        #expect(closestMatch(to: "postion", in: ["position", "rotation", "scale"]) == "position")
        #expect(closestMatch(to: "rotaiton", in: ["position", "rotation"]) == "rotation")
        #expect(closestMatch(to: "banana", in: ["position", "rotation"]) == nil)
    }
}
