import SpatialModel

/// The interactive content that a visible modal presentation covers (docs/scene-format.md,
/// "Sheets, alerts, popovers and menus"): while a sheet, alert, popover or menu is shown, the rest
/// of the window that opened it can be neither looked at nor tapped (sheets › visionOS: a sheet
/// "floats in front of its parent window, dimming it, and becoming the target of people's
/// interactions"), so the pairwise target rules do not compare it with anything.
///
/// Modal presentations: a window nested in a window or volume with a `presentation` (it covers
/// every interactive entity of its presenting window's subtree: the window it is nested in, or,
/// when that is an ornament, the window the ornament belongs to, as a popover opened from a
/// toolbar covers the toolbar's window), and an element with role `sheet` or `alert` (it covers
/// the other interactive elements of its container except those laid on it: inside its frame, at
/// its depth or in front). Of the shown presentations, the innermost (those with no shown
/// presentation nested in them) are on top: their own content stays uncovered, and everything
/// else in the windows that present the shown ones is covered, so an alert a sheet presents covers
/// the sheet, and two presentations shown side by side keep their own content.
///
/// Work is bounded whatever the scene: subtrees are node ranges (nodes are in depth-first
/// pre-order), so `update` marks the covered entities in one sweep of the nodes, and only the
/// first `elementModalsPerContainer` sheet and alert elements of a container are modal.
struct ModalCover {
    /// Windows presented by another: the entity, its parent's node range and its own.
    private let windows: [(entity: Int, parent: Range<Int>, own: Range<Int>)]
    /// Sheet and alert elements: the entity, its container, frame and depth.
    private let sheets: [(entity: Int, container: Int, frame: RectPt, depth: Double)]
    /// Per container that holds a modal element (by index in `containers`): its interactive
    /// elements, with their frames and depths.
    private let containers: [Int]
    private let members: [[(entity: Int, frame: RectPt, depth: Double)]]
    /// Per node: the interactive entity it stands for, or -1.
    private let interactiveAt: [Int32]
    /// Per entity: whether a visible modal presentation covers it in the last frame `update` read.
    private(set) var covered: [Bool]
    /// The presentations' entities (windows, then sheets), and which were visible in that frame.
    private let presentations: [Int]
    private var shown: [Bool]

    /// Sheet and alert elements per container that are modal (the first ones in scene order).
    static let elementModalsPerContainer = 16

    var isEmpty: Bool { windows.isEmpty && sheets.isEmpty }

    init(_ scene: Scene) {
        let ents = scene.entities, nodes = scene.nodes
        covered = Array(repeating: false, count: ents.count)
        func range(_ e: Int) -> Range<Int>? {
            let n = ents[e].node
            guard n >= 0, n < nodes.count, nodes[n].subtreeEnd >= n, nodes[n].subtreeEnd <= nodes.count else { return nil }
            return n..<nodes[n].subtreeEnd
        }
        var wins: [(Int, Range<Int>, Range<Int>)] = []
        var shs: [(Int, Int, RectPt, Double)] = []
        var perContainer: [Int: Int] = [:]
        for m in ents.indices {
            let e = ents[m]
            if e.kind == .window, e.presentation != nil, var w = e.parent, w >= 0, w < ents.count {
                // The presenting window: up through ornaments to the window they belong to.
                var steps = 0
                while isOrnament(scene, w), let q = ents[w].parent, steps <= ents.count { w = q; steps += 1 }
                guard let p = range(w), let own = range(m) else { continue }
                wins.append((m, p, own))
            } else if e.kind == .element, e.role == .sheet || e.role == .alert, let c = e.container, let f = e.frame,
                      perContainer[c, default: 0] < Self.elementModalsPerContainer {
                perContainer[c, default: 0] += 1
                shs.append((m, c, f, e.depthPt))
            }
        }
        windows = wins.map { (entity: $0.0, parent: $0.1, own: $0.2) }
        sheets = shs.map { (entity: $0.0, container: $0.1, frame: $0.2, depth: $0.3) }
        containers = perContainer.keys.sorted()
        let slot = Dictionary(uniqueKeysWithValues: containers.enumerated().map { ($1, $0) })
        var mem = [[(entity: Int, frame: RectPt, depth: Double)]](repeating: [], count: containers.count)
        if !slot.isEmpty {
            for i in ents.indices where ents[i].kind == .element && ents[i].interactive {
                if let c = ents[i].container, let k = slot[c], let f = ents[i].frame { mem[k].append((i, f, ents[i].depthPt)) }
            }
        }
        members = mem
        var at = [Int32](repeating: -1, count: wins.isEmpty ? 0 : nodes.count)
        if !wins.isEmpty {
            for k in nodes.indices {
                if let e = nodes[k].entity, e >= 0, e < ents.count, ents[e].interactive { at[k] = Int32(truncatingIfNeeded: e) }
            }
        }
        interactiveAt = at
        presentations = wins.map(\.0) + shs.map(\.0)
        shown = Array(repeating: false, count: presentations.count)
    }

    /// Reads which presentations are visible (`visible`, indexed by entity) and, when that changed,
    /// marks what they cover.
    mutating func update(_ visible: [Bool]) {
        var changed = false
        for (k, m) in presentations.enumerated() {
            let v = m < visible.count && visible[m]
            if v != shown[k] { shown[k] = v; changed = true }
        }
        guard changed else { return }
        for i in covered.indices { covered[i] = false }
        // Presented windows: inside a shown one's presenting range and outside the own range of
        // every innermost shown one, by running counts over the nodes. Own ranges nest or are
        // disjoint (subtrees), so in order of their starts a range holds another shown one exactly
        // when the next one starts inside it.
        let up = windows.indices.filter { shown[$0] }.sorted { windows[$0].own.lowerBound < windows[$1].own.lowerBound }
        if !up.isEmpty {
            var parentDelta = [Int32](repeating: 0, count: interactiveAt.count + 1), ownDelta = parentDelta
            for (i, k) in up.enumerated() {
                let w = windows[k]
                parentDelta[w.parent.lowerBound] += 1; parentDelta[w.parent.upperBound] -= 1
                let holdsAnother = i + 1 < up.count && w.own.contains(windows[up[i + 1]].own.lowerBound)
                if !holdsAnother { ownDelta[w.own.lowerBound] += 1; ownDelta[w.own.upperBound] -= 1 }
            }
            var inParent: Int32 = 0, inOwn: Int32 = 0
            for n in interactiveAt.indices {
                inParent += parentDelta[n]; inOwn += ownDelta[n]
                if inParent > 0, inOwn == 0, interactiveAt[n] >= 0 { covered[Int(interactiveAt[n])] = true }
            }
        }
        // Sheet and alert elements: the container's other interactive elements not laid on one of
        // its shown sheets.
        for (c, list) in zip(containers, members) {
            let up = sheets.indices.filter { shown[windows.count + $0] && sheets[$0].container == c }
            guard !up.isEmpty else { continue }
            for x in list where !up.contains(where: { sheets[$0].entity == x.entity || Self.lies(x.frame, x.depth, on: sheets[$0]) }) {
                covered[x.entity] = true
            }
        }
    }

    /// Whether an element (frame, depth) is laid on a sheet: inside its frame (half a point of
    /// rounding) and not behind it.
    static func lies(_ f: RectPt, _ depth: Double, on s: (entity: Int, container: Int, frame: RectPt, depth: Double)) -> Bool {
        s.frame.contains(f, tolerance: 0.5) && depth >= s.depth
    }
}
