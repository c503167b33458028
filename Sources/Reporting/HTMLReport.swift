import SpatialModel
import Rules

/// Geometry the HTML report draws, captured from the simulation by the pipeline.
public struct SceneSnapshot: Sendable {
    /// Top-down footprint of an entity at rest: world x/z extents, and the outline of its box seen
    /// from above (x, z points in order; a turned window is a slanted strip, not its bounding square).
    public struct Footprint: Sendable {
        public var path: String
        public var kind: String
        public var minX, maxX, minZ, maxZ: Double
        public var outline: [SIMD2<Double>]
        public init(path: String, kind: String, minX: Double, maxX: Double, minZ: Double, maxZ: Double,
                    outline: [SIMD2<Double>] = []) {
            self.path = path; self.kind = kind; self.minX = minX; self.maxX = maxX; self.minZ = minZ; self.maxZ = maxZ
            self.outline = outline
        }
    }
    /// An entity as seen from the eye at one frame: its box in head-frame azimuth/elevation degrees.
    public struct ViewBox: Sendable {
        public var path: String
        public var minAz, maxAz, minEl, maxEl: Double
        public var distance: Double
        public init(path: String, minAz: Double, maxAz: Double, minEl: Double, maxEl: Double, distance: Double) {
            self.path = path; self.minAz = minAz; self.maxAz = maxAz; self.minEl = minEl; self.maxEl = maxEl
            self.distance = distance
        }
    }
    public struct View: Sendable {
        public var frame: Int
        public var time: Double
        public var boxes: [ViewBox]
        public init(frame: Int, time: Double, boxes: [ViewBox]) { self.frame = frame; self.time = time; self.boxes = boxes }
    }

    /// Viewer path (x, z) sampled over the run, in order.
    public var viewerPath: [SIMD2<Double>]
    /// Boundary origins (x, z) used during the run (progressive/full immersion), if any.
    public var boundaryOrigins: [SIMD2<Double>]
    public var boundaryRadius: Double
    public var fadeRadius: Double
    public var footprints: [Footprint]
    /// Field of view (horizontal, vertical) in degrees.
    public var fieldOfView: SIMD2<Double>
    /// Views keyed by frame index (the worst frames of the violations).
    public var views: [Int: View]
    /// The 3D replay's data, when captured (`ValidateOptions.replay`).
    public var replay: ReplayData?

    public init(viewerPath: [SIMD2<Double>], boundaryOrigins: [SIMD2<Double>], boundaryRadius: Double = 1.5,
                fadeRadius: Double = 1.2, footprints: [Footprint], fieldOfView: SIMD2<Double>, views: [Int: View]) {
        self.viewerPath = viewerPath; self.boundaryOrigins = boundaryOrigins; self.boundaryRadius = boundaryRadius
        self.fadeRadius = fadeRadius; self.footprints = footprints; self.fieldOfView = fieldOfView; self.views = views
    }
}

extension Report {
    /// One self-contained HTML page (no scripts, no network): summary, and per scene a top-down
    /// plan, a timeline of violations, and each violation with the viewer's view at its worst frame.
    /// Every string from input — in text, attributes and SVG labels — goes through `Escape.html`;
    /// a rule links to its `help` only when that is an `https:` URL (`Escape.httpsURL`).
    public func html(snapshots: [String: SceneSnapshot]) -> String {
        let e = count(.error), w = count(.warning), i = count(.info)
        var body = ""
        body += "<h1>spatialcheck report</h1>\n"
        body += "<p class=\"summary\"><span class=\"sev-error\">\(e) error\(e == 1 ? "" : "s")</span> · "
        body += "<span class=\"sev-warning\">\(w) warning\(w == 1 ? "" : "s")</span> · <span class=\"sev-info\">\(i) info</span>"
        body += " in \(scenes.count) scene\(scenes.count == 1 ? "" : "s"). \(Report.settingsText(pointAngle: pointAngle, fixedPointSize: fixedPointSize)).</p>\n"
        if let counts = baselineCounts {
            body += "<p class=\"baseline\">Against the baseline: <span class=\"badge badge-new\">\(counts.new) new</span> "
            body += "<span class=\"badge badge-worsened\">\(counts.worsened) worsened</span> "
            body += "<span class=\"badge badge-known\">\(counts.known) known</span> "
            body += "<span class=\"badge badge-fixed\">\(counts.fixed) fixed</span></p>\n"
        }
        if let generatedAt { body += "<p class=\"generated\">Generated at \(Escape.html(generatedAt)).</p>\n" }
        body += "<table class=\"scenes\"><tr><th>scene</th><th>status</th><th>errors</th><th>warnings</th><th>info</th></tr>\n"
        for (n, s) in scenes.enumerated() {
            let status = s.status == .error ? "could not be loaded" : s.violations.isEmpty ? "clean" : "violations"
            body += "<tr><td><a href=\"#scene-\(n)\">\(Escape.html(s.path))</a></td><td>\(status)</td><td>\(s.count(.error))</td><td>\(s.count(.warning))</td><td>\(s.count(.info))</td></tr>\n"
        }
        body += "</table>\n"
        for (n, s) in scenes.enumerated() {
            body += "<section id=\"scene-\(n)\">\n<h2>\(Escape.html(s.name.map { "\(s.path) — \($0)" } ?? s.path))</h2>\n"
            if s.status == .error {
                body += "<ul class=\"errors\">" + s.errors.map { "<li><code>\(htmlLines($0.description))</code></li>" }.joined() + "</ul>\n</section>\n"
                continue
            }
            body += "<p>\(s.frames) frames at \(fmt(s.frameRate, 0)) Hz (\(fmt(s.duration, 2)) s).</p>\n"
            let snap = snapshots[s.path]
            body += "<div class=\"figures\">\n"
            if let snap {
                body += "<figure><figcaption>Top-down plan: viewer path, 1.5 m boundary, entities by worst severity</figcaption>\n"
                body += planSVG(scene: s, snapshot: snap) + "</figure>\n"
            }
            if !s.violations.isEmpty {
                body += "<figure><figcaption>Timeline of violations over the frames</figcaption>\n"
                body += timelineSVG(scene: s) + "</figure>\n"
            }
            body += "</div>\n"
            if let replay = snap?.replay {
                body += "<div class=\"replay-slot\" data-scene-index=\"\(n)\">" + ReplayHTML.section(replay, sceneIndex: n) + "</div>\n"
            }
            if s.violations.isEmpty { body += "<p class=\"clean\">No violations.</p>\n" }
            for v in s.violationsNewFirst {
                body += "<article class=\"violation vcard sev-border-\(v.severity.rawValue)\" data-scene-index=\"\(n)\" data-frame=\"\(v.worstFrame)\" data-entities=\"\(Escape.html(v.entities.joined(separator: " ")))\">\n"
                // A saved report's help field is untrusted: a link only to an https: URL.
                let rule = Escape.httpsURL(v.help).map { "<a href=\"\(Escape.html($0))\">\(Escape.html(v.rule))</a>" } ?? Escape.html(v.rule)
                let badge = v.baseline.map { b -> String in
                    let kind = b == .new || b == .worsened ? b.rawValue : "known"
                    return " <span class=\"badge badge-\(kind)\">\(b == .new || b == .worsened ? b.rawValue : "known: \(b.rawValue)")</span>"
                } ?? ""
                body += "<h3><span class=\"sev-\(v.severity.rawValue)\">\(v.severity.rawValue)</span> \(rule)\(badge)</h3>\n"
                let who = v.entities.isEmpty ? "whole scene" : v.entities.joined(separator: ", ")
                body += "<p><b>\(Escape.html(who))</b>: \(Escape.html(v.message))</p>\n"
                body += "<p>measured \(fmtValue(v.measured)) \(Escape.html(v.unit)), threshold \(fmtValue(v.threshold)) \(Escape.html(v.unit)); "
                body += "\(Escape.html(timeRange(v, frameRate: s.frameRate))); worst at frame \(v.worstFrame)"
                if let l = v.location { body += "; <code>\(Escape.html(s.path)):\(l.line):\(l.column)</code>" }
                body += "</p>\n"
                if let snap, let view = snap.views[v.worstFrame] {
                    body += "<div class=\"figures\">\n"
                    let wholeScene = v.entities.isEmpty
                        ? "; a whole-scene finding, so nothing is marked: the ✕ on the plan shows where the viewer stands" : ""
                    body += "<figure><figcaption>The viewer's view at frame \(view.frame) (t = \(fmt(view.time, 2)) s); dashed: comfortable field of view\(wholeScene)</figcaption>\n"
                    body += viewSVG(view: view, highlight: Set(v.entities), fov: snap.fieldOfView, severity: v.severity) + "</figure>\n"
                    // Small marked entities (buttons 2 m away span a degree or two): add a zoomed detail.
                    let hot = view.boxes.filter { v.entities.contains($0.path) }
                    if let minAz = hot.map(\.minAz).min(), let maxAz = hot.map(\.maxAz).max(),
                       let minEl = hot.map(\.minEl).min(), let maxEl = hot.map(\.maxEl).max(),
                       max(maxAz - minAz, (maxEl - minEl) / 0.625) < 20 {
                        let half = max(4, max(maxAz - minAz, (maxEl - minEl) / 0.625) * 1.5)
                        let c = SIMD2((minAz + maxAz) / 2, (minEl + maxEl) / 2)
                        body += "<figure><figcaption>Detail: ±\(fmt(half, 1))° around the marked entities</figcaption>\n"
                        body += viewSVG(view: view, highlight: Set(v.entities), fov: snap.fieldOfView, severity: v.severity,
                                        center: c, halfAz: half) + "</figure>\n"
                    }
                    body += "</div>\n"
                }
                body += "</article>\n"
            }
            if let line = OmittedViolations.notShown(s.omitted) { body += "<p class=\"omitted\">\(Escape.html(line))</p>\n" }
            body += "</section>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>spatialcheck report</title>
            <style>
            body{font-family:-apple-system,system-ui,Segoe UI,Helvetica,Arial,sans-serif;margin:2em auto;max-width:1100px;color:#1d1d1f;padding:0 1em}
            h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.3em}h3{margin:.2em 0}
            table.scenes{border-collapse:collapse}table.scenes td,table.scenes th{border:1px solid #ddd;padding:.3em .6em;text-align:left}
            .sev-error{color:#c0261b;font-weight:600}.sev-warning{color:#a15c00;font-weight:600}.sev-info{color:#1c5fb8;font-weight:600}
            .violation{border-left:4px solid #ccc;padding:.4em 1em;margin:1em 0;background:#fafafa}
            .sev-border-error{border-color:#c0261b}.sev-border-warning{border-color:#e08a00}.sev-border-info{border-color:#1c5fb8}
            figure{margin:.5em 0}figcaption{font-size:.85em;color:#555}.figures{display:flex;flex-wrap:wrap;gap:1.5em}
            svg{background:#fff;border:1px solid #ddd}code{font-size:.9em}.clean{color:#237a2b}
            .badge{display:inline-block;font-size:.75em;font-weight:600;padding:.1em .5em;border-radius:.8em;color:#fff;vertical-align:middle}
            .badge-new{background:#c0261b}.badge-worsened{background:#a15c00}.badge-known{background:#8e8e93}.badge-fixed{background:#237a2b}
            </style>
            </head>
            <body>
            \(body)\(snapshots.values.contains { $0.replay != nil } ? ReplayHTML.script : "")</body>
            </html>

            """
    }
}

private func color(_ s: Severity?) -> String {
    switch s {
    case .error?: return "#c0261b"
    case .warning?: return "#e08a00"
    case .info?: return "#1c5fb8"
    case nil: return "#8e8e93"
    }
}

private func n(_ x: Double) -> String { fmt(x, 1) }

/// Top-down plan: +X right, −Z (forward) up.
func planSVG(scene: SceneReport, snapshot: SceneSnapshot) -> String {
    // An entity's colour is the worst severity of its own violations and its children's
    // (a window is red when one of its buttons is).
    var worst: [String: Severity] = [:]
    for v in scene.violations {
        for path in v.entities {
            let parts = path.split(separator: "/").map(String.init)
            for k in 1...max(parts.count, 1) {
                let prefix = parts.prefix(k).joined(separator: "/")
                if let old = worst[prefix], old <= v.severity { continue }
                worst[prefix] = v.severity
            }
        }
    }
    // Extent: path, boundary circles and footprints, with a margin.
    var minX = -1.0, maxX = 1.0, minZ = -1.0, maxZ = 1.0
    func include(_ x: Double, _ z: Double) {
        guard x.isFinite, z.isFinite else { return }
        minX = min(minX, x); maxX = max(maxX, x); minZ = min(minZ, z); maxZ = max(maxZ, z)
    }
    for p in snapshot.viewerPath { include(p.x, p.y) }
    for o in snapshot.boundaryOrigins {
        include(o.x - snapshot.boundaryRadius, o.y - snapshot.boundaryRadius)
        include(o.x + snapshot.boundaryRadius, o.y + snapshot.boundaryRadius)
    }
    for f in snapshot.footprints where abs(f.minX) < 100 && abs(f.maxX) < 100 && abs(f.minZ) < 100 && abs(f.maxZ) < 100 {
        include(f.minX, f.minZ); include(f.maxX, f.maxZ)
    }
    minX -= 0.5; maxX += 0.5; minZ -= 0.5; maxZ += 0.5
    let width = 480.0
    let scale = width / max(maxX - minX, 0.1)
    let height = min(720, max(200, (maxZ - minZ) * scale))
    let sz = height / max(maxZ - minZ, 0.1)
    let s = min(scale, sz)
    func px(_ x: Double) -> Double { (x - minX) * s }
    func pz(_ z: Double) -> Double { (z - minZ) * s }
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(px(maxX)))\" height=\"\(n(pz(maxZ)))\" viewBox=\"0 0 \(n(px(maxX))) \(n(pz(maxZ)))\" role=\"img\" aria-label=\"top-down plan\">\n"
    // 1 m grid
    var g = (minX).rounded(.up)
    while g <= maxX { out += "<line x1=\"\(n(px(g)))\" y1=\"0\" x2=\"\(n(px(g)))\" y2=\"\(n(pz(maxZ)))\" stroke=\"#eee\"/>\n"; g += 1 }
    g = (minZ).rounded(.up)
    while g <= maxZ { out += "<line x1=\"0\" y1=\"\(n(pz(g)))\" x2=\"\(n(px(maxX)))\" y2=\"\(n(pz(g)))\" stroke=\"#eee\"/>\n"; g += 1 }
    for o in snapshot.boundaryOrigins {
        out += "<circle cx=\"\(n(px(o.x)))\" cy=\"\(n(pz(o.y)))\" r=\"\(n(snapshot.boundaryRadius * s))\" fill=\"none\" stroke=\"#c0261b\" stroke-width=\"1.5\"/>\n"
        out += "<circle cx=\"\(n(px(o.x)))\" cy=\"\(n(pz(o.y)))\" r=\"\(n(snapshot.fadeRadius * s))\" fill=\"none\" stroke=\"#e08a00\" stroke-dasharray=\"4 3\"/>\n"
    }
    for f in snapshot.footprints {
        let c = color(worst[f.path])
        let title = "<title>\(Escape.html(f.path)) (\(Escape.html(f.kind)))</title>"
        if f.outline.count >= 3 {
            let points = f.outline.map { "\(n(px($0.x))),\(n(pz($0.y)))" }.joined(separator: " ")
            out += "<polygon points=\"\(points)\" fill=\"\(c)\" fill-opacity=\"0.25\" stroke=\"\(c)\" stroke-width=\"2\">\(title)</polygon>\n"
        } else if f.outline.count == 2 {
            // A flat upright panel (a window) seen from above: a line.
            let a = f.outline[0], b = f.outline[1]
            out += "<line x1=\"\(n(px(a.x)))\" y1=\"\(n(pz(a.y)))\" x2=\"\(n(px(b.x)))\" y2=\"\(n(pz(b.y)))\" stroke=\"\(c)\" stroke-width=\"4\" stroke-linecap=\"round\">\(title)</line>\n"
        } else {
            let w = max((f.maxX - f.minX) * s, 2), h = max((f.maxZ - f.minZ) * s, 2)
            out += "<rect x=\"\(n(px(f.minX)))\" y=\"\(n(pz(f.minZ)))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(c)\" fill-opacity=\"0.25\" stroke=\"\(c)\">\(title)</rect>\n"
        }
        if !f.path.contains("/") {
            out += "<text x=\"\(n(px(f.minX)))\" y=\"\(n(pz(f.minZ) - 3))\" font-size=\"10\" fill=\"#333\">\(Escape.html(f.path))</text>\n"
        }
    }
    if let first = snapshot.viewerPath.first {
        let points = snapshot.viewerPath.map { "\(n(px($0.x))),\(n(pz($0.y)))" }.joined(separator: " ")
        out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#1d1d1f\" stroke-width=\"2\"/>\n"
        out += "<circle cx=\"\(n(px(first.x)))\" cy=\"\(n(pz(first.y)))\" r=\"5\" fill=\"#1d1d1f\"><title>viewer at t = 0</title></circle>\n"
    }
    // The viewer at each violation's worst frame. The path holds every `step`-th frame (and the
    // last), as captured by SpatialCheck.captureSnapshot, so frame f is sample f / step.
    if !snapshot.viewerPath.isEmpty, scene.frames > 0 {
        let step = max(1, scene.frames / 400)
        var marked = Set<Int>()
        for v in scene.violations.sorted(by: { $0.severity < $1.severity }) {  // errors first
            let i = min(snapshot.viewerPath.count - 1, v.worstFrame / step)
            guard marked.insert(i).inserted else { continue }
            let p = snapshot.viewerPath[i], x = px(p.x), z = pz(p.y), c = color(v.severity)
            out += "<path d=\"M\(n(x - 6)) \(n(z - 6))L\(n(x + 6)) \(n(z + 6))M\(n(x - 6)) \(n(z + 6))L\(n(x + 6)) \(n(z - 6))\" stroke=\"\(c)\" stroke-width=\"3\"><title>viewer at frame \(v.worstFrame), worst frame of \(Escape.html(v.rule))</title></path>\n"
        }
    }
    out += "</svg>\n"
    return out
}

/// The view from the eye: azimuth right, elevation up, with the comfort field of view dashed.
/// `center` and `halfAz` pick the window: by default ±100° by ±62.5° around straight ahead (16:10);
/// the detail view zooms onto small marked entities.
func viewSVG(view: SceneSnapshot.View, highlight: Set<String>, fov: SIMD2<Double>, severity: Severity,
             center: SIMD2<Double> = .zero, halfAz: Double = 100) -> String {
    let w = 480.0, h = 300.0
    let azRange = halfAz, elRange = halfAz * 0.625
    func px(_ az: Double) -> Double { (az - center.x + azRange) / (2 * azRange) * w }
    func py(_ el: Double) -> Double { (elRange - (el - center.y)) / (2 * elRange) * h }
    let detail = halfAz < 100
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))\" height=\"\(n(h))\" viewBox=\"0 0 \(n(w)) \(n(h))\" role=\"img\" aria-label=\"\(detail ? "detail of the view" : "view") at frame \(view.frame)\">\n"
    out += "<rect x=\"0\" y=\"0\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#f4f6f8\"/>\n"
    out += "<line x1=\"\(n(px(0)))\" y1=\"0\" x2=\"\(n(px(0)))\" y2=\"\(n(h))\" stroke=\"#dde\"/>\n"
    out += "<line x1=\"0\" y1=\"\(n(py(0)))\" x2=\"\(n(w))\" y2=\"\(n(py(0)))\" stroke=\"#dde\"/>\n"
    out += "<rect x=\"\(n(px(-fov.x / 2)))\" y=\"\(n(py(fov.y / 2)))\" width=\"\(n(px(fov.x / 2) - px(-fov.x / 2)))\" height=\"\(n(py(-fov.y / 2) - py(fov.y / 2)))\" fill=\"none\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n"
    // Far first, so nearer content draws on top. Labels of marked entities go in a list at the
    // top left (they would overlap on neighbouring small targets), each box numbered.
    var labels: [String] = []
    // Marked entities last, so their container never covers them.
    let ordered = view.boxes.sorted {
        let h0 = highlight.contains($0.path), h1 = highlight.contains($1.path)
        return h0 != h1 ? h1 : $0.distance > $1.distance
    }
    for b in ordered {
        let hot = highlight.contains(b.path)
        let x0 = max(0, px(b.minAz)), x1 = min(w, px(b.maxAz))
        let y0 = max(0, py(b.maxEl)), y1 = min(h, py(b.minEl))
        guard x1 >= x0, y1 >= y0 else { continue }
        let c = hot ? color(severity) : "#8e8e93"
        out += "<rect x=\"\(n(x0))\" y=\"\(n(y0))\" width=\"\(n(max(x1 - x0, 1.5)))\" height=\"\(n(max(y1 - y0, 1.5)))\" fill=\"\(hot ? c : "#ffffff")\" fill-opacity=\"\(hot ? "0.35" : "0.7")\" stroke=\"\(c)\" stroke-width=\"\(hot ? "2.5" : "1")\"><title>\(Escape.html(b.path)) at \(fmt(b.distance, 2)) m</title></rect>\n"
        if hot {
            labels.append(b.path)
            out += "<text x=\"\(n(x0))\" y=\"\(n(max(10, y0 - 3 - Double(labels.count - 1) * 11)))\" font-size=\"10\" fill=\"\(c)\">\(labels.count)</text>\n"
        }
    }
    for (i, label) in labels.enumerated() {
        out += "<text x=\"6\" y=\"\(n(14 + Double(i) * 12))\" font-size=\"11\" fill=\"\(color(severity))\">\(i + 1) \(Escape.html(label))</text>\n"
    }
    out += "</svg>\n"
    return out
}

/// One row per violation, bars over its frame spans.
func timelineSVG(scene: SceneReport) -> String {
    let rowH = 16.0, labelW = 220.0, barW = 420.0
    let h = Double(scene.violations.count) * rowH + 20
    let frames = Double(max(scene.frames, 1))
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(labelW + barW + 10))\" height=\"\(n(h))\" role=\"img\" aria-label=\"timeline\">\n"
    for (i, v) in scene.violations.enumerated() {
        let y = Double(i) * rowH + 4
        let label = v.rule + " " + (v.entities.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "")
        out += "<text x=\"2\" y=\"\(n(y + 11))\" font-size=\"10\" fill=\"#333\">\(Escape.html(String(label.prefix(40))))</text>\n"
        out += "<rect x=\"\(n(labelW))\" y=\"\(n(y + 2))\" width=\"\(n(barW))\" height=\"\(n(rowH - 6))\" fill=\"#f0f0f0\"/>\n"
        for span in v.spans {
            let x = labelW + Double(span.lowerBound) / frames * barW
            let wd = max(Double(span.upperBound - span.lowerBound + 1) / frames * barW, 1.5)
            out += "<rect x=\"\(n(x))\" y=\"\(n(y + 2))\" width=\"\(n(wd))\" height=\"\(n(rowH - 6))\" fill=\"\(color(v.severity))\"/>\n"
        }
    }
    out += "<text x=\"\(n(labelW))\" y=\"\(n(h - 3))\" font-size=\"9\" fill=\"#777\">frame 0</text>\n"
    out += "<text x=\"\(n(labelW + barW - 50))\" y=\"\(n(h - 3))\" font-size=\"9\" fill=\"#777\">frame \(scene.frames - 1)</text>\n"
    out += "</svg>\n"
    return out
}

/// A multi-line text (a diagnostic with its hint) as HTML: each line through `Escape.html`,
/// joined by a line break element.
func htmlLines(_ s: String) -> String {
    s.split(separator: "\n", omittingEmptySubsequences: false).map { Escape.html(String($0)) }.joined(separator: "<br>")
}
