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

    /// Writes exactly the bytes of `serialized(pretty:)` to `out` (a `ReportSink`, or a String).
    func serialize<Out: TextOutputStream>(to out: inout Out, pretty: Bool = true) {
        write(to: &out, indent: pretty ? 0 : -1)
        if pretty { out.write("\n") }
    }

    /// The layout of `serialized()`: `indent` is the depth (-1: compact, on one line). Short arrays
    /// of scalars stay on one line; everything else has one member or element per line.
    func write<Out: TextOutputStream>(to out: inout Out, indent: Int) {
        let pretty = indent >= 0
        switch self {
        case .null: out.write("null")
        case .bool(let b): out.write(b ? "true" : "false")
        case .int(let i): out.write(String(i))
        case .number(let d): out.write(JSON.format(d))
        case .string(let s): out.write(jsonQuoted(s))
        case .array(let items):
            if items.isEmpty { out.write("[]"); return }
            // Short arrays of scalars stay on one line (vectors, spans).
            let inline = (items.count <= 4 && items.allSatisfy(\.isScalar))
                || (items.count <= 8 && items.allSatisfy(\.isShortScalarArray))
            let pad = pretty && !inline ? JSON.pad(indent + 1) : ""
            out.write("[")
            for (i, item) in items.enumerated() {
                if i > 0 { out.write(inline || !pretty ? ", " : ",") }
                if pretty && !inline { out.write("\n"); out.write(pad) }
                item.write(to: &out, indent: pretty ? indent + 1 : -1)
            }
            if pretty && !inline { out.write("\n"); out.write(JSON.pad(indent)) }
            out.write("]")
        case .object(let members):
            if members.isEmpty { out.write("{}"); return }
            let pad = pretty ? JSON.pad(indent + 1) : ""
            out.write("{")
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.write(pretty ? "," : ", ") }
                if pretty { out.write("\n"); out.write(pad) }
                out.write(jsonQuoted(key))
                out.write(": ")
                value.write(to: &out, indent: pretty ? indent + 1 : -1)
            }
            if pretty { out.write("\n"); out.write(JSON.pad(indent)) }
            out.write("}")
        }
    }

    /// Two spaces per level of indentation.
    static func pad(_ depth: Int) -> String { String(repeating: "  ", count: max(0, depth)) }

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

/// A JSON document for streaming: like `JSON`, but an array of objects can be a sequence whose
/// elements are built one at a time as they are written (a report's scenes and violations), so
/// writing it holds one element at a time instead of the whole tree. `write(to:)` gives exactly the
/// bytes of `materialized().serialized()`: the elements of `.objects` are objects, which an array
/// never keeps on one line, so the layout does not depend on elements not yet built.
indirect enum JSONPart {
    case value(JSON)
    case object([(String, JSONPart)])
    /// An array whose every element is an object (members given), built when it is written.
    case objects(AnySequence<[(String, JSONPart)]>)

    /// An object of plain values.
    static func members(_ m: [(String, JSON)]) -> [(String, JSONPart)] { m.map { ($0.0, .value($0.1)) } }

    /// The whole document as one `JSON` value.
    func materialized() -> JSON {
        switch self {
        case .value(let v): return v
        case .object(let m): return .object(m.map { ($0.0, $0.1.materialized()) })
        case .objects(let elements): return .array(elements.map { .object($0.map { ($0.0, $0.1.materialized()) }) })
        }
    }

    /// Pretty-printed (two-space indentation, trailing newline), as `JSON.serialized()`.
    func serialize<Out: TextOutputStream>(to out: inout Out) {
        write(to: &out, indent: 0)
        out.write("\n")
    }

    private func write<Out: TextOutputStream>(to out: inout Out, indent: Int) {
        switch self {
        case .value(let v): v.write(to: &out, indent: indent)
        case .object(let members): JSONPart.writeObject(members, to: &out, indent: indent)
        case .objects(let elements):
            // As `JSON.write` lays out an array that is not inline (pretty).
            var first = true
            let pad = JSON.pad(indent + 1)
            for element in elements {
                out.write(first ? "[" : ",")
                first = false
                out.write("\n"); out.write(pad)
                JSONPart.writeObject(element, to: &out, indent: indent + 1)
            }
            if first { out.write("[]"); return }
            out.write("\n"); out.write(JSON.pad(indent))
            out.write("]")
        }
    }

    private static func writeObject<Out: TextOutputStream>(_ members: [(String, JSONPart)], to out: inout Out, indent: Int) {
        if members.isEmpty { out.write("{}"); return }
        let pad = JSON.pad(indent + 1)
        out.write("{")
        for (i, (key, value)) in members.enumerated() {
            if i > 0 { out.write(",") }
            out.write("\n"); out.write(pad)
            out.write(jsonQuoted(key))
            out.write(": ")
            value.write(to: &out, indent: indent + 1)
        }
        out.write("\n"); out.write(JSON.pad(indent))
        out.write("}")
    }
}
