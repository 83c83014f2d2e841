import EstimatorKit

/// `estimator backlog` for people: a sentence on where the meeting stands,
/// then the stories with their agreed estimates, the next one marked.
///
///     sprint-42.csv: 1 of 3 stories estimated; next: ABC-2 Export
///     KEY    SUMMARY              AGREED
///     ABC-1  Login with passkeys  5
///     ABC-2  Export               next
///     ABC-3  Board                ·
package enum BacklogTable {
    /// Widest key and summary shown; longer ones are cut with `…`.
    static let keyWidth = 20
    static let summaryWidth = 56

    /// The lines; every text from the file is sanitised here.
    package static func lines(_ progress: BacklogProgress) -> [String] {
        let next = progress.next
        let stand = next.map { "next: \(TerminalText.sanitize($0.story.title))" } ?? "every story has an agreed estimate"
        let summary = "\(TerminalText.sanitize(progress.backlog.source)): \(progress.estimated) of \(progress.entries.count) "
            + "\(progress.entries.count == 1 ? "story" : "stories") estimated; \(stand)"
        let rows = progress.entries.enumerated().map { index, entry in
            [
                HistoryTable.fit(TerminalText.sanitize(entry.story.key ?? ""), width: keyWidth),
                HistoryTable.fit(TerminalText.sanitize(entry.story.summary), width: summaryWidth),
                entry.agreed?.description ?? (index == next?.index ? "next" : "·"),
            ]
        }
        return [summary] + HistoryTable.aligned([["KEY", "SUMMARY", "AGREED"]] + rows)
    }
}
