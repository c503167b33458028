import Foundation
import SpatialModel
import Rules

extension SpatialCheck {
    /// `init --ci`: which CI system to write a workflow for.
    public enum CIProvider: String, Sendable, CaseIterable { case github, gitlab }

    /// `spatialcheck init [--ci github|gitlab]`: writes a commented `.spatialcheck.yaml` in
    /// `directory` (every rule of the catalog with its default severity and parameters) and, with
    /// `ci`, a workflow file. With `example`, it writes the starter scene `example.scene.yaml`
    /// instead of the configuration. Writes nothing when any of the files exists (exit 2), so it
    /// never overwrites a configuration, a pipeline or a scene.
    public static func initialize(directory: String, ci: CIProvider?, example: Bool = false) -> Outcome {
        var files: [(path: String, text: String)] = example ? [(exampleSceneFileName, exampleScene)] : [(ProjectRoot.configFileName, initialConfiguration())]
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
