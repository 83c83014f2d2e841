import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator pick CARD`: set my card in the running session.
struct PickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Vote: pick your card for this round.",
        usage: "estimator pick <card> [--adapter <adapter>]",
        discussion: """
            Cards: those of your deck (`estimator join --deck`; the app's, the \
            default, is 0 0.5 1 2 3 5 8 13 20 40 100), unsure (or '?'), coffee and \
            none (also ½, half, ☕, clear); a card your deck lacks is refused with the \
            deck's cards. `none` takes your card back. Type `unsure` for ?, or quote it \
            (`pick '?'`): unquoted, the shell may replace it with a one-letter \
            file name. Others see that you voted; your card shows when everyone \
            present has voted. The answer comes once your card is on the air and \
            says the story (or round) your vote went to; when a round began \
            meanwhile and cleared your card, it says so.

            Examples:
              $ estimator pick 8
              picked 8 for ABC-123

              $ estimator pick 21                 # on the fibonacci deck
              $ estimator pick M                  # on the tshirt deck
              $ estimator pick coffee --adapter hci1
            """)

    // Optional to ArgumentParser and required by `run()`: ArgumentParser
    // reports a missing argument before an unknown option, and `pick --foo`
    // is about the option.
    @Argument(help: "The card.")
    var card: DeckCard?

    @Option(help: "The adapter whose session to use, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        guard let card else { throw ValidationError("Give the card to pick, as in `estimator pick 8`.") }
        let (_, client) = try await SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.pick(card.card)))
    }
}

/// Prints a session's answer, or turns a failure into the session's exit code.
enum ControlReplyPrinter {
    static func print(_ reply: ControlReply) throws(UserError) {
        Swift.print(try message(reply))
    }

    /// The answer as a terminal may show it, or the refusal to exit with.
    static func message(_ reply: ControlReply) throws(UserError) -> String {
        if let failure = reply.failure { throw UserError(failure.code, TerminalText.sanitize(failure.sentence)) }
        return TerminalText.sanitize(reply.message)
    }
}
