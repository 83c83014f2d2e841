import EstimatorKit
import Rendering
import SessionCore
import SessionDaemon
import Testing
import Watch

/// `watch` as a value, fed the lines a session's core decides (taken as the
/// session's executor takes them) or a watch's own listening room, on a
/// manual clock; and the JSON lines it writes out.
@Suite struct WatchViewerTests {
    private final class Written: @unchecked Sendable { var lines: [String] = [] }

    private let clock = ManualClock()
    private let written = Written()

    private final class Bell: @unchecked Sendable { var rung = 0 }
    private let bell = Bell()

    private func viewer(attached: Bool = true) -> WatchViewer {
        let written = written
        return WatchViewer(channel: nil, attached: attached, adapter: "hci0", json: true, output: .json, clock: clock,
                           write: { written.lines.append($0) })
    }

    /// A viewer drawing on a terminal (the table, or the board) whose bell
    /// this suite counts.
    private func terminal(board: Bool = false) -> WatchViewer {
        let bell = bell
        return WatchViewer(channel: nil, attached: true, adapter: "hci0", json: false, output: .table, board: board,
                           ring: { bell.rung += 1 }, clock: clock)
    }

    /// A session's core, Me in channel 1, streaming to a watch.
    private struct Session {
        var core: SessionCore

        init(now: Timestamp) {
            let setup = SessionCore.Setup(adapter: "hci0", radioless: false, pid: 42, lookAgainAfter: .seconds(2),
                                          clockTime: LocalTime.clock)
            core = SessionCore(setup, channel: Channel(rawValue: 1), name: try! PersonName.parse("Me").name,
                               room: Room(staleAfter: .seconds(6)), now: now)
            _ = core.take(.radioWorks(seals: false), at: now)
            _ = core.take(.forward(.all), at: now)
        }

        /// Takes `event` and gives `watch` what the session's executor would stream of it.
        mutating func take(_ event: SessionEvent, at now: Timestamp, into watch: inout WatchViewer) {
            for action in core.take(event, at: now) {
                switch action {
                case let .stream(line) where line.isForAWatch: watch.apply(line)
                case .streamMe: watch.apply(core.me)
                case .changed: for line in core.watchLines(now: now).shut { watch.apply(line) }
                default: break
                }
            }
        }

        /// Attaches `watch` now, as `Session.addWatcher` does.
        mutating func attach(_ watch: inout WatchViewer, now: Timestamp) {
            watch.apply(core.me)
            for line in core.watchCatchUp(now: now) { watch.apply(line) }
        }
    }

    /// A session whose round 1 is revealed, Me 5 and Alice 8, before the
    /// watch a test attaches: one watched it from the start.
    private func revealedBeforeTheWatch() -> Session {
        var session = Session(now: clock.now)
        var early = viewer()
        session.take(heard("2101FCAlice"), at: clock.now, into: &early)
        clock.advance(by: ChannelRound.listening)
        session.take(.tick, at: clock.now, into: &early)
        session.take(.request(.pick(.five)), at: clock.now, into: &early)
        session.take(heard("210108Alice"), at: clock.now, into: &early)
        return session
    }

    private func heard(_ localName: String, rssi: Int = -50) -> SessionEvent {
        .heard(Heard(localName: Array(localName.utf8), rssi: rssi))
    }

    /// The `event` of each line written since the last call.
    private func events() -> [String] {
        defer { written.lines = [] }
        return written.lines.map { line in
            line.split(separator: ",").first.map { String($0.dropFirst(#"{"event":""#.count).dropLast()) } ?? line
        }
    }

    @Test func theLastVoteIsReportedAsAVoteThenTheRevealShowsEveryCard() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        session.take(heard("2101FCAlice"), at: clock.now, into: &watch)
        #expect(events() == ["joined"], "the first round heard is joined, not begun")
        clock.advance(by: ChannelRound.listening)
        session.take(.tick, at: clock.now, into: &watch)
        session.take(.request(.pick(.five)), at: clock.now, into: &watch)
        session.take(heard("210108Alice"), at: clock.now, into: &watch)
        let lines = written.lines
        #expect(events() == ["voted", "revealed"])
        #expect(lines.last?.contains(#""cards":[{"name":"Me","card":"5","cardRaw":"05"},{"name":"Alice","card":"8""#) == true, "\(lines)")
        let frame = watch.frame(now: clock.now)
        #expect(frame.sections.first?.rows.map(\.mark) == [.shown(.five), .shown(.eight)])
    }

    @Test func aWatchAttachedAfterTheRevealStartsWithEveryCard() {
        var session = revealedBeforeTheWatch()
        written.lines = []
        var late = viewer()
        session.attach(&late, now: clock.now)
        let lines = written.lines
        #expect(events() == ["joined", "revealed"])
        #expect(lines[0].contains(#""name":"Alice","card":"8","cardRaw":"08""#), "\(lines)")
        #expect(lines[1].contains(#""cards":[{"name":"Me","card":"5","cardRaw":"05"},{"name":"Alice","card":"8","cardRaw":"08"}]"#),
                "\(lines)")
        let section = late.frame(now: clock.now).sections.first
        #expect(section?.isRevealed == true && section?.voted == 2 && section?.waitingFor == [], "the table is the session's")
    }

    @Test func aWatchAttachedMidRoundHasTheVotedCount() {
        var session = Session(now: clock.now)
        var early = viewer()
        session.take(heard("2101FCAlice"), at: clock.now, into: &early)
        session.take(heard("2101FCBob"), at: clock.now, into: &early)
        clock.advance(by: ChannelRound.listening)
        session.take(.tick, at: clock.now, into: &early)
        session.take(heard("210103Alice"), at: clock.now, into: &early)
        session.take(.request(.pick(.five)), at: clock.now, into: &early)
        written.lines = []
        var late = viewer()
        session.attach(&late, now: clock.now)
        #expect(events() == ["joined", "joined"])
        let section = late.frame(now: clock.now).sections.first
        #expect(section?.voters == 3 && section?.voted == 2 && section?.waitingFor.map(\.name) == ["Bob"])
        #expect(section?.rows.map(\.mark) == [.hidden, .hidden, .waiting], "Me, Alice, Bob: votes hidden until the reveal")
    }

    @Test func aReceptionThatChangesNoRowMovesOnlyItsSignalAndAge() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        session.take(heard("2101FCAlice", rssi: -50), at: clock.now, into: &watch)
        clock.advance(by: .seconds(3))
        #expect(watch.frame(now: clock.now).sections.first?.rows.last?.lastSeen == .seconds(3))
        _ = events()
        session.take(heard("2101FCAlice", rssi: -70), at: clock.now, into: &watch)
        #expect(events().isEmpty, "no change to report")
        let row = watch.frame(now: clock.now).sections.first?.rows.last
        #expect(row?.rssi == -70 && row?.lastSeen == .zero)
    }

    @Test func anAgreedEstimateIsASettledEventAfterTheRevealAndInTheFooter() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        session.take(.request(.round(title: "ABC-1 Login")), at: clock.now, into: &watch)
        #expect(events() == ["round", "story"])
        session.take(.request(.reveal()), at: clock.now, into: &watch)
        _ = events()
        session.take(.request(.settle(.five)), at: clock.now, into: &watch)
        let lines = written.lines
        #expect(events() == ["settled"])
        #expect(lines.last?.contains(#""round":1,"story":{"key":"ABC-1","summary":"Login"},"agreed":"5","#) == true, "\(lines)")
        #expect(watch.frame(now: clock.now).sections.first?.agreed == .five)
        let board = watch.board(now: clock.now)
        #expect(board.story == Board.Story(key: "ABC-1", summary: "Login") && board.agreed == .five, "the board heads with the story")
        session.take(.request(.settle(.five)), at: clock.now, into: &watch)
        #expect(events() == [], "the same estimate again is no event")
        session.take(.request(.round(title: nil)), at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).sections.first?.agreed == nil, "a new round has none")
        #expect(watch.board(now: clock.now).story == nil && watch.board(now: clock.now).agreed == nil)
    }

    /// The story a meeting heard brings is the session's decision, told once.
    @Test func theRoundsStoryIsAStoryEventWhenTheMeetingBringsIt() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        session.take(heard("2301FCAlice"), at: clock.now, into: &watch)
        _ = events()
        let parts = MeetingParts.encode(RoundMeeting().choosing(Story(line: "ABC-3 The board"), from: .backlog),
                                        round: RoundNumber(wrapping: 3))
        for part in parts {
            session.take(.heard(Heard(localName: Array("2301FCAlice".utf8), rssi: -50, meeting: part)), at: clock.now, into: &watch)
        }
        let lines = written.lines
        #expect(events() == ["story", "story"], "the key from the first part, then the whole title")
        #expect(lines.last?.hasPrefix(#"{"event":"story","channel":1,"round":3,"story":{"key":"ABC-3","summary":"The board"},"time":"#) == true,
                "\(lines)")
        session.take(.heard(Heard(localName: Array("2301FCAlice".utf8), rssi: -50, meeting: parts[0])), at: clock.now, into: &watch)
        #expect(events() == [], "the same story again is no event")
        #expect(watch.frame(now: clock.now).sections.first?.title == "ABC-3 The board")
    }

    /// The timer's deadline is in the table the session decided: every
    /// table counts it down, until the reveal.
    @Test func theRoundsTimerCountsDownUntilTheReveal() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        session.take(.request(.round(title: nil, timer: Countdown(seconds: 120))), at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).sections.first?.remaining == .seconds(120))
        clock.advance(by: .seconds(30))
        #expect(watch.frame(now: clock.now).sections.first?.remaining == .seconds(90))
        session.take(.request(.reveal()), at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).sections.first?.isRevealed == true)
        #expect(watch.frame(now: clock.now).sections.first?.remaining == nil)
    }

    @Test func theBellRingsOnceForEachRevealItSaw() {
        var session = Session(now: clock.now)
        var watch = terminal()
        session.attach(&watch, now: clock.now)
        session.take(heard("2101FCAlice"), at: clock.now, into: &watch)
        clock.advance(by: ChannelRound.listening)
        session.take(.tick, at: clock.now, into: &watch)
        session.take(.request(.pick(.five)), at: clock.now, into: &watch)
        #expect(bell.rung == 0)
        session.take(heard("210108Alice"), at: clock.now, into: &watch)
        #expect(bell.rung == 1, "the reveal")
        session.take(heard("210103Alice"), at: clock.now, into: &watch)
        session.take(.tick, at: clock.now, into: &watch)
        #expect(bell.rung == 1, "a re-vote and the ticks do not ring")
        session.take(heard("2201FCAlice"), at: clock.now, into: &watch)
        session.take(.request(.pick(.three)), at: clock.now, into: &watch)
        session.take(heard("220105Alice"), at: clock.now, into: &watch)
        #expect(bell.rung == 2, "the next round's reveal")
    }

    @Test func noBellForARoundRevealedBeforeTheWatchStarted() {
        var session = revealedBeforeTheWatch()
        var watch = terminal()
        session.attach(&watch, now: clock.now)
        #expect(watch.frame(now: clock.now).sections.first?.isRevealed == true)
        #expect(bell.rung == 0)
    }

    @Test func noBellForARoundTheRoomRevealedBeforeTheWatchStartedThoughItsCardsCameAfter() {
        var session = Session(now: clock.now)
        var early = viewer()
        session.take(heard("2101FCAlice"), at: clock.now, into: &early)
        clock.advance(by: ChannelRound.listening)
        session.take(.tick, at: clock.now, into: &early)
        session.take(heard("310105Alice"), at: clock.now, into: &early)
        var watch = terminal()
        session.attach(&watch, now: clock.now)
        #expect(watch.frame(now: clock.now).sections.first?.isRevealed == false, "my vote may be on its way: the catch-up")
        clock.advance(by: Ballot.catchUp)
        session.take(.tick, at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).sections.first?.isRevealed == true)
        #expect(bell.rung == 0, "the room had revealed it before")
    }

    @Test func theBoardShowsTheSessionsChannelWithItsTitleAndTimer() {
        var session = Session(now: clock.now)
        var watch = terminal(board: true)
        session.take(.request(.join(channel: nil, name: nil, observing: true)), at: clock.now, into: &watch)
        session.take(.request(.round(title: "ABC-1", timer: Countdown(seconds: 90))), at: clock.now, into: &watch)
        session.attach(&watch, now: clock.now)
        session.take(heard("2101FCAlice"), at: clock.now, into: &watch)
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

    @Test func theRelaysOutageIsTheTablesNoticeAndTheBoardsHeaderUntilItIsBack() {
        var session = Session(now: clock.now)
        var watch = terminal()
        session.attach(&watch, now: clock.now)
        session.take(.relay("mqtt://b:1883/r starting"), at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).notice == nil, "starting is no outage")
        let down = clock.now
        let lost = ControlRequest.relay(state: "mqtt://b:1883/r reconnecting (connection refused)", connected: false)
        session.take(.request(lost), at: down, into: &watch)
        clock.advance(by: .seconds(90))
        session.take(.request(lost), at: clock.now, into: &watch)
        let notice = "relay down since \(LocalTime.clock(down))"
        #expect(watch.frame(now: clock.now).notice == notice, "since the first report, not the latest")
        var table = TableRenderer(color: false)
        let lines = table.lines(watch.frame(now: clock.now), size: TerminalSize(columns: 80, rows: 24))
        #expect(lines.contains(" " + notice), "\(lines)")
        #expect(watch.board(now: clock.now).notice == notice)
        let board = BoardRenderer(color: false).lines(watch.board(now: clock.now), size: TerminalSize(columns: 80, rows: 24))
        #expect(board.first?.hasPrefix(" channel 1 · \(notice)") == true, "\(board)")
        session.take(.request(.relay(state: "mqtt://b:1883/r connected", connected: true)), at: clock.now, into: &watch)
        #expect(watch.frame(now: clock.now).notice == nil && watch.board(now: clock.now).notice == nil)
    }

    @Test func myOwnAdvertisementHeardBackIsNoRow() {
        var session = Session(now: clock.now)
        var watch = viewer()
        session.attach(&watch, now: clock.now)
        _ = events()
        session.take(heard("0101FCMe"), at: clock.now, into: &watch)
        #expect(events().isEmpty)
        #expect(watch.frame(now: clock.now).sections.first?.rows.count == 1)
    }

    /// A watch without a session: its listening room's lines, for every
    /// channel; heard without a strength, so that the floor (RoomFloorTests)
    /// takes each sender at its first reception.
    private func listen(_ room: inout ListeningRoom, _ watch: inout WatchViewer, _ localName: [UInt8], at address: String) {
        let heard = Heard(localName: localName, rssi: nil, advertiser: Advertiser(address: address, isDiscoverable: true))
        for line in room.hear(heard, now: clock.now) { watch.apply(line) }
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
        var room = ListeningRoom(staleAfter: .seconds(6), open: true)
        var watch = viewer(attached: false)
        listen(&room, &watch, Array("010108Al".utf8), at: "4A:00:00:00:00:01")
        // Alex's iPhone, also `Al`, waits until Alice's is heard again: two phones at once.
        listen(&room, &watch, Array("010105Al".utf8), at: "5B:00:00:00:00:02")
        clock.advance(by: .milliseconds(500))
        listen(&room, &watch, Array("010108Al".utf8), at: "4A:00:00:00:00:01")
        listen(&room, &watch, Array("0101FE".utf8) + [0xEC, 0xA0], at: "6C:00:00:00:00:03")
        #expect(namesAndCards() == [#""name":"Al" "card":"8""#, #""name":"Al" "card":"5""#, #""name":"" "card":"coffee""#])
        let rows = watch.frame(now: clock.now).sections.first?.rows ?? []
        #expect(rows.filter(\.isApp).map(\.mark) == [.shown(.coffee), .shown(.eight), .shown(.five)])
    }

    /// A watch without a session puts the meetings it hears together as a
    /// session does: the story and the timer on its table, per channel.
    @Test func aWatchWithoutASessionShowsTheMeetingItHears() {
        var room = ListeningRoom(staleAfter: .seconds(6), open: false)
        var watch = viewer(attached: false)
        let deadline = Timestamp(secondsSince1970: clock.now.nanosecondsSince1970 / 1_000_000_000 + 60)
        let meeting = RoundMeeting().choosing(Story(line: "ENG-7 Bell on reveal"), from: .typed).timing(deadline)
        for part in MeetingParts.encode(meeting, round: RoundNumber(wrapping: 2)) {
            let heard = Heard(localName: Array("2202FCAnn".utf8), rssi: nil, meeting: part)  // no strength: no floor
            for line in room.hear(heard, now: clock.now) { watch.apply(line) }
        }
        #expect(events().filter { $0 == "story" } == ["story", "story"], "its key, then its whole title")
        let section = watch.frame(now: clock.now).sections.first
        #expect(section?.channel == Channel(rawValue: 2) && section?.title == "ENG-7 Bell on reveal")
        #expect(section?.remaining == deadline - clock.now)
    }
}

extension ControlWatchLine {
    /// Whether a `watch` gets this line (the relay gets `heard`).
    fileprivate var isForAWatch: Bool {
        if case .heard = self { false } else { true }
    }
}
