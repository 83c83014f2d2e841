import Clocks
import Threads

/// The radio's restarts after a loss: one runs at a time; a refused one
/// is tried again later, unless a new loss or the leave calls the try off;
/// and one that a new loss overtook is not taken for a working radio.
package struct RadioRestarts {
    /// Set while the radio is being started again.
    private var running = false
    /// Whether a loss was reported while the running restart ran: the radio
    /// it started may be gone already (the adapter powered off while
    /// BlueZ's reply was on its way), and no further sign says so.
    private var overtaken = false
    /// The next try after a refused restart, if one is due.
    private var retry: Task<Void, Never>?

    /// No restart running, none due.
    package init() {}

    /// Notes that a restart begins; returns false when one already runs.
    package mutating func begin() -> Bool {
        guard !running else { return false }
        running = true
        overtaken = false
        return true
    }

    /// Notes a new loss, and calls off the try that is due if it has not begun.
    package mutating func lost() {
        overtaken = running
        retry?.cancel()
    }

    /// Whether the running restart's start, which worked, was overtaken by
    /// a loss and must start again; clears it for that start.
    package mutating func startsAgain() -> Bool {
        defer { overtaken = false }
        return overtaken
    }

    /// Notes that the running restart is over.
    package mutating func end() { running = false }

    /// Runs `again` after `delay` of `clock`, unless called off before; it
    /// replaces the try that is due, as two signs of recovery for one loss
    /// (bluetoothd back, then its adapter) can each be refused.
    /// Once due, the try runs to its end whatever comes: cancelling it would
    /// cancel its BlueZ calls halfway (`Connection.call` throws on
    /// cancellation), one registering an advertisement and the next, meant
    /// to take it back, refused; a loss meanwhile makes it start again.
    package mutating func retry(after delay: Duration, clock: any SessionClock, _ again: @escaping @Sendable () async -> Void) {
        retry?.cancel()
        retry = Task(executorPreference: SessionLoop.current) {
            do { try await clock.sleep(for: delay) } catch { return }
            await Task(executorPreference: SessionLoop.current) { await again() }.value
        }
    }

    /// Calls off the try that is due, if it has not begun.
    package func cancelRetry() { retry?.cancel() }
}
