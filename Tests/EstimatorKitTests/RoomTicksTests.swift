import EstimatorKit
import Testing

private let channel = Channel(rawValue: 1)
private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

/// When time alone changes the room (`Room.needsTicks`): a session ticks
/// every half second then, and seldom otherwise.
@Suite struct RoomTicksTests {
    private func room(at start: Timestamp = t0) -> Room {
        var room = Room(staleAfter: .seconds(6), dropAfter: .seconds(30))
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting, observing: false), now: start)
        return room
    }

    private func hear(_ localName: String, in room: inout Room, at time: Timestamp) {
        _ = room.hear(try! Packet(decoding: localName), rssi: -50, relayed: false, at: time)
    }

    @Test func aRoomAloneNeedsTicksOnlyWhileItIsBeingHeard() {
        var room = room()
        #expect(room.needsTicks(now: t0), "hearing the room ends by time")
        #expect(room.needsTicks(now: t0 + ChannelRound.listening - .milliseconds(1)))
        _ = room.tick(now: t0 + ChannelRound.listening)
        #expect(!room.needsTicks(now: t0 + ChannelRound.listening), "nobody heard, nothing waits")
        _ = room.pick(.five, now: t0 + .seconds(5))
        #expect(!room.needsTicks(now: t0 + .seconds(5)), "my own card changes nothing time decides")
    }

    @Test func aPeerNeedsTicksUntilItIsDropped() {
        var room = room()
        hear("010105Alice", in: &room, at: t0 + .seconds(5))
        #expect(room.needsTicks(now: t0 + .seconds(5)), "Alice turns stale with time")
        _ = room.tick(now: t0 + .seconds(12))
        #expect(room.table.peers.first?.isStale == true)
        #expect(room.needsTicks(now: t0 + .seconds(12)), "and is dropped with time")
        _ = room.tick(now: t0 + .seconds(36))
        #expect(room.table.isEmpty)
        #expect(!room.needsTicks(now: t0 + .seconds(36)))
    }

    @Test func aRevealsCatchUpWaitsOnlyForAPeerInTheTable() {
        var room = room()
        let now = t0 + ChannelRound.listening
        hear("2101FCCy", in: &room, at: now)
        _ = room.pick(.five, now: now)
        hear("3101F9Olga", in: &room, at: now)  // Olga's laptop heard Cy's vote first
        #expect(!room.tally(of: channel, now: now).isRevealed, "the cards wait for Cy's vote, or the catch-up")
        #expect(room.needsTicks(now: now))
        hear("3101FFOlga", in: &room, at: now)
        hear("2101FFCy", in: &room, at: now)  // both leave
        #expect(room.table.isEmpty)
        #expect(room.tally(of: channel, now: now).isRevealed, "nobody left to wait for: no time is needed")
        #expect(!room.needsTicks(now: now))
    }

    @Test func aJumpOfTheClockNeedsTicksUntilTheRoomIsHeardAgain() {
        var room = room()
        _ = room.tick(now: t0 + ChannelRound.listening)
        #expect(!room.needsTicks(now: t0 + ChannelRound.listening))
        let back = t0 + ChannelRound.listening + RoundState.wakeGap + .seconds(1)
        _ = room.tick(now: back)
        #expect(room.needsTicks(now: back), "suspended: time resumes the round")
        _ = room.tick(now: back + RoundState.rejoinWindow)
        #expect(room.needsTicks(now: back + RoundState.rejoinWindow), "then the room is heard anew")
        _ = room.tick(now: back + RoundState.rejoinWindow + ChannelRound.listening)
        #expect(!room.needsTicks(now: back + RoundState.rejoinWindow + ChannelRound.listening))
    }
}
