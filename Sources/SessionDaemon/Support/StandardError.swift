import EstimatorKit

/// Lines for people on standard error: sanitised, because a message may quote
/// what came from the air or from another program.
package enum StandardError {
    /// Writes `line`, sanitised, and a newline.
    package static func write(_ line: String) {
        try? Descriptor.writeAll(2, Array((TerminalText.sanitize(line) + "\n").utf8))
    }
}
