import EstimatorKit
import SessionCore
import Testing

/// A pick never vanishes (SessionCore's header): its answer waits until it
/// is on the air, and says which round and story the vote went to, or that
/// a new round began first and cleared it; event by event.
@Suite struct SessionCorePickTests {
    @Test func aPickSaysTheRoundOrStoryTheVoteWentTo() {
        var session = SessionCoreHarness()
        session.ask(.pick(.eight))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 8"], "no round yet")
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 5 for round 1"])
        session.ask(.round(title: "ABC-124 Export"))
        session.ask(.pick(.three))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["picked 3 for ABC-124"])
        session.ask(.pick(.waiting))
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values) == ["card taken back"])
    }

    @Test func aPickOvertakenByARoundSaysSo() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let waiting = SessionCoreHarness.waiting(session.ask(.pick(.three)).actions)
        session.hear("2201FCBob")  // Bob's round 2 began before my pick was on the air
        session.heardMeeting(RoundMeeting().choosing(Story(line: "ABC-125 Search"), from: .typed), round: 2,
                             from: PeerID(channel: SessionCoreHarness.channel, name: "Bob"))
        #expect(session.core.card == .waiting)
        let answers = SessionCoreHarness.answers(session.putOnAir())
        #expect(answers.keys.sorted() == waiting)
        #expect(answers.values.first == "picked 3 for round 1, but round 2 (ABC-125 Search) began before it was on the air "
            + "and cleared it: `estimator pick 3` votes in it")
    }

    @Test func aPickBeforeAnyRoundIsOvertakenByTheFirstOneBegunButGoesToOneJoined() {
        var session = SessionCoreHarness()
        session.ask(.pick(.three))
        session.hear("2101FCBob")  // heard after my first listen: Bob began round 1
        #expect(Array(SessionCoreHarness.answers(session.putOnAir()).values)
            == ["picked 3, but round 1 began before it was on the air and cleared it: `estimator pick 3` votes in it"])
        var joining = SessionCoreHarness(listening: true)
        joining.ask(.pick(.question))
        joining.hear("2101FCBob")  // in my first listen: the round runs, I join it with my card
        #expect(joining.core.card == .question)
        #expect(Array(SessionCoreHarness.answers(joining.putOnAir()).values) == ["picked ? for round 1"])
    }

    @Test func aPickIsAnsweredByTheUpdateThatCarriesIt() {
        var session = SessionCoreHarness()
        session.ask(.pick(.one))
        _ = session.core.goingOnAir(now: session.now)  // the update of 1 under way
        let waiting = SessionCoreHarness.waiting(session.ask(.pick(.two)).actions)
        let first = SessionCoreHarness.answers(session.take(.wentOnAir))
        #expect(first.values.sorted() == ["picked 1"], "the update under way does not carry 2")
        #expect(SessionCoreHarness.answers(session.putOnAir()) == [waiting[0]: "picked 2"])
    }

    @Test func aPickWaitingIsAnsweredWhenTheRadioFailsOrTheSessionLeaves() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        let failed = SessionCoreHarness.answers(session.take(.radioFailed(problem: "bluetoothd is not running")))
        #expect(Array(failed.values) == ["picked 5 for round 1; on the air once the radio is back (bluetoothd is not running)"])
        session.take(.radioWorks(seals: false))
        session.ask(.pick(.eight))
        #expect(Array(SessionCoreHarness.answers(session.take(.leaving)).values)
            == ["picked 8 for round 1; the session left before it was on the air"])
    }
}
