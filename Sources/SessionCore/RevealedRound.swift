import EstimatorKit

/// A round whose cards were revealed, as the session reports it for the
/// history: every vote cast since the reveal, the latest per person, and
/// what the team agreed on.
package struct RevealedRound: Equatable, Sendable {
    package let channel: Channel
    package let round: RoundNumber?
    package let title: String?
    package let revealedAt: Timestamp
    /// The latest vote of everyone who voted, by name.
    package let votes: [String: Card]
    /// My deck, the one the mean is rounded to.
    package var deck: Deck = .app
    /// The story, when my session started the round.
    package var story: Story?
    /// The card settled on (`estimator settle`).
    package var settled: Card?

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(channel: Channel, round: RoundNumber?, title: String?, revealedAt: Timestamp, votes: [String: Card], deck: Deck = .app, story: Story? = nil, settled: Card? = nil) {
        self.channel = channel
        self.round = round
        self.title = title
        self.revealedAt = revealedAt
        self.votes = votes
        self.deck = deck
        self.story = story
        self.settled = settled
    }

    /// The estimate agreed on: the card settled on, else the consensus.
    package var agreed: Card? { Agreement.agreed(settled: settled, votes: votes.values) }
}
