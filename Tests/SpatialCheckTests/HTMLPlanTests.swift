import Foundation
import Testing
@testable import SpatialCheck
@testable import Reporting
import SceneLoader
import Simulation
import SpatialModel

/// The HTML report's top-down plan draws each entity's own box seen from above, so a window
/// turned toward the viewer is a slanted line, not the square around it.
@Suite struct HTMLPlanTests {
    @Test func aTurnedWindowIsASegmentAcrossTheLineOfSight() throws {
        // 1280 pt at 2 m: tan(0.0671°) · 2 m per pt, 2.998 m wide; its centre 2 m away at 45° to
        // the left is (−√2, −√2) in x/z, and facing the viewer it spans across that direction.
        let scene = try SceneLoader.load(text: """
            format: spatialscene/1
            duration: 0.1
            entities:
              - {id: left, kind: window, placement: {distance: 2, azimuth: -45, elevation: 0}, size: [1280, 720]}
              - {id: cube, kind: volume, position: [1, 1, -2], size: [0.4, 0.4, 0.4]}
            """, path: "plan.scene.yaml", baseDirectory: NSTemporaryDirectory())
        let snap = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [])
        let window = try #require(snap.footprints.first { $0.path == "left" })
        #expect(window.outline.count == 2)
        guard window.outline.count == 2 else { return }
        let a = window.outline[0], b = window.outline[1]
        let width = 1280 * tan(radians(Units.defaultPointAngle)) * 2
        #expect(abs(length(SIMD3(a.x - b.x, 0, a.y - b.y)) - width) < 1e-9)
        let mid = (a + b) / 2, r = 0.5.squareRoot() * 2
        #expect(abs(mid.x + r) < 1e-9 && abs(mid.y + r) < 1e-9)
        #expect(abs((b - a).x * mid.x + (b - a).y * mid.y) < 1e-9)  // across the line of sight
        // The volume's square footprint: its four corners.
        let cube = try #require(snap.footprints.first { $0.path == "cube" })
        let corners = [SIMD2(0.8, -2.2), SIMD2(1.2, -2.2), SIMD2(1.2, -1.8), SIMD2(0.8, -1.8)]
        #expect(cube.outline.count == 4)
        #expect(corners.allSatisfy { c in cube.outline.contains { abs($0.x - c.x) < 1e-9 && abs($0.y - c.y) < 1e-9 } })
        // And the plan draws them so.
        let svg = planSVG(scene: SceneReport(path: "plan.scene.yaml", status: .checked, frameRate: 90, frames: 9, duration: 0.1),
                          snapshot: snap)
        #expect(svg.contains("<line") && svg.contains("<polygon"))
    }

    @Test func convexHullDropsInteriorAndCollinearPoints() {
        let square = [SIMD2(0.0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
        let hull = convexHull(square + [SIMD2(0.5, 0.5), SIMD2(0.5, 0), SIMD2(0, 0)])
        #expect(hull == [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)])
        #expect(convexHull([SIMD2(0.0, 0), SIMD2(1, 1), SIMD2(2, 2), SIMD2(0.5, 0.5)]) == [SIMD2(0, 0), SIMD2(2, 2)])
    }
}
