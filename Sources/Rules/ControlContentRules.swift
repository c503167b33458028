import Foundation
import SpatialModel
import Simulation

// Rules on what controls and windows say: an icon-only control's descriptive text, the length of
// tooltips and window titles, and how many buttons of a view are prominent (hig-rules §1.2, §1.9).

public enum TargetIconHelpText: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-icon-help-text", name: "Icon-only controls have descriptive text", category: .targets,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("buttons", "visionOS"), Citation("segmented-controls", "visionOS"), Citation("toolbars", "visionOS")],
        summary: "A control that shows only an SF Symbol (no text label) and has no text to show when people look at it: no help text and no accessibility label.",
        rationale: "In visionOS an icon-only button, segment or toolbar item reveals a tooltip or its text label when people look at it; that text is what tells them what the symbol does. A symbol with no text behind it leaves people guessing, and VoiceOver reads only the symbol's name.",
        fixHint: "Give the control its descriptive text: a Label with a title shown icon-only (accessibilityLabel: Share in the scene), or a tooltip (.help(\"Share the photo\"); helpText in the scene); or show a text label beside the symbol.",
        platforms: [.visionOS], unit: "count", worse: .higher,
        notes: ["Controls: interactive elements of role button, toggle, link, menu, picker, stepper, exit or custom, and interactive elements of any role in a toolbar: inside a toolbar element's frame, or in an ornament that is a toolbar (it holds a toolbar element, or two or more controls that are not a tab bar) (tabs are type-tab-labels'). Icon-only: a symbol and no label (the element's visible text). Descriptive text: helpText (the tooltip, SwiftUI .help) or an accessibilityLabel (a SwiftUI Label's title, which visionOS shows as the tooltip of an icon-only button and as the label of a symbol toolbar item).",
                "Measured 1, threshold 0. Reported over the frames the control is visible. visionOS only: on iOS nothing reveals the text when people look, and a11y-labels judges VoiceOver labels."])
}

public enum TypeTooltipLength: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-tooltip-length", name: "Tooltips are brief", category: .typography,
        defaultSeverity: .warning, thresholdKey: "maxCharacters",
        parameters: [
            RuleParameter("maxCharacters", 75, "characters", .hig, "longest tooltip (warning above)"),
            RuleParameter("infoCharacters", 60, "characters", .hig, "tooltips longer than this are reported as info"),
        ],
        citations: [Citation("offering-help", "macOS, visionOS")],
        summary: "A tooltip (help text) longer than 75 characters (warning) or 60 characters (info).",
        rationale: "A tooltip appears briefly while people look at a control; the HIG asks to keep it to at most 60 to 75 characters (localisation often makes text longer), a sentence fragment without articles. A control that needs more text to explain is a sign the interface needs simplifying.",
        fixHint: "Shorten the tooltip to a sentence fragment of at most 60 characters (drop articles and the control's name); move longer explanations into the interface or a help page.",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Tooltips: the helpText of elements (SwiftUI .help). Length in characters as people see them (grapheme clusters: an emoji or an accented letter is one), after trimming white space at both ends. Measured the length; threshold maxCharacters (warning) or infoCharacters (info). Reported over the frames the element is visible.",
                "iOS: tooltips appear for a pointer on iPad and for iPhone and iPad apps on a Mac."])
}

public enum TypeTitleLength: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-title-length", name: "Window titles are short", category: .typography,
        defaultSeverity: .info, thresholdKey: "maxCharacters",
        parameters: [RuleParameter("maxCharacters", 14, "characters", .hig, "longest title (the HIG: under 15 characters)")],
        citations: [Citation("toolbars", "Titles")],
        summary: "A window title of 15 characters or more.",
        rationale: "A title tells people where they are and tells windows apart; the HIG asks for a word or short phrase under 15 characters, which leaves room for the controls beside it.",
        fixHint: "Shorten the title to a word or short phrase under 15 characters that distils the window's purpose; put details in the content.",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Titles: the title of windows, sheets and popovers (an extension of the scene format: WindowGroup(\"…\"), .navigationTitle); not of alerts and menus, whose titles have no controls beside them (an alert's title may be a whole question). Length in characters as people see them (grapheme clusters), after trimming white space at both ends. Measured the length; threshold maxCharacters (14: under 15). Reported over the frames the window is visible."])
}

public enum TargetProminentCount: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "target-prominent-count", name: "One or two prominent buttons per view", category: .targets,
        defaultSeverity: .warning, thresholdKey: "maxProminent",
        parameters: [RuleParameter("maxProminent", 2, "count", .hig, "prominent buttons a view shows at once"),
                     RuleParameter("maxToolbarProminent", 1, "count", .hig, "prominent buttons a toolbar shows at once (its one primary action)")],
        citations: [Citation("buttons", "Style"), Citation("toolbars", "Actions")],
        summary: "A view (a window with its ornaments, or a sheet, popover, menu or alert) showing more than two prominent buttons at once, or a toolbar showing more than one (sub-check `toolbar`).",
        rationale: "A prominent style tints a button with the accent colour so people find the most likely action at once; the HIG asks for one or two per view. More of them compete with one another and make people weigh every option before choosing.",
        fixHint: "Keep the prominent style (borderedProminent) for the one or two most likely actions of the view, and in a toolbar for its one key action (Done, Submit) on the trailing side; give the others a bordered or borderless style.",
        platforms: [.visionOS, .iOS], unit: "count", worse: .higher,
        notes: ["Prominent buttons: visible interactive elements whose buttonStyle is borderedProminent or glassProminent (an extension of the scene format, SwiftUI's .buttonStyle). A view: a window or volume with its ornaments (a toolbar ornament's Done button counts with the window); a presented window (sheet, alert, popover, menu) is a view of its own, with its ornaments, and so is a sheet or alert element (the buttons inside its frame). Counted in every frame; reported on the view over the frames it shows more than maxProminent, measured the most shown at once, and the message names them (the first 10, then how many more).",
                "Sub-check `toolbar` (toolbars › Actions: specify only one primary action): the prominent buttons of one toolbar, an ornament that is a toolbar (as target-icon-help-text says) or a toolbar element of a container (the buttons inside its frame); reported on the ornament, or on the container of a toolbar element, over the frames it shows more than maxToolbarProminent."],
        subchecks: [RuleSubcheck("toolbar", unit: "count")])
}

// MARK: - Shared

/// A control role whose symbol-only look needs descriptive text (`target-icon-help-text`).
private func isIconControlRole(_ role: ElementRole) -> Bool {
    switch role {
    case .button, .toggle, .link, .menu, .picker, .stepper, .exit, .custom: true
    default: false
    }
}

/// The length of a text as people see it: grapheme clusters, white space at both ends trimmed.
private func visibleLength(_ s: String) -> Int { s.trimmingCharacters(in: .whitespacesAndNewlines).count }

/// Whether a text states something (not nil, not only white space).
private func stated(_ s: String?) -> Bool { s.map { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? false }

func controlContentFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [TargetIconHelpText.metadata.id]) { s in
            guard let r = s.index(TargetIconHelpText.metadata.id), s.scene.platform == .visionOS else { return nil }
            let ents = s.scene.entities
            // Elements inside a toolbar element's frame, or in an ornament that is a toolbar, are
            // toolbar items whatever their role.
            let bars = ToolbarLayout(s.scene)
            var items: [StaticRule.Item] = []
            for e in ents.indices where ents[e].kind == .element && ents[e].interactive {
                let el = ents[e]
                guard el.role != .tab, stated(el.symbol), !stated(el.label), !stated(el.helpText), !stated(el.accessibilityLabel) else { continue }
                let inToolbar = el.container.map { c in bars.isToolbarOrnament(c) || el.frame.flatMap { bars.toolbarElement(c, around: $0) } != nil } ?? false
                guard isIconControlRole(el.role ?? .custom) || inToolbar else { continue }
                items.append(.init(entity: e, measured: 1, threshold: 0))
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { _, names in
                "\(names.joinedNames) shows only a symbol and has no text to reveal when people look at it; give it descriptive text (a Label's title, accessibilityLabel in the scene, or a tooltip, helpText), or show a text label beside the symbol"
            }
        },
        RuleFactory(ids: [TypeTooltipLength.metadata.id]) { s in
            let m = TypeTooltipLength.metadata
            guard let r = s.index(m.id) else { return nil }
            let warn = s.param(m, "maxCharacters"), info = s.param(m, "infoCharacters")
            let ents = s.scene.entities
            var items: [StaticRule.Item] = []
            for e in ents.indices where ents[e].kind == .element {
                guard let text = ents[e].helpText else { continue }
                let n = Double(visibleLength(text))
                if n > warn { items.append(.init(entity: e, measured: n, threshold: warn, severity: .warning)) }
                else if n > info { items.append(.init(entity: e, measured: n, threshold: info, severity: .info)) }
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "the tooltip of \(names.joinedNames) is \(fmt(agg.measured)) characters long ("
                    + (agg.threshold < warn ? "over \(fmt(agg.threshold)), though within \(fmt(warn)): translations often run longer"
                                            : "more than \(fmt(agg.threshold))")
                    + "); keep it to a brief sentence fragment, without articles or the control's name"
            }
        },
        RuleFactory(ids: [TypeTitleLength.metadata.id]) { s in
            let m = TypeTitleLength.metadata
            guard let r = s.index(m.id) else { return nil }
            let limit = s.param(m, "maxCharacters")
            let ents = s.scene.entities
            let items = ents.indices.compactMap { e -> StaticRule.Item? in
                // An alert's or menu's title has no controls beside it (the HIG's own alerts ask
                // whole questions): windows, sheets and popovers only.
                guard ents[e].kind == .window, ents[e].presentation != .alert, ents[e].presentation != .menu,
                      let t = ents[e].title else { return nil }
                let n = Double(visibleLength(t))
                return n > limit ? .init(entity: e, measured: n, threshold: limit) : nil
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "the title of \(names.joinedNames) is \(fmt(agg.measured)) characters long; keep a window title under \(fmt(agg.threshold + 1)) characters (a word or short phrase), leaving room for the controls beside it"
            }
        },
        RuleFactory(ids: [TargetProminentCount.metadata.id]) { s in
            let m = TargetProminentCount.metadata
            guard let r = s.index(m.id) else { return nil }
            let maxProminent = s.param(m, "maxProminent")
            let sc = s.scene, ents = sc.entities
            // Sheets and alerts drawn as elements of a window are views of their own, as presented
            // windows are: the buttons inside one's frame count with it (the first 16 per container).
            var panels: [Int: [(index: Int, frame: RectPt)]] = [:]
            for e in ents.indices where ents[e].kind == .element && (ents[e].role == .sheet || ents[e].role == .alert) {
                if let c = ents[e].container, let f = ents[e].frame, panels[c, default: []].count < 16 { panels[c, default: []].append((e, f)) }
            }
            // Toolbars (sub-check `toolbar`): a toolbar ornament, or the toolbar elements of a
            // container, keyed by the container.
            let layout = ToolbarLayout(sc)
            let maxBar = s.param(m, "maxToolbarProminent")
            var byView: [Int: [Int]] = [:], byBar: [Int: [Int]] = [:]
            for e in ents.indices where ents[e].kind == .element && ents[e].interactive && ents[e].buttonStyle?.isProminent == true {
                // Its view: the sheet or alert element it is drawn on, else the window or volume it
                // belongs to, through ornaments (a presented window is a view of its own).
                let panel = ents[e].frame.flatMap { f in ents[e].container.flatMap { panels[$0] }?.first { $0.frame.contains(f, tolerance: 0.5) }?.index }
                guard let v = panel ?? presenter(sc, e) else { continue }
                byView[v, default: []].append(e)
                if let c = ents[e].container, ents[e].frame.flatMap({ layout.toolbarElement(c, around: $0) }) != nil || layout.isToolbarOrnament(c) {
                    byBar[c, default: []].append(e)
                }
            }
            // Views and toolbars that hold more prominent buttons than allowed.
            let views = byView.keys.filter { Double(byView[$0]?.count ?? 0) > maxProminent }.sorted()
            let toolbars = byBar.keys.filter { Double(byBar[$0]?.count ?? 0) > maxBar }.sorted()
            guard !views.isEmpty || !toolbars.isEmpty else { return nil }
            var together: [Int: Set<Int>] = [:], togetherInBar: [Int: Set<Int>] = [:]
            return ClosureRule({ f, out in
                for v in views {
                    let shown = (byView[v] ?? []).filter { f.visible[$0] }
                    guard Double(shown.count) > maxProminent else { continue }
                    together[v, default: []].formUnion(shown)
                    out.report(rule: r, v, frame: f.frame, time: f.time, measured: Double(shown.count), threshold: maxProminent, aux: Double(v))
                }
                for b in toolbars {
                    let shown = (byBar[b] ?? []).filter { f.visible[$0] }
                    guard Double(shown.count) > maxBar else { continue }
                    togetherInBar[b, default: []].formUnion(shown)
                    out.report(rule: r, b, frame: f.frame, time: f.time, measured: Double(shown.count), threshold: maxBar, aux: Double(b), variant: 1)
                }
            }, message: { agg, names in
                let v = agg.aux.isFinite ? Int(agg.aux) : -1
                if agg.variant == 1 {
                    let buttons = (togetherInBar[v] ?? []).sorted().map { ents[$0].path }
                    let bar = isOrnament(sc, v) ? "the toolbar \(names.joinedNames)" : "a toolbar of \(names.joinedNames)"
                    return "\(bar) shows \(fmt(agg.measured)) prominent buttons at once (\(buttons.joinedNames(atMost: namesListed))); a toolbar has one primary action: keep the prominent style for its key action (such as Done or Submit), on the trailing side, and give the others the toolbar's plain style"
                }
                let buttons = (together[v] ?? []).sorted().map { ents[$0].path }
                return "\(names.joinedNames) shows \(fmt(agg.measured)) prominent buttons at once (\(buttons.joinedNames(atMost: namesListed))); keep the prominent style for the one or two most likely actions and give the others a bordered or borderless style"
            })
        },
    ]
}
