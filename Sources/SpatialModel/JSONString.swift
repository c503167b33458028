/// A string as a JSON string literal (quotes included): `"`, `\` and control characters escaped,
/// and every other scalar that `Escape.isUnsafe` flags (DEL, C1 controls, bidi overrides, U+2028/2029,
/// zero-width characters, noncharacters, kept bytes of non-UTF-8 file names) written as a `\uXXXX`
/// escape (a surrogate pair above U+FFFF). Lossless: a reader gets the same string back, and the
/// file itself holds no invisible or control characters (nor raw U+2028/2029, which end a line in
/// JavaScript). Shared by the trace writer and the report writer so both escape identically.
public func jsonQuoted(_ s: String) -> String {
    var out = "\""
    func u16(_ v: UInt32) {
        let hex = String(v, radix: 16)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if Escape.isUnsafe(u) {
                if u.value > 0xFFFF {
                    let v = u.value - 0x10000
                    u16(0xD800 + (v >> 10)); u16(0xDC00 + (v & 0x3FF))
                } else {
                    u16(u.value)
                }
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}
