/// Turns successive frames (screen lines) into the least terminal output
/// that shows each: only the lines that changed are rewritten, each
/// followed by clear-to-end-of-line, and nothing is ever cleared in full,
/// so the table updates in place without flicker.
///
/// Lines are addressed from the top-left corner, so the frame belongs on a
/// screen of its own: write `enter` first (alternate screen, cursor hidden)
/// and `leave` at the end. Each line must be narrower than the terminal
/// (`TableRenderer` keeps the last column free), so writing a line never
/// wraps or scrolls.
public struct ScreenDiffer {
    /// Switches to the alternate screen, hides the cursor and clears it once.
    public static let enter = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
    /// Shows the cursor and returns to the normal screen.
    public static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    private var shown: [String] = []
    private var size: TerminalSize?

    /// A differ that has shown nothing yet.
    public init() {}

    /// What to write so the terminal shows `frame` instead of the last one:
    /// empty when nothing changed. After a resize every line is rewritten
    /// (the terminal may have rewrapped the old ones), still without a clear.
    public mutating func update(to frame: [String], size: TerminalSize) -> String {
        if size != self.size {
            shown = []
            self.size = size
        }
        // A frame taller than the screen would scroll it; the renderer never
        // makes one, and the differ never writes one.
        let frame = Array(frame.prefix(size.rows))
        var out = ""
        // The row whose end the cursor is at after writing it: the next row
        // down is then "\r\n" away, shorter than a cursor move.
        var cursorRow: Int?
        for (row, line) in frame.enumerated() where row >= shown.count || shown[row] != line {
            if cursorRow == row - 1 {
                out += "\r\n"
            } else {
                out += "\u{1B}[\(row + 1)H"
            }
            out += line
            out += "\u{1B}[K"
            cursorRow = row
        }
        let repainted = shown.isEmpty && !frame.isEmpty
        if frame.count < size.rows, frame.count < shown.count || repainted {
            // Clear what is below the frame: lines it no longer has, or after
            // a resize whatever the terminal rewrapped there.
            out += "\u{1B}[\(frame.count + 1)H\u{1B}[J"
        }
        shown = frame
        return out
    }
}
