import Foundation
import SpatialModel
import Simulation
import Reporting
import Rules

extension SpatialCheck {
    /// A per-frame quantity the timeline plots against a violation's threshold.
    struct SeriesRequest: Hashable {
        var quantity: String
        /// Entity index, nil for the head's distance from the boundary origin.
        var entity: Int?
    }

    /// What to capture for a scene's violations: the frames to draw views at (each fold group's
    /// first worst frame, errors first, at most `SceneSnapshot.maxViews`), the entities to mark in
    /// each of those views (all members of the groups drawn there), and the series to record.
    /// `worst`: the entities of each violation at its worst frame (errors first, at most 200
    /// frames, as the plan marks the viewer at most 200 times), where the plan draws moving content.
    static func snapshotPlan(scene: Scene, violations: [ReportViolation])
        -> (frames: Set<Int>, marked: [Int: Set<PathKey>], series: [SeriesRequest], worst: [Int: Set<PathKey>]) {
        let groups = foldViolations(violations).enumerated().sorted {
            $0.element.severity != $1.element.severity ? $0.element.severity < $1.element.severity : $0.offset < $1.offset
        }.map(\.element)
        var frames = Set<Int>(), marked: [Int: Set<PathKey>] = [:]
        for g in groups {
            guard let f = g.members.first?.worstFrame else { continue }
            if !frames.contains(f) {
                guard frames.count < SceneSnapshot.maxViews else { continue }
                frames.insert(f)
            }
            for v in g.members { for e in v.entities { marked[f, default: []].insert(PathKey(e)) } }
        }
        let index = Dictionary(scene.entities.enumerated().map { (PathKey($1.path), $0) }, uniquingKeysWith: { a, _ in a })
        var series: [SeriesRequest] = []
        for v in violations {
            guard let q = SceneSnapshot.seriesQuantity(rule: v.rule, entityCount: v.entities.count) else { continue }
            let r = SeriesRequest(quantity: q, entity: q == "boundary" ? nil : v.entities.first.flatMap { index[PathKey($0)] })
            if q != "boundary" && r.entity == nil { continue }
            if !series.contains(r) && series.count < SceneSnapshot.maxSeries { series.append(r) }
        }
        var worst: [Int: Set<PathKey>] = [:]
        for severity in Severity.allCases {
            for v in violations where v.severity == severity && (worst[v.worstFrame] != nil || worst.count < 200) {
                for e in v.entities { worst[v.worstFrame, default: []].insert(PathKey(e)) }
            }
        }
        return (frames, marked, series, worst)
    }

    /// Replays a scene to capture what the HTML report draws: the viewer path, boundary origins,
    /// rest footprints, the view from the eye at the requested frames (the `marked` entities and at
    /// most `SceneSnapshot.maxContextBoxes` others nearest them), the requested series and the events.
    /// With `replayOf` (the scene's violations), the same run also records the 3D replay
    /// (`captureReplay`) into the snapshot's `replay`. `through`: the last frame the check
    /// covered when it stopped early (`EarlyStop.afterFrame`): the capture stops there too, so the
    /// path, series and replay show the frames checked (the 100,000-entity scene that stops after
    /// frame 0 spent 30 s of its HTML report simulating its other 2,497 frames again).
    static func captureSnapshot(scene: Scene, options: SimulationOptions, frames wanted: Set<Int>,
                                marked: [Int: Set<PathKey>] = [:], worst: [Int: Set<PathKey>] = [:],
                                series requests: [SeriesRequest] = [],
                                replayOf violations: [ReportViolation]? = nil, through last: Int? = nil) -> SceneSnapshot {
        let simulator = Simulator(scene: scene, options: options)
        var recording = violations == nil ? nil : ReplayRecording(scene: scene)
        // The frames captured: all of them, or those the check covered.
        let count = last.map { min(simulator.frameCount, max(0, $0) + 1) } ?? simulator.frameCount
        struct Done: Error {}
        let step = max(1, (count + SceneSnapshot.maxSeriesPoints - 1) / SceneSnapshot.maxSeriesPoints)
        var path: [SIMD2<Double>] = [], pathFrames: [Int] = []
        var origins: [SIMD2<Double>] = []
        var views: [Int: SceneSnapshot.View] = [:]
        var outlines: [[SIMD2<Double>]] = Array(repeating: [], count: scene.entities.count)
        var seriesFrames: [[Int]] = Array(repeating: [], count: requests.count)
        var seriesValues: [[Double]] = Array(repeating: [], count: requests.count)
        var sawBoundary = false
        // Moving content's tracks: chosen at frame 0 among the entities the plan draws a footprint
        // of whose box can move (`canMove`), those the findings name (or name a child of) first,
        // then in scene order; `4 × maxTracks` candidates, of which the first `maxTracks` that
        // move are kept. Each records its centre at the path's frames and its box (`poses`) where
        // it is first shown and at the worst frames of the findings about it (`worst`). Bounded
        // whatever the scene: candidates × (path samples + 200 worst frames + 1).
        var trackEntities: [Int] = []
        var trackFrames: [[Int]] = [], trackPoints: [[SIMD2<Double>]] = [], trackPoses: [[SceneSnapshot.Pose]] = []
        var trackShown: [Bool] = []
        /// Whether the plan draws a footprint of `e` (`footprints` below).
        func hasFootprint(_ e: Entity) -> Bool { e.kind != .element && e.kind != .node && !e.restWorldBounds.isEmpty }
        /// `paths` and their ancestors' paths.
        func withAncestors(_ paths: Set<PathKey>) -> Set<PathKey> {
            var out = Set<PathKey>()
            for m in paths { for p in pathPrefixes(m.path) { out.insert(PathKey(p)) } }
            return out
        }
        /// Per frame of `worst`: the entities named there and their ancestors (a track's box is
        /// recorded where a finding about it or one of its elements is worst).
        let worstHere = worst.mapValues(withAncestors)
        func chooseTracks(_ q: borrowing FrameQuantities) {
            var named = Set<PathKey>()
            for set in marked.values { named.formUnion(withAncestors(set)) }
            for set in worstHere.values { named.formUnion(set) }
            let cap = 4 * SceneSnapshot.maxTracks
            var first: [Int] = [], rest: [Int] = []
            for e in 0..<min(q.entityCount, scene.entities.count) where first.count < cap {
                // Content anchored to the head or hand goes where the viewer goes: its path would
                // repeat the viewer's, so it gets no track (world-anchored content only).
                guard q.canMove.isEmpty || (e < q.canMove.count && q.canMove[e]), scene.entities[e].anchor == .world,
                      hasFootprint(scene.entities[e]) else { continue }
                if named.contains(path: scene.entities[e].path) { first.append(e) } else if rest.count < cap { rest.append(e) }
            }
            trackEntities = Array((first + rest).prefix(cap))
            trackFrames = Array(repeating: [], count: trackEntities.count)
            trackPoints = Array(repeating: [], count: trackEntities.count)
            trackPoses = Array(repeating: [], count: trackEntities.count)
            trackShown = Array(repeating: false, count: trackEntities.count)
        }
        /// The frame's view for the page's pictures: each visible box's extent in azimuth and
        /// elevation around the head, the neighbourhood of the marked entities.
        func view(_ q: borrowing FrameQuantities) -> SceneSnapshot.View {
            var boxes: [SceneSnapshot.ViewBox] = []
            var entityOf: [Int] = []
            /// Boxes kept only as the direction of a marked entity's centre (no silhouette).
            var directionOnly = Set<Int>()
            let inverse = q.headRotation.conjugate
            let markedHere = marked[q.frame] ?? []
            for e in 0..<q.entityCount where q.visible[e] {
                var minAz = Double.infinity, maxAz = -Double.infinity, minEl = Double.infinity, maxEl = -Double.infinity
                var inFront = false
                for c in q.boxCorners(e) {
                    let v = inverse.act(c - q.headPosition)
                    if -v.z > 1e-6 { inFront = true }
                    let d = SceneSnapshot.azimuthElevation(v)
                    minAz = min(minAz, d.x); maxAz = max(maxAz, d.x); minEl = min(minEl, d.y); maxEl = max(maxEl, d.y)
                }
                guard inFront, maxAz - minAz < 180 else {
                    // A marked entity behind the viewer (or around them) is kept as the direction of
                    // its centre, so the picture can point to it.
                    if markedHere.contains(path: scene.entities[e].path) {
                        directionOnly.insert(boxes.count)
                        let d = SceneSnapshot.azimuthElevation(inverse.act(q.center[e] - q.headPosition))
                        boxes.append(.init(path: scene.entities[e].path, minAz: d.x, maxAz: d.x, minEl: d.y, maxEl: d.y,
                                           distance: q.distance[e]))
                        entityOf.append(e)
                    }
                    continue
                }
                boxes.append(.init(path: scene.entities[e].path, minAz: minAz, maxAz: maxAz,
                                   minEl: minEl, maxEl: maxEl, distance: q.distance[e]))
                entityOf.append(e)
            }
            // The kept boxes' silhouettes (only theirs: a crowded view keeps ~150 of 10,000).
            let kept = SceneSnapshot.neighbourhoodIndices(boxes, marked: markedHere)
            return .init(frame: q.frame, time: q.time, boxes: kept.map { k in
                var b = boxes[k]
                if !directionOnly.contains(k) {
                    b.outline = SceneSnapshot.outline(of: q.boxCorners(entityOf[k]).map { inverse.act($0 - q.headPosition) })
                }
                return b
            })
        }
        // Only `Done` is thrown: it ends the run after the last frame captured (no frame more is
        // simulated).
        try? simulator.run { q in
            recording?.observe(q)
            if q.frame == 0 {
                for e in 0..<min(q.entityCount, outlines.count) {
                    outlines[e] = convexHull(q.boxCorners(e).map { SIMD2($0.x, $0.z) })
                }
                chooseTracks(q)
            }
            let sample = q.frame % step == 0 || q.frame == count - 1
            let namedHere = worstHere[q.frame]
            for (k, e) in trackEntities.enumerated() where e < q.entityCount && q.visible[e] {
                let firstShown = !trackShown[k]
                trackShown[k] = true
                let pose = firstShown || namedHere?.contains(path: scene.entities[e].path) == true
                guard sample || pose else { continue }
                trackFrames[k].append(q.frame)
                trackPoints[k].append(SIMD2(q.center[e].x, q.center[e].z))
                if pose {
                    trackPoses[k].append(.init(frame: q.frame, outline: convexHull(q.boxCorners(e).map { SIMD2($0.x, $0.z) })))
                }
            }
            if sample {
                path.append(SIMD2(q.headPosition.x, q.headPosition.z))
                pathFrames.append(q.frame)
            }
            if let o = q.boundaryOrigin {
                sawBoundary = true
                let p = SIMD2(o.x, o.z)
                if origins.last != p { origins.append(p) }
            }
            if sample || wanted.contains(q.frame) {
                for (k, r) in requests.enumerated() {
                    let value: Double?
                    switch (r.quantity, r.entity) {
                    case ("boundary", _): value = q.boundaryOrigin == nil ? nil : q.headDisplacement
                    case ("distance", let e?) where e < q.entityCount: value = q.visible[e] ? q.distance[e] : nil
                    case ("eccentricity", let e?) where e < q.entityCount: value = q.visible[e] ? q.eccentricity[e] : nil
                    case ("angularVelocity", let e?) where e < q.entityCount: value = q.visible[e] ? q.angularVelocity[e] : nil
                    default: value = nil
                    }
                    if let value, value.isFinite { seriesFrames[k].append(q.frame); seriesValues[k].append(value) }
                }
            }
            if wanted.contains(q.frame) { views[q.frame] = view(q) }
            if q.frame >= count - 1 { throw Done() }
        }
        let footprints = scene.entities.enumerated().compactMap { i, e -> SceneSnapshot.Footprint? in
            guard hasFootprint(e) else { return nil }
            let b = e.restWorldBounds
            return .init(path: e.path, kind: e.kind.rawValue, minX: b.min.x, maxX: b.max.x, minZ: b.min.z, maxZ: b.max.z,
                         outline: i < outlines.count ? outlines[i] : [])
        }
        let series = requests.enumerated().compactMap { k, r -> SceneSnapshot.Series? in
            guard !seriesFrames[k].isEmpty, r.quantity != "boundary" || sawBoundary else { return nil }
            let unit = r.quantity == "boundary" || r.quantity == "distance" ? "m" : r.quantity == "eccentricity" ? "deg" : "deg/s"
            return .init(quantity: r.quantity, entity: r.entity.map { scene.entities[$0].path }, unit: unit,
                         frames: seriesFrames[k], values: seriesValues[k])
        }
        var snapshot = SceneSnapshot(viewerPath: path, pathFrames: pathFrames, boundaryOrigins: origins, footprints: footprints,
                                     fieldOfView: simulator.fieldOfView, views: views, series: series,
                                     events: events(of: scene, frameRate: simulator.frameRate, frames: simulator.frameCount))
        // iOS: the viewer is the device's camera, and the page draws its view as the screen.
        if scene.platform == .iOS, let device = scene.device {
            snapshot.screen = .init(size: device.screen, model: device.model, orientation: device.orientation.rawValue)
        }
        // The tracks of the entities that moved (their centre more than a millimetre from where it
        // was first shown), at most `maxTracks`, in the order chosen.
        for (k, e) in trackEntities.enumerated() where snapshot.tracks.count < SceneSnapshot.maxTracks {
            guard let start = trackPoints[k].first,
                  trackPoints[k].contains(where: { p in ((p - start) * (p - start)).sum() > 1e-6 }) else { continue }
            snapshot.tracks.append(.init(path: scene.entities[e].path, frames: trackFrames[k], points: trackPoints[k],
                                         poses: trackPoses[k]))
        }
        if let recording, let violations {
            snapshot.replay = recording.finish(scene: scene, simulator: simulator, violations: violations, frames: count)
        }
        return snapshot
    }

    /// The scene's events at the first frame they apply to (frame time ≥ event time).
    static func events(of scene: Scene, frameRate: Double, frames: Int) -> [SceneSnapshot.Event] {
        scene.events.prefix(1000).compactMap { e in
            guard e.time.isFinite, frames > 0 else { return nil }
            let f = min(frames - 1, max(0, Int(min((e.time * frameRate - 1e-9).rounded(.up), 1e12))))
            switch e.action {
            case .setImmersion(let style, let trigger):
                return .init(frame: f, time: e.time, kind: "immersion", detail: "\(style.rawValue) (\(trigger.rawValue))")
            case .recenter:
                return .init(frame: f, time: e.time, kind: "recenter", detail: "")
            case .show(let i):
                return .init(frame: f, time: e.time, kind: "show", detail: i >= 0 && i < scene.entities.count ? scene.entities[i].path : "")
            case .hide(let i):
                return .init(frame: f, time: e.time, kind: "hide", detail: i >= 0 && i < scene.entities.count ? scene.entities[i].path : "")
            case .ar(.tracking(let state, let reason)):
                return .init(frame: f, time: e.time, kind: "tracking",
                             detail: state.rawValue + (reason.map { " (\($0.rawValue))" } ?? ""))
            case .ar(.plane(let id, let detected, _)):
                return .init(frame: f, time: e.time, kind: detected ? "plane detected" : "plane lost", detail: id)
            case .ar(.referenceImages(let count)):
                return .init(frame: f, time: e.time, kind: "reference images", detail: "\(count)")
            }
        }
    }
}

/// Convex hull of points in the plane (Andrew's monotone chain), counter-clockwise, without
/// repeated or collinear points; fewer than 3 points when they are all on a line.
func convexHull(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
    convexHullIndices(points).map { points[$0] }
}
