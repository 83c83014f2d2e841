import EstimatorKit
import Radio
import RadioScheduling
import Testing

/// The session's recovery after a radio loss (`RadioRestarts`): each order
/// of losses, signs of recovery, refusals and retries, on the test clock.
/// SessionFaultTests runs one through the built binary and the fake
/// bluetoothd.
@Suite(.timeLimit(.minutes(2))) struct SessionRecoveryTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    @Test func radioLossIsReportedAndRecoveredWithTheCurrentName() async throws {
        let (session, listening, watched) = try await watchedSession()
        radio.report(.unavailable(.bluetoothdAbsent))
        await watched.wait(count: 3)
        #expect(await session.status.radio == RadioError.bluetoothdAbsent.description)
        let reply = await session.handle(.pick(.three))
        #expect(reply.exitCode == 0)
        #expect(reply.message.hasPrefix("picked 3; on the air once the radio is back"))
        radio.report(.available)
        await watched.wait(count: 5)
        #expect(lastAdvertised() == "010103전수열", "re-registered with the card picked meanwhile")
        #expect(await session.status.radio == "advertising and scanning")
        await clock.leave(session)
        await listening.value
        let lines = watched.all.map { try? ControlWatchLine(parsing: Array($0.utf8)) }
        #expect(lines.first == .me(channel: 1, name: "전수열", adapter: "hci0", onAir: Array("0101FC전수열".utf8)))
        #expect(lines.contains(.radio(RadioError.bluetoothdAbsent.description)))
        #expect(lines.contains(.me(channel: 1, name: "전수열", adapter: "hci0", onAir: Array("010103전수열".utf8))))
        #expect(lines.last == .ended("left channel 1"))
    }

    @Test func severalSignsOfRecoveryRestartTheRadioOnce() async throws {
        let (session, listening, watched) = try await watchedSession()
        // Events are handled in order: a sighting after them says they were.
        let marker = Array("010105Bob".utf8)
        radio.report(.available)  // while working: nothing to do
        radio.hear(localName: marker, rssi: nil)
        await watched.wait(count: 3)
        #expect(radio.advertised.count == 1, "no restart while the radio works")

        radio.report(.unavailable(.bluetoothdAbsent))
        radio.report(.available)  // bluetoothd back
        radio.report(.available)  // its adapter back
        radio.hear(localName: marker, rssi: nil)
        await watched.wait(count: 6)
        #expect(radio.advertised.count == 2, "one restart for one loss")
        #expect(await session.status.radio == "advertising and scanning")
        await clock.leave(session)
        await listening.value
    }

    /// A loss, then a start BlueZ refuses as the radio comes back: the
    /// session's fourth watched line says so, and a try is due.
    private func refuseARestart(_ watched: Lines) async {
        radio.report(.unavailable(.bluetoothdAbsent))
        radio.failNextStart(with: .failed("Failed to register advertisement"))
        radio.report(.available)
        await watched.wait(count: 4)
    }

    @Test func aRefusedRestartIsTriedAgain() async throws {
        let (session, listening, watched) = try await watchedSession()
        await refuseARestart(watched)
        #expect(await session.status.radio == RadioError.failed("Failed to register advertisement").description)
        await clock.waitForSleepers()  // the retry's
        clock.advance(by: RadioSchedule.standard.restartRetry)
        await watched.wait(count: 5)
        #expect(await session.status.radio == "advertising and scanning")
        #expect(radio.advertised.count == 2)
        await clock.leave(session)
        await listening.value
    }

    /// A second sign of recovery for one loss (bluetoothd back, then its
    /// adapter) refused while a try is due replaces that try: one chain of
    /// tries, not two.
    @Test func aSecondRefusalReplacesTheTryDue() async throws {
        let (session, listening, watched) = try await watchedSession()
        let retry = RadioSchedule.standard.restartRetry
        await refuseARestart(watched)
        await clock.waitForSleepers()  // the first try's
        clock.advance(by: retry / 2)
        radio.failNextStart(with: .failed("Failed to register advertisement"))
        radio.report(.available)
        await watched.wait(count: 5)
        await clock.waitForSleepers()
        #expect(clock.deadlines == [retry / 2 + retry], "the second refusal's try alone")
        clock.advance(by: retry)
        await watched.wait(count: 6)
        #expect(await session.status.radio == "advertising and scanning")
        #expect(radio.advertised.count == 2)
        await clock.leave(session)
        await listening.value
    }

    /// A restart under way when a new loss is reported (here a retry,
    /// which runs beside the radio's events) is not cancelled halfway, and
    /// describes a radio that is gone by the time it returns: the session
    /// starts once more, and the loss stands while that start is refused.
    @Test func aLossWhileARestartRunsOutlivesThatRestart() async throws {
        let (session, listening, watched) = try await watchedSession()
        await refuseARestart(watched)
        radio.holdStarts()
        await clock.waitForSleepers()  // the retry's
        clock.advance(by: RadioSchedule.standard.restartRetry)
        await radio.startHeld()
        radio.report(.unavailable(.adapterPoweredOff("hci0")))
        await watched.wait(count: 5)
        radio.failNextStart(with: .adapterPoweredOff("hci0"))
        radio.releaseStarts()
        await watched.wait(count: 6)
        try #require(await session.status.radio == RadioError.adapterPoweredOff("hci0").description)
        radio.report(.available)  // powered on
        await watched.wait(count: 7)
        #expect(await session.status.radio == "advertising and scanning")
        #expect(radio.advertised.count == 3)
        await clock.leave(session)
        await listening.value
    }

    @Test func aFailureNothingWillAnnounceTheEndOfIsRestartedAtOnce() async throws {
        let (session, listening, watched) = try await watchedSession()
        // As when a discovery restart fails and ends the discovery.
        radio.report(.unavailable(.failed("Operation already in progress")))
        await watched.wait(count: 4)  // the problem, then the radio back
        #expect(radio.advertised.count == 2)
        #expect(await session.status.radio == "advertising and scanning")
        await clock.leave(session)
        await listening.value
    }
}
