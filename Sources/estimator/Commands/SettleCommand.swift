import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator settle [CARD]`: record the estimate the team agreed on.
struct SettleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settle",
        abstract: "Record the estimate the team agreed on for the revealed round.",
        discussion: """
            After the reveal and the discussion, records CARD as the round's agreed \
            estimate for the whole room: it goes with the round to every laptop, whose \
            table's footer shows it and whose history keeps it (`estimator history \
            --csv` exports it as Story Points), and for the backlog, whose next story \
            `estimator round` then takes. A round whose votes, two or more, are all \
            the same number or size settles by itself (one vote alone agrees with \
            nobody); CARD replaces that, and a later settle replaces an earlier one. Without CARD, settles on the consensus, and says so when \
            there is none. CARD is a number or a size of your deck, checked as \
            `estimator pick` checks it; ? and coffee are no estimate. Anyone may \
            settle, an observer too.

            Examples:
              $ estimator settle 5
              round 4 (ABC-123 Login with passkeys) settled at 5

              $ estimator settle
              Error: Round 4 (ABC-123 Login with passkeys) has no consensus (the votes are 3, 5 and 8); give the card the team agreed on, as `estimator settle 5`.
            """)

    @Argument(help: "The agreed card (default: the votes' consensus).")
    var card: DeckCard?

    @Option(help: "The adapter whose session to use, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        let (_, client) = try await SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.settle(card?.card)))
    }
}
