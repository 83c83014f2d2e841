import EstimatorKit

/// The channel, name and adapter a `join` uses: what was typed, else what
/// was remembered, else the defaults (a room found nearby, the account's
/// name, the adapter `join` found). Everything typed is checked before
/// anything is started or written.
package struct JoinSettings: Equatable {
    /// The channel; nil to find a room (docs/PROTOCOL.md, Finding a room).
    /// Channel 0, the app's, is never found: it is typed.
    package var channel: Channel?
    package var name: PersonName
    package var adapter: String
    /// Things to tell the person (a shortened name, a name the app won't show).
    package var warnings: [String] = []
    /// Whether tables show cards at once, and my card goes on the air in
    /// clear: kept as `watch --open` set it.
    package var open: Bool?
    /// Present without a vote (`--observer`), else a voter.
    package var observing: Bool
    /// Whether the role was ever chosen, so it is remembered.
    private var roleChosen: Bool
    /// The cards offered (`--deck`); remembered once chosen.
    package var deck: Deck?
    /// No bell on the reveal (`--quiet`); remembered once chosen.
    package var quiet: Bool?
    /// How far the room reaches (`--range`); remembered once chosen.
    package var range: SignalRange?
    /// The relay to start beside the session, if any.
    package var relay: RelaySettings?

    /// `adapter`: the typed adapter's name (an address already resolved);
    /// `fallbackAdapter`: the one to use when none is typed or remembered.
    package init(channel: Channel?, name: String?, adapter: String?, observing: Bool? = nil, deck: Deck? = nil, quiet: Bool? = nil,
         range: SignalRange? = nil, remembered: Config,
         fallbackAdapter: @autoclosure () async -> String, account: Account = .current,
         relay typedRelay: RelayOptions = RelayOptions()) async throws(UserError) {
        open = remembered.openCards
        self.observing = observing ?? remembered.observing ?? false
        roleChosen = (observing ?? remembered.observing) != nil
        self.deck = deck ?? remembered.deck
        self.quiet = quiet ?? remembered.quiet
        self.range = range ?? remembered.range
        relay = try typedRelay.settings(remembered: remembered.relay)
        self.channel = channel ?? remembered.channel
        if let adapter {
            self.adapter = adapter
        } else if let known = remembered.adapter {
            self.adapter = known
        } else {
            self.adapter = await fallbackAdapter()
        }
        if let relay, relay.isPlain {
            warnings.append("\(relay.url) is plain MQTT: packets and the password cross the network unencrypted; use mqtts:// unless the broker is on a network you trust.")
        }
        if self.adapter == AdapterName.none, relay == nil {
            throw UserError(.usage, "A session without Bluetooth (--adapter none) needs a relay: add --relay mqtts://HOST:8883/ROOM.")
        }
        if self.adapter == AdapterName.none, self.channel == nil {
            throw UserError(.usage, "A session without Bluetooth (--adapter none) cannot look for a room nearby: give the room's number with --channel N, as `estimator status` shows it on a laptop in the room.")
        }
        if let name {
            let parsed = try PersonName.parseTyped(name)
            self.name = parsed.name
            warnings += parsed.warnings.map(\.description)
        } else if let known = remembered.name ?? account.defaultName {
            self.name = known
        } else {
            throw UserError(.usage, "No name is known for this account; give one with --name.")
        }
    }

    /// What to remember after a successful join: the channel the session
    /// is in (`joined`, as its answer says it), else the one typed or
    /// remembered.
    package func config(joined: Channel? = nil) -> Config {
        Config(channel: joined ?? channel, name: name, adapter: adapter, openCards: open,
               observing: roleChosen ? observing : nil, deck: deck, relay: relay, quiet: quiet, range: range)
    }
}

/// The relay options `join` was given; each one typed replaces the
/// remembered one, and `--relay none` drops the relay.
package struct RelayOptions: Equatable {
    var url: String?
    var user: String?
    var passwordFile: String?
    var caFile: String?

    /// Options as typed; nil for each one not typed.
    package init(url: String? = nil, user: String? = nil, passwordFile: String? = nil, caFile: String? = nil) {
        self.url = url
        self.user = user
        self.passwordFile = passwordFile
        self.caFile = caFile
    }

    package func settings(remembered: RelaySettings?) throws(UserError) -> RelaySettings? {
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

extension PersonName {
    /// A name typed on the command line (`join --name`, `packet encode
    /// --name`): the same rules and the same sentences for both; exit 65.
    package static func parseTyped(_ text: String) throws(UserError) -> (name: PersonName, warnings: [PersonNameWarning]) {
        do { return try parse(text) } catch { throw UserError(.data, error.description) }
    }
}
