import EstimatorKit
import Foundation
import SessionDaemon
import Testing

/// `estimator history` as a process, with its own `XDG_STATE_HOME` and
/// `TZ=UTC`, on a history file written by `HistoryFile`.
@Suite(.timeLimit(.minutes(2))) final class HistoryCommandTests {
    let root: String
    let records = [
        historyRecord(round: 3, title: "ABC-1", votes: [("Alice", .five), ("Bob", .five), ("전수열", .five)]),
        historyRecord(round: 4, minute: 8, title: "a \"long\", hostile\ntitle that goes on and on",
                      votes: [("=cmd|' /C calc'!A0", .three), ("Bob", .eight), ("Eve\u{1B}]52;c;AAAA\u{07}", .coffee)]),
        historyRecord(round: nil, minute: 20, votes: [("Ann", .question)]),
    ]

    init() throws {
        root = try TemporaryDirectory.make()
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = root
        environment["TZ"] = "UTC"
        return environment
    }

    func history(_ arguments: String...) throws -> EstimatorProcess.Result {
        try EstimatorProcess.run(arguments: ["history"] + arguments, environment: environment)
    }

    func saveAll() throws {
        let file = HistoryFile(path: root + "/estimator/history.jsonl")
        for record in records { try file.save(record) }
    }

    @Test func noHistoryYetIsOneSentenceAndSuccess() throws {
        let result = try history()
        #expect(result.status == 0)
        #expect(result.stdout == "No rounds yet: each round a session reveals is kept in \(root)/estimator/history.jsonl.\n")
        #expect(result.stderr == "")
    }

    @Test func noHistoryYetInJSONOrCSVIsValidEmptyData() throws {
        let json = try history("--json"), csv = try history("--csv"), all = try history("--csv", "--all")
        #expect(json.status == 0 && json.stdout == "")
        #expect(csv.status == 0 && csv.stdout == HistoryRecord.TrackerExport.header + "\r\n")
        #expect(all.status == 0 && all.stdout == HistoryRecord.csvHeader + "\r\n")
        for result in [json, csv, all] { #expect(result.stderr == "No rounds yet: each round a session reveals is kept in \(root)/estimator/history.jsonl.\n") }
    }

    @Test func theTableShowsEachRoundOnALineWithSanitisedNames() throws {
        try saveAll()
        let result = try history()
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("TIME  "))
        #expect(lines[1].hasPrefix("2026-11-22 03:00 UTC   1      3  ABC-1"))
        #expect(lines[1].contains("consensus 5"))
        #expect(lines[1].hasSuffix("Alice 5, Bob 5, 전수열 5"))
        #expect(lines[2].contains("  a \"long\", hostiletitle…  "))  // line breaks removed, cut to 24 columns
        #expect(lines[2].contains("median 5.5 · mean 5.5"))
        #expect(lines[2].hasSuffix("Bob 8, Eve ☕"))
        #expect(lines[3].hasPrefix("2026-11-22 03:20 UTC   1      –"))
        #expect(lines[3].contains("no numbers"))
        // Columns line up: every row's RESULT starts at the header's column.
        let resultColumn = try #require(lines[0].range(of: "RESULT")).lowerBound
        let resultWidth = TerminalText.displayWidth(String(lines[0][..<resultColumn]))
        for (line, result) in zip(lines.dropFirst(), ["consensus", "median", "no numbers"]) {
            let start = try #require(line.range(of: result)).lowerBound
            #expect(TerminalText.displayWidth(String(line[..<start])) == resultWidth)
        }
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F })
    }

    @Test func lastShowsOnlyTheNewestRounds() throws {
        try saveAll()
        let result = try history("--last", "2")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains("03:08"))
        #expect(lines[2].contains("03:20"))
    }

    @Test func jsonPrintsOneParsableObjectPerStory() throws {
        try saveAll()
        let result = try history("--json", "--last", "2")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["id"] as? String } == records.suffix(2).map(\.id))
        let parsed = lines.compactMap { HistoryRecord(jsonLine: Array($0.utf8)) }
        #expect(parsed.map(\.id) == records.suffix(2).map(\.id))
        #expect(parsed.map(\.time) == records.suffix(2).map(\.time))
        // A name is printed as the table shows it: `jq -r` must write nothing a terminal acts on.
        let names = (objects[0]["votes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["=cmd|' /C calc'!A0", "Bob", "Eve"])
        #expect(!result.stdout.contains("\\u001b") && !result.stdout.contains("\\u0007"))
    }

    @Test func csvAllParsesWithAHeaderAndKeepsNamesSanitisedButNotFormulas() throws {
        try saveAll()
        let result = try history("--csv", "--all")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let rows = try #require(Self.parseCSV(result.stdout))
        #expect(rows.count == 4)
        #expect(rows[0] == ["Issue key", "Summary", "Story Points", "Median", "Mean", "Cards", "Time", "Channel", "Round",
                            "Nearest", "Consensus", "Questions", "Coffees"])
        #expect(rows.allSatisfy { $0.count == 13 })
        #expect(rows[1] == ["ABC-1", "", "", "5", "5", "Alice=5; Bob=5; 전수열=5", "2026-11-22T03:00:00.250Z", "1", "3", "5",
                            "true", "0", "0"])
        #expect(rows[2][0] == "" && rows[2][1] == "a \"long\", hostile title that goes on and on", "the title, on one line")
        #expect(rows[2][5] == "'=cmd|' /C calc'!A0=3; Bob=8; Eve=coffee")
        #expect(rows[3][1] == "" && rows[3][3] == "" && rows[3][8] == "" && rows[3][11] == "1")
    }

    /// A meeting: a story voted twice before the team settled, one agreed
    /// by consensus, a T-shirt size, a round without a story.
    func meeting() throws -> [HistoryRecord] {
        let login = Story(key: "ABC-1", summary: "Login with passkeys"), export = Story(key: nil, summary: "Export, as \"CSV\"")
        var records = [
            historyRecord(round: 1, minute: 0, title: login.title, votes: [("Alice", .three), ("Bob", .thirteen)]),
            historyRecord(round: 2, minute: 5, title: login.title, votes: [("Alice", .five), ("Bob", .eight)]),
            historyRecord(round: 3, minute: 9, title: export.title, votes: [("Alice", .three), ("Bob", .three)]),
            historyRecord(round: 4, minute: 12, title: "octo/app#7 Sizes", votes: [("Alice", Card.sizes[2]), ("Bob", Card.sizes[3])]),
            historyRecord(round: 5, minute: 15, votes: [("Alice", .half), ("Bob", .one)]),
        ]
        records[0].story = login
        records[1].story = login
        records[1].agreed = .eight
        records[2].story = export
        records[2].agreed = .three
        records[3].agreed = Card.sizes[3]
        let file = HistoryFile(path: root + "/estimator/history.jsonl")
        for record in records { try file.save(record) }
        return records
    }

    @Test func csvAndJSONExportOneRowPerStoryWithItsAgreedEstimate() throws {
        let records = try meeting()
        let stories = HistoryRecord.perStory(records)
        #expect(stories.map(\.round) == [2, 3, 4, 5])

        let json = try history("--json")
        #expect(json.status == 0 && json.stderr == "")
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.compactMap { HistoryRecord(jsonLine: Array($0.utf8)) } == stories, "what --json prints reads back")
        let first = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((first["story"] as? [String: Any])?["key"] as? String == "ABC-1")
        #expect(first["agreed"] as? String == "8")

        let csv = try history("--csv", "--all")
        let rows = try #require(Self.parseCSV(csv.stdout))
        #expect(rows.dropFirst().map { Array($0.prefix(6)) } == [
            ["ABC-1", "Login with passkeys", "8", "6.5", "6.5", "Alice=5; Bob=8"],
            ["", "Export, as \"CSV\"", "3", "3", "3", "Alice=3; Bob=3"],
            ["octo/app#7", "Sizes", "L", "", "", "Alice=M; Bob=L"],
            ["", "", "", "0.75", "0.75", "Alice=0.5; Bob=1"],
        ])
        #expect(rows.dropFirst().map { $0[6] } == stories.map { RFC3339.string($0.time) })
    }

    @Test func theTableListsEveryRoundWithTheAgreedEstimate() throws {
        _ = try meeting()
        let lines = try history().stdout.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[1].contains("median 8 · mean 8"), "\(lines[1])")
        #expect(lines[2].contains("agreed 8 · median 6.5 · mean 6.5"), "\(lines[2])")
        #expect(lines[3].contains("consensus 3") && !lines[3].contains("agreed"), "\(lines[3])")
        #expect(lines[4].contains("agreed L "), "\(lines[4])")
    }

    @Test func sinceKeepsTheRoundsOfOneDay() throws {
        _ = try meeting()
        var now = historyRecord(round: 6, title: "ABC-9 Today")
        now.time = Timestamp(secondsSince1970: Int64(Date().timeIntervalSince1970))
        try HistoryFile(path: root + "/estimator/history.jsonl").save(now)
        #expect(try history("--since", "2026-11-22").stdout.split(separator: "\n").count == 7)
        #expect(try history("--since", "2026-11-23").stdout.split(separator: "\n").count == 2)
        let today = try #require(Self.parseCSV(try history("--csv", "--all", "--since", "today").stdout))
        #expect(today.map { $0[0] } == ["Issue key", "ABC-9"])
        let none = try history("--json", "--since", "2099-01-01")
        #expect(none.status == 0 && none.stdout == "" && none.stderr == "No rounds revealed since 2099-01-01.\n")
    }

    @Test(arguments: ["yesterday", "2026-02-30", "2026-13-01", "26-11-22", "2026-1-2", ""])
    func aDayThatIsNoDayIsBadUsage(day: String) throws {
        let result = try history("--since", day)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The value '\(day)' is invalid for '--since <DATE>': give a day as 2026-11-24, or today."),
                "\(result.stderr)")
    }

    @Test func aDamagedLineIsNamedOnStandardErrorAndKept() throws {
        try saveAll()
        let path = root + "/estimator/history.jsonl"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        text = [String(lines[0]), "{\"id\": cut short", String(lines[1]), String(lines[2])].joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [[], ["--csv", "--all"], ["--json"]] {
            let result = try EstimatorProcess.run(arguments: ["history"] + arguments, environment: environment)
            #expect(result.status == 0)
            #expect(result.stderr == "Line 2 of \(path) is damaged: it is kept in the file and left out here; mend or delete it.\n")
            #expect(result.stdout.contains("ABC-1") && result.stdout.contains("Ann"), "the good lines are all shown")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text, "reading changes nothing")
    }

    @Test(arguments: [["--last", "0"], ["--last", "-2"], ["--last", "abc"], ["--last", "2.5"], ["--last"],
                      ["--json", "--csv"]])
    func badUsageIsOneSentenceAndExit64(arguments: [String]) throws {
        let result = try EstimatorProcess.run(arguments: ["history"] + arguments, environment: environment)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpShowsExamples() throws {
        let result = try history("--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("$ estimator history --last 2"))
        #expect(result.stdout.contains("--csv"))
    }

    /// RFC 4180 records with CRLF endings; `nil` if the text is not that.
    static func parseCSV(_ text: String) -> [[String]]? {
        var rows: [[String]] = [], row: [String] = [], field = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        var quoted = false, fieldStarted = false
        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { scalars.removeFirst(); field.append("\"") } else { quoted = false }
                } else {
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                guard !fieldStarted else { return nil }
                quoted = true
                fieldStarted = true
            case ",":
                row.append(String(field))
                field = String.UnicodeScalarView()
                fieldStarted = false
            case "\r":
                guard scalars.popFirst() == "\n" else { return nil }
                row.append(String(field))
                rows.append(row)
                row = []
                field = String.UnicodeScalarView()
                fieldStarted = false
            case "\n":
                return nil  // rows end in CRLF
            default:
                field.append(scalar)
                fieldStarted = true
            }
        }
        guard !quoted, row.isEmpty, field.isEmpty else { return nil }
        return rows
    }
}
