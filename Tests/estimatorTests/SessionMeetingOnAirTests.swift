import EstimatorKit
import Radio
import SessionCore
import SessionDaemon
import Testing

/// The meeting's transport in the session (docs/PROTOCOL.md, Meeting): its
/// parts on the air beside the local name once there is a round, its whole
/// in the `me` line the relay publishes, and what comes with a reception
/// handed to the core.
@Suite(.timeLimit(.minutes(2))) struct SessionMeetingOnAirTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()

    @Test func theMeetingGoesOnTheAirOnceThereIsARound() async throws {
        let (session, listening, lines) = try await watchedSession(name: "Ann")
        #expect(radio.advertisedParts == [[]], "no round, nothing to carry")
        #expect(lines.all.first?.contains(#""meeting":"""#) == true)

        _ = await session.handle(.round(title: nil))
        await session.updatesDone()
        let round = try #require(await session.round.current)
        let meeting = await session.meeting
        #expect(radio.advertisedParts.last == MeetingParts.encode(meeting, round: round))
        #expect(radio.advertisedParts.last?.last?.first == round.value, "part 0 last, of this round")

        let whole = Hex.text(RelayPayload.encodeMeeting(meeting, round: round))
        #expect(lines.all.last { $0.hasPrefix(#"{"me""#) }?.contains(#""meeting":"\#(whole)""#) == true,
                "the relay's meeting in the me line")
        await clock.leave(session)
        await listening.value
    }

    /// A meeting the room told me rides with my next announcement: no
    /// change of my advertisement for it, and the relay publishes it.
    @Test func aMeetingHeardRidesWithTheNextAnnouncement() async throws {
        let (session, listening, lines) = try await watchedSession(name: "Ann")
        _ = await session.handle(.relayed(payload: Array("2201FCRemy".utf8)))
        // The reception's batch: Remy's round 2 is mine, on the air.
        let roundTwo = { (line: String) -> Bool in
            guard case let .me(_, _, _, _, onAir, _, _, _)? = try? ControlWatchLine(parsing: Array(line.utf8)) else { return false }
            return (try? Packet(decoding: onAir))?.round == RoundNumber(wrapping: 2)
        }
        await lines.wait(until: roundTwo)
        await session.updatesDone()
        let changes = radio.advertisedParts.count
        let told = RoundMeeting().choosing(Story(line: "ABC-9 Ride along"), from: .typed)
        let whole = RelayPayload.encodeMeeting(told, round: RoundNumber(wrapping: 2))
        _ = await session.handle(.relayed(payload: Array("2201FCRemy".utf8) + [0] + whole))
        // The reception's batch ends with the `me` line that carries it.
        let published = #""meeting":"\#(Hex.text(whole))""#
        await lines.wait(until: { $0.hasPrefix(#"{"me""#) && $0.contains(published) })
        await session.updatesDone()
        #expect(await session.meeting == told)
        #expect(radio.advertisedParts.count == changes, "no change of its own")
        #expect(radio.rodeParts.last == MeetingParts.encode(told, round: RoundNumber(wrapping: 2)))
        await clock.leave(session)
        await listening.value
    }

    /// A reception hands the core the part that came with the local name.
    @Test func aReceptionCarriesItsPartToTheCore() {
        let part: [UInt8] = [0x1A, 0x45, 0x4E, 0x47, 0x2D, 0x37]
        let heard = Heard(Reception(localName: Array("2A0105Bob".utf8), rssi: -50, received: .zero, part: part))
        #expect(heard.meeting == part && heard.localName == Array("2A0105Bob".utf8) && !heard.relayed)
        #expect(Heard(Reception(localName: Array("010105Bob".utf8), received: .zero)).meeting == [])
    }

    /// A relayed payload is split: the local name joins the table as any
    /// other, whatever meeting follows it.
    @Test func aRelayedPayloadIsSplitAtItsFirstNul() async throws {
        let session = try makeSession(name: "Ann")
        try await session.start()
        let whole = RelayPayload.encodeMeeting(RoundMeeting(), round: RoundNumber(wrapping: 2))
        _ = await session.handle(.relayed(payload: Array("220105Remy".utf8) + [0] + whole))
        _ = await session.handle(.relayed(payload: Array("220108Rita".utf8) + [0, 0xFF, 0x00]))
        #expect(await session.table.peers(in: Channel(rawValue: 1)).map(\.name) == ["Remy", "Rita"])
    }
}
