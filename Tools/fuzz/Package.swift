// swift-tools-version: 6.1
// libFuzzer harnesses for spatialcheck (docs/security.md). Not part of the main package: build and
// run them with Tools/fuzz/run TARGET SECONDS, which passes -sanitize=fuzzer,address.
import PackageDescription

// libFuzzer supplies `main`; the harness only defines LLVMFuzzerTestOneInput.
let harness: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]

let package = Package(
    name: "spatialcheck-fuzz",
    dependencies: [.package(name: "spatialcheck", path: "../..")],
    targets: [
        .executableTarget(name: "fuzz-scene", dependencies: [
            .product(name: "SceneLoader", package: "spatialcheck"),
            .product(name: "SpatialModel", package: "spatialcheck"),
        ], swiftSettings: harness),
        .executableTarget(name: "fuzz-report", dependencies: [
            .product(name: "Reporting", package: "spatialcheck"),
            .product(name: "SpatialModel", package: "spatialcheck"),
        ], swiftSettings: harness),
        .executableTarget(name: "fuzz-gltf", dependencies: [
            .product(name: "AssetImport", package: "spatialcheck"),
            .product(name: "SpatialModel", package: "spatialcheck"),
        ], swiftSettings: harness),
    ],
    swiftLanguageModes: [.v6]
)
