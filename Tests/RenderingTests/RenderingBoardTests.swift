import EstimatorKit
import Rendering
import Testing

/// Boards the tests draw.
enum BoardRooms {
    /// Round 4 of channel 1 under way: three of four have voted, a timer runs.
    static func voting() -> Board {
        let marks: [(String, Tally.Mark, Card)] = [
            ("Alice", .hidden, .five), ("Bob", .waiting, .waiting), ("Carol", .hidden, .eight), ("전수열", .hidden, .three),
        ]
        let tally = Tally(entries: marks.map { Tally.Entry(name: $0.0, card: $0.2, isMe: false, isStale: false, mark: $0.1) },
                          voters: 4, voted: 3, waitingFor: [Tally.Entry(name: "Bob", card: .waiting, isMe: false, isStale: false)],
                          isRevealed: false, round: RoundNumber(wrapping: 4),
                          stats: Stats([]))
        return Board(channel: Channel(rawValue: 1), story: Board.Story(key: "ABC-123", summary: "Login with passkeys"),
                     tally: tally, remaining: .milliseconds(82_400), adapter: "hci0")
    }

    /// The same round revealed, a coffee among the votes, 5 agreed.
    static func revealed() -> Board {
        var board = voting()
        board.tally = Tally.revealed([("Alice", .five), ("Bob", .five), ("Carol", .eight), ("전수열", .three), ("Dan", .coffee)],
                                     round: RoundNumber(wrapping: 4))
        board.remaining = nil
        board.agreed = .five
        return board
    }

    /// A round of `count` voters named by `name`, each marked by `mark`.
    static func crowd(_ count: Int, revealed: Bool = false, name: (Int) -> String = { "Person \($0)" },
                      card: (Int) -> Card = { [Card.one, .two, .three, .five, .eight, .thirteen][$0 % 6] }) -> Board {
        let entries = (0..<count).map { i in
            Tally.Entry(name: name(i), card: card(i), isMe: false, isStale: false,
                        mark: revealed ? .shown(card(i)) : i.isMultiple(of: 3) ? .waiting : .hidden)
        }
        let voted = entries.filter { $0.mark != .waiting }
        let tally = Tally(entries: entries, voters: count, voted: voted.count,
                          waitingFor: entries.filter { $0.mark == .waiting }.sorted { $0.name < $1.name }, isRevealed: revealed,
                          round: RoundNumber(wrapping: 2), stats: Stats(voted.map { ($0.name, $0.card) }))
        return Board(channel: Channel(rawValue: 7), title: "Crowded room", tally: tally, adapter: "hci1")
    }
}

/// `watch --board`: golden boards at 80×24 and 200×60, in ASCII and without
/// color, and the layout's rules at every size.
@Suite struct RenderingBoardTests {
    private let small = TerminalSize(columns: 80, rows: 24)
    private let big = TerminalSize(columns: 200, rows: 60)

    private func board(_ board: Board, _ size: TerminalSize, color: Bool = false, ascii: Bool = false) -> String {
        BoardRenderer(color: color, ascii: ascii).lines(board, size: size).joined(separator: "\n")
    }

    @Test func whileTheRoomVotesAt80x24() {
        #expect(board(BoardRooms.voting(), small) == #"""
             channel 1 · round 4 · reveal in 1:23                                      hci0

             ABC-123 · Login with passkeys

                                              █    ███ ███
                                             ██  █   █   █
                                              █    ███ ███
                                              █  █ █     █
                                             ███   ███ ███

                          ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐
                          │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
                          │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
                          │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
                          │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
                          │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
                          └─────────┘  └─────────┘  └─────────┘  └─────────┘
                             Alice         Bob         Carol       전수열

             3 of 4 voted · waiting for Bob
            """#)
    }

    @Test func whileTheRoomVotesAt200x60() {
        #expect(board(BoardRooms.voting(), big) == #"""
             channel 1 · round 4 · reveal in 1:23                                                                                                                                                              hci0

             ABC-123 · Login with passkeys

                                                                                               ███            █████████   █████████
                                                                                               ███            █████████   █████████
                                                                                               ███            █████████   █████████
                                                                                            ██████      ███         ███         ███
                                                                                            ██████      ███         ███         ███
                                                                                            ██████      ███         ███         ███
                                                                                               ███            █████████   █████████
                                                                                               ███            █████████   █████████
                                                                                               ███            █████████   █████████
                                                                                               ███      ███   ███               ███
                                                                                               ███      ███   ███               ███
                                                                                               ███      ███   ███               ███
                                                                                            █████████         █████████   █████████
                                                                                            █████████         █████████   █████████
                                                                                            █████████         █████████   █████████

                                                  ┌───────────────────────────┐  ┌───────────────────────────┐  ┌───────────────────────────┐  ┌───────────────────────────┐
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │                           │  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│  │░░░░░░░░░░░░░░░░░░░░░░░░░░░│
                                                  └───────────────────────────┘  └───────────────────────────┘  └───────────────────────────┘  └───────────────────────────┘
                                                              Alice                           Bob                           Carol                         전수열

             3 of 4 voted · waiting for Bob
            """#)
    }

    @Test func afterTheRevealAt80x24() {
        #expect(board(BoardRooms.revealed(), small) == #"""
             channel 1 · round 4                                                       hci0

             ABC-123 · Login with passkeys

                    ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │  █ █    │
                    │   █     │  │   █     │  │   █ █   │  │     █   │  │         │
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │ █████   │
                    │     █   │  │     █   │  │   █ █   │  │     █   │  │ ████ █  │
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │  ███    │
                    └─────────┘  └─────────┘  └─────────┘  └─────────┘  └─────────┘
                       Alice         Bob         Carol       전수열         Dan

                3 █████████████████                  1  전수열
             ▶  5 ██████████████████████████████████ 2  Alice, Bob
                8 █████████████████                  1  Carol
               ☕ █████████████████                  1  Dan

             agreed 5 · median 5 · mean 5.25 ≈ 5 · 8: Carol explains · 3: 전수열 explains
             ☕ 1
            """#)
    }

    @Test func afterTheRevealAt200x60() {
        #expect(board(BoardRooms.revealed(), big) == #"""
             channel 1 · round 4                                                                                                                                                                               hci0

             ABC-123 · Login with passkeys

                                   ┌───────────────────────────┐  ┌───────────────────────────┐  ┌───────────────────────────┐  ┌───────────────────────────┐  ┌───────────────────────────┐
                                   │                           │  │                           │  │                           │  │                           │  │                           │
                                   │                           │  │                           │  │                           │  │                           │  │                           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       ███   ███           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       ███   ███           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       ███   ███           │
                                   │         ███               │  │         ███               │  │         ███   ███         │  │               ███         │  │                           │
                                   │         ███               │  │         ███               │  │         ███   ███         │  │               ███         │  │                           │
                                   │         ███               │  │         ███               │  │         ███   ███         │  │               ███         │  │                           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │    ███████████████        │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │    ███████████████        │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │    ███████████████        │
                                   │               ███         │  │               ███         │  │         ███   ███         │  │               ███         │  │    ████████████   ███     │
                                   │               ███         │  │               ███         │  │         ███   ███         │  │               ███         │  │    ████████████   ███     │
                                   │               ███         │  │               ███         │  │         ███   ███         │  │               ███         │  │    ████████████   ███     │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       █████████           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       █████████           │
                                   │         █████████         │  │         █████████         │  │         █████████         │  │         █████████         │  │       █████████           │
                                   │                           │  │                           │  │                           │  │                           │  │                           │
                                   │                           │  │                           │  │                           │  │                           │  │                           │
                                   └───────────────────────────┘  └───────────────────────────┘  └───────────────────────────┘  └───────────────────────────┘  └───────────────────────────┘
                                               Alice                           Bob                           Carol                         전수열                           Dan

                3 ██████████████████████████████                               1  전수열
             ▶  5 ████████████████████████████████████████████████████████████ 2  Alice, Bob
                8 ██████████████████████████████                               1  Carol
               ☕ ██████████████████████████████                               1  Dan

             agreed 5 · median 5 · mean 5.25 ≈ 5 · 8: Carol explains · 3: 전수열 explains · ☕ 1
            """#)
    }

    @Test func inASCIIForALocaleThatIsNotUTF8() {
        let text = board(BoardRooms.revealed(), small, ascii: true)
        #expect(text == #"""
             channel 1 - round 4                                                       hci0

             ABC-123 - Login with passkeys

                    +---------+  +---------+  +---------+  +---------+  +---------+
                    |   ###   |  |   ###   |  |   ###   |  |   ###   |  |  # #    |
                    |   #     |  |   #     |  |   # #   |  |     #   |  |         |
                    |   ###   |  |   ###   |  |   ###   |  |   ###   |  | #####   |
                    |     #   |  |     #   |  |   # #   |  |     #   |  | #### #  |
                    |   ###   |  |   ###   |  |   ###   |  |   ###   |  |  ###    |
                    +---------+  +---------+  +---------+  +---------+  +---------+
                       Alice         Bob         Carol         ???          Dan

                    3 ################                 1  ???
             >      5 ################################ 2  Alice, Bob
                    8 ################                 1  Carol
               coffee ################                 1  Dan

             agreed 5 - median 5 - mean 5.25 ~ 5 - 8: Carol explains - 3: ??? explains
             coffee 1
            """#)
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test func noColorIsTheSameBoardWithoutStyling() {
        let color = TableRenderer.wantsColor(isTerminal: true, environment: ["NO_COLOR": "1"])
        #expect(board(BoardRooms.revealed(), small, color: color) == #"""
             channel 1 · round 4                                                       hci0

             ABC-123 · Login with passkeys

                    ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │  █ █    │
                    │   █     │  │   █     │  │   █ █   │  │     █   │  │         │
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │ █████   │
                    │     █   │  │     █   │  │   █ █   │  │     █   │  │ ████ █  │
                    │   ███   │  │   ███   │  │   ███   │  │   ███   │  │  ███    │
                    └─────────┘  └─────────┘  └─────────┘  └─────────┘  └─────────┘
                       Alice         Bob         Carol       전수열         Dan

                3 █████████████████                  1  전수열
             ▶  5 ██████████████████████████████████ 2  Alice, Bob
                8 █████████████████                  1  Carol
               ☕ █████████████████                  1  Dan

             agreed 5 · median 5 · mean 5.25 ≈ 5 · 8: Carol explains · 3: 전수열 explains
             ☕ 1
            """#)
        // With color the heading and the agreed estimate are bold, nothing else is styled.
        let styled = BoardRenderer(color: true).lines(BoardRooms.revealed(), size: small)
        let bold = styled.filter { $0.hasPrefix("\u{1B}[1m") }
        #expect(bold.map(withoutOwnSequences) == [
            " ABC-123 · Login with passkeys",
            " ▶  5 ██████████████████████████████████ 2  Alice, Bob",
            " agreed 5 · median 5 · mean 5.25 ≈ 5 · 8: Carol explains · 3: 전수열 explains",
            " ☕ 1",
        ])
        #expect(styled.allSatisfy { $0.hasPrefix("\u{1B}[1m") || !$0.contains("\u{1B}") })
    }

    @Test func everyBoardFitsItsTerminalFrom80x24Up() {
        var generator = SeededGenerator(state: 27)
        for count in [0, 1, 2, 5, 9, 14, 23, 40, 64] {
            for revealed in [false, true] {
                let room = BoardRooms.crowd(count, revealed: revealed, name: { i in
                    ["Al", "Bartholomew-Alexander", "전수열전수열", "👍🏽 Dana", "x\u{1B}]52;c;aGk=\u{7}y"][i % 5] + String(i)
                }, card: { _ in Card(rawValue: UInt8.random(in: 0...255, using: &generator)) })
                for columns in [80, 133, 257] {
                    for rows in [24, 45, 90] {
                        for ascii in [false, true] {
                            let lines = BoardRenderer(color: false, ascii: ascii).lines(room, size: TerminalSize(columns: columns, rows: rows))
                            let where_ = "\(count) voters, \(columns)x\(rows)"
                            #expect(lines.count <= rows, "\(where_)")
                            #expect(lines.allSatisfy { TerminalText.displayWidth($0) <= columns - 1 }, "\(where_): \(lines)")
                            #expect(lines.allSatisfy { !$0.unicodeScalars.contains(where: isControl) }, "\(where_)")
                            #expect(!ascii || lines.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }, "\(where_)")
                            #expect(lines.last?.isEmpty == false, "the bottom is always shown: \(where_)")
                        }
                    }
                }
            }
        }
    }

    @Test func aCrowdedRoomGetsSmallerCardsThenOnlyItsNames() {
        let twelve = BoardRenderer(color: false).lines(BoardRooms.crowd(12), size: small)
        #expect(twelve.filter { $0.contains("┌") }.count == 2, "two rows of large cards")
        #expect(twelve.contains { $0.contains("█") } == false, "nobody's card is shown before the reveal")
        let revealed = BoardRenderer(color: false).lines(BoardRooms.crowd(12, revealed: true), size: small)
        #expect(revealed.contains { $0.contains("│ 13  │") }, "small cards leave room for the chart: \(revealed)")
        let forty = BoardRenderer(color: false).lines(BoardRooms.crowd(40), size: small)
        #expect(!forty.contains { $0.contains("┌") }, "no cards fit")
        #expect(forty.last == " 26 of 40 voted · waiting for Person 0, Person 12, Person 15 and 11 others")
    }

    @Test func theStoryElseTheTitleHeadsTheBoard() {
        var board = BoardRooms.voting()
        let heading = { (board: Board) in BoardRenderer(color: false).lines(board, size: self.small)[2] }
        board.story = Board.Story(key: "ABC-123", summary: nil)
        #expect(heading(board) == " ABC-123")
        board.story = nil
        board.title = "Login with passkeys"
        #expect(heading(board) == " Login with passkeys")
        board.title = nil
        #expect(BoardRenderer(color: false).lines(board, size: small)[2].isEmpty == false, "no heading: the cards come up")
        board.story = Board.Story(key: "ABC-9", summary: String(repeating: "a long summary ", count: 20))
        let lines = BoardRenderer(color: false).lines(board, size: small)
        #expect(lines[2] == " ABC-9 · a long summary a long summary a long summary a long summary a long")
        #expect(lines[3].hasSuffix("…") && TerminalText.displayWidth(lines[3]) <= 79, "two lines at most: \(lines[3])")
        #expect(lines[4].isEmpty)
    }

    @Test func hostileTextNeverReachesTheTerminal() {
        var board = BoardRooms.revealed()
        board.story = Board.Story(key: "\u{1B}[2J", summary: "\u{202E}evil\u{7} \u{9B}31m")
        board.adapter = "hci0\u{1B}]0;x\u{7}"
        board.tally = Tally.revealed([("\u{1B}[31mAnn", .five), ("Bob\u{0}", .eight)])
        for color in [false, true] {
            let text = BoardRenderer(color: color).lines(board, size: big).joined(separator: "\n")
            #expect(!withoutOwnSequences(text).unicodeScalars.contains { isControl($0) && $0 != "\n" }, "\(text)")
        }
    }

    @Test func everyCardHasALargeFace() {
        let drawn = Set("0123456789ABCDEFLMSX?/☕")
        for byte in 0...255 {
            let face = BlockFont.face(of: Card(rawValue: UInt8(byte)))
            #expect(face.allSatisfy(drawn.contains), "\(byte): \(face)")
            #expect(BlockFont.rows(face, scale: 2, ink: "#").allSatisfy { $0.count == BlockFont.width(face, scale: 2) })
        }
        #expect(BlockFont.face(of: Card(integer: 21)!) == "21")
        #expect(BlockFont.face(of: .half) == "1/2")
        #expect(BlockFont.face(of: Card.sizes[5]) == "XXL")
        #expect(BlockFont.face(of: Card(rawValue: 0x99)) == "?99")
    }

    @Test func aRoomsViewMakesItsBoard() {
        var room = Room()
        let start = Timestamp(secondsSince1970: 1_700_000_000)
        room.enter(Room.Me(channel: Channel(rawValue: 1), name: "Me", card: .waiting, observing: true), now: start)
        _ = room.startNext(title: "ABC-1", now: start)
        _ = room.hear(try! Packet(decoding: Array("2101FCAlice".utf8)), rssi: -50, relayed: false, at: start)
        let board = Board(room.view(of: Channel(rawValue: 1), now: start), adapter: "hci0", remaining: .seconds(60))
        #expect(board.title == "ABC-1")
        #expect(board.voters.map(\.name) == ["Alice"], "the observer has no card")
        #expect(BoardRenderer(color: false).lines(board, size: small).first
                == " channel 1 · round 1 · reveal in 1:00                                      hci0")
    }
}
