import EstimatorKit
import RadioScheduling
import SessionDaemon
import Testing

/// A session given no channel finds its room (docs/PROTOCOL.md, Finding a
/// room) on the injected clock: `join`'s answer waits for the choice.
@Suite(.timeLimit(.minutes(2))) struct SessionRoomTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    @Test func theAnswerWaitsForTheRoomChosenAfterTheListeningAndConfirmed() async throws {
        let session = Session(adapter: "hci0", channel: nil, name: try PersonName.parse("전수열").name, radio: radio,
                              clock: clock, pid: 4242, loop: testLoop)
        try await session.start()
        #expect(lastAdvertised()?.hasPrefix("02") == true, "choosing from the start: \(lastAdvertised() ?? "")")
        let listening = Task { await session.listen() }
        let ticking = Task { await session.tick() }
        let answer = Task { await session.chosenRoom() }
        // Ann's room is being set up; she announces again and again.
        radio.hear(localName: Array("0309FCAnn".utf8), rssi: -50)
        await clock.ticks(6)
        radio.hear(localName: Array("0309FCAnn".utf8), rssi: -50)
        await clock.ticks(5)
        #expect(lastAdvertised()?.hasPrefix("02") == true, "5.5 s: still choosing")
        await clock.ticks(1)
        #expect(await session.channel == Channel(rawValue: 9), "6 s: chosen")
        await session.updatesDone()
        #expect(lastAdvertised() == "0309FC전수열", "03 in the room found")
        // Confirmed for 3 s, then the answer.
        await clock.ticks(6)
        let choice = await answer.value
        #expect(choice == RoomChoice(channel: Channel(rawValue: 9), reason: .settingUp(with: [PeerID(channel: Channel(rawValue: 9), name: "Ann")])))
        #expect(await session.status.settingUpUntil != nil)
        await clock.leave(session, sleeping: 2)
        await listening.value
        await ticking.value
    }

    @Test func aSessionGivenItsChannelAnswersAtOnce() async throws {
        let session = try makeSession()
        try await session.start()
        #expect(await session.chosenRoom() == nil)
        #expect(lastAdvertised() == "0101FC전수열")
    }
}
