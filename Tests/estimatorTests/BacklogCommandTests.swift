import EstimatorKit
import Foundation
import SessionDaemon
import Testing

/// `estimator backlog` as a process, with its own `XDG_STATE_HOME`: trackers'
/// exports and plain lists loaded, bad files refused whole, the list shown
/// with what the history says is estimated.
@Suite(.timeLimit(.minutes(2))) final class BacklogCommandTests {
    let root: String

    init() throws { root = try TemporaryDirectory.make() }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["LC_ALL"] = "C.UTF-8"
        return environment
    }

    var storedPath: String { root + "/state/estimator/backlog.json" }

    func backlog(_ arguments: String...) throws -> EstimatorProcess.Result {
        try EstimatorProcess.run(arguments: ["backlog"] + arguments, environment: environment)
    }

    /// Writes `bytes` to a file named `name` in the test's directory; returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = root + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func file(_ name: String, _ text: String) throws -> String { try file(name, Array(text.utf8)) }

    static let jira = """
        Summary,Issue key,Issue id,Issue Type,Status,Description\r
        Login with passkeys,ABC-101,10001,Story,To Do,"As a user, I want ""passkeys""\r
        so that I forget passwords"\r
        "Export, then import",ABC-102,10002,Story,To Do,\r

        """

    @Test func aJiraExportLoadsAndIsListedWithWhatTheHistorySaysIsEstimated() throws {
        let path = try file("sprint-42.csv", [0xEF, 0xBB, 0xBF] + Array(Self.jira.utf8))
        let loaded = try backlog(path)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout == "loaded 2 stories from \(path) (columns Issue key and Summary); next: ABC-101 Login with passkeys\n")
        var listed = try backlog().stdout.split(separator: "\n")
        #expect(listed == [
            "\(path): 0 of 2 stories estimated; next: ABC-101 Login with passkeys",
            "KEY      SUMMARY              AGREED",
            "ABC-101  Login with passkeys  next",
            "ABC-102  Export, then import  ·",
        ])

        var record = historyRecord(round: 1, title: "ABC-101 Login with passkeys")
        record.story = Story(key: "ABC-101", summary: "Login with passkeys")
        record.agreed = .eight
        try HistoryFile(path: root + "/state/estimator/history.jsonl").save(record)
        listed = try backlog().stdout.split(separator: "\n")
        #expect(listed.first == "\(path): 1 of 2 stories estimated; next: ABC-102 Export, then import")
        #expect(listed[2] == "ABC-101  Login with passkeys  8" && listed[3] == "ABC-102  Export, then import  next")
        let again = try backlog(path)
        #expect(again.stdout.hasSuffix("(columns Issue key and Summary); 1 agreed already; next: ABC-102 Export, then import\n"))
    }

    @Test(arguments: [
        ("Export Mon Nov 24 2026.csv", "\"ID\",\"Team\",\"Title\",\"Description\"\n\"ENG-7\",\"Eng\",\"Bell on reveal\",\"Ring.\nOnce.\"\n",
         "columns ID and Title", "ENG-7 Bell on reveal"),
        ("Sprint board.tsv", "Title\tURL\tAssignees\tStatus\nBoard\thttps://github.com/octo/estimator/issues/27\tann\tTodo\n",
         "columns URL and Title", "octo/estimator#27 Board"),
        ("stories.txt", "ABC-1 Login\n\nJust a summary\n", "one a line", "ABC-1 Login"),
        ("Jira Cloud.csv", "Summary,Work item key,Work item id,Status\r\nLogin with passkeys,ABC-101,10001,To Do\r\n",
         "columns Work item key and Summary", "ABC-101 Login with passkeys"),
        ("Jira (deutsch).csv", "Zusammenfassung,Schlüssel,Vorgangstyp\nAnmelden,ABC-1,Story\n",
         "columns Schlüssel and Zusammenfassung", "ABC-1 Anmelden"),
        ("list.csv", "PLAT-1042 Faster board\n\"Export, then import\"\n", "one a line", "PLAT-1042 Faster board"),
        ("sprint.md", "# Sprint 42\n\n- [ ] ENG-7 Bell on reveal\n* [x] owner/repo#12 Board\n1. Timer\n", "one a line", "ENG-7 Bell on reveal"),
        ("titles.csv", "Title,Assignee\nBoard,ann\n", "column Title, no key column: --key-column names one", "Board"),
    ])
    func trackersExportsAndPlainListsLoad(name: String, text: String, columns: String, first: String) throws {
        let path = try file(name, text)
        let loaded = try backlog(path)
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout.contains("(\(columns)); next: \(first)\n"), "\(loaded.stdout)")
    }

    @Test(arguments: [
        ("latin1.csv", Array("Issue key,Summary\nABC-1,caf".utf8) + [0xE9] + [0x0A],
         "Error: Line 2 of {} is not UTF-8 text; save it as UTF-8 (in Excel: CSV UTF-8) and load it again."),
        ("utf16.csv", [0xFF, 0xFE] + Array("I\0s\0".utf8), "Error: {} is UTF-16 text; save it as UTF-8 (in Excel: CSV UTF-8) and load it again."),
        ("columns.csv", Array("Key,Points\nABC-1,5\n".utf8),
         "Error: {} has no Summary or Title column (its first line is \"Key,Points\"); name the stories' column with --summary-column NAME or NUMBER."),
        ("quote.csv", Array("Issue key,Summary\nABC-1,\"open\nABC-2,lost\n".utf8),
         "Error: The quoted field that opens on line 2 of {} is never closed; check the quotes there."),
        ("twice.txt", Array("ABC-1 one\nABC-1 again\n".utf8), "Error: \"ABC-1\" is on lines 1 and 2 of {}; give each story once."),
        ("empty.txt", Array("\n\n".utf8), "Error: {} is empty; write one story a line, or export the stories as CSV with a Summary or Title column."),
        ("empty.csv", [], "Error: {} is empty; write one story a line, or export the stories as CSV with a Summary or Title column."),
        ("header.csv", Array("Issue key,Summary\n".utf8),
         "Error: {} holds no stories; write one a line, or export them as CSV with a Summary or Title column."),
        ("Jira.xls", Array("<meta http-equiv=\"Content-Type\" content=\"application/vnd.ms-excel\">\n<html><table>\n".utf8),
         "Error: {} is an HTML page, not CSV; export CSV from Jira (Export, then Export CSV (all fields)) and load that file."),
    ] as [(String, [UInt8], String)])
    func aBadFileIsOneSentenceExit65AndLoadsNothing(name: String, bytes: [UInt8], error: String) throws {
        let good = try file("good.txt", "ABC-7 Kept\n")
        #expect(try backlog(good).status == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: storedPath))
        let path = try file(name, bytes)
        let result = try backlog(path)
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr == error.replacingOccurrences(of: "{}", with: path) + "\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: storedPath)) == stored, "the backlog loaded before stays")
        #expect(try backlog().stdout.contains("next: ABC-7 Kept"))
    }

    @Test func columnsNamedByNameOrNumberAreRead() throws {
        let path = try file("plan.csv", "Title,Ticket,Story\nignored,PLAT-1042,Faster board\nignored,ABC-7,Login\n")
        let loaded = try backlog(path, "--key-column", "ticket", "--summary-column", "3")
        #expect(loaded.status == 0, "\(loaded.stderr)")
        #expect(loaded.stdout == "loaded 2 stories from \(path) (columns Ticket and Story); next: PLAT-1042 Faster board\n")
        #expect(try backlog().stdout.contains("ABC-7      Login         ·"))
    }

    @Test func aNamedColumnTheFileLacksIsRefusedListingItsColumnsAndLoadsNothing() throws {
        #expect(try backlog(try file("good.txt", "ABC-7 Kept\n")).status == 0)
        let stored = try Data(contentsOf: URL(fileURLWithPath: storedPath))
        let path = try file("Export.csv", "Zusammenfassung,Schlüssel,\"\u{1B}[2JStatus\"\nAnmelden,ABC-1,Erledigt\n")
        let result = try backlog(path, "--key-column", "Issue key")
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(path) has no column \"Issue key\" (--key-column); its columns are 1 \"Zusammenfassung\", "
            + "2 \"Schlüssel\", 3 \"Status\"; give --key-column one of these names or numbers.\n")
        let numbered = try backlog(path, "--summary-column", "9")
        #expect(numbered.status == 65 && numbered.stderr.hasPrefix("Error: \(path) has no column 9 (--summary-column);"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: storedPath)) == stored, "the backlog loaded before stays")
    }

    @Test func aColumnThatIsNoColumnOrWithoutAFileIsBadUsage() throws {
        let zero = try backlog(root + "/x.csv", "--key-column", "0")
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("give a column's name as the file's first line has it, or its number from 1."), "\(zero.stderr)")
        let alone = try backlog("--summary-column", "Title")
        #expect(alone.status == 64)
        #expect(alone.stderr.hasPrefix("Error: Give --key-column and --summary-column with the FILE whose columns they name."))
    }

    @Test func aFileThatIsNotThereOrBothFileAndClearIsBadUsage() throws {
        let missing = try backlog(root + "/nosuch.csv")
        #expect(missing.status == 64 && missing.stderr == "Error: There is no file \(root)/nosuch.csv; give the path of the stories to load.\n")
        let both = try backlog(root + "/x.csv", "--clear")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: Give FILE or --clear, not both."))
    }

    @Test func clearForgetsTheBacklog() throws {
        #expect(try backlog().stdout == "No backlog loaded: `estimator backlog FILE` loads the stories to estimate.\n")
        #expect(try backlog("--clear").stdout == "no backlog was loaded\n")
        #expect(try backlog(try file("s.txt", "ABC-1 x\n")).status == 0)
        #expect(try backlog("--clear").stdout == "backlog forgotten; `estimator round` starts untitled rounds again\n")
        #expect(!FileManager.default.fileExists(atPath: storedPath))
    }

    @Test func aDamagedBacklogIsExit65() throws {
        try FileManager.default.createDirectory(atPath: root + "/state/estimator", withIntermediateDirectories: true)
        try Data("{\"stories\":".utf8).write(to: URL(fileURLWithPath: storedPath))
        let result = try backlog()
        #expect(result.status == 65)
        #expect(result.stderr == "Error: \(storedPath) is damaged; load the backlog again with `estimator backlog FILE`.\n")
    }

    @Test func namesFromTheFileReachTheTerminalSanitised() throws {
        let path = try file("hostile.csv", "Issue key,Summary\n\"ABC-1\",\"\u{1B}]52;c;AAAA\u{07}Wipe\u{1B}[2J it\"\n")
        #expect(try backlog(path).stdout.hasSuffix("next: ABC-1 Wipe it\n"))
        let listed = try backlog().stdout
        #expect(listed.contains("ABC-1  Wipe it  next"))
        #expect(!listed.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func helpShowsExamples() throws {
        let result = try backlog("--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("$ estimator backlog sprint-42.csv"))
        #expect(result.stdout.contains("Jira"))
        for text in ["--key-column <name|number>", "--summary-column <name|number>", "Work item key", "Schlüssel",
                     "Zusammenfassung", "$ estimator backlog plan.csv --key-column Ticket --summary-column 2"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
    }
}
