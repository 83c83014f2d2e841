import Dispatch
import EstimatorKit
import Foundation
import Glibc
import SessionCore
import SessionDaemon
import Testing

/// A revealed round for the history tests, `minute` minutes after
/// 2026-11-22T03:00:00.250Z.
func historyRecord(
    round: Int?, minute: Int64 = 0, title: String? = nil, votes: [(String, Card)] = [("Alice", .five), ("Bob", .five)]
) -> HistoryRecord {
    let time = Timestamp(secondsSince1970: 1_795_316_400 + minute * 60, nanoseconds: 250_000_000)
    let values = votes.compactMap { $0.1.numericValue }.sorted()
    return HistoryRecord(
        id: HistoryRecord.id(channel: Channel(rawValue: 1), round: round, revealedAt: time), time: time,
        channel: Channel(rawValue: 1), round: round, title: title,
        votes: votes.map { HistoryRecord.Vote(name: $0.0, card: $0.1) },
        median: values.isEmpty ? nil : (values[(values.count - 1) / 2] + values[values.count / 2]) / 2,
        mean: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count),
        nearest: votes.first?.1, consensus: Set(values).count == 1,
        questions: votes.count { $0.1 == .question }, coffees: votes.count { $0.1 == .coffee })
}

@Suite final class HistoryFileTests {
    let root: String
    let file: HistoryFile

    init() throws {
        root = try TemporaryDirectory.make()
        file = HistoryFile(path: root + "/state/estimator/history.jsonl")
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    func text() throws -> String {
        let fd = open(file.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    func write(_ text: String) throws {
        try Directories.create(root + "/state/estimator", mode: 0o700)
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    @Test func noFileYetIsNoRecords() throws {
        #expect(try file.read() == HistoryFile.Contents())
    }

    @Test func savesAppendOneLineEachOldestFirstInPrivateFiles() throws {
        let first = historyRecord(round: 1, title: "ABC-1"), second = historyRecord(round: 2, minute: 5)
        try file.save(first)
        try file.save(second)
        #expect(try file.read().records == [first, second])
        #expect(try text() == first.jsonLine + "\n" + second.jsonLine + "\n")
        #expect(mode(root + "/state/estimator") == 0o700)
        #expect(mode(root + "/state") == 0o700)
        #expect(mode(file.path) == 0o600)
        #expect(mode(root + "/state/estimator/history.lock") == 0o600)
    }

    @Test func aRecordWithTheSameIdReplacesItsLineInPlace() throws {
        let first = historyRecord(round: 1), second = historyRecord(round: 2, minute: 5)
        try file.save(first)
        try file.save(second)
        var revote = first
        revote.votes = [HistoryRecord.Vote(name: "Alice", card: .eight), HistoryRecord.Vote(name: "Bob", card: .five)]
        revote.consensus = false
        try file.save(revote)
        #expect(try file.read().records == [revote, second])
    }

    @Test func damagedLinesAreNamedByNumberWhenReadAndKeptWhenSaving() throws {
        let good = historyRecord(round: 1)
        let damaged = ["{\"id\":", "\u{1B}[2J garbage", String(good.jsonLine.prefix(40))]
        try write(damaged[0] + "\n" + good.jsonLine + "\n" + damaged[1] + "\n\n  \r\n" + damaged[2])
        #expect(try file.read() == HistoryFile.Contents(records: [good], damagedLines: [1, 3, 6]))
        let next = historyRecord(round: 2, minute: 1)
        try file.save(next)
        #expect(try file.read() == HistoryFile.Contents(records: [good, next], damagedLines: [1, 3, 5]))
        #expect(try text() == [damaged[0], good.jsonLine, damaged[1], "  \r", damaged[2], next.jsonLine].joined(separator: "\n") + "\n")
    }

    @Test func theDamageReportIsOneSentenceNamingTheLines() {
        #expect(file.damageReport([]) == nil)
        #expect(file.damageReport([7]) == "Line 7 of \(file.path) is damaged: it is kept in the file and left out here; mend or delete it.")
        #expect(file.damageReport([1, 3, 6])
            == "Lines 1, 3 and 6 of \(file.path) are damaged: they are kept in the file and left out here; mend or delete them.")
        let many = file.damageReport(Array(1...25)) ?? ""
        #expect(many.hasPrefix("Lines 1, 2, 3, 4, 5, 6, 7, 8, 9 and 16 more of "))
    }

    /// Savers with their own descriptors (as two sessions have) contend for
    /// the lock; without it, a read-modify-write would lose lines.
    @Test func concurrentSavesLoseNothing() throws {
        let file = self.file
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for i in 0..<25 {
                var record = historyRecord(round: i % 16, minute: Int64(i))
                record.id = "worker \(worker) round \(i)"
                record.channel = Channel(rawValue: UInt8(worker + 1))  // rounds of four rooms, never one heard again
                try? file.save(record)
            }
        }
        let ids = try file.read().records.map(\.id)
        #expect(ids.count == 100)
        #expect(Set(ids).count == 100)
        #expect(access(file.path + ".tmp-\(getpid())", F_OK) != 0)
    }

    @Test func aRoundHeardAgainByALaterSessionIsMergedIntoItsLine() throws {
        var first = historyRecord(round: 3, title: "ZZZ-1 Split story", votes: [("Dave", .five), ("Erin", .thirteen)])
        first.agreed = .five  // settled
        try file.save(first)
        // Dave leaves and joins again: his new session hears the round revealed,
        // without his card and before the meeting's agreed estimate reaches it.
        var rejoined = historyRecord(round: 3, minute: 2, votes: [("Erin", .thirteen)])
        rejoined.id = "rejoined"
        try file.save(rejoined, deck: .app)
        let merged = try file.read().records
        #expect(merged.count == 1, "one record per round")
        #expect(merged.first?.votes == [HistoryRecord.Vote(name: "Dave", card: .five), HistoryRecord.Vote(name: "Erin", card: .thirteen)],
                "a later view with fewer votes takes none away")
        #expect(merged.first?.median == 9 && merged.first?.consensus == false, "the figures are of every vote")
        #expect(merged.first?.agreed == .five && merged.first?.title == "ZZZ-1 Split story", "kept until the report has its own")
        #expect(merged.first?.time == first.time, "the round keeps the time it was revealed")
        #expect(merged.first?.id == "rejoined", "the later session's next reports are its own view")
        var revote = rejoined
        revote.votes = [HistoryRecord.Vote(name: "Dave", card: .eight), HistoryRecord.Vote(name: "Erin", card: .thirteen)]
        try file.save(revote)
        #expect(try file.read().records.map(\.votes) == [revote.votes], "a person's latest card replaces the earlier one")
        #expect(try file.read().records.first?.agreed == nil, "the same view's settle stands: none now")
    }

    @Test func aRoundNumberComeRoundAgainIsAnotherRound() throws {
        let three = historyRecord(round: 3, title: "ABC-1"), four = historyRecord(round: 4, minute: 1, title: "ABC-2")
        try file.save(three)
        try file.save(four)
        let again = historyRecord(round: 3, minute: 2, title: "ABC-1")
        try file.save(again)
        #expect(try file.read().records.count == 3, "a later round of the channel came between")
        let otherStory = historyRecord(round: 3, minute: 3, title: "ABC-3")
        try file.save(otherStory)
        #expect(try file.read().records.count == 4, "another story")
        let nextDay = historyRecord(round: 3, minute: 3 + 7 * 60, title: "ABC-3")
        try file.save(nextDay)
        #expect(try file.read().records.count == 5, "hours later")
        var noRound = historyRecord(round: nil, minute: 7 * 60 + 4)
        try file.save(noRound)
        noRound.id = "another"
        try file.save(noRound)
        #expect(try file.read().records.count == 7, "a room without rounds has no round to hear again")
    }

    @Test func anUnreadableHistoryIsOneSentence() throws {
        try Directories.create(file.path, mode: 0o700)  // a directory where the file should be
        #expect(throws: UserError.self) { try file.read() }
        #expect(throws: UserError.self) { try file.save(historyRecord(round: 1)) }
    }
}

/// What the session reports of a revealed round, as the history keeps it.
@Suite final class RevealedRoundHistoryTests {
    let root: String

    init() throws { root = try TemporaryDirectory.make() }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    @Test func aRevealedRoundAndItsReVoteAreOneLine() throws {
        let file = HistoryFile(path: root + "/history.jsonl")
        let revealedAt = Timestamp(secondsSince1970: 1_795_316_400)
        let first = RevealedRound(channel: Channel(rawValue: 1), round: RoundNumber(wrapping: 3), title: "ABC-1",
                                  revealedAt: revealedAt, votes: ["Bob": .three, "Alice": .five, "전수열": .eight])
        try file.save(HistoryRecord(first))
        let record = try #require(try file.read().records.first)
        #expect(record.round == 3 && record.title == "ABC-1" && record.channel == Channel(rawValue: 1))
        #expect(record.votes.map(\.name) == ["Alice", "Bob", "전수열"])
        #expect(record.median == 5 && record.nearest == .five && !record.consensus)
        let revote = RevealedRound(channel: first.channel, round: first.round, title: first.title,
                                   revealedAt: revealedAt, votes: ["Bob": .five, "Alice": .five, "전수열": .five])
        try file.save(HistoryRecord(revote))
        let records = try file.read().records
        #expect(records.count == 1, "the re-vote updates the round's record")
        #expect(records.first?.consensus == true && records.first?.median == 5)
    }

    @Test func theRecordsNearestCardIsOfMyDeck() {
        let votes: [String: Card] = ["Ann": Card(integer: 16)!, "Bob": Card(integer: 64)!]
        let at = Timestamp(secondsSince1970: 1_795_316_400)
        let powers = RevealedRound(channel: Channel(rawValue: 1), round: nil, title: nil, revealedAt: at, votes: votes, deck: .powers)
        #expect(HistoryRecord(powers).mean == 40 && HistoryRecord(powers).nearest == Card(integer: 32))
        let app = RevealedRound(channel: Channel(rawValue: 1), round: nil, title: nil, revealedAt: at, votes: votes)
        #expect(HistoryRecord(app).nearest == .forty)
    }
}

/// `estimator history`'s table says where a session joined a meeting under way.
@Suite struct HistoryTableJoinedTests {
    @Test func aLineBeforeTheFirstRoundHeardSaysTheRoundsBeforeWereNot() {
        var three = historyRecord(round: 3, title: "ABC-3")
        three.joined = 3
        let four = historyRecord(round: 4, minute: 2, title: "ABC-4")
        let lines = HistoryTable.lines([three, four], time: { _ in "09:00" })
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("TIME"))
        #expect(lines[1] == "joined at round 3 of channel 1: the rounds before it were not heard here")
        #expect(lines[2].contains("ABC-3") && lines[3].contains("ABC-4"))
    }

    @Test func aSessionThatRejoinsTheMeetingLeavesNoMark() throws {
        let root = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = HistoryFile(path: root + "/history.jsonl")
        try file.save(historyRecord(round: 2, title: "ABC-2"))
        var next = historyRecord(round: 3, minute: 1, title: "ABC-3")
        next.joined = 3  // a leave; join during round 3
        try file.save(next)
        var later = historyRecord(round: 5, minute: 3, title: "ABC-5")
        later.joined = 5  // round 4 was not heard here
        try file.save(later)
        #expect(try file.read().records.map(\.joined) == [nil, nil, 5])
    }

    @Test func aRoundHeardAgainByARejoinedSessionKeepsTheLineWhole() throws {
        let whole = historyRecord(round: 3, title: "ABC-3")
        var rejoined = historyRecord(round: 3, minute: 1)
        rejoined.id = "rejoined"
        rejoined.joined = 3
        #expect(whole.merging(rejoined, deck: .app).joined == nil, "this laptop heard round 3 before")
    }
}
