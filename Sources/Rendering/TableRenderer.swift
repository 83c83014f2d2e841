import EstimatorKit

/// Lays the live table out as screen lines (the README's table):
///
/// ```
///  channel 1 · round 3 · ABC-1 · 4 people · 3 voted                   hci0
///  NAME          CARD  SIGNAL  SEEN
///  전수열 (you)  ✓             now
///  Alice         ✓     ━━━╸    0.4s
///  Bob           ✓     ━━      1.2s
///  Carol         ·     ━━━     0.2s
///  3 of 4 voted · waiting for Carol
/// ```
///
/// and once everyone has voted, the cards and what they add up to:
/// `median 5 · mean 6.5 ≈ 8 · 8: 전수열 explains · ☕ 1`.
///
/// Rows: mine first, then by name; an app user's name is marked `(app)`,
/// and a name that arrived cut ends in `…`. A room taller than the terminal ends in
/// "… N more"; a channel's footer wraps its parts onto more lines when the
/// terminal is narrow, and names are cut with … by display width.
///
/// Pure: no terminal I/O. Every name is sanitised before it is measured or
/// laid out, so the only control bytes in a line are the SGR sequences added
/// here (dim for stale rows, bold for mine) when `color` is on. A stale row
/// also says so in words, for terminals without color. With `ascii` (a
/// locale that is not UTF-8) every line is ASCII (`ASCIIFallback`). Columns are
/// measured in display width, so Hangul, CJK and emoji names align. Lines use
/// at most `columns - 1` cells: writing the last column leaves a terminal's
/// cursor in its pending-wrap state, where clearing the rest of the line
/// would erase the character just written.
public struct TableRenderer {
    /// Whether to emit SGR styling (off for `NO_COLOR` and non-terminals).
    public var color: Bool
    /// Whether to draw in ASCII only.
    public var ascii: Bool

    /// Names of the last frame, sanitised and measured: most frames change
    /// one row, and measuring display width is the costly part of a frame.
    /// Only the names of the latest frame are kept, so it stays small.
    private var measured: [MeasuredName.Key: MeasuredName] = [:]

    /// A renderer that styles with SGR when `color` is on, in ASCII only
    /// with `ascii`.
    public init(color: Bool, ascii: Bool = false) {
        self.color = color
        self.ascii = ascii
    }

    /// Color is for terminals, unless `NO_COLOR` is set to anything
    /// non-empty (no-color.org).
    public static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    private static let titles = (name: "NAME", card: "CARD", signal: "SIGNAL", seen: "SEEN")
    private static let dim = "\u{1B}[2m", bold = "\u{1B}[1m", reset = "\u{1B}[0m"

    /// The screen's lines, at most `size.rows` of them, each at most
    /// `size.columns - 1` cells wide.
    public mutating func lines(_ table: LiveTable, size: TerminalSize) -> [String] {
        let width = size.columns - 1
        guard width > 0, size.rows > 0 else { return [] }
        var nowMeasured: [MeasuredName.Key: MeasuredName] = [:]
        let ascii = self.ascii
        let sections = table.sections.map { section in
            PreparedSection(section, ascii: ascii) { row in
                let key = MeasuredName.Key(row)
                let measuredName = measured[key] ?? MeasuredName(key, ascii: ascii)
                nowMeasured[key] = measuredName
                return measuredName
            }
        }
        measured = nowMeasured
        let columns = Columns(sections, width: width)
        var footers = sections.map { StatsFooter.lines($0.source, width: width, ascii: ascii) }
        if let notice = table.notice, !footers.isEmpty {
            let text = " " + TerminalText.sanitize(notice)
            footers[footers.count - 1].append(TextFitting.truncate(ascii ? ASCIIFallback.fold(text) : text, toWidth: width))
        }
        // Rows get what headers, titles, footers and blank separators leave.
        var rowBudget = size.rows - sections.count * 2 - footers.joined().count - max(sections.count - 1, 0)
        var lines: [String] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append("") }
            let adapter = index > 0 ? "" : (table.isObserving ? "observing" + separator : "") + TerminalText.sanitize(table.adapter)
            lines.append(header(section, adapter: adapter, width: width))
            lines.append(columns.clip(columns.line(name: Self.titles.name, textWidth: Self.titles.name.count,
                                                   card: Self.titles.card, cardWidth: Self.titles.card.count,
                                                   signal: Self.titles.signal, seen: Self.titles.seen), width))
            let rows = section.rows
            let shown = rows.count <= rowBudget ? rows.count : max(rowBudget - 1, 0)
            for row in rows.prefix(shown) { lines.append(line(row, columns, width)) }
            if shown < rows.count { lines.append(TextFitting.truncate(" … \(rows.count - shown) more", toWidth: width)) }
            rowBudget -= shown + (shown < rows.count ? 1 : 0)
            lines += footers[index]
        }
        let shown = lines.prefix(size.rows)
        // What layout added (a cut name's …, the bars) is one cell either way.
        return ascii ? shown.map(ASCIIFallback.fold) : Array(shown)
    }

    /// Between the parts of a header or footer.
    private var separator: String { ascii ? " - " : " · " }

    private func header(_ section: PreparedSection, adapter: String, width: Int) -> String {
        let source = section.source
        var parts = ["channel \(source.channel)"]
        if let round = source.round { parts.append("round \(round)") }
        if let title = source.title {
            let shown = TextFitting.standalone(TerminalText.sanitize(title))
            parts.append(ascii ? ASCIIFallback.fold(shown) : shown)
        }
        let people = source.rows.count
        parts += ["\(people) \(people == 1 ? "person" : "people")", "\(source.voted) voted"]
        if let remaining = source.remaining { parts.append("reveal in \(Countdown.clock(remaining))") }
        var left = " " + parts.joined(separator: separator)
        if section.source.unshown > 0 { left += separator + "\(section.source.unshown) more not shown" }
        let leftWidth = TerminalText.displayWidth(left)
        let rightWidth = TerminalText.displayWidth(adapter)
        guard !adapter.isEmpty, leftWidth + 2 + rightWidth <= width else {
            return TextFitting.truncate(left, toWidth: width)
        }
        return TextFitting.pad(left, width: leftWidth, to: width - rightWidth) + adapter
    }

    private func line(_ row: PreparedRow, _ columns: Columns, _ width: Int) -> String {
        let text = columns.clip(
            columns.line(name: row.name.text, textWidth: row.name.width, isMe: row.source.isMe,
                         card: row.card, cardWidth: row.cardWidth, signal: row.signal, seen: row.seen), width)
        guard color else { return text }
        if row.source.isStale { return Self.dim + text + Self.reset }
        if row.source.isMe { return Self.bold + text + Self.reset }
        return text
    }
}

/// A name as received, sanitised and measured, with its marks: `…` when it
/// arrived cut, `(app)` for an app user.
private struct MeasuredName {
    /// What a row's name is measured from.
    struct Key: Hashable {
        let name: String
        let isNameCut: Bool
        let isApp: Bool

        init(_ row: TableRow) {
            name = row.name
            isNameCut = row.isNameCut
            isApp = row.isApp
        }
    }

    let text: String
    let width: Int

    init(_ key: Key, ascii: Bool) {
        let shown = ShownName.text(key.name, isNameCut: key.isNameCut, isApp: key.isApp)
        text = ascii ? ASCIIFallback.fold(shown) : shown
        width = TerminalText.displayWidth(text)
    }
}

/// A row with its cells ready to lay out.
private struct PreparedRow {
    let source: TableRow
    let name: MeasuredName
    let card: String
    let cardWidth: Int
    let signal: String
    let seen: String

    /// Display widths of every card's face, by byte (`☕` is two cells).
    private static let cardWidths = (0...255).map { TerminalText.displayWidth(Card(rawValue: UInt8($0)).description) }

    init(_ row: TableRow, name: MeasuredName, ascii: Bool) {
        source = row
        self.name = name
        switch row.mark {
        case .waiting: (card, cardWidth) = ("·", 1)
        case .hidden: (card, cardWidth) = ("✓", 1)
        case .observing: (card, cardWidth) = ("obs", 3)
        case let .shown(shown) where ascii:
            card = ASCIIFallback.fold(shown.description)
            cardWidth = card.count
        case let .shown(shown): (card, cardWidth) = (shown.description, Self.cardWidths[Int(shown.rawValue)])
        }
        switch row.heard {
        case .air: signal = SignalBars.bars(rssi: row.rssi)
        case .relay: signal = "relay"
        case .both:
            // The bars keep their four cells; the mark fits the column's six.
            let bars = SignalBars.bars(rssi: row.rssi)
            signal = TextFitting.pad(bars, width: bars.count, to: SignalBars.width) + "+r"
        }
        // Dimming is not there without color: the words are.
        seen = SeenAge.text(row.lastSeen) + (row.isStale ? " stale" : "")
    }
}

/// A section with its rows prepared and ordered (mine first, then by name)
/// and its statistics.
private struct PreparedSection {
    let source: TableSection
    let rows: [PreparedRow]

    init(_ section: TableSection, ascii: Bool, measure: (TableRow) -> MeasuredName) {
        source = section
        rows = section.rows
            .sorted { $0.isMe != $1.isMe ? $0.isMe : ($0.name, $0.isApp ? 1 : 0) < ($1.name, $1.isApp ? 1 : 0) }
            .map { PreparedRow($0, name: measure($0), ascii: ascii) }
    }
}

/// Column widths shared by every section, so grouped channels align too.
/// On a narrow terminal the name column gives way first: down to four
/// cells, with my row marked `*` when "(you)" no longer fits.
private struct Columns {
    static let you = " (you)"
    static let shortYou = "*"
    /// Four cells of bars and the relay's two-cell `+r` under a six-cell title.
    static let signal = max(SignalBars.width + 2, 6)
    let name: Int
    let card: Int
    let seen: Int
    /// How my row is marked in this width.
    let you: String

    /// The width of every row and of the titles.
    var total: Int { Self.total(name: name, card: card, seen: seen) }

    init(_ sections: [PreparedSection], width: Int) {
        let rows = sections.flatMap(\.rows)
        card = rows.reduce(4) { max($0, $1.cardWidth) }
        seen = rows.reduce(4) { max($0, $1.seen.count) }
        let widest = rows.reduce(4) { max($0, $1.name.width + ($1.source.isMe ? Self.you.count : 0)) }
        let room = width - Self.total(name: 0, card: card, seen: seen)
        name = max(min(widest, room), 4)
        // My row keeps "(you)" whole and three cells of name while it can.
        you = name >= Self.you.count + 3 ? Self.you : Self.shortYou
    }

    private static func total(name: Int, card: Int, seen: Int) -> Int {
        1 + name + 2 + card + 2 + signal + 2 + seen
    }

    /// A row or title line cut to `width`: only on terminals too narrow
    /// for every column.
    func clip(_ line: String, _ width: Int) -> String {
        total <= width ? line : TextFitting.truncate(line, toWidth: width)
    }

    /// One line of cells, every one padded to its column so all rows are
    /// equally wide; the name is cut with … to its column.
    func line(name text: String, textWidth: Int, isMe: Bool = false,
              card: String, cardWidth: Int, signal: String, seen: String) -> String {
        let nameCell: String
        if isMe, textWidth + you.count <= name {
            nameCell = TextFitting.pad(text + you, width: textWidth + you.count, to: name)
        } else if isMe {
            let room = name - you.count
            nameCell = TextFitting.fit(TextFitting.truncate(text, toWidth: room) + you, toWidth: name)
        } else if textWidth <= name {
            nameCell = TextFitting.pad(text, width: textWidth, to: name)
        } else {
            nameCell = TextFitting.fit(text, toWidth: name)
        }
        // Bars and ages are one cell per character.
        return " " + nameCell + "  " + TextFitting.pad(card, width: cardWidth, to: self.card)
            + "  " + TextFitting.pad(signal, width: signal.count, to: Self.signal)
            + "  " + TextFitting.pad(seen, width: seen.count, to: self.seen)
    }
}
