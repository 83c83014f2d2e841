import EstimatorKit
import SessionDaemon
import Testing

/// The timer (`round --timer`, `reveal --in`) on the session's injected
/// clock: it reveals the round as `estimator reveal` does when it runs out,
/// its deadline is in the watch stream, and a new round or a reveal ends it.
@Suite(.timeLimit(.minutes(2))) struct SessionTimerTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()
    private let twoMinutes = Countdown(seconds: 120)!

    /// Leaves, once every timer's wait has ended: the leave's broadcast
    /// counts the clock's sleepers.
    private func end(_ session: Session, _ listening: Task<Void, Never>) async {
        await clock.leave(session)
        await listening.value
    }

    /// The deadline a watch counts down to, as the latest table of my
    /// channel gives it: none once the cards show.
    private func countdown(_ watched: Lines) throws -> Timestamp? {
        try #require(watched.table()).remaining(now: clock.now).map { clock.now + $0 }
    }

    @Test func theTimerRevealsTheRoundForTheRoomWhenItRunsOut() async throws {
        let (session, listening, watched) = try await watchedSession()
        let start = clock.now
        let reply = await session.handle(.round(title: "ABC-1", timer: twoMinutes))
        #expect(reply.message == "round 1 (ABC-1) began in channel 1; cards cleared; the timer reveals it in 2m")
        #expect(try countdown(watched) == start + .seconds(120), "the watch stream says when")
        await clock.waitForSleepers()
        clock.advance(by: .seconds(119))
        #expect(await !session.isRevealed)
        clock.advance(by: .seconds(1))
        await session.timerDone()
        await session.updatesDone()
        #expect(await session.isRevealed)
        #expect(lastAdvertised() == "5101FC전수열", "a reveal on demand, as `estimator reveal` makes")
        #expect(try countdown(watched) == nil, "the countdown is over")
        await end(session, listening)
    }

    @Test func revealInCountsDownTheRoundUnderWay() async throws {
        let (session, listening, watched) = try await watchedSession()
        _ = await session.handle(.round(title: nil))
        let reply = await session.handle(.reveal(after: Countdown(seconds: 90)!))
        #expect(reply == ControlReply(exitCode: 0, message: "the timer reveals round 1 in channel 1 in 1m30s, unless everyone votes first"))
        #expect(try countdown(watched) == clock.now + .seconds(90))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(90))
        await session.timerDone()
        #expect(await session.isRevealed)
        await end(session, listening)
    }

    @Test func aTimerNeedsARoundStillHidden() async throws {
        let (session, listening, watched) = try await watchedSession()
        let none = await session.handle(.reveal(after: twoMinutes))
        #expect(none == ControlReply(exitCode: 64, message: "Nothing to reveal in channel 1: there is no round yet; `estimator round` starts one."))
        _ = await session.handle(.round(title: nil))
        _ = await session.handle(.reveal())
        let revealed = await session.handle(.reveal(after: twoMinutes))
        #expect(revealed.exitCode == 64 && revealed.message.contains("round 1 is revealed already"), "\(revealed.message)")
        #expect(try countdown(watched) == nil)
        await clock.leave(session)
        await listening.value
    }

    @Test func aNewRoundOrARevealStopsTheTimer() async throws {
        let (session, listening, watched) = try await watchedSession()
        _ = await session.handle(.round(title: nil, timer: twoMinutes))
        let first = await session.timerWait
        _ = await session.handle(.round(title: nil))
        #expect(try countdown(watched) == nil, "round 2 has no timer")
        #expect(clock.deadlines.isEmpty, "the timer's wait was called off")
        clock.advance(by: .seconds(120))
        await first?.value
        #expect(await !session.isRevealed, "the first round's timer reveals nothing")

        _ = await session.handle(.reveal(after: twoMinutes))
        _ = await session.handle(.reveal())
        #expect(clock.deadlines.isEmpty, "the timer's wait was called off")
        clock.advance(by: .seconds(120))
        await session.timerDone()
        _ = await session.handle(.round(title: nil))
        #expect(await !session.isRevealed, "the stopped timer did not reveal round 3")
        await end(session, listening)
    }

    @Test func aRoundBegunElsewhereStopsTheTimer() async throws {
        let (session, listening, watched) = try await watchedSession()
        _ = await session.handle(.round(title: nil, timer: twoMinutes))
        radio.hear(localName: Array("2201FCAlice".utf8), rssi: -50)
        await watched.wait(count: 5)  // me, radio, me (the round), heard, me (round 2)
        #expect(await session.round.current == RoundNumber(wrapping: 2))
        #expect(try countdown(watched) == nil)
        #expect(clock.deadlines.isEmpty, "the timer's wait was called off")
        clock.advance(by: .seconds(120))
        await session.timerDone()
        #expect(await !session.isRevealed)
        await end(session, listening)
    }

    @Test func everyoneVotingFirstRevealsAndEndsTheCountdown() async throws {
        let (session, listening, watched) = try await watchedSession()
        clock.advance(by: ChannelRound.listening)
        _ = await session.handle(.round(title: nil, timer: twoMinutes))
        radio.hear(localName: Array("2101FCAlice".utf8), rssi: -50)
        await watched.wait(count: 4)
        _ = await session.handle(.pick(.five))
        radio.hear(localName: Array("210108Alice".utf8), rssi: -50)
        await watched.wait(count: 7)
        #expect(await session.isRevealed)
        #expect(try countdown(watched) == nil)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(120))
        await session.timerDone()
        await session.updatesDone()
        #expect(lastAdvertised() == "310105전수열", "revealed by the last vote, not on demand")
        await end(session, listening)
    }
}
