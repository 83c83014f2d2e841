import EstimatorKit
import RadioScheduling
import SessionCore
import SessionDaemon
import Synchronization
import Testing

/// A history that fails as a full disk does while `full`, and keeps what
/// it writes.
final class FullDiskHistory: Sendable {
    private let state = Mutex((full: false, written: [String: HistoryRecord]()))
    static let failure = UserError(.ioError, "Cannot write /state/history.jsonl (write: No space left on device); free some space on its disk.")

    var full: Bool {
        get { state.withLock { $0.full } }
        set { state.withLock { $0.full = newValue } }
    }

    /// The last record written of each round, by id.
    var written: [HistoryRecord] { state.withLock { Array($0.written.values) } }

    @Sendable func save(_ record: HistoryRecord, deck: Deck) throws(UserError) {
        let full = state.withLock { state in
            if !state.full { state.written[record.id] = record }
            return state.full
        }
        if full { throw Self.failure }
    }
}

/// The session's history when it cannot be saved, and how often it is
/// saved: a command's change at once, the room's re-votes once a second,
/// what is held on leaving; on an injected radio, clock and history.
@Suite(.timeLimit(.minutes(2))) struct SessionHistoryTests: SessionSuite {
    let radio = MemoryRadio()
    let clock = ManualClock()
    let disk = FullDiskHistory()

    /// A session in round 1 with Alice, revealed with 5 (mine) and 3
    /// (hers), the reveal saved.
    private func revealedSession(leaveBroadcast: Duration = .seconds(1)) async throws -> (Session, Task<Void, Never>, Lines) {
        var schedule = RadioSchedule.standard
        schedule.leaveBroadcast = leaveBroadcast
        let session = Session(adapter: "hci0", channel: Channel(rawValue: 1), name: try PersonName.parse("전수열").name,
                              radio: radio, clock: clock, schedule: schedule, pid: 4242, loop: testLoop, history: disk.save)
        try await session.start()
        let listening = Task { await session.listen() }
        let watched = Lines()
        await session.addWatcher { watched.append($0) }
        clock.advance(by: ChannelRound.listening)
        await hear("2101FCAlice", watched, in: session)
        _ = await session.handle(.pick(.five))
        await hear("210103Alice", watched, in: session)
        #expect(await session.isRevealed)
        #expect(await session.historySaves == 1, "the reveal is saved at once")
        return (session, listening, watched)
    }

    /// Hears `localName` and waits until the session has done what it asked:
    /// its first watch line is sent while the session executes it, and the
    /// session answers the next call after.
    private func hear(_ localName: String, _ watched: Lines, in session: Session) async {
        let count = watched.all.count
        radio.hear(localName: Array(localName.utf8), rssi: -50)
        await watched.wait(count: count + 1)
        _ = await session.historySaves
    }

    @Test func aSettleTheDiskCannotTakeFailsAndIsSavedOnceItCan() async throws {
        let (session, listening, watched) = try await revealedSession()
        disk.full = true
        clock.advance(by: .seconds(5))
        let settled = await session.handle(.settle(.two))
        #expect(settled.exitCode == 74, "\(settled)")
        #expect(settled.message == "round 1 settled at 2, but the history does not have it: cannot write /state/history.jsonl "
            + "(write: No space left on device); free some space on its disk, and the session saves it once it can.")
        #expect(disk.written.first?.agreed == nil, "not written")
        let status = await session.status
        #expect(status.unsavedSince == clock.now, "since the settle")
        #expect(status.unsavedReason == FullDiskHistory.failure.sentence)
        #expect(watched.all.contains { $0.contains(#""unsavedSince":""#) }, "the me line tells a watch")

        // The retry finds the disk still full; a change from the room finds it freed.
        let retry = try #require(await session.historyWait)
        clock.advance(by: .seconds(10))
        await retry.value
        #expect(await session.status.unsavedSince == ManualClock.origin + ChannelRound.listening + .seconds(5), "still the first change's time")
        disk.full = false
        await hear("210108Alice", watched, in: session)
        let wait = try #require(await session.historyWait)
        clock.advance(by: .seconds(1))
        await wait.value
        let record = try #require(disk.written.first)
        #expect(record.agreed == .two, "the settle held in memory is written")
        #expect(record.votes.contains(HistoryRecord.Vote(name: "Alice", card: .eight)), "with the re-vote after it")
        #expect(await session.status.unsavedSince == nil)
        await clock.leave(session)
        await listening.value
    }

    @Test func reVotesHeardAreSavedOnceASecondAndWhatIsHeldOnLeaving() async throws {
        let (session, listening, watched) = try await revealedSession(leaveBroadcast: .zero)
        clock.advance(by: .seconds(2))
        await hear("210108Alice", watched, in: session)
        #expect(await session.historySaves == 2, "a second after the last save: at once")
        for card in ["05", "03", "08", "02", "05"] {
            await hear("2101\(card)Alice", watched, in: session)
            clock.advance(by: .milliseconds(100))
        }
        #expect(await session.historySaves == 2, "held: less than a second since the last save")
        let wait = try #require(await session.historyWait)
        clock.advance(by: .milliseconds(500))
        await wait.value
        #expect(await session.historySaves == 3, "one save for the burst")
        #expect(disk.written.first?.votes.contains(HistoryRecord.Vote(name: "Alice", card: .five)) == true, "\(disk.written)")

        let picked = await session.handle(.pick(.three))
        #expect(picked.exitCode == 0)
        #expect(await session.historySaves == 4, "my re-vote is saved at once, as its command asks")
        await hear("210102Alice", watched, in: session)
        #expect(await session.historySaves == 4, "held")
        await session.leave()
        #expect(await session.historySaves == 5, "leaving saves what is held")
        #expect(disk.written.first?.votes.contains(HistoryRecord.Vote(name: "Alice", card: .two)) == true)
        await listening.value
    }
}
