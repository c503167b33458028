import SpatialModel
import CSpatialMath

/// Steps a scene frame by frame. (Stub.)
public struct Simulator {
    public let scene: Scene
    public init(scene: Scene) { self.scene = scene }
}
