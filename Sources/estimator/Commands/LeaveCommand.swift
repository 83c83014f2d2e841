import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator leave`: say goodbye and end the session.
struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave the channel and end the session.",
        discussion: """
            Broadcasts "no card" for about a second so the others drop you at once, \
            then unregisters and ends the session; it returns once the session has \
            ended (its control socket gone, its adapter free), so a `join` right \
            after starts a new one. A session that has not ended \(Self.endLimit.components.seconds) s \
            after its leave is reported (exit 75) with its pid. With no session running \
            it says so and exits 0, so scripts can call it in cleanup traps.

            Example:
              $ estimator leave
              left channel 1
            """)

    /// How long the session may take to end once its leave is answered: it
    /// saves its history and closes its socket.
    static let endLimit = Duration.seconds(10)

    @Option(help: "The adapter whose session to end, by name or address (default: the only running session).")
    var adapter: AdapterChoice?

    func run() async throws {
        guard let (name, client) = try await SessionLocator.find(adapter: adapter) else {
            return print(adapter.map { "No session is running on \($0.text); nothing to leave." } ?? "No session is running; nothing to leave.")
        }
        let pid = client.peerPID
        let left = try ControlReplyPrinter.message(client.call(.leave))
        guard client.awaitEnd(within: Self.endLimit) else {
            throw UserError(.temporary, "The session on \(name)\(pid.map { " (pid \($0))" } ?? "") has not ended \(Self.endLimit.components.seconds) s after leaving; see \(SessionLauncher.logPath(adapter: name)), and end it with `kill` if it stays.")
        }
        print(left)
    }
}
