import EstimatorKit
import Rendering
import Testing

@Suite struct RenderingTableTests {
    let wide = TerminalSize(columns: 80, rows: 24)

    @Test func theDesignsRoomLaysOutAsInTheMockUp() {
        let lines = renderTable(designRoom(), color: false, size: wide)
        #expect(lines == [
            " channel 1 · 4 people · 3 voted                                            hci0",
            " NAME          CARD  SIGNAL  SEEN",
            " 전수열 (you)  8             now ",
            " Alice         5     ━━━╸    0.4s",
            " Bob           ☕    ━━      1.2s",
            " Carol         ·     ━━━     0.2s",
            " 3 of 4 voted · waiting for Carol",
        ])
    }

    @Test func aRoundHidesVotesThenRevealsThemWithTheFigures() {
        let rows = [
            TableRow(name: "You", mark: .hidden, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Alice", mark: .hidden, rssi: -56, lastSeen: .milliseconds(400)),
            TableRow(name: "Bob", mark: .waiting, rssi: -75, lastSeen: .milliseconds(1200)),
        ]
        let hidden = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 3),
                                                       title: "ABC-1", rows: rows)], adapter: "hci0", isObserving: false)
        #expect(renderTable(hidden, size: wide) == [
            " channel 1 · round 3 · ABC-1 · 3 people · 2 voted                          hci0",
            " NAME       CARD  SIGNAL  SEEN",
            " You (you)  ✓             now ",
            " Alice      ✓     ━━━╸    0.4s",
            " Bob        ·     ━━      1.2s",
            " 2 of 3 voted · waiting for Bob",
        ])
        let shown = rows.enumerated().map { i, row in
            var row = row
            row.mark = .shown([Card.five, .eight, .three][i])
            return row
        }
        let revealed = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: shown)],
                                 adapter: "hci0", isObserving: true)
        let lines = renderTable(revealed, size: wide)
        #expect(lines.first?.hasSuffix("observing · hci0") == true)
        #expect(lines.last == " median 5 · mean 5.33 ≈ 5 · 8: Alice explains · 3: Bob explains")
    }

    /// A round revealed on demand (`estimator reveal`): whoever had not
    /// voted shows `·`, the footer names them, and the figures count the
    /// votes alone.
    @Test func aRevealOnDemandShowsWhoDidNotVoteAndCountsOnlyTheVotes() throws {
        let one = Channel(rawValue: 1)
        let (room, later) = try roomRevealedOnDemand(hearing: ["230105Alice", "230108Bob", "2301FCCy"],
                                                      at: Timestamp(secondsSince1970: 1_790_000_000))
        let section = TableSection(room.view(of: one, now: later), now: later)
        #expect(section.isRevealed)
        #expect(section.rows.map(\.mark) == [.observing, .shown(.five), .shown(.eight), .waiting])
        #expect(section.stats.votes == 2)
        #expect(StatsFooter.parts(section).last == "revealed without Cy", "\(StatsFooter.parts(section))")
        #expect(renderTable(LiveTable(sections: [section], adapter: "hci0"), size: wide).suffix(3) == [
            " Cy        ·     ━━━     4.0s",
            " median 6.5 · mean 6.5 ≈ 8 · 8: Bob explains · 5: Alice explains",
            " revealed without Cy",
        ])
    }

    @Test func theFooterSaysTheAgreedEstimateUnlessTheConsensusSaysIt() {
        func footer(_ cards: [Card], agreed: Card?) -> String? {
            let rows = cards.enumerated().map { TableRow(name: "P\($0.offset)", mark: .shown($0.element), rssi: -50, lastSeen: .zero) }
            var section = TableSection(channel: Channel(rawValue: 1), rows: rows)
            section.agreed = agreed
            return renderTable(LiveTable(sections: [section], adapter: "hci0"), size: wide).last
        }
        #expect(footer([.five, .eight, .three], agreed: .five) == " agreed 5 · median 5 · mean 5.33 ≈ 5 · 8: P1 explains · 3: P2 explains")
        #expect(footer([.five, .five], agreed: .five) == " consensus: 5")
        #expect(footer([.five, .five], agreed: .eight) == " agreed 8 · consensus: 5")
        #expect(footer([Card.sizes[2], Card.sizes[2]], agreed: Card.sizes[2]) == " consensus: M")
        #expect(footer([Card.sizes[2], Card.sizes[2]], agreed: Card.sizes[3]) == " agreed L · consensus: M")
        #expect(footer([.five, .eight], agreed: nil) == " median 6.5 · mean 6.5 ≈ 8 · 8: P1 explains · 5: P0 explains")
    }

    @Test func theHeaderSaysWhatIsLeftOfTheTimer() {
        var section = TableSection(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 3), title: "ABC-1", rows: [
            TableRow(name: "You", mark: .hidden, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Bob", mark: .waiting, rssi: -75, lastSeen: .milliseconds(1200)),
        ])
        section.remaining = .milliseconds(82_400)
        let lines = renderTable(LiveTable(sections: [section], adapter: "hci0"), size: wide)
        #expect(lines.first == " channel 1 · round 3 · ABC-1 · 2 people · 1 voted · reveal in 1:23         hci0")
    }

    @Test func theSignalColumnSaysHowEachPeerIsHeard() {
        let rows = [
            TableRow(name: "You", mark: .hidden, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Alice", mark: .hidden, rssi: -56, lastSeen: .milliseconds(400)),
            TableRow(name: "Bea", mark: .hidden, rssi: -40, lastSeen: .milliseconds(100), heard: .both),
            TableRow(name: "Cy", mark: .hidden, rssi: -80, lastSeen: .milliseconds(100), heard: .both),
            TableRow(name: "Remy", mark: .waiting, rssi: nil, lastSeen: .milliseconds(800), heard: .relay),
        ]
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0", isObserving: false)
        #expect(renderTable(table, color: false, size: wide) == [
            " channel 1 · 5 people · 4 voted                                            hci0",
            " NAME       CARD  SIGNAL  SEEN",
            " You (you)  ✓             now ",
            " Alice      ✓     ━━━╸    0.4s",
            " Bea        ✓     ━━━━+r  0.1s",
            " Cy         ✓     ━╸  +r  0.1s",
            " Remy       ·     relay   0.8s",
            " 4 of 5 voted · waiting for Remy",
        ])
        // The marks are ASCII already, and a narrow terminal cuts the
        // names, never the marks.
        var ascii = TableRenderer(color: false, ascii: true)
        let narrow = ascii.lines(table, size: TerminalSize(columns: 26, rows: 24))
        #expect(narrow[3] == " Ali~  *     ===-    0.4s")
        #expect(narrow[4] == " Bea   *     ====+r  0.1s")
        #expect(narrow[5] == " Cy    *     =-  +r  0.1s")
        #expect(narrow[6] == " Remy  .     relay   0.8s")
    }

    @Test func rowsAlignByDisplayWidthWithHangulAndEmoji() {
        let table = LiveTable(
            sections: [
                TableSection(
                    channel: Channel(rawValue: 3),
                    rows: [
                        TableRow(name: "전수열", card: .thirteen, rssi: -40, lastSeen: .seconds(3)),
                        TableRow(name: "👍🏽 Dana", card: .half, rssi: -90, lastSeen: .seconds(12)),
                        TableRow(name: "東京", card: .coffee, rssi: nil, lastSeen: .zero, isMe: true),
                        TableRow(name: "e\u{301}mile", card: Card(rawValue: 0x99), rssi: -70, lastSeen: .seconds(75)),
                        TableRow(name: "Al", card: .hundred, rssi: -60, lastSeen: .milliseconds(50)),
                    ])
            ], adapter: "hci1")
        let lines = renderTable(table, color: false, size: wide)
        let tableLines = Array(lines[1...6])
        let widths = Set(tableLines.map(TerminalText.displayWidth))
        #expect(widths.count == 1, "\(tableLines)")
        // The card and seen cells start where their titles do, on every row.
        let expected = [("東京", "☕", "now"), ("Al", "100", "now"), ("e\u{301}mile", "?99", "1m"),
                        ("전수열", "13", "3.0s"), ("👍🏽 Dana", "½", "12s")]
        #expect(lines[2...6].map { String($0.dropFirst().prefix(while: { $0 != " " })) }
                == expected.map { String($0.0.prefix(while: { $0 != " " })) })
        for (line, (_, card, seen)) in zip(lines[2...6], expected) {
            #expect(column(of: "  " + card + " ", in: line) == column(of: "  CARD", in: lines[1]), "\(line)")
            #expect(column(of: "  " + seen, in: line) == column(of: "  SEEN", in: lines[1]), "\(line)")
        }
    }

    @Test func narrowTerminalsCutNamesByDisplayWidthWithAnEllipsis() {
        let table = LiveTable(
            sections: [
                TableSection(
                    channel: Channel(rawValue: 1),
                    rows: [
                        TableRow(name: "전수열전수열전수열", card: .eight, rssi: nil, lastSeen: .zero, isMe: true),
                        TableRow(name: "Bartholomew-Alexander", card: .five, rssi: -50, lastSeen: .seconds(1)),
                        TableRow(name: "👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽", card: .two, rssi: -50, lastSeen: .seconds(1)),
                    ])
            ], adapter: "hci0")
        for columns in [12, 20, 33, 40] {
            let lines = renderTable(table, color: false, size: TerminalSize(columns: columns, rows: 24))
            for line in lines {
                #expect(TerminalText.displayWidth(line) <= columns - 1, "\(columns): \(line)")
            }
            #expect(lines.contains { $0.contains("(you)") || $0.contains("…*") }, "\(columns): my row keeps a marker")
        }
        let lines = renderTable(table, color: false, size: TerminalSize(columns: 40, rows: 24))
        // Name column: 39 usable cells less 21 for the other columns.
        #expect(lines[2] == " 전수열전수… (you)   8             now ")
        #expect(lines[3] == " Bartholomew-Alexa…  5     ━━━━    1.0s")
        #expect(lines[4] == " 👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽…   2     ━━━━    1.0s")
        #expect(Set(lines[1...4].map(TerminalText.displayWidth)).count == 1)
    }

    @Test func staleRowsAreDimmedAndMineBoldOnlyWithColor() {
        let colored = renderTable(designRoom(stale: true), color: true, size: wide)
        #expect(colored[4] == "\u{1B}[2m Bob           ☕    ━━      1.2s stale\u{1B}[0m")
        #expect(colored[2].hasPrefix("\u{1B}[1m") && colored[2].hasSuffix("\u{1B}[0m"))
        #expect(colored.filter { $0.contains("\u{1B}") }.count == 2)
        let plain = renderTable(designRoom(stale: true), color: false, size: wide)
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(plain.map(withoutOwnSequences) == colored.map(withoutOwnSequences))
    }

    @Test(arguments: [
        (true, [:], true), (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true),
        (false, [:], false), (false, ["TERM": "xterm"], false),
    ] as [(Bool, [String: String], Bool)])
    func colorFollowsTheTerminalAndNoColor(isTerminal: Bool, environment: [String: String], expected: Bool) {
        #expect(TableRenderer.wantsColor(isTerminal: isTerminal, environment: environment) == expected)
    }

    @Test func aTallRoomKeepsHeaderAndFooterAndSaysHowManyMore() {
        let rows = (0..<100).map { TableRow(name: "peer\($0)", card: .three, rssi: -60, lastSeen: .seconds(1)) }
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0")
        let lines = renderTable(table, color: false, size: TerminalSize(columns: 80, rows: 10))
        #expect(lines.count == 10)
        #expect(lines[0].hasPrefix(" channel 1 · 100 people · 100 voted"))
        #expect(lines[8] == " … 94 more")
        #expect(lines[9] == " consensus: 3")
    }

    @Test func peersBeyondTheCapAreCountedInTheHeader() {
        let table = LiveTable(
            sections: [TableSection(channel: Channel(rawValue: 7), rows: [], unshown: 436)], adapter: "hci0")
        let lines = renderTable(table, color: false, size: wide)
        #expect(lines[0].hasPrefix(" channel 7 · 0 people · 0 voted · 436 more not shown "))
        #expect(lines.last == " nobody heard yet")
    }

    @Test(arguments: [(1, " 0 of 1 voted · waiting for Ann · 1 more nearby, out of the room"),
                      (2, " 0 of 1 voted · waiting for Ann · 2 more nearby, out of the room")])
    func theFooterCountsThoseNearbyOutOfTheRoom(count: Int, footer: String) {
        var section = TableSection(channel: Channel(rawValue: 1), rows: [TableRow(name: "Ann", card: .waiting, rssi: -60, lastSeen: .seconds(1))])
        section.outOfRoom = count
        let lines = renderTable(LiveTable(sections: [section], adapter: "hci0"), color: false, size: wide)
        #expect(lines.last == footer)
    }

    @Test func nobodyOutOfTheRoomSaysNothing() {
        let section = TableSection(channel: Channel(rawValue: 1), rows: [])
        #expect(StatsFooter.parts(section) == ["nobody heard yet"])
    }

    @Test func everyChannelIsItsOwnGroupWithSharedColumns() {
        let table = LiveTable(
            sections: [
                TableSection(channel: Channel(rawValue: 1), rows: [
                    TableRow(name: "Alice", card: .five, rssi: -50, lastSeen: .seconds(1))
                ]),
                TableSection(channel: Channel(rawValue: 2), rows: [
                    TableRow(name: "Maximilian", card: .eight, rssi: -50, lastSeen: .seconds(1))
                ]),
            ], adapter: "hci0")
        let lines = renderTable(table, color: false, size: wide)
        #expect(lines.count == 9)
        #expect(lines[0].hasSuffix("hci0"))
        #expect(lines[4] == "")
        #expect(lines[5] == " channel 2 · 1 person · 1 voted")
        #expect(lines[2].count == lines[7].count)
        #expect(lines[2].hasPrefix(" Alice       5 "))
    }

    @Test func sectionFromTheRoomHasMeFirstAndAgesAtNow() {
        var room = Room()
        let now = Timestamp(secondsSince1970: 1_790_000_000)
        let channel = Channel(rawValue: 1)
        room.enter(Room.Me(channel: channel, name: "전수열", card: .waiting), now: now - ChannelRound.listening)
        let heard = { (channel: Channel, name: String, card: Card, rssi: Int, time: Timestamp) in
            _ = room.hear(Packet(version: .v01, channel: channel, card: card, name: name), rssi: rssi, relayed: false, at: time)
        }
        heard(channel, "Bob", .five, -60, now - .seconds(2))
        heard(channel, "전수열", .two, -30, now)  // my own advertisement heard back
        heard(Channel(rawValue: 2), "Eve", .five, -60, now)
        room.pick(.eight, now: now)
        let section = TableSection(room.view(of: channel, now: now), now: now)
        #expect(section.rows == [
            TableRow(name: "전수열", card: .eight, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Bob", card: .five, rssi: -60, lastSeen: .seconds(2)),
        ])
        #expect(section.isRevealed && section.voted == 2)
    }

    @Test func withoutColorAStaleRowSaysSoInWords() {
        let plain = renderTable(designRoom(stale: true), color: false, size: wide)
        #expect(plain[4] == " Bob           ☕    ━━      1.2s stale")
        #expect(!plain[3].contains("stale"), "fresh rows say nothing")
    }

    @Test func aLocaleThatIsNotUTF8GetsASCIIOnlyAndTheColumnsStillAlign() {
        var rows = designRoom().sections[0].rows
        rows[2].mark = .shown(.half)
        rows.append(TableRow(name: "Dan", mark: .hidden, rssi: -56, lastSeen: .seconds(2)))
        let room = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0")
        var renderer = TableRenderer(color: false, ascii: true)
        let lines = renderer.lines(room, size: wide)
        #expect(lines.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }, "\(lines)")
        #expect(lines == [
            " channel 1 - 5 people - 4 voted                                            hci0",
            " NAME       CARD    SIGNAL  SEEN",
            " ??? (you)  1/2             now ",
            " Alice      5       ===-    0.4s",
            " Bob        coffee  ==      1.2s",
            " Carol      .       ===     0.2s",
            " Dan        *       ===-    2.0s",
            " 4 of 5 voted - waiting for Carol",
        ])
    }

    @Test func aNarrowTerminalCutsTheNameColumnNotWhoExplains() {
        let rows = [
            TableRow(name: "전수열", card: .eight, rssi: nil, lastSeen: .zero, isMe: true),
            TableRow(name: "Bartholomew", card: .three, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Alice", card: .five, rssi: -50, lastSeen: .seconds(1)),
            TableRow(name: "Bob", card: .five, rssi: -50, lastSeen: .seconds(1)),
        ]
        let table = LiveTable(sections: [TableSection(channel: Channel(rawValue: 1), rows: rows)], adapter: "hci0")
        let lines = renderTable(table, size: TerminalSize(columns: 28, rows: 24))
        #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= 27 }, "\(lines)")
        #expect(lines.contains(" Barth…  3     ━━━━    1.0s"), "\(lines)")
        #expect(lines.contains(" 전수…*  8             now "), "my row is marked * when (you) does not fit")
        #expect(lines.contains(" 8: 전수열 explains"), "\(lines)")
        #expect(lines.contains(" 3: Bartholomew explains"), "\(lines)")
    }

    @Test func aNoticeGoesUnderTheTableSanitised() {
        var room = designRoom()
        room.notice = "Someone else here is also called \u{1B}[2J전수열."
        let lines = renderTable(room, size: wide)
        #expect(lines.last == " Someone else here is also called 전수열.")
        #expect(lines[lines.count - 2] == " 3 of 4 voted · waiting for Carol")
    }

    /// The cell at which `needle` starts in `line`.
    private func column(of needle: String, in line: String) -> Int? {
        line.firstRange(of: needle).map { TerminalText.displayWidth(String(line[..<$0.lowerBound])) }
    }
}
