import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
import SpatialModel

/// The ARKit session rules (augmented-reality › Helping people place objects, Designing object
/// interactions, Handling interruptions): placement indicators against the detected planes, real
/// products people can resize, placed objects during relocalization, and a way out of a long
/// relocalization. Scenes run at iOS's 60 Hz, so frame k is at t = k / 60 s; every expected
/// number is derived here from the scene text.
@Suite struct RuleARKitSessionTests {
    static func run(_ body: String, rule: String) throws -> [ReportViolation] {
        try RuleARKitTests.check(RuleARKitTests.head + body).filter { $0.rule == rule }
    }

    /// A world card (a window left in the world: ar-comfort-distance's reading) 1.5 m ahead,
    /// pitched by `pitch` degrees, holding a flat placement indicator, with the given events.
    static func card(pitch: Double, events: [String]) -> String {
        """
        duration: 1
        entities:
          - id: card
            kind: window
            position: [0, 0, -1.5]
            rotation: {pitch: \(pitch)}
            size: [200, 200]
            elements:
              - {id: reticle, role: placementIndicator, frame: [50, 50, 100, 100]}
        events:
        \(events.map { "  - {" + $0 + "}" }.joined(separator: "\n"))
        """
    }

    // MARK: ar-placement-indicator

    @Test func flatIndicatorIsComparedWithTheDetectedPlanes() throws {
        // The card's normal, +Z turned 70° about X, is (0, ±sin 70°, cos 70°): 20° from up, and
        // 90° − 20° = 70° from the horizontal.
        let horizontal = "t: 0, action: planeDetected, plane: floor, alignment: horizontal"
        let vertical = "t: 0, action: planeDetected, plane: wall, alignment: vertical"
        let h = try Self.run(Self.card(pitch: -70, events: [horizontal]), rule: "ar-placement-indicator")
        #expect(h.count == 1)
        #expect(abs((h.first?.measured ?? 0) - 20) < 1e-6 && h.first?.threshold == 5 && h.first?.severity == .info)
        #expect(h.first?.entities == ["card/reticle"] && h.first?.spans == [0...59])
        #expect(h.first?.message.contains("from the detected horizontal surface") == true)
        let v = try Self.run(Self.card(pitch: -70, events: [vertical]), rule: "ar-placement-indicator")
        #expect(abs((v.first?.measured ?? 0) - 70) < 1e-6 && v.first?.message.contains("vertical surface") == true)
        // With both planes detected, the closer orientation counts.
        let both = try Self.run(Self.card(pitch: -70, events: [horizontal, vertical]), rule: "ar-placement-indicator")
        #expect(abs((both.first?.measured ?? 0) - 20) < 1e-6)
        // Lying flat (pitch −90°: normal up) on a floor, or upright on a wall: aligned.
        #expect(try Self.run(Self.card(pitch: -90, events: [horizontal]), rule: "ar-placement-indicator").isEmpty)
        #expect(try Self.run(Self.card(pitch: 0, events: [vertical]), rule: "ar-placement-indicator").isEmpty)
        // 4° off the floor is within the 5° tolerance.
        #expect(try Self.run(Self.card(pitch: -86, events: [horizontal]), rule: "ar-placement-indicator").isEmpty)
        // A plane of unknown alignment is not compared.
        #expect(try Self.run(Self.card(pitch: -70, events: ["t: 0, action: planeDetected, plane: p"]), rule: "ar-placement-indicator").isEmpty)
    }

    @Test func indicatorWithoutASurfaceIsReportedPerRun() throws {
        // A screen-space reticle (no tilt check). No plane for t < 1 s (frames 0–59: 1 s), the
        // floor from 1 s, lost at 1.5 s: frames 90–179 again without one (1.5 s, the worst).
        func scene(_ events: [String]) -> String {
            Self.session(["id: reticle, role: placementIndicator, frame: [145, 372, 100, 100]"], events: events, duration: 3)
        }
        let v = try Self.run(scene(["t: 1, action: planeDetected, plane: floor, alignment: horizontal",
                                    "t: 1.5, action: planeLost, plane: floor"]), rule: "ar-placement-indicator")
        #expect(v.count == 1)
        #expect(v.first?.spans == [0...59, 90...179] && v.first?.unit == "s")
        #expect(abs((v.first?.measured ?? 0) - 1.5) < 1e-9)
        #expect(v.first?.message.contains("after ARKit lost every detected surface") == true)
        // A scene that never detects a plane does not say when surfaces are found: not judged.
        #expect(try Self.run(scene(["t: 0, action: trackingState, state: normal"]), rule: "ar-placement-indicator").isEmpty)
    }

    // MARK: ar-scaling-appropriate

    /// An 80 cm chair (the box asset) 1.6 m ahead on the floor, as lines of `entities:`.
    static let chair = """
          - id: chair
            kind: model
            asset: box.glb
            position: [0, 0.4, -1.6]
            scale: 0.8
            accessibilityLabel: Chair

        """

    static func product(_ keys: String, animation: String = "") -> String {
        "duration: 1\nentities:\n" + chair + keys.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n" + animation + "\n"
    }

    @Test func realProductsPeopleCanResize() throws {
        let pinch = """
                animation:
                  trigger: user
                  keyframes:
                    - {t: 0.2, scale: 0.8}
                    - {t: 0.6, scale: 1.2}
            """
        // 1.2 / 0.8 = 1.5: the pinch resizes it by 50 %.
        let v = try Self.run(Self.product("representsRealObject: true", animation: pinch), rule: "ar-scaling-appropriate")
        #expect(v.count == 1 && v.first?.severity == .warning && v.first?.spans == [0...59] && v.first?.measured == 1)
        #expect(v.first?.message.contains("resizes it by 50 % with a pinch") == true)
        let flag = try Self.run(Self.product("representsRealObject: true\nuserScalable: true"), rule: "ar-scaling-appropriate")
        #expect(flag.count == 1 && flag.first?.message.contains("userScalable: true") == true)
        // Imaginary content may be resized; an app-played scale is ar-scale-not-distance's concern;
        // a real product that is only scripted without a pinch is fine.
        #expect(try Self.run(Self.product("representsRealObject: false", animation: pinch), rule: "ar-scaling-appropriate").isEmpty)
        #expect(try Self.run(Self.product("representsRealObject: true", animation: pinch.replacingOccurrences(of: "trigger: user", with: "trigger: system")),
                             rule: "ar-scaling-appropriate").isEmpty)
        #expect(try Self.run(Self.product("representsRealObject: true\nuserScalable: false"), rule: "ar-scaling-appropriate").isEmpty)
    }

    // MARK: ar-relocalization-hide and ar-reset-cancel

    static func session(_ elements: [String], entities: String = "", events: [String], duration: Double) -> String {
        """
        duration: \(duration)
        entities:
        \(entities)  - id: screen
            kind: window
            anchor: head
            position: [0, 0, -2]
            size: [390, 844]
            elements:\(elements.isEmpty ? " []" : "")
        \(elements.map { "      - {" + $0 + "}" }.joined(separator: "\n"))
        events:
        \(events.map { "  - {" + $0 + "}" }.joined(separator: "\n"))
        """
    }

    @Test func placedObjectsDuringRelocalization() throws {
        let objects = Self.chair + """
              - id: lamp
                kind: model
                asset: box.glb
                position: [1, 0.4, -1.6]
                scale: 0.3
                accessibilityLabel: Lamp
                visible: false

            """
        // Relocalizing 2–4 s (frames 120–239). The chair was placed before; the lamp first appears
        // at 3 s, during relocalization, so it was not placed before it and is not reported.
        let v = try Self.run(Self.session(["id: close, role: button, frame: [16, 59, 44, 44], label: Close"], entities: objects,
                                          events: ["t: 0, action: trackingState, state: normal",
                                                   "t: 2, action: trackingState, state: limited, reason: relocalizing",
                                                   "t: 3, action: show, entity: lamp",
                                                   "t: 4, action: trackingState, state: normal"], duration: 5),
                             rule: "ar-relocalization-hide")
        #expect(v.count == 1 && v.first?.entities == ["chair"] && v.first?.spans == [120...239] && v.first?.severity == .info)
        #expect(abs((v.first?.measured ?? 0) - 2) < 1e-9)
        // Initializing is not relocalizing: nothing had been placed in the world yet.
        let initializing = try Self.run(Self.session([], entities: objects,
                                                     events: ["t: 0, action: trackingState, state: limited, reason: initializing",
                                                              "t: 2, action: trackingState, state: normal"], duration: 3),
                                        rule: "ar-relocalization-hide")
        #expect(initializing.isEmpty)
    }

    @Test func longRelocalizationNeedsAWayOut() throws {
        let reloc = ["t: 0, action: trackingState, state: normal",
                     "t: 1, action: trackingState, state: limited, reason: relocalizing",
                     "t: 13, action: trackingState, state: normal"]
        // 1–13 s without a control: frames 60–779, 12 s (more than 10 s).
        let v = try Self.run(Self.session(["id: coaching, role: coaching, frame: [0, 0, 390, 844]"], events: reloc, duration: 14),
                             rule: "ar-reset-cancel")
        #expect(v.count == 1 && v.first?.spans == [60...779] && v.first?.severity == .warning)
        #expect(abs((v.first?.measured ?? 0) - 12) < 1e-9 && v.first?.entities == [])
        // Located at the trackingState event that began it: head (lines 1–3), duration (4),
        // entities and the screen (5–11), its element (12), events: (13), the first event (14) → 15.
        #expect(v.first?.location == SourceLocation(line: 15, column: 5))
        // A visible Close, Reset or exit control is a way out; a hidden one is not.
        for control in ["id: closeButton, role: button, frame: [16, 59, 44, 44]",
                        "id: b, role: button, frame: [16, 59, 44, 44], label: Reset",
                        "id: leave, role: exit, frame: [16, 59, 44, 44], label: Leave"] {
            #expect(try Self.run(Self.session([control], events: reloc, duration: 14), rule: "ar-reset-cancel").isEmpty, "\(control)")
        }
        let hidden = try Self.run(Self.session(["id: reset, role: button, frame: [16, 59, 44, 44], label: Reset, visible: false"],
                                               events: reloc, duration: 14), rule: "ar-reset-cancel")
        #expect(hidden.count == 1)
        // 9 s is within the limit.
        let short = ["t: 1, action: trackingState, state: limited, reason: relocalizing", "t: 10, action: trackingState, state: normal"]
        #expect(try Self.run(Self.session([], events: short, duration: 14), rule: "ar-reset-cancel").isEmpty)
    }
}
