/// The session's leaving: the work hooked on it runs while it goes on;
/// once it is done, the tasks awaiting the end go on. That it has started
/// is the core's (`SessionCore.hasEnded`).
struct SessionEnding {
    /// Set when leaving is done.
    private(set) var isDone = false
    /// Run when leaving, after the last line went to the watchers: the relay
    /// clears what it published before the leave is answered.
    private(set) var hooks: [@Sendable () async -> Void] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Adds work to run when leaving.
    mutating func hook(_ work: @escaping @Sendable () async -> Void) { hooks.append(work) }

    /// Keeps `waiter` to resume when leaving is done.
    mutating func addWaiter(_ waiter: CheckedContinuation<Void, Never>) { waiters.append(waiter) }

    /// Notes that leaving is done and resumes every task awaiting it.
    mutating func finish() {
        isDone = true
        let resumed = waiters
        waiters = []
        for waiter in resumed { waiter.resume() }
    }
}
