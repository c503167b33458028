import Foundation

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
        guard a.path.utf8.count == b.path.utf8.count else { return false }
        var x = a.path, y = b.path
        // (One storage is equal to itself; else the bytes are compared at once: the generic
        // `elementsEqual` of two UTF-8 views took 42 % of an HTML report.)
        return x.withUTF8 { p in
            y.withUTF8 { q in
                guard p.count == q.count, let pa = p.baseAddress, let qa = q.baseAddress else { return p.count == q.count }
                return pa == qa || memcmp(pa, qa, p.count) == 0
            }
        }
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

/// `path` and its ancestors' paths, shortest first ("a/b/c": "a", "a/b", "a/b/c"; "" for "").
public func pathPrefixes(_ path: String) -> [String] {
    let parts = path.split(separator: "/")
    return (1...max(parts.count, 1)).map { parts.prefix($0).joined(separator: "/") }
}
