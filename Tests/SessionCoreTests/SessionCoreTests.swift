import EstimatorKit
import SessionCore
import Testing

private let twoMinutes = Countdown(seconds: 120)!

/// The session's rules (SessionCore's header, docs/PROTOCOL.md's Rounds,
/// Votes, Ballot and Reveal as a session applies them), event by event,
/// time moved by the test.
@Suite struct SessionCoreTests {
    // MARK: What goes on the air

    @Test func aPickGoesOnTheAirAndIsAnsweredOnceItIsThere() {
        var session = SessionCoreHarness()
        session.hear("0101FCAnn")  // someone still to vote: my pick reveals nothing
        let (reply, actions) = session.ask(.pick(.eight))
        #expect(reply == nil)
        #expect(actions == [.advertise, .streamMe, .changed, .answerLater(id: 1)])
        #expect(session.onAir == "010108Me")
        #expect(session.core.onAir == Array("010108Me".utf8), "the me line says what was asked on the air")
        #expect(session.putOnAir() == [.answer(id: 1, ControlReply(exitCode: 0, message: "picked 8"))])
    }

    @Test func aCardTheDeckLacksOrAnObserversPickIsRefusedAndNothingGoesOnTheAir() {
        var session = SessionCoreHarness()
        let (lacking, lackingActions) = session.ask(.pick(Card.sizes[4]))
        #expect(lacking?.exitCode == 64)
        #expect(lackingActions.count == 1, "an answer and nothing else")
        var observer = SessionCoreHarness(observing: true)
        let (observing, _) = observer.ask(.pick(.five))
        #expect(observing == ControlReply(exitCode: 64, message: "You are observing, so you have no card; `estimator join --voter` to vote."))
    }

    @Test func whileTheRadioIsDownNothingGoesOnTheAirAndTheAnswerSaysSo() {
        var session = SessionCoreHarness()
        #expect(session.take(.radioFailed(problem: "bluetoothd is not running")) == [.streamRadio, .changed])
        let (reply, actions) = session.ask(.pick(.five))
        #expect(reply?.message == "picked 5; on the air once the radio is back (bluetoothd is not running)")
        #expect(!actions.contains(.advertise))
        #expect(session.core.status(now: session.now).radio == "bluetoothd is not running")
        #expect(session.take(.radioWorks(seals: false)) == [.streamRadio, .changed])
        #expect(session.core.radioState == "advertising and scanning")
    }

    @Test func aRoundHeardFromTheRoomChangesWhatIAdvertise() {
        var session = SessionCoreHarness()
        let actions = session.hear("2101FCAnn")
        #expect(actions.contains(.advertise), "my packet joins round 1")
        #expect(session.onAir.hasPrefix("2101"), "\(session.onAir)")
        #expect(!session.hear("2101FCAnn").contains(.advertise), "the same round again changes nothing")
    }

    @Test func aSealedBallotHoldsTheRevealAndRevealsOnTheLastVote() {
        var session = SessionCoreHarness(seals: true)
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        #expect(session.onAir == "2101FBMe", "my vote sealed on the air: FB")
        let actions = session.hear("2101FBAnn")
        #expect(actions.contains(.advertise), "the last vote: the room reveals, and I put my card on the air")
        #expect(session.onAir == "310105Me")
        #expect(actions.contains { if case .keepListening = $0 { true } else { false } },
                "Ann's card is on its way: the scan keeps listening")
    }

    // MARK: The round's result

    @Test func theRevealIsRecordedOnceAndEveryReVoteAfterIt() {
        var session = SessionCoreHarness()
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        let revealed = session.hear("210108Ann")
        let first = SessionCoreHarness.records(revealed)
        #expect(first.count == 1 && first[0].votes == ["Me": .five, "Ann": .eight])
        #expect(SessionCoreHarness.records(session.hear("310108Ann")).isEmpty, "the same votes again: nothing new")
        let revote = SessionCoreHarness.records(session.hear("310105Ann"))
        #expect(revote.map(\.votes) == [["Me": .five, "Ann": .five]])
        #expect(revote[0].agreed == .five, "a re-vote made a consensus")
        #expect(revote[0].revealedAt == first[0].revealedAt)
    }

    @Test func settleRecordsTheAgreedEstimateAndALaterSettleReplacesIt() {
        var session = SessionCoreHarness()
        let early = session.ask(.settle(.five)).reply
        #expect(early?.message == "Nothing to settle in channel 1: there is no round yet; `estimator round` starts one.")
        session.ask(.round(title: "ABC-1"))
        session.hear("2101FCAnn")
        session.ask(.pick(.five))
        #expect(session.ask(.settle(nil)).reply?.exitCode == 64, "not revealed yet")
        session.hear("210108Ann")
        let none = session.ask(.settle(nil)).reply
        #expect(none?.message == "Round 1 (ABC-1) has no consensus (the votes are 5 and 8); give the card the team agreed on, as `estimator settle 5`.")
        let (five, actions) = session.ask(.settle(.five))
        #expect(five?.message == "round 1 (ABC-1) settled at 5")
        #expect(SessionCoreHarness.records(actions).map(\.agreed) == [.five])
        #expect(actions.contains(.streamMe), "the relay publishes the meeting settled")
        #expect(session.watchedTable()?.agreed == .five, "every view shows the agreed estimate")
        let eight = SessionCoreHarness.records(session.ask(.settle(.eight)).actions)
        #expect(eight.map(\.agreed) == [.eight])
        #expect(session.core.meeting.agreed == .eight)
    }

    @Test func settleSuggestsACardOfMyDeck() {
        var session = SessionCoreHarness(deck: .tshirt)
        session.ask(.round(title: "ABC-1"))
        session.hear("2101FCAnn")
        session.ask(.pick(Card.sizes[2]))
        session.hear("210183Ann")
        #expect(session.ask(.settle(nil)).reply?.message
            == "Round 1 (ABC-1) has no consensus (the votes are M and L); give the card the team agreed on, as `estimator settle M`.")
        var alone = SessionCoreHarness(deck: .tshirt)
        alone.ask(.round(title: "ABC-2"))
        alone.ask(.pick(.coffee))
        alone.ask(.reveal())
        #expect(alone.ask(.settle(nil)).reply?.message.hasSuffix("as `estimator settle L`.") == true,
                "nobody voted a size: the example is one of the deck's")
    }

    @Test func aNewRoundForgetsTheRevealedRoundAndItsStory() {
        var session = SessionCoreHarness()
        session.ask(.round(title: "ABC-1"))
        session.ask(.reveal())
        session.ask(.settle(.five))
        #expect(session.core.meeting.agreed == .five)
        let actions = session.hear("2201FCAnn")
        #expect(actions.contains(.cancelTimer))
        #expect(session.core.meeting.agreed == nil)
        #expect(session.core.round.current == RoundNumber(wrapping: 2))
    }

    // MARK: Rounds and the backlog

    @Test func aRoundTakesTheBacklogsNextStoryOrATypedOne() throws {
        let backlog = Backlog(stories: [Story(key: "ABC-1", summary: "Login"), Story(key: "ABC-2", summary: "Export")],
                              source: "sprint.csv")
        let progress = BacklogProgress(backlog, history: [])
        var session = SessionCoreHarness()
        let next = session.ask(.round(title: nil), backlog: .read(progress)).reply
        #expect(next?.message == "round 1 (ABC-1 Login) began in channel 1; cards cleared; story 1 of 2")
        let keyed = session.ask(.round(title: "ABC-2"), backlog: .read(progress)).reply
        #expect(keyed?.message == "round 2 (ABC-2 Export) began in channel 1; cards cleared")
        #expect(session.core.round.state.title == "ABC-2 Export", "the story, out of turn, is the round's title")
        let unreadable = UserError(.data, "The backlog is damaged.")
        #expect(session.ask(.round(title: nil), backlog: .failed(unreadable)).reply == ControlReply(unreadable),
                "the next story needs the backlog")
        #expect(session.ask(.round(title: "ABC-9"), backlog: .failed(unreadable)).reply?.exitCode == 0,
                "a typed title needs none")
    }

    @Test func aRevealNowSaysWhoDidNotVoteAndCallsMeYou() {
        var session = SessionCoreHarness()
        session.ask(.round(title: nil))
        session.hear("2101FCAnn")
        session.hear("210105Bob")
        let reply = session.ask(.reveal()).reply
        #expect(reply?.message == "round 1 revealed in channel 1 without Ann, you")
    }

    // MARK: The timer

    @Test func theTimerRevealsItsRoundWhenItRunsOut() {
        var session = SessionCoreHarness()
        session.ask(.round(title: nil))
        let (reply, actions) = session.ask(.reveal(after: twoMinutes))
        #expect(reply?.message == "the timer reveals round 1 in channel 1 in 2m, unless everyone votes first")
        let armed = SessionCoreHarness.timers(actions)
        #expect(armed.map(\.after) == [.seconds(120)])
        #expect(session.core.revealsAt == session.now + .seconds(120))
        session.advance(by: .seconds(120))
        let ranOut = session.take(.timerRanOut(id: armed[0].id))
        #expect(session.core.isRevealed)
        #expect(ranOut.contains(.advertise))
        #expect(!ranOut.contains { if case .reply = $0 { true } else { false } }, "the timer's reveal answers nobody")
    }

    @Test func aReplacedOrStoppedTimerRevealsNothing() {
        var session = SessionCoreHarness()
        let first = SessionCoreHarness.timers(session.ask(.round(title: nil, timer: twoMinutes)).actions)[0].id
        session.advance(by: .seconds(10))
        let second = SessionCoreHarness.timers(session.ask(.reveal(after: twoMinutes)).actions)[0].id
        #expect(session.take(.timerRanOut(id: first)).isEmpty, "replaced")
        let newRound = session.ask(.round(title: nil)).actions
        #expect(newRound.contains(.cancelTimer))
        #expect(session.core.revealsAt == nil)
        #expect(session.take(.timerRanOut(id: second)).isEmpty, "stopped by the new round")
        #expect(!session.core.isRevealed)
    }

    // MARK: My name

    @Test func myOwnEchoThroughTheRelayIsNotSomeoneElseButAnotherPacketWithMyNameIs() {
        var session = SessionCoreHarness()
        session.ask(.pick(.five))
        let sent = String(decoding: session.core.goingOnAir(now: session.now), as: UTF8.self)
        #expect(!session.hear(sent, relayed: true).contains(.streamMe), "my echo, forwarded back to me")
        #expect(session.hear("010103Me", relayed: true).contains(.streamMe), "someone else called Me")
    }

    @Test func theNewcomerWithATakenNameIsToldEvenWhenTheirPacketIsTheSameAsMine() {
        var newcomer = SessionCoreHarness(name: "Ann")
        newcomer.ask(.join(channel: nil, name: "Ann"))
        let mine = String(decoding: newcomer.core.goingOnAir(now: newcomer.now), as: UTF8.self)
        newcomer.advance(by: .seconds(2))
        // The Ann who was here first, waiting as I am: her packet is byte for
        // byte mine, but over the air it can only be someone else's.
        #expect(newcomer.hear(mine).contains(.streamMe))
        #expect(newcomer.core.isNameTaken, "heard while I was still hearing the room: she was here first")
        #expect(newcomer.core.status(now: newcomer.now).nameTaken)
    }

    @Test func whoeverWasHereFirstKeepsTheName() {
        var first = SessionCoreHarness(name: "Ann")
        first.advance(by: .seconds(60))
        #expect(first.hear("010103Ann").contains(.streamMe), "someone else is heard")
        #expect(!first.core.isNameTaken, "she came after me: she is told, not me")
        first.ask(.join(channel: 2, name: nil))
        first.advance(by: .seconds(1))
        first.hear("010203Ann")
        #expect(first.core.isNameTaken, "in channel 2 she was there before me")
    }

    @Test func joiningWithANameHeardHereSaysItIsTaken() {
        var session = SessionCoreHarness()
        session.hear("010103Ann")
        let reply = session.ask(.join(channel: nil, name: "Ann")).reply
        #expect(reply?.message.hasSuffix("; someone here is already called Ann, so one of you is hidden: give yourself another name with --name") == true,
                "\(reply?.message ?? "")")
        #expect(session.core.isNameTaken)
    }

    @Test func aNameThatLooksTheSameClashesAsMineDoes() {
        var session = SessionCoreHarness()
        session.hear("010103Gi\u{200B}na")  // a zero-width space: it shows as Gina
        let reply = session.ask(.join(channel: nil, name: "Gina")).reply
        #expect(reply?.message.hasSuffix("; someone here has a name that looks the same as Gina: give yourself another name with --name") == true,
                "\(reply?.message ?? "")")
        #expect(session.core.isNameTaken)
        var second = SessionCoreHarness(name: "Gina", listening: true)
        second.advance(by: .seconds(1))
        #expect(second.hear("010103Gi\u{FE0F}na\u{2060}").contains(.streamMe), "someone else with my name, to the clash rule")
        #expect(second.core.isNameTaken, "heard while I still hear the room: she was here before me")
        #expect(!SessionCoreHarness(name: "Gina").core.isNameTaken)
    }

    // MARK: Receptions and time

    @Test func aRefreshAsksNothingUnlessEveryReceptionIsWanted() {
        var session = SessionCoreHarness()
        #expect(!session.hear("010105Remy").isEmpty, "a new row")
        #expect(session.hear("010105Remy").isEmpty, "a refresh changes no row")
        session.take(.forward(.air))
        #expect(!session.hear("010105Rita", relayed: true).isEmpty, "someone new through the relay is a row's change")
        #expect(session.hear("010105Rita", relayed: true).isEmpty, "the relay wants what the air brings, not its own")
        #expect(session.hear("010105Remy") == [.stream(.heard(localName: Array("010105Remy".utf8), rssi: -50)), .changed])
        session.take(.forward(.all))
        #expect(!session.hear("010105Remy", relayed: true).isEmpty)
    }

    @Test func aQuietPeerIsLookedForAndAStalePeerChangesTheTable() {
        var session = SessionCoreHarness()
        session.hear("010105Ann")
        session.advance(by: .seconds(1))
        #expect(!session.take(.tick).contains(.lookAgain))
        session.advance(by: .seconds(2))
        #expect(session.take(.tick).contains(.lookAgain), "not heard for 3 s")
        session.advance(by: .seconds(4))
        #expect(session.take(.tick).contains(.changed), "stale after 6 s")
    }

    // MARK: Leaving

    @Test func onceLeavingStartsEveryRequestIsRefusedButStatusWhichSaysSo() {
        var session = SessionCoreHarness()
        session.ask(.pick(.five))
        #expect(session.take(.leaving) == [.cancelTimer, .answer(id: 1, ControlReply(exitCode: 0,
            message: "picked 5; the session left before it was on the air"))], "the pick waiting is answered")
        #expect(session.core.card == .none, "card none goes out last")
        #expect(session.ask(.pick(.three)).reply == ControlReply(UserError(.unavailable, "The session is ending; run `estimator join` again.")))
        #expect(session.core.radioState == "stopped")
        let status = session.ask(.status).reply
        #expect(status?.exitCode == 0 && status?.message == "leaving channel 1")
        #expect(status?.status?.leaving == true, "not taken for no session")
        let join = session.ask(.join(channel: 2, name: "Bob")).reply
        #expect(join?.exitCode == 75, "join waits for the end: \(String(describing: join))")
        #expect(join?.status?.leaving == true)
    }
}
