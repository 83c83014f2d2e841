import EstimatorKit
import Foundation
import Testing

@testable import estimator

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
        let json = try history("--json"), csv = try history("--csv")
        #expect(json.status == 0 && json.stdout == "")
        #expect(csv.status == 0 && csv.stdout == HistoryRecord.csvHeader + "\r\n")
        #expect(json.stderr.hasPrefix("No rounds yet") && csv.stderr.hasPrefix("No rounds yet"))
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

    @Test func jsonPrintsOneParsableObjectPerRound() throws {
        try saveAll()
        let result = try history("--json", "--last", "2")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["id"] as? String } == records.suffix(2).map(\.id))
        #expect(lines.compactMap { HistoryRecord(jsonLine: Array($0.utf8)) } == Array(records.suffix(2)))
        let names = (objects[0]["votes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names?.contains("Eve\u{1B}]52;c;AAAA\u{07}") == true)
    }

    @Test func csvParsesWithAHeaderAndKeepsNamesButNotFormulas() throws {
        try saveAll()
        let result = try history("--csv")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let rows = try #require(Self.parseCSV(result.stdout))
        #expect(rows.count == 4)
        #expect(rows[0] == ["time", "channel", "round", "title", "median", "mean", "nearest", "consensus",
                            "questions", "coffees", "votes"])
        #expect(rows.allSatisfy { $0.count == 11 })
        #expect(rows[1] == ["2026-11-22T03:00:00.250Z", "1", "3", "ABC-1", "5", "5", "5", "true", "0", "0",
                            "Alice=5; Bob=5; 전수열=5"])
        #expect(rows[2][3] == "a \"long\", hostile\ntitle that goes on and on")
        #expect(rows[2][10] == "'=cmd|' /C calc'!A0=3; Bob=8; Eve\u{1B}]52;c;AAAA\u{07}=coffee")
        #expect(rows[3][2] == "" && rows[3][4] == "" && rows[3][8] == "1")
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
