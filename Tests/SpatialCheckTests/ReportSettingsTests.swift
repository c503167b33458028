import Foundation
import Testing
import SpatialModel
import Reporting
import Rules

/// Every report format states the settings a scene was checked with: `pointAngle` and
/// `fixedPointSize` (hig-rules §2.4 A3: "every report and inspect states the value used").
@Suite struct ReportSettingsTests {
    /// Two checked scenes: one with the defaults, one with its own `units.fixedPointSize` 0.002 m/pt.
    static func report() -> Report {
        var plain = SceneReport(path: "plain.scene.yaml", status: .checked, platform: "visionOS",
                                frameRate: 90, frames: 90, duration: 1, rulesChecked: ["depth-layer-count"])
        plain.pointAngle = 0.0671
        plain.fixedPointSize = Units.defaultFixedPointSize(pointAngle: 0.0671)
        var own = SceneReport(path: "own.scene.yaml", status: .checked, platform: "visionOS",
                              frameRate: 90, frames: 90, duration: 1, rulesChecked: ["depth-layer-count"])
        own.pointAngle = 0.0671
        own.fixedPointSize = 0.002
        return Report(toolVersion: "test", pointAngle: 0.0671, failOn: .error, scenes: [plain, own])
    }

    @Test func defaultIsOnePointAtOneMetre() {
        // tan(0.0671°) · 1 m = tan(0.00117112 rad) = 0.0011711165 m: the 0.00117 m/pt of §2.4 A3.
        #expect(abs(Units.defaultFixedPointSize(pointAngle: 0.0671) - 0.0011711165) < 1e-10)
        #expect(abs(Report.self.init(toolVersion: "t", pointAngle: 0.0671, failOn: nil, scenes: []).fixedPointSize - 0.0011711165) < 1e-10)
        #expect(Units().fixedPointSize == Units.defaultFixedPointSize(pointAngle: Units.defaultPointAngle))
    }

    @Test func jsonAddsTheKeysBesidePointAngle() throws {
        let text = Self.report().json().serialized()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let settings = try #require(json["settings"] as? [String: Any])
        #expect(abs(((settings["fixedPointSize"] as? NSNumber)?.doubleValue ?? 0) - 0.0011711165) < 1e-10)
        #expect((settings["pointAngle"] as? NSNumber)?.doubleValue == 0.0671)
        let scenes = try #require(json["scenes"] as? [[String: Any]])
        #expect((scenes[1]["fixedPointSize"] as? NSNumber)?.doubleValue == 0.002)
        // A saved report reads back with the values it states.
        let back = try Report.parse(Data(text.utf8), path: "r.json")
        #expect(back.scenes[1].fixedPointSize == 0.002 && abs(back.fixedPointSize - 0.0011711165) < 1e-10)
    }

    @Test func textMarkdownHTMLJUnitAndSARIFStateThem() throws {
        let r = Self.report()
        let text = r.text()
        #expect(text.contains("plain.scene.yaml  90 frames at 90 Hz (1.00 s); pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt\n"))
        #expect(text.contains("own.scene.yaml  90 frames at 90 Hz (1.00 s); pointAngle 0.0671°/pt, fixedPointSize 0.002 m/pt\n"))
        let md = r.markdown()
        #expect(md.contains("Settings: pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt; `own.scene.yaml`: pointAngle 0.0671°/pt, fixedPointSize 0.002 m/pt.\n"))
        #expect(r.html(snapshots: [:]).contains("pointAngle 0.0671°/pt, fixedPointSize 0.001171 m/pt."))
        let junit = r.junit()
        #expect(junit.contains("<property name=\"fixedPointSize\" value=\"0.001171116463\"/>"))
        #expect(junit.contains("<property name=\"fixedPointSize\" value=\"0.002\"/>"))
        #expect(junit.components(separatedBy: "<property name=\"pointAngle\" value=\"0.0671\"/>").count == 3)
        let sarif = r.sarif(rules: []).serialized(pretty: false)
        #expect(sarif.contains(#""properties": {"settings": {"pointAngle": 0.0671, "fixedPointSize": 0.001171116463, "scenes": [{"path": "own.scene.yaml", "pointAngle": 0.0671, "fixedPointSize": 0.002}]}}"#))
    }
}
