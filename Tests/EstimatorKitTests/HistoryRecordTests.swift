import EstimatorKit
import Foundation
import Testing

/// A record as a session makes one: round 3 of channel 1, revealed 2026-11-22T03:51:46.722Z.
func sampleRecord(
    names: [String] = ["전수열", "Bob", "Alice"], cards: [Card] = [.eight, .five, .five], title: String? = "ABC-1"
) -> HistoryRecord {
    let time = Timestamp(secondsSince1970: 1_795_319_506, nanoseconds: 722_000_000)
    return HistoryRecord(
        id: HistoryRecord.id(channel: Channel(rawValue: 1), round: 3, revealedAt: time), time: time,
        channel: Channel(rawValue: 1), round: 3, title: title,
        votes: zip(names, cards).map { HistoryRecord.Vote(name: $0, card: $1) },
        median: 5, mean: 6, nearest: .five, consensus: false, questions: 0, coffees: 0)
}

@Suite struct HistoryRecordJSONTests {
    @Test func aRecordIsOneLineWithTheDocumentedKeysInOrder() {
        #expect(sampleRecord().jsonLine == """
            {"id":"1/3/2026-11-22T03:51:46.722Z","time":"2026-11-22T03:51:46.722Z","channel":1,"round":3,\
            "title":"ABC-1","votes":[{"name":"Alice","card":"5","cardRaw":"05"},{"name":"Bob","card":"5","cardRaw":"05"},\
            {"name":"전수열","card":"8","cardRaw":"08"}],"median":5.0,"mean":6.0,"nearest":"5","consensus":false,\
            "questions":0,"coffees":0,"story":null,"agreed":null}
            """)
    }

    @Test func votesAreInNameOrder() {
        #expect(sampleRecord().votes.map(\.name) == ["Alice", "Bob", "전수열"])
    }

    @Test func aRoundTripGivesTheSameRecord() {
        let record = sampleRecord()
        #expect(HistoryRecord(jsonLine: Array(record.jsonLine.utf8)) == record)
        #expect(HistoryRecord(jsonLine: Array((record.jsonLine + "\n").utf8)) == record)
    }

    @Test func absentValuesAreNullAndComeBackAbsent() throws {
        var record = sampleRecord(names: ["Ann"], cards: [.coffee], title: nil)
        record.round = nil
        record.median = nil
        record.mean = nil
        record.nearest = nil
        record.coffees = 1
        let line = record.jsonLine
        #expect(line.contains(#""round":null,"title":null,"#))
        #expect(line.contains(#""median":null,"mean":null,"nearest":null,"#))
        #expect(line.contains(#"{"name":"Ann","card":"coffee","cardRaw":"FE"}"#))
        #expect(HistoryRecord(jsonLine: Array(line.utf8)) == record)
    }

    @Test func unknownCardsKeepTheirByte() {
        let record = sampleRecord(names: ["Eve"], cards: [Card(rawValue: 0x99)])
        #expect(record.jsonLine.contains(#"{"name":"Eve","card":null,"cardRaw":"99"}"#))
        #expect(HistoryRecord(jsonLine: Array(record.jsonLine.utf8))?.votes.first?.card == Card(rawValue: 0x99))
    }

    @Test func hostileNamesAndTitlesStayOneLineAndComeBackExactly() throws {
        let hostile = [
            "\"quoted\" \\ back", "line\nbreak\r\n", "\u{1B}]52;c;AAAA\u{07}", "\u{1B}[2J\u{9B}31m",
            "\u{202E}evil\u{2066}", "nul\u{0}", String(decoding: [0x41, 0xFF, 0xC0, 0x42], as: UTF8.self),
            "\u{2028}\u{2029}", "=HYPERLINK(\"x\")", "👩‍👩‍👧",
        ]
        let record = sampleRecord(names: hostile, cards: Array(repeating: .three, count: hostile.count),
                                  title: hostile.joined())
        let line = record.jsonLine
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(!line.unicodeScalars.contains { [0x2028, 0x2029, 0x202E, 0x2066].contains($0.value) })
        #expect(HistoryRecord(jsonLine: Array(line.utf8)) == record)
        // Another JSON reader agrees.
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["title"] as? String == hostile.joined())
        #expect((object["votes"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted()
            == hostile.sorted())
    }

    @Test func invalidUTF8InALineBecomesReplacementCharacters() {
        var bytes = Array(sampleRecord(names: ["Alice"], cards: [.five]).jsonLine.utf8)
        let at = bytes.firstRange(of: Array("Alice".utf8))!.lowerBound + 1
        bytes[at] = 0xFF  // "A\u{FFFD}ice"
        #expect(HistoryRecord(jsonLine: bytes)?.votes.first?.name == "A\u{FFFD}ice")
    }

    @Test(arguments: [
        "", "   ", "not json", "[]", "null", "{}", "{\"id\":\"x\"}",
        // Cut short, as by a full disk.
        String(sampleRecord().jsonLine.prefix(80)),
    ])
    func damagedLinesAreNotRecords(line: String) {
        #expect(HistoryRecord(jsonLine: Array(line.utf8)) == nil)
    }

    /// Each key of a good line in turn made missing or wrong.
    @Test(arguments: [
        ("\"id\":\"1/3/2026-11-22T03:51:46.722Z\",", ""),
        ("\"id\":\"1/3/2026-11-22T03:51:46.722Z\"", "\"id\":3"),
        ("\"time\":\"2026-11-22T03:51:46.722Z\"", "\"time\":\"yesterday\""),
        ("\"time\":\"2026-11-22T03:51:46.722Z\"", "\"time\":1795319506722"),
        ("\"channel\":1", "\"channel\":256"),
        ("\"channel\":1", "\"channel\":-1"),
        ("\"channel\":1", "\"channel\":1.0"),
        ("\"channel\":1", "\"channel\":\"1\""),
        ("\"round\":3", "\"round\":16"),
        ("\"round\":3", "\"round\":99999999999999999999999"),
        ("\"title\":\"ABC-1\"", "\"title\":[\"ABC-1\"]"),
        ("\"cardRaw\":\"05\"", "\"cardRaw\":\"5\""),
        ("\"cardRaw\":\"05\"", "\"cardRaw\":\"GG\""),
        ("\"cardRaw\":\"05\"", "\"cardRaw\":\"\u{0660}\u{0665}\""),
        ("\"cardRaw\":\"05\"", "\"cardRaw\":null"),
        ("{\"name\":\"Alice\",", "{\"name\":null,"),
        ("\"median\":5.0", "\"median\":1e999"),
        ("\"median\":5.0", "\"median\":\"5\""),
        ("\"nearest\":\"5\"", "\"nearest\":\"127\""),
        ("\"consensus\":false", "\"consensus\":0"),
        ("\"questions\":0", "\"questions\":-1"),
        ("\"coffees\":0", "\"coffees\":0.5"),
        ("\"agreed\":null}", "\"agreed\":null,\"agreed\":null}"),
        ("\"agreed\":null}", "\"agreed\":null}}"),
        ("\"agreed\":null}", "\"agreed\":null} {}"),
        ("\"agreed\":null", "\"agreed\":\"7F\""),
        ("\"agreed\":null", "\"agreed\":5"),
        ("\"story\":null", "\"story\":\"ABC-1\""),
        ("\"story\":null", "\"story\":{\"key\":\"ABC-1\"}"),
        ("\"story\":null", "\"story\":{\"key\":1,\"summary\":\"x\"}"),
    ])
    func linesWithAMissingOrWrongValueAreNotRecords(good: String, bad: String) throws {
        let line = sampleRecord().jsonLine
        try #require(line.contains(good))
        #expect(HistoryRecord(jsonLine: Array(line.replacing(good, with: bad).utf8)) == nil)
    }

    @Test func timesFinerThanAMillisecondAreCutToIt() {
        for (written, kept) in [("03:51:46.7229Z", "03:51:46.722Z"), ("03:51:46.722999999Z", "03:51:46.722Z")] {
            let line = sampleRecord().jsonLine.replacing("\"time\":\"2026-11-22T03:51:46.722Z\"",
                                                         with: "\"time\":\"2026-11-22T\(written)\"")
            #expect(HistoryRecord(jsonLine: Array(line.utf8)).map { RFC3339.string($0.time) } == "2026-11-22T" + kept)
        }
        let beforeTheEpoch = sampleRecord().jsonLine.replacing("2026-11-22T03:51:46.722Z\",\"channel",
                                                              with: "1969-12-31T23:59:59.9999Z\",\"channel")
        #expect(HistoryRecord(jsonLine: Array(beforeTheEpoch.utf8))?.time == Timestamp(nanosecondsSince1970: -1_000_000))
    }

    @Test func unknownKeysAreIgnored() {
        let line = sampleRecord().jsonLine.replacing("\"agreed\":null}", with: "\"agreed\":null,\"mood\":{\"x\":[1]}}")
        #expect(HistoryRecord(jsonLine: Array(line.utf8)) == sampleRecord())
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let line = sampleRecord().jsonLine.replacing("\"agreed\":null}", with: "\"agreed\":null,\"x\":\(deep)}")
        #expect(HistoryRecord(jsonLine: Array(line.utf8)) == nil)
    }

    @Test func theStoryAndTheAgreedEstimateAreTheLastKeys() {
        var record = sampleRecord()
        record.story = Story(key: "ABC-1", summary: "Login \"now\"")
        record.agreed = .half
        #expect(record.jsonLine.hasSuffix(#","coffees":0,"story":{"key":"ABC-1","summary":"Login \"now\""},"agreed":"0.5"}"#))
        #expect(HistoryRecord(jsonLine: Array(record.jsonLine.utf8)) == record)
        record.story = Story(key: nil, summary: "Just words")
        record.agreed = Card.sizes[2]
        #expect(record.jsonLine.hasSuffix(#""story":{"key":null,"summary":"Just words"},"agreed":"M"}"#))
        #expect(HistoryRecord(jsonLine: Array(record.jsonLine.utf8)) == record)
    }

    @Test func theRoundASessionJoinedIsTheLastKeyAndOnlyWhereItJoined() throws {
        var record = sampleRecord()
        #expect(!record.jsonLine.contains("joined"), "a session that heard the meeting from its start says nothing")
        record.joined = 3
        #expect(record.jsonLine.hasSuffix(#""story":null,"agreed":null,"joined":3}"#))
        #expect(HistoryRecord(jsonLine: Array(record.jsonLine.utf8)) == record)
        let outOfRange = record.jsonLine.replacing(#""joined":3"#, with: #""joined":16"#)
        #expect(HistoryRecord(jsonLine: Array(outOfRange.utf8)) == nil, "a round is 0–15")
    }

    @Test func linesKeptBeforeStoriesReadWithoutThemAndTakeTheirStoryFromTheTitle() throws {
        let old = sampleRecord().jsonLine.replacing(#","story":null,"agreed":null"#, with: "")
        let record = try #require(HistoryRecord(jsonLine: Array(old.utf8)))
        #expect(record == sampleRecord())
        #expect(record.story == nil && record.agreed == nil)
        #expect(record.subject == Story(key: "ABC-1", summary: ""))
        #expect(sampleRecord(title: nil).subject == nil)
    }

    @Test func idsNameTheChannelRoundAndRevealTime() {
        let time = Timestamp(secondsSince1970: 1_795_319_506, nanoseconds: 722_000_000)
        #expect(HistoryRecord.id(channel: Channel(rawValue: 1), round: 3, revealedAt: time) == "1/3/2026-11-22T03:51:46.722Z")
        #expect(HistoryRecord.id(channel: Channel(rawValue: 255), round: nil, revealedAt: time) == "255/-/2026-11-22T03:51:46.722Z")
    }
}

@Suite struct HistoryRecordCSVTests {
    @Test func theHeaderNamesTheColumnsInOrderJirasFieldsFirst() {
        #expect(HistoryRecord.csvHeader
            == "Issue key,Summary,Story Points,Median,Mean,Cards,Time,Channel,Round,Nearest,Consensus,Questions,Coffees")
    }

    @Test func aRowHasOneFieldPerColumn() {
        var record = sampleRecord(title: "ABC-1 Login")
        #expect(record.csvRow == "ABC-1,Login,,5,6,Alice=5; Bob=5; 전수열=8,2026-11-22T03:51:46.722Z,1,3,5,false,0,0")
        record.story = Story(key: "octo/app#7", summary: "From the backlog")
        record.agreed = .eight
        #expect(record.csvRow.hasPrefix("octo/app#7,From the backlog,8,5,6,"))
    }

    @Test func absentValuesAreEmptyAndCardsAreNamed() {
        var record = sampleRecord(names: ["Ann", "Bob", "Cy", "Di"],
                                  cards: [.half, .question, .coffee, Card(rawValue: 0x99)], title: nil)
        record.round = nil
        record.median = 0.5
        record.mean = 0.5
        record.nearest = .half
        record.consensus = true
        record.questions = 1
        record.coffees = 1
        record.agreed = .half
        #expect(record.csvRow == ",,0.5,0.5,0.5,Ann=0.5; Bob=?; Cy=coffee; Di=?99,2026-11-22T03:51:46.722Z,1,,0.5,true,1,1")
        record.median = nil
        record.mean = 6.333333333333333
        #expect(record.csvRow.contains(",0.5,,6.333333333333333,"))
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("cr\rhere", "\"cr\rhere\""),
        ("crlf\r\n", "\"crlf\r\n\""),
        ("\"\u{301}", "\"\"\"\u{301}\""),  // a quote and a combining mark: one Character, still doubled
        ("전수열", "전수열"),
    ])
    func fieldsAreQuotedPerRFC4180(text: String, field: String) {
        #expect(CSV.field(text, for: .spreadsheet) == field)
        #expect(CSV.field(text, for: .importer) == field)
    }

    @Test(arguments: [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("\rx", "\"'\rx\""),
        ("a=1", "a=1"),
        ("'=1", "'=1"),
    ])
    func formulasAreNeutralisedForASpreadsheet(text: String, field: String) {
        #expect(CSV.field(text, for: .spreadsheet) == field)
    }

    @Test(arguments: [
        ("=1+2", "=1+2"),
        ("+1", "+1"),
        ("-1", "-1"),
        ("@SUM(A1)", "@SUM(A1)"),
        ("\tx", "\tx"),
        ("=HYPERLINK(\"http://x\",\"y\")", "\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
        ("\rx", "\"\rx\""),
    ])
    func anImporterGetsFormulaStartsAsTheyAre(text: String, field: String) {
        #expect(CSV.field(text, for: .importer) == field)
    }

    @Test func aHostileTitleOrNameCannotStartACellAsAFormula() {
        let row = sampleRecord(names: ["=cmd|' /C calc'!A0"], cards: [.five], title: "@SUM(1)").csvRow
        #expect(row.hasPrefix(",'@SUM(1),"))
        #expect(row.contains(",'=cmd|' /C calc'!A0=5,"))
        var record = sampleRecord()
        record.story = Story(key: "-1", summary: "+cmd")
        #expect(record.csvRow.hasPrefix("'-1,'+cmd,"))
    }
}

/// `history --csv` and `--json`: one record per story.
@Suite struct HistoryPerStoryTests {
    func record(_ minute: Int64, title: String?, story: Story? = nil, agreed: Card? = nil) -> HistoryRecord {
        var record = sampleRecord(title: title)
        record.time = Timestamp(secondsSince1970: 1_795_319_506 + minute * 60)
        record.id = "r\(minute)"
        record.story = story
        record.agreed = agreed
        return record
    }

    @Test func aStoryVotedAgainIsOneRowTheRoundThatAgreedInTheOrderFirstVoted() {
        let login = Story(key: "ABC-1", summary: "Login")
        let records = [
            record(0, title: login.title, story: login),  // no agreement: discussed, voted again
            record(1, title: "Untitled? no: ABC-2 typed", story: nil),
            record(2, title: nil),
            record(3, title: login.title, story: login, agreed: .five),
            record(4, title: "abc-1 is a summary, not the key"),
            record(5, title: "ABC-1 typed by hand", story: nil),  // the same key: the same story, not agreed
            record(6, title: nil),
        ]
        #expect(HistoryRecord.perStory(records).map(\.id) == ["r3", "r1", "r2", "r4", "r6"])
    }

    @Test func withoutAnyAgreementTheNewestRoundStands() {
        let records = [record(0, title: "ABC-9 x"), record(1, title: "ABC-9 x"), record(2, title: "ABC-9 y")]
        #expect(HistoryRecord.perStory(records).map(\.id) == ["r2"])
        let settledTwice = [record(0, title: "ABC-9", agreed: .three), record(1, title: "ABC-9", agreed: .eight),
                            record(2, title: "ABC-9")]
        #expect(HistoryRecord.perStory(settledTwice).map(\.id) == ["r1"], "a later agreement replaces an earlier one")
    }
}
