import Foundation
import SpatialModel

/// `spatialcheck inspect`: the loaded spatial model as text for people or as `spatialcheck-model/1`
/// JSON for tools (cli-and-report.md, "Model dump").
public enum ModelDump {
    public static let formatTag = "spatialcheck-model/1"

    public static func json(_ scene: Scene) -> JSON {
        let entities: [JSON] = scene.entities.map { e in
            let tris = triangles(of: e, in: scene)
            var members: [(String, JSON)] = [
                ("path", .string(e.path)),
                ("kind", .string(e.kind.rawValue)),
                ("role", .optional(e.role?.rawValue)),
                ("interactive", .bool(e.interactive)),
                ("asset", .optional(e.asset?.path)),
                ("unitScale", .optional(e.asset?.unitScale)),
            ]
            if let p = e.usdPrim { members.append(("usdPrim", usdPrimJSON(p))) }
            if let a = e.asset {
                members.append(("unitReason", .string(a.unitReason)))
                members.append(("axes", .optional(a.axisReason.isEmpty ? nil : a.axisReason)))
            }
            if let u = e.asset?.usd { members.append(("usd", usdJSON(u))) }
            members += [
                ("scaleMode", .optional(scaleModeName(e, in: scene))),
                ("orientation", orientation(e.restOrientation)),
                ("worldBounds", bounds(e.restWorldBounds)),
                ("triangles", .int(tris)),
                ("animations", .array(animations(of: e, in: scene).map {
                    .object([("name", .string($0.name)), ("duration", .rounded($0.duration))])
                })),
                ("location", .object([("line", .int(e.location.line)), ("column", .int(e.location.column))])),
                ("facts", facts(e)),
            ]
            if let m = e.media { members.append(("media", media(m))) }
            if let r = e.representsRealObject { members.append(("representsRealObject", .bool(r))) }
            if let u = e.userScalable { members.append(("userScalable", .bool(u))) }
            if let p = e.presentation { members.append(("presentation", .string(p.rawValue))) }
            if let p = e.placementMode { members.append(("placementMode", .string(p.rawValue))) }
            if let look = appearance(e) { members.append(("appearance", look)) }
            return .object(members)
        }
        let totalTriangles = scene.entities.reduce(0) { $0 + triangles(of: $1, in: scene) }
        var top: [(String, JSON)] = [
            ("format", .string(formatTag)),
            ("path", .string(scene.path)),
            ("settings", .object([("pointAngle", .rounded(scene.units.pointAngle)),
                                  ("fixedPointSize", .rounded(scene.units.fixedPointSize))]
                                 + scene.settings.enabledNames.map { ($0, JSON.bool(true)) })),
            ("entities", .array(entities)),
            ("bounds", bounds(scene.restWorldBounds)),
            ("triangles", .int(totalTriangles)),
        ]
        if let d = scene.device {
            // iOS: the device whose camera is the viewer (scene-format.md, "Device").
            var dev: [(String, JSON)] = []
            if let m = d.model { dev.append(("model", .string(m))) }
            dev += [("screen", .array([.rounded(d.screen.x), .rounded(d.screen.y)])),
                    ("orientation", .string(d.orientation.rawValue)),
                    ("fieldOfView", .array([.rounded(d.fieldOfView.x), .rounded(d.fieldOfView.y)])),
                    ("fieldOfViewGiven", .bool(d.fieldOfViewGiven))]
            top.insert(("device", .object(dev)), at: 3)
        }
        if !scene.warnings.isEmpty {
            top.append(("warnings", .array(scene.warnings.map { .string($0.description) })))
        }
        return .object(top)
    }

    /// The model for people. Every string from the scene or its assets (path, name, ids, asset
    /// paths, clip names, warnings) goes through `Escape.text`.
    public static func text(_ scene: Scene) -> String {
        let t: (String) -> String = { Escape.text($0) }
        var out = ""
        let title = t(scene.name.map { "\(scene.path) (\($0))" } ?? scene.path)
        out += title + "\n"
        out += "  \(scene.platform.rawValue), immersion \(scene.immersion.rawValue), "
        out += "\(fmt(scene.frameRate, 0)) Hz, \(fmt(scene.duration, 3)) s (\(scene.frameCount) frame\(scene.frameCount == 1 ? "" : "s")), "
        out += "pointAngle \(fmt(scene.units.pointAngle, 4))°/pt, fixedPointSize \(fixedPointSizeText(scene.units.fixedPointSize)) m/pt\n"
        let v = scene.viewer
        out += "  viewer: \(v.posture.rawValue), eye height \(fmt(v.eyeHeight, 2)) m, "
        out += "field of view \(fmt(v.fieldOfView.x, 0))°×\(fmt(v.fieldOfView.y, 0))°, "
        out += "\(v.path.count) path key\(v.path.count == 1 ? "" : "s"), motion \(v.motion.rawValue)\n"
        if !scene.settings.enabledNames.isEmpty {
            out += "  settings: \(scene.settings.enabledNames.joined(separator: ", ")) on\n"
        }
        if v.handGiven || scene.entities.contains(where: { $0.anchor == .hand }), let h = v.hand.first {
            // Where hand-anchored content is held, in the head frame (scene-format.md, "Viewer").
            let d = length(h.position)
            let below = d > 0 ? degrees(asin(min(1, max(-1, -h.position.y / d)))) : 0
            out += "  hand: \(v.handGiven ? (v.hand.count > 1 ? "path of \(v.hand.count) keys, first at" : "at") : "default \(v.posture.rawValue) pose,")"
            out += " \(vec(h.position)) m from the eye in the head frame (\(fmt(d, 3)) m away, \(fmt(below, 1))° below eye level)\n"
        }
        if let dev = scene.device {
            // The iOS device whose camera is the viewer (scene-format.md, "Device").
            out += "  device: \(dev.model.map { Escape.text($0) + ", " } ?? "")screen \(fmt(dev.screen.x, 0))×\(fmt(dev.screen.y, 0)) pt \(dev.orientation.rawValue), "
            out += "camera field of view \(fmt(dev.fieldOfView.x, 1))°×\(fmt(dev.fieldOfView.y, 1))° (\(dev.fieldOfViewGiven ? "given" : "derived")), \(fmt(dev.pointAngle, 4))°/pt at the centre\n"
        }
        out += "\n"

        let header = ["entity", "kind", "role", "interactive", "scale", "yaw, pitch, roll (°)", "world bounds at rest (m)", "triangles"]
        var rows: [[String]] = []
        for e in scene.entities {
            let depth = depthOf(e, in: scene)
            let b = e.restWorldBounds
            let boundsText = b.isEmpty ? "-" : "\(vec(b.min)) .. \(vec(b.max))"
            let tris = triangles(of: e, in: scene)
            rows.append([
                // A window a window presents shows how ("sheet"), in the role column.
                String(repeating: "  ", count: depth) + t(e.id), e.kind.rawValue, e.role?.rawValue ?? e.presentation?.rawValue ?? "-",
                e.interactive ? "yes" : "no", scaleModeName(e, in: scene) ?? "-",
                e.restOrientation.map { "\(fmt($0.x, 1)), \(fmt($0.y, 1)), \(fmt($0.z, 1))" } ?? "-",
                boundsText, tris > 0 ? String(tris) : "-",
            ])
        }
        out += table(header: header, rows: rows)
        let absolute = scene.platform == .visionOS ? scene.entities.filter { $0.placementMode == .absolute } : []
        if !absolute.isEmpty {
            out += "\nplaced at an absolute world height (placementMode; judged seated, standing and reclined by fov-posture-variants)\n"
            for e in absolute { out += "  \(t(e.path))\n" }
        }

        let assets = scene.entities.filter { $0.asset != nil }
        if !assets.isEmpty {
            out += "\nassets\n"
            for e in assets {
                guard let a = e.asset else { continue }
                out += "  \(t(e.path)): \(t(a.path)) [\(t(a.format))]\n"
                if a.format.hasPrefix("USD") {
                    // The stage's own metersPerUnit is applied inside the import; assetUnits multiplies on top.
                    let extra = a.unitScale == 1 ? "" : "×\(fmtShort(a.unitScale)) on top of the stage's units (assetUnits). "
                    out += "    units: \(extra)\(t(a.unitReason))\n"
                } else {
                    out += "    units: ×\(fmtShort(a.unitScale)) m per file unit. \(t(a.unitReason))\n"
                }
                if !a.axisReason.isEmpty { out += "    axes: \(t(a.axisReason))\n" }
                let size = e.restWorldBounds.size
                out += "    size at rest: \(fmt(size.x, 3)) × \(fmt(size.y, 3)) × \(fmt(size.z, 3)) m, \(a.triangles) triangles\n"
                if !a.clips.isEmpty {
                    out += "    animations: " + a.clips.map { "\(t($0.name)) (\(fmt($0.duration, 3)) s)" }
                        .joined(separator: ", ") + "\n"
                }
                if let u = a.usd { out += usdText(u) }
            }
        }
        let stated = scene.entities.filter(hasFacts)
        if !stated.isEmpty {
            out += "\nfacts (source in brackets: scene = stated in the scene file, asset = the 3D file's own; unknown = nothing says)\n"
            for e in stated { out += "  \(t(e.path))\(e.usdPrim.map { t(usdPrimSuffix($0)) } ?? ""): " + factsText(e) + "\n" }
        }
        let looked = scene.entities.filter { appearance($0) != nil }
        if !looked.isEmpty {
            out += "\nappearance and accessibility (as stated)\n"
            for e in looked { out += "  \(t(e.path)): " + appearanceText(e) + "\n" }
        }
        let keyed = scene.animations.filter { $0.source == .keyframes }
        if !keyed.isEmpty {
            out += "\nkeyframe animations\n"
            for a in keyed where scene.entities.indices.contains(a.entity) {
                out += "  \(t(scene.entities[a.entity].path)): \(fmt(a.duration, 3)) s\(a.loop ? ", looping" : "")"
                    + (a.trigger.map { ", trigger \($0.rawValue)" } ?? "")
                    + (a.reduceMotion != .keep ? ", with Reduce Motion: \(a.reduceMotion.rawValue)" : "") + "\n"
            }
        }
        let withMedia = scene.entities.filter { $0.media != nil || $0.representsRealObject != nil || $0.userScalable != nil }
        if !withMedia.isEmpty {
            out += "\nmedia and scale intent\n"
            for e in withMedia {
                var parts: [String] = []
                if let m = e.media { parts.append(mediaText(m)) }
                if let r = e.representsRealObject { parts.append("represents a real object: \(r ? "yes" : "no")") }
                if let u = e.userScalable { parts.append("people can resize it: \(u ? "yes" : "no")") }
                out += "  \(t(e.path)): " + parts.joined(separator: "; ") + "\n"
            }
        }
        if !scene.events.isEmpty {
            out += "\nevents\n"
            for ev in scene.events {
                let fade = ev.transition.map { ", transition \(fmt($0, 3)) s" } ?? ""
                out += "  t=\(fmt(ev.time, 3)) s: \(describe(ev.action, scene))\(fade)\n"
            }
        }
        if !scene.warnings.isEmpty {
            out += "\nwarnings\n"
            for w in scene.warnings { out += "  " + w.description.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ") + "\n" }
        }
        return out
    }

    // MARK: media

    /// `media` of an entity in the JSON model: the stated keys only (unknown ones are left out).
    static func media(_ m: Media) -> JSON {
        var members: [(String, JSON)] = [("kind", .string(m.kind.rawValue))]
        for (k, v) in [("autoplay", m.autoplay), ("controls", m.controls), ("speech", m.speech), ("captions", m.captions),
                       ("dimsFlashingLights", m.dimsFlashingLights)] {
            if let v { members.append((k, .bool(v))) }
        }
        for (k, v) in [("flashRate", m.flashRate), ("flashLuminance", m.flashLuminance),
                       ("cameraRotation", m.cameraRotation), ("cameraAcceleration", m.cameraAcceleration)] {
            if let v { members.append((k, .rounded(v))) }
        }
        return .object(members)
    }

    static func mediaText(_ m: Media) -> String {
        func yn(_ b: Bool?) -> String { b.map { $0 ? "yes" : "no" } ?? "unknown" }
        var s = "\(m.kind.rawValue), autoplay \(yn(m.autoplay)), controls \(yn(m.controls)), speech \(yn(m.speech)), captions \(yn(m.captions))"
        if let r = m.flashRate { s += ", flashes \(fmtShort(r))/s" + (m.flashLuminance.map { " (ΔL \(fmtShort($0)))" } ?? "") }
        if let d = m.dimsFlashingLights { s += ", follows Dim Flashing Lights \(d ? "yes" : "no")" }
        if m.cameraRotation != nil || m.cameraAcceleration != nil {
            s += ", camera motion \(fmtShort(m.cameraRotation ?? 0))°/s, \(fmtShort(m.cameraAcceleration ?? 0)) m/s²"
        }
        return s
    }

    // MARK: facts

    /// A USD prim an entity came from, as JSON: `{"path": "/Root/Knob", "layer": "assets/Scene.usda"}`
    /// (the model dump, and `usdPrims` of a report's violation).
    public static func usdPrimJSON(_ p: USDPrimRef) -> JSON {
        .object([("path", .string(p.path)), ("layer", .string(p.layer))])
    }

    /// A USD prim for people, as it follows an entity's name: " (USD /Root/Knob in assets/Scene.usda)"
    /// (not escaped).
    public static func usdPrimSuffix(_ p: USDPrimRef) -> String { " (USD \(p.path) in \(p.layer))" }

    /// `facts` of an entity in the JSON model: each fact's value and where it came from
    /// (`annotation`, `file`, `name prefix`, `default`).
    static func facts(_ e: Entity) -> JSON {
        let s = e.factSources
        func fact(_ v: JSON, _ src: FactSource) -> JSON { .object([("value", v), ("source", .string(src.rawValue))]) }
        return .object([
            ("interactive", fact(.bool(e.interactive), s.interactive)),
            ("interaction", fact(.optional(e.interaction?.rawValue), s.interaction)),
            ("hoverEffect", fact(.optional(e.hoverEffect?.rawValue), s.hoverEffect)),
            ("hitRegion", fact(e.hitRegion.map { hitRegion($0, e.hitFrame) } ?? .null, s.hitRegion)),
            ("anchor", fact(.string(e.arkitAnchor?.rawValue ?? e.anchor.rawValue), s.anchor)),
            ("accessibilityLabel", fact(.optional(e.accessibilityLabel), s.accessibilityLabel)),
        ])
    }

    /// `appearance` of an entity in the JSON model: the stated `label` (an element's), `string` (a
    /// text's), `decorative`, `color`, `background`, `fontWeight`, `symbol`, `helpText`,
    /// `buttonStyle` and `title` (nil when none is stated).
    static func appearance(_ e: Entity) -> JSON? {
        var m: [(String, JSON)] = []
        if let v = e.label { m.append(("label", .string(v))) }
        if let v = e.string { m.append(("string", .string(v))) }
        if let v = e.decorative { m.append(("decorative", .bool(v))) }
        if let v = e.color { m.append(("color", .string(v.text))) }
        if let v = e.background { m.append(("background", .string(v.text))) }
        if let v = e.fontWeight { m.append(("fontWeight", .string(v.rawValue))) }
        if let v = e.symbol { m.append(("symbol", .string(v))) }
        if let v = e.helpText { m.append(("helpText", .string(v))) }
        if let v = e.buttonStyle { m.append(("buttonStyle", .string(v.rawValue))) }
        if let v = e.title { m.append(("title", .string(v))) }
        return m.isEmpty ? nil : .object(m)
    }

    static func appearanceText(_ e: Entity) -> String {
        var parts: [String] = []
        if let v = e.label { parts.append("label \"\(Escape.text(v))\"") }
        if let v = e.string { parts.append("string \"\(Escape.text(v))\"") }
        if let v = e.decorative { parts.append(v ? "decorative" : "not decorative") }
        if let v = e.color { parts.append("color \(v.text)") }
        if let v = e.background { parts.append("background \(v.text)") }
        if let v = e.fontWeight { parts.append("font weight \(v.rawValue)") }
        if let v = e.symbol { parts.append("symbol \"\(Escape.text(v))\"") }
        if let v = e.helpText { parts.append("help text \"\(Escape.text(v))\"") }
        if let v = e.buttonStyle { parts.append("button style \(v.rawValue)") }
        if let v = e.title { parts.append("title \"\(Escape.text(v))\"") }
        return parts.joined(separator: ", ")
    }

    static func hitRegion(_ h: HitRegion, _ rect: RectPt?) -> JSON {
        var members: [(String, JSON)]
        switch h {
        case .size(let w, let hh):
            members = [("size", .array([.rounded(w), .rounded(hh)]))]
        case .insets(let t, let l, let b, let r):
            members = [("insets", .array([.rounded(t), .rounded(l), .rounded(b), .rounded(r)]))]
        case .shape(let shape):
            let sz = shape.size
            switch shape.kind {
            case .box: members = [("shape", .string("box"))]
            case .sphere(let r): members = [("shape", .string("sphere")), ("radius", .rounded(r))]
            case .capsule(let r, let hh): members = [("shape", .string("capsule")), ("radius", .rounded(r)), ("height", .rounded(hh))]
            }
            members += [("size", .vector((sz.x, sz.y, sz.z))), ("center", .vector((shape.center.x, shape.center.y, shape.center.z))),
                        ("centerFrom", .string(shape.origin.rawValue))]
        }
        if let r = rect { members.append(("frame", .array([.rounded(r.x), .rounded(r.y), .rounded(r.width), .rounded(r.height)]))) }
        return .object(members)
    }

    /// Entities the text dump lists under `facts`: any fact not at its default, or any stated value.
    static func hasFacts(_ e: Entity) -> Bool {
        let s = e.factSources
        return [s.interactive, s.interaction, s.hoverEffect, s.hitRegion, s.anchor, s.accessibilityLabel].contains { $0 != .default }
            || e.interaction != nil || e.hoverEffect != nil || e.hitRegion != nil || e.accessibilityLabel != nil
    }

    static func factsText(_ e: Entity) -> String {
        let s = e.factSources
        func src(_ x: FactSource) -> String { " [\(x.textName)]" }
        var parts = ["interactive \(e.interactive ? "yes" : "no")" + src(s.interactive)]
        parts.append("interaction \(e.interaction?.rawValue ?? "unknown")" + src(s.interaction))
        parts.append("hover effect \(e.hoverEffect?.rawValue ?? "unknown")" + src(s.hoverEffect))
        parts.append("hit region \(e.hitRegion.map { hitRegionText($0, e.hitFrame) } ?? "its bounds")" + src(s.hitRegion))
        parts.append("anchor \(e.arkitAnchor?.rawValue ?? e.anchor.rawValue)" + src(s.anchor))
        parts.append("accessibility label " + (e.accessibilityLabel.map { "\"\(Escape.text($0))\"" } ?? "unknown") + src(s.accessibilityLabel))
        return parts.joined(separator: ", ")
    }

    static func hitRegionText(_ h: HitRegion, _ rect: RectPt?) -> String {
        let frame = rect.map { " = [\(fmtShort($0.x)), \(fmtShort($0.y)), \(fmtShort($0.width)), \(fmtShort($0.height))] pt" } ?? ""
        switch h {
        case .size(let w, let hh): return "\(fmtShort(w)) × \(fmtShort(hh)) pt" + frame
        case .insets(let t, let l, let b, let r):
            return "insets [\(fmtShort(t)), \(fmtShort(l)), \(fmtShort(b)), \(fmtShort(r))] pt" + frame
        case .shape(let shape):
            let sz = shape.size
            let kind: String
            switch shape.kind {
            case .box: kind = "box"
            case .sphere: kind = "sphere"
            case .capsule: kind = "capsule"
            }
            let from = shape.origin == .node ? "the node's origin" : "its bounds' centre"
            let offset = shape.center == .zero && shape.origin == .bounds ? "" : " at \(vec(shape.center)) m from \(from)"
            return "\(kind) \(fmtShort(sz.x)) × \(fmtShort(sz.y)) × \(fmtShort(sz.z)) m" + offset
        }
    }

    // MARK: helpers

    static func triangles(of e: Entity, in scene: Scene) -> Int {
        switch e.kind {
        case .model, .environment: return e.asset?.triangles ?? 0
        default: return 0
        }
    }

    static func animations(of e: Entity, in scene: Scene) -> [(name: String, duration: Double)] {
        if let a = e.asset { return a.clips }
        if let i = e.animation, scene.animations.indices.contains(i), scene.animations[i].source == .keyframes {
            return [("keyframes", scene.animations[i].duration)]
        }
        return []
    }

    /// `dynamic` or `fixed` for content sized in points or metres by a scale (windows, volumes,
    /// text, elements, models and their marked nodes); nil for groups and environments. 3D content
    /// (models, their nodes, text) takes the mode of the nearest window or volume above it when that
    /// is a dynamic-scale volume, which scales everything in it (s30 trial F13: a model in such a
    /// volume showed `fixed`).
    static func scaleModeName(_ e: Entity, in scene: Scene) -> String? {
        switch e.kind {
        case .group, .environment: return nil
        case .model, .node, .text:
            var p = e.parent, steps = 0
            let ents = scene.entities
            while let q = p, ents.indices.contains(q), steps <= ents.count {
                if ents[q].kind == .window || ents[q].kind == .volume {
                    return ents[q].kind == .volume && ents[q].scaleMode == .dynamic ? ScaleMode.dynamic.rawValue : e.scaleMode.rawValue
                }
                p = ents[q].parent; steps += 1
            }
            return e.scaleMode.rawValue
        default: return e.scaleMode.rawValue
        }
    }

    /// `{yaw, pitch, roll}` in degrees (scene format convention), rounded to 0.1°.
    static func orientation(_ o: Vec3?) -> JSON {
        guard let o else { return .null }
        func r(_ v: Double) -> JSON { .number((v * 10).rounded() / 10 + 0) }
        return .object([("yaw", r(o.x)), ("pitch", r(o.y)), ("roll", r(o.z))])
    }

    static func bounds(_ b: AABB) -> JSON {
        guard !b.isEmpty else { return .null }
        return .object([
            ("min", .vector((b.min.x, b.min.y, b.min.z))),
            ("max", .vector((b.max.x, b.max.y, b.max.z))),
        ])
    }

    static func depthOf(_ e: Entity, in scene: Scene) -> Int {
        var d = 0
        var p = e.parent
        while let i = p, scene.entities.indices.contains(i), d < 64 { d += 1; p = scene.entities[i].parent }
        return d
    }

    static func describe(_ a: SceneEvent.Action, _ scene: Scene) -> String {
        func name(_ i: Int) -> String { scene.entities.indices.contains(i) ? Escape.text(scene.entities[i].path) : "#\(i)" }
        switch a {
        case .setImmersion(let s, let trigger): return "immersion → \(s.rawValue) (\(trigger.rawValue))"
        case .recenter: return "recenter"
        case .show(let i): return "show \(name(i))"
        case .hide(let i): return "hide \(name(i))"
        case .ar(.tracking(let state, let reason)): return "tracking → \(state.rawValue)" + (reason.map { " (\($0.rawValue))" } ?? "")
        case .ar(.plane(let id, let detected, let alignment)):
            return "plane \(Escape.text(id)) \(detected ? "detected" : "lost")" + (alignment.map { " (\($0.rawValue))" } ?? "")
        case .ar(.referenceImages(let n)): return "reference images → \(n)"
        }
    }

    static func vec(_ v: Vec3) -> String { "(\(fmt(v.x, 3)), \(fmt(v.y, 3)), \(fmt(v.z, 3)))" }
}

/// Fixed-point formatting without Foundation's locale: `fmt(1.23456, 2)` → "1.23".
public func fmt(_ x: Double, _ decimals: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (abs(x) * scale).rounded()
    let negative = x < 0 && r != 0
    guard r < 9.0e18 else { return "\(x)" }
    // The digits written into a small buffer (no intermediate strings): as many as `String(n)`,
    // at least `decimals + 1`, the point before the last `decimals`.
    if decimals >= 0 && decimals <= 20 {
        var n = UInt64(r)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buf -> String in
            var i = 48, written = 0
            repeat {
                if written == decimals && decimals > 0 { i -= 1; buf[i] = UInt8(ascii: ".") }
                i -= 1; buf[i] = UInt8(ascii: "0") &+ UInt8(n % 10); n /= 10; written += 1
            } while n > 0 || written <= decimals
            if negative { i -= 1; buf[i] = UInt8(ascii: "-") }
            return String(decoding: UnsafeBufferPointer(rebasing: buf[i..<48]), as: UTF8.self)
        }
    }
    let n = Int64(r)
    var digits = String(n)
    if decimals > 0 {
        if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return (negative ? "-" : "") + digits
}

/// Short formatting for factors: 1, 0.01, 0.0254, 5.
public func fmtShort(_ x: Double) -> String {
    var s = fmt(x, 6)
    if s.contains(".") {
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
    }
    return s
}

/// A plain left-aligned text table.
public func table(header: [String], rows: [[String]], indent: String = "  ") -> String {
    var widths = header.map(\.count)
    for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
    func line(_ cells: [String]) -> String {
        var s = indent
        for (i, c) in cells.enumerated() {
            s += c
            if i < cells.count - 1 { s += String(repeating: " ", count: widths[i] - c.count + 2) }
        }
        return s + "\n"
    }
    return line(header) + rows.map(line).joined()
}

/// `units.fixedPointSize` as reports print it: metres per point to 6 decimals, trailing zeros
/// dropped (the default, tan(0.0671°) · 1 m, is "0.001171").
public func fixedPointSizeText(_ metresPerPoint: Double) -> String { fmtShort(metresPerPoint) }

// MARK: - USD facts

extension ModelDump {
    static func usdJSON(_ u: USDAssetSummary) -> JSON {
        let stages: [JSON] = u.stages.map { s in
            .object([
                ("file", .string(s.file)),
                ("metersPerUnit", .number(s.metersPerUnit)),
                ("metersPerUnitAuthored", .bool(s.metersPerUnitAuthored)),
                ("upAxis", .string(s.upAxis)),
                ("upAxisAuthored", .bool(s.upAxisAuthored)),
                ("timeCodesPerSecond", .number(s.timeCodesPerSecond)),
                ("startTimeCode", .number(s.startTimeCode)),
                ("endTimeCode", .number(s.endTimeCode)),
                ("layers", .int(s.layerCount)),
                ("defaultPrim", .optional(s.defaultPrim)),
                ("applied", .string(s.unitNote)),
            ])
        }
        let prims: [JSON] = u.prims.map { p in
            var m: [(String, JSON)] = [("path", .string(p.primPath)), ("type", .string(p.typeName)),
                                       ("visible", .bool(p.visible))]
            if let o = p.opacity { m.append(("opacity", .rounded(o))) }
            if let i = p.interactive { m.append(("interactive", .bool(i))) }
            if let d = p.allowsDirectInput { m.append(("allowsDirectInput", .bool(d))) }
            if let d = p.allowsIndirectInput { m.append(("allowsIndirectInput", .bool(d))) }
            if let h = p.hitRegion {
                m.append(("hitRegion", .object([
                    ("shape", .string(h.shape.rawValue)),
                    ("size", .array([.rounded(h.size.x), .rounded(h.size.y), .rounded(h.size.z)])),
                    ("center", .array([.rounded(h.pose.translation.x), .rounded(h.pose.translation.y), .rounded(h.pose.translation.z)])),
                    ("bounds", bounds(h.bounds)),
                ])))
            }
            if let a = p.anchor { m.append(("anchor", .string(a.rawValue))) }
            if let l = p.accessibilityLabel { m.append(("accessibilityLabel", .string(l))) }
            if let b = p.billboard { m.append(("billboard", .rounded(b))) }
            m.append(("components", .array(p.components.map { c in
                .object([("id", .string(c.id)), ("name", .string(c.name)), ("custom", .bool(c.custom)),
                         ("fields", usdFields(c.fields))])
            })))
            return .object(m)
        }
        return .object([("stages", .array(stages)), ("prims", .array(prims))])
    }

    static func usdFields(_ fields: [USDField]) -> JSON {
        .object(fields.map { ($0.name, usdValue($0.value)) })
    }

    static func usdValue(_ v: USDValue) -> JSON {
        switch v {
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .list(let items): return .array(items.map(usdValue))
        case .structure(let f): return usdFields(f)
        }
    }

    static func usdText(_ u: USDAssetSummary) -> String {
        var out = ""
        for p in u.prims {
            var facts: [String] = []
            if !p.visible { facts.append(p.opacity == 0 ? "opacity 0" : "invisible") }
            if let i = p.interactive {
                if i {
                    let how = switch (p.allowsDirectInput ?? true, p.allowsIndirectInput ?? true) {
                    case (true, true): "direct and indirect"
                    case (true, false): "direct only"
                    case (false, true): "indirect only"
                    case (false, false): "no input kinds"
                    }
                    facts.append("interactive (\(how))")
                } else {
                    facts.append("InputTarget disabled")
                }
            }
            if let h = p.hitRegion {
                facts.append("hit region \(h.shape.rawValue) \(fmt(h.size.x, 3))×\(fmt(h.size.y, 3))×\(fmt(h.size.z, 3)) at \(vec(h.pose.translation)) (file units)")
            }
            if let a = p.anchor { facts.append("anchor \(a.rawValue)") }
            if let l = p.accessibilityLabel { facts.append("label \"\(Escape.text(l))\"") }
            if let b = p.billboard { facts.append("billboard \(fmt(b, 2))") }
            if let o = p.opacity, p.visible { facts.append("opacity \(fmt(o, 2))") }
            let names = p.components.map { Escape.text($0.name) + ($0.custom ? " (custom)" : "") }
            out += "      \(Escape.text(p.primPath)): " + (facts + (names.isEmpty ? [] : ["components: " + names.joined(separator: ", ")]))
                .joined(separator: "; ") + "\n"
        }
        return out.isEmpty ? "" : "    USD prims with RealityKit components:\n" + out
    }
}
