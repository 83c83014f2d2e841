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
            names: CSV from Jira (Issue key, Summary), Linear (ID, Title) or a \
            spreadsheet (Key, Summary or Title), TSV from GitHub Projects (Title, URL: \
            the key is owner/repo#12); or a plain list, one story a line: "ABC-123 \
            Login with passkeys" (a first word like ABC-123, #12 or owner/repo#12 is the \
            key) or just the summary. UTF-8, with or without a byte order mark. A file \
            that breaks a rule (another encoding, no Summary or Title column, a quote \
            never closed, a story twice, more than 1000 stories) is refused whole in \
            one sentence, exit 65, and the backlog stays as it was.

            The backlog is kept in $XDG_STATE_HOME/estimator/backlog.json (else \
            ~/.local/state/estimator/), for every session of yours, until another is \
            loaded or --clear forgets it; what is estimated is read from the history.

            Examples:
              $ estimator backlog sprint-42.csv
              loaded 3 stories from sprint-42.csv (columns Issue key and Summary); next: ABC-1 Login with passkeys

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

    @Flag(help: "Forget the backlog: `estimator round` without a title starts untitled rounds again.")
    var clear = false

    func validate() throws {
        guard !(clear && file != nil) else { throw ValidationError("Give FILE or --clear, not both.") }
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
        let backlog = try BacklogFile.load(file)
        try stored.save(backlog)
        let progress = BacklogProgress(backlog, history: try HistoryFile().read().records)
        let count = backlog.stories.count == 1 ? "1 story" : "\(backlog.stories.count) stories"
        let columns = backlog.columns.isEmpty ? "one a line" : "columns " + backlog.columns.joined(separator: " and ")
        var done = "loaded \(count) from \(file) (\(columns))"
        if progress.estimated > 0 { done += "; \(progress.estimated) agreed already" }
        done += progress.next.map { "; next: \($0.story.title)" } ?? "; every one has an agreed estimate"
        print(TerminalText.sanitize(done))
    }
}
