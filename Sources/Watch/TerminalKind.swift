import Glibc
import Rendering
import SessionDaemon

/// What the terminal on standard output can show, from the environment:
/// whether it draws a table at all (`TERM=dumb` cannot move the cursor),
/// in color (`NO_COLOR`), and beyond ASCII (the locale).
package enum TerminalKind {
    /// Standard output is a terminal that can redraw a table in place.
    static var drawsTables: Bool { isatty(1) == 1 && Environment.value("TERM") != "dumb" }

    /// SGR styling is wanted.
    static var color: Bool {
        TableRenderer.wantsColor(isTerminal: isatty(1) == 1, environment: ["NO_COLOR": Environment.value("NO_COLOR") ?? ""])
    }

    /// The locale's character set is not UTF-8: print ASCII only.
    package static var ascii: Bool {
        var locale: [String: String] = [:]
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] { locale[name] = Environment.value(name) }
        return ASCIIFallback.isNeeded(environment: locale)
    }
}
