import ArgumentParser
import EstimatorKit

/// `estimator watch`: the live table.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show everyone's cards, live, until Ctrl-C.",
        discussion: """
            Attaches to the running session (your row is marked); without a session \
            it scans by itself and advertises nothing. Without --channel it shows the \
            session's channel, or every channel, grouped, when there is no session. \
            --json prints one JSON object per change instead of the table.

            Examples:
              estimator watch
              estimator watch --channel 0 --adapter hci1
              estimator watch --json | jq .
            """)

    @Option(parsing: .unconditional, help: "Only this channel, 0 to 255 (default: the session's, else all).")
    var channel: String?

    @Option(help: "The adapter whose session to watch, or to scan on (default: the only session, else the remembered adapter, else the first powered one).")
    var adapter: String?

    @Flag(help: "One JSON object per line, one per change.")
    var json = false

    @OptionGroup var staleOption: StaleOption

    func run() async throws {
        let stale = try staleOption.checked()
        var shown: Channel?
        if let channel {
            do { shown = try Channel(parsing: channel) } catch { throw UserError(.usage, error.description) }
        }
        if let (sessionAdapter, client) = try SessionLocator.find(adapter: adapter, timeout: 0) {
            let reply = try client.call(.watch)
            guard reply.exitCode == 0 else { return try ControlReplyPrinter.print(reply) }
            var viewer = WatchViewer(channel: shown, attached: true, adapter: sessionAdapter, json: json,
                                     staleAfter: .seconds(stale))
            return try await viewer.follow(SessionFeed(client: client))
        }
        let feed = try await ScanFeed.open(adapter: adapter ?? Config.load().adapter)
        var viewer = WatchViewer(channel: shown, attached: false, adapter: feed.adapterName, json: json,
                                 staleAfter: .seconds(stale))
        try await viewer.follow(feed)
    }
}
