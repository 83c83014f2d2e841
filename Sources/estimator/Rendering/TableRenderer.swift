import EstimatorKit

/// Lays the live table out as screen lines (DESIGN §1):
///
/// ```
///  channel 1 · 4 people · 3 picked                        hci0
///  NAME          CARD  SIGNAL  SEEN
///  전수열 (you)  8             now
///  Alice         5     ━━━╸    0.4s
///  median 5 · mean 6.5 · range 5–8 · no consensus: Alice and 전수열 explain
/// ```
///
/// Pure: no terminal I/O. Every name is sanitised before it is measured or
/// laid out, so the only control bytes in a line are the SGR sequences added
/// here (dim for stale rows, bold for mine) when `color` is on. Columns are
/// measured in display width, so Hangul, CJK and emoji names align. Lines use
/// at most `columns - 1` cells: writing the last column leaves a terminal's
/// cursor in its pending-wrap state, where clearing the rest of the line
/// would erase the character just written.
struct TableRenderer {
    /// Whether to emit SGR styling (off for `NO_COLOR` and non-terminals).
    var color: Bool

    init(color: Bool) { self.color = color }

    /// Color is for terminals, unless `NO_COLOR` is set to anything
    /// non-empty (no-color.org).
    static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    private static let gap = "  "
    private static let titles = (name: "NAME", card: "CARD", signal: "SIGNAL", seen: "SEEN")
    private static let dim = "\u{1B}[2m", bold = "\u{1B}[1m", reset = "\u{1B}[0m"

    /// The screen's lines, at most `size.rows` of them, each at most
    /// `size.columns - 1` cells wide.
    func lines(_ table: LiveTable, size: TerminalSize) -> [String] {
        let width = size.columns - 1
        guard width > 0, size.rows > 0 else { return [] }
        let sections = table.sections.map(PreparedSection.init)
        let columns = Columns(sections, width: width)
        let footers = sections.map { StatsFooter.lines($0.source.stats, width: width) }
        // Rows get what headers, titles, footers and blank separators leave.
        var rowBudget = size.rows - sections.count * 2 - footers.joined().count - max(sections.count - 1, 0)
        var lines: [String] = []
        for (index, section) in sections.enumerated() {
            if index > 0 { lines.append("") }
            let adapter = index == 0 ? TerminalText.sanitize(table.adapter) : ""
            lines.append(header(section, adapter: adapter, width: width))
            lines.append(clip(columns.line(name: Self.titles.name, textWidth: Self.titles.name.count,
                                           card: Self.titles.card, signal: Self.titles.signal,
                                           seen: Self.titles.seen), width))
            let rows = section.rows
            let shown = rows.count <= rowBudget ? rows.count : max(rowBudget - 1, 0)
            for row in rows.prefix(shown) { lines.append(line(row, columns, width)) }
            if shown < rows.count { lines.append(clip(" … \(rows.count - shown) more", width)) }
            rowBudget -= shown + (shown < rows.count ? 1 : 0)
            lines += footers[index]
        }
        return Array(lines.prefix(size.rows))
    }

    private func header(_ section: PreparedSection, adapter: String, width: Int) -> String {
        let stats = section.source.stats
        var left = " channel \(section.source.channel) · \(stats.people) \(stats.people == 1 ? "person" : "people")"
        left += " · \(stats.picked) picked"
        if section.source.unshown > 0 { left += " · \(section.source.unshown) more not shown" }
        let leftWidth = TerminalText.displayWidth(left)
        let rightWidth = TerminalText.displayWidth(adapter)
        guard !adapter.isEmpty, leftWidth + 2 + rightWidth <= width else { return clip(left, width) }
        return TextFitting.pad(left, width: leftWidth, to: width - rightWidth) + adapter
    }

    private func line(_ row: PreparedRow, _ columns: Columns, _ width: Int) -> String {
        let text = clip(
            columns.line(name: row.name, textWidth: row.nameWidth, isMe: row.source.isMe,
                         card: row.card, signal: row.signal, seen: row.seen), width)
        guard color else { return text }
        if row.source.isStale { return Self.dim + text + Self.reset }
        if row.source.isMe { return Self.bold + text + Self.reset }
        return text
    }

    private func clip(_ text: String, _ width: Int) -> String {
        TextFitting.truncate(text, toWidth: width)
    }
}

/// A row with its sanitised, measured cells.
private struct PreparedRow {
    let source: TableRow
    /// The sanitised name and its display width.
    let name: String
    let nameWidth: Int
    let card: String
    let signal: String
    let seen: String

    init(_ row: TableRow) {
        source = row
        name = TextFitting.standalone(TerminalText.sanitize(row.name))
        nameWidth = TerminalText.displayWidth(name)
        card = row.card.description
        signal = SignalBars.bars(rssi: row.rssi)
        seen = SeenAge.text(row.lastSeen)
    }
}

/// A section with its rows prepared and ordered: mine first, then by name.
private struct PreparedSection {
    let source: TableSection
    let rows: [PreparedRow]

    init(_ section: TableSection) {
        source = section
        rows = section.rows
            .sorted { $0.isMe != $1.isMe ? $0.isMe : $0.name < $1.name }
            .map(PreparedRow.init)
    }
}

/// Column widths shared by every section, so grouped channels align too.
private struct Columns {
    static let you = " (you)"
    let name: Int
    let card: Int
    let signal = max(SignalBars.width, 6)
    let seen: Int

    init(_ sections: [PreparedSection], width: Int) {
        let rows = sections.flatMap(\.rows)
        card = rows.reduce(4) { max($0, TerminalText.displayWidth($1.card)) }
        seen = rows.reduce(4) { max($0, $1.seen.count) }
        let widest = rows.reduce(4) { max($0, $1.nameWidth + ($1.source.isMe ? Self.you.count : 0)) }
        let room = width - (1 + card + signal + seen + 3 * 2)
        // However narrow, my row keeps "(you)" whole and three cells of name.
        let least = rows.contains { $0.source.isMe } ? Self.you.count + 3 : 4
        name = max(min(widest, room), least)
    }

    /// One line of cells, every one padded to its column so all rows are
    /// equally wide; the name is cut with … to its column.
    func line(name text: String, textWidth: Int, isMe: Bool = false,
              card: String, signal: String, seen: String) -> String {
        let nameCell: String
        if isMe {
            let room = name - Self.you.count
            nameCell = TextFitting.fit(TextFitting.truncate(text, toWidth: room) + Self.you, toWidth: name)
        } else if textWidth <= name {
            nameCell = TextFitting.pad(text, width: textWidth, to: name)
        } else {
            nameCell = TextFitting.fit(text, toWidth: name)
        }
        return " " + nameCell + "  " + TextFitting.fit(card, toWidth: self.card)
            + "  " + TextFitting.pad(signal, width: signal.count, to: self.signal) + "  " + TextFitting.pad(seen, width: seen.count, to: self.seen)
    }
}
