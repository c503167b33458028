import Foundation
import Testing
@testable import SpatialCheck
import Reporting

/// `validate --jobs N --baseline` compares scenes in the run's order, so a scene checked before an
/// earlier one is held until that one is compared. `BaselineSteps.waitForRoom` bounds how many:
/// a worker does not take on a scene while `N` scenes before it are still to be compared.
@Suite struct BaselineStepsTests {
    /// The first scene is checked last: its worker waits until the other worker either waits for
    /// room (the bound at work) or has checked every other scene (no bound). No timing decides
    /// anything: each way ends, and the scenes held are counted.
    @Test func aSlowFirstSceneHoldsAtMostJobsScenes() {
        let jobs = 2, count = 8
        let paths = (0..<count).map { "s\($0).scene.yaml" }
        let baseline = Report(toolVersion: "test", pointAngle: 0.0671, failOn: .error, scenes: [])
        let steps = BaselineSteps(BaselineMatcher(baseline: baseline, currentScenePaths: paths), failOn: .error, perRule: nil)
        let others = Tally()
        let stored = Tally()
        SpatialCheck.checkInRunOrder(count: count, jobs: jobs, steps: steps) { n in
            if n == 0 {
                // Until every other worker waits for room, or every other scene was checked.
                while steps.state.waitingWorkers < jobs - 1 && others.value < count - 1 { usleep(200) }
            }
            let scene = SceneReport(path: paths[n], status: .checked)
            steps.checked(n, SpatialCheck.CheckedScene(report: scene, snapshot: nil, messages: nil)) { m, _ in stored.add(m) }
            if n != 0 { others.add(n) }
        }
        // Scene 0 and at most jobs − 1 later ones were held at once; without the bound, all 8.
        #expect(steps.state.mostHeld == jobs)
        #expect(stored.all == Array(0..<count))
    }
}

/// Numbers recorded from several workers, in the order they came.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var numbers: [Int] = []
    func add(_ n: Int) { lock.lock(); numbers.append(n); lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return numbers.count }
    var all: [Int] { lock.lock(); defer { lock.unlock() }; return numbers }
}
