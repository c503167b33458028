import Foundation
import SpatialModel
import Simulation

public enum MotionPeripheral: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-peripheral", name: "Calm motion in the periphery", category: .motion,
        defaultSeverity: .warning, thresholdKey: "speed",
        parameters: [
            RuleParameter("speed", 10, "deg/s", .external("heuristic; the HIG gives no speed"), "fastest comfortable angular speed in the periphery"),
            RuleParameter("immersiveSpeed", 5, "deg/s", .external("heuristic; environments ask for gentler motion"), "the same in progressive or full immersion"),
            RuleParameter("eccentricity", 30, "deg", .external("border of near and far peripheral vision"), "where the periphery starts"),
            RuleParameter("minSize", 1, "deg", .configurable("ignore specks"), "smallest angular size considered"),
            RuleParameter("displayWidth", 100, "deg", .external("Apple publishes no display field of view for Vision Pro; reviewers' measurements put it near 100° horizontally (UploadVR's Vision Pro review, 2024)"), "horizontal field of view of the display: motion outside it is not seen"),
            RuleParameter("displayHeight", 90, "deg", .external("estimate of Vision Pro's vertical display field of view (wider than the 70° comfort field, narrower than the horizontal one)"), "vertical field of view of the display"),
        ],
        citations: [Citation("accessibility", "visionOS"), Citation("spatial-layout", "Field of view"),
                    Citation("eyes", "Making items easy to see"), Citation("immersive-experiences", "Creating an environment")],
        summary: "Content seen more than 30° off the line of sight moves faster than 10°/s (5°/s in progressive or full immersion).",
        rationale: "Motion at the edge of vision pulls the eyes away and can be uncomfortable; the HIG asks to slow down and tone down animation there.",
        fixHint: "Slow the animation down, or move it closer to the centre of view.",
        unit: "deg/s", worse: .higher,
        notes: ["A speed found in one run of at most 2 s (a one-off move) comes with how much longer the move must last: played k = measured ÷ threshold times as long, an animation's fastest frame is at the limit.",
                "Angular speed is world-relative (head rotation removed), as computed by the simulator.",
                "Only motion inside the display's field of view is judged (displayWidth × displayHeight, default 100° × 90°, wider than the 90° × 70° comfort field of viewer.fieldOfView): content is inside while part of it is, |azimuth| − angularWidth/2 ≤ displayWidth/2 and |elevation| − angularHeight/2 ≤ displayHeight/2 in the head frame. Motion beyond the display's edge (87° off the line of sight, say) is not seen and not reported.",
                "Not judged: interactive content whose own animation a person's action starts (trigger: user), such as dice they throw: people look at what they set moving. Content more below the line of sight than beside it gets a note in its message: the viewer looks straight ahead unless viewer.path pitches the head, and a seated player looks down at a tabletop game."])
}

public enum MotionTooFast: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "motion-too-fast", name: "No jarring motion", category: .motion,
        defaultSeverity: .warning, thresholdKey: "speed",
        parameters: [
            RuleParameter("speed", 60, "deg/s", .external("heuristic; the HIG gives no speed"), "fastest comfortable angular speed anywhere"),
            RuleParameter("loomingSpeed", 2, "m/s", .external("heuristic; the HIG gives no speed"), "fastest comfortable approach toward the eye (looming)"),
            RuleParameter("loomingDistance", 3, "m", .external("heuristic; approach matters within room scale"), "looming is checked while content is closer than this"),
            RuleParameter("timeToContact", 0.5, "s", .external("looming research: defensive blinks and flinches come as an object's time to contact (distance / approach speed, the optical variable tau) falls below about a second; half a second is well inside it"), "shortest comfortable time to contact of approaching content"),
        ],
        citations: [Citation("designing-for-visionos", "Best practices")],
        summary: "Visible content moves faster than 60°/s across the view, or comes at the viewer faster than 2 m/s within 3 m or so fast that it would reach the eyes in under 0.5 s (looming).",
        rationale: "The HIG asks to avoid overwhelming, jarring or too-fast motion; content rushing at the eye is the most jarring kind.",
        fixHint: "Slow the motion down or shorten its path; let approaching content decelerate or stop farther away.",
        unit: "deg/s", worse: .higher,
        notes: ["A speed found in one run of at most 2 s (a one-off move) comes with how much longer the move must last: played k = measured ÷ threshold times as long, an animation's fastest frame is at the limit.",
                "Angular speed is world-relative (head rotation removed), as computed by the simulator.",
                "Looming: v_app = −d(distance)/dt, the rate at which the distance from the eye to the centre shrinks, measured from the previous frame's eye position (so walking toward still content is not looming; head- and hand-anchored content is measured in the head frame). Reported while the content is visible, v_app > 2 m/s and its current eye distance d < 3 m, as a violation of its own in m/s (sub-check `looming`, beside the angular one in deg/s).",
                "Time to contact (sub-check `timeToContact`, s, smaller is worse): d / v_app while content approaches (v_app > 0) within loomingDistance; reported when it falls under 0.5 s, so a close approach at a moderate speed (1.5 m/s at 0.5 m: 0.33 s) is caught as well as a fast one. Measured: the shortest time to contact."],
        subchecks: [RuleSubcheck("looming", unit: "m/s"), RuleSubcheck("timeToContact", unit: "s", worse: .lower)])
}

public enum TypeLightWeight: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-light-weight", name: "Text avoids light font weights", category: .typography,
        defaultSeverity: .warning, thresholdKey: "largeSize",
        parameters: [RuleParameter("largeSize", 17, "pt", .configurable("the body size: light text smaller than body text is hard to see, larger light text is still worth a look"), "size below which light text is a warning (info above)")],
        citations: [Citation("typography", "Ensuring legibility"), Citation("accessibility", "Vision")],
        summary: "Text set in an Ultralight, Thin or Light weight: a warning while it is smaller than 17 pt, an info at larger sizes.",
        rationale: "Light weights are hard to see, especially when text is small; the HIG asks to prefer Regular, Medium, Semibold or Bold, and to set a thin font larger than the recommended sizes.",
        fixHint: "Use Regular or heavier (fontWeight: regular, medium, semibold or bold), or, for a thin display font, set it well above 17 pt.",
        platforms: [.visionOS, .iOS], unit: "pt", worse: .lower,
        notes: ["Text with fontWeight ultraLight, thin or light: text entities, elements and annotated asset nodes that state it (unstated weights are unknown, not light). Its size as type-min-size measures it: pt where that does not change with distance, else pt_eq each frame. Reported over the frames it is visible; measured its smallest size, threshold 17 pt (warning below, info at or above)."])
}

public enum TypeFreeFloating: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-free-floating", name: "Text without a background is bold", category: .typography,
        defaultSeverity: .info, thresholdKey: "minimumWeight",
        parameters: [RuleParameter("minimumWeight", 600, "weight", .configurable("the HIG says bold; semibold (600) is the lightest weight read as bold in SwiftUI's scale"), "lightest weight class (100 ultraLight … 900 black) for text drawn on nothing but the surroundings")],
        citations: [Citation("typography", "visionOS")],
        summary: "Text drawn straight on the surroundings (no glass, no backing colour) set lighter than Semibold.",
        rationale: "Without a background, text competes with whatever is behind it in the room; the HIG suggests making such text bold to keep it legible (and not relying on shadows, which the space may have no surface to receive).",
        fixHint: "Set the text semibold or bold (fontWeight: semibold), or put it on glass or a backing plate.",
        platforms: [.visionOS], unit: "weight", worse: .lower,
        notes: ["Text: text entities, and elements and asset nodes of role text, that state a fontWeight (unstated weights are unknown, not regular). Drawn on nothing: its background, else its container's or nearest ancestor's (type-contrast's reading), resolves to passthrough: world text and text on a volume's face without a background, or any content with background: passthrough. A colour, even translucent, is a backing plate.",
                "Measured: the weight class (ultraLight 100, thin 200, light 300, regular 400, medium 500, semibold 600, bold 700, heavy 800, black 900); threshold: minimumWeight. Reported over the frames the text is visible.",
                "The shadow part of the guidance (avoid drop shadows for contrast) is not checked: the scene format has no text shadow."])
}

public enum TypeColorWeight: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-color-weight", name: "Coloured text is bold and large", category: .typography,
        defaultSeverity: .info, thresholdKey: "minimumSize",
        parameters: [
            RuleParameter("minimumSize", 17, "pt", .configurable("the body size; smaller coloured text is what the HIG calls small"), "smallest coloured text"),
            RuleParameter("minimumWeight", 600, "weight", .configurable("semibold, the lightest weight that reads as bold"), "lightest weight class of coloured text"),
            RuleParameter("minimumSaturation", 0.2, "ratio", .configurable("a grey or a faint tint is not a colour people have to make out"), "HSV saturation from which a text colour counts as coloured"),
        ],
        citations: [Citation("color", "visionOS")],
        summary: "Coloured text smaller than 17 pt, or set lighter than Semibold.",
        rationale: "On glass the colours of the room show through and change how app colours look; the HIG asks to keep colour for bold text and large areas, because colour in light or small text is hard to see and understand.",
        fixHint: "Keep small and regular-weight text white (the system's primary), and use colour in semibold or bold text of at least 17 pt, or in large areas.",
        platforms: [.visionOS], unit: "pt", worse: .lower,
        notes: ["Coloured: a stated color whose HSV saturation, (max − min) / max of its sRGB components, is at least minimumSaturation (greys, white and faint tints are not coloured). Text with a size: text entities, elements and asset nodes of role text with a size, and elements with a fontSize (a coloured button label).",
                "Size as type-min-size measures it (pt where it does not change with distance, else pt_eq each frame): smaller than minimumSize is reported with the size as measured value. Sub-check `weight`: coloured text at least minimumSize but with a stated fontWeight lighter than minimumWeight, measured as its weight class (ultraLight 100 … black 900). Reported over the frames the text is visible."],
        subchecks: [RuleSubcheck("weight", unit: "weight")])
}

public enum TypeMinSize: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-min-size", name: "Minimum text size", category: .typography,
        defaultSeverity: .error, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 12, "pt", .hig, "smallest visionOS text (default 17 pt)"),
            RuleParameter("minimumIOS", 11, "pt", .hig, "smallest iOS text (default 17 pt)"),
        ],
        citations: [Citation("typography", "Ensuring legibility"), Citation("accessibility", "Vision"),
                    Citation("designing-for-games", "Look stunning on every display")],
        summary: "Text smaller than the platform minimum: 12 pt on visionOS, 11 pt on iOS.",
        rationale: "Below these sizes text is hard to read for many people, whatever the font.",
        fixHint: "Use at least 12 pt on visionOS (17 pt for body text), 11 pt on iOS.",
        platforms: [.visionOS, .iOS], unit: "pt", worse: .lower,
        notes: ["Text: text entities, elements of role text, and any other element with a fontSize (a button's or a field's label).",
                "Text in a dynamic-scale container (or any element of the screen's UI on iOS), or dynamic 3D text, is compared by its font size in pt. On iOS the text of a world card (a window or volume not anchored to the head: ar-comfort-distance's reading) is compared by its size on the screen, pt_eq, from its em height (font size × the card's metres per point) and distance. Fixed-scale text (textHeight, or elements of a fixed-scale window or volume) is compared in pt_eq each frame from its em height and distance, so it fails as it moves away.",
                "A scale above the text scales its text like its geometry: the font size (but not on iOS elements, which are screen space) and the em height are multiplied each frame by the text scale, the length of the text's local +Y axis in world space (its own and every ancestor's scale, animated ones included), so a 17 pt label in a group scaled 0.1 is 1.7 pt."])
}

public enum TypeLegibleAcrossScale: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-legible-across-scale", name: "Fixed-scale text stays legible when far", category: .typography,
        defaultSeverity: .warning, thresholdKey: "minimum",
        parameters: [
            RuleParameter("minimum", 12, "pt_eq", .hig, "smallest text size"),
            RuleParameter("farDistance", 3, "m", .configurable("typical room depth"), "distance at which fixed-scale text must still be legible"),
        ],
        citations: [Citation("typography", "visionOS"), Citation("windows", "visionOS volumes")],
        summary: "Fixed-scale text would be smaller than 12 pt_eq seen from 3 m (or from the farthest distance the viewer reaches).",
        rationale: "Fixed-scale content shrinks with distance; the HIG asks that text stays legible across the scales and distances people use.",
        fixHint: "Make the text larger, or use dynamic scale for text-bearing content.",
        unit: "pt_eq", worse: .lower, angleDerived: true,
        notes: ["Em height in metres: textHeight, or fontSize × metres per point in a fixed-scale container, times the text's smallest text scale while visible (the length of its local +Y axis in world space: a scale above it scales its text); pt_eq = 2·atan(h / 2D) / pointAngle at D = max(3 m, the farthest the eye gets from that text while it is visible). Reported over the frames the text is visible and at least type-min-size's minimum where it is (12 pt_eq on visionOS, 11 on iOS): a frame where it is already smaller is type-min-size's error, so one text is not reported twice for the same frames (a fixed-scale card 5 m away is that error alone; the same card 1 m away, 14 pt_eq now and 4.7 seen from 3 m, is this warning). With type-min-size turned off, every visible frame.",
                "Head- and hand-anchored text travels with the viewer, so walking away never puts it 3 m off: it is judged at the farthest distance it is actually seen during the run (for hand-anchored text, the hand's distance, by default 0.46 m)."])
}

public enum TypeBillboard: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "type-billboard", name: "3D text faces the viewer", category: .typography,
        defaultSeverity: .warning, thresholdKey: "maxAngle",
        parameters: [
            RuleParameter("maxAngle", 45, "deg", .configurable("cos 45° ≈ 0.71: 29 % foreshortening"), "warning above this viewing angle"),
            RuleParameter("infoAngle", 30, "deg", .configurable("13 % foreshortening"), "info above this viewing angle"),
            RuleParameter("maxRoll", 20, "deg", .configurable("text tilted more than this is read with a tilted head"), "info above this roll of the text against the world, less the head's roll"),
        ],
        citations: [Citation("typography", "visionOS"), Citation("augmented-reality", "Communicating with people", "S0, S1")],
        summary: "3D text is seen at more than 30° (info) or 45° (warning) from its front, or is rolled more than 20° against the viewer's head (info).",
        rationale: "Text tied to a point in space should turn to face people so it is never read from the side or at a steep angle.",
        fixHint: "Turn the text toward the viewer (facing: viewer) or make it billboard.",
        platforms: [.visionOS, .iOS], unit: "deg", worse: .higher,
        notes: ["Angle between the text's front (+Z) and the direction to the eye, judged on the frames the text is in the field of view (viewer.fieldOfView; on iOS the device camera's, the eye its position). One violation per text: its severity is that of its worst frame, and its spans cover every frame above 30°.",
                "Roll (sub-check `roll`, info): the text's roll against the world less the head's roll, 0–180°. The text's roll is the signed angle, about its front (+Z), between the world's up projected into the text's plane and the text's up (+Y); the head's roll the signed angle, about its backward axis, between the world's up projected across the head's forward direction and the head's up. Text rolled about its own front by r reads r (less any roll of the head the same way); pitch of the text or of the head is not roll, and neither is the perspective of a pitched head looking at level text off-axis (it reads 0 at any pitch and azimuth). Not judged when the text lies flat (its front vertical). Reported as a violation of its own, beside the facing angle."],
        subchecks: [RuleSubcheck("roll", unit: "deg")])
}

public enum EnvGroundPlane: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "env-ground-plane", name: "Immersive environments have a ground", category: .environment,
        defaultSeverity: .warning, thresholdKey: nil,
        parameters: [],
        citations: [Citation("immersive-experiences", "Creating an environment")],
        summary: "A progressive or full environment has no ground plane.",
        rationale: "Without a floor people feel they are floating; the HIG asks for a ground plane even under a 360° image.",
        fixHint: "Add a ground mesh to the environment and set groundPlane: true.",
        unit: "count", worse: .higher,
        notes: ["Checked from the environment's groundPlane flag: a shown environment with groundPlane: false fails while the immersion is progressive or full and no other shown environment has groundPlane: true; an omitted flag is not judged (the asset may have a floor). Measured: 0 ground planes."])
}

public enum ArFrameRate: RuleDescribing {
    public static let metadata = RuleMetadata(
        id: "ar-frame-rate", name: "AR content updates 60 times a second", category: .ar,
        defaultSeverity: .warning, thresholdKey: "rate",
        parameters: [RuleParameter("rate", 60, "fps", .hig, "update rate of virtual content")],
        citations: [Citation("augmented-reality", "Best practices", "S0, S1")],
        summary: "The iOS AR scene updates fewer than 60 times per second.",
        rationale: "Objects that update less often than the camera appear to jump or flicker.",
        fixHint: "Update the scene at 60 Hz (frameRate: 60).",
        platforms: [.iOS], unit: "fps", worse: .lower,
        notes: ["Checked from the scene's frame rate; per-animation sample rates are not in the scene data."])
}

/// A weight class's name (`FontWeight.weightClass`), or the number when it names none.
func weightName(_ weightClass: Double) -> String {
    FontWeight.allCases.first { Double($0.weightClass) == weightClass }?.rawValue ?? fmt(weightClass)
}

/// How big each text is in a frame, as type-min-size measures it (and type-light-weight after it):
/// its font size in pt where that does not change with distance (an element of a dynamic-scale
/// container, or of the screen's UI on iOS, and dynamic 3D text), times the text scale where a scale
/// above it applies; else pt_eq from its em and distance (a label's own em when the simulator does
/// not measure it, else the simulator's pt_eq of readable content).
struct TextSizing {
    /// Entities with a text size: readable content, and elements with a font size (a button's label).
    let sized: [Int]
    /// Font size in pt where it is scale-independent; NaN: measured in pt_eq each frame.
    let fixedPt: [Double]
    /// Em height in metres of a label whose pt_eq the simulator does not compute (it does so for
    /// readable content only; a button's size is not its label's); NaN otherwise.
    let labelEm: [Double]
    /// Whether a size in pt is multiplied by the text scale (a scale above the text makes its points
    /// smaller or larger, as it does its geometry); not on iOS, whose elements are screen space.
    let scalesPt: [Bool]
    let pointAngle: Double

    init(_ s: RuleSetup) {
        let ents = s.scene.entities
        var fixed = [Double](repeating: .nan, count: ents.count), label = fixed
        var scales = [Bool](repeating: false, count: ents.count)
        var sized: [Int] = []
        let textScale = TextScale(scene: s.scene)
        for i in ents.indices where ents[i].isReadable || (ents[i].kind == .element && ents[i].fontSize != nil) {
            let e = ents[i]
            // On iOS the text of a world card (a window or volume left in the world) is seen in
            // the camera view: its size on the screen, pt_eq, shrinks as the device moves away.
            let inPoints = measuredInPoints(i, s.scene) && !(s.scene.platform == .iOS && isOnWorldCard(i, ents))
            if let fs = e.fontSize, inPoints || (e.kind == .text && e.scaleMode == .dynamic) {
                fixed[i] = fs
                scales[i] = textScale.scaled[i] && !(s.scene.platform == .iOS && e.kind == .element)
            } else if e.fontSize == nil && e.textHeight == nil && e.kind == .element {
                continue
            } else if !e.isReadable, let fs = e.fontSize {
                label[i] = fs * metresPerPoint(of: i, in: s)
            }
            sized.append(i)
        }
        self.sized = sized; fixedPt = fixed; labelEm = label; scalesPt = scales; pointAngle = s.pointAngle
    }

    /// Entity `e`'s size in frame `f`, and whether it is in pt (else pt_eq, infinite when the eye
    /// is at the text).
    @inline(__always)
    func size(_ f: FrameQuantities, _ e: Int) -> (value: Double, inPoints: Bool) {
        let pt = scalesPt[e] ? fixedPt[e] * f.textScale[e] : fixedPt[e]
        if !pt.isNaN { return (pt, true) }
        // A label's em times its text scale (exactly 1 without a scale above it).
        let em = labelEm[e] * f.textScale[e]
        return (em.isNaN ? f.ptEq[e] : (f.distance[e] > 0 ? degrees(2 * atan(em / (2 * f.distance[e]))) / pointAngle : .infinity), false)
    }
}

func motionTypeFactories() -> [RuleFactory] {
    [
        RuleFactory(ids: [MotionPeripheral.metadata.id]) { s in
            let m = MotionPeripheral.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let speed = s.param(m, "speed"), imm = s.param(m, "immersiveSpeed")
            let ecc = s.param(m, "eccentricity"), minSize = s.param(m, "minSize")
            let halfW = s.param(m, "displayWidth") / 2, halfH = s.param(m, "displayHeight") / 2
            // Interactive content a person's own action sets moving (its animation has trigger:
            // user: the dice they throw, the piece they move) is where they look, not in their
            // periphery.
            let anims = s.scene.animations
            let cands = ents.indices.filter { e in
                let a = ents[e].animation
                let ownAction = a.map { $0 >= 0 && $0 < anims.count && anims[$0].trigger == .user } ?? false
                return movingCandidate(ents[e]) && !(ownAction && ents[e].interactive)
            }
            // The limit is one of the two speeds, so nothing slower than both can be reported.
            let slowest = speed.isNaN || imm.isNaN ? Double.nan : min(speed, imm)
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                 gate: .above(\.angularVelocity, slowest), reads: .quantities, check: { f, e in
                guard f.visible[e], f.eccentricity[e] > ecc, f.angularSize[e] > minSize else { return nil }
                // Only what the display shows: some part of the content inside its field of view.
                guard abs(f.azimuth[e]) - f.angularWidth[e] / 2 <= halfW,
                      abs(f.elevation[e]) - f.angularHeight[e] / 2 <= halfH else { return nil }
                let limit = f.immersion.hasBoundary ? imm : speed
                // aux: the eccentricity, negative when the content is more below the line of sight
                // than beside it (where people may be looking down: the message says so).
                let below = f.elevation[e] < 0 && -f.elevation[e] > abs(f.azimuth[e])
                return f.angularVelocity[e] > limit
                    ? .init(measured: f.angularVelocity[e], threshold: limit, aux: below ? -f.eccentricity[e] : f.eccentricity[e]) : nil
            }, message: { agg, names in
                let fix = "\(names.joinedNames) moves at \(fmt(agg.measured))°/s \(fmt(abs(agg.aux)))° off the line of sight; slow it to at most \(fmt(agg.threshold))°/s\(briefMove(agg, frameDuration: s.frameDuration)) or move it toward the centre of view"
                return agg.aux < 0
                    ? fix + " (the viewer looks straight ahead: if people look down at it, like a board on a table, give viewer.path a pitch toward it)"
                    : fix
            })
        },
        RuleFactory(ids: [MotionTooFast.metadata.id]) { s in
            let m = MotionTooFast.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let speed = s.param(m, "speed")
            let loomSpeed = s.param(m, "loomingSpeed"), loomDistance = s.param(m, "loomingDistance")
            let contact = s.param(m, "timeToContact")
            let cands = ents.indices.filter { movingCandidate(ents[$0]) }
            let angular = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                        gate: .above(\.angularVelocity, speed), reads: .quantities, check: { f, e in
                f.visible[e] && f.angularVelocity[e] > speed ? .init(measured: f.angularVelocity[e], threshold: speed) : nil
            }, message: { _, _ in "" })
            // Looming (sub-check 1): approach speed toward the eye while close; aux = eye distance.
            let looming = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                        gate: .above(\.approachSpeed, loomSpeed), reads: .quantities, check: { f, e in
                f.visible[e] && f.approachSpeed[e] > loomSpeed && f.distance[e] < loomDistance
                    ? .init(measured: f.approachSpeed[e], threshold: loomSpeed, aux: f.distance[e], unit: "m/s", variant: 1) : nil
            }, message: { _, _ in "" })
            // Time to contact (sub-check 2): distance / approach speed, while approaching within
            // loomingDistance; aux = eye distance. Gated by the distance: a walking viewer brings
            // half of a scene toward the eye in every frame, but little of it within 3 m.
            let ttc = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                    gate: .below(\.distance, loomDistance), reads: .quantities, check: { f, e in
                let v = f.approachSpeed[e], d = f.distance[e]
                guard f.visible[e], v > 0, d < loomDistance, d / v < contact else { return nil }
                return .init(measured: d / v, threshold: contact, aux: d, unit: "s", variant: 2)
            }, message: { _, _ in "" })
            return MultiProcessor([angular, looming, ttc]) { _, agg, names in
                switch agg.variant {
                case 1:
                    return "\(names.joinedNames) comes at the viewer at \(fmt(agg.measured)) m/s only \(fmt(agg.aux)) m away; keep approaching content below \(fmt(loomSpeed)) m/s within \(fmt(loomDistance)) m (slow it down or stop it farther away)"
                case 2:
                    return "\(names.joinedNames) comes at the eyes so fast that it would reach them in \(fmt(agg.measured)) s (\(fmt(agg.aux)) m away); let it slow down as it nears, or stop it farther away, so it never gets within \(fmt(contact)) s of the eyes"
                default:
                    return "\(names.joinedNames) moves at \(fmt(agg.measured))°/s across the view; keep motion below \(fmt(speed))°/s\(briefMove(agg, frameDuration: s.frameDuration))"
                }
            }
        },
        RuleFactory(ids: [TypeMinSize.metadata.id]) { s in
            let m = TypeMinSize.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let minimum = s.scene.platform == .iOS ? s.param(m, "minimumIOS") : s.param(m, "minimum")
            let sizing = TextSizing(s)
            let pa = s.pointAngle
            // A size in pt that no scale changes does not change: text at or above the minimum can
            // never be reported.
            let cands = sizing.sized.filter { i in
                !(RuleShortcuts.enabled && !sizing.fixedPt[i].isNaN && !sizing.scalesPt[i] && !(sizing.fixedPt[i] < minimum))
            }
            // Read per candidate and frame: constants, not captured variables (which would be
            // boxed and access-checked on every read). `restEm`: the em the simulator measures
            // pt_eq from (foreshortening included), for the size the text has facing the eye.
            let labelHeight = sizing.labelEm, restEm = ents.map(Simulator.emMetres)
            // Candidates sized in metres (`height`), by path: only for messages, built on the first.
            var heights: [String: Double]?
            func textHeight(of path: String) -> Double? {
                if heights == nil {
                    var map: [String: Double] = [:]
                    for i in cands { if let h = ents[i].textHeight, h > 0, ents[i].fontSize == nil { map[ents[i].path] = h } }
                    heights = map
                }
                return heights?[path]
            }
            // Elements with a font size measured in angle (in a fixed-scale window or volume): the
            // font size, by path, for a fix in the points it is written in.
            var sizesInAngle: [String: Double] = [:]
            for i in cands where ents[i].kind == .element && sizing.fixedPt[i].isNaN { if let fs = ents[i].fontSize { sizesInAngle[ents[i].path] = fs } }
            let fontSizes = sizesInAngle
            // 3D text in a dynamic-scale volume (sized in metres or points, it scales with the
            // volume: its points are fixed): metres per point of its em, by path, for messages.
            var emPerPoint: [String: Double]?
            func emMetresPerPoint(of path: String) -> Double? {
                if emPerPoint == nil {
                    var map: [String: Double] = [:]
                    for i in cands where ents[i].kind == .text && ents[i].scaleMode == .dynamic && inDynamicVolume(i, ents) {
                        if let h = ents[i].textHeight, let fs = ents[i].fontSize, h > 0, fs > 0 { map[ents[i].path] = h / fs }
                    }
                    emPerPoint = map
                }
                return emPerPoint?[path]
            }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                let (v, inPoints) = sizing.size(f, e)
                if inPoints { return v < minimum ? .init(measured: v, threshold: minimum, unit: "pt") : nil }
                guard v.isFinite && v < minimum else { return nil }
                let em = labelHeight[e]
                // aux: the em's angle facing the eye (2·atan(em / 2d)), what turning the text
                // toward the viewer would give.
                var facing = Double.nan
                if em.isNaN, restEm[e] > 0, f.distance[e] > 0 {
                    facing = degrees(2 * atan(TextScale.em(restEm[e], scale: f.textScale[e]) / (2 * f.distance[e]))) / pa
                }
                return .init(measured: v, threshold: minimum, angular: true, aux: facing, unit: "pt_eq")
            }, message: { agg, names in
                let seen = "text \(names.joinedNames) is \(fmt(agg.measured)) \(agg.unit ?? "pt")"
                // Text sized in metres (`height`): also the height that reads at the minimum (and at
                // 17 pt) where it was worst, scaled from its own: an angle of h is 2·atan(h / 2d), so
                // the height for an angle θ' is h · tan(θ'/2) / tan(θ/2) at the same distance.
                // (`seenAs`: the size it is read at, as measured or facing the viewer.)
                func inMetres(_ seenAs: Double) -> String {
                    // In a dynamic volume the em is proportional to the points.
                    if names.count == 1, agg.unit == "pt", let k = emMetresPerPoint(of: names[0]) {
                        return ": a height of at least \(fmt(minimum * k)) m (\(fmt(17 * k)) m for body text) at the volume's scale"
                    }
                    guard names.count == 1, let h = textHeight(of: names[0]), agg.unit == "pt_eq" else { return "" }
                    let now = seenAs * pa
                    guard now > 0, now < 180 else { return "" }
                    func height(_ pt: Double) -> Double { h * tan(radians(pt * pa) / 2) / tan(radians(now) / 2) }
                    return ": a height of at least \(fmt(height(minimum))) m (\(fmt(height(17))) m for body text) where it is read"
                }
                // An element of a fixed-scale container: its pt_eq are proportional to its font size
                // where it is read, so the fix is the font size to write (or dynamic scale).
                if names.count == 1, agg.unit == "pt_eq", let fs = fontSizes[names[0]], agg.measured > 0,
                   !(agg.aux.isFinite && agg.aux >= 1.25 * agg.measured) {
                    let need = (fs * minimum / agg.measured * 10).rounded(.up) / 10, body = (fs * 17 / agg.measured * 10).rounded(.up) / 10
                    return seen + " (its fontSize of \(fmt(fs)) pt shrinks with distance in a fixed-scale container); give it a fontSize of at least \(fmt(need)) pt to read as \(fmt(minimum)) pt (\(fmt(body)) pt to read as 17 pt, for body text), or give the container dynamic scale (scaleMode: dynamic), which keeps text at its points wherever it is placed"
                }
                // Seen at a slant its em is foreshortened: say what it is facing the viewer, so that
                // an edge-on frame's near-zero size is not read as the font size to fix.
                guard agg.aux.isFinite, agg.aux >= 1.25 * agg.measured else {
                    return seen + "; make it at least \(fmt(minimum)) pt (17 pt for body text)" + inMetres(agg.measured)
                }
                let slant = seen + " as seen at its worst, turned away from the viewer (facing them: \(fmt(agg.aux)) pt_eq)"
                return agg.aux >= minimum
                    ? slant + "; turn it toward the viewer (type-billboard) so it reads at its size"
                    : slant + "; make it at least \(fmt(minimum)) pt facing the viewer (17 pt for body text)" + inMetres(agg.aux) + ", and turn it toward them"
            })
        },
        RuleFactory(ids: [TypeLightWeight.metadata.id]) { s in
            let m = TypeLightWeight.metadata
            guard let r = s.index(m.id) else { return nil }
            let large = s.param(m, "largeSize")
            let ents = s.scene.entities
            let light: [FontWeight] = [.ultraLight, .thin, .light]
            guard ents.contains(where: { $0.fontWeight.map(light.contains) ?? false }) else { return nil }
            let sizing = TextSizing(s)
            let cands = sizing.sized.filter { ents[$0].fontWeight.map(light.contains) ?? false }
            guard !cands.isEmpty else { return nil }
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                let (v, inPoints) = sizing.size(f, e)
                guard !v.isNaN else { return nil }
                return .init(measured: v, threshold: large, severity: v < large ? .warning : .info, angular: !inPoints,
                             aux: Double(light.firstIndex { $0 == ents[e].fontWeight } ?? 0), unit: inPoints ? "pt" : "pt_eq")
            }, message: { agg, names in
                let k = agg.aux.isFinite ? Int(agg.aux) : 0
                let weight = light.indices.contains(k) ? light[k].rawValue : "light"
                let size = "\(fmt(agg.measured)) \(agg.unit ?? "pt")"
                return agg.measured < agg.threshold
                    ? "text \(names.joinedNames) is set \(weight) at \(size), hard to see at this size; use Regular or heavier (or set it well above \(fmt(agg.threshold)) pt)"
                    : "text \(names.joinedNames) is set \(weight) (at \(size)); light weights are hard to see, so prefer Regular, Medium, Semibold or Bold"
            })
        },
        RuleFactory(ids: [TypeFreeFloating.metadata.id]) { s in
            let m = TypeFreeFloating.metadata
            guard let r = s.index(m.id) else { return nil }
            let minimum = s.param(m, "minimumWeight")
            let ents = s.scene.entities
            var items: [StaticRule.Item] = []
            for i in ents.indices where ents[i].isReadable {
                guard let w = ents[i].fontWeight, Double(w.weightClass) < minimum,
                      contrastBackdrop(s, i)?.material == .passthrough else { continue }
                items.append(.init(entity: i, measured: Double(w.weightClass), threshold: minimum))
            }
            guard !items.isEmpty else { return nil }
            return StaticRule(rule: r, items: items) { agg, names in
                "text \(names.joinedNames) floats with no background, straight on the surroundings, and is set \(weightName(agg.measured)); make it semibold or bold so it stays legible over whatever is behind it, or put it on glass or a backing plate"
            }
        },
        RuleFactory(ids: [TypeColorWeight.metadata.id]) { s in
            let m = TypeColorWeight.metadata
            guard let r = s.index(m.id) else { return nil }
            let minSize = s.param(m, "minimumSize"), minWeight = s.param(m, "minimumWeight"), minSaturation = s.param(m, "minimumSaturation")
            let ents = s.scene.entities
            // The stated text colour when it is a colour: HSV saturation at least `minSaturation`.
            func coloured(_ e: Entity) -> RGBA? {
                guard case .color(let c)? = e.color else { return nil }
                let hi = max(c.r, c.g, c.b), lo = min(c.r, c.g, c.b)
                return hi > 0 && (hi - lo) / hi >= minSaturation ? c : nil
            }
            guard ents.contains(where: { coloured($0) != nil }) else { return nil }
            let sizing = TextSizing(s)
            let cands = sizing.sized.filter { coloured(ents[$0]) != nil }
            guard !cands.isEmpty else { return nil }
            let hex = Dictionary(cands.map { (ents[$0].path, coloured(ents[$0])?.hex ?? "") }, uniquingKeysWith: { a, _ in a })
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e] else { return nil }
                let (v, inPoints) = sizing.size(f, e)
                guard !v.isNaN else { return nil }
                if v < minSize { return .init(measured: v, threshold: minSize, angular: !inPoints, unit: inPoints ? "pt" : "pt_eq") }
                if let w = ents[e].fontWeight, Double(w.weightClass) < minWeight {
                    return .init(measured: Double(w.weightClass), threshold: minWeight, unit: "weight", variant: 1)
                }
                return nil
            }, message: { agg, names in
                let colour = names.first.flatMap { hex[$0] }.map { " (\($0))" } ?? ""
                return agg.variant == 1
                    ? "coloured text \(names.joinedNames)\(colour) is set \(weightName(agg.measured)), lighter than \(weightName(agg.threshold)); colour is hard to make out in text that is not bold, against glass and the room behind it: make it \(weightName(agg.threshold)) or bold, or keep it white"
                    : "coloured text \(names.joinedNames)\(colour) is \(fmt(agg.measured)) \(agg.unit ?? "pt"), smaller than \(fmt(agg.threshold)) pt; colour in small text is hard to make out: keep small text white, or make it at least \(fmt(agg.threshold)) pt and semibold or bold"
            })
        },
        RuleFactory(ids: [TypeLegibleAcrossScale.metadata.id]) { s in ScaleLegibilityRule(s) },
        RuleFactory(ids: [TypeBillboard.metadata.id]) { s in
            let m = TypeBillboard.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let warn = s.param(m, "maxAngle"), info = s.param(m, "infoAngle"), maxRoll = s.param(m, "maxRoll")
            let cands = ents.indices.filter { ents[$0].kind == .text }
            let facingWithin = cosinePrefilter(min(warn, info))
            // Judged only while the text is in the field of view: text behind or beside the viewer is
            // not being read.
            let facing = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                       gate: ConditionRule.Gate(inFOV: true), reads: .quantities, check: { f, e in
                guard f.visible[e], f.inFOV[e] else { return nil }
                let toEye = f.headPosition - f.center[e]
                guard length(toEye) > 0, length(f.front[e]) > 0 else { return nil }
                let c = max(-1, min(1, dot(normalize(f.front[e]), normalize(toEye))))
                guard c <= facingWithin else { return nil }
                let a = degrees(acos(c))
                if a > warn { return .init(measured: a, threshold: warn, severity: .warning) }
                if a > info { return .init(measured: a, threshold: info, severity: .info) }
                return nil
            }, message: { _, _ in "" })
            // Roll (sub-check 1): the text's roll against the world in its own plane, less the
            // head's roll, so the perspective of a pitched head is not roll.
            let roll = ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration,
                                     gate: ConditionRule.Gate(inFOV: true), reads: .quantities, check: { f, e in
                guard f.visible[e], f.inFOV[e],
                      let a = textRoll(up: f.upAxis[e], front: f.front[e], headUp: f.headUp, headForward: f.headForward),
                      a > maxRoll else { return nil }
                return .init(measured: a, threshold: maxRoll, severity: .info, variant: 1)
            }, message: { _, _ in "" })
            return MultiProcessor([facing, roll]) { _, agg, names in
                agg.variant == 1
                    ? "text \(names.joinedNames) is rolled \(fmt(agg.measured))° against the viewer's head; keep its baseline level with the viewer's eyes (within \(fmt(maxRoll))°), for example by billboarding about the vertical axis only"
                    : agg.measured > 90
                    ? "text \(names.joinedNames) is seen from behind, \(fmt(agg.measured))° off its front, so it reads mirrored (more than \(fmt(agg.threshold))° off); turn it toward the viewer, ideally within \(fmt(info))°, or make it billboard"
                    : "text \(names.joinedNames) is read \(fmt(agg.measured))° off its front (more than \(fmt(agg.threshold))°); turn it toward the viewer, ideally within \(fmt(info))°"
            }
        },
        RuleFactory(ids: [EnvGroundPlane.metadata.id]) { s in
            let m = EnvGroundPlane.metadata
            guard let r = s.index(m.id) else { return nil }
            let ents = s.scene.entities
            let envs = ents.indices.filter { ents[$0].kind == .environment }
            let grounded = envs.filter { ents[$0].groundPlane == true }
            let cands = envs.filter { ents[$0].groundPlane == false }
            guard !cands.isEmpty else { return nil }
            // A shown environment without a floor is fine while another shown one provides it.
            return ConditionRule(rule: r, meta: m, candidates: cands, frameDuration: s.frameDuration, gate: .visible, reads: .quantities, check: { f, e in
                guard f.visible[e], f.immersion.hasBoundary, !grounded.contains(where: { f.visible[$0] }) else { return nil }
                return .init(measured: 0, threshold: 1)
            }, message: { _, names in
                "environment \(names.joinedNames) has no ground plane in \(s.scene.immersion.rawValue == "full" ? "full" : "progressive or full") immersion; add a floor mesh so people do not feel they float"
            })
        },
        RuleFactory(ids: [ArFrameRate.metadata.id]) { s in
            let m = ArFrameRate.metadata
            guard let r = s.index(m.id) else { return nil }
            let rate = s.param(m, "rate"), actual = s.scene.frameRate
            guard actual < rate else { return nil }
            return StaticRule(rule: r, items: [.init(entity: -1, measured: actual, threshold: rate)], whileVisible: false) { _, _ in
                "the scene updates \(fmt(actual)) times per second; update AR content \(fmt(rate)) times per second so objects do not jump or flicker"
            }
        },
    ]
}

final class ScaleLegibilityRule: RuleProcessor {
    let rule: Int
    let minimum: Double, far: Double, pointAngle: Double
    /// type-min-size's minimum on this platform when that rule runs, else -infinity: the frames a
    /// text is already below it (the error type-min-size reports) are not reported again here.
    let nowMinimum: Double
    /// Entity and em height in metres, as stated.
    let texts: [(entity: Int, height: Double)]
    /// The paths of the texts in no window or volume.
    let free: Set<String>
    /// Per text: the smallest text scale it had while visible (exactly 1 without a scale above
    /// it; infinity before it is seen): its em height is judged at its smallest.
    private var smallestScale: [Double]
    /// Per text (same order): the farthest the eye has been from it while it was visible, at least
    /// `far`, and the frame where that was (-1: never farther than `far`).
    private var farthest: [Double]
    private var farthestFrame: [Int]
    /// Per text: the frame runs in which it was visible (closed), and the open one (start -1: none).
    private var runs: [[(from: Int, fromTime: Double, to: Int, toTime: Double)]]
    private var open: [(from: Int, fromTime: Double, to: Int, toTime: Double)]
    init?(_ s: RuleSetup) {
        let m = TypeLegibleAcrossScale.metadata
        guard let r = s.index(m.id) else { return nil }
        rule = r
        minimum = s.param(m, "minimum"); far = s.param(m, "farDistance"); pointAngle = s.pointAngle
        let mm = TypeMinSize.metadata
        nowMinimum = s.index(mm.id) == nil ? -.infinity : s.param(mm, s.scene.platform == .iOS ? "minimumIOS" : "minimum")
        let ents = s.scene.entities
        var t: [(Int, Double)] = []
        for i in ents.indices where ents[i].isReadable {
            let e = ents[i]
            if e.kind == .text, e.scaleMode == .fixed, let h = e.textHeight { t.append((i, h)) }
            else if e.kind == .element, let c = e.container, c < ents.count, ents[c].scaleMode == .fixed, let fs = e.fontSize {
                t.append((i, fs * metresPerPoint(of: i, in: s)))
            }
        }
        texts = t
        // Texts outside any window or volume (RealityKit text in a space), by path: no scale mode
        // of their own to change.
        free = Set(t.compactMap { (i, _) in nearestContainer(i, ents) == nil ? ents[i].path : nil })
        // World content is judged from at least `far`; content carried by the head or hand at the
        // farthest distance it is seen (its distance does not change when the viewer walks).
        let worldFar = far
        farthest = t.map { ents[$0.0].anchor == .world ? worldFar : 0 }
        farthestFrame = Array(repeating: -1, count: t.count)
        smallestScale = Array(repeating: .infinity, count: t.count)
        runs = Array(repeating: [], count: t.count)
        open = Array(repeating: (-1, 0, -1, 0), count: t.count)
    }
    func ptEq(_ h: Double, _ d: Double) -> Double { degrees(2 * atan(h / (2 * d))) / pointAngle }
    /// Only the frames where the text is visible count, for its distance and for the violation's spans.
    func consume(_ f: FrameQuantities, _ out: inout Findings) {
        // One exclusive access per buffer and frame, not one per text.
        texts.withUnsafeBufferPointer { texts in
        open.withUnsafeMutableBufferPointer { open in
        runs.withUnsafeMutableBufferPointer { runs in
        farthest.withUnsafeMutableBufferPointer { farthest in
        farthestFrame.withUnsafeMutableBufferPointer { farthestFrame in
        smallestScale.withUnsafeMutableBufferPointer { smallestScale in
            for k in 0..<texts.count {
                let e = texts[k].entity
                guard f.visible[e] else {
                    if open[k].from >= 0 { runs[k].append(open[k]); open[k].from = -1 }
                    continue
                }
                let d = f.distance[e]
                if d.isFinite && d > farthest[k] {
                    farthest[k] = d; farthestFrame[k] = f.frame
                }
                let sc = f.textScale[e]
                if sc < smallestScale[k] { smallestScale[k] = sc }
                // Already below type-min-size's minimum where it is now: that rule's error, not
                // this forecast (the frame counts for the distance, not for the spans).
                if d.isFinite && d > 0 && ptEq(texts[k].height * sc, d) < nowMinimum {
                    if open[k].from >= 0 { runs[k].append(open[k]); open[k].from = -1 }
                    continue
                }
                if open[k].from < 0 { open[k] = (f.frame, f.time, f.frame, f.time) } else { open[k].to = f.frame; open[k].toTime = f.time }
            }
        }}}}}}
    }
    func finish(_ out: inout Findings, _ end: EndState) {
        for (k, (e, h)) in texts.enumerated() {
            if open[k].from >= 0 { runs[k].append(open[k]); open[k].from = -1 }
            guard let first = runs[k].first else { continue } // never visible, or always below the minimum now
            let v = ptEq(h * smallestScale[k], farthest[k])
            guard v < minimum else { continue }
            let fw = farthestFrame[k]
            let worst = fw >= 0 && runs[k].contains(where: { $0.from <= fw && fw <= $0.to }) ? fw : first.from
            for run in runs[k] {
                out.reportRun(rule: rule, e, from: run.from, fromTime: run.fromTime, to: run.to, toTime: run.toTime,
                              measured: v, worstFrame: worst, threshold: minimum, aux: farthest[k])
            }
        }
    }
    func message(rule: Int, _ agg: Aggregate, _ names: [String]) -> String {
        // The em height that reads at the minimum from that distance: 2·d·tan(θ/2), θ the
        // minimum's angle (it does not depend on the text's own height).
        let d = agg.aux, needed = 2 * d * tan(radians(minimum * pointAngle) / 2)
        let height = d.isFinite && d > 0 && needed.isFinite ? " (an em height of at least \(fmt(needed)) m)" : ""
        let dynamic = names.count == 1 && free.contains(names[0])
            ? "show it in a window or volume with dynamic scale"
            : "give its window or volume dynamic scale"
        return "fixed-scale text \(names.joinedNames) would be \(fmt(agg.measured)) pt_eq seen from \(fmt(d)) m; make it larger\(height) or \(dynamic) so it stays at least \(fmt(minimum)) pt"
    }
}

/// `type-billboard` roll in degrees (0–180): how far the text's vertical is turned from the
/// viewer's, as the text's roll against the world less the head's roll. The text's roll is the
/// signed angle, about its front, from the world's up projected into the text's plane to the
/// text's up (`up` projected likewise); the head's is the signed angle, about its backward axis
/// (−forward), from the world's up projected across the head's forward direction to the head's up
/// (0 when the head looks straight up or down). Pitch of the head or of the text, and the
/// perspective of a pitched head looking at level text off-axis, are not roll. Nil when the text
/// lies flat (its front within 1e-6 of vertical) or a vector is degenerate.
func textRoll(up: Vec3, front: Vec3, headUp: Vec3, headForward: Vec3) -> Double? {
    let worldUp = Vec3(0, 1, 0)
    let lf = length(front)
    guard lf > 0, lf.isFinite else { return nil }
    let n = front / lf
    let w = worldUp - dot(worldUp, n) * n, u = up - dot(up, n) * n
    guard length(w) > 1e-6, length(u) > 1e-6 else { return nil }
    let textRoll = degrees(atan2(dot(cross(w, u), n), dot(w, u)))
    var headRoll = 0.0
    let lh = length(headForward)
    if lh > 0, lh.isFinite {
        let back = -headForward / lh
        let wh = worldUp - dot(worldUp, back) * back, hu = headUp - dot(headUp, back) * back
        if length(wh) > 1e-6, length(hu) > 1e-6 { headRoll = degrees(atan2(dot(cross(wh, hu), back), dot(wh, hu))) }
    }
    var d = (textRoll - headRoll).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 } else if d < -180 { d += 360 }
    let a = abs(d)
    return a.isFinite ? a : nil
}

/// The cosine below which an angle (acos of it, in degrees) may exceed `degreesLimit`, with a margin
/// for rounding: a cosine above it is certainly within the limit (2 when no cosine is: a limit
/// outside [0°, 180°]).
func cosinePrefilter(_ degreesLimit: Double) -> Double {
    degreesLimit >= 0 && degreesLimit <= 180 ? cos(radians(degreesLimit)) + 1e-12 : 2
}

/// For a speed found in one brief run (at most 2 s above the limit): how much longer the move must
/// last, as " (faster for 0.3 s: make that move last at least 1.84 times as long)". Playing an
/// animation k times as long divides every speed it gives by k, so k = measured ÷ threshold brings
/// its fastest frame to the limit (s30 trial F11: "slow it to 10°/s" says nothing of how long a
/// 0.3 s move should take). Empty for longer or repeated motion, and for a limit of 0.
func briefMove(_ agg: Aggregate, frameDuration dt: Double) -> String {
    let seconds = Double(agg.frameCount) * dt
    guard agg.storedSpanCount == 1, agg.omittedSpans == 0, seconds > 0, seconds <= 2, agg.threshold > 0,
          agg.measured > agg.threshold, agg.measured.isFinite else { return "" }
    let k = (agg.measured / agg.threshold * 100).rounded(.up) / 100
    return " (faster than that for \(fmt(seconds)) s: make that move last at least \(fmt(k)) times as long)"
}

/// Entities whose motion the motion rules judge: not groups or environments, and elements only when
/// they are animated themselves (otherwise they move with their container, which is reported).
func movingCandidate(_ e: Entity) -> Bool {
    switch e.kind {
    case .group, .environment: false
    case .element: e.animation != nil
    // A node that is its whole model moves as the model does, which is judged.
    case .node: !e.wholeModel
    default: true
    }
}
