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
        var lines = [String(format: "%-34@ %9@ %10@ %10@ %9@ %9@ %9@", "asset" as NSString, "bytes" as NSString,
                            "in-proc" as NSString, "isolated" as NSString, "overhead" as NSString,
                            "encode" as NSString, "decode" as NSString)]
        var overheads: [Double] = []
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
            overheads.append(overhead)
            lines.append(String(format: "%-34@ %9d %8.2fms %8.2fms %7.2fms %7.3fms %7.3fms", name as NSString, bytes.count,
                                median(inProcess), median(isolated), overhead, median(encode), median(decode)))
        }
        if !overheads.isEmpty {
            lines.append(String(format: "overhead per asset (median of %d runs each): mean %.2f ms, max %.2f ms over %d assets",
                                n, overheads.reduce(0, +) / Double(overheads.count), overheads.max() ?? 0, overheads.count))
        }
        return lines.joined(separator: "\n")
    }
}
