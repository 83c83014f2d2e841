import ArgumentParser
import EstimatorKit
import Glibc

/// `estimator history`: the rounds revealed so far.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the rounds revealed so far, as a table, JSON or CSV.",
        discussion: """
            Each round a session reveals is kept with its title, everyone's card and \
            the result; a re-vote after the reveal updates that round. The file is \
            $XDG_STATE_HOME/estimator/history.jsonl (else ~/.local/state/estimator/), \
            shared by the sessions on every adapter. Times in the table are in your \
            local time zone, the others in UTC.

            Examples:
              $ estimator history --last 2
              TIME                  CH  ROUND  TITLE  RESULT                 VOTES
              2026-11-24 09:12 CET   1      3  ABC-1  consensus 5            Bob 5, 전수열 5
              2026-11-24 09:20 CET   1      4  ABC-2  median 5.5 · mean 5.5  Bob 3, 전수열 8

              $ estimator history --csv > sprint.csv
              $ estimator history --json | jq -r 'select(.consensus) | .title'

            --json prints one object per round, keys in this order: id, time, channel, \
            round (0-15 or null), title (or null), votes ([{name, card, cardRaw}], card \
            as in packet decode --json), median, mean, nearest (the card nearest the \
            mean), consensus, questions, coffees.

            --csv prints RFC 4180 CSV (CRLF line ends) with the header \
            time,channel,round,title,median,mean,nearest,consensus,questions,coffees,votes; \
            votes read "Alice=5; Bob=8". A field starting with = + - or @ gets a leading \
            apostrophe, so a spreadsheet shows it rather than running it as a formula. \
            Names are kept as received, except that on a terminal anything the terminal \
            would act on is removed.
            """)

    // Read unconditionally, so `--last -5` gets this option's reason rather
    // than ArgumentParser's "missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Show only the last N rounds.", valueName: "N"), transform: { text in
        guard let count = Int(text), count >= 1 else { throw ValidationError("give a whole number of rounds, 1 or more.") }
        return count
    })
    var last: Int?

    @Flag(help: "Print one JSON object per round.")
    var json = false

    @Flag(help: "Print CSV with a header, for a spreadsheet or tracker.")
    var csv = false

    func validate() throws {
        guard !(json && csv) else { throw ValidationError("Give --json or --csv, not both.") }
    }

    func run() throws {
        let file = HistoryFile()
        let records = try file.read(last: last)
        let empty = "No rounds yet: each round a session reveals is kept in \(file.path)."
        if json {
            for record in records { print(record.jsonLine) }
            if records.isEmpty { StandardError.write(empty) }
        } else if csv {
            let onTerminal = isatty(1) == 1
            let rows = records.map { (onTerminal ? Self.sanitized($0) : $0).csvRow }
            print(([HistoryRecord.csvHeader] + rows).map { $0 + CSV.lineEnding }.joined(), terminator: "")
            if records.isEmpty { StandardError.write(empty) }
        } else if records.isEmpty {
            print(TerminalText.sanitize(empty))
        } else {
            for line in HistoryTable.lines(records, time: LocalTime.minute) { print(line) }
        }
    }

    /// `record` with its names and title as a terminal may show them.
    static func sanitized(_ record: HistoryRecord) -> HistoryRecord {
        var copy = record
        copy.title = record.title.map(TerminalText.sanitize)
        copy.votes = record.votes.map { HistoryRecord.Vote(name: TerminalText.sanitize($0.name), card: $0.card) }
        return copy
    }
}
