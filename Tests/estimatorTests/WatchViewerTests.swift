import EstimatorKit
import Rendering
import Testing
import Watch

/// `watch` as a value: its feed's lines and ticks in, on a manual clock,
/// and the JSON lines it writes out.
@Suite struct WatchViewerTests {
    private final class Written: @unchecked Sendable { var lines: [String] = [] }

    private let clock = ManualClock()
    private let written = Written()

    private final class Bell: @unchecked Sendable { var rung = 0 }
    private let bell = Bell()

    private func viewer(open: Bool = false) -> WatchViewer {
        let written = written
        return WatchViewer(channel: nil, attached: true, adapter: "hci0", json: true, open: open, staleAfter: .seconds(6),
                           output: .json, clock: clock, write: { written.lines.append($0) })
    }

    /// A viewer drawing on a terminal (the table, or the board) whose bell
    /// this suite counts.
    private func terminal(board: Bool = false) -> WatchViewer {
        let bell = bell
        return WatchViewer(channel: nil, attached: true, adapter: "hci0", json: false, open: false, staleAfter: .seconds(6),
                           output: .table, board: board, ring: { bell.rung += 1 }, clock: clock)
    }

    private func me(_ card: Card, round: Int? = 1) -> ControlWatchLine {
        .me(channel: 1, name: "Me", card: card, adapter: "hci0", round: round.map(RoundNumber.init(wrapping:)), title: "ABC-1")
    }

    private func heard(_ localName: String) -> ControlWatchLine { .heard(localName: Array(localName.utf8), rssi: -50) }

    /// The `event` of each line written since the last call.
    private func events() -> [String] {
        defer { written.lines = [] }
        return written.lines.map { line in
            line.split(separator: ",").first.map { String($0.dropFirst(#"{"event":""#.count).dropLast()) } ?? line
        }
    }

    @Test func theLastVoteIsReportedAsAVoteThenTheRevealShowsEveryCard() {
        var watch = viewer()
        watch.apply(me(.waiting))
        watch.apply(heard("2101FCAlice"))
        #expect(events() == ["joined"])
        clock.advance(by: ChannelRound.listening)
        watch.tick()
        watch.apply(me(.five))
        watch.apply(heard("210108Alice"))
        let lines = written.lines
        #expect(events() == ["voted", "revealed"])
        #expect(lines.last?.contains(#""cards":[{"name":"Me","card":"5","cardRaw":"05"},{"name":"Alice","card":"8""#) == true, "\(lines)")
        let frame = watch.frame(now: clock.now)
        #expect(frame.sections.map(\.title) == ["ABC-1"], "the session's title")
        #expect(frame.sections.first?.rows.map(\.mark) == [.shown(.five), .shown(.eight)])
    }

    @Test func nothingIsRevealedUntilTheRoomIsHeardThenATickRevealsIt() {
        var watch = viewer()
        watch.apply(me(.five))
        watch.apply(heard("210108Alice"))
        #expect(events() == ["joined"], "a watch that just started has not heard the room")
        clock.advance(by: ChannelRound.listening)
        watch.tick()
        #expect(events() == ["revealed"])
    }

    @Test func anAgreedEstimateIsASettledEventAfterTheRevealAndInTheFooter() {
        var watch = viewer()
        clock.advance(by: ChannelRound.listening)
        watch.apply(me(.waiting))
        watch.apply(heard("210103Alice"))
        _ = events()
        let story = Story(key: "ABC-1", summary: "Login")
        let settled = ControlWatchLine.me(channel: 1, name: "Me", card: .eight, adapter: "hci0", round: RoundNumber(wrapping: 1),
                                          title: story.title, revealed: true, story: story, agreed: .five)
        watch.apply(settled)
        let lines = written.lines
        #expect(events() == ["revealed", "settled"])
        #expect(lines.last?.contains(#""round":1,"story":{"key":"ABC-1","summary":"Login"},"agreed":"5","#) == true, "\(lines)")
        #expect(watch.frame(now: clock.now).sections.first?.agreed == .five)
        let board = watch.board(now: clock.now)
        #expect(board.story == Board.Story(key: "ABC-1", summary: "Login") && board.agreed == .five, "the board heads with the story")
        watch.apply(settled)
        #expect(events() == [], "the same estimate again is no event")
        watch.apply(me(.waiting, round: 2))
        #expect(events() == ["round"])
        #expect(watch.frame(now: clock.now).sections.first?.agreed == nil, "a new round has none")
        #expect(watch.board(now: clock.now).story == nil && watch.board(now: clock.now).agreed == nil)
    }

    @Test func theSessionsTimerCountsDownInItsChannelUntilTheReveal() {
        var watch = viewer()
        let deadline = clock.now + .seconds(120)
        watch.apply(.me(channel: 1, name: "Me", card: .waiting, adapter: "hci0", round: RoundNumber(wrapping: 1), title: nil,
                        revealsAt: deadline))
        #expect(watch.frame(now: clock.now).sections.first?.remaining == .seconds(120))
        clock.advance(by: .seconds(30))
        #expect(watch.frame(now: clock.now).sections.first?.remaining == .seconds(90))
        watch.apply(.me(channel: 1, name: "Me", card: .waiting, adapter: "hci0", round: RoundNumber(wrapping: 1), title: nil,
                        revealed: true, onAir: Array("5101FCMe".utf8), revealsAt: nil))
        #expect(watch.frame(now: clock.now).sections.first?.remaining == nil)
    }

    @Test func theBellRingsOnceForEachRevealItSaw() {
        var watch = terminal()
        watch.apply(me(.waiting))
        watch.apply(heard("2101FCAlice"))
        clock.advance(by: ChannelRound.listening)
        watch.tick()
        watch.apply(me(.five))
        #expect(bell.rung == 0)
        watch.apply(heard("210108Alice"))
        #expect(bell.rung == 1, "the reveal")
        watch.apply(heard("210103Alice"))
        watch.tick()
        #expect(bell.rung == 1, "a re-vote and the ticks do not ring")
        watch.apply(me(.waiting, round: 2))
        watch.apply(heard("2201FCAlice"))
        watch.apply(me(.three, round: 2))
        watch.apply(heard("220105Alice"))
        #expect(bell.rung == 2, "the next round's reveal")
    }

    @Test func noBellForARoundRevealedBeforeTheWatchStarted() {
        var watch = terminal()
        watch.apply(.me(channel: 1, name: "Me", card: .five, adapter: "hci0", round: RoundNumber(wrapping: 1), title: nil,
                        revealed: true, onAir: Array("310105Me".utf8)))
        watch.apply(heard("310108Alice"))
        clock.advance(by: Ballot.catchUp + ChannelRound.listening)
        watch.tick()
        #expect(watch.frame(now: clock.now).sections.first?.isRevealed == true)
        #expect(bell.rung == 0)
    }

    @Test func theBoardShowsTheSessionsChannelWithItsTitleAndTimer() {
        var watch = terminal(board: true)
        watch.apply(.me(channel: 1, name: "Me", card: .waiting, adapter: "hci0", round: RoundNumber(wrapping: 1),
                        title: "ABC-1", observing: true, revealsAt: clock.now + .seconds(90)))
        watch.apply(heard("2101FCAlice"))
        guard case let .board(board) = watch.screenFrame(now: clock.now) else {
            Issue.record("the board is not drawn")
            return
        }
        #expect(board.channel == Channel(rawValue: 1) && board.title == "ABC-1")
        #expect(board.remaining == .seconds(90))
        #expect(board.tally.entries.map(\.mark) == [.observing, .waiting], "I observe, Alice has not voted")
        #expect(board.tally.waitingFor.map(\.name) == ["Alice"])
        #expect(!board.isObserving, "attached to a session")
    }

    @Test func myOwnAdvertisementHeardBackIsNoRow() {
        var watch = viewer()
        watch.apply(me(.waiting))
        watch.apply(heard("2101FCMe"))
        #expect(events().isEmpty)
        #expect(watch.frame(now: clock.now).sections.first?.rows.count == 1)
    }

    /// An iPhone's packet, cut to 8 bytes, from the device at `address`.
    private func iPhone(_ localName: [UInt8], at address: String) -> ControlWatchLine {
        .heard(localName: localName, rssi: -60, from: Advertiser(address: address, isDiscoverable: true))
    }

    /// The `name` and `card` of each line written since the last call.
    private func namesAndCards() -> [String] {
        defer { written.lines = [] }
        return written.lines.map { line in
            let fields = line.split(separator: ",")
            return (fields.first { $0.hasPrefix(#""name":"#) }.map(String.init) ?? "") + " "
                + (fields.first { $0.hasPrefix(#""card":"#) }.map(String.init) ?? "")
        }
    }

    @Test func twoAppUsersOfOneCutNameEachShowTheirOwnCard() {
        var watch = viewer(open: true)
        watch.apply(me(.waiting, round: nil))
        watch.apply(iPhone(Array("010108Al".utf8), at: "4A:00:00:00:00:01"))
        // Alex's iPhone, also `Al`, waits until Alice's is heard again: two phones at once.
        watch.apply(iPhone(Array("010105Al".utf8), at: "5B:00:00:00:00:02"))
        clock.advance(by: .milliseconds(500))
        watch.apply(iPhone(Array("010108Al".utf8), at: "4A:00:00:00:00:01"))
        watch.apply(iPhone(Array("0101FE".utf8) + [0xEC, 0xA0], at: "6C:00:00:00:00:03"))
        #expect(namesAndCards() == [#""name":"Al" "card":"8""#, #""name":"Al" "card":"5""#, #""name":"" "card":"coffee""#])
        let rows = watch.frame(now: clock.now).sections.first?.rows ?? []
        #expect(rows.filter(\.isApp).map(\.mark) == [.shown(.coffee), .shown(.eight), .shown(.five)])
    }
}
