import SpatialModel

/// Output format of `spatialcheck simulate`.
public enum TraceFormat: String, Sendable, CaseIterable {
    /// One row per (frame, visible entity) with a header line; head columns repeat on every row.
    /// A frame with no visible entity still gets one row, with empty entity columns.
    case csv
    /// One JSON object per frame: `{"frame":0,"t":0.000000,"head":{...},"entities":[{...}]}`.
    case jsonl
}

/// Streams a simulation trace frame by frame: each frame's text is handed to the sink as soon as
/// the frame is simulated, so memory does not grow with the duration. Numbers are written with a
/// fixed 6 decimals by a locale-free formatter: the same scene gives a byte-identical trace.
public struct TraceWriter: Sendable {
    public let simulator: Simulator
    public let format: TraceFormat

    public init(scene: Scene, options: SimulationOptions = SimulationOptions(), format: TraceFormat) {
        self.simulator = Simulator(scene: scene, options: options)
        self.format = format
    }

    public static let csvHeader = "frame,t,head_x,head_y,head_z,head_yaw,head_pitch,immersion,head_displacement,"
        + "entity,x,y,z,distance,azimuth,elevation,eccentricity,angular_size,pt_eq,angular_velocity,in_fov"

    /// Writes the trace; the sink receives whole lines (each ending in "\n"), one call per frame
    /// (plus one for the CSV header).
    public func write(to sink: (String) throws -> Void) rethrows {
        let entities = simulator.scene.entities
        let csvPaths = entities.map { TraceWriter.csvField($0.path) }
        let jsonPaths = entities.map { TraceWriter.jsonString($0.path) }
        if format == .csv { try sink(TraceWriter.csvHeader + "\n") }
        var out = ""
        out.reserveCapacity(256 + 256 * entities.count)
        try simulator.run { q in
            out.removeAll(keepingCapacity: true)
            let f = TraceWriter.number
            switch format {
            case .csv:
                var head = String(q.frame)
                head += "," + f(q.time) + "," + f(q.headPosition.x) + "," + f(q.headPosition.y)
                head += "," + f(q.headPosition.z) + "," + f(q.headYaw) + "," + f(q.headPitch)
                head += "," + q.immersion.rawValue + "," + f(q.headDisplacement)
                var any = false
                for e in 0..<q.entityCount where q.visible[e] {
                    any = true
                    out += head
                    out += "," + csvPaths[e]
                    out += "," + f(q.center[e].x) + "," + f(q.center[e].y) + "," + f(q.center[e].z)
                    out += "," + f(q.distance[e]) + "," + f(q.azimuth[e]) + "," + f(q.elevation[e])
                    out += "," + f(q.eccentricity[e]) + "," + f(q.angularSize[e]) + "," + f(q.ptEq[e])
                    out += "," + f(q.angularVelocity[e]) + "," + (q.inFOV[e] ? "1" : "0") + "\n"
                }
                if !any { out += head + ",,,,,,,,,,,,\n" }
            case .jsonl:
                let j = TraceWriter.jsonNumber
                out += "{\"frame\":" + String(q.frame) + ",\"t\":" + j(q.time)
                out += ",\"head\":{\"x\":" + j(q.headPosition.x) + ",\"y\":" + j(q.headPosition.y)
                out += ",\"z\":" + j(q.headPosition.z) + ",\"yaw\":" + j(q.headYaw)
                out += ",\"pitch\":" + j(q.headPitch) + ",\"immersion\":\"" + q.immersion.rawValue
                out += "\",\"displacement\":" + j(q.headDisplacement) + "},\"entities\":["
                var first = true
                for e in 0..<q.entityCount where q.visible[e] {
                    if !first { out += "," }
                    first = false
                    out += "{\"path\":" + jsonPaths[e]
                    out += ",\"x\":" + j(q.center[e].x) + ",\"y\":" + j(q.center[e].y) + ",\"z\":" + j(q.center[e].z)
                    out += ",\"distance\":" + j(q.distance[e]) + ",\"azimuth\":" + j(q.azimuth[e])
                    out += ",\"elevation\":" + j(q.elevation[e]) + ",\"eccentricity\":" + j(q.eccentricity[e])
                    out += ",\"angularSize\":" + j(q.angularSize[e]) + ",\"ptEq\":" + j(q.ptEq[e])
                    out += ",\"angularVelocity\":" + j(q.angularVelocity[e])
                    out += ",\"inFOV\":" + (q.inFOV[e] ? "true" : "false") + "}"
                }
                out += "]}\n"
            }
            try sink(out)
        }
    }

    /// Writes the trace into a text stream (e.g. a `FileHandle` wrapper or a `String`).
    public func write<Target: TextOutputStream>(to target: inout Target) {
        write { target.write($0) }
    }

    // MARK: Formatting

    /// Fixed 6 decimals, no locale, no exponent, never "-0.000000"; "nan", "inf", "-inf" for
    /// non-finite values.
    public static func number(_ x: Double) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        let scaled = (abs(x) * 1_000_000).rounded()
        guard scaled < 9.0e18 else {
            // Beyond Int64 micro-units: whole number (the 6 decimals are below the precision anyway).
            return (x < 0 ? "-" : "") + wholeDigits(abs(x)) + ".000000"
        }
        let micro = Int64(scaled)
        if micro == 0 { return "0.000000" }
        let whole = micro / 1_000_000
        let frac = String(micro % 1_000_000)
        return (x < 0 ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 6 - frac.count) + frac
    }

    /// Decimal digits of a large non-negative whole double, without an exponent.
    private static func wholeDigits(_ x: Double) -> String {
        var v = x.rounded(.down)
        var digits: [Character] = []
        while v >= 1 {
            let d = Int(v.truncatingRemainder(dividingBy: 10))
            digits.append(Character(String(d)))
            v = (v / 10).rounded(.down)
        }
        return digits.isEmpty ? "0" : String(digits.reversed())
    }

    /// `number(x)` for finite values, `null` otherwise (JSON has no NaN or infinity).
    public static func jsonNumber(_ x: Double) -> String { x.isFinite ? number(x) : "null" }

    /// An entity path as a CSV field: `Escape.csv` (one line, quoted when needed, no formula).
    static func csvField(_ s: String) -> String { Escape.csv(s) }

    static func jsonString(_ s: String) -> String { jsonQuoted(s) }
}

#if canImport(Foundation)
import Foundation

extension TraceWriter {
    /// Writes the trace to a file handle (e.g. standard output), one write per frame.
    public func write(to handle: FileHandle) throws {
        try write { try handle.write(contentsOf: Data($0.utf8)) }
    }
}
#endif
