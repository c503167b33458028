import Foundation
import Testing
@testable import Rules
@testable import SpatialCheck
import Reporting

/// Sheets, popovers, alerts and menus a window presents, and slider orientation, end to end. A
/// 720 × 640 pt window 1.5 m ahead at 90 Hz; every expected number is derived from the scene text.
@Suite struct RulePresentationTests {
    /// The window `form` with `children` (lines of YAML at the children's indentation) and events.
    static func form(_ children: String, elements: [String] = ["id: submit, role: button, frame: [556, 572, 140, 44], label: Submit"],
                     events: [String] = [], duration: Double = 1) -> String {
        """
        format: spatialscene/1
        duration: \(duration)
        entities:
          - id: form
            kind: window
            placement: {distance: 1.5}
            size: [720, 640]
            elements:
        \(elements.map { "      - {" + $0 + "}" }.joined(separator: "\n"))
            children:
        \(children)
        events:\(events.isEmpty ? " []" : "")
        \(events.map { "  - {" + $0 + "}" }.joined(separator: "\n"))
        """
    }

    /// A presented child window at the children's indentation (4 spaces), with its own children.
    static func presented(_ id: String, _ kind: String, size: (Int, Int), visible: Bool = true,
                          elements: [String] = [], children: String = "") -> String {
        var lines = ["    - id: \(id)", "      kind: window", "      presentation: \(kind)", "      position: [0, 0, 0.03]",
                     "      size: [\(size.0), \(size.1)]"]
        if !visible { lines.append("      visible: false") }
        if !elements.isEmpty { lines.append("      elements:"); lines += elements.map { "        - {" + $0 + "}" } }
        if !children.isEmpty {
            lines.append("      children:")
            lines += children.split(separator: "\n").map { "    " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    static func run(_ yaml: String, _ rule: String) throws -> [ReportViolation] {
        try RuleScenes.check(yaml).filter { $0.rule == rule }
    }

    // MARK: sheet-single

    @Test func sheetsShownTogetherAreCountedPerTopWindow() throws {
        // A sheet presented from the sign-off sheet from t = 0.5 s (frames 45–89): two at once.
        let nested = Self.presented("confirm", "sheet", size: (360, 240), visible: false)
        let v = try Self.run(Self.form(Self.presented("signoff", "sheet", size: (480, 360), children: nested),
                                       events: ["t: 0.5, action: show, entity: form/signoff/confirm"]), "sheet-single")
        #expect(v.count == 1 && v.first?.entities == ["form"] && v.first?.spans == [45...89] && v.first?.measured == 2)
        #expect(v.first?.message.contains("(form/signoff and form/signoff/confirm)") == true)
        // A sheet element of the form's own content and a sheet window shown together: also two.
        let element = try Self.run(Self.form(Self.presented("signoff", "sheet", size: (480, 360)),
                                             elements: ["id: panel, role: sheet, frame: [100, 100, 300, 300]"]), "sheet-single")
        #expect(element.count == 1 && element.first?.spans == [0...89])
        // One after the other: never two.
        let swap = Self.presented("a", "sheet", size: (480, 360)) + "\n" + Self.presented("b", "sheet", size: (480, 360), visible: false)
        #expect(try Self.run(Self.form(swap, events: ["t: 0.5, action: hide, entity: form/a", "t: 0.5, action: show, entity: form/b"]),
                             "sheet-single").isEmpty)
    }

    @Test func configuredLimits() throws {
        // maxSheets: 0 judges a single sheet; maxPopovers: 1e300 allows any number without trapping.
        let one = Self.form(Self.presented("s", "sheet", size: (480, 360)))
        let strict = try RuleScenes.check(one, config: "rules:\n  sheet-single: {maxSheets: 0}\n").filter { $0.rule == "sheet-single" }
        #expect(strict.count == 1 && strict.first?.measured == 1 && strict.first?.threshold == 0)
        let two = Self.presented("p1", "popover", size: (300, 200)) + "\n" + Self.presented("p2", "popover", size: (300, 200))
        let lenient = try RuleScenes.check(Self.form(two), config: "rules:\n  popover-single: {maxPopovers: 1e300}\n").filter { $0.rule == "popover-single" }
        #expect(lenient.isEmpty)
    }

    @Test func manySheetsAreNamedUpToTen() throws {
        // Twelve sheet elements shown at once: the message names the first ten and counts the rest.
        let sheets = (0..<12).map { "id: s\($0), role: sheet, frame: [\(10 + $0 * 50), 10, 40, 40]" }
        let v = try Self.run(Self.form("      []", elements: sheets), "sheet-single")
        #expect(v.count == 1 && v.first?.measured == 12)
        #expect(v.first?.message.contains("form/s0, form/s1") == true && v.first?.message.contains("form/s9 and 2 more") == true)
        #expect(v.first?.message.contains("form/s10") == false)
    }

    // MARK: popover-single

    @Test func popoversAtOnceAndViewsOverAPopover() throws {
        // Two popovers from t = 0.5 s: the second in scene order is reported, frames 45–89.
        let two = Self.presented("p1", "popover", size: (300, 200)) + "\n" + Self.presented("p2", "popover", size: (300, 200), visible: false)
        let v = try Self.run(Self.form(two, events: ["t: 0.5, action: show, entity: form/p2"]), "popover-single")
        #expect(v.count == 1 && v.first?.entities == ["form/p2"] && v.first?.spans == [45...89] && v.first?.measured == 2)
        #expect(v.first?.message.contains("while form/p1 is open") == true)
        // A sheet presented from a popover is on top of it (sub-check onTop); an alert may be.
        let sheet = Self.presented("p1", "popover", size: (300, 200), children: Self.presented("s", "sheet", size: (200, 100)))
        let onTop = try Self.run(Self.form(sheet), "popover-single")
        #expect(onTop.count == 1 && onTop.first?.entities == ["form/p1/s"] && onTop.first?.measured == 1 && onTop.first?.threshold == 0)
        #expect(onTop.first?.message.contains("on top of popover form/p1") == true)
        let alert = Self.presented("p1", "popover", size: (300, 200), children: Self.presented("a", "alert", size: (200, 100)))
        #expect(try Self.run(Self.form(alert), "popover-single").isEmpty)
    }

    // MARK: sheet-coverage

    @Test func sheetShareOfItsWindow() throws {
        // 700 × 620 of 720 × 640: 434,000 / 460,800 = 94.18 % (warning, over 90 %).
        let w = try Self.run(Self.form(Self.presented("s", "sheet", size: (700, 620))), "sheet-coverage")
        #expect(w.count == 1 && w.first?.severity == .warning && w.first?.threshold == 90)
        #expect(abs((w.first?.measured ?? 0) - 434_000.0 / 460_800 * 100) < 1e-9)
        // 640 × 540: 345,600 / 460,800 = 75 % exactly, not more than 75 %: clean; 640 × 560: 77.78 % (info).
        #expect(try Self.run(Self.form(Self.presented("s", "sheet", size: (640, 540))), "sheet-coverage").isEmpty)
        let i = try Self.run(Self.form(Self.presented("s", "sheet", size: (640, 560))), "sheet-coverage")
        #expect(i.count == 1 && i.first?.severity == .info && abs((i.first?.measured ?? 0) - 358_400.0 / 460_800 * 100) < 1e-9)
        // A sheet element: its frame over its container, 700 × 600 / 720 × 640 = 91.15 %.
        let e = try Self.run(Self.form("      []", elements: ["id: sh, role: sheet, frame: [10, 20, 700, 600]"]), "sheet-coverage")
        #expect(e.count == 1 && abs((e.first?.measured ?? 0) - 420_000.0 / 460_800 * 100) < 1e-9)
        // A sheet opened from a 200 × 150 pt popover belongs to the popover's window: 480 × 400 of
        // 720 × 640 is 41.7 %, clean (of the popover it would be 640 %); 720 × 680 is 106.25 % of the
        // window, larger than it.
        func fromPopover(_ size: (Int, Int)) -> String {
            Self.form(Self.presented("pop", "popover", size: (200, 150), children: Self.presented("s", "sheet", size: size)))
        }
        #expect(try Self.run(fromPopover((480, 400)), "sheet-coverage").isEmpty)
        let big = try Self.run(fromPopover((720, 680)), "sheet-coverage")
        #expect(big.map(\.entities) == [["form/pop/s"]] && abs((big.first?.measured ?? 0) - 489_600.0 / 460_800 * 100) < 1e-9)
        #expect(big.first?.message.contains("is larger than form (106.25 % of its area) and covers all of it") == true)
    }

    // MARK: alert-buttons

    @Test func alertButtonsAreCounted() throws {
        func buttons(_ n: Int) -> [String] { (0..<n).map { "id: b\($0), role: button, frame: [20, \(60 + 60 * $0), 280, 44], label: B\($0)" } }
        let four = try Self.run(Self.form(Self.presented("a", "alert", size: (320, 320),
                                                         elements: buttons(4) + ["id: f, role: textField, frame: [20, 10, 280, 40], label: Name"])),
                                "alert-buttons")
        #expect(four.count == 1 && four.first?.measured == 4 && four.first?.threshold == 3 && four.first?.entities == ["form/a"])
        #expect(try Self.run(Self.form(Self.presented("a", "alert", size: (320, 320), elements: buttons(3))), "alert-buttons").isEmpty)
        // An alert element counts the container's buttons laid on it (inside its frame): 4 of 5.
        let on = buttons(4).map { $0.replacingOccurrences(of: "frame: [20,", with: "frame: [120,") }
        let element = try Self.run(Self.form("      []", elements: ["id: al, role: alert, frame: [100, 40, 320, 320]"] + on
                                             + ["id: out, role: button, frame: [556, 572, 140, 44], label: Out"]), "alert-buttons")
        #expect(element.count == 1 && element.first?.measured == 4 && element.first?.entities == ["form/al"])
    }

    // MARK: ctxmenu-height

    @Test func menuTallerThanItsWindow() throws {
        let v = try Self.run(Self.form(Self.presented("m", "menu", size: (280, 700))), "ctxmenu-height")
        // Both in the form's points (the menu shares its scale): 700 against 640.
        #expect(v.count == 1 && abs((v.first?.measured ?? 0) - 700) < 1e-9 && v.first?.threshold == 640 && v.first?.unit == "pt")
        // Exactly as tall as the window, or a sheet that tall: not this rule's.
        #expect(try Self.run(Self.form(Self.presented("m", "menu", size: (280, 640))), "ctxmenu-height").isEmpty)
        #expect(try Self.run(Self.form(Self.presented("m", "sheet", size: (280, 700))), "ctxmenu-height").isEmpty)
    }

    // MARK: slider-horizontal

    @Test func verticalSliders() throws {
        let v = try Self.run(Self.form("      []", elements: ["id: v, role: slider, frame: [40, 40, 30, 240], label: V",
                                                        "id: h, role: slider, frame: [200, 40, 240, 30], label: H",
                                                        "id: sq, role: slider, frame: [200, 200, 40, 40], label: Square"]),
                             "slider-horizontal")
        #expect(v.count == 1 && v.first?.entities == ["form/v"] && v.first?.measured == 8 && v.first?.severity == .info)
        #expect(v.first?.message.contains("240 pt tall, 30 pt wide") == true)
    }
    // MARK: tb-not-vertical

    @Test func verticalToolbars() throws {
        // A 76 × 320 pt toolbar: 320 / 76 = 4.2105. The same bar holding a tab is a tab bar; a tab
        // of the container outside the bar's frame does not make it one.
        let v = try Self.run(Self.form("      []", elements: [
            "id: tools, role: toolbar, frame: [0, 0, 76, 320]",
            "id: tabs, role: toolbar, frame: [100, 0, 76, 320]",
            "id: home, role: tab, frame: [108, 16, 60, 60], label: Home, symbol: house",
            "id: wide, role: toolbar, frame: [200, 560, 320, 76]",
            "id: stray, role: tab, frame: [600, 16, 60, 60], label: Stray, symbol: star",
        ]), "tb-not-vertical")
        #expect(v.count == 1 && v.first?.entities == ["form/tools"] && v.first?.severity == .warning)
        #expect(abs((v.first?.measured ?? 0) - 320.0 / 76.0) < 1e-12 && v.first?.threshold == 1)
        #expect(v.first?.message.contains("is vertical (320 pt tall, 76 pt wide)") == true)
        // One tab among five tools is no tab bar.
        let tools = (0..<5).map { "id: t\($0), role: button, frame: [8, \(8 + 60 * $0), 44, 44], label: T\($0)" }
        let oneTab = try Self.run(Self.form("      []", elements: ["id: bar, role: toolbar, frame: [0, 0, 60, 380]"] + tools
                                                + ["id: home, role: tab, frame: [8, 320, 44, 44], label: Home, symbol: house"]), "tb-not-vertical")
        #expect(oneTab.map(\.entities) == [["form/bar"]])
    }

    @Test func verticalOrnamentStripsAreToolbars() throws {
        // Ornaments without a toolbar element: a 60 × 300 pt strip of three buttons (300 / 60 = 5)
        // is a vertical toolbar; a strip of three tabs is a tab bar; one button alone is no bar.
        func ornament(_ id: String, x: Double, size: (Int, Int), _ elements: [String]) -> String {
            (["    - id: \(id)", "      kind: window", "      position: [\(x), 0, 0.02]", "      size: [\(size.0), \(size.1)]", "      elements:"]
                + elements.map { "        - {" + $0 + "}" }).joined(separator: "\n")
        }
        let children = [
            ornament("strip", x: -0.7, size: (60, 300), (0..<3).map { "id: b\($0), role: button, frame: [8, \(8 + 60 * $0), 44, 44], label: B\($0)" }),
            ornament("tabs", x: 0.7, size: (60, 300), (0..<3).map { "id: t\($0), role: tab, frame: [8, \(8 + 60 * $0), 44, 44], label: T\($0), symbol: star" }),
            ornament("single", x: 0, size: (60, 120), ["id: b, role: button, frame: [8, 8, 44, 44], label: B"]),
        ].joined(separator: "\n")
        let v = try Self.run(Self.form(children), "tb-not-vertical")
        #expect(v.map(\.entities) == [["form/strip"]] && v.first?.measured == 5 && v.first?.severity == .warning)
        #expect(v.first?.message.hasPrefix("ornament form/strip is vertical (300 pt tall, 60 pt wide)") == true)
    }
    // MARK: tb-no-pulldown

    @Test func pullDownMenusInToolbars() throws {
        // A menu inside the toolbar element's frame is reported; one elsewhere in the window is not.
        let v = try Self.run(Self.form("      []", elements: [
            "id: bar, role: toolbar, frame: [200, 560, 320, 76]",
            "id: edit, role: button, frame: [216, 568, 60, 60], label: Edit",
            "id: more, role: menu, frame: [440, 568, 60, 60], label: More",
            "id: sort, role: menu, frame: [20, 20, 120, 44], label: Sort",
        ]), "tb-no-pulldown")
        #expect(v.map(\.entities) == [["form/more"]] && v.first?.severity == .warning && v.first?.spans == [0...89])
        // Ornaments: a strip of a button and a menu is a toolbar; a tab bar with a menu is not; a
        // menu presented from a toolbar ornament that holds no menu element is reported itself.
        func ornament(_ id: String, x: Double, _ elements: [String], children: String = "") -> String {
            var lines = ["    - id: \(id)", "      kind: window", "      position: [\(x), -0.8, 0.02]", "      size: [300, 76]", "      elements:"]
                + elements.map { "        - {" + $0 + "}" }
            if !children.isEmpty { lines += ["      children:"] + children.split(separator: "\n").map { "    " + $0 } }
            return lines.joined(separator: "\n")
        }
        let children = [
            ornament("strip", x: -0.5, ["id: a, role: button, frame: [8, 8, 60, 60], label: A", "id: m, role: menu, frame: [80, 8, 60, 60], label: M"]),
            ornament("tabs", x: 0, ["id: t1, role: tab, frame: [8, 8, 60, 60], label: T1, symbol: star", "id: t2, role: tab, frame: [80, 8, 60, 60], label: T2, symbol: star",
                                    "id: m, role: menu, frame: [152, 8, 60, 60], label: M"]),
            ornament("tools", x: 0.5, ["id: a, role: button, frame: [8, 8, 60, 60], label: A", "id: b, role: button, frame: [80, 8, 60, 60], label: B"],
                     children: Self.presented("opened", "menu", size: (200, 240))),
        ].joined(separator: "\n")
        let o = try Self.run(Self.form(children), "tb-no-pulldown")
        #expect(o.map(\.entities) == [["form/strip/m"], ["form/tools/opened"]])
        let ios = Self.form(children).replacingOccurrences(of: "duration: 1", with: "platform: iOS\nduration: 1")
        #expect(try Self.run(ios, "tb-no-pulldown").isEmpty)
        // s31 review F5, F7: a bottom ornament holding only a menu is a toolbar too; a bar above
        // the window is reported without the bottom edge's reason.
        let single = [ornament("add", x: -0.5, ["id: m, role: menu, frame: [8, 8, 60, 60], label: Add"]),
                      ornament("top", x: 0.5, ["id: a, role: button, frame: [8, 8, 60, 60], label: A", "id: m, role: menu, frame: [80, 8, 60, 60], label: M"])
                        .replacingOccurrences(of: "position: [0.5, -0.8, 0.02]", with: "position: [0.5, 0.8, 0.02]")].joined(separator: "\n")
        let s = try Self.run(Self.form(single), "tb-no-pulldown")
        #expect(s.map(\.entities) == [["form/add/m"], ["form/top/m"]])
        #expect(s.first?.message == "form/add/m is a pull-down menu in a toolbar; at the window's bottom edge it can cover the window controls, and its actions are hard to discover: give the important ones buttons of their own and move the rest into the window's content")
        #expect(s.last?.message == "form/top/m is a pull-down menu in a toolbar; its actions are hard to discover and it clutters the bar: give the important ones buttons of their own and move the rest into the window's content")
        // A toolbar element in the window's upper half: no bottom edge either.
        let high = try Self.run(Self.form("      []", elements: [
            "id: bar, role: toolbar, frame: [200, 20, 320, 76]", "id: more, role: menu, frame: [440, 28, 60, 60], label: More"]), "tb-no-pulldown")
        #expect(high.first?.message.contains("at the window's bottom edge") == false && high.count == 1)
        #expect(v.first?.message.contains("at the window's bottom edge") == true)
    }

    // MARK: pagecontrol-noninteractive

    @Test func interactivePageControls() throws {
        // A page control is not interactive unless the scene says so; only an interactive one is
        // reported, and only on visionOS.
        let dots = ["id: dots, role: pageControl, frame: [300, 560, 120, 24], interactive: true",
                    "id: quiet, role: pageControl, frame: [300, 500, 120, 24]"]
        let v = try Self.run(Self.form("      []", elements: dots), "pagecontrol-noninteractive")
        #expect(v.count == 1 && v.first?.entities == ["form/dots"] && v.first?.severity == .info && v.first?.spans == [0...89])
        let scene = try RuleShortcutsTests.load(yaml: Self.form("      []", elements: dots))
        #expect(scene.entities.first { $0.path == "form/quiet" }?.interactive == false)
        let ios = try Self.run(Self.form("      []", elements: dots).replacingOccurrences(of: "duration: 1", with: "platform: iOS\nduration: 1"),
                               "pagecontrol-noninteractive")
        #expect(ios.isEmpty)
    }
}
