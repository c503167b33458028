import SpatialModel
import Rules

/// What the HTML report's 3D replay plays back (docs/reports.md, "3D replay"): the scene's entities
/// as oriented boxes, their poses, visibility and severity over the frames, the viewer's head, the
/// boundary and the immersion style. Stored compactly: integer millimetres and tenths of a degree,
/// and per track only the keyframes that linear interpolation between them cannot reproduce to
/// within one unit (`TrackRecorder`), so a still entity is one keyframe whatever the run's length.
public struct ReplayData: Sendable, Equatable {
    /// An entity: its path, kind (`EntityKind` raw value) and parent (index into `entities`, or nil).
    public struct Entity: Sendable, Equatable {
        public var path: String
        public var kind: String
        public var parent: Int?
        public init(path: String, kind: String, parent: Int?) { self.path = path; self.kind = kind; self.parent = parent }
    }
    /// A keyframe of a track: the frame and its values. Entity tracks hold 9 values: centre x, y, z
    /// (mm), rotation yaw, pitch, roll (0.1°, R = Ry·Rx·Rz, unwrapped so consecutive keyframes never
    /// jump by more than 180°) and the box's full size along its own x, y, z axes (mm). The head
    /// track holds 6: eye position (mm) and yaw, pitch, roll (0.1°) in the same convention.
    public struct Keyframe: Sendable, Equatable {
        public var frame: Int
        public var values: [Int]
        public init(frame: Int, values: [Int]) { self.frame = frame; self.values = values }
    }
    /// An entity's severity (the worst of the violations that name it) over a run of frames.
    public struct SeverityInterval: Sendable, Equatable {
        public var severity: Severity
        public var frames: ClosedRange<Int>
        public init(severity: Severity, frames: ClosedRange<Int>) { self.severity = severity; self.frames = frames }
    }
    /// From `frame` on, the boundary origin (mm), or nil when the immersion style has none.
    public struct BoundaryChange: Sendable, Equatable {
        public var frame: Int
        public var origin: SIMD3<Int>?
        public init(frame: Int, origin: SIMD3<Int>?) { self.frame = frame; self.origin = origin }
    }
    /// From `frame` on, the immersion style (`ImmersionStyle` raw value).
    public struct ImmersionChange: Sendable, Equatable {
        public var frame: Int
        public var style: String
        public init(frame: Int, style: String) { self.frame = frame; self.style = style }
    }

    public static let entityValues = 9
    public static let headValues = 6

    public var frameCount: Int
    public var frameRate: Double
    /// Comfortable field of view, horizontal and vertical, in degrees.
    public var fieldOfView: SIMD2<Double>
    /// Boundary and fade radii in mm.
    public var boundaryRadius: Int
    public var fadeRadius: Int
    public var entities: [Entity]
    /// Per entity (same index as `entities`).
    public var tracks: [[Keyframe]]
    public var visibility: [[ClosedRange<Int>]]
    public var severities: [[SeverityInterval]]
    /// Violations that name no entity (a whole-scene finding such as leaving the boundary): drawn on
    /// the viewer's head.
    public var sceneSeverities: [SeverityInterval]
    public var head: [Keyframe]
    public var boundary: [BoundaryChange]
    public var immersion: [ImmersionChange]

    public init(frameCount: Int, frameRate: Double, fieldOfView: SIMD2<Double>, boundaryRadius: Int = 1500,
                fadeRadius: Int = 1200, entities: [Entity], tracks: [[Keyframe]], visibility: [[ClosedRange<Int>]],
                severities: [[SeverityInterval]], sceneSeverities: [SeverityInterval] = [], head: [Keyframe],
                boundary: [BoundaryChange] = [], immersion: [ImmersionChange] = []) {
        self.frameCount = frameCount; self.frameRate = frameRate; self.fieldOfView = fieldOfView
        self.boundaryRadius = boundaryRadius; self.fadeRadius = fadeRadius; self.entities = entities
        self.tracks = tracks; self.visibility = visibility; self.severities = severities
        self.sceneSeverities = sceneSeverities; self.head = head; self.boundary = boundary; self.immersion = immersion
    }

    /// The most numbers one scene's replay holds (`valueCount`): the recording stops at the frame
    /// that passes it (`ReplayRecording`, so the replay covers the frames before), and a saved
    /// replay over it is left out of the page. About 5 MB of page; a scene of 10,000 still
    /// entities needs about 120,000.
    public static let maxValues = 1_000_000
    /// Where the recording of keyframes and visibility runs stops: three quarters of `maxValues`,
    /// leaving the rest for the severities the scene's violations add afterwards.
    public static let recordingLimit = maxValues / 4 * 3

    /// The numbers `json()` writes for the tracks, visibility, severities and head (what grows
    /// with entities and frames).
    public var valueCount: Int {
        var n = head.count * (1 + Self.headValues) + 3 * sceneSeverities.count + 5 * boundary.count + 2 * immersion.count
        for t in tracks { n &+= t.count * (1 + Self.entityValues) }
        for v in visibility { n &+= 2 * v.count }
        for s in severities { n &+= 3 * s.count }
        return n
    }

    /// The entity's box size (mm) at its first keyframe, zero when it has none.
    public func size(of entity: Int) -> SIMD3<Int> {
        guard tracks.indices.contains(entity), let k = tracks[entity].first, k.values.count >= 9 else { return .zero }
        return SIMD3(k.values[6], k.values[7], k.values[8])
    }

    /// Severity intervals per entity from a scene's violations: each violation marks every entity it
    /// names over each of its spans; overlapping intervals keep the worst severity per frame.
    public static func severityIntervals(entityPaths: [String], violations: [ReportViolation], frameCount: Int)
        -> (entities: [[SeverityInterval]], scene: [SeverityInterval]) {
        var index: [String: Int] = [:]
        for (i, p) in entityPaths.enumerated() where index[p] == nil { index[p] = i }
        var raw: [[SeverityInterval]] = Array(repeating: [], count: entityPaths.count)
        var scene: [SeverityInterval] = []
        let last = max(0, frameCount - 1)
        for v in violations {
            for span in v.spans where span.lowerBound <= last {
                let lo = min(max(0, span.lowerBound), last), hi = min(max(lo, span.upperBound), last)
                let interval = SeverityInterval(severity: v.severity, frames: lo...hi)
                if v.entities.isEmpty { scene.append(interval) }
                for p in v.entities { if let i = index[p] { raw[i].append(interval) } }
            }
        }
        return (raw.map(merge), merge(scene))
    }

    /// Disjoint, sorted intervals holding, at every frame, the worst severity of `intervals` there.
    static func merge(_ intervals: [SeverityInterval]) -> [SeverityInterval] {
        guard !intervals.isEmpty else { return [] }
        // Boundaries where the worst severity may change.
        var cuts = Set<Int>()
        for i in intervals { cuts.insert(i.frames.lowerBound); cuts.insert(i.frames.upperBound + 1) }
        let sorted = cuts.sorted()
        var out: [SeverityInterval] = []
        for (k, start) in sorted.enumerated() where k + 1 < sorted.count {
            let end = sorted[k + 1] - 1
            guard end >= start else { continue }
            let worst = intervals.filter { $0.frames.contains(start) }.map(\.severity).min()
            guard let worst else { continue }
            if let prev = out.last, prev.severity == worst, prev.frames.upperBound + 1 == start {
                out[out.count - 1].frames = prev.frames.lowerBound...end
            } else {
                out.append(.init(severity: worst, frames: start...end))
            }
        }
        return out
    }
}

/// Reduces a sampled integer track to keyframes: a sample is kept only when linear interpolation
/// between the kept keyframes around it would miss some sample by more than one unit (the
/// quantum), and at most every `maxGap` frames. A track that never changes is one keyframe; one that
/// moves at constant speed and stops is two. Angles (the indices in `angles`) are unwrapped so a
/// turn through ±180° interpolates the short way.
public struct TrackRecorder: Sendable {
    public private(set) var keyframes: [ReplayData.Keyframe] = []
    private var pending: [ReplayData.Keyframe] = []
    /// Changes whenever `pending` is replaced (not appended to): `bounds` then starts again.
    private var pendingEpoch = 0
    private var bounds = SlopeBounds()
    private var holdUntil: Int?
    private let angles: Set<Int>
    private let maxGap: Int
    public init(angles: Set<Int> = [], maxGap: Int = 120) { self.angles = angles; self.maxGap = max(2, maxGap) }

    public mutating func append(frame: Int, values input: [Int]) {
        var values = input
        if let prev = pending.last ?? keyframes.last, prev.values.count == values.count {
            for i in angles where i < values.count {
                // Unwrap against the previous sample (tenths of a degree).
                var d = values[i] &- prev.values[i]
                d = ((d % 3600) + 3600) % 3600
                if d > 1800 { d -= 3600 }
                values[i] = prev.values[i] &+ d
            }
        }
        let sample = ReplayData.Keyframe(frame: frame, values: values)
        guard let key = keyframes.last, key.values.count == values.count else {
            keyframes.append(sample); setPending([]); holdUntil = nil; return
        }
        // Holding still costs nothing however long: only the last frame of the hold is remembered,
        // and becomes a keyframe when the track moves again.
        if values == key.values && frame > key.frame && pending.allSatisfy({ $0.values == key.values }) {
            setPending([])
            holdUntil = frame
            return
        }
        if let hold = holdUntil {
            holdUntil = nil
            if hold > key.frame { keyframes.append(.init(frame: hold, values: key.values)) }
            if let last = keyframes.last, frame &- last.frame <= maxGap && frame > last.frame { setPending([sample]) } else { keyframes.append(sample) }
            return
        }
        if frame &- key.frame <= maxGap && fits(from: key, to: sample) {
            pending.append(sample)
        } else if let prev = pending.last {
            keyframes.append(prev)
            setPending([])
            if fits(from: prev, to: sample) && frame &- prev.frame <= maxGap { setPending([sample]) } else { keyframes.append(sample) }
        } else {
            keyframes.append(sample)
        }
    }

    /// Records a sample at `frame` whose values are those of the sample appended just before (the
    /// same input again), when that sample holds the last keyframe: then `append` would only
    /// extend the hold, which this does without the values. False (nothing recorded) otherwise:
    /// the caller appends the values.
    public mutating func repeatLast(frame: Int) -> Bool {
        guard pending.isEmpty, let key = keyframes.last, frame > key.frame else { return false }
        holdUntil = frame
        return true
    }

    /// The keyframes, the last sample included when it is not what holding the last keyframe gives.
    public func finish() -> [ReplayData.Keyframe] {
        var out = keyframes
        if let last = pending.last, let key = out.last, pending.contains(where: { $0.values != key.values }) {
            out.append(last)
        }
        return out
    }

    private mutating func setPending(_ samples: [ReplayData.Keyframe]) {
        pending = samples
        pendingEpoch &+= 1
    }

    /// Per value, the slopes (units per frame from the last keyframe) that keep every pending sample
    /// folded in so far within 1 − `margin` of the line (`low`/`high`), and within 1 + `margin`
    /// (`lowOuter`/`highOuter`): a slope inside the first for every value fits for sure, one outside
    /// the second for some value fails for sure, whatever the rounding of `fits`' exact loop (its
    /// error is below 1e-6 for values under 1e8); only in between does `fits` run that loop.
    private struct SlopeBounds: Sendable {
        static let margin = 1e-4
        var epoch = -1, keyframeCount = -1, anchorFrame = 0, width = 0, count = 0
        var exactOnly = false
        var maxOffset = 0.0
        var low: [Double] = [], high: [Double] = [], lowOuter: [Double] = [], highOuter: [Double] = []
    }

    /// Whether interpolating `a` → `b` reproduces every pending sample within one unit: decided
    /// from `bounds` (updated with the samples pended since) when that is certain, else by
    /// checking every sample.
    private mutating func fits(from a: ReplayData.Keyframe, to b: ReplayData.Keyframe) -> Bool {
        let span = Double(b.frame) - Double(a.frame)
        guard span > 0 else { return false }
        if pending.isEmpty { return true }
        let width = min(a.values.count, b.values.count)
        if let key = keyframes.last, key.frame == a.frame, key.values == a.values, width <= 16 {
            if bounds.epoch != pendingEpoch || bounds.keyframeCount != keyframes.count || bounds.anchorFrame != a.frame
                || bounds.width != width || bounds.count > pending.count {
                bounds = SlopeBounds(epoch: pendingEpoch, keyframeCount: keyframes.count, anchorFrame: a.frame, width: width,
                                     low: Array(repeating: -.infinity, count: width), high: Array(repeating: .infinity, count: width),
                                     lowOuter: Array(repeating: -.infinity, count: width), highOuter: Array(repeating: .infinity, count: width))
                bounds.exactOnly = a.values.prefix(width).contains { abs($0) >= 100_000_000 }
            }
            let m = SlopeBounds.margin
            while bounds.count < pending.count {
                let s = pending[bounds.count]
                bounds.count += 1
                let ds = Double(s.frame) - Double(a.frame)
                guard !bounds.exactOnly, s.values.count == width, ds > 0 else { bounds.exactOnly = true; continue }
                bounds.maxOffset = max(bounds.maxOffset, ds)
                for i in 0..<width {
                    let value = s.values[i]
                    guard abs(value) < 100_000_000 else { bounds.exactOnly = true; break }
                    let d = Double(value) - Double(a.values[i])
                    bounds.low[i] = max(bounds.low[i], (d - 1 + m) / ds)
                    bounds.high[i] = min(bounds.high[i], (d + 1 - m) / ds)
                    bounds.lowOuter[i] = max(bounds.lowOuter[i], (d - 1 - m) / ds)
                    bounds.highOuter[i] = min(bounds.highOuter[i], (d + 1 + m) / ds)
                }
            }
            if !bounds.exactOnly, bounds.maxOffset < span, !b.values.prefix(width).contains(where: { abs($0) >= 100_000_000 }) {
                var inside = true
                for i in 0..<width {
                    let slope = (Double(b.values[i]) - Double(a.values[i])) / span
                    if slope < bounds.lowOuter[i] || slope > bounds.highOuter[i] { return false }
                    if slope < bounds.low[i] || slope > bounds.high[i] { inside = false }
                }
                if inside { return true }
            }
        }
        // The ends and their differences converted once (the same numbers as per sample).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: max(1, 2 * width)) { ends -> Bool in
            for i in 0..<width {
                let start = Double(a.values[i])
                ends[i] = start; ends[width + i] = Double(b.values[i]) - start
            }
            for s in pending {
                let t = (Double(s.frame) - Double(a.frame)) / span
                let n = min(s.values.count, width)
                let fit = s.values.withUnsafeBufferPointer { values -> Bool in
                    for i in 0..<n {
                        let v = ends[i] + ends[width + i] * t
                        if abs(v - Double(values[i])) > 1.0 { return false }
                    }
                    return true
                }
                if !fit { return false }
            }
            return true
        }
    }
}

// MARK: - JSON

extension ReplayData {
    private static func severityCode(_ s: Severity) -> Int {
        switch s { case .error: 3; case .warning: 2; case .info: 1 }
    }
    private static func severity(code: Int) -> Severity? {
        switch code { case 3: .error; case 2: .warning; case 1: .info; default: nil }
    }

    /// Keyframes flattened, each as the difference from the previous one (frame first).
    private static func deltas(_ keys: [Keyframe], width: Int) -> String {
        var out: [Int] = []
        var prevFrame = 0
        var prev = [Int](repeating: 0, count: width)
        for k in keys where k.values.count == width {
            out.append(k.frame &- prevFrame); prevFrame = k.frame
            for i in 0..<width { out.append(k.values[i] &- prev[i]); prev[i] = k.values[i] }
        }
        return "[" + out.map(String.init).joined(separator: ",") + "]"
    }

    private static func ints(_ a: [Int]) -> String { "[" + a.map(String.init).joined(separator: ",") + "]" }

    private static func number(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e12 else { return "0" }
        let r = (x * 1000).rounded() / 1000
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return String(r)
    }

    /// Compact, deterministic JSON (the same data gives the same bytes): keys `v` (format version 1),
    /// `frames`, `fps`, `fov`, `br`/`fr` (radii, mm), `e` (entities: [path, kind, parent or -1]),
    /// `t` (per entity, delta-encoded keyframes of 1 + 9 integers), `vis` (per entity, visible
    /// intervals as flat [first, last, ...]), `sev` (per entity, flat [code, first, last, ...], code
    /// 3 error, 2 warning, 1 info), `ssev` (whole-scene severities, same form), `head` (delta-encoded
    /// keyframes of 1 + 6), `bo` (boundary changes [frame, present, x, y, z, ...]) and `imm`
    /// ([[frame, style], ...]).
    public func json() -> String {
        var s = "{\"v\":1,\"frames\":\(frameCount),\"fps\":\(Self.number(frameRate)),"
        s += "\"fov\":[\(Self.number(fieldOfView.x)),\(Self.number(fieldOfView.y))],\"br\":\(boundaryRadius),\"fr\":\(fadeRadius),"
        s += "\"e\":[" + entities.map { "[\(jsonQuoted($0.path)),\(jsonQuoted($0.kind)),\($0.parent ?? -1)]" }.joined(separator: ",") + "],"
        s += "\"t\":[" + tracks.map { Self.deltas($0, width: Self.entityValues) }.joined(separator: ",") + "],"
        s += "\"vis\":[" + visibility.map { Self.ints($0.flatMap { [$0.lowerBound, $0.upperBound] }) }.joined(separator: ",") + "],"
        func sev(_ list: [SeverityInterval]) -> String {
            Self.ints(list.flatMap { [Self.severityCode($0.severity), $0.frames.lowerBound, $0.frames.upperBound] })
        }
        s += "\"sev\":[" + severities.map(sev).joined(separator: ",") + "],"
        s += "\"ssev\":" + sev(sceneSeverities) + ","
        s += "\"head\":" + Self.deltas(head, width: Self.headValues) + ","
        s += "\"bo\":" + Self.ints(boundary.flatMap { b in
            [b.frame, b.origin == nil ? 0 : 1, b.origin?.x ?? 0, b.origin?.y ?? 0, b.origin?.z ?? 0]
        }) + ","
        s += "\"imm\":[" + immersion.map { "[\($0.frame),\(jsonQuoted($0.style))]" }.joined(separator: ",") + "]}"
        return s
    }

    /// Limits on decoded data: a saved page is input like any other.
    static let maxEntities = 1_000_000
    static let maxFrames = 100_000_000
    static let maxMagnitude = 1_000_000_000_000

    /// Decodes `json()` output parsed by `JSONSerialization`; nil when anything is missing, of the
    /// wrong type, out of range or inconsistent (never traps on hostile input).
    public init?(json: Any) {
        guard let o = json as? [String: Any],
              (o["v"] as? Int) == 1,
              let frames = o["frames"] as? Int, frames >= 0, frames <= Self.maxFrames,
              let fps = Self.double(o["fps"]), fps > 0, fps <= 10_000,
              let fov = o["fov"] as? [Any], fov.count == 2, let fh = Self.double(fov[0]), let fv = Self.double(fov[1]),
              fh >= 0, fh <= 360, fv >= 0, fv <= 360,
              let br = Self.int(o["br"]), let fr = Self.int(o["fr"]),
              let e = o["e"] as? [Any], e.count <= Self.maxEntities,
              let t = o["t"] as? [Any], t.count == e.count,
              let vis = o["vis"] as? [Any], vis.count == e.count,
              let sev = o["sev"] as? [Any], sev.count == e.count,
              let ssevRaw = o["ssev"], let headRaw = o["head"], let boRaw = o["bo"],
              let imm = o["imm"] as? [Any]
        else { return nil }
        var entities: [Entity] = []
        for item in e {
            guard let a = item as? [Any], a.count == 3, let path = a[0] as? String, let kind = a[1] as? String,
                  let parent = Self.int(a[2]), parent >= -1, parent < e.count else { return nil }
            entities.append(.init(path: path, kind: kind, parent: parent < 0 ? nil : parent))
        }
        var tracks: [[Keyframe]] = []
        for item in t {
            guard let k = Self.keyframes(item, width: Self.entityValues, frames: frames) else { return nil }
            tracks.append(k)
        }
        var visibility: [[ClosedRange<Int>]] = []
        for item in vis {
            guard let a = Self.intArray(item), a.count % 2 == 0 else { return nil }
            var ranges: [ClosedRange<Int>] = []
            for i in stride(from: 0, to: a.count, by: 2) {
                guard a[i] >= 0, a[i] <= a[i + 1] else { return nil }
                ranges.append(a[i]...a[i + 1])
            }
            visibility.append(ranges)
        }
        var severities: [[SeverityInterval]] = []
        for item in sev {
            guard let s = Self.severityList(item) else { return nil }
            severities.append(s)
        }
        guard let ssev = Self.severityList(ssevRaw),
              let head = Self.keyframes(headRaw, width: Self.headValues, frames: frames),
              let bo = Self.intArray(boRaw), bo.count % 5 == 0 else { return nil }
        var boundary: [BoundaryChange] = []
        for i in stride(from: 0, to: bo.count, by: 5) {
            guard bo[i] >= 0, bo[i + 1] == 0 || bo[i + 1] == 1 else { return nil }
            boundary.append(.init(frame: bo[i], origin: bo[i + 1] == 1 ? SIMD3(bo[i + 2], bo[i + 3], bo[i + 4]) : nil))
        }
        var immersion: [ImmersionChange] = []
        for item in imm {
            guard let a = item as? [Any], a.count == 2, let f = Self.int(a[0]), f >= 0, let style = a[1] as? String else { return nil }
            immersion.append(.init(frame: f, style: style))
        }
        self.init(frameCount: frames, frameRate: fps, fieldOfView: SIMD2(fh, fv), boundaryRadius: br, fadeRadius: fr,
                  entities: entities, tracks: tracks, visibility: visibility, severities: severities,
                  sceneSeverities: ssev, head: head, boundary: boundary, immersion: immersion)
    }

    private static func int(_ x: Any?) -> Int? {
        guard let i = x as? Int, i >= -maxMagnitude, i <= maxMagnitude else { return nil }
        return i
    }
    private static func double(_ x: Any?) -> Double? {
        if let i = x as? Int { return Double(i) }
        guard let d = x as? Double, d.isFinite else { return nil }
        return d
    }
    private static func intArray(_ x: Any?) -> [Int]? {
        guard let a = x as? [Any] else { return nil }
        var out: [Int] = []
        out.reserveCapacity(a.count)
        for v in a { guard let i = int(v) else { return nil }; out.append(i) }
        return out
    }
    private static func severityList(_ x: Any?) -> [SeverityInterval]? {
        guard let a = intArray(x), a.count % 3 == 0 else { return nil }
        var out: [SeverityInterval] = []
        for i in stride(from: 0, to: a.count, by: 3) {
            guard let s = severity(code: a[i]), a[i + 1] >= 0, a[i + 1] <= a[i + 2] else { return nil }
            out.append(.init(severity: s, frames: a[i + 1]...a[i + 2]))
        }
        return out
    }
    /// Undoes the delta encoding; frames must rise strictly and stay within the run, values within
    /// `maxMagnitude`.
    private static func keyframes(_ x: Any?, width: Int, frames: Int) -> [Keyframe]? {
        guard let a = intArray(x), a.count % (width + 1) == 0 else { return nil }
        var out: [Keyframe] = []
        var frame = 0
        var values = [Int](repeating: 0, count: width)
        for i in stride(from: 0, to: a.count, by: width + 1) {
            let next = frame + a[i]
            guard next >= 0, next <= max(frames, 1), out.isEmpty ? next >= 0 : next > frame else { return nil }
            frame = next
            for k in 0..<width {
                let v = values[k] + a[i + 1 + k]
                guard abs(v) <= maxMagnitude else { return nil }
                values[k] = v
            }
            out.append(.init(frame: frame, values: values))
        }
        return out
    }
}

// MARK: - HTML

/// The replay's HTML: a section per scene and the script (once per page) that finds every section,
/// draws it with WebGL and wires its controls. Without JavaScript or WebGL the sections stay hidden
/// and the page's static pictures are all there is.
public enum ReplayHTML {
    /// A hidden container (shown by the script) with the canvas, the controls and the data as
    /// `<script type="application/json">` (`<` written as `\u003c`, so no input can close it).
    public static func section(_ data: ReplayData, sceneIndex: Int) -> String {
        let raw = data.json()
        let json = raw.utf8.contains(UInt8(ascii: "<")) ? raw.replacingOccurrences(of: "<", with: "\\u003c") : raw
        let last = max(0, data.frameCount - 1)
        var s = "<div class=\"replay\" id=\"replay-\(sceneIndex)\" data-scene-index=\"\(sceneIndex)\" hidden>\n"
        s += "<canvas class=\"replay-canvas\" width=\"720\" height=\"420\" style=\"width:100%;max-width:720px;height:auto;border:1px solid #ddd;background:#f4f6f8;display:block\" role=\"img\" aria-label=\"3D replay of the simulation\"></canvas>\n"
        s += "<div class=\"replay-controls\" style=\"display:flex;gap:.6em;align-items:center;max-width:720px;margin:.3em 0;font-size:.85em\">"
        s += "<button type=\"button\" class=\"replay-play\">Play</button>"
        s += "<input type=\"range\" class=\"replay-slider\" min=\"0\" max=\"\(last)\" value=\"0\" step=\"1\" style=\"flex:1\" aria-label=\"frame\">"
        s += "<span class=\"replay-time\" style=\"min-width:11em;font-variant-numeric:tabular-nums\"></span>"
        s += "<button type=\"button\" class=\"replay-cam\">Viewer's eyes</button></div>\n"
        s += "<p class=\"replay-legend\" style=\"font-size:.8em;color:#555;margin:.2em 0\">Drag to orbit, wheel to zoom. "
        s += "<span style=\"color:#c0261b\">■ error</span> <span style=\"color:#e08a00\">■ warning</span> "
        s += "<span style=\"color:#1c5fb8\">■ info</span> <span style=\"color:#8e8e93\">■ no finding</span>; "
        s += "viewer and path in black, boundary red, fade circle orange, comfortable field of view dashed.</p>\n"
        s += "<script type=\"application/json\" class=\"replay-data\">\(json)</script>\n</div>\n"
        return s
    }

    /// The renderer: plain WebGL 1 and a few matrix helpers, no library, nothing fetched.
    public static let script: String = "<script>\n" + replayScript + "\n</script>\n"
}
