import Foundation
import Testing
import SpatialModel
import SceneLoader
import Reporting
import SpatialCheck

/// Every file of the malformed-scene corpus (Tests/Corpus/hostile-scenes, written by
/// Tools/make-hostile-scenes.py) goes through the whole validate pipeline with default options:
/// exit code 2, an error naming the file, no crash, no hang, and nothing of a file outside the
/// scene folder (the canary) in any message.
@Suite struct HostileSceneCorpusTests {
    @Test func corpusIsLargeAndDeterministicallyNamed() {
        #expect(HostileLayout.corpusFiles.count >= 200)
    }

    /// Serialized so that each file's time is its own (parallel cases on two cores time each other).
    /// No speed assertion (speed lives in Benchmarks/); the time limit only catches a hang
    /// (`hangGuardMinutes`).
    @Test(.serialized, .timeLimit(.minutes(hangGuardMinutes)), arguments: HostileLayout.corpusFiles)
    func everyFileIsALoadErrorNamingTheFile(name: String) throws {
        let path = (HostileLayout.scenes as NSString).appendingPathComponent(name)
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = HostileLayout.root
        let start = Date()
        let v = SpatialCheck.runValidation(paths: [path], options: options)
        let seconds = Date().timeIntervalSince(start)
        #expect(v.exitCode == .loadError, "\(name): exit \(v.exitCode)")
        let scene = try #require(v.report.scenes.first, "\(name): no scene report")
        #expect(scene.status == .error, "\(name)")
        #expect(!scene.errors.isEmpty, "\(name)")
        #expect(scene.errors.allSatisfy { $0.file == path }, "\(name): \(scene.errors.map(\.file))")
        // Debug build: the slowest files (50,000-item lists, alias bombs) take about 0.3 s on a quiet
        // machine; the slowest is printed for information.
        HostileLayout.record(name, seconds)
        let text = SpatialCheck.render(v, format: .text) + SpatialCheck.render(v, format: .json)
        #expect(!text.contains(HostileLayout.canary), "\(name) printed the canary")
        for e in scene.errors {
            #expect(!e.description.contains("\n::"), "\(name): a message forged a line: \(e.description)")
            #expect(!e.description.unicodeScalars.contains("\u{1b}"), "\(name): escape sequence in output")
            #expect(e.description.count < 4_000, "\(name): message of \(e.description.count) characters")
        }
    }

    /// A sample through the real binary: exit code 2, and stdout/stderr never contain the canary nor
    /// any whole line (of 20+ characters) of the hostile file.
    @Test(arguments: HostileLayout.cliSample)
    func cliSample(name: String) throws {
        let binary = try #require(HostileLayout.binary, "spatialcheck binary not found next to the test bundle")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["validate", name]
        p.currentDirectoryURL = URL(fileURLWithPath: HostileLayout.scenes)
        // A crash must fail this test, not hang it: Swift's backtracer would inherit the pipes and
        // keep them open past the crashed process (seen under AddressSanitizer).
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationReason == .exit, "\(name): terminated by a signal")
        #expect(p.terminationStatus == 2, "\(name): exit \(p.terminationStatus)")
        let output = String(decoding: o + e, as: UTF8.self)
        #expect(output.contains(name))
        #expect(!output.contains(HostileLayout.canary), "\(name) printed the canary")
        let source = String(decoding: FileManager.default.contents(atPath: (HostileLayout.scenes as NSString).appendingPathComponent(name)) ?? Data(), as: UTF8.self)
        for line in source.split(whereSeparator: \.isNewline) where line.count >= 20 {
            #expect(!output.contains(line), "\(name): output repeats a line of the file: \(line.prefix(80))")
        }
    }
}

/// The corpus copied into a temporary tree, with what the path-escape files point at:
/// `root/outside/secret.gltf` (holding the canary) and the symlink `root/scenes/links -> ../outside`.
private enum HostileLayout {
    static let canary = "SECRET-CANARY-1234"
    static let source = TestPaths.repo("Tests/Corpus/hostile-scenes")

    static let corpusFiles: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }()

    static let root: String = {
        let fm = FileManager.default
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("spatialcheck-hostile-\(getpid())")
        try? fm.removeItem(atPath: dir)
        let scenes = (dir as NSString).appendingPathComponent("scenes")
        let outside = (dir as NSString).appendingPathComponent("outside")
        try? fm.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try? fm.copyItem(atPath: source, toPath: scenes)
        _ = fm.createFile(atPath: (outside as NSString).appendingPathComponent("secret.gltf"),
                          contents: Data("\(canary)\n{\"asset\": {\"version\": \"2.0\"}, \"x\": \"\(canary)\"}\n".utf8))
        try? fm.createSymbolicLink(atPath: (scenes as NSString).appendingPathComponent("links"), withDestinationPath: "../outside")
        return dir
    }()

    nonisolated(unsafe) private static var slowest: (String, Double) = ("", 0)
    private static let lock = NSLock()
    static func record(_ name: String, _ seconds: Double) {
        lock.lock(); defer { lock.unlock() }
        if seconds > slowest.1 {
            slowest = (name, seconds)
            if seconds > 0.25 { print("hostile corpus: slowest so far \(name) \(String(format: "%.3f", seconds)) s") }
        }
    }

    static var scenes: String { (root as NSString).appendingPathComponent("scenes") }

    /// Every path escape, the encodings, long lines, forged-output attempts and a spread of the rest.
    static let cliSample: [String] = {
        let picked = corpusFiles.filter {
            $0.hasPrefix("pathescape-") || $0.hasPrefix("bom-") || $0.hasPrefix("crlf") || $0.hasPrefix("very-long")
                || $0.hasPrefix("yaml-") || $0.hasPrefix("alias-") || $0.hasPrefix("garbage-binary-0")
                || $0.hasPrefix("huge-frames") || $0.hasPrefix("deep-") || $0.hasPrefix("missingasset")
        }
        let spread = corpusFiles.enumerated().filter { $0.offset % 25 == 0 }.map(\.element)
        return Array(Set(picked + spread)).sorted()
    }()

    /// `.build/<config>/spatialcheck`, next to the test bundle (the test target depends on the executable).
    static let binary: String? = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("spatialcheck").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()
}
