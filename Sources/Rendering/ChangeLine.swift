import EstimatorKit

/// The line printed for a peer event when the output is not a terminal
/// (a pipe or a file): one line per change, no cursor movement, no color,
/// for example `2026-11-22T03:51:46.722Z channel 1 Alice picked 8 (-60 dBm)`.
public enum ChangeLine {
    /// The line for `event`, its name sanitised.
    public static func line(_ event: PeerEvent) -> String {
        let name = TerminalText.sanitize(event.name)
        let what: String
        switch event.kind {
        case .joined: what = "joined with \(event.card)"
        case .card: what = "picked \(event.card)"
        case .stale: what = "not heard lately (stale)"
        case .back: what = "back with \(event.card)"
        case .left: what = "left"
        }
        // A signal is news only when the peer was just heard.
        let heard = event.kind != .stale && event.kind != .left
        let signal = heard ? event.rssi.map { " (\($0) dBm)" } ?? "" : ""
        return "\(RFC3339.string(event.time)) channel \(event.channel) \(name) \(what)\(signal)"
    }
}
