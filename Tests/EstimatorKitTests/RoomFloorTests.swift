import EstimatorKit
import Testing

private let channel = BallotRoom.channel
private let t0 = BallotRoom.t0

/// The signal floor in the room (`Room.hear`): someone heard only faintly,
/// as through a wall, is nearby, out of the room.
@Suite struct RoomFloorTests {
    /// Me in a room whose floor reaches `range`.
    private func room(_ range: SignalRange = .room) -> BallotRoom {
        var room = BallotRoom()
        room.room.range = range
        return room
    }

    /// Hears `localName` at `rssi` for a little over a second, a reception
    /// every 100 ms: long enough for the floor to find someone above it.
    private func hearForASecond(_ localName: String, rssi: Int, in room: inout BallotRoom) {
        for _ in 0...10 { room.hear(localName, rssi: rssi) }
    }

    @Test func aNeighbourHeardFaintlyIsNotInTheRoom() {
        var room = room()
        hearForASecond("2101FCAlice", rssi: -60, in: &room)
        hearForASecond("2101FCNed", rssi: -97, in: &room)
        #expect(room.room.peers(in: channel).map(\.name) == ["Alice"])
        #expect(room.marks.keys.sorted() == ["Alice", "Me"], "Ned is in no tally")
        #expect(room.room.view(of: channel, now: room.now).outOfRoom == 1)
    }

    @Test func aNeighbourMovesNoRoundAndRevealsNothing() {
        var room = room()
        hearForASecond("2101FCAlice", rssi: -60, in: &room)
        room.pick(.five)
        hearForASecond("2201FCNed", rssi: -97, in: &room)  // the team next door starts its round 2
        #expect(room.room.round(of: channel)?.current == RoundNumber(wrapping: 1))
        #expect(room.sent == "210105Me", "my card stays")
        hearForASecond("310108Ned", rssi: -97, in: &room)  // and reveals a round 1 of theirs
        #expect(!room.tally.isRevealed)
        let revealed = room.hear("210103Alice", rssi: -60)
        #expect(revealed, "Alice's vote, the last one, reveals")
    }

    @Test func aNeighbourNeverHoldsTheRevealNorIsWaitedFor() {
        var room = room()
        hearForASecond("2101FCAlice", rssi: -60, in: &room)
        hearForASecond("4101FCNed", rssi: -97, in: &room)  // holding, with no vote
        room.pick(.five)
        #expect(room.sent == "210105Me", "I hold for nobody")
        let revealed = room.hear("210103Alice", rssi: -60)
        #expect(revealed)
        #expect(room.tally.waitingFor.isEmpty)
    }

    @Test func oneReadingFindsNobodyAndASecondAboveDoes() {
        var room = room()
        room.hear("2101FCAlice", rssi: -80)
        #expect(room.room.table.isEmpty, "one reading")
        hearForASecond("2101FCAlice", rssi: -80, in: &room)
        #expect(room.room.peers(in: channel).map(\.name) == ["Alice"])
    }

    @Test func aFarVoterInsideTheFloorStillHoldsTheReveal() {
        var room = room()
        hearForASecond("2101FCAlice", rssi: -60, in: &room)
        hearForASecond("2101FCFay", rssi: -86, in: &room)  // the far end of a big room: in, but faint
        #expect(room.marks.keys.sorted() == ["Alice", "Fay", "Me"])
        room.pick(.five)
        #expect(room.sent == "410105Me", "Alice's laptop may not hear Fay: I hold the reveal")
    }

    @Test func aPeerTheFloorLosesLeavesTheTableAndTheRound() {
        var room = room()
        hearForASecond("2101FCAlice", rssi: -60, in: &room)
        hearForASecond("2101FCBob", rssi: -60, in: &room)
        room.pick(.five)
        room.hear("210103Alice", rssi: -60)
        #expect(!room.tally.isRevealed, "Bob has not voted")
        // Bob walks down the corridor and stays heard faintly.
        var left: [PeerEvent] = []
        for _ in 0..<215 {
            room.now = room.now + .milliseconds(100)
            let update = room.room.hear(try! Packet(decoding: "2101FCBob"), rssi: -100, relayed: false, at: room.now)
            left += update.events.filter { $0.kind == .left }
            if !left.isEmpty { #expect(update.revealed.contains(channel), "nobody left to wait for"); break }
        }
        #expect(left.map(\.name) == ["Bob"])
        #expect(room.room.table[PeerID(channel: channel, name: "Bob")] == nil)
        #expect(room.room.view(of: channel, now: room.now).outOfRoom == 1, "nearby, out of the room")
        #expect(room.tally.isRevealed)
    }

    @Test func theFooterCountIsOfThoseHeardLately() {
        var room = room()
        let first = room.room.hear(try! Packet(decoding: "2101FCNed"), rssi: -99, relayed: false, at: room.now)
        #expect(first.counted == [channel], "a table to draw again")
        room.hear("2101FCOda", rssi: -99)
        #expect(room.room.view(of: channel, now: room.now).outOfRoom == 2)
        #expect(room.room.needsTicks(now: room.now), "the count goes with time")
        let quiet = room.room.tick(now: room.now + .seconds(7))
        #expect(quiet.counted == [channel])
        #expect(!room.room.needsTicks(now: room.now + .seconds(7)))
        #expect(room.room.view(of: channel, now: room.now + .seconds(7)).outOfRoom == 0, "not heard for the stale time")
    }

    @Test func aWiderRangeTakesInWhoTheNarrowOneKeptOut() {
        var room = room(.near)
        hearForASecond("2101FCAlice", rssi: -75, in: &room)
        #expect(room.room.table.isEmpty, "beyond a desk")
        room.room.range = .hall
        hearForASecond("2101FCAlice", rssi: -75, in: &room)
        #expect(room.room.peers(in: channel).map(\.name) == ["Alice"])
    }

    @Test func aRoomWithoutARadiosStrengthCountsEveryoneHeard() {
        var room = room()
        room.hear("2101FCAlice", rssi: nil)
        room.hear("2101FCRemy", relayed: true)
        #expect(room.room.peers(in: channel).map(\.name) == ["Alice", "Remy"])
    }
}
