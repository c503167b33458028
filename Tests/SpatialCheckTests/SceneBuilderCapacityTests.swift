import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `SceneBuilder.entityEstimate`: how many entities and elements a list declares, which sizes the
/// builder's tables once (a count, not a verdict: the scene itself is checked as before).
@Suite struct SceneBuilderCapacityTests {
    private func entities(_ text: String) -> [YNode] {
        var c = TreeConverter(file: "t.scene.yaml")
        guard let root = c.parse(text), case let .mapping(pairs) = root.kind,
              let list = pairs.first(where: { $0.key == "entities" }), case let .sequence(items) = list.value.kind else {
            Issue.record("no entities list")
            return []
        }
        return items
    }

    @Test func countsMappingsTheirElementsAndTheirChildrenAtEveryDepth() {
        let items = entities("""
            entities:
              - {id: w, kind: window, elements: [{id: a}, {id: b}]}
              - id: g
                kind: group
                children:
                  - {id: c, kind: group, children: [{id: d, kind: text}]}
                  - {id: e, kind: window, elements: [{id: x}]}
              - 42
              - [1, 2]
              - {id: v, kind: volume, elements: 3, children: {id: y}}
            """)
        // w + 2 elements; g + c + d + e + 1 element; v (its elements and children are not lists).
        #expect(SceneBuilder.entityEstimate(items, depth: 0) == 3 + 5 + 1)
    }

    @Test func anEmptyListDeclaresNone() {
        #expect(SceneBuilder.entityEstimate([], depth: 0) == 0)
        #expect(SceneBuilder.entityEstimate(entities("entities: [1, two, null]\n"), depth: 0) == 0)
    }
}
