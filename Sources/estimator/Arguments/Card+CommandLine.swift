import ArgumentParser
import EstimatorKit

extension Card: ExpressibleByArgument, CommandLineValue {
    public init?(argument: String) {
        guard let card = try? Self.parse(argument) else { return nil }
        self = card
    }

    /// CardParseError's sentence, quoting at most `TerminalText.echoLimit`
    /// characters of what was typed.
    static func parse(_ text: String) throws(UserError) -> Card {
        guard let card = try? Card(parsing: text) else {
            throw UserError(.usage, "'\(TerminalText.echo(text))' is not a card; a card is \(Card.typedForms).")
        }
        return card
    }

    static var valueName: String { "card" }

    public var defaultValueDescription: String { name ?? hex }

    public static var defaultCompletionKind: CompletionKind { .list(Card.spellings) }
}
