import ArgumentParser
import Foundation
import SpatialCheck
import SpatialModel
import SceneLoader
import Simulation

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
        subcommands: [Inspect.self, Simulate.self]
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
    @OptionGroup var scene: SceneOptions

    func run() throws {
        try finish(SpatialCheck.inspect(path: path, format: format, options: scene.loadOptions), output: output)
    }
}

extension SpatialCheck.InspectFormat: ExpressibleByArgument {}
extension TraceFormat: ExpressibleByArgument {}

/// Options that change how a scene is loaded and stepped.
struct SceneOptions: ParsableArguments {
    @Option(name: .customLong("frame-rate"), help: "Simulation rate in Hz (default: the scene's, else 90 visionOS / 60 iOS).")
    var frameRate: Double?
    @Option(help: "Seconds to simulate (default: the scene's duration, else the end of its path, animations and events).")
    var duration: Double?
    @Option(name: .customLong("point-angle"), help: "Degrees per point (default: the scene's units.pointAngle, else 0.0671).")
    var pointAngle: Double?

    func validate() throws {
        if let frameRate, !(frameRate.isFinite && frameRate > 0 && frameRate <= 10_000) {
            throw ValidationError("--frame-rate must be a number of Hz between 0 and 10000")
        }
        if let duration, !(duration.isFinite && duration > 0) {
            throw ValidationError("--duration must be a positive number of seconds")
        }
        if let pointAngle, !(pointAngle.isFinite && pointAngle > 0 && pointAngle < 1) {
            throw ValidationError("--point-angle must be between 0 and 1 degree per point")
        }
    }

    var loadOptions: LoadOptions { LoadOptions(pointAngle: pointAngle, frameRate: frameRate, duration: duration) }
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the per-frame trace: head pose, and per entity world position, distance, angles, size.",
        discussion: "CSV has one row per frame and visible entity; JSON Lines one object per frame. Pipe it into a plotting tool.")

    @Argument(help: "A scene file or a bare 3D asset.") var path: String
    @Option(help: "csv or jsonl.") var format: TraceFormat = .csv
    @Option(help: "Write to this file instead of standard output.") var output: String?
    @OptionGroup var scene: SceneOptions

    func run() throws {
        let handle: FileHandle
        if let output {
            guard FileManager.default.createFile(atPath: output, contents: nil), let h = FileHandle(forWritingAtPath: output) else {
                FileHandle.standardError.write(Data("spatialcheck: cannot write \(output)\n".utf8))
                throw ExitCode(2)
            }
            handle = h
        } else {
            handle = FileHandle.standardOutput
        }
        try finish(SpatialCheck.simulate(path: path, format: format, options: scene.loadOptions, to: handle), output: nil)
    }
}

// Bad arguments exit with 2, as the contract says (argument-parser's default is 64).
do {
    var command = try SpatialCheckCommand.parseAsRoot()
    try command.run()
} catch {
    let code = SpatialCheckCommand.exitCode(for: error)
    if code == .validationFailure {
        let message = SpatialCheckCommand.fullMessage(for: error)
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
    SpatialCheckCommand.exit(withError: error)
}
