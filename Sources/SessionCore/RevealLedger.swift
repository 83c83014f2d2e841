import EstimatorKit

/// What my channel's round is to report to the history: its story, every
/// vote cast since the reveal (the latest per person), and the card the
/// team settled on. A vote once cast stays: leaving or turning stale after
/// the reveal does not take it back; a re-vote replaces it.
struct RevealLedger {
    /// The round as last reported; `nil` until its cards are revealed.
    private var report: RevealedRound?
    /// The story of the round, when my session started it.
    var story: Story?
    /// The card settled on (`estimator settle`), which replaces the consensus.
    private var settled: Card?

    /// Whether this round's cards have been revealed.
    var hasRevealed: Bool { report != nil }

    /// The votes counted since the reveal, by name.
    var votes: [String: Card] { report?.votes ?? [:] }

    /// The estimate agreed on, once revealed (`Agreement`).
    var agreed: Card? { report?.agreed }

    /// A new round, or another channel: nothing revealed, no story, nothing settled.
    mutating func reset() {
        report = nil
        story = nil
        settled = nil
    }

    /// Takes my channel's tally at `now`; returns the round to report when
    /// its cards were revealed just now or a vote changed since. `deck` is
    /// mine, the one the mean is rounded to.
    mutating func take(_ tally: Tally, channel: Channel, title: String?, deck: Deck, now: Timestamp) -> RevealedRound? {
        guard tally.isRevealed else { return nil }
        let counted = Dictionary(tally.entries.filter { !$0.isStale && $0.card.isVote && $0.mark == .shown($0.card) }
            .map { ($0.name, $0.card) }, uniquingKeysWith: { a, _ in a })
        let votes = votes.merging(counted) { _, new in new }
        guard report == nil || votes != report?.votes else { return nil }
        report = RevealedRound(channel: channel, round: tally.round, title: title, revealedAt: report?.revealedAt ?? now,
                               votes: votes, deck: deck, story: story, settled: settled)
        return report
    }

    /// Settles the revealed round on `card`, in place of the consensus or
    /// an earlier card; returns the round to report, `nil` before the reveal.
    mutating func settle(on card: Card) -> RevealedRound? {
        guard report != nil else { return nil }
        settled = card
        report?.settled = card
        return report
    }
}
