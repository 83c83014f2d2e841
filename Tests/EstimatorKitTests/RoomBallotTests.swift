import EstimatorKit
import Testing

private let channel = BallotRoom.channel
private let t0 = BallotRoom.t0
private func r(_ n: Int) -> RoundNumber { RoundNumber(wrapping: n) }

@Suite struct RoomBallotTests {
    @Test func theLastVoteRevealsWhenNobodyHoldsTheReveal() {
        var room = BallotRoom()
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
        var room = BallotRoom()
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
        var room = BallotRoom()
        room.hear("2101FCAlice")
        room.hear("2101FCRemy", relayed: true)
        room.hear("2101FCRemy")  // and over the air: both
        room.pick(.five)
        #expect(room.sent == "210105Me", "Remy holds the room by his own packets")
    }

    @Test func aVoterHeardFaintlyOverTheAirIsHeldForByMe() {
        var room = BallotRoom()
        room.hear("2101FCAlice")
        room.hear("2101FCFay", rssi: -88)  // at the far end of the room: Alice's laptop may not hear her
        room.pick(.five)
        #expect(room.sent == "410105Me", "Fay is at the edge of my range: I hold the reveal")
        room.hear("210108Alice")
        #expect(!room.tally.isRevealed, "Fay has not voted")
        #expect(room.sent == "410105Me")
        do {
            let revealed = room.hear("210103Fay", rssi: -88)
            #expect(revealed)
        }
        #expect(room.sent == "310105Me")
    }

    @Test func aVoterHeardClearlyOnceInTheWindowIsNotHeldFor() {
        var room = BallotRoom()
        room.hear("2101FCAlice")
        room.hear("2101FCFay", rssi: -60)
        room.hear("2101FCFay", rssi: -88)  // a fade: she was heard well a moment ago
        room.pick(.five)
        #expect(room.sent == "210105Me", "Fay holds the room by her own packets")
        // Heard only faintly for a whole window: at the edge of my range now.
        for _ in 0..<70 { room.hear("2101FCFay", rssi: -86) }
        #expect(room.sent == "410105Me")
        room.hear("2101FCFay", rssi: -79)
        #expect(room.sent == "210105Me", "-79 dBm is above the faint line (-80)")
    }

    @Test func aRadioWithoutStrengthsHoldsForNobodyItHears() {
        var room = BallotRoom()
        room.hear("2101FCAlice", rssi: nil)  // btvirt reports 127, "not available"
        room.pick(.five)
        #expect(room.sent == "210105Me")
    }

    @Test func aFaintVoterAlsoHeardThroughTheRelayIsHeldFor() {
        var room = BallotRoom()
        room.hear("2101FCRemy", relayed: true)
        room.hear("2101FCRemy", rssi: -90)
        room.pick(.five)
        #expect(room.sent == "410105Me", "heard both ways, but not clearly over the air")
        room.hear("2101FCRemy", rssi: -55)
        #expect(room.sent == "210105Me")
    }

    @Test func aVoterOnlyAnotherSessionHearsHoldsTheRevealThroughIt() {
        var room = BallotRoom()
        room.hear("410108Alice")  // Alice voted, and holds for someone only her relay brings
        room.pick(.five)
        #expect(!room.tally.isRevealed, "Alice holds the reveal")
        do {
            let revealed = room.hear("210108Alice")
            #expect(revealed, "Alice no longer holds it")
        }
    }

    @Test func aRevealHeardRevealsHereWithNoLeader() {
        var room = BallotRoom()
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
        var room = BallotRoom()
        room.hear("210108Bob")
        room.hear("010103Phone")  // the app, heard before the round began: its 3 does not count
        _ = room.room.startNext(title: nil, now: room.now)
        room.hear("220105Bob")
        room.pick(.five)
        #expect(room.room.cardsDue(now: room.now) == nil, "nothing revealed: no card on its way")
        room.hear("320105Bob")  // Bob heard the phone's new card first, and revealed
        #expect(!room.tally.isRevealed, "the phone's vote is on its way: the cards wait for it")
        #expect(room.sent == "320105Me", "the room decided: on the air at once")
        #expect(room.room.cardsDue(now: room.now) == room.now + EstimatorKit.Ballot.catchUp,
                "heard without a device, a peer without rounds is no app user: the radio keeps listening")
        room.hear("010108Phone")
        #expect(room.tally.isRevealed && room.tally.waitingFor.isEmpty)
        #expect(room.room.cardsDue(now: room.now) == nil, "it came")
    }

    @Test func aRevealByTheLastVoteHeardShowsWithoutTheAbsentAfterTheCatchUp() {
        var room = BallotRoom()
        room.hear("2101FCCy")
        room.pick(.five)
        room.hear("3101F9Olga")  // Olga's laptop heard a vote from Cy that is on its way here
        #expect(!room.tally.isRevealed)
        #expect(room.room.cardsDue(now: room.now) == room.now + EstimatorKit.Ballot.catchUp,
                "Cy's laptop puts his vote on the air as a new advertisement: the radio keeps listening for it")
        room.now = room.now + EstimatorKit.Ballot.catchUp
        #expect(room.tally.isRevealed && room.tally.waitingFor.map(\.name) == ["Cy"])
        #expect(room.room.cardsDue(now: room.now) == nil, "the wait is over")
    }

    @Test func aRevealOnDemandHeardShowsAtOnce() {
        var room = BallotRoom()
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
        var room = BallotRoom()
        room.hear("2101FCCy")
        room.pick(.five)
        room.hear("3101F9Olga")
        #expect(!room.tally.isRevealed && room.sent == "310105Me")
        room.hear("510108Bob")
        #expect(room.tally.isRevealed && room.sent == "510105Me")
    }

    @Test func aRevealOnDemandOfAnEarlierRoundRevealsNothing() {
        var room = BallotRoom()
        room.hear("2201FCAlice")
        room.pick(.five)
        do {
            let revealed = room.hear("510108Bob")
            #expect(!revealed, "round 1 is over here")
        }
        #expect(room.sent == "220105Me")
    }

    @Test func aRevealedRoundHeardWhileJoiningShowsItsCards() {
        var room = BallotRoom(listeningSince: t0 + ChannelRound.listening)  // just joined: still listening
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
        var room = BallotRoom()
        room.hear("2201FCAlice")
        room.pick(.five)
        do {
            let revealed = room.hear("310108Bob")
            #expect(!revealed, "round 1 is over here")
        }
        #expect(room.sent == "220105Me")
    }

    @Test func revealNowRevealsWithoutThoseWhoHaveNotVoted() {
        var room = BallotRoom()
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
        var room = BallotRoom()
        room.hear("010105Phone")
        do {
            let revealed = room.room.revealNow(now: room.now)
            #expect(!revealed)
        }
    }

    @Test func aReVoteAfterTheRevealIsSentAsRevealed() {
        var room = BallotRoom()
        room.hear("210108Alice")
        room.pick(.five)
        room.pick(.eight)
        #expect(room.sent == "310108Me")
    }

    @Test func anObserverIsPresentNeverWaitedForAndCanReveal() {
        var room = BallotRoom(observing: true)
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
        var room = BallotRoom()
        room.hear("2101F9Olga")
        #expect(room.marks["Olga"] == .observing)
        do {
            let revealed = room.pick(.five)
            #expect(revealed, "Olga is not waited for")
        }
    }

    @Test func aStaleHolderStillHoldsUntilItLeaves() {
        var room = BallotRoom()
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

    /// Through the relay a presence is handed on every 2 s while the broker
    /// keeps it: a holder heard only there who turns stale is gone (a
    /// laptop asleep with its relay), and its hold with it.
    @Test func aStaleHolderHeardOnlyThroughTheRelayHoldsNothing() {
        var room = BallotRoom()
        room.hear("410108Remy", relayed: true)
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(!room.tally.isRevealed, "Remy holds, Alice has not voted")
        room.hear("210103Alice")
        #expect(!room.tally.isRevealed, "Remy, fresh, still holds")
        room.now = room.now + .milliseconds(6500)
        room.hear("210103Alice")
        #expect(!room.tally.isRevealed, "Remy not heard for 6.5 s, not stale yet: he holds")
        room.now = room.now + .milliseconds(500)
        let update = room.room.tick(now: room.now)
        #expect(update.revealed.contains(channel) && room.tally.isRevealed,
                "Remy gone stale through the relay: his hold went with him")
    }

    @Test func anAppUsersCardCountsAsAVote() {
        var room = BallotRoom()
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
        var room = BallotRoom()
        room.room.open = true
        room.hear("2101FCAlice")
        room.hear("2101FCBob")
        room.hear("210108Alice")
        #expect(room.marks["Alice"] == .shown(.eight) && !room.tally.isRevealed)
    }

    @Test func withoutARoundMyCardGoesOutAsTheAppSendsIt() {
        var room = BallotRoom()
        room.pick(.five)
        #expect(room.sent == "010105Me")
    }

    @Test func whileTheClockJumpMakesTheRoundUncertainIClaimNothing() {
        var room = BallotRoom()
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
        var room = BallotRoom(observing: true)
        room.hear("2101FCAlice")
        room.pick(.none)
        #expect(room.sent == "2101FFMe")
    }
}
