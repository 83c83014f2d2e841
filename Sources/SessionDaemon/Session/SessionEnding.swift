/// The session's leaving: once it starts, requests are refused; the work
/// hooked on it runs while it goes on; once it is done, the tasks awaiting
/// the end go on.
struct SessionEnding {
    /// Set when leaving starts.
    private(set) var hasStarted = false
    /// Set when leaving is done.
    private(set) var isDone = false
    /// Run when leaving, after the last line went to the watchers: the relay
    /// clears what it published before the leave is answered.
    private(set) var hooks: [@Sendable () async -> Void] = []
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Notes that leaving started.
    mutating func start() { hasStarted = true }

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
