import EstimatorKit

/// A round whose cards were revealed, as the session reports it for the
/// history: every vote cast since the reveal, the latest per person.
struct RevealedRound: Equatable, Sendable {
    let channel: Channel
    let round: RoundNumber?
    let title: String?
    let revealedAt: Timestamp
    /// The latest vote of everyone who voted, by name.
    let votes: [String: Card]
    /// My deck, the one the mean is rounded to.
    var deck: Deck = .app
}
