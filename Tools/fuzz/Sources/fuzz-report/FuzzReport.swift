import Foundation
import Reporting
import SpatialModel

/// `Report.parse` (saved JSON reports from other machines: baselines, `spatialcheck report`), then
/// the renderers and the baseline comparison on whatever parsed. Every rendered format must be
/// free of raw unsafe characters (`Escape.isUnsafe`, except the line breaks and tabs the formats
/// write themselves): a saved report is untrusted input (docs/security.md §3.3).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let d = Data(bytes: data, count: size)
    guard let report = try? Report.parse(d, path: "fuzz.json") else { return 0 }
    let outputs = [
        ("text", report.text(color: false, quiet: false)),
        ("json", report.json().serialized()),
        ("markdown", report.markdown()),
        ("junit", report.junit()),
        ("html", report.html(snapshots: [:])),
        ("sarif", report.sarif(rules: []).serialized()),
    ]
    for (name, out) in outputs {
        precondition(!out.unicodeScalars.contains { Escape.isUnsafe($0) && $0 != "\n" && $0 != "\t" },
                     "\(name) output holds a raw unsafe character")
    }
    _ = BaselineComparison(current: report, baseline: report)
    _ = Report.merge([report, report])
    return 0
}

// SwiftPM links executables with `main` = `fuzz_report_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("fuzz_report_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
