/// The stories a meeting is to estimate, in order: read from a file
/// (`init(parsing:named:)`), kept as JSON (`json`, `init(json:)`).
///
/// A file is either
/// - a tracker's export with a header row: CSV as Jira (`Issue key`,
///   `Summary`) and Linear (`ID`, `Title`) export it, or TSV as GitHub
///   Projects does (`Title`, `URL`; the key is `owner/repo#12`), found by
///   the header's column names, whatever their order, case or other
///   columns. Fields are split at commas, tabs or semicolons, whichever
///   makes a header with a summary column of two or more columns; or
/// - a plain list, one story a line (`Story.init(line:)`: `ABC-123 Login
///   with passkeys`, or just the summary); blank lines are skipped.
///
/// UTF-8, with or without a byte order mark. A file that breaks a rule is
/// refused whole with one sentence (`BacklogError`): nothing half loaded.
public struct Backlog: Equatable, Sendable {
    /// The stories, in the file's order.
    public let stories: [Story]
    /// The file's name as given, for people.
    public let source: String
    /// The header's names of the columns read (`["Issue key", "Summary"]`);
    /// empty for a plain list.
    public let columns: [String]

    /// Most stories a backlog holds: a meeting's, with room to spare.
    public static let maximumStories = 1000

    public init(stories: [Story], source: String, columns: [String] = []) {
        self.stories = stories
        self.source = source
        self.columns = columns
    }

    /// The header names (lowercased) of a summary column, by preference.
    static let summaryColumns = ["summary", "title"]
    /// The header names (lowercased) of a key column, by preference: Jira's
    /// `Issue key` before any `key`, Linear's `ID`, GitHub's `URL`.
    static let keyColumns = ["issue key", "key", "id", "url"]

    /// Reads the backlog in `bytes`, a file named `name` (its extension
    /// `.csv` or `.tsv` says it must have a header).
    public init(parsing bytes: [UInt8], named name: String) throws(BacklogError) {
        let fail = { (reason: BacklogError.Reason) in BacklogError(file: name, reason: reason) }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { throw fail(.utf16) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        // Split by byte: in a String, CR LF is one Character.
        var lines: [String] = []
        for line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            guard let text = String(validating: line, as: UTF8.self) else { throw fail(.notUTF8(line: lines.count + 1)) }
            lines.append(text)
        }
        let firstLine = lines.first { !$0.allSatisfy(\.isWhitespace) } ?? ""

        var found: [(line: Int, story: Story)] = []
        let lowered = name.lowercased()
        if let table = try Self.table(in: String(decoding: body, as: UTF8.self), header: firstLine, name: name) {
            columns = table.columns
            found = table.rows
        } else if lowered.hasSuffix(".csv") || lowered.hasSuffix(".tsv") {
            throw fail(.noSummaryColumn(header: firstLine))
        } else {
            columns = []
            found = lines.enumerated().map { ($0.offset + 1, Story(line: $0.element)) }
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
    /// (its first line that is not blank) naming a summary column: a plain list.
    private static func table(in text: String, header line: String, name: String) throws(BacklogError) -> (columns: [String], rows: [(Int, Story)])? {
        for separator: Unicode.Scalar in [",", "\t", ";"] {
            // A header line holds no quoted line break; a quote it leaves open is the rows' problem.
            guard let header = (try? CSV.records(line, separator: separator))?.first?.fields, header.count >= 2 else { continue }
            let names = header.map { $0.trimmingWhitespace().lowercased() }
            guard let summary = summaryColumns.lazy.compactMap({ names.firstIndex(of: $0) }).first else { continue }
            let key = keyColumns.lazy.compactMap { names.firstIndex(of: $0) }.first
            let records: [CSV.Record]
            do { records = try CSV.records(text, separator: separator) } catch {
                throw BacklogError(file: name, reason: .unclosedQuote(line: error.line))
            }
            let isURL = key.map { names[$0] == "url" } ?? false
            let rows = records.dropFirst().map { record in
                let field = { (index: Int?) in index.flatMap { record.fields.indices.contains($0) ? record.fields[$0] : nil } ?? "" }
                let keyText = field(key)
                return (record.line, Story(key: isURL ? gitHubKey(keyText) : keyText, summary: field(summary)))
            }
            let columns = [key, summary].compactMap { $0 }.map { String(header[$0].trimmingWhitespace()) }
            return (columns, rows)
        }
        return nil
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
        case noSummaryColumn(header: String)
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

    private static let asUTF8 = "save it as UTF-8 (in Excel: CSV UTF-8) and load it again"

    public var description: String {
        let file = TerminalText.echo(self.file)
        switch reason {
        case .utf16: return "\(file) is UTF-16 text; \(Self.asUTF8)."
        case let .notUTF8(line): return "Line \(line) of \(file) is not UTF-8 text; \(Self.asUTF8)."
        case let .noSummaryColumn(header):
            return "\(file) has no Summary or Title column (its first line is \(JSONValue.string(TerminalText.echo(header)).text)); "
                + "export the stories with one, as Jira, Linear and GitHub Projects do."
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
