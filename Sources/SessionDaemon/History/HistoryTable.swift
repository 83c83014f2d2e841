import EstimatorKit

/// `estimator history` for people: one row per round, columns aligned by
/// display width so Hangul, CJK and emoji names keep them straight.
///
///     TIME                  CH  ROUND  TITLE  RESULT                 VOTES
///     2026-11-24 09:12 CET   1      3  ABC-1  consensus 5            Bob 5, 전수열 5
///     2026-11-24 09:20 CET   1      4  ABC-2  median 5.5 · mean 5.5  Bob 3, 전수열 8
///
/// A round a session recorded first after joining a meeting under way is
/// preceded by a line saying so (`joined at round 3 …`): the rounds
/// before it were not heard here.
package enum HistoryTable {
    /// Widest title and name shown; longer ones are cut with `…`.
    static let titleWidth = 24
    static let nameWidth = 16

    /// The table's lines, `time` writing each round's time.
    package static func lines(_ records: [HistoryRecord], time: (Timestamp) -> String) -> [String] {
        let header = ["TIME", "CH", "ROUND", "TITLE", "RESULT", "VOTES"]
        let rows = records.map { record in
            [
                time(record.time), record.channel.description, record.round.map(String.init) ?? "–",
                fit(record.title.map(TerminalText.sanitize) ?? "", width: titleWidth), result(record),
                record.votes.map { fit(TerminalText.sanitize($0.name), width: nameWidth) + " " + $0.card.description }
                    .joined(separator: ", "),
            ]
        }
        var lines = aligned([header] + rows, rightAligned: [1, 2])
        for (index, record) in records.enumerated().reversed() {
            guard let joined = record.joined else { continue }
            lines.insert("joined at round \(joined) of channel \(record.channel): the rounds before it were not heard here", at: index + 1)
        }
        return lines
    }

    /// `rows` (the header first) as lines of columns two spaces apart,
    /// measured in display width; the last column runs to the end of the
    /// line, those in `rightAligned` are aligned right.
    static func aligned(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
        let widths = (rows.first ?? []).indices.map { column in
            rows.map { TerminalText.displayWidth($0[column]) }.max() ?? 0
        }
        return rows.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - TerminalText.displayWidth(cell))
                if column > 0 { line += "  " }
                if column == cells.count - 1 {
                    line += cell  // the last column runs to the end of the line
                } else {
                    line += rightAligned.contains(column) ? padding + cell : cell + padding
                }
            }
            return line
        }
    }

    /// `consensus 5`, `median 5 · mean 6.5`, or `no numbers` when nobody
    /// picked one; after `agreed 8 · ` when the team settled on a card the
    /// votes did not all hold (`agreed M` alone for sizes).
    static func result(_ record: HistoryRecord) -> String {
        let agreed = record.agreed.map { "agreed \($0)" }
        guard let median = record.median else { return agreed ?? "no numbers" }
        if record.consensus {
            let consensus = "consensus \(number(median))"
            return record.agreed?.numericValue == median || agreed == nil ? consensus : agreed! + " · " + consensus
        }
        return (agreed.map { $0 + " · " } ?? "") + "median \(number(median))" + (record.mean.map { " · mean \(number($0))" } ?? "")
    }

    /// `5`, `6.5`, `6.33`: at most two decimals, as the live table's footer.
    static func number(_ value: Double) -> String {
        // A hand-edited file may hold any finite number; only card-sized ones are rounded in integers.
        guard abs(value) < 1e12 else { return value.description }
        let hundredths = Int((value * 100).rounded())
        let whole = String(abs(hundredths) / 100), fraction = abs(hundredths) % 100
        let sign = hundredths < 0 ? "-" : ""
        switch fraction {
        case 0: return sign + whole
        case let f where f.isMultiple(of: 10): return "\(sign)\(whole).\(f / 10)"
        default: return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut; cuts
    /// fall between grapheme clusters.
    static func fit(_ text: String, width: Int) -> String {
        guard TerminalText.displayWidth(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = TerminalText.displayWidth(String(character))
            guard used + w <= width - 1 else { break }
            out.append(character)
            used += w
        }
        return String(out.reversed().drop { $0 == " " }.reversed()) + "…"
    }
}
