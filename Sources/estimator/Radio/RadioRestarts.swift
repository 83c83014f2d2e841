/// The radio's restarts after a loss: one runs at a time, and a refused one
/// is tried again later, unless a new loss or the leave calls the try off.
struct RadioRestarts {
    /// Set while the radio is being started again.
    private var running = false
    /// The next try after a refused restart, if one is due.
    private var retry: Task<Void, Never>?

    /// Notes that a restart begins; returns false when one already runs.
    mutating func begin() -> Bool {
        guard !running else { return false }
        running = true
        return true
    }

    /// Notes that the running restart is over.
    mutating func end() { running = false }

    /// Runs `again` after `delay` of `clock`, unless called off before.
    mutating func retry(after delay: Duration, clock: any SessionClock, _ again: @escaping @Sendable () async -> Void) {
        retry = Task {
            do { try await clock.sleep(for: delay) } catch { return }
            await again()
        }
    }

    /// Calls off the try that is due, if any.
    func cancelRetry() { retry?.cancel() }
}
