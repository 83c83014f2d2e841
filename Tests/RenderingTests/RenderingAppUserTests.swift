import EstimatorKit
import Rendering
import Testing

/// App users as the table and `watch` show them (docs/PROTOCOL.md, Peers):
/// marked `(app)`, a cut name ending in `…`, never U+FFFD.
@Suite struct RenderingAppUserTests {
    private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

    /// A room that heard Alice and Alex (both `Al`), 전수열 (nothing left)
    /// and Zoë (`Zo` and half of `ë`) from four iPhones, and Bob's session.
    private func room() throws -> (Room, Timestamp) {
        var room = Room(open: true)
        var now = t0
        let heard: [([UInt8], String?)] = [
            (Array("010008Al".utf8), "4A:00:00:00:00:01"), (Array("010005Al".utf8), "5B:00:00:00:00:02"),
            (Array("0100FE".utf8) + [0xEC, 0xA0], "6C:00:00:00:00:03"), (Array("010003Zo".utf8) + [0xC3], "7D:00:00:00:00:04"),
            (Array("010002Bob".utf8), nil), (Array("010008Al".utf8), "4A:00:00:00:00:01"),
        ]
        for (bytes, address) in heard {
            now = now + .milliseconds(700)
            _ = room.hear(try Packet(decoding: bytes), rssi: -60, relayed: false,
                          from: address.map { Advertiser(address: $0, isDiscoverable: true) }, at: now)
        }
        return (room, now)
    }

    @Test func appUsersAreMarkedAndCutNamesEndInAnEllipsis() throws {
        let (room, now) = try room()
        let table = LiveTable(sections: [TableSection(room.view(of: .default, now: now), now: now)], adapter: "hci0")
        let lines = renderTable(table, size: TerminalSize(columns: 80, rows: 24))
        #expect(lines.count == 2 + 5 + 1)
        #expect(lines.filter { $0.hasPrefix(" Al (app) ") }.count == 2)
        #expect(lines.contains { $0.hasPrefix(" … (app) ") })
        #expect(lines.contains { $0.hasPrefix(" Zo… (app) ") })
        #expect(lines.contains { $0.hasPrefix(" Bob ") })
        #expect(!lines.joined().contains("\u{FFFD}"))
    }

    @Test func watchLinesSayAppAndCut() throws {
        var room = Room()
        let update = room.hear(try Packet(decoding: Array("0100FE".utf8) + [0xEC, 0xA0]), rssi: -60, relayed: false,
                               from: Advertiser(address: "4A:00:00:00:00:01", isDiscoverable: true), at: t0)
        let event = try #require(update.events.first)
        let change = WatchChange.peer(event, mark: .shown(.coffee), round: nil)
        #expect(WatchEventJSON.line(change).hasSuffix(#""name":"","card":"coffee","cardRaw":"FE","rssi":-60,"heard":"air","time":"2026-09-21T14:13:20.000Z","role":"voter","app":true,"cut":true,"story":null}"#))
        #expect(ChangeLine.line(change).hasSuffix(" channel 0 … (app) joined with ☕ (-60 dBm)"))
    }

    /// The footer names people, not bare names: an app user whose name
    /// has no whole character left is `… (app)`, waiting or explaining.
    @Test func theFooterNamesANamelessAppUserAsTheAppUserItIs() throws {
        var room = Room()
        let nameless = Advertiser(address: "6C:00:00:00:00:03", isDiscoverable: true)
        let hear = { (room: inout Room, bytes: [UInt8], from: Advertiser?, at: Timestamp) in
            _ = room.hear(try Packet(decoding: bytes), rssi: -60, relayed: false, from: from, at: at)
        }
        try hear(&room, Array("0100FC".utf8) + [0xEC, 0xA0], nameless, t0)
        try hear(&room, Array("0100FCBob".utf8), nil, t0)
        let waiting = TableSection(room.view(of: .default, now: t0), now: t0)
        #expect(StatsFooter.parts(waiting) == ["0 of 2 voted", "waiting for … (app) and Bob"])

        let later = t0 + ChannelRound.listening
        try hear(&room, Array("010008".utf8) + [0xEC, 0xA0], nameless, later)
        try hear(&room, Array("010003Bob".utf8), nil, later)
        try hear(&room, Array("010003Cy".utf8), nil, later)
        _ = room.tick(now: later)
        let revealed = TableSection(room.view(of: .default, now: later), now: later)
        #expect(revealed.isRevealed)
        #expect(StatsFooter.parts(revealed).contains("8: … (app) explains"), "\(StatsFooter.parts(revealed))")
    }

    /// The board (watch --board) names them as the table does: under its
    /// cards, in its chart and in its footer.
    @Test func theBoardNamesANamelessAppUserAsTheAppUserItIs() throws {
        var room = Room(open: true)
        _ = room.hear(try Packet(decoding: Array("010008".utf8) + [0xEC, 0xA0]), rssi: -60, relayed: false,
                      from: Advertiser(address: "6C:00:00:00:00:03", isDiscoverable: true), at: t0)
        _ = room.hear(try Packet(decoding: Array("0100FCBob".utf8)), rssi: -60, relayed: false, at: t0)
        let board = Board(channel: .default, tally: room.tally(of: .default, now: t0), adapter: "hci0")
        let text = BoardRenderer(color: false).lines(board, size: TerminalSize(columns: 80, rows: 24)).joined(separator: "\n")
        #expect(text.contains("… (app)"), "\(text)")
        #expect(text.contains("waiting for Bob"))
    }
}
