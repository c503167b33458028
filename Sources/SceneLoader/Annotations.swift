import Foundation
import SpatialModel
import AssetImport

/// Keys of the code-side facts an element accepts besides its own (scene format, "Annotations").
let elementFactKeys = ["interaction", "hoverEffect", "hitRegion", "accessibilityLabel"]
/// Keys of one entry of a model's or environment's `annotations`.
let annotationKeys = ["nodes", "role", "interactive", "interaction", "hoverEffect", "hitRegion", "anchor",
                      "accessibilityLabel"]

/// One entry of `annotations`: facts for the asset nodes its globs match.
struct NodeAnnotation {
    var globs: [(pattern: String, loc: SourceLocation)]
    var role: ElementRole?
    var facts: NodeFacts
    var loc: SourceLocation
    var look = NodeLook()
}

/// Path globs over asset node paths: `*` matches within one name, `**` across names, `?` one
/// character of a name; `**/` also matches nothing. A glob without `/` is matched against the
/// node's name alone, anywhere in the asset.
enum NodeGlob {
    private enum Token: Equatable { case literal(UInt8), one, star, globstar, globstarSlash }
    static let maxPattern = 1_024
    static let maxPath = 8_192

    static func matches(_ pattern: String, path: String, name: String) -> Bool {
        var p = pattern
        while p.hasPrefix("/") { p.removeFirst() }
        let text = p.contains("/") ? path : name
        if !p.contains(where: { $0 == "*" || $0 == "?" }) { return p == text }
        let t = Array(text.utf8), pat = Array(p.utf8)
        guard t.count <= maxPath, pat.count <= maxPattern else { return false }
        return match(tokens(pat), t)
    }

    private static func tokens(_ p: [UInt8]) -> [Token] {
        var out: [Token] = []
        var i = 0
        while i < p.count {
            let c = p[i]
            if c == UInt8(ascii: "*") {
                if i + 1 < p.count, p[i + 1] == UInt8(ascii: "*") {
                    if i + 2 < p.count, p[i + 2] == UInt8(ascii: "/") { out.append(.globstarSlash); i += 3 } else { out.append(.globstar); i += 2 }
                    // Further stars add nothing.
                    while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
                    continue
                }
                out.append(.star)
            } else if c == UInt8(ascii: "?") {
                out.append(.one)
            } else {
                out.append(.literal(c))
            }
            i += 1
        }
        return out
    }

    /// Row-by-row dynamic programme from the last token: `next[j]` says whether the tokens after the
    /// current one match `t[j...]`. O(tokens × text), no backtracking.
    private static func match(_ tokens: [Token], _ t: [UInt8]) -> Bool {
        let m = t.count
        let slash = UInt8(ascii: "/")
        var next = [Bool](repeating: false, count: m + 1)
        next[m] = true
        var cur = next
        for tok in tokens.reversed() {
            switch tok {
            case .literal(let c):
                for j in 0...m { cur[j] = j < m && t[j] == c && next[j + 1] }
            case .one:
                for j in 0...m { cur[j] = j < m && t[j] != slash && next[j + 1] }
            case .star:
                cur[m] = next[m]
                for j in stride(from: m - 1, through: 0, by: -1) { cur[j] = next[j] || (t[j] != slash && cur[j + 1]) }
            case .globstar:
                cur[m] = next[m]
                for j in stride(from: m - 1, through: 0, by: -1) { cur[j] = next[j] || cur[j + 1] }
            case .globstarSlash:
                // Nothing, or any text ending in '/'.
                var endsHere = false
                cur[m] = next[m]
                for j in stride(from: m - 1, through: 0, by: -1) {
                    if t[j] == slash && next[j + 1] { endsHere = true }
                    cur[j] = next[j] || endsHere
                }
            }
            swap(&cur, &next)
        }
        return next[0]
    }
}

extension SceneBuilder {
    // MARK: - Parsing

    static let maxAnnotations = 10_000

    /// `annotations:` of a model or environment.
    func parseAnnotations(_ n: YNode, what: String) -> [NodeAnnotation] {
        guard let items = r.list(n, "'annotations' of \(what)") else { return [] }
        if items.count > Self.maxAnnotations {
            r.error(n.loc, "'annotations' of \(what) has \(items.count) entries; the limit is \(Self.maxAnnotations)",
                    hint: "match several nodes with one glob ('Root/Knob*')")
            return []
        }
        var out: [NodeAnnotation] = []
        for item in items {
            guard let m = r.mapping(item, "an entry of 'annotations' of \(what)") else { continue }
            let awhat = "an annotation of \(what)"
            m.checkKeys(SceneKeys.annotation, in: awhat, reader: r)
            var globs: [(String, SourceLocation)] = []
            if let gn = m.require("nodes", in: awhat, reader: r,
                                  hint: "name the asset nodes with a path glob, e.g. nodes: \"Root/Knob*\" (or a list of globs)") {
                let list: [YNode]
                if case .sequence(let l) = gn.kind { list = l } else { list = [gn] }
                if list.isEmpty { r.error(gn.loc, "'nodes' of \(awhat) is an empty list; give at least one path glob") }
                for g in list {
                    guard let s = r.string(g, "'nodes' of \(awhat) (a path glob)") else { continue }
                    let trimmed = s.drop { $0 == "/" }
                    if trimmed.isEmpty || s.utf8.count > NodeGlob.maxPattern {
                        r.error(g.loc, "'nodes' of \(awhat) must be a node path or glob of 1 to \(NodeGlob.maxPattern) bytes, found '\(quoted(s))'",
                                hint: "for example \"Root/Knob*\", \"Knob*\" (a name anywhere) or \"**/Handle\"")
                        continue
                    }
                    globs.append((s, g.loc))
                }
            }
            let role = m["role"].flatMap { r.enumValue($0, "'role' of \(awhat)", ElementRole.self) }
            var facts = NodeFacts()
            facts.interactive = m["interactive"].flatMap { r.bool($0, "'interactive' of \(awhat)") }
            facts.interaction = m["interaction"].flatMap { r.enumValue($0, "'interaction' of \(awhat)", Interaction.self) }
            facts.hoverEffect = m["hoverEffect"].flatMap { parseHoverEffect($0, "'hoverEffect' of \(awhat)") }
            facts.hitRegion = m["hitRegion"].flatMap { parseHitRegion3D($0, "'hitRegion' of \(awhat)") }
            facts.anchor = m["anchor"].flatMap { r.enumValue($0, "'anchor' of \(awhat)", Anchor.self) }
            facts.accessibilityLabel = m["accessibilityLabel"].flatMap { r.string($0, "'accessibilityLabel' of \(awhat)") }
            let look = parseNodeLook(m, awhat)
            if !globs.isEmpty { out.append(NodeAnnotation(globs: globs, role: role, facts: facts, loc: m.loc, look: look)) }
        }
        return out
    }

    /// `true` → system, `false` → none, or one of the effects by name.
    func parseHoverEffect(_ n: YNode, _ what: String) -> HoverEffect? {
        if case let .scalar(s) = n.kind, s.type == .bool { return r.bool(n, what).map { $0 ? .system : HoverEffect.none } }
        return r.enumValue(n, what + " (true, false or an effect)", HoverEffect.self)
    }

    /// An element's hit region: `{size: [w, h]}` or `{insets: n | [top, left, bottom, right]}`, in points.
    func parseHitRegion2D(_ n: YNode, _ what: String) -> HitRegion? {
        guard let m = r.mapping(n, "\(what) ({size: [width, height]} or {insets: [top, left, bottom, right]} in points)") else { return nil }
        let threeD = "applies to asset-node annotations (3D, in metres); an element's hit region is {size: [width, height]} or {insets: …} in points"
        m.checkKeys(["size", "insets"], in: what, reader: r,
                    elsewhere: ["shape": threeD, "radius": threeD, "height": threeD, "center": threeD])
        return hitRegion2D(m, what)
    }

    /// `size: [w, h]` or `insets` in points, keys already checked.
    private func hitRegion2D(_ m: YMap, _ what: String) -> HitRegion? {
        if m.has("size") && m.has("insets") {
            r.error(m.keyLoc("insets"), "\(what) gives both 'size' and 'insets'; give one of them")
            return nil
        }
        if let sn = m["size"] {
            guard let v = r.numbers(sn, count: 2, "'size' of \(what)", shape: "[width, height] in points") else { return nil }
            guard v[0] > 0, v[1] > 0 else {
                r.error(sn.loc, "'size' of \(what) must be greater than 0 in both dimensions, found [\(Reader.format(v[0])), \(Reader.format(v[1]))]")
                return nil
            }
            return .size(width: v[0], height: v[1])
        }
        if let inn = m["insets"] {
            if case .scalar = inn.kind {
                guard let d = r.number(inn, "'insets' of \(what)", expected: "points (negative values grow the region)") else { return nil }
                return .insets(top: d, left: d, bottom: d, right: d)
            }
            guard let v = r.numbers(inn, count: 4, "'insets' of \(what)", shape: "a number or [top, left, bottom, right] in points") else { return nil }
            return .insets(top: v[0], left: v[1], bottom: v[2], right: v[3])
        }
        // A misspelt key was reported already.
        guard m.pairs.isEmpty else { return nil }
        r.error(m.loc, "\(what) needs 'size: [width, height]' or 'insets' in points",
                hint: "for a 44×44 pt touch area: hitRegion: {size: [44, 44]}; to grow the frame by 8 pt on each side: hitRegion: {insets: -8}")
        return nil
    }

    /// An asset node's hit region in metres: `{size: [x, y, z]}` (a box), `{shape: sphere, radius}`,
    /// `{shape: capsule, radius, height}`, each with an optional `center: [x, y, z]` offset.
    func parseHitRegion3D(_ n: YNode, _ what: String) -> HitRegion? {
        guard let m = r.mapping(n, "\(what) ({size: [x, y, z]} in metres, or {shape: sphere, radius})") else { return nil }
        // In points, as on elements: a flat region at the node's fixed point size.
        let sizeIs2D = m["size"].map { if case .sequence(let l) = $0.kind { l.count == 2 } else { false } } ?? false
        if !m.has("shape") && (m.has("insets") || sizeIs2D) {
            let flat = "applies to 3D hit regions in metres; a hit region in points is {size: [width, height]} or {insets: …}"
            m.checkKeys(["size", "insets"], in: what, reader: r,
                        elsewhere: ["radius": flat, "height": flat, "center": flat])
            return hitRegion2D(m, what)
        }
        m.checkKeys(["shape", "size", "radius", "height", "center"], in: what, reader: r,
                    elsewhere: ["insets": "is in points and cannot be combined with a 3D shape; give {insets: …} alone"])
        enum ShapeName: String, CaseIterable { case box, sphere, capsule }
        var shape: ShapeName?
        if let sn = m["shape"] {
            guard let s = r.enumValue(sn, "'shape' of \(what)", ShapeName.self) else { return nil }
            shape = s
        }
        let kind = shape ?? (m.has("size") ? .box : m.has("height") ? .capsule : m.has("radius") ? .sphere : nil)
        let center = m["center"].flatMap { r.vec3($0, "'center' of \(what)", shape: "[x, y, z] in metres from the node's centre") } ?? .zero
        func positive(_ key: String, _ unit: String) -> Double? {
            guard let v = m.require(key, in: "\(what) (shape \(kind?.rawValue ?? "box"))", reader: r) else { return nil }
            return r.positive(v, "'\(key)' of \(what) (\(unit))")
        }
        func reject(_ keys: [String], for s: ShapeName) {
            for k in keys where m.has(k) {
                r.error(m.keyLoc(k), "'\(k)' is not used by a \(s.rawValue) hit region",
                        hint: "box: size: [x, y, z]; sphere: radius; capsule: radius and height (metres)")
            }
        }
        switch kind {
        case .box:
            reject(["radius", "height"], for: .box)
            guard let sn = m.require("size", in: what, reader: r, hint: "a box hit region needs size: [x, y, z] in metres"),
                  let v = r.vec3(sn, "'size' of \(what)", shape: "[x, y, z] in metres, or [width, height] in points") else { return nil }
            guard v.x > 0, v.y > 0, v.z > 0 else {
                r.error(sn.loc, "'size' of \(what) must be greater than 0 on every axis (an element's 2D hit region is in points; a node's is 3D, in metres)")
                return nil
            }
            return .shape(HitShape(.box(size: v), center: center))
        case .sphere:
            reject(["size", "height"], for: .sphere)
            guard let rad = positive("radius", "metres") else { return nil }
            return .shape(HitShape(.sphere(radius: rad), center: center))
        case .capsule:
            reject(["size"], for: .capsule)
            let rad = positive("radius", "metres"), h = positive("height", "metres, caps included")
            guard let rad, let h else { return nil }
            return .shape(HitShape(.capsule(radius: rad, height: h), center: center))
        case nil:
            guard m.pairs.allSatisfy({ ["center"].contains($0.key) }) else { return nil }
            r.error(m.loc, "\(what) needs 'size: [x, y, z]' (a box), or 'shape: sphere' with 'radius', or 'shape: capsule' with 'radius' and 'height', in metres",
                    hint: "for a 6 cm knob: hitRegion: {size: [0.06, 0.06, 0.06]}")
            return nil
        }
    }

    // MARK: - Elements

    /// The code-side facts of an element (`interaction`, `hoverEffect`, `hitRegion`,
    /// `accessibilityLabel`) and their sources. A hit region replaces the element's geometry, so the
    /// simulator measures the region that takes input (container pt per metre: `s`).
    func elementFacts(_ m: YMap, _ e: inout Entity, what: String, s: Double) {
        if m.has("interactive") { e.factSources.interactive = .annotation }
        if let v = m["interaction"].flatMap({ r.enumValue($0, "'interaction' of \(what)", Interaction.self) }) {
            e.interaction = v; e.factSources.interaction = .annotation
        }
        if let v = m["hoverEffect"].flatMap({ parseHoverEffect($0, "'hoverEffect' of \(what)") }) {
            e.hoverEffect = v; e.factSources.hoverEffect = .annotation
        }
        if let v = m["accessibilityLabel"].flatMap({ r.string($0, "'accessibilityLabel' of \(what)") }) {
            e.accessibilityLabel = v; e.factSources.accessibilityLabel = .annotation
        }
        guard let hn = m["hitRegion"], let region = parseHitRegion2D(hn, "'hitRegion' of \(what)"),
              let frame = e.frame else { return }
        guard let rect = region.rect(for: frame) else {
            r.error(hn.loc, "'hitRegion' of \(what) leaves no area: its insets remove the whole \(Reader.format(frame.width)) × \(Reader.format(frame.height)) pt frame",
                    hint: "insets follow UIKit: positive values shrink the frame, negative values grow it (insets: -8 adds 8 pt on each side)")
            return
        }
        e.hitRegion = region
        e.hitFrame = rect
        e.factSources.hitRegion = .annotation
        // The element's node sits at its frame's centre; the region's centre is offset from it in
        // points (+y down in the container, +y up in the node).
        let d = rect.center - frame.center
        let c = Vec3(d.x * s, -d.y * s, 0)
        let half = Vec3(rect.width * s / 2, rect.height * s / 2, 0)
        nodes[e.node].geometry = AABB(min: c - half, max: c + half)
    }

    // MARK: - Asset nodes

    /// A glob that starts with '/' also matches a USD prim's path on its stage ("/Root/Pieces/*/Body"),
    /// as Reality Composer Pro shows it (docs/scene-format.md, "Annotations").
    func primGlobMatches(_ pattern: String, _ node: AssetNode, budget: inout Int) -> Bool {
        guard pattern.hasPrefix("/"), pattern.utf8.dropFirst().contains(UInt8(ascii: "/")),
              let prim = node.usd?.primPath, prim.count > 1 else { return false }
        budget -= pattern.utf8.count * prim.utf8.count
        return NodeGlob.matches(pattern, path: String(prim.dropFirst()), name: node.name)
    }

    /// Bytes of glob × bytes of node path matched per model, at most (about a second of work).
    static let maxGlobWork = 500_000_000

    /// Entities for the asset's marked nodes, the nodes its file states facts about (USD
    /// components) and the nodes the scene annotates, in node order. Facts: annotation (later
    /// entries override earlier ones) > file > name prefix > default.
    func nodeEntities(asset: ImportedAsset, display: String, sel: Range<Int>, map: [Int: Int], entIdx: Int,
                      anchor: Anchor, path: String, loc: SourceLocation?) {
        let annotations = pendingAnnotations
        pendingAnnotations = []
        let owner = entities.indices.contains(entIdx) ? "\(entities[entIdx].kind.rawValue) '\(entities[entIdx].path)'" : "the model"

        // Which annotations apply to which node.
        var applied: [Int: [Int]] = [:]
        if !annotations.isEmpty {
            var nodePath = [String](repeating: "", count: asset.nodes.count)
            for (i, n) in asset.nodes.enumerated() {
                let parentPath = n.parent.map { $0 >= 0 && $0 < i ? nodePath[$0] : "" } ?? ""
                // Paths longer than any glob can match stop growing (a deep chain would otherwise
                // take memory quadratic in its depth).
                if n.name.isEmpty || parentPath.utf8.count > NodeGlob.maxPath {
                    nodePath[i] = parentPath
                } else {
                    nodePath[i] = parentPath.isEmpty ? n.name : parentPath + "/" + n.name
                }
            }
            // Matching costs up to (glob length × path length) per node: a budget keeps a hostile
            // file (thousands of long globs over a million nodes) from running for hours.
            var budget = Self.maxGlobWork
            matching: for (k, a) in annotations.enumerated() {
                for g in a.globs {
                    var matched = false
                    for i in sel where !asset.nodes[i].name.isEmpty {
                        budget -= g.pattern.utf8.count * max(1, nodePath[i].utf8.count)
                        if budget < 0 {
                            r.error(g.loc, "the annotations of \(owner) need too much matching work for asset '\(quoted(display, limit: 200))' (\(asset.nodes.count) nodes); the rest are ignored",
                                    hint: "use fewer or shorter globs")
                            break matching
                        }
                        guard NodeGlob.matches(g.pattern, path: nodePath[i], name: asset.nodes[i].name)
                                || primGlobMatches(g.pattern, asset.nodes[i], budget: &budget) else { continue }
                        matched = true
                        if applied[i]?.last != k { applied[i, default: []].append(k) }
                    }
                    if !matched {
                        let names = sel.lazy.map { nodePath[$0] }.filter { !$0.isEmpty }.prefix(10).map { $0 }
                        r.warning(g.loc, "annotation glob '\(quoted(g.pattern))' of \(owner) matches no node of asset '\(quoted(display, limit: 200))'; it is ignored",
                                  hint: "paths are node names joined by '/' from the asset's top node (or, for USD, a prim path starting with '/': \"/Root/Knob*\"); a glob without '/' matches a name anywhere. Node paths in the asset: "
                                    + Reader.quoteList(Array(names), limit: 10))
                    }
                }
            }
            // One object, one entity: a node whose ancestor the same annotation matches is part of
            // that ancestor's entity (its geometry is in the ancestor's subtree), not an entity of
            // its own for that annotation ('nodes: "**"' makes the model's top node the target, not
            // also each mesh below it). Walks only the annotated ancestors, within the same budget.
            if budget >= 0 && applied.count > 1 {
                var nearest = [Int](repeating: -1, count: asset.nodes.count)
                for i in asset.nodes.indices {
                    guard let p = asset.nodes[i].parent, p >= 0, p < i else { continue }
                    nearest[i] = applied[p] != nil ? p : nearest[p]
                }
                var kept: [Int: [Int]] = [:]
                reduce: for i in applied.keys.sorted() {
                    let own = applied[i] ?? []
                    var left: [Int] = []
                    for k in own {
                        var p = nearest[i], inherited = false
                        while p >= 0 {
                            budget -= 1
                            if budget < 0 { kept = applied; break reduce }
                            if applied[p]?.contains(k) == true { inherited = true; break }
                            p = nearest[p]
                        }
                        if !inherited { left.append(k) }
                    }
                    if !left.isEmpty { kept[i] = left }
                }
                applied = kept
            }
        }

        var used: [String: Int] = [:]
        let firstNodeEntity = entities.count
        for i in sel {
            let an = asset.nodes[i]
            let anns = applied[i] ?? []
            guard let sceneIdx = map[i], an.marking != nil || !an.facts.isEmpty || !anns.isEmpty else { continue }
            let where_ = anns.first.map { annotations[$0].loc } ?? loc
            var id = Self.sanitise(an.name)
            if let count = used[id] {
                used[id] = count + 1
                let prim = an.usd.map { " (USD prim \($0.primPath))" } ?? ""
                r.warning(where_, "asset '\(display)' has several marked or annotated nodes named '\(id)'; the later ones are reported as '\(id)~\(count + 1)'\(prim)")
                id += "~\(count + 1)"
            } else {
                used[id] = 1
            }
            var epath = path + "/" + id
            checkPathLength(epath, parentPath: path, at: where_, kind: "asset node", id: id)
            if let prev = paths.value(forKey: epath) {
                r.warning(where_, "node '\(id)' of asset '\(display)' has the same path as the entity at \(prev.map { "\($0)" } ?? "?"); it is reported as '\(epath)~asset'")
                epath += "~asset"
            }
            paths.updateValue(where_, forKey: epath)
            let ent = entities.count
            var e = Entity(id: id, path: epath, kind: .node, node: sceneIdx, location: where_ ?? SourceLocation(line: 1, column: 1))
            e.geometryNodes = sceneIdx..<nodes[sceneIdx].subtreeEnd
            e.parent = entIdx
            e.scaleMode = .fixed
            e.metresPerPoint = units.fixedPointSize
            // Name prefix or extras, then the file's components, then the annotations in order.
            var role = an.marking?.role
            var interactive: Bool?
            if let mark = an.marking {
                e.primary = mark.primary ?? false
                e.fontSize = mark.fontSize
                interactive = mark.interactive ?? mark.role.defaultInteractive
                e.factSources.interactive = mark.source == .extras ? .file : .namePrefix
            }
            var facts = an.facts
            var src = FactSources()
            if facts.interactive != nil { src.interactive = .file }
            if facts.interaction != nil { src.interaction = .file }
            if facts.hoverEffect != nil { src.hoverEffect = .file }
            if facts.hitRegion != nil { src.hitRegion = .file }
            if facts.anchor != nil { src.anchor = .file }
            if facts.accessibilityLabel != nil { src.accessibilityLabel = .file }
            var arkitAnchor = facts.arkitAnchor
            for k in anns {
                let a = annotations[k]
                if a.facts.anchor != nil { arkitAnchor = nil }  // the scene's anchor replaces the file's
                if let v = a.role { role = v }
                if let v = a.facts.interactive { facts.interactive = v; src.interactive = .annotation }
                if let v = a.facts.interaction { facts.interaction = v; src.interaction = .annotation }
                if let v = a.facts.hoverEffect { facts.hoverEffect = v; src.hoverEffect = .annotation }
                if let v = a.facts.hitRegion { facts.hitRegion = v; src.hitRegion = .annotation }
                if let v = a.facts.anchor { facts.anchor = v; src.anchor = .annotation }
                if let v = a.facts.accessibilityLabel { facts.accessibilityLabel = v; src.accessibilityLabel = .annotation }
                a.look.apply(to: &e)
            }
            if let v = facts.interactive { interactive = v; e.factSources.interactive = src.interactive }
            e.role = role
            e.interactive = interactive ?? role?.defaultInteractive ?? false
            if interactive == nil { e.factSources.interactive = .default }
            e.interaction = facts.interaction; e.factSources.interaction = src.interaction
            e.hoverEffect = facts.hoverEffect; e.factSources.hoverEffect = src.hoverEffect
            e.accessibilityLabel = facts.accessibilityLabel; e.factSources.accessibilityLabel = src.accessibilityLabel
            e.arkitAnchor = arkitAnchor
            if let u = an.usd, !u.primPath.isEmpty {
                // The stage's file relative to the scene file's folder (`Scene.relocateUSDPrims` makes
                // it relative to the project root): the asset file itself, or the scene in an
                // .rkassets folder; a bare asset is the scene's own file.
                let file = isBareAsset ? (display as NSString).lastPathComponent : display
                let layer = USDImporter.isRKAssets(display) && !u.stageFile.isEmpty
                    ? (file.hasSuffix("/") ? file + u.stageFile : file + "/" + u.stageFile) : file
                e.usdPrim = USDPrimRef(path: u.primPath, layer: layer)
            }
            // The anchor its ancestors give it, unless a fact re-anchors it.
            let inherited = nodes[sceneIdx].anchor
            e.anchor = inherited
            entities.append(e)
            nodes[sceneIdx].entity = ent
            if let region = facts.hitRegion {
                if attachHitRegion(region, entity: ent, node: sceneIdx, what: "node '\(id)' of asset '\(display)'", loc: where_) {
                    entities[ent].hitRegion = region
                    entities[ent].factSources.hitRegion = src.hitRegion
                }
            }
            if let a = facts.anchor {
                entities[ent].factSources.anchor = src.anchor
                if a != inherited { reanchor(node: sceneIdx, entity: ent, to: a, asset: asset, assetNode: i, loc: where_) }
            } else {
                entities[ent].factSources.anchor = .default
            }
        }
        // A model that is one target (a single node entity, as `nodes: "**"` makes its top node)
        // is what the model's own accessibilityLabel describes: the node takes it when neither the
        // file nor an annotation labels it. Several node entities each need their own label.
        if entities.count == firstNodeEntity + 1, entities.indices.contains(entIdx),
           let label = entities[entIdx].accessibilityLabel, entities[firstNodeEntity].accessibilityLabel == nil {
            entities[firstNodeEntity].accessibilityLabel = label
            entities[firstNodeEntity].factSources.accessibilityLabel = entities[entIdx].factSources.accessibilityLabel
        }
        if entities.count == firstNodeEntity + 1, entities.indices.contains(entIdx) { mergeWholeModel(entIdx, node: firstNodeEntity) }
    }

    /// One object, one target (s30 trial F1, F2): a model whose only node entity holds all of its
    /// geometry in its anchor frame is that node. The node is marked `wholeModel` (the motion rules
    /// judge the model alone); an interactive model passes its interactivity to the node unless the
    /// node states its own, and is then no target itself: the node, with its facts (hit region,
    /// hover effect, role), is the one target, not also the model's mesh bounds beside it.
    private func mergeWholeModel(_ model: Int, node n: Int) {
        let idx = entities[n].node
        guard nodes.indices.contains(idx), entities[n].anchor == entities[model].anchor else { return }
        let end = nodes[idx].subtreeEnd
        let covers = entities[model].geometryNodes.allSatisfy { k in
            (k >= idx && k < end) || !nodes.indices.contains(k) || (nodes[k].geometry.isEmpty && nodeVertices[k] == nil)
        }
        guard covers else { return }
        entities[n].wholeModel = true
        guard entities[model].interactive else { return }
        if entities[n].factSources.interactive == .default {
            entities[n].interactive = true
            entities[n].factSources.interactive = entities[model].factSources.interactive
        }
        if entities[n].interactive { entities[model].interactive = false }
    }

    /// Gives a node entity a hit-region node, measured instead of its meshes: a box along the node's
    /// axes, in metres as the viewer sees them (not scaled by the asset's units or the node's scale),
    /// centred on the rest bounds of the node's subtree (or its origin) plus the shape's offset. A
    /// sphere or capsule gives the box around it; a region in points (`size: [w, h]`, `insets`) is a
    /// flat rectangle at the fixed point size, as deep as the node's bounds.
    private func attachHitRegion(_ region: HitRegion, entity ent: Int, node idx: Int, what: String,
                                 loc: SourceLocation?) -> Bool {
        let w = world[idx]
        let axes = [Vec3(w.values[0], w.values[1], w.values[2]), Vec3(w.values[4], w.values[5], w.values[6]), Vec3(w.values[8], w.values[9], w.values[10])]
        let scale = Vec3(length(axes[0]), length(axes[1]), length(axes[2]))
        guard let inverse = Self.affineInverse(w), scale.isFinite, scale.min() > 1e-12 else {
            r.warning(loc, "the hit region of \(what) is ignored: the node's transform has no inverse (a zero scale)")
            return false
        }
        // The subtree's rest bounds in the node's frame.
        var local = AABB.empty
        for k in idx..<min(nodes[idx].subtreeEnd, nodes.count) {
            let toNode = inverse * world[k]
            if let v = nodeVertices[k] {
                var j = 0
                while j + 2 < v.count {
                    local.formUnion(toNode.transformPoint(Vec3(Double(v[j]), Double(v[j + 1]), Double(v[j + 2]))))
                    j += 3
                }
            } else {
                local.formUnion(nodes[k].geometry.transformed(by: toNode))
            }
        }
        let centre = local.isEmpty ? Vec3.zero : local.center * scale   // metres along the node's axes
        let extent = local.size * scale
        let pt = units.fixedPointSize
        var size: Vec3, c = centre
        switch region {
        case .shape(let shape):
            size = shape.size
            c = (shape.origin == .node ? .zero : centre) + shape.center
        case .size(let width, let height):
            size = Vec3(width * pt, height * pt, extent.z)
        case .insets(let t, let l, let b, let rr):
            size = Vec3(extent.x - (l + rr) * pt, extent.y - (t + b) * pt, extent.z)
            c += Vec3((l - rr) / 2 * pt, (b - t) / 2 * pt, 0)
        }
        guard size.x > 0, size.y > 0, size.z >= 0, size.isFinite, c.isFinite else {
            r.warning(loc, "the hit region of \(what) is ignored: its insets leave no area of the node's \(Self.metres(extent.x)) × \(Self.metres(extent.y)) bounds",
                      hint: "insets follow UIKit: positive values shrink the region, negative values grow it")
            return false
        }
        let synth = appendNode(name: "\(nodes[idx].name) (hit region)", parent: idx, restTRS: .identity,
                               geometry: AABB(min: (c - size / 2) / scale, max: (c + size / 2) / scale),
                               anchor: nodes[idx].anchor, entity: nil)
        entities[ent].geometryNodes = synth..<(synth + 1)
        return true
    }

    /// Moves node `idx` (and its subtree) into anchor frame `a`, keeping its rest world pose: from
    /// t = 0 on it moves with the head or hand (or stays in the world).
    private func reanchor(node idx: Int, entity ent: Int, to a: Anchor, asset: ImportedAsset, assetNode: Int,
                          loc: SourceLocation?) {
        let (frame, rot) = anchorFrame(a)
        let inverse = Transform(rotation: rot.conjugate).matrix * Transform(translation: -frame.translation).matrix
        let rest = inverse * world[idx]
        nodes[idx].parent = nil
        nodes[idx].rest = rest
        nodes[idx].restTRS = rest.decomposedTRS() ?? .identity
        let end = min(nodes[idx].subtreeEnd, nodes.count)
        for k in idx..<end { nodes[k].anchor = a }
        // Its own hit-region node, appended after the asset (those of nodes below it are made
        // later and take the anchor from their node).
        let g = entities[ent].geometryNodes
        if g.lowerBound >= end, g.lowerBound < nodes.count { nodes[g.lowerBound].anchor = a }
        entities[ent].anchor = a
        if asset.animations.contains(where: { $0.channels.contains { $0.node == assetNode } }) {
            r.warning(loc, "node '\(nodes[idx].name)' is anchored to the \(a.rawValue) by its facts and has its own clip animation; the clip's keys are applied in the \(a.rawValue) frame, not in its parent's",
                      hint: "anchor the node's parent instead, or check the node's motion with 'spatialcheck simulate'")
        }
    }

    /// Inverse of an affine matrix (nil when singular).
    static func affineInverse(_ w: Mat4) -> Mat4? {
        let a = w.values[0], b = w.values[4], c = w.values[8]
        let d = w.values[1], e = w.values[5], f = w.values[9]
        let g = w.values[2], h = w.values[6], i = w.values[10]
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let inv = [
            (e * i - f * h) / det, -(b * i - c * h) / det, (b * f - c * e) / det,
            -(d * i - f * g) / det, (a * i - c * g) / det, -(a * f - c * d) / det,
            (d * h - e * g) / det, -(a * h - b * g) / det, (a * e - b * d) / det,
        ] // row-major 3×3
        let t = w.translation
        let tx = -(inv[0] * t.x + inv[1] * t.y + inv[2] * t.z)
        let ty = -(inv[3] * t.x + inv[4] * t.y + inv[5] * t.z)
        let tz = -(inv[6] * t.x + inv[7] * t.y + inv[8] * t.z)
        let m = Mat4(columnMajor: [inv[0], inv[3], inv[6], 0, inv[1], inv[4], inv[7], 0, inv[2], inv[5], inv[8], 0, tx, ty, tz, 1])
        return m.isFinite ? m : nil
    }
}
