/// Bytes as a run of hex digits, as the control protocol carries local
/// names (which are untrusted and may not be UTF-8).
public enum HexBytes {
    private static let digits = Array("0123456789ABCDEF".utf8)

    /// Two uppercase digits a byte.
    public static func text(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes an even run of hex digits (either case) spells, or nil.
    public static func parse(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let byte = Hex.byte(high: utf8[i], low: utf8[i + 1]) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
    }
}
