// spatialcheck-bench: `spatialcheck bench` from the Benchmarks package (the same library code,
// SpatialCheck.bench + renderBench), usable before the `bench` subcommand is registered.
//   spatialcheck-bench SCENE [--frames N] [--format text|json] [--simulate-only]
import Foundation
import SpatialCheck

var path: String?
var options = SpatialCheck.BenchOptions()
var format = SpatialCheck.BenchFormat.text
var args = CommandLine.arguments.dropFirst().makeIterator()
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: spatialcheck-bench SCENE [--frames N] [--format text|json] [--simulate-only]\n".utf8))
    exit(2)
}
while let a = args.next() {
    switch a {
    case "--frames": guard let n = Int(args.next() ?? ""), n >= 1 else { usage() }; options.frames = n
    case "--format": guard let f = SpatialCheck.BenchFormat(rawValue: args.next() ?? "") else { usage() }; format = f
    case "--simulate-only": options.rules = false
    default: if path == nil && !a.hasPrefix("-") { path = a } else { usage() }
    }
}
guard let path else { usage() }
do {
    print(SpatialCheck.renderBench(try SpatialCheck.bench(path: path, options: options), format: format), terminator: "")
} catch {
    for d in error.diagnostics { FileHandle.standardError.write(Data((d.description + "\n").utf8)) }
    exit(2)
}
