import EstimatorKit

/// The session's timer (`round --timer`, `reveal --in`): when it runs out
/// the session reveals the round it was started for, as `estimator reveal`
/// does. It counts only while that round is the current one and hidden, so
/// a reveal ends it; a new round stops it, and another timer replaces it.
/// The executor waits; this says what its wait is for.
struct RevealTimer {
    private struct Running {
        let round: RoundNumber
        let deadline: Timestamp
        let id: Int
    }

    private var running: Running?
    private var started = 0

    /// Starts `countdown` for `round` at `now`; returns the id its wait
    /// calls back with (see `isRunning`).
    mutating func start(_ countdown: Countdown, for round: RoundNumber, now: Timestamp) -> Int {
        started += 1
        running = Running(round: round, deadline: now + countdown.duration, id: started)
        return started
    }

    /// Stops the timer, if one runs.
    mutating func stop() { running = nil }

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
