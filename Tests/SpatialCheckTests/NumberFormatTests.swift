import Foundation
import Testing
@testable import Rules
import Reporting

/// `fmt` (numbers in messages) prints digits itself; it must give the text the printf form gave:
/// round to 2 decimals (2 significant digits below 0.1), then "%.Nf" with trailing zeros dropped.
@Suite struct NumberFormatTests {
    /// The printf form `fmt` had, kept here as the oracle.
    private func printfForm(_ x: Double) -> String {
        guard x.isFinite else { return x.isNaN ? "n/a" : (x > 0 ? "inf" : "-inf") }
        let a = abs(x)
        let decimals = a > 0 && a < 0.1 ? min(8, 1 - Int(log10(a).rounded(.down))) : 2
        let scale = pow(10, Double(decimals))
        let r = (x * scale).rounded() / scale
        if r == r.rounded() && abs(r) < 1e15 { return String(Int(r)) }
        var s = String(format: "%.\(decimals)f", r)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    @Test func handWrittenValues() {
        #expect(fmt(58.364) == "58.36")
        #expect(fmt(-3.5) == "-3.5")
        #expect(fmt(0.005) == "0.005")
        #expect(fmt(-0.05) == "-0.05")
        #expect(fmt(0.0123456) == "0.012")
        #expect(fmt(12.001) == "12")
        #expect(fmt(1.10) == "1.1")
        #expect(fmt(0.000001234) == "0.0000012")
        #expect(fmt(.nan) == "n/a")
        #expect(fmt(0) == "0")
        #expect(fmt(-0.0) == "0")
        #expect(printfForm(-0.0) == "0")
    }

    @Test func matchesPrintfOnManyValues() {
        var rng = SystemRandomNumberGenerator()
        var mismatches: [Double] = []
        for k in 0..<200_000 {
            let exponent = Double.random(in: -9...16, using: &rng)
            var x = pow(10, exponent) * (Bool.random(using: &rng) ? 1 : -1)
            if k % 3 == 0 { x = (x * 1000).rounded() / 1000 }   // values near a rounding boundary
            if k % 7 == 0 { x = Double(Int.random(in: -100_000...100_000, using: &rng)) / 200 }
            if fmt(x) != printfForm(x) { mismatches.append(x) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }
}

/// `fmt(x, decimals)` (the reports' fixed-point numbers) writes its digits into a buffer; it must
/// give the text the string form gave (kept here as the oracle).
@Suite struct FixedPointFormatTests {
    private func stringForm(_ x: Double, _ decimals: Int) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (abs(x) * scale).rounded()
        let negative = x < 0 && r != 0
        guard r < 9.0e18 else { return "\(x)" }
        var digits = String(Int64(r))
        if decimals > 0 {
            if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
        }
        return (negative ? "-" : "") + digits
    }

    @Test func handWrittenValues() {
        #expect(Reporting.fmt(1.23456, 2) == "1.23")
        #expect(Reporting.fmt(-0.004, 2) == "0.00")
        #expect(Reporting.fmt(-0.006, 2) == "-0.01")
        #expect(Reporting.fmt(0.05, 1) == "0.1")
        #expect(Reporting.fmt(12345.6, 0) == "12346")
        #expect(Reporting.fmt(0, 3) == "0.000")
        #expect(Reporting.fmt(-7, 0) == "-7")
        #expect(Reporting.fmt(.infinity, 1) == "inf")
    }

    @Test func matchesTheStringFormOnManyValues() {
        var rng = SystemRandomNumberGenerator()
        var mismatches: [(Double, Int)] = []
        for k in 0..<200_000 {
            let exponent = Double.random(in: -9...19, using: &rng)
            var x = pow(10, exponent) * (Bool.random(using: &rng) ? 1 : -1)
            if k % 3 == 0 { x = (x * 1000).rounded() / 1000 }
            if k % 7 == 0 { x = Double(Int.random(in: -100_000...100_000, using: &rng)) / 200 }
            let decimals = k % 8
            if Reporting.fmt(x, decimals) != stringForm(x, decimals) { mismatches.append((x, decimals)) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(5))")
    }

/// `fmt(_:beside:)`: a value printed next to the limit it fails never reads as the limit itself.
@Suite struct BesideLimitFormatTests {
    @Test func addsDecimalsOnlyWhereTheRoundedValueEqualsTheLimit() {
        // WCAG contrast of #959595 on white: (1.05) / (L + 0.05) with L = ((149/255 + 0.055)/1.055)^2.4.
        let l = pow((149.0 / 255 + 0.055) / 1.055, 2.4)
        #expect(Rules.fmt(1.05 / (l + 0.05), beside: 3) == "2.995")
        #expect(Rules.fmt(5.0049, beside: 5) == "5.005")
        #expect(Rules.fmt(4.99999999999, beside: 5) == "5")  // equal to 9 decimals: as fmt writes it
        #expect(Rules.fmt(2.5, beside: 3) == "2.5")          // already distinct
        #expect(Rules.fmt(3, beside: 3) == "3")
    }
}
}
