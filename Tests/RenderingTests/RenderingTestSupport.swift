import EstimatorKit
import Rendering
import Testing

extension TableRow {
    /// A row whose card shows as it is, or as not voted for waiting and none.
    init(name: String, card: Card, rssi: Int?, lastSeen: Duration, isMe: Bool = false, isStale: Bool = false) {
        self.init(name: name, mark: card.isVote ? .shown(card) : .waiting, rssi: rssi, lastSeen: lastSeen,
                  isMe: isMe, isStale: isStale)
    }
}

extension TableSection {
    /// A section of `rows` counted as a ballot would: revealed once every
    /// fresh row has voted and none is hidden.
    init(channel: Channel, round: RoundNumber? = nil, title: String? = nil, rows: [TableRow], unshown: Int = 0) {
        let entries = rows.map { row -> Tally.Entry in
            let card: Card
            switch row.mark {
            case .waiting: card = .waiting
            case .hidden: card = .five
            case .observing: card = .observing
            case let .shown(shown): card = shown
            }
            return Tally.Entry(name: row.name, card: card, isMe: row.isMe, isStale: row.isStale, mark: row.mark,
                               isNameCut: row.isNameCut, appUser: row.isApp ? 1 : nil)
        }
        let present = entries.filter { !$0.isStale && !$0.isObserver }
        let voted = present.filter { $0.mark != .waiting }
        let revealed = !present.isEmpty && voted.count == present.count && !present.contains { $0.mark == .hidden }
        let tally = Tally(entries: entries, voters: present.count, voted: voted.count,
                          waitingFor: present.filter { $0.mark == .waiting }.sorted { $0.name < $1.name }, isRevealed: revealed,
                          round: round, stats: Stats(votes: voted))
        self.init(channel: channel, title: title, rows: rows, tally: tally, unshown: unshown)
    }
}

/// An observer's room in channel 1 that heard `packets` at `start`, its round
/// revealed on demand once the room has been heard (`estimator reveal`);
/// returns the room and that moment.
func roomRevealedOnDemand(hearing packets: [String], at start: Timestamp) throws -> (room: Room, at: Timestamp) {
    var room = Room()
    room.enter(Room.Me(channel: Channel(rawValue: 1), name: "Me", card: .waiting, observing: true), now: start)
    for text in packets {
        _ = room.hear(try Packet(decoding: Array(text.utf8)), rssi: -60, relayed: false, at: start)
    }
    let later = start + ChannelRound.listening
    _ = room.tick(now: later)
    #expect(!room.tally(of: Channel(rawValue: 1), now: later).isRevealed, "someone has not voted")
    let revealedNow = room.revealNow(now: later)
    #expect(revealedNow)
    return (room, later)
}

/// The README's room: three have voted (cards shown, as with --open), Carol has not.
func designRoom(stale: Bool = false) -> LiveTable {
    LiveTable(
        sections: [
            TableSection(
                channel: Channel(rawValue: 1),
                rows: [
                    TableRow(name: "Carol", card: .none, rssi: -62, lastSeen: .milliseconds(200)),
                    TableRow(name: "Alice", card: .five, rssi: -56, lastSeen: .milliseconds(400)),
                    TableRow(name: "전수열", card: .eight, rssi: nil, lastSeen: .zero, isMe: true),
                    TableRow(name: "Bob", card: .coffee, rssi: -75, lastSeen: .milliseconds(1200), isStale: stale),
                ])
        ],
        adapter: "hci0")
}

/// The SGR sequences the renderer itself writes, and the cursor and erase
/// sequences the differ writes.
let ownSequences = ["\u{1B}[2m", "\u{1B}[1m", "\u{1B}[0m"]

/// `text` without the renderer's own SGR sequences.
func withoutOwnSequences(_ text: String) -> String {
    ownSequences.reduce(text) { $0.replacing($1, with: "") }
}

/// Whether a scalar is something a terminal acts on instead of printing,
/// or a bidi control that reorders what follows.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
        || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029
}

/// A small seeded generator (SplitMix64): random inputs, same every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One frame from a fresh renderer.
func renderTable(_ table: LiveTable, color: Bool = false, size: TerminalSize) -> [String] {
    var renderer = TableRenderer(color: color)
    return renderer.lines(table, size: size)
}
