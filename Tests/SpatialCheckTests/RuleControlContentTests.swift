import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting
@testable import SceneLoader
import SpatialModel

/// What controls and windows say: target-icon-help-text, type-tooltip-length, type-title-length and
/// target-prominent-count, end to end on the 720 × 640 pt window of `RulePresentationTests.form`
/// (90 frames). Every expected number is counted from the scene text.
@Suite struct RuleControlContentTests {
    static func run(_ yaml: String, _ rule: String) throws -> [ReportViolation] {
        try RulePresentationTests.run(yaml, rule)
    }

    static func form(_ elements: [String], children: String = "      []", events: [String] = []) -> String {
        RulePresentationTests.form(children, elements: elements, events: events)
    }

    // MARK: target-icon-help-text

    @Test func iconOnlyControlsNeedText() throws {
        let v = try Self.run(Self.form([
            "id: bare, role: button, frame: [20, 20, 60, 60], symbol: trash",
            "id: titled, role: button, frame: [100, 20, 60, 60], symbol: trash, accessibilityLabel: Delete",
            "id: tipped, role: button, frame: [180, 20, 60, 60], symbol: trash, helpText: Delete the note",
            "id: worded, role: button, frame: [260, 20, 120, 60], symbol: trash, label: Delete",
            "id: blank, role: toggle, frame: [400, 20, 60, 60], symbol: star, helpText: '   '",
            "id: tab, role: tab, frame: [20, 100, 60, 60], symbol: house",
            "id: picture, role: image, frame: [100, 100, 60, 60], symbol: photo",
            "id: knob, role: custom, frame: [180, 100, 60, 60], symbol: dial.low",
            "id: words, role: button, frame: [260, 100, 120, 60], label: Save",
        ]), "target-icon-help-text")
        // bare, the toggle whose tooltip is only spaces, and the custom control; not the tab
        // (type-tab-labels'), the image (not interactive) or a button without a symbol.
        #expect(v.map(\.entities) == [["form/bare"], ["form/blank"], ["form/knob"]])
        #expect(v.allSatisfy { $0.severity == .warning && $0.measured == 1 && $0.threshold == 0 && $0.spans == [0...89] })
        #expect(v.first?.message.hasPrefix("form/bare shows only a symbol") == true)
    }

    @Test func toolbarItemsOfAnyRoleAndOnlyOnVisionOS() throws {
        // An interactive image laid inside a toolbar's frame is a toolbar item; outside it, an
        // image people can tap is not this rule's (a11y-labels judges images).
        let elements = [
            "id: bar, role: toolbar, frame: [200, 560, 320, 70]",
            "id: item, role: image, frame: [220, 570, 50, 50], symbol: pencil, interactive: true",
            "id: loose, role: image, frame: [20, 20, 50, 50], symbol: pencil, interactive: true, accessibilityLabel: Sketch",
            "id: plain, role: image, frame: [100, 20, 50, 50], symbol: pencil, interactive: true",
        ]
        let v = try Self.run(Self.form(elements), "target-icon-help-text")
        #expect(v.map(\.entities) == [["form/item"]])
        let ios = Self.form(elements).replacingOccurrences(of: "duration: 1", with: "platform: iOS\nduration: 1")
        #expect(try Self.run(ios, "target-icon-help-text").isEmpty)
    }

    // MARK: type-tooltip-length

    @Test func tooltipLengthInCharactersPeopleSee() throws {
        // 60 characters: none; 61: info (threshold 60); 75: info; 76: warning (threshold 75). 61
        // thumbs-up emoji with a skin tone (two scalars each) are 61 characters; white space at
        // both ends does not count (2 + 60 + 2 → 60).
        let a = String(repeating: "a", count: 60), b = String(repeating: "b", count: 61)
        let c = String(repeating: "c", count: 75), d = String(repeating: "d", count: 76)
        let thumbs = String(repeating: "👍🏽", count: 61)
        let v = try Self.run(Self.form([
            "id: a, role: button, frame: [20, 20, 60, 60], label: A, helpText: \(a)",
            "id: b, role: button, frame: [100, 20, 60, 60], label: B, helpText: \(b)",
            "id: c, role: button, frame: [180, 20, 60, 60], label: C, helpText: \(c)",
            "id: d, role: button, frame: [260, 20, 60, 60], label: D, helpText: \(d)",
            "id: e, role: button, frame: [340, 20, 60, 60], label: E, helpText: \"\(thumbs)\"",
            "id: f, role: button, frame: [420, 20, 60, 60], label: F, helpText: \"  \(a)  \"",
        ]), "type-tooltip-length")
        let byEntity = Dictionary(uniqueKeysWithValues: v.map { ($0.entities.first ?? "", $0) })
        #expect(Set(byEntity.keys) == ["form/b", "form/c", "form/d", "form/e"])
        #expect(byEntity["form/b"]?.measured == 61 && byEntity["form/b"]?.threshold == 60 && byEntity["form/b"]?.severity == .info)
        #expect(byEntity["form/c"]?.measured == 75 && byEntity["form/c"]?.severity == .info)
        #expect(byEntity["form/d"]?.measured == 76 && byEntity["form/d"]?.threshold == 75 && byEntity["form/d"]?.severity == .warning)
        #expect(byEntity["form/e"]?.measured == 61 && byEntity["form/e"]?.severity == .info)
        #expect(byEntity["form/d"]?.message.contains("is 76 characters long (more than 75)") == true)
        // 61 to 75 is inside the HIG's "60 to 75": the info says so (s31 review F9).
        #expect(byEntity["form/c"]?.message.contains("is 75 characters long (over 60, though within 75: translations often run longer)") == true)
    }

    // MARK: type-title-length

    @Test func windowTitlesUnderFifteenCharacters() throws {
        // "Quarterly Sales" is 15 characters: reported (measured 15, threshold 14); "Sales Report"
        // (12) is not; "Café Menu Board" written with a combining accent is 15 characters as seen.
        func titled(_ title: String) throws -> [ReportViolation] {
            try Self.run(Self.form(["id: submit, role: button, frame: [556, 572, 140, 44], label: Submit"]).replacingOccurrences(of: "    kind: window\n", with: "    kind: window\n    title: \"\(title)\"\n"),
                         "type-title-length")
        }
        let long = try titled("Quarterly Sales")
        #expect(long.count == 1 && long.first?.entities == ["form"] && long.first?.measured == 15 && long.first?.threshold == 14)
        #expect(long.first?.severity == .info && long.first?.spans == [0...89])
        #expect(try titled("Sales Report").isEmpty)
        #expect(try titled("Cafe\u{301} Menu Board").first?.measured == 15)
        // The title of a child window is judged too; a title on an element is not a scene key.
        let sheet = RulePresentationTests.presented("s", "sheet", size: (300, 200)).replacingOccurrences(of: "kind: window\n", with: "kind: window\n      title: Export Settings Sheet\n")
        #expect(try Self.run(RulePresentationTests.form(sheet), "type-title-length").map(\.entities) == [["form/s"]])
        // An alert's or a menu's title has no controls beside it: not judged (s31 review F3; the
        // HIG's own example alert asks a 48-character question).
        for kind in ["alert", "menu"] {
            let presented = RulePresentationTests.presented("a", kind, size: (300, 200))
                .replacingOccurrences(of: "kind: window\n", with: "kind: window\n      title: Are you sure you want to discard this new event?\n")
            #expect(try Self.run(RulePresentationTests.form(presented), "type-title-length").isEmpty, "\(kind)")
        }
    }

    // MARK: target-prominent-count

    @Test func prominentButtonsPerView() throws {
        // Two prominent buttons in the window and one in its toolbar ornament: three in one view.
        // A sheet's two are a view of their own. The fourth, shown at t = 0.5 s, makes four in
        // frames 45–89.
        let ornament = ["    - id: tools", "      kind: window", "      position: [0, -0.45, 0.02]", "      size: [300, 70]",
                        "      elements:", "        - {id: done, role: button, frame: [200, 10, 90, 50], label: Done, buttonStyle: glassProminent}"]
            .joined(separator: "\n")
        let sheet = RulePresentationTests.presented("s", "sheet", size: (400, 300), elements: [
            "id: ok, role: button, frame: [20, 200, 160, 52], label: OK, buttonStyle: borderedProminent",
            "id: go, role: button, frame: [220, 200, 160, 52], label: Go, buttonStyle: borderedProminent",
        ])
        let v = try Self.run(Self.form([
            "id: pay, role: button, frame: [20, 560, 160, 52], label: Pay, buttonStyle: borderedProminent",
            "id: buy, role: button, frame: [200, 560, 160, 52], label: Buy, buttonStyle: borderedProminent",
            "id: gift, role: button, frame: [380, 560, 160, 52], label: Gift, buttonStyle: borderedProminent, visible: false",
            "id: save, role: button, frame: [560, 560, 140, 52], label: Save, buttonStyle: bordered",
        ], children: ornament + "\n" + sheet, events: ["t: 0.5, action: show, entity: form/gift"]), "target-prominent-count")
        #expect(v.count == 1 && v.first?.entities == ["form"] && v.first?.severity == .warning)
        #expect(v.first?.measured == 4 && v.first?.threshold == 2 && v.first?.spans == [0...89])
        #expect(v.first?.message.contains("(form/pay, form/buy, form/gift and form/tools/done)") == true)
        // Without the ornament's button: three only while the gift button shows.
        let two = try Self.run(Self.form([
            "id: pay, role: button, frame: [20, 560, 160, 52], label: Pay, buttonStyle: borderedProminent",
            "id: buy, role: button, frame: [200, 560, 160, 52], label: Buy, buttonStyle: borderedProminent",
            "id: gift, role: button, frame: [380, 560, 160, 52], label: Gift, buttonStyle: borderedProminent, visible: false",
        ], events: ["t: 0.5, action: show, entity: form/gift"]), "target-prominent-count")
        #expect(two.count == 1 && two.first?.measured == 3 && two.first?.spans == [45...89])
    }

    /// A sheet or alert drawn as an element is a view of its own, as a presented window is; a
    /// prominent button people cannot target does not count (s31 review F2, F13).
    @Test func prominentButtonsOnAnAlertElementAndDisabledOnes() throws {
        let v = try Self.run(Self.form([
            "id: buy, role: button, frame: [20, 560, 160, 52], label: Buy, buttonStyle: borderedProminent",
            "id: rent, role: button, frame: [200, 560, 160, 52], label: Rent, buttonStyle: borderedProminent",
            "id: confirm, role: alert, frame: [210, 200, 300, 200]",
            "id: ok, role: button, frame: [230, 330, 120, 44], label: Buy for 9.99, buttonStyle: borderedProminent",
            "id: off, role: button, frame: [380, 560, 160, 52], label: Gift, buttonStyle: borderedProminent, interactive: false",
        ]), "target-prominent-count")
        #expect(v.isEmpty, "\(v.map(\.message))")
        // Three on the alert itself are too many for its view.
        let three = try Self.run(Self.form([
            "id: confirm, role: alert, frame: [210, 200, 300, 200]",
            "id: a, role: button, frame: [220, 330, 80, 44], label: A, buttonStyle: borderedProminent",
            "id: b, role: button, frame: [310, 330, 80, 44], label: B, buttonStyle: borderedProminent",
            "id: c, role: button, frame: [400, 330, 80, 44], label: C, buttonStyle: borderedProminent",
        ]), "target-prominent-count")
        #expect(three.map(\.entities) == [["form/confirm"]] && three.first?.measured == 3)
    }

    /// An ornament that is a toolbar (two or more controls) holds toolbar items without a toolbar
    /// element, as tb-no-pulldown reads it (s31 review F1).
    @Test func iconOnlyItemsOfAToolbarOrnament() throws {
        let bar = ["    - id: bar", "      kind: window", "      position: [0, -0.45, 0.02]", "      size: [300, 70]", "      elements:",
                   "        - {id: exposure, role: slider, frame: [8, 10, 160, 50], symbol: sun.max}",
                   "        - {id: crop, role: button, frame: [200, 10, 50, 50], symbol: crop, accessibilityLabel: Crop}"].joined(separator: "\n")
        let v = try Self.run(Self.form(["id: title, role: text, frame: [20, 20, 300, 40], label: Photo"], children: bar), "target-icon-help-text")
        #expect(v.map(\.entities) == [["form/bar/exposure"]])
        // With only the slider the ornament is no toolbar, and a slider alone is not an icon control.
        let alone = bar.split(separator: "\n").dropLast().joined(separator: "\n")
        #expect(try Self.run(Self.form(["id: title, role: text, frame: [20, 20, 300, 40], label: Photo"], children: alone), "target-icon-help-text").isEmpty)
    }

    /// A toolbar has one primary action (toolbars › Actions; s31 review F13): two prominent items
    /// of a toolbar ornament, or inside a toolbar element's frame, are the sub-check `toolbar`
    /// (measured 2, threshold 1), though the window's view holds no more than two.
    @Test func aToolbarWithTwoPrimaryActions() throws {
        let bar = ["    - id: bar", "      kind: window", "      position: [0, -0.45, 0.02]", "      size: [300, 70]", "      elements:",
                   "        - {id: done, role: button, frame: [20, 10, 120, 50], label: Done, buttonStyle: borderedProminent}",
                   "        - {id: submit, role: button, frame: [160, 10, 120, 50], label: Submit, buttonStyle: glassProminent}"].joined(separator: "\n")
        let v = try Self.run(Self.form(["id: title, role: text, frame: [20, 20, 300, 40], label: Review"], children: bar), "target-prominent-count")
        #expect(v.map(\.entities) == [["form/bar"]])
        #expect(v.first?.measured == 2 && v.first?.threshold == 1 && v.first?.severity == .warning)
        #expect(v.first?.message.hasPrefix("the toolbar form/bar shows 2 prominent buttons at once (form/bar/done and form/bar/submit); a toolbar has one primary action") == true,
                "\(v.map(\.message))")
        // One of them plain: clean, and so is the pair when one of them cannot be targeted.
        #expect(try Self.run(Self.form(["id: title, role: text, frame: [20, 20, 300, 40], label: Review"],
                                       children: bar.replacingOccurrences(of: ", buttonStyle: glassProminent", with: "")), "target-prominent-count").isEmpty)
        #expect(try Self.run(Self.form(["id: title, role: text, frame: [20, 20, 300, 40], label: Review"],
                                       children: bar.replacingOccurrences(of: "glassProminent}", with: "glassProminent, interactive: false}")), "target-prominent-count").isEmpty)
        // A toolbar element of the window: the two inside its frame; a third outside it does not count.
        let element = try Self.run(Self.form([
            "id: tools, role: toolbar, frame: [0, 0, 720, 60]",
            "id: done, role: button, frame: [500, 8, 90, 44], label: Done, buttonStyle: borderedProminent",
            "id: send, role: button, frame: [600, 8, 90, 44], label: Send, buttonStyle: borderedProminent",
        ]), "target-prominent-count")
        #expect(element.map(\.entities) == [["form"]] && element.first?.measured == 2, "\(element.map(\.message))")
        #expect(element.first?.message.hasPrefix("a toolbar of form shows 2 prominent buttons") == true)
        let outside = try Self.run(Self.form([
            "id: tools, role: toolbar, frame: [0, 0, 720, 60]",
            "id: done, role: button, frame: [500, 8, 90, 44], label: Done, buttonStyle: borderedProminent",
            "id: send, role: button, frame: [600, 300, 90, 44], label: Send, buttonStyle: borderedProminent",
        ]), "target-prominent-count")
        #expect(outside.isEmpty, "\(outside.map(\.message))")
    }

    @Test func unknownButtonStyleIsAnError() throws {
        // SwiftUI's names only: `prominent` is refused at its value (line 9 of the scene, the
        // element's line), with the style meant.
        let line = "id: pay, role: button, frame: [20, 560, 160, 52], label: Pay, buttonStyle: prominent"
        let d = LoaderFixture.single(Self.form([line]))
        let column = try #require(("      - {" + line).range(of: "prominent")).lowerBound.utf16Offset(in: "      - {" + line) + 1
        #expect(d?.location == SourceLocation(line: 9, column: column))
        #expect(d?.message.hasPrefix("'buttonStyle' of element 'pay' expects one of") == true)
        #expect(d?.hint == "did you mean 'borderedProminent'?")
    }
}
