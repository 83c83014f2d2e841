import DBusTestSupport
import EstimatorKit
import Radio
import RadioScheduling
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(2))) struct SessionTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    @Test func startAdvertisesNoCardYet() async throws {
        let session = try makeSession()
        try await session.start()
        #expect(radio.isRunning)
        #expect(radio.advertised.map { String(decoding: $0, as: UTF8.self) } == ["0101FC전수열"])
    }

    @Test func startFailureIsReported() async throws {
        radio.failNextStart(with: .adapterPoweredOff("hci0"))
        let session = try makeSession()
        await #expect(throws: RadioError.adapterPoweredOff("hci0")) { try await session.start() }
        #expect(!radio.isRunning)
    }

    @Test func pickUpdatesTheAdvertisedLocalName() async throws {
        let session = try makeSession()
        try await session.start()
        let reply = await session.handle(.pick(.thirteen))
        #expect(reply == ControlReply(exitCode: 0, message: "picked 13"))
        await session.updatesDone()
        #expect(lastAdvertised() == "01010D전수열")
        _ = await session.handle(.pick(.coffee))
        await session.updatesDone()
        #expect(lastAdvertised() == "0101FE전수열")
        #expect(await session.status.card == .coffee)
    }

    @Test func pickIsAnsweredOnceOnTheAirAndTheLastPickWins() async throws {
        let session = try makeSession()
        try await session.start()
        let watched = Lines()
        await session.addWatcher { watched.append($0) }
        radio.holdUpdates()
        let one = Task { await session.handle(.pick(.one)) }
        await radio.updateHeld()
        let taken = watched.all.count
        let two = Task { await session.handle(.pick(.two)) }
        await watched.wait(count: taken + 1)  // its me line: the session took it
        let three = Task { await session.handle(.pick(.three)) }
        await watched.wait(count: taken + 2)
        radio.releaseUpdates()
        #expect(await one.value == ControlReply(exitCode: 0, message: "picked 1"), "answered once the radio let it through")
        #expect(await two.value == ControlReply(exitCode: 0, message: "picked 2"), "carried by the update of 3")
        #expect(await three.value == ControlReply(exitCode: 0, message: "picked 3"))
        await session.updatesDone()
        #expect(radio.advertised.map { String(decoding: $0, as: UTF8.self) } == ["0101FC전수열", "010101전수열", "010103전수열"],
                "one update at a time; the picks made meanwhile collapse into the last")
        #expect(radio.mostConcurrentUpdates == 1)
    }

    @Test func switchChannelAndName() async throws {
        let session = try makeSession()
        try await session.start()
        _ = await session.handle(.pick(.five))
        let reply = await session.handle(.join(channel: 200, name: nil))
        #expect(reply.exitCode == 0)
        #expect(reply.message == "joined channel 200 as 전수열 on hci0 (session pid 4242)")
        await session.updatesDone()
        #expect(lastAdvertised() == "01C805전수열", "the card is kept across a switch")
        _ = await session.handle(.join(channel: nil, name: "Christopher Robin"))
        await session.updatesDone()
        #expect(lastAdvertised() == "01C805Christopher", "cut to 12 bytes, no space left at the end")
    }

    /// `join --observer` on a running session switches it live, as a new
    /// channel does: it observes on the air and takes no pick; `join --voter`
    /// brings the vote back with the card it held.
    @Test func joinObserverThenVoterSwitchesTheRoleLive() async throws {
        let session = try makeSession()
        try await session.start()
        _ = await session.handle(.pick(.five))
        let observing = await session.handle(.join(channel: nil, name: nil, observing: true))
        #expect(observing.message == "joined channel 1 as 전수열, observing, on hci0 (session pid 4242)")
        await session.updatesDone()
        #expect(lastAdvertised() == "0101F9전수열", "observing, the card off the air")
        #expect(await session.status.observing)
        let pick = await session.handle(.pick(.eight))
        #expect(pick.exitCode == 64)
        #expect(pick.message == "You are observing, so you have no card; `estimator join --voter` to vote.")
        let voting = await session.handle(.join(channel: nil, name: nil, observing: false))
        #expect(voting.message == "joined channel 1 as 전수열 on hci0 (session pid 4242)")
        await session.updatesDone()
        #expect(lastAdvertised() == "010105전수열", "a voter again, with the card held before")
        #expect(await !session.status.observing)
    }

    @Test func refusedUpdateIsReportedWithItsCode() async throws {
        let session = try makeSession()
        try await session.start()
        radio.failUpdates(with: .accessDenied("not allowed"))
        let reply = await session.handle(.pick(.two))
        #expect(reply == ControlReply(exitCode: 0, message: "picked 2; on the air once the radio is back ("
            + RadioError.accessDenied("not allowed").description + ")"), "the radio refused the update")
        await session.updatesDone()
        #expect(await session.status.radio == RadioError.accessDenied("not allowed").description)
        radio.failUpdates(with: nil)
        radio.report(.available)
        let listening = Task { await session.listen() }
        let watched = Lines()
        await session.addWatcher { watched.append($0) }
        await watched.wait(count: 3)
        #expect(await session.status.radio == "advertising and scanning", "recovered when the radio is back")
        #expect(lastAdvertised() == "010102전수열", "with the card picked while refused")
        await clock.leave(session)
        await listening.value
    }

    @Test func badNameIsRefusedAndNothingChanges() async throws {
        let session = try makeSession()
        try await session.start()
        let before = radio.advertised
        for bad in ["", "   ", "a\u{1B}[2Jb", "bidi\u{202E}x"] {
            let reply = await session.handle(.join(channel: 9, name: bad))
            #expect(reply.exitCode == 65)
        }
        #expect(radio.advertised == before)
        #expect(await session.channel == Channel(rawValue: 1))
    }

    /// Leaves `session`, moving the clock through its leave broadcast.
    @Test func leaveBroadcastsNoneForASecondThenStops() async throws {
        let session = try makeSession()
        try await session.start()
        _ = await session.handle(.pick(.eight))
        let leaving = Task { await session.handle(.leave) }
        await clock.waitForSleepers()
        #expect(lastAdvertised() == "0101FF전수열", "card none goes out first, as an update")
        #expect(radio.isRunning && radio.isScanning)
        clock.advance(by: .milliseconds(500))
        await clock.waitForSleepers()
        #expect(radio.isRunning, "and stays on the air during the broadcast")
        #expect(!radio.isScanning, "half way, scanning stops: advertising starts again and stays")
        let status = await session.handle(.status)
        #expect(status.exitCode == 0 && status.status?.leaving == true, "a session leaving is no session gone: \(status)")
        let join = await session.handle(.join(channel: 2, name: "Bob"))
        #expect(join.exitCode == 75 && join.status?.leaving == true, "a join waits for the end: \(join)")
        let second = Task { await session.handle(.leave) }
        clock.advance(by: .milliseconds(499))
        #expect(radio.isRunning)
        clock.advance(by: .milliseconds(1))
        #expect(await leaving.value == ControlReply(exitCode: 0, message: "left channel 1"))
        #expect(await second.value == ControlReply(exitCode: 0, message: "left channel 1"), "a second leave awaits the same end")
        #expect(!radio.isRunning)
        await session.ended()
        #expect(await session.handle(.pick(.one)).exitCode == 69, "nothing after leaving")
        #expect(lastAdvertised() == "0101FF전수열")
    }

    @Test func heardPeersAreCountedInMyChannelOnly() async throws {
        let session = try makeSession()
        try await session.start()
        let listening = Task { await session.listen() }
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        radio.hear(localName: Array("010208Bob".utf8), rssi: -60)
        radio.hear(localName: Array("010108전수열".utf8), rssi: -40)  // my own, heard back
        radio.hear(localName: Array("zz\u{1B}[2J".utf8), rssi: nil)  // not a packet
        await clock.leave(session)
        await listening.value
        let table = await session.table
        #expect(table.peers.map(\.name).sorted() == ["Alice", "Bob", "전수열"])
        #expect(await session.status.peers == 1, "Alice: Bob is in channel 2, and I am not my own peer")
    }

    @Test func staleTicksRunOnTheInjectedClock() async throws {
        let (session, listening, watched) = try await watchedSession(name: "Me", room: Room(staleAfter: .seconds(6)))
        let ticking = Task { await session.tick() }
        let seen = Flag()
        await session.onChange { seen.set() }
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        await watched.wait(count: 3)  // heard, so observed at the clock's start
        #expect(await session.table.peers.first?.isStale == false)
        await clock.ticks(13)
        let alice = try #require(await session.table.peers.first)
        #expect(alice.isStale, "6.5 s without a sighting")
        #expect(seen.isSet)
        await clock.leave(session, sleeping: 2)  // the tick sleeps too
        await listening.value
        await ticking.value
    }

    /// Alone, once the room is heard, nothing but a reception or a request
    /// changes the room: the tick sleeps `idleTick`, and the first change
    /// wakes it back to its half second.
    @Test func aRoomWithNothingTimeChangesTicksSeldomUntilSomethingChanges() async throws {
        let (session, listening, watched) = try await watchedSession(name: "Me", room: Room(staleAfter: .seconds(6)))
        let ticking = Task { await session.tick() }
        let changes = Lines()
        await session.onChange { _ = changes.append("changed") }
        await clock.ticks(8)
        let heard = clock.elapsed
        #expect(heard == ChannelRound.listening)
        #expect(clock.deadlines == [heard + RadioSchedule.standard.idleTick], "nobody to turn stale: one wake in 5 s")
        let seen = changes.all.count
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        await watched.wait(count: 3)
        await changes.wait(count: seen + 1)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [heard + RadioSchedule.standard.tick], "Alice turns stale with time: every tick again")
        await clock.ticks(13)
        #expect(await session.table.peers.first?.isStale == true, "6.5 s after her sighting, on time")
        await clock.leave(session, sleeping: 2)
        await listening.value
        await ticking.value
    }

    /// A peer heard over the air and quiet for 2 s is looked for again at
    /// each tick, until it is heard (then not) or stale (then not either).
    @Test func aQuietPeerIsLookedForAgainUntilHeardOrStale() async throws {
        let (session, listening, watched) = try await watchedSession(name: "Me", room: Room(staleAfter: .seconds(6)))
        let ticking = Task { await session.tick() }
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        await watched.wait(count: 3)
        await clock.ticks(3)
        #expect(radio.lookedAgain == 0, "1.5 s: a peer heard at every restart is never this quiet")
        await clock.ticks(1)
        #expect(radio.lookedAgain == 1, "2 s")
        await clock.ticks(2)
        #expect(radio.lookedAgain == 3, "once a tick")
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        await watched.wait(count: 4)
        await clock.ticks(3)
        #expect(radio.lookedAgain == 3, "heard again")
        await clock.ticks(9)
        #expect(radio.lookedAgain == 11, "2 s to 6 s after the last sighting: 8 ticks")
        #expect(await session.table.peers.first?.isStale == true)
        await clock.ticks(2)
        #expect(radio.lookedAgain == 11, "stale: the restarts go back to their pace")
        await clock.leave(session, sleeping: 2)
        await listening.value
        await ticking.value
    }

    @Test func aLateWatcherStartsFromTheTablesAndTheRelayFromThePeersHeard() async throws {
        let (session, listening, early) = try await watchedSession()
        radio.hear(localName: Array("010105Alice".utf8), rssi: -50)
        await early.wait(count: 3)  // the session has taken Alice in
        let late = Lines(views: true), relay = Lines()
        await session.addWatcher { late.append($0) }
        await session.addWatcher(airOnly: true) { relay.append($0) }
        let lines = try late.all.map { try ControlWatchLine(parsing: Array($0.utf8)) }
        #expect(lines.count == 4, "me, the radio, Alice joined, the table: \(late.all)")
        #expect(late.all[2].hasPrefix(#"{"change":{"event":"joined","channel":1,"round":null,"name":"Alice","card":"hidden""#))
        guard case let .table(table) = lines.last else {
            Issue.record("no table: \(late.all)")
            return
        }
        #expect(table.tally.entries.map(\.name) == ["전수열", "Alice"] && table.tally.voted == 1 && table.signals.last?.rssi == -50)
        #expect(try ControlWatchLine(parsing: Array(relay.all[2].utf8)) == .heard(localName: Array("010105Alice".utf8), rssi: -50))
        radio.report(.unavailable(.adapterNotFound("hci0")))
        await early.wait(count: 4)  // the radio's loss is taken in: leaving broadcasts nothing
        await session.leave()
        await listening.value
    }

    @Test func theRelayGetsWhatIsHeardAndAWatchWhatItDecided() async throws {
        let (session, listening, watched) = try await watchedSession()
        let relay = Lines()
        await session.addWatcher(airOnly: true) { relay.append($0) }
        let hostile: [UInt8] = Array("0101".utf8) + [0x1B, 0xFF, 0x00, 0x0A]
        radio.hear(localName: hostile, rssi: -70)
        radio.hear(localName: Array("010105Alice".utf8), rssi: -60)
        await relay.wait(count: 4)
        #expect(try ControlWatchLine(parsing: Array(relay.all[2].utf8)) == .heard(localName: hostile, rssi: -70), "passed on as sent")
        await watched.wait(count: 3)
        #expect(try ControlWatchLine(parsing: Array(watched.all[2].utf8))
            == .seen(WatchSighting(id: PeerID(channel: Channel(rawValue: 1), name: "Alice"), rssi: -60, heard: .air)),
            "no line of what is no packet")
        radio.report(.unavailable(.adapterNotFound("hci0")))
        let leaving = Task { await session.leave() }
        await leaving.value  // no broadcast while the radio is gone: nothing to wait for
        await listening.value
    }
}

/// Lines a watcher received, awaitable by count. The tables and changes a
/// `watch` draws are left out: these suites follow what the session says
/// of itself and of each reception (`me`, `seen`, `heard`, `radio`,
/// `ended`); WatchViewerTests and the command-line tests draw the rest.
/// With `views`, they are kept too. The latest table of each channel is
/// kept aside either way, for what a watch shows of the round (`table(of:)`).
final class Lines: Sendable {
    private let kept = Collected<String>()
    /// The latest table streamed, per channel.
    private let tables = Mutex<[UInt8: WatchTable]>([:])
    private let views: Bool

    init(views: Bool = false) { self.views = views }

    func append(_ line: String) -> Bool {
        let isTable = line.hasPrefix(#"{"table":"#)
        if isTable {
            // A table that does not read back fails the test that streamed it.
            guard case let .table(table)? = try? ControlWatchLine(parsing: Array(line.utf8)) else {
                Issue.record("a table line that does not read back: \(line)")
                return true
            }
            tables.withLock { $0[table.channel.rawValue] = table }
        }
        if views || !isTable && !line.hasPrefix(#"{"change":"#) { kept.append(line) }
        return true
    }

    var all: [String] { kept.all }

    /// The latest table of `channel` streamed.
    func table(of channel: UInt8 = 1) -> WatchTable? { tables.withLock { $0[channel] } }

    func wait(count: Int) async { await kept.wait(count: count) }

    /// Returns once a line kept satisfies `isWanted` (`Collected.wait(until:)`).
    func wait(until isWanted: (String) -> Bool) async { await kept.wait(until: isWanted) }
}

final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
