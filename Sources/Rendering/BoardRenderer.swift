import EstimatorKit

/// Lays the board (`watch --board`) out as screen lines, for a projector or
/// a big screen:
///
/// ```
///  channel 1 · round 4 · reveal in 1:23                              hci0
///
///  ABC-123 · Login with passkeys
///
///        ┌─────────┐  ┌─────────┐  ┌─────────┐  ┌─────────┐
///        │░░░░░░░░░│  │         │  │░░░░░░░░░│  │░░░░░░░░░│
///        …
///        └─────────┘  └─────────┘  └─────────┘  └─────────┘
///           Alice         Bob         Carol        전수열
///
///  3 of 4 voted · waiting for Bob
/// ```
///
/// Top to bottom: the header (channel, round, the timer, a notice such as
/// the relay's outage, the adapter); the story's key and summary, else the
/// round's title; the timer's clock in large digits while it runs; a card
/// per present voter (`BoardCards`); and
/// at the bottom, before the reveal, who is still to vote, after it the
/// chart of the votes (`VoteChart`) and what they add up to, the agreed
/// estimate first. The cards are as large as the terminal allows, the
/// clock as large as the cards: every size from 80×24 up is laid out anew.
///
/// Pure, like `TableRenderer`: every text from the air or a session is
/// sanitised before it is measured, lines use at most `columns - 1` cells,
/// the only control bytes are bold SGR sequences when `color` is on, and
/// with `ascii` every line is ASCII.
public struct BoardRenderer {
    /// Whether to emit SGR styling (off for `NO_COLOR` and non-terminals).
    public var color: Bool
    /// Whether to draw in ASCII only.
    public var ascii: Bool

    /// A renderer that styles with SGR when `color` is on, in ASCII only
    /// with `ascii`.
    public init(color: Bool, ascii: Bool = false) {
        self.color = color
        self.ascii = ascii
    }

    /// Lines of the heading at most.
    static let headingLines = 2

    private static let bold = "\u{1B}[1m", reset = "\u{1B}[0m"

    /// A line and whether it is bold.
    private typealias Line = (text: String, bold: Bool)

    /// The screen's lines, at most `size.rows` of them, each at most
    /// `size.columns - 1` cells wide.
    public func lines(_ board: Board, size: TerminalSize) -> [String] {
        let width = size.columns - 1
        guard width > 0, size.rows > 0 else { return [] }
        let ink = ascii ? BoardInk.ascii : BoardInk.unicode
        var top: [Line] = [(header(board, width: width), false)]
        let heading = heading(board, width: width)
        if !heading.isEmpty { top += [("", false)] + heading.map { ($0, true) } }
        let bottom = board.tally.isRevealed ? result(board, width: width, room: size.rows - top.count - 1, ink: ink)
            : waiting(board, width: width)
        // The middle gets what the rest leaves, a blank line above and below it.
        let middle = middle(board, room: size.rows - top.count - bottom.count - 2, width: width, ink: ink)
        var lines = top + [("", false)]
        if !middle.isEmpty { lines += middle.map { ($0, false) } + [("", false)] }
        lines += bottom
        return lines.prefix(size.rows).map { line in
            var text = line.text
            while text.last == " " { text.removeLast() }
            if ascii { text = ASCIIFallback.fold(text) }
            return color && line.bold && !text.isEmpty ? Self.bold + text + Self.reset : text
        }
    }

    /// Between the parts of the header and of the heading.
    private var separator: String { ascii ? " - " : " · " }

    /// ` channel 1 · round 4 · reveal in 1:23`, and the adapter at the right.
    private func header(_ board: Board, width: Int) -> String {
        var parts = ["channel \(board.channel)"]
        if let round = board.tally.round { parts.append("round \(round)") }
        if let remaining = board.remaining { parts.append("reveal in \(Countdown.clock(remaining))") }
        if let notice = board.notice { parts.append(TerminalText.sanitize(notice)) }
        let left = " " + parts.joined(separator: separator)
        let adapter = (board.isObserving ? "observing" + separator : "") + TerminalText.sanitize(board.adapter)
        let shownAdapter = ascii ? ASCIIFallback.fold(adapter) : adapter
        let leftWidth = TerminalText.displayWidth(left), rightWidth = TerminalText.displayWidth(shownAdapter)
        guard leftWidth + 2 + rightWidth <= width else { return TextFitting.truncate(left, toWidth: width) }
        return TextFitting.pad(left, width: leftWidth, to: width - rightWidth) + shownAdapter
    }

    /// The story's key and summary, else the round's title, on at most
    /// `headingLines` lines.
    private func heading(_ board: Board, width: Int) -> [String] {
        let parts = board.story.map { [$0.key, $0.summary] } ?? [board.title]
        let text = parts.compactMap { $0.map { TextFitting.standalone(TerminalText.sanitize($0)) } }
            .filter { !$0.isEmpty }.joined(separator: separator)
        guard !text.isEmpty else { return [] }
        let shown = ascii ? ASCIIFallback.fold(text) : text
        return TextFitting.wrap(shown, toWidth: width - 1, lines: Self.headingLines).map { " " + $0 }
    }

    /// Before the reveal: how the vote stands and who is still to vote.
    private func waiting(_ board: Board, width: Int) -> [Line] {
        StatsFooter.lines(section(board), width: width, ascii: ascii).map { ($0, false) }
    }

    /// After the reveal: the chart of the votes, then what they add up to,
    /// the agreed estimate first, in `room` lines: the chart gives way
    /// first, its rows past the room counted in a last one.
    private func result(_ board: Board, width: Int, room: Int, ink: BoardInk) -> [Line] {
        let votes = board.voters.compactMap { entry -> (name: String, card: Card)? in
            guard case let .shown(card) = entry.mark, card.isVote else { return nil }
            return (ShownName.text(entry), card)
        }
        let chart = VoteChart.lines(votes, agreed: board.agreed, width: width, ink: ink, ascii: ascii)
        let parts = (board.agreed.map { ["agreed \($0)"] } ?? []) + StatsFooter.parts(section(board))
        let figures = StatsFooter.lines(parts, width: width, ascii: ascii).map { ($0, board.agreed != nil) }
        let chartRoom = room - figures.count - 1
        guard !chart.isEmpty, chartRoom >= 2 else { return figures }
        var rows = chart.map { ($0.text, $0.isAgreed) }
        if rows.count > chartRoom {
            let more = rows.count - chartRoom + 1
            rows = rows.prefix(chartRoom - 1) + [(TextFitting.truncate(" … \(more) more cards", toWidth: width), false)]
        }
        return rows + [("", false)] + figures
    }

    /// The board's round as a table section, for the footer's words.
    private func section(_ board: Board) -> TableSection {
        TableSection(channel: board.channel, title: board.title, rows: [], tally: board.tally)
    }

    /// The timer's clock and the cards, as large as `room` lines allow.
    /// While a timer runs before the reveal, the largest cards that fit with
    /// a clock as large as they are; else, or when none fit so, the largest
    /// cards that fit alone (the header still says what is left).
    private func middle(_ board: Board, room: Int, width: Int, ink: BoardInk) -> [String] {
        let voters = board.voters
        let styles: [BoardCards.Style] = [.large(scale: 3), .large(scale: 2), .large(scale: 1), .small]
        let clock = board.tally.isRevealed ? nil : board.remaining.map(Countdown.clock)
        var choices: [(style: BoardCards.Style, clockScale: Int?)] = []
        if clock != nil {
            choices += styles.map { style in (style, { if case let .large(scale) = style { scale } else { 1 } }()) }
        }
        choices += styles.map { ($0, nil) }
        for (style, clockScale) in choices {
            guard !voters.isEmpty, let cards = BoardCards(voters, style: style, width: width, ink: ink, ascii: ascii) else { continue }
            let clockLines = clockScale.map { BlockFont.height * $0 + 1 } ?? 0
            guard cards.height + clockLines <= room else { continue }
            var lines: [String] = []
            if let clock, let scale = clockScale {
                let clockWidth = BlockFont.width(clock, scale: scale)
                lines += BlockFont.rows(clock, scale: scale, ink: ink.block).map { TextFitting.center($0, width: clockWidth, in: width) }
                lines.append("")
            }
            return lines + cards.lines(width: width)
        }
        return []
    }
}
