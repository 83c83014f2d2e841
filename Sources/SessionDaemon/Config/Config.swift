import EstimatorKit
import Glibc

/// What `join` remembers for next time, in
/// `$XDG_CONFIG_HOME/estimator/config.json`:
/// `{"channel":1,"name":"전수열","adapter":"hci0","open":true,"deck":"fibonacci","quiet":true,"range":"hall"}`, and the relay
/// (`"relay"`, `"relayUser"`, `"relayPasswordFile"`, `"relayCA"`): never a password.
package struct Config: Equatable {
    package var channel: Channel?
    package var name: PersonName?
    package var adapter: String?
    /// Whether tables show cards at once (`--open`) rather than at the reveal.
    package var openCards: Bool?
    /// Whether `join` observes (`"role":"observer"`) or votes (`"voter"`).
    package var observing: Bool?
    /// The cards `join` offers (`"deck":"fibonacci"`, `"deck":"1,2,4,8"`).
    package var deck: Deck?
    /// The relay `join` starts beside the session.
    package var relay: RelaySettings?
    /// No bell when the cards are revealed (`--quiet`), in `watch` and
    /// `join --foreground`.
    package var quiet: Bool?
    /// How far the room reaches (`--range`), in `join` and a `watch`
    /// without a session.
    package var range: SignalRange?

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(channel: Channel? = nil, name: PersonName? = nil, adapter: String? = nil, openCards: Bool? = nil, observing: Bool? = nil, deck: Deck? = nil, relay: RelaySettings? = nil, quiet: Bool? = nil, range: SignalRange? = nil) {
        self.channel = channel
        self.name = name
        self.adapter = adapter
        self.openCards = openCards
        self.observing = observing
        self.deck = deck
        self.relay = relay
        self.quiet = quiet
        self.range = range
    }

    /// The file for this user: `$XDG_CONFIG_HOME`, else `~/.config`.
    package static var path: String {
        let configured = Environment.value("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        let base = configured ?? (Environment.value("HOME") ?? Account.current.home) + "/.config"
        return base + "/estimator/config.json"
    }

    /// Reads the file; a missing file is an empty config. A damaged one is
    /// an error (exit 65) that names the field and what it must be, rather
    /// than silently forgotten.
    package static func load(from path: String = Config.path) throws(UserError) -> Config {
        guard let members = try members(at: path) else { return Config() }
        let json = JSONValue.object(members)
        func field(_ setting: ConfigSetting) -> JSONValue? {
            guard let value = json[setting.rawValue], value != .null else { return nil }
            return value
        }
        func wrong(_ setting: ConfigSetting) -> UserError {
            UserError(.data, "In \(path), \(setting.rawValue) must be \(setting.form); edit it or run `estimator config --reset \(setting.rawValue)`.")
        }
        var config = Config()
        if let value = field(.channel) {
            guard let number = value.integer, let byte = UInt8(exactly: number) else { throw wrong(.channel) }
            config.channel = Channel(rawValue: byte)
        }
        if let value = field(.name) {
            guard let text = value.string, let name = try? PersonName.parse(text).name else { throw wrong(.name) }
            config.name = name
        }
        if let value = field(.adapter) {
            guard let text = value.string, AdapterName.isValid(text) else { throw wrong(.adapter) }
            config.adapter = text
        }
        if let value = field(.open) {
            guard case let .bool(open) = value else { throw wrong(.open) }
            config.openCards = open
        }
        if let value = field(.role) {
            switch value {
            case .string("observer"): config.observing = true
            case .string("voter"): config.observing = false
            default: throw wrong(.role)
            }
        }
        if let value = field(.deck) {
            guard let text = value.string, let deck = try? Deck(parsing: text) else { throw wrong(.deck) }
            config.deck = deck
        }
        if let value = field(.quiet) {
            guard case let .bool(quiet) = value else { throw wrong(.quiet) }
            config.quiet = quiet
        }
        if let value = field(.range) {
            guard let range = value.string.flatMap(SignalRange.init(rawValue:)) else { throw wrong(.range) }
            config.range = range
        }
        if let value = field(.relay) {
            guard let url = value.string, (try? RelaySettings(url: url, user: nil, passwordFile: nil, caFile: nil)) != nil
            else { throw wrong(.relay) }
            var texts: [ConfigSetting: String] = [:]
            for setting in [ConfigSetting.relayUser, .relayPasswordFile, .relayCA] {
                guard let value = field(setting) else { continue }
                guard let text = value.string,
                      (try? RelaySettings(url: url, user: setting == .relayUser ? text : nil,
                                          passwordFile: setting == .relayPasswordFile ? text : nil,
                                          caFile: setting == .relayCA ? text : nil)) != nil
                else { throw wrong(setting) }
                texts[setting] = text
            }
            config.relay = try? RelaySettings(url: url, user: texts[.relayUser], passwordFile: texts[.relayPasswordFile],
                                              caFile: texts[.relayCA])
        }
        return config
    }

    /// The file's members; nil when there is no file. A file that is not a
    /// JSON object is refused whole (exit 65), with the way back, and one
    /// that is no regular file (a FIFO, a directory) too (exit 66).
    static func members(at path: String) throws(UserError) -> [JSONMember]? {
        let bytes: [UInt8]
        do {
            guard let read = try WholeFile.read(path, limit: 65536) else { return nil }
            bytes = read
        } catch {
            switch error {
            case let .failed(failure): throw UserError(.permission, "Cannot read \(path) (\(failure)); fix its permissions.")
            case .tooLarge: throw notJSON(path)
            case let .notRegular(kind):
                throw WholeFile.notRegular(path, is: kind, fix: "remove it, or set XDG_CONFIG_HOME to another directory")
            }
        }
        guard let json = try? JSONValue.parse(bytes), case let .object(members) = json else { throw notJSON(path) }
        return members
    }

    private static func notJSON(_ path: String) -> UserError {
        UserError(.data, "\(path) is not a JSON object of settings; edit it, or run `estimator config --reset all` to forget every setting.")
    }

    /// Forgets `setting` (the relay with its user and files), or every
    /// setting when nil (the file goes). Returns whether it was remembered.
    /// One setting is taken out of the file's JSON as it is, so a damaged
    /// value can be forgotten too.
    package static func reset(_ setting: ConfigSetting?, at path: String = Config.path) throws(UserError) -> Bool {
        guard let setting else {
            if unlink(path) == 0 { return true }
            guard errno == ENOENT else { throw cannotWrite(path, SystemCallError("unlink")) }
            return false
        }
        guard let members = try members(at: path) else { return false }
        let forgotten = setting == .relay ? [ConfigSetting.relay, .relayUser, .relayPasswordFile, .relayCA].map(\.rawValue) : [setting.rawValue]
        let kept = members.filter { !forgotten.contains($0.key) }
        guard kept.count != members.count else { return false }
        let text = JSONValue.object(kept).text + "\n"
        do { try WholeFile.replace(path, with: Array(text.utf8)) } catch { throw cannotWrite(path, error) }
        return true
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
        if let range { members.append(JSONMember("range", .string(range.rawValue))) }
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
