/// The session's answer to one request: a JSON line such as
/// `{"exit":0,"message":"picked 8"}`.
public struct ControlReply: Equatable, Sendable {
    /// The sysexits code the client should exit with (0 for success).
    public var exitCode: Int32
    /// One sentence for a person.
    public var message: String
    /// Present in the answer to `status`.
    public var status: ControlStatus?

    public init(exitCode: Int32, message: String, status: ControlStatus? = nil) {
        self.exitCode = exitCode
        self.message = message
        self.status = status
    }

    public var serialized: String {
        var members: [JSONMember] = [
            JSONMember("exit", .number(String(exitCode))), JSONMember("message", .string(message)),
        ]
        if let status { members.append(JSONMember("status", status.json)) }
        return JSONValue.object(members).text
    }

    public init(parsing line: some Collection<UInt8>) throws(ControlReplyError) {
        guard let json = try? JSONValue.parse(line),
              let code = json["exit"]?.integer, let exit = Int32(exactly: code),
              let message = json["message"]?.string
        else { throw ControlReplyError() }
        self.init(exitCode: exit, message: message)
        if let field = json["status"] {
            guard let status = ControlStatus(json: field) else { throw ControlReplyError() }
            self.status = status
        }
    }
}

/// What a session reports about itself.
public struct ControlStatus: Equatable, Sendable {
    public var pid: Int32
    public var adapter: String
    public var channel: UInt8
    public var name: String
    public var card: Card
    /// People heard in my channel right now.
    public var peers: Int
    /// The radio's state in words (`"advertising and scanning"`, `"bluetoothd is not running"`).
    public var radio: String
    /// The round, or `nil` when the room has none.
    public var round: RoundNumber?
    /// The round's story's title (`Story.title`), as the room's meeting says.
    public var title: String?
    /// Someone else in the channel has my name (one of us is hidden).
    public var nameTaken: Bool
    /// The relay's URL and its connection to the broker in words, when the
    /// session has a relay.
    public var relay: String?
    /// Present without a vote (`join --observer`).
    public var observing: Bool
    /// Whether the round's cards are revealed.
    public var revealed: Bool
    /// The cards I may pick (`join --deck`).
    public var deck: Deck
    /// Since when the relay has been down; nil while it is connected, and
    /// without a relay.
    public var relayDownSince: Timestamp?
    /// Until when the room the session found is being set up (`03` on the
    /// air: others who join without a channel land in it); nil otherwise.
    public var settingUpUntil: Timestamp?
    /// How far the room reaches (`join --range`).
    public var range: SignalRange
    /// The session is leaving: it broadcasts its leave and ends.
    public var leaving: Bool
    /// Since when a change of the history is not saved (the first one the
    /// session holds unsaved); nil while everything is saved.
    public var unsavedSince: Timestamp?
    /// Why the history is not saved, in one sentence with its fix.
    public var unsavedReason: String?

    public init(pid: Int32, adapter: String, channel: UInt8, name: String, card: Card, peers: Int, radio: String,
                round: RoundNumber? = nil, title: String? = nil, nameTaken: Bool = false, relay: String? = nil,
                observing: Bool = false, revealed: Bool = false, deck: Deck = .app, relayDownSince: Timestamp? = nil,
                settingUpUntil: Timestamp? = nil, range: SignalRange = .room, leaving: Bool = false,
                unsavedSince: Timestamp? = nil, unsavedReason: String? = nil) {
        self.leaving = leaving
        self.unsavedSince = unsavedSince
        self.unsavedReason = unsavedReason
        self.relayDownSince = relayDownSince
        self.settingUpUntil = settingUpUntil
        self.range = range
        self.observing = observing
        self.revealed = revealed
        self.deck = deck
        self.pid = pid
        self.adapter = adapter
        self.channel = channel
        self.name = name
        self.card = card
        self.peers = peers
        self.radio = radio
        self.round = round
        self.title = title
        self.nameTaken = nameTaken
        self.relay = relay
    }

    var json: JSONValue {
        .object([
            JSONMember("pid", .number(String(pid))), JSONMember("adapter", .string(adapter)),
            JSONMember("channel", .number(String(channel))), JSONMember("name", .string(name)),
            JSONMember("cardRaw", .string(card.hex)), JSONMember("peers", .number(String(peers))), JSONMember("radio", .string(radio)),
            JSONMember("round", round.map { .number(String($0.value)) } ?? .null),
            JSONMember("title", title.map(JSONValue.string) ?? .null),
            JSONMember("nameTaken", .bool(nameTaken)),
            JSONMember("relay", relay.map(JSONValue.string) ?? .null),
            JSONMember("relayDownSince", relayDownSince.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("role", .string(observing ? "observer" : "voter")),
            JSONMember("revealed", .bool(revealed)),
            JSONMember("deck", .string(deck.description)),
            JSONMember("settingUpUntil", settingUpUntil.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("range", .string(range.rawValue)),
            JSONMember("leaving", .bool(leaving)),
            JSONMember("unsavedSince", unsavedSince.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("unsaved", unsavedReason.map(JSONValue.string) ?? .null),
        ])
    }

    init?(json: JSONValue) {
        guard let pid = json["pid"]?.integer.flatMap(Int32.init(exactly:)),
              let adapter = json["adapter"]?.string,
              let channel = json["channel"]?.integer.flatMap(UInt8.init(exactly:)),
              let name = json["name"]?.string,
              let card = json["cardRaw"]?.string.flatMap(UInt8.init(hex:)),
              let peers = json["peers"]?.integer,
              let radio = json["radio"]?.string
        else { return nil }
        let round = json["round"]?.integer.flatMap { (0...15).contains($0) ? RoundNumber(wrapping: $0) : nil }
        self.init(pid: pid, adapter: adapter, channel: channel, name: name,
                  card: Card(rawValue: card), peers: peers, radio: radio, round: round, title: json["title"]?.string,
                  nameTaken: json["nameTaken"] == .bool(true), relay: json["relay"]?.string,
                  observing: json["role"] == .string("observer"), revealed: json["revealed"] == .bool(true),
                  deck: json["deck"]?.string.flatMap { try? Deck(parsing: $0) } ?? .app,
                  relayDownSince: json["relayDownSince"]?.string.flatMap(RFC3339.timestamp),
                  settingUpUntil: json["settingUpUntil"]?.string.flatMap(RFC3339.timestamp),
                  range: json["range"]?.string.flatMap(SignalRange.init(rawValue:)) ?? .room,
                  leaving: json["leaving"] == .bool(true),
                  unsavedSince: json["unsavedSince"]?.string.flatMap(RFC3339.timestamp), unsavedReason: json["unsaved"]?.string)
    }
}

/// The session's line is not a reply; the session and client disagree on the protocol.
public struct ControlReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public init() {}
    public var description: String { "The session sent an answer this estimator does not understand." }
}

extension UInt8 {
    /// Two hex digits, either case.
    init?(hex: String) {
        guard hex.utf8.count == 2, hex.utf8.allSatisfy({ UInt8(ascii: "0")...UInt8(ascii: "9") ~= $0 || UInt8(ascii: "a")...UInt8(ascii: "f") ~= $0 | 0x20 }),
              let value = UInt8(hex, radix: 16) else { return nil }
        self = value
    }
}
