import Foundation

extension SpatialCheck {
    /// Runs `work` for the scenes `0..<count` on `jobs` workers, each taking the next scene in the
    /// run's order. With `steps` (`validate --baseline`), a worker waits for room
    /// (`BaselineSteps.waitForRoom`) before it checks a scene, so at most `jobs` scenes are checked
    /// and not yet compared at any time.
    static func checkInRunOrder(count: Int, jobs: Int, steps: BaselineSteps?, work: @Sendable (Int) -> Void) {
        if jobs <= 1 {
            for n in 0..<count { work(n) }
            return
        }
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while true {
                let i = next.take()
                guard i < count else { break }
                steps?.waitForRoom(i, window: jobs)
                work(i)
            }
        }
    }
}
