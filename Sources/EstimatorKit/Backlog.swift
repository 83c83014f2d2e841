/// The stories a meeting is to estimate, in order: read from a file
/// (`init(parsing:named:keyColumn:summaryColumn:)`), kept as JSON (`json`,
/// `init(json:)`).
///
/// A file is either
/// - a tracker's export with a header row: CSV as Jira (`Issue key` or
///   `Work item key`, `Summary`; in German `Schlüssel`, `Zusammenfassung`)
///   and Linear (`ID`, `Title`) export it, or TSV as GitHub Projects does
///   (`Title`, `URL`; the key is `owner/repo#12`), found by the header's
///   column names, whatever their order, case or other columns, or named
///   by the person loading it (`BacklogColumn`). Fields are split at commas,
///   tabs or semicolons, whichever makes a header holding the columns; or
/// - a plain list, one story a line (`Story.init(line:)`: `ABC-123 Login
///   with passkeys`, or just the summary), Markdown's list and task markers
///   (`- [ ] `, `* [x] `, `1. `) dropped; blank lines and Markdown
///   headings are skipped. A `.csv`
///   or `.tsv` file of one column without a recognised header is a list
///   too, each field a line.
///
/// UTF-8, with or without a byte order mark. A file that breaks a rule is
/// refused whole with one sentence (`BacklogError`): nothing half loaded.
public struct Backlog: Equatable, Sendable {
    /// The stories, in the file's order.
    public let stories: [Story]
    /// The file's name as given, for people.
    public let source: String
    /// The header's names of the columns read, key first when there is one
    /// (`["Issue key", "Summary"]`), sanitised; empty for a plain list.
    public let columns: [String]

    /// Most stories a backlog holds: a meeting's, with room to spare.
    public static let maximumStories = 1000

    public init(stories: [Story], source: String, columns: [String] = []) {
        self.stories = stories
        self.source = source
        self.columns = columns
    }

    /// The header names (lowercased) of a summary column, by preference:
    /// Jira's (English and German), Linear's and GitHub's.
    public static let summaryColumns = ["summary", "title", "zusammenfassung"]
    /// The header names (lowercased) of a key column, by preference: Jira's
    /// `Issue key` and `Work item key` before any `key`, German Jira's
    /// `Schlüssel`, Linear's `ID`, GitHub's `URL`.
    public static let keyColumns = ["issue key", "work item key", "key", "schlüssel", "id", "url"]

    /// Reads the backlog in `bytes`, a file named `name` (its extension
    /// `.csv` or `.tsv` says it must have a header or be one column). With
    /// `keyColumn` or `summaryColumn`, the first line is the header and
    /// holds that column, else the file is refused naming its columns.
    public init(parsing bytes: [UInt8], named name: String,
                keyColumn: BacklogColumn? = nil, summaryColumn: BacklogColumn? = nil) throws(BacklogError) {
        let fail = { (reason: BacklogError.Reason) in BacklogError(file: name, reason: reason) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { throw fail(.utf16) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        // Split by byte: in a String, CR LF is one Character.
        var lines: [String] = []
        for line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            guard let text = String(validating: line, as: UTF8.self) else { throw fail(.notUTF8(line: lines.count + 1)) }
            lines.append(text)
        }
        guard let firstLine = lines.first(where: { !$0.allSatisfy(\.isWhitespace) }) else { throw fail(.emptyFile) }
        let text = String(decoding: body, as: UTF8.self)
        if Self.isHTML(text) { throw fail(.html) }

        var found: [(line: Int, story: Story)] = []
        let lowered = name.lowercased()
        let isTable = lowered.hasSuffix(".csv") || lowered.hasSuffix(".tsv")
        if let table = try Self.table(in: text, header: firstLine, name: name, key: keyColumn, summary: summaryColumn) {
            columns = table.columns
            found = table.rows
        } else if isTable {
            guard let list = try Self.oneColumn(in: text, header: firstLine, name: name, separator: lowered.hasSuffix(".tsv") ? "\t" : ",")
            else { throw fail(.noSummaryColumn(header: firstLine)) }
            columns = []
            found = list
        } else {
            columns = []
            found = lines.enumerated().map { ($0.offset + 1, Story(line: Self.withoutListMarker($0.element))) }
        }

        var stories: [Story] = []
        var seen: [Story.Identity: Int] = [:]
        for (line, story) in found where story.key != nil || !story.summary.isEmpty {
            if story.summary.count > Story.maximumSummaryLength {
                throw fail(.tooLong(line: line, what: "summary", length: story.summary.count, limit: Story.maximumSummaryLength))
            }
            if let key = story.key, key.count > Story.maximumKeyLength {
                throw fail(.tooLong(line: line, what: "key", length: key.count, limit: Story.maximumKeyLength))
            }
            if let first = seen[story.identity] { throw fail(.twice(story: story, firstLine: first, line: line)) }
            seen[story.identity] = line
            stories.append(story)
        }
        guard !stories.isEmpty else { throw fail(.empty) }
        guard stories.count <= Self.maximumStories else { throw fail(.tooMany(stories.count)) }
        self.stories = stories
        source = name
    }

    /// The rows of a tracker's export, or `nil` when `text` has no header
    /// (its first line that is not blank) naming a summary column and no
    /// column was named: a plain list. Throws when a named column is not
    /// in the header, whatever the separator.
    private static func table(in text: String, header line: String, name: String,
                              key: BacklogColumn?, summary: BacklogColumn?) throws(BacklogError) -> (columns: [String], rows: [(Int, Story)])? {
        var widest: [String] = []
        for separator: Unicode.Scalar in [",", "\t", ";"] {
            // A header line holds no quoted line break; a quote it leaves open is the rows' problem.
            guard let header = (try? CSV.records(line, separator: separator))?.first?.fields else { continue }
            if header.count > widest.count { widest = header }
            let names = header.map { $0.trimmingWhitespace().lowercased() }
            let summaryIndex = summary.map { $0.index(in: names) } ?? summaryColumns.lazy.compactMap({ names.firstIndex(of: $0) }).first
            let keyIndex = key.map { $0.index(in: names) } ?? keyColumns.lazy.compactMap { names.firstIndex(of: $0) }.first
            guard let summaryIndex, key == nil || keyIndex != nil else { continue }
            let records: [CSV.Record]
            do { records = try CSV.records(text, separator: separator) } catch {
                throw BacklogError(file: name, reason: .unclosedQuote(line: error.line))
            }
            let rows = records.dropFirst().map { record in
                let field = { (index: Int?) in index.flatMap { record.fields.indices.contains($0) ? record.fields[$0] : nil } ?? "" }
                return (record.line, Story(key: gitHubKey(field(keyIndex)), summary: field(summaryIndex)))
            }
            let columns = [keyIndex, summaryIndex].compactMap { $0 }.map { index in
                let shown = Story.oneLine(header[index])
                return shown.isEmpty ? "number \(index + 1)" : shown
            }
            return (columns, rows)
        }
        let sanitised = widest.map(Story.oneLine)
        if let summary, summary.index(in: widest.map { $0.trimmingWhitespace().lowercased() }) == nil {
            throw BacklogError(file: name, reason: .noColumn(option: "--summary-column", column: summary, columns: sanitised))
        }
        if let key, key.index(in: widest.map { $0.trimmingWhitespace().lowercased() }) == nil {
            throw BacklogError(file: name, reason: .noColumn(option: "--key-column", column: key, columns: sanitised))
        }
        if key != nil || summary != nil { throw BacklogError(file: name, reason: .noSummaryColumn(header: line)) }
        return nil
    }

    /// The records of a file of one column without a recognised header,
    /// as the lines of a plain list; `nil` when its first line splits at a
    /// comma, tab or semicolon. A later record's fields are one story,
    /// joined again at `separator`: a comma a list's writer left unquoted.
    private static func oneColumn(in text: String, header line: String, name: String,
                                  separator: Unicode.Scalar) throws(BacklogError) -> [(Int, Story)]? {
        for other: Unicode.Scalar in [",", "\t", ";"] {
            guard let fields = (try? CSV.records(line, separator: other))?.first?.fields, fields.count == 1 else { return nil }
        }
        let records: [CSV.Record]
        do { records = try CSV.records(text, separator: separator) } catch {
            throw BacklogError(file: name, reason: .unclosedQuote(line: error.line))
        }
        return records.map { ($0.line, Story(line: withoutListMarker($0.fields.joined(separator: String(separator))))) }
    }

    /// Whether `text` is a web page rather than text of stories: it starts
    /// with a tag, and an `html`, `table` or `meta` tag comes early. Jira's
    /// "Excel" export is such a page.
    static func isHTML(_ text: String) -> Bool {
        let start = text.unicodeScalars.drop { $0.properties.isWhitespace }
        guard start.first == "<" else { return false }
        let head = String(String.UnicodeScalarView(start.prefix(4096))).lowercased()
        return ["<!doctype html", "<html", "<table", "<meta"].contains { head.contains($0) }
    }

    /// `line` without a Markdown list marker before the story: a bullet
    /// (`-`, `*`, `+`) or a number (`1.`, `1)`) and a space, then a task's
    /// box (`[ ]`, `[x]`); empty for a Markdown heading (`# Sprint 42`: a
    /// key such as `#12` has no space after the `#`); any other line as it is.
    static func withoutListMarker(_ line: String) -> String {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        let hashes = rest.prefix { $0 == "#" }
        if (1...6).contains(hashes.count), rest.dropFirst(hashes.count).first.map({ $0 == " " }) ?? true { return "" }
        let digits = rest.prefix { ("0"..."9").contains($0) }
        if let bullet = rest.first, "-*+".contains(bullet), rest.dropFirst().first == " " {
            rest = rest.dropFirst(2)
        } else if (1...9).contains(digits.count), let mark = rest.dropFirst(digits.count).first, mark == "." || mark == ")",
                  rest.dropFirst(digits.count + 1).first == " " {
            rest = rest.dropFirst(digits.count + 2)
        } else {
            return line
        }
        rest = rest.drop { $0 == " " }
        for box in ["[ ]", "[x]", "[X]"] where rest.hasPrefix(box) && (rest.count == 3 || rest.dropFirst(3).first == " ") {
            rest = rest.dropFirst(3)
        }
        return String(rest)
    }

    /// `owner/repo#12` for a GitHub issue or pull request's URL; any other
    /// URL as it is.
    static func gitHubKey(_ url: String) -> String {
        let trimmed = url.trimmingWhitespace()
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        // https: "" github.com owner repo issues|pull number
        guard parts.count == 7, parts[0] == "https:" || parts[0] == "http:", parts[1].isEmpty,
              parts[2].lowercased() == "github.com", parts[5] == "issues" || parts[5] == "pull",
              !parts[6].isEmpty, parts[6].allSatisfy({ ("0"..."9").contains($0) })
        else { return String(trimmed) }
        return "\(parts[3])/\(parts[4])#\(parts[6])"
    }
}

// MARK: - JSON

extension Backlog {
    /// The backlog as one JSON object, as the state directory keeps it:
    /// `{"source":…,"columns":[…],"stories":[{"key":…,"summary":…},…]}`.
    public var json: String {
        JSONValue.object([
            JSONMember("source", .string(source)),
            JSONMember("columns", .array(columns.map(JSONValue.string))),
            JSONMember("stories", .array(stories.map(\.json))),
        ]).text
    }

    /// The backlog `json` wrote, or `nil` when the text is not one.
    public init?(json bytes: some Collection<UInt8>) {
        guard let object = try? JSONValue.parse(bytes), let source = object["source"]?.string,
              case let .array(columnItems)? = object["columns"], case let .array(storyItems)? = object["stories"]
        else { return nil }
        let columns = columnItems.compactMap(\.string)
        let stories = storyItems.compactMap(Story.init(json:))
        guard columns.count == columnItems.count, stories.count == storyItems.count else { return nil }
        self.init(stories: stories, source: source, columns: columns)
    }
}

extension Story {
    /// `{"key":"ABC-1","summary":"Login"}`, the key `null` when there is none.
    public var json: JSONValue {
        .object([JSONMember("key", .string(key)), JSONMember("summary", .string(summary))])
    }

    /// The story `json` wrote, or `nil` when `value` is not one.
    public init?(json value: JSONValue) {
        guard let key = value["key"], key == .null || key.string != nil, let summary = value["summary"]?.string else { return nil }
        self.init(key: key.string, summary: summary)
    }
}

/// A backlog file that cannot be loaded, and why: one sentence.
public struct BacklogError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case utf16
        case notUTF8(line: Int)
        case emptyFile
        case html
        case noSummaryColumn(header: String)
        case noColumn(option: String, column: BacklogColumn, columns: [String])
        case unclosedQuote(line: Int)
        case tooLong(line: Int, what: String, length: Int, limit: Int)
        case twice(story: Story, firstLine: Int, line: Int)
        case empty
        case tooMany(Int)
    }

    /// The file's name as given.
    public let file: String
    public let reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    /// Most of a file's columns a message lists.
    private static let columnsShown = 12

    /// `text` in quotes as a message shows text from a file: sanitised, cut.
    private static func quoted(_ text: String) -> String { JSONValue.string(TerminalText.echo(text)).text }

    private static let asUTF8 = "save it as UTF-8 (in Excel: CSV UTF-8) and load it again"

    public var description: String {
        let file = TerminalText.echo(self.file)
        switch reason {
        case .utf16: return "\(file) is UTF-16 text; \(Self.asUTF8)."
        case let .notUTF8(line): return "Line \(line) of \(file) is not UTF-8 text; \(Self.asUTF8)."
        case .emptyFile:
            return "\(file) is empty; write one story a line, or export the stories as CSV with a Summary or Title column."
        case .html:
            return "\(file) is an HTML page, not CSV; export CSV from Jira (Export, then Export CSV (all fields)) and load that file."
        case let .noSummaryColumn(header):
            return "\(file) has no Summary or Title column (its first line is \(Self.quoted(header))); "
                + "name the stories' column with --summary-column NAME or NUMBER."
        case let .noColumn(option, column, columns):
            let named = if case .numbered = column { column.description } else { Self.quoted(column.description) }
            let shown = columns.prefix(Self.columnsShown).enumerated().map { "\($0.offset + 1) \(Self.quoted($0.element))" }
            let more = columns.count > Self.columnsShown ? " and \(columns.count - Self.columnsShown) more" : ""
            return "\(file) has no column \(named) (\(option)); its columns are "
                + "\(shown.joined(separator: ", "))\(more); give \(option) one of these names or numbers."
        case let .unclosedQuote(line):
            return "The quoted field that opens on line \(line) of \(file) is never closed; check the quotes there."
        case let .tooLong(line, what, length, limit):
            return "The \(what) on line \(line) of \(file) is \(length) characters long; a story's \(what) has at most \(limit)."
        case let .twice(story, firstLine, line):
            let named = JSONValue.string(TerminalText.echo(story.key ?? story.summary)).text
            return "\(named) is on lines \(firstLine) and \(line) of \(file); give each story once."
        case .empty:
            return "\(file) holds no stories; write one a line, or export them as CSV with a Summary or Title column."
        case let .tooMany(count):
            return "\(file) holds \(count) stories; a backlog holds at most \(Backlog.maximumStories), so load this meeting's."
        }
    }
}
