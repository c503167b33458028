import Foundation
import SpatialModel
import SceneLoader
import Simulation
import AssetImport

extension SpatialCheck {
    /// `spatialcheck simulate SCENE`: streams the per-frame trace to `handle` (memory does not grow
    /// with the scene's duration).
    public static func simulate(path: String, format: TraceFormat, options: LoadOptions = .init(),
                                isolation: AssetImportIsolation? = nil, to handle: FileHandle) -> Outcome {
        let scene: Scene
        do { scene = try loadScene(path: path, options: options, isolation: isolation) } catch {
            return Outcome(output: "", diagnostics: error.diagnostics, exitCode: .loadError)
        }
        do {
            try TraceWriter(scene: scene, format: format).write(to: handle)
        } catch {
            return Outcome(output: "", diagnostics: [Diagnostic(file: path, message: "could not write the trace: \(error)")],
                           exitCode: .loadError)
        }
        return Outcome(output: "", diagnostics: scene.warnings)
    }
}
