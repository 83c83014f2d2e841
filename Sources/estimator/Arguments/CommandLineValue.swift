import ArgumentParser
import EstimatorKit

/// A value type the commands take from the command line (a channel, a card,
/// seconds, an adapter): every command parses it with the same rules, and a
/// value that breaks them gets the same one sentence whichever command
/// refused it.
///
/// ArgumentParser only learns that `init?(argument:)` failed; its message
/// ("The value '256' is invalid for '--channel <channel>'") names the value
/// name, so `reportable(parserMessage:)` finds the type by that name and asks
/// it for its own sentence.
protocol CommandLineValue: ExpressibleByArgument {
    /// The value `text` stands for, or the sentence that says what is wrong.
    static func parse(_ text: String) throws(UserError) -> Self
    /// The value name in help and usage (`<channel>`); what identifies the
    /// type in ArgumentParser's messages.
    static var valueName: String { get }
}

extension CommandLineValue {
    init?(argument: String) {
        guard let value = try? Self.parse(argument) else { return nil }
        self = value
    }
}

enum CommandLineValues {
    /// Every `CommandLineValue`, by value name.
    static let types: [any CommandLineValue.Type] = [Channel.self, Card.self, Deck.self, StaleSeconds.self, AdapterChoice.self]

    /// The type's own sentence for ArgumentParser's "The value 'X' is invalid
    /// for '--option <name>'", or nil for any other message.
    static func error(forParserMessage message: String) -> UserError? {
        let prefix = Array("The value '".utf8), marker = Array("' is invalid for '".utf8)
        let text = Array(message.utf8)
        guard text.starts(with: prefix), text.count >= prefix.count + marker.count else { return nil }
        // The value may hold the marker itself: ArgumentParser's own words come last.
        guard let split = stride(from: text.count - marker.count, through: prefix.count, by: -1)
            .first(where: { text[$0..<$0 + marker.count].elementsEqual(marker) })
        else { return nil }
        let value = String(decoding: text[prefix.count..<split], as: UTF8.self)
        let option = String(decoding: text[(split + marker.count)...], as: UTF8.self)  // `--channel <channel>'`
        guard let open = option.lastIndex(of: "<"), let close = option.lastIndex(of: ">"), open < close,
              let type = types.first(where: { $0.valueName == option[option.index(after: open)..<close] })
        else { return nil }
        do {
            _ = try type.parse(value)
            return nil
        } catch {
            return error
        }
    }
}
