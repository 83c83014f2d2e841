import EstimatorKit

/// Bytes written as hex digits on the command line (`estimator packet`).
enum HexText {
    /// Uppercase, two digits a byte, no separators: `[0x30, 0xEC]` → `"30EC"`.
    static func format(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// Reads pairs of hex digits in either case; spaces and colons between
    /// bytes are ignored, so `btmon`'s and `bluetoothctl`'s dumps paste as is.
    static func parse(_ text: String) throws(UserError) -> [UInt8] {
        let digits = text.unicodeScalars.filter { $0 != ":" && !$0.properties.isWhitespace }
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { throw invalid(text) }
        var bytes: [UInt8] = []
        var pending: UInt8?
        for scalar in digits {
            guard scalar.isASCII, let nibble = UInt8(String(scalar), radix: 16) else { throw invalid(text) }
            if let high = pending {
                bytes.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        return bytes
    }

    private static func invalid(_ text: String) -> UserError {
        UserError(.data, "'\(TerminalText.echo(text))' is not hex bytes; give pairs of hex digits, like 3031303130384A6F.")
    }
}
