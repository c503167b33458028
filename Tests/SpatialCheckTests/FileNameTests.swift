import Foundation
import Testing
import SpatialModel
@testable import Reporting
import SpatialCheck

#if canImport(Glibc)
import Glibc
#endif

/// File names as bytes (`FileName`): names that are not UTF-8 are found, opened and reported
/// (escaped as `\xFF`), names with bidi and zero-width characters are printed escaped, and the
/// report reader checks a file's size before reading it.
@Suite(.serialized) struct FileNameTests {
    /// Creates a file whose name is `prefix` + the byte 0xFF + `suffix` with open(2) (Foundation
    /// cannot spell it) and returns the name as `FileName.decode` gives it.
    static func createNonUTF8File(in dir: String, prefix: String, suffix: String, contents: String) throws -> String {
        var path = Array((dir + "/" + prefix).utf8) + [0xFF] + Array(suffix.utf8)
        path.append(0)
        let fd = path.withUnsafeBufferPointer { p in
            p.baseAddress.map { $0.withMemoryRebound(to: CChar.self, capacity: path.count) { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) } } ?? -1
        }
        try #require(fd >= 0, "open(2) failed: \(errno)")
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try #require(written == bytes.count)
        return prefix + FileName.decode([0xFF]) + suffix
    }

    static let scene = """
        format: spatialscene/1
        entities:
          - {id: panel, kind: window, position: [0, 1.5, -2], size: [400, 300]}
        """

    @Test func bytesThatAreNotUTF8SurviveDecodingAndEncoding() {
        // Valid UTF-8 decodes as itself.
        #expect(FileName.decode(Array("a/ü/日本/🙂".utf8)) == "a/ü/日本/🙂")
        // Each byte outside UTF-8 becomes one reserved scalar, shown as \xFF, and encodes back.
        let cases: [[UInt8]] = [
            [0x61, 0xFF, 0x62], [0xC3], [0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80] /* a surrogate */,
            [0xC0, 0xAF] /* overlong */, [0xF4, 0x90, 0x80, 0x80] /* beyond U+10FFFF */,
            [0xF4, 0x8F, 0xBF, 0xBF] /* U+10FFFF itself: in the reserved range, kept as bytes */, [0x80, 0xBF],
        ]
        for bytes in cases {
            let name = FileName.decode(bytes)
            #expect(FileName.bytes(name) == bytes, "\(bytes)")
            #expect(FileName.hasRawBytes(name))
        }
        #expect(Escape.text(FileName.decode([0x61, 0xFF, 0x62])) == "a\\xFFb")
        #expect(Escape.text(FileName.decode([0xED, 0xA0, 0x80])) == "\\xED\\xA0\\x80")
        #expect(jsonQuoted(FileName.decode([0xFF])) == "\"\\udbff\\udfff\"")
        #expect(sarifURI("s/" + FileName.decode([0xFF]) + ".scene.yaml") == "s/%FF.scene.yaml")
        #expect(sarifURI("a\u{1B}[2J\u{202E}.yaml") == "a%1B%5B2J%E2%80%AE.yaml")
        #expect(!FileName.hasRawBytes("plain"))
    }

    @Test func aSceneWhoseNameIsNotUTF8IsFoundAndChecked() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = try Self.createNonUTF8File(in: dir, prefix: "bad", suffix: ".scene.yaml", contents: Self.scene)
        // Foundation's listing mangles the name (U+FFFD): the file cannot be opened through it.
        let listed = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(!listed.contains(name))
        // The directory search and the loader use the bytes.
        let inputs = SpatialCheck.expandInputs([dir])
        #expect(inputs == [.scene(dir + "/" + name)])
        var options = SpatialCheck.ValidateOptions()
        options.configSearchDirectory = dir
        let v = SpatialCheck.runValidation(paths: [dir], options: options)
        #expect(v.report.scenes.map(\.status) == [.checked], "\(v.report.scenes.flatMap(\.errors).map(\.description))")
        #expect(SpatialCheck.render(v, format: .text).contains("bad\\xFF.scene.yaml"))

        // The binary, given the name on its command line as raw bytes (through the shell's printf),
        // and through a directory search.
        let bin = try CLIHarness.binary()
        for args in ["validate \"$(printf 'bad\\377.scene.yaml')\"", "validate .", "inspect \"$(printf 'bad\\377.scene.yaml')\""] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "exec \"$0\" \(args)", bin]
            p.currentDirectoryURL = URL(fileURLWithPath: dir)
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = "1"
            env["SWIFT_BACKTRACE"] = "enable=no"
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            p.standardInput = FileHandle.nullDevice
            try p.run()
            let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus != 2, "\(args): \(stdout) \(stderr)")
            #expect(stdout.contains("bad\\xFF.scene.yaml"), "\(args): \(stdout)")
            #expect(!stdout.contains("\u{FFFD}") && !stderr.contains("no such file"), "\(args): \(stdout) \(stderr)")
        }
    }

    @Test func namesWithBidiAndZeroWidthCharactersArePrintedEscaped() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let name = "evil\u{202E}lmay\u{200B}.scene.yaml"
        try Self.scene.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        for args in [["validate", name], ["validate", "."], ["inspect", name]] {
            let r = try CLIHarness.run(args, cwd: dir)
            #expect(r.status != 2, "\(args): \(r.stderr)")
            #expect(HostileStrings.problems(in: r.stdout + r.stderr, markup: false).isEmpty, "\(args)")
            #expect(r.stdout.contains("evil\\u{202E}lmay\\u{200B}.scene.yaml"), "\(args): \(r.stdout)")
        }
        // A missing file with such a name: the error names it escaped.
        let missing = try CLIHarness.run(["validate", "gone\u{202E}\u{1B}[2J.scene.yaml"], cwd: dir)
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("gone\\u{202E}\\u{1B}[2J.scene.yaml"))
        #expect(HostileStrings.problems(in: missing.stdout + missing.stderr, markup: false).isEmpty)
    }

    // MARK: The report reader's size check (item 9)

    @Test func aTwoGibibyteReportIsRefusedBeforeItIsRead() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/huge.json"
        // A sparse file: 2 GiB long, no disk used. Reading it whole would take 2 GiB of memory.
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        try #require(fd >= 0)
        #expect(ftruncate(fd, 2 << 30) == 0)
        close(fd)
        let error = Self.readError(path)
        #expect(error?.message == "the report is 2147483648 bytes, more than the 268435456-byte limit")
        #expect(error?.file == path)
        // What makes a report this large, and what to do (not "this is not a report": validate
        // --max-violations 0 writes one on a scene of 300,000 violations).
        #expect(error?.hint?.contains("--max-violations 0") == true, "\(String(describing: error?.hint))")
        // The same through `report` and `--baseline`.
        let r = SpatialCheck.report(paths: [path], options: .init())
        #expect(r.exitCode == .loadError && !r.writesOutput)
        #expect(r.diagnostics.first?.message.contains("2147483648 bytes") == true)
        // A baseline is read as a stream (`Report.readBaseline`), within 4 GiB: this one is refused
        // at its first byte, a sparse 5 GiB one before it is read.
        var options = SpatialCheck.ValidateOptions()
        options.baselinePath = path
        options.configSearchDirectory = dir
        let v = SpatialCheck.validate(paths: [dir], options: options)
        #expect(v.exitCode == .loadError && !v.writesOutput)
        #expect(v.diagnostics.first?.message == "not valid JSON: expected a value, found byte 0x00 (byte 0 of the baseline report)")
        let huge = dir + "/huger.json"
        let hfd = open(huge, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        try #require(hfd >= 0)
        #expect(ftruncate(hfd, 5 << 30) == 0)
        close(hfd)
        options.baselinePath = huge
        let h = SpatialCheck.validate(paths: [dir], options: options)
        #expect(h.exitCode == .loadError && !h.writesOutput)
        #expect(h.diagnostics.contains { $0.message == "the baseline report is 5368709120 bytes, more than the 4294967296-byte limit" },
                "\(h.diagnostics.map(\.message))")
        try? FileManager.default.removeItem(atPath: huge)
        // A small limit applies to what is read too: one byte over is refused.
        try Data(repeating: 0x20, count: 101).write(to: URL(fileURLWithPath: dir + "/small.json"))
        #expect(throws: Diagnostic.self) { try Report.read(path: dir + "/small.json", maxBytes: 100) }
        try Data(repeating: 0x20, count: 100).write(to: URL(fileURLWithPath: dir + "/small.json"))
        // Exactly at the limit it is read (and then is not JSON).
        #expect(Self.readError(dir + "/small.json")?.message == "not valid JSON")
    }

    @Test func aReportThatIsNotARegularFileIsRefusedWithoutBlocking() throws {
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/fifo.json", 0o644) == 0)
        #expect(Self.readError(dir + "/fifo.json")?.message == "the report is not a regular file")
        #expect(Self.readError("/dev/zero", role: "baseline report")?.message == "the baseline report is not a regular file")
        #expect(Self.readError(dir + "/missing.json")?.message == "cannot read the report: no such file")
    }

    /// The error `Report.read` throws, nil when it reads the file.
    static func readError(_ path: String, role: String = "report") -> Diagnostic? {
        do { _ = try Report.read(path: path, role: role); return nil } catch { return error }
    }
}
