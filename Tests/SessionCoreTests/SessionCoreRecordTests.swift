import EstimatorKit
import SessionCore
import Testing

/// The round's record holds whatever people do (SessionCore's header, the
/// round's result): one vote agrees with nobody, and someone who arrived
/// after the reveal is not missing from it; event by event.
@Suite struct SessionCoreRecordTests {
    @Test func aRoundRevealedWithOneVoteAgreesOnNothingAndSettleStillSetsIt() {
        var session = SessionCoreHarness()
        session.ask(.round(title: "ABC-1 Login"))
        session.ask(.reveal(after: Countdown(seconds: 60)))
        session.hear("2101FCAnn")
        session.hear("2101FCBob")
        session.ask(.pick(.five))
        session.hear("2101FFAnn")  // Ann and Bob leave before they vote
        let revealed = session.hear("2101FFBob")
        #expect(session.core.isRevealed, "my vote is everyone's left")
        #expect(SessionCoreHarness.records(revealed).map(\.votes) == [["Me": .five]])
        #expect(SessionCoreHarness.records(revealed).map(\.agreed) == [nil], "one vote is no consensus")
        #expect(session.core.meeting.agreed == nil)
        #expect(session.watchedTable()?.agreed == nil, "no table shows an agreement")
        #expect(session.ask(.settle(nil)).reply?.message
            == "Round 1 (ABC-1 Login) has no consensus (one vote, 5, agrees with nobody); give the card the team agreed on, as `estimator settle 5`.")
        #expect(session.ask(.settle(.five)).reply?.message == "round 1 (ABC-1 Login) settled at 5", "settle sets any estimate")
        #expect(session.core.meeting.agreed == .five)
    }

    @Test func twoVotesOfOneCardAgreeOnIt() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        let revealed = session.hear("210105Ann")
        #expect(SessionCoreHarness.records(revealed).last?.agreed == .five)
        #expect(session.core.meeting.agreed == .five)
    }

    @Test func someoneWhoJoinedAfterTheRevealIsNotMissingFromIt() throws {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.hear("2101FCBob")
        session.ask(.pick(.five))
        session.hear("210108Ann")
        session.ask(.reveal())  // on demand, without Bob
        #expect(session.watchedTable()?.tally.waitingFor.map(\.name) == ["Bob"], "revealed without Bob, who was there")
        session.advance(by: .seconds(1))
        session.hear("5101FCCara")  // Cara's session joins the revealed round
        let table = try #require(session.watchedTable())
        #expect(table.tally.entries.map(\.name).contains("Cara"), "Cara has a row")
        #expect(table.tally.waitingFor.map(\.name) == ["Bob"], "Cara came after the reveal")
    }

    @Test func theFirstRoundASessionRecordsAfterJoiningAMeetingUnderWaySaysWhereItJoined() {
        var late = SessionCoreHarness(listening: true)
        late.hear("230105Ann")  // round 3 runs as my session hears the room
        late.advance(by: .seconds(5))
        late.hear("230105Ann")
        let first = SessionCoreHarness.records(late.ask(.pick(.eight)).actions)
        #expect(first.map(\.joinedAt) == [RoundNumber(wrapping: 3)], "rounds 1 and 2 were not heard here")
        #expect(SessionCoreHarness.records(late.ask(.pick(.five)).actions).map(\.joinedAt) == [RoundNumber(wrapping: 3)],
                "a re-vote is the same round's report")
        late.ask(.round(title: nil))
        late.ask(.pick(.five))
        #expect(SessionCoreHarness.records(late.hear("240105Ann")).map(\.joinedAt) == [nil], "round 4 was heard whole")

        var atTheFirst = SessionCoreHarness(listening: true)
        atTheFirst.hear("2101FCAnn")  // round 1 began as my session heard the room: a meeting's first round
        atTheFirst.advance(by: .seconds(5))
        atTheFirst.ask(.pick(.five))
        #expect(SessionCoreHarness.records(atTheFirst.hear("210105Ann")).map(\.joinedAt) == [nil], "nothing came before round 1")

        var fromTheStart = SessionCoreHarness()
        fromTheStart.hear("2101FCAnn")  // round 1 began after my session heard the room
        fromTheStart.ask(.pick(.five))
        #expect(SessionCoreHarness.records(fromTheStart.hear("210105Ann")).map(\.joinedAt) == [nil])
    }

    @Test func aSessionStillHearingTheRoomFollowsNoConsensusOfThoseHeardSoFar() {
        var waking = SessionCoreHarness(listening: true)
        waking.ask(.pick(.eight))
        waking.hear("330108Ann")  // the room revealed round 3; Bob, who voted 5, is not heard yet
        waking.advance(by: .seconds(2))
        waking.hear("330108Ann")
        #expect(waking.core.meeting.agreed == nil && waking.core.meeting.change == 0,
                "Ann's 8 and mine are no consensus of a room not heard yet")
        waking.hear("330105Bob")
        #expect(waking.core.meeting.change == 0, "no change of mine overrides the room's settle")
    }

    @Test func aSessionThatJoinsARevealedRoundIsNotMissingFromItsOwnTable() throws {
        var session = SessionCoreHarness(listening: true)
        session.hear("310108Bob")  // heard while my session still hears the room: the room revealed before me
        session.hear("310105Ann")
        session.advance(by: .seconds(3))
        let table = try #require(session.watchedTable())
        #expect(table.tally.isRevealed)
        #expect(table.tally.waitingFor.isEmpty, "not revealed without me: I arrived after it")
        #expect(table.tally.entries.first { $0.isMe }?.mark == .waiting, "my row still shows I did not vote")
    }
}
