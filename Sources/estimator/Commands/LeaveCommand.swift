import ArgumentParser
import SessionDaemon

/// `estimator leave`: say goodbye and end the session.
struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave the channel and end the session.",
        discussion: """
            Broadcasts "no card" for about a second so the others drop you at once, \
            then unregisters and ends the session. With no session running it \
            says so and exits 0, so scripts can call it in cleanup traps.

            Example:
              $ estimator leave
              left channel 1
            """)

    @Option(help: "The adapter whose session to end, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        guard let (_, client) = try await SessionLocator.find(adapter: adapter) else {
            return print(adapter.map { "No session is running on \($0.text); nothing to leave." } ?? "No session is running; nothing to leave.")
        }
        try ControlReplyPrinter.print(client.call(.leave))
    }
}
