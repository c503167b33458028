import Foundation
import Testing
@testable import Rules
import SpatialModel

@Suite struct RuleConfigurationTests {
    @Test func misspeltRuleIdIsAnErrorWithLocationAndSuggestion() {
        let text = """
        failOn: warning
        rules:
          target-centre-spacing: off
        """
        do {
            _ = try RuleConfiguration.parse(text, file: ".spatialcheck.yaml")
            Issue.record("expected an error")
        } catch let f as LoadFailure {
            #expect(f.diagnostics.count == 1)
            let d = f.diagnostics.first
            #expect(d?.location == SourceLocation(line: 3, column: 3))
            #expect(d?.hint == "did you mean 'target-center-spacing'?")
            #expect(d?.description.hasPrefix(".spatialcheck.yaml:3:3: error: unknown rule id") == true)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unknownKeysAndMissingReasonAreErrors() {
        let text = """
        failon: warning
        rules:
          target-center-spacing: {severty: warning}
        ignore:
          - {rule: target-center-spacing, entity: "a/*"}
        """
        do {
            _ = try RuleConfiguration.parse(text)
            Issue.record("expected errors")
        } catch let f as LoadFailure {
            let hints = f.diagnostics.compactMap(\.hint)
            #expect(hints.contains("did you mean 'failOn'?"))
            #expect(hints.contains("did you mean 'severity'?"))
            #expect(f.diagnostics.contains { $0.message.contains("reason") && $0.location?.line == 5 })
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func negativeThresholdsAndParametersAreErrors() {
        let text = """
        rules:
          target-center-spacing: {threshold: -5}
          depth-min-reading-distance: {dwell: -1, distance: 0.8}
        """
        do {
            _ = try RuleConfiguration.parse(text)
            Issue.record("expected errors")
        } catch let f as LoadFailure {
            #expect(f.diagnostics.map(\.location?.line) == [2, 3])
            #expect(f.diagnostics.first?.message.contains("threshold must be 0 or more, found -5") == true)
            #expect(f.diagnostics.last?.message.contains("dwell must be 0 or more") == true)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func parsesAFullConfig() throws {
        let c = try RuleConfiguration.parse("""
        failOn: warning
        units: {pointAngle: 0.07}
        rules:
          target-center-spacing: {severity: warning, threshold: 50, edgeGap: 10}
          fov-important-centered: off
        ignore:
          - {rule: depth-min-reading-distance, entity: "hud/*", reason: "brief notification"}
        """)
        #expect(c.failOn == .warning)
        #expect(c.pointAngle == 0.07)
        #expect(c.rules["target-center-spacing"] == RuleSettings(severity: .warning, threshold: 50, parameters: ["edgeGap": 10]))
        #expect(!c.isEnabled("fov-important-centered"))
        #expect(c.ignore.first?.reason == "brief notification")
        #expect(FailOn.warning.fails(.warning) && !FailOn.warning.fails(.info) && !FailOn.never.fails(.error))
    }

    func spacingViolations(_ config: String) throws -> [Violation] {
        var fx = RuleFixture(duration: 2.0 / 90)
        let w = fx.window()
        fx.button("play", in: w, frame: RectPt(x: 0, y: 0, width: 44, height: 44))
        fx.button("pause", in: w, frame: RectPt(x: 44, y: 0, width: 44, height: 44))
        return fx.run(configuration: try RuleConfiguration.parse(config)).1.rule("target-center-spacing")
    }

    @Test func configChangesTheVerdict() throws {
        #expect(try spacingViolations("{}").count == 1)
        #expect(try spacingViolations("rules: {target-center-spacing: off}").isEmpty)
        #expect(try spacingViolations("rules: {target-center-spacing: {enabled: false}}").isEmpty)
        #expect(try spacingViolations("rules: {target-center-spacing: {threshold: 40}}").isEmpty)
        #expect(try spacingViolations("rules: {target-center-spacing: {severity: info}}").first?.severity == .info)
        #expect(try spacingViolations("""
        ignore: [{rule: target-center-spacing, entity: "player/*", reason: "prototype"}]
        """).isEmpty)
        #expect(try spacingViolations("""
        ignore: [{rule: target-center-spacing, entity: "other/*", reason: "prototype"}]
        """).count == 1)
    }

    @Test func globs() {
        #expect(globMatch("player/*", "player/play"))
        #expect(!globMatch("player/*", "player/controls/play"))
        #expect(globMatch("player/**", "player/controls/play"))
        #expect(globMatch("**/play", "player/controls/play"))
        #expect(globMatch("**/play", "play"))
        #expect(globMatch("p?ayer/*", "player/x"))
        #expect(!globMatch("hud", "hud2"))
    }

    @Test func findsTheNearestConfigFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("rulecfg-\(UInt32.random(in: 0...UInt32.max))")
        let deep = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(RuleConfiguration.find(startingAt: deep.path) == nil || RuleConfiguration.find(startingAt: deep.path)?.hasPrefix(root.path) == false)
        let file = root.appendingPathComponent("a/.spatialcheck.yaml")
        try "failOn: never\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(RuleConfiguration.find(startingAt: deep.path) == file.standardizedFileURL.path)
        #expect(try RuleConfiguration.load(path: file.path).failOn == .never)
    }

    /// A parameter beyond anything a scene can measure is accepted with a warning at its value
    /// (session-17 trial: 10⁹ everywhere made every pair of controls violate); values at the bound
    /// and units without one (distances) are not warned about.
    @Test func parametersBeyondTheirUnitsRangeWarn() throws {
        let text = """
        rules:
          target-center-spacing: {threshold: 1000000000}
          fov-vertical-comfort: {below: 400, above: 360}
          motion-vection: {vectionCoverage: 100}
          type-contrast: {ratioNormal: 21.5}
          depth-min-reading-distance: {threshold: 1000000000}
        """
        let config = try RuleConfiguration.parse(text, file: "c.yaml")
        #expect(config.rules["target-center-spacing"]?.threshold == 1_000_000_000)
        let lines = config.warnings.map(\.description)
        #expect(lines.count == 3)
        // 360° at 0.0005° per point = 720,000 pt; the value's own line and column.
        #expect(lines.first?.hasPrefix("c.yaml:2:38: warning: rule 'target-center-spacing': threshold 1000000000 pt is beyond anything a scene can measure (at most 720000 pt)") == true)
        #expect(config.warnings.first?.hint == "use a value from 0 to 720000 pt (the default is 60), or turn the rule off with 'target-center-spacing: off'")
        #expect(lines.dropFirst().first?.hasPrefix("c.yaml:3:33: warning: rule 'fov-vertical-comfort': below 400 deg is beyond anything a scene can measure (at most 360 deg)") == true)
        #expect(lines.last?.hasPrefix("c.yaml:5:32: warning: rule 'type-contrast': ratioNormal 21.5 ratio is beyond anything a scene can measure (at most 21 ratio)") == true)
        #expect(try RuleConfiguration.parse("rules:\n  target-center-spacing: {threshold: 720000}\n").warnings.isEmpty)
    }
}

@Suite struct RuleConfigurationThresholdTests {
    /// A threshold for a rule that has none says what the rule does take.
    @Test func aRuleWithoutAThresholdListsWhatItTakes() {
        do {
            _ = try RuleConfiguration.parse("rules:\n  fov-no-head-turn: {threshold: 50}\n", file: ".spatialcheck.yaml")
            Issue.record("expected an error")
        } catch let f as LoadFailure {
            #expect(f.diagnostics.map(\.message) == ["rule 'fov-no-head-turn' has no threshold"])
            #expect(f.diagnostics.map(\.hint) == ["it takes: severity, enabled"])
            #expect(f.diagnostics.first?.location?.line == 2)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
