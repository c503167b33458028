import SpatialModel

/// Keys of how content looks and reads to VoiceOver (scene format, "Appearance and accessibility").
let appearanceKeys = ["decorative", "color", "background", "fontWeight"]
/// What elements accept beyond `elementFactKeys`: the appearance keys, a tab's or button's
/// `symbol`, a tooltip (`helpText`) and a button's `buttonStyle`.
let elementAppearanceKeys = appearanceKeys + ["symbol", "helpText", "buttonStyle"]

/// The hint for an unquoted hex colour, which YAML reads as a comment: in block style a null value
/// (`parsePaint`), in a flow mapping a syntax error (`syntaxDiagnostic`).
let hexColourQuoteHint = "quote a hex colour (color: \"#FFFFFF\"): in YAML an unquoted # starts a comment"

/// Appearance facts of an annotation entry (applied to the nodes its globs match).
struct NodeLook {
    var decorative: Bool?
    var color: Paint?
    var background: Paint?
    var fontWeight: FontWeight?

    func apply(to e: inout Entity) {
        if let v = decorative { e.decorative = v }
        if let v = color { e.color = v }
        if let v = background { e.background = v }
        if let v = fontWeight { e.fontWeight = v }
    }
}

extension SceneBuilder {
    /// A colour (`"#RRGGBB"`, `"#RRGGBBAA"`) or a system material name (`glass`, `passthrough`).
    func parsePaint(_ n: YNode, _ what: String) -> Paint? {
        let materials = SystemMaterial.allCases.map(\.rawValue)
        guard case let .scalar(s) = n.kind, s.type != .null else {
            r.error(n.loc, "\(what) expects a colour \"#RRGGBB\" or \"#RRGGBBAA\", or one of \(Reader.quoteList(materials)), found \(Reader.describe(n))",
                    hint: hexColourQuoteHint)
            return nil
        }
        let text = s.text
        if text.hasPrefix("#") {
            if let c = RGBA(hex: text) { return .color(c) }
            r.error(n.loc, "\(what) is not a colour: '\(quoted(text))' needs 6 or 8 hex digits after '#'",
                    hint: "for example \"#1C1C1E\" (opaque) or \"#00000080\" (black at 50 % alpha)")
            return nil
        }
        if let m = SystemMaterial(rawValue: text) { return .material(m) }
        let hint = r.suggest(text, in: materials).map { "did you mean '\($0)'?" }
            ?? "a hex colour starts with '#' and is quoted in YAML (\"#FFFFFF\")"
        r.error(n.loc, "\(what) expects a colour \"#RRGGBB\" or \"#RRGGBBAA\", or one of \(Reader.quoteList(materials)), found '\(quoted(text))'",
                hint: hint)
        return nil
    }

    /// `decorative`, `color`, `background` and `fontWeight` of an annotation entry.
    func parseNodeLook(_ m: YMap, _ what: String) -> NodeLook {
        var look = NodeLook()
        look.decorative = m["decorative"].flatMap { r.bool($0, "'decorative' of \(what)") }
        look.color = m["color"].flatMap { parsePaint($0, "'color' of \(what)") }
        look.background = m["background"].flatMap { parsePaint($0, "'background' of \(what)") }
        look.fontWeight = m["fontWeight"].flatMap { r.enumValue($0, "'fontWeight' of \(what)", FontWeight.self) }
        return look
    }

    /// The appearance and accessibility keys an entity or element states (the kind's key check has
    /// already rejected those it does not take): `decorative`, `color`, `background`, `fontWeight`,
    /// `symbol`, `helpText`, `buttonStyle`, a window's `title`, and on entities `accessibilityLabel`
    /// (elements read theirs with their other facts).
    func parseAppearance(_ m: YMap, _ e: inout Entity, what: String) {
        let look = parseNodeLook(m, what)
        look.apply(to: &e)
        if let v = m["symbol"].flatMap({ r.string($0, "'symbol' of \(what)") }) { e.symbol = v }
        if let v = m["helpText"].flatMap({ r.string($0, "'helpText' of \(what)") }) { e.helpText = v }
        if let v = m["title"].flatMap({ r.string($0, "'title' of \(what)") }) { e.title = v }
        if let n = m["buttonStyle"] {
            e.buttonStyle = r.enumValue(n, "'buttonStyle' of \(what)", ButtonStyleKind.self,
                                        aliases: ["prominent": .borderedProminent, "borderedprominent": .borderedProminent,
                                                  "filled": .borderedProminent, "glassprominent": .glassProminent])
        }
        if e.kind != .element, let v = m["accessibilityLabel"].flatMap({ r.string($0, "'accessibilityLabel' of \(what)") }) {
            e.accessibilityLabel = v; e.factSources.accessibilityLabel = .annotation
        }
        if e.decorative == true, let label = e.accessibilityLabel, m.has("decorative") {
            r.warning(m.keyLoc("decorative"), "\(what) is decorative (hidden from VoiceOver) but has the accessibility label '\(quoted(label))'; one of them is wrong",
                      hint: "remove 'decorative: true' if people need to know what it is, or the label if it is purely visual")
        }
    }
}
