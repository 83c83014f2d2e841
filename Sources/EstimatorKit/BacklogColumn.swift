/// A column of a backlog file as a person names it (`--key-column`,
/// `--summary-column`): by its name in the header row, matched as the
/// recognised names are (case and surrounding spaces aside), or by its
/// number, 1 for the first.
public enum BacklogColumn: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case numbered(Int)

    /// The column `text` names: digits are a number from 1, anything else
    /// a name; `nil` for `0`, a number too large, or nothing but spaces.
    public init?(_ text: String) {
        let trimmed = String(text.trimmingWhitespace())
        if !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            guard let number = Int(trimmed), number >= 1 else { return nil }
            self = .numbered(number)
        } else {
            guard !trimmed.isEmpty else { return nil }
            self = .named(trimmed)
        }
    }

    /// The column as typed: its name or its number.
    public var description: String {
        switch self {
        case let .named(name): name
        case let .numbered(number): String(number)
        }
    }

    /// The index of the column in `names` (the header's names, trimmed and
    /// lowercased), or `nil` when the header has no such column.
    func index(in names: [String]) -> Int? {
        switch self {
        case let .named(name): names.firstIndex(of: name.trimmingWhitespace().lowercased())
        case let .numbered(number): number <= names.count ? number - 1 : nil
        }
    }
}
