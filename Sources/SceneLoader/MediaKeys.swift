import SpatialModel

// `settings` (top level) and `media` (entities and elements): docs/scene-format.md, "Settings"
// and "Media".

extension SceneBuilder {
    /// `settings: {reduceMotion, dimFlashingLights}`: the accessibility settings the scene runs under.
    func parseSettings(_ n: YNode) -> SystemSettings {
        guard let m = r.mapping(n, "'settings' ({reduceMotion, dimFlashingLights})") else { return SystemSettings() }
        m.checkKeys(SceneKeys.settings, in: "'settings'", reader: r)
        var s = SystemSettings()
        if let v = m["reduceMotion"].flatMap({ r.bool($0, "'reduceMotion' of 'settings'") }) { s.reduceMotion = v }
        if let v = m["dimFlashingLights"].flatMap({ r.bool($0, "'dimFlashingLights' of 'settings'") }) { s.dimFlashingLights = v }
        return s
    }

    /// `media: {kind, autoplay, controls, speech, captions, flashRate, flashLuminance,
    /// dimsFlashingLights, cameraMotion: {rotation, acceleration}}` of an entity or element.
    func parseMedia(_ n: YNode, what: String) -> Media? {
        let mwhat = "'media' of \(what)"
        guard let m = r.mapping(n, mwhat) else { return nil }
        m.checkKeys(SceneKeys.media, in: mwhat, reader: r)
        let kind = m.require("kind", in: mwhat, reader: r,
                             hint: "kind is one of " + Reader.quoteList(MediaKind.allCases.map(\.rawValue)))
            .flatMap { r.enumValue($0, "'kind' of \(mwhat)", MediaKind.self) }
        // The other keys are read (and their errors reported) even when the kind is wrong.
        var media = Media(kind: kind ?? .video)
        func flag(_ key: String) -> Bool? { m[key].flatMap { r.bool($0, "'\(key)' of \(mwhat)") } }
        media.autoplay = flag("autoplay")
        media.controls = flag("controls")
        media.speech = flag("speech")
        media.captions = flag("captions")
        media.dimsFlashingLights = flag("dimsFlashingLights")
        media.flashRate = m["flashRate"].flatMap { r.nonNegative($0, "'flashRate' of \(mwhat) (flashes per second)") }
        media.flashLuminance = m["flashLuminance"].flatMap {
            r.number($0, "'flashLuminance' of \(mwhat) (change of relative luminance per flash)", rule: "from 0 to 1") { $0 >= 0 && $0 <= 1 }
        }
        if let cn = m["cameraMotion"], let cm = r.mapping(cn, "'cameraMotion' of \(mwhat) ({rotation, acceleration})") {
            cm.checkKeys(SceneKeys.cameraMotion, in: "'cameraMotion' of \(mwhat)", reader: r)
            media.cameraRotation = cm["rotation"].flatMap { r.nonNegative($0, "'rotation' of 'cameraMotion' (degrees per second)") }
            media.cameraAcceleration = cm["acceleration"].flatMap { r.nonNegative($0, "'acceleration' of 'cameraMotion' (m/s²)") }
        }
        return kind == nil ? nil : media
    }
}
