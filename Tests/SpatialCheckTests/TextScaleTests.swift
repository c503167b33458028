import Foundation
import Testing
@testable import Simulation
@testable import Rules
@testable import SpatialCheck
@testable import SceneLoader
import Reporting
import SpatialModel

/// A scale above text scales its text like its geometry (docs/scene-format.md `scale`): the em
/// height the simulator measures (pt_eq) and the sizes the text rules compare are multiplied by
/// the text scale, the length of the text's local +Y axis in world space. Expected values are
/// derived by hand from the units of hig-rules §2: a dynamic text placed at d0 gets
/// `tan(pointAngle)·d0` metres per point, and facing the eye at distance d its em h reads
/// `2·atan(h / 2d) / pointAngle` pt_eq.
@Suite struct TextScaleTests {
    static let pa = Units.defaultPointAngle
    /// Metres per point of dynamic content placed 1 m from the eye.
    static let mpp1 = tan(pa * .pi / 180)

    /// pt_eq of an em of `h` metres facing the eye `d` metres away.
    static func ptEq(em h: Double, at d: Double) -> Double { 2 * atan(h / (2 * d)) * 180 / .pi / pa }

    static func scene(_ entities: String, duration: Double = 1) throws -> Scene {
        try LoaderFixture.load("""
            format: spatialscene/1
            duration: \(duration)
            entities:
            \(entities)
            """)
    }

    static func entity(_ scene: Scene, _ path: String) throws -> Int {
        try #require(scene.entities.firstIndex { $0.path == path })
    }

    /// A group 1 m straight ahead, scaled 0.1, holding a 17 pt text at its origin.
    static let scaledCity = """
          - id: city
            kind: group
            placement: {distance: 1, azimuth: 0, elevation: 0}
            scale: 0.1
            children:
              - {id: street, kind: text, string: Main Street, fontSize: 17}
        """

    @Test func seventeenPointsUnderATenthMeasureOnePointSeven() throws {
        // The group is placed 1 m straight ahead (facing the eye, no turn) and the text sits at its
        // origin, so the text's d0 is 1 m: em = 17·tan(pa) m, times 0.1 = 1.7·tan(pa) m, 1 m away.
        let s = try Self.scene("""
            \(Self.scaledCity)
              - {id: ref, kind: text, string: Reference, fontSize: 1.7, placement: {distance: 1, azimuth: 0, elevation: 0}}
            """)
        let street = try Self.entity(s, "city/street"), ref = try Self.entity(s, "ref")
        let q = simulateAll(s)[0]
        #expect(q.textScale[street] == 0.1)
        #expect(q.textScale[ref] == 1)
        let expected = Self.ptEq(em: 17 * Self.mpp1 * 0.1, at: 1)
        #expect(close(q.ptEq[street], expected, 1e-9))
        #expect(abs(q.ptEq[street] - 1.7) < 0.001)
        // The same em as a 1.7 pt text at the same distance (before the fix: 16.9 against 1.69).
        #expect(close(q.ptEq[street], q.ptEq[ref], 1e-9))
    }

    @Test func typeMinSizeJudgesTheScaledFontSize() throws {
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
            \(Self.scaledCity)
              - {id: plain, kind: text, string: Plain, fontSize: 17, placement: {distance: 1, azimuth: 20, elevation: 0}}
            """).filter { $0.rule == "type-min-size" }
        #expect(vs.map(\.entities) == [["city/street"]])
        #expect(vs.first?.measured == 17 * 0.1 && vs.first?.unit == "pt" && vs.first?.severity == .error)
        #expect(vs.first?.spans == [0...89])
    }

    @Test func onlyTheScaleAlongTheTextsUpAxisCounts() throws {
        // [1, 0.5, 1] halves the em (8.5 pt, fails); [0.5, 1, 1] narrows the text but keeps its em.
        let text = """
            format: spatialscene/1
            duration: 1
            entities:
              - {id: squashed, kind: text, string: Squashed, fontSize: 17, scale: [1, 0.5, 1], placement: {distance: 1, azimuth: 0, elevation: 0}}
              - {id: narrow, kind: text, string: Narrow, fontSize: 17, scale: [0.5, 1, 1], placement: {distance: 1, azimuth: 30, elevation: 0}}
            """
        let s = try LoaderFixture.load(text)
        let squashed = try Self.entity(s, "squashed"), narrow = try Self.entity(s, "narrow")
        let q = simulateAll(s)[0]
        #expect(q.textScale[squashed] == 0.5 && q.textScale[narrow] == 1)
        #expect(close(q.ptEq[squashed], Self.ptEq(em: 17 * Self.mpp1 * 0.5, at: 1), 1e-9))
        #expect(close(q.ptEq[narrow], Self.ptEq(em: 17 * Self.mpp1, at: 1), 1e-9))
        let vs = try RuleScenes.check(text).filter { $0.rule == "type-min-size" }
        #expect(vs.map(\.entities) == [["squashed"]])
        #expect(vs.first?.measured == 8.5)
    }

    @Test func anAnimatedScaleIsFollowedFrameByFrame() throws {
        // Scale 1 → 0.5 over 1 s (90 frames): s(t) = 1 − 0.5·t. 17·s < 12 from s < 12/17 = 0.7059,
        // t > 0.588: frame 53 (t = 0.589, 11.99 pt) on; frame 52 reads 12.09 pt. Worst: frame 89,
        // 17·(1 − 0.5·89/90) = 8.594 pt.
        let text = """
            format: spatialscene/1
            duration: 1
            entities:
              - id: score
                kind: text
                string: Score
                fontSize: 17
                placement: {distance: 1, azimuth: 0, elevation: 0}
                animation:
                  keyframes: [{t: 0, scale: 1}, {t: 1, scale: 0.5}]
            """
        let s = try LoaderFixture.load(text)
        let frames = simulateAll(s)
        #expect(frames[0].textScale[0] == 1)
        #expect(close(frames[45].textScale[0], 0.75, 1e-12))
        #expect(close(frames[45].ptEq[0], Self.ptEq(em: 17 * Self.mpp1 * 0.75, at: 1), 1e-9))
        let vs = try RuleScenes.check(text).filter { $0.rule == "type-min-size" }
        #expect(vs.count == 1)
        #expect(vs.first?.spans == [53...89])
        #expect(vs.first?.worstFrame == 89)
        #expect(close(vs.first?.measured ?? 0, 17 * (1 - 0.5 * 89 / 90), 1e-9))
    }

    @Test func keyframesWithoutAScaleLeaveTheTextScaleExactlyOne() throws {
        // Every keyframe carries a scale key (the static value, 1, when it states none): a moving,
        // rolling label is not under a scale, and its em is the stated one bit for bit.
        let s = try LoaderFixture.load("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: tag
                kind: text
                string: Tag
                height: 0.05
                position: [0, 1.6, -1]
                animation:
                  keyframes: [{t: 0, position: [0, 1.6, -1]}, {t: 1, position: [0.2, 1.7, -1.2], rotation: {yaw: 30, pitch: 20, roll: 40}}]
            """)
        #expect(TextScale(scene: s).scaled == [false])
        #expect(simulateAll(s).allSatisfy { $0.textScale[0] == 1 })
    }

    @Test func fixedTextUnderAScaleIsJudgedAtItsScaledHeight() throws {
        // A 10 cm sign: at 3 m 2·atan(0.1 / 6) = 1.91° = 28.5 pt_eq (legible). Scaled 0.1 it is
        // 1 cm: 2·atan(0.01 / 6) = 0.0955° = 1.42 pt_eq, under 12 at 3 m (and under 12 where it is,
        // 1 m away: 2·atan(0.01 / 2) = 0.573° = 8.54 pt_eq).
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: model
                kind: group
                placement: {distance: 1, azimuth: 0, elevation: 0}
                scale: 0.1
                children:
                  - {id: sign, kind: text, string: EXIT, height: 0.1}
              - {id: plain, kind: text, string: EXIT, height: 0.1, placement: {distance: 1, azimuth: 20, elevation: 0}}
            """)
        // Already under 12 where it is on every frame: type-min-size's error alone, not also
        // type-legible-across-scale's forecast for 3 m (one problem, one finding).
        #expect(!vs.contains { $0.rule == "type-legible-across-scale" })
        let minSize = vs.filter { $0.rule == "type-min-size" }
        #expect(minSize.map(\.entities) == [["model/sign"]])
        #expect(close(minSize.first?.measured ?? 0, Self.ptEq(em: 0.01, at: 1), 1e-9))
        #expect(minSize.first?.unit == "pt_eq")
    }

    @Test func elementsOfAScaledWindowHaveScaledText() throws {
        // A dynamic window at 2 m scaled 0.5: its 17 pt caption is 8.5 pt, as its frame is half size.
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - id: doc
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [1280, 720]
                scale: 0.5
                elements:
                  - {id: caption, role: text, frame: [100, 600, 400, 30], fontSize: 17}
            """).filter { $0.rule == "type-min-size" }
        #expect(vs.map(\.entities) == [["doc/caption"]])
        #expect(vs.first?.measured == 8.5 && vs.first?.unit == "pt")
    }

    @Test func contrastJudgesLargeTextByItsScaledSize() throws {
        // #777777 on white: (1 + 0.05) / (0.1845 + 0.05) = 4.48:1, enough for large text (3:1) but
        // not for normal text (4.5:1). 20 pt is large (18 pt and more); scaled 0.5 it is 10 pt.
        let vs = try RuleScenes.check("""
            format: spatialscene/1
            duration: 1
            entities:
              - {id: big, kind: text, string: Title, fontSize: 20, color: "#777777", background: "#FFFFFF", placement: {distance: 1, azimuth: -20, elevation: 0}}
              - {id: small, kind: text, string: Title, fontSize: 20, scale: 0.5, color: "#777777", background: "#FFFFFF", placement: {distance: 1, azimuth: 20, elevation: 0}}
            """).filter { $0.rule == "type-contrast" }
        #expect(vs.map(\.entities) == [["small"]])
        #expect(vs.first?.threshold == 4.5)
    }

    @Test func vanishingScalesAreRefusedAndTheSmallestAllowedGivesFiniteVerdicts() throws {
        // Scales that underflow when squared (1e-200) or multiplied (5e-324) are load errors at the
        // scale (below the 1e-9 floor); at the floor itself the text scale is the axis' length, not 0,
        // every measure stays a number, and the text fails type-min-size.
        func scene(_ scale: String) -> String {
            """
            format: spatialscene/1
            duration: 1
            entities:
              - id: g
                kind: group
                placement: {distance: 1, azimuth: 0, elevation: 0}
                scale: \(scale)
                children:
                  - {id: txt, kind: text, string: hello world, fontSize: 17}
            """
        }
        for scale in ["1e-200", "5e-324"] {
            do {
                _ = try LoaderFixture.load(scene(scale))
                Issue.record("scale \(scale) loaded")
            } catch {
                let text = "\(error)"
                #expect(text.contains(":7:") && text.contains("falls to") && text.contains("at least 1e-09"), "\(scale): \(text)")
            }
        }
        let s = try LoaderFixture.load(scene("1e-9"))
        let txt = try Self.entity(s, "g/txt")
        let q = simulateAll(s)[0]
        #expect(q.textScale[txt] == 1e-9)
        // 17 pt at 1 m scaled 1e-9: 1.7e-8 pt_eq (the em shrinks with the scale).
        #expect(abs(q.ptEq[txt] - 17e-9) < 1e-12, "\(q.ptEq[txt])")
        let vs = try RuleScenes.check(scene("1e-9")).filter { $0.rule == "type-min-size" }
        #expect(vs.map(\.entities) == [["g/txt"]])
        #expect(vs.first.map { $0.measured.isFinite && $0.measured < 1e-6 } == true)
    }

    /// A centimetre asset (unit scale 0.01) whose node `label` is marked as text of 17 pt, its
    /// 20 × 4 cm plate centred on the node.
    static let labelAsset = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
        let root = AssetNode(name: "sign", parent: nil, subtreeEnd: 2, local: .identity, localTRS: .identity,
                             meshBounds: .empty, vertices: [], triangles: 0, marking: nil)
        let label = AssetNode(name: "label", parent: 0, subtreeEnd: 2, local: .identity, localTRS: .identity,
                              meshBounds: AABB(min: Vec3(-10, -2, 0), max: Vec3(10, 2, 0)),
                              vertices: [-10, -2, 0, 10, -2, 0, 10, 2, 0], triangles: 1,
                              marking: AssetMarking(role: .text, fontSize: 17, source: .extras))
        return ImportedAsset(path: display, resolvedPath: resolved, format: "glTF2 Importer", nodes: [root, label],
                             animations: [], declaredUnitScale: 0.01, unitNote: "centimetres")
    }

    @Test func anAssetsUnitScaleIsNotATextScale() throws {
        // The marked fontSize is in points, not in the asset's centimetres: the unit scale 0.01
        // leaves it 17 pt (17 × fixedPointSize = 17·tan(pa) m, 1 m away); the model's scale 0.5
        // halves it.
        _ = LoaderFixture.write("label.glb", "fixture")
        func load(_ scale: String) throws -> Scene {
            try SceneLoader.load(text: """
                format: spatialscene/1
                duration: 1
                entities:
                  - {id: sign, kind: model, asset: label.glb, placement: {distance: 1, azimuth: 0, elevation: 0}\(scale)}
                """, path: "t.scene.yaml", baseDirectory: LoaderFixture.directory, options: .init(), importer: Self.labelAsset)
        }
        let plain = try load(""), half = try load(", scale: 0.5")
        let p = try Self.entity(plain, "sign/label"), h = try Self.entity(half, "sign/label")
        let qp = simulateAll(plain)[0], qh = simulateAll(half)[0]
        #expect(qp.textScale[p] == 1)
        #expect(close(qp.ptEq[p], Self.ptEq(em: 17 * Self.mpp1, at: 1), 1e-9))
        #expect(close(qh.textScale[h], 0.5, 1e-12))
        #expect(close(qh.ptEq[h], Self.ptEq(em: 17 * Self.mpp1 * 0.5, at: 1), 1e-9))
    }

    @Test func upLengthNeitherUnderflowsNorOverflows() {
        #expect(TextScale.length(0, 1e-200, 0) == 1e-200)
        #expect(TextScale.length(0, .leastNonzeroMagnitude, 0) == .leastNonzeroMagnitude)
        #expect(close(TextScale.length(3e200, 4e200, 0) / 5e200, 1, 1e-15))
        #expect(TextScale.length(3, 4, 0) == 5)
        #expect(TextScale.length(0, 0, 0) == 0)
        #expect(TextScale.length(.nan, 1, 0) == 0)
        #expect(TextScale.length(.infinity, 1, 0) == .infinity)
        #expect(TextScale.em(0.02, scale: 0) == .leastNonzeroMagnitude)
        #expect(TextScale.em(1e300, scale: 1e300) == .greatestFiniteMagnitude)
    }
}
