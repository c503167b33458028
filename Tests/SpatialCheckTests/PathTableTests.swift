import Testing
@testable import SceneLoader
import SpatialModel

/// `PathTable` must answer every claim and look-up as the `[String: SpatialModel.SourceLocation?]` it replaced.
@Suite struct PathTableTests {
    /// A small deterministic generator (the test's sequence is the same on every run).
    private struct Generator {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
    }

    /// Claims and look-ups of 6,000 ASCII paths (a third of them repeated, the table growing from
    /// empty and from a reserved size), answered as a dictionary answers them.
    @Test(arguments: [0, 3000])
    func asciiPathsAreAnsweredAsByADictionary(reserve: Int) {
        var table = PathTable()
        var dict: [String: SpatialModel.SourceLocation?] = [:]
        table.reserveCapacity(reserve)
        dict.reserveCapacity(reserve)
        var g = Generator(state: 7)
        var mismatches = 0
        for i in 0..<6000 {
            let path = "w\(g.next(1500))/b\(g.next(3))" + (g.next(4) == 0 ? "/label.\(g.next(9))" : "")
            let loc: SpatialModel.SourceLocation? = g.next(10) == 0 ? nil : SpatialModel.SourceLocation(line: i + 1, column: g.next(80) + 1)
            if g.next(3) == 0 {
                if table.value(forKey: path) != dict[path] { mismatches += 1 }
            } else {
                let a = table.updateValue(loc, forKey: path), b = dict.updateValue(loc, forKey: path)
                if a != b { mismatches += 1 }
                // The builder's claim: a duplicate puts the first value back.
                if let prev = a { table.updateValue(prev, forKey: path) }
                if let prev = b { dict.updateValue(prev, forKey: path) }
            }
        }
        #expect(mismatches == 0)
        #expect(table.count == dict.count)
        var missing = 0
        for (k, v) in dict where table.value(forKey: k) != .some(v) { missing += 1 }
        #expect(missing == 0)
        let absent = [table.value(forKey: "w1500/b0"), table.value(forKey: "")]
        #expect(absent.allSatisfy { $0 == nil })
    }

    /// Strings that are equal by canonical equivalence but not by their bytes are the same path, as
    /// in a dictionary: the Kelvin sign and `K`, a precomposed `é` and `e` with a combining accent.
    @Test func canonicallyEquivalentPathsAreOnePath() {
        var table = PathTable()
        table.reserveCapacity(8)
        let l1 = SpatialModel.SourceLocation(line: 1, column: 1), l2 = SpatialModel.SourceLocation(line: 2, column: 1), l3 = SpatialModel.SourceLocation(line: 3, column: 1)
        let first = table.updateValue(l1, forKey: "w/K"), second = table.updateValue(l2, forKey: "w/b")
        #expect(first == nil && second == nil)
        // Non-ASCII: the Kelvin sign (U+212A) is the same string as "K".
        let kelvin = table.value(forKey: "w/\u{212A}")
        #expect(kelvin == .some(l1))
        let replaced = table.updateValue(l3, forKey: "w/\u{212A}")
        #expect(replaced == .some(l1))
        let k = table.value(forKey: "w/K")
        #expect(k == .some(l3))
        let cafe = table.updateValue(nil, forKey: "w/caf\u{E9}")
        #expect(cafe == nil)
        let decomposed = table.value(forKey: "w/cafe\u{301}")
        #expect(decomposed == .some(nil))
        let b = table.value(forKey: "w/b"), c = table.value(forKey: "w/c")
        #expect(b == .some(l2) && c == nil)
        #expect(table.count == 3)
    }

    /// The first non-ASCII path comes after many ASCII ones: every earlier entry is still found,
    /// and later ASCII claims see it.
    @Test func entriesSurviveTheMoveToTheDictionary() {
        var table = PathTable()
        for i in 0..<500 { table.updateValue(SpatialModel.SourceLocation(line: i + 1, column: 2), forKey: "w\(i)") }
        let window = table.updateValue(SpatialModel.SourceLocation(line: 900, column: 1), forKey: "fen\u{EA}tre")
        #expect(window == nil)
        var lost = 0
        for i in 0..<500 where table.value(forKey: "w\(i)") != .some(SpatialModel.SourceLocation(line: i + 1, column: 2)) { lost += 1 }
        #expect(lost == 0)
        let w7 = table.updateValue(nil, forKey: "w7")
        #expect(w7 == .some(SpatialModel.SourceLocation(line: 8, column: 2)))
        let decomposed = table.value(forKey: "fene\u{302}tre")
        #expect(decomposed == .some(SpatialModel.SourceLocation(line: 900, column: 1)))
        #expect(table.count == 501)
    }
}
