import Testing
@testable import Rules

/// `concatenated`, which joins a message's pieces into one string written once: the same text as
/// joining them one by one, multi-byte characters and empty pieces included.
@Suite struct ConcatenatedTests {
    @Test func joinsThePiecesInOrder() {
        #expect(concatenated() == "")
        #expect(concatenated("") == "")
        #expect(concatenated("a", "", "bc") == "abc")
        #expect(concatenated("pt ", "m/s²", " — ", "日本", "") == "pt m/s² — 日本")
        let long = String(repeating: "/world/room/shelf", count: 40)
        #expect(concatenated(long, " and ", long) == long + " and " + long)
        #expect(concatenated(long, " and ", long).utf8.count == 2 * long.utf8.count + 5)
    }
}
