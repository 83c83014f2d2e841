import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator reveal`: show the round's cards to the whole room now.
struct RevealCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reveal",
        abstract: "Reveal the round's cards for the whole room now, voted or not.",
        discussion: """
            The room reveals by itself once everyone present has voted. When someone \
            has stepped away with their laptop open, anyone in the channel (a voter or \
            an observer) reveals the round at once: every session that hears it shows \
            the cards, and those who had not voted show · ("revealed without Bob"). \
            Statistics count only the votes. Key v does the same in \
            `estimator join --foreground`.

            --in starts a timer instead: the round is revealed for the room when it \
            runs out, unless everyone has voted before. It goes to the room with the \
            round, so every session holds it (it reveals even if you leave) and every \
            table and board shows what is left; the next round or a reveal stops it.

            Examples:
              $ estimator reveal
              round 1 revealed in channel 1 without Bob

              $ estimator reveal --in 1m30s
              the timer reveals round 1 in channel 1 in 1m30s, unless everyone votes first
            """)

    @Option(name: .customLong("in"),
            help: ArgumentHelp("Reveal when this runs out instead of now: minutes and/or seconds such as 90s, 2m or 1m30s, up to 60m.",
                               valueName: "duration"))
    var after: Countdown?

    @Option(help: "The adapter whose session to use, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        let (_, client) = try await SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.reveal(after: after)))
    }
}
