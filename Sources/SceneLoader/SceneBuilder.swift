import Foundation
import SpatialModel
import AssetImport

private enum FileKind: String, CaseIterable {
    case window, volume, model, text, environment, group
    var entityKind: EntityKind {
        switch self {
        case .window: .window
        case .volume: .volume
        case .model: .model
        case .text: .text
        case .environment: .environment
        case .group: .group
        }
    }
}

private enum Facing: String, CaseIterable { case viewer, none }
/// `assetAxes`: `auto` applies the axis system the file declares (FBX `GlobalSettings`), `none`
/// applies none, `zUp` reads the file as +Z up, −Y front (CAD, 3ds Max, Blender scenes).
private enum AxesName: String, CaseIterable { case auto, none, zUp }
private enum EventAction: String, CaseIterable { case setImmersion, recenter, show, hide, trackingState, planeDetected, planeLost, referenceImages }
private enum UnitName: String, CaseIterable {
    case meters, centimeters, millimeters, inches, feet
    var metres: Double {
        switch self {
        case .meters: 1
        case .centimeters: 0.01
        case .millimeters: 0.001
        case .inches: 0.0254
        case .feet: 0.3048
        }
    }
    /// Abbreviations and other spellings, suggested (not accepted) when one is given.
    static let aliases: [String: UnitName] = [
        "m": .meters, "meter": .meters, "metre": .meters, "metres": .meters,
        "cm": .centimeters, "centimeter": .centimeters, "centimetre": .centimeters, "centimetres": .centimeters,
        "mm": .millimeters, "millimeter": .millimeters, "millimetre": .millimeters, "millimetres": .millimeters,
        "in": .inches, "inch": .inches, "\"": .inches,
        "ft": .feet, "foot": .feet, "'": .feet,
    ]
}

private let commonKeys = SceneKeys.common
private let kindKeys: [FileKind: [String]] = Dictionary(uniqueKeysWithValues: FileKind.allCases.map { kind in
    (kind, SceneKeys.byKind.first { $0.kind == kind.entityKind }?.keys ?? [])
})
private let allowedKeys: [FileKind: [String]] = Dictionary(uniqueKeysWithValues: FileKind.allCases.map {
    ($0, commonKeys + (kindKeys[$0] ?? []))
})
/// For each kind, keys that belong to other kinds, with an explanation.
private let elsewhereKeys: [FileKind: [String: String]] = Dictionary(uniqueKeysWithValues: FileKind.allCases.map { kind in
    let allowed = commonKeys + (kindKeys[kind] ?? [])
    var elsewhere: [String: String] = [:]
    for k in FileKind.allCases where k != kind {
        for key in kindKeys[k] ?? [] where !allowed.contains(key) {
            let kinds = FileKind.allCases.filter { (kindKeys[$0] ?? []).contains(key) }.map(\.rawValue)
            elsewhere[key] = "applies to \(kinds.joined(separator: ", ")) entities, not \(kind.rawValue)"
        }
    }
    return (kind, elsewhere)
})
private let topKeys = SceneKeys.top
private let elementKeys = SceneKeys.element
/// Keys of entities that elements do not take, with what to do instead.
private let elementElsewhereKeys = ["position": "is not used for elements; place them with 'frame' in points",
                                    "kind": "is not used for elements; use 'role'",
                                    "anchor": "is not used for elements; they follow their container's anchor"]

/// The ids claimed among siblings (elements and children of one entity, or the top-level
/// entities) and where: as a dictionary would keep them (the first use stays), in a list scanned
/// with `==` while there are at most 16 (cheaper than hashing each id), in a table above.
struct SiblingIds {
    private var list: [(id: String, loc: SourceLocation)] = []
    private var table: [String: SourceLocation]?
    static let listLimit = 16

    init(capacity: Int = 0) {
        if capacity > Self.listLimit {
            var t: [String: SourceLocation] = [:]
            t.reserveCapacity(capacity)
            table = t
        } else if capacity > 0 {
            list.reserveCapacity(capacity)
        }
    }

    /// Claims `id` at `loc`; the location of the sibling that has it already (which keeps it), else nil.
    mutating func claim(_ id: String, _ loc: SourceLocation) -> SourceLocation? {
        if table != nil {
            guard let prev = table?.updateValue(loc, forKey: id) else { return nil }
            table?.updateValue(prev, forKey: id)
            return prev
        }
        for entry in list where entry.id == id { return entry.loc }
        if list.count < Self.listLimit {
            list.append((id, loc))
            return nil
        }
        var t = [String: SourceLocation](minimumCapacity: 2 * Self.listLimit)
        for entry in list { t[entry.id] = entry.loc }
        t[id] = loc
        table = t
        list = []
        return nil
    }
}

/// The frame an entity is built in: its parent's node, or (for a root) its anchor frame.
private struct ParentInfo {
    var node: Int
    var entity: Int
    var world: Mat4
    var worldRot: Quat
    var anchor: Anchor
    var path: String
}

private struct Attachment {
    var asset: ImportedAsset
    /// Asset node index → scene node index.
    var map: [Int: Int]
}

final class SceneBuilder {
    let path: String
    let baseDirectory: String
    /// True while building a bare asset (`buildBareAsset`): the asset is the scene's own file.
    var isBareAsset = false
    let options: LoadOptions
    let importer: AssetImporting
    let r: Reader

    // The tables every element appends to and reads back (and `paths` below): no access to one
    // overlaps another (the builder is single-threaded, and the one table passed inout, an entry
    // of `entities` to `fillElement`, is not read during that call), so the runtime's dynamic
    // exclusivity checks (an access-set insert and removal per access: ≈ 18 M instructions for
    // the 1 MB crowded scene) are left out.
    @exclusivity(unchecked) var nodes: [Node] = []
    @exclusivity(unchecked) var world: [Mat4] = []
    var nodeVertices: [Int: [Float]] = [:]
    @exclusivity(unchecked) var entities: [Entity] = []
    private var animations: [Animation] = []
    @exclusivity(unchecked) var paths = PathTable()
    var units = Units()
    private var viewer = Viewer()
    /// iOS `device`, and whether `units.pointAngle` was stated (then the device does not set it).
    private var device: Device?
    private var pointAngleGiven = false
    private var viewerFieldOfViewGiven = false
    var eye0 = Vec3(0, 1.6, 0)
    var q0 = Quat.identity
    private var yaw0 = 0.0
    private var entityCount = 0
    private var limitReported = false
    private var totalTriangles = 0
    private var totalVertices = 0
    private var vertexLimitReported = false
    private var nodeNameIndex: [String: [String: Int]] = [:]
    private var triangleLimitReported = false
    private var assetCache: [String: (Result<ImportedAsset, Diagnostic>, display: String)] = [:]
    /// Seconds this scene's imports have taken (`LoadOptions.importBudget`), and the slowest one.
    private var importSeconds = 0.0
    private var slowestImport: (display: String, seconds: Double)?
    /// Entities with a derived value out of range (`checkDerivedRange`), reported once.
    fileprivate var rangeReported = Set<Int>()
    /// Where a shrinking scale (a component below 1) was written, for the world scale's lower
    /// bound (`checkWorldScaleFloor`): an entity's `scale` value by entity, and the smallest of a
    /// node's keyframe scales (its value and where) by node.
    fileprivate var shrinkingScaleLocs: [Int: SourceLocation] = [:]
    fileprivate var shrinkingKeyScales: [Int: (value: Double, loc: SourceLocation)] = [:]
    /// The `annotations` of the model or environment being built, applied when its asset attaches.
    var pendingAnnotations: [NodeAnnotation] = []
    /// Per asset (its resolved path) refused by `checkAssetPath`: its one error in `r.diagnostics`,
    /// and the lines of the other entities that use it (the first 10) and how many there are, so 65
    /// pieces of one board that share a refused model give one error, not 65.
    private var refusedAssets: [String: (diagnostic: Int, lines: [Int], count: Int)] = [:]
    /// Folder → its entry names by lowercased name (`caseVariants`).
    private var folderNames: [String: [String: [String]]] = [:]

    /// Where assets and the files they reference must be (`SceneLoader.confinementRoot`, real path);
    /// nil with `allowExternalAssets`.
    private var confinementRoot: String?

    init(path: String, baseDirectory: String, options: LoadOptions, importer: AssetImporting) {
        self.path = path; self.baseDirectory = baseDirectory; self.options = options; self.importer = importer
        self.r = Reader(file: path)
        if options.allowExternalAssets {
            confinementRoot = nil
        } else if let explicit = options.confinementRoot {
            confinementRoot = ProjectRoot.canonical(ProjectRoot.absolute(explicit))
        } else {
            let base = Self.resolve(".", base: baseDirectory)
            confinementRoot = ProjectRoot.find(for: base, fallback: base)
        }
    }

    // MARK: - Scene

    func build(root: YNode) throws(LoadFailure) -> Scene {
        guard let top = r.mapping(root, "the top level of a scene file") else { throw failure() }
        top.checkKeys(topKeys, in: "the scene's top level", reader: r)

        if let f = top["format"] {
            let s = r.string(f, "'format'")
            if let s, s != "spatialscene/1" {
                r.error(f.loc, "unsupported scene format '\(quoted(s))'; supported formats: 'spatialscene/1'",
                        hint: s.hasPrefix("spatialscene/") ? "this version of spatialcheck reads spatialscene/1 only" : nil)
                throw failure()
            }
        } else {
            r.error(top.loc, "the scene is missing 'format'; supported formats: 'spatialscene/1'",
                    hint: "add 'format: spatialscene/1' at the top of the file")
        }
        let name = top["name"].flatMap { r.string($0, "'name'") }
        let platform = top["platform"].flatMap { r.enumValue($0, "'platform'", Platform.self) } ?? .visionOS
        let immersion = top["immersion"].flatMap { r.enumValue($0, "'immersion'", ImmersionStyle.self) } ?? .shared
        var frameRate = top["frameRate"].flatMap {
            r.number($0, "'frameRate'", rule: "greater than 0 and at most \(Reader.format(Limits.maxFrameRate)) Hz") { $0 > 0 && $0 <= Limits.maxFrameRate }
        } ?? platform.defaultFrameRate
        var duration = top["duration"].flatMap { r.positive($0, "'duration'") }
        if let o = options.frameRate {
            if o.isFinite, o > 0, o <= Limits.maxFrameRate { frameRate = o } else {
                r.error(nil, "the frame rate override must be greater than 0 and at most \(Reader.format(Limits.maxFrameRate)) Hz, found \(o)")
            }
        }
        if let o = options.duration {
            if o.isFinite, o > 0 { duration = o } else { r.error(nil, "the duration override must be greater than 0, found \(o)") }
        }
        parseUnits(top["units"])
        parseDevice(top["device"], platform: platform)
        parseViewer(top["viewer"])
        var settings = top["settings"].map(parseSettings) ?? SystemSettings()
        if options.settings.reduceMotion { settings.reduceMotion = true }
        if options.settings.dimFlashingLights { settings.dimFlashingLights = true }
        // On iOS the viewer sees what the device's camera shows.
        if let d = device, !viewerFieldOfViewGiven { viewer.fieldOfView = d.fieldOfView }

        var topIds = Self.siblingIds(for: top["entities"])
        if let list = top["entities"], case let .sequence(items) = list.kind {
            // The tables grow to about this size; allocated once, they are not copied on the way.
            let estimate = min(Self.entityEstimate(items, depth: 0), Limits.maxEntities)
            entities.reserveCapacity(estimate)
            nodes.reserveCapacity(estimate)
            world.reserveCapacity(estimate)
            paths.reserveCapacity(estimate)
        }
        if let list = top["entities"].flatMap({ r.list($0, "'entities'") }) {
            for item in list { entity(item, parent: nil, siblings: &topIds) }
        }
        let events = top["events"].map(parseEvents) ?? []
        finish()

        let d = duration ?? defaultDuration(frameRate: frameRate, events: events)
        checkFrames(duration: d, frameRate: frameRate, durationLoc: top["duration"]?.loc, durationGiven: duration != nil)
        if duration == nil { noteLoopsCutShort(duration: d, frameRate: frameRate, bareAsset: false) }
        if entities.isEmpty, top["entities"].map({ if case .sequence = $0.kind { true } else { false } }) ?? true {
            r.warning(top["entities"]?.loc ?? top.loc, "the scene has no entities; only the viewer is simulated and no content rule can fail",
                      hint: "add entities under 'entities:'; an empty scene is reported as checked, not as clean content")
        }
        if r.hasErrors { throw failure() }
        var scene = Scene(path: path, name: name, platform: platform, immersion: immersion, frameRate: frameRate,
                          duration: d, units: units, viewer: viewer, nodes: nodes, entities: entities,
                          animations: animations, events: events, warnings: r.warnings)
        scene.settings = settings
        scene.device = device
        return scene
    }

    /// `device` (iOS): a preset `model` or a `screen` in points, `orientation`, and the camera's
    /// horizontal `fieldOfView`. It sets the point angle (unless `units.pointAngle` or an override
    /// gives one) and the viewer's field of view (unless `viewer.fieldOfView` gives one).
    private func parseDevice(_ n: YNode?, platform: Platform) {
        guard let n, let m = r.mapping(n, "'device'") else { return }
        m.checkKeys(SceneKeys.device, in: "'device'", reader: r)
        if platform != .iOS {
            r.warning(m.loc, "'device' describes an iPhone or iPad and is used only when 'platform' is iOS",
                      hint: "add 'platform: iOS', or remove 'device'")
            return
        }
        var screen: SIMD2<Double>?
        var model: String?
        if let mn = m["model"], let name = r.string(mn, "'device.model'") {
            if let p = Device.preset(named: name) { screen = p; model = name } else {
                let names = Device.presets.map(\.name)
                let guess = r.suggest(name, in: names)
                r.error(mn.loc, "'device.model' '\(quoted(name))' is not a known device; known models: \(Reader.quoteList(names))",
                        hint: guess.map { "did you mean '\($0)'?" } ?? "give the screen size instead: screen: [width, height] in points")
            }
        }
        if let sn = m["screen"], let v = r.numbers(sn, count: 2, "'device.screen'", shape: "[width, height] in points") {
            if v.allSatisfy({ $0 >= 100 && $0 <= 4000 }) { screen = SIMD2(v[0], v[1]) } else {
                r.error(sn.loc, "'device.screen' sides must be between 100 and 4000 points, found [\(v.map(Reader.format).joined(separator: ", "))]",
                        hint: "an iPhone is about 390 × 844 pt, an iPad about 820 × 1180 pt")
            }
        }
        let orientation = m["orientation"].flatMap { r.enumValue($0, "'device.orientation'", DeviceOrientation.self) } ?? .portrait
        var fov: Double?
        if let fn = m["fieldOfView"] {
            fov = r.number(fn, "'device.fieldOfView' (horizontal, degrees)", rule: "greater than 0 and less than 180") { $0 > 0 && $0 < 180 }
        }
        guard let screen else {
            if !m.has("model") && !m.has("screen") {
                r.error(m.loc, "'device' needs a 'model' or a 'screen'", hint: "for example model: iPhone 15, or screen: [393, 852]")
            }
            return
        }
        let d = Device(model: model, screenPortrait: screen, orientation: orientation, horizontalFieldOfView: fov)
        device = d
        if !pointAngleGiven && options.pointAngle == nil {
            guard Units.acceptsPointAngle(d.pointAngle) else {
                // Only an extreme 'fieldOfView' (the screen is 100–4000 pt wide) gets here.
                r.error(m["fieldOfView"]?.loc ?? m.loc,
                        "the point angle of 'device' (\(Reader.format(d.screen.x)) pt wide, a \(String(format: "%.6g", d.fieldOfView.x))° field of view) is \(String(format: "%.3g", d.pointAngle))°; it must be \(Units.pointAngleRangeText)",
                        hint: "remove 'fieldOfView' to use the one derived from the screen (the wide camera's view, aspect-filled), or give a real camera's horizontal angle")
                return
            }
            // Fixed-scale content keeps its metres per point (a length, not a view angle).
            units = Units(pointAngle: d.pointAngle, fixedPointSize: units.fixedPointSize)
        }
    }

    func buildBareAsset() throws(LoadFailure) -> Scene {
        isBareAsset = true
        applyUnitOverrides(pointAngle: nil, fixed: nil, loc: nil)
        let file = (path as NSString).lastPathComponent
        let id = Self.sanitise((file as NSString).deletingPathExtension)
        let resolved = Self.resolve(path, base: baseDirectory)
        // The bare asset itself is named on the command line (trusted); what it references is
        // confined to its own project root.
        let root = options.allowExternalAssets ? nil
            : options.confinementRoot.map { ProjectRoot.canonical(ProjectRoot.absolute($0)) }
                ?? AssetReferencePolicy.projectRoot(for: resolved)
        confinementRoot = root
        guard let asset = importAsset(display: path, resolved: resolved, loc: nil) else { throw failure() }
        let restTRS = Transform.identity
        let nodeIdx = appendNode(name: id, parent: nil, restTRS: restTRS, geometry: .empty, anchor: .world, entity: 0)
        var e = Entity(id: id, path: id, kind: .model, node: nodeIdx, location: SourceLocation(line: 1, column: 1))
        e.metresPerPoint = units.fixedPointSize
        entities.append(e)
        paths.updateValue(nil, forKey: id)
        _ = attach(asset: asset, display: path, resolved: resolved, selectNode: nil, selectLoc: nil,
                   override: nil, entIdx: 0, nodeIdx: nodeIdx, anchor: .world, path: id, loc: nil)
        nodes[nodeIdx].subtreeEnd = nodes.count
        finish()
        // Where the content stands decides the placement rules' verdicts: say how it was placed
        // (an RCP scene authored for a volume sits at the viewer's feet here).
        r.warning(nil, "bare asset: its content stands where the file puts it around the world origin, the default viewer standing at the origin (eye \(Reader.format(viewer.eyeHeight)) m up, looking along −Z) as in an immersive space, and field-of-view, eye-level and reach findings judge it from there; to check it as a window or volume shows it, validate a scene file that places it (docs/scene-format.md, \"Models and units\")")
        var frameRate = Platform.visionOS.defaultFrameRate
        if let o = options.frameRate, o.isFinite, o > 0, o <= Limits.maxFrameRate { frameRate = o }
        var duration = defaultDuration(frameRate: frameRate, events: [])
        if let o = options.duration, o.isFinite, o > 0 { duration = o }
        checkFrames(duration: duration, frameRate: frameRate, durationLoc: nil, durationGiven: options.duration != nil)
        if options.duration == nil { noteLoopsCutShort(duration: duration, frameRate: frameRate, bareAsset: true) }
        if r.hasErrors { throw failure() }
        return Scene(path: path, name: nil, platform: .visionOS, immersion: .shared, frameRate: frameRate,
                     duration: duration, units: units, viewer: viewer, nodes: nodes, entities: entities,
                     animations: animations, events: [], warnings: r.warnings)
    }

    /// The simulation steps every frame; ceil(duration × rate) above `Limits.maxFrames` is an error
    /// (at the key that caused it) rather than hours of work or an overflow.
    private func checkFrames(duration: Double, frameRate: Double, durationLoc: SourceLocation?, durationGiven: Bool) {
        let frames = (duration * frameRate - 1e-9).rounded(.up)
        guard !(frames.isFinite && frames <= Double(Limits.maxFrames)) else { return }
        let count = frames.isFinite && frames < 1e15 ? String(Int(frames)) : "too many"
        let source = durationGiven ? "duration" : "the default duration (the end of the viewer path, animations and events)"
        r.error(options.duration == nil && durationGiven ? durationLoc : nil,
                "the scene needs \(count) frames (\(source) \(Reader.format(duration)) s × \(Reader.format(frameRate)) Hz); the limit is \(Limits.maxFrames) frames",
                hint: options.duration != nil
                    ? "simulate less: pass a shorter --duration (at most \(Reader.format((Double(Limits.maxFrames) / frameRate * 1000).rounded(.down) / 1000)) s at \(Reader.format(frameRate)) Hz) or a lower --frame-rate HZ"
                    : "simulate less: pass --duration SECONDS and/or a lower --frame-rate HZ, or set 'duration'/'frameRate' in the scene")
    }

    /// Errors one scene file lists; one more error counts the rest (trial s34 F2: 440,000 errors in
    /// a 9.9 MB file made a 258 MB SARIF report).
    static let maxListedErrors = 1_000

    private func failure() -> LoadFailure {
        noteRefusedAssetUses()
        var sorted = r.diagnostics.enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?): return x != y ? x < y : a.offset < b.offset
            }
        }.map(\.element)
        let rest = sorted.count - Self.maxListedErrors
        if rest > 0 {
            let first = sorted[Self.maxListedErrors].location
            sorted.removeLast(rest)
            sorted.append(Diagnostic(file: r.file, location: first,
                                     message: "\(rest) more error\(rest == 1 ? "" : "s") in this file not listed (only the first \(Self.maxListedErrors) are)",
                                     hint: "fix the errors listed above, then check the file again to see the rest"))
        }
        return LoadFailure(sorted)
    }

    // MARK: - Units and viewer

    private func parseUnits(_ n: YNode?) {
        var pa: Double?
        var fixed: Double?
        var paLoc: SourceLocation?
        if let n, let m = r.mapping(n, "'units'") {
            m.checkKeys(["pointAngle", "fixedPointSize"], in: "'units'", reader: r)
            if let v = m["pointAngle"] {
                paLoc = v.loc
                pointAngleGiven = true
                if let a = r.number(v, "'units.pointAngle' (degrees per point)") {
                    if Units.acceptsPointAngle(a) { pa = a } else {
                        r.error(v.loc, "'units.pointAngle' must be \(Units.pointAngleRangeText), found \(Reader.format(a))",
                                hint: Units.pointAngleHint + "; remove 'pointAngle' for visionOS, or give the iOS 'device'")
                    }
                }
            }
            if let v = m["fixedPointSize"], let f = r.number(v, "'units.fixedPointSize' (metres per point)") {
                if Units.acceptsFixedPointSize(f) { fixed = f } else {
                    r.error(v.loc, "'units.fixedPointSize' must be \(Units.fixedPointSizeRangeText), found \(Reader.format(f))",
                            hint: "the default is one point at 1 m, 0.00117 m at visionOS's 0.0671°: remove 'fixedPointSize' to use it")
                }
            }
        }
        applyUnitOverrides(pointAngle: pa, fixed: fixed, loc: paLoc)
    }

    private func applyUnitOverrides(pointAngle: Double?, fixed: Double?, loc: SourceLocation?) {
        var pa = pointAngle ?? Units.defaultPointAngle
        if let o = options.pointAngle {
            if Units.acceptsPointAngle(o) { pa = o } else {
                r.error(nil, "the pointAngle override must be \(Units.pointAngleRangeText), found \(o)")
            }
        }
        units = Units(pointAngle: pa, fixedPointSize: fixed)
    }

    private func parseViewer(_ n: YNode?) {
        guard let n else { return }
        guard let m = r.mapping(n, "'viewer'") else { return }
        m.checkKeys(SceneKeys.viewer, in: "'viewer'", reader: r)
        let posture = m["posture"].flatMap { r.enumValue($0, "'viewer.posture'", Posture.self) } ?? .standing
        let eye = m["eyeHeight"].flatMap { r.positive($0, "'viewer.eyeHeight'") } ?? posture.eyeHeight
        let ipd = m["ipd"].flatMap { r.positive($0, "'viewer.ipd'") } ?? 0.063
        var fov = SIMD2<Double>(90, 70)
        if let f = m["fieldOfView"],
           let v = r.numbers(f, count: 2, "'viewer.fieldOfView'", shape: "[horizontal, vertical] in degrees") {
            viewerFieldOfViewGiven = true
            if v.allSatisfy({ $0 > 0 && $0 <= 180 }) { fov = SIMD2(v[0], v[1]) } else {
                r.error(f.loc, "'viewer.fieldOfView' angles must be greater than 0 and at most 180 degrees, found [\(v.map(Reader.format).joined(separator: ", "))]")
            }
        }
        let motion = m["motion"].flatMap { r.enumValue($0, "'viewer.motion'", MotionPreset.self) } ?? MotionPreset.none
        var keys: [ViewerKey] = []
        if let p = m["path"] {
            guard let k = pathKeys(p, label: "viewer.path", start: (Vec3(0, eye, 0), .identity)) else { return }
            keys = k
        }
        var hand: [ViewerKey]?
        if let hn = m["hand"], let hm = r.mapping(hn, "'viewer.hand' ({position, rotation} or {path})") {
            hm.checkKeys(["position", "rotation", "quaternion", "path"], in: "'viewer.hand'", reader: r)
            let pose = posture.defaultHandPose
            var start = (pose.position, pose.rotation)
            if let pn = hm["position"], let v = r.vec3(pn, "'position' of 'viewer.hand' (metres from the eye, in the head frame)") { start.0 = v }
            if let q = orientation(hm, "'viewer.hand'").quat { start.1 = q }
            if let p = hm["path"] {
                if hm.has("position") || hm.has("rotation") || hm.has("quaternion") {
                    r.error(hm.keyLoc("path"), "'viewer.hand' gives both a pose and a 'path'; give the pose as the path's first key",
                            hint: "a key that omits 'position' or 'rotation' keeps the previous key's (the first: the posture's default hand pose)")
                } else if let k = pathKeys(p, label: "viewer.hand.path", start: start) {
                    hand = k
                }
            } else {
                hand = [ViewerKey(time: 0, position: start.0, rotation: start.1)]
            }
        }
        if keys.count == 1, let p = m["path"] {
            r.warning(p.loc, "'viewer.path' has one key: the viewer holds that pose for the whole scene",
                      hint: "add a second key to move the viewer; the default duration is then one frame unless 'duration' is set")
        }
        viewer = Viewer(posture: posture, eyeHeight: eye, ipd: ipd, fieldOfView: fov,
                        path: keys.isEmpty ? nil : keys, motion: motion, location: m.loc, hand: hand)
        if let first = viewer.path.first {
            eye0 = first.position
            q0 = first.rotation
            let f = q0.act(Vec3(0, 0, -1))
            yaw0 = (f.x * f.x + f.z * f.z) > 1e-18 ? degrees(atan2(-f.x, -f.z)) : 0
        }
    }

    /// Keyframes `{t, position, rotation | quaternion}` of `viewer.path` or `viewer.hand.path`: times
    /// strictly increasing; a key that omits `position` or `rotation` keeps the previous key's
    /// (the first key: `start`). Nil when there are more keys than the limit (reported).
    private func pathKeys(_ p: YNode, label: String, start: (Vec3, Quat)) -> [ViewerKey]? {
        guard let items = r.list(p, "'\(label)'") else { return [] }
        if items.count > Limits.maxKeyframes {
            r.error(p.loc, "'\(label)' has \(items.count) keys; the limit is \(Limits.maxKeyframes)",
                    hint: "resample the path; keys are interpolated linearly")
            return nil
        }
        let keyName = label == "viewer.path" ? "viewer path" : "hand path"
        var keys: [ViewerKey] = []
        var (pos, rot) = start
        var lastT: Double?
        var turns = WrittenTurns()
        for item in items {
            guard let k = r.mapping(item, "a '\(label)' key") else { continue }
            k.checkKeys(["t", "position", "rotation", "quaternion"], in: "a '\(label)' key", reader: r)
            guard let tn = k.require("t", in: "a '\(label)' key", reader: r),
                  let t = r.nonNegative(tn, "'t' of a \(keyName) key") else { continue }
            if let lastT, t <= lastT {
                r.error(tn.loc, "\(keyName) times must be strictly increasing: t = \(Reader.format(t)) follows t = \(Reader.format(lastT))")
                continue
            }
            lastT = t
            if let pn = k["position"], let v = r.vec3(pn, "'position' of a \(keyName) key") { pos = v }
            let o = orientationWithAngles(k, "a \(keyName) key")
            turns.check(o, at: k, time: t, what: "'\(label)'", keepsPrevious: true, reader: r)
            if let q = o.quat { rot = q }
            keys.append(ViewerKey(time: t, position: pos, rotation: rot))
        }
        return keys
    }

    // MARK: - Shared parsers

    /// `rotation: {yaw, pitch, roll}` or `quaternion: [x, y, z, w]`; `given` when either key is present.
    private func orientation(_ m: YMap, _ what: String) -> (quat: Quat?, given: Bool) {
        let o = orientationWithAngles(m, what)
        return (o.quat, o.given)
    }

    /// `orientation`, with the angles as written when given as `rotation: {yaw, pitch, roll}`.
    private func orientationWithAngles(_ m: YMap, _ what: String) -> (quat: Quat?, given: Bool, angles: SIMD3<Double>?) {
        let hasR = m.has("rotation"), hasQ = m.has("quaternion")
        if hasR && hasQ {
            r.error(m.keyLoc("quaternion"), "\(what) gives both 'rotation' and 'quaternion'; give one of them")
            return (nil, true, nil)
        }
        if let rn = m["rotation"] {
            guard let rm = r.mapping(rn, "'rotation' of \(what) ({yaw, pitch, roll} in degrees)") else { return (nil, true, nil) }
            rm.checkKeys(["yaw", "pitch", "roll"], in: "'rotation'", reader: r)
            var ok = true
            func angle(_ k: String) -> Double {
                guard let v = rm[k] else { return 0 }
                guard let d = r.number(v, "'\(k)' of 'rotation'", expected: "an angle in degrees") else { ok = false; return 0 }
                return d
            }
            let a = SIMD3(angle("yaw"), angle("pitch"), angle("roll"))
            let q = Quat(yaw: a.x, pitch: a.y, roll: a.z)
            return (ok ? q : nil, true, ok ? a : nil)
        }
        if let qn = m["quaternion"] {
            guard let v = r.numbers(qn, count: 4, "'quaternion' of \(what)", shape: "[x, y, z, w]") else { return (nil, true, nil) }
            let q = Quat(x: v[0], y: v[1], z: v[2], w: v[3])
            let len2 = q.lengthSquared
            guard len2.isFinite, len2 > 1e-24 else {
                r.error(qn.loc, "'quaternion' of \(what) has zero (or out-of-range) length; a rotation needs a non-zero quaternion",
                        hint: "the identity is [0, 0, 0, 1]")
                return (nil, true, nil)
            }
            return (q.normalized, true, nil)
        }
        return (nil, false, nil)
    }

    private func parseScale(_ n: YNode, _ what: String) -> Vec3? {
        if case .scalar = n.kind {
            guard let d = r.number(n, "'scale' of \(what)", rule: "greater than 0", { $0 > 0 }) else { return nil }
            return Vec3(repeating: d)
        }
        guard let v = r.numbers(n, count: 3, "'scale' of \(what)", shape: "a number or [x, y, z]") else { return nil }
        guard v.allSatisfy({ $0 > 0 }) else {
            r.error(n.loc, "'scale' of \(what) must be greater than 0 on every axis, found [\(v.map(Reader.format).joined(separator: ", "))]")
            return nil
        }
        return Vec3(v[0], v[1], v[2])
    }

    static func isValidId(_ s: String) -> Bool {
        // All-ASCII ids by their bytes (an ASCII byte is an ASCII scalar); others as below.
        if let ascii = s.utf8.withContiguousStorageIfAvailable({ bytes -> Bool? in
            for b in bytes {
                if b >= 0x80 { return nil }
                guard (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
                        || b == 0x2D || b == 0x5F || b == 0x2E else { return false }
            }
            return !bytes.isEmpty
        }), let ascii {
            return ascii
        }
        return !s.isEmpty && s.unicodeScalars.allSatisfy {
            // ASCII first (the Unicode property lookup is the slow part): the alphabetic ASCII
            // scalars are exactly A-Z and a-z.
            if $0.isASCII {
                let v = $0.value
                return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39)
                    || v == 0x2D || v == 0x5F || v == 0x2E
            }
            return $0.properties.isAlphabetic
        }
    }

    static func sanitise(_ s: String) -> String {
        let out = String(String.UnicodeScalarView(s.unicodeScalars.map {
            ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_"
        }))
        return out.isEmpty ? "asset" : out
    }

    private func parseId(_ m: YMap, _ what: String) -> (String, SourceLocation)? {
        parseId(m, m.index(of: "id") ?? -1, what)
    }

    /// `parseId` with the index of the `id` pair (-1: none).
    private func parseId(_ m: YMap, _ index: Int, _ what: String) -> (String, SourceLocation)? {
        guard let n = m.require(index, "id", in: what, reader: r) else { return nil }
        guard let raw = r.string(n, "'id' of \(what)") else { return nil }
        let s = Self.canonicalId(raw)
        guard Self.isValidId(s) else {
            if let mark = s.unicodeScalars.first(where: { $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark || $0.properties.generalCategory == .enclosingMark }) {
                let hex = String(mark.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                r.error(n.loc, "'id' '\(quoted(s))' has a combining mark (\(code)) that does not join the letter before it into one letter; ids may contain only letters (of any script), the digits 0-9, '-', '_' and '.'",
                        hint: "type the accented letter as one character (an accent that composes, as in 'é', is accepted either way), or leave the mark out")
                return nil
            }
            r.error(n.loc, "'id' '\(quoted(s))' may contain only letters (of any script), the digits 0-9, '-', '_' and '.'",
                    hint: "ids are joined with '/' into paths like 'player/controls/play'")
            return nil
        }
        return (s, n.loc)
    }

    /// An id in Unicode's composed form (NFC): a letter typed with a combining accent (NFD, as
    /// macOS file tools write it: "A" + U+0301) is the same id as the precomposed letter ("Á"), so
    /// both are accepted and every path, fingerprint and baseline holds the one form (trial s19
    /// F8e). ASCII ids, all but a few, are returned as they are without a look at Unicode tables.
    static func canonicalId(_ s: String) -> String {
        s.utf8.allSatisfy({ $0 < 0x80 }) ? s : s.precomposedStringWithCanonicalMapping
    }

    /// An entity's or element's path over `Limits.maxEntityPath` bytes is an error, reported
    /// once per subtree (at the outermost entity whose path is too long: its parent's is not).
    func checkPathLength(_ path: String, parentPath: String?, at loc: SourceLocation?, kind: String, id: String) {
        let limit = Limits.maxEntityPath
        guard path.utf8.count > limit, (parentPath?.utf8.count ?? 0) <= limit else { return }
        r.error(loc, "the path of \(kind) '\(quoted(id))' is \(path.utf8.count) bytes long (its id and its parents' ids joined with '/'); the limit is \(limit)",
                hint: "use shorter ids or nest less deeply: every report names entities by their paths")
    }

    /// Claims `id` among its siblings and `path` in the scene: the first use keeps both (each
    /// table is hashed once on the usual path: insert, and put the first use back on a duplicate).
    /// `entry`: where the entity or element itself is (an alias's line when it is one).
    private func claim(id: String, loc: SourceLocation, entry: SourceLocation, siblings: inout SiblingIds, path: String) {
        if let prev = siblings.claim(id, loc) {
            if prev == loc && entry != loc {
                // The same `id` value twice: an alias (`*name`) repeated an anchored entry, id and
                // all (trial s19 F8c: "a sibling at 5:13 … (5:13 and 5:13)").
                r.error(entry, "duplicate id '\(id)': this entry is an alias of the one whose id is at \(prev), so it has the same id",
                        hint: "ids must be unique among siblings; the path '\(path)' would name both (\(prev) and \(entry)); "
                            + "write the repeated entry out with its own id instead of an alias")
                return
            }
            r.error(loc, "duplicate id '\(id)': a sibling at \(prev) already uses it",
                    hint: "ids must be unique among siblings; the path '\(path)' would name both (\(prev) and \(loc))")
            return
        }
        if let prev = paths.updateValue(loc, forKey: path) {
            paths.updateValue(prev, forKey: path)
            r.error(loc, "duplicate path '\(path)'" + (prev.map { ": already used at \($0)" } ?? ""))
            return
        }
    }

    // MARK: - Nodes

    func anchorFrame(_ a: Anchor) -> (Mat4, Quat) {
        switch a {
        case .world: return (.identity, .identity)
        case .head: return (Transform(translation: eye0, rotation: q0).matrix, q0)
        case .hand:
            // The hand's pose at t = 0, in the head frame (viewer.hand or the posture's default).
            let head = Transform(translation: eye0, rotation: q0).matrix
            let h = viewer.hand.first ?? ViewerKey(time: 0, position: viewer.posture.defaultHandPose.position,
                                                   rotation: viewer.posture.defaultHandPose.rotation)
            let hr = h.rotation.isFinite ? h.rotation.normalized : .identity
            return (head * Transform(translation: h.position, rotation: hr).matrix, (q0 * hr).normalized)
        }
    }

    @discardableResult
    func appendNode(name: String, parent: Int?, restTRS: Transform, rest: Mat4? = nil, geometry: AABB,
                            anchor: Anchor, entity: Int?) -> Int {
        let m = rest ?? Self.matrix(restTRS)
        let idx = nodes.count
        nodes.append(Node(name: name, parent: parent, subtreeEnd: idx + 1, rest: m, restTRS: restTRS,
                          geometry: geometry, anchor: anchor, entity: entity))
        let parentWorld = parent.map { world[$0] } ?? anchorFrame(anchor).0
        world.append(Self.product(parentWorld, m))
        return idx
    }

    /// `t.matrix` (kept as the name the builder and its tests use; `Mat4` stores its values
    /// inline, so the model's own arithmetic allocates nothing).
    static func matrix(_ t: Transform) -> Mat4 { t.matrix }

    /// `a * b`, the same sums in the same order, written out.
    static func product(_ a: Mat4, _ b: Mat4) -> Mat4 {
        let pa = a.values, pb = b.values
        @inline(__always) func e(_ row: Int, _ c: Int) -> Double {
            var s = 0.0
            for k in 0..<4 { s += pa[k * 4 + row] * pb[c * 4 + k] }
            return s
        }
        return Mat4(values: SIMD16(e(0, 0), e(1, 0), e(2, 0), e(3, 0), e(0, 1), e(1, 1), e(2, 1), e(3, 1),
                                   e(0, 2), e(1, 2), e(2, 2), e(3, 2), e(0, 3), e(1, 3), e(2, 3), e(3, 3)))
    }

    private static func box(_ w: Double, _ h: Double, _ d: Double) -> AABB {
        AABB(min: Vec3(-w / 2, -h / 2, -d / 2), max: Vec3(w / 2, h / 2, d / 2))
    }

    // MARK: - Entities

    /// Once per scene, at the first entity or element past the limit (the scene is not checked).
    private func entityLimitReached(at loc: SourceLocation) {
        guard !limitReported else { return }
        limitReported = true
        r.error(loc, "the scene has more than \(Limits.maxEntities) entities and elements (this is number \(Limits.maxEntities + 1)), so it is not checked",
                hint: "split it into scenes of at most \(Limits.maxEntities) (each file is checked on its own), or leave out content no rule needs")
    }

    private func entity(_ n: YNode, parent: ParentInfo?, siblings: inout SiblingIds) {
        entityCount += 1
        if entityCount > Limits.maxEntities {
            entityLimitReached(at: n.loc)
            return
        }
        guard let m = r.mapping(n, parent == nil ? "an entry of 'entities'" : "an entry of 'children'") else { return }
        var kind: FileKind?
        if let kn = m.require("kind", in: "an entity", reader: r,
                              hint: "kind is one of " + Reader.quoteList(FileKind.allCases.map(\.rawValue))) {
            kind = r.enumValue(kn, "'kind' of an entity", FileKind.self, hints: Self.kindHints)
        }
        let idInfo = parseId(m, "an entity")
        let id = idInfo?.0 ?? "entity\(entities.count)"
        let what = "\(kind?.rawValue ?? "entity") '\(id)'"
        // Keys.
        if let kind {
            m.checkKeys(allowedKeys[kind] ?? commonKeys, in: what, reader: r, elsewhere: elsewhereKeys[kind] ?? [:],
                        hints: kind == .model || kind == .environment ? Self.assetFactHints : [:])
        } else {
            let all = commonKeys + Set(kindKeys.values.flatMap { $0 }).sorted()
            m.checkKeys(all, in: what, reader: r)
        }
        let path = parent.map { Self.joinedPath($0.path, id) } ?? id
        checkPathLength(path, parentPath: parent?.path, at: idInfo?.1 ?? n.loc, kind: kind?.rawValue ?? "entity", id: id)
        if let (id, loc) = idInfo { claim(id: id, loc: loc, entry: n.loc, siblings: &siblings, path: path) }

        // Anchor.
        var anchor = parent?.anchor ?? .world
        if let an = m["anchor"] {
            if parent != nil {
                r.error(m.keyLoc("anchor"), "'anchor' is only for top-level entities; children follow their parent's anchor")
            } else if let a = r.enumValue(an, "'anchor' of \(what)", Anchor.self) {
                anchor = a
            }
        }
        // Position / placement.
        var local = Vec3.zero
        var placed = false
        var placementFacing: Facing?
        if let pn = m["position"], let v = r.vec3(pn, "'position' of \(what)") { local = v }
        if let pl = m["placement"] {
            if parent != nil {
                r.error(m.keyLoc("placement"), "'placement' is only for top-level entities; \(what) is a child",
                        hint: "use 'position' relative to the parent")
            } else if m.has("position") {
                r.error(m.keyLoc("placement"), "\(what) gives both 'position' and 'placement'; give one of them")
            } else if let pm = r.mapping(pl, "'placement' of \(what) ({distance, azimuth, elevation, facing})") {
                pm.checkKeys(SceneKeys.placement, in: "'placement'", reader: r)
                placed = true
                if let fn = pm["facing"] {
                    if m.has("facing") {
                        r.error(pm.keyLoc("facing"), "\(what) gives 'facing' both in 'placement' and on the entity; give it once",
                                hint: "either place is accepted: 'placement: {…, facing: viewer}' or 'facing: viewer' beside 'placement'")
                    } else {
                        placementFacing = r.enumValue(fn, "'facing' of \(what)", Facing.self)
                    }
                }
                let d = pm.require("distance", in: "'placement' of \(what)", reader: r)
                    .flatMap { r.positive($0, "'distance' of 'placement'") }
                let az = pm["azimuth"].flatMap { r.number($0, "'azimuth' of 'placement'", expected: "an angle in degrees") } ?? 0
                let el = pm["elevation"].flatMap { r.number($0, "'elevation' of 'placement'", expected: "an angle in degrees") } ?? 0
                if let d {
                    let a = radians(az), e = radians(el)
                    let dir = Quat(yaw: yaw0, pitch: 0, roll: 0).act(Vec3(sin(a) * cos(e), sin(e), -cos(a) * cos(e)))
                    let pw = eye0 + dir * d
                    let (frame, rot) = anchorFrame(anchor)
                    local = rot.conjugate.act(pw - frame.translation)
                }
            }
        }
        // Nothing places a top-level window or volume in the world: it stands at the origin, on the
        // floor at the viewer's feet, where no app puts one. (Head-anchored at the eye, a window
        // is an error below; hand-anchored content at the hand is where it belongs.)
        if parent == nil, kind == .window || kind == .volume, anchor == .world, !m.has("position"), !m.has("placement") {
            r.warning(n.loc, "\(what) has neither 'position' nor 'placement', so it stands at [0, 0, 0] of the world, on the floor at the viewer's feet"
                        + "; give 'placement: {distance: 1.5}' to open it straight ahead at eye level, as visionOS does")
        }
        let orient = orientation(m, what)
        let facingParsed = m["facing"].flatMap { r.enumValue($0, "'facing' of \(what)", Facing.self) } ?? placementFacing
        let scaleNode = m["scale"]
        let scale = scaleNode.flatMap { parseScale($0, what) } ?? .one
        if let sn = scaleNode, Swift.min(scale.x, scale.y, scale.z) < 1 { shrinkingScaleLocs[entities.count] = sn.loc }
        let interactive = m["interactive"].flatMap { r.bool($0, "'interactive' of \(what)") }
        let primary = m["primary"].flatMap { r.bool($0, "'primary' of \(what)") }
        let visible = m["visible"].flatMap { r.bool($0, "'visible' of \(what)") }

        let (aFrame, aRot) = anchorFrame(anchor)
        let parentWorld = parent?.world ?? aFrame
        let parentRot = parent?.worldRot ?? aRot
        let pWorld = parentWorld.transformPoint(local)
        // Top-level entities placed with `placement` (any kind: visionOS places volumes facing the
        // person too), and top-level windows and text, face the viewer unless they give a rotation.
        // Hand-anchored content is held in the hand frame, which already faces the eye.
        let defaultFacing: Facing = parent == nil && anchor != .hand && (placed || kind == .window || kind == .text) && !orient.given ? .viewer : .none
        var rotPrefix = Quat.identity
        if (facingParsed ?? defaultFacing) == .viewer {
            if parent == nil && anchor == .head {
                // Head-anchored content lives in the head frame, with the eye at its origin: it
                // turns about the head's up axis there, so it stays square to the line of sight
                // however the head (an iPhone's camera) is pitched or rolled at t = 0, as screen
                // space does, instead of standing upright in the world.
                let yaw = local.x * local.x + local.z * local.z > 1e-18 ? degrees(atan2(-local.x, -local.z)) : 0
                rotPrefix = Quat(yaw: yaw, pitch: 0, roll: 0)
            } else {
                let dx = eye0.x - pWorld.x, dz = eye0.z - pWorld.z
                let yaw = dx * dx + dz * dz > 1e-18 ? degrees(atan2(dx, dz)) : 0
                rotPrefix = (parentRot.conjugate * Quat(yaw: yaw, pitch: 0, roll: 0)).normalized
            }
        }
        let localRot = (rotPrefix * (orient.quat ?? .identity)).normalized
        let restTRS = Transform(translation: local, rotation: localRot, scale: scale)
        let entIdx = entities.count
        let nodeIdx = appendNode(name: id, parent: parent?.node, restTRS: restTRS, geometry: .empty,
                                 anchor: anchor, entity: entIdx)
        let nodeWorld = world[nodeIdx]
        let worldRot = (parentRot * localRot).normalized
        var e = Entity(id: id, path: path, kind: kind?.entityKind ?? .group, node: nodeIdx, location: m.loc)
        e.parent = parent?.entity
        e.interactive = interactive ?? false
        e.primary = primary ?? false
        e.visible = visible ?? true
        e.anchor = anchor
        e.scaleMode = .fixed
        e.metresPerPoint = units.fixedPointSize
        let d0 = length(nodeWorld.translation - eye0)
        e.placementDistance = d0
        if interactive != nil { e.factSources.interactive = .annotation }
        if m.has("anchor") { e.factSources.anchor = .annotation }
        e.media = m["media"].flatMap { parseMedia($0, what: what) }
        e.representsRealObject = m["representsRealObject"].flatMap { r.bool($0, "'representsRealObject' of \(what)") }
        e.userScalable = m["userScalable"].flatMap { r.bool($0, "'userScalable' of \(what)") }
        if let pn = m["presentation"] {
            if let p = parent, entities[p.entity].kind == .window || entities[p.entity].kind == .volume {
                e.presentation = r.enumValue(pn, "'presentation' of \(what)", Presentation.self,
                                             aliases: ["contextmenu": .menu, "pulldown": .menu, "pulldownmenu": .menu,
                                                       "dialog": .alert, "confirmationdialog": .alert, "actionsheet": .sheet])
            } else {
                r.error(m.keyLoc("presentation"), "'presentation' is only for a window nested directly in a window or volume (not through a group); \(what) is not",
                        hint: "nest the sheet, alert, popover or menu in the window that opens it (children:), or remove 'presentation'")
            }
        }
        // Placement mode (top-level, world-anchored): stated, or by default absolute for content
        // given a world `position` and head-relative for content given `placement` and for windows
        // and volumes (visionOS places those relative to the head whatever the scene's coordinates).
        if let pmn = m["placementMode"] {
            if parent != nil {
                r.error(m.keyLoc("placementMode"), "'placementMode' is only for top-level entities; \(what) is a child",
                        hint: "children move with their parent; set 'placementMode' on the top-level entity")
            } else if anchor != .world {
                r.error(m.keyLoc("placementMode"), "'placementMode' is only for world-anchored entities; \(what) is \(anchor.rawValue)-anchored",
                        hint: "head- and hand-anchored content follows the person already; remove 'placementMode'")
            } else {
                e.placementMode = r.enumValue(pmn, "'placementMode' of \(what)", PlacementMode.self)
            }
        } else if parent == nil && anchor == .world {
            e.placementMode = placed || kind == .window || kind == .volume ? .headRelative : .absolute
        }
        parseAppearance(m, &e, what: what)
        entities.append(consume e)
        if !nodeWorld.isFinite {
            r.error(m.loc, "\(what) ends up at a non-finite position (its numbers are too large)")
        }
        // Content of a window's scene shares its metres per point and scale mode instead of being
        // scaled from its own distance: an ornament (a window nested directly in a window or
        // volume, docs/scene-format.md "Ornaments"; an ornament of an ornament so follows the top
        // window) and text in points nested directly in a window (SwiftUI text in its scene).
        let scaleOf: Int? = parent.flatMap { p in
            let pk = entities[p.entity].kind
            let ornament = kind == .window && (pk == .window || pk == .volume)
            return ornament || (kind == .text && m.has("fontSize") && pk == .window) ? p.entity : nil
        }
        let dynamic = scaleOf == nil && ((kind == .window && (m["scaleMode"] == nil || Self.scalarText(m["scaleMode"]) == "dynamic"))
            || (kind == .volume && Self.scalarText(m["scaleMode"]) == "dynamic")
            || (kind == .text && m.has("fontSize")))
        if dynamic && d0 < 1e-6 {
            r.error(m.loc, "\(what) is dynamic-scale but sits at the viewer's eye (d0 = 0), so it has no size",
                    hint: "move it away from the eye or use a fixed scale")
        }

        var childIds = Self.siblingIds(for: m["elements"], m["children"])
        var attachment: Attachment?
        switch kind {
        case .window:
            var size = SIMD2<Double>(1280, 720)
            if let sn = m["size"], let v = r.numbers(sn, count: 2, "'size' of a window", shape: "[width, height] in points") {
                if v[0] > 0, v[1] > 0 { size = SIMD2(v[0], v[1]) } else {
                    r.error(sn.loc, "'size' of a window must be greater than 0 in both dimensions, found [\(Reader.format(v[0])), \(Reader.format(v[1]))]")
                }
            }
            let given = m["scaleMode"].flatMap { r.enumValue($0, "'scaleMode' of \(what)", ScaleMode.self) }
            let mode: ScaleMode, s: Double
            if let o = scaleOf {
                (mode, s) = (entities[o].scaleMode, entities[o].metresPerPoint)
                if given != nil {
                    r.warning(m.keyLoc("scaleMode"),
                              "'scaleMode' of \(what) is ignored: an ornament (a window nested in a window or volume) shares the scale of \(entities[o].kind.rawValue) '\(quoted(entities[o].path))' (\(mode.rawValue))",
                              hint: "remove 'scaleMode' here; set it on the \(entities[o].kind.rawValue) the ornament belongs to")
                }
            } else {
                mode = given ?? .dynamic
                s = mode == .dynamic ? units.dynamicPointSize(atDistance: d0) : units.fixedPointSize
            }
            if let sn = m["size"], min(size.x, size.y) < Self.minWindowPoints {
                warnSizeUnits(loc: sn.loc, what: what, size: [size.x, size.y], metresPerPoint: s, volume: false)
            }
            nodes[nodeIdx].geometry = Self.box(size.x * s, size.y * s, 0)
            entities[entIdx].scaleMode = mode
            entities[entIdx].metresPerPoint = s
            entities[entIdx].sizePt = size
            if let en = m["elements"] {
                elements(en, container: entIdx, containerNode: nodeIdx, W: size.x, H: size.y, s: s, z: 0, mode: mode,
                         anchor: anchor, path: path, siblings: &childIds)
            }
        case .volume:
            var size: Vec3?
            if let sn = m.require("size", in: what, reader: r, hint: "a volume needs 'size: [width, height, depth]' in metres"),
               let v = r.vec3(sn, "'size' of a volume", shape: "[width, height, depth] in metres") {
                if v.x > 0, v.y > 0, v.z > 0 { size = v } else {
                    r.error(sn.loc, "'size' of a volume must be greater than 0 in every dimension")
                }
            }
            let mode = m["scaleMode"].flatMap { r.enumValue($0, "'scaleMode' of \(what)", ScaleMode.self) } ?? .fixed
            let s = mode == .dynamic ? units.dynamicPointSize(atDistance: d0) : units.fixedPointSize
            entities[entIdx].scaleMode = mode
            entities[entIdx].metresPerPoint = s
            if let size {
                if max(size.x, size.y, size.z) > Self.maxVolumeMetres, let sn = m["size"] {
                    warnSizeUnits(loc: sn.loc, what: what, size: [size.x, size.y, size.z], metresPerPoint: s, volume: true)
                }
                nodes[nodeIdx].geometry = Self.box(size.x, size.y, size.z)
                entities[entIdx].sizeMetres = size
                let face = SIMD2(size.x / s, size.y / s)
                entities[entIdx].sizePt = face
                if let en = m["elements"] {
                    elements(en, container: entIdx, containerNode: nodeIdx, W: face.x, H: face.y, s: s, z: size.z / 2,
                             mode: mode, anchor: anchor, path: path, siblings: &childIds)
                }
            }
        case .text:
            let fs = m["fontSize"].flatMap { r.positive($0, "'fontSize' of \(what) (points)") }
            let h = m["height"].flatMap { r.positive($0, "'height' of \(what) (metres)") }
            let str = m.require("string", in: what, reader: r).flatMap { r.string($0, "'string' of \(what)") }
            var em: Double?
            if m.has("fontSize") && m.has("height") {
                r.error(m.keyLoc("height"), "\(what) gives both 'fontSize' (points, dynamic) and 'height' (metres, fixed); give one of them")
            } else if !m.has("fontSize") && !m.has("height") {
                r.error(m.loc, "\(what) needs 'fontSize' in points (dynamic scale) or 'height' in metres (fixed scale)")
            } else if let fs {
                let (mode, s) = scaleOf.map { (entities[$0].scaleMode, entities[$0].metresPerPoint) }
                    ?? (.dynamic, units.dynamicPointSize(atDistance: d0))
                em = fs * s
                entities[entIdx].scaleMode = mode
                entities[entIdx].metresPerPoint = s
                entities[entIdx].fontSize = fs
            } else if let h {
                em = h
                // Inside a dynamic-scale volume, everything scales with the volume: text sized in
                // metres too, which then keeps the angular size it has where it opens (as text in
                // points does), not its metres.
                var c = parent?.entity, steps = 0
                while let k = c, k >= 0, k < entities.count, entities[k].kind != .volume, entities[k].kind != .window, steps < entities.count {
                    c = entities[k].parent; steps += 1
                }
                let s = units.dynamicPointSize(atDistance: d0)
                if let k = c, k >= 0, k < entities.count, entities[k].kind == .volume, entities[k].scaleMode == .dynamic, s > 0, s.isFinite {
                    entities[entIdx].scaleMode = .dynamic
                    entities[entIdx].metresPerPoint = s
                    entities[entIdx].fontSize = h / s
                } else {
                    entities[entIdx].scaleMode = .fixed
                    entities[entIdx].metresPerPoint = units.fixedPointSize
                }
            }
            entities[entIdx].string = str
            if let em {
                entities[entIdx].textHeight = em
                let chars = Double(max(1, str?.count ?? 1))
                nodes[nodeIdx].geometry = Self.box(chars * 0.55 * em, em, 0)
            }
        case .model, .environment:
            if kind == .environment {
                entities[entIdx].groundPlane = m["groundPlane"].flatMap { r.bool($0, "'groundPlane' of \(what)") }
                // Any two finite numbers load; whether the range is valid is the rule
                // immersion-range-valid's verdict, reported with the rest of the scene's findings.
                if let rn = m["range"], let v = r.numbers(rn, count: 2, "'range' of \(what)", shape: "[min, max] in degrees") {
                    entities[entIdx].immersionRange = v
                }
            }
            var assetNode: YNode?
            if kind == .model {
                assetNode = m.require("asset", in: what, reader: r, hint: "a model needs 'asset: path/to/file.glb' (relative to the scene file)")
            } else {
                assetNode = m["asset"]
            }
            if assetNode == nil {
                if kind == .environment {
                    for k in ["assetUnits", "assetAxes", "node", "annotations"] where m.has(k) {
                        r.error(m.keyLoc(k), "'\(k)' needs an 'asset' on \(what)")
                    }
                }
            }
            var override: (Double, String)?
            if let un = m["assetUnits"] { override = parseAssetUnits(un, what) }
            let axes = m["assetAxes"].flatMap { r.enumValue($0, "'assetAxes' of \(what)", AxesName.self) }
            var selectName: String?
            var selectLoc: SourceLocation?
            if let nn = m["node"] { selectName = r.string(nn, "'node' of \(what)"); selectLoc = nn.loc }
            pendingAnnotations = m["annotations"].map { parseAnnotations($0, what: what) } ?? []
            if let an = assetNode, let ap = r.string(an, "'asset' of \(what)"), checkAssetPath(ap, loc: an.loc) {
                let resolved = Self.resolve(ap, base: baseDirectory)
                if let asset = importAsset(display: ap, resolved: resolved, loc: an.loc) {
                    if !(m.has("assetUnits") && override == nil) && !(m.has("node") && selectName == nil)
                        && !(m.has("assetAxes") && axes == nil) {
                        attachment = attach(asset: asset, display: ap, resolved: resolved, selectNode: selectName,
                                            selectLoc: selectLoc, override: override, axes: axes ?? .auto,
                                            entIdx: entIdx, nodeIdx: nodeIdx, anchor: anchor, path: path, loc: m.loc)
                    }
                }
            }
        case .group, nil:
            break
        }

        if let cn = m["children"], let items = r.list(cn, "'children' of \(what)") {
            let info = ParentInfo(node: nodeIdx, entity: entIdx, world: nodeWorld, worldRot: worldRot,
                                  anchor: anchor, path: path)
            for item in items { entity(item, parent: info, siblings: &childIds) }
        }
        nodes[nodeIdx].subtreeEnd = nodes.count
        if kind == .group { entities[entIdx].geometryNodes = nodeIdx..<nodes.count }
        if let an = m["animation"] {
            animation(an, entIdx: entIdx, nodeIdx: nodeIdx, rotPrefix: rotPrefix, attachment: attachment, what: what)
        }
    }

    /// A window `size` under this many points in a dimension was probably given in metres.
    static let minWindowPoints = 10.0
    /// A volume `size` over this many metres in a dimension was probably given in points.
    static let maxVolumeMetres = 20.0

    /// Warns that a window's size (points) or a volume's size (metres) looks like it is in the other
    /// unit, with what the numbers would be in the right one at this entity's metres per point.
    private func warnSizeUnits(loc: SourceLocation, what: String, size: [Double], metresPerPoint s: Double, volume: Bool) {
        let hint = "a window is sized in points ('size: [width, height]'); a volume in metres ('size: [width, height, depth]')"
        let given = "[" + size.map(Reader.format).joined(separator: ", ") + "]"
        func list(_ v: [Double], _ f: (Double) -> String) -> String { "[" + v.map(f).joined(separator: ", ") + "]" }
        let scale = s > 0 && s.isFinite ? String(format: "%.3g mm per pt", s * 1000) : nil
        if volume {
            let largest = size.max() ?? 0
            var message = "\(what) has size \(given): volume sizes are in metres, and \(Self.metres(largest)) is larger than a room"
                + " — did you mean points? use a window, or metres"
            if let scale {
                message += " (\(given) pt is about \(list(size.map { $0 * s }) { $0 >= 100 ? Reader.format($0.rounded()) : String(format: "%.3g", $0) }) m at this volume's \(scale))"
            }
            r.warning(loc, message, hint: hint)
        } else {
            let smallest = size.min() ?? 0
            var message = "\(what) has size \(given): window sizes are in points, and \(Reader.format(smallest)) pt is smaller than any readable text"
                + " — did you mean metres? give the size in points"
            if let scale {
                message += " (\(given) m is about \(list(size.map { $0 / s }) { Reader.format($0.rounded()) }) pt at this window's \(scale))"
            }
            r.warning(loc, message, hint: hint)
        }
    }

    /// The sibling-id table for the items of these lists, with room for them (each list counted
    /// up to `Limits.maxEntities`), so it is allocated once instead of growing.
    private static func siblingIds(for lists: YNode?...) -> SiblingIds {
        var count = 0
        for case let n? in lists {
            if case let .sequence(items) = n.kind { count += min(items.count, Limits.maxEntities) }
        }
        return SiblingIds(capacity: count)
    }

    /// About how many entities and elements `items` (a list of entities) declares: its mappings,
    /// their elements and, recursively, their children; stops counting at `Limits.maxEntities`.
    static func entityEstimate(_ items: [YNode], depth: Int) -> Int {
        var n = 0
        for item in items {
            guard case let .mapping(pairs) = item.kind else { continue }
            n += 1
            for p in pairs {
                if p.keyEquals(ascii: "elements", length: 8), case let .sequence(e) = p.value.kind {
                    n += e.count
                } else if p.keyEquals(ascii: "children", length: 8), depth < Limits.maxDepth,
                          case let .sequence(c) = p.value.kind {
                    n += entityEstimate(c, depth: depth + 1)
                }
            }
            if n >= Limits.maxEntities { return n }
        }
        return n
    }

    private static func scalarText(_ n: YNode?) -> String? {
        if let n, case let .scalar(s) = n.kind { return s.text }
        return nil
    }

    private func parseAssetUnits(_ n: YNode, _ what: String) -> (Double, String)? {
        if case let .scalar(s) = n.kind, s.type == .number {
            guard let d = r.positive(n, "'assetUnits' of \(what) (metres per file unit)") else { return nil }
            return (d, "assetUnits: \(Reader.format(d)) m per unit")
        }
        guard let u = r.enumValue(n, "'assetUnits' of \(what)", UnitName.self, aliases: UnitName.aliases) else { return nil }
        return (u.metres, "assetUnits: \(u.rawValue)")
    }

    // MARK: - Elements

    private func elements(_ n: YNode, container: Int, containerNode: Int, W: Double, H: Double, s: Double, z: Double,
                          mode: ScaleMode, anchor: Anchor, path: String, siblings: inout SiblingIds) {
        // What the messages call the container and each element, built only for a message.
        let containerKind = entities[container].kind.rawValue, containerId = entities[container].id
        guard let items = r.list(n, "'elements' of \(Self.what(containerKind, containerId))") else { return }
        for item in items {
            entityCount += 1
            if entityCount > Limits.maxEntities {
                entityLimitReached(at: item.loc)
                return
            }
            guard let m = r.mapping(item, "an element of \(Self.what(containerKind, containerId))") else { continue }
            // `element` appends the entity (at `entities.count`, which its node names).
            element(m, container: container, containerNode: containerNode, W: W, H: H, s: s, z: z,
                    mode: mode, anchor: anchor, path: path, siblings: &siblings)
        }
    }

    /// One element of `elements` (a mapping): its node and its entity (at index `entities.count`,
    /// which its node names) appended.
    private func element(_ m: YMap, container: Int, containerNode: Int, W: Double, H: Double, s: Double, z: Double,
                         mode: ScaleMode, anchor: Anchor, path: String, siblings: inout SiblingIds) {
        // Every key an element reads here, found in one pass (the first pair of each key, as
        // `m[key]` finds it).
        let k = ElementKeys(m.pairs)
        let idInfo = parseId(m, k.id, "an element")
        let id = idInfo?.0 ?? "element\(entities.count)"
        // Every key `ElementKeys` knows is an element key: only another key can be reported.
        if k.other { m.checkKeys(elementKeys, in: Self.what("element", id), reader: r, elsewhere: elementElsewhereKeys) }
        let epath = Self.joinedPath(path, id)
        checkPathLength(epath, parentPath: path, at: idInfo?.1 ?? m.loc, kind: "element", id: id)
        if let (id, loc) = idInfo { claim(id: id, loc: loc, entry: m.loc, siblings: &siblings, path: epath) }
        let role = m.value(k.role).flatMap {
            Self.role($0) ?? r.enumValue($0, "'role' of \(Self.what("element", id))", ElementRole.self, hints: Self.roleHints)
        } ?? .custom
        var frame: RectPt?
        if let fn = m.require(k.frame, "frame", in: Self.what("element", id), reader: r,
                              hint: "frame: [x, y, width, height] in points from the container's top-left"),
           let v = r.numbers4(fn, "'frame' of \(Self.what("element", id))", shape: "[x, y, width, height] in points") {
            if v[2] > 0, v[3] > 0 { frame = RectPt(x: v[0], y: v[1], width: v[2], height: v[3]) } else {
                r.error(fn.loc, "'frame' of \(Self.what("element", id)) needs a width and height greater than 0, found \(Reader.format(v[2])) × \(Reader.format(v[3]))")
            }
        }
        let depth = m.value(k.depth).flatMap { r.number($0, "'depth' of \(Self.what("element", id)) (points toward the viewer)") } ?? 0
        let fontSize = m.value(k.fontSize).flatMap { r.positive($0, "'fontSize' of \(Self.what("element", id)) (points)") }
        let label = m.value(k.label).flatMap { r.string($0, "'label' of \(Self.what("element", id))") }
        let interactive = m.value(k.interactive).flatMap { r.bool($0, "'interactive' of \(Self.what("element", id))") }
        let primary = m.value(k.primary).flatMap { r.bool($0, "'primary' of \(Self.what("element", id))") }
        let visible = m.value(k.visible).flatMap { r.bool($0, "'visible' of \(Self.what("element", id))") }
        let f = frame ?? RectPt(x: 0, y: 0, width: 0, height: 0)
        let centre = Vec3((f.x + f.width / 2 - W / 2) * s, (H / 2 - (f.y + f.height / 2)) * s, z + depth * s)
        let entIdx = entities.count
        let nodeIdx = appendNode(name: id, parent: containerNode, restTRS: Transform(translation: centre),
                                 geometry: Self.box(f.width * s, f.height * s, 0), anchor: anchor, entity: entIdx)
        let placementDistance = length(world[nodeIdx].translation - eye0)
        // `Entity(id:path:kind:node:location:)`, from a copy of one made once (its initialiser
        // costs several copies of the whole struct), filled in by `fillElement`.
        if k.other {
            var e = Self.elementTemplate
            Self.fillElement(&e, id: id, path: epath, node: nodeIdx, location: m.loc, role: role, container: container,
                             frame: frame, depth: depth, fontSize: fontSize, label: label,
                             interactive: interactive ?? role.defaultInteractive, primary: primary ?? false,
                             visible: visible ?? true, anchor: anchor, mode: mode, s: s, placementDistance: placementDistance)
            elementFacts(m, &e, what: Self.what("element", id), s: s)
            e.media = m["media"].flatMap { parseMedia($0, what: Self.what("element", id)) }
            parseAppearance(m, &e, what: Self.what("element", id))
            entities.append(e)
        } else {
            // Built in place in the table (a local copy, returned and appended, cost two more copies
            // of the large struct per element). Nothing in `fillElement` reads `entities`, so the one
            // access to the new entry is the only one.
            entities.append(Self.elementTemplate)
            Self.fillElement(&entities[entIdx], id: id, path: epath, node: nodeIdx, location: m.loc, role: role,
                             container: container, frame: frame, depth: depth, fontSize: fontSize, label: label,
                             interactive: interactive ?? role.defaultInteractive, primary: primary ?? false,
                             visible: visible ?? true, anchor: anchor, mode: mode, s: s, placementDistance: placementDistance)
            // No fact, media or appearance key: all `elementFacts`, `parseMedia` and
            // `parseAppearance` would do for this element.
            if interactive != nil { entities[entIdx].factSources.interactive = .annotation }
        }
    }

    /// The fields `element` sets on the template, in one place for both of its paths.
    @inline(__always)
    private static func fillElement(_ e: inout Entity, id: String, path: String, node: Int, location: SourceLocation,
                                    role: ElementRole, container: Int, frame: RectPt?, depth: Double, fontSize: Double?,
                                    label: String?, interactive: Bool, primary: Bool, visible: Bool, anchor: Anchor,
                                    mode: ScaleMode, s: Double, placementDistance: Double) {
        e.id = id
        e.path = path
        e.node = node
        e.geometryNodes = node..<(node + 1)
        e.location = location
        e.role = role
        e.parent = container
        e.container = container
        e.frame = frame
        e.depthPt = depth
        e.fontSize = fontSize
        e.label = label
        e.interactive = interactive
        e.primary = primary
        e.visible = visible
        e.anchor = anchor
        e.scaleMode = mode
        e.metresPerPoint = s
        e.placementDistance = placementDistance
    }

    /// An element as `Entity`'s initialiser makes it, for `element` to fill in.
    private static let elementTemplate = Entity(id: "", path: "", kind: .element, node: 0, location: SourceLocation(line: 1, column: 1))

    /// `parent + "/" + id`, written once into a string of its final length (`+` made a string for
    /// `parent + "/"` and then another; both are valid UTF-8, so the bytes are the same).
    static func joinedPath(_ parent: String, _ id: String) -> String {
        var parent = parent, id = id
        return parent.withUTF8 { p in
            id.withUTF8 { i in
                String(unsafeUninitializedCapacity: p.count + 1 + i.count) { out in
                    var k = 0
                    for b in p { out[k] = b; k += 1 }
                    out[k] = UInt8(ascii: "/")
                    k += 1
                    for b in i { out[k] = b; k += 1 }
                    return k
                }
            }
        }
    }

    /// "window 'w0'", "element 'b1'": how messages name an entity or element.
    private static func what(_ kind: String, _ id: String) -> String { kind + " '" + id + "'" }

    /// The pairs of an element's mapping with the keys `elements` reads itself, by index (-1:
    /// absent), found in one pass; `other`: it has any other key (facts, media, appearance, or a
    /// key elements do not take).
    private struct ElementKeys {
        var id = -1, role = -1, frame = -1, depth = -1, label = -1, primary = -1, visible = -1
        var fontSize = -1, interactive = -1
        var other = false

        init(_ pairs: [YPair]) {
            for (j, p) in pairs.enumerated() {
                let key = p.key
                // Each name is matched as `==` matches it: by length first for an ASCII key,
                // against every name for another (canonical equivalence).
                let l = p.asciiLength
                if (l == 2 || l < 0) && key == "id" { if id < 0 { id = j }; continue }
                if (l == 4 || l < 0) && key == "role" { if role < 0 { role = j }; continue }
                if l == 5 || l < 0 {
                    if key == "frame" { if frame < 0 { frame = j }; continue }
                    if key == "depth" { if depth < 0 { depth = j }; continue }
                    if key == "label" { if label < 0 { label = j }; continue }
                }
                if l == 7 || l < 0 {
                    if key == "primary" { if primary < 0 { primary = j }; continue }
                    if key == "visible" { if visible < 0 { visible = j }; continue }
                }
                if (l == 8 || l < 0) && key == "fontSize" { if fontSize < 0 { fontSize = j }; continue }
                if (l == 11 || l < 0) && key == "interactive" { if interactive < 0 { interactive = j }; continue }
                other = true
            }
        }
    }

    /// The roles by name, with their names' lengths.
    private static let roleNames: [(name: String, length: Int, role: ElementRole)] =
        ElementRole.allCases.map { ($0.rawValue, $0.rawValue.utf8.count, $0) }

    /// Names of UI components that are no element role, lower-cased, and how the format models them
    /// (docs/scene-format.md, "Elements" and "Sheets, alerts, popovers and menus"): the hint of the
    /// unknown-role error.
    static let roleHints: [String: String] = {
        let segmented = "a segmented control is a 'picker' (role: picker)"
        let popover = "a popover is a window nested in the window it opens from, with presentation: popover (see Sheets, alerts, popovers and menus in the scene format)"
        let contextMenu = "a context menu is a window nested in the window it opens from, with presentation: menu (see Sheets, alerts, popovers and menus in the scene format); its items are role: row"
        let row = "a row of a system list, form or menu is role: row"
        let toggle = "a switch or checkbox is a 'toggle' (role: toggle)"
        var hints: [String: String] = [:]
        for name in ["segmented", "segmentedcontrol", "segmentedpicker"] { hints[name] = segmented }
        hints["popover"] = popover
        for name in ["contextmenu", "popupmenu"] { hints[name] = contextMenu }
        for name in ["menuitem", "listrow", "listitem", "tablerow", "formrow"] { hints[name] = row }
        // s27 F8: a grid's cells are not rows (only vertically stacked rows are spaced by the system).
        for name in ["cell", "gridcell", "tablecell", "spreadsheetcell"] {
            hints[name] = "a cell of a grid or spreadsheet is a 'button' (role: button) when people tap or select it, a 'textField' (role: textField) when they edit it; only the rows of a vertical list are role: row"
        }
        hints["tooltip"] = "a tooltip is the helpText of the element it explains (helpText: Share the photo); a custom one is a 'text' element (role: text) that starts hidden (visible: false) and is shown and hidden with events"
        for name in ["switch", "checkbox"] { hints[name] = toggle }
        for name in ["dialog", "actionsheet", "confirmationdialog"] {
            hints[name] = "an alert or confirmation dialog is 'alert' (role: alert), a sheet 'sheet'; or a child window with presentation: alert / sheet"
        }
        hints["label"] = "a static label is 'text' (role: text); give a control's label as its label key"
        // s29 trial F11.
        hints["list"] = "a system list is the rows it holds: each row is role: row (the list itself needs no element)"
        hints["ornament"] = "an ornament is a child window of the window it belongs to, placed at its edge (see Ornaments in the scene format)"
        for name in ["tabbar", "tabview"] {
            hints[name] = "a tab bar is a 'toolbar' element (role: toolbar) holding 'tab' elements (role: tab), or an ornament of tabs (see Ornaments in the scene format)"
        }
        for name in ["reticle", "focusentity"] { hints[name] = "an AR placement reticle is a 'placementIndicator' (role: placementIndicator)" }
        for name in ["pageindicator", "pagedots", "dots"] { hints[name] = "page dots are a 'pageControl' (role: pageControl)" }
        for name in ["scrollview", "stack", "vstack", "hstack", "group", "container"] {
            hints[name] = "a layout container is not an element: give the elements it lays out, each with its frame in the window's points"
        }
        for name in ["progressview", "progress", "activityindicator", "spinner", "gauge"] {
            hints[name] = "a progress indicator is an 'image' (role: image): people look at it but do not interact with it"
        }
        return hints
    }()

    /// Names that are no entity kind, lower-cased, and how the format models them (s27 F8).
    static let kindHints: [String: String] = [
        "ornament": "there is no ornament kind: model an ornament as a child window (kind: window) of the window or volume it belongs to, placed at its edge (see Ornaments in the scene format)",
    ]

    /// Element keys written on a model or environment (s27 F8): facts about input on an asset are
    /// given per asset node in `annotations`.
    static let assetFactHints: [String: String] = Dictionary(uniqueKeysWithValues: ["hoverEffect", "hitRegion", "interaction", "accessibilityLabel"].map { key in
        (key, "facts about an asset's input go in its annotations, per asset node: annotations: [{nodes: \"**\", \(key): …}] (see Annotations in the scene format)")
    })

    /// `ElementRole(rawValue:)` of a scalar whose text is a role's name (compared as `==` does,
    /// after the lengths); nil for anything else, which `Reader.enumValue` then reads or reports.
    private static func role(_ n: YNode) -> ElementRole? {
        guard case let .scalar(sc) = n.kind, sc.type != .null else { return nil }
        let length = sc.text.utf8.count
        for entry in roleNames where entry.length == length && entry.name == sc.text { return entry.role }
        return nil
    }

    // MARK: - Assets

    /// The absolute path of `p` relative to `base`, with `.`, `..` and repeated `/` removed lexically.
    /// (Not `standardizingPath`: on Linux, Foundation resolves a relative symlink target against the
    /// process's working directory there, so `scenes/link -> .` would turn into the wrong file.)
    static func resolve(_ p: String, base: String) -> String {
        let full = p.hasPrefix("/") ? p : (base as NSString).appendingPathComponent(p)
        let abs = full.hasPrefix("/") ? full : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(full)
        var parts: [Substring] = []
        for c in abs.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(c)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Path policy: unless `allowExternalAssets`, an asset must resolve (lexically and after
    /// following symlinks) inside the confinement root (the project root: the folder of
    /// `.spatialcheck.yaml`, else the git work tree, else the scene's folder) and not into a `.git`
    /// folder. Checked before the file is looked at, so the error does not reveal whether
    /// something exists outside.
    private func checkAssetPath(_ p: String, loc: SourceLocation) -> Bool {
        if p.isEmpty || p.unicodeScalars.contains("\u{0}") {
            r.error(loc, "'asset' must be a file path, found \(p.isEmpty ? "an empty string" : "a path containing a NUL character")")
            return false
        }
        guard let root = confinementRoot else { return true }
        let real = Self.canonical(Self.resolve(p, base: baseDirectory))
        if ProjectRoot.contains(real, root: root) { return true }
        if Self.isInside(real, root: root) {
            r.error(loc, "asset '\(quoted(p, limit: 200))' resolves (after '..' and symbolic links) into a .git folder, which is never read",
                    hint: "reference a model file outside .git")
            return false
        }
        if var seen = refusedAssets[real] {
            seen.count += 1
            if seen.lines.count < 10 { seen.lines.append(loc.line) }
            refusedAssets[real] = seen
            return false
        }
        let how = p.hasPrefix("/") ? "is an absolute path outside" : "resolves (after '..' and symbolic links) outside"
        refusedAssets[real] = (r.diagnostics.count, [], 0)
        r.error(loc, "asset '\(quoted(p, limit: 200))' \(how) the project root; assets must be inside it",
                hint: Self.outsideRootHint(root: root, explicit: options.confinementRoot != nil, asset: real))
        return false
    }

    /// The hint of an asset outside the confinement root: which folder the root is and why (a
    /// nearer `.spatialcheck.yaml` makes its folder the root: s27 F6), and what to do: `--root` with
    /// the nearest wider project root that holds the asset, or moving the asset.
    static func outsideRootHint(root: String, explicit: Bool, asset real: String) -> String {
        let shown = ProjectRoot.display(root)
        var hint = "the project root is \(shown) (\(ProjectRoot.reason(for: root, explicit: explicit))): "
        if let wider = ProjectRoot.widerRoot(above: root, containing: real) {
            hint += "pass --root \(ProjectRoot.display(wider)) (\(ProjectRoot.reason(for: wider, explicit: false))) to load assets from anywhere under it, or move the asset into \(shown)"
        } else {
            hint += "move the asset into it, or pass --root DIR with a folder that holds both the scene and the asset"
        }
        return hint + "; --allow-external-assets turns the check off for a trusted scene"
    }

    /// The refused assets' errors name the other lines that use the same asset.
    private func noteRefusedAssetUses() {
        for (_, seen) in refusedAssets where seen.count > 0 && r.diagnostics.indices.contains(seen.diagnostic) {
            let lines = seen.lines.map(String.init).joined(separator: ", ")
            let more = seen.count > seen.lines.count ? " and \(seen.count - seen.lines.count) more" : ""
            r.diagnostics[seen.diagnostic].message += " (also used at line\(seen.count == 1 ? "" : "s") \(lines)\(more): \(seen.count + 1) entities in all)"
        }
        refusedAssets = [:]
    }

    static func isInside(_ path: String, root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// `realpath` of the longest existing prefix of an absolute, standardized path, with the rest
    /// appended (so a missing file inside a symlinked folder still resolves through the link).
    static func canonical(_ path: String) -> String {
        if let c = realpath(path, nil) {
            defer { free(c) }
            return String(cString: c)
        }
        let parent = (path as NSString).deletingLastPathComponent
        if parent == path || parent.isEmpty { return path }
        let base = canonical(parent)
        return (base as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    /// Imports each file once per scene: the cache key is the file's identity (device and inode,
    /// so several symbolic links or spellings of one file share one import), else its path.
    private func importAsset(display: String, resolved: String, loc: SourceLocation?) -> ImportedAsset? {
        let result: Result<ImportedAsset, Diagnostic>
        let key = AssetImportIdentity(path: resolved).map { "\($0.device):\($0.inode)" } ?? "path:" + resolved
        if let (cached, firstDisplay) = assetCache[key] {
            switch cached {
            case .success(var a):
                a.path = display; a.resolvedPath = resolved
                result = .success(a)
            case .failure(let d):
                result = .failure(d.renamingAsset(from: firstDisplay, to: display))
            }
        } else {
            result = importUncached(display: display, resolved: resolved)
            assetCache[key] = (result, display)
            if case let .success(a) = result {
                for w in a.warnings { r.warning(loc, "asset '\(display)': \(w)") }
            }
        }
        switch result {
        case let .success(a): return a
        case let .failure(d):
            r.error(loc, d.message, hint: d.hint)
            return nil
        }
    }

    /// Seconds for a message: whole seconds as they are, else three significant digits.
    static func seconds(_ s: Double) -> String {
        s == s.rounded() && abs(s) < 1e9 ? String(Int(s)) : String(format: "%.3g", s)
    }

    private func importUncached(display: String, resolved: String) -> Result<ImportedAsset, Diagnostic> {
        func fail(_ m: String, _ hint: String? = nil) -> Result<ImportedAsset, Diagnostic> {
            .failure(Diagnostic(file: path, message: m, hint: hint))
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDir) else {
            let folder = (resolved as NSString).deletingLastPathComponent
            let others = caseVariants(of: (resolved as NSString).lastPathComponent, inFolder: folder)
            let hint: String? = switch others.count {
            case 0: nearName((resolved as NSString).lastPathComponent, inFolder: folder).map { "did you mean '\(quoted($0, limit: 200))'? It is in that folder" }
            case 1: "a file named '\(quoted(others[0], limit: 200))' exists there; paths are case-sensitive"
            default: "files named \(Reader.quoteList(others, limit: 5)) exist there; paths are case-sensitive"
            }
            return fail("asset '\(display)' not found (looked in \(folder))", hint)
        }
        if isDir.boolValue, !SceneLoader.isAssetFolder(resolved) { return fail("asset '\(display)' is a directory, not a file") }
        // A FIFO, socket or device would block or never end, whichever importer reads it.
        var st = stat()
        if !isDir.boolValue, stat(resolved, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            return fail("asset '\(display)' is not a regular file (a FIFO, socket or device); it was not imported",
                        "reference a regular model file")
        }
        if importSeconds >= options.importBudget {
            let slowest = slowestImport.map { "; the slowest was '\($0.display)' (\(Self.seconds($0.seconds)) s)" } ?? ""
            return fail("asset '\(display)' was not imported: this scene's imports have already taken \(Self.seconds(importSeconds)) s, its import budget of \(Self.seconds(options.importBudget)) s\(slowest)",
                        "simplify or re-export the slow assets, reference fewer distinct files, or allow more time with --import-budget SECONDS")
        }
        let asset: ImportedAsset
        let started = DispatchTime.now().uptimeNanoseconds
        defer {
            let took = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
            importSeconds += took
            if took > (slowestImport?.seconds ?? -1) { slowestImport = (display, took) }
        }
        do {
            asset = try importer.importAsset(resolved, display, AssetReferencePolicy(root: confinementRoot))
        } catch {
            // Importer messages that already name the asset are passed on as they are.
            let message = error.message.hasPrefix("asset '") ? error.message : "cannot import asset '\(display)': \(error.message)"
            return fail(message, error.hint)
        }
        // Validate what the importer returned before indexing into it.
        let n = asset.nodes.count
        if n == 0 { return fail("asset '\(display)' has no nodes") }
        for (i, node) in asset.nodes.enumerated() {
            let structureOK = node.subtreeEnd > i && node.subtreeEnd <= n
                && (node.parent.map { $0 >= 0 && $0 < i && asset.nodes[$0].subtreeEnd >= node.subtreeEnd } ?? true)

            if !structureOK {
                return fail("asset '\(display)' has an inconsistent node hierarchy at node '\(node.name)'",
                            "this is a bug in the importer or a malformed file")
            }
            if !node.local.isFinite || !(node.localTRS?.isFinite ?? true) || !node.vertices.allSatisfy(\.isFinite) {
                return fail("asset '\(display)' contains non-finite numbers (NaN or infinity) in node '\(node.name)'")
            }
        }
        if !asset.nodes.contains(where: { !$0.vertices.isEmpty || !$0.meshBounds.isEmpty }) {
            return fail("asset '\(display)' has no geometry")
        }
        for clip in asset.animations {
            if !clip.duration.isFinite || clip.duration < 0 {
                return fail("asset '\(display)' has an animation '\(clip.name)' with an invalid duration")
            }
            for c in clip.channels {
                let finite = c.positions.allSatisfy { $0.time.isFinite && $0.value.isFinite }
                    && c.rotations.allSatisfy { $0.time.isFinite && $0.value.isFinite }
                    && c.scales.allSatisfy { $0.time.isFinite && $0.value.isFinite }
                if !finite {
                    return fail("asset '\(display)' contains non-finite numbers (NaN or infinity) in animation '\(clip.name)'")
                }
            }
        }
        for node in asset.nodes {
            if let f = node.marking?.fontSize, !(f.isFinite && f > 0) {
                return fail("asset '\(display)' marks node '\(node.name)' with an invalid fontSize \(f)")
            }
        }
        if let u = asset.declaredUnitScale, !(u.isFinite && u > 0) {
            return fail("asset '\(display)' declares an invalid unit scale \(u)")
        }
        return .success(asset)
    }

    /// Names in `folder` that equal `name` except for letter case (sorted), for the hint on a missing
    /// asset. Only the folder the asset path resolves to is read, and only after the path policy has
    /// accepted that path (`checkAssetPath`), so nothing outside the project root is revealed. Each
    /// folder is read once per scene, at most `Self.maxFolderEntries` names.
    private func caseVariants(of name: String, inFolder folder: String) -> [String] {
        let names: [String: [String]]
        if let cached = folderNames[folder] {
            names = cached
        } else {
            var byLowercase: [String: [String]] = [:]
            for n in Self.entries(of: folder, limit: Self.maxFolderEntries) { byLowercase[n.lowercased(), default: []].append(n) }
            folderNames[folder] = byLowercase
            names = byLowercase
        }
        // A name Swift considers equal to `name` differs at most in Unicode normalisation, not in
        // letter case: no hint for it.
        return (names[name.lowercased()] ?? []).filter { $0 != name }.sorted()
    }

    /// The entry of `folder` closest to a misspelt `name` (`closestMatch`), from the same cached
    /// listing as `caseVariants` (which it runs first).
    private func nearName(_ name: String, inFolder folder: String) -> String? {
        closestMatch(to: name, in: (folderNames[folder] ?? [:]).values.joined().sorted())
    }

    static let maxFolderEntries = 10_000

    /// Up to `limit` entry names of a directory (none when it cannot be read), one level only, read
    /// lazily by Foundation's enumerator so a huge folder is not listed whole. (A hand-written
    /// `readdir` loop here copied `dirent.d_name` past glibc's buffer; AddressSanitizer found it.)
    static func entries(of folder: String, limit: Int) -> [String] {
        guard let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: folder, isDirectory: true),
                                                          includingPropertiesForKeys: nil,
                                                          options: [.skipsSubdirectoryDescendants]) else { return [] }
        var out: [String] = []
        while out.count < limit, let url = walker.nextObject() as? URL { out.append(url.lastPathComponent) }
        return out
    }

    private func attach(asset: ImportedAsset, display: String, resolved: String, selectNode: String?,
                        selectLoc: SourceLocation?, override: (Double, String)?, axes: AxesName = .auto,
                        entIdx: Int, nodeIdx: Int, anchor: Anchor, path: String, loc: SourceLocation?) -> Attachment? {
        var sel = 0..<asset.nodes.count
        if let name = selectNode {
            if nodeNameIndex[resolved] == nil {
                var index: [String: Int] = [:]
                for (i, n) in asset.nodes.enumerated() where index[n.name] == nil { index[n.name] = i }
                nodeNameIndex[resolved] = index
            }
            guard let k = nodeNameIndex[resolved]?[name] else {
                let names = asset.nodes.count <= 2_000 ? asset.nodes.map(\.name).filter { !$0.isEmpty } : []
                r.error(selectLoc, "asset '\(display)' has no node named '\(name)'",
                        hint: (r.suggest(name, in: names).map { "did you mean '\($0)'? " } ?? "")
                            + "nodes in the asset: " + Reader.quoteList(names, limit: 10))
                return nil
            }
            sel = k..<asset.nodes[k].subtreeEnd
        }
        let unitScale: Double
        let reason: String
        if let (u, why) = override {
            unitScale = u
            reason = why
        } else if let u = asset.declaredUnitScale {
            unitScale = u
            reason = asset.unitNote.isEmpty ? "the file declares \(u) m per unit" : asset.unitNote
        } else {
            unitScale = 1
            reason = asset.unitNote.isEmpty ? "no unit declared; metres assumed" : asset.unitNote
        }
        let (axisMatrix, axisReason) = Self.axisConversion(asset: asset, axes: axes)
        // The asset root: uniform unit scale after the axis turn (they commute). The rest matrix
        // carries a mirror too; its TRS (used only if an animation drove this node, which none
        // does) keeps the turn.
        var rootRest = Transform(scale: Vec3(repeating: unitScale)).matrix
        var rootTRS = Transform(scale: Vec3(repeating: unitScale))
        if let a = axisMatrix {
            rootRest = rootRest * a
            if let ypr = a.yawPitchRoll { rootTRS.rotation = Quat(yaw: ypr.x, pitch: ypr.y, roll: ypr.z) }
        }
        let rootIdx = appendNode(name: "\(display) (asset root)", parent: nodeIdx,
                                 restTRS: rootTRS, rest: rootRest, geometry: .empty,
                                 anchor: anchor, entity: entIdx)
        let base = nodes.count
        let lower = sel.lowerBound
        var vertexCount = 0
        for i in sel { vertexCount += asset.nodes[i].vertices.count / 3 }
        totalVertices += vertexCount
        if totalVertices > Limits.maxVertices {
            if !vertexLimitReported {
                vertexLimitReported = true
                r.error(loc, "the scene's assets have more than \(Limits.maxVertices) vertices in all (asset '\(quoted(display, limit: 200))' adds \(vertexCount))",
                        hint: "use decimated versions of the assets for validation")
            }
            return nil
        }
        if base + sel.count > Limits.maxSceneNodes {
            r.error(loc, "the scene would have more than \(Limits.maxSceneNodes) nodes with asset '\(quoted(display, limit: 200))' (\(sel.count) nodes)",
                    hint: "use fewer or simpler assets")
            return nil
        }
        var map: [Int: Int] = [:]
        var triangles = 0
        for i in sel {
            let an = asset.nodes[i]
            let p: Int
            if i == lower { p = rootIdx } else if let ap = an.parent, ap >= lower { p = base + (ap - lower) } else { p = rootIdx }
            let idx = appendNode(name: an.name, parent: p, restTRS: an.localTRS ?? .identity, rest: an.local,
                                 geometry: an.meshBounds, anchor: anchor, entity: entIdx)
            nodes[idx].subtreeEnd = min(base + (an.subtreeEnd - lower), base + sel.count)
            if !an.vertices.isEmpty { nodeVertices[idx] = an.vertices }
            map[i] = idx
            triangles += an.triangles
        }
        nodes[rootIdx].subtreeEnd = nodes.count
        entities[entIdx].geometryNodes = nodeIdx..<nodes.count
        totalTriangles += triangles
        if totalTriangles > Limits.maxTriangles, !triangleLimitReported {
            triangleLimitReported = true
            r.error(loc, "the scene's assets have more than \(Limits.maxTriangles) triangles in all (\(totalTriangles) so far, asset '\(quoted(display, limit: 200))' adds \(triangles))",
                    hint: "use decimated versions of the assets for validation")
        }
        entities[entIdx].asset = AssetUse(path: display, resolvedPath: resolved, format: asset.format,
                                          unitScale: unitScale, unitReason: reason, triangles: triangles,
                                          clips: asset.animations.map { ($0.name, $0.duration) }, node: selectNode)
        entities[entIdx].asset?.usd = asset.usdSummary(nodes: sel)
        entities[entIdx].asset?.axisReason = axisReason
        // Marked and annotated nodes, and nodes the file states facts about, become entities.
        nodeEntities(asset: asset, display: display, sel: sel, map: map, entIdx: entIdx, anchor: anchor,
                     path: path, loc: loc)
        return Attachment(asset: asset, map: map)
    }

    /// The axis conversion for an asset and the sentence `inspect` shows for it: the file's own
    /// declaration (`auto`), nothing (`none`), or +Z up, −Y front → +Y up, +Z front (`zUp`: rows
    /// X = +x, Y = +z, Z = −y, a −90° turn about X).
    private static func axisConversion(asset: ImportedAsset, axes: AxesName) -> (Mat4?, String) {
        switch axes {
        case .auto:
            return (asset.axisConversion, asset.axisNote)
        case .none:
            let declared = asset.axisNote.isEmpty ? "" : " (the file: \(asset.axisNote))"
            return (nil, "assetAxes: none: no axis conversion\(declared)")
        case .zUp:
            let m = Mat4(values: SIMD16(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1))
            return (m, "assetAxes: zUp: up +Z, front −Y → turned to +Y up, +Z front (−90° about X)")
        }
    }

    // MARK: - Animation

    private func animation(_ n: YNode, entIdx: Int, nodeIdx: Int, rotPrefix: Quat, attachment: Attachment?, what: String) {
        guard let m = r.mapping(n, "'animation' of \(what)") else { return }
        m.checkKeys(SceneKeys.animation, in: "'animation' of \(what)", reader: r)
        let loop = m["loop"].flatMap { r.bool($0, "'loop' of the animation") } ?? false
        let trigger = m["trigger"].flatMap { r.enumValue($0, "'trigger' of the animation of \(what)", AnimationTrigger.self) }
        let onReduceMotion = m["reduceMotion"].flatMap {
            r.enumValue($0, "'reduceMotion' of the animation of \(what)", ReduceMotionBehavior.self)
        } ?? .keep
        let speed = m["speed"].flatMap { r.positive($0, "'speed' of the animation") } ?? 1
        if m.has("keyframes") && m.has("clip") {
            r.error(m.keyLoc("clip"), "the animation of \(what) gives both 'keyframes' and 'clip'; give one of them")
            return
        }
        if let kn = m["keyframes"] {
            guard let items = r.list(kn, "'keyframes' of \(what)") else { return }
            if items.isEmpty {
                r.error(kn.loc, "'keyframes' of \(what) needs at least one keyframe")
                return
            }
            if items.count > Limits.maxKeyframes {
                r.error(kn.loc, "'keyframes' of \(what) has \(items.count) keys; the limit is \(Limits.maxKeyframes)",
                        hint: "resample the animation; keys are interpolated")
                return
            }
            let rest = nodes[nodeIdx].restTRS
            var ch = NodeChannel(node: nodeIdx)
            var lastT: Double?
            var ok = true
            var turns = WrittenTurns()
            for item in items {
                guard let k = r.mapping(item, "a keyframe") else { ok = false; continue }
                k.checkKeys(["t", "position", "rotation", "quaternion", "scale"], in: "a keyframe", reader: r)
                guard let tn = k.require("t", in: "a keyframe", reader: r),
                      let t = r.nonNegative(tn, "'t' of a keyframe") else { ok = false; continue }
                if let lastT, t <= lastT {
                    r.error(tn.loc, "keyframe times must be strictly increasing: t = \(Reader.format(t)) follows t = \(Reader.format(lastT))")
                    ok = false
                    continue
                }
                lastT = t
                let pos = k["position"].flatMap { r.vec3($0, "'position' of a keyframe") } ?? rest.translation
                let o = orientationWithAngles(k, "a keyframe")
                turns.check(o, at: k, time: t, what: what, keepsPrevious: false, reader: r)
                let rot = o.quat.map { (rotPrefix * $0).normalized } ?? rest.rotation
                let sc = k["scale"].flatMap { parseScale($0, "a keyframe") } ?? rest.scale
                if let sn = k["scale"], case let v = Swift.min(sc.x, sc.y, sc.z), v < (shrinkingKeyScales[nodeIdx]?.value ?? 1) {
                    shrinkingKeyScales[nodeIdx] = (v, sn.loc)
                }
                ch.positions.append(Key(time: t, value: pos))
                ch.rotations.append(Key(time: t, value: rot))
                ch.scales.append(Key(time: t, value: sc))
            }
            guard ok, let lastT else { return }
            entities[entIdx].animation = animations.count
            var anim = Animation(entity: entIdx, source: .keyframes, duration: lastT, loop: loop, speed: speed,
                                 channels: [ch])
            anim.trigger = trigger; anim.reduceMotion = onReduceMotion
            animations.append(anim)
            return
        }
        if let cn = m["clip"] {
            guard let name = r.string(cn, "'clip' of \(what)") else { return }
            guard let att = attachment else {
                if entities[entIdx].kind == .model || entities[entIdx].kind == .environment {
                    return // the asset already failed to load and was reported
                }
                r.error(cn.loc, "'clip' animations need a model or environment with an 'asset'; \(what) has none",
                        hint: "use 'keyframes' to animate this entity")
                return
            }
            guard let clip = att.asset.animations.first(where: { $0.name == name }) else {
                let names = att.asset.animations.map(\.name)
                r.error(cn.loc, "asset '\(att.asset.path)' has no animation clip '\(name)'",
                        hint: names.isEmpty ? "the asset has no animation clips" :
                            (r.suggest(name, in: names).map { "did you mean '\($0)'? " } ?? "")
                            + "clips in the asset: " + Reader.quoteList(names, limit: 20))
                return
            }
            let channels = clip.channels.compactMap { c -> NodeChannel? in
                guard let idx = att.map[c.node] else { return nil }
                var c2 = c
                c2.node = idx
                return c2
            }
            entities[entIdx].animation = animations.count
            var anim = Animation(entity: entIdx, source: .clip(name), duration: clip.duration, loop: loop,
                                 speed: speed, channels: channels)
            anim.trigger = trigger; anim.reduceMotion = onReduceMotion
            animations.append(anim)
            return
        }
        r.error(m.loc, "the animation of \(what) needs 'keyframes' or 'clip'")
    }

    // MARK: - Events

    private func parseEvents(_ n: YNode) -> [SceneEvent] {
        guard let items = r.list(n, "'events'") else { return [] }
        if items.count > Limits.maxKeyframes {
            r.error(n.loc, "'events' has \(items.count) entries; the limit is \(Limits.maxKeyframes)")
            return []
        }
        var out: [SceneEvent] = []
        for item in items {
            guard let m = r.mapping(item, "an event") else { continue }
            let t = m.require("t", in: "an event", reader: r).flatMap { r.nonNegative($0, "'t' of an event") }
            let an = m.require("action", in: "an event", reader: r,
                               hint: "action is one of " + Reader.quoteList(EventAction.allCases.map(\.rawValue)))
            let action = an.flatMap { r.enumValue($0, "'action' of an event", EventAction.self) }
            var allowed = ["t", "action"]
            switch action {
            case .setImmersion: allowed += SceneKeys.setImmersionEvent
            case .show, .hide: allowed += ["entity"]
            case .recenter: break
            case .trackingState: allowed += ["state", "reason"]
            case .planeDetected, .planeLost: allowed += ["plane", "alignment"]
            case .referenceImages: allowed += ["count"]
            case nil: allowed += SceneKeys.setImmersionEvent + ["entity", "state", "reason", "plane", "alignment", "count"]
            }
            m.checkKeys(allowed, in: action.map { "a '\($0.rawValue)' event" } ?? "an event", reader: r)
            var act: SceneEvent.Action?
            switch action {
            case .setImmersion:
                let style = m.require("style", in: "a 'setImmersion' event", reader: r)
                    .flatMap { r.enumValue($0, "'style' of a setImmersion event", ImmersionStyle.self) }
                let trigger = m["trigger"].flatMap { r.enumValue($0, "'trigger' of a setImmersion event", SceneEvent.Trigger.self) } ?? .user
                if let style { act = .setImmersion(style, trigger: trigger) }
            case .recenter:
                act = .recenter
            case .show, .hide:
                if let en = m.require("entity", in: "a '\(action?.rawValue ?? "")' event", reader: r),
                   let ref = r.string(en, "'entity' of an event"), let idx = resolveEntity(ref, loc: en.loc) {
                    act = action == .show ? .show(entity: idx) : .hide(entity: idx)
                }
            case .trackingState:
                let state = m.require("state", in: "a 'trackingState' event", reader: r,
                                      hint: "state is one of " + Reader.quoteList(TrackingState.allCases.map(\.rawValue)))
                    .flatMap { r.enumValue($0, "'state' of a trackingState event", TrackingState.self) }
                let reason = m["reason"].flatMap { r.enumValue($0, "'reason' of a trackingState event", TrackingReason.self) }
                if let state {
                    if reason != nil, state != .limited {
                        r.error(m.keyLoc("reason"), "'reason' applies only to 'state: limited', found state '\(state.rawValue)'",
                                hint: "remove 'reason', or use state: limited")
                    } else {
                        act = .ar(.tracking(state, reason: reason))
                    }
                }
            case .planeDetected, .planeLost:
                let what = "a '\(action?.rawValue ?? "")' event"
                let alignment = m["alignment"].flatMap { r.enumValue($0, "'alignment' of \(what)", PlaneAlignment.self) }
                if let pn = m.require("plane", in: what, reader: r, hint: "plane: an id of your choice, e.g. floor"),
                   let id = r.string(pn, "'plane' of \(what)") {
                    act = .ar(.plane(id: id, detected: action == .planeDetected, alignment: alignment))
                }
            case .referenceImages:
                if let cn = m.require("count", in: "a 'referenceImages' event", reader: r),
                   let c = r.number(cn, "'count' of a referenceImages event", rule: "a whole number from 0 to 1000000", { $0 >= 0 && $0 <= 1_000_000 && $0 == $0.rounded() }) {
                    act = .ar(.referenceImages(count: Int(c)))
                }
            case nil:
                break
            }
            if let t, let act {
                var ev = SceneEvent(time: t, action: act, location: m.loc)
                if case .setImmersion = act {
                    ev.transition = m["transition"].flatMap { r.nonNegative($0, "'transition' of a setImmersion event (seconds)") }
                }
                out.append(ev)
            }
        }
        let sorted = out.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        warnConflictingEvents(sorted)
        return sorted
    }

    /// Events at the same time apply in file order. When two of them act on the same thing (two
    /// `setImmersion`, `show` and `hide` of one entity) only the later one is visible from the
    /// next frame on, which is rarely what was meant: a warning says so.
    private func warnConflictingEvents(_ events: [SceneEvent]) {
        var i = 0
        while i < events.count {
            var j = i
            while j + 1 < events.count, events[j + 1].time == events[i].time { j += 1 }
            if j > i {
                var seen: [String: SourceLocation] = [:]
                for e in events[i...j] {
                    let key: String?
                    switch e.action {
                    case .setImmersion: key = "setImmersion"
                    case let .show(entity), let .hide(entity): key = "visibility of '\(entities[entity].path)'"
                    default: key = nil
                    }
                    guard let key else { continue }
                    if let prev = seen[key] {
                        r.warning(e.location, "two events at t = \(Reader.format(e.time)) change the \(key) (the other at \(prev)); they apply in file order, so only this one takes effect",
                                  hint: "give the events different times, or remove one")
                    } else {
                        seen[key] = e.location
                    }
                }
            }
            i = j + 1
        }
    }

    /// Entity lookup by path and by id, built once (events are resolved after all entities exist);
    /// a linear search per event would be quadratic in a scene with 100,000 events and entities.
    private lazy var entityIndex: (byPath: [String: Int], byId: [String: [Int]]) = {
        var byPath: [String: Int] = [:]
        var byId: [String: [Int]] = [:]
        for (i, e) in entities.enumerated() {
            if byPath[e.path] == nil { byPath[e.path] = i }
            byId[e.id, default: []].append(i)
        }
        return (byPath, byId)
    }()

    private func resolveEntity(_ ref: String, loc: SourceLocation) -> Int? {
        if let i = entityIndex.byPath[ref] { return i }
        let matches = entityIndex.byId[ref] ?? []
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            r.error(loc, "entity '\(quoted(ref))' is ambiguous: \(matches.count) entities have that id",
                    hint: "use a path: " + Reader.quoteList(matches.map { entities[$0].path }))
            return nil
        }
        let candidates = entities.count <= 1_000 ? entities.map(\.path) + entities.map(\.id) : []
        r.error(loc, "event refers to an unknown entity '\(quoted(ref))'",
                hint: r.suggest(ref, in: candidates).map { "did you mean '\($0)'?" }
                    ?? (entities.isEmpty ? "the scene has no entities" : "entities: " + Reader.quoteList(entities.prefix(12).map(\.path))
                        + (entities.count > 12 ? ", … (\(entities.count) in all)" : "")))
        return nil
    }

    // MARK: - Finish

    private func finish() {
        var nodeBounds = [AABB](repeating: .empty, count: nodes.count)
        for i in nodes.indices {
            if !nodeVertices.isEmpty, let v = nodeVertices[i] {
                var b = AABB.empty
                let w = world[i]
                var k = 0
                while k + 2 < v.count {
                    b.formUnion(w.transformPoint(Vec3(Double(v[k]), Double(v[k + 1]), Double(v[k + 2]))))
                    k += 3
                }
                nodeBounds[i] = b
            } else {
                nodeBounds[i] = nodes[i].geometry.transformed(by: world[i])
            }
        }
        var bounds = [AABB](repeating: .empty, count: entities.count)
        for i in entities.indices {
            for k in entities[i].geometryNodes.clamped(to: 0..<nodes.count) { bounds[i].formUnion(nodeBounds[k]) }
        }
        // The range check leaves a size that is only the asset's own coordinates to the
        // plausibility check below; every other range error replaces the plausibility error.
        checkWorldScaleFloor()
        checkDerivedRange(implausibleAssets: Set(entities.indices.filter { assetReach(of: $0, bounds: bounds[$0]) != nil }))
        for i in entities.indices {
            let b = bounds[i]
            let g = entities[i].geometryNodes.clamped(to: 0..<nodes.count)
            entities[i].restWorldBounds = b
            if entities[i].node >= 0, entities[i].node < world.count {
                entities[i].restOrientation = world[entities[i].node].yawPitchRoll
            }
            switch entities[i].kind {
            case .window, .volume, .text, .element: break
            default:
                let c = b.isEmpty ? world[entities[i].node].translation : b.center
                entities[i].placementDistance = length(c - eye0)
            }
            if let a = entities[i].asset, let reach = assetReach(of: i, bounds: b) {
                // Not when the range check has reported the entity (or one around or inside it):
                // its transforms, not the file's coordinates, are the cause.
                if !rangeReportedAround(i) && !rangeReported.contains(where: { g.contains(entities[$0].node) }) {
                    let how = reach.isFinite ? "reaches \(Self.metres(reach)) from its origin" : "has non-finite coordinates"
                    r.error(entities[i].location,
                            "asset '\(a.path)' of \(entities[i].kind.rawValue) '\(entities[i].path)' \(how) after unit conversion (×\(Reader.format(a.unitScale)) m per file unit), beyond the \(Reader.format(Self.maxAssetReach / 1000)) km plausibility limit: its coordinates are broken",
                            hint: "open the file in a viewer and re-export it; if only its unit is wrong, set assetUnits (units used: \(a.unitReason))")
                }
                continue
            }
            if !b.isEmpty, !(b.min.isFinite && b.max.isFinite) || max(b.min.maxMagnitude, b.max.maxMagnitude) > Limits.maxWorldCoordinate {
                // Not again for an entity that holds (or is inside) one with a range error.
                let holdsReported = rangeReported.contains { g.contains(entities[$0].node) }
                if !rangeReportedAround(i) && !holdsReported {
                    r.error(entities[i].location, "'\(quoted(entities[i].path))' has rest bounds \(b.min.isFinite && b.max.isFinite ? "beyond ±1e+12 m" : "that are not finite") (its sizes, scales or positions multiply to too large a value)",
                            hint: Self.rangeHint)
                }
                continue
            }
            if entities[i].kind == .model, !b.isEmpty {
                let size = b.size
                let largest = max(size.x, size.y, size.z)
                if let v = entities[i].parent, entities.indices.contains(v), entities[v].kind == .volume,
                   let box = entities[v].sizeMetres, largest > 2 * max(box.x, box.y, box.z), largest <= 50 {
                    // A volume clips what it holds at its bounds: content many times its size is
                    // mostly unseen (the 50 m unit note below covers the larger cases).
                    let vs = max(box.x, box.y, box.z)
                    r.warning(entities[i].location,
                              "model '\(entities[i].path)' is \(Self.metres(largest)) across at rest, more than twice its volume '\(entities[v].path)' (\(Self.metres(vs))): visionOS clips a volume's content at its bounds, so most of it will not be seen",
                              hint: "scale the model down (×\(Reader.format((vs / largest * 1000).rounded() / 1000)) of its size fits it) or size the volume for it"
                                + (Self.unitSuggestion(largest, entities[i].asset).map { "; if the file is not in metres, \($0)" } ?? "")
                                + (entities[i].asset.map { "; units used: \($0.unitReason)" } ?? ""))
                }
                if largest > 50 {
                    let suggestion = Self.unitSuggestion(largest, entities[i].asset)
                    r.warning(entities[i].location,
                              "asset of model '\(entities[i].path)' looks like it is not in metres (\(Self.metres(largest)) long); set assetUnits" + (suggestion.map { " (\($0))" } ?? ""),
                              hint: entities[i].asset.map { "units used: \($0.unitReason)" })
                } else if largest < 0.001 {
                    r.warning(entities[i].location,
                              "asset of model '\(entities[i].path)' looks like it is not in metres (\(Self.metres(largest)) long); set assetUnits",
                              hint: entities[i].asset.map { "units used: \($0.unitReason)" })
                }
            }
        }
    }

    /// What `assetUnits: centimeters` or `millimeters` would make a model now `largest` metres long,
    /// read at `asset.unitScale` metres per file unit: "assetUnits: centimeters makes it 1.55 m
    /// (millimeters: 0.155 m)", for those that give 1 cm to 10 m; nil when neither does.
    static func unitSuggestion(_ largest: Double, _ asset: AssetUse?) -> String? {
        let scale = asset?.unitScale ?? 1
        guard scale > 0, scale.isFinite, largest.isFinite else { return nil }
        let options = [UnitName.centimeters, .millimeters].compactMap { u -> (UnitName, Double)? in
            let size = largest / scale * u.metres
            return size >= 0.01 && size <= 10 ? (u, size) : nil
        }
        guard let first = options.first else { return nil }
        let size = { (x: Double) in x >= 1 ? Self.metres(x) : "\(Reader.format((x * 1000).rounded() / 1000)) m" }
        let other = options.dropFirst().map { " (\($0.0.rawValue): \(size($0.1)))" }.joined()
        return "assetUnits: \(first.0.rawValue) makes it \(size(first.1))\(other)"
    }

    /// `t.isFinite`.
    static func isFinite(_ t: Mat4) -> Bool { t.isFinite }

    /// The plausibility limit on an asset's coordinates: no vertex farther than 100 km from the
    /// asset's origin, after unit conversion (documented in scene-format.md, "Models and units").
    static let maxAssetReach = 100_000.0

    /// How far the asset of model or environment `entity` reaches from its origin at rest
    /// (`bounds`: its rest world bounds) when that is beyond `maxAssetReach` (infinity when not
    /// finite), or nil when it is plausible or the entity has no asset. After the unit conversion
    /// no real asset reaches further: coordinates beyond it are a broken file, not a unit to guess.
    private func assetReach(of entity: Int, bounds b: AABB) -> Double? {
        guard entities[entity].asset != nil, !b.isEmpty,
              entities[entity].kind == .model || entities[entity].kind == .environment,
              world.indices.contains(entities[entity].node) else { return nil }
        let o = world[entities[entity].node].translation
        let reach = max(abs(b.min.x - o.x), abs(b.min.y - o.y), abs(b.min.z - o.z),
                        abs(b.max.x - o.x), abs(b.max.y - o.y), abs(b.max.z - o.z))
        guard reach.isFinite, b.min.isFinite, b.max.isFinite else { return .infinity }
        return reach > Self.maxAssetReach ? reach : nil
    }

    static func metres(_ d: Double) -> String {
        d >= 1 && d < 1e12 ? "\(Int(d.rounded())) m" : String(format: "%.3g m", d)
    }

    /// The default duration leaves looping animations out (the contract: "the end of the longest
    /// viewer path or non-looping animation, at least 1 frame"), so a scene whose only motion
    /// loops runs one frame and its motion is never judged. Say so at the first looping animation
    /// that the run ends before one loop of, with the duration that shows two loops.
    private func noteLoopsCutShort(duration: Double, frameRate: Double, bareAsset: Bool) {
        let cut = animations.filter { $0.loop && $0.endTime > duration + 0.5 / frameRate && $0.endTime.isFinite && !$0.channels.isEmpty }
        guard let first = cut.first, first.entity >= 0, first.entity < entities.count else { return }
        let longest = cut.map(\.endTime).max() ?? first.endTime
        let frames = max(1, Int((duration * frameRate - 1e-9).rounded(.up)))
        let seconds = { (x: Double) in Reader.format((x * 1000).rounded() / 1000) }
        let what = cut.count == 1 ? "'\(entities[first.entity].path)' loops an animation of \(seconds(first.endTime)) s"
            : "\(cut.count) looping animations (the longest \(seconds(longest)) s, the first on '\(entities[first.entity].path)')"
        let two = Reader.format((2 * longest * 100).rounded(.up) / 100)
        r.warning(bareAsset ? nil : entities[first.entity].location,
                  "\(what), but without \(bareAsset ? "--duration" : "'duration'") the run ends after \(frames) frame\(frames == 1 ? "" : "s") (\(seconds(duration)) s), before one loop: its motion is not judged",
                  hint: bareAsset ? "pass --duration \(two) to simulate two loops" : "set 'duration: \(two)' at the top level to simulate two loops")
    }

    private func defaultDuration(frameRate: Double, events: [SceneEvent]) -> Double {
        var d = max(viewer.path.last?.time ?? 0, viewer.handGiven ? viewer.hand.last?.time ?? 0 : 0)
        for a in animations where !a.loop { d = max(d, a.endTime) }
        for e in events { d = max(d, e.time) }
        return max(d, 1 / frameRate)
    }
}

// MARK: - Range of derived values

extension SceneBuilder {
    static let rangeHint = "every position, size and scale is at most 10⁹, but nested scales multiply: "
        + "keep world positions and sizes within ±10¹² m (docs/security.md §2.2)"

    /// Derived values stay finite and within ±`Limits.maxWorldCoordinate` metres (docs/security.md
    /// §2.2): each input number is at most 10⁹, but a chain of nested scales multiplies (20 groups
    /// with `scale: 1e9` overflow to infinity), and an asset's node transforms have no magnitude
    /// limit of their own. For every node, in depth-first order (parents first), a bound on its
    /// world transform is composed from its parent's — the rest transform, and the largest scale
    /// and translation of any animation key driving it (`√3·max|s|` for the turned, scaled
    /// axes) — and the error names the entity of the first node whose bound leaves the range
    /// (the world position, or the extent of its own geometry). Conservative: an animated chain
    /// is judged by the largest keys of every level together; nothing legitimate comes within
    /// orders of magnitude of 10¹² m.
    ///
    /// A size out of range with the world scale and position in range, in an entity whose asset
    /// fails the plausibility check (`implausibleAssets`), is the file's own coordinates: that
    /// check reports it, naming the asset and `assetUnits`, and this one does not.
    fileprivate func checkDerivedRange(implausibleAssets: Set<Int>) {
        let limit = Limits.maxWorldCoordinate
        let n = nodes.count
        var animScale = [Double](repeating: -1, count: n), animTrans = [Double](repeating: 0, count: n)
        for a in animations {
            for ch in a.channels where ch.node >= 0 && ch.node < n {
                var sc = max(animScale[ch.node], 0), tr = animTrans[ch.node]
                for k in ch.scales { sc = max(sc, k.value.maxMagnitude) }
                for k in ch.positions { tr = max(tr, k.value.maxMagnitude) }
                animScale[ch.node] = sc; animTrans[ch.node] = tr
            }
        }
        var reach = 2.0  // the head and hand frames: eye height and hand offset
        for k in viewer.path { reach = max(reach, k.position.maxMagnitude + 2) }
        reach = max(reach, eye0.maxMagnitude + 2)
        // linear[i]: bound on the row-sum norm of the world linear part; position[i]: on |translation|∞.
        var linear = [Double](repeating: 1, count: n), position = [Double](repeating: 0, count: n)
        var reported = 0
        // Each node's fields read in place (a copy of the whole `Node` per node cost more than the
        // check itself).
        let nodes = self.nodes
        for i in 0..<n {
            let rest = nodes[i].rest.values
            var lin = 0.0
            // `node.rest[row, col]` is `rest[col * 4 + row]`.
            for row in 0..<3 { lin = max(lin, abs(rest[row]) + abs(rest[4 + row]) + abs(rest[8 + row])) }
            var trans = Vec3(rest[12], rest[13], rest[14]).maxMagnitude
            if animScale[i] >= 0 {
                lin = max(lin, 3.0.squareRoot() * max(nodes[i].restTRS.scale.maxMagnitude, animScale[i]))
                trans = max(trans, nodes[i].restTRS.translation.maxMagnitude, animTrans[i])
            }
            let (parentLinear, parentPosition): (Double, Double)
            if let p = nodes[i].parent, p >= 0, p < i {
                (parentLinear, parentPosition) = (linear[p], position[p])
            } else {
                (parentLinear, parentPosition) = nodes[i].anchor == .world ? (1, 0) : (3.0.squareRoot(), reach)
            }
            linear[i] = parentLinear * lin
            position[i] = parentPosition + parentLinear * trans
            let extent = position[i] + linear[i] * (nodes[i].geometry.isEmpty ? 0 : max(nodes[i].geometry.min.maxMagnitude, nodes[i].geometry.max.maxMagnitude))
            let worldFinite = world.indices.contains(i) ? Self.isFinite(world[i]) : true
            // The first value out of range: the world scale, position, or extent of its geometry.
            let (what, value): (String, Double)
            if !(linear[i] <= limit) || !worldFinite { (what, value) = ("scale", worldFinite ? linear[i] : .infinity) }
            else if !(position[i] <= limit) { (what, value) = ("position", position[i]) }
            else if !(extent <= limit) { (what, value) = ("size", extent) }
            else { continue }
            // Report the entity the node belongs to (the nearest ancestor that is one), once, and
            // not again for the entities inside it.
            var e = nodes[i].entity
            var k = nodes[i].parent
            while e == nil, let p = k, p >= 0, p < n { e = nodes[p].entity; k = nodes[p].parent }
            guard let entity = e, entities.indices.contains(entity), !rangeReportedAround(entity) else { continue }
            if what == "size" && implausibleAssets.contains(entity) { continue }
            rangeReported.insert(entity)
            let shown = value.isFinite ? String(format: "%.3g", value) : "infinity"
            r.error(entities[entity].location,
                    "the world \(what) of '\(quoted(entities[entity].path))' reaches \(shown)"
                        + (entities[entity].node == i || nodes[i].parent == nil ? "" : " at its asset node '\(quoted(nodes[i].name))'")
                        + " (nested scales and positions multiply, animation keys included); at most 1e+12 is supported",
                    hint: Self.rangeHint)
            reported += 1
            if reported >= 20 { return }
        }
    }
}

extension SceneBuilder {
    /// The smallest world scale the scene's own `scale`s may multiply to (docs/security.md §2.2).
    /// 10⁻⁹ undoes the largest number a scene may hold (10⁹) and shrinks the largest asset the
    /// loader accepts (100 km across, `maxAssetReach`) to 0.1 mm, smaller than anything a person
    /// can see or point at; below it sizes and distances lose their digits and subnormal products
    /// become 0, which the rules would report as "0 pt_eq".
    static let minWorldScale = 1e-9

    /// The lower bound on world scales: for every entity, parents first, a bound below on the
    /// smallest axis of its world scale is the product of its parent's and its own smallest scale,
    /// rest or any keyframe's (a rotation does not change an axis's length). The first entity on a
    /// chain whose bound falls below `minWorldScale` is an error at the `scale` (or keyframe scale)
    /// that takes it there; the entities inside it are not reported again. Asset nodes' own
    /// transforms are the file's, and left out (the upper bound and plausibility checks cover them).
    fileprivate func checkWorldScaleFloor() {
        guard !shrinkingScaleLocs.isEmpty || !shrinkingKeyScales.isEmpty else { return }
        let floor = Self.minWorldScale
        var worldMin = [Double](repeating: 1, count: entities.count)
        var reported = 0
        for i in entities.indices {
            let p = entities[i].parent.flatMap { $0 >= 0 && $0 < i ? $0 : nil }
            let parentMin = p.map { worldMin[$0] } ?? 1
            let node = entities[i].node
            guard parentMin >= floor, nodes.indices.contains(node) else { worldMin[i] = parentMin; continue }
            let sc = nodes[node].restTRS.scale
            var own = parentMin * Swift.min(sc.x, sc.y, sc.z)
            var loc = shrinkingScaleLocs[i], which = "'scale'"
            if let key = shrinkingKeyScales[node], parentMin * key.value < own {
                own = parentMin * key.value; loc = key.loc; which = "keyframe 'scale'"
            }
            worldMin[i] = own
            guard !(own >= floor) else { continue }
            rangeReported.insert(i)
            r.error(loc ?? entities[i].location,
                    "the world scale of '\(quoted(entities[i].path))' falls to \(String(format: "%.3g", own)) at this \(which) (the scales of an entity and the entities it is nested in multiply, animation keys included); at least 1e-09 is supported",
                    hint: "make this scale, or one it is nested in, larger so that their product stays at least 10⁻⁹ (docs/security.md §2.2); to hide content use 'visible: false' or a 'hide' event")
            reported += 1
            if reported >= 20 { return }
        }
    }

    /// True when `entity` or an entity it is inside already has a range error.
    fileprivate func rangeReportedAround(_ entity: Int) -> Bool {
        var e: Int? = entity
        var steps = 0
        while let i = e, entities.indices.contains(i), steps < 10_000 {
            if rangeReported.contains(i) { return true }
            e = entities[i].parent
            steps += 1
        }
        return false
    }
}

extension Vec3 {
    /// The largest absolute component (infinity or NaN when one is).
    fileprivate var maxMagnitude: Double {
        guard isFinite else { return .infinity }
        return Swift.max(abs(x), abs(y), abs(z))
    }
}

/// Consecutive rotation keys written as angles that differ by 180° or more (yaw 0 → 360 for a
/// full turn): rotations are interpolated the shorter way (slerp), so such a pair turns less than
/// written, or back the other way, or not at all. Noted once per key list, with the fix.
struct WrittenTurns {
    private var last: (angles: SIMD3<Double>, time: Double)?
    private var noted = false

    /// `keepsPrevious`: a key without a rotation keeps the previous key's (a viewer path), else it
    /// has the rest rotation (an entity's keyframes), whose written angles are not known here.
    mutating func check(_ o: (quat: Quat?, given: Bool, angles: SIMD3<Double>?), at k: YMap, time: Double, what: String,
                        keepsPrevious: Bool, reader r: Reader) {
        guard o.given else {
            if !keepsPrevious { last = nil }
            return
        }
        defer { last = o.angles.map { ($0, time) } }
        guard !noted, let a = o.angles, let (b, t0) = last else { return }
        let d = a - b
        let names = ["yaw", "pitch", "roll"]
        guard let i = (0..<3).first(where: { abs(d[$0]) >= 180 }) else { return }
        noted = true
        r.warning(k.keyLoc("rotation"),
                  "the rotation keys of \(what) at t = \(Reader.format(t0)) and t = \(Reader.format(time)) differ by \(Reader.format(abs(d[i])))° of \(names[i]) (\(Reader.format(b[i])) → \(Reader.format(a[i]))); rotations are interpolated the shorter way, so this pair of keys turns by \(Reader.format(Self.shorter(d[i])))° instead; add keys less than 180° apart (for a full turn: yaw 0, 120, 240, 360)")
    }

    /// The turn the shorter way, for one angle difference (degrees, in [0, 180]).
    static func shorter(_ d: Double) -> Double {
        let m = abs(d).truncatingRemainder(dividingBy: 360)
        return min(m, 360 - m)
    }
}
