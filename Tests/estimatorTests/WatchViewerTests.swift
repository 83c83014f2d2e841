import EstimatorKit
import Testing

@testable import estimator

/// `watch` as a value: its feed's lines and ticks in, on a manual clock,
/// and the JSON lines it writes out.
@Suite struct WatchViewerTests {
    private final class Written: @unchecked Sendable { var lines: [String] = [] }

    private let clock = ManualClock()
    private let written = Written()

    private func viewer(open: Bool = false) -> WatchViewer {
        let written = written
        return WatchViewer(channel: nil, attached: true, adapter: "hci0", json: true, open: open, staleAfter: .seconds(6),
                           output: .json, clock: clock, write: { written.lines.append($0) })
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
        watch.apply(settled)
        #expect(events() == [], "the same estimate again is no event")
        watch.apply(me(.waiting, round: 2))
        #expect(events() == ["round"])
        #expect(watch.frame(now: clock.now).sections.first?.agreed == nil, "a new round has none")
    }

    @Test func myOwnAdvertisementHeardBackIsNoRow() {
        var watch = viewer()
        watch.apply(me(.waiting))
        watch.apply(heard("2101FCMe"))
        #expect(events().isEmpty)
        #expect(watch.frame(now: clock.now).sections.first?.rows.count == 1)
    }
}
