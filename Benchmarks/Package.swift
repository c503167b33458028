// swift-tools-version: 6.1
// spatialcheck benchmarks (issue 7): a separate package so that the main package and its CI never
// build package-benchmark. Depends on the parent package by path.
//
//   swift package --package-path Benchmarks benchmark                 # the package-benchmark suite
//   swift run --package-path Benchmarks -c release kernel-compare ...  # simulator vs reference kernel, import vs assimp
//   Benchmarks/check-targets                                          # every target of issue 7, met or missed
import PackageDescription

let package = Package(
    name: "spatialcheck-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named, so that the identity does not depend on the checkout folder's name.
        .package(name: "spatialcheck", path: ".."),
        // package-benchmark 1.38.1 needs the MallocInterposer trait (platform-notes.md).
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The hand-written C++/GLM reference: the simulator's transform-and-quantities work in one
        // fused loop over the same data layout.
        .target(name: "ReferenceKernel"),
        .target(
            name: "BenchSupport",
            dependencies: [
                "ReferenceKernel",
                .product(name: "SpatialCheck", package: "spatialcheck"),
                .product(name: "SpatialModel", package: "spatialcheck"),
                .product(name: "SceneLoader", package: "spatialcheck"),
                .product(name: "AssetImport", package: "spatialcheck"),
                .product(name: "Simulation", package: "spatialcheck"),
                .product(name: "Rules", package: "spatialcheck"),
                .product(name: "Reporting", package: "spatialcheck"),
            ]
        ),
        .executableTarget(name: "kernel-compare", dependencies: ["BenchSupport"]),
        .executableTarget(
            name: "spatialcheck-bench",
            dependencies: [.product(name: "SpatialCheck", package: "spatialcheck")]
        ),
        .executableTarget(
            name: "SpatialCheckBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/SpatialCheckBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
