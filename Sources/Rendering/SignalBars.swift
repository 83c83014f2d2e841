/// Signal strength as four cells of bars, in half-cell steps: `━━━━` strong,
/// `━━╸` middling, `╸` faint.
package enum SignalBars {
    /// The column's width in cells.
    static let width = 4

    /// Bars for `rssi` dBm: −50 dBm or better is full, each 6.25 dB less
    /// drops half a cell, and anything heard shows at least half a cell.
    /// `nil` (not reported) is blank.
    package static func bars(rssi: Int?) -> String {
        guard let rssi else { return "" }
        let halves = min(max((rssi + 100) * 8 / 50, 1), 2 * width)
        return String(repeating: "━", count: halves / 2) + (halves.isMultiple(of: 2) ? "" : "╸")
    }
}
