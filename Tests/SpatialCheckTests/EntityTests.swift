import Testing
@testable import SpatialModel

/// `Entity` keeps its rarely set fields in one copy-on-write box (`extras`): each must read back
/// what was written to it, and a copy must keep its own values whichever side is changed.
@Suite struct EntityTests {
    private static func entity(_ id: String) -> Entity {
        Entity(id: id, path: id, kind: .element, node: 0, location: SpatialModel.SourceLocation(line: 3, column: 5))
    }

    /// Every boxed field set to a value of its own, read back one by one (a getter or setter wired
    /// to another field of the box would read another field's value or nil).
    @Test func everyRarelySetFieldReadsBackWhatWasWritten() throws {
        var e = Self.entity("a")
        e.sizeMetres = Vec3(0.5, 0.25, 0.125)
        e.textHeight = 0.07
        e.string = "Hello"
        e.label = "Greeting"
        e.asset = AssetUse(path: "fox.glb", resolvedPath: "/s/fox.glb", format: "glb", unitScale: 0.01,
                           unitReason: "assetUnits", triangles: 12, clips: [("run", 1.5)], node: "head")
        e.immersionRange = [60, 180]
        e.hitRegion = .size(width: 80, height: 40)
        e.hitFrame = RectPt(x: 1, y: 2, width: 80, height: 40)
        e.accessibilityLabel = "Play"
        e.media = Media(kind: .video, autoplay: true)
        e.color = .color(RGBA(1, 0, 0))
        e.background = .material(.glass)
        e.symbol = "play.fill"

        #expect(e.sizeMetres == Vec3(0.5, 0.25, 0.125))
        #expect(e.textHeight == 0.07)
        #expect(e.string == "Hello")
        #expect(e.label == "Greeting")
        let asset = try #require(e.asset)
        #expect(asset.path == "fox.glb" && asset.resolvedPath == "/s/fox.glb" && asset.format == "glb")
        #expect(asset.unitScale == 0.01 && asset.unitReason == "assetUnits" && asset.triangles == 12)
        #expect(asset.clips.map(\.name) == ["run"] && asset.clips.map(\.duration) == [1.5] && asset.node == "head")
        #expect(e.immersionRange == [60, 180])
        #expect(e.hitRegion == .size(width: 80, height: 40))
        #expect(e.hitFrame == RectPt(x: 1, y: 2, width: 80, height: 40))
        #expect(e.accessibilityLabel == "Play")
        #expect(e.media == Media(kind: .video, autoplay: true))
        #expect(e.color == .color(RGBA(1, 0, 0)))
        #expect(e.background == .material(.glass))
        #expect(e.symbol == "play.fill")
        // The stored fields beside them are untouched.
        #expect(e.id == "a" && e.kind == .element && e.frame == nil && e.fontSize == nil && e.visible)
    }

    /// A new entity has every boxed field nil, and writing nil to them leaves it without a box.
    @Test func nilFieldsNeedNoBox() {
        var e = Self.entity("b")
        #expect(e.string == nil && e.label == nil && e.asset == nil && e.media == nil && e.hitRegion == nil)
        #expect(e.sizeMetres == nil && e.textHeight == nil && e.immersionRange == nil && e.hitFrame == nil)
        #expect(e.accessibilityLabel == nil && e.color == nil && e.background == nil && e.symbol == nil)
        e.label = nil
        e.string = nil
        e.media = nil
        #expect(e.extras == nil)
        e.label = "x"
        #expect(e.extras != nil)
    }

    /// Copies share the box until one of them changes it; then only that one sees the change.
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        var original = Self.entity("c")
        original.string = "Hello"
        original.label = "Greeting"
        original.media = Media(kind: .audio, captions: false)

        var copy = original
        copy.string = "Bye"
        copy.media?.captions = true
        copy.symbol = "star"
        #expect(original.string == "Hello" && original.label == "Greeting")
        #expect(original.media == Media(kind: .audio, captions: false) && original.symbol == nil)
        #expect(copy.string == "Bye" && copy.label == "Greeting")
        #expect(copy.media == Media(kind: .audio, captions: true) && copy.symbol == "star")

        // The other way round: the original changed after the copy was made.
        let before = original
        original.label = nil
        original.color = .material(.passthrough)
        #expect(before.label == "Greeting" && before.color == nil)
        #expect(original.label == nil && original.color == .material(.passthrough) && original.string == "Hello")

        // Copies in an array, changed in place through the array.
        var table = [original, original, original]
        table[1].accessibilityLabel = "Middle"
        #expect(table.map(\.accessibilityLabel) == [nil, "Middle", nil])
        #expect(original.accessibilityLabel == nil)
    }
}
