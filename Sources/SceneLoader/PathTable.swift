import SpatialModel

/// The scene's entity paths and where each was claimed: what a `[String: SourceLocation?]` would
/// hold, for the builder's uses (`updateValue(_:forKey:)`, `value(forKey:)`), at less cost per path.
///
/// A dictionary hashes every path with `Hasher` (SipHash over the string's normalised bytes, ≈ 300
/// instructions a path of 8–16 bytes). While every path is ASCII, byte equality is `String`
/// equality, so the table hashes the bytes eight at a time and compares them directly (open
/// addressing, linear probing). The first path with a non-ASCII byte moves every entry into a
/// dictionary that decides from then on: two different byte sequences can be equal strings
/// (canonical equivalence: `"\u{212A}"`, the Kelvin sign, equals `"K"`), and only `String`'s own
/// equality knows that.
struct PathTable {
    private struct Entry {
        var key: String
        var value: SourceLocation?
        var hash: UInt64
    }
    /// Entry index + 1 for each slot (0: empty); the slot count is a power of two, at most half full.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    /// Every entry, once a path was not ASCII.
    private var general: [String: SourceLocation?]?
    /// Entries `reserveCapacity` asked for.
    private var reserved = 0

    init() {}

    var count: Int { general?.count ?? entries.count }

    mutating func reserveCapacity(_ n: Int) {
        reserved = max(reserved, n)
        if let g = general {
            var d = g
            general = nil
            d.reserveCapacity(n)
            general = d
            return
        }
        entries.reserveCapacity(n)
        if slots.count < 2 * n { rehash(slotCount: Self.slotCount(for: n)) }
    }

    /// What `Dictionary.updateValue(_:forKey:)` does: sets `path`'s value and returns the one it
    /// replaced (nil when the path was new).
    @discardableResult
    mutating func updateValue(_ value: SourceLocation?, forKey path: String) -> SourceLocation?? {
        if general != nil { return general?.updateValue(value, forKey: path) }
        guard let h = Self.asciiHash(path) else {
            moveToGeneral()
            return general?.updateValue(value, forKey: path)
        }
        if 2 * (entries.count + 1) > slots.count {
            rehash(slotCount: Self.slotCount(for: max(entries.count + 1, 2 * entries.count)))
        }
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[s])
            if e == 0 { break }
            if entries[e - 1].hash == h && entries[e - 1].key == path {
                let old = entries[e - 1].value
                entries[e - 1].value = value
                return .some(old)
            }
            s = (s + 1) & mask
        }
        entries.append(Entry(key: path, value: value, hash: h))
        slots[s] = Int32(entries.count)
        return nil
    }

    /// The path's value (nil: not in the table; `.some(nil)`: there without a location), as
    /// `Dictionary`'s subscript gives it. Mutating: a non-ASCII path moves the entries to the
    /// dictionary first (only `String` equality can find an ASCII key equal to it).
    mutating func value(forKey path: String) -> SourceLocation?? {
        if let g = general { return g[path] }
        guard let h = Self.asciiHash(path) else {
            moveToGeneral()
            return general.flatMap { $0[path] }
        }
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[s])
            if e == 0 { return nil }
            if entries[e - 1].hash == h && entries[e - 1].key == path { return .some(entries[e - 1].value) }
            s = (s + 1) & mask
        }
    }

    /// A hash of the path's UTF-8 bytes, eight at a time, or nil when one of them is not ASCII.
    @inline(__always)
    private static func asciiHash(_ path: String) -> UInt64? {
        if let h = path.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64? in
            guard let base = bytes.baseAddress else { return 0 }
            let raw = UnsafeRawPointer(base)
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
            var all: UInt64 = 0
            var i = 0
            while i + 8 <= bytes.count {
                let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                all |= w
                h = Self.mix(h ^ w)
                i += 8
            }
            if i < bytes.count {
                var w: UInt64 = 0, shift: UInt64 = 0
                while i < bytes.count { w |= UInt64(bytes[i]) &<< shift; shift += 8; i += 1 }
                all |= w
                h = Self.mix(h ^ w)
            }
            return all & 0x8080_8080_8080_8080 == 0 ? h : nil
        }) {
            return h
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in path.utf8 {
            if b >= 0x80 { return nil }
            h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3
        }
        return h
    }

    @inline(__always)
    private static func mix(_ x: UInt64) -> UInt64 {
        let m = x &* 0xBF58_476D_1CE4_E5B9
        return m ^ (m &>> 31)
    }

    private static func slotCount(for n: Int) -> Int {
        var c = 16
        while c < 2 * n { c *= 2 }
        return c
    }

    private mutating func rehash(slotCount: Int) {
        slots = [Int32](repeating: 0, count: slotCount)
        let mask = slotCount - 1
        for i in entries.indices {
            var s = Int(truncatingIfNeeded: entries[i].hash) & mask
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = Int32(i + 1)
        }
    }

    /// From now on a dictionary holds every entry (`String` equality decides).
    private mutating func moveToGeneral() {
        guard general == nil else { return }
        var d = [String: SourceLocation?](minimumCapacity: max(reserved, entries.count))
        for e in entries { d[e.key] = e.value }
        general = d
        slots = []
        entries = []
    }
}
