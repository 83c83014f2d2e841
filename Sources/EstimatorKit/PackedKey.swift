/// A tracker's key in the 5 bytes of one meeting part (docs/PROTOCOL.md,
/// Meeting), so that the first announcement of a round's story already
/// holds its key: `ABC-123` as text takes two parts and the space after it.
///
/// The keys that pack are Jira's and Linear's with a project of 1–4
/// characters (`ABC-123`, `PLAT-1042`: a capital, then capitals, digits or
/// `_`) and GitHub's `#12`, with a number below 131072 written without
/// leading zeros; any other key goes as text. The first byte is one no
/// UTF-8 text starts with (`10xxxxxx`, a continuation byte), so a receiver
/// tells a packed key from text by it alone.
///
/// The 38 bits after the marker's two are `project × 131072 + number`,
/// big-endian: project 0 is `#`, then every project of one character, of
/// two, three and four, each length in the order of its characters'
/// indices (the first in `A`–`Z`, the others in `A`–`Z`, `0`–`9`, `_`).
public enum PackedKey {
    /// Bytes of a packed key.
    public static let length = 5

    private static let numbers: UInt64 = 1 << 17
    private static let first = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars)
    private static let others = first + Array("0123456789_".unicodeScalars)
    /// Projects of 1 to 4 characters, each length's count.
    private static let counts: [UInt64] = (0..<4).map { UInt64(first.count) * pow(UInt64(others.count), $0) }
    private static let projects = 1 + counts.reduce(0, +)

    /// Whether `byte` begins a packed key rather than text.
    public static func isMarker(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }

    /// `key` packed, or nil when it is not of a form that packs.
    public static func pack(_ key: String) -> [UInt8]? {
        let scalars = Array(key.unicodeScalars)
        let separator: Unicode.Scalar = scalars.first == "#" ? "#" : "-"
        guard let split = scalars.lastIndex(of: separator) else { return nil }
        let digits = scalars[(split + 1)...]
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ ("0"..."9").contains($0) }),
              digits.count == 1 || digits.first != "0",
              let number = UInt64(String(String.UnicodeScalarView(digits))), number < numbers,
              let project = projectIndex(scalars[..<split], separator: separator) else { return nil }
        let value = project * numbers + number
        return [0x80 | UInt8(value >> 32)] + (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// The key in `bytes`, or nil when they are not a packed key.
    public static func unpack(_ bytes: some Collection<UInt8>) -> String? {
        let bytes = Array(bytes)
        guard bytes.count == length, isMarker(bytes[0]) else { return nil }
        let value = bytes.dropFirst().reduce(UInt64(bytes[0] & 0x3F)) { $0 << 8 | UInt64($1) }
        let project = value / numbers, number = value % numbers
        guard project < projects else { return nil }
        guard project > 0 else { return "#\(number)" }
        var index = project - 1, characters = 1
        while index >= counts[characters - 1] {
            index -= counts[characters - 1]
            characters += 1
        }
        var text = String.UnicodeScalarView()
        for position in (1..<characters).reversed() {
            let place = pow(UInt64(others.count), position)
            text.append(position == characters - 1 ? first[Int(index / place)] : others[Int(index / place)])
            index %= place
        }
        text.append(characters == 1 ? first[Int(index)] : others[Int(index)])
        return String(text) + "-\(number)"
    }

    /// The project's index (0 for `#`), or nil when it does not pack.
    private static func projectIndex(_ project: ArraySlice<Unicode.Scalar>, separator: Unicode.Scalar) -> UInt64? {
        if separator == "#" { return project.isEmpty ? 0 : nil }
        guard (1...counts.count).contains(project.count), let head = first.firstIndex(of: project.first!) else { return nil }
        var index = UInt64(head)
        for scalar in project.dropFirst() {
            guard let digit = others.firstIndex(of: scalar) else { return nil }
            index = index * UInt64(others.count) + UInt64(digit)
        }
        return 1 + counts[..<(project.count - 1)].reduce(0, +) + index
    }

    private static func pow(_ base: UInt64, _ exponent: Int) -> UInt64 {
        (0..<exponent).reduce(1) { product, _ in product * base }
    }
}
