import EstimatorKit
import Testing

/// `HistoryRecord.TrackerExport` and `SizePoints` without the binary: the
/// warning's wording for one story and for none, the order reasons are met
/// in, and the sizes a mapping reads.
@Suite struct TrackerExportTests {
    func story(_ title: String?, story: Story?, agreed: Card?) -> HistoryRecord {
        var record = sampleRecord(title: title)
        record.story = story
        record.agreed = agreed
        return record
    }

    @Test func nothingLeftOutIsNoWarning() {
        let export = HistoryRecord.TrackerExport([story("ABC-1 Login", story: Story(key: "ABC-1", summary: "Login"), agreed: .five)],
                                                 points: nil)
        #expect(export.records == ["ABC-1,Login,5"])
        #expect(export.warning == nil)
    }

    /// The importer maps Summary to the title: a leading apostrophe
    /// would end up in it, so nothing is neutralised here (`--csv --all`,
    /// for a spreadsheet, is).
    @Test(arguments: [
        ("@mentions do not notify", "ABC-1,@mentions do not notify,5"),
        ("+1 for dark mode", "ABC-1,+1 for dark mode,5"),
        ("-v prints the version", "ABC-1,-v prints the version,5"),
        ("=SUM(A1)", "ABC-1,=SUM(A1),5"),
        ("=Half, \"a\" day", "ABC-1,\"=Half, \"\"a\"\" day\",5"),
    ])
    func aSummaryIsWrittenAsTheBacklogHadIt(summary: String, record: String) {
        let export = HistoryRecord.TrackerExport([story("ABC-1 " + summary, story: Story(key: "ABC-1", summary: summary),
                                                        agreed: .five)], points: nil)
        #expect(export.records == [record])
    }

    @Test func oneStoryLeftOutIsSaidInTheSingular() {
        let export = HistoryRecord.TrackerExport([story("ABC-1 Login", story: nil, agreed: nil)], points: nil)
        #expect(export.rows.isEmpty)
        #expect(export.warning == "left out 1 story: 1 without an agreed estimate; `--csv --all` writes every story.")
    }

    @Test func aStoryIsCountedOnceForTheFirstReasonItMeets() {
        // No key, no estimate, no summary: counted as without a key only.
        let export = HistoryRecord.TrackerExport([story(nil, story: Story(key: nil, summary: ""), agreed: nil)], points: nil)
        #expect(export.withoutKey == 1 && export.withoutEstimate == 0 && export.withoutSummary == 0)
    }

    @Test func aMappingReadsSizesInAnyCaseWithSpaces() throws {
        let points = try HistoryRecord.SizePoints(parsing: " xs = 1 ,XXL=13, m=2.5")
        #expect(points.points == [Card.sizes[0]: "1", Card.sizes[5]: "13", Card.sizes[2]: "2.5"])
        let export = HistoryRecord.TrackerExport([story("A-1 x", story: Story(key: "A-1", summary: "x"), agreed: Card.sizes[2])],
                                                 points: points)
        #expect(export.records == ["A-1,x,2.5"])
    }

    @Test(arguments: ["", "M=", "=3", "M=3,", "M=.5", "M=5.", "M=-1", "M=1e3", "½=1", "coffee=0"])
    func aMappingThatIsNoneIsRefused(text: String) {
        #expect(throws: SizePointsError.self) { try HistoryRecord.SizePoints(parsing: text) }
    }
}
