import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// `Reader.numbers`: the list of exactly `count` finite numbers of at most 10⁹ in magnitude that
/// `frame`, `size`, `position` and the others read, and the error for each item that is not one.
@Suite struct ReaderNumbersTests {
    private static func list(_ items: [(String, YScalar.ScalarType, Double?)]) -> YNode {
        YNode(kind: .sequence(items.enumerated().map { i, item in
            YNode(kind: .scalar(YScalar(text: item.0, type: item.1, number: item.2, bool: nil)),
                  loc: SourceLocation(line: 1, column: 8 + 4 * i))
        }), loc: SourceLocation(line: 1, column: 7))
    }

    @Test func numbersInRangeAreReadAsTheyAre() {
        let r = Reader(file: "t.scene.yaml")
        let v = r.numbers(Self.list([("1e9", .number, 1e9), ("-1000000000", .number, -1e9), ("0", .number, 0)]),
                          count: 3, "'size'", shape: "[w, h, d]")
        #expect(v == [1_000_000_000, -1_000_000_000, 0])
        #expect(r.diagnostics.isEmpty)
    }

    @Test func everyItemThatIsNotANumberInRangeIsReportedAtItsLocation() {
        let r = Reader(file: "t.scene.yaml")
        let v = r.numbers(Self.list([("1000000001", .number, 1_000_000_001), ("x", .string, nil),
                                     (".nan", .number, .nan), ("2", .number, 2)]),
                          count: 4, "'frame'", shape: "[x, y, width, height]")
        #expect(v == nil)
        #expect(r.diagnostics.map(\.message) == [
            "an item of 'frame' is out of range: 1000000001 is larger in magnitude than 1000000000",
            "an item of 'frame' expects a number, found a string \"x\"",
            "an item of 'frame' must be a finite number, found .nan",
        ])
        #expect(r.diagnostics.map(\.location) == [SourceLocation(line: 1, column: 8), SourceLocation(line: 1, column: 12),
                                              SourceLocation(line: 1, column: 16)])
        #expect(r.diagnostics.first?.hint == "scene numbers are metres, points, seconds, degrees or Hz; none needs more than 1000000000")
    }

    @Test func aListOfAnotherLengthIsOneError() {
        let r = Reader(file: "t.scene.yaml")
        #expect(r.numbers(Self.list([("1", .number, 1), ("2", .number, 2)]), count: 3, "'position'", shape: "[x, y, z]") == nil)
        #expect(r.diagnostics.map(\.message) == ["'position' expects [x, y, z] (3 numbers), found a list of 2 items"])
        #expect(r.diagnostics.first?.location == SourceLocation(line: 1, column: 7))
    }
}
