import EstimatorKit
import Testing

private let channel = Channel(rawValue: 1)
private let t0 = Timestamp(secondsSince1970: 1_790_000_000)
private func r(_ n: Int) -> RoundNumber { RoundNumber(wrapping: n) }

/// One participant's room, `You` in channel 1, heard packet by packet.
private struct Heard {
    var room = Room()
    var now = t0 + ChannelRound.listening

    init() { room.enter(Room.Me(channel: channel, name: "You", card: .waiting), now: t0) }

    /// My name and card; setting it picks the card.
    var me: (name: String, card: Card) {
        get { (room.me!.name, room.me!.card) }
        set { room.pick(newValue.card, now: now) }
    }

    var round: ChannelRound { room.round(of: channel)! }

    @discardableResult
    mutating func hear(_ name: String, _ card: Card, round: RoundNumber? = nil) -> RoundState.Change? {
        now = now + .milliseconds(100)
        let packet = Packet(version: round.map(Packet.Version.round) ?? .v01, channel: channel, card: card, name: name)
        return room.hear(packet, rssi: -50, relayed: false, at: now).rounds.last?.change
    }

    /// The passage of time up to `now`; the changes of round it brought.
    mutating func tick() -> [RoundState.Change] { room.tick(now: now).rounds.map(\.change) }

    mutating func startNext(title: String?) -> RoundState.Change? { room.startNext(title: title, now: now) }

    mutating func tally(open: Bool = false) -> Tally {
        _ = tick()
        room.open = open
        return room.tally(of: channel, now: now)
    }

    mutating func marks() -> [String: Tally.Mark] {
        Dictionary(uniqueKeysWithValues: tally().entries.map { ($0.name, $0.mark) })
    }
}

@Suite struct BallotTests {
    @Test func everyonePresentIsARowAndNobodyHasVotedYet() {
        var room = Heard()
        room.hear("Alice", .waiting, round: r(1))
        room.hear("Bob", .waiting, round: r(1))
        let tally = room.tally()
        #expect(tally.entries.map(\.name) == ["You", "Alice", "Bob"])
        #expect(tally.entries.allSatisfy { $0.mark == .waiting })
        #expect(tally.voters == 3 && tally.voted == 0 && !tally.isRevealed)
        #expect(tally.waitingFor.map(\.name) == ["Alice", "Bob", "You"])
    }

    @Test func votesStayHiddenUntilTheLastOneThenAllShowTogether() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        room.hear("Bob", .waiting, round: r(1))
        room.me = ("You", .eight)
        #expect(room.marks() == ["You": .hidden, "Alice": .hidden, "Bob": .waiting])
        #expect(room.tally().waitingFor.map(\.name) == ["Bob"])
        room.hear("Bob", .three, round: r(1))
        let tally = room.tally()
        #expect(tally.isRevealed)
        #expect(room.marks() == ["You": .shown(.eight), "Alice": .shown(.five), "Bob": .shown(.three)])
        #expect(tally.stats.highestAlone?.name == "You" && tally.stats.lowestAlone?.name == "Bob")
    }

    @Test func aRevealedRoundStaysRevealedAndShowsReVotesLive() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        room.me = ("You", .five)  // after the round began here, which cleared my card
        #expect(room.tally().isRevealed)
        room.hear("Alice", .eight, round: r(1))
        room.hear("Carol", .waiting, round: r(1))
        #expect(room.tally().isRevealed, "a newcomer does not hide the cards again")
        #expect(room.marks()["Alice"] == .shown(.eight))
        #expect(room.marks()["Carol"] == .waiting)
    }

    @Test func aStalePeerIsNoVoterAndItsCardDoesNotCount() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        room.me = ("You", .five)  // after the round began here, which cleared my card
        room.hear("Gone", .hundred, round: r(1))
        room.hear("Late", .waiting, round: r(1))
        // Late and Gone fall silent; Alice is heard again.
        room.now = room.now + .seconds(7)
        _ = room.tick()
        room.hear("Alice", .five, round: r(1))
        let tally = room.tally()
        #expect(tally.voters == 2 && tally.isRevealed)
        #expect(tally.stats.isConsensus && tally.stats.votes == 2, "the stale 100 is not counted")
    }

    @Test func nothingIsRevealedBeforeTheRoomHasBeenHeard() {
        var room = Heard()
        room.now = t0 + .seconds(1)
        room.me = ("You", .eight)
        #expect(!room.tally().isRevealed, "a pick at once after join is not everyone's")
        room.now = t0 + ChannelRound.listening
        #expect(room.tally().isRevealed)
    }

    @Test func aNewRoundHidesAgainAndPeersStillInTheLastOneHaveNotVoted() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        room.me = ("You", .five)  // after the round began here, which cleared my card
        #expect(room.tally().isRevealed)
        #expect(room.startNext(title: "ABC-2") == .began(r(2)))
        room.me = ("You", .waiting)
        #expect(!room.tally().isRevealed)
        #expect(room.marks()["Alice"] == .waiting, "her 5 is from the last story")
        room.hear("Alice", .eight, round: r(2))
        #expect(room.marks()["Alice"] == .hidden)
    }

    @Test func aLaterRoundHeardBeginsItHere() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        room.me = ("You", .five)  // after the round began here, which cleared my card
        #expect(room.hear("Alice", .waiting, round: r(2)) == .began(r(2)))
        #expect(room.round.current == r(2) && !room.tally().isRevealed)
    }

    @Test func anAppUserIsAVoterWhoseCardFromTheLastStoryDoesNotCount() {
        var room = Heard()
        room.me = ("You", .five)
        room.hear("Phone", .five)  // the app: no round
        #expect(room.tally().isRevealed, "the app user's card counts")
        _ = room.startNext(title: nil)
        room.me = ("You", .three)
        #expect(room.marks()["Phone"] == .waiting, "still the 5 of the last story")
        #expect(!room.tally().isRevealed, "the reveal waits for the app user")
        room.hear("Phone", .three)
        #expect(room.tally().isRevealed)
        #expect(room.marks()["Phone"] == .shown(.three))
    }

    @Test func anAppUserRevotingTheSameCardLeavesAndComesBack() {
        var room = Heard()
        room.me = ("You", .five)
        room.hear("Phone", .five)
        _ = room.startNext(title: nil)
        room.hear("Phone", .none)  // the app's card screen closes
        room.hear("Phone", .five)  // and opens on the same card
        room.me = ("You", .five)
        #expect(room.tally().isRevealed)
        #expect(room.marks()["Phone"] == .shown(.five))
    }

    @Test func joiningARoundUnderWayCountsTheVotesAlreadyCast() {
        var room = Heard()
        room.now = t0  // just joined: still listening
        room.hear("Phone", .eight)
        #expect(room.hear("Alice", .five, round: r(4)) == .joined(r(4)))
        room.now = t0 + ChannelRound.listening
        room.me = ("You", .five)
        #expect(room.tally().isRevealed)
        #expect(room.marks()["Phone"] == .shown(.eight))
    }

    @Test func openShowsCardsBeforeTheReveal() {
        var room = Heard()
        room.hear("Alice", .five, round: r(1))
        let tally = room.tally(open: true)
        #expect(!tally.isRevealed)
        #expect(tally.entries.first { $0.name == "Alice" }?.mark == .shown(.five))
    }

    @Test func afterAJumpOfTheClockNothingIsRevealedUntilTheRoomIsHeardAgain() {
        var room = Heard()
        room.me = ("You", .five)
        room.hear("Alice", .waiting, round: r(1))
        _ = room.tick()
        room.now = room.now + .seconds(40)
        #expect(room.tick() == [.suspended], "Alice went stale meanwhile")
        #expect(!room.tally().isRevealed, "alone after the jump is not everyone")
        #expect(room.hear("Alice", .waiting, round: r(1)) == .resumed(r(1)))
        room.now = room.now + .seconds(1)
        #expect(!room.tally().isRevealed)
    }
}

@Suite struct FirstRoundTests {
    @Test func theFirstRoundStartedInARoomWithoutRoundsClearsEveryonesCard() {
        // Everyone has been in the room a while, voting without rounds.
        var bob = ChannelRound(listeningFrom: t0)
        var table = PeerTable()
        let now = t0 + .seconds(30)
        _ = table.observe(PeerSighting(channel: channel, name: "Alice", card: .five, rssi: -50, time: now))
        // Alice runs `estimator round`: her packets now carry round 1.
        let events = table.observe(PeerSighting(channel: channel, name: "Alice", card: .waiting,
                                                round: r(1), rssi: -50, time: now + .seconds(1)))
        #expect(bob.observe(events, peers: table.peers) == .began(r(1)), "Bob clears his card too")
    }

    @Test func aRoundHeardWhileStillListeningIsJoinedAsItRuns() {
        var newcomer = ChannelRound(listeningFrom: t0)
        var table = PeerTable()
        let events = table.observe(PeerSighting(channel: channel, name: "Alice", card: .five, round: r(6), rssi: -50,
                                                time: t0 + .seconds(1)))
        #expect(newcomer.observe(events, peers: table.peers) == .joined(r(6)))
    }
}
