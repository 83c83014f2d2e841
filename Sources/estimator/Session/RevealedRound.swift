import EstimatorKit

/// A round whose cards were revealed, as the session reports it for the
/// history: every vote cast since the reveal, the latest per person, and
/// what the team agreed on.
struct RevealedRound: Equatable, Sendable {
    let channel: Channel
    let round: RoundNumber?
    let title: String?
    let revealedAt: Timestamp
    /// The latest vote of everyone who voted, by name.
    let votes: [String: Card]
    /// My deck, the one the mean is rounded to.
    var deck: Deck = .app
    /// The story, when my session started the round.
    var story: Story?
    /// The card settled on (`estimator settle`).
    var settled: Card?

    /// The estimate agreed on: the card settled on, else the consensus.
    var agreed: Card? { Agreement.agreed(settled: settled, votes: votes.values) }
}
