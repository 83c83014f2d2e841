import EstimatorKit

/// What my channel's revealed round is to report to the history: every vote
/// cast since the reveal, the latest per person. A vote once cast stays:
/// leaving or turning stale after the reveal does not take it back; a
/// re-vote replaces it.
struct RevealLedger {
    private var revealed: (at: Timestamp, votes: [String: Card])?

    /// Whether this round's cards have been revealed.
    var hasRevealed: Bool { revealed != nil }

    /// A new round, or another channel: nothing revealed yet.
    mutating func reset() { revealed = nil }

    /// Takes my channel's tally at `now`; returns the round to report when
    /// its cards were revealed just now or a vote changed since. `deck` is
    /// mine, the one the mean is rounded to.
    mutating func take(_ tally: Tally, channel: Channel, title: String?, deck: Deck, now: Timestamp) -> RevealedRound? {
        guard tally.isRevealed else { return nil }
        let counted = Dictionary(tally.entries.filter { !$0.isStale && $0.card.isVote && $0.mark == .shown($0.card) }
            .map { ($0.name, $0.card) }, uniquingKeysWith: { a, _ in a })
        var record = revealed ?? (at: now, votes: [:])
        record.votes.merge(counted) { _, new in new }
        guard revealed == nil || record.votes != revealed?.votes else { return nil }
        revealed = record
        return RevealedRound(channel: channel, round: tally.round, title: title, revealedAt: record.at, votes: record.votes,
                             deck: deck)
    }
}
