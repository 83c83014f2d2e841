/// The estimate a team agrees on for a revealed round. The rules:
/// - a consensus (every vote the same number, or the same size, as
///   `Stats.isConsensus` says) settles the round by itself, and follows the
///   votes: a re-vote that breaks it leaves the round unsettled;
/// - a card someone settles on (`estimator settle`) replaces it, and a
///   later one replaces that;
/// - an agreed estimate is a number or a T-shirt size: `?`, coffee and no
///   card are no estimate.
public enum Agreement {
    /// The card every vote is, when the votes are a consensus; else `nil`.
    public static func consensus(_ votes: some Collection<Card>) -> Card? {
        guard Stats(votes.map { (name: "", card: $0) }).isConsensus else { return nil }
        return votes.first
    }

    /// Whether `card` can be agreed on: a number or a size.
    public static func check(_ card: Card) throws(AgreementError) {
        guard card.numericValue != nil || card.sizeRank != nil else { throw AgreementError(card: card) }
    }
}

/// A card that is no estimate (`?`, coffee, none).
public struct AgreementError: Error, Equatable, Sendable, CustomStringConvertible {
    public let card: Card

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(card: Card) {
        self.card = card
    }

    public var description: String {
        let shown = card == .waiting ? "none" : card.description
        return "\(shown) is no estimate; settle on a number or a size the team agreed on."
    }
}
