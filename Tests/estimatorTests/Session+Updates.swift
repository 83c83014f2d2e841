@testable import estimator

extension Session {
    /// Returns once no advertisement update is under way: the tests' point
    /// to look at what went on the air after a request was answered.
    func updatesDone() async {
        while let running = updates.running { await running.value }
    }
}
