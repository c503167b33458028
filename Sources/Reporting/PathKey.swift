/// An entity path as a hash key, hashed and compared by its UTF-8 bytes. A `String` key hashes
/// its canonical (NFC) form, normalising a non-ASCII path on every hash: with 1.7 KB ids of
/// U+1D400 that was 39 % of an HTML report. The paths the page keys on all come from one scene,
/// whose loader refuses two paths that are canonically equal (`duplicate path`), so their bytes
/// tell them apart exactly as their characters do.
public struct PathKey: Hashable, Sendable, ExpressibleByStringLiteral {
    public let path: String
    public init(_ path: String) { self.path = path }
    public init(stringLiteral path: String) { self.path = path }

    public static func == (a: PathKey, b: PathKey) -> Bool {
        a.path.utf8.count == b.path.utf8.count && a.path.utf8.elementsEqual(b.path.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        var p = path
        p.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Set where Element == PathKey {
    public init(paths: some Sequence<String>) {
        self.init(minimumCapacity: paths.underestimatedCount)
        for p in paths { insert(PathKey(p)) }
    }
    public func contains(path: String) -> Bool { contains(PathKey(path)) }
}
