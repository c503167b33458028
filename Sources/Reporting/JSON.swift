import SpatialModel

/// A JSON value whose objects keep their key order, written deterministically: the same value
/// always gives the same bytes (no dictionaries, no locale, shortest round-trip numbers).
public indirect enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }
    public func hash(into h: inout Hasher) { h.combine(serialized()) }

    /// A number rounded to `digits` significant decimal digits, to keep float noise out of reports.
    public static func rounded(_ x: Double, digits: Int = 10) -> JSON {
        roundedValue(x, digits: digits).map(JSON.number) ?? .null
    }

    /// The number `rounded(x, digits:)` writes (nil for infinities and NaN, written as `null`).
    /// Reading the written number back gives exactly this value, so a value compared with a saved
    /// report's must be rounded with this first.
    public static func roundedValue(_ x: Double, digits: Int = 10) -> Double? {
        guard x.isFinite else { return nil }
        if x == 0 { return 0 }
        let magnitude = Int((abs(x)).log10Floor)
        let scale = pow10(digits - 1 - magnitude)
        let r = (x * scale).rounded() / scale
        guard r.isFinite else { return x }  // subnormals: the scale overflows
        return r == 0 ? 0 : r
    }

    public static func optional(_ x: Double?, digits: Int = 10) -> JSON {
        x.map { rounded($0, digits: digits) } ?? .null
    }
    public static func optional(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    public static func vector(_ v: (Double, Double, Double), digits: Int = 10) -> JSON {
        .array([rounded(v.0, digits: digits), rounded(v.1, digits: digits), rounded(v.2, digits: digits)])
    }

    /// Pretty-printed with two-space indentation and a trailing newline.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(to: &out, indent: pretty ? 0 : -1)
        if pretty { out += "\n" }
        return out
    }

    private func write(to out: inout String, indent: Int) {
        let pretty = indent >= 0
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += JSON.format(d)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            // Short arrays of scalars stay on one line (vectors, spans).
            let inline = (items.count <= 4 && items.allSatisfy(\.isScalar))
                || (items.count <= 8 && items.allSatisfy(\.isShortScalarArray))
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += inline || !pretty ? ", " : "," }
                if pretty && !inline { out += "\n" + pad }
                item.write(to: &out, indent: pretty ? indent + 1 : -1)
            }
            if pretty && !inline { out += "\n" + closePad }
            out += "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += pretty ? "," : ", " }
                if pretty { out += "\n" + pad }
                JSON.writeString(key, to: &out)
                out += ": "
                value.write(to: &out, indent: pretty ? indent + 1 : -1)
            }
            if pretty { out += "\n" + closePad }
            out += "}"
        }
    }

    private var isShortScalarArray: Bool {
        if case .array(let a) = self { return a.count <= 4 && a.allSatisfy(\.isScalar) }
        return false
    }

    /// An integer when the value is integral (frame rates: `90`, not `90.0`), else a number.
    public static func integralOrNumber(_ x: Double) -> JSON {
        x.isFinite && x == x.rounded() && abs(x) < 1e15 ? .int(Int(x)) : rounded(x)
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 {
            return String(Int64(d)) + ".0"
        }
        return "\(d)"
    }

    static func writeString(_ s: String, to out: inout String) { out += jsonQuoted(s) }
}

private func pow10(_ n: Int) -> Double {
    var r = 1.0
    if n >= 0 { for _ in 0..<n { r *= 10 } } else { for _ in 0..<(-n) { r /= 10 } }
    return r
}

extension Double {
    fileprivate var log10Floor: Double {
        var m = 0.0, x = self
        while x >= 10 { x /= 10; m += 1 }
        while x < 1 { x *= 10; m -= 1 }
        return m
    }
}
