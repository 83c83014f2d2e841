import EstimatorKit

/// The channel, name and adapter a `join` uses: what was typed, else what
/// was remembered, else the defaults (channel 0, the account's name, hci0).
/// Everything typed is checked before anything is started or written.
struct JoinSettings: Equatable {
    var channel: Channel
    var name: PersonName
    var adapter: String
    /// Things to tell the person (a shortened name, a name the app won't show).
    var warnings: [String] = []
    /// Whether tables show cards at once: kept as `watch --open` set it.
    var open: Bool?
    /// The relay to start beside the session, if any.
    var relay: RelaySettings?

    /// A typed name longer than this is refused rather than cut: it is not
    /// a name but a mistake (a pasted paragraph).
    static let maximumTypedNameBytes = 64

    init(channel: String?, name: String?, adapter: String?, remembered: Config, account: Account = .current,
         relay typedRelay: RelayOptions = RelayOptions()) throws(UserError) {
        open = remembered.openCards
        relay = try typedRelay.settings(remembered: remembered.relay)
        if let channel {
            do { self.channel = try Channel(parsing: channel) } catch { throw UserError(.usage, error.description) }
        } else {
            self.channel = remembered.channel ?? .default
        }
        if let adapter {
            guard AdapterName.isValid(adapter) else { throw AdapterName.invalid(adapter) }
            self.adapter = adapter
        } else {
            self.adapter = remembered.adapter ?? "hci0"
        }
        if let relay, relay.isPlain {
            warnings.append("\(relay.url) is plain MQTT: packets and the password cross the network unencrypted; use mqtts:// unless the broker is on a network you trust.")
        }
        if self.adapter == AdapterName.none, relay == nil {
            throw UserError(.usage, "A session without Bluetooth (--adapter none) needs a relay: add --relay mqtts://HOST:8883/ROOM.")
        }
        if let name {
            guard name.utf8.count <= Self.maximumTypedNameBytes else {
                throw UserError(.data, "The name is \(name.utf8.count) bytes long; names are sent as at most \(PersonName.maxUTF8Count) bytes, so give a shorter one.")
            }
            do {
                let parsed = try PersonName.parse(name)
                self.name = parsed.name
                warnings += parsed.warnings.map(\.description)
            } catch {
                throw UserError(.data, error.description)
            }
        } else if let known = remembered.name ?? account.defaultName {
            self.name = known
        } else {
            throw UserError(.usage, "No name is known for this account; give one with --name.")
        }
    }

    /// What to remember after a successful join.
    var config: Config { Config(channel: channel, name: name, adapter: adapter, openCards: open, relay: relay) }
}

/// The relay options `join` was given; each one typed replaces the
/// remembered one, and `--relay none` drops the relay.
struct RelayOptions: Equatable {
    var url: String?
    var user: String?
    var passwordFile: String?
    var caFile: String?

    func settings(remembered: RelaySettings?) throws(UserError) -> RelaySettings? {
        if url == RelaySettings.noneWord { return nil }
        guard let base = url ?? remembered?.url else {
            guard user == nil, passwordFile == nil, caFile == nil else {
                throw UserError(.usage, "--relay-user, --relay-password-file and --relay-ca go with --relay mqtts://HOST:8883/ROOM.")
            }
            return nil
        }
        return try RelaySettings(url: base, user: user ?? remembered?.user,
                                 passwordFile: passwordFile ?? remembered?.passwordFile, caFile: caFile ?? remembered?.caFile)
    }
}
