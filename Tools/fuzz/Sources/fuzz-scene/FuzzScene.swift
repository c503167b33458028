import Foundation
import SceneLoader
import SpatialModel

/// Scene parser + builder on arbitrary bytes, with a stub importer (every asset is a small box), so
/// the whole loader runs: YAML/JSON, limits, type checks, path policy, scene building.
private let stub = AssetImporting { (resolved: String, display: String) throws(Diagnostic) -> ImportedAsset in
    if resolved.hasSuffix(".bad") { throw Diagnostic(file: display, message: "stub import failure") }
    let node = AssetNode(name: "root", parent: nil, subtreeEnd: 1, local: .identity, localTRS: .identity,
                         meshBounds: AABB(min: Vec3(0, 0, 0), max: Vec3(1, 1, 1)),
                         vertices: [0, 0, 0, 1, 0, 0, 0, 1, 1], triangles: 1, marking: nil)
    return ImportedAsset(path: display, resolvedPath: resolved, format: "stub", nodes: [node], animations: [],
                         declaredUnitScale: nil, unitNote: "")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    do {
        let scene = try SceneLoader.load(text: text, path: "fuzz.scene.yaml", baseDirectory: "/nonexistent-fuzz-dir",
                                         importer: stub)
        precondition(scene.frameRate.isFinite && scene.frameRate > 0 && scene.duration.isFinite)
    } catch {
        precondition(!error.diagnostics.isEmpty, "a LoadFailure without diagnostics")
        for d in error.diagnostics {
            precondition(!d.description.contains("\n::"), "a diagnostic forged an output line")
        }
    }
    return 0
}

// SwiftPM links executables with `main` = `fuzz_scene_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("fuzz_scene_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
