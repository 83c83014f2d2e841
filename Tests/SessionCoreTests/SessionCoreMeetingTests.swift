import EstimatorKit
import SessionCore
import Testing

private let twoMinutes = Countdown(seconds: 120)!
private let ann = PeerID(channel: SessionCoreHarness.channel, name: "Ann")
private let login = Story(key: "ABC-1", summary: "Login")
private let export = Story(key: "ABC-2", summary: "Export")
private let sprint = BacklogProgress(Backlog(stories: [login, export], source: "sprint.csv"), history: [])

/// My round's meeting (SessionCore's header, docs/PROTOCOL.md's Rounds and
/// Meeting as a session applies them): one story, timer and agreed
/// estimate the whole room shares, event by event, time moved by the test.
@Suite struct SessionCoreMeetingTests {
    // MARK: Heard from the room

    @Test func aMeetingHeardForMyRoundIsMergedAndGoesOnTheAir() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let heard = RoundMeeting().choosing(login, from: .typed)
        let actions = session.heardMeeting(heard, round: 1, from: ann)
        #expect(session.core.meeting == heard)
        #expect(actions.contains(.rideAlong) && !actions.contains(.advertise),
                "my meeting rides with my next announcement, a late joiner's to hear, at no change of its own")
        #expect(actions.contains(.streamMe), "and the relay publishes it")
        #expect(session.heardMeeting(heard, round: 1, from: ann).isEmpty, "the same meeting again changes nothing")
    }

    @Test func aMeetingOfAnotherRoundOrChannelIsNotMine() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let heard = RoundMeeting().choosing(login, from: .typed)
        #expect(session.heardMeeting(heard, round: 2, from: ann).isEmpty, "a round I am not in")
        #expect(session.heardMeeting(heard, round: 1, from: PeerID(channel: Channel(rawValue: 2), name: "Bob")).isEmpty,
                "another room's round 1")
        #expect(session.core.meeting == RoundMeeting())
    }

    @Test func aNewRoundHasAMeetingOfItsOwn() {
        var session = SessionCoreHarness()
        session.ask(.round(title: "ABC-1 Login", timer: twoMinutes))
        #expect(session.core.meeting.story == login)
        let actions = session.hear("2201FCAnn")
        #expect(session.core.meeting == RoundMeeting())
        #expect(actions.contains(.cancelTimer))
        #expect(session.core.revealsAt == nil)
    }

    // MARK: Local changes

    @Test func aTypedTitleIsATypedStoryAndTheBacklogsNextOneABacklogStory() {
        var session = SessionCoreHarness()
        session.ask(.round(title: "ABC-9 Search"))
        #expect(session.core.meeting.story == Story(key: "ABC-9", summary: "Search"))
        #expect(session.core.meeting.source == .typed)
        session.ask(.round(title: nil), backlog: .read(sprint))
        #expect(session.core.meeting.story == login)
        #expect(session.core.meeting.source == .backlog)
        session.ask(.round(title: "ABC-2"), backlog: .read(sprint))
        #expect(session.core.meeting.story == export)
        #expect(session.core.meeting.source == .typed, "a key typed is the story chosen")
        session.ask(.round(title: nil), backlog: .read(nil))
        #expect(session.core.meeting == RoundMeeting(), "no backlog, no title: no story")
    }

    @Test func aTimerSetsTheMeetingsDeadlineAndASettleItsAgreedEstimate() {
        var session = SessionCoreHarness()
        let started = session.ask(.round(title: nil, timer: twoMinutes)).actions
        #expect(session.core.meeting.deadline == session.now + .seconds(120))
        #expect(started.contains(.advertise))
        session.advance(by: .seconds(30))
        let again = session.ask(.reveal(after: twoMinutes)).actions
        #expect(session.core.meeting.deadline == session.now + .seconds(120), "a later timer replaces it")
        #expect(again.contains(.advertise), "the new deadline goes on the air")
        session.ask(.pick(.five))
        session.ask(.reveal())
        session.ask(.settle(.eight))
        #expect(session.core.meeting.agreed == .eight)
        #expect(session.core.meeting.deadline == nil, "an agreed round needs no timer")
    }

    @Test func theConsensusSettlesTheMeetingOnceTheRevealsCardsAreInAndFollowsTheVotes() {
        var session = SessionCoreHarness(seals: true)
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        session.hear("2101FBAnn")  // Ann's vote, sealed: the room reveals, her card on its way
        #expect(session.core.isRevealed)
        #expect(session.core.meeting.agreed == nil, "my card alone is no consensus of the reveal")
        let cardIn = session.hear("310105Ann")
        #expect(session.core.meeting.agreed == .five)
        #expect(cardIn.contains(.advertise), "the agreed estimate goes on the air")
        #expect(SessionCoreHarness.records(cardIn).last?.agreed == .five)
        session.hear("310108Ann")
        #expect(session.core.meeting.agreed == nil, "a re-vote that breaks the consensus unsettles the round")
        session.ask(.pick(.eight))
        #expect(session.core.meeting.agreed == .eight, "one that makes it settles it")
        session.ask(.settle(.five))
        session.hear("310103Ann")
        #expect(session.core.meeting.agreed == .five, "a re-vote keeps what was settled")
    }

    @Test func aSettleHeardFirstIsNotReplacedByTheConsensus() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        session.heardMeeting(RoundMeeting().settling(.eight), round: 1, from: ann)
        session.hear("210105Ann")
        #expect(session.core.isRevealed)
        #expect(session.core.meeting.agreed == .eight)
    }

    // MARK: The timer

    @Test func aDeadlineHeardArmsMyTimerAndRevealsWhenItRunsOut() throws {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let deadline = session.now + .seconds(90)
        let armed = SessionCoreHarness.timers(session.heardMeeting(RoundMeeting().timing(deadline), round: 1, from: ann))
        #expect(armed.map(\.after) == [.seconds(90)], "every laptop waits for the deadline, not only the starter's")
        #expect(session.core.revealsAt == deadline)
        session.advance(by: .seconds(90))
        session.take(.timerRanOut(id: try #require(armed.first).id))
        #expect(session.core.isRevealed, "revealed although the one who set it said nothing more")
    }

    @Test func aLaterDeadlineHeardReplacesMineAndASettleStopsIt() throws {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let mine = SessionCoreHarness.timers(session.ask(.reveal(after: twoMinutes)).actions)
        let later = session.core.meeting.timing(session.now + .seconds(300))
        let replaced = SessionCoreHarness.timers(session.heardMeeting(later, round: 1, from: ann))
        #expect(replaced.map(\.after) == [.seconds(300)])
        #expect(session.take(.timerRanOut(id: try #require(mine.first).id)).isEmpty, "replaced")
        session.hear("210105Ann")
        session.ask(.reveal())
        let settled = session.heardMeeting(session.core.meeting.settling(.five), round: 1, from: ann)
        #expect(session.core.revealsAt == nil)
        #expect(session.take(.timerRanOut(id: try #require(replaced.first).id)).isEmpty)
        #expect(!settled.isEmpty)
    }

    // MARK: The backlog follows the room

    @Test func aRoundBegunElsewhereTakesTheNextStoryOfMyBacklog() {
        var session = SessionCoreHarness()
        let began = session.hear("2101FCCarol")
        #expect(began.contains(.readBacklog(for: RoundNumber(wrapping: 1))), "Carol's round asks for my backlog")
        let chosen = session.take(.backlog(.read(sprint), for: RoundNumber(wrapping: 1)))
        #expect(session.core.meeting.story == login)
        #expect(session.core.meeting.source == .backlog)
        #expect(chosen.contains(.advertise), "the story goes on the air for the room")
        #expect(session.core.view(now: session.now).title == "ABC-1 Login", "and heads my table")
        #expect(session.core.me == .me(channel: 1, name: "Me", adapter: "hci0", onAir: Array("2101FCMe".utf8),
                                       meeting: RelayPayload.encodeMeeting(session.core.meeting, round: RoundNumber(wrapping: 1))),
                "the relay publishes it")
        let table = session.watchedTable()
        #expect(table?.tally.round == RoundNumber(wrapping: 1) && table?.story == login && table?.title == "ABC-1 Login",
                "a watch shows it")
    }

    @Test func noBacklogOrARoundMovedOnChoosesNothing() {
        var session = SessionCoreHarness()
        session.hear("2101FCCarol")
        #expect(session.take(.backlog(.read(nil), for: RoundNumber(wrapping: 1))).isEmpty, "no backlog here")
        #expect(session.take(.backlog(.failed(UserError(.data, "The backlog is damaged.")), for: RoundNumber(wrapping: 1))).isEmpty)
        session.hear("2201FCCarol")
        #expect(session.take(.backlog(.read(sprint), for: RoundNumber(wrapping: 1))).isEmpty, "round 1 is over")
        #expect(session.core.meeting.story == nil)
        #expect(!session.ask(.round(title: "ABC-7")).actions.contains(.readBacklog(for: RoundNumber(wrapping: 3))),
                "a round begun here read the backlog with its request")
    }

    @Test func twoBacklogsAgreeOnOneStoryAndATypedOneBeatsThem() {
        var session = SessionCoreHarness()
        session.hear("2101FCCarol")
        session.take(.backlog(.read(sprint), for: RoundNumber(wrapping: 1)))
        let other = RoundMeeting().choosing(Story(key: "ABC-0", summary: "Sign up"), from: .backlog)
        session.heardMeeting(other, round: 1, from: ann)
        #expect(session.core.meeting.story?.key == "ABC-0", "the title whose bytes sort first")
        session.heardMeeting(RoundMeeting().choosing(Story(line: "ZZZ-9 Typed"), from: .typed), round: 1, from: ann)
        #expect(session.core.meeting.story?.key == "ZZZ-9")
        session.take(.backlog(.read(sprint), for: RoundNumber(wrapping: 1)))
        #expect(session.core.meeting.story?.key == "ZZZ-9", "a backlog story comes too late for a typed one")
    }

    // MARK: The same history everywhere

    @Test func theRecordTakesTheStoryAndAgreedEstimateFromTheMeeting() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.heardMeeting(RoundMeeting().choosing(login, from: .typed), round: 1, from: ann)
        session.ask(.pick(.five))
        let revealed = SessionCoreHarness.records(session.hear("210108Ann"))
        #expect(revealed.map(\.story) == [login], "the story Ann typed, on my history too")
        #expect(revealed.map(\.title) == ["ABC-1 Login"])
        let settled = SessionCoreHarness.records(session.heardMeeting(session.core.meeting.settling(.eight), round: 1, from: ann))
        #expect(settled.map(\.agreed) == [.eight], "a settle heard from the room records the row again")
        #expect(settled.map(\.revealedAt) == revealed.map(\.revealedAt), "the same row")
        let later = SessionCoreHarness.records(session.heardMeeting(session.core.meeting.settling(.five), round: 1, from: ann))
        #expect(later.map(\.agreed) == [.five], "a later settle replaces it")
    }

    @Test func twoLaptopsRecordTheSameRow() {
        var alice = SessionCoreHarness(name: "Alice"), bob = SessionCoreHarness(name: "Bob")
        let aliceID = PeerID(channel: SessionCoreHarness.channel, name: "Alice")
        let bobID = PeerID(channel: SessionCoreHarness.channel, name: "Bob")
        alice.hear(bob.onAir)
        bob.hear(alice.onAir)
        alice.ask(.round(title: "ABC-1 Login"))
        alice.ask(.pick(.five))  // Bob still to vote
        bob.hear(alice.onAir)
        bob.heardMeeting(alice.core.meeting, round: 1, from: aliceID)
        let bobsReveal = SessionCoreHarness.records(bob.ask(.pick(.eight)).actions)  // the last vote: Bob's table reveals
        let alicesReveal = SessionCoreHarness.records(alice.hear(bob.onAir))
        #expect(bobsReveal.map(\.story) == [login] && alicesReveal.map(\.story) == [login])
        #expect(bobsReveal.map(\.votes) == alicesReveal.map(\.votes))
        let settled = SessionCoreHarness.records(alice.ask(.settle(.five)).actions)
        let heard = SessionCoreHarness.records(bob.heardMeeting(alice.core.meeting, round: 1, from: aliceID))
        #expect(alice.heardMeeting(bob.core.meeting, round: 1, from: bobID).isEmpty, "Bob's meeting is Alice's now")
        #expect(settled.map(\.agreed) == [.five] && heard.map(\.agreed) == [.five])
        #expect(heard.map(\.title) == settled.map(\.title))
    }

    // MARK: What the air and the relay bring

    @Test func aMeetingHeardInPartsOverTheAirIsTakenOnceWhole() {
        var session = SessionCoreHarness()
        let heard = RoundMeeting().choosing(login, from: .typed)
        let parts = MeetingParts.encode(heard, round: RoundNumber(wrapping: 1))
        #expect(parts.count > 1)
        session.hear("2101FCAnn", meeting: parts[0])
        #expect(session.core.meeting.story == Story(key: "ABC-1", summary: ""), "the first part holds the key: shown at once")
        for part in parts.dropFirst().dropLast() {
            session.hear("2101FCAnn", meeting: part)
            #expect(session.core.meeting.story?.summary == "", "not whole yet")
        }
        session.hear("2101FCAnn", meeting: parts.last!)
        #expect(session.core.meeting.story == login)
        #expect(session.core.title == "ABC-1 Login")
    }

    @Test func aMeetingThroughTheRelayComesWholeAndOneOfAnotherRoundIsNotMine() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let other = RelayPayload.encodeMeeting(RoundMeeting().choosing(login, from: .typed), round: RoundNumber(wrapping: 2))
        session.hear("2101FCBob", relayed: true, meeting: other)
        #expect(session.core.meeting.story == nil, "round 2's story is not round 1's")
        let mine = RelayPayload.encodeMeeting(RoundMeeting().choosing(login, from: .typed), round: RoundNumber(wrapping: 1))
        session.hear("2101FCBob", relayed: true, meeting: mine)
        #expect(session.core.meeting.story == login)
    }

    // MARK: What views read

    @Test func theTableAndStatusTellTheMeeting() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        let deadline = session.now + .seconds(60)
        session.heardMeeting(RoundMeeting().choosing(login, from: .typed).timing(deadline), round: 1, from: ann)
        let timed = session.watchedTable()
        #expect(timed?.title == "ABC-1 Login")
        #expect(timed?.story == login)
        #expect(timed?.deadline == deadline && timed?.remaining(now: session.now) == .seconds(60))
        #expect(session.core.status(now: session.now).title == "ABC-1 Login")
        session.hear("210105Ann")
        session.ask(.pick(.three))
        session.ask(.reveal())
        session.heardMeeting(session.core.meeting.settling(.five), round: 1, from: ann)
        #expect(session.watchedTable()?.agreed == .five)
    }
}
