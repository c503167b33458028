import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `element` builds an element's entity in place in the table when it has only the keys it reads
/// itself, and in a local copy when it has others (facts, media, appearance): both give the same
/// entity.
@Suite struct SceneBuilderElementTests {
    @Test func bothWaysGiveTheSameElement() throws {
        let element = "role: button, frame: [10, 20, 44, 44], depth: 3, fontSize: 17, label: Go, primary: true, visible: false, interactive: false"
        let path = LoaderFixture.write("element-in-place.scene.yaml", """
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: [800, 600]
                elements:
                  - {id: a, \(element)}
                  - {id: b, \(element), accessibilityLabel: Go}
                  - {id: c, role: text, frame: [0, 0, 100, 20]}
            """)
        let scene = try SceneLoader.load(path: path)
        let byId = Dictionary(uniqueKeysWithValues: scene.entities.enumerated().map { ($0.element.id, $0.offset) })
        let w = try #require(byId["w"]), ia = try #require(byId["a"]), ib = try #require(byId["b"]), ic = try #require(byId["c"])
        let a = scene.entities[ia], b = scene.entities[ib], c = scene.entities[ic]
        for (e, i) in [(a, ia), (b, ib), (c, ic)] {
            #expect(e.kind == .element)
            #expect(e.path == "w/" + e.id)
            #expect(e.geometryNodes == e.node..<(e.node + 1))
            #expect(scene.nodes[e.node].entity == i)
            #expect(e.parent == w && e.container == w)
            #expect(e.anchor == scene.entities[w].anchor && e.scaleMode == scene.entities[w].scaleMode)
            #expect(e.metresPerPoint == scene.entities[w].metresPerPoint)
        }
        #expect(a.location == SpatialModel.SourceLocation(line: 7, column: 9))
        #expect(b.location == SpatialModel.SourceLocation(line: 8, column: 9))
        // The same values in place (a) and through the copy (b, which has a fact key).
        for e in [a, b] {
            #expect(e.role == .button)
            #expect(e.frame == RectPt(x: 10, y: 20, width: 44, height: 44))
            #expect(e.depthPt == 3 && e.fontSize == 17 && e.label == "Go")
            #expect(e.primary && !e.visible && !e.interactive)
            #expect(e.factSources.interactive == .annotation)
        }
        #expect(a.placementDistance.bitPattern == b.placementDistance.bitPattern)
        #expect(a.restWorldBounds == b.restWorldBounds)
        #expect(a.accessibilityLabel == nil && b.accessibilityLabel == "Go")
        // Defaults where nothing is written.
        #expect(c.role == .text && c.depthPt == 0 && c.fontSize == nil && c.label == nil)
        #expect(!c.primary && c.visible && c.interactive == ElementRole.text.defaultInteractive)
        #expect(c.factSources.interactive == FactSources().interactive)
    }
}
