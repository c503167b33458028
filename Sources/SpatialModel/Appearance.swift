#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How content looks, as far as the rules need it: its text colour, what it is drawn on, and its
/// font weight (scene format, "Appearance"). Stated in the scene file on elements, text entities,
/// windows and volumes, and as annotations on asset nodes; nil means nobody said (the system's
/// default: primary text on glass).

/// A colour in sRGB, components 0…1, with alpha (1 = opaque).
public struct RGBA: Hashable, Sendable {
    public var r, g, b, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive hex digits; the `#` is required).
    public init?(hex: String) {
        let u = Array(hex.utf8)
        guard u.first == UInt8(ascii: "#"), u.count == 7 || u.count == 9 else { return nil }
        var v: [Double] = []
        var i = 1
        while i + 1 < u.count {
            guard let hi = Self.digit(u[i]), let lo = Self.digit(u[i + 1]) else { return nil }
            v.append(Double(hi * 16 + lo) / 255)
            i += 2
        }
        self.init(v[0], v[1], v[2], v.count == 4 ? v[3] : 1)
    }

    private static func digit(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        func h(_ x: Double) -> String {
            let n = Int((min(max(x, 0), 1) * 255).rounded())
            let s = String(n, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + (a < 1 ? h(a) : "")
    }

    /// WCAG 2 relative luminance of the colour's RGB (alpha ignored): each sRGB component
    /// linearised (c ≤ 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4), then
    /// 0.2126 R + 0.7152 G + 0.0722 B.
    public var relativeLuminance: Double {
        func lin(_ c: Double) -> Double {
            let x = min(max(c, 0), 1)
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    /// This colour drawn over an opaque `backdrop` (sRGB source-over blending, as displays do).
    public func over(_ backdrop: RGBA) -> RGBA {
        let k = min(max(a, 0), 1)
        return RGBA(r * k + backdrop.r * (1 - k), g * k + backdrop.g * (1 - k), b * k + backdrop.b * (1 - k), 1)
    }

    /// A grey whose relative luminance is `y` (0…1).
    public static func grey(luminance y: Double) -> RGBA {
        let l = min(max(y, 0), 1)
        let c = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
        return RGBA(c, c, c, 1)
    }

    /// WCAG 2 contrast ratio of two relative luminances, (lighter + 0.05) / (darker + 0.05).
    public static func contrastRatio(_ l1: Double, _ l2: Double) -> Double {
        (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }
}

/// A system material content can sit on, whose colour depends on what is behind it.
public enum SystemMaterial: String, Sendable, CaseIterable, Hashable {
    /// visionOS glass (windows, ornaments, volumes' toolbars): adapts to the surroundings.
    case glass
    /// Nothing behind the content but the real world seen through the cameras.
    case passthrough
}

/// A colour or a system material, as `color` / `background` give it.
public enum Paint: Hashable, Sendable {
    case color(RGBA)
    case material(SystemMaterial)

    /// `#hex` or the material's name.
    public var text: String {
        switch self {
        case .color(let c): c.hex
        case .material(let m): m.rawValue
        }
    }
}

/// How a button is drawn, as SwiftUI's `ButtonStyle`s (`.buttonStyle(.borderedProminent)`).
public enum ButtonStyleKind: String, Sendable, CaseIterable, Hashable {
    case automatic, bordered, borderedProminent, borderless, plain, glass, glassProminent
    /// A prominent style: the system tints the button's background with the accent colour.
    public var isProminent: Bool { self == .borderedProminent || self == .glassProminent }
}

/// Font weights, as SwiftUI's `Font.Weight`.
public enum FontWeight: String, Sendable, CaseIterable, Hashable {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    /// Bold or heavier: counts as large text for contrast (hig-rules `type-contrast`).
    public var isBold: Bool { self == .bold || self == .heavy || self == .black }
    /// The OpenType weight class: ultraLight 100, thin 200, … regular 400, … black 900.
    public var weightClass: Int { 100 * ((Self.allCases.firstIndex(of: self) ?? 3) + 1) }
}
