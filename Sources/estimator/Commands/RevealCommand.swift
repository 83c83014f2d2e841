import ArgumentParser
import EstimatorKit

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

            Examples:
              $ estimator reveal
              round 4 revealed in channel 1 without Bob
            """)

    @Option(help: "The adapter whose session to use, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        let (_, client) = try await SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.reveal))
    }
}
