import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// The block-YAML fast path (`YAMLFastTree`): for every document it accepts, the same tree as
/// libyaml's path (`TreeConverter` without fast paths) — node types, values to the bit, and the
/// line:column of every value and key; everything it cannot read exactly is declined and goes
/// through libyaml, so diagnostics are libyaml's.
@Suite struct YAMLFastTreeTests {
    private static func fast(_ text: String) -> String? {
        YAMLFastTree.parse(text).map(YAMLTreeTests.render)
    }

    private static func libyaml(_ text: String) -> (tree: String?, diagnostics: [String]) {
        var c = TreeConverter(file: "t.scene.yaml", fastPaths: false)
        let tree = c.parse(text).map(YAMLTreeTests.render)
        return (tree, c.diagnostics.map(\.description))
    }

    private static func converter(_ text: String) -> (tree: String?, diagnostics: [String]) {
        var c = TreeConverter(file: "t.scene.yaml")
        let tree = c.parse(text).map(YAMLTreeTests.render)
        return (tree, c.diagnostics.map(\.description))
    }

    /// Both paths give `expected`.
    private func check(_ text: String, _ expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(Self.fast(text) == expected, sourceLocation: sourceLocation)
        #expect(Self.libyaml(text).tree == expected, sourceLocation: sourceLocation)
    }

    @Test func blockAndFlowCollectionsWithTheirLocations() {
        let text = """
            name: Demo scene
            viewer:
              posture: standing
              path:
                - {t: 0, position: [0, 1.6, -2]}
            entities:
            - id: w0
              kind: window
              frame: [1.5, -0.25]

            """
        check(text, "{name@1:1: string(Demo scene)@1:7, viewer@2:1: {posture@3:3: string(standing)@3:12, "
            + "path@4:3: [{t@5:8: number(0.0)@5:11, position@5:14: [number(0.0)@5:25, number(1.6)@5:28, number(-2.0)@5:33]@5:24}@5:7]@5:5}@3:3, "
            + "entities@6:1: [{id@7:3: string(w0)@7:7, kind@8:3: string(window)@8:9, frame@9:3: [number(1.5)@9:11, number(-0.25)@9:16]@9:10}@7:3]@7:1}@1:1")
    }

    @Test func commentsQuotesFlowOverLinesAndNonASCII() {
        // Columns count characters: `ü` and `é` are one column each (two bytes in UTF-8). The root
        // mapping starts at its first key, after the comment.
        let text = "# header\na: 'it''s'   # note\nb: \"x\\ty é\"\nc: [\n    1,   # one\n    {k: ü, m: v}\n  ]\nd: x#y\né: z\n"
        check(text, "{a@2:1: string(it's)@2:4, b@3:1: string(x\ty é)@3:4, c@4:1: [number(1.0)@5:5, "
            + "{k@6:6: string(ü)@6:9, m@6:12: string(v)@6:15}@6:5]@4:4, d@8:1: string(x#y)@8:4, é@9:1: string(z)@9:4}@2:1")
    }

    @Test func scalarsAreTypedAsYAML11() {
        // 010 is octal, 0x1F hexadecimal, 1e3 a float; trailing spaces are not part of a plain scalar.
        let text = "i: 42\nn: -7\nf: 0.125\nz: -0.0\no: 010\nh: 0x1F\ne: 1e3\nt: true\ny: yes\nnul: ~\ns: 1.2.3\nw: two words here   \nq: \"1\"\nm: -0\n"
        check(text, "{i@1:1: number(42.0)@1:4, n@2:1: number(-7.0)@2:4, f@3:1: number(0.125)@3:4, z@4:1: number(-0.0)@4:4, "
            + "o@5:1: number(8.0)@5:4, h@6:1: number(31.0)@6:4, e@7:1: number(1000.0)@7:4, t@8:1: bool(true)@8:4, "
            + "y@9:1: bool(true)@9:4, nul@10:1: null(~)@10:6, s@11:1: string(1.2.3)@11:4, w@12:1: string(two words here)@12:4, "
            + "q@13:1: string(1)@13:4, m@14:1: number(-0.0)@14:4}@1:1")
    }

    @Test func nestedBlockCollections() {
        // A sequence at its key's column (b), a mapping that starts on a `-` line, an empty flow mapping.
        let text = "a:\n  b:\n  - 1\n  - two\n  c: {}\nlist:\n  - x: 1\n    y:\n      - []\n  - 'q'\n"
        check(text, "{a@1:1: {b@2:3: [number(1.0)@3:5, string(two)@4:5]@3:3, c@5:3: {}@5:6}@2:3, "
            + "list@6:1: [{x@7:5: number(1.0)@7:8, y@8:5: [[]@9:9]@9:7}@7:5, string(q)@10:5]@7:3}@1:1")
    }

    @Test func acceptedDocumentsMatchLibyaml() {
        for text in ["a : 1\n", "\"q k\": 1\n'r': [a b, 'c d']\n", "a:   x  # c\n", "a:\n  -   id: x\n      k: 1\n",
                     "a: {}\n\n   \n# c\n  # indented comment\nb: []\n", "a: [1, [2, {b: c}], {}]\n", "a: x",
                     "list:\n- a\n- b\nnext: 1\n", "a: {k: 'v', l: \"w\"}   \n", "a: [a#b, c]\n", "a: <<\n", "a: .5\n",
                     "a: 1_000\n", "a: +1\n", "a: -1.5e3\n", "a: 12345678901234567\n", "a: 0.1234567890123456\n",
                     "a: Yes\nb: NO\nc: Null\nd: off\n", "a: [x , y ]\n", "a: {k: [\n  1],\n  l: 2}\n",
                     "a:\n  b:\n    c:\n      - [1]\n  d: e\n", "a: \"\\u00e9\\\"\\/\"\n", "k-1: -x\n", "é: ü ö\n"] {
            let fast = Self.fast(text)
            #expect(fast != nil, "\(text)")
            #expect(fast == Self.libyaml(text).tree, "\(text)")
        }
    }

    @Test func everyPrintableByteInAPlainScalarIsReadAsLibyamlReadsIt() {
        // The plain-scalar scan takes `-./0-9A-Za-z` without further checks; every printable
        // ASCII byte, inside a scalar and at its end, in block and flow context, must still give
        // libyaml's tree (or be declined and get libyaml's result).
        var accepted = 0
        for b in UInt8(0x21)...UInt8(0x7E) {
            let c = String(UnicodeScalar(b))
            for text in ["a: x\(c)y\n", "a: x\(c)\n", "a: [x\(c)y, z]\n", "a: {k: x\(c)y}\n", "a: [x\(c)]\n"] {
                let reference = Self.libyaml(text)
                if let fast = Self.fast(text) {
                    accepted += 1
                    #expect(fast == reference.tree, "\(text)")
                }
                let converted = Self.converter(text)
                #expect(converted.tree == reference.tree, "\(text)")
                #expect(converted.diagnostics == reference.diagnostics, "\(text)")
            }
        }
        // The fast path reads at least the 65 bytes of the usual class in all five forms.
        #expect(accepted >= 65 * 5)
    }

    @Test func decimalsAreTheDoublesLibyamlsPathReads() {
        // Decimals of up to 15 digits are read without `Double(String)`; they must be the same
        // doubles to the bit. Deterministic pseudo-random digits, 1–15 of them, with and without sign.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var values: [String] = ["0.1", "0.2", "0.3", "2.675", "1.005", "999999999999999", "99999999999999.9",
                                "0.000000000000001", "123456789012345", "-0.5", "7", "-7", "0", "0.0"]
        for _ in 0..<2_000 {
            let digits = Int(next() % 15) + 1
            var s = String(Int(next() % 9) + 1)
            for _ in 1..<digits { s += String(next() % 10) }
            let point = Int(next() % UInt64(digits + 1))
            if point > 0, point < digits {
                s.insert(".", at: s.index(s.startIndex, offsetBy: point))
            } else if point == digits, digits > 1 {
                s = "0." + s.dropFirst()
            }
            values.append(next() % 2 == 0 ? "-" + s : s)
        }
        let text = "v: [" + values.joined(separator: ", ") + "]\n"
        let fastTree = YAMLFastTree.parse(text)
        let slowTree: YNode? = { var c = TreeConverter(file: "t", fastPaths: false); return c.parse(text) }()
        func numbers(_ n: YNode?) -> [UInt64] {
            guard case let .mapping(pairs)? = n?.kind, case let .sequence(items) = pairs.first?.value.kind else { return [] }
            return items.map { if case let .scalar(s) = $0.kind { return s.number?.bitPattern ?? 1 } else { return 2 } }
        }
        #expect(numbers(fastTree).count == values.count)
        #expect(numbers(fastTree) == numbers(slowTree))
        // And against values written out by hand.
        #expect(Self.fast("v: [0.1, -2.675, 123456789012345, 0.000000000000001]\n")
            == "{v@1:1: [number(0.1)@1:5, number(-2.675)@1:10, number(123456789012345.0)@1:18, number(1e-15)@1:35]@1:4}@1:1")
    }

    @Test func everySceneInTheRepositoryMatchesLibyaml() throws {
        let root = TestPaths.repoRoot.appendingPathComponent("Scenes")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count > 100)
        var declined: [String] = []
        for name in files {
            let text = try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
            guard let fast = Self.fast(text) else {
                declined.append(name)
                continue
            }
            #expect(fast == Self.libyaml(text).tree, "\(name)")
        }
        // Every scene file is in the subset.
        #expect(declined == [])
    }

    /// The hostile corpus (syntax errors, limits, odd characters, alias bombs — nearly all load
    /// errors): the converter's tree or diagnostics are the same with and without the fast paths,
    /// and whatever the fast path accepts is libyaml's tree.
    @Test func hostileCorpusGivesTheSameResultsWithTheFastPath() throws {
        let root = TestPaths.repoRoot.appendingPathComponent("Tests/Corpus/hostile-scenes")
        let files = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count > 600)
        var accepted = 0
        for name in files {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path),
                  let text = String(data: data, encoding: .utf8) else { continue }
            let withFastPaths = Self.converter(text), without = Self.libyaml(text)
            #expect(withFastPaths.tree == without.tree, "\(name)")
            #expect(withFastPaths.diagnostics == without.diagnostics, "\(name)")
            if Self.fast(text) != nil { accepted += 1 }
        }
        // Some hostile files are well-formed YAML whose problems are the scene's (limits, values).
        #expect(accepted > 0)
    }

    @Test func generatedScenesMatchLibyaml() throws {
        for args in [["--entities", "400"], ["--entities", "400", "--crowded"], ["--entities", "200", "--dense"],
                     ["--entities", "200", "--crowded", "--still"]] {
            let text = try Self.generate(args + ["--seed", "3"])
            #expect(text.utf8.count > 10_000)
            let fast = Self.fast(text)
            #expect(fast != nil, "\(args)")
            #expect(fast == Self.libyaml(text).tree, "\(args)")
        }
    }

    private static func generate(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", TestPaths.repoRoot.appendingPathComponent("Tools/gen-scenes").path] + args
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func everythingElseIsDeclinedAndReadByLibyaml() {
        let deep = "a: " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\n"
        let longKey = String(repeating: "k", count: 1_001) + ": 1\n"
        let inputs = [
            "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  text\n", "a: >\n  text\n", "a: hello\n  world\n",
            "a: 'x\n  y'\n", "a: \"x\n  y\"\n", "a:\t1\n", "a: 1\r\nb: 2\r\n", "\u{FEFF}a: 1\n", "a: x\u{85}y\n",
            "a: x\u{2028}y\n", "# \u{7F}\na: 1\n", "? a\n: 1\n", "a: 1\na: 2\n", "a: {k: 1, k: 2}\n", "a:\nb: 1\n", "a:\n",
            "---\na: 1\n", "a: 1\n...\n", "a: 1\n---\nb: 2\n", "%YAML 1.1\n---\na: 1\n", "a: [1, 2,]\n", "a: b: c\n",
            "a: [1, 2\n", "a:b\n", "- a\n- b\n", "  a: 1\n", "a: \"\\x41\"\n", "a: 1 # c\n  b: 2\n", "a: 1\n b: 2\n",
            "a: [1]#c\n", "a: 'x'y\n", "a: x:y\n", "a: -\n", "a: {b}\n", "a: [b: 1]\n", "a: @x\n", "a: 1\n\tb: 2\n",
            "a: [\n1]\n", "a:\n  - 1\n   - 2\n", "a:\n  -\n    1\n", "a:\n  - - 1\n", "{a: 1}\n", "a\n", "", "# only\n",
            "a: \"\\ud800\"\n", "a: *b\n", "[a]: 1\n", deep, longKey,
        ]
        for text in inputs {
            #expect(Self.fast(text) == nil, "\(text.prefix(40))")
            // The converter's result (a tree or diagnostics) is libyaml's.
            let withFastPaths = Self.converter(text), without = Self.libyaml(text)
            #expect(withFastPaths.tree == without.tree, "\(text.prefix(40))")
            #expect(withFastPaths.diagnostics == without.diagnostics, "\(text.prefix(40))")
        }
    }

    @Test func declinedFilesGetLibyamlsMessages() {
        let duplicate = Self.converter("a: 1\nb: 2\na: 3\n")
        #expect(duplicate.diagnostics == ["t.scene.yaml:3:1: error: duplicate key 'a' in one mapping (first at line 1, column 1)\n    hint: each key may appear once; remove or rename the repeated one"])
        let unclosed = Self.converter("a: [1, 2\n")
        #expect(unclosed.tree == nil)
        #expect(unclosed.diagnostics.first?.contains("error: YAML syntax error: did not find expected ',' or ']'") == true)
        // Level 65 (the root is level 1) is the 64th bracket, at column 3 + 64 = 67.
        let deep = Self.converter("a: " + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "\n")
        #expect(deep.diagnostics == ["t.scene.yaml:1:67: error: the scene is nested more than 64 levels deep (YAML or JSON collections; each entity nested in 'children' takes two, so about 30 nested entities)\n    hint: flatten the hierarchy (give deep entities their position under a shallower parent), or keep it in an asset, whose node hierarchy may be 256 levels deep"])
    }
}
