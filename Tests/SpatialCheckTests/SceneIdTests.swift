import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// Entity and element ids: which are valid, and which use of an id or path a duplicate names.
@Suite struct SceneIdTests {
    @Test func validIdsAreLettersDigitsDashUnderscoreAndDot() {
        for id in ["w", "W0", "play-button", "snake_case", "v1.2", "0", "caf\u{E9}", "\u{65E5}\u{672C}", "\u{3B1}\u{3B2}"] {
            #expect(SceneBuilder.isValidId(id), "\(id)")
        }
        // Empty, '/', space, ':', '#', '+', a combining accent alone (not alphabetic), an
        // Arabic-Indic digit (a digit, but not 0-9), an emoji.
        for id in ["", "a/b", "a b", "a:b", "#a", "a+b", "\u{301}", "\u{663}", "\u{1F600}"] {
            #expect(!SceneBuilder.isValidId(id), "\(id)")
        }
    }

    @Test func everyDuplicateIdNamesTheFirstSibling() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: a, kind: group}
              - {id: a, kind: group}
              - {id: a, kind: group}
            """)
        #expect(errs.map(\.location) == [SourceLocation(line: 4, column: 10), SourceLocation(line: 5, column: 10)])
        #expect(errs.map(\.message) == ["duplicate id 'a': a sibling at 3:10 already uses it",
                                        "duplicate id 'a': a sibling at 3:10 already uses it"])
        #expect(errs.map(\.hint) == ["ids must be unique among siblings; the path 'a' would name both (3:10 and 4:10)",
                                     "ids must be unique among siblings; the path 'a' would name both (3:10 and 5:10)"])
    }

    @Test func everyDuplicatePathNamesItsFirstUse() {
        // The second and third 'w' are duplicate ids, so their children's path 'w/b' is taken.
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: w, kind: group, children: [{id: b, kind: group}]}
              - {id: w, kind: group, children: [{id: b, kind: group}]}
              - {id: w, kind: group, children: [{id: b, kind: group}]}
            """).sorted { $0.location.map { ($0.line, $0.column) } ?? (0, 0) < $1.location.map { ($0.line, $0.column) } ?? (0, 0) }
        #expect(errs.map(\.location) == [SourceLocation(line: 4, column: 10), SourceLocation(line: 4, column: 42),
                                         SourceLocation(line: 5, column: 10), SourceLocation(line: 5, column: 42)])
        #expect(errs.map(\.message) == ["duplicate id 'w': a sibling at 3:10 already uses it",
                                        "duplicate path 'w/b': already used at 3:42",
                                        "duplicate id 'w': a sibling at 3:10 already uses it",
                                        "duplicate path 'w/b': already used at 3:42"])
    }
}
