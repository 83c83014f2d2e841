import EstimatorKit
import Testing

/// A sealed ballot (the light mode, and sessions without Bluetooth): a vote
/// goes on the air as `FB` until its round is revealed (docs/PROTOCOL.md,
/// Ballot).
@Suite struct RoomSealedBallotTests {
    @Test func aSealedVoteSaysThatIVotedNeverWhatUntilTheReveal() {
        var room = BallotRoom(seals: true)
        room.hear("2101FCAlice")
        room.pick(.five)
        #expect(room.sent == "2101FBMe", "voted, sealed: my 5 stays on my laptop")
        #expect(room.marks == ["Me": .hidden, "Alice": .waiting])
        #expect(room.room.cardsDue(now: room.now) == nil)
        do {
            let revealed = room.hear("2101FBAlice")
            #expect(revealed, "Alice voted too, sealed: the last vote reveals")
        }
        #expect(room.sent == "310105Me", "at the reveal my card goes on the air")
        #expect(!room.tally.isRevealed, "Alice's card is on its way: the cards show together")
        #expect(room.marks == ["Me": .hidden, "Alice": .hidden])
        #expect(room.room.cardsDue(now: room.now) == room.now + EstimatorKit.Ballot.catchUp,
                "the radio keeps listening for it until the catch-up")
        room.hear("310108Alice")
        #expect(room.room.cardsDue(now: room.now) == nil, "every card came")
        #expect(room.tally.isRevealed)
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
        #expect(room.tally.stats.votes == 2 && room.tally.stats.median == 6.5)
    }

    @Test func aSealedCardNotHeardByTheCatchUpShowsAsAVoteWithoutItsCard() {
        var room = BallotRoom(seals: true)
        room.hear("2101FBAlice")
        room.pick(.five)
        #expect(room.sent == "310105Me")
        room.now = room.now + EstimatorKit.Ballot.catchUp - .milliseconds(1)
        #expect(!room.tally.isRevealed)
        #expect(room.room.cardsDue(now: room.now) == room.now + .milliseconds(1))
        room.now = room.now + .milliseconds(1)
        #expect(room.tally.isRevealed)
        #expect(room.room.cardsDue(now: room.now) == nil, "the wait is over")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .hidden], "her vote counts; her card never came")
        #expect(room.tally.voted == 2 && room.tally.stats.votes == 1)
        room.hear("310108Alice")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)], "it shows when it comes")
    }

    @Test func aRevealOnDemandAwaitsSealedCardsButNobodysVote() {
        var room = BallotRoom(seals: true)
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
        var room = BallotRoom(seals: true)
        room.hear("2101FCAlice")
        room.pick(.five)
        room.hear("2101FBAlice")
        #expect(room.sent == "310105Me")
        room.pick(.three)
        #expect(room.sent == "310103Me")
    }

    @Test func someoneJoiningARevealedRoundSeesItsCards() {
        var room = BallotRoom(seals: true)
        room.hear("310108Alice")
        room.hear("310103Bob")
        room.now = room.now + EstimatorKit.Ballot.catchUp
        #expect(room.tally.isRevealed, "I have not voted: the catch-up, as without seals")
        #expect(room.marks == ["Me": .waiting, "Alice": .shown(.eight), "Bob": .shown(.three)])
    }

    @Test func anOpenRoomAnObserverAndTheAppsFormAreNotSealed() {
        var open = BallotRoom(seals: true)
        open.room.open = true
        open.hear("2101FCAlice")
        open.pick(.five)
        #expect(open.sent == "210105Me", "--open: the app's behaviour, card in clear")

        var observer = BallotRoom(observing: true, seals: true)
        observer.hear("2101FCAlice")
        #expect(observer.sent == "2101F9Me")

        var noRound = BallotRoom(seals: true)
        noRound.pick(.five)
        #expect(noRound.sent == "010105Me", "no round: the app's form, as the app sends it")
    }

    @Test func aSessionInClearCountsASealedVoteAndAwaitsItsCard() {
        var room = BallotRoom()
        room.hear("2101FBAlice")
        #expect(room.marks == ["Me": .waiting, "Alice": .hidden])
        room.pick(.five)
        #expect(room.sent == "310105Me", "a strict session's card is in clear; Alice's sealed vote is a vote")
        #expect(!room.tally.isRevealed)
        room.hear("310108Alice")
        #expect(room.marks == ["Me": .shown(.five), "Alice": .shown(.eight)])
    }
}
