// kernel-compare: the ratios of issue 7 that need two measurements in the same run.
//
//   kernel-compare [--entities 1000,10000,100000] [--entity-frames 2000000] [--repeats 5] [--import-iterations 20]
//                  [--per-asset] [--pairs 1000,10000] [--pair-frames 30]
//
// `--pairs`: per crowded scene size (`gen-scenes --crowded`), the target-pair rules' angular pass
// and aggregation in Swift against the C++ reference (`pair_reference.cpp`), same frames (issue 16).
//
// `--entities ""` skips the kernel comparison. `--per-asset` adds, per shared asset, the same
// alternating comparison (assimp alone vs the importer, medians over the repeats).
//
// Each size runs max(5, entity-frames / entities) frames per repeat (--frames N fixes the count).
//
// Prints JSON: per scene size, the simulator's transform-and-quantities stage against the C++/GLM
// reference kernel (alternating runs, medians of per-repeat ratios), and the import of the shared
// assets through AssetImporter against assimp alone.
import BenchSupport
import Foundation
import SpatialModel

var sizes = [1_000, 10_000, 100_000]
var fixedFrames: Int?
var entityFrames = 2_000_000
var repeats = 5
var importIterations = 20
var perAsset = false
var pairSizes: [Int] = []
var pairFrames = 30
var args = CommandLine.arguments.dropFirst().makeIterator()
while let a = args.next() {
    switch a {
    case "--entities": sizes = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--frames": fixedFrames = Int(args.next() ?? "")
    case "--entity-frames": entityFrames = Int(args.next() ?? "") ?? entityFrames
    case "--repeats": repeats = Int(args.next() ?? "") ?? repeats
    case "--import-iterations": importIterations = Int(args.next() ?? "") ?? importIterations
    case "--per-asset": perAsset = true
    case "--pairs": pairSizes = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--pair-frames": pairFrames = Int(args.next() ?? "") ?? pairFrames
    default:
        FileHandle.standardError.write(Data("usage: kernel-compare [--entities N,N] [--entity-frames N | --frames N] [--repeats N] [--import-iterations N] [--per-asset]\n".utf8))
        exit(2)
    }
}

func r(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "null" }

var kernelRows: [String] = []
for n in sizes {
    let scene = BenchScenes.load(entities: n)
    let frames = fixedFrames ?? max(5, entityFrames / max(1, scene.entities.count))
    let ef = Double(frames) * Double(scene.entities.count)
    let reference = ReferenceRunner(scene: scene)
    _ = reference.run(frames: min(frames, 10)) // warm up
    _ = simulatorStage(scene: scene, frames: min(frames, 10))
    var sim: [Double] = [], ref: [Double] = [], ratio: [Double] = [], anim: [Double] = []
    var trans: [Double] = [], quant: [Double] = []
    for _ in 0..<repeats {
        let p = simulatorStage(scene: scene, frames: frames)
        let refNs = Double(reference.run(frames: frames)) / ef
        let simNs = Double(p.transforms + p.quantities) / ef
        sim.append(simNs); ref.append(refNs); ratio.append(simNs / refNs)
        anim.append(Double(p.animation) / ef); trans.append(Double(p.transforms) / ef); quant.append(Double(p.quantities) / ef)
    }
    kernelRows.append("""
        {"entities": \(scene.entities.count), "frames": \(frames), "repeats": \(repeats), \
        "simulatorTransformsAndQuantitiesNsPerEntityFrame": \(r(median(sim))), \
        "simulatorAnimationNsPerEntityFrame": \(r(median(anim))), \
        "simulatorTransformsNsPerEntityFrame": \(r(median(trans))), \
        "simulatorQuantitiesNsPerEntityFrame": \(r(median(quant))), \
        "referenceNsPerEntityFrame": \(r(median(ref))), "ratio": \(r(median(ratio))), \
        "ratioMin": \(r(ratio.min() ?? .nan)), "ratioMax": \(r(ratio.max() ?? .nan))}
        """)
}

// Import: the same files, alternating assimp alone and the full importer.
let files = sharedAssetFiles()
var importJSON = "null"
if !files.isEmpty && importIterations > 0 {
    for f in files { AssimpAlone.importOnce(f); importWithModel(f) } // warm caches
    var alone: [Double] = [], ours: [Double] = [], overhead: [Double] = []
    for _ in 0..<repeats {
        var t0 = nowNanoseconds()
        for _ in 0..<importIterations { for f in files { AssimpAlone.importOnce(f) } }
        let a = Double(nowNanoseconds() - t0) / Double(importIterations)
        t0 = nowNanoseconds()
        for _ in 0..<importIterations { for f in files { importWithModel(f) } }
        let o = Double(nowNanoseconds() - t0) / Double(importIterations)
        alone.append(a); ours.append(o); overhead.append(o / a - 1)
    }
    var assetRows: [String] = []
    if perAsset {
        for f in files {
            var a: [Double] = [], o: [Double] = [], ov: [Double] = []
            for _ in 0..<repeats {
                var t0 = nowNanoseconds()
                for _ in 0..<importIterations { AssimpAlone.importOnce(f) }
                let ta = Double(nowNanoseconds() - t0) / Double(importIterations)
                t0 = nowNanoseconds()
                for _ in 0..<importIterations { importWithModel(f) }
                let to = Double(nowNanoseconds() - t0) / Double(importIterations)
                a.append(ta); o.append(to); ov.append(to / ta - 1)
            }
            let name = (f as NSString).lastPathComponent
            assetRows.append("""
                {"file": "\(name)", "assimpAloneMs": \(r(median(a) / 1e6)), "importerMs": \(r(median(o) / 1e6)), \
                "extraMs": \(r((median(o) - median(a)) / 1e6)), "overhead": \(r(median(ov)))}
                """)
        }
    }
    importJSON = """
        {"files": \(files.count), "iterations": \(importIterations), "repeats": \(repeats), \
        "assimpAloneMsPerPass": \(r(median(alone) / 1e6)), "importerMsPerPass": \(r(median(ours) / 1e6)), \
        "overhead": \(r(median(overhead))), "overheadMin": \(r(overhead.min() ?? .nan)), "overheadMax": \(r(overhead.max() ?? .nan))\
        \(perAsset ? ",\n    \"assets\": [\n      " + assetRows.joined(separator: ",\n      ") + "\n    ]" : "")}
        """
}

var pairRows: [String] = []
for n in pairSizes {
    let scene = BenchScenes.load(entities: n, crowded: true)
    _ = pairPassComparison(scene: scene, frames: 2) // warm up
    var runs: [PairPassResult] = []
    for _ in 0..<max(1, repeats) { runs.append(pairPassComparison(scene: scene, frames: pairFrames)) }
    let ratios = runs.map(\.ratio)
    guard let m = runs.sorted(by: { $0.ratio < $1.ratio }).dropFirst(runs.count / 2).first else { continue }
    let tests = Double(max(1, m.pairTests)), findings = Double(max(1, m.violatingPairFrames))
    pairRows.append("""
        {"entities": \(scene.entities.count), "frames": \(m.frames), "repeats": \(runs.count), \
        "pairTestsPerFrame": \(r(Double(m.pairTests) / Double(max(1, m.frames)))), \
        "swiftPairTestsPerFrame": \(r(Double(m.swiftPairTests) / Double(max(1, m.frames)))), \
        "violatingPairFramesPerFrame": \(r(Double(m.violatingPairFrames) / Double(max(1, m.frames)))), \
        "swiftViolatingPairFramesPerFrame": \(r(Double(m.swiftViolatingPairFrames) / Double(max(1, m.frames)))), \
        "swiftNsPerPairTest": \(r(Double(m.swiftNanoseconds) / tests)), "referenceNsPerPairTest": \(r(Double(m.referenceNanoseconds) / tests)), \
        "swiftNsPerViolatingPairFrame": \(r(Double(m.swiftNanoseconds) / findings)), \
        "referenceNsPerViolatingPairFrame": \(r(Double(m.referenceNanoseconds) / findings)), \
        "swiftFinishNsPerViolatingPairFrame": \(r(Double(m.swiftFinishNanoseconds) / findings)), \
        "ratio": \(r(m.ratio)), "ratioMin": \(r(ratios.min() ?? .nan)), "ratioMax": \(r(ratios.max() ?? .nan))}
        """)
}

print("""
{
  "format": "spatialcheck-kernel-compare/1",
  "pairs": [
    \(pairRows.joined(separator: ",\n    "))
  ],
  "kernel": [
    \(kernelRows.joined(separator: ",\n    "))
  ],
  "import": \(importJSON)
}
""")
