import ArgumentParser

/// `estimator leave`: say goodbye and end the session.
struct LeaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave the channel and end the session.",
        discussion: """
            Broadcasts "no card" for about a second so the others drop you at once, \
            then unregisters and ends the session.

            Example:
              estimator leave
              left channel 1
            """)

    @Option(help: "The adapter whose session to end (default: the only running session).")
    var adapter: String?

    func run() throws {
        let (_, client) = try SessionLocator.connect(adapter: adapter)
        try ControlReplyPrinter.print(client.call(.leave))
    }
}
