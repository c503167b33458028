import Foundation
import SpatialModel
import Rules
import AssetImport

extension SpatialCheck {
    /// `init --ci`: which CI system to write a workflow for.
    public enum CIProvider: String, Sendable, CaseIterable { case github, gitlab }

    /// `spatialcheck init [--ci github|gitlab]`: writes a commented `.spatialcheck.yaml` in
    /// `directory` (every rule of the catalog with its default severity and parameters) and, with
    /// `ci`, a workflow file. With `example`, it writes the starter scene `example.scene.yaml`
    /// instead of the configuration. It never overwrites a file: one that exists is kept and named
    /// on standard error, the others are written (so `init --ci github` after `init` adds only the
    /// workflow); when every file exists it writes nothing and fails (exit 2).
    /// `source`: where the workflow gets spatialcheck from (default: `toolSource(directory:)`).
    public static func initialize(directory: String, ci: CIProvider?, example: Bool = false, source: ToolSource? = nil) -> Outcome {
        var files: [(path: String, text: String)] = example ? [(exampleSceneFileName, exampleScene)] : [(ProjectRoot.configFileName, initialConfiguration())]
        if let ci {
            let source = source ?? toolSource(directory: directory)
            switch ci {
            case .github: files.append((".github/workflows/spatialcheck.yml", githubWorkflow(source)))
            case .gitlab: files.append((".gitlab-ci.yml", gitlabPipeline(source)))
            }
        }
        let fm = FileManager.default
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let existing = files.filter { fm.fileExists(atPath: base + $0.path) }
        let missing = files.filter { f in !existing.contains { $0.path == f.path } }
        guard !missing.isEmpty else {
            return .failure(existing.map {
                Diagnostic(file: base + $0.path, message: "already exists; init writes nothing over an existing file",
                           hint: "remove or rename it first, or edit it by hand (`spatialcheck schema config` describes every key)")
            })
        }
        let kept = existing.map {
            Diagnostic(.warning, file: base + $0.path, message: "already exists and was kept as it is; the other files were written",
                       hint: "init never writes over a file: remove or rename it first to have it written anew")
        }
        for f in missing {
            let path = base + f.path
            do {
                try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try f.text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                return .failure([Diagnostic(file: path, message: "cannot write this file: \(error.localizedDescription)",
                                            hint: "check that the folder is writable")])
            }
        }
        return Outcome(output: missing.map { "wrote \($0.path)\n" }.joined(), diagnostics: kept)
    }

    /// The file `init --example` writes.
    public static let exampleSceneFileName = "example.scene.yaml"
    /// A starter scene for someone who has never written one: a window with elements, an ornament,
    /// 3D text, each key commented. It has one finding on purpose (two ornament buttons 50 pt apart,
    /// 6 pt between their edges: target-center-spacing), and its first comment says how to fix it,
    /// so that its first report shows what a violation looks like.
    public static let exampleScene = """
        # A starter scene (written by `spatialcheck init --example`). Check it with
        #   spatialcheck validate example.scene.yaml
        # then change it to describe your own app. Every key: `spatialcheck schema scene`.
        # Distances are in metres, angles in degrees, window and element sizes in points.
        # As written, one thing is wrong on purpose: the ornament's two buttons are too close
        # (target-center-spacing); move `next` to x = 240 and the scene passes.
        format: spatialscene/1
        name: Starter
        platform: visionOS            # or iOS for an ARKit scene on iPhone or iPad
        immersion: shared             # shared, mixed, progressive or full
        duration: 10                  # seconds simulated
        viewer:
          posture: standing           # standing or seated
          motion: sway                # none, sway (small head movements) or look-around
          # To walk, give the eye's path instead (position interpolated between the keys):
          # path:
          #   - {t: 0, position: [0, 1.6, 0]}
          #   - {t: 10, position: [0.4, 1.6, 0], rotation: {yaw: -10}}
        entities:
          - id: library               # reported as "library"
            kind: window
            # Where visionOS opens a window: 1.5 m ahead at eye level. Without `placement` or
            # `position` a window stands on the floor at the viewer's feet.
            placement: {distance: 1.5, azimuth: 0, elevation: 0}
            size: [1280, 720]         # points; the window's metres follow from its distance
            primary: true             # the content that should open centred and stay in view
            elements:                 # 2D content in the window's points: frame [x, y, width, height] from its top left
              - {id: title, role: text, frame: [40, 32, 600, 40], fontSize: 29, label: My library}
              - {id: search, role: textField, frame: [40, 96, 400, 44], label: Search}
              - {id: open, role: button, frame: [460, 96, 120, 44], label: Open}
            children:
              - id: transport         # an ornament: a window nested in a window, reported as library/transport
                kind: window
                position: [0, -0.71, 0.02]   # metres from the window's centre, in its frame: its top edge at the window's bottom edge
                size: [400, 88]
                elements:
                  - {id: play, role: button, frame: [150, 22, 44, 44], label: Play}
                  - {id: next, role: button, frame: [200, 22, 44, 44], label: Next}
          - id: caption               # 3D text in the room: `string` (an element's text is `label`)
            kind: text
            position: [0.9, 1.3, -1.6]  # metres: x right, y up from the floor, -z ahead of the viewer
            facing: viewer
            height: 0.05              # letter height in metres
            string: Now playing
          # 3D content: a volume holding a model from a file (glTF, GLB, USDZ, USDA, a Reality
          # Composer Pro scene such as Content.rkassets/Scene.usda, ...), its path relative to
          # this file. Remove "# " from the lines below and name your own file:
          # - id: viewer3d
          #   kind: volume
          #   placement: {distance: 1.2, azimuth: 35, elevation: -10}
          #   size: [0.5, 0.5, 0.5]   # metres
          #   scaleMode: dynamic      # keeps its apparent size, like a window
          #   children:
          #     - {id: robot, kind: model, asset: Models/Robot.usdz}
        """

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

    /// Where a workflow written by `init --ci` gets spatialcheck from.
    public enum ToolSource: Sendable, Equatable {
        /// The folder is spatialcheck's own package: the workflow builds it in place.
        case thisPackage
        /// A git repository and the commit to build (the checkout this executable was built in):
        /// the workflow clones it outside the project's checkout and builds it there. `url` is nil
        /// when the checkout has no network remote: the workflow pins the commit and has the URL
        /// to fill in, and stops with an error that says so until it is.
        case git(url: String?, revision: String)
        /// Not known (an installed copy, not a git checkout): both are to fill in.
        case unknown
    }

    /// Where a workflow for `directory` gets spatialcheck from: its own package when the folder is
    /// spatialcheck's (a `Package.swift` with the `spatialcheck` executable); else the `origin`
    /// remote and `HEAD` commit of the package checkout this executable was built in, when the
    /// remote is a network URL (https, ssh, git or `user@host:path`; a URL's user and password are
    /// left out, so no token lands in a workflow file), or that commit alone without such a
    /// remote; else `unknown`.
    public static func toolSource(directory: String, executable: String? = AssetImporter.ownExecutable()) -> ToolSource {
        if isSpatialCheckPackage(directory) { return .thisPackage }
        guard let dir = packageCheckout(executable: executable), let revision = git(["rev-parse", "HEAD"], in: dir),
              revision.count == 40, revision.allSatisfy(\.isHexDigit) else { return .unknown }
        return .git(url: git(["remote", "get-url", "origin"], in: dir).flatMap(remoteURL), revision: revision)
    }

    /// The spatialcheck package folder `executable` was built in (the nearest folder above it
    /// whose Package.swift declares the `spatialcheck` executable), or nil for an installed copy.
    public static func packageCheckout(executable: String? = AssetImporter.ownExecutable()) -> String? {
        guard let executable else { return nil }
        var dir = (URL(fileURLWithPath: executable).resolvingSymlinksInPath().path as NSString).deletingLastPathComponent
        while dir != "/" && !dir.isEmpty && !isSpatialCheckPackage(dir) { dir = (dir as NSString).deletingLastPathComponent }
        return isSpatialCheckPackage(dir) ? dir : nil
    }

    private static func isSpatialCheckPackage(_ dir: String) -> Bool {
        guard let text = try? String(contentsOfFile: dir + "/Package.swift", encoding: .utf8) else { return false }
        return text.contains(".executable(name: \"spatialcheck\"")
    }

    /// A git URL a CI runner can clone: a network URL without user information, in characters
    /// that need no quoting in YAML or a shell; nil for a local path or anything else.
    static func remoteURL(_ raw: String) -> String? {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~:/@%+-")
        guard let first = raw.first, first.isLetter || first.isNumber, raw.allSatisfy({ allowed.contains($0) }) else { return nil }
        for scheme in ["https://", "http://", "ssh://", "git://"] where raw.hasPrefix(scheme) {
            var rest = raw.dropFirst(scheme.count)
            let host = rest.prefix { $0 != "/" }
            // https://user:token@host/x: the user information is dropped (ssh keeps its user name).
            if scheme.hasPrefix("http"), let at = host.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
            return rest.contains("/") && !rest.hasPrefix("/") ? scheme + rest : nil
        }
        // scp-like `git@github.com:owner/name.git`.
        let parts = raw.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].contains("@"), !parts[0].contains("/"), !parts[1].isEmpty, !parts[1].hasPrefix("/") { return raw }
        return nil
    }

    /// `git ARGS` in `dir`: its first line of output, or nil when git is missing or fails.
    private static func git(_ args: [String], in dir: String) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["git", "-C", dir] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// The lines of a workflow that get spatialcheck (`variables` at the job's level, the build
    /// commands) and the command that runs it, for `source`.
    static func toolSteps(_ source: ToolSource) -> (comment: String, variables: [String], build: [String], binary: String) {
        let clone = ["test -n \"$SPATIALCHECK_GIT\" || { echo \"error: set SPATIALCHECK_GIT (and SPATIALCHECK_REF) in this file to the git URL of the spatialcheck you use\" >&2; exit 1; }",
                     "git clone --quiet \"$SPATIALCHECK_GIT\" /tmp/spatialcheck",
                     "git -C /tmp/spatialcheck checkout --quiet \"$SPATIALCHECK_REF\"",
                     "swift build -c release --package-path /tmp/spatialcheck --product spatialcheck"]
        let outside = "/tmp/spatialcheck/.build/release/spatialcheck"
        switch source {
        case .thisPackage:
            return ("# It builds spatialcheck from this repository's Swift package.", [],
                    ["swift build -c release --product spatialcheck"], ".build/release/spatialcheck")
        case let .git(url?, revision):
            return ("# It builds spatialcheck from the repository and commit `init` was run from (outside this\n"
                    + "# checkout, so that spatialcheck's own example scenes are not checked); set SPATIALCHECK_REF\n"
                    + "# to a tag or branch you publish to follow it.",
                    ["SPATIALCHECK_GIT: \(url)", "SPATIALCHECK_REF: \(revision)"], clone, outside)
        case let .git(nil, revision):
            return ("# Set SPATIALCHECK_GIT to the git URL of the spatialcheck you use (`init` ran from a checkout\n"
                    + "# without a network remote, at the commit SPATIALCHECK_REF pins, so that CI checks with the\n"
                    + "# version that wrote your baseline); until then the job stops with an error.",
                    ["SPATIALCHECK_GIT: \"\"", "SPATIALCHECK_REF: \(revision)"], clone, outside)
        case .unknown:
            return ("# Set SPATIALCHECK_GIT to the git URL of the spatialcheck you use (`init` could not tell: it\n"
                    + "# ran from an installed copy) and SPATIALCHECK_REF to the tag or commit of the version you\n"
                    + "# run locally (`main` follows its branch); until then the job stops with an error.",
                    ["SPATIALCHECK_GIT: \"\"", "SPATIALCHECK_REF: main"], clone, outside)
        }
    }

    /// The file a workflow written by `init --ci` compares with when it is committed.
    static let baselineFileName = "spatialcheck-baseline.json"

    /// The comment that tells how to start from a baseline, and the shell words that pass it when
    /// the file exists (unquoted command substitution, so nothing when it does not).
    static func baselineSteps() -> (comment: String, option: String) {
        ("# Known violations: save a baseline once and commit it, and the gate fails only on new or\n"
         + "# worsened ones (without it, on every violation at or above failOn):\n"
         + "#   spatialcheck validate . --fail-on never --format json --output \(baselineFileName)",
         "$(test -f \(baselineFileName) && echo --baseline \(baselineFileName))")
    }

    static func githubWorkflow(_ source: ToolSource) -> String {
        let tool = toolSteps(source)
        let baseline = baselineSteps()
        let env = tool.variables.isEmpty ? "" : "    env:\n" + tool.variables.map { "      \($0)\n" }.joined()
        let build = tool.build.count == 1 ? "        run: \(tool.build[0])\n" : "        run: |\n" + tool.build.map { "          \($0)\n" }.joined()
        return """
            # spatialcheck comfort gate (written by `spatialcheck init --ci github`; see docs/ci.md).
            \(tool.comment)
            \(baseline.comment)
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
                defaults:
                  run:
                    shell: bash

            """ + env + """
                steps:
                  - uses: actions/checkout@v4
                  - name: Install system packages
                    run: |
                      apt-get update -qq
                      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libassimp-dev libglm-dev pkg-config
                  - name: Build spatialcheck

            """ + build + """
                  - name: Check scenes (the report in the log)
                    id: check
                    run: \(tool.binary) validate . --jobs 2 --quiet \(baseline.option)
                  - name: Annotate the pull request with what failed
                    if: ${{ failure() && steps.check.outcome == 'failure' }}
                    run: \(tool.binary) validate . --jobs 2 --fail-on never --format github \(baseline.option)

            """
    }

    static func gitlabPipeline(_ source: ToolSource) -> String {
        let tool = toolSteps(source)
        let baseline = baselineSteps()
        func line(_ command: String) -> String { "    - '\(command.replacingOccurrences(of: "'", with: "''"))'\n" }
        return """
            # spatialcheck comfort gate (written by `spatialcheck init --ci gitlab`; see docs/ci.md).
            \(tool.comment)
            \(baseline.comment)
            spatialcheck:
              stage: test
              image: swift:6.1-bookworm
              variables:
                DEBIAN_FRONTEND: noninteractive

            """ + tool.variables.map { "    \($0)\n" }.joined() + """
              before_script:
                - apt-get update -qq
                - apt-get install -y -qq --no-install-recommends libassimp-dev libglm-dev pkg-config

            """ + tool.build.map(line).joined() + """
              script:
                # The JUnit report for the merge request's test summary (its cases fail as the gate
                # does), then the gate itself, whose text report is the job's log.

            """ + line("\(tool.binary) validate . --jobs 2 --format junit --output spatialcheck-junit.xml \(baseline.option) || true")
            + line("\(tool.binary) validate . --jobs 2 --quiet \(baseline.option)") + """
              artifacts:
                when: always
                paths:
                  - spatialcheck-junit.xml
                reports:
                  junit: spatialcheck-junit.xml

            """
    }
}
