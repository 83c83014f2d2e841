import Clocks
import EstimatorKit

/// The session's timer (`round --timer`, `reveal --in`): when it runs out
/// the session reveals the round it was started for, as `estimator reveal`
/// does. It counts only while that round is the current one and hidden, so
/// a reveal ends it; a new round stops it, and another timer replaces it.
package struct RevealTimer {
    private struct Running {
        let round: RoundNumber
        let deadline: Timestamp
        let id: Int
    }

    private var running: Running?
    private var started = 0
    /// The wait for the deadline; the tests await its end.
    package private(set) var wait: Task<Void, Never>?

    /// Starts `countdown` for `round` on `clock`; when it runs out,
    /// `ranOut` is called with the timer's id (see `isRunning`).
    mutating func start(_ countdown: Countdown, for round: RoundNumber, clock: any SessionClock,
                        ranOut: @escaping @Sendable (Int) async -> Void) {
        wait?.cancel()
        started += 1
        let id = started
        running = Running(round: round, deadline: clock.now + countdown.duration, id: id)
        wait = Task {
            do { try await clock.sleep(for: countdown.duration) } catch { return }
            await ranOut(id)
        }
    }

    /// Stops the timer, if one runs.
    mutating func stop() {
        wait?.cancel()
        running = nil
    }

    /// Whether `id` is the timer running now: one stopped or replaced before
    /// its wait ended reveals nothing.
    func isRunning(_ id: Int) -> Bool { running?.id == id }

    /// When the timer reveals the round `current`, still hidden; nil when
    /// none runs for it.
    func deadline(current: RoundNumber?, revealed: Bool) -> Timestamp? {
        guard let running, running.round == current, !revealed else { return nil }
        return running.deadline
    }
}
