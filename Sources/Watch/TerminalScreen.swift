import EstimatorKit
import Glibc
import Rendering
import SessionDaemon

/// The terminal the live table or the board is drawn on: its size, the
/// alternate screen, writes of only what changed (`ScreenDiffer`), and the
/// bell.
package struct TerminalScreen {
    private var differ = ScreenDiffer()
    private var entered = false
    private var renderer = TableRenderer(color: TerminalKind.color, ascii: TerminalKind.ascii)
    private let boardRenderer = BoardRenderer(color: TerminalKind.color, ascii: TerminalKind.ascii)

    static var size: TerminalSize {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return TerminalSize(columns: 80, rows: 24)
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    mutating func enter() {
        write(ScreenDiffer.enter)
        entered = true
    }

    mutating func leave() { leaveIfNeeded(true) }

    mutating func leaveIfNeeded(_ wanted: Bool) {
        guard wanted, entered else { return }
        write(ScreenDiffer.leave)
        entered = false
    }

    /// Prints the table on the normal screen, as plain lines: what stays
    /// in the terminal when a watch ends.
    mutating func print(_ table: LiveTable) {
        let size = Self.size
        let lines = renderer.lines(table, size: TerminalSize(columns: size.columns, rows: Int(Int16.max)))
        write(lines.map { $0 + "\n" }.joined())
    }

    /// Draws the table, with `footer` lines (the key legend) kept below it.
    mutating func draw(_ table: LiveTable, footer: [String] = []) {
        let size = Self.size
        let room = TerminalSize(columns: size.columns, rows: max(size.rows - footer.count, 1))
        let footer = footer.map { String(TerminalText.sanitize($0).prefix(max(size.columns - 1, 0))) }
        write(differ.update(to: renderer.lines(table, size: room) + footer, size: size))
    }

    /// Draws the board, laid out to the terminal's size now.
    mutating func draw(_ board: Board) {
        let size = Self.size
        write(differ.update(to: boardRenderer.lines(board, size: size), size: size))
    }

    /// Prints the board on the normal screen, at the terminal's size: what
    /// stays in the terminal when a watch ends.
    func print(_ board: Board) {
        write(boardRenderer.lines(board, size: Self.size).map { $0 + "\n" }.joined())
    }

    /// Rings the terminal's bell (BEL): the cards are revealed.
    package static func ringBell() { try? Descriptor.writeAll(1, [0x07]) }

    private func write(_ text: String) {
        try? Descriptor.writeAll(1, Array(text.utf8))
    }
}
