import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
@testable import SceneLoader
import Reporting
import SpatialModel

/// The iOS ARKit rules and the iOS device, end to end (loader → simulator → rules). Every
/// expected number is derived below from the scene text: the device's camera view (a 26 mm
/// equivalent 4:3 camera aspect-filled onto the screen), the device path, and the geometry.
@Suite struct RuleARKitTests {
    // MARK: Hand-derived device numbers

    /// Half-diagonal of the 36 × 24 mm reference frame, and the 4:3 image's half-sides at 26 mm.
    static let halfDiagonal = (36.0 * 36 + 24 * 24).squareRoot() / 2          // 21.633 mm
    static let tanLong = 0.8 * halfDiagonal / 26                                // 0.66564
    static let tanShort = 0.6 * halfDiagonal / 26                               // 0.49923
    /// iPhone 13, portrait (390 × 844 pt): the screen (0.462) is narrower than the image (0.75),
    /// so the full long side shows vertically and the width is cropped.
    static let tanH13 = tanLong * 390 / 844                                     // 0.30759
    static let pointAngle13 = degrees(atan(2 * tanH13 / 390))                   // 0.0903752°

    /// A scene with the box asset (1 m cube centred on its origin) beside it as box.glb.
    static func check(_ yaml: String, config: String? = nil) throws -> [ReportViolation] {
        try RuleScenes.check(yaml, config: config, assets: ["box.glb": "Scenes/assets/box-textured/BoxTextured.glb"])
    }

    static let head = """
        format: spatialscene/1
        platform: iOS
        device: {model: iPhone 13}

        """

    // MARK: device

    @Test func iPhonePortraitDerivesFieldOfViewAndPointAngle() throws {
        let s = try LoaderFixture.load(Self.head + "duration: 1\n")
        let d = try #require(s.device)
        #expect(d.screen == SIMD2(390, 844))
        #expect(abs(d.fieldOfView.x - degrees(2 * atan(Self.tanH13))) < 1e-9)      // 34.19°
        #expect(abs(d.fieldOfView.x - 34.19) < 0.01)
        #expect(abs(d.fieldOfView.y - degrees(2 * atan(Self.tanLong))) < 1e-9)     // 67.29°
        #expect(abs(s.units.pointAngle - Self.pointAngle13) < 1e-12)
        #expect(abs(s.units.pointAngle - 0.0903752) < 1e-7)
        // The viewer sees what the camera shows; fixed-scale content keeps its metres per point.
        #expect(s.viewer.fieldOfView == d.fieldOfView)
        #expect(abs(s.units.fixedPointSize - tan(radians(Units.defaultPointAngle))) < 1e-15)
    }

    @Test func landscapeAndIPadAndGivenFieldOfView() throws {
        // Landscape 844 × 390: the image's long side runs across the screen, the height is cropped.
        let l = try #require(try LoaderFixture.load("format: spatialscene/1\nplatform: iOS\ndevice: {screen: [390, 844], orientation: landscape}\n").device)
        #expect(l.screen == SIMD2(844, 390))
        #expect(abs(l.fieldOfView.x - degrees(2 * atan(Self.tanLong))) < 1e-9)
        #expect(abs(l.fieldOfView.y - degrees(2 * atan(Self.tanLong * 390 / 844))) < 1e-9)
        // Same camera, same pixels per radian: the point angle does not depend on the orientation.
        #expect(abs(l.pointAngle - degrees(atan(2 * Self.tanLong / 844))) < 1e-12)
        #expect(abs(l.pointAngle - Self.pointAngle13) < 1e-12)
        // iPad 11-inch, 820 × 1180 pt: 0.695 < 0.75, so the width is cropped too.
        let p = try #require(try LoaderFixture.load("format: spatialscene/1\nplatform: iOS\ndevice: {model: ipad-11-inch}\n").device)
        let tanH = Self.tanLong * 820 / 1180
        #expect(abs(p.fieldOfView.x - degrees(2 * atan(tanH))) < 1e-9)             // 49.63°
        #expect(abs(p.pointAngle - degrees(atan(2 * tanH / 820))) < 1e-12)
        // A stated field of view wins; the vertical one follows from the screen's aspect.
        let g = try #require(try LoaderFixture.load("format: spatialscene/1\nplatform: iOS\ndevice: {model: iPhone 13, fieldOfView: 40}\n").device)
        #expect(g.fieldOfViewGiven && g.fieldOfView.x == 40)
        #expect(abs(g.fieldOfView.y - degrees(2 * atan(tan(radians(20)) * 844 / 390))) < 1e-9)
        // units.pointAngle, when given, is kept.
        let u = try LoaderFixture.load("format: spatialscene/1\nplatform: iOS\nunits: {pointAngle: 0.05}\ndevice: {model: iPhone 13}\n")
        #expect(u.units.pointAngle == 0.05)
    }

    @Test func deviceMistakesAreReported() throws {
        let d = LoaderFixture.single("format: spatialscene/1\nplatform: iOS\ndevice: {model: iPhone 31}\n")
        #expect(d?.location == SourceLocation(line: 3, column: 17))
        #expect(d?.message.hasPrefix("'device.model' 'iPhone 31' is not a known device") == true)
        #expect(d?.hint == "did you mean 'iPhone 13'?")
        let k = LoaderFixture.single("format: spatialscene/1\nplatform: iOS\ndevice: {model: iPhone 13, orientaton: landscape}\n")
        #expect(k?.message == "unknown key 'orientaton' in 'device'")
        #expect(k?.hint == "did you mean 'orientation'?")
        let r = LoaderFixture.single("""
            format: spatialscene/1
            platform: iOS
            events:
              - {t: 0, action: trackingState, state: normal, reason: initializing}
            """)
        #expect(r?.message == "'reason' applies only to 'state: limited', found state 'normal'")
        let s = LoaderFixture.single("""
            format: spatialscene/1
            platform: iOS
            events:
              - {t: 0, action: trackingState, state: limitted}
            """)
        #expect(s?.hint == "did you mean 'limited'?")
        // On visionOS the device is ignored with a warning, and the units stay the headset's.
        let v = try LoaderFixture.load("format: spatialscene/1\ndevice: {model: iPhone 13}\n")
        #expect(v.device == nil && v.units.pointAngle == Units.defaultPointAngle)
        #expect(v.warnings.contains { $0.message.contains("used only when 'platform' is iOS") })
    }

    @Test func sessionEventsAreLoadedInTimeOrder() throws {
        let s = try LoaderFixture.load(Self.head + """
            duration: 3
            events:
              - {t: 2, action: planeLost, plane: floor}
              - {t: 0, action: trackingState, state: limited, reason: initializing}
              - {t: 1, action: planeDetected, plane: floor, alignment: horizontal}
              - {t: 1, action: referenceImages, count: 12}
            """)
        #expect(s.events.map(\.time) == [0, 1, 1, 2])
        guard case .ar(.tracking(.limited, reason: .initializing)) = s.events[0].action,
              case .ar(.plane(id: "floor", detected: true, alignment: .horizontal)) = s.events[1].action,
              case .ar(.referenceImages(count: 12)) = s.events[2].action,
              case .ar(.plane(id: "floor", detected: false, alignment: nil)) = s.events[3].action else {
            Issue.record("unexpected events: \(s.events.map(\.action))"); return
        }
    }

    // MARK: ar-safety-movement

    @Test func safetyMovementSpeedDisplacementAndRotation() throws {
        // 3 m along −Z in 2 s (1.5 m/s, frames 1…120 at 60 Hz), then a 120° turn in 1 s (frames
        // 121…179). Displacement over the last 2 s (120 frames) is 1.5·t > 2 m from t > 4/3 s
        // (frame 81) to frame 159 (3 − 1.5·(t − 2) > 2), 3 m at t = 2 s (frame 120); the windows
        // ending in frames 81…159 hold the moves of frames 1…120, which is the span reported.
        let v = try Self.check(Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
                - {t: 2, position: [0, 1.4, -3]}
                - {t: 3, position: [0, 1.4, -3], rotation: {yaw: 120}}
            entities:
              - {id: chest, kind: model, asset: box.glb, position: [0, 0.2, -5], scale: 0.4}
            """).filter { $0.rule == "ar-safety-movement" }
        #expect(v.count == 3)
        let speed = try #require(v.first { $0.unit == "m/s" })
        #expect(abs(speed.measured - 1.5) < 1e-6 && speed.threshold == 1 && speed.spans == [1...120])
        #expect(speed.entities.isEmpty && speed.severity == .warning)
        let disp = try #require(v.first { $0.unit == "m" })
        #expect(abs(disp.measured - 3) < 1e-6 && disp.worstFrame == 120 && disp.spans == [1...120])
        let rot = try #require(v.first { $0.unit == "deg/s" })
        #expect(abs(rot.measured - 120) < 1e-3 && rot.threshold == 90 && rot.spans == [121...179])
        // All three are located at the device path that scripts the movement (the displacement and
        // rotation used to be at 1:1, no location).
        #expect(speed.location != nil && disp.location == speed.location && rot.location == speed.location)
    }

    /// Regression (issue 16, session 10): a configured `window` of 1e300 s trapped converting to
    /// Int. Past the most frames a scene may have, the position "window ago" is always the first
    /// frame's: 1e300 s measures exactly what 1,000 s does (the whole walk, 3 m from frame 81 on).
    @Test func safetyMovementHugeWindowIsTheWholeScene() throws {
        let scene = Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
                - {t: 2, position: [0, 1.4, -3]}
                - {t: 3, position: [0, 1.4, -3], rotation: {yaw: 120}}
            """
        let huge = try Self.check(scene, config: "rules:\n  ar-safety-movement: {window: 1e300}\n").filter { $0.rule == "ar-safety-movement" }
        let long = try Self.check(scene, config: "rules:\n  ar-safety-movement: {window: 1000}\n").filter { $0.rule == "ar-safety-movement" }
        #expect(huge.map(\.unit) == long.map(\.unit) && huge.map(\.spans) == long.map(\.spans) && huge.map(\.measured) == long.map(\.measured))
        let disp = try #require(huge.first { $0.unit == "m" })
        #expect(abs(disp.measured - 3) < 1e-6 && disp.spans == [1...120])
    }

    /// Outside trial (session 24, F11): a device that stands 4 s, walks 4 m from t = 4 s to 6 s
    /// and stands again. The 2 s windows that move more than 2 m end at t = 5…7 s (frames
    /// 301…419 at 60 Hz), but the movement is in frames 241…360 (the first position after
    /// t = 4 s to the arrival at t = 6 s): the span reported, worst (4 m) at the arrival.
    @Test func safetyMovementDisplacementIsReportedWhereTheDeviceMoves() throws {
        let v = try Self.check(Self.head + """
            duration: 10
            viewer:
              path:
                - {t: 0, position: [0, 1.3, 0]}
                - {t: 4, position: [0, 1.3, 0]}
                - {t: 6, position: [0, 1.3, 4]}
            """).filter { $0.rule == "ar-safety-movement" }
        let disp = try #require(v.first { $0.unit == "m" })
        #expect(abs(disp.measured - 4) < 1e-9 && disp.worstFrame == 360 && disp.spans == [241...360])
        let speed = try #require(v.first { $0.unit == "m/s" })
        #expect(abs(speed.measured - 2) < 1e-9 && speed.spans == [241...360])
    }

    @Test func safetyMovementStrollIsClean() throws {
        // 1 m in 2 s (0.5 m/s), a 45° turn over 1.5 s (30°/s).
        let v = try Self.check(Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
                - {t: 2, position: [0, 1.4, -1]}
                - {t: 3.5, position: [0, 1.4, -1], rotation: {yaw: 45}}
            """)
        #expect(v.filter { $0.rule == "ar-safety-movement" }.isEmpty)
    }

    // MARK: ar-comfort-distance

    @Test func comfortDistancePitchHeldAndNearObject() throws {
        // Pitched 60° down for 35 s: one run over the whole scene (frames 0…2099), measured 60°.
        let v = try Self.check(Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0], rotation: {pitch: -60}}
                - {t: 35, position: [0, 1.4, 0], rotation: {pitch: -60}}
            """).filter { $0.rule == "ar-comfort-distance" }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 60) < 1e-6 && v.first?.spans == [0...2099] && v.first?.severity == .info)
        // 50° held for 20 s, then raised to 20° (t = 21 s): shorter than 30 s, clean.
        let short = try Self.check(Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0], rotation: {pitch: -50}}
                - {t: 20, position: [0, 1.4, 0], rotation: {pitch: -50}}
                - {t: 21, position: [0, 1.4, 0], rotation: {pitch: -20}}
                - {t: 25, position: [0, 1.4, 0], rotation: {pitch: -20}}
            """)
        #expect(short.filter { $0.rule == "ar-comfort-distance" }.isEmpty)
        // An interactive 10 cm box whose centre is 0.25 m ahead of the camera: 0.05 m inside the limit.
        let near = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: gem, kind: model, asset: box.glb, position: [0, 1.6, -0.25], scale: 0.1, interactive: true}
              - {id: far, kind: model, asset: box.glb, position: [0.3, 1.6, -1], scale: 0.1, interactive: true}
            """).filter { $0.rule == "ar-comfort-distance" }
        #expect(near.map(\.entities) == [["gem"]])
        // Measured is the distance itself (lower is worse), threshold 0.3 m: "measured < threshold"
        // reads as the violation it is, as depth-near-brief-only's "closer than" (trial s16 F).
        #expect(abs((near.first?.measured ?? 0) - 0.25) < 1e-9 && near.first?.threshold == 0.3)
        #expect(near.first?.unit == "m" && near.first?.spans == [0...59])
        #expect(near.first?.message.contains("0.25 m from the device") == true)
    }

    /// A world card (a window not anchored to the head) 0.2 m ahead of an iPhone 13 with a
    /// 100 × 44 pt Buy button: the card's points are tan(pointAngle) · 0.2 m (dynamic scale at its
    /// placement distance), and the button's centre (frame [50, 40, 100, 44]: (100, 62) pt against
    /// the card's centre (100, 60)) is 2 pt below the card's, so sqrt(0.2² + (2 · tan(pa) · 0.2)²)
    /// from the camera. The same card anchored to the head is screen UI: not judged.
    @Test func worldCardControlsAreJudgedAsWorldContent() throws {
        let card = { (anchor: String) in Self.head + """
            duration: 1
            entities:
              - id: card
                kind: window\(anchor)
                position: [0, \(anchor.isEmpty ? "1.4, -0.2" : "0, -0.2")]
                size: [200, 120]
                elements:
                  - {id: buy, role: button, frame: [50, 40, 100, 44], label: Buy}
            viewer: {path: [{t: 0, position: [0, 1.4, 0]}]}
            """ }
        let world = try Self.check(card("")).filter { $0.rule == "ar-comfort-distance" }
        let mpp = tan(radians(Self.pointAngle13)) * 0.2
        #expect(world.map(\.entities) == [["card/buy"]])
        #expect(abs((world.first?.measured ?? 0) - (0.04 + 4 * mpp * mpp).squareRoot()) < 1e-9)
        #expect(world.first?.threshold == 0.3 && world.first?.message.contains("0.2 m from the device") == true)
        // Seen from where it was placed, the 44 pt button is 44 pt on the screen: not too small.
        #expect(try Self.check(card("")).filter { $0.rule == "ar-gesture-proximity" }.isEmpty)
        let screen = try Self.check(card("\n    anchor: head"))
        #expect(screen.filter { $0.rule.hasPrefix("ar-") }.isEmpty)
    }

    /// A world card 0.5 m ahead with a 44 pt button; the device walks 1 m back in 2 s and stays
    /// (frames 0…179 at 60 Hz). The card faces the camera, so its button shows at 44 · 0.5 / depth
    /// screen points: 44 at frame 0 (clean), 44 · 0.5 / 1.5 = 14.67 pt from frame 120 on (the
    /// worst: an error, under 28 pt). A 36 pt button on the same card shows 36 pt at frame 0 (a
    /// warning, under 44 pt) and 12 pt at the end. Both are target-hit-region-ios's, measured on the
    /// screen from the start (the session-18 trial: in card points, 32 pt was reported while the
    /// screen showed 5.9 pt); ar-gesture-proximity judges world objects only.
    @Test func worldCardControlsShrinkOnScreenAsTheDeviceBacksAway() throws {
        let v = try Self.check(Self.head + """
            duration: 3
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
                - {t: 2, position: [0, 1.4, 1]}
            entities:
              - id: card
                kind: window
                position: [0, 1.4, -0.5]
                size: [200, 120]
                elements:
                  - {id: buy, role: button, frame: [50, 10, 100, 44], label: Buy}
                  - {id: info, role: button, frame: [50, 70, 36, 36], label: Info}
            """)
        #expect(v.filter { $0.rule == "ar-gesture-proximity" }.isEmpty)
        let h = v.filter { $0.rule == "target-hit-region-ios" }.sorted { $0.entities.joined() < $1.entities.joined() }
        #expect(h.map(\.entities) == [["card/buy"], ["card/info"]])
        #expect(h.map(\.severity) == [.error, .error])
        #expect(abs((h.first?.measured ?? 0) - 44 * 0.5 / 1.5) < 1e-9 && h.first?.threshold == 28 && h.first?.unit == "pt")
        #expect(abs((h.last?.measured ?? 0) - 36 * 0.5 / 1.5) < 1e-9)
        #expect(h.first?.spans == [1...179] && h.last?.spans == [0...179])
        #expect(h.first?.message.contains("on screen") == true)
    }

    /// type-min-size on iOS: the text of a world card is judged by its size on the screen. A card
    /// placed 1.5 m ahead has tan(pointAngle) · 1.5 m per point (its points are screen points where
    /// it was placed), so its 17 pt line has an em of 17 · tan(pa) · 1.5 m; the device walks 3 m
    /// back, and at 4.5 m the line shows 2·atan(em / 9) / pa ≈ 17 / 3 = 5.67 pt on the screen,
    /// under iOS's 11 pt (the session-18 trial: card text at 2 pt was never reported). The same
    /// window anchored to the head is the screen's UI: 17 pt, clean.
    @Test func worldCardTextIsJudgedBySizeOnScreen() throws {
        let card = { (anchor: String) in Self.head + """
            duration: 3
            viewer:
              path:
                - {t: 0, position: [0, 1.4, 0]}
                - {t: 2, position: [0, 1.4, 3]}
            entities:
              - id: card
                kind: window
            \(anchor.isEmpty ? "    position: [0, 1.4, -1.5]" : "    anchor: head\n    position: [0, 0, -1.5]")
                size: [200, 40]
                elements:
                  - {id: width, role: text, frame: [0, 0, 200, 40], fontSize: 17, label: Width 2.4 m}
            """ }
        let t = try Self.check(card("")).filter { $0.rule == "type-min-size" }
        let em = 17 * tan(radians(Self.pointAngle13)) * 1.5
        let expected = degrees(2 * atan(em / 9)) / Self.pointAngle13
        #expect(abs(expected - 17.0 / 3) < 0.01)
        #expect(t.map(\.entities) == [["card/width"]])
        #expect(abs((t.first?.measured ?? 0) - expected) < 1e-6 && t.first?.threshold == 11 && t.first?.unit == "pt_eq")
        #expect(try Self.check(card("head")).filter { $0.rule == "type-min-size" }.isEmpty)
    }

    /// A world card's text is text in the world (ar-minimize-world-text, ar-critical-text-screen-space)
    /// and the card is not screen UI (ar-screen-clutter); the same window anchored to the head is
    /// the screen's UI: the opposite verdicts. Four lines of 18 + 34 + 36 + 23 = 111 characters; a
    /// 390 × 400 pt sheet on a 390 × 844 pt screen covers 400 / 844 = 47.39 %.
    @Test func worldCardTextIsWorldTextAndTheCardIsNotScreenUI() throws {
        let card = { (anchor: String, size: String, elements: String) in Self.head + """
            duration: 1
            entities:
              - id: card
                kind: window
            \(anchor.isEmpty ? "    position: [0, 1.4, -1.5]" : "    anchor: head\n    position: [0, 0, -2]")
                size: \(size)
                elements:
            \(elements)
            viewer: {path: [{t: 0, position: [0, 1.4, 0]}]}
            """ }
        let lines = """
                  - {id: name, role: text, frame: [20, 20, 280, 30], label: Aeron Lounge Chair}
                  - {id: price, role: text, frame: [20, 60, 280, 30], label: "$1,295 or $108/month for 12 months"}
                  - {id: material, role: text, frame: [20, 100, 280, 30], label: Recycled ocean plastic and aluminium}
                  - {id: shipping, role: text, frame: [20, 140, 280, 30], label: Free delivery in 5 days}
                  - {id: instruction, role: text, frame: [20, 170, 280, 20], label: Tap, primary: true}
            """
        let world = try Self.check(card("", "[320, 200]", lines))
        let text = world.filter { $0.rule == "ar-minimize-world-text" }.sorted { $0.measured < $1.measured }
        #expect(text.map(\.measured) == [5, 114])
        #expect(world.filter { $0.rule == "ar-critical-text-screen-space" }.map(\.entities) == [["card/instruction"]])
        let screen = try Self.check(card("head", "[320, 200]", lines))
        #expect(screen.filter { $0.rule == "ar-minimize-world-text" || $0.rule == "ar-critical-text-screen-space" }.isEmpty)

        let sheet = """
                  - {id: sheet, role: image, frame: [0, 444, 390, 400]}
            """
        #expect(try Self.check(card("", "[390, 844]", sheet)).filter { $0.rule == "ar-screen-clutter" }.isEmpty)
        let clutter = try Self.check(card("head", "[390, 844]", sheet)).filter { $0.rule == "ar-screen-clutter" }
        #expect(clutter.count == 1)
        #expect(abs((clutter.first?.measured ?? 0) - 400.0 / 844 * 100) < 1e-9)
    }

    // MARK: ar-minimize-world-text

    @Test func minimizeWorldTextCountsTextsAndCharactersOnScreen() throws {
        let v = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: a, kind: text, position: [0, 1.55, -2], height: 0.08, string: Aeron Lounge Chair}
              - {id: b, kind: text, position: [0, 1.45, -2], height: 0.06, string: "$1,295 or $108/month for 12 months"}
              - {id: c, kind: text, position: [0, 1.35, -2], height: 0.06, string: Recycled ocean plastic and aluminium}
              - {id: d, kind: text, position: [0, 1.25, -2], height: 0.06, string: Free delivery in 5 days}
              - {id: behind, kind: text, position: [0, 1.6, 2], height: 0.06, string: Not on screen}
            """).filter { $0.rule == "ar-minimize-world-text" }
        // 4 texts on screen (the fifth is behind the camera); 18 + 34 + 36 + 23 = 111 characters.
        #expect(v.map(\.measured) == [4, 111])
        #expect(v.map(\.threshold) == [3, 100])
        #expect(v.allSatisfy { $0.spans == [0...59] && $0.entities.isEmpty && $0.severity == .info })
        let three = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: a, kind: text, position: [0, 1.55, -2], height: 0.08, string: Chair}
              - {id: b, kind: text, position: [0, 1.45, -2], height: 0.06, string: "$1,295"}
              - {id: c, kind: text, position: [0, 1.35, -2], height: 0.06, string: Oak}
            """)
        #expect(three.filter { $0.rule == "ar-minimize-world-text" }.isEmpty)
    }

    // MARK: ar-scale-not-distance

    @Test func scalingUpInPlaceIsReportedMovingCloserIsNot() throws {
        // Scale 0.2 → 0.4 over 1 s at 60 Hz: size_i / size_0 − 1 = i/60, above 20 % from frame 13;
        // the last frame (59) is the worst, 59/60 = 98.33 %.
        let v = try Self.check(Self.head + """
            entities:
              - id: m
                kind: model
                asset: box.glb
                position: [0, 1.6, -2]
                scale: 0.2
                animation: {keyframes: [{t: 0, scale: 0.2}, {t: 1, scale: 0.4}]}
            """).filter { $0.rule == "ar-scale-not-distance" }
        #expect(v.map(\.entities) == [["m"]])
        #expect(abs((v.first?.measured ?? 0) - 5900.0 / 60) < 1e-3 && v.first?.spans == [13...59] && v.first?.worstFrame == 59)
        // Scaled up while it is brought from 2 m to 1 m: not faking distance.
        let closer = try Self.check(Self.head + """
            entities:
              - id: m
                kind: model
                asset: box.glb
                position: [0, 1.6, -2]
                scale: 0.2
                animation: {keyframes: [{t: 0, scale: 0.2, position: [0, 1.6, -2]}, {t: 1, scale: 0.3, position: [0, 1.6, -1]}]}
            """)
        #expect(closer.filter { $0.rule == "ar-scale-not-distance" }.isEmpty)
        // The same growth in place made by the person's pinch (trigger: user): not reported.
        let pinched = try Self.check(Self.head + """
            entities:
              - id: m
                kind: model
                asset: box.glb
                position: [0, 1.6, -2]
                scale: 0.2
                animation: {trigger: user, keyframes: [{t: 0, scale: 0.2}, {t: 1, scale: 0.4}]}
            """)
        #expect(pinched.filter { $0.rule == "ar-scale-not-distance" }.isEmpty)
        #expect(try Self.check(Self.head + """
            entities:
              - id: m
                kind: model
                asset: box.glb
                position: [0, 1.6, -2]
                scale: 0.2
                animation: {trigger: system, keyframes: [{t: 0, scale: 0.2}, {t: 1, scale: 0.4}]}
            """).filter { $0.rule == "ar-scale-not-distance" }.map(\.entities) == [["m"]])
    }

    // MARK: ar-coaching-shown / ar-coaching-hide-ui

    static func screen(_ elements: [String], events: [String], duration: Double) -> String {
        head + """
            duration: \(duration)
            entities:
              - id: screen
                kind: window
                anchor: head
                position: [0, 0, -2]
                size: [390, 844]
                elements:
            \(elements.map { "      - {" + $0 + "}" }.joined(separator: "\n"))
            events:
            \(events.map { "  - {" + $0 + "}" }.joined(separator: "\n"))
            """
    }

    @Test func coachingMissingWhileInitializingIsOneRun() throws {
        // Limited (initializing) for t < 4 s: frames 0…239, 4 s without coaching.
        let v = try Self.check(Self.screen(["id: b, role: button, frame: [159, 700, 72, 72]"],
                                           events: ["t: 0, action: trackingState, state: limited, reason: initializing",
                                                    "t: 4, action: trackingState, state: normal"], duration: 5))
            .filter { $0.rule == "ar-coaching-shown" }
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - 4) < 1e-6 && v.first?.spans == [0...239] && v.first?.entities == [])
        // Located at the trackingState event that began the limited state: head (lines 1–3),
        // duration (4), entities: and the screen (5–11), its button (12), events: (13) → line 14.
        #expect(v.first?.location == SourceLocation(line: 14, column: 5))
        // Normal first, then limited (relocalizing) from 1 s to 4.5 s: the second event (line 15).
        let later = try Self.check(Self.screen(["id: b, role: button, frame: [159, 700, 72, 72]"],
                                               events: ["t: 0, action: trackingState, state: normal",
                                                        "t: 1, action: trackingState, state: limited, reason: relocalizing",
                                                        "t: 4.5, action: trackingState, state: normal"], duration: 5))
            .filter { $0.rule == "ar-coaching-shown" }
        #expect(later.count == 1 && later.first?.location == SourceLocation(line: 15, column: 5))
        // Relocalizing from 1 s to 4.5 s with coaching shown from 2 s: 1 s without coaching, clean.
        let r = try Self.check(Self.screen(["id: coaching, role: coaching, frame: [0, 0, 390, 844], visible: false"],
                                           events: ["t: 0, action: trackingState, state: normal",
                                                    "t: 1, action: trackingState, state: limited, reason: relocalizing",
                                                    "t: 2, action: show, entity: screen/coaching",
                                                    "t: 4.5, action: trackingState, state: normal",
                                                    "t: 4.5, action: hide, entity: screen/coaching"], duration: 5))
        #expect(r.filter { $0.rule.hasPrefix("ar-coaching") }.isEmpty)
        // Limited for another reason (excessive motion) is not what coaching is for.
        let m = try Self.check(Self.screen(["id: b, role: button, frame: [159, 700, 72, 72]"],
                                           events: ["t: 0, action: trackingState, state: limited, reason: excessiveMotion"], duration: 5))
        #expect(m.filter { $0.rule == "ar-coaching-shown" }.isEmpty)
    }

    @Test func coachingHidesOtherUIExceptReset() throws {
        // Coaching visible for t < 3 s (frames 0…179); cart stays; Reset, Start Over, Try again and the hint hidden then are fine.
        let v = try Self.check(Self.screen(["id: coaching, role: coaching, frame: [0, 0, 390, 844]",
                                            "id: cart, role: button, frame: [235, 710, 140, 50], label: Add to Cart",
                                            "id: reset, role: button, frame: [16, 54, 44, 44], label: Reset",
                                            "id: over, role: button, frame: [80, 54, 120, 44], label: Start Over",
                                            "id: again, role: button, frame: [220, 54, 120, 44], label: Try again",
                                            "id: hint, role: text, frame: [60, 600, 270, 24], fontSize: 15, label: Tap to place, visible: false"],
                                           events: ["t: 3, action: hide, entity: screen/coaching",
                                                    "t: 3, action: show, entity: screen/hint"], duration: 4))
            .filter { $0.rule == "ar-coaching-hide-ui" }
        // One finding for the screen (the window holding the app's UI), naming the element.
        #expect(v.map(\.entities) == [["screen"]])
        #expect(v.first?.spans == [0...179] && v.first?.severity == .warning && v.first?.measured == 1)
        #expect(v.first?.message.contains("screen/cart stays visible") == true)
        #expect(v.first?.message.contains("reset") == false)
        // Twelve buttons left visible: the first ten are named, then "and 2 more".
        let many = try Self.check(Self.screen(["id: coaching, role: coaching, frame: [0, 0, 390, 844]"]
                                                + (0..<12).map { "id: b\($0), role: button, frame: [\(16 + 30 * $0), 700, 28, 28]" },
                                              events: ["t: 3, action: hide, entity: screen/coaching"], duration: 4))
            .filter { $0.rule == "ar-coaching-hide-ui" }
        #expect(many.first?.measured == 12)
        #expect(many.first?.message.hasPrefix("screen/b0, screen/b1, screen/b2, ") == true)
        #expect(many.first?.message.contains("screen/b8, screen/b9 and 2 more stay visible") == true)
        // Two coaching periods (0–1 s, 2–3 s): cart is up in the first only, help in the second.
        let twice = try Self.check(Self.screen(["id: coaching, role: coaching, frame: [0, 0, 390, 844]",
                                                "id: cart, role: button, frame: [235, 710, 140, 50], label: Add to Cart",
                                                "id: help, role: button, frame: [16, 710, 140, 50], label: Help, visible: false"],
                                               events: ["t: 1, action: hide, entity: screen/coaching",
                                                        "t: 1.5, action: hide, entity: screen/cart",
                                                        "t: 1.5, action: show, entity: screen/help",
                                                        "t: 2, action: show, entity: screen/coaching",
                                                        "t: 3, action: hide, entity: screen/coaching"], duration: 4))
            .filter { $0.rule == "ar-coaching-hide-ui" }
        #expect(twice.first?.spans == [0...59, 120...179])
        #expect(twice.first?.message == "app UI stays visible while the coaching overlay is shown: screen/cart (coaching from 0 s); screen/help (coaching from 2 s); hide the app's unrelated UI during coaching")
    }

    // MARK: ar-critical-text-screen-space

    @Test func criticalWorldTextAndChangingLabelSize() throws {
        // Walking from z = 0 to −1.5 m in 2 s toward a 6 cm label at z = −3 (eye height): at frame
        // 0 it is 3 m away, at the last frame (119, t = 119/60) 3 − 1.5·119/120 m. Its em spans
        // 2·atan(0.03 / d) facing the camera, so the size grows by atan(0.03/d₁)/atan(0.03/3) − 1.
        let v = try Self.check(Self.head + """
            viewer:
              path:
                - {t: 0, position: [0, 1.6, 0]}
                - {t: 2, position: [0, 1.6, -1.5]}
            entities:
              - {id: price, kind: text, position: [0, 1.6, -3], height: 0.06, string: "$129"}
              - {id: go, kind: text, position: [0.5, 1.6, -4], height: 0.1, string: Point at the floor, primary: true, facing: viewer}
            """).filter { $0.rule == "ar-critical-text-screen-space" }
        let d1 = 3 - 1.5 * 119.0 / 120
        let growth = (atan(0.03 / d1) / atan(0.03 / 3) - 1) * 100                 // 98.33 %
        let price = try #require(v.first { $0.entities == ["price"] })
        #expect(abs(price.measured - growth) < 0.01 && price.severity == .info && price.unit == "%")
        #expect(price.spans == [0...119] && price.worstFrame == 119)
        #expect(price.message.contains("as the device moves"), "\(price.message)")
        let go = v.filter { $0.entities == ["go"] }
        #expect(go.map(\.severity) == [.warning, .info])
        #expect(go.first?.measured == 1 && go.first?.spans == [0...119])
        // Seen from one place, a label keeps its size: clean.
        let still = try Self.check(Self.head + "duration: 1\nentities:\n  - {id: price, kind: text, position: [0, 1.6, -3], height: 0.06, string: \"$129\"}\n")
        #expect(still.isEmpty)
    }

    /// The app scales a 5 cm label 1 m ahead from 1 to 1.3 in 1 s while the device holds still
    /// (session-16 trial, ar/sn-grow): its em grows from 2·atan(0.025) to 2·atan(0.0325), by
    /// atan(0.0325)/atan(0.025) − 1 = 29.98 %. The message says the app changed it, not the device.
    @Test func labelScaledByTheAppIsNotBlamedOnTheDevice() throws {
        let v = try Self.check(Self.head + """
            duration: 2
            viewer: {path: [{t: 0, position: [0, 1.4, 0]}]}
            entities:
              - {id: toy, kind: text, string: Toy, height: 0.05, position: [0, 1.4, -1], animation: {trigger: system, keyframes: [{t: 0, scale: 1}, {t: 1, scale: 1.3}]}}
            """).filter { $0.rule == "ar-critical-text-screen-space" }
        let growth = (atan(0.0325) / atan(0.025) - 1) * 100
        #expect(v.count == 1)
        #expect(abs((v.first?.measured ?? 0) - growth) < 0.01)
        #expect(v.first?.message.contains("while the device holds still (the app changes its size)") == true, "\(v.first?.message ?? "")")
        #expect(v.first?.message.contains("device moves") == false)
    }

    // MARK: ar-gesture-proximity

    @Test func smallObjectsNeedALargerTouchArea() throws {
        // A 2 cm cube whose centre is 1 m ahead: its thinnest width as seen is the near face's
        // 2 cm at 0.99 m, 2·atan(0.01/0.99) = 1.157°, ÷ 0.0903752°/pt = 12.81 pt.
        let v = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: token, kind: model, asset: box.glb, position: [0, 1.6, -1], scale: 0.02, interactive: true}
              - {id: big, kind: model, asset: box.glb, position: [0.4, 1.6, -1], scale: 0.1, interactive: true}
            """)
        let g = v.filter { $0.rule == "ar-gesture-proximity" }
        #expect(g.map(\.entities) == [["token"]])
        let expected = degrees(2 * atan(0.01 / 0.99)) / Self.pointAngle13
        #expect(abs((g.first?.measured ?? 0) - expected) < 1e-3 && g.first?.threshold == 44 && g.first?.unit == "pt")
        // World objects are not judged as screen controls by target-hit-region-ios any more.
        #expect(v.filter { $0.rule == "target-hit-region-ios" }.isEmpty)
    }

    // MARK: ar-screen-clutter

    @Test func screenClutterIsTheUnionOfVisibleUIOverTheScreen() throws {
        // Two overlapping 200 × 200 pt panels, offset by 100 pt: union 70,000 pt² of 390 × 844 =
        // 329,160 pt², 21.27 % (info, above 20 %). The coaching overlay is not counted.
        let info = try Self.check(Self.screen(["id: a, role: image, frame: [0, 0, 200, 200]",
                                               "id: b, role: image, frame: [100, 100, 200, 200]",
                                               "id: c, role: coaching, frame: [0, 0, 390, 844], visible: false"],
                                              events: [], duration: 1).replacingOccurrences(of: "events:\n", with: ""))
            .filter { $0.rule == "ar-screen-clutter" }
        #expect(info.count == 1)
        #expect(abs((info.first?.measured ?? 0) - 7_000_000.0 / 329_160) < 1e-3 && info.first?.severity == .info && info.first?.threshold == 20)
        // A 390 × 400 pt sheet (half of it off the 844 pt screen's bottom: 390 × 344 on screen,
        // 40.76 %) → warning, until it is hidden at t = 0.5 s (frames 0…29).
        let warn = try Self.check(Self.screen(["id: sheet, role: image, frame: [0, 500, 390, 400]"],
                                              events: ["t: 0.5, action: hide, entity: screen/sheet"], duration: 1))
            .filter { $0.rule == "ar-screen-clutter" }
        #expect(warn.map(\.entities) == [["screen"]])
        #expect(abs((warn.first?.measured ?? 0) - 390.0 * 344 / 329_160 * 100) < 1e-3 && warn.first?.severity == .warning)
        #expect(warn.first?.spans == [0...29])
    }

    // MARK: ar-reference-image-limit

    @Test func referenceImagesAboveOneHundred() throws {
        let v = try Self.check(Self.head + """
            duration: 2
            events:
              - {t: 0, action: referenceImages, count: 150}
              - {t: 1, action: referenceImages, count: 100}
            """).filter { $0.rule == "ar-reference-image-limit" }
        // 150 for t < 1 s (frames 0…59); exactly 100 is allowed.
        #expect(v.count == 1 && v.first?.measured == 150 && v.first?.threshold == 100 && v.first?.spans == [0...59])
        #expect(v.first?.location == SourceLocation(line: 6, column: 5))
    }

    // MARK: World-content rules on iOS

    @Test func worldTargetsAreSpacedInOnScreenPointsScreenUIIsNot() throws {
        // Two 5 cm cubes 1 m ahead, centres 6 cm apart: 2·atan(0.03) = 3.436° apart, ÷ 0.0903752°/pt
        // = 38.0 pt on screen (< 60), 1 cm between them. Two overlay buttons 50 pt apart are screen
        // UI and not compared.
        let v = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: left, kind: model, asset: box.glb, position: [-0.03, 1.6, -1], scale: 0.05, interactive: true}
              - {id: right, kind: model, asset: box.glb, position: [0.03, 1.6, -1], scale: 0.05, interactive: true}
              - id: screen
                kind: window
                anchor: head
                position: [0, 0, -2]
                size: [390, 844]
                elements:
                  - {id: a, role: button, frame: [100, 700, 44, 44]}
                  - {id: b, role: button, frame: [150, 700, 44, 44]}
            """)
        let spacing = v.filter { $0.rule == "target-center-spacing" }
        #expect(spacing.map(\.entities) == [["left", "right"]])
        let expected = degrees(2 * atan(0.03)) / Self.pointAngle13
        #expect(abs((spacing.first?.measured ?? 0) - expected) < 0.05 && spacing.first?.unit == "pt_eq")
        #expect(v.filter { $0.rule == "target-no-overlap" }.isEmpty)
    }

    @Test func worldTextFacesTheCameraOnIOS() throws {
        // Text 2 m ahead turned 60° away: 60° between its front and the camera (warning).
        let v = try Self.check(Self.head + """
            duration: 1
            entities:
              - {id: sign, kind: text, position: [0, 1.6, -2], rotation: {yaw: 60}, height: 0.1, string: Exit}
            """).filter { $0.rule == "type-billboard" }
        #expect(v.count == 1 && abs((v.first?.measured ?? 0) - 60) < 1e-6 && v.first?.severity == .warning)
    }

    @Test func coachingExemptsOnlyWholeWords() throws {
        // "Closets" and "Presets" contain "close" and "reset" but are not those controls; a close
        // button written as closeButton, btn-close or labelled "Close" is.
        let v = try Self.check(Self.screen(["id: coaching, role: coaching, frame: [0, 0, 390, 844]",
                                            "id: wardrobe, role: button, frame: [16, 700, 120, 44], label: Closets",
                                            "id: looks, role: button, frame: [150, 700, 120, 44], label: Presets",
                                            "id: closeButton, role: button, frame: [16, 54, 44, 44]",
                                            "id: btn-close, role: button, frame: [70, 54, 44, 44]",
                                            "id: x, role: button, frame: [124, 54, 44, 44], label: Close"],
                                           events: ["t: 1, action: hide, entity: screen/coaching"], duration: 2))
            .filter { $0.rule == "ar-coaching-hide-ui" }
        // One finding for the screen: its two elements that stay up, named; measured 2.
        #expect(v.map(\.entities) == [["screen"]])
        #expect(v.first?.measured == 2)
        let message = v.first?.message ?? ""
        #expect(message.contains("screen/looks") && message.contains("screen/wardrobe") && message.contains("stay visible"))
        #expect(!message.contains("close") && !message.contains("screen/x"))
        #expect(wordsOf("closeButton") == ["close", "button"])
        #expect(wordsOf("btn-close") == ["btn", "close"])
        #expect(wordsOf("Closets") == ["closets"])
        #expect(wordsOf("Re-set 2x") == ["re", "set", "2x"])
    }
}
