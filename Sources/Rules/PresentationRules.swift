import Foundation
import SpatialModel
import Simulation

// Rules on what a window presents (sheets, alerts, popovers, context menus: docs/scene-format.md,
// "Sheets, alerts, popovers and menus") and on the shape of sliders (hig-rules §1.7, §1.9). A
// presentation is a window nested in a window or volume with `presentation`, or, for sheets and
// alerts, an element of that role in its container.

public enum SheetSingle: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "sheet-single", name: "One sheet at a time", category: .windows,
        defaultSeverity: .warning, thresholdKey: "maxSheets",
        parameters: [RuleParameter("maxSheets", 1, "count", .hig, "sheets a window shows at once")],
        citations: [Citation("sheets", "Best practices")],
        summary: "A window shows more than one sheet at once (a sheet presented over another sheet, or two side by side).",
        rationale: "The HIG asks apps to display only one sheet at a time from the main interface: a stack of sheets hides where people are and what closing one returns to.",
        fixHint: "Close the first sheet before presenting the next, or show the second step inside the first sheet (a navigation stack in the sheet).",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Sheets: windows with presentation: sheet and elements of role sheet. A window's sheets are those it presents, directly or through its ornaments and its own presentations (a sheet opened from a popover of its toolbar is still its). Counted per top window in every frame; reported on that window over the frames more than one is visible, measured the most shown at once, and the message names the sheets seen together (the first 10, then how many more)."])
}

public enum PopoverSingle: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "popover-single", name: "One popover at a time, with nothing over it but an alert", category: .windows,
        defaultSeverity: .warning, thresholdKey: "maxPopovers",
        parameters: [RuleParameter("maxPopovers", 1, "count", .hig, "popovers shown at once")],
        citations: [Citation("popovers", "Best practices")],
        summary: "More than one popover is shown at once (a cascade of popovers, or two from different controls), or a sheet or menu is presented from a shown popover (sub-check `onTop`).",
        rationale: "The HIG asks for one popover at a time, never a cascade in which one emerges from another, and nothing shown on top of a popover except an alert: several layers of transient views clutter the interface and confuse people.",
        fixHint: "Close the open popover before showing another; present follow-up content in the popover itself (or, for a longer task, in a sheet opened from the window, not from the popover).",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Popovers: windows with presentation: popover. In every frame the visible ones are counted across the scene; each beyond the first (in scene order) is reported over those frames, measured the most shown at once, and the message names the first other one seen open with it.",
                "On top (sub-check `onTop`): a visible sheet or menu presented from a visible popover (nested in it); measured 1, threshold 0. An alert may appear over a popover; a popover nested in a popover is a cascade, counted above."],
        subchecks: [RuleSubcheck("onTop", unit: "count")])
}

public enum SheetCoverage: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "sheet-coverage", name: "A sheet leaves its window's context visible", category: .windows,
        defaultSeverity: .warning, thresholdKey: "maxCoverage",
        parameters: [
            RuleParameter("maxCoverage", 90, "%", .configurable("\"all\" of the window, with rounding"), "warning above this share of the window's area"),
            RuleParameter("infoCoverage", 75, "%", .configurable("\"most\" of the window"), "info above this share of the window's area"),
        ],
        citations: [Citation("sheets", "visionOS")],
        summary: "A sheet whose area is more than 75 % (info) or 90 % (warning) of the window that presents it.",
        rationale: "In visionOS a sheet floats in front of its window; the HIG asks for a default size that helps people keep their context, not one that covers most or all of the window (people may still resize it).",
        fixHint: "Give the sheet a smaller default size that fits its content (presentationSizing, or a frame on its content), leaving the window around it visible; let people resize it if they need more room.",
        unit: "%", worse: .higher,
        notes: ["Sheets presented as windows: width × height of the sheet ÷ width × height of the window presenting it (through ornaments, and through a popover or menu it was opened from, to the window those belong to), both in that window's points (a sheet shares its window's scale). Sheet elements: the frame's area ÷ the container's. Reported over the frames the sheet is visible; measured the share in %."])
}

public enum AlertButtons: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "alert-buttons", name: "An alert has at most three buttons", category: .windows,
        defaultSeverity: .warning, thresholdKey: "maxButtons",
        parameters: [RuleParameter("maxButtons", 3, "count", .hig, "buttons of an alert")],
        citations: [Citation("alerts", "Content")],
        summary: "An alert with more than three buttons.",
        rationale: "On every platform an alert shows a title, optional text and up to three buttons; more choices than that belong in a sheet or a menu, where people can read and compare them.",
        fixHint: "Keep the alert to at most three buttons (for example Cancel and one or two actions), or present the choices in a sheet or an action menu instead.",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Alerts presented as windows (presentation: alert): the elements of role button they hold. Alert elements (role alert; the first 16 of a container, those that are modal): the buttons of their container laid on them (inside the alert's frame, at its depth or in front). Text fields do not count (an alert may have one). Reported over the frames the alert is visible; measured the number of buttons."])
}

public enum ContextMenuHeight: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ctxmenu-height", name: "A menu is no taller than its window", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("context-menus", "visionOS")],
        summary: "A menu presented by a window (presentation: menu) that is taller than the window.",
        rationale: "In visionOS a window has system controls above and below it (the window bar, close and resize controls below, the Share menu above); a menu taller than its window can hide them.",
        fixHint: "Keep the menu's items to what fits within the window's height: move rarely used items into a submenu, or make the window taller.",
        unit: "pt", worse: .higher,
        notes: ["Heights in the presenting window's points (a menu shares its window's scale); the presenting window is the one the menu's control belongs to (a menu opened from a toolbar ornament belongs to the ornament's window). Measured: the menu's height; threshold: the window's; half a point of rounding is allowed. Reported over the frames the menu is visible. win-controls-keepout judges where the menu actually falls over the window's control bands."])
}

public enum SliderHorizontal: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "slider-horizontal", name: "Sliders run horizontally", category: .targets,
        defaultSeverity: .info, thresholdKey: nil,
        parameters: [],
        citations: [Citation("sliders", "visionOS")],
        summary: "A slider whose frame is taller than it is wide (a vertical slider).",
        rationale: "In visionOS people find it easier to gesture from side to side than up and down, so the HIG asks to prefer horizontal sliders.",
        fixHint: "Lay the slider out horizontally (minimum on the leading side, maximum on the trailing side).",
        unit: "ratio", worse: .higher,
        notes: ["Elements of role slider whose frame height exceeds its width; measured the frame's height ÷ width, threshold 1. Reported over the frames the slider is visible."])
}

public enum TbNotVertical: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "tb-not-vertical", name: "Toolbars run horizontally", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("toolbars", "visionOS")],
        summary: "A toolbar, or an ornament strip of controls, taller than it is wide (a vertical toolbar).",
        rationale: "In visionOS the tab bar is the vertical bar at a window's leading edge; the HIG asks not to make a vertical toolbar, which people could take for a tab bar.",
        fixHint: "Lay the toolbar out horizontally (the system toolbar sits along the window's bottom edge); if the bar switches between sections, make it a tab bar (role tab for its items).",
        platforms: [.visionOS], unit: "ratio", worse: .higher,
        notes: ["Toolbars: elements of role toolbar, and ornaments (windows nested directly in a window or volume, not presented) that hold no toolbar element but two or more interactive elements other than tabs. Vertical: the toolbar's frame (the ornament's size) is taller than it is wide; measured its height ÷ width, threshold 1.",
                "A bar at least half of whose controls are tabs (role tab; for a toolbar element, the interactive elements inside its frame, half a point of rounding, among the first 64 of its container) is a tab bar, which is vertical in visionOS, and is not reported. Reported over the frames the toolbar is visible."])
}

public enum TbNoPulldown: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "tb-no-pulldown", name: "No pull-down menus in toolbars", category: .windows,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("toolbars", "visionOS")],
        summary: "A pull-down menu in a toolbar: a menu control among a toolbar's items, or a menu presented from a toolbar ornament.",
        rationale: "A pull-down menu hides its actions until people open it, and clutters the bar; in visionOS the toolbar sits along the window's bottom edge, where the menu it opens can cover the window controls below the window.",
        fixHint: "Give the toolbar's important actions buttons of their own and move the rest into the window's content (a menu there, or a More button away from the bottom edge); keep the toolbar free of pull-down menus.",
        platforms: [.visionOS], unit: "count", worse: .higher,
        notes: ["Toolbars: a toolbar element (the interactive elements inside its frame, half a point of rounding; the first 16 toolbar elements of a container), and ornaments that hold a toolbar element, or two or more controls, or a single menu, and are not tab bars (at least half tabs), as tb-not-vertical reads them. Pull-down menus: interactive elements of role menu among their items, and windows with presentation: menu nested in a toolbar ornament that holds no menu element (the menu itself, when the scene shows what the toolbar opens). Measured 1, threshold 0. Reported over the frames the menu is visible; the message says the menu can cover the window controls when its bar is in the window's lower half."])
}

public enum PageControlNonInteractive: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "pagecontrol-noninteractive", name: "Page controls only indicate", category: .targets,
        defaultSeverity: .info, thresholdKey: nil,
        parameters: [],
        citations: [Citation("page-controls", "visionOS")],
        summary: "A page control made interactive.",
        rationale: "In visionOS a page control shows how many pages there are and which one is current, and people do not interact with it; an interactive one asks people to aim at a row of small dots.",
        fixHint: "Leave the page control non-interactive (remove interactive: true) and let people move between pages by swiping the content, or with buttons large enough to look at.",
        platforms: [.visionOS], unit: "count", worse: .higher,
        notes: ["Elements and asset nodes of role pageControl (an extension of the scene format; not interactive unless the scene says interactive: true) that are interactive. Measured 1, threshold 0. Reported over the frames the page control is visible."])
}

// MARK: - Shared

/// The window or volume that presents `e` (a window with `presentation`, or a sheet or alert
/// element's container): its parent, up through ornaments to the window they belong to.
func presenter(_ scene: Scene, _ e: Int) -> Int? {
    let ents = scene.entities
    var w = ents[e].kind == .element ? ents[e].container : ents[e].parent
    var steps = 0
    while let q = w, ents.indices.contains(q), isOrnament(scene, q), steps <= ents.count { w = ents[q].parent; steps += 1 }
    guard let p = w, ents.indices.contains(p), ents[p].kind == .window || ents[p].kind == .volume else { return nil }
    return p
}

/// The top window of `e`'s presentations: up through presenters and the presentations they are,
/// to a window or volume that nothing presents.
private func topWindow(_ scene: Scene, _ e: Int) -> Int? {
    var w = presenter(scene, e), steps = 0
    while let q = w, scene.entities[q].presentation != nil, steps <= scene.entities.count, let up = presenter(scene, q) {
        w = up; steps += 1
    }
    return w
}

/// Where a scene's toolbars are (tb-no-pulldown, target-icon-help-text): per container, the frames
/// of its toolbar elements (the first 16: a bounded look), and per ornament its controls (tabs and
/// others) and whether it holds a toolbar element or a menu.
struct ToolbarLayout {
    private let scene: Scene
    private var bars: [Int: [RectPt]] = [:], tabs: [Int: Int] = [:], controls: [Int: Int] = [:]
    private var withToolbar = Set<Int>()
    private(set) var withMenu = Set<Int>()

    init(_ scene: Scene) {
        self.scene = scene
        let ents = scene.entities
        for e in ents.indices where ents[e].kind == .element {
            guard let c = ents[e].container else { continue }
            if ents[e].role == .toolbar {
                withToolbar.insert(c)
                if let f = ents[e].frame, bars[c, default: []].count < 16 { bars[c, default: []].append(f) }
            }
            guard ents[e].interactive else { continue }
            if ents[e].role == .menu { withMenu.insert(c) }
            if ents[e].role == .tab { tabs[c, default: 0] += 1 } else { controls[c, default: 0] += 1 }
        }
    }

    /// The frame of the toolbar element of container `c` that holds `frame`, if one does.
    func toolbarElement(_ c: Int, around frame: RectPt) -> RectPt? {
        bars[c]?.first { $0.contains(frame, tolerance: 0.5) }
    }

    /// Whether ornament `w` is a toolbar: it holds a toolbar element, or its controls are a strip
    /// that is not a tab bar (at least half tabs): two or more controls, or with `menus`, also a
    /// single pull-down (a bar of one menu is still a toolbar, and its menu opens over the window).
    func isToolbarOrnament(_ w: Int, menus: Bool = false) -> Bool {
        guard isOrnament(scene, w) else { return false }
        let t = tabs[w] ?? 0, n = controls[w] ?? 0
        let least = menus && withMenu.contains(w) ? 1 : 2
        return withToolbar.contains(w) || (n >= least && !(t > 0 && t >= n))
    }

    /// Whether ornament `w` stands in the lower half of its window (its rest position below the
    /// window's centre).
    func isLow(_ w: Int) -> Bool {
        let n = scene.entities[w].node
        return scene.nodes.indices.contains(n) && scene.nodes[n].restTRS.translation.y < 0
    }
}

/// A sheet: a window presented as one, or an element of role sheet.
private func isSheet(_ e: Entity) -> Bool { e.presentation == .sheet || (e.kind == .element && e.role == .sheet) }
/// An alert: a window presented as one, or an element of role alert.
private func isAlert(_ e: Entity) -> Bool { e.presentation == .alert || (e.kind == .element && e.role == .alert) }

/// The area of a window or element in its own points (nil without a size).
private func areaPt(_ e: Entity) -> Double? {
    if e.kind == .element, let f = e.frame { return f.width * f.height }
    guard e.kind == .window, let s = e.sizePt else { return nil }
    return s.x * s.y
}

func presentationFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [SheetSingle.metadata.id]) { s in
            guard let r = s.index(SheetSingle.metadata.id) else { return nil }
            let maxSheets = s.param(SheetSingle.metadata, "maxSheets")
            let sc = s.scene, ents = sc.entities
            var groups: [Int: [Int]] = [:]
            for e in ents.indices where isSheet(ents[e]) {
                if let w = topWindow(sc, e) { groups[w, default: []].append(e) }
            }
            // Windows that hold more sheets than allowed (a configured 0 judges a single sheet).
            let windows = groups.keys.filter { Double(groups[$0]?.count ?? 0) > maxSheets }.sorted()
            guard !windows.isEmpty else { return nil }
            var together: [Int: Set<Int>] = [:]
            return ClosureRule({ f, out in
                for w in windows {
                    let shown = (groups[w] ?? []).filter { f.visible[$0] }
                    guard Double(shown.count) > maxSheets else { continue }
                    together[w, default: []].formUnion(shown)
                    out.report(rule: r, w, frame: f.frame, time: f.time, measured: Double(shown.count), threshold: maxSheets, aux: Double(w))
                }
            }, message: { agg, names in
                let w = agg.aux.isFinite ? Int(agg.aux) : -1
                let sheets = (together[w] ?? []).sorted().map { ents[$0].path }
                return "\(names.joinedNames) shows \(fmt(agg.measured)) sheets at once (\(sheets.joinedNames(atMost: namesListed))); show one sheet at a time: close one before presenting the next, or continue inside it"
            })
        },
        RuleFactory(ids: [PopoverSingle.metadata.id]) { s in
            guard let r = s.index(PopoverSingle.metadata.id) else { return nil }
            let maxPopovers = s.param(PopoverSingle.metadata, "maxPopovers")
            let ents = s.scene.entities
            let popovers = ents.indices.filter { ents[$0].presentation == .popover }
            guard !popovers.isEmpty else { return nil }
            // Sheets and menus presented from a popover: (the presentation, its nearest popover
            // ancestor), one walk up per presentation.
            let onTop: [(Int, Int)] = ents.indices.compactMap { e in
                guard let p = ents[e].presentation, p == .sheet || p == .menu else { return nil }
                return nearestAncestor(of: e, ents) { ents[$0].presentation == .popover }.map { (e, $0) }
            }
            // Per popover reported: the first other popover seen open with it. The allowed count as
            // an index (a configured 1e300 must not trap converting to Int).
            var openWith: [Int: Int] = [:]
            let allowed = maxPopovers.isFinite ? Int(min(max(maxPopovers, 0), 1e9)) : 0
            return ClosureRule({ f, out in
                let shown = popovers.filter { f.visible[$0] }
                if Double(shown.count) > maxPopovers {
                    for e in shown.dropFirst(allowed) {
                        if openWith[e] == nil, let other = shown.first(where: { $0 != e }) { openWith[e] = other }
                        out.report(rule: r, e, frame: f.frame, time: f.time, measured: Double(shown.count), threshold: maxPopovers, aux: Double(e))
                    }
                }
                for (e, p) in onTop where f.visible[e] && f.visible[p] {
                    out.report(rule: r, e, frame: f.frame, time: f.time, measured: 1, threshold: 0, aux: Double(p), variant: 1)
                }
            }, message: { agg, names in
                if agg.variant == 1 {
                    let p = agg.aux.isFinite ? Int(agg.aux) : -1
                    let over = ents.indices.contains(p) ? ents[p].path : "a popover"
                    return "\(names.joinedNames) is shown on top of popover \(over); nothing but an alert may appear over a popover: close the popover first, or show this from the window"
                }
                let e = agg.aux.isFinite ? Int(agg.aux) : -1
                guard let other = openWith[e].map({ ents[$0].path }) else {
                    return "popover \(names.joinedNames) is shown, more popovers at once than the \(fmt(agg.threshold)) allowed; show one popover at a time"
                }
                let more = agg.measured > 2 ? " and others" : ""
                return "popover \(names.joinedNames) is shown while \(other)\(more) \(more.isEmpty ? "is" : "are") open (\(fmt(agg.measured)) popovers at once); show one popover at a time and close the open one first"
            })
        },
        RuleFactory(ids: [SheetCoverage.metadata.id]) { s in
            guard let r = s.index(SheetCoverage.metadata.id) else { return nil }
            let warn = s.param(SheetCoverage.metadata, "maxCoverage"), info = s.param(SheetCoverage.metadata, "infoCoverage")
            let sc = s.scene, ents = sc.entities
            var items: [StaticRule.Item] = []
            for e in ents.indices where isSheet(ents[e]) {
                // The window the sheet belongs to: up through popovers and menus, which are gone
                // once the sheet is shown (popover-single's onTop judges presenting from them).
                var w = presenter(sc, e), steps = 0
                while let q = w, ents[q].presentation == .popover || ents[q].presentation == .menu, steps <= ents.count {
                    w = presenter(sc, q); steps += 1
                }
                guard let w, ents[w].kind == .window, let a = areaPt(ents[e]), let b = areaPt(ents[w]), b > 0 else { continue }
                let share = a / b * 100
                if share > warn + 1e-9 {
                    items.append(.init(entity: e, measured: share, threshold: warn, severity: .warning, aux: Double(w)))
                } else if share > info + 1e-9 {
                    items.append(.init(entity: e, measured: share, threshold: info, severity: .info, aux: Double(w)))
                }
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                let w = agg.aux.isFinite ? Int(agg.aux) : -1
                let window = ents.indices.contains(w) ? ents[w].path : "its window"
                let covers = agg.measured > 100
                    ? "is larger than \(window) (\(fmt(agg.measured)) % of its area) and covers all of it"
                    : "covers \(fmt(agg.measured)) % of \(window) (more than \(fmt(agg.threshold)) %)"
                return "sheet \(names.joinedNames) \(covers); give it a smaller default size so people keep their context"
            }
        },
        RuleFactory(ids: [AlertButtons.metadata.id]) { s in
            guard let r = s.index(AlertButtons.metadata.id) else { return nil }
            let maxButtons = s.param(AlertButtons.metadata, "maxButtons")
            let ents = s.scene.entities
            var buttons: [Int: Int] = [:]
            let alerts = ents.indices.filter { isAlert(ents[$0]) }
            guard !alerts.isEmpty else { return nil }
            let alertSet = Set(alerts)
            // Per container, its alert elements: the first ones, as many as ModalCover treats as
            // modal (a container of thousands of alerts and buttons stays linear).
            var alertsIn: [Int: [Int]] = [:]
            for a in alerts where ents[a].kind == .element {
                if let c = ents[a].container, alertsIn[c, default: []].count < ModalCover.elementModalsPerContainer { alertsIn[c, default: []].append(a) }
            }
            for b in ents.indices where ents[b].kind == .element && ents[b].role == .button {
                guard let c = ents[b].container else { continue }
                if alertSet.contains(c) { buttons[c, default: 0] += 1; continue }
                // Alert elements of the same container that the button is laid on.
                for a in alertsIn[c] ?? [] {
                    guard let af = ents[a].frame, let bf = ents[b].frame else { continue }
                    if ModalCover.lies(bf, ents[b].depthPt, on: (a, c, af, ents[a].depthPt)) { buttons[a, default: 0] += 1 }
                }
            }
            let items = alerts.compactMap { a -> StaticRule.Item? in
                let n = Double(buttons[a] ?? 0)
                return n > maxButtons ? .init(entity: a, measured: n, threshold: maxButtons) : nil
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "alert \(names.joinedNames) has \(fmt(agg.measured)) buttons (more than \(fmt(agg.threshold))); keep an alert to at most three choices, or offer them in a sheet or menu"
            }
        },
        RuleFactory(ids: [ContextMenuHeight.metadata.id]) { s in
            guard let r = s.index(ContextMenuHeight.metadata.id) else { return nil }
            let sc = s.scene, ents = sc.entities
            var items: [StaticRule.Item] = []
            for e in ents.indices where ents[e].presentation == .menu {
                guard let w = presenter(sc, e), ents[w].kind == .window, let m = ents[e].sizePt, let ws = ents[w].sizePt,
                      ents[w].metresPerPoint > 0 else { continue }
                // In the window's points (a menu shares its window's scale).
                let height = m.y * ents[e].metresPerPoint / ents[w].metresPerPoint
                if height > ws.y + 0.5 { items.append(.init(entity: e, measured: height, threshold: ws.y, aux: Double(w))) }
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                let w = agg.aux.isFinite ? Int(agg.aux) : -1
                let window = ents.indices.contains(w) ? ents[w].path : "its window"
                return "menu \(names.joinedNames) is \(fmt(agg.measured)) pt tall, taller than \(window) (\(fmt(agg.threshold)) pt), and can hide the window controls above and below it; show fewer items (a submenu for rare ones)"
            }
        },
        RuleFactory(ids: [TbNotVertical.metadata.id]) { s in
            guard let r = s.index(TbNotVertical.metadata.id) else { return nil }
            let sc = s.scene, ents = sc.entities
            // What could be a vertical toolbar: a toolbar element or an ornament taller than wide.
            let tallToolbars = ents.indices.filter { e in
                guard ents[e].kind == .element, ents[e].role == .toolbar, let f = ents[e].frame else { return false }
                return f.width > 0 && f.height > f.width
            }
            let tallOrnaments = ents.indices.filter { e in
                guard let size = ents[e].sizePt, size.x > 0, size.y > size.x else { return false }
                return isOrnament(sc, e)
            }
            guard !tallToolbars.isEmpty || !tallOrnaments.isEmpty else { return nil }
            // Per container looked into (a tall toolbar's, a tall ornament): how many of its
            // interactive elements are tabs and how many other controls, whether it holds a toolbar
            // element, and the frames of its first 64 (a bound on the work: a bar holds a handful).
            let looked = Set(tallToolbars.compactMap { ents[$0].container } + tallOrnaments)
            var tabs: [Int: Int] = [:], controls: [Int: Int] = [:]
            var members: [Int: [(frame: RectPt, tab: Bool)]] = [:]
            var withToolbar = Set<Int>()
            for e in ents.indices where ents[e].kind == .element {
                guard let c = ents[e].container, looked.contains(c) else { continue }
                if ents[e].role == .toolbar { withToolbar.insert(c) }
                guard ents[e].interactive else { continue }
                let tab = ents[e].role == .tab
                if tab { tabs[c, default: 0] += 1 } else { controls[c, default: 0] += 1 }
                if let f = ents[e].frame, members[c, default: []].count < 64 { members[c, default: []].append((f, tab)) }
            }
            // A bar at least half of whose controls are tabs is a tab bar, vertical in visionOS.
            func tabBar(tabs t: Int, others n: Int) -> Bool { t > 0 && t >= n }
            var items: [StaticRule.Item] = []
            for e in tallToolbars {
                guard let f = ents[e].frame else { continue }
                let inside = (ents[e].container.flatMap { members[$0] } ?? []).filter { f.contains($0.frame, tolerance: 0.5) }
                let t = inside.filter(\.tab).count
                if !tabBar(tabs: t, others: inside.count - t) { items.append(.init(entity: e, measured: f.height / f.width, threshold: 1, aux: f.width)) }
            }
            // An ornament written without a toolbar element: a strip of two or more controls is a
            // toolbar.
            var ornaments = Set<String>()
            for e in tallOrnaments where !withToolbar.contains(e) {
                let n = controls[e] ?? 0
                guard n >= 2, !tabBar(tabs: tabs[e] ?? 0, others: n), let size = ents[e].sizePt else { continue }
                items.append(.init(entity: e, measured: size.y / size.x, threshold: 1, aux: size.x))
                ornaments.insert(ents[e].path)
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                let what = names.first.map(ornaments.contains) == true ? "ornament" : "toolbar"
                return "\(what) \(names.joinedNames) is vertical (\(fmt(agg.measured * agg.aux)) pt tall, \(fmt(agg.aux)) pt wide), like a visionOS tab bar; lay it out horizontally, or make it a tab bar if it switches between sections"
            }
        },
        RuleFactory(ids: [TbNoPulldown.metadata.id]) { s in
            guard let r = s.index(TbNoPulldown.metadata.id), s.scene.platform == .visionOS else { return nil }
            let sc = s.scene, ents = sc.entities
            let menus = ents.indices.filter { ents[$0].kind == .element && ents[$0].role == .menu && ents[$0].interactive }
            let presented = ents.indices.filter { ents[$0].presentation == .menu }
            guard !menus.isEmpty || !presented.isEmpty else { return nil }
            let bars = ToolbarLayout(sc)
            // aux 1: the bar is in the lower half of its window (or below it), where an open menu
            // covers the window controls under the bottom edge.
            var items: [StaticRule.Item] = []
            for e in menus {
                guard let c = ents[e].container else { continue }
                if let bar = ents[e].frame.flatMap({ bars.toolbarElement(c, around: $0) }) {
                    let low = ents[c].sizePt.map { bar.y + bar.height / 2 > $0.y / 2 } ?? false
                    items.append(.init(entity: e, measured: 1, threshold: 0, aux: low ? 1 : 0))
                } else if bars.isToolbarOrnament(c, menus: true) {
                    items.append(.init(entity: e, measured: 1, threshold: 0, aux: bars.isLow(c) ? 1 : 0))
                }
            }
            for e in presented {
                guard let p = ents[e].parent, bars.isToolbarOrnament(p, menus: true), !bars.withMenu.contains(p) else { continue }
                items.append(.init(entity: e, measured: 1, threshold: 0, aux: bars.isLow(p) ? 1 : 0))
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "\(names.joinedNames) is a pull-down menu in a toolbar; "
                    + (agg.aux == 1 ? "at the window's bottom edge it can cover the window controls, and its actions are hard to discover"
                                    : "its actions are hard to discover and it clutters the bar")
                    + ": give the important ones buttons of their own and move the rest into the window's content"
            }
        },
        RuleFactory(ids: [PageControlNonInteractive.metadata.id]) { s in
            guard let r = s.index(PageControlNonInteractive.metadata.id) else { return nil }
            let ents = s.scene.entities
            let items: [StaticRule.Item] = ents.indices.compactMap { e in
                ents[e].role == .pageControl && ents[e].interactive ? .init(entity: e, measured: 1, threshold: 0) : nil
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { _, names in
                "page control \(names.joinedNames) is interactive; in visionOS a page control only shows the pages and which one is current, so leave it non-interactive and let people swipe the content (or use buttons) to change page"
            }
        },
        RuleFactory(ids: [SliderHorizontal.metadata.id]) { s in
            guard let r = s.index(SliderHorizontal.metadata.id) else { return nil }
            let ents = s.scene.entities
            let items: [StaticRule.Item] = ents.indices.compactMap { e in
                guard ents[e].kind == .element, ents[e].role == .slider, let f = ents[e].frame, f.width > 0, f.height > f.width else { return nil }
                return .init(entity: e, measured: f.height / f.width, threshold: 1, aux: f.width)
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "slider \(names.joinedNames) is vertical (\(fmt(agg.measured * agg.aux)) pt tall, \(fmt(agg.aux)) pt wide); prefer a horizontal slider, since side-to-side gestures are easier"
            }
        },
    ]
}
