import ArgumentParser
import EstimatorKit
import SessionDaemon

/// `estimator backlog [FILE]`: load the stories to estimate, or show them.
struct BacklogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backlog",
        abstract: "Load the stories to estimate, or show them with their agreed estimates.",
        discussion: """
            With FILE, loads the meeting's stories in place of any loaded before; from \
            then on `estimator round` without a title (and r in `join --foreground`) \
            starts the next story that has no agreed estimate yet. A story is estimated \
            once a round of it agrees: by consensus, or by `estimator settle`. A round \
            that ends without agreement is voted again by the next `round`, after the \
            discussion; `estimator round ABC-7` takes a story out of turn. Without FILE, \
            lists the stories: their agreed estimates and the next one.

            FILE is either an export with a header row, its columns found by their \
            names (case aside): the key in Issue key, Work item key, Key, Schlüssel, ID \
            or URL, the summary in Summary, Title or Zusammenfassung, as CSV from Jira \
            (English or German), Linear or a spreadsheet, or TSV from GitHub Projects \
            (Title, URL: the key is owner/repo#12); or a plain list, one story a line: \
            "ABC-123 Login with passkeys" (a first word like ABC-123, #12 or \
            owner/repo#12 is the key) or just the summary, Markdown's "- [ ] " or "1. " \
            before it dropped, Markdown headings skipped. A .csv file of one column \
            without such a header is a list too. Other columns are named with \
            --key-column and --summary-column, by the header's name or by number from \
            1 (the first line is then the header). UTF-8, with or without a byte \
            order mark. A file that breaks a rule (empty, an HTML page, another \
            encoding, no summary column, a named column it lacks, a quote never closed, \
            a story twice, more than 1000 stories) is refused whole in one sentence, \
            exit 65, and the backlog stays as it was.

            The backlog is kept in $XDG_STATE_HOME/estimator/backlog.json (else \
            ~/.local/state/estimator/), for every session of yours, until another is \
            loaded or --clear forgets it; what is estimated is read from the history.

            Examples:
              $ estimator backlog sprint-42.csv
              loaded 3 stories from sprint-42.csv (columns Issue key and Summary); next: ABC-1 Login with passkeys

              $ estimator backlog plan.csv --key-column Ticket --summary-column 2
              loaded 3 stories from plan.csv (columns Ticket and Story); next: ABC-1 Login with passkeys

              $ estimator backlog
              sprint-42.csv: 1 of 3 stories estimated; next: ABC-2 Export
              KEY    SUMMARY              AGREED
              ABC-1  Login with passkeys  5
              ABC-2  Export               next
              ABC-3  Board                ·

              $ estimator backlog --clear
            """)

    @Argument(help: ArgumentHelp("The stories: a CSV or TSV export, or a plain list.", valueName: "FILE"),
              completion: .file())
    var file: String?

    @Option(help: ArgumentHelp("The keys' column of FILE: its name in the header, or its number from 1.",
                               valueName: "name|number"))
    var keyColumn: BacklogColumn?

    @Option(help: ArgumentHelp("The summaries' column of FILE: its name in the header, or its number from 1.",
                               valueName: "name|number"))
    var summaryColumn: BacklogColumn?

    @Flag(help: "Forget the backlog: `estimator round` without a title starts untitled rounds again.")
    var clear = false

    func validate() throws {
        guard !(clear && file != nil) else { throw ValidationError("Give FILE or --clear, not both.") }
        guard file != nil || keyColumn == nil && summaryColumn == nil else {
            throw ValidationError("Give --key-column and --summary-column with the FILE whose columns they name.")
        }
    }

    func run() throws {
        let stored = BacklogFile()
        if clear {
            return print(try stored.clear() ? "backlog forgotten; `estimator round` starts untitled rounds again" : "no backlog was loaded")
        }
        guard let file else {
            guard let progress = try stored.progress() else {
                return print("No backlog loaded: `estimator backlog FILE` loads the stories to estimate.")
            }
            return BacklogTable.lines(progress).forEach { print($0) }
        }
        let backlog = try BacklogFile.load(file, keyColumn: keyColumn, summaryColumn: summaryColumn)
        try stored.save(backlog)
        let progress = BacklogProgress(backlog, history: try HistoryFile().read().records)
        let count = backlog.stories.count == 1 ? "1 story" : "\(backlog.stories.count) stories"
        let columns = switch backlog.columns.count {
        case 0: "one a line"
        case 1: "column \(backlog.columns[0]), no key column: --key-column names one"
        default: "columns " + backlog.columns.joined(separator: " and ")
        }
        var done = "loaded \(count) from \(file) (\(columns))"
        if progress.estimated > 0 { done += "; \(progress.estimated) agreed already" }
        done += progress.next.map { "; next: \($0.story.title)" } ?? "; every one has an agreed estimate"
        print(TerminalText.sanitize(done))
    }
}
