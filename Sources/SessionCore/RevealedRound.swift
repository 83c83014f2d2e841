import EstimatorKit

/// A round whose cards were revealed, as the session reports it for the
/// history: every vote cast since the reveal, the latest per person, and
/// what the team agreed on.
package struct RevealedRound: Equatable, Sendable {
    package let channel: Channel
    package let round: RoundNumber?
    /// The story's title (`Story.title`), when the round has a story.
    package var title: String?
    package let revealedAt: Timestamp
    /// The latest vote of everyone who voted, by name.
    package let votes: [String: Card]
    /// My deck, the one the mean is rounded to.
    package var deck: Deck = .app
    /// The story, as the room's meeting says (`RoundMeeting`).
    package var story: Story?
    /// The estimate the room agreed on, as its meeting says: settled by
    /// `estimator settle`, or by the consensus of the revealed cards.
    package var agreed: Card?
    /// The round my session joined as it ran, on the first round it
    /// reports after joining a meeting under way: the rounds before were
    /// not heard here.
    package var joinedAt: RoundNumber?

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(channel: Channel, round: RoundNumber?, title: String?, revealedAt: Timestamp, votes: [String: Card], deck: Deck = .app, story: Story? = nil, agreed: Card? = nil,
                joinedAt: RoundNumber? = nil) {
        self.channel = channel
        self.round = round
        self.title = title
        self.revealedAt = revealedAt
        self.votes = votes
        self.deck = deck
        self.story = story
        self.agreed = agreed
        self.joinedAt = joinedAt
    }
}
