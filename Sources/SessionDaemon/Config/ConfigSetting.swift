import EstimatorKit

/// A setting `config.json` remembers, named as its key in the file; what
/// `estimator config` shows and resets.
package enum ConfigSetting: String, CaseIterable, Sendable {
    case channel, name, adapter, role, deck, open, quiet, range, relay, relayUser, relayPasswordFile, relayCA

    /// What the file's value must be, for the sentence that refuses a damaged one.
    var form: String {
        switch self {
        case .channel: "a whole number from 0 to 255"
        case .name: "a string of 1 to 64 bytes without control characters, as `estimator join --name` takes"
        case .adapter: "a string naming an adapter, such as \"hci0\" or \"none\""
        case .role: "\"voter\" or \"observer\""
        case .deck: "a string naming a deck: \"app\", \"fibonacci\", \"powers\", \"tshirt\" or integers such as \"1,2,4,8\""
        case .open, .quiet: "true or false"
        case .range: "\"near\", \"room\" or \"hall\""
        case .relay: "a string, the broker's URL, starting with mqtts:// or mqtt://"
        case .relayUser: "a string of 1 to 256 bytes without control characters"
        case .relayPasswordFile, .relayCA: "a string, the path of a file"
        }
    }

    /// The setting's value in `config`: as JSON, and as words for a
    /// terminal; nil when `config` does not remember it.
    package func remembered(in config: Config) -> (json: JSONValue, text: String)? {
        switch self {
        case .channel: config.channel.map { (.int(Int($0.rawValue)), String($0.rawValue)) }
        case .name: config.name.map { (.string($0.text), $0.text) }
        case .adapter: config.adapter.map { (.string($0), $0) }
        case .role: config.observing.map { (.string($0 ? "observer" : "voter"), $0 ? "observer" : "voter") }
        case .deck: config.deck.map { (.string($0.description), $0.description) }
        case .open: config.openCards.map { (.bool($0), Self.openWords($0)) }
        case .quiet: config.quiet.map { (.bool($0), Self.quietWords($0)) }
        case .range: config.range.map { (.string($0.rawValue), Self.rangeWords($0)) }
        case .relay: config.relay.map { (.string($0.url), $0.url) }
        case .relayUser: config.relay?.user.map { (.string($0), $0) }
        case .relayPasswordFile: config.relay?.passwordFile.map { (.string($0), $0) }
        case .relayCA: config.relay?.caFile.map { (.string($0), $0) }
        }
    }

    /// What applies when nothing is remembered: as JSON (null where it is
    /// found at each start), and as words.
    package func fallback(account: Account = .current) -> (json: JSONValue, text: String) {
        switch self {
        case .channel: (.null, "none: join finds a room nearby")
        case .name:
            account.defaultName.map { (.string($0.text), "\($0.text) (your account's name)") } ?? (.null, "none: join asks for --name")
        case .adapter: (.null, "the first powered adapter")
        case .role: (.string("voter"), "voter")
        case .deck: (.string(Deck.app.description), Deck.app.description)
        case .open: (.bool(false), Self.openWords(false))
        case .quiet: (.bool(false), Self.quietWords(false))
        case .range: (.string(SignalRange.room.rawValue), Self.rangeWords(.room))
        case .relay: (.null, "none: Bluetooth alone")
        case .relayUser: (.null, "none")
        case .relayPasswordFile: (.null, "none")
        case .relayCA: (.null, "the system's CAs")
        }
    }

    /// `open` and what it does (docs/PROTOCOL.md, Ballot): it decides what goes on the air.
    private static func openWords(_ open: Bool) -> String {
        open ? "true: cards shown as soon as picked, your card on the air in clear"
            : "false: cards hidden until everyone has voted, your card sealed where the radio allows"
    }

    private static func quietWords(_ quiet: Bool) -> String {
        quiet ? "true: no bell at the reveal" : "false: the bell rings at the reveal"
    }

    /// A range and how far it reaches (`SignalRange`).
    private static func rangeWords(_ range: SignalRange) -> String {
        switch range {
        case .near: "near: people within about 5 m are in the room"
        case .room: "room: people within about 15 m are in the room"
        case .hall: "hall: people 20 m and more away are in the room"
        }
    }

    /// The settings' names, comma-separated, for the help and for a name that is none of them.
    package static var list: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }
}
