import EstimatorKit

/// The revealed votes as a bar chart for the board: a row per card voted,
/// in the cards' order (numbers, sizes, `?`, coffee, then bytes that are no
/// card), each with its bar, its count and who voted it; the row of the
/// agreed estimate is marked.
///
/// ```
///    3 ██████         1  Carol
/// ▶  5 ████████████   2  Alice, Bob
///    8 ██████         1  전수열
/// ```
enum VoteChart {
    /// A chart line, and whether it is the agreed estimate's row.
    struct Line: Equatable {
        let text: String
        let isAgreed: Bool
    }

    /// The longest bar, in cells.
    static let longestBar = 60

    /// The chart of `votes` (names as `ShownName` shows them) in `width` columns.
    static func lines(_ votes: [(name: String, card: Card)], agreed: Card?, width: Int, ink: BoardInk,
                      ascii: Bool) -> [Line] {
        var byCard: [Card: [String]] = [:]
        for (name, card) in votes { byCard[card, default: []].append(name) }
        let cards = byCard.keys.sorted { order($0) < order($1) }
        guard let most = byCard.values.map(\.count).max() else { return [] }
        let labels = cards.map { ascii ? ASCIIFallback.fold($0.description) : $0.description }
        let labelWidth = labels.map(TerminalText.displayWidth).max() ?? 0
        let countWidth = String(most).count
        // Half of what the label and count leave goes to the bars, a whole
        // number of cells a vote.
        let room = (width - labelWidth - countWidth - 8) / 2
        let unit = max(min(room, longestBar) / most, 1)
        return zip(cards, labels).map { card, label in
            let names = byCard[card]!
            let mark = card == agreed ? String(ink.pointer) : " "
            let bar = String(repeating: ink.bar, count: names.count * unit)
            var text = " " + mark + " " + String(repeating: " ", count: labelWidth - TerminalText.displayWidth(label)) + label
                + " " + TextFitting.pad(bar, width: bar.count, to: most * unit)
                + " " + String(repeating: " ", count: countWidth - String(names.count).count) + String(names.count)
            let left = width - TerminalText.displayWidth(text) - 2
            if left >= 4 {
                let list = names.sorted().joined(separator: ", ")
                text += "  " + TextFitting.truncate(ascii ? ASCIIFallback.fold(list) : list, toWidth: left)
            }
            return Line(text: TextFitting.truncate(text, toWidth: width), isAgreed: card == agreed)
        }
    }

    /// Where a card goes in the chart: numbers by value, sizes by rank,
    /// then `?`, coffee, and other bytes by value.
    private static func order(_ card: Card) -> (Int, Double) {
        if let value = card.numericValue { return (0, value) }
        if let rank = card.sizeRank { return (1, Double(rank)) }
        if card == .question { return (2, 0) }
        if card == .coffee { return (3, 0) }
        return (4, Double(card.rawValue))
    }
}
