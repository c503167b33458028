import Foundation
import Testing
@testable import SceneLoader
import SpatialModel
import AssetImport

/// The loader's tree as libyaml's events build it (`TreeConverter`) and as the plain-JSON fast path
/// builds it (`JSONTree`). Every expectation is written out by hand: node types, values and the
/// line:column of every value and key (columns count characters; a byte-order mark is not one).
@Suite struct YAMLTreeTests {
    /// `{key@l:c: value, …}@l:c`, `[…]@l:c`, `type(text)@l:c` (numbers and booleans with their value).
    static func render(_ n: YNode) -> String {
        let at = "@\(n.loc.line):\(n.loc.column)"
        switch n.kind {
        case let .scalar(s):
            switch s.type {
            case .number: return "number(\(s.number.map { "\($0)" } ?? "?"))" + at
            case .bool: return "bool(\(s.bool.map { "\($0)" } ?? "?"))" + at
            case .string: return "string(\(s.text))" + at
            case .null: return "null(\(s.text))" + at
            }
        case let .sequence(items):
            return "[" + items.map(render).joined(separator: ", ") + "]" + at
        case let .mapping(pairs):
            return "{" + pairs.map { "\($0.key)@\($0.keyLoc.line):\($0.keyLoc.column): \(render($0.value))" }
                .joined(separator: ", ") + "}" + at
        }
    }

    private func tree(_ text: String, fastPath: Bool = true) -> String? {
        var c = TreeConverter(file: "t.scene.yaml", fastPaths: fastPath)
        return c.parse(text).map(Self.render)
    }

    private func errors(_ text: String) -> [Diagnostic] {
        var c = TreeConverter(file: "t.scene.yaml")
        _ = c.parse(text)
        return c.diagnostics
    }

    @Test func anchorsAndAliasesRepeatTheAnchoredValue() {
        // The node's mark is where its properties start (the '&'); an alias's copy is marked at the
        // alias (an error about b's value points at b), the values inside it keep their own marks.
        #expect(tree("a: &x [1, 2]\nb: *x\n")
            == "{a@1:1: [number(1.0)@1:8, number(2.0)@1:11]@1:4, b@2:1: [number(1.0)@1:8, number(2.0)@1:11]@2:4}@1:1")
        #expect(tree("a: &s hello\nb: *s\n") == "{a@1:1: string(hello)@1:4, b@2:1: string(hello)@2:4}@1:1")
    }

    @Test func mergeKeysAreNotExpanded() {
        // `<<` was never a merge for the loader: it stays a key of its own (an unknown key later).
        #expect(tree("base: &b {x: 1}\nitem:\n  <<: *b\n  y: 2\n")
            == "{base@1:1: {x@1:11: number(1.0)@1:14}@1:7, item@2:1: {<<@3:3: {x@1:11: number(1.0)@1:14}@3:7, y@4:3: number(2.0)@4:6}@3:3}@1:1")
    }

    @Test func tagsTypeTheValue() {
        #expect(tree("a: !!str 42\nb: !!int \"7\"\nc: !!float 1\nd: !custom x\ne: !!bool yes\n")
            == "{a@1:1: string(42)@1:4, b@2:1: number(7.0)@2:4, c@3:1: number(1.0)@3:4, d@4:1: string(x)@4:4, e@5:1: bool(true)@5:4}@1:1")
    }

    @Test func quotedAndPlainScalars() {
        #expect(tree("a: \"1\"\nb: 1\nc: '1'\nd: 1.5\n")
            == "{a@1:1: string(1)@1:4, b@2:1: number(1.0)@2:4, c@3:1: string(1)@3:4, d@4:1: number(1.5)@4:4}@1:1")
    }

    @Test func yesNoOnOffAreBooleansWhenPlain() {
        #expect(tree("a: yes\nb: No\nc: on\nd: OFF\ne: 'yes'\nf: y\n")
            == "{a@1:1: bool(true)@1:4, b@2:1: bool(false)@2:4, c@3:1: bool(true)@3:4, d@4:1: bool(false)@4:4, e@5:1: string(yes)@5:4, f@6:1: string(y)@6:4}@1:1")
    }

    @Test func nulls() {
        // An empty value's mark is where the value would start: after the ':' of its key.
        #expect(tree("a:\nb: ~\nc: null\nd: 'null'\n")
            == "{a@1:1: null()@1:3, b@2:1: null(~)@2:4, c@3:1: null(null)@3:4, d@4:1: string(null)@4:4}@1:1")
    }

    @Test func infinityAndNaN() {
        #expect(tree("a: .inf\nb: -.Inf\nc: [.NaN]\n")
            == "{a@1:1: number(inf)@1:4, b@2:1: number(-inf)@2:4, c@3:1: [number(nan)@3:5]@3:4}@1:1")
    }

    @Test func aSecondDocumentIsAnError() {
        let e = errors("a: 1\n---\nb: 2\n")
        #expect(e.count == 1)
        #expect(e.first?.message == "YAML syntax error: but found another document (expected a single document in the stream at 1:1)")
        #expect(e.first?.location == SourceLocation(line: 2, column: 1))
    }

    /// The first 100 repeated keys are listed, then one error counts the rest and points at the
    /// first of them (trial s34 F3: 50,000 repeated keys gave exactly 100 errors, silently).
    @Test func duplicateKeysPastTheFirstHundredAreCounted() {
        let e = errors((0..<104).map { "a: \($0)\n" }.joined())
        #expect(e.count == 101)
        #expect(e.prefix(100).allSatisfy { $0.message == "duplicate key 'a' in one mapping (first at line 1, column 1)" })
        #expect(e.last?.message == "3 more duplicate keys not listed (only the first 100 are)")
        #expect(e.last?.location == SourceLocation(line: 102, column: 1))
        #expect(e.last?.hint == "remove or rename the repeated keys listed above, then check the file again to see the rest")
        // Exactly 100: no count.
        #expect(errors((0..<101).map { "a: \($0)\n" }.joined()).count == 100)
    }

    /// Past 1,000,000 YAML values the error mentions aliases only when the file expanded one (trial
    /// s34 F8: a 10 MB file of 100,000 entities and no alias was told "after expanding aliases");
    /// both hints say what to do and state the limits (1,000,000 values, 100,000 entities, 16 MiB).
    @Test func valueLimitMentionsAliasesOnlyWhenTheFileExpandedOne() {
        let zeros = Array(repeating: "0", count: 1_000_000).joined(separator: ",")
        // Values in document order: the root mapping (1), 'spatialscene/1' (2), the list (3), then
        // its zeros (4, 5, …): the 1,000,001st value is zero number 999,998, on line 2 at column
        // 5 + 2 · 999,997 = 1,999,999 ("x: [" is columns 1–4, each zero and its comma take two).
        let plain = errors("format: spatialscene/1\nx: [\(zeros)]\n")
        #expect(plain.count == 1)
        #expect(plain.first?.file == "t.scene.yaml")
        #expect(plain.first?.location == SourceLocation(line: 2, column: 1_999_999))
        #expect(plain.first?.message == "the scene has more than 1000000 YAML values (scalars, lists and mappings)")
        #expect(plain.first?.hint == "a scene file may hold at most 1000000 YAML values, 100000 entities and elements and 16 MiB (the limits bound the memory a scene takes to load); split the scene into several scene files, each checked on its own, or leave out values no rule needs")
        // An anchored list used again: the root (1), 'spatialscene/1' (2), the anchored list and its
        // two zeros (3–5), the list x (6), the alias's list and zeros counted again (7–9), then x's
        // zeros (10, …): the 1,000,001st is zero number 999,992 after the alias, at column
        // 8 + 2 · 999,991 = 1,999,990 ("x: [*z," is columns 1–7).
        let aliased = errors("format: spatialscene/1\na: &z [0, 0]\nx: [*z,\(zeros)]\n")
        #expect(aliased.count == 1)
        #expect(aliased.first?.location == SourceLocation(line: 3, column: 1_999_990))
        #expect(aliased.first?.message == "the scene has more than 1000000 YAML values (after expanding aliases)")
        #expect(aliased.first?.hint == "each use of an alias counts the values of its anchored list or mapping again (the limit also stops alias bombs); alias fewer or smaller anchors, or split the scene into several scene files, each checked on its own (a scene file may hold at most 1000000 YAML values, 100000 entities and elements and 16 MiB)")
    }

    @Test func everyDuplicateKeyIsNamedWhereItIsRepeated() {
        let e = errors("a: 1\nb: 2\na: 3\nb: 4\n")
        #expect(e.map(\.message) == ["duplicate key 'a' in one mapping (first at line 1, column 1)",
                                     "duplicate key 'b' in one mapping (first at line 2, column 1)"])
        #expect(e.map(\.location) == [SourceLocation(line: 3, column: 1), SourceLocation(line: 4, column: 1)])
        // In two mappings, inner and outer, in one run, in the order of the file.
        let nested = errors("x:\n  z: 1\n  k: 1\n  k: 2\nx: 3\n")
        #expect(nested.map(\.message) == ["duplicate key 'k' in one mapping (first at line 3, column 3)",
                                          "duplicate key 'x' in one mapping (first at line 1, column 1)"])
        #expect(nested.map(\.location) == [SourceLocation(line: 4, column: 3), SourceLocation(line: 5, column: 1)])
        // A key three times: each repetition, each naming the first.
        #expect(errors("a: 1\na: 2\na: 3\n").map(\.location) == [SourceLocation(line: 2, column: 1), SourceLocation(line: 3, column: 1)])
        // A mapping read to its end before a syntax error further on: both are reported.
        let both = errors("m: {a: 1, a: 2}\nb: [1, 2\n")
        #expect(both.count == 2 && both.first?.location == SourceLocation(line: 1, column: 11))
        #expect(both.last?.message.hasPrefix("YAML syntax error:") == true)
        // A quoted and a plain key with the same text are the same key.
        #expect(errors("{\"on\": 1, on: 2}").first?.message == "duplicate key 'on' in one mapping (first at line 1, column 2)")
        // The same key in two mappings is not a duplicate.
        #expect(tree("a: {k: 1}\nb: {k: 2}\n") == "{a@1:1: {k@1:5: number(1.0)@1:8}@1:4, b@2:1: {k@2:5: number(2.0)@2:8}@2:4}@1:1")
    }

    @Test func aDuplicateKeyWinsOverALaterLimitError() {
        // Composing came before converting: a YAML error anywhere is reported instead of a limit.
        let deep = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
        let e = errors("a: \(deep)\nb: 1\nb: 2\n")
        #expect(e.count == 1)
        #expect(e.first?.message == "duplicate key 'b' in one mapping (first at line 2, column 1)")
        #expect(errors("a: \(deep)\n").first?.message.hasPrefix("the scene is nested more than 64 levels deep (YAML or JSON") == true)
    }

    /// Past libyaml's own nesting limit (its message named its C function, session 19's trial).
    @Test func libyamlsNestingLimitIsSaidInPlainWords() {
        let e = errors("a: " + String(repeating: "[", count: 100_000) + "\n")
        let message = e.first?.message ?? ""
        // The limit in the units an author writes, not a syntax error (session 22's trial F8: a
        // JSON file was told of a "YAML syntax error").
        #expect(message.hasPrefix("the scene is nested more than 64 levels deep (YAML or JSON collections; each entity nested in 'children' takes two"), "\(message)")
        #expect(!message.contains("yaml_set_max_nest_level") && !message.contains("syntax error"))
        #expect(e.first?.hint?.hasPrefix("flatten the hierarchy") == true)
    }

    @Test func undefinedAliasIsASyntaxError() {
        let e = errors("a: *nope\n")
        #expect(e.first?.message == "YAML syntax error: found undefined alias")
        #expect(e.first?.location == SourceLocation(line: 1, column: 4))
    }

    @Test func byteOrderMarkIsNotAColumn() throws {
        // Read from a file (as the CLI reads it): `format: x` puts the value at column 9.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("yamltree-bom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, body, column) in [("b.scene.yaml", "format: x\n", 9), ("b.scene.json", "{\"format\": \"x\"}\n", 12)] {
            let path = dir.appendingPathComponent(name).path
            try Data([0xEF, 0xBB, 0xBF] + Array(body.utf8)).write(to: URL(fileURLWithPath: path))
            do {
                _ = try SceneLoader.load(path: path)
                Issue.record("\(name) loaded")
            } catch {
                let d = error.diagnostics.first { $0.message.hasPrefix("unsupported scene format") }
                #expect(d?.location == SourceLocation(line: 1, column: column), "\(name)")
            }
        }
    }

    @Test func crlfLineBreaks() {
        #expect(tree("a: 1\r\nb:\r\n  - x\r\n  - 'y'\r\n")
            == "{a@1:1: number(1.0)@1:4, b@2:1: [string(x)@3:5, string(y)@4:5]@3:3}@1:1")
    }

    @Test func emptyFileIsNamed() {
        #expect(errors("").first?.message == "the scene file is empty")
        #expect(errors("# only a comment\n").first?.message == "the scene file is empty")
    }
}

/// The plain-JSON fast path: the same tree as libyaml's path for everything it accepts, and
/// nothing it cannot read exactly (those files go through libyaml, so their results are unchanged).
@Suite struct JSONTreeTests {
    private func both(_ text: String) -> (fast: String?, libyaml: String?) {
        (JSONTree.parse(text).map(YAMLTreeTests.render),
         { var c = TreeConverter(file: "t.scene.json", fastPaths: false); return c.parse(text).map(YAMLTreeTests.render) }())
    }

    @Test func locationsAndTypes() {
        let text = "{\"a\": [1, \"x\"],\n \"b\": {\"c\": true, \"d\": null, \"e\": -2.5e1}}"
        let expected = "{a@1:2: [number(1.0)@1:8, string(x)@1:11]@1:7, b@2:2: {c@2:8: bool(true)@2:13, d@2:19: null(null)@2:24, e@2:30: number(-25.0)@2:35}@2:7}@1:1"
        let r = both(text)
        #expect(r.fast == expected)
        #expect(r.libyaml == expected)
    }

    @Test func nonASCIICountsCharacters() {
        let expected = "{é@1:2: string(ü)@1:7, k@1:12: number(1.0)@1:17}@1:1"
        #expect(both("{\"é\": \"ü\", \"k\": 1}").fast == expected)
        #expect(both("{\"é\": \"ü\", \"k\": 1}").libyaml == expected)
    }

    @Test func escapesAreReadAsLibyamlReadsThem() {
        let r = both(#"{"a": "x\"y\\z\/\u00e9\n", "b": ["", "\t"]}"#)
        #expect(r.fast != nil)
        #expect(r.fast == r.libyaml)
        #expect(r.fast == "{a@1:2: string(x\"y\\z/é\n)@1:7, b@1:28: [string()@1:34, string(\t)@1:38]@1:33}@1:1")
    }

    @Test func acceptedDocumentsMatchLibyaml() {
        for text in ["{}", "[]", "[{}, [], [[1]]]", "{\"a\":1,\"b\":[0,-0,1E5,0.5,true,false,null]}",
                     "{\n \"x\": [\n  1,\n  2\n ]\n}\n", "  {\"k\": \"with: colon\"}  \n", "{\"0x1F\": \"on\", \"on\": \"0x1F\"}"] {
            let r = both(text)
            #expect(r.fast != nil, "\(text)")
            #expect(r.fast == r.libyaml, "\(text)")
        }
    }

    @Test func everythingElseGoesThroughLibyaml() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        for text in ["{\"a\": 1, \"a\": 2}", "{\"a\":\t1}", "{\"a\": 1}\r\n", "\u{FEFF}{}", "{\"a\": 1,}", "[1 2]",
                     "{\"a\": \"\\ud83d\\ude00\"}", "{\"a\": \"x\u{85}y\"}", "{\"a\": \"x\u{2028}y\"}", "\"top\"", "1",
                     "{\"a\": 01}", "{\"a\": .5}", "{\"a\": yes}", "{a: 1}", "{\"a\"\n: 1}", "[1] # c", deep,
                     "{\"" + String(repeating: "k", count: 1_100) + "\": 1}", "", "{\"a\": 1} {}"] {
            #expect(JSONTree.parse(text) == nil, "\(text.prefix(40))")
        }
    }

    @Test func errorsAreLibyamlsWithTheFastPath() {
        // A file the fast path declines gets libyaml's diagnostics, as before.
        var c = TreeConverter(file: "t.scene.json")
        #expect(c.parse("{\"a\": 1,\n \"a\": 2}") == nil)
        #expect(c.diagnostics.first?.message == "duplicate key 'a' in one mapping (first at line 1, column 2)")
        #expect(c.diagnostics.first?.location == SourceLocation(line: 2, column: 2))
        var d = TreeConverter(file: "t.scene.json")
        #expect(d.parse("{\"a\": [1, 2}") == nil)
        #expect(d.diagnostics.first?.message.hasPrefix("YAML syntax error: did not find expected ',' or ']'") == true)
    }

    /// Nesting far past the 64-level limit (990 levels, inside libyaml's own limit of 1,000), as a
    /// value and as a mapping key, converted on a thread with a 512 KiB stack (a dispatch worker's; 8 MiB under AddressSanitizer): the limit error at
    /// the first level past it (65), no recursion into the rest (which would exhaust that stack).
    @Test func deepNestingStopsAtTheLimitOnASmallStack() {
        let depth = 990
        let value = "{a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let key = "{? " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + " : 1}"
        final class Box: @unchecked Sendable { var result: [[Diagnostic]] = [] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for text in [value, key] {
                var c = TreeConverter(file: "t.scene.yaml", fastPaths: false)
                _ = c.parse(text)
                box.result.append(c.diagnostics)
            }
            done.signal()
        }
        // AddressSanitizer's frames are several times larger (65 levels need more than 512 KiB).
        thread.stackSize = AssetImporter.runningUnderAddressSanitizer ? 8 << 20 : 512 << 10
        thread.start()
        done.wait()
        #expect(box.result.count == 2)
        // The value: `{` is level 1, its first `[` level 2, so the first level past 64 is the
        // 64th bracket, at column 4 + 64 = 68.
        #expect(box.result.first?.map(\.description) == ["t.scene.yaml:1:68: error: the scene is nested more than 64 levels deep (YAML or JSON collections; each entity nested in 'children' takes two, so about 30 nested entities)\n    hint: flatten the hierarchy (give deep entities their position under a shallower parent), or keep it in an asset, whose node hierarchy may be 256 levels deep"])
        // The key: keys are not values of the document's limits, so its nesting is cut one level
        // later, at level 66 (the first `[` is level 2 at column 4: column 4 + 64 = 68); that
        // message comes before the one about a list as a key.
        #expect(box.result.last?.first?.description == "t.scene.yaml:1:68: error: the scene is nested more than 64 levels deep (YAML or JSON collections; each entity nested in 'children' takes two, so about 30 nested entities)\n    hint: flatten the hierarchy (give deep entities their position under a shallower parent), or keep it in an asset, whose node hierarchy may be 256 levels deep")
    }
}
