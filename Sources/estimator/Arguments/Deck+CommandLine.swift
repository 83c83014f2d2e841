import ArgumentParser
import EstimatorKit

extension Deck: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> Deck {
        do { return try Deck(parsing: text) } catch {
            throw ValidationError("\(error.reason.map { "\($0); " } ?? "")\(DeckParseError.forms).")
        }
    }

    /// The named decks; a shell offers them after `--deck`.
    static var completion: CompletionKind { .list(Deck.named.map(\.description)) }
}
