import EstimatorKit
import SessionCore
import Testing

/// What the core tells its `watch` clients (`RoomWatch`): nothing noted
/// while nobody watches, and per change the changes and the table.
@Suite struct SessionCoreWatchTests {
    @Test func aSessionNobodyWatchesNotesNothing() {
        var session = SessionCoreHarness()
        session.hear("2101FCAlice")
        session.ask(.pick(.five))
        session.hear("210108Alice")
        #expect(session.core.watchLines(now: session.now, openToo: true) == ([], []), "no watch: no tally made, nothing kept")
    }

    @Test func aWatchedChangeIsItsChangesThenTheTable() {
        var session = SessionCoreHarness()
        session.take(.forward(.all))
        session.hear("2101FCAlice")
        session.ask(.pick(.five))
        _ = session.core.watchLines(now: session.now)
        let actions = session.hear("210108Alice")
        #expect(actions.contains(.stream(.seen(WatchSighting(id: PeerID(channel: SessionCoreHarness.channel, name: "Alice"),
                                                             rssi: -50, heard: .air)))))
        let lines = session.core.watchLines(now: session.now).shut
        let events = lines.compactMap { line -> String? in
            if case let .change(json, _) = line { json["event"]?.string } else { nil }
        }
        #expect(events == ["voted", "revealed"], "Alice's last vote is a vote, then the reveal: \(lines)")
        guard case let .table(table) = lines.last else {
            Issue.record("no table last: \(lines)")
            return
        }
        #expect(table.tally.isRevealed && table.tally.entries.map(\.mark) == [.shown(.five), .shown(.eight)])
        #expect(session.core.watchLines(now: session.now).shut.isEmpty, "told once")
    }

    @Test func aWatchThatShowsTheCardsGetsTablesOfItsOwn() {
        var session = SessionCoreHarness()
        session.take(.forward(.all))
        session.hear("2101FCAlice")
        session.hear("2101FCBob")
        _ = session.core.watchLines(now: session.now)
        session.hear("210105Alice")
        let (shut, open) = session.core.watchLines(now: session.now, openToo: true)
        let marks = { (lines: [ControlWatchLine]) -> [Tally.Mark]? in
            if case let .table(table) = lines.last { table.tally.entries.map(\.mark) } else { nil }
        }
        #expect(marks(shut) == [.waiting, .hidden, .waiting], "Me, Alice, Bob as the room shows them")
        #expect(marks(open) == [.waiting, .shown(.five), .waiting], "Alice's card at once")
        let card = { (lines: [ControlWatchLine]) -> String? in
            if case let .change(json, _) = lines.first { json["card"]?.string } else { nil }
        }
        #expect(card(shut) == "hidden" && card(open) == "5")
        #expect(session.core.watchCatchUp(now: session.now, open: true).contains { line in
            if case let .table(table) = line { table.tally.entries[1].mark == .shown(.five) } else { false }
        })
    }
}
