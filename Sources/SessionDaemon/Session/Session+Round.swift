import EstimatorKit

/// The result of my round: the reveal reported to the history, the agreed
/// estimate (`estimator settle`), and the timer that reveals the round
/// (`round --timer`, `reveal --in`).
extension Session {
    /// Counts my channel's votes; reports a reveal, and every change of a
    /// revealed round's votes, to the reveal observers. Returns whether the
    /// cards were revealed just now.
    func recount() -> Bool {
        let tally = board.read { [channel, clock] in $0.tally(of: channel, now: clock.now) }
        let first = !ledger.hasRevealed
        guard let report = ledger.take(tally, channel: channel, title: round.state.title, deck: deck, now: clock.now) else { return false }
        outlets.revealed(report)
        return first
    }

    /// Settles my revealed round on `card` (`estimator settle`) and reports
    /// it to the history; false before the reveal.
    func settle(on card: Card) -> Bool {
        guard let report = ledger.settle(on: card) else { return false }
        outlets.revealed(report)
        announce()
        return true
    }

    /// A new round in my channel, or another channel: nothing revealed yet,
    /// and no timer runs for it.
    func newRound() {
        ledger.reset()
        timer.stop()
    }

    /// When my timer reveals my round, while it runs.
    package var revealsAt: Timestamp? { timer.deadline(current: round.current, revealed: isRevealed) }

    /// Starts the timer that reveals `round` when `countdown` runs out (the
    /// caller tells the watchers: `me` says when).
    func startTimer(_ countdown: Countdown, for round: RoundNumber) {
        timer.start(countdown, for: round, clock: clock) { id in await self.timerRanOut(id) }
    }

    /// The timer `id` ran out: reveals my round as `estimator reveal` does,
    /// unless the timer was stopped or replaced, or the round was revealed
    /// or left meanwhile.
    private func timerRanOut(_ id: Int) async {
        guard timer.isRunning(id), revealsAt != nil else { return }
        _ = await handle(.reveal())
    }
}
