import EstimatorKit

/// The session's wait for my round's deadline (`RoundMeeting.deadline`, set
/// by `round --timer` or `reveal --in` on any laptop of the room): when it
/// runs out the session reveals the round it was armed for, as `estimator
/// reveal` does. A new round stops it, and another deadline replaces it.
/// The executor waits; this says what its wait is for.
struct RevealTimer {
    private struct Running {
        let round: RoundNumber
        let deadline: Timestamp
        let id: Int
    }

    private var running: Running?
    private var started = 0

    /// Arms the wait for `deadline`, for `round`; returns the id its wait
    /// calls back with (see `isRunning`).
    mutating func start(at deadline: Timestamp, for round: RoundNumber) -> Int {
        started += 1
        running = Running(round: round, deadline: deadline, id: started)
        return started
    }

    /// Stops the timer, if one runs.
    mutating func stop() { running = nil }

    /// Whether a wait is armed.
    var isArmed: Bool { running != nil }

    /// Whether `id` is the wait armed now: one stopped or replaced before
    /// it ended reveals nothing.
    func isRunning(_ id: Int) -> Bool { running?.id == id }

    /// Whether the wait armed now is for `deadline` in `round`.
    func isArmed(at deadline: Timestamp, for round: RoundNumber) -> Bool {
        running?.deadline == deadline && running?.round == round
    }

    /// The round the wait armed now is for.
    var round: RoundNumber? { running?.round }
}
