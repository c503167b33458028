/// What the two one-pass fast paths, `JSONTree` and `YAMLFastTree`, read the same way: bytes
/// that are not printable ASCII, double-quoted strings with JSON's escapes, string lengths and
/// duplicate keys. Anything they do not read exactly as libyaml does throws `FastPathReject`, and
/// the file goes through libyaml, which reads and reports it.
struct FastPathReject: Error {}

/// Short texts the fast paths have already decoded: slot → the text's bytes packed into a word
/// (byte j at bits 8j), and its `String`. Scene files repeat a few dozen short words (keys, roles,
/// ids such as `b0`, small numbers) tens of thousands of times; decoding and validating each one
/// again cost ≈ 140 instructions, a hit here ≈ 25. Only ASCII other than NUL, up to 8 bytes, is
/// cached: no byte is 0, so the word names the text exactly. A slot keeps the last text that
/// hashed to it; these strings are small (inline, not reference-counted), so a hit copies 16 bytes.
///
/// The storage is two pointers that live for one `with` call, so the parsers that hold the cache
/// stay trivially copyable (arrays here were copied on write whenever the compiler copied a
/// parser, which cost more than the cache saves).
struct ShortTextCache {
    private static let slots = 512
    private let words: UnsafeMutablePointer<UInt64>
    private let texts: UnsafeMutablePointer<String>

    /// The same for whole scalars: a word, and the value the parser made of that text.
    private let scalarWords: UnsafeMutablePointer<UInt64>
    private let scalars: UnsafeMutablePointer<YScalar>

    private init(words: UnsafeMutablePointer<UInt64>, texts: UnsafeMutablePointer<String>,
                 scalarWords: UnsafeMutablePointer<UInt64>, scalars: UnsafeMutablePointer<YScalar>) {
        self.words = words
        self.texts = texts
        self.scalarWords = scalarWords
        self.scalars = scalars
    }

    /// `body` with an empty cache, freed when it returns.
    static func with<R>(_ body: (ShortTextCache) -> R) -> R {
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        words.initialize(repeating: 0, count: slots)
        let texts = UnsafeMutablePointer<String>.allocate(capacity: slots)
        texts.initialize(repeating: "", count: slots)
        let scalarWords = UnsafeMutablePointer<UInt64>.allocate(capacity: slots)
        scalarWords.initialize(repeating: 0, count: slots)
        let scalars = UnsafeMutablePointer<YScalar>.allocate(capacity: slots)
        scalars.initialize(repeating: YScalar(text: "", type: .string), count: slots)
        defer {
            texts.deinitialize(count: slots)
            texts.deallocate()
            words.deallocate()
            scalars.deinitialize(count: slots)
            scalars.deallocate()
            scalarWords.deallocate()
        }
        return body(ShortTextCache(words: words, texts: texts, scalarWords: scalarWords, scalars: scalars))
    }

    @inline(__always)
    private static func slot(_ w: UInt64) -> Int { Int(truncatingIfNeeded: (w &* 0x9E37_79B9_7F4A_7C15) >> 55) }

    /// The scalar a parser makes of the text `u[start..<end]` (`make`, which must depend on those
    /// bytes alone): made once per distinct short text, as `text` makes strings. Numbers such as
    /// `44` and words such as `button` repeat thousands of times, and typing each one again
    /// (classifying it, converting its digits) cost more than the lookup.
    @inline(__always)
    func scalar(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ make: () -> YScalar) -> YScalar {
        let n = end - start
        guard n > 0, n <= 8, let w = Self.word(u, start, n) else { return make() }
        let slot = Self.slot(w)
        if scalarWords[slot] == w { return scalars[slot] }
        let v = make()
        scalarWords[slot] = w
        scalars[slot] = v
        return v
    }

    /// `String(decoding: u[start..<end], as: UTF8.self)`.
    func text(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let n = end - start
        if n > 0, n <= 8, let w = Self.word(u, start, n) {
            let slot = Self.slot(w)
            if words[slot] == w { return texts[slot] }
            let s = String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self)
            words[slot] = w
            texts[slot] = s
            return s
        }
        return String(decoding: UnsafeBufferPointer(rebasing: u[start..<end]), as: UTF8.self)
    }

    /// The `n` (1...8) bytes at `start` packed into a word (byte j at bits 8j), when they are all
    /// ASCII other than NUL; else nil.
    @inline(__always)
    private static func word(_ u: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let mask: UInt64 = n == 8 ? ~0 : (1 << UInt64(8 * n)) - 1
        var w: UInt64 = 0
        if start + 8 <= u.count, let base = u.baseAddress {
            // One load of 8 bytes; those after the text are masked off.
            w = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)) & mask
        } else {
            for j in 0..<n { w |= UInt64(u[start + j]) << UInt64(8 * j) }
        }
        // No byte of 0x80 or more; no zero byte among the text's (the classic test, exact for
        // whether any byte is zero, with the bytes after the text counted as 0x01).
        let filled = w | (~mask & ones)
        guard w & highs == 0, (filled &- ones) & ~filled & highs == 0 else { return nil }
        return w
    }
}

/// The values of the collections a fast path has open, innermost last, in one buffer that lives
/// for one parse (a pointer, so the parsers that hold it stay trivially copyable): a collection
/// pushes its values while it is read and, when it closes, moves them (without copying or
/// reference counting) into an array of exactly their count. An array per collection grown by
/// `append` reallocated and copied most of them (an element's list of 9 items twice, from a
/// capacity of 4).
struct ScratchStack<Element> {
    private struct Header {
        var base: UnsafeMutablePointer<Element>
        var count: Int
        var capacity: Int
    }
    private let header: UnsafeMutablePointer<Header>

    private init(header: UnsafeMutablePointer<Header>) {
        self.header = header
    }

    /// `body` with an empty stack; the values still on it when `body` returns (a parse that
    /// declined half-way) are destroyed then.
    static func with<R>(_ body: (ScratchStack) -> R) -> R {
        let capacity = 64
        let header = UnsafeMutablePointer<Header>.allocate(capacity: 1)
        header.initialize(to: Header(base: .allocate(capacity: capacity), count: 0, capacity: capacity))
        defer {
            header.pointee.base.deinitialize(count: header.pointee.count)
            header.pointee.base.deallocate()
            header.deinitialize(count: 1)
            header.deallocate()
        }
        return body(ScratchStack(header: header))
    }

    /// Where the collection opened now starts (for `take(from:)`).
    var mark: Int { header.pointee.count }

    @inline(__always)
    func push(_ value: consuming Element) {
        if header.pointee.count == header.pointee.capacity { grow() }
        (header.pointee.base + header.pointee.count).initialize(to: value)
        header.pointee.count += 1
    }

    private func grow() {
        let capacity = header.pointee.capacity * 2
        let base = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        base.moveInitialize(from: header.pointee.base, count: header.pointee.count)
        header.pointee.base.deallocate()
        header.pointee.base = base
        header.pointee.capacity = capacity
    }

    /// The values pushed since `mark`, moved off the stack into an array. (`reserveCapacity` and
    /// `append`, not `Array(unsafeUninitializedCapacity:)`: that one allocates through an
    /// unspecialized entry point of the standard library that looks the array's type up at run
    /// time, ≈ 800 instructions per array.)
    func take(from mark: Int) -> [Element] {
        let n = header.pointee.count - mark
        guard n > 0 else { return [] }
        let source = header.pointee.base + mark
        var values: [Element] = []
        values.reserveCapacity(n)
        for k in 0..<n { values.append((source + k).move()) }
        header.pointee.count = mark
        return values
    }
}

enum FastPathText {
    /// A byte `c` of a string or comment that is not printable ASCII, at `u[i]`: accepted (a
    /// UTF-8 continuation byte counted in `continuation`, for columns counted in characters as
    /// libyaml's are) unless libyaml rejects it or reads it as a line break or a byte order mark:
    /// controls (a tab and a carriage return included), DEL, C1 controls (NEL included), LS, PS,
    /// U+FEFF, U+FFFE and U+FFFF.
    @inline(__always)
    static func checkOther(_ c: UInt8, _ u: UnsafeBufferPointer<UInt8>, _ i: Int, continuation: inout Int) throws(FastPathReject) {
        guard c >= 0x80 else { throw FastPathReject() }
        if c & 0xC0 == 0x80 { continuation += 1; return }
        let c1 = i + 1 < u.count ? u[i + 1] : 0, c2 = i + 2 < u.count ? u[i + 2] : 0
        if c == 0xC2, c1 < 0xA0 { throw FastPathReject() }
        if c == 0xE2, c1 == 0x80, c2 == 0xA8 || c2 == 0xA9 { throw FastPathReject() }
        if c == 0xEF, (c1 == 0xBB && c2 == 0xBF) || (c1 == 0xBF && (c2 == 0xBE || c2 == 0xBF)) { throw FastPathReject() }
    }

    /// A double-quoted string on one line with JSON's escapes, from its opening quote at `u[i]`;
    /// `i` ends after the closing quote.
    static func doubleQuoted(_ u: UnsafeBufferPointer<UInt8>, _ i: inout Int, continuation: inout Int,
                             cache: ShortTextCache) throws(FastPathReject) -> String {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        i += 1
        let start = i
        // The common case: no escape, ASCII only.
        while i < u.count {
            let c = u[i]
            if c == quote {
                let s = cache.text(u, start, i)
                i += 1
                return try checkedLength(s)
            }
            if c == backslash || c < 0x20 || c >= 0x7F { break }
            i += 1
        }
        var bytes = Array(u[start..<i])
        while i < u.count {
            let c = u[i]
            switch c {
            case quote:
                i += 1
                return try checkedLength(String(decoding: bytes, as: UTF8.self))
            case backslash:
                i += 1
                guard decodeEscape(u, &i, into: &bytes) else { throw FastPathReject() }
            default:
                if c < 0x20 || c >= 0x7F { try checkOther(c, u, i, continuation: &continuation) }
                bytes.append(c)
                i += 1
            }
        }
        throw FastPathReject()
    }

    /// `s`, unless it is longer than the loader's limit (which libyaml's path reports).
    @inline(__always)
    static func checkedLength(_ s: String) throws(FastPathReject) -> String {
        guard s.utf8.count <= Limits.maxStringLength else { throw FastPathReject() }
        return s
    }

    /// A duplicate key goes to libyaml's path, which reports it.
    static func checkDuplicates(_ pairs: [YPair]) throws(FastPathReject) {
        if pairs.count <= 16 {
            for a in 1..<pairs.count {
                for b in 0..<a where pairs[a].key == pairs[b].key { throw FastPathReject() }
            }
        } else {
            var seen = Set<String>(minimumCapacity: pairs.count)
            for p in pairs where !seen.insert(p.key).inserted { throw FastPathReject() }
        }
    }

    /// Decodes the escape whose letter is at `u[i]` (just after the backslash) into `bytes` and
    /// moves `i` past it. False for anything the fast paths leave to libyaml: an unknown escape, a
    /// truncated or non-hex `\u`, or a surrogate (which libyaml rejects with its own error).
    @inline(__always)
    static func decodeEscape(_ u: UnsafeBufferPointer<UInt8>, _ i: inout Int, into bytes: inout [UInt8]) -> Bool {
        guard i < u.count else { return false }
        let e = u[i]
        i += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(e)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            guard i + 4 <= u.count else { return false }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let h = u[i]
                let d: UInt32
                switch h {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(h - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(h - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(h - UInt8(ascii: "A") + 10)
                default: return false
                }
                v = v << 4 | d
                i += 1
            }
            guard let scalar = Unicode.Scalar(v) else { return false }
            bytes.append(contentsOf: String(Character(scalar)).utf8)
        default:
            return false
        }
        return true
    }
}
