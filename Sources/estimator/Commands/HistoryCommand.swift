import ArgumentParser
import EstimatorKit
import Glibc
import SessionDaemon

/// `estimator history`: the rounds revealed so far.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the rounds revealed so far, or export the agreed estimates as CSV or JSON.",
        discussion: """
            Each round a session reveals is kept with its title or story, everyone's \
            card, the result and the estimate agreed on (`estimator settle`); a re-vote \
            after the reveal updates that round. The file is \
            $XDG_STATE_HOME/estimator/history.jsonl (else ~/.local/state/estimator/), \
            shared by the sessions on every adapter. The table lists every round, its \
            times in your local time zone; --csv and --json export one row per story \
            (of a story voted again, the round that agreed), times in UTC. A damaged \
            line of the file is named on standard error and kept in the file.

            Examples:
              $ estimator history --last 2
              TIME                  CH  ROUND  TITLE        RESULT       VOTES
              2026-11-29 06:15 UTC   1      3  ABC-3 Board  no numbers
              2026-11-29 06:15 UTC   1      4  ABC-9 login  consensus 3  Alice 3, 전수열 3

              $ estimator history --csv --since today > sprint-42.csv
              left out 1 story: 1 without a key; `--csv --all` writes every story.
              $ estimator history --csv --points XS=1,S=2,M=3,L=5,XL=8 > sprint-42.csv
              $ estimator history --csv --all > sprint-42-record.csv
              $ estimator history --json | jq -r '"\\(.story.key) \\(.agreed)"'

            --csv prints RFC 4180 CSV (UTF-8, CRLF line ends) for a tracker to set \
            estimates from: the header Issue key,Summary,Story Points (Jira's field \
            names), then a row for each story that has a key, a summary and an agreed \
            estimate that is a number. Left out, and counted in one line on standard \
            error: stories without a key (a tracker would create an issue from them), \
            without an agreed estimate, without a summary (a round begun with the key \
            alone and no backlog), and agreed T-shirt sizes, unless --points gives each \
            size its number. README's "A meeting" has the import steps for Jira, Linear \
            and GitHub Projects.

            --csv --all prints every story instead, with the header Issue key,Summary,\
            Story Points,Median,Mean,Cards,Time,Channel,Round,Nearest,Consensus,\
            Questions,Coffees: Story Points is the agreed card as voted (8, 0.5, XL) or \
            empty; Cards read "Alice=5; Bob=8". It is the full record, for a \
            spreadsheet, not for a tracker: a field starting with = + - or @ gets a \
            leading apostrophe, so a spreadsheet shows it rather than running it as a \
            formula. --csv alone gives each key and summary as the backlog has it, for \
            the tracker's importer, which would keep an apostrophe in the title.

            --json prints every story, the full record as data for a script (no rows \
            are left out: the script decides), one object per story, keys in this order: id, time, channel, \
            round (0-15 or null), title (or null), votes ([{name, card, cardRaw}], card \
            as in packet decode --json), median, mean, nearest (the card nearest the \
            mean), consensus, questions, coffees, story ({key, summary}, or null), \
            agreed (the agreed estimate's card, or null).

            Names and titles are printed as the table shows them, in every form: \
            control characters, escape sequences and bidi overrides removed, so a \
            script that prints a field writes nothing a terminal acts on.
            """)

    // Read unconditionally, so `--last -5` gets this option's reason rather
    // than ArgumentParser's "missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Show only the last N rounds (stories with --csv or --json).", valueName: "N"), transform: { text in
        guard let count = Int(text), count >= 1 else { throw ValidationError("give a whole number of rounds, 1 or more.") }
        return count
    })
    var last: Int?

    @Option(help: ArgumentHelp("Only the rounds revealed since DATE (2026-11-24, or today): one meeting.", valueName: "DATE"))
    var since: HistoryDay?

    @Flag(help: "Print one JSON object per story.")
    var json = false

    @Flag(help: "Print CSV for a tracker: the key, summary and agreed estimate of each story it can update.")
    var csv = false

    @Flag(help: "With --csv, print every story and every column: the full record, for a spreadsheet.")
    var all = false

    @Option(help: ArgumentHelp("With --csv, the number each T-shirt size stands for in the tracker.", valueName: "XS=1,S=2,…"))
    var points: HistoryRecord.SizePoints?

    func validate() throws {
        guard !(json && csv) else { throw ValidationError("Give --json or --csv, not both.") }
        guard csv || !all else { throw ValidationError("--all goes with --csv: give `estimator history --csv --all`.") }
        guard csv || points == nil else { throw ValidationError("--points goes with --csv: give `estimator history --csv --points …`.") }
        guard !(all && points != nil) else {
            throw ValidationError("--all keeps the cards as voted; give --points without --all to map sizes for a tracker.")
        }
    }

    func run() throws {
        let file = HistoryFile()
        let contents = try file.read()
        if let report = file.damageReport(contents.damagedLines) { StandardError.write(report) }
        var records = contents.records
        if let since { records = records.filter { $0.time >= since.start } }
        if json || csv { records = HistoryRecord.perStory(records) }
        if let last { records = Array(records.suffix(last)) }
        let empty = contents.records.isEmpty || since == nil
            ? "No rounds yet: each round a session reveals is kept in \(file.path)."
            : "No rounds revealed since \(since!.text)."
        if json {
            for record in records { print(Self.sanitized(record).jsonLine) }
            if records.isEmpty { StandardError.write(empty) }
        } else if csv && all {
            let rows = records.map { Self.sanitized($0).csvRow }
            print(([HistoryRecord.csvHeader] + rows).map { $0 + CSV.lineEnding }.joined(), terminator: "")
            if records.isEmpty { StandardError.write(empty) }
        } else if csv {
            // Keys and summaries are kept on one line without controls (`Story`): safe on a terminal too.
            let export = HistoryRecord.TrackerExport(records, points: points)
            print(([HistoryRecord.TrackerExport.header] + export.records).map { $0 + CSV.lineEnding }.joined(), terminator: "")
            if records.isEmpty { StandardError.write(empty) }
            if let warning = export.warning { StandardError.write(warning) }
        } else if records.isEmpty {
            print(TerminalText.sanitize(empty))
        } else {
            for line in HistoryTable.lines(records, time: LocalTime.minute) { print(line) }
        }
    }

    /// `record` with its names and title as the table shows them: every
    /// output is, `--json` and `--csv` included, so a script that prints a
    /// field writes nothing a terminal acts on (docs/PROTOCOL.md, Hostile
    /// input). The file keeps what was heard.
    static func sanitized(_ record: HistoryRecord) -> HistoryRecord {
        var copy = record
        copy.title = record.title.map(Story.oneLine)
        copy.votes = record.votes.map { HistoryRecord.Vote(name: TerminalText.sanitize($0.name), card: $0.card) }
        copy.story = record.story.map { Story(key: $0.key, summary: $0.summary) }  // made one line, sanitised
        return copy
    }
}
