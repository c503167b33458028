import ArgumentParser
import SpatialCheck

struct SpatialCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spatialcheck",
        abstract: "Validate and simulate visionOS / ARKit scenes against Apple's Human Interface Guidelines.",
        version: SpatialCheck.version
    )
}

SpatialCheckCommand.main()
