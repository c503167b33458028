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

    /// An alias (`*e`) repeats an anchored entry, its id too: the duplicate is the alias's entry,
    /// and the error points at it, not twice at the anchored id (trial s19 F8c: "a sibling at 5:13
    /// already uses it … (5:13 and 5:13)").
    @Test func anAliasRepeatingAnEntryIsNamedAtTheAlias() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            duration: 1
            entities:
              - &e {id: w, kind: window, position: [0, 1.6, -2], size: [400, 300]}
              - *e
            """)
        #expect(errs.map(\.location) == [SourceLocation(line: 5, column: 5)])
        #expect(errs.map(\.message) == ["duplicate id 'w': this entry is an alias of the one whose id is at 4:13, so it has the same id"])
        #expect(errs.first?.hint == "ids must be unique among siblings; the path 'w' would name both (4:13 and 5:5); write the repeated entry out with its own id instead of an alias")
        // Two entries written out with the same id keep the sibling wording.
        let written = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: w, kind: group}
              - {id: w, kind: group}
            """)
        #expect(written.map(\.message) == ["duplicate id 'w': a sibling at 3:10 already uses it"])
    }

    /// An id typed with a combining accent (NFD, "A" + U+0301, as macOS tools may write it) is the
    /// same id as the precomposed letter ("\u{C1}"): accepted, and read in the composed form (NFC),
    /// so the entity's path is the same bytes either way (trial s19 F8e).
    @Test func anIdWithACombiningAccentIsReadComposed() throws {
        let decomposed = "caf\u{65}\u{301}", composed = "caf\u{E9}"
        #expect(Array(decomposed.utf8) != Array(composed.utf8))
        for (written, name) in [(decomposed, "nfd.scene.yaml"), (composed, "nfc.scene.yaml")] {
            let scene = try LoaderFixture.load("""
                format: spatialscene/1
                entities:
                  - id: w
                    kind: window
                    placement: {distance: 2, azimuth: 0, elevation: 0}
                    size: [400, 300]
                    elements:
                      - {id: "\(written)", role: button, frame: [10, 10, 60, 60], label: x}
                """, name: name)
            let paths = scene.entities.map(\.path)
            #expect(paths.contains { Array($0.utf8) == Array("w/\(composed)".utf8) }, "\(paths)")
        }
        // The same id written both ways in one window is a duplicate.
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [400, 300]
                elements:
                  - {id: "\(decomposed)", role: button, frame: [10, 10, 60, 60], label: x}
                  - {id: "\(composed)", role: button, frame: [100, 10, 60, 60], label: x}
            """)
        #expect(errs.map(\.message) == ["duplicate id '\(composed)': a sibling at 8:14 already uses it"])
        // A combining mark with no letter to compose with is refused, and the message says why.
        let mark = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: "q\u{303}", kind: group}
            """)
        #expect(mark?.message.hasPrefix("'id' 'q\u{303}' has a combining mark (U+0303) that does not join the letter before it into one letter") == true,
                "\(mark?.message ?? "")")
        #expect(SceneBuilder.canonicalId("play") == "play")
        #expect(Array(SceneBuilder.canonicalId(decomposed).utf8) == Array(composed.utf8))
    }
}
