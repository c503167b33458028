import Foundation
import Testing
@testable import Reporting
@testable import SceneLoader
import SpatialModel

/// `spatialcheck inspect` (`ModelDump`): what it says of the loaded model.
@Suite struct ModelDumpTests {
    @Test func contentOfADynamicVolumeScalesWithIt() throws {
        // A model and a text in a dynamic-scale volume scale with it; the same in a fixed-scale
        // volume, and a model at the top level, are fixed (s30 trial F13).
        let yaml = """
            format: spatialscene/1
            entities:
              - id: board
                kind: volume
                scaleMode: dynamic
                position: [0, 1, -1]
                size: [0.5, 0.2, 0.5]
                children:
                  - {id: piece, kind: model, asset: box.glb, scale: 0.02}
                  - {id: score, kind: text, height: 0.03, string: "3:1"}
              - id: shelf
                kind: volume
                scaleMode: fixed
                position: [1, 1, -1]
                size: [0.5, 0.2, 0.5]
                children:
                  - {id: vase, kind: model, asset: box.glb, scale: 0.02}
              - {id: lamp, kind: model, asset: box.glb, position: [-1, 0, -2], scale: 0.2}
            """
        let scene = try WholeModelTests.load(yaml)
        func mode(_ path: String) -> String? { scene.entities.first { $0.path == path }.flatMap { ModelDump.scaleModeName($0, in: scene) } }
        #expect(mode("board") == "dynamic" && mode("board/piece") == "dynamic" && mode("board/score") == "dynamic")
        #expect(mode("shelf") == "fixed" && mode("shelf/vase") == "fixed" && mode("lamp") == "fixed")
    }
}
