import Foundation
import SpatialModel
import SceneLoader
import Simulation
import AssetImport

extension SpatialCheck {
    /// `spatialcheck simulate SCENE`: streams the per-frame trace to `handle` (memory does not grow
    /// with the scene's duration). The configuration sets degrees per point as in `validate`
    /// (`resolveSettings`).
    public static func simulate(path: String, format: TraceFormat, options: LoadOptions = .init(),
                                isolation: AssetImportIsolation? = nil,
                                configPath: String? = nil, configSearchDirectory: String? = nil,
                                budget: WorkBudget = WorkBudget(), to handle: FileHandle) -> Outcome {
        simulate(path: path, format: format, options: options, isolation: isolation, configPath: configPath,
                 configSearchDirectory: configSearchDirectory, budget: budget, open: { handle })
    }

    /// `simulate`, opening the output only once the scene has loaded (so that a scene or
    /// configuration error leaves no empty --output file behind); `open` throws the error to report when
    /// the output cannot be opened. A scene over the entity-frame budget (`--max-work`; the trace has
    /// a row per entity-frame) is refused before any frame, as `validate` refuses it.
    public static func simulate(path: String, format: TraceFormat, options: LoadOptions = .init(),
                                isolation: AssetImportIsolation? = nil,
                                configPath: String? = nil, configSearchDirectory: String? = nil,
                                budget: WorkBudget = WorkBudget(),
                                open: () throws(Diagnostic) -> FileHandle) -> Outcome {
        let scene: Scene
        do {
            let load = try resolveSettings(configPath: configPath, searchDirectory: configSearchDirectory, load: options).load
            scene = try loadScene(path: path, options: load, isolation: isolation)
        } catch {
            return .failure(error.diagnostics)
        }
        if let over = budget.check(WorkBudget.work(of: scene, frames: Simulator(scene: scene).frameCount), path: path, trace: true) {
            return .failure([over])
        }
        let handle: FileHandle
        do { handle = try open() } catch { return .failure([error]) }
        do {
            try TraceWriter(scene: scene, format: format).write(to: handle)
        } catch {
            return Outcome(output: "", diagnostics: [Diagnostic(file: path, message: "could not write the trace: \(error)")],
                           exitCode: .loadError)
        }
        return Outcome(output: "", diagnostics: scene.warnings)
    }
}
