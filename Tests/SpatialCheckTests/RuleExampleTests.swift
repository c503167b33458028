import Testing
import Foundation
@testable import SpatialCheck
import Rules
import Reporting

/// SwiftLint's pattern: every rule carries a scene that must trigger it and one that must not,
/// and one test runs them all end to end (loader → simulator → rules).
@Suite struct RuleExampleTests {
    static func violations(_ relative: String) throws -> (rules: [String], status: SceneReport.Status, errors: String) {
        let path = TestPaths.repo(relative)
        let (report, _) = SpatialCheck.checkScene(path: path, load: .init(), configuration: .default)
        return (report.violations.map(\.rule), report.status, report.errors.map(\.description).joined(separator: "\n"))
    }

    @Test(arguments: RuleCatalog.rules.map(\.id))
    func failingExampleTriggersTheRule(_ id: String) throws {
        let meta = try #require(RuleCatalog.metadata(id: id))
        let r = try Self.violations(meta.failExample)
        #expect(r.status == .checked, "\(meta.failExample) did not load: \(r.errors)")
        #expect(r.rules.contains(id), "\(meta.failExample) should violate \(id); got \(r.rules)")
    }

    @Test(arguments: RuleCatalog.rules.map(\.id))
    func passingExampleIsClean(_ id: String) throws {
        let meta = try #require(RuleCatalog.metadata(id: id))
        let r = try Self.violations(meta.passExample)
        #expect(r.status == .checked, "\(meta.passExample) did not load: \(r.errors)")
        #expect(r.rules.isEmpty, "\(meta.passExample) should be clean; got \(r.rules)")
    }
}
