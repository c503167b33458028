import Foundation
@testable import AssetImport

/// The import boundary's own code on untrusted bytes: the glTF/GLB facts scanner (`GLTFFacts`: the
/// JSON and the GLB chunk header, read before assimp's result is trusted), the two index checks
/// on its result (`GLTFIndexCheck`), and the container diagnosis run on failed imports. assimp itself is not fuzzed in-process: it can
/// crash inside its readers, which is what the import worker process contains.
private let dir = NSTemporaryDirectory() + "spatialcheck-fuzz-gltf-\(getpid())"
private let created: Bool = (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Empty files are skipped: swift-foundation's FileManager.contents(atPath:) leaks its 4 KiB read
    // buffer for a zero-length file (found by this harness; a Foundation bug, reported in
    // docs/security.md). Everything else keeps LeakSanitizer on.
    guard created, size > 0 else { return 0 }
    let d = Data(bytes: data, count: size)
    let glb = size >= 4 && d.prefix(4) == Data("glTF".utf8)
    let path = dir + (glb ? "/in.glb" : "/in.gltf")
    guard FileManager.default.createFile(atPath: path, contents: d) else { return 0 }
    let facts = GLTFFacts.read(path: path)
    _ = GLTFIndexCheck.droppedTriangleWarning(facts: facts, importedTriangles: [1, 2])
    _ = GLTFIndexCheck.hierarchyProblems(facts: facts)
    _ = AssetImporter.containerProblem(path: path, ext: glb ? "glb" : "gltf")
    return 0
}

// SwiftPM links executables with `main` = `fuzz_gltf_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("fuzz_gltf_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
