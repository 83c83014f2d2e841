import ArgumentParser
import EstimatorKit

/// `estimator status`: what the session is doing.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show what the session is doing.",
        discussion: """
            Example:
              estimator status
              session pid 4242 on hci0: channel 1 as 전수열, card 8
              round 3 (ABC-1); 3 people heard in channel 1; radio: advertising and scanning
            """)

    @Option(help: "The adapter whose session to show (default: the only running session).")
    var adapter: String?

    func run() throws {
        let (_, client) = try SessionLocator.connect(adapter: adapter)
        let reply = try client.call(.status)
        guard reply.exitCode == 0, let status = reply.status else { return try ControlReplyPrinter.print(reply) }
        let name = TerminalText.sanitize(status.name)
        let people = status.peers == 1 ? "1 person" : "\(status.peers) people"
        let card = status.card == .waiting ? "no card yet" : "card \(status.card)"
        let round = status.round.map { "round \($0)" + (status.title.map { " (\(TerminalText.sanitize($0)))" } ?? "") + "; " } ?? ""
        print("""
            session pid \(status.pid) on \(TerminalText.sanitize(status.adapter)): channel \(status.channel) as \(name), \(card)
            \(round)\(people) heard in channel \(status.channel); radio: \(TerminalText.sanitize(status.radio))
            """)
        if let relay = status.relay { print("relay: \(TerminalText.sanitize(relay))") }
    }
}
