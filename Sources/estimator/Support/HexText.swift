import EstimatorKit

/// Hex bytes typed on the command line (`estimator packet decode --hex`).
enum HexText {
    /// Reads pairs of hex digits in either case (`Hex.bytes`); spaces and
    /// colons between bytes are ignored, so `btmon`'s and `bluetoothctl`'s
    /// dumps paste as is.
    static func parse(_ text: String) throws(UserError) -> [UInt8] {
        var digits = String.UnicodeScalarView()
        digits.append(contentsOf: text.unicodeScalars.filter { $0 != ":" && !$0.properties.isWhitespace })
        guard !digits.isEmpty, let bytes = Hex.bytes(String(digits)) else {
            throw UserError(.data, "'\(TerminalText.echo(text))' is not hex bytes; give pairs of hex digits, like 3031303130384A6F.")
        }
        return bytes
    }
}
