import SessionDaemon



extension Session {
    /// Returns once no advertisement update is under way: the tests' point
    /// to look at what went on the air after a request was answered.
    func updatesDone() async {
        while let running = updates.running { await running.value }
    }
}

extension Session {
    /// Returns once the latest timer's wait has ended and what it does then
    /// is done (move the clock past its deadline first).
    func timerDone() async { await timerWait?.value }
}
