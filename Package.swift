// swift-tools-version: 6.1
// spatialcheck: validate and simulate visionOS / ARKit scenes against Apple's Human Interface Guidelines.
//
// The data path is a straight line, one module per stage (docs/architecture.md):
//   SceneLoader (+ AssetImport over CAssimp) -> SpatialModel -> Simulation (CSpatialMath/GLM)
//   -> Rules -> Reporting, tied together by SpatialCheck; the `spatialcheck` executable is a thin
//   argument-parsing layer over SpatialCheck.
import PackageDescription

let package = Package(
    name: "spatialcheck",
    products: [
        .executable(name: "spatialcheck", targets: ["SpatialCheckCLI"]),
        .library(name: "SpatialCheck", targets: ["SpatialCheck"]),
        .library(name: "SpatialModel", targets: ["SpatialModel"]),
        .library(name: "SceneLoader", targets: ["SceneLoader"]),
        .library(name: "AssetImport", targets: ["AssetImport"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        // `swift package spatialcheck [PATHS]` in a package that depends on this one (docs/ci.md).
        .plugin(name: "SpatialCheckPlugin", targets: ["SpatialCheckPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // assimp's C API, linked through pkg-config (Debian: libassimp-dev; Homebrew: assimp).
        .systemLibrary(
            name: "CAssimp",
            pkgConfig: "assimp",
            providers: [.apt(["libassimp-dev"]), .brew(["assimp"])]
        ),
        // GLM behind a plain C interface: batched transforms, TRS composition, slerp.
        .target(name: "CSpatialMath"),
        .target(name: "SpatialModel"),
        .target(name: "AssetImport", dependencies: ["SpatialModel", "CAssimp"]),
        .target(name: "SceneLoader", dependencies: ["SpatialModel", "AssetImport", "Yams"]),
        .target(name: "Simulation", dependencies: ["SpatialModel", "CSpatialMath"]),
        .target(name: "Rules", dependencies: ["SpatialModel", "Simulation", "CSpatialMath", "Yams"]),
        .target(name: "Reporting", dependencies: ["SpatialModel", "Simulation", "Rules"]),
        .target(
            name: "SpatialCheck",
            dependencies: ["SpatialModel", "AssetImport", "SceneLoader", "Simulation", "Rules", "Reporting"]
        ),
        .executableTarget(
            name: "SpatialCheckCLI",
            dependencies: ["SpatialCheck", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .plugin(
            name: "SpatialCheckPlugin",
            capability: .command(
                intent: .custom(verb: "spatialcheck",
                                description: "Check the package's scene files against the HIG's comfort guidance (xcode-format diagnostics)")
            )
            // No dependency on SpatialCheckCLI: the plugin builds the `spatialcheck` product itself
            // (swiftlang/swift-package-manager#8831; see the plugin's source).
        ),
        .testTarget(
            name: "SpatialCheckTests",
            dependencies: [
                "SpatialModel", "AssetImport", "SceneLoader", "Simulation", "Rules", "Reporting",
                "SpatialCheck", "SpatialCheckCLI",
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
