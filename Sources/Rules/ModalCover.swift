import SpatialModel

/// The interactive content that a visible modal presentation covers (docs/scene-format.md,
/// "Sheets, alerts, popovers and menus"): while a sheet, alert, popover or menu is shown, the rest
/// of the window that opened it can be neither looked at nor tapped (sheets › visionOS: a sheet
/// "floats in front of its parent window, dimming it, and becoming the target of people's
/// interactions"), so the pairwise target rules do not compare it with anything.
///
/// Modal presentations: a window nested in a window or volume with a `presentation` (it covers
/// every interactive entity of its parent's subtree outside its own), and an element with role
/// `sheet` or `alert` (it covers the interactive content of its container except the elements
/// laid on it: inside its frame, at its depth or in front).
struct ModalCover {
    /// Per modal presentation, the entity and the interactive entities it covers while visible.
    private let modals: [(entity: Int, covers: [Int])]
    /// Per entity: whether a visible modal presentation covers it in the last frame `update` read.
    private(set) var covered: [Bool]
    /// Which modal presentations were visible in that frame.
    private var shown: [Bool]

    var isEmpty: Bool { modals.isEmpty }

    init(_ scene: Scene) {
        let ents = scene.entities
        covered = Array(repeating: false, count: ents.count)
        /// Whether `a` is `e` or one of its ancestors.
        func within(_ e: Int, _ a: Int) -> Bool {
            var p: Int? = e, steps = 0
            while let q = p, q >= 0, q < ents.count, steps <= ents.count {
                if q == a { return true }
                p = ents[q].parent; steps += 1
            }
            return false
        }
        var found: [(Int, [Int])] = []
        for m in ents.indices {
            let e = ents[m]
            if e.kind == .window, e.presentation != nil, let w = e.parent {
                found.append((m, ents.indices.filter { ents[$0].interactive && $0 != m && within($0, w) && !within($0, m) }))
            } else if e.kind == .element, e.role == .sheet || e.role == .alert, let c = e.container, let sf = e.frame {
                // The elements laid on the sheet: inside its frame (half a point of rounding) and
                // not behind it.
                func onSheet(_ i: Int) -> Bool {
                    guard ents[i].kind == .element, ents[i].container == c, let f = ents[i].frame else { return false }
                    return f.x >= sf.x - 0.5 && f.y >= sf.y - 0.5 && f.x + f.width <= sf.x + sf.width + 0.5
                        && f.y + f.height <= sf.y + sf.height + 0.5 && ents[i].depthPt >= e.depthPt
                }
                found.append((m, ents.indices.filter { ents[$0].interactive && $0 != m && within($0, c) && !onSheet($0) }))
            }
        }
        modals = found.filter { !$0.1.isEmpty }.map { (entity: $0.0, covers: $0.1) }
        shown = Array(repeating: false, count: modals.count)
    }

    /// Reads which modal presentations are visible (`visible`, indexed by entity) and updates
    /// `covered`.
    mutating func update(_ visible: [Bool]) {
        var changed = false
        for k in modals.indices {
            let m = modals[k].entity
            let v = m < visible.count && visible[m]
            if v != shown[k] { shown[k] = v; changed = true }
        }
        guard changed else { return }
        for k in modals.indices { for e in modals[k].covers { covered[e] = false } }
        for k in modals.indices where shown[k] { for e in modals[k].covers { covered[e] = true } }
    }
}
