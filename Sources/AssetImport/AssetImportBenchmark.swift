import Foundation
import SpatialModel

/// Measures what isolation costs per asset: in-process import against the same import through the
/// worker process (spawn + import + encode + pipe + decode). Reached through the hidden
/// `spatialcheck __import-asset --benchmark N PATH...`; run it on a release build.
public enum AssetImportBenchmark {
    public static func run(paths: [String], repetitions: Int) -> String {
        guard let executable = AssetImporter.defaultWorkerExecutable() else {
            return "benchmark: this process is not spatialcheck, so there is no worker to run"
        }
        let isolation = AssetImportIsolation(executable: executable)
        let n = max(1, repetitions)
        func median(_ xs: [Double]) -> Double {
            let s = xs.sorted()
            return s.isEmpty ? .nan : s[s.count / 2]
        }
        func ms(_ body: () -> Void) -> Double {
            let t0 = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        }
        func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - s.count))
            return left ? s + fill : fill + s
        }
        func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
        var lines = [pad("asset", 30, left: true) + pad("bytes", 9) + pad("in-proc ms", 12) + pad("isolated ms", 12)
                     + pad("overhead ms", 12) + pad("min ovh ms", 11) + pad("encode ms", 10) + pad("decode ms", 10)]
        var overheads: [Double] = [], minOverheads: [Double] = []
        for path in paths {
            let name = (path as NSString).lastPathComponent
            guard let asset = try? AssetImporter.load(resolvedPath: path, displayPath: name) else {
                lines.append("\(name): does not import in-process; skipped")
                continue
            }
            var inProcess: [Double] = [], isolated: [Double] = [], encode: [Double] = [], decode: [Double] = []
            var bytes: [UInt8] = []
            var failed: String?
            for _ in 0..<n {
                inProcess.append(ms { _ = try? AssetImporter.load(resolvedPath: path, displayPath: name) })
                isolated.append(ms {
                    do { _ = try AssetImporter.load(resolvedPath: path, displayPath: name, isolation: isolation) } catch { failed = "\(error)" }
                })
                encode.append(ms { bytes = asset.encoded() })
                decode.append(ms { _ = try? ImportedAsset.decode(bytes) })
            }
            if let failed { lines.append("\(name): isolated import failed: \(failed)"); continue }
            let overhead = median(isolated) - median(inProcess)
            let minOverhead = (isolated.min() ?? .nan) - (inProcess.min() ?? .nan)
            overheads.append(overhead)
            minOverheads.append(minOverhead)
            lines.append(pad(name, 30, left: true) + pad(String(bytes.count), 9) + pad(f(median(inProcess)), 12)
                         + pad(f(median(isolated)), 12) + pad(f(overhead), 12) + pad(f(minOverhead), 11)
                         + pad(f(median(encode), 3), 10) + pad(f(median(decode), 3), 10))
        }
        if !overheads.isEmpty {
            let mean = overheads.reduce(0, +) / Double(overheads.count)
            let minMean = minOverheads.reduce(0, +) / Double(minOverheads.count)
            lines.append("overhead per asset over \(overheads.count) assets, \(n) runs each: median-based mean \(f(mean)) ms, "
                         + "max \(f(overheads.max() ?? 0)) ms; best-run mean \(f(minMean)) ms, max \(f(minOverheads.max() ?? 0)) ms")
        }
        return lines.joined(separator: "\n")
    }
}
