import Foundation
import Testing
@testable import Simulation
import SpatialModel

/// The quantities of a flat box do not depend on which of its local axes is the zero one. The
/// kernel orders a flat box's half-axes (the zero one last) for a whole block of entities at once,
/// so the variants sit next to each other in one block here, with a solid box and boxes that take
/// the kernel's other paths (behind the eye, straddling its frontal plane, the eye inside) between
/// them.
@Suite("Simulation: flat boxes whatever their zero axis")
struct FlatBoxQuantitiesTests {
    // A 1 m × 0.5 m rectangle facing the eye at 2 m (hand-derived, as in angularSizeOfFlatBox):
    // 2·atan(0.5 / 2) = 28.0725° wide, 2·atan(0.25 / 2) = 14.2500° high, and its thinnest width
    // across its own axes is the height's angle.
    static let width = 28.072486935852957
    static let height = 14.250032697803729

    @Test func rectangleFacingTheEyeWithItsZeroExtentOnEachAxis() {
        var b = TestSceneBuilder()
        // Zero extent along local z (the usual window), then along local x turned 90° about Y
        // (local z becomes world x), then along local y turned 90° about X (local z becomes world y).
        let variants = [
            b.add("z", position: Vec3(0, 1.6, -2), size: Vec3(1, 0.5, 0)),
            b.add("x", position: Vec3(0, 1.6, -2), rotation: Quat(yaw: 90, pitch: 0, roll: 0), size: Vec3(0, 0.5, 1)),
            b.add("y", position: Vec3(0, 1.6, -2), rotation: Quat(yaw: 0, pitch: 90, roll: 0), size: Vec3(1, 0, 0.5)),
        ]
        let solid = b.add("solid", position: Vec3(0.3, 1.6, -3), size: Vec3(0.4, 0.4, 0.4))
        let behind = b.add("behind", position: Vec3(0, 1.6, 2), size: Vec3(0.5, 0.5, 0))
        // 2 m wide, turned 60° about Y, centred 0.2 m ahead and 0.3 m to the right: one end at
        // (0.8, -1.07) (36.9° to the right, in view), the other behind the eye at (-0.2, 0.67).
        let straddling = b.add("straddling", position: Vec3(0.3, 1.6, -0.2), rotation: Quat(yaw: 60, pitch: 0, roll: 0),
                               size: Vec3(2, 0.2, 0))
        let around = b.add("around", position: Vec3(0, 1.6, 0), size: Vec3(1, 1, 1))
        let q = simulateAll(b.scene(duration: 0.1))[0]
        let pa = Units.defaultPointAngle
        for e in variants {
            #expect(close(q.angularWidth[e], Self.width, 1e-9))
            #expect(close(q.angularHeight[e], Self.height, 1e-9))
            #expect(close(q.angularSize[e], Self.width, 1e-9))
            #expect(close(q.ptEq[e], Self.height / pa, 1e-7))
            #expect(close(q.distance[e], 2) && close(q.eccentricity[e], 0))
            #expect(q.inFOV[e] && q.fullyInFOV[e])
        }
        // The solid box, from the definition: its 8 corners around the line of sight to its centre
        // (right = sight × head up, up = right × sight), the spread of their angles.
        let eye = Vec3(0, 1.6, 0), centre = Vec3(0.3, 1.6, -3)
        let sight = normalize(centre - eye), right = normalize(cross(sight, Vec3(0, 1, 0))), up = cross(right, sight)
        var h: [Double] = [], v: [Double] = []
        for k in 0..<8 {
            let corner = centre + Vec3(k & 1 == 0 ? -0.2 : 0.2, k & 2 == 0 ? -0.2 : 0.2, k & 4 == 0 ? -0.2 : 0.2) - eye
            h.append(atan2(dot(corner, right), dot(corner, sight)) * 180 / .pi)
            v.append(atan2(dot(corner, up), dot(corner, sight)) * 180 / .pi)
        }
        #expect(close(q.angularWidth[solid], (h.max() ?? 0) - (h.min() ?? 0), 1e-9))
        #expect(close(q.angularHeight[solid], (v.max() ?? 0) - (v.min() ?? 0), 1e-9))
        #expect(q.ptEq[solid] > 0 && q.inFOV[solid] && q.fullyInFOV[solid])
        #expect(!q.inFOV[behind] && !q.fullyInFOV[behind] && close(q.eccentricity[behind], 180))
        #expect(!q.fullyInFOV[straddling] && q.inFOV[straddling])
        // The eye inside a box: 360 × 180, in view, not fully.
        #expect(q.angularWidth[around] == 360 && q.angularHeight[around] == 180)
        #expect(q.inFOV[around] && !q.fullyInFOV[around])
    }
}
