import Foundation
import SpatialModel
import Rules

// The static SVG pictures of the HTML report: top-down plan, the viewer's view, the timeline.
// Pictures have a light "paper" background in both colour schemes.

func severityColor(_ s: Severity?) -> String {
    switch s {
    case .error?: return "#c0261b"
    case .warning?: return "#d17a00"
    case .info?: return "#1c5fb8"
    case nil: return "#8e8e93"
    }
}

/// Text colour on the white paper (≥ 4.5:1).
private func severityText(_ s: Severity?) -> String {
    switch s {
    case .error?: return "#b3261e"
    case .warning?: return "#8a4b00"
    case .info?: return "#1a5a9e"
    case nil: return "#5b5e66"
    }
}

private func n(_ x: Double) -> String { fmt(x, 1) }

/// A label: truncated in the middle beyond `max` characters (paths keep their start and leaf).
func shortLabel(_ s: String, max: Int = 28) -> String {
    guard s.count > max, max > 3 else { return s }
    let head = (max - 1) / 2, tail = max - 1 - head
    return String(s.prefix(head)) + "…" + String(s.suffix(tail))
}

/// The most characters of an entity path the HTML page prints in text and pictures: a longer one
/// is elided in the middle (its first and last `elidedPathHalf` characters around "…"; cut at
/// character boundaries, before escaping), and each card lists the whole path once, in its
/// "full entity paths" details. A window id of 1,900 characters was printed about ten times per
/// finding (a 6.7 MB page for one scene of 302 findings).
let elidedPathHalf = 40

/// `path` elided in the middle when longer than 2 × `elidedPathHalf` + 1 characters.
func elidedPath(_ path: String) -> String {
    // (Byte length first: counting characters walks the whole path.)
    path.utf8.count > 2 * elidedPathHalf + 1 ? shortLabel(path, max: 2 * elidedPathHalf + 1) : path
}

/// `text` (a message or summary naming entity paths) with each of `paths` that `elidedPath`
/// shortens replaced by its elided form, longest first (compared as UTF-8 bytes: a message names
/// two paths of up to 4 KB that share most of their bytes).
func elidingPaths(in text: String, _ paths: [String]) -> String {
    let long = Set(paths: paths.filter { $0.utf8.count > 2 * elidedPathHalf + 1 && elidedPath($0) != $0 }).map(\.path)
        .sorted { $0.utf8.count != $1.utf8.count ? $0.utf8.count > $1.utf8.count : $0 < $1 }
    guard !long.isEmpty, text.utf8.count > 2 * elidedPathHalf + 1 else { return text }
    var bytes = Array(text.utf8)
    for p in long {
        bytes = replacingBytes(Array(p.utf8), with: Array(elidedPath(p).utf8), in: bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The largest of 1, 2, 5 × 10^k (m) that is at most `x`.
/// 10ⁿ for n ≥ 0.
private func pow10(_ n: Int) -> Double { (0..<max(n, 0)).reduce(1.0) { r, _ in r * 10 } }

func niceLength(_ x: Double) -> Double {
    guard x.isFinite, x >= 1e-6, x <= 1e9 else { return 1 }
    var p = 1.0
    while p * 10 <= x { p *= 10 }
    while p > x { p /= 10 }
    for m in [5.0, 2, 1] where m * p <= x { return m * p }
    return p
}

/// Greedy label placement: a label is drawn only where it overlaps no earlier one.
struct LabelBoard {
    var taken: [(Double, Double, Double, Double)] = []
    /// Tries the candidate boxes (x, y of the baseline start, width, height) in order.
    mutating func place(_ candidates: [(Double, Double)], width: Double, height: Double, bounds: (Double, Double)) -> (Double, Double)? {
        for (x, y) in candidates {
            let r = (x, y - height, x + width, y + 2)
            guard r.0 >= 0, r.1 >= 0, r.2 <= bounds.0, r.3 <= bounds.1 else { continue }
            if taken.contains(where: { $0.0 < r.2 && r.0 < $0.2 && $0.1 < r.3 && r.1 < $0.3 }) { continue }
            taken.append(r)
            return (x, y)
        }
        return nil
    }
}

/// The plan's scale: metres → pixels and the extent it fits (content plus a margin).
struct PlanFrame {
    var minX, maxX, minZ, maxZ: Double
    var scale: Double
    static let maxSide = 520.0

    init(snapshot: SceneSnapshot, frames: Int) {
        var minX = Double.infinity, maxX = -Double.infinity, minZ = Double.infinity, maxZ = -Double.infinity
        func include(_ x: Double, _ z: Double) {
            guard x.isFinite, z.isFinite, abs(x) < 1000, abs(z) < 1000 else { return }
            minX = min(minX, x); maxX = max(maxX, x); minZ = min(minZ, z); maxZ = max(maxZ, z)
        }
        for p in snapshot.viewerPath { include(p.x, p.y) }
        for o in snapshot.boundaryOrigins {
            include(o.x - snapshot.boundaryRadius, o.y - snapshot.boundaryRadius)
            include(o.x + snapshot.boundaryRadius, o.y + snapshot.boundaryRadius)
        }
        // An environment (a 50 m space, a sky) is drawn but does not set the scale: the plan is
        // about where the viewer walks and the content around them.
        // A moving entity sets it where it is shown (its track), not where it rests.
        let moving = Set(paths: snapshot.tracks.map(\.path))
        for f in snapshot.footprints where f.kind != EntityKind.environment.rawValue && !moving.contains(path: f.path) {
            include(f.minX, f.minZ); include(f.maxX, f.maxZ)
        }
        for t in snapshot.tracks {
            for p in t.points { include(p.x, p.y) }
            for pose in t.poses { for p in pose.outline { include(p.x, p.y) } }
        }
        if !minX.isFinite { minX = -1; maxX = 1; minZ = -1; maxZ = 1 }
        // At least 2 m across, and a margin of 8 % (at least 0.3 m) around the content.
        let cx = (minX + maxX) / 2, cz = (minZ + maxZ) / 2
        let dx = max(maxX - minX, 2), dz = max(maxZ - minZ, 2)
        let margin = max(0.3, 0.08 * max(dx, dz))
        self.minX = cx - dx / 2 - margin; self.maxX = cx + dx / 2 + margin
        self.minZ = cz - dz / 2 - margin; self.maxZ = cz + dz / 2 + margin
        scale = min(PlanFrame.maxSide / (self.maxX - self.minX), PlanFrame.maxSide / (self.maxZ - self.minZ))
        // At least `minWidth` wide (room for the legend): widen the extent around its centre.
        if (self.maxX - self.minX) * scale < PlanFrame.minWidth {
            let half = PlanFrame.minWidth / scale / 2
            self.minX = cx - half; self.maxX = cx + half
        }
    }
    static let minWidth = 480.0
    func px(_ x: Double) -> Double { (x - minX) * scale }
    func pz(_ z: Double) -> Double { (z - minZ) * scale }
    var width: Double { (maxX - minX) * scale }
    var height: Double { (maxZ - minZ) * scale }
    /// The scale bar: a round length near a fifth of the width, and its length in pixels.
    var scaleBar: (metres: Double, pixels: Double) {
        let m = niceLength((maxX - minX) / 5)
        return (m, m * scale)
    }
}

/// Top-down plan: +X right, −Z (forward) up, fitted to its content, with a scale bar, a forward
/// arrow, entity labels placed without overlap, and a legend for every marker.
func planSVG(scene: SceneReport, snapshot: SceneSnapshot) -> String {
    // An entity's colour is the worst severity of its own violations and its children's
    // (a window is red when one of its buttons is).
    // (Paths keyed by their bytes: `PathKey`.)
    var worst: [PathKey: Severity] = [:]
    // A path seen at a severity as bad or worse changes nothing: its prefixes are already at least as bad.
    var seen: [PathKey: Severity] = [:]
    for v in scene.violations {
        for path in v.entities {
            let key = PathKey(path)
            if let old = seen[key], old <= v.severity { continue }
            seen[key] = v.severity
            for p in pathPrefixes(path) {
                let prefix = PathKey(p)
                if let old = worst[prefix], old <= v.severity { continue }
                worst[prefix] = v.severity
            }
        }
    }
    let f = PlanFrame(snapshot: snapshot, frames: scene.frames)
    let w = f.width, h = f.height
    // Moving content (`SceneSnapshot.tracks`): a third row of the legend explains its markers.
    var trackOf: [PathKey: Int] = [:]
    for (k, t) in snapshot.tracks.enumerated() where trackOf[PathKey(t.path)] == nil { trackOf[PathKey(t.path)] = k }
    let legendH = snapshot.tracks.isEmpty ? 54.0 : 76.0
    func seconds(_ frame: Int) -> String { "t = \(plainNumber(scene.frameRate > 0 ? Double(frame) / scene.frameRate : 0)) s" }
    /// The SVG shape of a box seen from above: its outline of x, z points as a polygon (a line for
    /// a flat upright panel, a window, whose outline has 2 points), else a rectangle of `fallback`
    /// (its extents), with the attributes given for each.
    func shape(_ outline: [SIMD2<Double>], fallback: (Double, Double, Double, Double),
               polygon: String, line: String, rect: String, title: String) -> String {
        if outline.count >= 3 {
            let points = outline.map { "\(n(f.px($0.x))),\(n(f.pz($0.y)))" }.joined(separator: " ")
            return "<polygon points=\"\(points)\" \(polygon)>\(title)</polygon>\n"
        } else if outline.count == 2 {
            let a = outline[0], b = outline[1]
            return "<line x1=\"\(n(f.px(a.x)))\" y1=\"\(n(f.pz(a.y)))\" x2=\"\(n(f.px(b.x)))\" y2=\"\(n(f.pz(b.y)))\" \(line) stroke-width=\"4\" stroke-linecap=\"round\">\(title)</line>\n"
        }
        let (x0, x1, z0, z1) = fallback
        let bw = max((x1 - x0) * f.scale, 2), bh = max((z1 - z0) * f.scale, 2)
        return "<rect x=\"\(n(f.px(x0)))\" y=\"\(n(f.pz(z0)))\" width=\"\(n(bw))\" height=\"\(n(bh))\" \(rect)>\(title)</rect>\n"
    }
    /// A moving entity's box in colour `c` (`shape`): faint and dashed where it starts, solid at a
    /// finding's worst frame.
    func trackShape(_ outline: [SIMD2<Double>], fallback: (Double, Double, Double, Double), colour c: String, faint: Bool,
                    title: String) -> String {
        let stroke = faint ? "stroke=\"\(c)\" stroke-opacity=\"0.6\" stroke-dasharray=\"4 3\"" : "stroke=\"\(c)\""
        let fill = "fill=\"\(c)\" fill-opacity=\"\(faint ? "0.08" : "0.35")\" \(stroke)\(faint ? "" : " stroke-width=\"2\"")"
        return shape(outline, fallback: fallback, polygon: fill, line: stroke, rect: fill, title: title)
    }
    /// The x/z extents of an outline (nil when empty).
    func extents(_ outline: [SIMD2<Double>]) -> (Double, Double, Double, Double)? {
        guard let p = outline.first else { return nil }
        return outline.reduce((p.x, p.x, p.y, p.y)) { r, q in (min(r.0, q.x), max(r.1, q.x), min(r.2, q.y), max(r.3, q.y)) }
    }
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))\" height=\"\(n(h + legendH))\" viewBox=\"0 0 \(n(w)) \(n(h + legendH))\" role=\"img\" aria-label=\"top-down plan\" font-family=\"system-ui,sans-serif\">\n"
    out += "<title>Top-down plan of \(Escape.html(scene.path))</title>\n"
    // Grid: every scale-bar length.
    let bar = f.scaleBar
    var g = (f.minX / bar.metres).rounded(.up) * bar.metres
    var lines = 0
    while g <= f.maxX && lines < 200 { out += "<line x1=\"\(n(f.px(g)))\" y1=\"0\" x2=\"\(n(f.px(g)))\" y2=\"\(n(h))\" stroke=\"#eceef1\"/>\n"; g += bar.metres; lines += 1 }
    g = (f.minZ / bar.metres).rounded(.up) * bar.metres
    while g <= f.maxZ && lines < 400 { out += "<line x1=\"0\" y1=\"\(n(f.pz(g)))\" x2=\"\(n(w))\" y2=\"\(n(f.pz(g)))\" stroke=\"#eceef1\"/>\n"; g += bar.metres; lines += 1 }
    for o in snapshot.boundaryOrigins.prefix(50) {
        out += "<circle cx=\"\(n(f.px(o.x)))\" cy=\"\(n(f.pz(o.y)))\" r=\"\(n(snapshot.boundaryRadius * f.scale))\" fill=\"none\" stroke=\"#c0261b\" stroke-width=\"1.5\"><title>boundary: \(fmt(snapshot.boundaryRadius, 2)) m around the boundary origin</title></circle>\n"
        out += "<circle cx=\"\(n(f.px(o.x)))\" cy=\"\(n(f.pz(o.y)))\" r=\"\(n(snapshot.fadeRadius * f.scale))\" fill=\"none\" stroke=\"#d17a00\" stroke-dasharray=\"5 3\"><title>fade zone starts at \(fmt(snapshot.fadeRadius, 2)) m</title></circle>\n"
        out += "<path d=\"M\(n(f.px(o.x) - 4)) \(n(f.pz(o.y)))h8M\(n(f.px(o.x))) \(n(f.pz(o.y) - 4))v8\" stroke=\"#c0261b\"/>\n"
    }
    var board = LabelBoard()
    var labels = ""
    // Footprints: unmarked first, so marked ones draw on top.
    // (Each footprint's worst severity looked up once, not per comparison: the same order.)
    let severities = snapshot.footprints.map { worst[PathKey($0.path)] }
    let order = severities.indices.sorted {
        let a = severities[$0].map { 3 - $0.rank } ?? 0, b = severities[$1].map { 3 - $0.rank } ?? 0
        return a != b ? a < b : $0 < $1
    }
    var ordered = order.map { snapshot.footprints[$0] }
    for (fp, sev) in zip(ordered, order.map { severities[$0] }) {
        let c = severityColor(sev)
        let title = "<title>\(Escape.html(elidedPath(fp.path))) (\(Escape.html(fp.kind)))\(sev.map { ": worst finding \($0.rawValue)" } ?? "")</title>"
        // A moving entity: faint and dashed where it is first shown (not where it rests before).
        if let k = trackOf[PathKey(fp.path)], let start = snapshot.tracks[k].poses.first {
            let startTitle = "<title>\(Escape.html(elidedPath(fp.path))) (\(Escape.html(fp.kind))) at its start, \(seconds(start.frame)) (it moves)\(sev.map { ": worst finding \($0.rawValue)" } ?? "")</title>"
            out += trackShape(start.outline, fallback: extents(start.outline) ?? (fp.minX, fp.maxX, fp.minZ, fp.maxZ),
                         colour: c, faint: true, title: startTitle)
            continue
        }
        out += shape(fp.outline, fallback: (fp.minX, fp.maxX, fp.minZ, fp.maxZ),
                     polygon: "fill=\"\(c)\" fill-opacity=\"0.22\" stroke=\"\(c)\" stroke-width=\"1.5\"", line: "stroke=\"\(c)\"",
                     rect: "fill=\"\(c)\" fill-opacity=\"0.22\" stroke=\"\(c)\"", title: title)
    }
    // A moving entity is labelled at its start.
    for (i, fp) in ordered.enumerated() {
        guard let k = trackOf[PathKey(fp.path)], let start = snapshot.tracks[k].poses.first, let e = extents(start.outline) else { continue }
        ordered[i].minX = e.0; ordered[i].maxX = e.1; ordered[i].minZ = e.2; ordered[i].maxZ = e.3
    }
    // Moving content: its path (dashed, a dot where it ends) and its box at the worst frame of each
    // finding about it or its elements (the views' frames: at most `SceneSnapshot.maxViews`).
    for t in snapshot.tracks {
        guard t.points.count >= 2, let last = t.points.last, let firstFrame = t.frames.first, let lastFrame = t.frames.last else { continue }
        let c = severityColor(worst[PathKey(t.path)])
        let name = Escape.html(elidedPath(t.path))
        // A point drawn where the one before it is drawn (the entity standing still) is left out.
        var drawn: [String] = []
        for p in t.points {
            let text = "\(n(f.px(p.x))),\(n(f.pz(p.y)))"
            if drawn.last != text { drawn.append(text) }
        }
        let points = drawn.joined(separator: " ")
        out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" stroke-linejoin=\"round\"><title>path of \(name), \(seconds(firstFrame))–\(plainNumber(scene.frameRate > 0 ? Double(lastFrame) / scene.frameRate : 0)) s</title></polyline>\n"
        out += "<circle cx=\"\(n(f.px(last.x)))\" cy=\"\(n(f.pz(last.y)))\" r=\"3\" fill=\"\(c)\"><title>\(name) at \(seconds(lastFrame))</title></circle>\n"
    }
    var posesDrawn = Set<String>()
    for severity in Severity.allCases where !snapshot.tracks.isEmpty {  // errors first, each in report order
        for v in scene.violations where v.severity == severity {
            guard posesDrawn.count < 200 else { break }
            for entity in v.entities {
                // The entity's own track, or its nearest moving ancestor's.
                guard let k = pathPrefixes(entity).reversed().lazy.compactMap({ trackOf[PathKey($0)] }).first,
                      let pose = snapshot.tracks[k].poses.first(where: { $0.frame == v.worstFrame }),
                      let e = extents(pose.outline), posesDrawn.insert("\(k) \(pose.frame)").inserted else { continue }
                let t = snapshot.tracks[k], c = severityColor(worst[PathKey(t.path)])
                let title = "<title>\(Escape.html(elidedPath(t.path))) at frame \(pose.frame) (\(seconds(pose.frame))), worst frame of \(Escape.html(v.rule))</title>"
                out += trackShape(pose.outline, fallback: e, colour: c, faint: false, title: title)
            }
        }
    }
    // Labels: marked entities first, then top-level ones; skipped where they would overlap.
    let labelled = zip(ordered, order.map { severities[$0] }).reversed().filter { $0.1 != nil || !$0.0.path.contains("/") }
    for (fp, sev) in labelled.prefix(400) {
        let text = shortLabel(fp.path.split(separator: "/").last.map(String.init) ?? fp.path, max: 22)
        let tw = Double(text.count) * 5.6 + 4
        let x0 = f.px(fp.minX), x1 = f.px(fp.maxX), z0 = f.pz(fp.minZ), z1 = f.pz(fp.maxZ)
        let cx = (x0 + x1) / 2 - tw / 2
        guard let (x, y) = board.place([(cx, z0 - 4), (cx, z1 + 12), (x1 + 4, (z0 + z1) / 2 + 4), (x0 - tw - 4, (z0 + z1) / 2 + 4)],
                                       width: tw, height: 10, bounds: (w, h)) else { continue }
        labels += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"10\" fill=\"\(severityText(sev))\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\"\(sev == nil ? "" : " font-weight=\"600\"")>\(Escape.html(text))<title>\(Escape.html(elidedPath(fp.path)))</title></text>\n"
    }
    if let first = snapshot.viewerPath.first {
        let points = snapshot.viewerPath.map { "\(n(f.px($0.x))),\(n(f.pz($0.y)))" }.joined(separator: " ")
        out += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#1d1d1f\" stroke-width=\"2\" stroke-linejoin=\"round\"><title>viewer path</title></polyline>\n"
        out += "<circle cx=\"\(n(f.px(first.x)))\" cy=\"\(n(f.pz(first.y)))\" r=\"5\" fill=\"#1d1d1f\"><title>viewer at t = 0</title></circle>\n"
    }
    // The viewer at each violation's worst frame.
    var marked = Set<Int>()
    for severity in Severity.allCases {  // errors first, each in report order
        for v in scene.violations where v.severity == severity {
            guard marked.count < 200 else { break }
            guard let i = snapshot.pathIndex(frame: v.worstFrame), marked.insert(i).inserted else { continue }
            let p = snapshot.viewerPath[i], x = f.px(p.x), z = f.pz(p.y), c = severityColor(v.severity)
            out += "<path d=\"M\(n(x - 5)) \(n(z - 5))L\(n(x + 5)) \(n(z + 5))M\(n(x - 5)) \(n(z + 5))L\(n(x + 5)) \(n(z - 5))\" stroke=\"\(c)\" stroke-width=\"2.5\"><title>viewer at frame \(v.worstFrame), worst frame of \(Escape.html(v.rule))</title></path>\n"
        }
    }
    // The measured distance of boundary findings: boundary origin → the viewer at the worst frame.
    var measuredBoundary = Set<String>()
    for v in scene.violations where v.rule.hasPrefix("boundary-") && v.unit == "m" {
        guard let o = snapshot.boundaryOrigins.first, let i = snapshot.pathIndex(frame: v.worstFrame),
              measuredBoundary.insert("\(i)").inserted else { continue }
        let p = snapshot.viewerPath[i]
        let x0 = f.px(o.x), z0 = f.pz(o.y), x1 = f.px(p.x), z1 = f.pz(p.y)
        out += "<path d=\"M\(n(x0)) \(n(z0))L\(n(x1)) \(n(z1))\" stroke=\"#1d1d1f\" stroke-width=\"1.2\" stroke-dasharray=\"4 2\"/>\n"
        let text = "\(plainNumber(v.measured)) m, limit \(plainNumber(v.threshold)) m"
        let tw = Double(text.count) * 6 + 8
        if let (x, y) = board.place([((x0 + x1) / 2 + 6, (z0 + z1) / 2), ((x0 + x1) / 2 - tw - 6, (z0 + z1) / 2)],
                                    width: tw, height: 12, bounds: (w, h)) {
            out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"11\" font-weight=\"600\" fill=\"#1d1d1f\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">\(Escape.html(text))<title>\(Escape.html(v.rule)) at frame \(v.worstFrame)</title></text>\n"
        }
    }
    out += labels
    // Forward arrow (top right) and scale bar (bottom left).
    let ax = w - 22
    out += "<g aria-label=\"forward\"><path d=\"M\(n(ax)) 34V12M\(n(ax - 5)) 19L\(n(ax)) 11L\(n(ax + 5)) 19\" stroke=\"#1d1d1f\" stroke-width=\"2\" fill=\"none\"/>"
    out += "<text x=\"\(n(ax))\" y=\"46\" font-size=\"9\" text-anchor=\"middle\" fill=\"#1d1d1f\">−z</text><title>forward: −z, where the viewer faces at t = 0</title></g>\n"
    let by = h - 12
    out += "<g aria-label=\"scale bar\"><rect x=\"8\" y=\"\(n(by - 14))\" width=\"\(n(bar.pixels + 8))\" height=\"22\" fill=\"#fff\" fill-opacity=\"0.85\"/>"
    out += "<path d=\"M12 \(n(by - 4))V\(n(by))H\(n(12 + bar.pixels))V\(n(by - 4))\" stroke=\"#1d1d1f\" stroke-width=\"1.5\" fill=\"none\"/>"
    out += "<text x=\"\(n(12 + bar.pixels / 2))\" y=\"\(n(by - 5))\" font-size=\"10\" text-anchor=\"middle\" fill=\"#1d1d1f\">\(fmtMetres(bar.metres))</text></g>\n"
    // Legend.
    let ly = h + 16, ly2 = h + 38
    out += "<rect x=\"0\" y=\"\(n(h))\" width=\"\(n(w))\" height=\"\(n(legendH))\" fill=\"#f6f7f9\"/>\n"
    out += "<g font-size=\"10\" fill=\"#1d1d1f\">"
    out += "<circle cx=\"12\" cy=\"\(n(ly - 3))\" r=\"4\" fill=\"#1d1d1f\"/><path d=\"M18 \(n(ly - 3))h16\" stroke=\"#1d1d1f\" stroke-width=\"2\"/><text x=\"38\" y=\"\(n(ly))\">viewer start, path</text>"
    out += "<path d=\"M140 \(n(ly - 7))l8 8m0 -8l-8 8\" stroke=\"#c0261b\" stroke-width=\"2.5\"/><text x=\"152\" y=\"\(n(ly))\">viewer at a worst frame</text>"
    out += "<circle cx=\"290\" cy=\"\(n(ly - 3))\" r=\"6\" fill=\"none\" stroke=\"#c0261b\" stroke-width=\"1.5\"/><text x=\"300\" y=\"\(n(ly))\">\(fmt(snapshot.boundaryRadius, 1)) m boundary</text>"
    out += "<circle cx=\"392\" cy=\"\(n(ly - 3))\" r=\"6\" fill=\"none\" stroke=\"#d17a00\" stroke-dasharray=\"3 2\"/><text x=\"402\" y=\"\(n(ly))\">\(fmt(snapshot.fadeRadius, 1)) m fade</text>"
    var lx = 8.0
    for (sev, name) in [(Severity?.some(.error), "error"), (.warning, "warning"), (.info, "info"), (nil, "no finding")] {
        out += "<rect x=\"\(n(lx))\" y=\"\(n(ly2 - 9))\" width=\"10\" height=\"10\" fill=\"\(severityColor(sev))\" fill-opacity=\"0.3\" stroke=\"\(severityColor(sev))\"/><text x=\"\(n(lx + 14))\" y=\"\(n(ly2))\">\(name)</text>"
        lx += name == "no finding" ? 70 : Double(name.count) * 6 + 24
    }
    out += "<text x=\"\(n(lx + 4))\" y=\"\(n(ly2))\" fill=\"#5b5e66\">entities by worst finding</text>"
    if !snapshot.tracks.isEmpty {
        // Moving content: its path and end, its box where it is first shown, at a worst frame.
        let ly3 = h + 60
        out += "<path d=\"M8 \(n(ly3 - 3))h22\" stroke=\"#5b5e66\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><circle cx=\"32\" cy=\"\(n(ly3 - 3))\" r=\"3\" fill=\"#5b5e66\"/><text x=\"40\" y=\"\(n(ly3))\">moving content's path, end</text>"
        out += "<rect x=\"196\" y=\"\(n(ly3 - 9))\" width=\"10\" height=\"10\" fill=\"#5b5e66\" fill-opacity=\"0.08\" stroke=\"#5b5e66\" stroke-opacity=\"0.6\" stroke-dasharray=\"4 3\"/><text x=\"210\" y=\"\(n(ly3))\">at its start</text>"
        out += "<rect x=\"290\" y=\"\(n(ly3 - 9))\" width=\"10\" height=\"10\" fill=\"#5b5e66\" fill-opacity=\"0.35\" stroke=\"#5b5e66\" stroke-width=\"2\"/><text x=\"304\" y=\"\(n(ly3))\">at a finding's worst frame</text>"
    }
    out += "</g>\n"
    out += "</svg>\n"
    return out
}

/// `fmtValue` without a trailing ".0" or ".00" ("56 pt", "2.4 m", "1.35 m").
func plainNumber(_ x: Double) -> String {
    var t = fmtValue(x)
    if t.contains(".") {
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
    }
    return t
}

func fmtMetres(_ m: Double) -> String {
    m >= 1 ? "\(fmt(m, 0)) m" : m >= 0.01 ? "\(fmt(m * 100, 0)) cm" : "\(fmt(m * 1000, 0)) mm"
}

/// What a view draws as the measured quantity of a finding.
struct ViewMeasure {
    var unit: String
    var measured: Double
    var threshold: Double
    var lead: [String]
    /// The rule: an angle is off the line of sight for most, but fov-vertical-comfort's is an
    /// elevation (or a layout's height).
    var rule: String
    /// Entity pairs of all members (folded findings mark every pair).
    var pairs: [[String]]
    /// The threshold is a maximum (the rule's, or its sub-check's, `worse` is `.higher`): an
    /// overlap or a width that may be at most the threshold, not a spacing that must reach it.
    var isMaximum: Bool
    /// What a maximum limits, from the rule's threshold parameter (`maxOverlap`: "overlap"); nil
    /// when its name does not say (or for a sub-check's own quantity).
    var limited: String?
    init(group: ViolationGroup, lead: ReportViolation) {
        unit = lead.unit; measured = lead.measured; threshold = lead.threshold; self.lead = lead.entities; rule = group.rule
        pairs = group.members.map { $0.entities }.filter { $0.count == 2 }
        (isMaximum, limited) = Self.limit(rule: group.rule, unit: lead.unit, measured: lead.measured, threshold: lead.threshold)
    }

    /// Whether the threshold of `rule`'s violations in `unit` is a maximum, and what it limits
    /// (`isMaximum`, `limited`). A sub-check is found by its unit (a point-equivalent measure is the
    /// points one seen as an angle); a rule the catalog does not know (a hand-edited report) is
    /// judged by which side of the threshold its value lies.
    static func limit(rule: String, unit: String, measured: Double, threshold: Double) -> (Bool, String?) {
        guard let meta = RuleCatalog.metadata(id: rule) else { return (measured > threshold, nil) }
        func family(_ u: String) -> String { u == "pt_eq" ? "pt" : u }
        if family(unit) != family(meta.unit), let sub = meta.subchecks.first(where: { family($0.unit) == family(unit) }) {
            return ((sub.worse ?? meta.worse) == .higher, nil)
        }
        guard meta.worse == .higher else { return (false, nil) }
        // "maxOverlap" → "overlap", "maxExtent" → "extent" (a single word; none for "maxAngle"-like
        // keys of several words, whose label then says "at most").
        guard let key = meta.thresholdKey, key.hasPrefix("max"), key.count > 3 else { return (true, nil) }
        let rest = key.dropFirst(3)
        guard rest.first?.isUppercase == true, !rest.dropFirst().contains(where: \.isUppercase) else { return (true, nil) }
        return (true, rest.lowercased())
    }

    /// "44 pt ↔ 60 pt needed", "overlap 14 pt, 0 pt allowed" and the like: the label of the
    /// measured quantity.
    var label: String {
        let m = plainNumber(measured), t = plainNumber(threshold)
        switch unit {
        case "pt", "pt_eq":
            if isMaximum {
                return limited.map { "\($0) \(m) \(unit), \(t) \(unit) allowed" } ?? "\(m) \(unit), at most \(t) \(unit) allowed"
            }
            return lead.count == 2 ? "\(m) \(unit) ↔ \(t) \(unit) needed" : "\(m) \(unit), \(t) \(unit) needed"
        case "deg": return rule == "fov-vertical-comfort" ? "\(m)° from eye level, limit \(t)°" : "\(m)° off-axis, limit \(t)°"
        case "m": return "\(m) m, limit \(t) m"
        // A yes/no check's numbers, a count or a duration against 0, say nothing (`numbersSayNothing`);
        // another count is a whole number.
        case _ where numbersSayNothing(unit: unit, measured, threshold): return ""
        case "count": return "\(m), threshold \(t)"
        default: return "measured \(m) \(unit), threshold \(t) \(unit)"
        }
    }
}

/// How a picture of the view maps directions from the eye (azimuth right, elevation up, degrees,
/// head frame) to its pixels, `w` × `h`.
///
/// Two projections (hig-rules §A4: a flat window is not a constant-angle surface):
/// - **Perspective** (gnomonic, rectilinear: what a camera at the eye sees) for pictures at most
///   ±60° across: the detail views (±4…30°). Straight edges stay straight, so a flat window is
///   drawn as a quadrilateral with its elements inside it. The camera is level and turned to
///   `facing` (the azimuth the marked entities' window or volume is seen at: `facing: viewer`
///   turns a top-level entity about +Y towards the eye, and windows are upright), its picture
///   shifted to `center` (a shift lens, as architecture is photographed): an upright plane facing
///   the eye is then drawn as a rectangle, so a row of buttons at one height shares one top line
///   and a column one left edge. Where `center` is more than 50° from that level direction, the
///   camera points at `center` itself.
/// - **Equirectangular** (azimuth and elevation as x and y) for wider pictures: the overview's
///   ±100° by ±62.5° cannot be a perspective (the tangent grows without bound towards 90°). Boxes
///   are drawn from their silhouettes (`ViewBox.outline`), each side the great-circle arc between
///   two corners sampled until within a quarter pixel of the curve, so a flat window's straight top
///   edge is drawn as the curve it is in these coordinates (highest straight ahead) and its
///   elements, drawn the same way, stay inside it; a row along it follows that curve.
/// A box without an outline (a report saved before outlines) is drawn from its azimuth/elevation
/// extents, as before.
struct ViewProjection {
    let w: Double, h: Double
    let center: SIMD2<Double>
    let halfAz: Double
    let perspective: Bool
    /// Perspective: the camera's direction, right and up; pixels per unit of tangent; the
    /// picture's centre in tangent units.
    private let forward, right, up: SIMD3<Double>
    private let k: Double
    private let shift: SIMD2<Double>

    init(w: Double, h: Double, center: SIMD2<Double>, halfAz: Double, facing: Double? = nil) {
        self.w = w; self.h = h; self.center = center; self.halfAz = halfAz
        perspective = halfAz <= 60 && halfAz > 0.01
        let k0 = perspective ? (w / 2) / tan(halfAz * .pi / 180) : 1
        let yaw = facing.flatMap { $0.isFinite ? $0 : nil } ?? center.x
        let dAz = (center.x - yaw) * .pi / 180, el = center.y * .pi / 180
        if abs(center.x - yaw) <= 50, abs(center.y) <= 50 {
            let a = yaw * .pi / 180
            forward = SIMD3(sin(a), 0, -cos(a))
            right = SIMD3(cos(a), 0, sin(a))
            up = SIMD3(0, 1, 0)
            shift = SIMD2(tan(dAz), tan(el) / cos(dAz))
            // The magnification at the shifted centre is 1 / cos² of its azimuth from the camera
            // across and 1 / (cos² el · cos az) up: scaled down by the larger, so what the
            // detail's ±halfAz holds still fits.
            k = k0 * min(cos(dAz) * cos(dAz), cos(el) * cos(el) * cos(dAz))
        } else {
            let a = center.x * .pi / 180, e = min(max(center.y, -89), 89) * .pi / 180
            forward = SIMD3(cos(e) * sin(a), sin(e), -cos(e) * cos(a))
            right = SIMD3(cos(a), 0, sin(a))
            up = SIMD3(-sin(e) * sin(a), cos(e), sin(e) * cos(a))
            shift = .zero
            k = k0
        }
    }

    /// iOS (`SceneSnapshot.Screen`): the device's camera, a perspective along the head frame's −z
    /// (the camera's line of sight, at the screen's centre) whose image fills the screen: a point
    /// `t` tangent units right of the centre is `(screen.x / 2) / tan(horizontalFieldOfView / 2)`
    /// points right of the screen's centre (and up likewise). The picture, `w` × `h` pixels, shows
    /// the screen's region `crop` (x0, y0, x1, y1 in points from the top-left; the whole screen by
    /// default), `w / (x1 − x0)` pixels per point.
    init(screen: SIMD2<Double>, horizontalFieldOfView hfov: Double, w: Double, h: Double,
         crop: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil) {
        self.w = w; self.h = h
        center = .zero
        halfAz = hfov / 2
        perspective = true
        forward = SIMD3(0, 0, -1); right = SIMD3(1, 0, 0); up = SIMD3(0, 1, 0)
        let half = min(max(hfov, 1e-3), 179) / 2 * .pi / 180
        let pointsPerTangent = (screen.x / 2) / tan(half)
        let r = crop ?? (0, 0, screen.x, screen.y)
        let scale = r.x1 > r.x0 ? w / (r.x1 - r.x0) : 1
        k = pointsPerTangent * scale
        shift = SIMD2(((r.x0 + r.x1) / 2 - screen.x / 2) / pointsPerTangent, (screen.y / 2 - (r.y0 + r.y1) / 2) / pointsPerTangent)
    }

    static func direction(_ az: Double, _ el: Double) -> SIMD3<Double> {
        let a = az * .pi / 180, e = el * .pi / 180
        return SIMD3(cos(e) * sin(a), sin(e), -cos(e) * cos(a))
    }

    /// Equirectangular x of an azimuth and y of an elevation.
    func px(_ az: Double) -> Double { (az - center.x + halfAz) / (2 * halfAz) * w }
    func py(_ el: Double) -> Double { (halfAz * 0.625 - (el - center.y)) / (2 * halfAz * 0.625) * h }

    /// Equirectangular: the azimuth at pixel `p`.
    private func azimuth(_ p: SIMD2<Double>) -> Double { p.x / w * 2 * halfAz + center.x - halfAz }

    /// Equirectangular pixel of a direction `v`, its azimuth taken within 180° of `nearAz`.
    private func flat(_ v: SIMD3<Double>, nearAz: Double) -> SIMD2<Double> {
        let d = SceneSnapshot.azimuthElevation(v)
        var az = d.x
        if nearAz.isFinite, abs(nearAz) < 1e6 { az += 360 * ((nearAz - az) / 360).rounded() }
        return SIMD2(px(az), py(d.y))
    }

    /// Perspective pixel of a direction `v` (any length); nil when not in front of the picture.
    private func camera(_ v: SIMD3<Double>) -> SIMD2<Double>? {
        let d = (v * forward).sum()
        guard d > 1e-9 else { return nil }
        return SIMD2(w / 2 + k * ((v * right).sum() / d - shift.x), h / 2 - k * ((v * up).sum() / d - shift.y))
    }

    /// The pixel of a direction (azimuth, elevation); nil when behind a perspective picture.
    func point(az: Double, el: Double) -> SIMD2<Double>? {
        perspective ? camera(Self.direction(az, el)) : SIMD2(px(az), py(el))
    }

    /// The picture's polygon (not clipped to the picture) of the spherical polygon with corners
    /// `corners` (azimuth, elevation), each side the great-circle arc between neighbours.
    func polygon(_ corners: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let dirs = corners.map { Self.direction($0.x, $0.y) }
        guard dirs.count >= 2 else { return [] }
        if perspective {
            // Arcs are straight here: the corners, the polygon cut where it passes behind
            // (sides as chords, which project onto the arcs; cut just in front of the eye's plane).
            let eps = 0.02
            var kept: [SIMD3<Double>] = []
            for i in dirs.indices {
                let a = dirs[i], b = dirs[(i + 1) % dirs.count]
                let da = (a * forward).sum() - eps, db = (b * forward).sum() - eps
                if da >= 0 { kept.append(a) }
                if (da >= 0) != (db >= 0) { kept.append(a + (b - a) * (da / (da - db))) }
            }
            return kept.compactMap(camera)
        }
        var out: [SIMD2<Double>] = []
        var pa = SIMD2(px(corners[0].x), py(corners[0].y))
        for i in dirs.indices {
            let a = dirs[i], b = dirs[(i + 1) % dirs.count]
            out.append(pa)
            let pb = flat(b, nearAz: azimuth(pa))
            arc(a, pa, b, pb, depth: 0, into: &out)
            pa = pb
        }
        return out
    }

    /// Equirectangular: the points strictly between `a` and `b` on their great-circle arc, halved
    /// until the arc's midpoint is within 0.25 px of the chord's (at most 2⁵ pieces).
    private func arc(_ a: SIMD3<Double>, _ pa: SIMD2<Double>, _ b: SIMD3<Double>, _ pb: SIMD2<Double>, depth: Int,
                     into out: inout [SIMD2<Double>]) {
        let s = a + b
        let l = (s * s).sum().squareRoot()
        guard depth < 5, l > 1e-9 else { return }
        let m = s / l
        let pm = flat(m, nearAz: azimuth(pa))
        let mid = (pa + pb) / 2
        guard ((pm - mid) * (pm - mid)).sum() > 0.0625 else { return }
        arc(a, pa, m, pm, depth: depth + 1, into: &out)
        out.append(pm)
        arc(m, pm, b, pb, depth: depth + 1, into: &out)
    }

    /// A box's polygon: its outline, or else its azimuth/elevation extents (in perspective their
    /// sides of one elevation sampled: they are not great circles).
    func polygon(of b: SceneSnapshot.ViewBox) -> [SIMD2<Double>] {
        if b.outline.count >= 3 { return polygon(b.outline) }
        return extents(minAz: b.minAz, maxAz: b.maxAz, minEl: b.minEl, maxEl: b.maxEl)
    }

    /// The region between two azimuths and two elevations.
    func extents(minAz: Double, maxAz: Double, minEl: Double, maxEl: Double) -> [SIMD2<Double>] {
        guard perspective else {
            return [SIMD2(px(minAz), py(maxEl)), SIMD2(px(maxAz), py(maxEl)), SIMD2(px(maxAz), py(minEl)), SIMD2(px(minAz), py(minEl))]
        }
        let steps = max(1, min(16, Int(((maxAz - minAz) / 2).rounded(.up))))
        var corners: [SIMD2<Double>] = []
        for i in 0...steps { corners.append(SIMD2(minAz + (maxAz - minAz) * Double(i) / Double(steps), maxEl)) }
        for i in 0...steps { corners.append(SIMD2(maxAz - (maxAz - minAz) * Double(i) / Double(steps), minEl)) }
        return polygon(corners)
    }

    /// `points` clipped to the picture (Sutherland–Hodgman against its four sides).
    func clipped(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var poly = points
        for side in 0..<4 {
            guard !poly.isEmpty else { break }
            func inside(_ p: SIMD2<Double>) -> Bool {
                switch side { case 0: return p.x >= 0; case 1: return p.x <= w; case 2: return p.y >= 0; default: return p.y <= h }
            }
            func cut(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> SIMD2<Double> {
                let t: Double
                switch side {
                case 0: t = (0 - p.x) / (q.x - p.x)
                case 1: t = (w - p.x) / (q.x - p.x)
                case 2: t = (0 - p.y) / (q.y - p.y)
                default: t = (h - p.y) / (q.y - p.y)
                }
                var r = p + (q - p) * t
                // Exactly on the side (no 1e-14 beyond it).
                switch side { case 0: r.x = 0; case 1: r.x = w; case 2: r.y = 0; default: r.y = h }
                return r
            }
            var next: [SIMD2<Double>] = []
            for i in poly.indices {
                let p = poly[i], q = poly[(i + 1) % poly.count]
                let ip = inside(p), iq = inside(q)
                if ip { next.append(p) }
                if ip != iq { next.append(cut(p, q)) }
            }
            poly = next
        }
        return poly
    }

    /// The part inside the picture of the straight line through `p` and `q`.
    func across(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> (SIMD2<Double>, SIMD2<Double>)? {
        let d = q - p
        var t0 = -Double.infinity, t1 = Double.infinity
        for (pv, dv, lo, hi) in [(p.x, d.x, 0.0, w), (p.y, d.y, 0.0, h)] {
            if abs(dv) < 1e-12 {
                guard pv >= lo, pv <= hi else { return nil }
            } else {
                let a = (lo - pv) / dv, b = (hi - pv) / dv
                t0 = max(t0, min(a, b)); t1 = min(t1, max(a, b))
            }
        }
        guard t0.isFinite, t1.isFinite, t0 < t1 else { return nil }
        return (p + d * t0, p + d * t1)
    }
}

/// The bounds (min x, min y, max x, max y) of `points`; nil when empty.
private func bounds(_ points: [SIMD2<Double>]) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
    guard let first = points.first else { return nil }
    var b = (x0: first.x, y0: first.y, x1: first.x, y1: first.y)
    for p in points.dropFirst() { b.x0 = min(b.x0, p.x); b.y0 = min(b.y0, p.y); b.x1 = max(b.x1, p.x); b.y1 = max(b.y1, p.y) }
    return b
}

private func points(_ p: [SIMD2<Double>]) -> String { p.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") }

/// The viewer's view of an iOS scene drawn as its device's screen (`viewSVG`'s `screen`): the
/// screen's region `crop` (points from the top-left; nil: the whole screen) seen through the camera
/// (`ViewProjection.init(screen:…)`).
struct ScreenPicture {
    var screen: SceneSnapshot.Screen
    var horizontalFieldOfView: Double
    var crop: (x0: Double, y0: Double, x1: Double, y1: Double)?
    /// The picture's size in pixels: the whole screen fitted into 480 × 480 (a portrait iPhone
    /// 221 × 480), a crop into 480 × 300.
    var size: (w: Double, h: Double) {
        let r = crop ?? (0, 0, screen.size.x, screen.size.y)
        let cw = max(r.x1 - r.x0, 1e-6), ch = max(r.y1 - r.y0, 1e-6)
        let s = crop == nil ? min(480 / cw, 480 / ch) : min(480 / cw, 300 / ch)
        return (cw * s, ch * s)
    }

    /// The region of the screen a detail shows around `marked` (the bounds, in screen points, of the
    /// marked entities as the screen shows them): 16:10, 1.5 times their size (at least 64 × 40
    /// pt), moved to lie on the screen; nil when they are not on the screen, or the region would
    /// not be smaller than half the screen's width (the screen picture shows them well enough).
    static func detailCrop(screen: SIMD2<Double>, marked b: (x0: Double, y0: Double, x1: Double, y1: Double))
        -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        let cw = max((b.x1 - b.x0) * 1.5, (b.y1 - b.y0) * 1.5 * 1.6, 64), ch = cw / 1.6
        guard cw.isFinite, cw <= screen.x / 2, ch <= screen.y else { return nil }
        let x0 = min(max((b.x0 + b.x1) / 2 - cw / 2, 0), screen.x - cw)
        let y0 = min(max((b.y0 + b.y1) / 2 - ch / 2, 0), screen.y - ch)
        return (x0, y0, x0 + cw, y0 + ch)
    }
}

/// The view from the eye: azimuth right, elevation up, with the comfort field of view dashed, the
/// marked entities labelled and the measured quantity drawn (`measure`).
/// `center` and `halfAz` pick the window: by default ±100° by ±62.5° around straight ahead (16:10),
/// equirectangular; the detail view zooms onto small marked entities in perspective
/// (`ViewProjection`: why the two).
/// With `screen` (an iOS scene) the picture is the device's screen instead (`center` and `halfAz`
/// unused): the camera's view filling it, what is outside it left out, head-anchored (screen)
/// content where it lands on it, and no comfort field of view (the screen is the camera's view).
func viewSVG(view: SceneSnapshot.View, highlight: Set<PathKey>, fov: SIMD2<Double>, severity: Severity,
             measure: ViewMeasure? = nil, annotate: Bool = true, center: SIMD2<Double> = .zero, halfAz: Double = 100,
             screen: ScreenPicture? = nil) -> String {
    let (w, h) = screen?.size ?? (480.0, 300.0)
    let foot = screen == nil ? 22.0 : 36.0
    // The azimuth the first marked entity's top-level window or volume is seen at (its centre's):
    // the detail's camera faces it (`ViewProjection`).
    var facing: Double?
    if halfAz < 100 && screen == nil {
        let roots = Dictionary(view.boxes.filter { !$0.path.contains("/") }.map { (PathKey($0.path), $0) }, uniquingKeysWith: { a, _ in a })
        for b in view.boxes where highlight.contains(path: b.path) {
            let root = b.path.split(separator: "/", maxSplits: 1).first.map(String.init) ?? b.path
            if let r = roots[PathKey(root)] { facing = r.centerAz; break }
        }
    }
    let proj = screen.map { ViewProjection(screen: $0.screen.size, horizontalFieldOfView: $0.horizontalFieldOfView, w: w, h: h, crop: $0.crop) }
        ?? ViewProjection(w: w, h: h, center: center, halfAz: halfAz, facing: facing)
    let detail = screen.map { $0.crop != nil } ?? (halfAz < 100)
    let c = severityColor(severity), tc = severityText(severity)
    let what = screen == nil ? (detail ? "detail of the view" : "view") : (detail ? "detail of the screen" : "screen")
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))\" height=\"\(n(h + foot))\" viewBox=\"0 0 \(n(w)) \(n(h + foot))\" role=\"img\" aria-label=\"\(what) at frame \(view.frame)\" font-family=\"system-ui,sans-serif\">\n"
    out += "<rect x=\"0\" y=\"0\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"#f4f6f8\"/>\n"
    let fovTitle = "<title>comfortable field of view, \(fmt(fov.x, 0))° × \(fmt(fov.y, 0))°</title>"
    if let screen {
        // The camera's line of sight (the screen's centre): a vertical and a horizontal line.
        if let o = proj.point(az: 0, el: 0) {
            for (p, q) in [(o, o + SIMD2(0, 1)), (o, o + SIMD2(1, 0))] {
                guard let (s, e) = proj.across(p, q) else { continue }
                out += "<line x1=\"\(n(s.x))\" y1=\"\(n(s.y))\" x2=\"\(n(e.x))\" y2=\"\(n(e.y))\" stroke=\"#d5d9e0\"/>\n"
            }
        }
        out += "<title>\(Escape.html(screen.screen.label)): the camera's \(fmt(fov.x, 1))° × \(fmt(fov.y, 1))° view</title>\n"
    } else if proj.perspective {
        // Straight ahead's vertical (azimuth 0) and the horizon (elevation 0) are great circles:
        // straight lines through two of their points.
        let el = min(max(center.y, -80), 80), az = center.x
        for (a, b) in [((0.0, el - 5), (0.0, el + 5)), ((az - 5, 0.0), (az + 5, 0.0))] {
            guard let p = proj.point(az: a.0, el: a.1), let q = proj.point(az: b.0, el: b.1),
                  let (s, e) = proj.across(p, q) else { continue }
            out += "<line x1=\"\(n(s.x))\" y1=\"\(n(s.y))\" x2=\"\(n(e.x))\" y2=\"\(n(e.y))\" stroke=\"#d5d9e0\"/>\n"
        }
        // Not clipped (its sides along the picture's edges would be drawn dashed): what is beyond
        // the picture is not shown, and the footer covers what is below.
        let region = proj.extents(minAz: -fov.x / 2, maxAz: fov.x / 2, minEl: -fov.y / 2, maxEl: fov.y / 2)
        if region.count >= 3 {
            out += "<polygon points=\"\(points(region))\" fill=\"none\" stroke=\"#5b5e66\" stroke-dasharray=\"6 4\">\(fovTitle)</polygon>\n"
        }
    } else {
        out += "<line x1=\"\(n(proj.px(0)))\" y1=\"0\" x2=\"\(n(proj.px(0)))\" y2=\"\(n(h))\" stroke=\"#d5d9e0\"/>\n"
        out += "<line x1=\"0\" y1=\"\(n(proj.py(0)))\" x2=\"\(n(w))\" y2=\"\(n(proj.py(0)))\" stroke=\"#d5d9e0\"/>\n"
        out += "<rect x=\"\(n(proj.px(-fov.x / 2)))\" y=\"\(n(proj.py(fov.y / 2)))\" width=\"\(n(proj.px(fov.x / 2) - proj.px(-fov.x / 2)))\" height=\"\(n(proj.py(-fov.y / 2) - proj.py(fov.y / 2)))\" fill=\"none\" stroke=\"#5b5e66\" stroke-dasharray=\"6 4\">\(fovTitle)</rect>\n"
    }
    // Far first, so nearer content draws on top; marked entities last.
    // (Each box's mark looked up once, not per comparison: the same comparisons, the same order.)
    let keys = view.boxes.enumerated().map { (hot: highlight.contains(path: $0.element.path), distance: $0.element.distance, index: $0.offset) }
    let ordered = keys.sorted { a, b in
        a.hot != b.hot ? b.hot : a.distance > b.distance
    }
    /// A marked box as drawn: its polygon's bounds, whole (`full`) and inside the picture (`shown`).
    struct Drawn {
        var box: SceneSnapshot.ViewBox
        var full: (x0: Double, y0: Double, x1: Double, y1: Double)
        var shown: (x0: Double, y0: Double, x1: Double, y1: Double)
        var centre: SIMD2<Double> { SIMD2((full.x0 + full.x1) / 2, (full.y0 + full.y1) / 2) }
    }
    var hotBoxes: [Drawn] = []
    /// Marked boxes entirely outside the picture (behind the viewer, say).
    var offPicture: [SceneSnapshot.ViewBox] = []
    for k in ordered {
        let b = view.boxes[k.index], hot = k.hot
        let polygon = proj.polygon(of: b)
        let inside = proj.clipped(polygon)
        guard let full = bounds(polygon), let shown = bounds(inside) else {
            if hot { offPicture.append(b) }
            continue
        }
        let col = hot ? c : "#8e8e93"
        // On a device's screen the app's UI is a screen-size window over the camera view: a light
        // veil, so the world behind it (the placed objects) still shows.
        let veil = screen == nil ? "0.7" : "0.15"
        let style = "fill=\"\(hot ? col : "#ffffff")\" fill-opacity=\"\(hot ? "0.35" : veil)\" stroke=\"\(col)\" stroke-width=\"\(hot ? "2" : "1")\""
        let title = "<title>\(Escape.html(elidedPath(b.path))) at \(fmt(b.distance, 2)) m</title>"
        if shown.x1 - shown.x0 < 1.5 || shown.y1 - shown.y0 < 1.5 || inside.count < 3 {
            // Smaller than a pixel and a half: a visible mark.
            out += "<rect x=\"\(n(shown.x0))\" y=\"\(n(shown.y0))\" width=\"\(n(max(shown.x1 - shown.x0, 1.5)))\" height=\"\(n(max(shown.y1 - shown.y0, 1.5)))\" \(style)>\(title)</rect>\n"
        } else {
            out += "<polygon points=\"\(points(inside))\" \(style)>\(title)</polygon>\n"
        }
        if hot { hotBoxes.append(Drawn(box: b, full: full, shown: shown)) }
    }
    // The measured quantity.
    var anchor: (Double, Double)?
    if let m = measure, annotate {
        let byPath = Dictionary(hotBoxes.map { (PathKey($0.box.path), $0) }, uniquingKeysWith: { a, _ in a })
        switch m.unit {
        case "pt", "pt_eq":
            for pair in m.pairs.prefix(60) {
                guard let a = byPath[PathKey(pair[0])], let b = byPath[PathKey(pair[1])] else { continue }
                let isLead = pair == m.lead
                let pa = a.centre, pb = b.centre
                out += "<path d=\"M\(n(pa.x)) \(n(pa.y))L\(n(pb.x)) \(n(pb.y))\" stroke=\"\(isLead ? "#1d1d1f" : c)\" stroke-width=\"\(isLead ? "1.5" : "1")\" marker-start=\"none\"/>\n"
                for p in [pa, pb] { out += "<circle cx=\"\(n(p.x))\" cy=\"\(n(p.y))\" r=\"2\" fill=\"#1d1d1f\"/>\n" }
                if isLead { anchor = ((pa.x + pb.x) / 2, (pa.y + pb.y) / 2) }
            }
            if m.lead.count == 1, let b = byPath[PathKey(m.lead[0])] {
                // A dimension line under the box, across its width.
                let x0 = b.full.x0, x1 = b.full.x1, y = min(h - 4, b.full.y1 + 6)
                out += "<path d=\"M\(n(x0)) \(n(y - 3))v6M\(n(x1)) \(n(y - 3))v6M\(n(x0)) \(n(y))H\(n(x1))\" stroke=\"#1d1d1f\" stroke-width=\"1.2\"/>\n"
                anchor = ((x0 + x1) / 2, y + 2)
            }
        case "deg":
            if m.lead.count == 1, let b = byPath[PathKey(m.lead[0])], let o = proj.point(az: 0, el: 0) {
                let e = b.centre
                out += "<path d=\"M\(n(o.x)) \(n(o.y))L\(n(e.x)) \(n(e.y))\" stroke=\"#1d1d1f\" stroke-width=\"1.2\" stroke-dasharray=\"3 2\"/>\n"
                out += "<circle cx=\"\(n(o.x))\" cy=\"\(n(o.y))\" r=\"3\" fill=\"#1d1d1f\"><title>straight ahead</title></circle>\n"
                anchor = ((o.x + e.x) / 2, (o.y + e.y) / 2)
            }
        case "m":
            if m.lead.count == 1, let b = byPath[PathKey(m.lead[0])] { anchor = (b.centre.x, b.full.y0 - 4) }
        default: break
        }
        if let (ax, ay) = anchor {
            let text = m.label
            let tw = Double(text.count) * 6.2 + 8
            let x = min(max(2, ax - tw / 2), w - tw - 2), y = min(max(14, ay - 6), h - 4)
            out += "<rect x=\"\(n(x))\" y=\"\(n(y - 12))\" width=\"\(n(tw))\" height=\"16\" rx=\"3\" fill=\"#fff\" fill-opacity=\"0.92\" stroke=\"\(c)\"/>"
            out += "<text x=\"\(n(x + 4))\" y=\"\(n(y))\" font-size=\"11\" font-weight=\"600\" fill=\"#1d1d1f\">\(Escape.html(text))</text>\n"
        }
    }
    // Nothing marked is in the overview (content beside or behind the viewer): an arrow at the
    // edge on its side, at its elevation, says where it is.
    /// A triangle at the left or right edge, at height `y`, pointing out; `base`: its inner side's x.
    func sideArrow(right: Bool, y: Double) -> (d: String, base: Double) {
        let x = right ? w - 4 : 4, base = right ? x - 14 : x + 14
        return ("M\(n(x)) \(n(y))L\(n(base)) \(n(y - 9))L\(n(base)) \(n(y + 9))Z", base)
    }
    if !detail, hotBoxes.isEmpty, let b = offPicture.first, screen != nil {
        // The screen: an arrow at the edge the direction leaves it by (left or right when it is
        // further out across than up or down, in halves of the field of view).
        let across = abs(b.centerAz) / max(fov.x / 2, 1e-6) >= abs(b.centerEl) / max(fov.y / 2, 1e-6)
        let o = proj.point(az: b.centerAz, el: b.centerEl)
        let text = "\(shortLabel(b.path, max: 30)): off the screen, \(fmt(abs(b.centerAz), 0))° \(b.centerAz >= 0 ? "right" : "left"), \(fmt(abs(b.centerEl), 0))° \(b.centerEl >= 0 ? "up" : "down")"
        let path: String
        if across {
            path = sideArrow(right: b.centerAz >= 0, y: min(max(o?.y ?? h / 2, 14), h - 14)).d
        } else {
            let down = b.centerEl < 0, x = min(max(o?.x ?? w / 2, 14), w - 14)
            let y = down ? h - 4 : 4, base = down ? y - 14 : y + 14
            path = "M\(n(x)) \(n(y))L\(n(x - 9)) \(n(base))L\(n(x + 9)) \(n(base))Z"
        }
        out += "<path d=\"\(path)\" fill=\"\(c)\"><title>\(Escape.html(text))</title></path>\n"
    } else if !detail, hotBoxes.isEmpty, let b = offPicture.first {
        let right = b.centerAz >= 0, y = min(max(proj.py(b.centerEl), 14), h - 14)
        let (d, base) = sideArrow(right: right, y: y)
        let side = abs(b.centerAz) > 135 ? "behind the viewer" : "to the \(right ? "right" : "left")"
        let text = "\(shortLabel(b.path, max: 30)): \(fmt(abs(b.centerAz), 0))° \(side)"
        out += "<path d=\"\(d)\" fill=\"\(c)\"><title>\(Escape.html(text))</title></path>\n"
        out += "<text x=\"\(n(right ? base - 4 : base + 4))\" y=\"\(n(y + 4))\" font-size=\"11\" font-weight=\"600\" text-anchor=\"\(right ? "end" : "start")\" fill=\"\(tc)\" stroke=\"#f4f6f8\" stroke-width=\"3\" paint-order=\"stroke\">\(Escape.html(text))</text>\n"
    }
    // Labels of the marked entities: beside the box when few, else numbered with a list.
    var board = LabelBoard()
    if let (ax, ay) = anchor { board.taken.append((ax - 120, ay - 20, ax + 120, ay + 6)) }
    if hotBoxes.count <= 3 {
        for d in hotBoxes {
            let text = shortLabel(d.box.path, max: 34)
            let tw = Double(text.count) * 5.8 + 4
            let x0 = max(0, d.shown.x0), y0 = max(0, d.shown.y0), y1 = min(h, d.shown.y1)
            // Beside the box: above, below, left, right, then a line further up or down (a pair
            // of boxes that overlap want the same places, and both are named).
            let x1 = min(w, d.shown.x1)
            if let (x, y) = board.place([(x0, y0 - 4), (x0, y1 + 12), (max(0, x0 - tw - 4), y0 + 10), (x1 + 4, y0 + 10),
                                         (x0, y0 - 20), (x0, y1 + 28)], width: tw, height: 10, bounds: (w, h)) {
                out += "<text x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"10.5\" font-weight=\"600\" fill=\"\(tc)\" stroke=\"#f4f6f8\" stroke-width=\"3\" paint-order=\"stroke\">\(Escape.html(text))</text>\n"
            }
        }
    } else {
        for (i, d) in hotBoxes.enumerated() where i < 30 {
            let x0 = max(0, d.shown.x0), y0 = max(10, d.shown.y0 - 2)
            out += "<text x=\"\(n(x0))\" y=\"\(n(y0))\" font-size=\"9\" fill=\"\(tc)\" stroke=\"#f4f6f8\" stroke-width=\"2\" paint-order=\"stroke\">\(i + 1)</text>\n"
        }
        let listed = hotBoxes.prefix(8)
        out += "<rect x=\"2\" y=\"2\" width=\"190\" height=\"\(n(Double(listed.count + (hotBoxes.count > 8 ? 1 : 0)) * 12 + 6))\" fill=\"#fff\" fill-opacity=\"0.85\"/>\n"
        for (i, d) in listed.enumerated() {
            out += "<text x=\"6\" y=\"\(n(14 + Double(i) * 12))\" font-size=\"10\" fill=\"\(tc)\">\(i + 1) \(Escape.html(shortLabel(d.box.path, max: 30)))</text>\n"
        }
        if hotBoxes.count > 8 {
            out += "<text x=\"6\" y=\"\(n(14 + 8 * 12))\" font-size=\"10\" fill=\"\(tc)\">… and \(hotBoxes.count - 8) more</text>\n"
        }
    }
    // Footer: axes and the measurement.
    out += "<rect x=\"0\" y=\"\(n(h))\" width=\"\(n(w))\" height=\"\(n(foot))\" fill=\"#fff\"/>\n"
    if let screen {
        // The screen in its own terms, then the measurement on a line of its own (a portrait
        // screen's picture is narrow).
        let first: String
        if let r = screen.crop {
            first = "detail: x \(fmt(r.x0, 0))…\(fmt(r.x1, 0)) pt, y \(fmt(r.y0, 0))…\(fmt(r.y1, 0)) pt of the screen"
        } else {
            first = screen.screen.label
        }
        out += "<text x=\"6\" y=\"\(n(h + 14))\" font-size=\"10\" fill=\"#5b5e66\">\(Escape.html(first))</text>\n"
        if let m = measure, !m.label.isEmpty {
            out += "<text x=\"6\" y=\"\(n(h + 29))\" font-size=\"10\" font-weight=\"600\" fill=\"\(tc)\">\(Escape.html(m.label))</text>\n"
        }
        out += "</svg>\n"
        return out
    }
    if proj.perspective {
        out += "<text x=\"6\" y=\"\(n(h + 15))\" font-size=\"10\" fill=\"#5b5e66\">perspective around azimuth \(fmt(center.x, 0))°, elevation \(fmt(center.y, 0))°</text>\n"
    } else {
        out += "<text x=\"6\" y=\"\(n(h + 15))\" font-size=\"10\" fill=\"#5b5e66\">azimuth \(fmt(center.x - halfAz, 0))° … \(fmt(center.x + halfAz, 0))°, elevation \(fmt(center.y - halfAz * 0.625, 0))° … \(fmt(center.y + halfAz * 0.625, 0))°</text>\n"
    }
    if let m = measure, !m.label.isEmpty {
        out += "<text x=\"\(n(w - 6))\" y=\"\(n(h + 15))\" font-size=\"10\" font-weight=\"600\" text-anchor=\"end\" fill=\"\(tc)\">\(Escape.html(m.label))</text>\n"
    }
    out += "</svg>\n"
    return out
}

/// The timeline in seconds: events on top, one lane per finding (group) with its spans, then the
/// captured series with their thresholds (and the boundary's radius and fade lines), each point
/// with its frame and value on hover.
func timelineSVG(scene: SceneReport, groups: [ViolationGroup], snapshot: SceneSnapshot?) -> String {
    let labelW = 190.0, plotW = 520.0, rowH = 16.0, right = 16.0
    let rate = scene.frameRate > 0 ? scene.frameRate : 90
    let duration = max(scene.duration, Double(max(scene.frames, 1)) / rate, 1e-3)
    func tx(_ t: Double) -> Double { labelW + min(max(t / duration, 0), 1) * plotW }
    func fx(_ f: Int) -> Double { tx(Double(f) / rate) }
    let lanes = Array(groups.prefix(40))
    let events = snapshot?.events ?? []
    let series = snapshot?.series ?? []
    let chartH = 110.0, chartGap = 34.0
    var y = 8.0
    var body = ""
    // Axis ticks (seconds).
    let step = niceLength(duration / 6)
    // Enough decimals that neighbouring ticks differ (a one-frame scene's step is 0.002 s).
    var tickDecimals = 0
    while tickDecimals < 4, step.isFinite, step > 0, step * pow10(tickDecimals) < 1 - 1e-9 { tickDecimals += 1 }
    func axis(y: Double) -> String {
        var a = "<line x1=\"\(n(labelW))\" y1=\"\(n(y))\" x2=\"\(n(labelW + plotW))\" y2=\"\(n(y))\" stroke=\"#8e8e93\"/>\n"
        var t = 0.0, k = 0
        while t <= duration + 1e-9 && k < 60 {
            a += "<line x1=\"\(n(tx(t)))\" y1=\"\(n(y))\" x2=\"\(n(tx(t)))\" y2=\"\(n(y + 4))\" stroke=\"#8e8e93\"/>"
            a += "<text x=\"\(n(tx(t)))\" y=\"\(n(y + 14))\" font-size=\"9.5\" text-anchor=\"middle\" fill=\"#5b5e66\">\(fmt(t, tickDecimals))</text>\n"
            t += step; k += 1
        }
        a += "<text x=\"\(n(labelW + plotW + 4))\" y=\"\(n(y + 14))\" font-size=\"9.5\" fill=\"#5b5e66\">s</text>\n"
        return a
    }
    // Events lane.
    if !events.isEmpty {
        body += "<text x=\"4\" y=\"\(n(y + 11))\" font-size=\"10\" fill=\"#5b5e66\">events</text>\n"
        for e in events.prefix(300) {
            let x = fx(e.frame)
            let col = e.kind == "immersion" ? "#6b3fa0" : e.kind == "recenter" ? "#0b57d0" : "#5b5e66"
            let glyph = e.kind == "show" ? "▲" : e.kind == "hide" ? "▽" : e.kind == "recenter" ? "⟲" : "◆"
            body += "<text x=\"\(n(x))\" y=\"\(n(y + 12))\" font-size=\"11\" text-anchor=\"middle\" fill=\"\(col)\">\(glyph)<title>\(Escape.html(e.kind)) \(Escape.html(e.detail)) at t = \(fmt(e.time, 2)) s (frame \(e.frame))</title></text>\n"
        }
        y += rowH + 4
    }
    let lanesTop = y
    for g in lanes {
        let label = shortLabel(g.rule + (g.isFolded ? " ×\(g.count)" : " " + (g.members.first?.entities.first.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "")), max: 34)
        body += "<text x=\"4\" y=\"\(n(y + 11))\" font-size=\"10\" fill=\"#1d1d1f\">\(Escape.html(label))</text>\n"
        body += "<rect x=\"\(n(labelW))\" y=\"\(n(y + 3))\" width=\"\(n(plotW))\" height=\"\(n(rowH - 6))\" fill=\"#eef0f3\"/>\n"
        // The union of the members' spans, at most 100 runs.
        var merged: [ClosedRange<Int>] = []
        for span in g.members.flatMap({ $0.spans }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        let who = g.isFolded ? "\(g.count) findings" : (g.members.first.map { $0.entities.isEmpty ? $0.entityList : $0.entities.map(elidedPath).joined(separator: ", ") } ?? "")
        for span in merged.prefix(100) {
            let x0 = fx(span.lowerBound), x1 = fx(span.upperBound + 1)
            body += "<rect x=\"\(n(x0))\" y=\"\(n(y + 3))\" width=\"\(n(max(x1 - x0, 1.5)))\" height=\"\(n(rowH - 6))\" fill=\"\(severityColor(g.severity))\"><title>\(Escape.html(g.rule)) \(Escape.html(who)): frames \(span.lowerBound)–\(span.upperBound), t = \(fmt(Double(span.lowerBound) / rate, 2))–\(fmt(Double(span.upperBound + 1) / rate, 2)) s</title></rect>\n"
        }
        y += rowH
    }
    if groups.count > lanes.count {
        body += "<text x=\"4\" y=\"\(n(y + 11))\" font-size=\"10\" fill=\"#5b5e66\">… and \(groups.count - lanes.count) more findings</text>\n"
        y += rowH
    }
    let lanesBottom = y
    // Event lines across the lanes.
    for e in events.prefix(300) {
        body += "<line x1=\"\(n(fx(e.frame)))\" y1=\"\(n(lanesTop))\" x2=\"\(n(fx(e.frame)))\" y2=\"\(n(lanesBottom))\" stroke=\"#6b3fa0\" stroke-opacity=\"0.5\" stroke-dasharray=\"2 2\"/>\n"
    }
    y += 4
    body += axis(y: y)
    y += 22
    // Series charts.
    for s in series {
        let related = groups.filter { g in
            g.members.contains { v in SceneSnapshot.seriesQuantity(rule: v.rule, entityCount: v.entities.count) == s.quantity
                && (s.quantity == "boundary" || v.entities.first == s.entity) }
        }
        var lines: [(Double, String, String, Bool)] = []  // value, colour, label, dashed
        if s.quantity == "boundary", let snap = snapshot {
            lines.append((snap.boundaryRadius, "#c0261b", "boundary \(fmt(snap.boundaryRadius, 1)) m", false))
            lines.append((snap.fadeRadius, "#d17a00", "fade \(fmt(snap.fadeRadius, 1)) m", true))
        }
        for g in related {
            // Only thresholds in the chart's unit: a sub-check's own quantity (motion-too-fast's
            // looming speed in m/s beside its angular speed in deg/s) is not on this chart.
            let thresholds = Set(g.members.filter { $0.unit == s.unit }.map(\.threshold)).sorted()
            for t in thresholds where !lines.contains(where: { abs($0.0 - t) < 1e-9 }) && lines.count < 6 {
                lines.append((t, severityColor(g.severity), "\(g.rule) \(fmtValue(t)) \(s.unit)", true))
            }
        }
        let vals = s.values + lines.map(\.0)
        guard let lo0 = vals.min(), let hi0 = vals.max() else { continue }
        let lo = min(0, lo0), hi = hi0 + max((hi0 - lo) * 0.08, 1e-6)
        let top = y + 14
        func vy(_ v: Double) -> Double { top + chartH - (v - lo) / (hi - lo) * chartH }
        body += "<text x=\"\(n(labelW))\" y=\"\(n(y + 8))\" font-size=\"10.5\" font-weight=\"600\" fill=\"#1d1d1f\">\(Escape.html(shortLabel(s.label, max: 70))) (\(Escape.html(s.unit)))</text>\n"
        body += "<rect x=\"\(n(labelW))\" y=\"\(n(top))\" width=\"\(n(plotW))\" height=\"\(n(chartH))\" fill=\"#f8f9fb\" stroke=\"#d5d9e0\"/>\n"
        // y ticks: bottom, top.
        for v in [lo, (lo + hi) / 2, hi] {
            body += "<text x=\"\(n(labelW - 4))\" y=\"\(n(vy(v) + 3))\" font-size=\"9.5\" text-anchor=\"end\" fill=\"#5b5e66\">\(fmtValue(v))</text>\n"
        }
        for l in lines {
            body += "<line x1=\"\(n(labelW))\" y1=\"\(n(vy(l.0)))\" x2=\"\(n(labelW + plotW))\" y2=\"\(n(vy(l.0)))\" stroke=\"\(l.1)\" stroke-width=\"1.5\"\(l.3 ? " stroke-dasharray=\"6 3\"" : "")><title>\(Escape.html(l.2))</title></line>\n"
            body += "<text x=\"\(n(labelW + plotW - 4))\" y=\"\(n(vy(l.0) - 3))\" font-size=\"9.5\" text-anchor=\"end\" fill=\"\(l.1 == "#d17a00" ? "#8a4b00" : l.1 == "#c0261b" ? "#b3261e" : l.1)\" stroke=\"#f8f9fb\" stroke-width=\"3\" paint-order=\"stroke\">\(Escape.html(l.2))</text>\n"
        }
        let points = zip(s.frames, s.values).map { "\(n(fx($0.0))),\(n(vy($0.1)))" }.joined(separator: " ")
        body += "<polyline points=\"\(points)\" fill=\"none\" stroke=\"#1d1d1f\" stroke-width=\"1.6\" stroke-linejoin=\"round\"/>\n"
        for (f, v) in zip(s.frames, s.values) {
            body += "<circle cx=\"\(n(fx(f)))\" cy=\"\(n(vy(v)))\" r=\"2.2\" fill=\"#1d1d1f\" fill-opacity=\"0.35\"><title>frame \(f), t = \(fmt(Double(f) / rate, 2)) s: \(fmtValue(v)) \(Escape.html(s.unit))</title></circle>\n"
        }
        for e in events.prefix(300) {
            body += "<line x1=\"\(n(fx(e.frame)))\" y1=\"\(n(top))\" x2=\"\(n(fx(e.frame)))\" y2=\"\(n(top + chartH))\" stroke=\"#6b3fa0\" stroke-opacity=\"0.5\" stroke-dasharray=\"2 2\"/>\n"
        }
        y = top + chartH + 4
        body += axis(y: y)
        y += chartGap - 10
    }
    let height = y + 4
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(labelW + plotW + right))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(labelW + plotW + right)) \(n(height))\" role=\"img\" aria-label=\"timeline\" font-family=\"system-ui,sans-serif\">\n"
    out += "<title>Timeline of \(Escape.html(scene.path)) in seconds</title>\n"
    out += body + "</svg>\n"
    return out
}
