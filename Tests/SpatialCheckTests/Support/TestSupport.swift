import Foundation
import Testing

/// Locations the tests read from. The third-party assets live outside the repository, in
/// `../shared/assets` (override with SPATIALCHECK_SHARED_ASSETS).
enum TestPaths {
    /// The repository root (this file is Tests/SpatialCheckTests/Support/TestSupport.swift).
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let sharedAssets: URL = {
        if let env = ProcessInfo.processInfo.environment["SPATIALCHECK_SHARED_ASSETS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return repoRoot.deletingLastPathComponent().appendingPathComponent("shared/assets")
    }()

    /// True when the shared assets are present. CI sets SPATIALCHECK_REQUIRE_ASSETS=1, and then a
    /// missing folder fails the run instead of skipping the asset tests.
    static let haveSharedAssets: Bool = {
        let present = FileManager.default.fileExists(atPath: sharedAssets.appendingPathComponent("groundtruth.json").path)
        if !present, ProcessInfo.processInfo.environment["SPATIALCHECK_REQUIRE_ASSETS"] == "1" {
            fatalError("SPATIALCHECK_REQUIRE_ASSETS=1 but \(sharedAssets.path)/groundtruth.json is missing")
        }
        return present
    }()

    static func asset(_ relative: String) -> String { sharedAssets.appendingPathComponent(relative).path }
    static func repo(_ relative: String) -> String { repoRoot.appendingPathComponent(relative).path }
}
