import EstimatorKit
import SessionCore
import SessionDaemon
import Synchronization
import Testing

/// A meeting on one session: rounds taken from the backlog, agreed
/// estimates settled by consensus and by `settle`, reported for the
/// history and in the watch stream; on an injected radio and clock, the
/// history kept in memory as the session process keeps it in its file.
@Suite(.timeLimit(.minutes(2))) struct SessionMeetingTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()
    let history = MemoryHistory()
    let backlog = Backlog(stories: [Story(key: "ABC-1", summary: "Login"), Story(key: nil, summary: "Export"),
                                    Story(key: "ABC-3", summary: "Board")], source: "sprint.csv")

    /// The history as `HistoryFile` keeps it: a report replaces its round's record.
    final class MemoryHistory: Sendable {
        private let state = Mutex<[HistoryRecord]>([])
        var records: [HistoryRecord] { state.withLock { $0 } }

        func save(_ round: RevealedRound) {
            let record = HistoryRecord(round)
            state.withLock { records in
                if let at = records.firstIndex(where: { $0.id == record.id }) { records[at] = record } else { records.append(record) }
            }
        }
    }

    /// A session in a room whose listening is over, its reveals kept in `history`.
    func meeting(backlog: (@Sendable () throws(UserError) -> BacklogProgress?)? = nil) async throws
        -> (Session, listening: Task<Void, Never>, Lines) {
        let history = history, stories = self.backlog
        let read = backlog ?? { BacklogProgress(stories, history: history.records) }
        let (session, listening, watched) = try await watchedSession(backlog: read)
        await session.onReveal { history.save($0) }
        clock.advance(by: ChannelRound.listening)
        return (session, listening, watched)
    }

    /// Hears `localName` and returns once the session has acted on it.
    func hear(_ localName: String, _ watched: Lines, _ session: Session) async {
        let before = watched.all.count
        radio.hear(localName: Array(localName.utf8), rssi: -50)
        await watched.wait(count: before + 1)
        _ = await session.status  // after the actor's turn that took it
    }

    func usage(_ sentence: String) -> ControlReply { ControlReply(exitCode: 64, message: sentence) }

    @Test func roundsTakeTheNextStoryUntilItIsAgreed() async throws {
        let (session, listening, watched) = try await meeting()
        #expect(await session.handle(.round(title: nil)).message
            == "round 1 (ABC-1 Login) began in channel 1; cards cleared; story 1 of 3")
        #expect(await session.status.title == "ABC-1 Login")
        await hear("210103Alice", watched, session)
        _ = await session.handle(.pick(.eight))
        #expect(history.records.last?.story == Story(key: "ABC-1", summary: "Login") && history.records.last?.agreed == nil)

        // No agreement: the next round votes the same story again.
        #expect(await session.handle(.round(title: nil)).message
            == "round 2 (ABC-1 Login) began in channel 1; cards cleared; story 1 of 3")
        await hear("220105Alice", watched, session)
        _ = await session.handle(.pick(.five))
        #expect(history.records.last?.agreed == .five, "a consensus settles by itself")
        let settled = watched.table()
        #expect(settled?.story == Story(key: "ABC-1", summary: "Login") && settled?.agreed == .five, "the watchers are told")

        #expect(await session.handle(.round(title: nil)).message == "round 3 (Export) began in channel 1; cards cleared; story 2 of 3")
        #expect(await session.handle(.round(title: "abc-3")).message == "round 4 (ABC-3 Board) began in channel 1; cards cleared",
                "a story's key takes it out of turn")
        await hear("240102Alice", watched, session)
        _ = await session.handle(.pick(.two))
        #expect(await session.handle(.round(title: nil)).message == "round 5 (Export) began in channel 1; cards cleared; story 2 of 3")
        await hear("250101Alice", watched, session)
        _ = await session.handle(.pick(.one))
        #expect(await session.handle(.round(title: nil)).message == "round 6 began in channel 1; cards cleared; "
            + "every story of the backlog has an agreed estimate (`estimator backlog` lists them)")
        #expect(await session.status.title == nil)
        #expect(BacklogProgress(backlog, history: history.records).entries.map(\.agreed) == [.five, .one, .two])
        await clock.leave(session)
        await listening.value
    }

    @Test func settleRecordsTheAgreedCardAndALaterOneReplacesIt() async throws {
        let (session, listening, watched) = try await meeting()
        #expect(await session.handle(.settle(.five))
            == usage("Nothing to settle in channel 1: there is no round yet; `estimator round` starts one."))
        _ = await session.handle(.round(title: nil))
        #expect(await session.handle(.settle(nil))
            == usage("Nothing to settle in channel 1: round 1 is not revealed yet; `estimator reveal` shows its cards."))
        await hear("210103Alice", watched, session)
        await hear("2101FDBob", watched, session)
        _ = await session.handle(.pick(.eight))
        #expect(await session.handle(.settle(nil)) == usage("Round 1 (ABC-1 Login) has no consensus (the votes are 3, 8 and ?); "
            + "give the card the team agreed on, as `estimator settle 3`."))
        #expect(await session.handle(.settle(.question)) == usage("? is no estimate; settle on a number or a size the team agreed on."))
        #expect(await session.handle(.settle(Card(integer: 7)!)).message.hasPrefix("7 is not in the app deck"))
        #expect(history.records.count == 1 && history.records[0].agreed == nil, "nothing settled by a refusal")

        #expect(await session.handle(.settle(.five)) == ControlReply(exitCode: 0, message: "round 1 (ABC-1 Login) settled at 5"))
        #expect(history.records.count == 1 && history.records[0].agreed == .five, "the round's record, updated")
        #expect(watched.table()?.agreed == .five)
        #expect(await session.handle(.settle(.eight)).message == "round 1 (ABC-1 Login) settled at 8")
        #expect(history.records.count == 1 && history.records[0].agreed == .eight, "a later settle replaces it")
        _ = await session.handle(.pick(.three))  // a re-vote keeps what was settled
        #expect(history.records[0].agreed == .eight && history.records[0].votes.first { $0.name == "전수열" }?.card == .three)
        #expect(await session.handle(.round(title: nil)).message.hasSuffix("(Export) began in channel 1; cards cleared; story 2 of 3"))
        await clock.leave(session)
        await listening.value
    }

    @Test func aConsensusSettlesItselfAndFollowsTheVotes() async throws {
        let (session, listening, watched) = try await meeting()
        _ = await session.handle(.round(title: "Free words"))
        await hear("210105Alice", watched, session)
        _ = await session.handle(.pick(.five))
        #expect(history.records.last?.agreed == .five && history.records.last?.story == Story(key: nil, summary: "Free words"))
        await hear("210108Alice", watched, session)
        #expect(history.records.last?.agreed == nil, "a re-vote that breaks the consensus leaves the round unsettled")
        let unsettled = watched.table()
        #expect(unsettled?.story == Story(key: nil, summary: "Free words") && unsettled?.tally.round == RoundNumber(wrapping: 1)
                    && unsettled?.agreed == nil, "and the watchers hear of it")
        #expect(await session.handle(.settle(nil)).exitCode == 64)
        _ = await session.handle(.pick(.eight))
        #expect(watched.table()?.agreed == .eight)
        #expect(await session.handle(.settle(nil)).message == "round 1 (Free words) settled at 8")
        await clock.leave(session)
        await listening.value
    }

    @Test func aRoundBegunElsewhereTakesTheNextStoryOfMyBacklog() async throws {
        let (session, listening, watched) = try await meeting()
        _ = await session.handle(.round(title: nil))
        #expect(watched.table()?.story == Story(key: "ABC-1", summary: "Login"))
        await hear("210105Bob", watched, session)
        _ = await session.handle(.pick(.five))
        #expect(watched.table()?.agreed == .five)
        await hear("2201FCBob", watched, session)
        let next = watched.table()
        #expect(next?.tally.round == RoundNumber(wrapping: 2) && next?.story == Story(key: nil, summary: "Export") && next?.agreed == nil,
                "Bob's round takes the story after the one agreed, read from my backlog file")
        #expect(await session.status.title == "Export")
        await clock.leave(session)
        await listening.value
    }

    @Test func aDamagedBacklogStopsOnlyARoundThatNeedsIt() async throws {
        let (session, listening, _) = try await meeting(backlog: { () throws(UserError) in
            throw UserError(.data, "backlog.json is damaged; load the backlog again with `estimator backlog FILE`.")
        })
        #expect(await session.handle(.round(title: nil))
            == ControlReply(exitCode: 65, message: "backlog.json is damaged; load the backlog again with `estimator backlog FILE`."))
        #expect(await session.round.current == nil, "no round started")
        #expect(await session.handle(.round(title: "ABC-9")).message == "round 1 (ABC-9) began in channel 1; cards cleared")
        await clock.leave(session)
        await listening.value
    }
}
