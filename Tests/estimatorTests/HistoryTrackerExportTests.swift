import DBusTestSupport
import EstimatorKit
import Foundation
import SessionDaemon
import Testing

/// `estimator history --csv` as a tracker takes it, checked by
/// Tests/Scripts/jira-import-check.py (Jira's CSV importer's documented
/// rules, and no row that would create an issue), on a meeting with every
/// kind of story a tracker must not get.
@Suite(.timeLimit(.minutes(2))) final class HistoryTrackerExportTests {
    let root: String
    /// The issues that exist in the tracker: every key the meeting voted.
    let existingKeys = ["ABC-1", "ABC-2", "ABC-3", "ABC-4", "octo/app#7"]

    init() throws {
        root = try TemporaryDirectory.make()
        let login = Story(key: "ABC-1", summary: "Login with passkeys")
        let unsettled = Story(key: "ABC-2", summary: "Export, as \"CSV\"")
        let keyAlone = Story(key: "ABC-3", summary: "")
        let half = Story(key: "ABC-4", summary: "=Half a day")
        let unkeyed = Story(key: nil, summary: "Board")
        let sizes = Story(key: "octo/app#7", summary: "Sizes")
        var records = [
            historyRecord(round: 1, minute: 0, title: login.title, votes: [("Alice", .three), ("Bob", .thirteen)]),
            historyRecord(round: 2, minute: 5, title: login.title, votes: [("Alice", .five), ("Bob", .eight)]),
            historyRecord(round: 3, minute: 9, title: unsettled.title, votes: [("Alice", .three), ("Bob", .eight)]),
            historyRecord(round: 4, minute: 12, title: keyAlone.title, votes: [("Alice", .five), ("Bob", .five)]),
            historyRecord(round: 5, minute: 15, title: half.title, votes: [("Alice", .half), ("Bob", .half)]),
            historyRecord(round: 6, minute: 18, title: unkeyed.title, votes: [("Alice", .three), ("Bob", .three)]),
            historyRecord(round: 7, minute: 21, title: sizes.title, votes: [("Alice", Card.sizes[2]), ("Bob", Card.sizes[3])]),
            historyRecord(round: 8, minute: 24, votes: [("Alice", .one), ("Bob", .one)]),
        ]
        for (index, story) in [login, login, unsettled, keyAlone, half, unkeyed, sizes].enumerated() {
            records[index].story = story
        }
        records[1].agreed = .eight
        records[3].agreed = .five
        records[4].agreed = .half
        records[5].agreed = .three
        records[6].agreed = Card.sizes[3]
        records[7].agreed = .one
        let file = HistoryFile(path: root + "/estimator/history.jsonl")
        for record in records { try file.save(record) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func history(_ arguments: String...) throws -> EstimatorProcess.Result {
        try history(arguments, state: root)
    }

    /// `estimator history` with `arguments`, its history under `state`.
    func history(_ arguments: [String], state: String) throws -> EstimatorProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state
        environment["TZ"] = "UTC"
        return try EstimatorProcess.run(arguments: ["history"] + arguments, environment: environment)
    }

    /// jira-import-check.py on `csv`, with `existingKeys` as the issues that exist.
    func importCheck(_ csv: String) throws -> (status: Int32, stdout: String) {
        let path = root + "/export.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/jira-import-check.py").path
        let out = Pipe(), err = Pipe()
        let process = try ChildProcess("/usr/bin/env", ["python3", script, path] + existingKeys, output: out, error: err)
        let (stdout, stderr) = process.finish(out, err)
        return (process.terminationStatus, stdout + stderr)
    }

    @Test func theDefaultCSVHoldsOnlyStoriesATrackerUpdatesAndCountsTheRest() throws {
        let result = try history("--csv")
        #expect(result.status == 0)
        let rows = try #require(HistoryCommandTests.parseCSV(result.stdout))
        #expect(rows == [
            ["Issue key", "Summary", "Story Points"],
            ["ABC-1", "Login with passkeys", "8"],
            ["ABC-4", "=Half a day", "0.5"],
        ])
        #expect(result.stderr == "left out 5 stories: 2 without a key, 1 without an agreed estimate, "
            + "1 sized L (give --points XS=1,S=2,… to map sizes), "
            + "1 without a summary (load the backlog, or begin the round as `estimator round \"ABC-1 Login\"`); "
            + "`--csv --all` writes every story.\n")
        let check = try importCheck(result.stdout)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("2 rows update existing issues, none creates one"), "\(check.stdout)")
    }

    @Test func pointsGiveTheSizesTheirNumbers() throws {
        let result = try history("--csv", "--points", "xs=1, S=2,M=3,L=5,XL=8,XXL=13")
        #expect(result.status == 0)
        let rows = try #require(HistoryCommandTests.parseCSV(result.stdout))
        #expect(rows.dropFirst().map { $0[0] } == ["ABC-1", "ABC-4", "octo/app#7"])
        #expect(rows.last == ["octo/app#7", "Sizes", "5"])
        #expect(result.stderr.hasPrefix("left out 4 stories: 2 without a key, 1 without an agreed estimate, 1 without a summary"))
        #expect(!result.stderr.contains("sized"))
        let check = try importCheck(result.stdout)
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func allKeepsEveryStoryAndTheImportCheckRefusesIt() throws {
        let result = try history("--csv", "--all")
        #expect(result.status == 0 && result.stderr == "")
        let rows = try #require(HistoryCommandTests.parseCSV(result.stdout))
        #expect(rows.count == 8 && rows.allSatisfy { $0.count == 13 })
        #expect(rows.dropFirst().map { $0[2] } == ["8", "", "5", "0.5", "3", "L", "1"])
        let check = try importCheck(result.stdout)
        #expect(check.status == 1)
        #expect(check.stdout.contains("no Issue key: the importer would create a new issue"), "\(check.stdout)")
        #expect(check.stdout.contains("Story Points 'L' is not a number"), "\(check.stdout)")
        #expect(check.stdout.contains("Story Points '' is not a number"), "\(check.stdout)")
        #expect(check.stdout.contains("Summary is empty"), "\(check.stdout)")
    }

    /// A summary that starts as a formula would reaches the tracker as the
    /// backlog had it: an import that maps Summary writes no apostrophe into
    /// the issue's title. The spreadsheet's record still neutralises it.
    @Test func summariesReachTheTrackerByteForByteAndTheSpreadsheetNeutralised() throws {
        let state = root + "/formulas"
        let file = HistoryFile(path: state + "/estimator/history.jsonl")
        let summaries = ["@mentions do not notify", "+1 for dark mode", "-v prints the version", "=Half a day, \"quoted\""]
        for (index, summary) in summaries.enumerated() {
            let story = Story(key: "ABC-\(index + 1)", summary: summary)
            var record = historyRecord(round: index + 1, minute: Int64(index), title: story.title, votes: [("Alice", .three)])
            record.story = story
            record.agreed = .three
            try file.save(record)
        }

        let tracker = try history(["--csv"], state: state)
        #expect(tracker.status == 0 && tracker.stderr == "", "\(tracker.stderr)")
        #expect(tracker.stdout == "Issue key,Summary,Story Points\r\n"
            + "ABC-1,@mentions do not notify,3\r\n"
            + "ABC-2,+1 for dark mode,3\r\n"
            + "ABC-3,-v prints the version,3\r\n"
            + "ABC-4,\"=Half a day, \"\"quoted\"\"\",3\r\n")

        let spreadsheet = try history(["--csv", "--all"], state: state)
        #expect(spreadsheet.status == 0, "\(spreadsheet.stderr)")
        let rows = try #require(HistoryCommandTests.parseCSV(spreadsheet.stdout))
        #expect(rows.dropFirst().map { $0[1] } == summaries.map { "'" + $0 })
    }

    @Test func theImportCheckRefusesAKeyThatIsNoExistingIssue() throws {
        let check = try importCheck("Issue key,Summary,Story Points\r\nABC-9,Nine,3\r\n")
        #expect(check.status == 1)
        #expect(check.stdout.contains("Issue key ABC-9 is no existing issue"), "\(check.stdout)")
    }

    /// The help's example of the warning is the binary's line for a meeting
    /// with one story without a key.
    @Test func theHelpsExampleWarningIsTheBinarysLine() throws {
        let help = try history("--help").stdout
        let example = try #require(help.split(separator: "\n").first { $0.hasPrefix("  left out ") })
        let other = try TemporaryDirectory.make()
        defer { try? FileManager.default.removeItem(atPath: other) }
        var keyed = historyRecord(round: 1, title: "ABC-1 Login"), unkeyed = historyRecord(round: 2, minute: 1, title: "Board")
        keyed.agreed = .five
        unkeyed.agreed = .three
        let file = HistoryFile(path: other + "/estimator/history.jsonl")
        try file.save(keyed)
        try file.save(unkeyed)
        let result = try EstimatorProcess.run(arguments: ["history", "--csv"], environment: ["XDG_STATE_HOME": other, "TZ": "UTC"])
        #expect(result.status == 0)
        #expect(result.stderr == example.dropFirst(2) + "\n")
        #expect(help.contains("  $ estimator history --csv --points XS=1,S=2,M=3,L=5,XL=8 > sprint-42.csv\n"))
    }

    @Test func jsonStillPrintsEveryStory() throws {
        let result = try history("--json")
        #expect(result.status == 0 && result.stderr == "")
        #expect(result.stdout.split(separator: "\n").count == 7)
    }

    @Test(arguments: [
        (["--csv", "--points", "XXXL=21"], "'XXXL' is not a size of the tshirt deck, XS S M L XL XXL (other cards are numbers already)"),
        (["--csv", "--points", "5=8"], "'5' is not a size of the tshirt deck"),
        (["--csv", "--points", "M=3,m=5"], "M is in it twice"),
        (["--csv", "--points", "M=three"], "'three' for M is not a number such as 3 or 2.5"),
        (["--csv", "--points", "M"], "'M' is not SIZE=NUMBER"),
        (["--csv", "--points", "M=1.2.3"], "'1.2.3' for M is not a number"),
    ])
    func aMalformedMappingIsRefusedNamingTheFix(arguments: [String], reason: String) throws {
        let result = try EstimatorProcess.run(arguments: ["history"] + arguments,
                                              environment: ["XDG_STATE_HOME": root, "TZ": "UTC"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.hasPrefix("Error: The value '\(arguments[2])' is invalid for '--points <XS=1,S=2,…>': \(reason)"),
                "\(result.stderr)")
        #expect(result.stderr.contains("give sizes and numbers as XS=1,S=2,M=3,L=5,XL=8,XXL=13."), "\(result.stderr)")
    }

    @Test(arguments: [
        (["--all"], "--all goes with --csv"),
        (["--json", "--all"], "--all goes with --csv"),
        (["--points", "M=3"], "--points goes with --csv"),
        (["--csv", "--all", "--points", "M=3"], "--all keeps the cards as voted"),
    ])
    func optionsThatDoNotGoTogetherAreBadUsage(arguments: [String], reason: String) throws {
        let result = try EstimatorProcess.run(arguments: ["history"] + arguments,
                                              environment: ["XDG_STATE_HOME": root, "TZ": "UTC"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(reason)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
