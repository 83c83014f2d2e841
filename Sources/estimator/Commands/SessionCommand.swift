import ArgumentParser
import EstimatorKit
import Glibc

/// `estimator session`: the background session process that `join` starts.
/// Hidden: people use `join`.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Run a session (started by `estimator join`).",
        shouldDisplay: false)

    @Option var adapter: String
    @Option var channel: Channel
    @Option var name: String
    @Option var stale: Int = 6
    @Option(help: "Descriptor to report readiness on, as one JSON line.") var readyFD: Int32
    @Option var relay: String?
    @Option var relayUser: String?
    @Option var relayPasswordFile: String?
    @Option(name: .customLong("relay-ca")) var relayCA: String?
    @Flag var observer = false
    @Flag var open = false
    @Option var deck: Deck = .app

    func run() async throws {
        // Its own session: the terminal that ran `join` can close without taking it along.
        setsid()
        guard AdapterName.isValid(adapter) else { throw AdapterName.invalid(adapter) }
        let person: PersonName
        person = try PersonName.parseTyped(name).name
        let relaySettings = try relay.map { url throws(UserError) in
            try RelaySettings(url: url, user: relayUser, passwordFile: relayPasswordFile, caFile: relayCA)
        }
        let process = SessionProcess(adapter: adapter, channel: channel, name: person,
                                     staleAfter: .seconds(max(stale, 1)), directory: .current(), relay: relaySettings,
                                     observing: observer, open: open, deck: deck)
        let code = await process.run { reply in
            let line = Array((reply.serialized + "\n").utf8)
            _ = line.withUnsafeBytes { write(readyFD, $0.baseAddress, $0.count) }
            close(readyFD)
            SessionLog.write(reply.message)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
