import EstimatorKit

/// What `join` remembers for next time, in
/// `$XDG_CONFIG_HOME/estimator/config.json`:
/// `{"channel":1,"name":"전수열","adapter":"hci0","open":true,"deck":"fibonacci","quiet":true}`, and the relay
/// (`"relay"`, `"relayUser"`, `"relayPasswordFile"`, `"relayCA"`): never a password.
package struct Config: Equatable {
    var channel: Channel?
    var name: PersonName?
    package var adapter: String?
    /// Whether tables show cards at once (`--open`) rather than at the reveal.
    package var openCards: Bool?
    /// Whether `join` observes (`"role":"observer"`) or votes (`"voter"`).
    var observing: Bool?
    /// The cards `join` offers (`"deck":"fibonacci"`, `"deck":"1,2,4,8"`).
    package var deck: Deck?
    /// The relay `join` starts beside the session.
    package var relay: RelaySettings?
    /// No bell when the cards are revealed (`--quiet`), in `watch` and
    /// `join --foreground`.
    package var quiet: Bool?

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(channel: Channel? = nil, name: PersonName? = nil, adapter: String? = nil, openCards: Bool? = nil, observing: Bool? = nil, deck: Deck? = nil, relay: RelaySettings? = nil, quiet: Bool? = nil) {
        self.channel = channel
        self.name = name
        self.adapter = adapter
        self.openCards = openCards
        self.observing = observing
        self.deck = deck
        self.relay = relay
        self.quiet = quiet
    }

    /// The file for this user: `$XDG_CONFIG_HOME`, else `~/.config`.
    static var path: String {
        let configured = Environment.value("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        let base = configured ?? (Environment.value("HOME") ?? Account.current.home) + "/.config"
        return base + "/estimator/config.json"
    }

    /// Reads the file; a missing file is an empty config. A damaged one is
    /// an error (exit 65) rather than silently forgotten.
    package static func load(from path: String = Config.path) throws(UserError) -> Config {
        let damaged = UserError(.data, "\(path) is damaged; fix it or delete it and join again.")
        let bytes: [UInt8]
        do {
            guard let read = try WholeFile.read(path, limit: 65536) else { return Config() }
            bytes = read
        } catch {
            guard case let .failed(failure) = error else { throw damaged }
            throw UserError(.permission, "Cannot read \(path) (\(failure)); fix its permissions.")
        }
        guard let json = try? JSONValue.parse(bytes), case .object = json else { throw damaged }
        var config = Config()
        if let value = json["channel"], value != .null {
            guard let number = value.integer, let byte = UInt8(exactly: number) else { throw damaged }
            config.channel = Channel(rawValue: byte)
        }
        if let value = json["name"], value != .null {
            guard let text = value.string, let name = try? PersonName.parse(text).name else { throw damaged }
            config.name = name
        }
        if let value = json["adapter"], value != .null {
            guard let text = value.string, AdapterName.isValid(text) else { throw damaged }
            config.adapter = text
        }
        if let value = json["open"], value != .null {
            guard case let .bool(open) = value else { throw damaged }
            config.openCards = open
        }
        if let value = json["role"], value != .null {
            switch value {
            case .string("observer"): config.observing = true
            case .string("voter"): config.observing = false
            default: throw damaged
            }
        }
        if let value = json["deck"], value != .null {
            guard let text = value.string, let deck = try? Deck(parsing: text) else { throw damaged }
            config.deck = deck
        }
        if let value = json["quiet"], value != .null {
            guard case let .bool(quiet) = value else { throw damaged }
            config.quiet = quiet
        }
        if let value = json["relay"], value != .null {
            func text(_ key: String) throws(UserError) -> String? {
                guard let field = json[key], field != .null else { return nil }
                guard let string = field.string else { throw damaged }
                return string
            }
            guard let url = value.string,
                  let relay = try? RelaySettings(url: url, user: try text("relayUser"),
                                                 passwordFile: try text("relayPasswordFile"), caFile: try text("relayCA"))
            else { throw damaged }
            config.relay = relay
        }
        return config
    }

    /// Writes the file atomically (a temporary file renamed over it), so a
    /// crash never leaves half a config.
    package func save(to path: String = Config.path) throws(UserError) {
        var members: [JSONMember] = []
        if let channel { members.append(JSONMember("channel", .number(String(channel.rawValue)))) }
        if let name { members.append(JSONMember("name", .string(name.text))) }
        if let adapter { members.append(JSONMember("adapter", .string(adapter))) }
        if let openCards { members.append(JSONMember("open", .bool(openCards))) }
        if let observing { members.append(JSONMember("role", .string(observing ? "observer" : "voter"))) }
        if let deck { members.append(JSONMember("deck", .string(deck.description))) }
        if let quiet { members.append(JSONMember("quiet", .bool(quiet))) }
        if let relay {
            members.append(JSONMember("relay", .string(relay.url)))
            if let user = relay.user { members.append(JSONMember("relayUser", .string(user))) }
            if let file = relay.passwordFile { members.append(JSONMember("relayPasswordFile", .string(file))) }
            if let file = relay.caFile { members.append(JSONMember("relayCA", .string(file))) }
        }
        let text = JSONValue.object(members).text + "\n"
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try Directories.create(directory, mode: 0o700)
        do { try WholeFile.replace(path, with: Array(text.utf8)) } catch { throw Self.cannotWrite(path, error) }
    }

    private static func cannotWrite(_ path: String, _ error: SystemCallError) -> UserError {
        UserError(.permission, "Cannot write \(path) (\(error)); check its directory's permissions.")
    }
}
