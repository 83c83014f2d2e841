/// One request to a running session, sent over its control socket as a
/// single JSON line, for example `{"request":"pick","card":"8"}`.
public enum ControlRequest: Equatable, Sendable {
    /// Set my card.
    case pick(Card)
    /// Switch channel, name, role (`observing`), deck and/or range (how
    /// far the room reaches, `SignalRange`); `nil` keeps the current one.
    case join(channel: UInt8?, name: String?, observing: Bool? = nil, deck: Deck? = nil, range: SignalRange? = nil)
    /// Start the next round, with an optional title (a story key or words;
    /// without one, the session takes the backlog's next story, if one is
    /// loaded) and an optional timer that reveals it when it runs out
    /// (`{"request":"round","title":"ABC-1","timer":120}`, in seconds).
    case round(title: String?, timer: Countdown? = nil)
    /// Reveal the current round's cards for the whole room, voted or not:
    /// now, or when `after` has run out (`{"request":"reveal","in":120}`).
    case reveal(after: Countdown? = nil)
    /// Record the estimate the team agreed on for the revealed round: the
    /// card, or the consensus without one.
    case settle(Card?)
    /// Broadcast card none briefly, then end the session.
    case leave
    /// Report what the session is doing.
    case status
    /// Keep the connection open and stream the room as the session decided
    /// it.
    case watch
    /// `{"request":"watch","cards":"open"}`: as `watch`, with every card
    /// known shown as soon as it is picked (`watch --open`), whether or not
    /// the session shows them so.
    case watchOpen
    /// The relay's stream, `{"request":"watch","heard":"air"}`: as `watch`,
    /// but of the receptions only those heard over the air (which the
    /// relay forwards), so packets the relay itself brought from the broker
    /// never wake the session on their way back.
    case watchAir
    /// A payload the relay heard from the broker (`RelayPayload`: a local
    /// name, and its sender's meeting when one came): taken like a
    /// reception from the air (the same decoder, sanitiser and peer cap).
    /// Not answered.
    case relayed(payload: [UInt8])
    /// The relay's connection to the broker changed: in words, and whether
    /// it is connected (`{"request":"relay","state":"…","connected":true}`).
    /// Not answered.
    case relay(state: String, connected: Bool)

    /// Longest payload a `relayed` request carries: a local name and a
    /// whole meeting (`RelayPayload.maximumLength`).
    public static let maximumRelayedLength = RelayPayload.maximumLength

    /// Whether the session answers this request: the relay's own requests
    /// stream in beside its watch and are not answered.
    public var isAnswered: Bool {
        switch self {
        case .relayed, .relay: false
        default: true
        }
    }

    /// Longest request line accepted, newline excluded.
    public static let maximumLength = 4096

    /// Parses one request line (without its newline).
    public init(parsing line: some Collection<UInt8>) throws(ControlRequestError) {
        guard line.count <= Self.maximumLength else { throw .tooLong(line.count) }
        let json: JSONValue
        do { json = try JSONValue.parse(line) } catch { throw .malformed(error) }
        guard case let .object(members) = json else { throw .notAnObject }
        guard let kind = json["request"] else { throw .missingField("request") }
        guard let name = kind.string else { throw .wrongType(field: "request", expected: "a string") }

        let allowed: Set<String>
        switch name {
        case "pick":
            allowed = ["request", "card"]
            guard let field = json["card"] else { throw .missingField("card") }
            guard let text = field.string else { throw .wrongType(field: "card", expected: "a string") }
            do { self = .pick(try Card(parsing: text)) } catch { throw .invalidCard(error) }
        case "join":
            allowed = ["request", "channel", "name", "role", "deck", "range"]
            var channel: UInt8?
            if let field = json["channel"], field != .null {
                guard let number = field.integer, let byte = UInt8(exactly: number) else {
                    throw .wrongType(field: "channel", expected: "an integer from 0 to 255")
                }
                channel = byte
            }
            var person: String?
            if let field = json["name"], field != .null {
                guard let text = field.string else { throw .wrongType(field: "name", expected: "a string") }
                person = text
            }
            var observing: Bool?
            switch json["role"] {
            case nil, .null?: break
            case .string("observer")?: observing = true
            case .string("voter")?: observing = false
            default: throw .wrongType(field: "role", expected: "\"observer\" or \"voter\"")
            }
            var deck: Deck?
            if let field = json["deck"], field != .null {
                guard let text = field.string else { throw .wrongType(field: "deck", expected: "a string") }
                do { deck = try Deck(parsing: text) } catch { throw .invalidDeck(error) }
            }
            var range: SignalRange?
            if let field = json["range"], field != .null {
                guard let found = field.string.flatMap(SignalRange.init(rawValue:)) else {
                    throw .wrongType(field: "range", expected: "\"near\", \"room\" or \"hall\"")
                }
                range = found
            }
            self = .join(channel: channel, name: person, observing: observing, deck: deck, range: range)
        case "round":
            allowed = ["request", "title", "timer"]
            var title: String?
            if let field = json["title"], field != .null {
                guard let text = field.string else { throw .wrongType(field: "title", expected: "a string") }
                title = text
            }
            self = .round(title: title, timer: try Self.countdown(json, "timer"))
        case "settle":
            allowed = ["request", "card"]
            var card: Card?
            if let field = json["card"], field != .null {
                guard let text = field.string else { throw .wrongType(field: "card", expected: "a string") }
                do { card = try Card(parsing: text) } catch { throw .invalidCard(error) }
            }
            self = .settle(card)
        case "relayed":
            allowed = ["request", "payload"]
            guard let field = json["payload"] else { throw .missingField("payload") }
            guard let text = field.string, let bytes = Hex.bytes(text), bytes.count <= Self.maximumRelayedLength else {
                throw .wrongType(field: "payload", expected: "hex digits of at most \(Self.maximumRelayedLength) bytes")
            }
            self = .relayed(payload: bytes)
        case "relay":
            allowed = ["request", "state", "connected"]
            guard let field = json["state"] else { throw .missingField("state") }
            guard let text = field.string, text.utf8.count <= 200 else {
                throw .wrongType(field: "state", expected: "a string of at most 200 bytes")
            }
            guard let connected = json["connected"] else { throw .missingField("connected") }
            guard case let .bool(isConnected) = connected else { throw .wrongType(field: "connected", expected: "true or false") }
            self = .relay(state: text, connected: isConnected)
        case "reveal": allowed = ["request", "in"]; self = .reveal(after: try Self.countdown(json, "in"))
        case "leave": allowed = ["request"]; self = .leave
        case "status": allowed = ["request"]; self = .status
        case "watch":
            allowed = ["request", "heard", "cards"]
            switch (json["heard"], json["cards"]) {
            case (nil, nil): self = .watch
            case (.string("air"), nil): self = .watchAir
            case (nil, .string("open")): self = .watchOpen
            case (nil, _): throw .wrongType(field: "cards", expected: "\"open\"")
            default: throw .wrongType(field: "heard", expected: "\"air\"")
            }
        default: throw .unknownRequest(name)
        }
        if let extra = members.first(where: { !allowed.contains($0.key) }) { throw .unknownField(extra.key) }
    }

    /// A timer's length in whole seconds, or nil when the field is absent.
    private static func countdown(_ json: JSONValue, _ field: String) throws(ControlRequestError) -> Countdown? {
        guard let value = json[field], value != .null else { return nil }
        guard let countdown = value.integer.flatMap(Countdown.init(seconds:)) else {
            throw .wrongType(field: field, expected: "whole seconds from 1 to \(Countdown.longest)")
        }
        return countdown
    }

    /// The request as one JSON line, newline excluded.
    public var serialized: String {
        let json: JSONValue
        switch self {
        case let .pick(card):
            // The deck's name ("8", "coffee"); every card the parser yields has one.
            json = .object([JSONMember("request", .string("pick")), JSONMember("card", .string(card.name ?? card.hex))])
        case let .join(channel, name, observing, deck, range):
            var members: [JSONMember] = [JSONMember("request", .string("join"))]
            if let channel { members.append(JSONMember("channel", .number(String(channel)))) }
            if let name { members.append(JSONMember("name", .string(name))) }
            if let observing { members.append(JSONMember("role", .string(observing ? "observer" : "voter"))) }
            if let deck { members.append(JSONMember("deck", .string(deck.description))) }
            if let range { members.append(JSONMember("range", .string(range.rawValue))) }
            json = .object(members)
        case let .round(title, timer):
            var members: [JSONMember] = [JSONMember("request", .string("round"))]
            if let title { members.append(JSONMember("title", .string(title))) }
            if let timer { members.append(JSONMember("timer", .int(timer.seconds))) }
            json = .object(members)
        case let .reveal(after):
            var members: [JSONMember] = [JSONMember("request", .string("reveal"))]
            if let after { members.append(JSONMember("in", .int(after.seconds))) }
            json = .object(members)
        case let .settle(card):
            var members: [JSONMember] = [JSONMember("request", .string("settle"))]
            if let card { members.append(JSONMember("card", .string(card.name ?? card.hex))) }
            json = .object(members)
        case .leave: json = .object([JSONMember("request", .string("leave"))])
        case .status: json = .object([JSONMember("request", .string("status"))])
        case .watch: json = .object([JSONMember("request", .string("watch"))])
        case .watchAir: json = .object([JSONMember("request", .string("watch")), JSONMember("heard", .string("air"))])
        case .watchOpen: json = .object([JSONMember("request", .string("watch")), JSONMember("cards", .string("open"))])
        case let .relayed(payload):
            json = .object([JSONMember("request", .string("relayed")), JSONMember("payload", .string(Hex.text(payload)))])
        case let .relay(state, connected):
            json = .object([JSONMember("request", .string("relay")), JSONMember("state", .string(state)),
                            JSONMember("connected", .bool(connected))])
        }
        return json.text
    }
}

/// Why a control line is not a request; the session replies with this
/// sentence and carries on.
public enum ControlRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLong(Int)
    case malformed(JSONParseError)
    case notAnObject
    case missingField(String)
    case wrongType(field: String, expected: String)
    case unknownRequest(String)
    case unknownField(String)
    case invalidCard(CardParseError)
    case invalidDeck(DeckParseError)

    public var description: String {
        switch self {
        case let .tooLong(count):
            "The request is \(count) bytes long; requests are at most \(ControlRequest.maximumLength) bytes."
        case let .malformed(error): "The request is not valid JSON (\(error))."
        case .notAnObject: "The request is not a JSON object."
        case let .missingField(field): "The request has no \"\(field)\" field."
        case let .wrongType(field, expected): "The \"\(field)\" field must be \(expected)."
        case let .unknownRequest(name):
            "\(Self.quoted(name)) is not a request; requests are pick, join, round, reveal, settle, leave, status, watch, relayed and relay."
        case let .unknownField(field): "The request has an unknown field \(Self.quoted(field))."
        case let .invalidCard(error):
            "\(Self.quoted(error.input)) is not a card; a card is \(Card.typedForms)."
        case let .invalidDeck(error):
            "\(Self.quoted(error.input)) is not a deck; \(DeckParseError.forms)."
        }
    }

    /// Echoes untrusted text safely: JSON-quoted, cut short.
    private static func quoted(_ text: String) -> String {
        let short = text.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(40))) + "…" : text
        return JSONValue.string(short).text
    }
}
