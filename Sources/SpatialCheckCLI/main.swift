import ArgumentParser
import Foundation
import SpatialCheck
import SpatialModel

struct SpatialCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spatialcheck",
        abstract: "Validate and simulate visionOS / ARKit scenes against Apple's Human Interface Guidelines.",
        discussion: """
            Start with `spatialcheck inspect SCENE` to see how a scene was understood.
            Scene files end in .scene.yaml, .scene.yml or .scene.json; bare 3D assets (glTF, GLB, OBJ,
            FBX, DAE, PLY, STL, ...) are accepted too.
            """,
        version: SpatialCheck.version,
        subcommands: [Inspect.self]
    )
}

/// Writes a command's outcome: output to stdout or --output, diagnostics to stderr; exits with its code.
func finish(_ outcome: SpatialCheck.Outcome, output: String?) throws -> Never {
    for d in outcome.diagnostics {
        FileHandle.standardError.write(Data((d.description + "\n").utf8))
    }
    if let output {
        do {
            try outcome.output.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            FileHandle.standardError.write(Data("spatialcheck: cannot write \(output): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
    } else {
        FileHandle.standardOutput.write(Data(outcome.output.utf8))
    }
    throw ExitCode(outcome.exitCode.rawValue)
}

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the loaded spatial model: entities, kinds, roles, world bounds in metres, units, animations.")

    @Argument(help: "A scene file or a bare 3D asset.") var path: String
    @Option(help: "Output format: text or json (spatialcheck-model/1).") var format: SpatialCheck.InspectFormat = .text
    @Option(help: "Write to this file instead of standard output.") var output: String?
    @Option(help: "Degrees per point (default 0.0671, or the scene's units.pointAngle).") var pointAngle: Double?

    func run() throws {
        try finish(SpatialCheck.inspect(path: path, format: format, options: .init(pointAngle: pointAngle)), output: output)
    }
}

extension SpatialCheck.InspectFormat: ExpressibleByArgument {}

SpatialCheckCommand.main()
