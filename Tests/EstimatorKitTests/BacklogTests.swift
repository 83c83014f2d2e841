import EstimatorKit
import Testing

/// Reading a backlog file: trackers' exports found by their headers, plain
/// lists, and files refused whole with one sentence.
@Suite struct BacklogTests {
    func parse(_ text: String, named name: String = "sprint.csv") throws(BacklogError) -> Backlog {
        try Backlog(parsing: Array(text.utf8), named: name)
    }

    func refusal(_ bytes: [UInt8], named name: String = "sprint.csv") -> BacklogError.Reason? {
        do {
            _ = try Backlog(parsing: bytes, named: name)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func jirasExportIsReadByItsIssueKeyAndSummaryColumns() throws {
        // Jira's "Export CSV (all fields)": Summary first, Issue id beside Issue key, repeated columns.
        let backlog = try parse("""
            Summary,Issue key,Issue id,Issue Type,Status,Sprint,Sprint,Description\r
            Login with passkeys,ABC-101,10001,Story,To Do,Sprint 42,,"As a user, I want ""passkeys""\r
            so that I forget passwords"\r
            "Export, then import",ABC-102,10002,Story,To Do,,,\r

            """)
        #expect(backlog.columns == ["Issue key", "Summary"])
        #expect(backlog.stories == [Story(key: "ABC-101", summary: "Login with passkeys"),
                                    Story(key: "ABC-102", summary: "Export, then import")])
    }

    @Test func linearsExportIsReadByItsIDAndTitleColumns() throws {
        let backlog = try parse("""
            "ID","Team","Title","Description","Status","Estimate","Priority"
            "ENG-7","Engineering","Bell on reveal","Ring once.
            Not twice.","Todo","","Medium"
            "ENG-8","Engineering","Timer: 2 minutes","","Backlog","3","Low"
            """, named: "Export Mon Nov 24 2026.csv")
        #expect(backlog.columns == ["ID", "Title"])
        #expect(backlog.stories.map(\.title) == ["ENG-7 Bell on reveal", "ENG-8 Timer: 2 minutes"])
    }

    @Test func gitHubProjectsTabSeparatedExportGivesRepositoryKeysFromTheURL() throws {
        let backlog = try parse("""
            Title\tURL\tAssignees\tStatus\tLabels
            Board for the projector\thttps://github.com/octo/estimator/issues/27\tann\tTodo\tmeeting, ui
            Faster pick\thttps://github.com/octo/estimator/pull/31\t\tIn Progress\t
            A draft idea\t\t\tTodo\t
            """, named: "Sprint board.tsv")
        #expect(backlog.columns == ["URL", "Title"])
        #expect(backlog.stories == [Story(key: "octo/estimator#27", summary: "Board for the projector"),
                                    Story(key: "octo/estimator#31", summary: "Faster pick"),
                                    Story(key: nil, summary: "A draft idea")])
    }

    @Test func headersAreFoundInAnyOrderCaseAndSeparator() throws {
        let semicolons = try parse("status;TITLE;key\nDone;Logout;XYZ-1\n", named: "export.csv")
        #expect(semicolons.stories == [Story(key: "XYZ-1", summary: "Logout")])
        let titleOnly = try parse("Title,Assignees\n\"Summary, with a comma\",ann\n")
        #expect(titleOnly.columns == ["Title"])
        #expect(titleOnly.stories == [Story(key: nil, summary: "Summary, with a comma")])
    }

    @Test func aByteOrderMarkAndUTF8AreRead() throws {
        let backlog = try Backlog(parsing: [0xEF, 0xBB, 0xBF] + Array("Issue key,Summary\nABC-1,전수열의 로그인 ☕\n".utf8),
                                  named: "sprint.csv")
        #expect(backlog.stories == [Story(key: "ABC-1", summary: "전수열의 로그인 ☕")])
        let plain = try Backlog(parsing: [0xEF, 0xBB, 0xBF] + Array("ABC-1 東京\n".utf8), named: "stories.txt")
        #expect(plain.stories == [Story(key: "ABC-1", summary: "東京")])
    }

    @Test func aPlainListIsOneStoryALineWithAnOptionalKey() throws {
        let backlog = try parse("""
            ABC-1 Login with passkeys\r
            ABC-2: Logout everywhere

               Make the table faster   \r
            #12 GitHub issue
            octo/app#13 Another repository's
            abc-3 lower case is a summary
            ENG-4
            """, named: "stories.txt")
        #expect(backlog.columns == [])
        #expect(backlog.stories == [
            Story(key: "ABC-1", summary: "Login with passkeys"), Story(key: "ABC-2", summary: "Logout everywhere"),
            Story(key: nil, summary: "Make the table faster"), Story(key: "#12", summary: "GitHub issue"),
            Story(key: "octo/app#13", summary: "Another repository's"),
            Story(key: nil, summary: "abc-3 lower case is a summary"), Story(key: "ENG-4", summary: ""),
        ])
    }

    @Test func controlsAndEscapesFromTheFileAreRemovedAndLinesJoined() throws {
        let backlog = try parse("Issue key,Summary\nABC-1,\"\u{1B}[2Jwipe\u{1B}]52;c;AAAA\u{07} the\tscreen\u{202E}\nnow\"\n")
        #expect(backlog.stories == [Story(key: "ABC-1", summary: "wipe the screen now")])
    }

    @Test func blankRowsAreSkippedAndRowsMayBeShort() throws {
        let backlog = try parse("Issue key,Summary,Status\n\n,,\nABC-1\nABC-2,Two\n")
        #expect(backlog.stories == [Story(key: "ABC-1", summary: ""), Story(key: "ABC-2", summary: "Two")])
    }

    @Test func theJSONKeptRoundTrips() throws {
        let backlog = try parse("Issue key,Summary\nABC-1,\"Quotes \"\"and\"\" 전수열\"\n,No key\n")
        #expect(backlog.json == #"{"source":"sprint.csv","columns":["Issue key","Summary"],"stories":"#
            + #"[{"key":"ABC-1","summary":"Quotes \"and\" 전수열"},{"key":null,"summary":"No key"}]}"#)
        #expect(Backlog(json: Array(backlog.json.utf8)) == backlog)
        #expect(Backlog(json: Array(#"{"source":"x","columns":[],"stories":[{"key":1,"summary":"s"}]}"#.utf8)) == nil)
        #expect(Backlog(json: Array("not json".utf8)) == nil)
    }

    // MARK: Bad files

    @Test func aCSVWithoutASummaryColumnIsRefused() {
        #expect(refusal(Array("Key,Points\nABC-1,5\n".utf8)) == .noSummaryColumn(header: "Key,Points"))
        #expect(refusal(Array("Key;Points\nABC-1;5\n".utf8)) == .noSummaryColumn(header: "Key;Points"), "not one column")
    }

    @Test func textThatIsNotUTF8IsRefusedWithItsLine() {
        let latin1: [UInt8] = Array("Issue key,Summary\nABC-1,ok\nABC-2,caf".utf8) + [0xE9] + Array("\n".utf8)
        #expect(refusal(latin1) == .notUTF8(line: 3))
        #expect(refusal([0xFF, 0xFE, 0x41, 0x00]) == .utf16)
        #expect(refusal([0xFE, 0xFF, 0x00, 0x41]) == .utf16)
    }

    @Test func anUnclosedQuoteIsRefusedWithTheLineItOpensOn() {
        #expect(refusal(Array("Issue key,Summary\nABC-1,ok\nABC-2,\"never closed\nABC-3,lost\n".utf8)) == .unclosedQuote(line: 3))
    }

    @Test func aStoryTwiceIsRefused() {
        #expect(refusal(Array("ABC-1 one\nABC-2 two\nABC-1: one again\n".utf8), named: "list.txt")
            == .twice(story: Story(key: "ABC-1", summary: "one again"), firstLine: 1, line: 3))
        #expect(refusal(Array("Issue key,Summary\nABC-1,a\nabc-1,b\n".utf8))
            == .twice(story: Story(key: "abc-1", summary: "b"), firstLine: 2, line: 3), "keys match whatever their case")
        #expect(refusal(Array("Same\n\nSame\n".utf8), named: "list.txt") == .twice(story: Story(key: nil, summary: "Same"), firstLine: 1, line: 3))
    }

    @Test func tooLongFieldsEmptyFilesAndTooManyStoriesAreRefused() {
        let long = String(repeating: "x", count: 256)
        #expect(refusal(Array("Issue key,Summary\nABC-1,\(long)\n".utf8))
            == .tooLong(line: 2, what: "summary", length: 256, limit: 255))
        #expect(refusal(Array("Issue key,Summary\n\(long),s\n".utf8)) == .tooLong(line: 2, what: "key", length: 256, limit: 100))
        #expect(refusal(Array("\n  \n".utf8), named: "list.txt") == .emptyFile)
        #expect(refusal(Array("Issue key,Summary\n".utf8)) == .empty)
        #expect(refusal([]) == .emptyFile)
        #expect(refusal([0xEF, 0xBB, 0xBF, 0x0D, 0x0A]) == .emptyFile)
        let many = (1...1001).map { "S-\($0)" }.joined(separator: "\n")
        #expect(refusal(Array(many.utf8), named: "list.txt") == .tooMany(1001))
    }

    @Test func everyRefusalIsOneSentenceNamingTheFile() {
        let reasons: [BacklogError.Reason] = [
            .utf16, .notUTF8(line: 3), .noSummaryColumn(header: "a,\u{1B}[2Jb"), .unclosedQuote(line: 4),
            .tooLong(line: 2, what: "summary", length: 300, limit: 255),
            .twice(story: Story(key: "ABC-1", summary: "x"), firstLine: 1, line: 3), .empty, .tooMany(1200),
            .emptyFile, .html, .noColumn(option: "--key-column", column: .named("\u{1B}[2JKey"), columns: ["a", "b"]),
            .noColumn(option: "--summary-column", column: .numbered(9), columns: (1...30).map { "Column \($0)" }),
        ]
        for reason in reasons {
            let sentence = BacklogError(file: "sprint.csv", reason: reason).description
            #expect(sentence.contains("sprint.csv"), "\(sentence)")
            #expect(sentence.hasSuffix("."), "\(sentence)")
            #expect(!sentence.contains("\n") && !sentence.contains("\u{1B}"), "\(sentence)")
            #expect(sentence.first?.isUppercase == true || sentence.hasPrefix("sprint") || sentence.hasPrefix("\""), "\(sentence)")
        }
    }
}

@Suite struct StoryTests {
    @Test(arguments: [
        ("ABC-123 Login", "ABC-123", "Login"), ("ABC_1-9", "ABC_1-9", ""), ("A1-2 x", "A1-2", "x"),
        ("#7: fix", "#7", "fix"), ("o/r#7 fix", "o/r#7", "fix"), ("Login page", nil, "Login page"),
        ("ABC- 1", nil, "ABC- 1"), ("-1 x", nil, "-1 x"), ("#x y", nil, "#x y"), ("a/b/c#1 z", nil, "a/b/c#1 z"),
        ("abc-1 z", nil, "abc-1 z"), ("  ABC-1   spaced   out  ", "ABC-1", "spaced out"), ("", nil, ""),
    ] as [(String, String?, String)])
    func aLineIsAKeyAndASummary(line: String, key: String?, summary: String) {
        let story = Story(line: line)
        #expect(story.key == key && story.summary == summary)
    }

    @Test func theTitleReadsBackAsTheStory() {
        for story in [Story(key: "ABC-1", summary: "Login"), Story(key: "ENG-2", summary: ""), Story(key: nil, summary: "Just words")] {
            #expect(Story(line: story.title) == story)
        }
        #expect(Story(key: "ABC-1", summary: "Login").title == "ABC-1 Login")
    }

    @Test func theSameStoryIsTheSameKeyElseTheSameSummary() {
        #expect(Story(key: "ABC-1", summary: "a").isSame(as: Story(key: "abc-1", summary: "b")))
        #expect(!Story(key: "ABC-1", summary: "a").isSame(as: Story(key: nil, summary: "a")))
        #expect(Story(key: nil, summary: "a").isSame(as: Story(key: nil, summary: "a")))
        #expect(Story(key: " ", summary: "a").key == nil)
    }
}

@Suite struct CSVReadTests {
    @Test func recordsFollowRFC4180AndKeepTheirLines() throws {
        let records = try CSV.records("a,\"b,\"\"c\"\"\"\r\n\"multi\r\nline\",x\n\nlast,\"\"", separator: ",")
        #expect(records == [CSV.Record(line: 1, fields: ["a", "b,\"c\""]), CSV.Record(line: 2, fields: ["multi\r\nline", "x"]),
                            CSV.Record(line: 5, fields: ["last", ""])])
    }

    @Test func strayQuotesAreKeptAsWritten() throws {
        #expect(try CSV.records("5\" disk,\"quoted\"tail\n", separator: ",") == [CSV.Record(line: 1, fields: ["5\" disk", "quotedtail"])])
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: CSVReadError(line: 2)) { try CSV.records("a\n\"b\nc", separator: ",") }
    }

    @Test func whatTheWriterWritesTheReaderReads() throws {
        let fields = ["plain", "comma, here", "quote \" here", "line\nbreak", "=SUM(A1)", "전수열 ☕", ""]
        let forSpreadsheet = CSV.record(fields, for: .spreadsheet) + CSV.lineEnding
        #expect(try CSV.records(forSpreadsheet, separator: ",").first?.fields == fields.map { $0.hasPrefix("=") ? "'" + $0 : $0 })
        let forImporter = CSV.record(fields, for: .importer) + CSV.lineEnding
        #expect(try CSV.records(forImporter, separator: ",").first?.fields == fields)
    }
}

/// The next story of a backlog, as the history tells which are estimated.
@Suite struct BacklogProgressTests {
    let backlog = Backlog(stories: [Story(key: "ABC-1", summary: "One"), Story(key: nil, summary: "Two"),
                                    Story(key: "ABC-3", summary: "Three")], source: "sprint.csv")

    func round(_ title: String?, story: Story? = nil, agreed: Card? = nil) -> HistoryRecord {
        var record = sampleRecord(title: title)
        record.story = story
        record.agreed = agreed
        return record
    }

    @Test func theNextStoryIsTheFirstWithoutAnAgreedEstimate() throws {
        let fresh = BacklogProgress(backlog, history: [])
        #expect(fresh.next?.index == 0 && fresh.next?.story.key == "ABC-1" && fresh.estimated == 0)
        let voted = BacklogProgress(backlog, history: [round("ABC-1 One", story: backlog.stories[0])])
        #expect(voted.next?.index == 0, "revealed without agreement: voted again")
        let one = BacklogProgress(backlog, history: [round("ABC-1 One", story: backlog.stories[0], agreed: .five)])
        #expect(one.next?.story == backlog.stories[1] && one.estimated == 1)
        #expect(one.entries.map(\.agreed) == [.five, nil, nil])
    }

    @Test func storiesAreKnownByKeyOrSummaryHoweverTheRoundWasStarted() {
        let history = [
            round("ABC-3", agreed: .eight),  // typed by hand: the key alone
            round("Two", agreed: .three),  // typed by hand: the summary
            round("ABC-1 One", story: Story(key: "ABC-1", summary: "One"), agreed: .five),
            round("ABC-1 One", story: Story(key: "ABC-1", summary: "One"), agreed: .thirteen),
        ]
        let progress = BacklogProgress(backlog, history: history)
        #expect(progress.entries.map(\.agreed) == [.thirteen, .three, .eight], "the newest agreement counts")
        #expect(progress.next == nil && progress.estimated == 3)
    }

    @Test func aStoryIsFoundByItsKey() {
        let progress = BacklogProgress(backlog, history: [])
        #expect(progress.story(keyed: "abc-3") == backlog.stories[2])
        #expect(progress.story(keyed: "Two") == nil, "by key only")
    }
}
