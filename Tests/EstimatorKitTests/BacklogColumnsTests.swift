import EstimatorKit
import Testing

/// The columns of a backlog file: today's trackers' names, columns named by
/// the person loading the file, files of one column, Markdown lists, and
/// the files that are no backlog at all.
@Suite struct BacklogColumnsTests {
    func parse(_ text: String, named name: String = "sprint.csv", key: BacklogColumn? = nil,
               summary: BacklogColumn? = nil) throws(BacklogError) -> Backlog {
        try Backlog(parsing: Array(text.utf8), named: name, keyColumn: key, summaryColumn: summary)
    }

    func refusal(_ text: String, named name: String = "sprint.csv", key: BacklogColumn? = nil,
                 summary: BacklogColumn? = nil) -> BacklogError.Reason? {
        do {
            _ = try parse(text, named: name, key: key, summary: summary)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func jiraCloudsWorkItemKeyIsTheKey() throws {
        let backlog = try parse("Summary,Work item key,Work item id,Work item Type,Status\r\nLogin,ABC-1,10001,Story,To Do\r\n")
        #expect(backlog.columns == ["Work item key", "Summary"])
        #expect(backlog.stories == [Story(key: "ABC-1", summary: "Login")])
    }

    @Test func germanJirasColumnsAreRecognised() throws {
        let backlog = try parse("Zusammenfassung,Schlüssel,Vorgangstyp\nAnmelden mit Passkeys,ABC-1,Story\n")
        #expect(backlog.columns == ["Schlüssel", "Zusammenfassung"])
        #expect(backlog.stories == [Story(key: "ABC-1", summary: "Anmelden mit Passkeys")])
    }

    @Test func columnsNamedByNameOrNumberWinOverRecognisedOnes() throws {
        let text = "Title;Ticket;Story;Points\n ignored ;PLAT-1042;Faster board;5\n"
        let named = try parse(text, key: .named("  TICKET "), summary: .named("story"))
        #expect(named.columns == ["Ticket", "Story"])
        #expect(named.stories == [Story(key: "PLAT-1042", summary: "Faster board")])
        let numbered = try parse(text, key: .numbered(2), summary: .numbered(3))
        #expect(numbered.stories == named.stories)
        let onlyKey = try parse("Summary,Ref\nLogin,https://github.com/octo/app/issues/12\n", key: .named("Ref"))
        #expect(onlyKey.stories == [Story(key: "octo/app#12", summary: "Login")], "a GitHub URL is a key in any column")
        let onlySummary = try parse("Issue key,Summary,Headline\nABC-1,x,Login\n", summary: .numbered(3))
        #expect(onlySummary.columns == ["Issue key", "Headline"])
        #expect(onlySummary.stories == [Story(key: "ABC-1", summary: "Login")])
    }

    @Test func aNamedColumnTheFileLacksIsRefusedWithTheFilesColumns() {
        let text = "Zusammenfassung,Schlüssel,Status\nx,ABC-1,Done\n"
        let columns = ["Zusammenfassung", "Schlüssel", "Status"]
        #expect(refusal(text, key: .named("Issue key")) == .noColumn(option: "--key-column", column: .named("Issue key"), columns: columns))
        #expect(refusal(text, summary: .numbered(4)) == .noColumn(option: "--summary-column", column: .numbered(4), columns: columns))
        #expect(refusal("Ref,Points\nABC-1,5\n", key: .named("ref")) == .noSummaryColumn(header: "Ref,Points"))
        let sentence = BacklogError(file: "x.csv", reason: .noColumn(option: "--key-column", column: .named("Issue key"),
                                                                       columns: columns)).description
        #expect(sentence == "x.csv has no column \"Issue key\" (--key-column); its columns are 1 \"Zusammenfassung\", "
            + "2 \"Schlüssel\", 3 \"Status\"; give --key-column one of these names or numbers.")
        let numbered = BacklogError(file: "x.csv", reason: .noColumn(option: "--summary-column", column: .numbered(4),
                                                                       columns: (1...14).map { "C\($0)" })).description
        #expect(numbered.hasPrefix("x.csv has no column 4 (--summary-column); its columns are 1 \"C1\", 2 \"C2\""))
        #expect(numbered.hasSuffix("12 \"C12\" and 2 more; give --summary-column one of these names or numbers."))
    }

    @Test func aColumnIsANameOrANumberFromOne() {
        #expect(BacklogColumn("3") == .numbered(3))
        #expect(BacklogColumn(" Issue key ") == .named("Issue key"))
        #expect(BacklogColumn("3a") == .named("3a"))
        #expect(BacklogColumn("0") == nil && BacklogColumn("  ") == nil && BacklogColumn("99999999999999999999") == nil)
    }

    @Test func aFileOfOneColumnWithoutAHeaderIsAList() throws {
        let backlog = try parse("ABC-1 Login\r\n\"Export, then import\"\r\nPLAT-1042: Faster board\r\n", named: "stories.CSV")
        #expect(backlog.columns == [])
        #expect(backlog.stories == [Story(key: "ABC-1", summary: "Login"), Story(key: nil, summary: "Export, then import"),
                                    Story(key: "PLAT-1042", summary: "Faster board")])
        let withHeader = try parse("Summary\nLogin\n", named: "one.csv")
        #expect(withHeader.columns == ["Summary"] && withHeader.stories == [Story(key: nil, summary: "Login")])
        #expect(refusal("ABC-1 Login\nABC-2 Export, then import\n") == nil, "a comma after the first line is a field's")
        #expect(refusal("ABC-1 Login, quickly\nABC-2 Export\n") == .noSummaryColumn(header: "ABC-1 Login, quickly"))
    }

    @Test(arguments: [
        ("- [ ] ABC-1 Login", Story(key: "ABC-1", summary: "Login")),
        ("* [x] ENG-7 Bell on reveal", Story(key: "ENG-7", summary: "Bell on reveal")),
        ("  + [X] octo/app#12 Board", Story(key: "octo/app#12", summary: "Board")),
        ("1. PLAT-1042 Faster board", Story(key: "PLAT-1042", summary: "Faster board")),
        ("12) Export", Story(key: nil, summary: "Export")),
        ("- Plain bullet", Story(key: nil, summary: "Plain bullet")),
        ("-5 degrees outside", Story(key: nil, summary: "-5 degrees outside")),
        ("2026 plans", Story(key: nil, summary: "2026 plans")),
        ("[ ] a box alone", Story(key: nil, summary: "[ ] a box alone")),
        ("#12 A GitHub issue", Story(key: "#12", summary: "A GitHub issue")),
    ])
    func markdownListItemsAreTheirText(line: String, story: Story) throws {
        #expect(try parse("## Sprint 42\n#\n" + line + "\n", named: "sprint.md").stories == [story], "headings are skipped")
    }

    @Test func anHTMLPageAndAnEmptyFileAreRefusedNamingTheFix() {
        let jiraExcel = "<meta http-equiv=\"Content-Type\" content=\"application/vnd.ms-excel; charset=UTF-8\">\n"
            + "<html><body><table><tr><th>Summary</th></tr></table></body></html>\n"
        #expect(refusal(jiraExcel, named: "Jira.xls") == .html)
        #expect(refusal("\n<!DOCTYPE html>\n<html>\n", named: "export.csv") == .html)
        #expect(refusal("<b>Bold</b> idea\n", named: "list.txt") == nil, "a story may start with a tag")
        #expect(refusal("", named: "sprint.csv") == .emptyFile)
        #expect(BacklogError(file: "Jira.xls", reason: .html).description
            == "Jira.xls is an HTML page, not CSV; export CSV from Jira (Export, then Export CSV (all fields)) and load that file.")
        #expect(BacklogError(file: "s.csv", reason: .emptyFile).description
            == "s.csv is empty; write one story a line, or export the stories as CSV with a Summary or Title column.")
    }
}
