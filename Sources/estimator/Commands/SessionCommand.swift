import ArgumentParser
import EstimatorKit
import Glibc
import SessionDaemon

/// `estimator session`: the background session process that `join` starts.
/// Hidden: people use `join`.
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Run a session (started by `estimator join`).",
        shouldDisplay: false)

    @Option var adapter: String
    /// Without it the session finds a room (docs/PROTOCOL.md, Finding a room).
    @Option var channel: Channel?
    @Option var name: String
    @OptionGroup var staleOption: StaleOption
    @Option(help: "Descriptor to report readiness on, as one JSON line.") var readyFD: Int32
    @OptionGroup var relayOptions: RelayOptionGroup
    @Flag var observer = false
    @Flag var open = false
    @Option(help: "The cards the session accepts.") var deck: Deck = .app
    @Option(help: "How far the room reaches.") var range: SignalRange = .room

    /// The command line `join` starts a session with, after the program name.
    static func arguments(_ settings: JoinSettings, staleAfter stale: StaleSeconds, readyFD: Int32) -> [String] {
        var arguments = ["session", "--adapter", settings.adapter, "--name", settings.name.text,
                         "--stale", String(stale.seconds), "--ready-fd", String(readyFD)]
        if let channel = settings.channel { arguments += ["--channel", String(channel.rawValue)] }
        if settings.observing { arguments.append("--observer") }
        if settings.open == true { arguments.append("--open") }
        if let deck = settings.deck { arguments += ["--deck", deck.description] }
        if let range = settings.range { arguments += ["--range", range.rawValue] }
        if let relay = settings.relay { arguments += RelayOptionGroup.arguments(relay) }
        return arguments
    }

    func run() async throws {
        // Its own session: the terminal that ran `join` can close without taking it along.
        setsid()
        guard AdapterName.isValid(adapter) else { throw AdapterName.invalid(adapter) }
        let person = try PersonName.parseTyped(name).name
        let relaySettings = try relayOptions.typed.settings(remembered: nil)
        let process = SessionProcess(adapter: adapter, channel: channel, name: person,
                                     staleAfter: .seconds(staleOption.value.seconds), directory: .current(),
                                     relay: relaySettings, observing: observer, open: open, deck: deck, range: range)
        let code = await process.run { reply in
            let line = Array((reply.serialized + "\n").utf8)
            _ = line.withUnsafeBytes { write(readyFD, $0.baseAddress, $0.count) }
            close(readyFD)
            SessionLog.write(reply.message)
        }
        if code != 0 { throw ExitCode(code) }
    }
}
