import ArgumentParser
import EstimatorKit

/// `estimator pick CARD`: set my card in the running session.
struct PickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Show a card to the room.",
        discussion: """
            Cards: \(Card.typedForms) (also ½, half, ☕, clear). \
            `none` takes your card back.

            Examples:
              estimator pick 8
              picked 8
              estimator pick coffee --adapter hci1
            """)

    @Argument(help: "The card.")
    var card: String

    @Option(help: "The adapter whose session to use (default: the only running session).")
    var adapter: String?

    func run() throws {
        try Self.pick(card: card, adapter: adapter)
    }

    /// Shared with the start-up fast path (`QuickCommand`), which calls it
    /// without building the whole command tree.
    static func pick(card text: String, adapter: String?) throws(UserError) {
        let card: Card
        do { card = try Card(parsing: text) } catch { throw UserError(.usage, error.description) }
        let (_, client) = try SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.pick(card)))
    }
}

/// Prints a session's answer, or turns a failure into the session's exit code.
enum ControlReplyPrinter {
    static func print(_ reply: ControlReply) throws(UserError) {
        let message = TerminalText.sanitize(reply.message)
        guard reply.exitCode == 0 else { throw UserError(UserError.Code(rawValue: reply.exitCode) ?? .software, message) }
        Swift.print(message)
    }
}
