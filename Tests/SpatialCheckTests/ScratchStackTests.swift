import Testing
@testable import SceneLoader

/// `ScratchStack`, where the fast paths keep the values of their open collections: each
/// collection takes exactly the values pushed since its mark, in order, and nothing is lost or
/// destroyed twice (values are moved, not copied).
@Suite struct ScratchStackTests {
    /// Counts the probes alive, to see every value destroyed exactly once.
    final class Counter {
        var live = 0
    }

    final class Probe {
        let n: Int
        let counter: Counter

        init(_ n: Int, _ counter: Counter) {
            self.n = n
            self.counter = counter
            counter.live += 1
        }

        deinit { counter.live -= 1 }
    }

    @Test func nestedCollectionsTakeTheirOwnValuesInOrder() {
        let counter = Counter()
        var outer: [Probe] = [], inner: [Probe] = [], empty: [Probe] = [], big: [Probe] = []
        ScratchStack<Probe>.with { stack in
            for n in 0..<3 { stack.push(Probe(n, counter)) }
            let mark = stack.mark
            #expect(mark == 3)
            for n in 3..<9 { stack.push(Probe(n, counter)) }
            inner = stack.take(from: mark)
            empty = stack.take(from: stack.mark)
            stack.push(Probe(9, counter))
            // More than the first buffer holds (64), so the stack grows with values on it.
            let bigMark = stack.mark
            for n in 100..<300 { stack.push(Probe(n, counter)) }
            big = stack.take(from: bigMark)
            outer = stack.take(from: 0)
            #expect(stack.mark == 0)
        }
        #expect(inner.map(\.n) == Array(3..<9))
        #expect(empty.isEmpty)
        #expect(big.map(\.n) == Array(100..<300))
        #expect(outer.map(\.n) == [0, 1, 2, 9])
        #expect(counter.live == 6 + 200 + 4)
        inner = []
        big = []
        outer = []
        #expect(counter.live == 0)
    }

    @Test func valuesLeftOnTheStackAreDestroyedOnce() {
        // A parse that declines half-way leaves its open collections' values on the stack.
        let counter = Counter()
        var taken: [Probe] = []
        ScratchStack<Probe>.with { stack in
            for n in 0..<150 { stack.push(Probe(n, counter)) }
            taken = stack.take(from: 140)
            #expect(counter.live == 150)
        }
        #expect(counter.live == 10)
        #expect(taken.map(\.n) == Array(140..<150))
        taken = []
        #expect(counter.live == 0)
    }
}
