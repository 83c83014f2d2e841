import EstimatorKit

/// The channel, name and adapter a `join` uses: what was typed, else what
/// was remembered, else the defaults (channel 0, the account's name, the
/// adapter `join` found). Everything typed is checked before anything is
/// started or written.
struct JoinSettings: Equatable {
    var channel: Channel
    var name: PersonName
    var adapter: String
    /// Things to tell the person (a shortened name, a name the app won't show).
    var warnings: [String] = []
    /// Whether tables show cards at once: kept as `watch --open` set it.
    var open: Bool?

    /// `adapter`: the typed adapter's name (an address already resolved);
    /// `fallbackAdapter`: the one to use when none is typed or remembered.
    init(channel: Channel?, name: String?, adapter: String?, remembered: Config, fallbackAdapter: @autoclosure () async -> String,
         account: Account = .current) async throws(UserError) {
        open = remembered.openCards
        self.channel = channel ?? remembered.channel ?? .default
        if let adapter {
            self.adapter = adapter
        } else if let known = remembered.adapter {
            self.adapter = known
        } else {
            self.adapter = await fallbackAdapter()
        }
        if let name {
            let parsed = try PersonName.parseTyped(name)
            self.name = parsed.name
            warnings = parsed.warnings.map(\.description)
        } else if let known = remembered.name ?? account.defaultName {
            self.name = known
        } else {
            throw UserError(.usage, "No name is known for this account; give one with --name.")
        }
    }

    /// What to remember after a successful join.
    var config: Config { Config(channel: channel, name: name, adapter: adapter, openCards: open) }
}

extension PersonName {
    /// A name typed on the command line (`join --name`, `packet encode
    /// --name`): the same rules and the same sentences for both; exit 65.
    static func parseTyped(_ text: String) throws(UserError) -> (name: PersonName, warnings: [PersonNameWarning]) {
        do { return try parse(text) } catch { throw UserError(.data, error.description) }
    }
}
