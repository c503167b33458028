import Testing
@testable import Rules

/// `RuleEngine.order(of:)`, the order of `finish`'s violations: each rank packed into one integer
/// against comparing the rank fields one by one (the definition), and both against hand-ordered
/// ranks.
@Suite struct ViolationOrderTests {
    typealias Rank = RuleEngine.Rank

    static func rank(_ severity: Int, _ rule: Int, _ entities: [Int], variant: Int = 0) -> Rank {
        Rank(severity: severity, rule: rule, count: entities.count, e0: entities.first ?? 0,
             e1: entities.count > 1 ? entities[1] : 0, variant: variant)
    }

    /// Severity first, then the rule, then the entities (no entity first, a prefix before the
    /// longer list), then the sub-check.
    @Test func handOrderedRanks() {
        let expected = [
            Self.rank(0, 0, []), Self.rank(0, 0, [0]), Self.rank(0, 0, [0, 1]), Self.rank(0, 0, [0, 1], variant: 1),
            Self.rank(0, 0, [0, 2]), Self.rank(0, 0, [1]), Self.rank(0, 0, [1], variant: 2), Self.rank(0, 1, []),
            Self.rank(0, 1, [0]), Self.rank(1, 0, []), Self.rank(2, 0, [0, 0]),
        ]
        let shuffle = [5, 2, 10, 7, 0, 3, 9, 6, 1, 8, 4]
        for packed in [true, false] {
            let order = RuleEngine.order(of: shuffle.map { expected[$0] }, packed: packed)
            #expect(order.map { shuffle[$0] } == Array(expected.indices))
        }
    }

    /// Equal ranks (equal paths share a rank) keep the order in which they came.
    @Test func equalRanksKeepTheirOrder() {
        let ranks = [Self.rank(0, 0, [3]), Self.rank(0, 0, [3]), Self.rank(0, 0, [1]), Self.rank(0, 0, [3]), Self.rank(0, 0, [1])]
        for packed in [true, false] { #expect(RuleEngine.order(of: ranks, packed: packed) == [2, 4, 0, 1, 3]) }
    }

    /// Many ties (small ranges) and scene-sized entity ranks: the packed order is the definition's.
    @Test func packedMatchesTheFieldsOnRandomRanks() {
        var rng = SystemRandomNumberGenerator()
        for (entities, variants) in [(4, 2), (50, 3), (1 << 20, 64)] {
            let ranks = (0..<5_000).map { _ -> Rank in
                let count = Int.random(in: 0...2, using: &rng)
                return Self.rank(Int.random(in: 0...2, using: &rng), Int.random(in: 0..<30, using: &rng),
                                 (0..<count).map { _ in Int.random(in: 0..<entities, using: &rng) },
                                 variant: Int.random(in: 0..<variants, using: &rng))
            }
            #expect(RuleEngine.order(of: ranks) == RuleEngine.order(of: ranks, packed: false))
        }
    }

    /// Ranks that do not fit one integer (entity ranks of 40 bits, twice) are compared field by field.
    @Test func wideRanksGiveTheSameOrder() {
        let big = 1 << 40
        let ranks = [Self.rank(0, 0, [big, 2]), Self.rank(0, 0, [big - 1, big]), Self.rank(0, 0, [big]), Self.rank(0, 0, [3])]
        #expect(RuleEngine.order(of: ranks) == [3, 1, 2, 0])
        #expect(RuleEngine.order(of: ranks, packed: false) == [3, 1, 2, 0])
    }
}
