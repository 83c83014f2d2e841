import DBusTestSupport
import EstimatorKit
import SessionCore
import SessionDaemon
import Synchronization
import Testing

/// The session in a round: rounds heard and started, the reveal reported
/// for the history, and a jump of the clock, on an injected radio and clock.
@Suite(.timeLimit(.minutes(2))) struct SessionRoundTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    private func hear(_ localName: String, then watched: Lines, count: Int) async {
        radio.hear(localName: Array(localName.utf8), rssi: -50)
        await watched.wait(count: count)
    }

    private func end(_ session: Session, _ listening: Task<Void, Never>) async {
        await clock.leave(session)
        await listening.value
    }

    @Test func aRoundHeardIsJoinedWithMyCardAndALaterOneClearsIt() async throws {
        let (session, listening, watched) = try await watchedSession()
        _ = await session.handle(.pick(.five))
        await session.updatesDone()
        #expect(lastAdvertised() == "010105전수열", "no round heard yet: the app's version")
        // me, radio, me (the pick); then heard + me for each round change.
        await hear("2301FCAlice", then: watched, count: 5)
        await session.updatesDone()
        #expect(lastAdvertised() == "230105전수열", "joined round 3 as it runs: the card stays")
        #expect(await session.card == .five)
        await hear("2401FCAlice", then: watched, count: 7)
        await session.updatesDone()
        #expect(lastAdvertised() == "2401FC전수열", "round 4 began: my card went back to waiting")
        #expect(await session.card == .waiting)
        await hear("2301FCBob", then: watched, count: 8)
        #expect(await session.round.current == RoundNumber(wrapping: 4), "an earlier round is ignored")
        await end(session, listening)
    }

    @Test func startingTheNextRoundClearsMyCardAndKeepsTheTitle() async throws {
        let (session, listening, _) = try await watchedSession()
        _ = await session.handle(.pick(.eight))
        let reply = await session.handle(.round(title: "ABC-1"))
        #expect(reply == ControlReply(exitCode: 0, message: "round 1 (ABC-1) began in channel 1; cards cleared"))
        await session.updatesDone()
        #expect(lastAdvertised() == "2101FC전수열")
        let status = await session.status
        #expect(status.round == RoundNumber(wrapping: 1) && status.title == "ABC-1" && status.card == .waiting)
        #expect(await session.handle(.round(title: nil)).message == "round 2 began in channel 1; cards cleared")
        await end(session, listening)
    }

    @Test func theRevealIsReportedOnceAndEveryReVoteAfterIt() async throws {
        let (session, listening, watched) = try await watchedSession()
        let reports = Collected<RevealedRound>()
        await session.onReveal { reports.append($0) }
        clock.advance(by: ChannelRound.listening)
        await hear("2101FCAlice", then: watched, count: 3)
        _ = await session.handle(.pick(.five))
        #expect(reports.all.isEmpty, "Alice has not voted")
        radio.hear(localName: Array("210108Alice".utf8), rssi: -50)
        // The report follows the reception's lines to the watchers: awaited itself.
        await reports.wait(count: 1)
        var all = reports.all
        #expect(all.count == 1)
        #expect(all.first?.votes == ["전수열": .five, "Alice": .eight])
        #expect(all.first?.round == RoundNumber(wrapping: 1))
        _ = await session.handle(.pick(.eight))
        all = reports.all
        #expect(all.count == 2 && all.last?.votes == ["전수열": .eight, "Alice": .eight], "the re-vote updates the round")
        #expect(all.last?.revealedAt == all.first?.revealedAt, "the same round's record")
        _ = await session.handle(.pick(.eight))
        #expect(reports.all.count == 2, "the same card again is no change")
        await end(session, listening)
    }

    @Test func onARadioThatChangesWhileScanningMyVoteIsSealedUntilTheReveal() async throws {
        radio.changesWhileScanning = true
        let (session, listening, watched) = try await watchedSession()
        let reports = Collected<RevealedRound>()
        await session.onReveal { reports.append($0) }
        clock.advance(by: ChannelRound.listening)
        await hearOne("2101FCAlice", watched: watched)
        _ = await session.handle(.pick(.five))
        await session.updatesDone()
        #expect(lastAdvertised() == "2101FB전수열", "voted, sealed: the 5 stays here")
        #expect(!radio.advertised.contains { String(decoding: $0, as: UTF8.self).hasPrefix("210105") })
        #expect(radio.keptListening.isEmpty)
        await hearOne("2101FBAlice", watched: watched)
        await session.updatesDone()
        #expect(lastAdvertised() == "310105전수열", "the last vote revealed: my card goes on the air")
        #expect(reports.all.isEmpty, "Alice's card is still sealed")
        #expect(radio.keptListening == [Ballot.catchUp], "no scan restart while her card comes, asked once")
        radio.hear(localName: Array("310108Alice".utf8), rssi: -50)
        await reports.wait(count: 1)
        #expect(reports.all.first?.votes == ["전수열": .five, "Alice": .eight])
        #expect(radio.keptListening == [Ballot.catchUp])
        await end(session, listening)
    }

    /// A reveal heard from a laptop that heard the last vote first: my
    /// table waits for that vote, and the radio keeps listening for it.
    @Test func aRevealHeardKeepsTheRadioListeningForTheLastVote() async throws {
        radio.changesWhileScanning = true
        let (session, listening, watched) = try await watchedSession()
        clock.advance(by: ChannelRound.listening)
        await hearOne("2101FCAlice", watched: watched)
        _ = await session.handle(.pick(.five))
        await session.updatesDone()
        #expect(radio.keptListening.isEmpty)
        await hearOne("3101F9Olga", watched: watched)
        await session.updatesDone()
        #expect(lastAdvertised() == "310105전수열", "the room revealed: my card goes on the air")
        #expect(radio.keptListening == [Ballot.catchUp], "no scan restart while Alice's vote comes")
        await end(session, listening)
    }

    @Test func onAStrictRadioMyVoteIsInClear() async throws {
        let (session, listening, watched) = try await watchedSession()
        clock.advance(by: ChannelRound.listening)
        await hearOne("2101FCAlice", watched: watched)
        _ = await session.handle(.pick(.five))
        await session.updatesDone()
        #expect(lastAdvertised() == "210105전수열")
        await end(session, listening)
    }

    /// Hears `localName` and waits for its watch line: the session has
    /// acted on it by the next call it answers.
    private func hearOne(_ localName: String, watched: Lines) async {
        let count = watched.all.count
        radio.hear(localName: Array(localName.utf8), rssi: -50)
        await watched.wait(count: count + 1)
    }

    @Test func aPickAtOnceAfterJoiningRevealsNothingBeforeTheRoomIsHeard() async throws {
        let (session, listening, _) = try await watchedSession()
        let reports = Mutex(0)
        await session.onReveal { _ in reports.withLock { $0 += 1 } }
        _ = await session.handle(.pick(.five))
        #expect(reports.withLock { $0 } == 0)
        await end(session, listening)
    }

    @Test func aClockJumpWithdrawsMyRoundAndCardUntilTheRoomIsHeard() async throws {
        let (session, listening, watched) = try await watchedSession()
        let ticking = Task { await session.tick() }
        await hear("2301FCAlice", then: watched, count: 4)
        _ = await session.handle(.pick(.five))
        await session.updatesDone()
        #expect(lastAdvertised() == "230105전수열")
        await clock.ticks(1)  // the first tick notes the time
        clock.advance(by: .seconds(40))  // SIGSTOP, or a lid closed
        await clock.waitForSleepers()
        await session.updatesDone()
        #expect(lastAdvertised() == "0101FC전수열", "no round claimed and no card shown while the room is unknown")
        #expect(await session.card == .five, "the card is kept meanwhile")
        // me, radio, heard, me (joined), me (pick), me (suspended); then heard and me (resumed).
        await hear("2301FCAlice", then: watched, count: 8)
        await session.updatesDone()
        #expect(lastAdvertised() == "230105전수열")
        #expect(await session.round.current == RoundNumber(wrapping: 3), "the same round: back with the card")
        await clock.leave(session, sleeping: 2)  // the tick sleeps too
        await listening.value
        await ticking.value
    }
}

/// Two people with one name in one channel are one row: the session says so.
@Suite(.timeLimit(.minutes(2))) struct SessionNameTakenTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    /// A card picked while the radio was refused goes on the air with the
    /// restart: forwarded back to me through the relay, it is my own
    /// advertisement, not another Ann.
    @Test func myNameAdvertisedByARestartIsMine() async throws {
        let (session, listening, watched) = try await watchedSession(name: "Ann")
        await watched.wait(count: 2)
        radio.failUpdates(with: .accessDenied("not allowed"))
        _ = await session.handle(.pick(.two))
        await session.updatesDone()
        _ = await session.handle(.pick(.three))  // the radio is in trouble: on the air once it is back
        radio.failUpdates(with: nil)
        radio.report(.available)
        await watched.wait(count: 6)
        #expect(lastAdvertised() == "010103Ann", "the restart advertises the card picked meanwhile")
        _ = await session.handle(.relayed(payload: Array("010103Ann".utf8)))
        #expect(await !session.isNameTaken)
        await clock.leave(session)
        await listening.value
    }

    @Test func myNameHeardWithAnotherPacketIsSomeoneElse() async throws {
        let (session, listening, watched) = try await watchedSession(name: "Ann")
        _ = await session.handle(.relayed(payload: Array("0101FCAnn".utf8)))  // my own, forwarded back
        #expect(await !session.isNameTaken)
        radio.hear(localName: Array("010108Ann".utf8), rssi: -60)  // another Ann, with an 8
        await watched.wait(count: 5)
        #expect(await session.isNameTaken)
        #expect(await session.status.nameTaken)
        let me = try ControlWatchLine(parsing: Array(watched.all[4].utf8))
        #expect(me == .me(channel: 1, name: "Ann", adapter: "hci0", nameTaken: true, onAir: Array("0101FCAnn".utf8)))
        let renamed = await session.handle(.join(channel: nil, name: "Ann"))
        #expect(renamed.message.hasSuffix("someone here is already called Ann, so one of you is hidden: give yourself another name with --name"))
        radio.hear(localName: Array("010105Bob".utf8), rssi: -60)
        await watched.wait(count: 7)
        #expect(await session.handle(.join(channel: nil, name: "Bob")).message.contains("already called Bob"))
        #expect(await !session.handle(.join(channel: nil, name: "Cy")).message.contains("already called"))
        await clock.leave(session)
        await listening.value
    }
}
