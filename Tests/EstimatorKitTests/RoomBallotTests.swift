import Testing
@testable import EstimatorKit

private let channel = Channel(rawValue: 1)
private let t0 = Timestamp(secondsSince1970: 1_790_000_000)
private func r(_ n: Int) -> RoundNumber { RoundNumber(wrapping: n) }

/// Me (`Me`, channel 1) in a room of other sessions, heard by their local
/// names (docs/PROTOCOL.md, Ballot): what I put on the air and what my
/// table shows.
private struct Ballot {
    var room = Room()
    var now = t0 + ChannelRound.listening

    init(observing: Bool = false, listeningSince start: Timestamp = t0) {
        room.enter(Room.Me(channel: channel, name: "Me", card: .waiting, observing: observing), now: start)
    }

    /// Hears one local name; returns whether it revealed the round here.
    @discardableResult
    mutating func hear(_ localName: String, relayed: Bool = false) -> Bool {
        now = now + .milliseconds(100)
        let packet = try! Packet(decoding: localName)
        return room.hear(packet, rssi: relayed ? nil : -50, relayed: relayed, at: now).revealed.contains(channel)
    }

    @discardableResult
    mutating func pick(_ card: Card) -> Bool { room.pick(card, now: now).revealed.contains(channel) }

    /// What I send, as a local name.
    var sent: String {
        let (version, card) = room.advertised(now: now)!
        return Packet(version: version, channel: channel, card: card, name: "Me").localName
    }

    var tally: Tally { room.tally(of: channel, now: now) }

    var marks: [String: Tally.Mark] { Dictionary(uniqueKeysWithValues: tally.entries.map { ($0.name, $0.mark) }) }
}

@Suite struct RoomBallotTests {
    @Test func myVoteIsSealedOnTheAirUntilTheLastVoteRevealsIt() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "2101FAMe", "voted, sealed; Alice, who has not voted, holds the room by her own FC")
        do {
            let revealed = room.hear("2101FAAlice")
            #expect(revealed, "Alice voted and says everyone she hears has; so do I, and nobody holds the reveal")
        }
        #expect(room.sent == "310105Me", "revealed: my card in clear")
        #expect(room.marks == ["Me": .hidden, "Alice": .hidden], "her card is still on her laptop: all show together")
        #expect(!room.tally.isRevealed)
        room.hear("310108Alice")
        #expect(room.tally.isRevealed)
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
        #expect(room.tally.stats.votes == 2 && room.tally.stats.median == 6.5)
    }

    @Test func theLastVoteRevealsAtOnceWhenEveryoneElseIsReady() {
        var room = Ballot()
        room.hear("2101FAAlice")
        #expect(room.sent == "2101FCMe")
        do {
            let revealed = room.pick(.three)
            #expect(revealed, "my vote is the last one")
        }
        #expect(room.sent == "310103Me")
    }

    @Test func aVoterOnlyAnotherSessionHearsHoldsTheReveal() {
        var room = Ballot()
        room.hear("2101FBAlice")  // Alice voted, and hears someone (a relay-only Remy) who has not
        room.pick(.five)
        #expect(room.sent == "2101FAMe", "everyone I hear has voted")
        #expect(!room.tally.isRevealed, "but Alice says not yet")
        do {
            let revealed = room.hear("2101FAAlice")
            #expect(revealed, "Remy voted: Alice is ready, and the room reveals")
        }
        #expect(room.sent == "310105Me")
    }

    @Test func aVoterHeardThroughMyRelayAloneIsHeldForByMe() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.hear("2101FCRemy", relayed: true)  // a remote teammate: only my relay brings him
        room.pick(.five)
        #expect(room.sent == "2101FBMe", "the laptops of the room cannot hear Remy: I hold the reveal")
        room.hear("2101FAAlice")
        #expect(!room.tally.isRevealed)
        do {
            let revealed = room.hear("2101FARemy", relayed: true)
            #expect(revealed, "Remy voted: nobody holds, and everyone I hear has voted")
        }
        #expect(room.sent == "310105Me")
    }

    @Test func aVoterHeardOverTheAirIsNotHeldFor() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.hear("2101FCRemy", relayed: true)
        room.hear("2101FCRemy")  // and over the air: both
        room.pick(.five)
        #expect(room.sent == "2101FAMe", "Remy holds the room by his own packets")
    }

    @Test func whileTheRoomIsNotHeardYetISayIHold() {
        var room = Ballot(listeningSince: t0 + ChannelRound.listening)
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "2101FBMe")
    }

    @Test func aRevealHeardRevealsHereWithNoLeader() {
        var room = Ballot()
        room.hear("2101FBAlice")
        room.hear("2101FCBob")
        room.pick(.five)
        do {
            let revealed = room.hear("310108Alice")
            #expect(revealed, "Alice's laptop revealed (estimator reveal, or its own count)")
        }
        #expect(room.sent == "310105Me")
        #expect(room.tally.waitingFor == ["Bob"], "revealed without Bob")
        #expect(room.marks["Bob"] == .waiting)
    }

    @Test func aRevealedRoundHeardWhileJoiningShowsItsCards() {
        var room = Ballot(listeningSince: t0 + ChannelRound.listening)  // just joined: still listening
        do {
            let revealed = room.hear("310108Alice")
            #expect(revealed, "the room has decided: no listening first")
        }
        #expect(room.room.round(of: channel)?.current == r(1))
        #expect(room.marks == ["Me": .waiting, "Alice": .shown(.eight)])
        #expect(room.sent == "3101FCMe")
    }

    @Test func aRevealOfAnEarlierRoundRevealsNothing() {
        var room = Ballot()
        room.hear("2201FCAlice")
        room.pick(.five)
        do {
            let revealed = room.hear("310108Bob")
            #expect(!revealed, "round 1 is over here")
        }
        #expect(room.sent == "2201FAMe")
    }

    @Test func revealNowRevealsWithoutThoseWhoHaveNotVoted() {
        var room = Ballot()
        room.hear("2101FCBob")
        room.pick(.five)
        do {
            let revealed = room.room.revealNow()
            #expect(revealed)
        }
        #expect(room.sent == "310105Me")
        let tally = room.tally
        #expect(tally.isRevealed && tally.waitingFor == ["Bob"] && tally.stats.votes == 1)
        do {
            let revealed = room.room.revealNow()
            #expect(!revealed, "revealed already")
        }
    }

    @Test func thereIsNothingToRevealWithoutARound() {
        var room = Ballot()
        room.hear("010105Phone")
        do {
            let revealed = room.room.revealNow()
            #expect(!revealed)
        }
    }

    @Test func aReVoteAfterTheRevealGoesOutInClearAtOnce() {
        var room = Ballot()
        room.hear("2101FAAlice")
        room.pick(.five)
        room.pick(.eight)
        #expect(room.sent == "310108Me")
    }

    @Test func anObserverIsPresentNeverWaitedForAndCanReveal() {
        var room = Ballot(observing: true)
        room.hear("2101FCAlice")
        #expect(room.sent == "2101F8Me", "observing; Alice holds the room by her own FC")
        #expect(room.marks == ["Me": .observing, "Alice": .waiting])
        #expect(room.tally.voters == 1 && room.tally.waitingFor == ["Alice"])
        do {
            let revealed = room.hear("2101FAAlice")
            #expect(revealed, "Alice was the only voter")
        }
        #expect(room.sent == "3101F8Me")
    }

    @Test func anObserverHeardHoldsTheRevealWhileSomeoneItHearsHasNotVoted() {
        var room = Ballot()
        room.hear("2101F9Olga")
        room.pick(.five)
        #expect(!room.tally.isRevealed && room.tally.voters == 1, "Olga is no voter, but hears someone who has not voted")
        #expect(room.marks["Olga"] == .observing)
        do {
            let revealed = room.hear("2101F8Olga")
            #expect(revealed)
        }
    }

    @Test func aStaleSessionHoldsNothing() {
        var room = Ballot()
        room.hear("2101FBAlice")
        room.now = room.now + .seconds(7)
        _ = room.room.tick(now: room.now)
        do {
            let revealed = room.pick(.five)
            #expect(revealed, "Alice is stale: neither a voter nor heard saying not yet")
        }
    }

    @Test func anAppUsersCardIsInClearAndCountsAsAVote() {
        var room = Ballot()
        room.hear("2101FCAlice")  // round 1 began here
        room.hear("010103Phone")  // the app: first heard in this round
        room.pick(.five)
        #expect(room.marks["Phone"] == .hidden, "in clear on the air, hidden on my table until the reveal")
        do {
            let revealed = room.hear("2101FAAlice")
            #expect(revealed)
        }
        room.hear("310105Alice")
        #expect(room.marks["Phone"] == .shown(.three))
    }

    @Test func openSendsMyCardInClearAsTheAppDoes() {
        var room = Ballot()
        room.room.open = true
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "210105Me")
        room.hear("210108Alice")
        #expect(room.marks["Alice"] == .shown(.eight))
    }

    @Test func withoutARoundMyCardGoesOutAsTheAppSendsIt() {
        var room = Ballot()
        room.pick(.five)
        #expect(room.sent == "010105Me")
    }

    @Test func whileTheClockJumpMakesTheRoundUncertainIClaimNothing() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.pick(.five)
        _ = room.room.tick(now: room.now)
        room.now = room.now + .seconds(40)
        _ = room.room.tick(now: room.now)
        #expect(room.sent == "0101FCMe")
        room.hear("2101FAAlice")
        #expect(room.sent == "2101FBMe", "back in round 1, sealed: the room is heard anew before I say ready")
    }

    @Test func leavingIsSaidInClear() {
        var room = Ballot(observing: true)
        room.hear("2101FCAlice")
        room.pick(.none)
        #expect(room.sent == "2101FFMe")
    }
}
