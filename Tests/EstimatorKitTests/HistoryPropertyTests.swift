import EstimatorKit
import PropertyBased
import Testing

/// Records with any names, titles and stories (`anyText`: controls, bidi,
/// Hangul, emoji …), any card bytes, any time a Timestamp holds, to the
/// millisecond.
private let anyRecord = zip(
    anyRecordWithoutStory, zip(anyText.optional(), anyText).optional(),
    Gen<Card?>.element(of: Deck.app.cards + Card.sizes + [.question, .coffee]).optional()
).map { record, story, agreed in
    var record = record
    record.story = story.map { Story(key: $0.0, summary: $0.1) }
    record.agreed = agreed.flatMap { $0 }
    return record
}

private let anyRecordWithoutStory = zip(
    zip(anyText, Gen.int64(in: -9_223_372_036_854...9_223_372_036_854)),
    Gen.uint8(), Gen.int(in: 0...15).optional(), anyText.optional(),
    zip(anyText, Gen.uint8()).map { name, byte in HistoryRecord.Vote(name: name, card: Card(rawValue: byte)) }
        .array(of: 0...12),
    Gen.double(in: 0...100).optional(), Gen.double(in: 0...100).optional(),
    Gen<Card?>.element(of: Deck.app.cards + [.question, .coffee, .waiting, .none]).optional(),
    zip(Gen.bool(), Gen.int(in: 0...20), Gen.int(in: 0...20))
).map { values in
    let (idAndTime, channel, round, title, votes, median, mean, nearest, rest) = values
    return HistoryRecord(
        id: idAndTime.0, time: Timestamp(nanosecondsSince1970: idAndTime.1 * 1_000_000),
        channel: Channel(rawValue: channel), round: round, title: title, votes: votes,
        median: median, mean: mean, nearest: nearest.flatMap { $0 }, consensus: rest.0, questions: rest.1, coffees: rest.2)
}

/// Reads RFC 4180 fields back, for checking what `CSV` writes.
private func parseCSVRecord(_ text: String) -> [String]? {
    var fields: [String] = []
    var field = String.UnicodeScalarView()
    var scalars = text.unicodeScalars[...]
    var quoted = false
    while let scalar = scalars.popFirst() {
        if quoted {
            if scalar == "\"" {
                if scalars.first == "\"" { scalars.removeFirst(); field.append("\"") } else { quoted = false }
            } else {
                field.append(scalar)
            }
        } else if scalar == "\"" {
            guard field.isEmpty else { return nil }  // a quote inside an unquoted field
            quoted = true
        } else if scalar == "," {
            fields.append(String(field))
            field = String.UnicodeScalarView()
        } else if scalar == "\r" || scalar == "\n" {
            return nil  // a line break outside quotes ends the record early
        } else {
            field.append(scalar)
        }
    }
    guard !quoted else { return nil }
    fields.append(String(field))
    return fields
}

@Suite struct HistoryPropertyTests {
    @Test func everyRecordRoundTripsThroughItsLine() async {
        await propertyCheck(count: 1000, input: anyRecord) { record in
            let line = record.jsonLine
            #expect(!line.utf8.contains(0x0A) && !line.utf8.contains(0x0D))
            #expect(HistoryRecord(jsonLine: Array(line.utf8)) == record)
        }
    }

    /// Bytes of a good line deleted, replaced or repeated: the line is a
    /// record or not, never a crash, and a record it still is writes back
    /// to a line that reads the same.
    @Test func damagedLinesNeverCrashAndWhatParsesIsStable() async {
        let damage = zip(Gen.int(in: 0...1000), Gen.int(in: 0...2), Gen.uint8(), Gen.int(in: 1...8)).array(of: 1...4)
        await propertyCheck(count: 2000, input: anyRecord, damage) { record, damage in
            var bytes = Array(record.jsonLine.utf8)
            for (position, kind, byte, length) in damage where !bytes.isEmpty {
                let at = position % bytes.count
                let end = min(at + length, bytes.count)
                switch kind {
                case 0: bytes.removeSubrange(at..<end)
                case 1: bytes.replaceSubrange(at..<end, with: repeatElement(byte, count: end - at))
                default: bytes.insert(contentsOf: bytes[at..<end], at: at)
                }
            }
            guard let parsed = HistoryRecord(jsonLine: bytes) else { return }
            #expect(HistoryRecord(jsonLine: Array(parsed.jsonLine.utf8)) == parsed)
        }
    }

    @Test func csvFieldsForAnImporterReadBackByteForByte() async {
        await propertyCheck(count: 2000, input: anyText.array(of: 1...4)) { texts in
            #expect(parseCSVRecord(CSV.record(texts, for: .importer)) == texts)
        }
    }

    @Test func csvFieldsForASpreadsheetReadBackAsWrittenAndNeverStartAFormula() async {
        await propertyCheck(count: 2000, input: anyText.array(of: 1...4)) { texts in
            let fields = try #require(parseCSVRecord(CSV.record(texts, for: .spreadsheet)))
            #expect(fields.count == texts.count)
            for (field, text) in zip(fields, texts) {
                let startsFormula = text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false
                #expect(field == (startsFormula ? "'" + text : text))
                #expect(field.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } != true)
            }
        }
    }

    @Test func everyRecordsCSVRowHasAFieldPerColumn() async {
        let columns = parseCSVRecord(HistoryRecord.csvHeader)?.count
        #expect(columns == 13)
        await propertyCheck(count: 500, input: anyRecord) { record in
            #expect(parseCSVRecord(record.csvRow)?.count == columns)
        }
    }
}
