import Foundation
import SpatialModel
import Rules

/// Geometry the HTML report draws, captured from the simulation by the pipeline, and written into
/// the JSON report as a scene's `geometry` by `validate --with-geometry` (`json()`, `init(json:)`).
/// Bounded whatever the scene: a viewer path of at most ~400 points, at most `maxSeries` series of
/// at most ~400 points, views only at violations' worst frames (at most `maxViews`), each with the
/// marked entities and at most `maxContextBoxes` others around them.
public struct SceneSnapshot: Sendable {
    public static let maxViews = 60
    public static let maxContextBoxes = 150
    public static let maxSeries = 24
    public static let maxSeriesPoints = 400

    /// Top-down footprint of an entity at rest: world x/z extents, and the outline of its box seen
    /// from above (x, z points in order; a turned window is a slanted strip, not its bounding square).
    public struct Footprint: Sendable {
        public var path: String
        public var kind: String
        public var minX, maxX, minZ, maxZ: Double
        public var outline: [SIMD2<Double>]
        public init(path: String, kind: String, minX: Double, maxX: Double, minZ: Double, maxZ: Double,
                    outline: [SIMD2<Double>] = []) {
            self.path = path; self.kind = kind; self.minX = minX; self.maxX = maxX; self.minZ = minZ; self.maxZ = maxZ
            self.outline = outline
        }
    }
    /// An entity as seen from the eye at one frame: its box in head-frame azimuth/elevation degrees.
    /// `outline` (optional, empty when unknown: a report saved before it) is the box's silhouette
    /// as the eye sees it: the directions (azimuth, elevation in degrees) of the corners of the
    /// convex hull of its corners' directions, in order around it; each side between two of them
    /// is the great-circle arc they span (a straight edge of the box seen from the eye). The
    /// pictures draw boxes from it, so a flat window's straight top edge (in azimuth/elevation
    /// a curve, highest straight ahead: hig-rules §A4) is drawn where its elements are.
    public struct ViewBox: Sendable {
        public var path: String
        public var minAz, maxAz, minEl, maxEl: Double
        public var distance: Double
        public var outline: [SIMD2<Double>]
        public init(path: String, minAz: Double, maxAz: Double, minEl: Double, maxEl: Double, distance: Double,
                    outline: [SIMD2<Double>] = []) {
            self.path = path; self.minAz = minAz; self.maxAz = maxAz; self.minEl = minEl; self.maxEl = maxEl
            self.distance = distance; self.outline = outline
        }
        /// The most corners an outline has (a box's silhouette has at most 6; a saved report's are capped).
        public static let maxOutline = 8
        public var centerAz: Double { (minAz + maxAz) / 2 }
        public var centerEl: Double { (minEl + maxEl) / 2 }
    }
    public struct View: Sendable {
        public var frame: Int
        public var time: Double
        public var boxes: [ViewBox]
        public init(frame: Int, time: Double, boxes: [ViewBox]) { self.frame = frame; self.time = time; self.boxes = boxes }
    }
    /// A measured quantity over the run, sampled (at most `maxSeriesPoints` points), for the
    /// timeline: `quantity` names what it is (`boundary`: the head's distance from the boundary
    /// origin; `distance`, `eccentricity`, `angularVelocity`: of `entity`).
    public struct Series: Sendable {
        public var quantity: String
        public var entity: String?
        public var unit: String
        public var frames: [Int]
        public var values: [Double]
        public init(quantity: String, entity: String?, unit: String, frames: [Int], values: [Double]) {
            self.quantity = quantity; self.entity = entity; self.unit = unit; self.frames = frames; self.values = values
        }
        /// What the series shows, for people.
        public var label: String {
            switch quantity {
            case "boundary": return "head distance from the boundary origin"
            case "distance": return "distance eye → \(entity ?? "entity")"
            case "eccentricity": return "angle of \(entity ?? "entity") off the line of sight"
            case "angularVelocity": return "angular speed of \(entity ?? "entity")"
            default: return quantity
            }
        }
    }
    /// Where a moving entity (a window, volume or model whose box moves during the run) is over the
    /// run, seen from above, for the plan: its centre (x, z) at the frames of the viewer path while
    /// it is shown (and at the frames of its poses), and its box seen from above (`poses`) at the
    /// first frame it is shown and at the worst frames of the findings about it or its elements
    /// (at most 200 frames). At most `maxTracks` tracks, the entities the findings name first.
    public struct Track: Sendable {
        public var path: String
        public var frames: [Int]
        public var points: [SIMD2<Double>]
        public var poses: [Pose]
        public init(path: String, frames: [Int], points: [SIMD2<Double>], poses: [Pose]) {
            self.path = path; self.frames = frames; self.points = points; self.poses = poses
        }
    }
    /// An entity's box seen from above at one frame: the outline of its corners (x, z), as
    /// `Footprint.outline`.
    public struct Pose: Sendable {
        public var frame: Int
        public var outline: [SIMD2<Double>]
        public init(frame: Int, outline: [SIMD2<Double>]) { self.frame = frame; self.outline = outline }
    }
    /// The most moving entities the plan draws the path of.
    public static let maxTracks = 12

    /// An iOS scene's device screen (scene format "Device (iOS)"): the viewer is its camera, and
    /// the HTML report draws the viewer's view as this screen (`viewSVG`'s `screen`). `size` is in
    /// points with the orientation applied (width, height); `fieldOfView` of the snapshot is the
    /// camera view shown on it (a pinhole image that fills the screen).
    public struct Screen: Sendable, Equatable {
        public var size: SIMD2<Double>
        /// The preset's name (`iPhone 15`), nil when the scene gives a `screen` size instead.
        public var model: String?
        /// `portrait` or `landscape`.
        public var orientation: String
        public init(size: SIMD2<Double>, model: String? = nil, orientation: String) {
            self.size = size; self.model = model; self.orientation = orientation
        }
        /// The longest model name and side a saved report's screen may give (longer: left out).
        public static let maxModelLength = 100
        public static let maxSide = 100_000.0
        /// "393×852 pt, portrait".
        private var dimensions: String { "\(plainNumber(size.x))×\(plainNumber(size.y)) pt, \(orientation)" }
        /// "iPhone 15 screen, 393×852 pt, portrait" (not escaped).
        public var label: String { "\(model.map { "\($0) screen" } ?? "Screen"), \(dimensions)" }
        /// "iPhone 15 screen (393×852 pt, portrait)" (not escaped): `label` in a sentence.
        public var caption: String { "\(model.map { "\($0) screen" } ?? "device's screen") (\(dimensions))" }
    }

    /// A scene event (show, hide, immersion, recenter) at its frame.
    public struct Event: Sendable {
        public var frame: Int
        public var time: Double
        public var kind: String
        public var detail: String
        public init(frame: Int, time: Double, kind: String, detail: String) {
            self.frame = frame; self.time = time; self.kind = kind; self.detail = detail
        }
    }

    /// Viewer path (x, z) sampled over the run, in order, and the frame of each sample.
    public var viewerPath: [SIMD2<Double>]
    public var pathFrames: [Int]
    /// Boundary origins (x, z) used during the run (progressive/full immersion), if any.
    public var boundaryOrigins: [SIMD2<Double>]
    public var boundaryRadius: Double
    public var fadeRadius: Double
    public var footprints: [Footprint]
    /// Field of view (horizontal, vertical) in degrees.
    public var fieldOfView: SIMD2<Double>
    /// Views keyed by frame index (the worst frames of the violations).
    public var views: [Int: View]
    public var series: [Series]
    public var events: [Event]
    /// The 3D replay's data, when captured (`ValidateOptions.replay`); `json()` writes it as `replay`.
    public var replay: ReplayData?
    /// The moving entities' tracks (none in a scene where nothing moves); `json()` writes them as
    /// `tracks` only when there are some, so a static scene's geometry is what it was before them.
    public var tracks: [Track] = []
    /// The device screen of an iOS scene (nil on visionOS, and in a report saved before it); `json()`
    /// writes it as `screen` only when set, so a visionOS scene's geometry is what it was before.
    public var screen: Screen?

    public init(viewerPath: [SIMD2<Double>], pathFrames: [Int] = [], boundaryOrigins: [SIMD2<Double>], boundaryRadius: Double = 1.5,
                fadeRadius: Double = 1.2, footprints: [Footprint], fieldOfView: SIMD2<Double>, views: [Int: View],
                series: [Series] = [], events: [Event] = []) {
        self.viewerPath = viewerPath; self.pathFrames = pathFrames; self.boundaryOrigins = boundaryOrigins
        self.boundaryRadius = boundaryRadius
        self.fadeRadius = fadeRadius; self.footprints = footprints; self.fieldOfView = fieldOfView; self.views = views
        self.series = series; self.events = events
    }

    /// The series that shows what `rule` measures, where the simulator has it per frame: the head's
    /// distance from the boundary origin (boundary rules), the eye → entity distance (reading
    /// distance rules), the angle off the line of sight (fov-important-centered), the angular speed
    /// (motion rules). nil for the rest (pairs, counts, durations).
    public static func seriesQuantity(rule: String, entityCount: Int) -> String? {
        switch rule {
        case "boundary-head-exit", "boundary-fade-zone": return "boundary"
        case "depth-min-reading-distance", "depth-near-brief-only": return entityCount == 1 ? "distance" : nil
        // Not fov-no-head-turn: it measures from the resting pose, which the simulator's angle off
        // the current line of sight is not (a head turned toward the content brings that angle
        // under the threshold while the rule still reports it).
        case "fov-important-centered": return entityCount == 1 ? "eccentricity" : nil
        case "motion-peripheral", "motion-too-fast": return entityCount == 1 ? "angularVelocity" : nil
        default: return nil
        }
    }

    /// The marked boxes, their ancestors, and the `SceneSnapshot.maxContextBoxes` other boxes whose
    /// centres are nearest the marked ones' (nearest straight ahead when none is marked), so a view
    /// of a crowded scene stays bounded.
    /// (Paths are keyed by their bytes, `PathKey`.)
    public static func neighbourhood(_ boxes: [ViewBox], marked: Set<PathKey>) -> [ViewBox] {
        guard boxes.count > SceneSnapshot.maxContextBoxes + marked.count else { return boxes }
        return neighbourhoodIndices(boxes, marked: marked).map { boxes[$0] }
    }

    /// The indices (ascending) of the boxes `neighbourhood` keeps.
    public static func neighbourhoodIndices(_ boxes: [ViewBox], marked: Set<PathKey>) -> [Int] {
        guard boxes.count > SceneSnapshot.maxContextBoxes + marked.count else { return Array(boxes.indices) }
        var keep = Set<PathKey>()
        for m in marked {
            let parts = m.path.split(separator: "/")
            for k in 1...max(parts.count, 1) { keep.insert(PathKey(parts.prefix(k).joined(separator: "/"))) }
        }
        let hot = boxes.filter { marked.contains(path: $0.path) }
        let cx = hot.isEmpty ? 0 : hot.map(\.centerAz).reduce(0, +) / Double(hot.count)
        let cy = hot.isEmpty ? 0 : hot.map(\.centerEl).reduce(0, +) / Double(hot.count)
        // Each box's distance and whether it is kept computed once (not per comparison): the
        // same comparisons, so the same order.
        let kept = boxes.map { keep.contains(path: $0.path) }
        var candidates: [(distance: Double, offset: Int)] = []
        candidates.reserveCapacity(boxes.count)
        for (i, a) in boxes.enumerated() where !kept[i] {
            candidates.append(((a.centerAz - cx) * (a.centerAz - cx) + (a.centerEl - cy) * (a.centerEl - cy), i))
        }
        let others = candidates.sorted { a, b in
            a.distance != b.distance ? a.distance < b.distance : a.offset < b.offset
        }.prefix(SceneSnapshot.maxContextBoxes)
        var chosen = kept
        for c in others { chosen[c.offset] = true }
        return boxes.indices.filter { chosen[$0] }
    }

    /// The silhouette of a convex body with corners at `points` (head frame: x right, y up, −z
    /// forward; the eye at the origin) as `ViewBox.outline`: the corners of the convex hull of their
    /// directions, as azimuth/elevation degrees, in order. The directions are projected
    /// gnomonically (a plane touching the unit sphere at their mean direction) where great circles
    /// are straight lines, so the plane's convex hull is the spherical one. Empty when the body is
    /// not within 85° of its mean direction (the eye inside it, or it wraps around the eye) or its
    /// silhouette is a line or a point.
    public static func outline(of points: [SIMD3<Double>]) -> [SIMD2<Double>] {
        var units: [SIMD3<Double>] = []
        units.reserveCapacity(points.count)
        for p in points {
            let l = (p * p).sum().squareRoot()
            guard l.isFinite, l > 1e-9 else { return [] }
            units.append(p / l)
        }
        let sum = units.reduce(SIMD3<Double>(0, 0, 0), +)
        let sl = (sum * sum).sum().squareRoot()
        guard units.count >= 3, sl > 1e-9 else { return [] }
        let m = sum / sl
        // A basis of the tangent plane: e1 horizontal-ish, e2 = m × e1.
        let helper = abs(m.y) < 0.9 ? SIMD3<Double>(0, 1, 0) : SIMD3<Double>(1, 0, 0)
        var e1 = SIMD3(helper.y * m.z - helper.z * m.y, helper.z * m.x - helper.x * m.z, helper.x * m.y - helper.y * m.x)
        e1 /= (e1 * e1).sum().squareRoot()
        let e2 = SIMD3(m.y * e1.z - m.z * e1.y, m.z * e1.x - m.x * e1.z, m.x * e1.y - m.y * e1.x)
        let cosLimit = 0.0872  // cos 85°
        var plane: [SIMD2<Double>] = []
        for u in units {
            let d = (u * m).sum()
            guard d > cosLimit else { return [] }
            plane.append(SIMD2((u * e1).sum() / d, (u * e2).sum() / d))
        }
        let hull = convexHullIndices(plane)
        guard hull.count >= 3 else { return [] }
        return hull.map { azimuthElevation(units[$0]) }
    }

    /// The azimuth (right of −z) and elevation (above the x–z plane) of the head-frame direction
    /// `v`, in degrees: the coordinates of `ViewBox` and its outline.
    public static func azimuthElevation(_ v: SIMD3<Double>) -> SIMD2<Double> {
        SIMD2(atan2(v.x, -v.z) * 180 / .pi, atan2(v.y, (v.x * v.x + v.z * v.z).squareRoot()) * 180 / .pi)
    }

    /// The index of the path sample nearest frame `f` (nil without a path).
    public func pathIndex(frame f: Int) -> Int? {
        guard !viewerPath.isEmpty else { return nil }
        guard pathFrames.count == viewerPath.count else { return min(viewerPath.count - 1, max(0, f)) }
        var lo = 0, hi = pathFrames.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if pathFrames[mid] < f { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 && abs(pathFrames[lo - 1] - f) <= abs(pathFrames[lo] - f) { return lo - 1 }
        return lo
    }
}

// MARK: - JSON (`geometry` of a scene in the JSON report)

extension SceneSnapshot {
    private static func num(_ x: Double) -> JSON { .rounded(x, digits: 6) }
    private static func point(_ p: SIMD2<Double>) -> JSON { .array([num(p.x), num(p.y)]) }

    /// The snapshot as the JSON report's `geometry` object (numbers to 6 significant digits).
    public func json() -> JSON {
        // A replay over `ReplayData.maxValues` (only from a hostile saved report) is left out.
        var replayEntry: [(String, JSON)] = []
        if let r = replay, r.valueCount <= ReplayData.maxValues, let j = Self.replayJSON(r) { replayEntry = [("replay", j)] }
        let trackEntry: [(String, JSON)] = tracks.isEmpty ? [] : [("tracks", .array(tracks.map { t in
            .object([("path", .string(t.path)), ("frames", .array(t.frames.map(JSON.int))),
                     ("points", .array(t.points.map(Self.point))),
                     ("poses", .array(t.poses.map { .object([("frame", .int($0.frame)), ("outline", .array($0.outline.map(Self.point)))]) }))])
        }))]
        let screenEntry: [(String, JSON)] = screen.map { sc in
            [("screen", .object([("size", Self.point(sc.size)), ("model", JSON.optional(sc.model)),
                                 ("orientation", .string(sc.orientation))]))]
        } ?? []
        return .object([
            ("viewerPath", .array(viewerPath.map(Self.point))),
            ("pathFrames", .array(pathFrames.map(JSON.int))),
            ("boundaryOrigins", .array(boundaryOrigins.map(Self.point))),
            ("boundaryRadius", Self.num(boundaryRadius)),
            ("fadeRadius", Self.num(fadeRadius)),
            ("fieldOfView", .array([Self.num(fieldOfView.x), Self.num(fieldOfView.y)])),
        ] + screenEntry + [
            ("footprints", .array(footprints.map { f in
                .object([("path", .string(f.path)), ("kind", .string(f.kind)),
                         ("bounds", .array([Self.num(f.minX), Self.num(f.maxX), Self.num(f.minZ), Self.num(f.maxZ)])),
                         ("outline", .array(f.outline.map(Self.point)))])
            })),
            ("views", .array(views.keys.sorted().compactMap { views[$0] }.map { v in
                // `outlines` (one list of [azimuth, elevation] corners per box, in the boxes' order)
                // only when a box has one: a snapshot without them writes what it wrote before.
                .object([("frame", .int(v.frame)), ("time", Self.num(v.time)),
                         ("boxes", .array(v.boxes.map { b in
                             .array([.string(b.path), Self.num(b.minAz), Self.num(b.maxAz), Self.num(b.minEl),
                                     Self.num(b.maxEl), Self.num(b.distance)])
                         }))] + (v.boxes.contains { !$0.outline.isEmpty }
                            ? [("outlines", .array(v.boxes.map { .array($0.outline.map(Self.point)) }))] : []))
            })),
            ("series", .array(series.map { s in
                .object([("quantity", .string(s.quantity)), ("entity", JSON.optional(s.entity)), ("unit", .string(s.unit)),
                         ("frames", .array(s.frames.map(JSON.int))), ("values", .array(s.values.map(Self.num)))])
            })),
            ("events", .array(events.map { e in
                .object([("frame", .int(e.frame)), ("time", Self.num(e.time)), ("kind", .string(e.kind)), ("detail", .string(e.detail))])
            })),
        ] + trackEntry + replayEntry)
    }

    /// The replay's compact JSON as a value of the report's tree (object keys sorted).
    private static func replayJSON(_ r: ReplayData) -> JSON? {
        guard let any = try? JSONSerialization.jsonObject(with: Data(r.json().utf8)) else { return nil }
        func convert(_ x: Any) -> JSON {
            if let i = x as? Int { return .int(i) }
            if let d = x as? Double { return .number(d) }
            if let s = x as? String { return .string(s) }
            if let a = x as? [Any] { return .array(a.map(convert)) }
            if let o = x as? [String: Any] { return .object(o.keys.sorted().map { ($0, convert(o[$0] ?? NSNull())) }) }
            return .null
        }
        return convert(any)
    }

    /// Reads a `geometry` object (from `JSONSerialization`); nil when it is not one. Bad or
    /// non-finite numbers drop the item they are in, and every list is capped, so a hostile report
    /// cannot make the page unbounded.
    public init?(json any: Any) {
        guard let o = any as? [String: Any] else { return nil }
        func d(_ x: Any?) -> Double? {
            guard let n = x as? NSNumber else { return nil }
            let v = n.doubleValue
            return v.isFinite && abs(v) < 1e9 ? v : nil
        }
        func i(_ x: Any?) -> Int? { d(x).map { Int($0) } }
        func pt(_ x: Any?) -> SIMD2<Double>? {
            guard let a = x as? [Any], a.count == 2, let px = d(a[0]), let pz = d(a[1]) else { return nil }
            return SIMD2(px, pz)
        }
        func list(_ key: String, cap: Int) -> [Any] { Array(((o[key] as? [Any]) ?? []).prefix(cap)) }
        let path = list("viewerPath", cap: 2 * Self.maxSeriesPoints).compactMap(pt)
        let frames = list("pathFrames", cap: 2 * Self.maxSeriesPoints).compactMap(i)
        let fov = (o["fieldOfView"] as? [Any]).flatMap { a -> SIMD2<Double>? in
            guard a.count == 2, let h = d(a[0]), let v = d(a[1]) else { return nil }
            return SIMD2(h, v)
        } ?? SIMD2(60, 40)
        let footprints = list("footprints", cap: 200_000).compactMap { x -> Footprint? in
            guard let f = x as? [String: Any], let p = f["path"] as? String, let b = f["bounds"] as? [Any], b.count == 4,
                  let x0 = d(b[0]), let x1 = d(b[1]), let z0 = d(b[2]), let z1 = d(b[3]) else { return nil }
            return Footprint(path: p, kind: f["kind"] as? String ?? "", minX: x0, maxX: x1, minZ: z0, maxZ: z1,
                             outline: ((f["outline"] as? [Any]) ?? []).prefix(16).compactMap(pt))
        }
        var views: [Int: View] = [:]
        for x in list("views", cap: Self.maxViews) {
            guard let v = x as? [String: Any], let f = i(v["frame"]) else { continue }
            // `outlines` is optional (reports saved before it have none): an outline with a bad
            // point, or fewer than 3, is left out (the box is drawn from its extents).
            let outlines = (v["outlines"] as? [Any]) ?? []
            let boxes = ((v["boxes"] as? [Any]) ?? []).prefix(Self.maxContextBoxes + 200).enumerated().compactMap { k, b -> ViewBox? in
                guard let a = b as? [Any], a.count == 6, let p = a[0] as? String, let a0 = d(a[1]), let a1 = d(a[2]),
                      let e0 = d(a[3]), let e1 = d(a[4]), let dist = d(a[5]) else { return nil }
                var outline: [SIMD2<Double>] = []
                if k < outlines.count, let list = outlines[k] as? [Any], (3...ViewBox.maxOutline).contains(list.count) {
                    let points = list.compactMap(pt)
                    if points.count == list.count { outline = points }
                }
                return ViewBox(path: p, minAz: a0, maxAz: a1, minEl: e0, maxEl: e1, distance: dist, outline: outline)
            }
            views[f] = View(frame: f, time: d(v["time"]) ?? 0, boxes: boxes)
        }
        let series = list("series", cap: Self.maxSeries).compactMap { x -> Series? in
            guard let s = x as? [String: Any], let q = s["quantity"] as? String else { return nil }
            let fs = ((s["frames"] as? [Any]) ?? []).prefix(2 * Self.maxSeriesPoints).map { i($0) }
            let vs = ((s["values"] as? [Any]) ?? []).prefix(2 * Self.maxSeriesPoints).map { d($0) }
            var frames: [Int] = [], values: [Double] = []
            for (f, v) in zip(fs, vs) { if let f, let v { frames.append(f); values.append(v) } }
            return Series(quantity: q, entity: s["entity"] as? String, unit: s["unit"] as? String ?? "", frames: frames, values: values)
        }
        let events = list("events", cap: 1000).compactMap { x -> Event? in
            guard let e = x as? [String: Any], let f = i(e["frame"]), let k = e["kind"] as? String else { return nil }
            return Event(frame: f, time: d(e["time"]) ?? 0, kind: k, detail: e["detail"] as? String ?? "")
        }
        let replay = o["replay"].flatMap { ReplayData(json: $0) }
        // Each list capped: a track's points at twice the path's cap, its poses at 200 worst frames and its start.
        let tracks = list("tracks", cap: Self.maxTracks).compactMap { x -> Track? in
            guard let t = x as? [String: Any], let p = t["path"] as? String else { return nil }
            let fs = ((t["frames"] as? [Any]) ?? []).prefix(2 * Self.maxSeriesPoints).map { i($0) }
            let ps = ((t["points"] as? [Any]) ?? []).prefix(2 * Self.maxSeriesPoints).map { pt($0) }
            var frames: [Int] = [], points: [SIMD2<Double>] = []
            for (f, q) in zip(fs, ps) { if let f, let q { frames.append(f); points.append(q) } }
            let poses = ((t["poses"] as? [Any]) ?? []).prefix(201).compactMap { y -> Pose? in
                guard let o = y as? [String: Any], let f = i(o["frame"]) else { return nil }
                return Pose(frame: f, outline: ((o["outline"] as? [Any]) ?? []).prefix(16).compactMap(pt))
            }
            return Track(path: p, frames: frames, points: points, poses: poses)
        }
        self.init(viewerPath: path, pathFrames: frames.count == path.count ? frames : [],
                  boundaryOrigins: list("boundaryOrigins", cap: 1000).compactMap(pt),
                  boundaryRadius: d(o["boundaryRadius"]) ?? 1.5, fadeRadius: d(o["fadeRadius"]) ?? 1.2,
                  footprints: footprints, fieldOfView: fov, views: views, series: series, events: events)
        self.replay = replay
        self.tracks = tracks
        // `screen` is optional (reports saved before it, and visionOS scenes, have none): one with
        // a size that is not positive and below `Screen.maxSide`, an orientation other than
        // portrait or landscape, or a model name over `Screen.maxModelLength` characters is left out.
        if let sc = o["screen"] as? [String: Any], let size = pt(sc["size"]), size.x > 0, size.y > 0,
           size.x < Screen.maxSide, size.y < Screen.maxSide,
           let orientation = sc["orientation"] as? String, orientation == "portrait" || orientation == "landscape" {
            let model = sc["model"] as? String
            if model.map({ $0.utf8.count <= Screen.maxModelLength }) ?? true {
                self.screen = Screen(size: size, model: model, orientation: orientation)
            }
        }
    }
}

extension SceneSnapshot {
    /// The snapshot as a saved report gives it back (`--with-geometry`, then `init?(json:)`): the
    /// geometry written as the JSON report writes it (6 significant digits) and read back by the
    /// same reader (an item holding a number that is not finite or not below 10⁹ in size is left
    /// out, lists capped), so the page `validate --format html` draws from it is the page
    /// `report saved.json --format html` draws, byte for byte (the two used to differ where a value
    /// rounded differently: a tooltip's 0.25 m against 0.26 m). The replay is kept as it is: the
    /// page embeds it as its own JSON either way.
    public func quantized() -> SceneSnapshot {
        var geometry = self
        geometry.replay = nil
        let text = geometry.json().serialized(pretty: false)
        guard let any = try? JSONSerialization.jsonObject(with: Data(text.utf8)), var out = SceneSnapshot(json: any) else {
            return self
        }
        out.replay = replay
        return out
    }
}

/// The indices of the convex hull of `points` (Andrew's monotone chain), counter-clockwise, without
/// collinear or repeated points; fewer than 3 when they span no area.
public func convexHullIndices(_ points: [SIMD2<Double>]) -> [Int] {
    let order = points.indices.filter { points[$0].x.isFinite && points[$0].y.isFinite }.sorted {
        let a = points[$0], b = points[$1]
        return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : $0 < $1
    }
    guard order.count >= 3 else { return order }
    func cross(_ o: Int, _ a: Int, _ b: Int) -> Double {
        let o = points[o], a = points[a], b = points[b]
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }
    var lower: [Int] = [], upper: [Int] = []
    for i in order {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], i) <= 1e-12 { lower.removeLast() }
        lower.append(i)
    }
    for i in order.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], i) <= 1e-12 { upper.removeLast() }
        upper.append(i)
    }
    return Array(lower.dropLast() + upper.dropLast())
}
