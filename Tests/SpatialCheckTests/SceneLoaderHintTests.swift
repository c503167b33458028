import Foundation
import Testing
@testable import SceneLoader
import SpatialCheck
import SpatialModel

/// Mistakes a new user makes, and what the loader tells them: YAML syntax errors in plain words at
/// a location inside the file, suggestions for unit abbreviations, letter-case hints for asset
/// paths, and warnings for sizes given in the wrong unit.
@Suite struct SceneLoaderHintTests {

    static let tabHint = "YAML does not allow tabs for indentation; use spaces"
    static let indentationHint = "check the indentation of this line and the one above, and that a key's value with ':' is quoted"

    // MARK: - YAML syntax errors

    @Test func tabIndentationIsNamed() {
        // The new user's file: line 5 starts with a tab where four spaces belong, after a line that
        // ends in a flow mapping.
        let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - id: w\n    placement: {distance: 2}\n\tsize: [800, 560]\n")
        #expect(d?.location == SourceLocation(line: 5, column: 1))
        // libyaml's own words are kept, the advice is in the hint.
        #expect(d?.message == "YAML syntax error: found character that cannot start any token (while scanning for the next token at 5:1)")
        #expect(d?.hint == Self.tabHint)
        // After a plain value, libyaml names the tab itself.
        let plain = LoaderFixture.single("format: spatialscene/1\nviewer:\n  posture: seated\n\teyeHeight: 1.2\n")
        #expect(plain?.location == SourceLocation(line: 4, column: 1))
        #expect(plain?.message == "YAML syntax error: found a tab character that violates indentation (while scanning a plain scalar at 3:12)")
        #expect(plain?.hint == Self.tabHint)
    }

    @Test func mappingValuesNotAllowedGetsTheIndentationHint() {
        // `kind:` indented deeper than `id:` of the same list item (the new user's mistake): the
        // error is at the ':' after 'kind', 5 spaces + 4 letters in, column 10.
        let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - id: w\n     kind: window\n")
        #expect(d?.location == SourceLocation(line: 4, column: 10))
        #expect(d?.message == "YAML syntax error: mapping values are not allowed in this context")
        #expect(d?.hint == Self.indentationHint)
        // An unquoted value containing ': ' gives the same libyaml message at its second ':'.
        let colon = LoaderFixture.single("format: spatialscene/1\nname: Notes: draft\n")
        #expect(colon?.location == SourceLocation(line: 2, column: 12))
        #expect(colon?.hint == Self.indentationHint)
    }

    @Test func didNotFindExpectedKeyGetsTheIndentationHint() {
        // ` eyeHeight` is indented one space: neither a key of 'viewer' (two spaces) nor of the top.
        let d = LoaderFixture.single("format: spatialscene/1\nviewer:\n  posture: seated\n eyeHeight: 1.2\n")
        #expect(d?.location == SourceLocation(line: 4, column: 2))
        #expect(d?.message.hasPrefix("YAML syntax error: did not find expected key") == true)
        #expect(d?.hint == Self.indentationHint)
    }

    @Test func unquotableFirstCharacterIsNamed() {
        let d = LoaderFixture.single("format: spatialscene/1\nname: @home\n")
        #expect(d?.location == SourceLocation(line: 2, column: 7))
        #expect(d?.hint == "'@' cannot start an unquoted value in YAML; put the value in quotes")
    }

    @Test func errorsAtTheEndOfTheFileAreLocatedInsideIt() {
        // A 4-line file whose flow list is never closed. libyaml notices at the end of the input,
        // line 5 (past the last line); the location is the '[' instead: line 4, column 11
        // (4 spaces, 'kind:', a space, then '[').
        for text in ["format: spatialscene/1\nentities:\n  - id: w\n    kind: [window",
                     "format: spatialscene/1\nentities:\n  - id: w\n    kind: [window\n",
                     "format: spatialscene/1\r\nentities:\r\n  - id: w\r\n    kind: [window\r\n"] {
            let d = LoaderFixture.single(text)
            #expect(d?.location == SourceLocation(line: 4, column: 11))
            #expect(d?.message == "YAML syntax error: did not find expected ',' or ']' at the end of the file (while parsing a flow sequence at 4:11)")
            #expect(d?.hint == "a list in brackets needs a closing ']' and ',' between its items")
        }
        // An unclosed quote: at the opening quote, line 2 column 7.
        let quote = LoaderFixture.single("format: spatialscene/1\nname: \"Notes\n")
        #expect(quote?.location == SourceLocation(line: 2, column: 7))
        #expect(quote?.message == "YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at 2:7)")
        #expect(quote?.hint == "a quoted value is not closed; add the closing quote")
        // An unclosed flow mapping in JSON: at its '{', line 3 column 16.
        let json = LoaderFixture.single("{\n  \"format\": \"spatialscene/1\",\n  \"entities\": [{\"id\": \"w\"\n", name: "x.scene.json")
        #expect(json?.location == SourceLocation(line: 3, column: 16))
        #expect(json?.hint == "a mapping in braces needs a closing '}' and ',' between its entries")
    }

    @Test func documentLinesFollowLibyamlsCounting() {
        // "a", "bc" and a final break: 2 lines; the end is just after 'c'.
        let lf = DocumentLines("a\nbc\n", keep: [1, 2])
        #expect(lf.count == 2 && lf.end == SourceLocation(line: 2, column: 3))
        #expect(lf.contains(SourceLocation(line: 2, column: 3)))
        #expect(!lf.contains(SourceLocation(line: 3, column: 1)))
        #expect(!lf.contains(SourceLocation(line: 1, column: 3)))
        // CR LF is one break, a lone CR another; no final break.
        let crlf = DocumentLines("a\r\nb\rcde", keep: [])
        #expect(crlf.count == 3 && crlf.end == SourceLocation(line: 3, column: 4))
        // A byte-order mark is not a column; an empty document ends at 1:1.
        #expect(DocumentLines("\u{FEFF}ab", keep: [1]).end == SourceLocation(line: 1, column: 3))
        #expect(DocumentLines("", keep: []).end == SourceLocation(line: 1, column: 1))
    }

    // MARK: - Unit abbreviations

    @Test func assetUnitAbbreviationsSuggestTheName() {
        let expected = ["cm": "centimeters", "mm": "millimeters", "m": "meters", "in": "inches", "ft": "feet",
                        "CM": "centimeters", "metres": "meters", "millimetre": "millimeters"]
        for (given, name) in expected {
            let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: robot.glb, assetUnits: \(given)}\n")
            // Column of the value: 2 spaces, '- {', then the keys before it.
            let column = "  - {id: m, kind: model, asset: robot.glb, assetUnits: ".count + 1
            #expect(d?.location == SourceLocation(line: 3, column: column))
            #expect(d?.message == "'assetUnits' of model 'm' expects one of 'meters', 'centimeters', 'millimeters', 'inches', 'feet', found '\(given)'")
            #expect(d?.hint == "did you mean '\(name)'?", "\(given)")
        }
        // Still an error: an abbreviation is suggested, not accepted.
        #expect(LoaderFixture.errors("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: robot.glb, assetUnits: cm}\n").count == 1)
    }

    // MARK: - Asset paths that differ in letter case

    /// A folder of its own under the fixture directory, with `files` (empty) in it.
    private func folder(_ name: String, files: [String]) -> String {
        let dir = (LoaderFixture.directory as NSString).appendingPathComponent(name)
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for f in files { _ = FileManager.default.createFile(atPath: (dir as NSString).appendingPathComponent(f), contents: Data("x".utf8)) }
        return dir
    }

    /// True when the file system treats names case-insensitively (macOS by default): there, the
    /// asset is simply found.
    private var caseInsensitiveFileSystem: Bool {
        FileManager.default.fileExists(atPath: (LoaderFixture.directory as NSString).appendingPathComponent("ROBOT.GLB"))
    }

    @Test func missingAssetNamesTheFileThatDiffersOnlyInCase() {
        guard !caseInsensitiveFileSystem else { return }
        let dir = folder("case-one", files: ["Fox.glb", "fox.gltf"])
        let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: case-one/fox.glb}\n")
        #expect(d?.location == SourceLocation(line: 3, column: 33))
        #expect(d?.message == "asset 'case-one/fox.glb' not found (looked in \(dir))")
        #expect(d?.hint == "a file named 'Fox.glb' exists there; paths are case-sensitive")
        // Two such files: both named, sorted.
        _ = folder("case-two", files: ["Fox.glb", "FOX.glb"])
        let two = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: case-two/fox.glb}\n")
        #expect(two?.hint == "files named 'FOX.glb', 'Fox.glb' exist there; paths are case-sensitive")
    }

    @Test func missingAssetWithoutACaseVariantHasNoHint() {
        guard !caseInsensitiveFileSystem else { return }
        _ = folder("case-none", files: ["Fox.glb"])
        // Another name, and the right name in a folder spelt in another case (only the folder the
        // path resolves to is looked in, and CASE-NONE does not exist).
        for asset in ["case-none/wolf.glb", "CASE-NONE/Fox.glb"] {
            let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: \(asset)}\n")
            #expect(d?.message.hasPrefix("asset '\(asset)' not found") == true)
            #expect(d?.hint == nil)
        }
    }

    @Test func missingAssetWithANearNameInItsFolderSuggestsIt() {
        // One letter dropped (session-24 trial F13): the file beside it is named.
        _ = folder("near", files: ["Scene.usda", "Immersive.usda"])
        let d = LoaderFixture.single("format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: near/Scen.usda}\n")
        #expect(d?.message.hasPrefix("asset 'near/Scen.usda' not found") == true)
        #expect(d?.hint == "did you mean 'Scene.usda'? It is in that folder")
    }

    @Test func caseHintDoesNotLookOutsideTheScenesFolder() {
        guard !caseInsensitiveFileSystem else { return }
        // The scene sits in a subfolder; '../ROBOT.glb' would name the fixture's robot.glb in
        // another case, but it is outside the scene's folder: the path policy answers, and nothing
        // about the outside folder is revealed.
        let sub = folder("case-policy", files: [])
        let errs: [Diagnostic]
        do {
            _ = try SceneLoader.load(text: "format: spatialscene/1\nentities:\n  - {id: m, kind: model, asset: ../ROBOT.glb}\n",
                                     path: "s.scene.yaml", baseDirectory: sub, importer: LoaderFixture.importer)
            errs = []
        } catch {
            errs = error.diagnostics
        }
        #expect(errs.count == 1)
        #expect(errs.first?.message == "asset '../ROBOT.glb' resolves (after '..' and symbolic links) outside the project root; assets must be inside it")
        #expect(errs.first?.hint?.contains("robot.glb") == false)
    }

    // MARK: - Sizes in the wrong unit

    /// tan(0.0671°): metres per point at 1 m, the default `pointAngle` (scene-format.md).
    private let metresPerPointAt1m = tan(0.0671 * Double.pi / 180)

    @Test func volumeSizedInPointsIsAWarning() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: foxvol, kind: volume, position: [0, 1, -2], size: [500, 400, 500]}
            """)
        // It loads, as given: a 500 m volume.
        #expect(scene.entities[0].sizeMetres == Vec3(500, 400, 500))
        #expect(scene.warnings.count == 1)
        let w = try #require(scene.warnings.first)
        #expect(w.severity == .warning)
        #expect(w.location == SourceLocation(line: 3, column: 60))
        // As points at the fixed scale (≈ 1.171 mm per pt): 500 pt ≈ 0.586 m, 400 pt ≈ 0.468 m.
        let asMetres = [500, 400, 500].map { String(format: "%.3g", Double($0) * metresPerPointAt1m) }
        #expect(asMetres == ["0.586", "0.468", "0.586"])
        #expect(w.message == "volume 'foxvol' has size [500, 400, 500]: volume sizes are in metres, and 500 m is larger than a room"
            + " — did you mean points? use a window, or metres ([500, 400, 500] pt is about [0.586, 0.468, 0.586] m at this volume's 1.17 mm per pt)")
    }

    @Test func windowSizedInMetresIsAWarning() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: panel, kind: window, placement: {distance: 2}, size: [1.2, 0.8]}
            """)
        #expect(scene.warnings.count == 1)
        let w = try #require(scene.warnings.first)
        #expect(w.location == SourceLocation(line: 3, column: 63))
        // Dynamic scale at 2 m: 2 · tan(0.0671°) ≈ 2.342 mm per pt, so 1.2 m ≈ 512 pt, 0.8 m ≈ 342 pt.
        let s = 2 * metresPerPointAt1m
        #expect((1.2 / s).rounded() == 512 && (0.8 / s).rounded() == 342)
        #expect(w.message == "window 'panel' has size [1.2, 0.8]: window sizes are in points, and 0.8 pt is smaller than any readable text"
            + " — did you mean metres? give the size in points ([1.2, 0.8] m is about [512, 342] pt at this window's 2.34 mm per pt)")
    }

    @Test func sizesAtTheBoundsAreNotWarnedAbout() throws {
        // 20 m and 10 pt are the bounds themselves; the default window has no 'size' at all.
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: hall, kind: volume, position: [0, 1, -30], size: [20, 5, 20]}
              - {id: strip, kind: window, placement: {distance: 2}, size: [400, 10]}
              - {id: main, kind: window, placement: {distance: 2, azimuth: 30}}
              - {id: child, kind: group, children: [{id: tiny, kind: window, size: [9.5, 100]}]}
            """)
        // Only the nested 9.5 pt window (a child window is checked too).
        #expect(scene.warnings.map(\.location) == [SourceLocation(line: 6, column: 72)])
        #expect(scene.warnings.first?.message.hasPrefix("window 'tiny' has size [9.5, 100]: window sizes are in points") == true)
    }

    @Test func sizeWarningsDoNotChangeTheExitCode() throws {
        let dir = (LoaderFixture.directory as NSString).appendingPathComponent("size-exit")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // An empty configuration here, so no other .spatialcheck.yaml up the tree applies.
        try "".write(toFile: dir + "/.spatialcheck.yaml", atomically: true, encoding: .utf8)
        let scene = dir + "/sizes.scene.yaml"
        try """
            format: spatialscene/1
            entities:
              - {id: panel, kind: window, placement: {distance: 2}, size: [1.2, 0.8]}
              - {id: stage, kind: volume, position: [0, 1, -40], size: [30, 2, 2]}
            """.write(toFile: scene, atomically: true, encoding: .utf8)
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = dir
        options.failOn = .info
        let v = SpatialCheck.runValidation(paths: [scene], options: options)
        #expect(v.report.scenes.count == 1)
        #expect(v.report.scenes.first?.status == .checked)
        #expect(v.report.scenes.first?.violations.isEmpty == true, "\(v.report.scenes.first?.violations.map(\.rule) ?? [])")
        #expect(v.report.scenes.first?.warnings.count == 2)
        // Even at --fail-on info, load warnings are not violations: the run is clean.
        #expect(v.exitCode == .clean)
    }
}

/// Rotation keys written as angles 180° or more apart: slerp takes the shorter way, so the
/// animation the tool checks is not the one written (session 15 trial: a carousel keyed yaw 0 → 360
/// did not turn and passed). A note says so, once per key list.
@Suite struct WrittenTurnTests {
    static func scene(_ keys: String, viewer: String = "") -> String {
        """
        format: spatialscene/1
        duration: 48
        \(viewer)entities:
          - id: ring
            kind: group
            position: [0, 1.5, 0]
            animation:
              loop: true
              keyframes: [\(keys)]
        """
    }

    @Test func aFullTurnInOneKeyPairIsNoted() throws {
        let scene = try LoaderFixture.load(Self.scene("{t: 0, rotation: {yaw: 0}}, {t: 24, rotation: {yaw: 360}}"))
        #expect(scene.warnings.count == 1)
        let w = try #require(scene.warnings.first)
        #expect(w.message == "the rotation keys of group 'ring' at t = 0 and t = 24 differ by 360° of yaw (0 → 360); rotations are "
            + "interpolated the shorter way, so this pair of keys turns by 0° instead; add keys less than 180° apart (for a full turn: yaw 0, 120, 240, 360)")
        // 0 → 270 turns 90° the other way.
        let back = try LoaderFixture.load(Self.scene("{t: 0, rotation: {yaw: 0}}, {t: 1, rotation: {yaw: 270}}"))
        #expect(back.warnings.first?.message.contains("turns by 90° instead") == true)
        // Pitch too, and the viewer's path.
        let pitch = try LoaderFixture.load(Self.scene("{t: 0, rotation: {pitch: -100}}, {t: 1, rotation: {pitch: 100}}"))
        #expect(pitch.warnings.first?.message.contains("200° of pitch (-100 → 100)") == true)
        let viewer = try LoaderFixture.load(Self.scene("{t: 0, position: [0, 0, 0]}",
            viewer: "viewer:\n  path: [{t: 0, rotation: {yaw: -90}}, {t: 4, rotation: {yaw: 90}}]\n"))
        #expect(viewer.warnings.map(\.message).contains { $0.hasPrefix("the rotation keys of 'viewer.path' at t = 0 and t = 4 differ by 180° of yaw") })
    }

    @Test func keysLessThanHalfATurnApartAreNotNoted() throws {
        let scene = try LoaderFixture.load(Self.scene(
            "{t: 0, rotation: {yaw: 0}}, {t: 8, rotation: {yaw: 120}}, {t: 16, rotation: {yaw: 240}}, {t: 24, rotation: {yaw: 360}}"))
        #expect(scene.warnings.isEmpty)
        // A key without a rotation between two keys keeps the previous one: 0, (none), 170 is fine.
        let gap = try LoaderFixture.load(Self.scene("{t: 0, rotation: {yaw: 0}}, {t: 1, position: [0, 2, 0]}, {t: 2, rotation: {yaw: 170}}"))
        #expect(gap.warnings.isEmpty)
    }
}
