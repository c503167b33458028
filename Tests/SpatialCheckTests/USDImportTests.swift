import Foundation
import Synchronization
import Testing
@testable import AssetImport
import SceneLoader
import SpatialModel

/// The USD fixtures, built once per test run by the project's own script (Tools/make-usd-fixtures.py,
/// usd-core) into a temporary folder, removed when the test process exits, and the usd-core oracle
/// (Tools/usd-oracle.py).
enum USDFixtures {
    /// True when python3 can import usd-core. Locally the USD tests are skipped without it (with the
    /// reason shown); CI sets SPATIALCHECK_REQUIRE_TOOLS=1 and then its absence fails the run.
    static let available: Bool = {
        let ok = python(["-c", "import pxr.Usd"])?.status == 0
        if !ok, ProcessInfo.processInfo.environment["SPATIALCHECK_REQUIRE_TOOLS"] == "1" {
            fatalError("SPATIALCHECK_REQUIRE_TOOLS=1 but usd-core is missing (Tools/deps.sh installs it: pip install usd-core)")
        }
        return ok
    }()

    /// Runs the interpreter the importer uses (so that a usd-core installed by Tools/deps.sh into
    /// its virtual environment is found), returning exit status and standard output.
    static func python(_ args: [String]) -> (status: Int32, output: String)? {
        guard let exe = USDWorkerPool.pythonExecutable() else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// OUT/project holds the fixtures; OUT/outside.usda lies outside that project root.
    static let out: String? = {
        guard available else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-usd-\(UUID().uuidString)").path
        made.withLock { $0 = dir }
        // `atexit` takes a C function: it reads the folder from `made`, not from a capture.
        atexit { if let dir = USDFixtures.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: dir) } }
        guard let r = python([TestPaths.repo("Tools/make-usd-fixtures.py"), dir]), r.status == 0 else {
            return nil
        }
        return dir
    }()
    /// The fixture folder made by this process, for its removal at exit.
    static let made = Mutex<String?>(nil)

    static var project: String { (out ?? "/nonexistent") + "/project" }
    static func path(_ relative: String) -> String { project + "/" + relative }

    static func load(_ relative: String, allowExternal: Bool = false,
                     isolation: AssetImportIsolation? = nil) throws(Diagnostic) -> ImportedAsset {
        try USDImporter.load(resolvedPath: path(relative), displayPath: relative, confinementRoot: project,
                             allowExternal: allowExternal, isolation: isolation)
    }

    struct Box: Decodable { var min: [Double]; var max: [Double] }
    struct OraclePrim: Decodable { var origin: [Double]; var bounds: Box? }
    struct Oracle: Decodable {
        var metersPerUnit: Double
        var upAxis: String
        var bounds: Box?
        var prims: [String: OraclePrim]
    }

    static func oracle(_ file: String) -> Oracle? {
        guard let r = python([TestPaths.repo("Tools/usd-oracle.py"), file]), r.status == 0 else { return nil }
        // usd-core may print warnings on the same stream: the JSON is the last line.
        guard let line = r.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else { return nil }
        return try? JSONDecoder().decode(Oracle.self, from: Data(line.utf8))
    }
}

/// World matrices of an imported asset's nodes (parent · local), composed here in the test.
private func usdWorldMatrices(_ a: ImportedAsset) -> [Mat4] {
    var w: [Mat4] = []
    for n in a.nodes { w.append(n.parent.map { w[$0] * n.local } ?? n.local) }
    return w
}

private func usdNode(_ a: ImportedAsset, _ primPath: String) -> Int? {
    a.nodes.firstIndex { $0.usd?.primPath == primPath }
}

private func usdWorldBounds(_ a: ImportedAsset, _ i: Int, _ w: [Mat4]) -> AABB {
    a.nodes[i].meshBounds.transformed(by: w[i])
}

private func usdNear(_ a: Vec3, _ b: Vec3, _ tol: Double = 1e-6) -> Bool {
    abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol && abs(a.z - b.z) <= tol
}

private func usdNear(_ box: AABB, _ min: Vec3, _ max: Vec3, _ tol: Double = 1e-6) -> Bool {
    usdNear(box.min, min, tol) && usdNear(box.max, max, tol)
}

@Suite("USD import (usd-core worker)", .enabled(if: USDFixtures.available, "usd-core is not installed (pip install usd-core); USD tests skipped"))
struct USDImportTests {
    // cm_zup.usda, by hand: metersPerUnit 0.01, upAxis Z. /Root = translate (100, 200, 0) cm ·
    // rotateZ 90°, so a Root-frame point (x, y, z) lands at (100 − y, 200 + x, z) cm (Z-up), which
    // in metres +Y up is (x', y', z') = (1 − y/100, z/100, −(2 + x/100)).
    // /Root/Table = translate (0, 0, 75). Top: unit cube scaled (80, 120, 4) → Root frame
    // x ±40, y ±60, z 73…77 → x' 0.4…1.6, y' 0.73…0.77, z' −2.4…−1.6.
    // Knob: sphere r = 3 cm at Table (10, 0, 5) → Root (10, 0, 80) → (1.0, 0.8, −2.1) m, ±0.03 m.
    // Its Collider box (12 cm, pose (0, 0, 2) in the knob frame) → centre (1.0, 0.82, −2.1), ±0.06 m.
    // Shelf: cube 10 cm at Table (0, 0, −50) → Root (0, 0, 25) → y' 0.2…0.3.
    @Test func centimetreZUpLayerWithNestedTransforms() throws {
        let a = try USDFixtures.load("cm_zup.usda")
        let w = usdWorldMatrices(a)
        let stage = try #require(a.usdStages?.first)
        #expect(stage.metersPerUnit == 0.01 && stage.metersPerUnitAuthored)
        #expect(stage.upAxis == "Z" && stage.upAxisAuthored)
        #expect(a.declaredUnitScale == nil)
        #expect(a.unitNote.contains("metersPerUnit 0.01") && a.unitNote.contains("Z-up → Y-up"))

        let top = try #require(usdNode(a, "/Root/Table/Top"))
        #expect(usdNear(usdWorldBounds(a, top, w), Vec3(0.4, 0.73, -2.4), Vec3(1.6, 0.77, -1.6)))
        let knob = try #require(usdNode(a, "/Root/Table/Knob"))
        #expect(usdNear(w[knob].translation, Vec3(1.0, 0.8, -2.1)))
        #expect(usdNear(usdWorldBounds(a, knob, w), Vec3(0.97, 0.77, -2.13), Vec3(1.03, 0.83, -2.07)))
        let shelf = try #require(usdNode(a, "/Root/Table/Shelf"))
        #expect(usdNear(usdWorldBounds(a, shelf, w), Vec3(0.95, 0.2, -2.05), Vec3(1.05, 0.3, -1.95)))
        // Triangles: Top 12 + Knob 960 (nominal sphere) + Shelf 12; Ghost (invisible) and Faded
        // (HierarchicalFade opacity 0) contribute none.
        #expect(a.triangleCount == 984)
    }

    @Test func interactiveKnobHitRegionIsItsColliderNotItsMesh() throws {
        let a = try USDFixtures.load("cm_zup.usda")
        let w = usdWorldMatrices(a)
        let knob = try #require(usdNode(a, "/Root/Table/Knob"))
        let facts = try #require(a.nodes[knob].usd)
        #expect(facts.interactive == true)
        #expect(facts.allowsDirectInput == true && facts.allowsIndirectInput == false)
        #expect(facts.accessibilityLabel == "Volume knob")
        #expect(a.nodes[knob].marking == AssetMarking(role: .custom, interactive: true, source: .usdComponent))
        let hit = try #require(facts.hitRegion)
        #expect(hit.shape == .box && hit.size == Vec3(12, 12, 12) && hit.pose.translation == Vec3(0, 0, 2))
        let hitWorld = hit.bounds.transformed(by: w[knob])
        #expect(usdNear(hitWorld, Vec3(0.94, 0.76, -2.16), Vec3(1.06, 0.88, -2.04)))
        #expect(!usdNear(hitWorld, usdWorldBounds(a, knob, w).min, usdWorldBounds(a, knob, w).max, 1e-3))
        // The custom component is kept with its fields.
        let custom = try #require(facts.components.first { $0.custom })
        #expect(custom.id == "MyGame.Comfort")
        #expect(custom.fields[field: "requiredAt"] == .number(2.5))
        #expect(custom.fields[field: "region"] == .string("table"))
        // Anchoring on the root prim; hidden prims.
        #expect(a.nodes[try #require(usdNode(a, "/Root"))].usd?.anchor == .plane)
        let ghost = try #require(usdNode(a, "/Root/Table/Ghost"))
        #expect(a.nodes[ghost].usd?.visible == false && a.nodes[ghost].vertices.isEmpty)
        let faded = try #require(usdNode(a, "/Root/Table/Faded"))
        #expect(a.nodes[faded].usd?.visible == false && a.nodes[faded].usd?.opacity == 0)
    }

    // scene.usda, by hand: Lamp (from part.usdc) at (2, 0, 0) with a 0.5 m cube at (0, 0.25, 0);
    // the "night" variant's NightLight, a 0.2 m cube at (0, 3, 0); the payload's Crate at (−2, 0, 0)
    // with a 0.4 m cube at (0, 0.2, 0). /World/Room references cm_zup.usda with rotateX −90 ·
    // scale 0.01 (compensated), which replaces Root's own xformOpOrder: the knob lands at
    // Room-frame (10, 0, 80) cm → (0.1, 0.8, 0) m. Shelf is deactivated from the root layer.
    @Test func referencedUsdcVariantPayloadAndDeactivatedPrim() throws {
        let a = try USDFixtures.load("scene.usda")
        let w = usdWorldMatrices(a)
        #expect(usdNear(usdWorldBounds(a, try #require(usdNode(a, "/World/Lamp/Shade")), w), Vec3(1.75, 0, -0.25), Vec3(2.25, 0.5, 0.25)))
        #expect(usdNear(usdWorldBounds(a, try #require(usdNode(a, "/World/NightLight")), w), Vec3(-0.1, 2.9, -0.1), Vec3(0.1, 3.1, 0.1)))
        #expect(usdNear(usdWorldBounds(a, try #require(usdNode(a, "/World/Crate/Box")), w), Vec3(-2.2, 0, -0.2), Vec3(-1.8, 0.4, 0.2)))
        #expect(usdNear(w[try #require(usdNode(a, "/World/Room/Table/Knob"))].translation, Vec3(0.1, 0.8, 0)))
        #expect(usdNode(a, "/World/Room/Table/Shelf") == nil)
        #expect(a.warnings.isEmpty, "compensated reference: \(a.warnings)")
        #expect(a.usdStages?.first?.layerCount == 4)
    }

    @Test func uncompensatedReferenceInOtherUnitsIsNotRescaledButWarned() throws {
        let a = try USDFixtures.load("uncompensated.usda")
        let w = usdWorldMatrices(a)
        // Not rescaled or turned: Root's own translate and rotateZ apply (Room authors no xformOps),
        // so the knob keeps its centimetre Z-up position (100, 210, 80) read as metres, +Y up.
        #expect(usdNear(w[try #require(usdNode(a, "/World/Room/Table/Knob"))].translation, Vec3(100, 210, 80)))
        #expect(a.warnings.contains { $0.contains("cm_zup.usda") && $0.contains("no compensating scale 0.01") })
    }

    @Test func usdzPackageMatchesItsSourceScene() throws {
        let a = try USDFixtures.load("package.usdz")
        let b = try USDFixtures.load("scene.usda")
        #expect(a.format == "USD (usdz)")
        #expect(a.nodes.compactMap(\.usd?.primPath) == b.nodes.compactMap(\.usd?.primPath))
        #expect(a.triangleCount == b.triangleCount)
        #expect(a.warnings.isEmpty, "\(a.warnings)")
        let wa = usdWorldMatrices(a), wb = usdWorldMatrices(b)
        for i in a.nodes.indices where !a.nodes[i].meshBounds.isEmpty {
            #expect(usdNear(usdWorldBounds(a, i, wa), usdWorldBounds(b, i, wb).min, usdWorldBounds(b, i, wb).max))
        }
    }

    /// usd-core's own XformCache / BBoxCache as the oracle, per prim and for the whole stage.
    @Test(arguments: ["cm_zup.usda", "scene.usda", "package.usdz", "uncompensated.usda", "animated.usda"])
    func agreesWithUsdCoreCaches(file: String) throws {
        let a = try USDFixtures.load(file)
        let oracle = try #require(USDFixtures.oracle(USDFixtures.path(file)))
        let w = usdWorldMatrices(a)
        var compared = 0
        for (i, n) in a.nodes.enumerated() {
            guard let path = n.usd?.primPath, let o = oracle.prims[path] else { continue }
            let tol = 1e-6 * max(1, abs(o.origin[0]) + abs(o.origin[1]) + abs(o.origin[2]))
            #expect(usdNear(w[i].translation, Vec3(o.origin[0], o.origin[1], o.origin[2]), tol), "origin of \(path)")
            // Leaf gprims: the oracle's world bound is the prim's own.
            let leaf = n.subtreeEnd == i + 1
            if leaf, !n.meshBounds.isEmpty, let ob = o.bounds {
                #expect(usdNear(usdWorldBounds(a, i, w), Vec3(ob.min[0], ob.min[1], ob.min[2]), Vec3(ob.max[0], ob.max[1], ob.max[2]), tol),
                        "bounds of \(path)")
                compared += 1
            }
        }
        #expect(compared >= 1)
        #expect(oracle.metersPerUnit == a.usdStages?.first?.metersPerUnit)
    }

    @Test func rkassetsFolderReadsItsTopLevelScenes() throws {
        let a = try USDFixtures.load("Content.rkassets")
        #expect(a.usdStages?.map(\.file) == ["Immersive.usda", "Scene.usda"])
        #expect(a.nodes[0].name == "Content.rkassets")
        let w = usdWorldMatrices(a)
        #expect(usdNear(usdWorldBounds(a, try #require(usdNode(a, "/Root/Ball")), w), Vec3(-0.5, 0.5, -3.5), Vec3(0.5, 1.5, -2.5)))
        #expect(usdNear(usdWorldBounds(a, try #require(usdNode(a, "/Root/Block")), w), Vec3(-0.15, -0.15, -0.15), Vec3(0.15, 0.15, 0.15)))
        #expect(!a.nodes.contains { $0.name == "Unused" })
        // Knob.usda is a layer Scene.usda references: its content stands once, under /Root/Mount.
        #expect(a.nodes.filter { $0.name == "Cap" }.count == 1)
        #expect(a.nodes.first { $0.name == "Cap" }?.usd?.primPath == "/Root/Mount/Cap")
    }

    // animated.usda: 24 time codes per second, translate keys at codes 0, 24, 48 = 0, 1, 2 s.
    // referencing.usda has no startTimeCode/endTimeCode; /Shelf/Product references animated.usda:
    // the samples' span is its timeline (0, 1, 2 s), with a note that says where it came from.
    @Test(arguments: [("animated.usda", "/Mover", nil),
                      ("referencing.usda", "/Shelf/Product", "'referencing.usda' has no time range (startTimeCode/endTimeCode); its time-sampled transforms span time codes 0 to 48")])
    func timeSampledTransformsBecomeAClipInSeconds(_ file: String, _ prim: String, _ note: String?) throws {
        let a = try USDFixtures.load(file)
        let clip = try #require(a.animations.first)
        #expect(clip.name == "timeline" && clip.duration == 2)
        let ch = try #require(clip.channels.first)
        #expect(a.nodes[ch.node].usd?.primPath == prim)
        #expect(ch.positions.map(\.time) == [0, 1, 2])
        #expect(ch.positions.map(\.value.x) == [0, 0.5, 1])
        #expect(a.warnings.contains { $0.contains("time range") } == (note != nil), "\(a.warnings)")
        if let note { #expect(a.warnings.contains { $0.contains(note) }, "\(a.warnings)") }
    }

    // A NaN or infinite transform, metersPerUnit 0 and upAxis "X" open in usd-core; each is an error
    // that names the prim or the layer and what is wrong.
    @Test(arguments: [("hostile/nan.usda", "prim /Root/NaNPiece holds a number that is not finite (NaN or infinity) in its transform"),
                      ("hostile/infscale.usda", "prim /Root/Giant holds a number that is not finite (NaN or infinity) in its transform"),
                      ("hostile/mpu0.usda", "declares metersPerUnit 0.0; it must be a positive number"),
                      ("hostile/upx.usda", "declares upAxis \"X\"; USD allows only \"Y\" or \"Z\"")])
    func numbersUSDCannotPlaceAreErrorsNamingWhere(_ file: String, _ words: String) throws {
        let error = try #require(Self.importFailure(file, words))
        #expect(!error.message.contains("unencodable") && !error.message.contains("JSON"), "\(error.message)")
        // The file opens in usdview: the hint says what to fix instead.
        #expect(error.hint?.contains("opens in usdview") == false, "\(error.hint ?? "no hint")")
    }

    /// The error of a fixture that must not import, checked to name the asset and hold `words`.
    static func importFailure(_ file: String, _ words: String) -> Diagnostic? {
        do {
            _ = try USDFixtures.load(file)
            Issue.record("\(file) loaded")
            return nil
        } catch {
            #expect(error.message.hasPrefix("asset '\(file)' could not be imported: "), "\(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
            return error
        }
    }

    // inputs.usda: /Root/Lone has an InputTarget and no Collider anywhere; /Root/Grouped's
    // InputTarget covers its Body, which has a Collider; /Root/Split has its Collider on the parent
    // and its InputTarget on the child Body. RealityKit gives input to prims with a collision
    // shape under an InputTarget: Lone and Split/Body get none (unless code adds shapes).
    @Test func inputTargetsWithoutACollisionShapeAreNoted() throws {
        let a = try USDFixtures.load("inputs.usda")
        let notes = a.warnings.filter { $0.contains("InputTarget but no Collider") }
        #expect(notes.count == 1, "\(a.warnings)")
        #expect(notes.first?.hasPrefix("/Root/Lone, /Root/Split/Body have an InputTarget but no Collider on them or below") == true,
                "\(notes)")
        #expect(notes.first?.contains("/Root/Grouped") == false)
    }

    @Test func brokenFilesFailWithAClearMessage() {
        for (file, words) in [("hostile/truncated.usdc", "truncated"), ("hostile/corrupt.usdz", "not readable USD"),
                              ("hostile/syntax.usda", "parse error")] {
            if let error = Self.importFailure(file, words) { #expect(!error.message.contains("Traceback")) }
        }
    }

    @Test("a USD file whose import failed is imported once per run, however many links name it")
    func brokenFileIsImportedOncePerRun() {
        let isolation = AssetImportIsolation(executable: "/nonexistent/spatialcheck")
        let policy = AssetReferencePolicy(root: USDFixtures.project)
        var messages: [String] = []
        for display in ["hostile/syntax.usda", "other/name.usda"] {
            do {
                _ = try USDImporter.load(resolvedPath: USDFixtures.path("hostile/syntax.usda"), displayPath: display,
                                         references: policy, isolation: isolation)
                Issue.record("\(display) loaded")
            } catch {
                messages.append(error.message)
            }
        }
        #expect(messages.count == 2)
        #expect(messages.last?.hasPrefix("asset 'other/name.usda' could not be imported: ") == true, "\(messages)")
        #expect(isolation.cache.importsStarted == 1)
        #expect(isolation.cache.failureCount == 1)
    }

    @Test func referenceCycleAndMissingLayerLoadWithWarnings() throws {
        let cycle = try USDFixtures.load("hostile/cycle_a.usda")
        #expect(cycle.warnings.contains { $0.contains("Cycle detected") })
        #expect(usdNode(cycle, "/A/BoxA") != nil)
        let missing = try USDFixtures.load("hostile/missing_ref.usda")
        #expect(missing.warnings.contains { $0.contains("'not_there.usda'") && $0.contains("not found") })
        #expect(usdNode(missing, "/W/Here") != nil)
    }

    @Test func warningsOfOneAssetAreCountedBeyondTheTwentieth() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-usd-warn-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 30 prims, each referencing a layer that does not exist: at least one warning each.
        let prims = (0..<30).map { "def Xform \"p\($0)\" (references = @./gone\($0).usda@) {}\n" }.joined()
        try ("#usda 1.0\n(defaultPrim = \"Root\")\ndef Xform \"Root\" {\n" + prims + "def Cube \"here\" {}\n}\n")
            .write(toFile: dir + "/missing30.usda", atomically: true, encoding: .utf8)
        let asset = try USDImporter.load(resolvedPath: dir + "/missing30.usda", displayPath: "missing30.usda", confinementRoot: dir)
        #expect(asset.warnings.count == 21)
        #expect(asset.warnings.prefix(20).allSatisfy { $0.contains("gone") }, "\(asset.warnings)")
        let last = try #require(asset.warnings.last)
        let more = Int(last.split(separator: " ").dropFirst().first ?? "") ?? 0
        #expect(last.hasPrefix("and ") && last.hasSuffix("more warnings from the USD reader (the first 20 are shown)"), "\(last)")
        #expect(more >= 10, "\(last)")
        #expect(usdNode(asset, "/Root/here") != nil)
    }

    @Test func primsNestedDeeperThanTheNodeLimitAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spatialcheck-usd-deep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Root and n nested Xforms: the innermost prim is n levels below the root prim.
        func chain(_ n: Int) -> String {
            "#usda 1.0\n(defaultPrim = \"Root\")\ndef Xform \"Root\" {\n"
                + String(repeating: "def Xform \"x\" {\n", count: n) + "def Cube \"leaf\" {}\n"
                + String(repeating: "}\n", count: n + 1)
        }
        try chain(200).write(toFile: dir + "/deep200.usda", atomically: true, encoding: .utf8)
        try chain(300).write(toFile: dir + "/deep300.usda", atomically: true, encoding: .utf8)
        let fits = try USDImporter.load(resolvedPath: dir + "/deep200.usda", displayPath: "deep200.usda", confinementRoot: dir)
        #expect(fits.nodes.contains { $0.name == "leaf" })
        do {
            _ = try USDImporter.load(resolvedPath: dir + "/deep300.usda", displayPath: "deep300.usda", confinementRoot: dir)
            Issue.record("a prim 301 levels deep was read")
        } catch {
            #expect(error.message.contains("its prim hierarchy is deeper than 256 levels"), "\(error.message)")
        }
    }

    @Test(arguments: [("hostile/escape/deep/escape.usda", "outside the project root"),
                      ("hostile/escape_in_variant.usda", "outside the project root"),
                      ("hostile/gitref.usda", "inside a .git folder"),
                      ("hostile/symlinked.usda", "outside the project root")])
    func layersOutsideTheProjectOrInGitAreRefused(file: String, reason: String) throws {
        do {
            _ = try USDFixtures.load(file)
            Issue.record("\(file) loaded")
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
            #expect(error.message.contains("referenced from"), "\(error.message)")
        }
        // Trusted input may reach out.
        if !file.contains(".git") && !file.contains("gitref") {
            let a = try USDFixtures.load(file, allowExternal: true)
            #expect(!a.nodes.isEmpty)
        }
    }

    @Test func timeoutCostsOnlyThatAsset() throws {
        let tight = AssetImportIsolation(executable: "/nonexistent", timeout: 0.000_001)
        do {
            _ = try USDFixtures.load("scene.usda", isolation: tight)
            Issue.record("a one-microsecond timeout did not stop the import")
        } catch {
            #expect(error.message.contains("did not finish within"), "\(error.message)")
        }
        // The next import gets a fresh worker.
        #expect(try USDFixtures.load("cm_zup.usda").triangleCount == 984)
    }

    /// Not under AddressSanitizer: there no worker gets an address-space limit (USDWorkerProcess,
    /// like the assimp worker), so there is nothing to name.
    @Test(.enabled(if: !AssetImporter.runningUnderAddressSanitizer))
    func aMemoryLimitTooSmallForUsdCoreIsNamedAsSuch() {
        let tiny = AssetImportIsolation(executable: "/nonexistent", memoryLimitBytes: 64 * 1024 * 1024)
        do {
            _ = try USDFixtures.load("cm_zup.usda", isolation: tiny)
            Issue.record("usd-core loaded within 64 MiB of address space")
        } catch {
            #expect(error.message.contains("64 MiB"), "\(error.message)")
            #expect(!error.message.contains("pip install"), "\(error.message)")
        }
    }

    @Test func sceneFileUsesAUSDAssetAsAModel() throws {
        let scenePath = USDFixtures.path("table.scene.yaml")
        try """
        format: spatialscene/1
        name: USD table
        entities:
          - id: table
            kind: model
            asset: cm_zup.usda
            position: [0, 0, 0]
        """.write(toFile: scenePath, atomically: true, encoding: .utf8)
        let scene = try SceneLoader.load(path: scenePath)
        let table = try #require(scene.entities.first { $0.id == "table" })
        #expect(table.asset?.usd?.stages.first?.upAxis == "Z")
        #expect(usdNear(table.restWorldBounds, Vec3(0.4, 0.2, -2.4), Vec3(1.6, 0.83, -1.6)))
        let knob = try #require(scene.entities.first { $0.path == "table/Knob" })
        #expect(knob.interactive)
        // The file's components are the entity's facts: InputTarget with direct input only, the
        // Collider box of 12 cm at (0, 0, 2) cm in the knob's frame (a centimetre layer: ×0.01 to
        // metres, along the knob's own axes), and the Accessibility label; all from the file.
        #expect(knob.interaction == .direct && knob.factSources.interaction == .file)
        #expect(knob.accessibilityLabel == "Volume knob" && knob.factSources.accessibilityLabel == .file)
        guard case .shape(let shape)? = knob.hitRegion else {
            Issue.record("the knob's hit region is not its Collider: \(String(describing: knob.hitRegion))")
            return
        }
        #expect(knob.factSources.hitRegion == .file && shape.origin == .node)
        #expect(usdNear(shape.size, Vec3(0.12, 0.12, 0.12)) && usdNear(shape.center, Vec3(0, 0, 0.02)))
    }
}

/// The two USD assets of the shared third-party set against groundtruth.json (usd-core 25.11).
@Suite("USD ground truth", .enabled(if: USDFixtures.available && TestPaths.haveSharedAssets, "usd-core or the shared assets are missing"))
struct USDGroundTruthTests {
    struct Truth: Decodable {
        struct Box: Decodable { var min: [Double]; var max: [Double] }
        struct UsdCore: Decodable {
            var metersPerUnit: Double
            var upAxis: String
            var triangles_fan: Int
            var timeCodes: [Double]?
            var aabb_stage_units: Box
        }
        struct Independent: Decodable { var usd_core: UsdCore? }
        struct Asset: Decodable { var primary_file: String; var independent: Independent }
        var assets: [String: Asset]
    }

    static func truth(_ name: String) throws -> Truth.Asset {
        let data = try Data(contentsOf: TestPaths.sharedAssets.appendingPathComponent("groundtruth.json"))
        return try #require(try JSONDecoder().decode(Truth.self, from: data).assets[name])
    }

    @Test(arguments: ["usdz-box-animated", "usda-meters-per-unit-10"])
    func matchesGroundTruth(name: String) throws {
        let t = try Self.truth(name)
        let u = try #require(t.independent.usd_core)
        let file = TestPaths.asset(t.primary_file)
        // The metersPerUnit test asset sublayers ../../../_common/axis.usda: its root is its own folder.
        let root = TestPaths.asset(name)
        let a = try USDImporter.load(resolvedPath: file, displayPath: t.primary_file, confinementRoot: root)
        #expect(a.usdStages?.first?.metersPerUnit == u.metersPerUnit)
        #expect(a.usdStages?.first?.upAxis == u.upAxis)
        var world: [Mat4] = []
        var box = AABB.empty
        for n in a.nodes {
            let m = n.parent.map { world[$0] * n.local } ?? n.local
            world.append(m)
            if !n.meshBounds.isEmpty { box.formUnion(n.meshBounds.transformed(by: m)) }
        }
        let s = u.metersPerUnit
        let lo = Vec3(u.aabb_stage_units.min[0], u.aabb_stage_units.min[1], u.aabb_stage_units.min[2]) * s
        let hi = Vec3(u.aabb_stage_units.max[0], u.aabb_stage_units.max[1], u.aabb_stage_units.max[2]) * s
        #expect(usdNear(box, lo, hi, 1e-6 * s), "\(box) vs \(lo)…\(hi)")
        if u.triangles_fan > 0 { #expect(a.triangleCount == u.triangles_fan) }
        if let codes = u.timeCodes, codes.count == 3 {
            #expect(a.animations.first.map { abs($0.duration - (codes[1] - codes[0]) / codes[2]) < 1e-9 } == true)
        }
        // A layer outside the asset's folder but inside the project is named relative to the asset.
        if name == "usda-meters-per-unit-10" {
            #expect(a.warnings.contains { $0.hasPrefix("sublayer '../../../_common/axis.usda' declares metersPerUnit 0.01") },
                    "\(a.warnings)")
            #expect(!a.warnings.contains { $0.contains(root) }, "\(a.warnings)")
        }
    }
}

/// The command line on USD input: exit codes and messages (runs the built executable).
@Suite("USD on the command line", .enabled(if: USDFixtures.available, "usd-core is not installed (pip install usd-core); USD tests skipped"))
struct USDCommandLineTests {
    @Test(arguments: ["hostile/truncated.usdc", "hostile/corrupt.usdz", "hostile/syntax.usda"])
    func brokenUSDExitsTwoWithoutASignal(file: String) throws {
        let r = try CLIHarness.run(["validate", file], cwd: USDFixtures.project)
        #expect(r.status == 2)
        let output = r.stdout + r.stderr
        #expect(output.contains("asset '\(file)' could not be imported"), "\(output)")
        #expect(!output.contains("Traceback"))
    }

    @Test func inspectJSONShowsRealityKitComponentsAndUnits() throws {
        let r = try CLIHarness.run(["inspect", "--format", "json", "cm_zup.usda"], cwd: USDFixtures.project)
        #expect(r.status == 0, "\(r.stderr)")
        for needle in ["\"MyGame.Comfort\"", "\"requiredAt\": 2.5", "\"RealityKit.InputTarget\"", "\"allowsIndirectInput\": false",
                       "\"accessibilityLabel\": \"Volume knob\"", "\"anchor\": \"plane\"", "\"upAxis\": \"Z\""] {
            #expect(r.stdout.contains(needle), "missing \(needle)")
        }
        let text = try CLIHarness.run(["inspect", "cm_zup.usda"], cwd: USDFixtures.project)
        #expect(text.stdout.contains("metersPerUnit 0.01, upAxis Z; applied to the composed stage: ×0.01 to metres, Z-up → Y-up"))
    }

    @Test func allowExternalAssetsLiftsTheLayerConfinement() throws {
        // The fixture folder `project` holds a .git folder, so it is the project root (ProjectRoot);
        // escape.usda's sublayer ../../../../outside.usda lies outside it.
        let file = "hostile/escape/deep/escape.usda"
        let refused = try CLIHarness.run(["inspect", file], cwd: USDFixtures.project)
        #expect(refused.status == 2)
        #expect((refused.stdout + refused.stderr).contains("outside the project root"))
        let allowed = try CLIHarness.run(["inspect", "--allow-external-assets", file], cwd: USDFixtures.project)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains("escape.usda"))
    }

    @Test func withoutUsdCoreOneLineSaysWhatToInstall() throws {
        // A `pxr` package that cannot be imported stands in for a Python without usd-core.
        let dir = try CLIHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/pxr", withIntermediateDirectories: true)
        try "raise ImportError('No module named pxr (test stand-in)')\n".write(toFile: dir + "/pxr/__init__.py", atomically: true, encoding: .utf8)
        let python = try #require(USDWorkerPool.pythonExecutable())
        for env: [String: String?] in [["SPATIALCHECK_PYTHON": python, "PYTHONPATH": dir],
                                       ["SPATIALCHECK_PYTHON": dir + "/no-python3"]] {
            let r = try CLIHarness.run(["inspect", "cm_zup.usda"], cwd: USDFixtures.project, environment: env)
            #expect(r.status == 2)
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("pip install usd-core"))
        }
    }
}
