import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `SiblingIds`: the first use of an id keeps it, in the short list and after it becomes a table;
/// ids are compared as `==` compares strings.
@Suite struct SiblingIdsTests {
    private func loc(_ n: Int) -> SpatialModel.SourceLocation { SpatialModel.SourceLocation(line: n, column: 3) }

    @Test func theFirstUseKeepsAnIdBeforeAndAfterTheListBecomesATable() {
        for capacity in [0, 4, 40] {
            var ids = SiblingIds(capacity: capacity)
            // 40 distinct ids at lines 1...40 (the list holds 16, then a table takes over).
            for n in 1...40 {
                #expect(ids.claim("b\(n)", loc(n)) == nil, "capacity \(capacity), b\(n)")
            }
            // Each again, later: the first location is named, every time.
            for n in [1, 2, 16, 17, 40] {
                #expect(ids.claim("b\(n)", loc(100 + n)) == loc(n), "capacity \(capacity), b\(n)")
                #expect(ids.claim("b\(n)", loc(200 + n)) == loc(n), "capacity \(capacity), b\(n) again")
            }
            #expect(ids.claim("b41", loc(41)) == nil)
        }
    }

    @Test func idsAreEqualAsStringsAreEqual() {
        var ids = SiblingIds(capacity: 2)
        // "é" precomposed (U+00E9) and decomposed (e + U+0301) are one id, as Swift's `==` says.
        #expect(ids.claim("caf\u{E9}", loc(1)) == nil)
        #expect(ids.claim("cafe\u{301}", loc(2)) == loc(1))
        #expect(ids.claim("Cafe", loc(3)) == nil)
        #expect(ids.claim("cafe", loc(4)) == nil)
    }

    @Test func aDuplicateAmongManyElementsNamesTheFirst() {
        // 20 elements, so the window's sibling ids start as a table; the duplicate is the 20th.
        let items = (0..<19).map { "{id: b\($0), frame: [0, 0, 10, 10]}" } + ["{id: b3, frame: [0, 0, 10, 10]}"]
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: [800, 600]
                elements:
            \(items.map { "      - " + $0 }.joined(separator: "\n"))
            """)
        #expect(errs.map(\.message) == ["duplicate id 'b3': a sibling at 10:14 already uses it"])
        #expect(errs.map(\.location) == [SpatialModel.SourceLocation(line: 26, column: 14)])
    }
}

/// `SceneBuilder.matrix` and `SceneBuilder.product` give the same doubles as `Transform.matrix`
/// and `Mat4 *`, bit for bit (they only allocate less).
@Suite struct SceneBuilderMatrixTests {
    @Test func matrixAndProductEqualTheModelsToTheBit() {
        // A fixed-seed generator, so every run tests the same matrices.
        var rng = SplitMix64(seed: 16)
        for _ in 0..<500 {
            let t = rng.transform(unitRotation: true), u = rng.transform(unitRotation: false)
            #expect(SceneBuilder.matrix(t).m.map(\.bitPattern) == t.matrix.m.map(\.bitPattern))
            let a = t.matrix, b = u.matrix
            #expect(SceneBuilder.product(a, b).m.map(\.bitPattern) == (a * b).m.map(\.bitPattern))
        }
    }
}
