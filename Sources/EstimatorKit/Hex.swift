/// The two-hex-digit byte fields of a packet (docs/PROTOCOL.md, Packet).
enum Hex {
    private static let digits = Array("0123456789ABCDEF".utf8)

    /// `byte` as two uppercase hex digits: `0x0D` → `"0D"`.
    static func byte(_ byte: UInt8) -> String {
        String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// The byte two ASCII hex digits (either case) spell, or `nil`.
    static func byte(high: UInt8, low: UInt8) -> UInt8? {
        guard let h = nibble(high), let l = nibble(low) else { return nil }
        return h << 4 | l
    }

    private static func nibble(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): ascii - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): ascii - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): ascii - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
