import SpatialModel
import Rules

extension Report {
    /// One self-contained HTML page: a verdict banner (pass or fail at `failOn`, counts, baseline,
    /// tool and settings), a sortable table of scenes, an index by rule and severity, and per scene
    /// a top-down plan, a timeline in seconds with the measured values against their thresholds, and
    /// one card per group of folded findings (`foldViolations`) with the viewer's view at its worst
    /// frame. Everything is static SVG; a small inline script only sorts the table and filters
    /// cards by severity, so the page reads the same without JavaScript. Every string from input —
    /// in text, attributes and SVG labels — goes through `Escape.html`; a rule links to its `help`
    /// only when that is an `https:` URL (`Escape.httpsURL`). A scene's 3D replay (`replays`, keyed
    /// like `snapshots`, else the snapshot's own `replay`) fills its `replay-slot`. `pictureBytes`
    /// and `replayBytes` bound the pictures and replays over all scenes (tests set them low).
    public func html(snapshots: [String: SceneSnapshot], replays: [String: ReplayData] = [:],
                     pictureBytes pictureLimit: Int = Report.htmlPictureBytes,
                     replayBytes replayLimit: Int = Report.htmlReplayBytes,
                     cards cardLimit: Int = Report.htmlCardLimit) -> String {
        var body = banner()
        var anyReplay = false
        // Each scene folded once: the table counts its groups, the index and its section show them.
        let folded = scenes.map { foldViolations($0.violationsNewFirst, omitted: $0.omitted) }
        let shown = Self.cardsShown(folded: folded, limit: cardLimit)
        body += sceneTable(folded: folded)
        body += ruleIndex(folded: folded, shown: shown)
        // The page's pictures and replays are bounded over all its scenes: past `htmlPictureBytes`
        // of scene sections with pictures, or `htmlReplayBytes` of replays, the later scenes get
        // their findings without them, and say so.
        var pictureBytes = 0, replayBytes = 0
        for (n, s) in scenes.enumerated() {
            var snap = snapshots[s.path] ?? s.geometry
            var replay: String?
            var hasReplay = false
            if let data = replays[s.path] ?? snap?.replay {
                let values = data.valueCount
                if values > ReplayData.maxValues {
                    replay = Self.replayNote("3D replay left out: its data holds \(groupedThousands(Int64(values))) numbers, more than the \(groupedThousands(Int64(ReplayData.maxValues))) one scene's replay may hold.")
                } else if replayBytes >= replayLimit {
                    replay = Self.replayNote("3D replay left out: this page's replays have reached its limit of \(Self.sizeText(replayLimit)); check fewer scenes per page to see it.")
                } else {
                    var section = ReplayHTML.section(data, sceneIndex: n)
                    replayBytes += section.utf8.count
                    anyReplay = true
                    hasReplay = true
                    if let stop = s.stopped, data.frameCount < s.frames, data.frameCount == stop.afterFrame + 1 {
                        section += Self.replayNote("The 3D replay covers frames 0–\(stop.afterFrame) of \(s.frames): the frames checked before the check stopped.")
                    } else if data.frameCount < s.frames {
                        section += Self.replayNote("The 3D replay covers frames 0–\(max(0, data.frameCount - 1)) of \(s.frames): a scene's replay records at most \(groupedThousands(Int64(ReplayData.recordingLimit))) numbers of keyframes and visibility changes.")
                    }
                    replay = section
                }
            }
            var picturesLeftOut = false
            if snap != nil, pictureBytes >= pictureLimit {
                snap = nil
                picturesLeftOut = true
            }
            let section = sceneSection(s, index: n, groups: folded[n], snapshot: snap, replay: replay,
                                       picturesLeftOut: picturesLeftOut, pictureLimit: pictureLimit,
                                       shown: shown.map { $0[n] }, cardLimit: cardLimit, hasReplay: hasReplay)
            if snap != nil { pictureBytes += section.utf8.count }
            body += section
        }
        body += "<footer><p>spatialcheck \(Escape.html(toolVersion)) · findings of one rule, container and cause are folded into one card; "
        body += "the JSON, SARIF and JUnit reports list each violation.</p></footer>\n"
        let script = anyReplay ? ReplayHTML.script : ""
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<meta name=\"color-scheme\" content=\"light dark\">\n"
            + "<title>spatialcheck report: \(verdictWord)</title>\n<style>\n\(htmlStyle)</style>\n</head>\n<body>\n"
            + "<main>\n\(body)</main>\n<script>\n\(htmlScript)</script>\n\(script)</body>\n</html>\n"
    }

    /// Bytes of scene sections with pictures (plan, timeline values, views) one page holds; the
    /// scenes after them are drawn without pictures (300 scenes of a 64-piece board made a 241 MB
    /// page before this bound).
    public static let htmlPictureBytes = 16 * 1_048_576
    /// Bytes of 3D replays one page holds; the scenes after them have no replay.
    public static let htmlReplayBytes = 8 * 1_048_576
    /// Cards (folded findings) one page shows over all its scenes: the most severe first, in the
    /// report's order among equals; each scene counts the rest by rule and severity. The summary
    /// tables count every finding, and the gate has seen every violation before.
    public static let htmlCardLimit = 2_000

    /// Which groups of each scene get a card when the page holds more than `limit`; nil: all.
    static func cardsShown(folded: [[ViolationGroup]], limit: Int) -> [Set<Int>]? {
        let total = folded.reduce(0) { $0 + $1.count }
        guard total > limit else { return nil }
        var order: [(severity: Severity, scene: Int, group: Int)] = []
        order.reserveCapacity(total)
        for (n, groups) in folded.enumerated() {
            for (k, g) in groups.enumerated() { order.append((g.severity, n, k)) }
        }
        order.sort { a, b in a.severity != b.severity ? a.severity < b.severity : a.scene != b.scene ? a.scene < b.scene : a.group < b.group }
        var shown = [Set<Int>](repeating: [], count: folded.count)
        for o in order.prefix(max(0, limit)) { shown[o.scene].insert(o.group) }
        return shown
    }

    /// The line a scene prints for its groups without a card: their violations by rule and severity.
    static func cardsNotShownLine(_ groups: [ViolationGroup], limit: Int) -> String? {
        guard !groups.isEmpty else { return nil }
        struct Key: Hashable { var rule: String; var severity: Severity }
        var counts: [Key: Int] = [:]
        var keys: [Key] = []
        for g in groups {
            let k = Key(rule: g.rule, severity: g.severity)
            if counts[k] == nil { keys.append(k) }
            counts[k, default: 0] += g.count
        }
        keys.sort { a, b in a.severity != b.severity ? a.severity < b.severity : a.rule < b.rule }
        let n = counts.values.reduce(0, +)
        let list = keys.prefix(10).map { k in "\(k.rule): \(counts[k] ?? 0) \(k.severity.rawValue)" }.joined(separator: ", ")
            + (keys.count > 10 ? " and \(keys.count - 10) more" : "")
        return "\(n) more violation\(n == 1 ? "" : "s") (\(list)) are not shown here: the page shows at most \(groupedThousands(Int64(limit))) findings, "
            + "the most severe first. They count in the tables above and in the exit code; the JSON and SARIF reports list them."
    }

    /// "16 MiB", or bytes below one MiB.
    static func sizeText(_ bytes: Int) -> String {
        bytes >= 1_048_576 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }

    static func replayNote(_ text: String) -> String {
        "<p class=\"meta replay-note\">\(Escape.html(text))</p>\n"
    }

    /// True when the run fails its gate (or a scene could not be loaded or checked to its end).
    var failsPage: Bool { isIncomplete || failsGate }
    var verdictWord: String { failsPage ? "fail" : "pass" }

    /// "≥ " before counts that are lower bounds (a scene stopped in the middle of a frame).
    var atLeastPrefix: String { lowerBoundScenes > 0 ? "≥ " : "" }

    func banner() -> String {
        let e = count(.error), w = count(.warning), i = count(.info)
        let clean = scenes.filter { $0.status == .checked && $0.violations.isEmpty && $0.omittedCount == 0 }.count
        let broken = scenes.filter { $0.status == .error }.count
        let gate = failOn.map { "fails on \($0.rawValue)\($0 == .error ? "" : " and worse")" } ?? "never fails (--fail-on never)"
        // A page that passes its gate with findings says how many are left to review, in the
        // warning colour: a big green "Pass" over 8 warnings read as "nothing to fix".
        let review = failsPage ? 0 : e + w
        var out = "<header class=\"banner \(failsPage ? "fail" : review > 0 ? "pass review" : "pass")\" id=\"top\">\n"
        out += "<p class=\"verdict\"><span class=\"verdict-word\">\(failsPage ? "✕ Fail" : "✓ Pass")</span>"
        if review > 0 {
            let what = [e > 0 ? "\(atLeastPrefix)\(e) error\(e == 1 ? "" : "s")" : nil, w > 0 ? "\(atLeastPrefix)\(w) warning\(w == 1 ? "" : "s")" : nil]
            out += "<span class=\"review-note\">\(what.compactMap { $0 }.joined(separator: " and ")) to review</span>"
        }
        let unchecked = scenes.contains(where: \.isOverWorkBudget) ? "; \(Escape.html(notCheckedCounts))" : "; \(broken) scene\(broken == 1 ? "" : "s") could not be loaded"
        out += "<span class=\"gate\">gate: \(gate)\(broken > 0 ? unchecked : "")</span></p>\n"
        out += "<h1>spatialcheck report</h1>\n"
        out += "<ul class=\"counts\">"
        // Counts of a scene stopped in the middle of a frame are lower bounds: "≥ 333334".
        let atLeast = atLeastPrefix
        out += "<li class=\"count-error\"><b>\(atLeast)\(e)</b> error\(e == 1 ? "" : "s")</li>"
        out += "<li class=\"count-warning\"><b>\(atLeast)\(w)</b> warning\(w == 1 ? "" : "s")</li>"
        out += "<li class=\"count-info\"><b>\(atLeast)\(i)</b> info</li>"
        out += "<li><b>\(scenes.count)</b> scene\(scenes.count == 1 ? "" : "s"), \(clean) clean</li></ul>\n"
        if let reason = lowerBoundsReason { out += "<p class=\"omitted\"><strong>The counts are lower bounds: \(Escape.html(reason)).</strong></p>\n" }
        if let c = baselineCounts {
            out += "<p class=\"baseline\">Against the baseline: <span class=\"badge badge-new\">\(c.new) new</span> "
            out += "<span class=\"badge badge-worsened\">\(c.worsened) worsened</span> "
            out += "<span class=\"badge badge-known\">\(c.known) known</span> "
            out += "<span class=\"badge badge-fixed\">\(c.fixed) fixed</span>"
            if c.suppressed > 0 { out += " <span class=\"badge badge-known\">\(c.suppressed) suppressed</span>" }
            out += " — only new and worsened findings fail the gate.</p>\n"
            out += fixedList(head: "<details class=\"fixed\"><summary>Fixed since the baseline</summary><ul>",
                             item: { "<li><code>\(Escape.html($0))</code>: \(Escape.html($1))</li>" },
                             more: { "<li>\(Escape.html($0))</li>" }, tail: "</ul></details>\n")
            for p in partialComparisons.prefix(5) { out += "<p class=\"omitted\"><strong>\(Escape.html(p.scene)): \(Escape.html(p.line)).</strong></p>\n" }
            if partialComparisons.count > 5 {
                out += "<p class=\"omitted\">The comparison is partial for \(partialComparisons.count - 5) more scenes in the same way.</p>\n"
            }
        }
        out += "<dl class=\"settings\">"
        out += "<div><dt>tool</dt><dd>spatialcheck \(Escape.html(toolVersion))</dd></div>"
        out += "<div><dt>fail on</dt><dd>\(failOn?.rawValue ?? "never")</dd></div>"
        // The scenes' own values (an iOS scene's point angle is its camera's): the one they share,
        // else their range, "per scene" (the report's defaults when no scene was loaded).
        let loaded = scenes.filter { $0.status != .error }
        out += "<div><dt>pointAngle</dt><dd>\(Self.sharedOrRange(loaded.map { $0.pointAngle ?? pointAngle }, default: pointAngle, unit: "°/pt") { fmt($0, 4) })</dd></div>"
        out += "<div><dt>fixedPointSize</dt><dd>\(Self.sharedOrRange(loaded.map { $0.fixedPointSize ?? fixedPointSize }, default: fixedPointSize, unit: " m/pt", fixedPointSizeText))</dd></div>"
        if let shard { out += "<div><dt>shard</dt><dd>\(shard.index)/\(shard.count)</dd></div>" }
        out += "</dl>\n"
        if let line = configurationLine { out += "<p class=\"omitted\">\(Escape.html(line)).</p>\n" }
        if let generatedAt { out += "<p class=\"generated\">Generated at \(Escape.html(generatedAt)).</p>\n" }
        out += "</header>\n"
        return out
    }

    /// `text` of the one value `values` share (as `text` prints it) and `unit`, or "per scene
    /// (lo–hi unit)" of their smallest and largest; `text(defaultValue)` when there are none.
    static func sharedOrRange(_ values: [Double], default defaultValue: Double, unit: String, _ text: (Double) -> String) -> String {
        guard let lo = values.min(), let hi = values.max() else { return text(defaultValue) + unit }
        let a = text(lo), b = text(hi)
        return a == b ? a + unit : "per scene (\(a)–\(b)\(unit))"
    }

    /// `folded`: each scene's groups (`foldViolations`), in the order of `scenes`.
    func sceneTable(folded: [[ViolationGroup]]) -> String {
        var out = "<nav aria-label=\"scenes\"><h2 id=\"scenes\">Scenes</h2>\n"
        out += "<p class=\"hint\">Errors, warnings and info count violations; cards counts the scene's cards below, in which violations of one rule, container and cause are folded into one.</p>\n"
        out += "<p class=\"hint js-only\">Click a column heading to sort.</p>\n"
        out += "<table class=\"scenes sortable\"><thead><tr><th scope=\"col\" data-type=\"text\">scene</th><th scope=\"col\" data-type=\"num\">status</th>"
        out += "<th scope=\"col\" data-type=\"num\" class=\"n\">errors</th><th scope=\"col\" data-type=\"num\" class=\"n\">warnings</th>"
        out += "<th scope=\"col\" data-type=\"num\" class=\"n\">info</th><th scope=\"col\" data-type=\"num\" class=\"n\" title=\"cards below: violations of one rule, container and cause folded into one\">cards</th>"
        out += "<th scope=\"col\" data-type=\"num\" class=\"n\">duration (s)</th></tr></thead>\n<tbody>\n"
        for (n, s) in scenes.enumerated() {
            let status: String, rank: Int
            if s.status == .error { status = "<span class=\"status-broken\">\(s.notCheckedStatus)</span>"; rank = 0 }
            else if s.violations.isEmpty && s.omittedCount == 0 {
                // A scene clean only because `ignore` entries left its violations out says so.
                let ignored = s.ignoredCount > 0 ? " (\(groupedThousands(Int64(s.ignoredCount))) ignored)" : ""
                status = "<span class=\"status-clean\">✓ clean\(ignored)</span>"; rank = 4
            }
            else if s.count(.error) > 0 { status = "<span class=\"sev-error\">errors</span>"; rank = 1 }
            else if s.count(.warning) > 0 { status = "<span class=\"sev-warning\">warnings</span>"; rank = 2 }
            else { status = "<span class=\"sev-info\">info only</span>"; rank = 3 }
            let groups = folded[n].count
            out += "<tr class=\"\(rank == 4 ? "clean" : "")\"><td><a href=\"#scene-\(n)\">\(Escape.html(s.path))</a></td>"
            // A scene stopped in the middle of a frame: "≥ N" (sorted by N).
            func cell(_ n: Int) -> String {
                s.stopped?.partialFrame == true ? "<td class=\"n\" data-sort=\"\(n)\">≥ \(n)</td>" : "<td class=\"n\">\(n)</td>"
            }
            out += "<td data-sort=\"\(rank)\">\(status)</td>\(cell(s.count(.error)))\(cell(s.count(.warning)))"
            out += "\(cell(s.count(.info)))<td class=\"n\">\(groups)</td><td class=\"n\">\(fmt(s.duration, 2))</td></tr>\n"
        }
        out += "</tbody></table></nav>\n"
        return out
    }

    /// Every folded finding by severity, then rule: a link to its card.
    func ruleIndex(folded: [[ViolationGroup]], shown cards: [Set<Int>]? = nil) -> String {
        var rows: [(Severity, String, Int, Int, ViolationGroup)] = []
        for (n, groups) in folded.enumerated() {
            for (k, g) in groups.enumerated() { rows.append((g.severity, g.rule, n, k, g)) }
        }
        guard !rows.isEmpty else { return "" }
        rows.sort { a, b in a.0 != b.0 ? a.0 < b.0 : a.1 != b.1 ? a.1 < b.1 : a.2 != b.2 ? a.2 < b.2 : a.3 < b.3 }
        var out = "<nav aria-label=\"findings by severity and rule\" class=\"index\"><h2 id=\"findings\">Findings by severity and rule</h2>\n"
        out += "<p class=\"filters js-only\" role=\"group\" aria-label=\"show severities\">Show: "
        for sev in Severity.allCases {
            out += "<label><input type=\"checkbox\" data-filter=\"\(sev.rawValue)\" checked> \(sev.rawValue)</label> "
        }
        out += "</p>\n"
        let shown = rows.prefix(500)
        for sev in Severity.allCases {
            let ofSev = shown.filter { $0.0 == sev }
            guard !ofSev.isEmpty else { continue }
            out += "<h3 class=\"sev-\(sev.rawValue)\" id=\"severity-\(sev.rawValue)\">\(sev.rawValue)</h3>\n<ul class=\"rule-index\">\n"
            var rule = ""
            for r in ofSev {
                if r.1 != rule {
                    if !rule.isEmpty { out += "</ul></li>\n" }
                    rule = r.1
                    out += "<li><code>\(Escape.html(rule))</code><ul>"
                }
                let hasCard = cards.map { $0[r.2].contains(r.3) } ?? true
                let anchor = hasCard ? "s\(r.2)-g\(r.3)" : "scene-\(r.2)"
                out += "<li><a href=\"#\(anchor)\">\(Escape.html(scenes[r.2].path))</a>: \(Escape.html(elidingPaths(in: r.4.summary, [r.4.container])))</li>"
            }
            out += "</ul></li>\n</ul>\n"
        }
        if rows.count > shown.count { out += "<p>… and \(rows.count - shown.count) more findings in the scenes below.</p>\n" }
        out += "</nav>\n"
        return out
    }

    /// `groups`: the scene's violations folded (`foldViolations` of `violationsNewFirst`).
    func sceneSection(_ s: SceneReport, index n: Int, groups: [ViolationGroup], snapshot snap: SceneSnapshot?, replay: String?,
                      picturesLeftOut: Bool = false, pictureLimit: Int = Report.htmlPictureBytes,
                      shown: Set<Int>? = nil, cardLimit: Int = Report.htmlCardLimit, hasReplay: Bool = true) -> String {
        var out = "<section class=\"scene\" id=\"scene-\(n)\">\n"
        out += "<h2>\(Escape.html(s.path))\(s.name.map { " <span class=\"scene-name\">\(Escape.html($0))</span>" } ?? "")</h2>\n"
        if s.status == .error {
            out += "<p class=\"status-broken\">\(s.isOverWorkBudget ? "Not checked, over the work budget" : "Could not be loaded"):</p>\n"
            out += "<ul class=\"errors\">" + s.errors.map { "<li><code>\(htmlLines($0.description))</code></li>" }.joined() + "</ul>\n</section>\n"
            return out
        }
        let settings = Report.settingsText(pointAngle: s.pointAngle ?? pointAngle, fixedPointSize: s.fixedPointSize ?? fixedPointSize)
        out += "<p class=\"meta\">\(s.frames) frames at \(fmt(s.frameRate, 0)) Hz (\(fmt(s.duration, 2)) s). \(settings)."
        if let p = s.platform { out += " Platform: \(Escape.html(p))." }
        out += "</p>\n"
        if picturesLeftOut {
            out += "<p class=\"meta\">No pictures for this scene: this page's scenes with pictures have reached its limit of \(Self.sizeText(pictureLimit)); its findings are all below. Check fewer scenes per page to see them.</p>\n"
        }
        out += "<div class=\"figures\">\n"
        if let snap {
            out += "<figure class=\"plan\"><figcaption>Top-down plan: where the viewer walks and where the content is, coloured by its worst finding.</figcaption>\n"
            out += planSVG(scene: s, snapshot: snap) + "</figure>\n"
        }
        if !s.violations.isEmpty || !(snap?.events.isEmpty ?? true) {
            out += "<figure class=\"timeline\"><figcaption>Timeline in seconds: when each finding occurs"
            out += (snap?.series.isEmpty ?? true) ? "" : ", and the measured value against its threshold"
            out += ". Hover for frame and value.</figcaption>\n"
            out += timelineSVG(scene: s, groups: groups, snapshot: snap) + "</figure>\n"
        }
        out += "</div>\n"
        out += "<div class=\"replay-slot\" data-scene-index=\"\(n)\">\(replay ?? "")</div>\n"
        if s.violations.isEmpty && s.omittedCount == 0 { out += "<p class=\"status-clean\">✓ No findings: this scene is clean.</p>\n" }
        // At most `SceneSnapshot.maxViews` cards draw pictures, so the page stays bounded.
        for (k, g) in groups.enumerated() where shown?.contains(k) ?? true {
            out += card(g, scene: s, sceneIndex: n, groupIndex: k, snapshot: k < SceneSnapshot.maxViews ? snap : nil,
                        picturesLeftOut: snap != nil && k >= SceneSnapshot.maxViews, hasReplay: hasReplay)
        }
        if let shown, let line = Self.cardsNotShownLine(groups.enumerated().filter { !shown.contains($0.offset) }.map(\.element), limit: cardLimit) {
            out += "<p class=\"omitted\">\(Escape.html(line))</p>\n"
        }
        if let line = OmittedViolations.notShown(s.omitted) { out += "<p class=\"omitted\">\(Escape.html(line))</p>\n" }
        if let line = IgnoredViolations.line(s.ignored) { out += "<p class=\"omitted\">\(Escape.html(line))</p>\n" }
        if let stopped = s.stopped { out += "<p class=\"omitted\"><strong>\(Escape.html(stopped.line))</strong></p>\n" }
        out += "<p class=\"top\"><a href=\"#top\">↑ summary</a></p>\n</section>\n"
        return out
    }

    func card(_ g: ViolationGroup, scene s: SceneReport, sceneIndex n: Int, groupIndex k: Int, snapshot snap: SceneSnapshot?,
              picturesLeftOut: Bool = false, hasReplay: Bool = true) -> String {
        guard let first = g.members.first else { return "" }
        // The member whose worst frame was captured draws the picture (the first, usually).
        let lead = g.members.first { snap?.views[$0.worstFrame] != nil } ?? first
        // The replay jumps to the lead's worst frame and outlines the members in a finding there.
        let atFrame = g.members.filter { m in
            m.spans.contains { $0.contains(lead.worstFrame) }
        }
        // (Paths `elidedPath` shortens are left out of them when no replay reads them.)
        let entities = Set(paths: (atFrame.isEmpty ? [lead] : atFrame).flatMap { $0.entities }).map(\.path).sorted()
            .filter { hasReplay || elidedPath($0) == $0 }
        var out = "<article class=\"vcard sev-border-\(g.severity.rawValue)\" id=\"s\(n)-g\(k)\" data-severity=\"\(g.severity.rawValue)\""
        out += " data-scene-index=\"\(n)\" data-frame=\"\(lead.worstFrame)\" data-entities=\"\(Escape.html(entities.joined(separator: " ")))\">\n"
        let rule = Escape.httpsURL(first.help).map { "<a href=\"\(Escape.html($0))\">\(Escape.html(g.rule))</a>" } ?? Escape.html(g.rule)
        let badge = first.baseline.map { b -> String in
            let kind = b.gates ? b.rawValue : "known"
            return " <span class=\"badge badge-\(kind)\">\(b.gates ? b.rawValue : "known: \(b.rawValue)")</span>"
        } ?? ""
        out += "<h3><span class=\"sev sev-\(g.severity.rawValue)\">\(g.severity.rawValue)</span> <code>\(rule)</code>\(badge)"
        if g.isFolded { out += " <span class=\"fold\">× \(g.count)</span>" }
        out += "</h3>\n"
        // Entity paths longer than `elidedPathHalf` × 2 + 1 characters are elided in the text and
        // pictures; the card lists each of them whole once, below.
        let namedPaths = [g.container] + first.entities
        if g.isFolded {
            out += "<p class=\"summary\">\(Escape.html(elidingPaths(in: g.summary, [g.container]))).</p>\n"
            out += "<p>\(Escape.html(elidingPaths(in: first.message, first.entities + [g.container])))</p>\n"
        } else {
            let who = first.entities.isEmpty ? "whole scene" : first.entities.map(elidedPath).joined(separator: ", ")
            out += "<p><b>\(Escape.html(who))</b>: \(Escape.html(elidingPaths(in: first.message, first.entities + [g.container])))</p>\n"
            let shown = fmtMeasure(first.measured, first.threshold)
            out += "<p class=\"measure\">"
            if !numbersSayNothing(unit: first.unit, first.measured, first.threshold) {
                let unit = Escape.html(first.unit)
                out += "measured <b>\(withUnit(shown.measured, first.measured, unit: unit))</b>, threshold \(withUnit(shown.threshold, first.threshold, unit: unit))"
                if first.borderline { out += " (borderline)" }
                out += "; "
            }
            if let change = first.baselineChange(unit: Escape.html(first.unit)) { out += "\(BaselineStatus.worsened.rawValue) since the baseline: \(change); " }
            out += "\(Escape.html(timeRange(first, frameRate: s.frameRate))); worst at frame \(first.worstFrame)"
            if let l = first.location { out += "; <code>\(Escape.html(elidedPath(s.path))):\(l.line):\(l.column)</code>" }
            out += "</p>\n"
            if !first.usdPrims.isEmpty {
                out += "<p class=\"meta\">USD: " + first.usdPrims.map { p in
                    "<code>\(Escape.html(elidedPath(p.entity)))</code> is prim <code>\(Escape.html(p.prim.path))</code> in <code>\(Escape.html(p.prim.layer))</code>"
                }.joined(separator: "; ") + "</p>\n"
            }
        }
        if picturesLeftOut {
            out += "<p class=\"meta\">No picture: the first \(SceneSnapshot.maxViews) findings of a scene have pictures.</p>\n"
        }
        if let snap, var view = snap.views[lead.worstFrame] {
            let hot = Set(paths: g.members.filter { $0.worstFrame == lead.worstFrame || g.isFolded }.flatMap { $0.entities })
            // This card's entities and the context nearest them (the captured view may hold
            // the marked entities of other cards too).
            view.boxes = SceneSnapshot.neighbourhood(view.boxes, marked: hot)
            out += "<div class=\"figures\">\n"
            let wholeScene = lead.entities.isEmpty ? "; a whole-scene finding: the ✕ on the plan shows where the viewer stands" : ""
            if let screen = snap.screen {
                out += screenFigures(view: view, screen: screen, snapshot: snap, highlight: hot, group: g, lead: lead, wholeScene: wholeScene)
            } else {
                out += "<figure class=\"view\"><figcaption>The viewer's view at frame \(view.frame) (t = \(fmt(view.time, 2)) s)\(g.isFolded ? ", all \(g.count) findings marked" : "")\(wholeScene).</figcaption>\n"
                // Small marked entities (buttons 2 m away span a degree or two): the measurement is
                // drawn on a zoomed detail, the whole view keeps the context.
                let boxes = view.boxes.filter { hot.contains(path: $0.path) }
                var zoom: (SIMD2<Double>, Double)?
                if let minAz = boxes.map(\.minAz).min(), let maxAz = boxes.map(\.maxAz).max(),
                   let minEl = boxes.map(\.minEl).min(), let maxEl = boxes.map(\.maxEl).max(),
                   max(maxAz - minAz, (maxEl - minEl) / 0.625) < 40 {
                    zoom = (SIMD2((minAz + maxAz) / 2, (minEl + maxEl) / 2), max(4, max(maxAz - minAz, (maxEl - minEl) / 0.625) * 0.75))
                }
                out += viewSVG(view: view, highlight: hot, fov: snap.fieldOfView, severity: g.severity,
                               measure: ViewMeasure(group: g, lead: lead), annotate: zoom == nil) + "</figure>\n"
                if let (c, half) = zoom {
                    out += "<figure class=\"view\"><figcaption>Detail: ±\(fmt(half, 1))° around the marked entities.</figcaption>\n"
                    out += viewSVG(view: view, highlight: hot, fov: snap.fieldOfView, severity: g.severity,
                                   measure: ViewMeasure(group: g, lead: lead), center: c, halfAz: half) + "</figure>\n"
                }
            }
            out += "</div>\n"
        }
        if g.isFolded {
            out += "<details><summary>The \(g.count) findings</summary>\n<table class=\"members\"><thead><tr><th>entities</th><th>where</th><th class=\"n\">measured</th><th class=\"n\">threshold</th><th>when</th></tr></thead><tbody>\n"
            for v in g.members.prefix(200) {
                // Each member's place in the scene file, as the text report's "(line N)".
                let place = v.location.map { "<code>\(Escape.html(elidedPath(s.path))):\($0.line):\($0.column)</code>" } ?? ""
                let quiet = numbersSayNothing(unit: v.unit, v.measured, v.threshold), unit = Escape.html(v.unit)
                let named = v.entities.isEmpty ? v.entityList : v.entities.map { elidedPath($0) + v.primSuffix($0) }.joined(separator: ", ")
                out += "<tr><td>\(Escape.html(named))</td><td>\(place)</td><td class=\"n\">\(quiet ? "" : v.baselineChange(unit: unit) ?? withUnit(fmtValue(v.measured), v.measured, unit: unit))</td>"
                out += "<td class=\"n\">\(quiet ? "" : withUnit(fmtValue(v.threshold), v.threshold, unit: unit))</td><td>\(Escape.html(timeRange(v, frameRate: s.frameRate)))</td></tr>\n"
            }
            out += "</tbody></table>\n"
            if g.count > 200 { out += "<p>… and \(g.count - 200) more (the JSON report lists every one).</p>\n" }
            out += "</details>\n"
        }
        var elided: [String] = []
        var listed = Set<PathKey>()
        for p in namedPaths where elidedPath(p) != p && listed.insert(PathKey(p)).inserted { elided.append(p) }
        if !elided.isEmpty {
            out += "<details class=\"paths\"><summary>Full entity paths (\(elided.count))</summary><ul>"
            out += elided.map { "<li><code>\(Escape.html($0))</code></li>" }.joined() + "</ul></details>\n"
        }
        out += "</article>\n"
        return out
    }
}

extension Report {
    /// An iOS scene's card pictures (`SceneSnapshot.screen`): the device's screen at the frame, and
    /// a detail of the screen around small marked entities (`ScreenPicture.detailCrop`) with the
    /// measurement drawn on it.
    func screenFigures(view: SceneSnapshot.View, screen: SceneSnapshot.Screen, snapshot snap: SceneSnapshot,
                       highlight hot: Set<PathKey>, group g: ViolationGroup, lead: ReportViolation, wholeScene: String) -> String {
        let whole = ScreenPicture(screen: screen, horizontalFieldOfView: snap.fieldOfView.x, crop: nil)
        // The marked entities' bounds on the screen, in points (a projection at one pixel per point).
        let points = ViewProjection(screen: screen.size, horizontalFieldOfView: snap.fieldOfView.x, w: screen.size.x, h: screen.size.y)
        var marked: (x0: Double, y0: Double, x1: Double, y1: Double)?
        for b in view.boxes where hot.contains(path: b.path) {
            let shown = points.clipped(points.polygon(of: b))
            guard shown.count >= 3 else { continue }
            for p in shown {
                marked = marked.map { (min($0.x0, p.x), min($0.y0, p.y), max($0.x1, p.x), max($0.y1, p.y)) } ?? (p.x, p.y, p.x, p.y)
            }
        }
        let crop = marked.flatMap { ScreenPicture.detailCrop(screen: screen.size, marked: $0) }
        var out = "<figure class=\"view\"><figcaption>The \(Escape.html(screen.caption)) at frame \(view.frame) (t = \(fmt(view.time, 2)) s): the camera's \(fmt(snap.fieldOfView.x, 1))°×\(fmt(snap.fieldOfView.y, 1))° view\(g.isFolded ? ", all \(g.count) findings marked" : "")\(wholeScene).</figcaption>\n"
        out += viewSVG(view: view, highlight: hot, fov: snap.fieldOfView, severity: g.severity,
                       measure: ViewMeasure(group: g, lead: lead), annotate: crop == nil, screen: whole) + "</figure>\n"
        if let crop {
            out += "<figure class=\"view\"><figcaption>Detail: \(fmt(crop.x1 - crop.x0, 0))×\(fmt(crop.y1 - crop.y0, 0)) pt of the screen around the marked entities.</figcaption>\n"
            out += viewSVG(view: view, highlight: hot, fov: snap.fieldOfView, severity: g.severity,
                           measure: ViewMeasure(group: g, lead: lead), screen: ScreenPicture(screen: screen, horizontalFieldOfView: snap.fieldOfView.x, crop: crop)) + "</figure>\n"
        }
        return out
    }
}

/// A multi-line text (a diagnostic with its hint) as HTML: each line through `Escape.html`,
/// joined by a line break element.
func htmlLines(_ s: String) -> String {
    s.split(separator: "\n", omittingEmptySubsequences: false).map { Escape.html(String($0)) }.joined(separator: "<br>")
}

/// Colours: severity text colours meet 4.5:1 on their background in both schemes (light
/// #b3261e, #8a4b00, #1a5a9e on white; dark #ff8a80, #f0b35a, #8cbcf5 on #16181c). Pictures keep a
/// light paper background in both schemes so their colours read the same.
let htmlStyle = """
:root{--bg:#ffffff;--fg:#1d1d1f;--muted:#5b5e66;--line:#d8dbe0;--card:#f6f7f9;--err:#b3261e;--warn:#8a4b00;--info:#1a5a9e;--ok:#1e6b2a;--accent:#0b57d0;
--pass-bg:#e6f4ea;--fail-bg:#fce8e6}
@media (prefers-color-scheme:dark){:root{--bg:#16181c;--fg:#e8eaed;--muted:#a9adb5;--line:#3a3d44;--card:#1f2227;--err:#ff8a80;--warn:#f0b35a;--info:#8cbcf5;--ok:#7fd18b;--accent:#8ab4f8;
--pass-bg:#17301d;--fail-bg:#3a1c1a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",system-ui,Helvetica,Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:1.5rem 1.25rem 3rem}
h1{font-size:1.9rem;line-height:1.2;margin:.2rem 0 .6rem;letter-spacing:-.01em}
h2{font-size:1.35rem;margin:2.5rem 0 .5rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:.1rem 0 .4rem}
a{color:var(--accent)}code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.banner{border-radius:12px;padding:1.1rem 1.4rem;margin-bottom:1.5rem;border:1px solid var(--line)}
.banner.pass{background:var(--pass-bg)}.banner.fail{background:var(--fail-bg)}
.verdict{margin:0;display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap}
.verdict-word{font-size:1.6rem;font-weight:700;letter-spacing:.02em;text-transform:uppercase}
.pass .verdict-word{color:var(--ok)}.fail .verdict-word{color:var(--err)}.gate{color:var(--muted)}
.review-note{font-size:1.2rem;font-weight:600;color:var(--warn)}.banner.review{border-left:6px solid var(--warn)}
.counts{list-style:none;padding:0;margin:.3rem 0;display:flex;gap:1.5rem;flex-wrap:wrap;font-size:1.05rem}
.counts b{font-size:1.5rem;font-variant-numeric:tabular-nums}
.count-error b{color:var(--err)}.count-warning b{color:var(--warn)}.count-info b{color:var(--info)}
.settings{display:flex;flex-wrap:wrap;gap:.3rem 1.6rem;margin:.6rem 0 0;font-size:.9rem}
.settings div{display:flex;gap:.4rem}.settings dt{color:var(--muted)}.settings dd{margin:0;font-weight:600}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--line);padding:.35rem .7rem;text-align:left;vertical-align:top}
th{font-weight:600;color:var(--muted);font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
.n{text-align:right}
table.sortable th{cursor:pointer;user-select:none}table.sortable th[aria-sort=ascending]::after{content:" ▲"}
table.sortable th[aria-sort=descending]::after{content:" ▼"}
tr.clean td:first-child a{color:var(--ok)}
.status-clean{color:var(--ok);font-weight:600}.status-broken{color:var(--err);font-weight:600}
.sev-error{color:var(--err);font-weight:600}.sev-warning{color:var(--warn);font-weight:600}.sev-info{color:var(--info);font-weight:600}
.sev{text-transform:uppercase;font-size:.8rem;letter-spacing:.05em}
.vcard{border:1px solid var(--line);border-left:5px solid var(--line);border-radius:8px;padding:.8rem 1.1rem;margin:1rem 0;background:var(--card)}
.sev-border-error{border-left-color:var(--err)}.sev-border-warning{border-left-color:var(--warn)}.sev-border-info{border-left-color:var(--info)}
.vcard p{margin:.3rem 0}.summary{font-weight:600}.fold{font-weight:600;color:var(--muted)}
.meta,.hint,figcaption{color:var(--muted);font-size:.88rem}
figure{margin:.4rem 0;max-width:100%}figcaption{margin-bottom:.3rem;max-width:560px}
.figures{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
svg{background:#fff;border:1px solid var(--line);border-radius:6px;max-width:100%;height:auto;color:#1d1d1f}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.1em .55em;border-radius:.8em;color:#fff;vertical-align:middle}
.badge-new{background:#b3261e}.badge-worsened{background:#8a4b00}.badge-known{background:#5b5e66}.badge-fixed{background:#1e6b2a}
.rule-index{padding-left:1.2rem}.rule-index ul{padding-left:1.2rem;margin:.1rem 0 .5rem}.index{font-size:.92rem}
.filters label{margin-right:.8rem}.js-only{display:none}.js .js-only{display:block}
.hidden-by-filter{display:none}
details{margin:.5rem 0}summary{cursor:pointer;color:var(--accent)}table.members{font-size:.85rem;margin-top:.4rem}
.top{font-size:.85rem}footer{color:var(--muted);font-size:.85rem;border-top:1px solid var(--line);margin-top:3rem}
@media print{body{background:#fff;color:#000;font-size:11pt}main{max-width:none;padding:0}
.js-only,.filters,.replay-slot,.top{display:none!important}a{color:#000;text-decoration:none}
.banner,.vcard{break-inside:avoid;background:#fff!important}.scene{break-before:page}
details>*{display:block}svg{border-color:#999}}

"""

/// Sorting of the scene table and the severity filter; without it the page is complete.
let htmlScript = """
(function(){
document.documentElement.classList.add("js");
document.querySelectorAll("table.sortable").forEach(function(table){
  var heads=table.querySelectorAll("th");
  heads.forEach(function(th,col){
    th.tabIndex=0;
    function sort(){
      var asc=th.getAttribute("aria-sort")!=="ascending";
      heads.forEach(function(h){h.removeAttribute("aria-sort");});
      th.setAttribute("aria-sort",asc?"ascending":"descending");
      var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
      var num=th.getAttribute("data-type")==="num";
      function key(r){var c=r.cells[col];var v=c.getAttribute("data-sort")||c.textContent;return num?parseFloat(v)||0:v.toLowerCase();}
      rows.sort(function(a,b){var x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*(asc?1:-1);});
      rows.forEach(function(r){body.appendChild(r);});
    }
    th.addEventListener("click",sort);
    th.addEventListener("keydown",function(e){if(e.key==="Enter"||e.key===" "){e.preventDefault();sort();}});
  });
});
document.querySelectorAll("input[data-filter]").forEach(function(box){
  box.addEventListener("change",function(){
    var sev=box.getAttribute("data-filter");
    document.querySelectorAll(".vcard[data-severity=\\""+sev+"\\"]").forEach(function(c){c.classList.toggle("hidden-by-filter",!box.checked);});
  });
});
})();

"""
