import Foundation
import Testing
@testable import SpatialCheck
@testable import Reporting
import SpatialModel
import Rules
import Simulation

/// The 3D replay's data (`ReplayData`, `TrackRecorder`, `captureReplay`): compaction to keyframes,
/// the JSON round trip, and decoding hostile JSON.
@Suite struct ReplayTests {
    /// A still window and a volume that moves 1 m along +X in the first second (linear), then
    /// holds, for 3 s at 90 Hz (270 frames). By hand: the window is one keyframe; the volume is two,
    /// frame 0 at (0, 1, −2) m and frame 90 at (1, 1, −2) m, both unrotated and 0.4 × 0.2 × 0.4 m; the
    /// still head is one keyframe at (0, 1.6, 0) m looking along −Z.
    @Test func stillWindowAndAnimatedBoxKeyframes() throws {
        let replay = try capture("""
            format: spatialscene/1
            platform: visionOS
            immersion: shared
            duration: 3
            frameRate: 90
            entities:
              - id: panel
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [800, 600]
              - id: box
                kind: volume
                position: [0, 1, -2]
                size: [0.4, 0.2, 0.4]
                animation:
                  keyframes:
                    - {t: 0, position: [0, 1, -2]}
                    - {t: 1, position: [1, 1, -2]}
            """)
        #expect(replay.frameCount == 270)
        #expect(replay.entities.map(\.path) == ["panel", "box"])
        #expect(replay.entities.map(\.kind) == ["window", "volume"])
        #expect(replay.tracks[0].count == 1)
        #expect(replay.tracks[0].first?.frame == 0)
        #expect(replay.tracks[1] == [
            .init(frame: 0, values: [0, 1000, -2000, 0, 0, 0, 400, 200, 400]),
            .init(frame: 90, values: [1000, 1000, -2000, 0, 0, 0, 400, 200, 400]),
        ])
        #expect(replay.size(of: 1) == SIMD3(400, 200, 400))
        #expect(replay.head == [.init(frame: 0, values: [0, 1600, 0, 0, 0, 0])])
        #expect(replay.visibility == [[0...269], [0...269]])
        #expect(replay.immersion == [.init(frame: 0, style: "shared")])
        #expect(replay.boundary.isEmpty)
    }

    /// The recorder alone, on hand-made samples (1 unit = 1 mm or 0.1°).
    @Test func recorderKeepsOnlyTurningPoints() {
        var still = TrackRecorder()
        for f in 0..<1000 { still.append(frame: f, values: [5, 5]) }
        #expect(still.finish() == [.init(frame: 0, values: [5, 5])])

        // 0 → 300 over frames 0...30 (10 per frame), back to 0 by frame 60, then still.
        var tent = TrackRecorder()
        for f in 0...100 { tent.append(frame: f, values: [f <= 30 ? 10 * f : f <= 60 ? 300 - 10 * (f - 30) : 0]) }
        #expect(tent.finish().map(\.frame) == [0, 30, 60])
        #expect(tent.finish().map(\.values) == [[0], [300], [0]])

        // A yaw turning at 1° per frame through ±180° (1790, 1800, −1790 = 1810, ...) is one line.
        var turn = TrackRecorder(angles: [0])
        for f in 0...20 {
            var a = 1700 + 10 * f
            if a > 1800 { a -= 3600 }
            turn.append(frame: f, values: [a])
        }
        #expect(turn.finish() == [.init(frame: 0, values: [1700]), .init(frame: 20, values: [1900])])

        // A sample off the line by 2 units is kept; by 1 unit (rounding) is not.
        var bump = TrackRecorder()
        for (f, v) in [0, 10, 21, 30, 40].enumerated() { bump.append(frame: f, values: [v]) }
        #expect(bump.finish().map(\.frame) == [0, 4])
        var kink = TrackRecorder()
        for (f, v) in [0, 10, 22, 30, 40].enumerated() { kink.append(frame: f, values: [v]) }
        #expect(kink.finish().map(\.frame) == [0, 2, 4])
    }

    /// Worst severity per frame: a warning over 0...10 and an error over 5...7 on one entity.
    @Test func severityIntervalsKeepTheWorst() {
        func v(_ s: Severity, _ spans: [ClosedRange<Int>], _ entities: [String]) -> ReportViolation {
            ReportViolation(rule: "r", severity: s, entities: entities, spans: spans, frameCount: 0, firstTime: 0, lastTime: 0,
                            measured: 0, threshold: 0, unit: "", worstFrame: spans.first?.lowerBound ?? 0, message: "", help: "",
                            fingerprint: "", location: nil)
        }
        let r = ReplayData.severityIntervals(
            entityPaths: ["a", "b"],
            violations: [v(.warning, [0...10], ["a"]), v(.error, [5...7, 40...400], ["a", "b"]), v(.info, [3...4], [])],
            frameCount: 100)
        #expect(r.entities[0] == [.init(severity: .warning, frames: 0...4), .init(severity: .error, frames: 5...7),
                                  .init(severity: .warning, frames: 8...10), .init(severity: .error, frames: 40...99)])
        #expect(r.entities[1] == [.init(severity: .error, frames: 5...7), .init(severity: .error, frames: 40...99)])
        #expect(r.scene == [.init(severity: .info, frames: 3...4)])
    }

    static let sample = ReplayData(
        frameCount: 120, frameRate: 90, fieldOfView: SIMD2(60, 45),
        entities: [.init(path: "w</script><b>\"x\"", kind: "window", parent: nil), .init(path: "w/b", kind: "element", parent: 0)],
        tracks: [[.init(frame: 0, values: [1, -2, 3, 0, 0, 0, 800, 600, 0])],
                 [.init(frame: 0, values: [1, 2, 3, 4, 5, 6, 7, 8, 9]), .init(frame: 7, values: [-10, 20, -30, 3590, -5, 0, 7, 8, 9])]],
        visibility: [[0...119], [0...10, 20...119]],
        severities: [[], [.init(severity: .error, frames: 3...9), .init(severity: .info, frames: 11...12)]],
        sceneSeverities: [.init(severity: .warning, frames: 0...0)],
        head: [.init(frame: 0, values: [0, 1600, 0, 0, 0, 0]), .init(frame: 119, values: [500, 1600, -20, 900, -100, 0])],
        boundary: [.init(frame: 0, origin: SIMD3(0, 1600, 0)), .init(frame: 60, origin: nil)],
        immersion: [.init(frame: 0, style: "full"), .init(frame: 60, style: "mixed")])

    @Test func jsonRoundTripsAndIsDeterministic() throws {
        let json = Self.sample.json()
        #expect(json == Self.sample.json())
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8))
        #expect(ReplayData(json: parsed) == Self.sample)
        // Delta encoding, by hand: the element's second keyframe is 7 frames and (−11, 18, −33, 3586, −10, −6, 0, 0, 0) on.
        #expect(json.contains("[0,1,2,3,4,5,6,7,8,9,7,-11,18,-33,3586,-10,-6,0,0,0]"))
        // In the page: nothing in the data can close its script element.
        let section = ReplayHTML.section(Self.sample, sceneIndex: 3)
        #expect(section.components(separatedBy: "</script>").count == 2)
        #expect(section.contains("w\\u003c/script>\\u003cb>\\\"x\\\""))
        #expect(section.contains("data-scene-index=\"3\""))
        #expect(section.contains(" hidden>"))
    }

    /// Decoding never traps: malformed, inconsistent and out-of-range input gives nil, and random
    /// mutations of a valid object either decode or give nil.
    @Test func hostileJSONNeverCrashes() throws {
        let valid = try #require(try JSONSerialization.jsonObject(with: Data(Self.sample.json().utf8)) as? [String: Any])
        func with(_ key: String, _ value: Any) -> [String: Any] { var o = valid; o[key] = value; return o }
        let hostile: [Any] = [
            NSNull(), 1, "x", [1, 2], [String: Any](),
            with("v", 2), with("frames", -1), with("frames", 1e300), with("fps", 0), with("fps", "90"),
            with("fov", [1]), with("e", [["a", "window"]]), with("e", [["a", "window", 5], ["b", "element", 0]]),
            with("e", [["a", "window", -2], ["b", "element", 0]]), with("t", [[1, 2, 3]]),
            with("t", [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]]),
            with("t", [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [-5, 1, 2, 3, 4, 5, 6, 7, 8, 9]]),
            with("t", [[0, Int.max, 2, 3, 4, 5, 6, 7, 8, 9], []]),
            with("t", [[0, 999_999_999_999, 2, 3, 4, 5, 6, 7, 8, 9, 1, 999_999_999_999, 2, 3, 4, 5, 6, 7, 8, 9], []]),
            with("t", [[0, 1.5, 2, 3, 4, 5, 6, 7, 8, 9], []]),
            with("vis", [[5, 1], []]), with("vis", [[1], []]), with("sev", [[7, 1, 2], []]), with("sev", [[3, 5, 2], []]),
            with("ssev", "x"), with("head", [Int.min, 0, 0, 0, 0, 0, 0]), with("bo", [0, 2, 0, 0, 0]), with("bo", [0, 1, 0]),
            with("imm", [[0]]), with("imm", [["0", "full"]]),
        ]
        for h in hostile { #expect(ReplayData(json: h) == nil) }
        // Deterministic mutations (a linear congruential generator): replace a random leaf.
        var seed: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(max(n, 1)))
        }
        let junk: [Any] = [NSNull(), -1, 0, Int.max, Int.min, 1e308, -0.5, "", "\u{0}", [Any](), [String: Any](), true]
        func mutate(_ x: Any) -> Any {
            if var a = x as? [Any], !a.isEmpty {
                let i = next(a.count)
                switch next(4) {
                case 0: a.remove(at: i)
                case 1: a[i] = junk[next(junk.count)]
                default: a[i] = mutate(a[i])
                }
                return a
            }
            if var o = x as? [String: Any], !o.isEmpty {
                let keys = o.keys.sorted()
                let k = keys[next(keys.count)]
                o[k] = next(3) == 0 ? junk[next(junk.count)] : mutate(o[k] as Any)
                return o
            }
            return junk[next(junk.count)]
        }
        var decoded = 0
        for _ in 0..<2000 {
            let m = mutate(mutate(valid))
            if let r = ReplayData(json: m) {
                decoded += 1
                // What decodes re-encodes to JSON that decodes to the same data.
                let again = try JSONSerialization.jsonObject(with: Data(r.json().utf8))
                #expect(ReplayData(json: again) == r)
            }
        }
        #expect(decoded < 2000)
    }

    /// The size budget, measured: a 20 s scene (90 Hz, 1800 frames) with 200 entities — four
    /// windows of 30 buttons, 40 volumes each moving along a 5-point path and turning, 36 still
    /// volumes — and a viewer looking around: the replay (its section and the script) stays under
    /// 2 MB; so does the whole page once its static pictures are left out (what the page's own
    /// pictures weigh is the page's business, not the replay's).
    @Test func twentySecondsOfTwoHundredEntitiesFitTheBudget() throws {
        var yaml = "format: spatialscene/1\nplatform: visionOS\nimmersion: mixed\nduration: 20\nframeRate: 90\n"
        yaml += "viewer: {motion: look-around}\nentities:\n"
        for w in 0..<4 {
            yaml += "  - id: w\(w)\n    kind: window\n    placement: {distance: 2.5, azimuth: \(w * 40 - 60), elevation: 0}\n    size: [900, 600]\n    elements:\n"
            for b in 0..<30 {
                yaml += "      - {id: b\(b), role: button, frame: [\(20 + (b % 6) * 140), \(20 + (b / 6) * 110), 100, 80]}\n"
            }
        }
        for v in 0..<76 {
            let x = Double(v % 10) - 4.5, z = -3.0 - Double(v / 10)
            yaml += "  - id: v\(v)\n    kind: volume\n    position: [\(x), 1, \(z)]\n    size: [0.3, 0.3, 0.3]\n"
            if v < 40 {
                yaml += "    animation:\n      loop: true\n      keyframes:\n"
                for k in 0..<5 {
                    yaml += "        - {t: \(k * 2), position: [\(x + (k % 2 == 0 ? 0 : 0.5)), \(1 + 0.1 * Double(k)), \(z)], rotation: {yaw: \(k * 60)}}\n"
                }
            }
        }
        let dir = try TempTree("replay")
        defer { dir.remove() }
        let path = dir.file("big.scene.yaml", yaml)
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        options.replay = true
        let run = SpatialCheck.runValidation(paths: [path], options: options)
        let replay = try #require(run.snapshots.values.first?.replay)
        #expect(replay.entities.count == 200)
        #expect(replay.frameCount == 1800)
        let html = SpatialCheck.render(run, format: .html)
        let section = ReplayHTML.section(replay, sceneIndex: 0).utf8.count + ReplayHTML.script.utf8.count
        let data = replay.json().utf8.count
        var withoutPictures = run
        withoutPictures.snapshots = withoutPictures.snapshots.mapValues { s in var s = s; s.views = [:]; return s }
        let lean = SpatialCheck.render(withoutPictures, format: .html).utf8.count
        print("replay budget: 200 entities × 1800 frames: data \(data) bytes, section + script \(section) bytes, " +
              "page \(html.utf8.count) bytes, page without the violation views \(lean) bytes")
        #expect(section < 2_000_000)
        #expect(lean < 2_000_000)
    }

    /// `repeatLast` (the replay's shortcut for an entity whose box did not change) gives the
    /// keyframes `append` gives for the same input again: tracks with holds, moves at constant speed,
    /// jumps, turns through ±180° and gaps longer than `maxGap`, fed both ways.
    @Test func repeatLastKeepsTheKeyframesOfAppend() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for _ in 0..<200 {
            var plain = TrackRecorder(angles: [3, 4, 5], maxGap: 30)
            var shortcut = plain
            var values = [Int](repeating: 0, count: 9), previous: [Int]? = nil
            var velocity = [Int](repeating: 0, count: 9)
            var frame = 0
            for _ in 0..<400 {
                switch next(10) {
                case 0..<5: break                                     // hold
                case 5..<8: for i in 0..<9 { values[i] += velocity[i] }  // keep moving
                case 8: velocity = (0..<9).map { _ in next(7) - 3 }; for i in 0..<9 { values[i] += velocity[i] }
                default: values[next(9)] += next(2) == 0 ? 3590 : -1795  // a jump or a wrap
                }
                frame += next(20) == 0 ? 2 : 1
                plain.append(frame: frame, values: values)
                if previous == values, shortcut.repeatLast(frame: frame) {} else { shortcut.append(frame: frame, values: values) }
                previous = values
            }
            #expect(plain.finish() == shortcut.finish())
        }
    }

    /// `TrackRecorder` decides most `fits` checks from slope bounds kept per value; it keeps the
    /// keyframes of the recorder that checked every pending sample (kept here as the oracle), on
    /// tracks at constant speed (exact ±1 misses included), accelerating, jittering and turning.
    @Test func slopeBoundsKeepTheKeyframesOfTheSampleBySampleCheck() {
        struct Oracle {
            var keyframes: [ReplayData.Keyframe] = []
            var pending: [ReplayData.Keyframe] = []
            var holdUntil: Int?
            let angles: Set<Int>, maxGap: Int
            mutating func append(frame: Int, values input: [Int]) {
                var values = input
                if let prev = pending.last ?? keyframes.last, prev.values.count == values.count {
                    for i in angles where i < values.count {
                        var d = values[i] &- prev.values[i]
                        d = ((d % 3600) + 3600) % 3600
                        if d > 1800 { d -= 3600 }
                        values[i] = prev.values[i] &+ d
                    }
                }
                let sample = ReplayData.Keyframe(frame: frame, values: values)
                guard let key = keyframes.last, key.values.count == values.count else {
                    keyframes.append(sample); pending = []; holdUntil = nil; return
                }
                if values == key.values && frame > key.frame && pending.allSatisfy({ $0.values == key.values }) {
                    pending = []; holdUntil = frame; return
                }
                if let hold = holdUntil {
                    holdUntil = nil
                    if hold > key.frame { keyframes.append(.init(frame: hold, values: key.values)) }
                    if let last = keyframes.last, frame &- last.frame <= maxGap && frame > last.frame { pending = [sample] } else { keyframes.append(sample) }
                    return
                }
                if frame &- key.frame <= maxGap && fits(from: key, to: sample) {
                    pending.append(sample)
                } else if let prev = pending.last {
                    keyframes.append(prev)
                    pending = []
                    if fits(from: prev, to: sample) && frame &- prev.frame <= maxGap { pending = [sample] } else { keyframes.append(sample) }
                } else {
                    keyframes.append(sample)
                }
            }
            func finish() -> [ReplayData.Keyframe] {
                var out = keyframes
                if let last = pending.last, let key = out.last, pending.contains(where: { $0.values != key.values }) { out.append(last) }
                return out
            }
            func fits(from a: ReplayData.Keyframe, to b: ReplayData.Keyframe) -> Bool {
                let span = Double(b.frame) - Double(a.frame)
                guard span > 0 else { return false }
                for s in pending {
                    let t = (Double(s.frame) - Double(a.frame)) / span
                    for i in 0..<min(s.values.count, a.values.count, b.values.count) {
                        let v = Double(a.values[i]) + (Double(b.values[i]) - Double(a.values[i])) * t
                        if abs(v - Double(s.values[i])) > 1.0 { return false }
                    }
                }
                return true
            }
        }
        var seed: UInt64 = 0xDEAD_BEEF
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        for k in 0..<300 {
            let gap = [30, 120, 500][k % 3]
            var recorder = TrackRecorder(angles: [3, 4, 5], maxGap: gap)
            var oracle = Oracle(angles: [3, 4, 5], maxGap: gap)
            var position = (0..<9).map { _ in Double(next(2_000_000) - 1_000_000) }
            var velocity = (0..<9).map { _ in Double(next(2001) - 1000) / Double(1 + next(50)) }
            var frame = 0
            for _ in 0..<600 {
                switch next(12) {
                case 0: velocity = (0..<9).map { _ in Double(next(7) - 3) }           // integer speeds: exact ±1 misses
                case 1: velocity = (0..<9).map { _ in Double(next(2001) - 1000) / Double(1 + next(50)) }
                case 2: for i in 0..<9 { velocity[i] += Double(next(3) - 1) * 0.3 }    // accelerating
                case 3: position[next(9)] += Double(next(5) - 2)                       // jitter by a unit
                default: break
                }
                for i in 0..<9 { position[i] += velocity[i] }
                frame += next(15) == 0 ? 3 : 1
                let values = position.map { Int($0.rounded()) }
                recorder.append(frame: frame, values: values)
                oracle.append(frame: frame, values: values)
            }
            #expect(recorder.finish() == oracle.finish(), "track \(k)")
        }
    }

    /// `boxPose` with its axes one by one gives what the array form of the original gave, for boxes
    /// with 0, 1, 2 or 3 degenerate axes (kept here as the oracle).
    @Test func boxPoseMatchesTheArrayForm() {
        func oracle(_ c: Vec3, _ axes: [Vec3]) -> [Int]? {
            func dot(_ a: Vec3, _ b: Vec3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
            func cross(_ a: Vec3, _ b: Vec3) -> Vec3 { Vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }
            func normalize(_ a: Vec3) -> Vec3 { let l = dot(a, a).squareRoot(); return l > 1e-12 && l.isFinite ? a / l : Vec3(0, 0, 1) }
            guard c.x.isFinite, c.y.isFinite, c.z.isFinite, abs(c.x) < 1e6, abs(c.y) < 1e6, abs(c.z) < 1e6 else { return nil }
            let lengths = axes.map { ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() }
            guard lengths.allSatisfy({ $0.isFinite && $0 < 1e6 }) else { return nil }
            var cols: [Vec3?] = zip(axes, lengths).map { a, l in l > 1e-9 ? a / l : nil }
            switch cols.filter({ $0 != nil }).count {
            case 0: cols = [Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)]
            case 1:
                if let k = cols.firstIndex(where: { $0 != nil }), let a = cols[k] {
                    let helper = abs(a.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)
                    let b = normalize(cross(helper, a)), d = cross(a, b)
                    cols = k == 0 ? [a, b, d] : k == 1 ? [d, a, b] : [b, d, a]
                }
            case 2:
                if let y = cols[1], let z = cols[2], cols[0] == nil { cols[0] = cross(y, z) }
                if let z = cols[2], let x = cols[0], cols[1] == nil { cols[1] = cross(z, x) }
                if let x = cols[0], let y = cols[1], cols[2] == nil { cols[2] = cross(x, y) }
            default: break
            }
            guard let x0 = cols[0], let y0 = cols[1] else { return nil }
            let x = normalize(x0), y = normalize(y0 - x * dot(x, y0)), z = cross(x, y)
            return [mm(c.x), mm(c.y), mm(c.z)] + eulerYXZ(x, y, z) + lengths.map { mm(2 * $0) }
        }
        var seed: UInt64 = 12345
        func unit() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53) * 2 - 1
        }
        for k in 0..<5000 {
            let c = Vec3(unit() * 10, unit() * 10, unit() * 10)
            var axes = (0..<3).map { _ in Vec3(unit(), unit(), unit()) * (unit() + 1.5) }
            for i in 0..<3 where (k >> i) & 1 == 1 && k % 5 != 0 { axes[i] = .zero }
            if k % 97 == 0 { axes[k % 3] = Vec3(.infinity, 0, 0) }
            let new = boxPose(center: c, axes[0], axes[1], axes[2])
            #expect(new == oracle(c, axes), "box \(k)")
        }
    }

    /// The HTML report records the replay in the snapshot's simulation run: the same data as a
    /// run of its own, for still, moving, turning, hidden and shown entities.
    @Test func snapshotRunRecordsTheSameReplay() throws {
        let dir = try TempTree("replay")
        defer { dir.remove() }
        let path = dir.path("s.scene.yaml")
        try """
            format: spatialscene/1
            platform: visionOS
            immersion: shared
            duration: 4
            frameRate: 90
            viewer:
              path:
                - {t: 0, position: [0, 1.6, 0], rotation: {yaw: 0, pitch: 0}}
                - {t: 4, position: [0.5, 1.6, -0.3], rotation: {yaw: 170, pitch: 10}}
            entities:
              - id: panel
                kind: window
                placement: {distance: 2, azimuth: 0, elevation: 0}
                size: [800, 600]
                elements:
                  - {id: b, role: button, frame: [10, 10, 60, 60]}
              - id: box
                kind: volume
                position: [0, 1, -2]
                size: [0.4, 0.2, 0.4]
                animation:
                  loop: true
                  keyframes:
                    - {t: 0, position: [0, 1, -2]}
                    - {t: 1.5, position: [1, 1.2, -2], rotation: {yaw: 179}}
                    - {t: 2, position: [1, 1.2, -2], rotation: {yaw: -179}}
              - {id: flat, kind: text, height: 0.05, string: L, position: [0.3, 1.5, -1]}
            events:
              - {t: 1, action: hide, entity: panel}
              - {t: 2.5, action: show, entity: panel}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try SpatialCheck.loadScene(path: path)
        let own = SpatialCheck.captureReplay(scene: scene, violations: [])
        let shared = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [10],
                                                  replayOf: []).replay
        #expect(shared == own)
        // The moving box has keyframes beyond its first; the still text has one.
        let box = try #require(own.entities.firstIndex { $0.path == "box" })
        let text = try #require(own.entities.firstIndex { $0.path == "flat" })
        #expect(own.tracks[box].count > 2)
        #expect(own.tracks[text].count == 1)
        // A check that stopped after frame 40 is captured through frame 40: the path, the series
        // and the replay cover the frames checked.
        let stopped = SpatialCheck.captureSnapshot(scene: scene, options: SimulationOptions(), frames: [10],
                                                   series: [.init(quantity: "distance", entity: 0)], replayOf: [], through: 40)
        #expect(stopped.pathFrames.first == 0 && stopped.pathFrames.last == 40)
        #expect(stopped.series.first?.frames.last == 40)
        #expect(stopped.views[10] != nil)
        let part = try #require(stopped.replay)
        #expect(part.frameCount == 41 && own.frameCount == 360)
        #expect(part.tracks[box].count >= 2 && part.tracks[box].allSatisfy { $0.frame <= 40 })
        // The events keep their frames in the whole run (t = 1 s and 2.5 s: frames 90 and 225).
        #expect(stopped.events.map(\.frame) == [90, 225])
    }

    @Test("a replay stops recording at its limit and covers the frames before it")
    func recordingStopsAtItsLimit() throws {
        // A text hidden at every odd frame and shown at every even one: 10 Hz for 10 s.
        var yaml = "format: spatialscene/1\nname: Blink\nframeRate: 10\nduration: 10\nentities:\n"
        yaml += "  - {id: t, kind: text, string: L, fontSize: 40, position: [0, 1.5, -2]}\nevents:\n"
        for k in 1..<100 { yaml += "  - {t: \(Double(k) / 10), action: \(k % 2 == 1 ? "hide" : "show"), entity: t}\n" }
        let whole = try capture(yaml)
        #expect(whole.frameCount == 100)
        #expect(whole.visibility.first == stride(from: 0, to: 100, by: 2).map { $0...$0 })
        // Frame 0 records the text's keyframe (1 + 9 numbers) and the head's (1 + 6): 17; every
        // odd frame closes a visible run (+2), so the count passes 30 at frame 13 (17 + 7 × 2 = 31)
        // and the replay covers frames 0–13.
        let cut = try capture(yaml, maxValues: 30)
        #expect(cut.frameCount == 14)
        #expect(cut.visibility.first == stride(from: 0, to: 14, by: 2).map { $0...$0 })
        #expect(cut.tracks.first?.count == 1 && cut.head.count == 1)
        // valueCount also counts the immersion style set at frame 0 ([frame, style]: 2).
        #expect(cut.valueCount == 31 + 2)
    }

    @Test("past its limits a page draws the later scenes without pictures or replay, and says so")
    func pageBoundsPicturesAndReplays() throws {
        let dir = try TempTree("replay")
        defer { dir.remove() }
        let scene = """
            format: spatialscene/1
            entities:
              - id: w
                kind: window
                placement: {distance: 1.5, azimuth: 0, elevation: 0}
                size: [400, 200]
                elements:
                  - {id: a, role: button, frame: [40, 40, 44, 44]}
                  - {id: b, role: button, frame: [88, 40, 44, 44]}
            """
        let paths = ["a", "b"].map { dir.file("\($0).scene.yaml", scene) }
        var options = SpatialCheck.ValidateOptions()
        options.format = .html
        let v = SpatialCheck.runValidation(paths: paths, options: options)
        let whole = v.report.html(snapshots: v.snapshots)
        #expect(whole.components(separatedBy: "class=\"replay-data\"").count == 3)
        #expect(whole.components(separatedBy: "<figure class=\"plan\">").count == 3)
        // Limits of one byte: the first scene fills them, the second is drawn without.
        let bounded = v.report.html(snapshots: v.snapshots, pictureBytes: 1, replayBytes: 1)
        #expect(bounded.components(separatedBy: "class=\"replay-data\"").count == 2)
        #expect(bounded.components(separatedBy: "<figure class=\"plan\">").count == 2)
        #expect(bounded.contains("3D replay left out: this page&#39;s replays have reached its limit of 1 bytes; check fewer scenes per page to see it."))
        #expect(bounded.contains("No pictures for this scene: this page's scenes with pictures have reached its limit of 1 bytes;"))
        // Both scenes keep all their findings.
        #expect(bounded.components(separatedBy: "<article class=\"vcard").count == whole.components(separatedBy: "<article class=\"vcard").count)
    }

    private func capture(_ yaml: String, maxValues: Int = ReplayData.recordingLimit) throws -> ReplayData {
        let dir = try TempTree("replay")
        defer { dir.remove() }
        let scene = try SpatialCheck.loadScene(path: dir.file("s.scene.yaml", yaml))
        return SpatialCheck.captureReplay(scene: scene, violations: [], maxValues: maxValues)
    }
}
