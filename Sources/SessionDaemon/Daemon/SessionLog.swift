import Clocks
import EstimatorKit

/// A background session's log: lines on standard output (the log file
/// `join` opened), written at once, so the file is current even if the
/// session is killed.
package enum SessionLog {
    /// Writes `line`, sanitised, after the time.
    package static func write(_ line: String) {
        let text = RFC3339.string(SystemClock().now) + " " + TerminalText.sanitize(line) + "\n"
        try? Descriptor.writeAll(1, Array(text.utf8))
    }

    /// What a session's stream line says worth keeping: radio trouble and the end.
    static func write(_ line: ControlWatchLine) {
        switch line {
        case let .radio(state): write("radio: \(state)")
        case let .ended(reason): write(reason)
        case .me, .heard, .table, .seen, .change: break
        }
    }
}
