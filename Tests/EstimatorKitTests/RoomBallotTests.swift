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

    /// `seals`: my radio changes without going deaf, so my vote is sealed.
    init(observing: Bool = false, listeningSince start: Timestamp = t0, seals: Bool = false) {
        room.seals = seals
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
    @Test func theLastVoteRevealsWhenNobodyHoldsTheReveal() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "210105Me", "Alice, who has not voted, holds the room by her own FC")
        #expect(room.marks == ["Me": .hidden, "Alice": .waiting])
        do {
            let revealed = room.hear("210108Alice")
            #expect(revealed)
        }
        #expect(room.sent == "310105Me", "revealed: 3R")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
        #expect(room.tally.stats.votes == 2 && room.tally.stats.median == 6.5)
    }

    @Test func aVoterHeardThroughMyRelayAloneIsHeldForByMe() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.hear("2101FCRemy", relayed: true)  // a remote teammate: only my relay brings him
        room.pick(.five)
        #expect(room.sent == "410105Me", "the laptops of the room cannot hear Remy: I hold the reveal")
        room.hear("210108Alice")
        #expect(!room.tally.isRevealed, "Remy has not voted")
        do {
            let revealed = room.hear("210103Remy", relayed: true)
            #expect(revealed)
        }
        #expect(room.sent == "310105Me")
    }

    @Test func aVoterHeardOverTheAirIsNotHeldFor() {
        var room = Ballot()
        room.hear("2101FCAlice")
        room.hear("2101FCRemy", relayed: true)
        room.hear("2101FCRemy")  // and over the air: both
        room.pick(.five)
        #expect(room.sent == "210105Me", "Remy holds the room by his own packets")
    }

    @Test func aVoterOnlyAnotherSessionHearsHoldsTheRevealThroughIt() {
        var room = Ballot()
        room.hear("410108Alice")  // Alice voted, and holds for someone only her relay brings
        room.pick(.five)
        #expect(!room.tally.isRevealed, "Alice holds the reveal")
        do {
            let revealed = room.hear("210108Alice")
            #expect(revealed, "Alice no longer holds it")
        }
    }

    @Test func aRevealHeardRevealsHereWithNoLeader() {
        var room = Ballot()
        room.hear("210108Alice")
        room.hear("2101FCBob")
        room.pick(.five)
        do {
            let revealed = room.hear("310108Alice")
            #expect(revealed, "Alice's laptop revealed (estimator reveal)")
        }
        #expect(room.sent == "310105Me")
        #expect(room.tally.waitingFor.map(\.name) == ["Bob"], "revealed without Bob")
        #expect(room.marks["Bob"] == .waiting)
    }

    @Test func aRevealHeardWaitsForTheVoteItsLaptopHeardFirst() {
        var room = Ballot()
        room.hear("210108Bob")
        room.hear("010103Phone")  // the app, heard before the round began: its 3 does not count
        _ = room.room.startNext(title: nil, now: room.now)
        room.hear("220105Bob")
        room.pick(.five)
        room.hear("320105Bob")  // Bob heard the phone's new card first, and revealed
        #expect(!room.tally.isRevealed, "the phone's vote is on its way: the cards wait for it")
        #expect(room.sent == "320105Me", "the room decided: on the air at once")
        room.hear("010108Phone")
        #expect(room.tally.isRevealed && room.tally.waitingFor.isEmpty)
    }

    @Test func aRevealByTheLastVoteHeardShowsWithoutTheAbsentAfterTheCatchUp() {
        var room = Ballot()
        room.hear("2101FCCy")
        room.pick(.five)
        room.hear("3101F9Olga")  // Olga's laptop heard a vote from Cy that is on its way here
        #expect(!room.tally.isRevealed)
        room.now = room.now + EstimatorKit.Ballot.catchUp
        #expect(room.tally.isRevealed && room.tally.waitingFor.map(\.name) == ["Cy"])
    }

    @Test func aRevealOnDemandHeardShowsAtOnce() {
        var room = Ballot()
        room.hear("2101FCCy")
        room.pick(.five)
        do {
            let revealed = room.hear("5101F9Olga")  // the observer ran `estimator reveal`
            #expect(revealed)
        }
        #expect(room.tally.isRevealed && room.tally.waitingFor.map(\.name) == ["Cy"], "nobody's vote is awaited: no catch-up")
        #expect(room.sent == "510105Me", "passed on as on demand, so laptops that missed Olga show at once too")
    }

    @Test func aRevealOnDemandHeardDuringTheCatchUpEndsIt() {
        var room = Ballot()
        room.hear("2101FCCy")
        room.pick(.five)
        room.hear("3101F9Olga")
        #expect(!room.tally.isRevealed && room.sent == "310105Me")
        room.hear("510108Bob")
        #expect(room.tally.isRevealed && room.sent == "510105Me")
    }

    @Test func aRevealOnDemandOfAnEarlierRoundRevealsNothing() {
        var room = Ballot()
        room.hear("2201FCAlice")
        room.pick(.five)
        do {
            let revealed = room.hear("510108Bob")
            #expect(!revealed, "round 1 is over here")
        }
        #expect(room.sent == "220105Me")
    }

    @Test func aWatchFollowingARevealOnDemandShowsAtOnce() {
        var watch = Room()
        let now = t0 + ChannelRound.listening
        watch.enter(Room.Me(channel: channel, name: "Me", card: .five), now: t0)
        _ = watch.hear(try! Packet(decoding: "2101FCCy"), rssi: -50, relayed: false, at: now)
        let byVote = watch
        let onAir = { (text: String) in try! Packet(decoding: text) }
        _ = watch.follow(round: r(1), title: nil, revealed: true, onAir: onAir("510105Me"), in: channel, now: now)
        #expect(watch.tally(of: channel, now: now).isRevealed)
        var other = byVote
        _ = other.follow(round: r(1), title: nil, revealed: true, onAir: onAir("310105Me"), in: channel, now: now)
        #expect(!other.tally(of: channel, now: now).isRevealed, "revealed by a vote its session heard: the catch-up")
    }

    @Test func aRevealedRoundHeardWhileJoiningShowsItsCards() {
        var room = Ballot(listeningSince: t0 + ChannelRound.listening)  // just joined: still listening
        do {
            let revealed = room.hear("310108Alice")
            #expect(revealed, "the room has decided: no listening first")
        }
        #expect(room.room.round(of: channel)?.current == r(1))
        room.now = room.now + EstimatorKit.Ballot.catchUp  // I have not voted: the cards wait for the catch-up
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
        #expect(room.sent == "220105Me")
    }

    @Test func revealNowRevealsWithoutThoseWhoHaveNotVoted() {
        var room = Ballot()
        room.hear("2101FCBob")
        room.pick(.five)
        do {
            let revealed = room.room.revealNow(now: room.now)
            #expect(revealed)
        }
        #expect(room.sent == "510105Me", "revealed on demand: 5R")
        let tally = room.tally
        #expect(tally.isRevealed && tally.waitingFor.map(\.name) == ["Bob"] && tally.stats.votes == 1)
        do {
            let again = room.room.revealNow(now: room.now)
            #expect(!again, "revealed already")
        }
    }

    @Test func thereIsNothingToRevealWithoutARound() {
        var room = Ballot()
        room.hear("010105Phone")
        do {
            let revealed = room.room.revealNow(now: room.now)
            #expect(!revealed)
        }
    }

    @Test func aReVoteAfterTheRevealIsSentAsRevealed() {
        var room = Ballot()
        room.hear("210108Alice")
        room.pick(.five)
        room.pick(.eight)
        #expect(room.sent == "310108Me")
    }

    @Test func anObserverIsPresentNeverWaitedForAndCanReveal() {
        var room = Ballot(observing: true)
        room.hear("2101FCAlice")
        #expect(room.sent == "2101F9Me")
        #expect(room.marks == ["Me": .observing, "Alice": .waiting])
        #expect(room.tally.voters == 1 && room.tally.waitingFor.map(\.name) == ["Alice"])
        do {
            let revealed = room.hear("210105Alice")
            #expect(revealed, "Alice was the only voter")
        }
        #expect(room.sent == "3101F9Me")
    }

    @Test func anObserverHeardIsNoVoter() {
        var room = Ballot()
        room.hear("2101F9Olga")
        #expect(room.marks["Olga"] == .observing)
        do {
            let revealed = room.pick(.five)
            #expect(revealed, "Olga is not waited for")
        }
    }

    @Test func aStaleHolderStillHoldsUntilItLeaves() {
        var room = Ballot()
        room.hear("410108Alice")
        room.now = room.now + .seconds(7)
        _ = room.room.tick(now: room.now)
        do {
            let revealed = room.pick(.five)
            #expect(!revealed, "Alice is stale, no voter, but her relay's teammate may still be voting")
        }
        do {
            let revealed = room.hear("4101FFAlice")
            #expect(revealed, "Alice left: her hold went with her")
        }
    }

    @Test func anAppUsersCardCountsAsAVote() {
        var room = Ballot()
        room.hear("2101FCAlice")  // round 1 began here
        room.hear("010103Phone")  // the app: first heard in this round
        room.pick(.five)
        #expect(room.marks["Phone"] == .hidden)
        do {
            let revealed = room.hear("210105Alice")
            #expect(revealed)
        }
        #expect(room.marks["Phone"] == .shown(.three))
    }

    @Test func openShowsCardsAsTheyArePicked() {
        var room = Ballot()
        room.room.open = true
        room.hear("2101FCAlice")
        room.hear("2101FCBob")
        room.hear("210108Alice")
        #expect(room.marks["Alice"] == .shown(.eight) && !room.tally.isRevealed)
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
        room.hear("2101FCAlice")
        #expect(room.sent == "210105Me", "back in round 1 with my card")
    }

    @Test func leavingIsSaidAsLeaving() {
        var room = Ballot(observing: true)
        room.hear("2101FCAlice")
        room.pick(.none)
        #expect(room.sent == "2101FFMe")
    }

    // MARK: A sealed ballot (the light mode)

    @Test func aSealedVoteSaysThatIVotedNeverWhatUntilTheReveal() {
        var room = Ballot(seals: true)
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "2101FBMe", "voted, sealed: my 5 stays on my laptop")
        #expect(room.marks == ["Me": .hidden, "Alice": .waiting])
        do {
            let revealed = room.hear("2101FBAlice")
            #expect(revealed, "Alice voted too, sealed: the last vote reveals")
        }
        #expect(room.sent == "310105Me", "at the reveal my card goes on the air")
        #expect(!room.tally.isRevealed, "Alice's card is on its way: the cards show together")
        #expect(room.marks == ["Me": .hidden, "Alice": .hidden])
        room.hear("310108Alice")
        #expect(room.tally.isRevealed)
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
        #expect(room.tally.stats.votes == 2 && room.tally.stats.median == 6.5)
    }

    @Test func aSealedCardNotHeardByTheCatchUpShowsAsAVoteWithoutItsCard() {
        var room = Ballot(seals: true)
        room.hear("2101FBAlice")
        room.pick(.five)
        #expect(room.sent == "310105Me")
        room.now = room.now + EstimatorKit.Ballot.catchUp - .milliseconds(1)
        #expect(!room.tally.isRevealed)
        room.now = room.now + .milliseconds(1)
        #expect(room.tally.isRevealed)
        #expect(room.marks == ["Me": .shown(.five), "Alice": .hidden], "her vote counts; her card never came")
        #expect(room.tally.voted == 2 && room.tally.stats.votes == 1)
        room.hear("310108Alice")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)], "it shows when it comes")
    }

    @Test func aRevealOnDemandAwaitsSealedCardsButNobodysVote() {
        var room = Ballot(seals: true)
        room.hear("2101FBAlice")
        room.hear("2101FCBob")
        room.pick(.five)
        #expect(room.sent == "2101FBMe")
        let revealed = room.room.revealNow(now: room.now)
        #expect(revealed)
        #expect(room.sent == "510105Me")
        #expect(!room.tally.isRevealed, "Alice's card is on its way")
        room.hear("310108Alice")
        #expect(room.tally.isRevealed, "Bob, who has not voted, is awaited by nobody")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight), "Bob": .waiting])
    }

    @Test func aReVoteAfterTheRevealIsSentInClear() {
        var room = Ballot(seals: true)
        room.hear("2101FCAlice")
        room.pick(.five)
        room.hear("2101FBAlice")
        #expect(room.sent == "310105Me")
        room.pick(.three)
        #expect(room.sent == "310103Me")
    }

    @Test func someoneJoiningARevealedRoundSeesItsCards() {
        var room = Ballot(seals: true)
        room.hear("310108Alice")
        room.hear("310103Bob")
        room.now = room.now + EstimatorKit.Ballot.catchUp
        #expect(room.tally.isRevealed, "I have not voted: the catch-up, as without seals")
        #expect(room.marks == ["Me": .waiting, "Alice": .shown(.eight), "Bob": .shown(.three)])
    }

    @Test func anOpenRoomAnObserverAndTheAppsFormAreNotSealed() {
        var open = Ballot(seals: true)
        open.room.open = true
        open.hear("2101FCAlice")
        open.pick(.five)
        #expect(open.sent == "210105Me", "--open: the app's behaviour, card in clear")

        var observer = Ballot(observing: true, seals: true)
        observer.hear("2101FCAlice")
        #expect(observer.sent == "2101F9Me")

        var noRound = Ballot(seals: true)
        noRound.pick(.five)
        #expect(noRound.sent == "010105Me", "no round: the app's form, as the app sends it")
    }

    @Test func aSessionInClearCountsASealedVoteAndAwaitsItsCard() {
        var room = Ballot()
        room.hear("2101FBAlice")
        #expect(room.marks == ["Me": .waiting, "Alice": .hidden])
        room.pick(.five)
        #expect(room.sent == "310105Me", "a strict session's card is in clear; Alice's sealed vote is a vote")
        #expect(!room.tally.isRevealed)
        room.hear("310108Alice")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
    }
}
