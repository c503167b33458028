import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

@Suite struct SceneLoaderAssetTests {
    static let scene = """
        format: spatialscene/1
        entities:
          - id: robot
            kind: model
            asset: robot.glb
            assetUnits: centimeters
            position: [0, 0, -3]
            animation: {clip: Wave, loop: true}
            children:
              - {id: label, kind: group}
        """

    @Test func modelHierarchyUnitsAndExactBounds() throws {
        let scene = try LoaderFixture.load(Self.scene)
        // model node, asset root, robot_root, btn_play, then the scene child.
        #expect(scene.nodes.map(\.name) == ["robot", "robot.glb (asset root)", "robot_root", "btn_play", "label"])
        #expect(scene.nodes.map(\.parent) == [nil, 0, 1, 2, 0])
        #expect(scene.nodes.map(\.subtreeEnd) == [5, 4, 4, 4, 5])
        let robot = scene.entities[0]
        #expect(robot.kind == .model && robot.geometryNodes == 0..<4)
        #expect(scene.nodes[1].rest == Transform(scale: Vec3(repeating: 0.01)).matrix)
        let use = try #require(robot.asset)
        #expect(use.unitScale == 0.01 && use.unitReason == "assetUnits: centimeters")
        #expect(use.triangles == 1 && use.format == "glTF2 Importer" && use.path == "robot.glb")
        #expect(use.resolvedPath == (LoaderFixture.directory as NSString).appendingPathComponent("robot.glb"))
        // Vertices (0,0,0), (1,0,0), (0,0,2) turned 90° about +Y → (0,0,0), (0,0,−1), (2,0,0); + (0,1,0);
        // × 0.01; + (0, 0, −3). The exact box is [0, 0.02] × [0.01, 0.01] × [−3.01, −3].
        let b = robot.restWorldBounds
        #expect(near(b.min, Vec3(0, 0.01, -3.01)) && near(b.max, Vec3(0.02, 0.01, -3)))
        // The box of meshBounds transformed would be larger ([−0.01 … ] in z); exactness matters.
        // Marked node entity.
        let btn = scene.entities[1]
        #expect(btn.path == "robot/btn_play" && btn.kind == .node && btn.role == .button && btn.interactive)
        #expect(btn.node == 3 && btn.geometryNodes == 3..<4 && btn.parent == 0)
        #expect(scene.nodes[3].entity == 1)
        #expect(near(btn.restWorldBounds.min, b.min) && near(btn.restWorldBounds.max, b.max))
        #expect(scene.entities[2].path == "robot/label")
        // Clip remapped to the scene node of btn_play.
        let anim = scene.animations[0]
        #expect(anim.source == .clip("Wave") && anim.duration == 2 && anim.loop)
        #expect(anim.channels.map(\.node) == [3])
        #expect(robot.animation == 0)
        // The looping clip does not extend the default duration.
        #expect(near(scene.duration, 1.0 / 90))
    }

    @Test func declaredUnitScaleIsUsedWithoutAssetUnits() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: r, kind: model, asset: other.glb}
            """)
        let use = try #require(scene.entities[0].asset)
        #expect(use.unitScale == 0.05 && use.unitReason == "FBX UnitScaleFactor")
        // assetUnits as a number overrides the declaration.
        let s2 = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: r, kind: model, asset: other.glb, assetUnits: 2}
            """)
        #expect(s2.entities[0].asset?.unitScale == 2)
        // A 4 m-long asset at 2 m per unit is fine; at 100 m per unit (2 m wide → 200 m) it warns.
        let s3 = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: r, kind: model, asset: other.glb, assetUnits: 100}
            """)
        #expect(s3.warnings.count == 1)
        #expect(s3.warnings.first?.message.contains("not in metres (200 m long); set assetUnits") == true)
        // With the unit that makes it a plausible size: 2 file units as centimetres are 0.02 m
        // (as millimetres 0.002 m, under 1 cm: not offered).
        #expect(s3.warnings.first?.message.hasSuffix("set assetUnits (assetUnits: centimeters makes it 0.02 m)") == true, "\(s3.warnings.first?.message ?? "")")
        #expect(s3.warnings.first?.location == SourceLocation(line: 3, column: 5))
    }

    @Test func nodeSelection() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: r, kind: model, asset: robot.glb, node: btn_play}
            """)
        #expect(scene.nodes.map(\.name) == ["r", "robot.glb (asset root)", "btn_play"])
        #expect(scene.entities[0].asset?.node == "btn_play")
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: r, kind: model, asset: robot.glb, node: btn_pley}
            """)
        #expect(errs.count == 1)
        #expect(errs.first?.message == "asset 'robot.glb' has no node named 'btn_pley'")
        #expect(errs.first?.hint?.contains("did you mean 'btn_play'?") == true)
        #expect(errs.first?.hint?.contains("'robot_root', 'btn_play'") == true)
        #expect(errs.first?.location == SourceLocation(line: 3, column: 50))
    }

    @Test func unknownClipListsTheClips() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - id: r
                kind: model
                asset: robot.glb
                animation: {clip: Walk}
            """)
        #expect(errs.count == 1)
        #expect(errs.first?.message == "asset 'robot.glb' has no animation clip 'Walk'")
        #expect(errs.first?.hint == "did you mean 'Wave'? clips in the asset: 'Wave'")
        #expect(errs.first?.location == SourceLocation(line: 6, column: 23))
    }

    @Test func assetFailures() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: a, kind: model, asset: missing.glb}
              - {id: b, kind: model, asset: broken.glb}
              - {id: c, kind: model, asset: empty.glb}
              - {id: d, kind: model}
            """)
        #expect(errs.count == 4)
        #expect(errs[0].message == "asset 'missing.glb' not found (looked in \(LoaderFixture.directory))")
        #expect(errs[0].location == SourceLocation(line: 3, column: 33))
        #expect(errs[1].message == "cannot import asset 'broken.glb': unexpected end of file in chunk header")
        #expect(errs[1].location == SourceLocation(line: 4, column: 33))
        #expect(errs[2].message == "asset 'empty.glb' has no geometry")
        #expect(errs[3].message == "model 'd' is missing the required key 'asset'")
        #expect(errs[3].location == SourceLocation(line: 6, column: 5))  // the flow mapping's "{"
        #expect(errs.allSatisfy { $0.file == "test.scene.yaml" })
    }

    @Test func bareAsset() throws {
        let p = (LoaderFixture.directory as NSString).appendingPathComponent("other.glb")
        let scene = try SceneLoader.loadBareAsset(path: p, importer: LoaderFixture.importer)
        #expect(scene.immersion == .shared && scene.viewer.eyeHeight == 1.6)
        #expect(scene.entities.map(\.path) == ["other", "other/btn_play"])
        #expect(scene.entities[0].asset?.unitScale == 0.05)
        #expect(scene.nodes[0].rest == .identity)
        // btn_play vertices (0,0,0), (0,0,−1), (2,0,0) + (0,1,0), × 0.05.
        #expect(near(scene.entities[0].restWorldBounds.min, Vec3(0, 0.05, -0.05)))
        #expect(near(scene.entities[0].restWorldBounds.max, Vec3(0.1, 0.05, 0)))
    }
}

@Suite struct SceneLoaderMiscTests {
    @Test func environmentKeys() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            immersion: progressive
            entities:
              - {id: env, kind: environment, groundPlane: true, range: [120, 360]}
              - {id: sky, kind: environment, asset: robot.glb, assetUnits: feet}
            """)
        #expect(scene.immersion == .progressive)
        #expect(scene.entities[0].groundPlane == true && scene.entities[0].immersionRange == [120, 360])
        #expect(scene.entities[0].asset == nil && !scene.entities[0].interactive)
        #expect(scene.entities[1].asset?.unitScale == 0.3048)
        #expect(scene.entities.map(\.path) == ["env", "sky", "sky/btn_play"])
    }

    @Test func ambiguousEventIdNeedsAPath() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: a, kind: group, children: [{id: x, kind: group}]}
              - {id: b, kind: group, children: [{id: x, kind: group}]}
            events:
              - {t: 1, action: hide, entity: x}
              - {t: 2, action: hide, entity: b/x}
            """)
        #expect(errs.count == 1)
        #expect(errs.first?.message == "entity 'x' is ambiguous: 2 entities have that id")
        #expect(errs.first?.hint == "use a path: 'a/x', 'b/x'")
        #expect(errs.first?.location == SourceLocation(line: 6, column: 34))
    }

    @Test func headAnchoredPlacementIsInTheHeadFrame() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: hud, kind: window, anchor: head, placement: {distance: 1, azimuth: 90}}
            """)
        // 90° to the right of the eye at t = 0; in the head frame (origin at the eye) that is (1, 0, 0).
        #expect(near(scene.nodes[0].rest.translation, Vec3(1, 0, 0)))
        // Facing the eye: +Z turned to −X, i.e. yaw = atan2(−1, 0) = −90°.
        #expect(near(scene.nodes[0].restTRS.rotation.act(Vec3(0, 0, 1)), Vec3(-1, 0, 0)))
    }

    @Test func explicitFacingWithRotationAppliesRotationAfterTheTurn() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, position: [2, 1.6, 0], facing: viewer, rotation: {pitch: 90}}
            """)
        // Face turn: yaw = atan2(−2, 0) = −90°; R = Ry(−90)·Rx(90). Rx(90) maps +Z to −Y, which Ry keeps.
        let r = scene.nodes[0].restTRS.rotation
        #expect(near(r.act(Vec3(0, 0, 1)), Vec3(0, -1, 0)))
        // +Y goes to +Z under Rx(90), then to... Ry(−90) maps +Z to −X.
        #expect(near(r.act(Vec3(0, 1, 0)), Vec3(-1, 0, 0)))
    }
}
