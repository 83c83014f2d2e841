/// Comma-separated values (RFC 4180), written for whoever reads them.
///
/// Names and titles come from the air and from people, so a field may hold a
/// comma, a quote or a line break: it is quoted, quotes doubled. A
/// spreadsheet also runs a cell that starts like a formula (`=HYPERLINK(…)`,
/// `@SUM(…)`), so for a spreadsheet such a field gets a leading apostrophe
/// and is shown as text. A tracker's importer runs nothing and would keep
/// the apostrophe in the issue's title, so for it every field is as given.
public enum CSV {
    /// The line ending RFC 4180 gives for records.
    public static let lineEnding = "\r\n"

    /// Who opens the file.
    public enum Reader: Sendable {
        /// A spreadsheet: fields that start like a formula are neutralised.
        case spreadsheet
        /// A tracker's importer: every field byte for byte.
        case importer
    }

    /// `fields` as one record for `reader`, without the line ending.
    public static func record(_ fields: [String], for reader: Reader) -> String {
        fields.map { field($0, for: reader) }.joined(separator: ",")
    }

    /// One field: for a spreadsheet neutralised if it starts like a
    /// formula; then quoted if it holds a comma, quote, CR or LF.
    public static func field(_ text: String, for reader: Reader) -> String {
        // Tab and CR also start formulas in some spreadsheets (OWASP's list).
        let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
        let startsFormula = reader == .spreadsheet && text.unicodeScalars.first.map(formulaStarts.contains) == true
        let safe = startsFormula ? "'" + text : text
        guard safe.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" })
        else { return safe }
        // By scalar: a quote followed by a combining mark is one Character.
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in safe.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}

// MARK: - Reading

extension CSV {
    /// One record read, with the line of the file it starts on (1 for the first).
    public struct Record: Equatable, Sendable {
        public let line: Int
        public let fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    /// The records of `text`, fields split at `separator` (`,` for CSV,
    /// tab for TSV, `;` as some spreadsheets write it): RFC 4180, and what
    /// trackers and spreadsheets write beside it. A quoted field may hold
    /// separators, line breaks and doubled quotes; records end in CRLF or
    /// LF; a quote inside an unquoted field, or text after a closing
    /// quote, is kept as written. Blank lines are no records. Throws when a
    /// quoted field is never closed: the rest of the file would be one field.
    public static func records(_ text: String, separator: Unicode.Scalar) throws(CSVReadError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, recordLine = 1, quoteLine = 0
        var quoted = false, fieldStarted = false
        var scalars = text.unicodeScalars[...]

        func endRecord() {
            fields.append(String(field))
            if fields != [""] { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            field = String.UnicodeScalarView()
            fieldStarted = false
            recordLine = line
        }

        while let scalar = scalars.popFirst() {
            if quoted {
                if scalar == "\"" {
                    if scalars.first == "\"" { scalars.removeFirst(); field.append("\"") } else { quoted = false }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where !fieldStarted:
                quoted = true
                fieldStarted = true
                quoteLine = line
            case separator:
                fields.append(String(field))
                field = String.UnicodeScalarView()
                fieldStarted = false
            case "\r" where scalars.first == "\n":
                break  // the LF ends the record
            case "\n":
                line += 1
                endRecord()
            default:
                field.append(scalar)
                fieldStarted = true
            }
        }
        guard !quoted else { throw CSVReadError(line: quoteLine) }
        if fieldStarted || !fields.isEmpty { endRecord() }
        return records
    }
}

/// A quoted field that is never closed.
public struct CSVReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line where the field opens.
    public let line: Int

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(line: Int) {
        self.line = line
    }

    public var description: String { "the quoted field that opens on line \(line) is never closed" }
}
