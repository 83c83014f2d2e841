/// Bytes as hex digits, two uppercase digits a byte with no separators
/// (`[0x30, 0xEC]` → `"30EC"`), read back in either case: a packet's byte
/// fields (docs/PROTOCOL.md, Packet), the local names the control protocol
/// carries (untrusted, maybe not UTF-8), `packet --hex` and the relay's ids.
public enum Hex {
    private static let digits = Array("0123456789ABCDEF".utf8)

    /// Two uppercase digits a byte.
    public static func text(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes an even run of hex digits (either case) spells, or nil.
    public static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let byte = byte(high: utf8[i], low: utf8[i + 1]) else { return nil }
            out.append(byte)
            i += 2
        }
        return out
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
