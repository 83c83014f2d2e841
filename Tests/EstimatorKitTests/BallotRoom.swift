import EstimatorKit



/// Me (`Me`, channel 1) in a room of other sessions, heard by their local
/// names (docs/PROTOCOL.md, Ballot): what I put on the air and what my
/// table shows.
struct BallotRoom {
    static let channel = Channel(rawValue: 1)
    static let t0 = Timestamp(secondsSince1970: 1_790_000_000)

    var room = Room()
    var now = Self.t0 + ChannelRound.listening

    /// `seals`: my radio changes without going deaf, so my vote is sealed.
    init(observing: Bool = false, listeningSince start: Timestamp = Self.t0, seals: Bool = false) {
        room.seals = seals
        room.enter(Room.Me(channel: Self.channel, name: "Me", card: .waiting, observing: observing), now: start)
    }

    /// Hears one local name, over the air at `rssi` dBm (nil: the radio
    /// gives no strength) or through the relay; returns whether it
    /// revealed the round here.
    @discardableResult
    mutating func hear(_ localName: String, relayed: Bool = false, rssi: Int? = -50) -> Bool {
        now = now + .milliseconds(100)
        let packet = try! Packet(decoding: localName)
        return room.hear(packet, rssi: relayed ? nil : rssi, relayed: relayed, at: now).revealed.contains(Self.channel)
    }

    @discardableResult
    mutating func pick(_ card: Card) -> Bool { room.pick(card, now: now).revealed.contains(Self.channel) }

    /// What I send, as a local name.
    var sent: String {
        let (version, card) = room.advertised(now: now)!
        return Packet(version: version, channel: Self.channel, card: card, name: "Me").localName
    }

    var tally: Tally { room.tally(of: Self.channel, now: now) }

    var marks: [String: Tally.Mark] { Dictionary(uniqueKeysWithValues: tally.entries.map { ($0.name, $0.mark) }) }
}
