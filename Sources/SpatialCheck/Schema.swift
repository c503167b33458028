import SpatialModel
import Rules
import Reporting
import SceneLoader

/// JSON Schemas (draft-07) for the scene format, the configuration file and the JSON report,
/// printed by `spatialcheck schema scene|config|report`. Enumerations (kinds, roles, platforms,
/// immersion styles, anchors, severities, rule ids, rule parameters, units, baseline statuses)
/// come from the types and the rule catalog that define them, so the schemas cannot drift from
/// the code; key lists mirror the loader's (SceneBuilder, RuleConfiguration), and the tests check
/// every scene and golden report in the repository against them and that a misspelt key fails.
/// Editors use them through the `# yaml-language-server: $schema=…` header (docs/schemas.md).
extension SpatialCheck {
    public enum SchemaKind: String, Sendable, CaseIterable { case scene, config, report }

    public static func schema(_ kind: SchemaKind) -> JSON {
        switch kind {
        case .scene: return SchemaBuilder.scene()
        case .config: return SchemaBuilder.config()
        case .report: return SchemaBuilder.report()
        }
    }
}

enum SchemaBuilder {
    static let draft = "http://json-schema.org/draft-07/schema#"

    // MARK: Building blocks

    static func obj(_ properties: [(String, JSON)], required: [String] = [], description: String? = nil,
                    closed: Bool = true) -> JSON {
        var m: [(String, JSON)] = [("type", .string("object"))]
        if let description { m.append(("description", .string(description))) }
        m.append(("properties", .object(properties)))
        if !required.isEmpty { m.append(("required", .array(required.map(JSON.string)))) }
        if closed { m.append(("additionalProperties", .bool(false))) }
        return .object(m)
    }
    static func enumeration(_ values: [String], _ description: String? = nil) -> JSON {
        .object([("type", .string("string"))] + (description.map { [("description", JSON.string($0))] } ?? [])
            + [("enum", .array(values.map(JSON.string)))])
    }
    static func number(_ description: String? = nil, exclusiveMinimum: Double? = nil, minimum: Double? = nil,
                       exclusiveMaximum: Double? = nil, maximum: Double? = nil) -> JSON {
        var m: [(String, JSON)] = [("type", .string("number"))]
        if let description { m.append(("description", .string(description))) }
        if let exclusiveMinimum { m.append(("exclusiveMinimum", .number(exclusiveMinimum))) }
        if let minimum { m.append(("minimum", .number(minimum))) }
        if let exclusiveMaximum { m.append(("exclusiveMaximum", .number(exclusiveMaximum))) }
        if let maximum { m.append(("maximum", .number(maximum))) }
        return .object(m)
    }

    /// `units.pointAngle` and `units.fixedPointSize` with the loader's own bounds (`Units`), so an
    /// editor refuses what `validate` refuses (s27 F13).
    static var pointAngleSchema: JSON {
        number("degrees per point, \(Units.pointAngleRangeText) (visionOS: 0.0671)",
               minimum: Units.minPointAngle, exclusiveMaximum: Units.maxPointAngle)
    }
    static var fixedPointSizeSchema: JSON {
        number("metres per point for fixed-scale content, \(Units.fixedPointSizeRangeText)",
               minimum: Units.minFixedPointSize, maximum: Units.maxFixedPointSize)
    }
    static func integer(_ description: String? = nil, minimum: Int? = nil) -> JSON {
        .object([("type", .string("integer"))] + (description.map { [("description", JSON.string($0))] } ?? [])
            + (minimum.map { [("minimum", JSON.int($0))] } ?? []))
    }
    static func string(_ description: String? = nil, pattern: String? = nil) -> JSON {
        .object([("type", .string("string"))] + (description.map { [("description", JSON.string($0))] } ?? [])
            + (pattern.map { [("pattern", JSON.string($0))] } ?? []))
    }
    static let boolean: JSON = .object([("type", .string("boolean"))])
    static func flag(_ description: String) -> JSON { .object([("type", .string("boolean")), ("description", .string(description))]) }
    static func tuple(_ n: Int, _ description: String, of item: JSON = .object([("type", .string("number"))])) -> JSON {
        .object([("type", .string("array")), ("description", .string(description)), ("items", item),
                 ("minItems", .int(n)), ("maxItems", .int(n))])
    }
    static func array(_ items: JSON, _ description: String? = nil) -> JSON {
        .object([("type", .string("array"))] + (description.map { [("description", JSON.string($0))] } ?? []) + [("items", items)])
    }
    static func ref(_ name: String) -> JSON { .object([("$ref", .string("#/definitions/\(name)"))]) }
    static func anyOf(_ options: [JSON], _ description: String? = nil) -> JSON {
        .object((description.map { [("description", JSON.string($0))] } ?? []) + [("anyOf", .array(options))])
    }
    static func document(title: String, root: JSON, definitions: [(String, JSON)]) -> JSON {
        guard case .object(let members) = root else { return root }
        return .object([("$schema", .string(draft)), ("title", .string(title))]
                       + members + [("definitions", .object(definitions))])
    }

    // MARK: Scene (scene-format.md)

    /// Keys of every entity, and those only some kinds take: the loader's own lists (`SceneKeys`).
    static var commonEntityKeys: [String] { SceneKeys.common }
    static var kindKeys: [(EntityKind, [String])] { SceneKeys.byKind.map { ($0.kind, $0.keys) } }
    /// A key the loader takes that has no detailed schema here: any value, checked by the loader.
    static let described: JSON = .object([("description", .string("see docs/scene-format.md"))])
    /// `properties` for `keys`: the detailed schema where there is one, else `described`.
    static func properties(_ keys: [String], _ detailed: [String: JSON]) -> JSON {
        .object(keys.map { ($0, detailed[$0] ?? described) })
    }
    /// Kinds a scene file can name: every `EntityKind` except those the loader makes itself.
    static var sceneKinds: [String] { EntityKind.allCases.filter { $0 != .element && $0 != .node }.map(\.rawValue) }
    static let unitNames = ["meters", "centimeters", "millimeters", "inches", "feet"]

    static func scene() -> JSON {
        let vec3 = tuple(3, "[x, y, z]")
        let rotation = obj([("yaw", number("degrees about +Y; positive turns left")),
                            ("pitch", number("degrees about +X; positive tilts up")),
                            ("roll", number("degrees about +Z"))], description: "R = Ry(yaw) · Rx(pitch) · Rz(roll)")
        let quaternion = tuple(4, "[x, y, z, w]; instead of rotation")
        let pose: [(String, JSON)] = [("t", number("seconds", minimum: 0)), ("position", ref("vec3")),
                                      ("rotation", ref("rotation")), ("quaternion", ref("quaternion"))]
        let paint = string("a colour \"#RRGGBB\" or \"#RRGGBBAA\" (quoted), or a system material: "
                           + SystemMaterial.allCases.map(\.rawValue).joined(separator: ", "),
                           pattern: "^(#([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|" + SystemMaterial.allCases.map(\.rawValue).joined(separator: "|") + ")$")
        let appearanceProps: [(String, JSON)] = [
            ("accessibilityLabel", string("its VoiceOver label")),
            ("decorative", boolean),
            ("color", paint), ("background", paint),
            ("fontWeight", enumeration(FontWeight.allCases.map(\.rawValue))),
        ]
        let allEntityKeys = commonEntityKeys + kindKeys.flatMap(\.1).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let entityProps: [String: JSON] = [
            "id": string("unique name: letters, digits, '-', '_', '.'", pattern: "^[A-Za-z0-9._-]+$"),
            "kind": enumeration(sceneKinds),
            "position": ref("vec3"),
            "placement": .object([("type", .string("object")),
                                  ("description", .string("relative to the viewer's eye at t = 0 (top-level entities only); instead of position")),
                                  ("properties", properties(SceneKeys.placement, [
                                      "distance": number("metres from the eye at t = 0", exclusiveMinimum: 0),
                                      "azimuth": number("degrees, positive to the viewer's right"),
                                      "elevation": number("degrees, positive up"),
                                      "facing": enumeration(["viewer", "none"], "viewer (default): turn about +Y to face the viewer's eye"),
                                  ])),
                                  ("additionalProperties", .bool(false))]),
            "rotation": ref("rotation"),
            "quaternion": ref("quaternion"),
            "facing": enumeration(["viewer", "none"], "viewer (default with placement): turn about +Y to face the viewer's eye"),
            "scale": anyOf([number(exclusiveMinimum: 0), ref("vec3")], "uniform number or [x, y, z]"),
            "anchor": enumeration(Anchor.allCases.map(\.rawValue)),
            "interactive": boolean, "primary": boolean, "visible": boolean,
            "children": array(ref("entity"), "nested entities, transforms relative to this one"),
            "animation": obj([("keyframes", array(obj(pose + [("scale", anyOf([number(), ref("vec3")]))]))),
                              ("clip", string("a clip stored in the model's asset")), ("loop", boolean),
                              ("speed", number(exclusiveMinimum: 0)),
                              ("trigger", enumeration(AnimationTrigger.allCases.map(\.rawValue), "user: a person's action starts it; system (default): the app does")),
                              ("reduceMotion", enumeration(ReduceMotionBehavior.allCases.map(\.rawValue), "what the app does with it while Reduce Motion is on (default keep)"))]),
            "media": ref("media"),
            "representsRealObject": flag("a window, volume or model that shows a real object at its real size (a product)"),
            "userScalable": flag("a model people can resize (a pinch, ManipulationComponent scaling)"),
            "presentation": enumeration(Presentation.allCases.map(\.rawValue), "a window nested in a window or volume: presented modally by it (sheet, alert, popover, menu) rather than an ornament"),
            "placementMode": enumeration(PlacementMode.allCases.map(\.rawValue), "top-level, world-anchored: absolute (fixed world height; default with position, except windows and volumes) or headRelative (placed relative to the head; default with placement and for windows and volumes)"),
            "size": .object([("description", .string("window: [w, h] in pt; volume: [w, h, d] in metres")), ("type", .string("array")),
                             ("items", number(exclusiveMinimum: 0)), ("minItems", .int(2)), ("maxItems", .int(3))]),
            "scaleMode": enumeration(ScaleMode.allCases.map(\.rawValue)),
            "elements": array(ref("element")),
            "asset": string("path relative to the scene file"),
            "assetUnits": anyOf([enumeration(unitNames), number("metres per unit", exclusiveMinimum: 0)]),
            "node": string("use this named node of the asset only"),
            "fontSize": number("pt", exclusiveMinimum: 0),
            "height": number("metres (fixed-size text)", exclusiveMinimum: 0),
            "string": string(),
            "groundPlane": boolean,
            "accessibilityLabel": string("its VoiceOver label"), "decorative": boolean,
            "color": paint, "background": paint, "fontWeight": enumeration(FontWeight.allCases.map(\.rawValue)),
            "range": tuple(2, "immersion range in degrees, [min, max]"),
            "assetAxes": enumeration(["auto", "none", "zUp"], "how the asset's axes are turned to +Y up (default auto)"),
            "annotations": array(.object([("type", .string("object")),
                                          ("properties", properties(SceneKeys.annotation, [:])),
                                          ("required", .array([.string("nodes")])),
                                          ("additionalProperties", .bool(false))]),
                                 "facts about asset nodes chosen by path glob"),
        ]
        // Per kind, only its own keys (as the loader says: "applies to … entities, not …").
        let perKind: [JSON] = kindKeys.map { kind, keys in
            .object([
                ("if", .object([("properties", .object([("kind", .object([("const", .string(kind.rawValue))]))]))])),
                ("then", .object([("propertyNames", .object([("enum", .array((commonEntityKeys + keys).map(JSON.string)))]))])),
            ])
        }
        let entity: JSON = .object([
            ("type", .string("object")),
            ("properties", properties(allEntityKeys, entityProps)),
            ("required", .array([.string("id"), .string("kind")])),
            ("additionalProperties", .bool(false)),
            ("allOf", .array(perKind)),
        ])
        let elementProps: [(String, JSON)] = [
            ("id", string(pattern: "^[A-Za-z0-9._-]+$")),
            ("role", enumeration(ElementRole.allCases.map(\.rawValue))),
            ("frame", tuple(4, "[x, y, width, height] in pt from the container's top-left corner")),
            ("depth", number("pt toward the viewer")),
            ("fontSize", number("pt", exclusiveMinimum: 0)),
            ("label", string()),
            ("interactive", boolean), ("primary", boolean), ("visible", boolean),
            ("media", ref("media")),
        ] + appearanceProps + [("symbol", string("SF Symbol name (a tab's icon)"))]
        let element: JSON = .object([("type", .string("object")),
                                     ("properties", properties(SceneKeys.element, Dictionary(elementProps, uniquingKeysWith: { a, _ in a }))),
                                     ("required", .array([.string("id")])), ("additionalProperties", .bool(false))])
        let viewerProps: [(String, JSON)] = [
            ("posture", enumeration(Posture.allCases.map(\.rawValue))),
            ("eyeHeight", number("metres", exclusiveMinimum: 0)),
            ("ipd", number("metres", exclusiveMinimum: 0)),
            ("fieldOfView", tuple(2, "comfortable field of view in degrees, [horizontal, vertical]")),
            ("path", array(obj(pose), "head pose keyframes, strictly increasing in t")),
            ("motion", enumeration(MotionPreset.allCases.map(\.rawValue))),
        ]
        let viewer: JSON = .object([("type", .string("object")),
                                    ("properties", properties(SceneKeys.viewer, Dictionary(viewerProps, uniquingKeysWith: { a, _ in a }))),
                                    ("additionalProperties", .bool(false))])
        let deviceProps: [(String, JSON)] = [
            ("model", string("a preset (case, spaces and hyphens ignored): " + Device.presets.map(\.name).joined(separator: ", "))),
            ("screen", tuple(2, "screen size in pt, [width, height] in portrait")),
            ("orientation", enumeration(DeviceOrientation.allCases.map(\.rawValue))),
            ("fieldOfView", number("horizontal field of view of the camera view on screen, degrees", exclusiveMinimum: 0, exclusiveMaximum: 180)),
        ]
        let device: JSON = .object([("type", .string("object")),
                                    ("properties", properties(SceneKeys.device, Dictionary(deviceProps, uniquingKeysWith: { a, _ in a }))),
                                    ("additionalProperties", .bool(false))])
        let event = obj([
            ("t", number("seconds", minimum: 0)),
            ("action", enumeration(["setImmersion", "recenter", "show", "hide", "trackingState", "planeDetected", "planeLost", "referenceImages"])),
            ("style", enumeration(ImmersionStyle.allCases.map(\.rawValue))),
            ("trigger", enumeration(SceneEvent.Trigger.allCases.map(\.rawValue))),
            ("transition", number("setImmersion: seconds the change takes to fade in", minimum: 0)),
            ("entity", string("the entity's path, for show and hide")),
            ("state", enumeration(TrackingState.allCases.map(\.rawValue), "ARKit tracking state, for trackingState")),
            ("reason", enumeration(TrackingReason.allCases.map(\.rawValue), "why tracking is limited (state: limited only)")),
            ("plane", string("an id for the plane, for planeDetected and planeLost")),
            ("alignment", enumeration(PlaneAlignment.allCases.map(\.rawValue))),
            ("count", number("reference images active for detection, for referenceImages", minimum: 0)),
        ], required: ["t", "action"])
        let media = obj([
            ("kind", enumeration(MediaKind.allCases.map(\.rawValue))),
            ("autoplay", boolean), ("controls", boolean), ("speech", boolean), ("captions", boolean),
            ("flashRate", number("flashes per second", minimum: 0)),
            ("flashLuminance", number("change of relative luminance per flash, 0…1", minimum: 0)),
            ("dimsFlashingLights", boolean),
            ("cameraMotion", obj([("rotation", number("degrees per second", minimum: 0)),
                                  ("acceleration", number("m/s²", minimum: 0))])),
        ], required: ["kind"], description: "media the entity plays (docs/scene-format.md, \"Media\")")
        let root = obj([
            ("format", .object([("const", .string("spatialscene/1"))])),
            ("name", string("shown in reports")),
            ("platform", enumeration(Platform.allCases.map(\.rawValue))),
            ("immersion", enumeration(ImmersionStyle.allCases.map(\.rawValue))),
            ("frameRate", number("Hz", exclusiveMinimum: 0)),
            ("duration", number("seconds to simulate", exclusiveMinimum: 0)),
            ("units", obj([("pointAngle", pointAngleSchema), ("fixedPointSize", fixedPointSizeSchema)])),
            ("viewer", ref("viewer")),
            ("entities", array(ref("entity"))),
            ("events", array(ref("event"))),
            ("settings", obj([("reduceMotion", boolean), ("dimFlashingLights", boolean)],
                             description: "accessibility settings the scene is simulated and judged under (default off)")),
            ("device", ref("device")),
        ], required: ["format"])
        return document(title: "spatialcheck scene (spatialscene/1)", root: root, definitions: [
            ("vec3", vec3), ("rotation", rotation), ("quaternion", quaternion), ("entity", entity),
            ("element", element), ("viewer", viewer), ("event", event), ("media", media), ("device", device),
        ])
    }

    // MARK: Configuration (.spatialcheck.yaml)

    static func config() -> JSON {
        let severities = Severity.allCases.map(\.rawValue)
        let rules: [(String, JSON)] = RuleCatalog.rules.map { meta in
            var props: [(String, JSON)] = [("severity", enumeration(severities, "default \(meta.defaultSeverity.rawValue)")),
                                           ("enabled", boolean)]
            if let key = meta.thresholdKey, let p = meta.parameter(key) {
                props.append(("threshold", number("\(key), default \(fmtNumber(p.defaultValue)) \(p.unit)", minimum: 0)))
            }
            props += meta.parameters.map { p in (p.key, number("\(p.summary) (default \(fmtNumber(p.defaultValue)) \(p.unit))", minimum: 0)) }
            let setting = anyOf([
                enumeration(["off", "on"] + severities),
                boolean,
                obj(props),
            ], "\(meta.name): \(meta.summary)")
            return (meta.id, setting)
        }
        let root = obj([
            ("failOn", enumeration(FailOn.allCases.map(\.rawValue), "lowest severity that fails the run")),
            ("units", obj([("pointAngle", pointAngleSchema)])),
            ("rules", .object([("type", .string("object")), ("properties", .object(rules)), ("additionalProperties", .bool(false))])),
            ("ignore", array(obj([
                ("rule", enumeration(RuleCatalog.allRuleIDs + ["*"], "a rule id, or * for every rule")),
                ("entity", string("glob over entity paths: * matches within one path segment (never '/'), ** across segments, ? one character; a violation with several entities (a pair) is ignored only when every one of them matches, a whole-scene violation only by *, ** or no entity; starting with '/': the USD prim path of an entity read from USD")),
                ("reason", string("why it is safe to ignore (required)", pattern: "\\S")),
                ("scene", string("glob over scene paths relative to the project root (as reports and fingerprints write them), with the same * ** ? as entity: the entry applies only to the scenes it matches; without it, to every scene", pattern: "^[^/]")),
            ], required: ["rule", "reason"]))),
        ])
        return document(title: "spatialcheck configuration (.spatialcheck.yaml)", root: root, definitions: [])
    }

    // MARK: Report (spatialcheck-report/1)

    static func report() -> JSON {
        let units = (RuleCatalog.rules.map(\.unit) + RuleCatalog.rules.flatMap { $0.subchecks.map(\.unit) })
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let location: JSON = anyOf([obj([("line", integer(minimum: 0)), ("column", integer(minimum: 0))], required: ["line", "column"]),
                                    .object([("type", .string("null"))])])
        let nullableNumber: JSON = .object([("type", .array([.string("number"), .string("null")]))])
        let diagnostic = obj([("message", string()), ("file", string()), ("location", location), ("hint", string())], required: ["message"])
        let violation = obj([
            ("rule", enumeration(RuleCatalog.allRuleIDs)),
            ("severity", enumeration(Severity.allCases.map(\.rawValue))),
            ("entities", array(string())),
            ("usdPrims", array(obj([("entity", string("one of the violation's entities")),
                                    ("path", string("the USD prim's path on its stage, as Reality Composer Pro shows it")),
                                    ("layer", string("the file of that stage (its root layer), relative to the project root like the scene's path"))],
                                   required: ["entity", "path", "layer"]),
                               "the USD prims the entities were read from (only entities read from USD; absent when none was)")),
            ("spans", array(tuple(2, "inclusive frame range", of: integer(minimum: 0)))),
            ("frameCount", integer(minimum: 0)),
            ("firstTime", number()), ("lastTime", number()),
            ("measured", nullableNumber), ("threshold", nullableNumber),
            ("unit", enumeration(units)),
            ("worstFrame", integer(minimum: 0)),
            ("borderline", boolean),
            ("baseline", enumeration(BaselineStatus.allCases.filter { $0 != .fixed && $0 != .suppressed }.map(\.rawValue))),
            ("baselineMeasured", number("only when baseline is worsened: the baseline violation's measured value, to compare with measured")),
            ("message", string()), ("help", string()),
            ("fingerprint", string(pattern: "^[0-9a-f]{16}$")),
            ("location", location),
            ("omittedSpans", integer("runs left out of spans (between the first 99 and the latest)", minimum: 0)),
        ], required: ["rule", "severity", "entities", "measured", "threshold", "unit", "message", "fingerprint"])
        let scene = obj([
            ("path", string("relative to the project root")),
            ("order", integer("place in the whole run (shard reports only)", minimum: 0)),
            ("name", string()),
            ("status", enumeration(SceneReport.Status.allCases.map(\.rawValue))),
            ("frameRate", number()), ("frames", integer(minimum: 0)), ("duration", number()),
            ("platform", enumeration(Platform.allCases.map(\.rawValue))),
            ("pointAngle", number()),
            ("fixedPointSize", number("metres per point for fixed-scale content")),
            ("summary", obj(Severity.allCases.map { ($0.rawValue, integer(minimum: 0)) })),
            ("violations", array(ref("violation"))),
            ("omittedViolations", array(obj([("rule", enumeration(RuleCatalog.allRuleIDs)),
                                             ("severity", enumeration(Severity.allCases.map(\.rawValue))),
                                             ("count", integer(minimum: 0)),
                                             ("fingerprints", array(.object([
                                                ("type", .string("array")),
                                                ("description", .string("[fingerprint, measured, threshold] of one violation left out, what a baseline compares")),
                                                ("items", .array([string(), .object([("type", .array([.string("number"), .string("null")]))]),
                                                                  .object([("type", .array([.string("number"), .string("null")]))])])),
                                                ("minItems", .int(3)), ("maxItems", .int(3)),
                                             ])))], required: ["rule", "severity", "count"]),
                                        "violations left out of the list, per rule and severity")),
            ("stopped", obj([("afterFrame", integer("last frame checked", minimum: 0)),
                             ("frames", integer("frames the scene asked for", minimum: 0)),
                             ("trackingLimit", integer("distinct violations one scene may track (--max-tracked), when that stopped it", minimum: 0)),
                             ("pairTestBudget", integer("the work budget in work units (--max-work), when the scene's work passed it", minimum: 0)),
                             ("partialFrame", flag("true when the tracking limit stopped the scene in the middle of frame afterFrame: that frame was checked only in part")),
                             ("countsAreLowerBounds", flag("true with partialFrame: summary, omittedViolations counts and spans are lower bounds, not the counts of frames 0 to afterFrame")),
                             ("projection", obj([("fromFrame", integer("first frame of the window the rate was taken from", minimum: 0)),
                                                 ("toFrame", integer("last frame of that window", minimum: 0)),
                                                 ("unitsPerFrame", integer("work units per frame in the window", minimum: 0)),
                                                 ("projectedWork", integer("the whole scene's work, projected", minimum: 0)),
                                                 ("suggestedMaxWork", integer("a --max-work that would check the scene whole", minimum: 0))],
                                                required: ["fromFrame", "toFrame", "unitsPerFrame", "projectedWork", "suggestedMaxWork"],
                                                description: "when the work budget stopped the scene early by projecting its whole work from its steady frames")),
                             ("message", string())], required: ["afterFrame", "frames", "message"])),
            ("warnings", array(ref("diagnostic"))),
            ("ignored", array(obj([("rule", string("a rule id, or *")), ("entity", string("the entry's entity glob")),
                                   ("scene", string("the entry's scene glob, when it has one")),
                                   ("count", integer(minimum: 1)), ("location", location),
                                   ("fingerprints", array(string(pattern: "^[0-9a-f]{16}$"), "the fingerprints of the violations it left out: a baseline violation one of them matches is suppressed, not fixed"))],
                                  required: ["rule", "entity", "count"]),
                              "per ignore entry of the configuration that left out violations of this scene: how many")),
            ("rulesChecked", array(enumeration(RuleCatalog.allRuleIDs))),
            ("geometry", ref("geometry")),
            ("errors", array(ref("diagnostic"))),
        ], required: ["path", "status"])
        let xz = array(number(), "x, z in metres (top-down, −z forward)")
        let geometry = obj([
            ("viewerPath", array(xz, "head position sampled over the run (at most ~400 points)")),
            ("pathFrames", array(integer(minimum: 0), "frame of each viewerPath sample")),
            ("boundaryOrigins", array(xz, "boundary origins used during the run")),
            ("boundaryRadius", number("m")), ("fadeRadius", number("m")),
            ("fieldOfView", array(number(), "horizontal, vertical comfort field of view in degrees")),
            ("screen", obj([("size", array(number(), "width, height in points, the orientation applied")),
                            ("model", .object([("type", .array([.string("string"), .string("null")]))])),
                            ("orientation", enumeration(["portrait", "landscape"]))],
                           required: ["size", "orientation"], description: "iOS scenes with a device only: the screen the HTML report draws the viewer's view as")),
            ("footprints", array(obj([("path", string()), ("kind", string()),
                                      ("bounds", array(number(), "minX, maxX, minZ, maxZ at rest")),
                                      ("outline", array(xz, "the box seen from above"))], required: ["path", "bounds"]))),
            ("views", array(obj([("frame", integer(minimum: 0)), ("time", number()),
                                 ("boxes", array(array(.object([]), "[path, minAz, maxAz, minEl, maxEl, distance] in head-frame degrees and m"))),
                                 ("outlines", array(array(array(number(), "azimuth, elevation in degrees")),
                                                    "optional, one per box in the boxes' order: the box's silhouette from the eye, the corners of its convex hull in order, each side a great-circle arc (empty: unknown)"))],
                                required: ["frame", "boxes"]), "the view from the eye at violations' worst frames")),
            ("series", array(obj([("quantity", enumeration(["boundary", "distance", "eccentricity", "angularVelocity"])),
                                  ("entity", .object([("type", .array([.string("string"), .string("null")]))])),
                                  ("unit", string()), ("frames", array(integer(minimum: 0))), ("values", array(number()))],
                                 required: ["quantity", "frames", "values"]), "measured quantities over time, sampled")),
            ("events", array(obj([("frame", integer(minimum: 0)), ("time", number()),
                                  ("kind", enumeration(["show", "hide", "immersion", "recenter"])), ("detail", string())],
                                 required: ["frame", "kind"]))),
            ("tracks", array(obj([("path", string()), ("frames", array(integer(minimum: 0), "frame of each point")),
                                  ("points", array(xz, "the entity's centre while it is shown, at the viewerPath frames, the first frame it is shown and the worst frames of the findings about it")),
                                  ("poses", array(obj([("frame", integer(minimum: 0)), ("outline", array(xz, "the box seen from above"))],
                                                      required: ["frame", "outline"]), "its box at the first frame it is shown and at the worst frames of the findings about it or its elements"))],
                                 required: ["path", "frames", "points", "poses"]),
                             "only when something moves: at most 12 moving windows, volumes and models, those the findings name first")),
        ], description: "what the HTML report draws (validate --with-geometry only)")
        var baselineCounts: [(String, JSON)] = BaselineStatus.allCases.map { status in
            status == .suppressed
                ? (status.rawValue, integer("baseline violations that still occur but an ignore entry of the configuration left out of this run (not fixed); only when some are", minimum: 1))
                : (status.rawValue, integer(minimum: 0))
        }
        baselineCounts.append(("fixedViolations", array(obj([("scene", string()), ("rule", enumeration(RuleCatalog.allRuleIDs)),
                                                             ("entities", array(string())),
                                                             ("fingerprint", string(pattern: "^[0-9a-f]{16}$"))]))))
        baselineCounts.append(("partialScenes", array(obj([("scene", string()), ("baselineStopped", flag("the run that saved the baseline stopped early")),
                                                           ("currentStopped", flag("this run stopped early (scenes[].stopped)")), ("message", string())],
                                                          required: ["scene", "baselineStopped", "currentStopped", "message"]),
                                                      "scenes compared with the baseline while one of the two runs stopped early: the comparison is partial")))
        baselineCounts.append(("fixedNotListed", integer("fixed violations counted in `fixed` but not listed in fixedViolations (--max-violations per rule and scene; SARIF's result limit)", minimum: 1)))
        let root = obj([
            ("format", .object([("const", .string(Report.formatTag))])),
            ("tool", obj([("name", string()), ("version", string())])),
            ("generatedAt", string("ISO 8601 UTC, with --timestamp")),
            ("shard", obj([("index", integer(minimum: 1)), ("count", integer(minimum: 1))], required: ["index", "count"])),
            ("settings", obj([("pointAngle", number()), ("fixedPointSize", number()), ("failOn", enumeration(FailOn.allCases.map(\.rawValue))),
                              ("configurationChanges", array(string(), "what the configuration changed of the rule catalog's defaults, one line each"))])),
            ("scenes", array(ref("scene"))),
            ("notChecked", obj([("catalogRules", integer("catalog rules no rule checks", minimum: 0)),
                                ("manualReview", integer("manual-review items (spatialcheck rules --manual)", minimum: 0))],
                               required: ["catalogRules", "manualReview"])),
            ("baseline", obj(baselineCounts)),
        ], required: ["format", "scenes"])
        return document(title: "spatialcheck report (spatialcheck-report/1)", root: root, definitions: [
            ("scene", scene), ("violation", violation), ("diagnostic", diagnostic), ("geometry", geometry),
        ])
    }

    static func fmtNumber(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
