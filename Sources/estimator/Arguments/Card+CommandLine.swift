import ArgumentParser
import EstimatorKit

extension Card: CommandLineValue {
    static func argument(_ text: String) throws(ValidationError) -> Card {
        guard let card = try? Card(parsing: text) else { throw ValidationError("valid cards are \(Card.typedForms).") }
        return card
    }

    static var completion: CompletionKind { .list(Card.spellings) }
}
