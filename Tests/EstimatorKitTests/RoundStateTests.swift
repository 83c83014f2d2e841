import EstimatorKit
import Testing

private func r(_ n: Int) -> RoundNumber { RoundNumber(wrapping: n) }
private let t0 = Timestamp(secondsSince1970: 1_790_000_000)

@Suite struct RoundNumberTests {
    @Test func laterMeansOneToSevenStepsAheadAcrossTheWrap() {
        #expect(r(4).isNewer(than: r(3)))
        #expect(r(10).isNewer(than: r(3)))
        #expect(!r(11).isNewer(than: r(3)), "8 steps: the smaller digit wins")
        #expect(r(3).isNewer(than: r(11)))
        #expect(!r(12).isNewer(than: r(3)), "9 ahead is 7 behind")
        #expect(r(0).isNewer(than: r(15)) && r(2).isNewer(than: r(14)))
        #expect(!r(5).isNewer(than: r(5)))
    }

    @Test func exactlyOneOfTwoDifferentRoundsIsLater() {
        for a in 0..<16 {
            for b in 0..<16 where a != b {
                #expect(r(a).isNewer(than: r(b)) != r(b).isNewer(than: r(a)), "\(a) \(b)")
            }
        }
    }

    @Test func theLatestOfSeveralFollowsTheWrap() {
        #expect([r(14), r(15), r(0), r(1)].latest() == r(1))
        #expect([RoundNumber]().latest() == nil)
        #expect(r(15).next == r(0) && r(15).hexDigit == "F")
    }
}

@Suite struct RoundStateTests {
    @Test func theFirstRoundHeardIsJoinedAndKeepsTheCard() {
        var state = RoundState()
        #expect(state.hear(nil) == nil, "the app's packets carry no round")
        #expect(state.hear(r(5)) == .joined(r(5)))
        #expect(state.current == r(5) && state.advertised == r(5))
    }

    @Test func aLaterRoundBeginsHereAndAnEarlierOneIsIgnored() {
        var state = RoundState()
        _ = state.hear(r(5))
        #expect(state.hear(r(4)) == nil)
        #expect(state.hear(r(5)) == nil)
        #expect(state.hear(r(6)) == .began(r(6)))
        #expect(state.current == r(6))
    }

    @Test func aSessionJoiningMidRoundNeverResetsTheRoom() {
        // The room is at round 9; a newcomer knows none and sends none.
        var room = RoundState()
        _ = room.startNext(title: nil, latestHeard: r(8))
        var newcomer = RoundState()
        #expect(newcomer.advertised == nil)
        #expect(room.hear(newcomer.advertised) == nil)
        #expect(newcomer.hear(room.advertised) == .joined(r(9)))
        #expect(room.hear(newcomer.advertised) == nil && room.current == r(9))
    }

    @Test func twoPeopleStartingARoundAtOnceEndInOneRound() {
        var alice = RoundState(), bob = RoundState()
        _ = alice.hear(r(3)); _ = bob.hear(r(3))
        #expect(alice.startNext(title: "ABC-1", latestHeard: nil) == .began(r(4)))
        #expect(bob.startNext(title: "ABC-2", latestHeard: nil) == .began(r(4)))
        #expect(alice.hear(bob.advertised) == nil && bob.hear(alice.advertised) == nil)
        #expect(alice.title == "ABC-1", "titles stay where they were given")
    }

    @Test func startingWithoutARoundGoesPastTheLatestHeard() {
        var state = RoundState()
        #expect(state.startNext(title: nil, latestHeard: nil) == .began(r(1)))
        var late = RoundState()
        #expect(late.startNext(title: "x", latestHeard: r(15)) == .began(r(0)))
        #expect(late.title == "x")
    }

    @Test func aRoundBegunElsewhereHasNoTitleHere() {
        var state = RoundState()
        _ = state.startNext(title: "ABC-1", latestHeard: nil)
        _ = state.hear(r(2))
        #expect(state.title == nil)
    }

    @Test func ticksCloseTogetherChangeNothing() {
        var state = RoundState()
        _ = state.hear(r(2))
        for second in 0..<120 { #expect(state.tick(now: t0 + .milliseconds(500 * second)) == nil) }
        #expect(state.advertised == r(2))
    }

    @Test func aLaptopWakingLongAfterTheRoomMovedOnNeverResetsIt() {
        // Asleep at round 3 while the room went 10 rounds on, to 13: in serial
        // arithmetic 3 would look later than 13 and reset everyone.
        var sleeper = RoundState()
        _ = sleeper.hear(r(3))
        _ = sleeper.tick(now: t0)
        #expect(sleeper.tick(now: t0 + .seconds(3600)) == .suspended)
        #expect(sleeper.advertised == nil, "no round is claimed until the room is heard")
        var room = RoundState()
        _ = room.hear(r(13))
        #expect(room.hear(sleeper.advertised) == nil)
        #expect(sleeper.hear(r(13)) == .began(r(13)), "the room's round, the old card gone")
        #expect(sleeper.advertised == r(13))
    }

    @Test func wakingIntoTheSameRoundResumesAsBefore() {
        var sleeper = RoundState()
        _ = sleeper.hear(r(3))
        _ = sleeper.tick(now: t0)
        #expect(sleeper.tick(now: t0 + .seconds(40)) == .suspended)
        #expect(sleeper.hear(r(3)) == .resumed(r(3)))
        #expect(sleeper.advertised == r(3))
    }

    @Test func wakingAloneResumesAfterTheRejoinWindow() {
        var sleeper = RoundState()
        _ = sleeper.hear(r(3))
        _ = sleeper.tick(now: t0)
        _ = sleeper.tick(now: t0 + .seconds(40))
        #expect(sleeper.tick(now: t0 + .seconds(45)) == nil)
        #expect(sleeper.tick(now: t0 + .seconds(46)) == .resumed(r(3)))
        #expect(sleeper.advertised == r(3))
    }

    @Test func aRoundStartedWhileSuspendedEndsTheSuspension() {
        var state = RoundState()
        _ = state.hear(r(3))
        _ = state.tick(now: t0)
        _ = state.tick(now: t0 + .seconds(40))
        #expect(state.startNext(title: nil, latestHeard: nil) == .began(r(4)))
        #expect(state.advertised == r(4) && state.suspendedSince == nil)
    }
}
