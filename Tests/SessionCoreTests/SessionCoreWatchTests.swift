import EstimatorKit
import SessionCore
import Testing

/// What the core tells its `watch` clients (`RoomWatch`): nothing noted
/// while nobody watches, and per change the changes and the table.
@Suite struct SessionCoreWatchTests {
    /// A session whose executor wants every reception, that has heard
    /// `people` in round 1 without a card, its watchers told so far.
    private func watched(_ people: String...) -> SessionCoreHarness {
        var session = SessionCoreHarness()
        session.take(.forward(.all))
        for name in people { session.hear("2101FC" + name) }
        _ = session.core.watchLines(now: session.now)
        return session
    }

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
        var session = watched("Alice", "Bob")
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

    /// A person's change that tells a watcher nothing new is no line: a
    /// watcher never reads one event twice (a hold taken, another card
    /// still hidden); what it can see (a card shown, a leave) is a line.
    @Test func aChangeThatTellsNothingNewIsNoLine() {
        var session = watched("Alice", "Bob")
        let events = { (lines: [ControlWatchLine]) -> [String] in
            lines.compactMap { line -> String? in
                guard case let .change(json, _) = line else { return nil }
                return [json["event"]?.string, json["name"]?.string, json["card"]?.string].compactMap { $0 }.joined(separator: " ")
            }
        }
        session.hear("210105Alice")
        var (shut, open) = session.core.watchLines(now: session.now, openToo: true)
        #expect(events(shut) == ["voted Alice hidden"] && events(open) == ["card Alice 5"])
        session.hear("410105Alice")
        (shut, open) = session.core.watchLines(now: session.now, openToo: true)
        #expect(events(shut) == [] && events(open) == [], "a hold taken shows nothing new: \(shut)")
        session.hear("210108Alice")
        (shut, open) = session.core.watchLines(now: session.now, openToo: true)
        #expect(events(shut) == [], "another card, still hidden")
        #expect(events(open) == ["card Alice 8"], "shown at once: a line")
        session.hear("2101FFBob")
        (shut, open) = session.core.watchLines(now: session.now, openToo: true)
        #expect(events(shut) == ["left Bob none"] && events(open) == ["left Bob none"])
    }

    /// A script counts down as the table does: the round's timer is a line
    /// (`timer`, its deadline) when it is set or changed, and in what a
    /// watch attaching is told first; the agreement ends it with no line.
    @Test func theRoundsTimerIsALineWithItsDeadline() {
        var session = watched("Alice")
        let timers = { (lines: [ControlWatchLine]) -> [String] in
            lines.compactMap { line -> String? in
                guard case let .change(json, _) = line, json["event"]?.string == "timer" else { return nil }
                return json["deadline"]?.string ?? "null"
            }
        }
        session.ask(.round(title: "ABC-1", timer: Countdown(seconds: 120)!))
        let deadline = RFC3339.string(session.now + .seconds(120))
        #expect(timers(session.core.watchLines(now: session.now).shut) == [deadline])
        #expect(timers(session.core.watchLines(now: session.now).shut) == [], "told once")
        #expect(timers(session.core.watchCatchUp(now: session.now)) == [deadline], "and to a watch attaching")
        session.ask(.settle(.five))
        #expect(timers(session.core.watchLines(now: session.now).shut) == [], "the settle ends it")
    }
}
