import ArgumentParser
import EstimatorKit
import SessionDaemon

/// A card to pick or settle on: one of the deck in use, which is the deck
/// `join` remembered (the app's without one). Text that is no card is
/// refused with that deck's cards, and a shell offers that deck's cards,
/// asking the binary at each <TAB> since the deck is known only then. A
/// card of another deck is the session's to refuse: it knows its deck.
struct DeckCard: CommandLineValue {
    let card: Card

    static func argument(_ text: String) throws(ValidationError) -> DeckCard {
        guard let card = try? Card(parsing: text) else {
            let deck = remembered
            let cards = deck.cards.map(typed).joined(separator: " ")
            throw ValidationError("valid cards are those of \(deck.phrase) (\(cards)), unsure (or '?'), coffee or none.")
        }
        return DeckCard(card: card)
    }

    static var completion: CompletionKind {
        .custom { _, _, _ in remembered.cards.map(typed) + ["unsure", "coffee", "none"] }
    }

    /// The deck `join` remembered; a config that cannot be read leaves the
    /// app's, and `join` names what is wrong with it.
    private static var remembered: Deck { ((try? Config.load())?.deck) ?? .app }

    /// A card as it is typed: `0.5`, not `½`.
    private static func typed(_ card: Card) -> String { card.name ?? card.description }
}
