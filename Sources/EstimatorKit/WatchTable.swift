/// One channel's table as the room's rules decided it: the rows with their
/// marks, the round and its meeting, the reveal, the votes counted, and how
/// each person is heard. A session streams it to its `watch` clients, and a watch without
/// a session gets it from its own listening room; either way the watch
/// draws it and decides nothing.
///
/// The stats are not sent: they are the figures of the cards shown of the
/// people present (`Stats`, stale rows left out, as the tally counts
/// them), which the receiver adds up again from the rows and the deck.
public struct WatchTable: Equatable, Sendable {
    /// How one row's person is heard.
    public struct Signal: Equatable, Sendable {
        /// Signal strength in dBm, when the radio gives one.
        public var rssi: Int?
        /// How long ago the person was last heard when the table was made;
        /// zero for my own row.
        public var age: Duration
        public var heard: Hearing

        public init(rssi: Int?, age: Duration, heard: Hearing) {
            self.rssi = rssi
            self.age = age
            self.heard = heard
        }
    }

    public let channel: Channel
    /// The round's story, its timer's deadline and its agreed estimate, as
    /// the room's meeting says (`Room.View.meeting`).
    public let story: Story?
    public let deadline: Timestamp?
    public let agreed: Card?
    /// The votes as counted, rows in order.
    public let tally: Tally
    /// One per entry of `tally`; a watch moves one on between two tables
    /// (`WatchSighting`).
    public var signals: [Signal]
    /// Whether the room has revealed the round (`Ballot.isRevealed`), while
    /// the table may still wait for a card on its way (`Tally.isRevealed`):
    /// what rings the bell (`RevealBell`).
    public let isDecided: Bool
    /// The deck the figures round the mean to.
    public let deck: Deck
    /// Names heard in this channel but not stored (the channel's cap).
    public let unshown: Int
    /// People heard in this channel whom the signal floor keeps out of the
    /// room (`Room.View.outOfRoom`).
    public let outOfRoom: Int

    public init(channel: Channel, story: Story?, deadline: Timestamp?, agreed: Card?, tally: Tally, signals: [Signal],
                isDecided: Bool, deck: Deck, unshown: Int, outOfRoom: Int = 0) {
        self.channel = channel
        self.story = story
        self.deadline = deadline
        self.agreed = agreed
        self.tally = tally
        self.signals = signals
        self.isDecided = isDecided
        self.deck = deck
        self.unshown = unshown
        self.outOfRoom = outOfRoom
    }

    /// `view` at `now`, with `deck` for its figures; `decided`: whether the
    /// room has revealed its round.
    public init(_ view: Room.View, decided: Bool, deck: Deck, now: Timestamp) {
        let byID = Dictionary(view.peers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let signals = view.tally.entries.map { entry in
            let id = entry.id(in: view.channel)
            let peer = entry.isMe ? nil : byID[id]
            return Signal(rssi: peer?.rssi, age: peer.map { now - $0.lastHeard } ?? .zero,
                          heard: entry.isMe ? .air : view.hearing[id] ?? .air)
        }
        self.init(channel: view.channel, story: view.meeting.story, deadline: view.meeting.deadline,
                  agreed: view.meeting.agreed, tally: view.tally, signals: signals, isDecided: decided, deck: deck,
                  unshown: view.unshown, outOfRoom: view.outOfRoom)
    }

    /// The round's title: its story's (`Story.title`), when it has one.
    public var title: String? { story?.title }

    /// What is left of the round's timer at `now`, while its cards are hidden.
    public func remaining(now: Timestamp) -> Duration? {
        tally.isRevealed ? nil : deadline.map { $0 - now }
    }

    // MARK: The line

    var json: JSONValue {
        let rows: [JSONValue] = zip(tally.entries, signals).map { entry, signal in
            var members = [
                JSONMember("name", .string(entry.name)), JSONMember("mark", Self.mark(entry.mark)),
                JSONMember("rssi", signal.rssi.map(JSONValue.int) ?? .null),
                JSONMember("age", .int(Int(signal.age / .milliseconds(1)))),
            ]
            if signal.heard != .air { members.append(JSONMember("heard", .string(signal.heard.rawValue))) }
            if entry.isMe { members.append(JSONMember("me", true)) }
            if entry.isStale { members.append(JSONMember("stale", true)) }
            if entry.isNameCut { members.append(JSONMember("cut", true)) }
            if let appUser = entry.appUser { members.append(JSONMember("app", .int(appUser))) }
            return .object(members)
        }
        let waiting: [JSONValue] = tally.waitingFor.compactMap { person in
            tally.entries.firstIndex(of: person).map(JSONValue.int)
        }
        return .object([
            JSONMember("channel", .int(Int(channel.rawValue))),
            JSONMember("round", tally.round.map { .int(Int($0.value)) } ?? .null),
            JSONMember("story", story?.json ?? .null),
            JSONMember("deadline", deadline.map { .string(RFC3339.string($0)) } ?? .null),
            JSONMember("agreed", agreed.map { .string($0.hex) } ?? .null),
            JSONMember("revealed", .bool(tally.isRevealed)),
            JSONMember("decided", .bool(isDecided)),
            JSONMember("voters", .int(tally.voters)), JSONMember("voted", .int(tally.voted)),
            JSONMember("waiting", .array(waiting)),
            JSONMember("deck", .string(deck.description)),
            JSONMember("unshown", .int(unshown)),
            JSONMember("outside", .int(outOfRoom)),
            JSONMember("rows", .array(rows)),
        ])
    }

    init?(json: JSONValue) {
        guard let channel = json["channel"]?.integer.flatMap(UInt8.init(exactly:)),
              let round = json["round"], round == .null || round.integer.map({ (0...15).contains($0) }) == true,
              let story = json["story"], story == .null || Story(json: story) != nil,
              let deadline = json["deadline"], deadline == .null || deadline.string.flatMap(RFC3339.timestamp) != nil,
              let agreed = json["agreed"], agreed == .null || agreed.string.flatMap(UInt8.init(hex:)) != nil,
              let revealed = json["revealed"]?.bool, let decided = json["decided"]?.bool,
              let voters = json["voters"]?.integer, let voted = json["voted"]?.integer,
              case let .array(waiting) = json["waiting"], case let .array(rows) = json["rows"],
              let deck = json["deck"]?.string.flatMap({ try? Deck(parsing: $0) }),
              let unshown = json["unshown"]?.integer,
              let outside = json["outside"]?.integer, outside >= 0
        else { return nil }
        var entries: [Tally.Entry] = []
        var signals: [Signal] = []
        for row in rows {
            guard let name = row["name"]?.string, let mark = row["mark"].flatMap(Self.mark(_:)),
                  let rssi = row["rssi"], rssi == .null || rssi.integer != nil,
                  let age = row["age"]?.integer, age >= 0
            else { return nil }
            let heard = row["heard"].map { $0.string.flatMap(Hearing.init(rawValue:)) } ?? .air
            guard let heard else { return nil }
            let card: Card = switch mark {
            case .waiting: .waiting
            case .hidden: .sealed
            case .observing: .observing
            case let .shown(card): card
            }
            entries.append(Tally.Entry(name: name, card: card, isMe: row["me"] == true, isStale: row["stale"] == true,
                                       mark: mark, isNameCut: row["cut"] == true, appUser: row["app"]?.integer))
            signals.append(Signal(rssi: rssi.integer, age: .milliseconds(age), heard: heard))
        }
        var waitingFor: [Tally.Entry] = []
        for index in waiting {
            guard let index = index.integer, entries.indices.contains(index) else { return nil }
            waitingFor.append(entries[index])
        }
        let shown = entries.filter { entry in
            if case .shown = entry.mark { !entry.isStale } else { false }
        }
        let tally = Tally(entries: entries, voters: voters, voted: voted, waitingFor: waitingFor, isRevealed: revealed,
                          round: round.integer.map(RoundNumber.init(wrapping:)), stats: Stats(votes: shown, deck: deck))
        self.init(channel: Channel(rawValue: channel), story: Story(json: story),
                  deadline: deadline.string.flatMap(RFC3339.timestamp),
                  agreed: agreed.string.flatMap(UInt8.init(hex:)).map(Card.init(rawValue:)), tally: tally, signals: signals,
                  isDecided: decided, deck: deck, unshown: unshown, outOfRoom: outside)
    }

    private static func mark(_ mark: Tally.Mark) -> JSONValue {
        switch mark {
        case .waiting: "waiting"
        case .hidden: "hidden"
        case .observing: "observing"
        case let .shown(card): .string(card.hex)
        }
    }

    private static func mark(_ json: JSONValue) -> Tally.Mark? {
        switch json.string {
        case "waiting": .waiting
        case "hidden": .hidden
        case "observing": .observing
        case let text?: UInt8(hex: text).map { .shown(Card(rawValue: $0)) }
        case nil: nil
        }
    }
}
