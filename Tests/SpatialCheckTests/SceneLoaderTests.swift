import Foundation
import Testing
@testable import SceneLoader
import SpatialModel

@Suite struct SceneLoaderGeometryTests {
    @Test func sceneFileNames() {
        #expect(SceneLoader.isSceneFile("a/b.scene.yaml"))
        #expect(SceneLoader.isSceneFile("B.SCENE.YML"))
        #expect(SceneLoader.isSceneFile("x.scene.json"))
        #expect(!SceneLoader.isSceneFile("x.yaml"))
        #expect(!SceneLoader.isSceneFile("robot.glb"))
    }

    @Test func sceneFileNamesGivenDirectly() {
        #expect(SceneLoader.isSceneFileByName("my-app.yaml") && SceneLoader.isSceneFileByName("A.YML"))
        #expect(SceneLoader.isSceneFileByName("notes.json") && SceneLoader.isSceneFileByName("x.scene.yaml"))
        #expect(!SceneLoader.isSceneFileByName("robot.glb") && !SceneLoader.isSceneFileByName("yaml"))
    }

    /// Text sized in metres scales with a dynamic-scale volume (it keeps the angular size it opens
    /// with, as text in points does): dynamic, at the metres per point of its own distance, the
    /// points being its metres over them. In a fixed-scale volume it stays fixed.
    @Test func textInMetresScalesWithADynamicVolume() throws {
        func caption(_ mode: String) throws -> Entity {
            let scene = try LoaderFixture.load("""
                format: spatialscene/1
                entities:
                  - id: vol
                    kind: volume
                    position: [0, 1.6, -2.5]
                    size: [0.5, 0.5, 0.5]
                    scaleMode: \(mode)
                    children:
                      - {id: caption, kind: text, string: Red fox, height: 0.03, position: [0, 0, 0.25]}
                """)
            return try #require(scene.entities.first { $0.path == "vol/caption" })
        }
        let dynamic = try caption("dynamic")
        // The caption's centre is 2.25 m ahead of the eye: tan(0.0671°) · 2.25 m per point.
        let s = tan(0.0671 * Double.pi / 180) * 2.25
        #expect(dynamic.scaleMode == .dynamic)
        #expect(abs(dynamic.metresPerPoint - s) < 1e-9)
        #expect(abs((dynamic.fontSize ?? 0) - 0.03 / s) < 1e-6 && abs(0.03 / s - 11.38) < 0.01)
        #expect(dynamic.textHeight == 0.03)
        let fixed = try caption("fixed")
        #expect(fixed.scaleMode == .fixed && fixed.fontSize == nil && fixed.textHeight == 0.03)
    }

    /// A top-level window or volume that nothing places stands at the origin: a note says so.
    @Test func anUnplacedWindowGetsANote() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: app, kind: window, size: [1280, 720]}
              - {id: placed, kind: window, placement: {distance: 1.5}}
              - {id: box, kind: volume, size: [0.3, 0.3, 0.3]}
              - {id: palette, kind: window, anchor: hand, size: [300, 200]}
              - {id: group, kind: group, children: [{id: inner, kind: window, size: [300, 200]}]}
            """)
        let notes = scene.warnings.map(\.message)
        #expect(notes == [
            "window 'app' has neither 'position' nor 'placement', so it stands at [0, 0, 0] of the world, on the floor at the viewer's feet; give 'placement: {distance: 1.5}' to open it straight ahead at eye level, as visionOS does",
            "volume 'box' has neither 'position' nor 'placement', so it stands at [0, 0, 0] of the world, on the floor at the viewer's feet; give 'placement: {distance: 1.5}' to open it straight ahead at eye level, as visionOS does",
        ])
    }

    @Test func placementAndFacingViewer() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 2, azimuth: 30, elevation: -5}
            """)
        let rad = Double.pi / 180
        let expected = Vec3(2 * sin(30 * rad) * cos(5 * rad), 1.6 + 2 * sin(-5 * rad), -2 * cos(30 * rad) * cos(5 * rad))
        let node = scene.nodes[scene.entities[0].node]
        #expect(near(node.restTRS.translation, expected))
        #expect(near(node.rest.translation, expected))
        // Facing the viewer: yaw −30° (turned right), so the window's front +Z points back at the eye.
        let q = Quat(angle: -30 * rad, axis: Vec3(0, 1, 0))
        let front = node.restTRS.rotation.act(Vec3(0, 0, 1))
        #expect(near(front, q.act(Vec3(0, 0, 1))))
        let toEye = Vec3(0, 1.6, 0) - expected
        let horizontal = normalize(Vec3(toEye.x, 0, toEye.z))
        #expect(near(front, horizontal))
        // d0 is the distance to the eye: 2 m.
        #expect(near(scene.entities[0].placementDistance, 2))
    }

    @Test func placementFollowsViewerInitialYaw() throws {
        // The viewer starts turned 90° left (looking along −X): straight ahead is (−2, 1.6, 0).
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            viewer:
              path:
                - {t: 0, rotation: {yaw: 90}}
            entities:
              - {id: w, kind: window, placement: {distance: 2}}
            """)
        #expect(near(scene.nodes[0].rest.translation, Vec3(-2, 1.6, 0)))
    }

    @Test func rotationAndQuaternionAgree() throws {
        // Ry(90)·Rx(90) = (cos45 + sin45 j)(cos45 + sin45 i) = 0.5 + 0.5i + 0.5j − 0.5k.
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: a, kind: group, rotation: {yaw: 90, pitch: 90}}
              - {id: b, kind: group, quaternion: [0.5, 0.5, -0.5, 0.5]}
              - {id: c, kind: group, quaternion: [0, 2, 0, 2]}
            """)
        let a = scene.nodes[0].restTRS.rotation, b = scene.nodes[1].restTRS.rotation
        for v in [Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, -1)] { #expect(near(a.act(v), b.act(v))) }
        // Forward −Z is pitched up to +Y; +X goes to −Z (test of composition order).
        #expect(near(a.act(Vec3(0, 0, -1)), Vec3(0, 1, 0)))
        #expect(near(a.act(Vec3(1, 0, 0)), Vec3(0, 0, -1)))
        // Non-unit quaternions are normalised: [0, 2, 0, 2] is yaw 90.
        let c = scene.nodes[2].restTRS.rotation
        #expect(near(c.lengthSquared, 1))
        #expect(near(c.act(Vec3(0, 0, -1)), Vec3(-1, 0, 0)))
    }

    @Test func dynamicWindowElementCentre() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: player
                kind: window
                placement: {distance: 2}
                elements:
                  - {id: play, role: button, frame: [610, 620, 60, 60], label: Play}
            """)
        let s = tan(0.0671 * Double.pi / 180) * 2
        let win = scene.entities[0]
        #expect(win.kind == .window && win.scaleMode == .dynamic)
        #expect(near(win.metresPerPoint, s))
        #expect(win.sizePt == SIMD2(1280, 720))
        #expect(near(scene.nodes[win.node].geometry.size, Vec3(1280 * s, 720 * s, 0)))
        let el = scene.entities[1]
        #expect(el.path == "player/play" && el.kind == .element && el.role == .button)
        #expect(el.container == 0 && el.parent == 0 && el.interactive)
        #expect(el.frame == RectPt(x: 610, y: 620, width: 60, height: 60))
        #expect(near(scene.nodes[el.node].rest.translation, Vec3(0, -290 * s, 0)))
        #expect(near(worldMatrix(scene, el.node).translation, Vec3(0, 1.6 - 290 * s, -2)))
        #expect(near(el.restWorldBounds.size, Vec3(60 * s, 60 * s, 0)))
        #expect(scene.nodes[el.node].parent == win.node && scene.nodes[win.node].subtreeEnd == 2)
    }

    @Test func fixedWindowUsesFixedPointSize() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            units: {fixedPointSize: 0.001}
            entities:
              - id: w
                kind: window
                size: [1000, 500]
                scaleMode: fixed
                position: [0, 1.5, -3]
                elements:
                  - {id: t, role: text, frame: [0, 0, 100, 50], depth: 10, fontSize: 17}
            """)
        #expect(near(scene.entities[0].metresPerPoint, 0.001))
        // Centre ((50 − 500)·s, (250 − 25)·s, 10·s) = (−0.45, 0.225, 0.01).
        #expect(near(scene.nodes[scene.entities[1].node].rest.translation, Vec3(-0.45, 0.225, 0.01)))
        #expect(!scene.entities[1].interactive)  // text role
        #expect(scene.entities[1].fontSize == 17 && scene.entities[1].depthPt == 10)
        // A window at (0, 1.5, −3) faces the viewer: yaw = atan2(0, 3) = 0.
        #expect(near(scene.entities[1].restWorldBounds.center, Vec3(-0.45, 1.725, -2.99)))
    }

    @Test func volumeElementOnFrontFace() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            units: {fixedPointSize: 0.001}
            entities:
              - id: v
                kind: volume
                size: [1, 0.5, 0.4]
                elements:
                  - {id: b, role: button, frame: [0, 0, 100, 100]}
            """)
        let v = scene.entities[0]
        #expect(v.sizePt == SIMD2(1000, 500) && v.sizeMetres == Vec3(1, 0.5, 0.4) && v.scaleMode == .fixed)
        // ((50 − 500)·0.001, (250 − 50)·0.001, 0.4/2).
        #expect(near(scene.nodes[scene.entities[1].node].rest.translation, Vec3(-0.45, 0.2, 0.2)))
        #expect(near(v.restWorldBounds.size, Vec3(1, 0.5, 0.4)))
    }

    @Test func nestedChildrenComposeParentTimesChild() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: g
                kind: group
                position: [1, 0, 0]
                rotation: {yaw: 90}
                children:
                  - id: inner
                    kind: group
                    position: [0, 0, -2]
                    scale: 2
                    children:
                      - {id: leaf, kind: group, position: [0, 1, 0]}
            """)
        #expect(scene.entities.map(\.path) == ["g", "g/inner", "g/inner/leaf"])
        #expect(scene.nodes.map(\.parent) == [nil, 0, 1])
        #expect(scene.nodes.map(\.subtreeEnd) == [3, 3, 3])
        // Ry(90) turns −Z to −X: inner is at (1 − 2, 0, 0).
        #expect(near(worldMatrix(scene, 1).translation, Vec3(-1, 0, 0)))
        // Leaf: scale 2 doubles its offset: (−1, 2, 0).
        #expect(near(worldMatrix(scene, 2).translation, Vec3(-1, 2, 0)))
        #expect(scene.entities[0].geometryNodes == 0..<3)
    }

    @Test func jsonAndYamlLoadIdentically() throws {
        let yaml = try LoaderFixture.load("""
            format: spatialscene/1
            name: Demo
            viewer: {posture: seated}
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5, azimuth: -10}
                elements:
                  - {id: ok, role: button, frame: [10, 10, 60, 44]}
              - {id: t, kind: text, string: Hello, fontSize: 24, position: [0, 1, -2]}
            events:
              - {t: 2, action: hide, entity: ok}
            """)
        let json = try LoaderFixture.load("""
            {
              "format": "spatialscene/1",
              "name": "Demo",
              "viewer": {"posture": "seated"},
              "entities": [
                {"id": "w", "kind": "window", "placement": {"distance": 1.5, "azimuth": -10},
                 "elements": [{"id": "ok", "role": "button", "frame": [10, 10, 60, 44]}]},
                {"id": "t", "kind": "text", "string": "Hello", "fontSize": 24, "position": [0, 1, -2]}
              ],
              "events": [{"t": 2, "action": "hide", "entity": "ok"}]
            }
            """, name: "test.scene.json")
        #expect(yaml.name == json.name && yaml.viewer.eyeHeight == json.viewer.eyeHeight)
        #expect(yaml.entities.map(\.path) == json.entities.map(\.path))
        #expect(yaml.nodes.map(\.rest) == json.nodes.map(\.rest))
        #expect(yaml.entities.map(\.restWorldBounds) == json.entities.map(\.restWorldBounds))
        #expect(yaml.duration == json.duration && yaml.events.count == 1 && json.events.count == 1)
        #expect(yaml.viewer.eyeHeight == 1.2)
    }

    @Test func textGeometryAndHeadAnchor() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: t, kind: text, string: abcd, height: 0.1, position: [0, 1.6, -2]}
              - {id: hud, kind: text, string: x, fontSize: 12, anchor: head, position: [0, 0, -1]}
            """)
        let t = scene.entities[0]
        #expect(t.scaleMode == .fixed && t.textHeight == 0.1 && t.fontSize == nil)
        #expect(near(t.restWorldBounds.size, Vec3(4 * 0.55 * 0.1, 0.1, 0)))
        let hud = scene.entities[1]
        #expect(hud.anchor == .head && scene.nodes[hud.node].anchor == .head)
        // Head frame at t = 0 is the eye (0, 1.6, 0): 1 m ahead in world is (0, 1.6, −1).
        #expect(near(hud.restWorldBounds.center, Vec3(0, 1.6, -1)))
        let s = tan(0.0671 * Double.pi / 180) * 1
        #expect(near(hud.metresPerPoint, s) && near(hud.textHeight ?? 0, 12 * s))
    }

    @Test func pointAngleOverride() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            units: {pointAngle: 0.05}
            entities: []
            """, options: LoadOptions(pointAngle: 0.08, frameRate: 60, duration: 3))
        #expect(scene.units.pointAngle == 0.08 && scene.frameRate == 60 && scene.duration == 3)
        #expect(scene.frameCount == 180)
    }
}

@Suite struct SceneLoaderDurationTests {
    @Test func defaultDurationIsOneFrameForAStillScene() throws {
        let scene = try LoaderFixture.load("format: spatialscene/1\n")
        #expect(near(scene.duration, 1.0 / 90))
        #expect(scene.frameCount == 1)
        #expect(scene.viewer.path.count == 1 && scene.viewer.path[0].position == Vec3(0, 1.6, 0))
    }

    @Test func defaultDurationTakesLongestOfPathAnimationAndEvents() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            platform: iOS
            viewer:
              path:
                - {t: 0}
                - {t: 4, position: [1, 1.6, 0]}
            entities:
              - id: g
                kind: group
                animation:
                  keyframes:
                    - {t: 0, position: [0, 0, 0]}
                    - {t: 6, position: [1, 0, 0]}
                  speed: 0.5
              - id: spin
                kind: group
                animation: {keyframes: [{t: 0}, {t: 100, rotation: {yaw: 180}}], loop: true}
            events:
              - {t: 5, action: recenter}
            """)
        // Looping animations do not count; 6 s at speed 0.5 ends at 12 s.
        #expect(scene.frameRate == 60)
        #expect(scene.duration == 12)
        #expect(scene.frameCount == 720)
        // The viewer's second key holds the rotation and the first key's defaults.
        #expect(scene.viewer.path[1].rotation == .identity && scene.viewer.path[0].position == Vec3(0, 1.6, 0))
        let anim = scene.animations[0]
        #expect(anim.source == .keyframes && anim.duration == 6 && anim.speed == 0.5 && !anim.loop)
        #expect(anim.channels.count == 1 && anim.channels[0].positions.count == 2)
        #expect(anim.channels[0].rotations.count == 2 && anim.channels[0].scales.count == 2)
        #expect(scene.entities[0].animation == 0)
        // A keyframe that omits position holds the static value.
        #expect(scene.animations[1].channels[0].positions.map(\.value) == [.zero, .zero])
    }

    @Test func eventsExtendTheDefaultDurationAndAreSorted() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - {id: alert, kind: window, visible: false}
            events:
              - {t: 7, action: show, entity: alert}
              - {t: 3, action: setImmersion, style: full}
              - {t: 3, action: recenter}
            """)
        #expect(scene.duration == 7)
        #expect(scene.events.map(\.time) == [3, 3, 7])
        if case let .setImmersion(style, trigger) = scene.events[0].action {
            #expect(style == .full && trigger == .user)
        } else { Issue.record("expected setImmersion first") }
        if case .recenter = scene.events[1].action {} else { Issue.record("expected recenter second") }
        if case let .show(i) = scene.events[2].action { #expect(i == 0) } else { Issue.record("expected show") }
        #expect(!scene.entities[0].visible)
    }
}

@Suite struct SceneLoaderAnchorTests {
    @Test func handAnchorIsBelowAndInFrontOfTheEye() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            viewer: {eyeHeight: 1.5}
            entities:
              - {id: h, kind: group, anchor: hand, children: [{id: c, kind: group, position: [0.1, 0, 0]}]}
            """)
        #expect(scene.nodes[0].anchor == .hand && scene.nodes[1].anchor == .hand)
        #expect(scene.entities[1].anchor == .hand)
        // Hand frame (the standing posture's default pose): (0, 1.5 − 0.30, −0.35), pitched about X
        // only; the child is 0.1 m to its right.
        #expect(near(scene.entities[1].placementDistance, length(Vec3(0.1, -0.30, -0.35))))
    }

    @Test func dynamicContentAtTheEyeIsAnError() {
        let errs = LoaderFixture.errors("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, position: [0, 1.6, 0]}
            """)
        #expect(errs.count == 1 && errs.first?.location == SourceLocation(line: 3, column: 5))
    }

    @Test func invalidOverridesAreReported() {
        do {
            _ = try LoaderFixture.load("format: spatialscene/1\n", options: LoadOptions(pointAngle: 5, frameRate: 0))
            Issue.record("expected failure")
        } catch {
            #expect(error.diagnostics.count == 2 && error.diagnostics.allSatisfy { $0.location == nil })
        }
    }
}

/// `presentation` on a window nested in a window or volume, and role `row`.
@Suite struct SceneLoaderPresentationTests {
    @Test func aNestedWindowTakesAPresentation() throws {
        let scene = try LoaderFixture.load("""
            format: spatialscene/1
            entities:
              - id: form
                kind: window
                elements:
                  - {id: r, role: row, frame: [0, 0, 400, 44]}
                children:
                  - {id: sheet, kind: window, presentation: sheet}
                  - {id: bar, kind: window}
            """)
        let byPath = Dictionary(uniqueKeysWithValues: scene.entities.map { ($0.path, $0) })
        #expect(byPath["form/sheet"]?.presentation == .sheet)
        #expect(byPath["form/bar"]?.presentation == nil)
        #expect(byPath["form"]?.presentation == nil)
        #expect(byPath["form/r"]?.role == .row)
        #expect(byPath["form/r"]?.interactive == true)
    }

    @Test func aPresentationNeedsAPresentingWindow() {
        let top = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, presentation: popover}
            """)
        #expect(top?.location == SourceLocation(line: 3, column: 27))
        #expect(top?.message == "'presentation' is only for a window nested directly in a window or volume (not through a group); window 'w' is not")
        #expect(top?.hint?.contains("nest the sheet, alert, popover or menu in the window that opens it") == true)
        let typo = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, children: [{id: m, kind: window, presentation: menus}]}
            """)
        #expect(typo?.message.hasPrefix("'presentation' of window 'm' expects one of 'sheet', 'alert', 'popover', 'menu'") == true)
        #expect(typo?.hint == "did you mean 'menu'?")
        // What SwiftUI calls it: a context menu is a menu.
        let named = LoaderFixture.single("""
            format: spatialscene/1
            entities:
              - {id: w, kind: window, children: [{id: m, kind: window, presentation: contextMenu}]}
            """)
        #expect(named?.hint == "did you mean 'menu'?")
    }
}
