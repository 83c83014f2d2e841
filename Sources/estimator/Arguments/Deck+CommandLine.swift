import ArgumentParser
import EstimatorKit

extension Deck: ExpressibleByArgument, CommandLineValue {
    public init?(argument: String) {
        guard let deck = try? Self.parse(argument) else { return nil }
        self = deck
    }

    static func parse(_ text: String) throws(UserError) -> Deck {
        // The sentence quotes what was typed: sanitised for the terminal.
        do { return try Deck(parsing: text) } catch { throw UserError(.usage, TerminalText.sanitize(error.description)) }
    }

    static var valueName: String { "deck" }

    public var defaultValueDescription: String { description }

    /// The named decks; a shell offers them after `--deck`.
    public static var defaultCompletionKind: CompletionKind { .list(Deck.named.map(\.description)) }
}
