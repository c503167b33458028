import Foundation
import Testing

/// Minutes before a hang guard (`.timeLimit`) fails a test. Generous on purpose: the time limit
/// only catches a hang (no speed assertion; speed lives in Benchmarks/), and Swift Testing's clock
/// can run while a scheduled test waits for a worker: under AddressSanitizer on two cores, the
/// first case of the serialized hostile corpus (a 48-byte file, 0.05 s in a debug build) once
/// exceeded a one-minute limit.
let hangGuardMinutes = 20

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

/// Runs an external checker (python3 with jsonschema, for example) used as an independent oracle.
enum ExternalTool {
    /// Runs `python3 -c script args…` with `input` on stdin; returns exit status and output.
    static func python(_ script: String, args: [String] = [], input: String = "") -> (status: Int32, output: String)? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script] + args
        let stdin = Pipe(), stdout = Pipe()
        p.standardInput = stdin
        p.standardOutput = stdout
        p.standardError = stdout
        do { try p.run() } catch { return nil }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs `args` (a command and its arguments, found on PATH) in `directory` (default: this
    /// process's), with stdout and stderr together; returns the exit status and the output, or -1
    /// and why when it cannot start.
    static func run(_ args: [String], in directory: URL? = nil) -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        do { try p.run() } catch { return (-1, "cannot run \(args.joined(separator: " ")): \(error)") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// True when python3 can import `module`. CI sets SPATIALCHECK_REQUIRE_TOOLS=1 so that a missing
    /// oracle fails the run instead of skipping the check.
    static func havePythonModule(_ module: String) -> Bool {
        let ok = python("import \(module)")?.status == 0
        if !ok, ProcessInfo.processInfo.environment["SPATIALCHECK_REQUIRE_TOOLS"] == "1" {
            fatalError("SPATIALCHECK_REQUIRE_TOOLS=1 but python3 module '\(module)' is missing")
        }
        return ok
    }
}
