import EstimatorKit
import Testing

/// A channel's table as a session streams it to a watch: what the watch
/// reads back is the table the room decided, figures included.
@Suite struct WatchTableTests {
    private let start = Timestamp(secondsSince1970: 1_700_000_000)
    private let channel = Channel(rawValue: 1)

    private func hear(_ room: inout Room, _ localName: String, rssi: Int? = -50, relayed: Bool = false, at time: Timestamp) {
        _ = room.hear(try! Packet(decoding: Array(localName.utf8)), rssi: rssi, relayed: relayed, at: time)
    }

    private func roundTrip(_ table: WatchTable) throws -> WatchTable? {
        let line = try ControlWatchLine(parsing: Array(ControlWatchLine.table(table).serialized.utf8))
        if case let .table(read) = line { return read }
        return nil
    }

    @Test func aRevealedTableReadsBackWithTheFiguresOfThePeoplePresent() throws {
        var room = Room(staleAfter: .seconds(6))
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting, deck: .fibonacci), now: start)
        hear(&room, "210105Alice", at: start)
        hear(&room, "2101FCBob", at: start)
        hear(&room, "210103Carol", at: start + .seconds(2))
        hear(&room, "210105al\u{1B}", rssi: nil, relayed: true, at: start + .seconds(2))
        _ = room.pick(.eight, now: start + .seconds(2))
        // Alice and Bob are stale: everyone present voted.
        let now = start + .milliseconds(7250)
        #expect(room.tick(now: now).revealed == [channel])
        let table = WatchTable(room.view(of: channel, now: now), decided: true, deck: .fibonacci, now: now)
        #expect(table.tally.isRevealed && table.tally.entries.contains { $0.isStale && $0.mark == .shown(.five) },
                "Alice's card shows, though she is stale")
        #expect(table.tally.stats.votes == 3, "Me, Carol and al, not Alice")
        #expect(try roundTrip(table) == table)
    }

    @Test func theCountOutOfTheRoomTravelsWithTheTable() throws {
        var room = Room(staleAfter: .seconds(6), range: .room)
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting), now: start)
        hear(&room, "2101FCNed", rssi: -99, at: start)
        hear(&room, "2101FCOda", rssi: -99, at: start)
        let table = WatchTable(room.view(of: channel, now: start), decided: false, deck: .app, now: start)
        #expect(table.outOfRoom == 2 && table.tally.entries.map(\.name) == ["Me"])
        #expect(try roundTrip(table)?.outOfRoom == 2)
        #expect(ControlWatchLine.table(table).serialized.contains(#""outside":2"#))
    }

    @Test func aHiddenVoteReadsBackHiddenWithoutItsCard() throws {
        var room = Room(staleAfter: .seconds(6))
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting), now: start)
        hear(&room, "210105Alice", at: start)
        let table = WatchTable(room.view(of: channel, now: start), decided: false, deck: .app, now: start)
        let line = ControlWatchLine.table(table).serialized
        #expect(line.contains(#"{"name":"Alice","mark":"hidden","rssi":-50,"age":0}"#), "\(line)")
        #expect(!line.contains(#""05""#), "the hidden card is not sent")
        #expect(try roundTrip(table)?.tally.entries.map(\.mark) == [.waiting, .hidden])
    }

    @Test func theMeetingAndTheDeckReadBack() throws {
        var room = Room(staleAfter: .seconds(6))
        let deck = try Deck(parsing: "1,2,4,8")
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting, deck: deck), now: start)
        let base = WatchTable(room.view(of: channel, now: start), decided: false, deck: deck, now: start)
        let deadline = Timestamp(secondsSince1970: 1_700_000_120, nanoseconds: 250_000_000)
        let meetings: [(Story?, Timestamp?, Card?)] = [
            (Story(key: "ABC-1", summary: "Login"), deadline, .half), (Story(key: nil, summary: "\"Login\""), nil, Card.sizes[5]),
            (nil, deadline, .eight), (nil, nil, nil),
        ]
        for (story, timer, agreed) in meetings {
            let table = WatchTable(channel: channel, story: story, deadline: timer, agreed: agreed, tally: base.tally,
                                   signals: base.signals, isDecided: false, deck: deck, unshown: 0)
            #expect(try roundTrip(table) == table)
        }
        let told = WatchTable(channel: channel, story: Story(key: "ABC-1", summary: "Login"), deadline: deadline, agreed: .half,
                              tally: base.tally, signals: base.signals, isDecided: false, deck: deck, unshown: 0)
        #expect(ControlWatchLine.table(told).serialized.contains(
            #""story":{"key":"ABC-1","summary":"Login"},"deadline":"2023-11-14T22:15:20.250Z","agreed":"7F","#))
        #expect(ControlWatchLine.table(base).serialized.contains(#""story":null,"deadline":null,"agreed":null,"#))
    }
}
