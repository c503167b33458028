import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

/// Each mistake must be reported at the right line and column with what was expected and found.
@Suite struct SceneLoaderErrorTests {

    @Test func misspeltKeySuggestsTheRightOne() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                positon: [0, 1, -2]
            """)
        #expect(d?.location == SourceLocation(line: 5, column: 5))
        #expect(d?.message == "unknown key 'positon' in window 'w'")
        #expect(d?.hint == "did you mean 'position'?")
        #expect(d?.file == "test.scene.yaml")
    }

    @Test func unknownKeyWithoutCloseMatchListsValidKeys() {
        let d = LoaderFixture.single("format: spatialscene/1\nviewer: {zzzzzzzz: 1}\n")
        #expect(d?.location == SourceLocation(line: 2, column: 10))
        #expect(d?.hint?.hasPrefix("valid keys: 'posture', 'eyeHeight'") == true)
    }

    /// The same unknown key on many mappings of one kind: every one is an error at its own place,
    /// the list of valid keys is given once (the first), then "valid keys as above". Another key,
    /// or the same key in another kind of mapping, gets the list again.
    @Test func aRepeatedUnknownKeyListsTheValidKeysOnce() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            viewer: {zzzzzzzz: 1}
            entities:
              - {id: a, kind: window, zzzzzzzz: 1}
              - {id: b, kind: window, zzzzzzzz: 1}
              - {id: c, kind: window, qqqqqqqq: 1}
              - {id: d, kind: window, zzzzzzzz: 1}
            """).filter { $0.message.hasPrefix("unknown key") }
        #expect(errs.map(\.message) == ["unknown key 'zzzzzzzz' in 'viewer'", "unknown key 'zzzzzzzz' in window 'a'", "unknown key 'zzzzzzzz' in window 'b'",
                                       "unknown key 'qqqqqqqq' in window 'c'", "unknown key 'zzzzzzzz' in window 'd'"])
        #expect(errs.map { $0.location?.line } == [2, 4, 5, 6, 7])
        let full = errs.map { $0.hint?.hasPrefix("valid keys: '") == true }
        #expect(full == [true, true, false, true, false])
        #expect(errs[2].hint == "valid keys as above" && errs[4].hint == "valid keys as above")
        #expect(errs[1].hint == errs[3].hint)
    }

    @Test func keyOfAnotherKind() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: m, kind: group, fontSize: 12}
            """)
        #expect(d?.location == SourceLocation(line: 3, column: 26))
        #expect(d?.message == "'fontSize' is not a key of group 'm'; it applies to text entities, not group")
    }

    @Test func wrongType() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: big
            """)
        #expect(d?.location == SourceLocation(line: 5, column: 11))
        #expect(d?.message == "'size' of a window expects [width, height] in points, found a string \"big\"")
    }

    @Test func wrongArrayLength() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: g, kind: group, position: [1, 2]}
            """)
        #expect(d?.location == SourceLocation(line: 3, column: 36))
        #expect(d?.message == "'position' of group 'g' expects [x, y, z] in metres (3 numbers), found a list of 2 items")
    }

    @Test func badEnumValue() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            immersion: progresive
            """)
        #expect(d?.location == SourceLocation(line: 2, column: 12))
        #expect(d?.message == "'immersion' expects one of 'shared', 'mixed', 'progressive', 'full', found 'progresive'")
        #expect(d?.hint == "did you mean 'progressive'?")
    }

    @Test func missingFormat() {
        let d = LoaderFixture.single("name: x\nentities: []\n")
        #expect(d?.location == SourceLocation(line: 1, column: 1))
        #expect(d?.message == "the scene is missing 'format'; supported formats: 'spatialscene/1'")
        let other = LoaderFixture.single("format: spatialscene/2\n")
        #expect(other?.location == SourceLocation(line: 1, column: 9))
        #expect(other?.message == "unsupported scene format 'spatialscene/2'; supported formats: 'spatialscene/1'")
    }

    @Test func nonFiniteNumbers() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            frameRate: .nan
            entities:
              - {id: g, kind: group, position: [.inf, 0, 1e999]}
            """)
        #expect(errs.map(\.location) == [SourceLocation(line: 2, column: 12), SourceLocation(line: 4, column: 37),
                                     SourceLocation(line: 4, column: 46)])
        #expect(errs.first?.message == "'frameRate' must be a finite number, found .nan")
        #expect(errs[1].message == "an item of 'position' of group 'g' must be a finite number, found .inf")
        #expect(errs[2].message == "an item of 'position' of group 'g' must be a finite number, found 1e999")
    }

    @Test func duplicateIdNamesBothLocations() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: a, kind: group}
              - {id: a, kind: group}
            """)
        #expect(d?.location == SourceLocation(line: 4, column: 10))
        #expect(d?.message == "duplicate id 'a': a sibling at 3:10 already uses it")
        #expect(d?.hint?.contains("3:10") == true && d?.hint?.contains("4:10") == true)
    }

    @Test func elementAndChildShareTheSiblingNamespace() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                elements: [{id: x, frame: [0, 0, 10, 10]}]
                children: [{id: x, kind: group}]
            """)
        #expect(d?.location == SourceLocation(line: 6, column: 21))
    }

    @Test func unknownEventEntity() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: alert, kind: group}
            events:
              - {t: 1, action: show, entity: alret}
            """)
        #expect(d?.location == SourceLocation(line: 5, column: 34))
        #expect(d?.message == "event refers to an unknown entity 'alret'")
        #expect(d?.hint == "did you mean 'alert'?")
    }

    @Test func nonIncreasingKeyframeTimes() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: g
                kind: group
                animation:
                  keyframes:
                    - {t: 0}
                    - {t: 2}
                    - {t: 2}
            """)
        #expect(d?.location == SourceLocation(line: 9, column: 15))
        #expect(d?.message == "keyframe times must be strictly increasing: t = 2 follows t = 2")
    }

    @Test func positionAndPlacement() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                position: [0, 1, -2]
                placement: {distance: 2}
            """)
        #expect(d?.location == SourceLocation(line: 6, column: 5))
        #expect(d?.message == "window 'w' gives both 'position' and 'placement'; give one of them")
    }

    @Test func placementOnAChild() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: g
                kind: group
                children:
                  - id: c
                    kind: text
                    string: hi
                    fontSize: 17
                    placement: {distance: 2}
            """)
        #expect(d?.location == SourceLocation(line: 10, column: 9))
        #expect(d?.message == "'placement' is only for top-level entities; text 'c' is a child")
    }

    @Test func rotationAndQuaternion() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: g, kind: group, rotation: {yaw: 1}, quaternion: [0, 0, 0, 1]}
            """)
        #expect(d?.location == SourceLocation(line: 3, column: 46))
        #expect(d?.message == "group 'g' gives both 'rotation' and 'quaternion'; give one of them")
    }

    @Test func zeroScaleAndZeroQuaternion() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: g, kind: group, scale: 0, quaternion: [0, 0, 0, 0]}
            """)
        #expect(errs.map(\.location) == [SourceLocation(line: 3, column: 33), SourceLocation(line: 3, column: 48)])
        #expect(errs.first?.message == "'scale' of group 'g' must be greater than 0, found 0")
    }

    @Test func yamlSyntaxError() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - id: w
                kind: [window
            """)
        // The unclosed '[' of the last line (4 spaces, 'kind:', a space: column 11), not the end of
        // the input on a line 5 that the file does not have.
        #expect(d?.location == SourceLocation(line: 4, column: 11))
        #expect(d?.message.hasPrefix("YAML syntax error:") == true)
        let dup = LoaderFixture.single("format: spatialscene/1\nname: a\nname: b\n")
        #expect(dup?.message == "duplicate key 'name' in one mapping (first at line 2, column 1)")
        #expect(dup?.location == SourceLocation(line: 3, column: 1))
    }

    /// A file lists its first 1,000 errors in file order, then one error counts the rest and
    /// points at the first of them (trial s34 F2: 440,000 errors made a 258 MB SARIF report).
    @Test func errorsPastTheFirstThousandAreCounted() {
        var text = "format: spatialscene/1\nentities:\n"
        for i in 0..<1_003 { text += "  - {id: e\(i), kind: volume, size: [1, 1, 1], positon: [0, 0, 0]}\n" }
        let errs = LoaderFixture.errors(text)
        #expect(errs.count == 1_001)
        #expect(errs.prefix(1_000).allSatisfy { $0.message.contains("positon") })
        #expect(errs.prefix(1_000).map { $0.location?.line } == (0..<1_000).map { 3 + $0 })
        #expect(errs.last?.message == "3 more errors in this file not listed (only the first 1000 are)")
        #expect(errs.last?.location?.line == 1_003)
        #expect(errs.last?.hint == "fix the errors listed above, then check the file again to see the rest")
    }

    static let hexHint = "quote a hex colour (color: \"#FFFFFF\"): in YAML an unquoted # starts a comment"

    /// s26 F14: an unquoted hex colour in a flow mapping, the style of the format's element
    /// examples: the `#` starts a comment that swallows `}]}`, so libyaml stops at the end of the
    /// line (152 characters: column 153) with a bare syntax error. It gets the block style's hint.
    @Test func unquotedHexColourInAFlowMappingGetsTheQuotingHint() {
        let line = "  - {id: w, kind: window, placement: {distance: 1.5}, size: [400, 300], elements: [{id: t, role: text, frame: [0,0,100,20], label: Hi, color: #FF0000}]}"
        let d = LoaderFixture.single("format: spatialscene/1\nentities:\n\(line)\n")
        #expect(d?.location == SourceLocation(line: 3, column: 153))
        #expect(d?.message == "YAML syntax error: did not find expected node content at the end of the file (while parsing a flow node at 4:1)")
        #expect(d?.hint == Self.hexHint)
        // `background:` too.
        let bg = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: w, kind: window, size: [400, 300], background: #000000}\n")
        #expect(bg?.hint == Self.hexHint)
        // Only where a colour key is followed by an unquoted '#': an unclosed flow mapping without
        // one keeps libyaml's hint (none), and a '#' in a comment before the key does not count.
        let plain = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: w, kind: window, size: [400, 300]\n")
        #expect(plain?.message.hasPrefix("YAML syntax error:") == true)
        #expect(plain?.hint != Self.hexHint)
        let comment = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: w, kind: window, size: [400, 300] # color: #000000\n")
        #expect(comment?.message.hasPrefix("YAML syntax error:") == true)
        #expect(comment?.hint != Self.hexHint)
        #expect(TreeConverter.hasUnquotedHexColour(Array("{id: t, tintColor:  #FF0000}".unicodeScalars)))
        #expect(!TreeConverter.hasUnquotedHexColour(Array("{id: t, color: \"#FF0000\"}".unicodeScalars)))
        #expect(!TreeConverter.hasUnquotedHexColour(Array("{id: t, label: #1}".unicodeScalars)))
    }

    /// s26 F14: names of components that are no role say how the format models them; a misspelt
    /// role keeps its "did you mean".
    @Test func componentNamesThatAreNoRoleGetAHint() {
        func hint(_ role: String) -> String? {
            LoaderFixture.errors("""
                format: spatialscene/1
                entities:
                  - {id: w, kind: window, size: [400, 300], elements: [{id: e, role: \(role), frame: [0, 0, 60, 44]}]}
                """).first { $0.message.hasPrefix("'role' of element 'e'") }?.hint
        }
        #expect(hint("segmented") == "a segmented control is a 'picker' (role: picker)")
        #expect(hint("SegmentedControl") == "a segmented control is a 'picker' (role: picker)")
        #expect(hint("popover") == "a popover is a window nested in the window it opens from, with presentation: popover (see Sheets, alerts, popovers and menus in the scene format)")
        #expect(hint("contextMenu") == "a context menu is a window nested in the window it opens from, with presentation: menu (see Sheets, alerts, popovers and menus in the scene format); its items are role: row")
        #expect(hint("menuItem") == "a row of a system list, form or menu is role: row")
        #expect(hint("listRow") == "a row of a system list, form or menu is role: row")
        #expect(hint("switch") == "a switch or checkbox is a 'toggle' (role: toggle)")
        #expect(hint("textfield") == "did you mean 'textField'?")
        // s29 trial F11: more components, and every role listed in the message.
        #expect(hint("list") == "a system list is the rows it holds: each row is role: row (the list itself needs no element)")
        #expect(hint("tabBar") == "a tab bar is a 'toolbar' element (role: toolbar) holding 'tab' elements (role: tab), or an ornament of tabs (see Ornaments in the scene format)")
        #expect(hint("reticle") == "an AR placement reticle is a 'placementIndicator' (role: placementIndicator)")
        #expect(hint("pageIndicator") == "page dots are a 'pageControl' (role: pageControl)")
        #expect(hint("ScrollView")?.hasPrefix("a layout container is not an element") == true)
        #expect(hint("spinner")?.hasPrefix("a progress indicator is an 'image'") == true)
        let message = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, size: [400, 300], elements: [{id: e, role: dial, frame: [0, 0, 60, 44]}]}
            """).first { $0.message.hasPrefix("'role' of element 'e'") }?.message ?? ""
        #expect(ElementRole.allCases.count == 20 && ElementRole.allCases.allSatisfy { message.contains("'\($0.rawValue)'") } && !message.contains("…"))
    }

    /// s27 F8: a data-viz team's "wrong concept" errors say how the format models the thing: an
    /// ornament kind, a tooltip or grid cell role, element facts written on a model.
    @Test func wrongConceptsGetTheFormatsWay() {
        func roleHint(_ role: String) -> String? {
            LoaderFixture.errors("""
                format: spatialscene/1
                entities:
                  - {id: w, kind: window, size: [400, 300], elements: [{id: e, role: \(role), frame: [0, 0, 60, 44]}]}
                """).first { $0.message.hasPrefix("'role' of element 'e'") }?.hint
        }
        let cell = "a cell of a grid or spreadsheet is a 'button' (role: button) when people tap or select it, a 'textField' (role: textField) when they edit it; only the rows of a vertical list are role: row"
        #expect(roleHint("gridCell") == cell)
        #expect(roleHint("cell") == cell)
        #expect(roleHint("tooltip") == "a tooltip is the helpText of the element it explains (helpText: Share the photo); a custom one is a 'text' element (role: text) that starts hidden (visible: false) and is shown and hidden with events")
        #expect(roleHint("listItem") == "a row of a system list, form or menu is role: row")

        let ornament = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - id: chart
                kind: volume
                size: [0.5, 0.5, 0.5]
                children:
                  - {id: tools, kind: ornament, position: [0, -0.3, 0.25], size: [300, 60]}
            """).first { $0.message.hasPrefix("'kind' of an entity") }
        #expect(ornament?.location == SourceLocation(line: 7, column: 27))
        #expect(ornament?.hint == "there is no ornament kind: model an ornament as a child window (kind: window) of the window or volume it belongs to, placed at its edge (see Ornaments in the scene format)")
        // A misspelt kind keeps its "did you mean".
        #expect(LoaderFixture.errors("format: spatialscene/1\nentities:\n  - {id: w, kind: widow, size: [400, 300]}\n")
            .first { $0.message.hasPrefix("'kind' of an entity") }?.hint == "did you mean 'window'?")

        let model = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: p0, kind: model, asset: robot.glb, hoverEffect: highlight, hitRegion: {size: [60, 60]}, interaction: tap, accessibilityLabel: Point}
            """).filter { $0.message.hasPrefix("unknown key") }
        #expect(model.map(\.message) == ["unknown key 'hoverEffect' in model 'p0'", "unknown key 'hitRegion' in model 'p0'",
                                          "unknown key 'interaction' in model 'p0'"])
        #expect(model.map(\.hint) == ["hoverEffect", "hitRegion", "interaction"].map {
            "facts about an asset's input go in its annotations, per asset node: annotations: [{nodes: \"**\", \($0): …}] (see Annotations in the scene format)"
        })
        // Elsewhere an unknown key keeps its "did you mean".
        #expect(LoaderFixture.errors("format: spatialscene/1\nentities:\n  - {id: g, kind: group, hoverEffect: highlight}\n")
            .first { $0.message == "unknown key 'hoverEffect' in group 'g'" }?.hint?.hasPrefix("facts about") == false)
    }

    @Test func jsonErrorsHaveLineAndColumn() {
        let d = LoaderFixture.single("""
            {
              "format": "spatialscene/1",
              "entities": [{"id": "w", "kind": "window", "size": [1280, "720"]}]
            }
            """, name: "x.scene.json")
        #expect(d?.location == SourceLocation(line: 3, column: 61))
        #expect(d?.message == "an item of 'size' of a window expects a number, found a string \"720\"")
        let syntax = LoaderFixture.single("{\"format\": \"spatialscene/1\",,}", name: "x.scene.json")
        #expect(syntax?.location?.line == 1 && syntax?.message.hasPrefix("YAML syntax error:") == true)
    }

    @Test func severalErrorsAllReportedSortedByLocation() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            platform: visonOS
            viewer:
              eyeHeight: -1
            entities:
              - id: w
                kind: window
                elements:
                  - {id: b, role: buton, frame: [0, 0, 0, 10]}
              - {id: bad/id, kind: model, asset: robot.glb}
              - {kind: group}
            events:
              - {t: -1, action: recenter}
            """)
        #expect(errs.map(\.location) == [
            SourceLocation(line: 2, column: 11), SourceLocation(line: 4, column: 14),
            SourceLocation(line: 9, column: 23), SourceLocation(line: 9, column: 37),
            SourceLocation(line: 10, column: 10), SourceLocation(line: 11, column: 5),
            SourceLocation(line: 13, column: 9),
        ])
        #expect(errs[2].hint == "did you mean 'button'?")
        #expect(errs[4].message == "'id' 'bad/id' may contain only letters (of any script), the digits 0-9, '-', '_' and '.'")
        #expect(errs[5].message == "an entity is missing the required key 'id'")
        // The description is compiler-style.
        #expect(errs[0].description.hasPrefix("test.scene.yaml:2:11: error: 'platform' expects one of"))
    }

    @Test func elementsOnlyInContainers() {
        let d = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: g, kind: group, elements: []}
            """)
        #expect(d?.location == SourceLocation(line: 3, column: 26))
        #expect(d?.message.hasPrefix("'elements' is not a key of group 'g'; it applies to window, volume entities") == true)
    }

    @Test func hostileInputIsContained() {
        // Deep nesting beyond the limit.
        let deep = "format: spatialscene/1\nname: " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n"
        let d = LoaderFixture.single(deep)
        #expect(d?.message.contains("nested more than 64 levels") == true)
        // Deeper than libyaml's own limit: still a clean error, no crash.
        let deeper = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(LoaderFixture.errors(deeper).count == 1)
        // Alias bomb.
        var bomb = "format: spatialscene/1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...8 { bomb += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let b = LoaderFixture.single(bomb)
        #expect(b?.message.contains("more than 100000 YAML values through aliases") == true)
        // A huge string.
        let long = "format: spatialscene/1\nname: " + String(repeating: "a", count: 70_000) + "\n"
        #expect(LoaderFixture.single(long)?.message.contains("the limit is 65536") == true)
        // Not a mapping at all / empty file.
        #expect(LoaderFixture.single("- 1\n- 2\n")?.message == "the top level of a scene file expects a mapping, found a list of 2 items")
        #expect(LoaderFixture.single("")?.message == "the scene file is empty")
    }

    @Test func loadFromDiskAndMissingFile() throws {
        let p = LoaderFixture.write("disk.scene.yaml", "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: robot.glb}\n")
        let scene = try SceneLoader.load(path: p, importer: LoaderFixture.importer)
        #expect(scene.path == p && scene.entities.count == 2)
        do {
            _ = try SceneLoader.load(path: p + ".nope", importer: LoaderFixture.importer)
            Issue.record("expected a failure")
        } catch {
            #expect(error.diagnostics.first?.message == "scene file not found")
        }
    }
}

@Suite struct SceneLoaderLimitTests {
    @Test func entityCountLimit() {
        var text = "format: spatialscene/1\nentities:\n"
        text.reserveCapacity(3_000_000)
        for i in 0...100_000 { text += "  - {id: e\(i), kind: group}\n" }
        let errs = LoaderFixture.errors(text)
        #expect(errs.count == 1)
        #expect(errs.first?.message == "the scene has more than 100000 entities and elements (this is number 100001), so it is not checked")
        #expect(errs.first?.hint?.contains("split it into scenes of at most 100000") == true)
        #expect(errs.first?.location == SourceLocation(line: 100_003, column: 5))
    }
}

@Suite struct SceneLoaderAliasTests {
    @Test func aliasBombAsAKeyIsRejectedBeforeComposing() {
        var bomb = "format: spatialscene/1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1...8 { bomb += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        for (tail, column) in [("? *a8\n: 1\n", 1), ("*a8 : 1\n", 1), ("x: {*a8: 1}\n", 5), ("[*a8]: 1\n", 5)] {
            let errs = LoaderFixture.errors(bomb + tail)
            #expect(errs.count == 1)
            #expect(errs.first?.location == SourceLocation(line: 11, column: column))
            #expect(errs.first?.message == "a list, mapping or alias used as a mapping key is not supported in scene files")
        }
    }

    @Test func anchorsAndAliasesAsValuesWork() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                size: &sz [800, 600]
                placement: {distance: 2}
              - {id: w2, kind: window, size: *sz, placement: {distance: 2, azimuth: 40}}
            """)
        #expect(scene.entities[1].sizePt == SIMD2(800, 600))
    }
}

@Suite struct SceneLoaderHugeNumberTests {
    @Test func hugeFiniteNumbersDoNotCrash() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: m, kind: model, asset: robot.glb, assetUnits: 1e300, scale: 1e300}
              - {id: g, kind: group, position: [1e308, 1e308, 1e308], scale: 1e308, children: [{id: c, kind: group, position: [1e308, 0, 0]}]}
              - {id: w, kind: window, size: [1e308, 1e308], position: [0, 0, -1e308]}
            """)
        #expect(!errs.isEmpty)
        #expect(errs.allSatisfy { $0.location != nil })
    }
}
