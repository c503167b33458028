import Foundation
import SpatialModel
import Rules

extension SpatialCheck {
    /// `init --ci`: which CI system to write a workflow for.
    public enum CIProvider: String, Sendable, CaseIterable { case github, gitlab }

    /// `spatialcheck init [--ci github|gitlab]`: writes a commented `.spatialcheck.yaml` in
    /// `directory` (every rule of the catalog with its default severity and parameters) and, with
    /// `ci`, a workflow file. Writes nothing when any of the files exists (exit 2), so it never
    /// overwrites a configuration or a pipeline.
    public static func initialize(directory: String, ci: CIProvider?) -> Outcome {
        var files: [(path: String, text: String)] = [(ProjectRoot.configFileName, initialConfiguration())]
        switch ci {
        case .github?: files.append((".github/workflows/spatialcheck.yml", githubWorkflow))
        case .gitlab?: files.append((".gitlab-ci.yml", gitlabPipeline))
        case nil: break
        }
        let fm = FileManager.default
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let existing = files.filter { fm.fileExists(atPath: base + $0.path) }
        guard existing.isEmpty else {
            return .failure(existing.map {
                Diagnostic(file: base + $0.path, message: "already exists; init writes nothing over an existing file",
                           hint: "remove or rename it first, or edit it by hand (`spatialcheck schema config` describes every key)")
            })
        }
        for f in files {
            let path = base + f.path
            do {
                try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try f.text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                return .failure([Diagnostic(file: path, message: "cannot write this file: \(error.localizedDescription)",
                                            hint: "check that the folder is writable")])
            }
        }
        return Outcome(output: files.map { "wrote \($0.path)\n" }.joined())
    }

    /// The configuration `init` writes: valid as it stands (it sets every rule to its default and
    /// checks exactly as no configuration does), with a comment per rule saying what it checks, its
    /// default severity and which parameters it takes.
    public static func initialConfiguration() -> String {
        func num(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
        var out = """
            # spatialcheck configuration (written by `spatialcheck init`). Every rule is listed with its
            # default parameters: change a value, add `severity: warning` (error, info) to give all of a
            # rule's findings one severity, or write `rule-id: off` to skip a rule.
            # Keys and values: `spatialcheck schema config`; rules in full: `spatialcheck explain RULE`.

            # Lowest severity that fails the run: error, warning, info or never.
            failOn: error

            # Degrees per point (the size of a visionOS point as an angle). Unset, each scene's own
            # units.pointAngle is used, on iOS the device's camera, else \(num(Units.defaultPointAngle)); set here, it
            # overrides them all.
            # units: {pointAngle: \(num(Units.defaultPointAngle))}

            rules:

            """
        for meta in RuleCatalog.rules {
            out += "  # \(meta.name): \(meta.summary)\n"
            out += "  # \(meta.help)\n"
            // No `severity:` in the mapping: a rule's findings may differ in severity (a hit region
            // under 28 pt is an error, under 44 pt a warning), and a stated one gives them all one.
            out += "  #   severity: \(meta.defaultSeverity.rawValue) by default; setting one gives every finding of this rule that severity\n"
            var settings: [String] = []
            for p in meta.parameters {
                let key = p.key == meta.thresholdKey ? "threshold" : p.key
                out += "  #   \(key)\(key == p.key ? "" : " (\(p.key))"): \(p.summary), in \(p.unit)\n"
                settings.append("\(key): \(num(p.defaultValue))")
            }
            out += "  \(meta.id): \(settings.isEmpty ? "on" : "{\(settings.joined(separator: ", "))}")\n\n"
        }
        out += """
            # Findings to accept, each with the reason (entity paths may use * wildcards):
            # ignore:
            #   - {rule: depth-min-reading-distance, entity: "hud/*", reason: "brief notification"}

            """
        return out
    }

    static let githubWorkflow = """
        # spatialcheck comfort gate (written by `spatialcheck init --ci github`; see docs/ci.md).
        # It builds spatialcheck from this repository's Swift package; if spatialcheck lives
        # elsewhere, check it out (actions/checkout with `repository:` and `path: spatialcheck`)
        # and build with `swift build --package-path spatialcheck -c release`.
        name: spatialcheck
        on:
          push:
            branches: [main]
          pull_request:

        permissions:
          contents: read

        jobs:
          comfort:
            runs-on: ubuntu-24.04
            container: swift:6.1-bookworm
            steps:
              - uses: actions/checkout@v4
              - name: Install system packages
                run: |
                  apt-get update -qq
                  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libassimp-dev libglm-dev pkg-config
              - name: Build spatialcheck
                run: swift build -c release --product spatialcheck
              - name: Check scenes (annotations on the pull request)
                run: .build/release/spatialcheck validate . --jobs 2 --format github

        """

    static let gitlabPipeline = """
        # spatialcheck comfort gate (written by `spatialcheck init --ci gitlab`; see docs/ci.md).
        spatialcheck:
          stage: test
          image: swift:6.1-bookworm
          variables:
            DEBIAN_FRONTEND: noninteractive
          before_script:
            - apt-get update -qq
            - apt-get install -y -qq --no-install-recommends libassimp-dev libglm-dev pkg-config
            - swift build -c release --product spatialcheck
          script:
            - .build/release/spatialcheck validate . --jobs 2 --format junit --output spatialcheck-junit.xml
          artifacts:
            when: always
            reports:
              junit: spatialcheck-junit.xml

        """
}
