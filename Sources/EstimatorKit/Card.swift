/// A planning-poker card as it travels over the air: one byte
/// (docs/PROTOCOL.md, Cards).
///
/// Every byte is representable: a value that is not in the deck is an
/// unknown card, shown as such and never dropped.
public struct Card: Hashable, Sendable, CustomStringConvertible {
    /// The byte sent over the air, written as two uppercase hex digits.
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let zero = Card(rawValue: 0x00)
    public static let half = Card(rawValue: 0x7F)
    public static let one = Card(rawValue: 0x01)
    public static let two = Card(rawValue: 0x02)
    public static let three = Card(rawValue: 0x03)
    public static let five = Card(rawValue: 0x05)
    public static let eight = Card(rawValue: 0x08)
    public static let thirteen = Card(rawValue: 0x0D)
    public static let twenty = Card(rawValue: 0x14)
    public static let forty = Card(rawValue: 0x28)
    public static let hundred = Card(rawValue: 0x64)
    public static let question = Card(rawValue: 0xFD)
    public static let coffee = Card(rawValue: 0xFE)
    /// Here, no card yet: what a session sends until its owner picks, and
    /// after `pick none`. The app does not know the byte and so does not
    /// show such a peer.
    public static let waiting = Card(rawValue: 0xFC)
    /// Leaving: peers drop whoever sends it at once.
    public static let none = Card(rawValue: 0xFF)
    /// Observing: present without a vote, never waited for
    /// (docs/PROTOCOL.md, Ballot).
    public static let observing = Card(rawValue: 0xF9)

    /// The deck in the order a person reads it.
    public static let deck: [Card] = [
        .zero, .half, .one, .two, .three, .five, .eight, .thirteen,
        .twenty, .forty, .hundred, .question, .coffee, .waiting, .none,
    ]

    /// Whether this byte is one of the deck's cards.
    public var isKnown: Bool { Self.name(of: rawValue) != nil }

    /// Whether the card is a vote: anything but waiting, leaving and
    /// observing (`?`, coffee and unknown bytes are votes that carry no
    /// number).
    public var isVote: Bool { self != .waiting && self != .none && self != .observing }

    /// The card's value for statistics; `nil` for `?`, coffee, waiting, none and unknown.
    public var numericValue: Double? {
        switch self {
        case .half: 0.5
        case .question, .coffee, .waiting, .none, .observing: nil
        default: isKnown ? Double(rawValue) : nil
        }
    }

    /// The card's machine name (`"8"`, `"0.5"`, `"?"`, `"coffee"`,
    /// `"waiting"`, `"none"`, `"observing"`), as used in JSON; `nil` for an
    /// unknown byte.
    public var name: String? { Self.name(of: rawValue) }

    /// Two uppercase hex digits, the form on the air (`"08"`, `"FE"`).
    public var hex: String { Hex.text([rawValue]) }

    /// How a person sees the card in a table: `½`, `☕`, `·` for waiting,
    /// `—` for none, `obs` for observing, and `?XX` (the hex byte) for an
    /// unknown value.
    public var description: String {
        switch self {
        case .half: "½"
        case .coffee: "☕"
        case .waiting: "·"
        case .none: "—"
        case .observing: "obs"
        default: name ?? "?\(hex)"
        }
    }

    private static func name(of byte: UInt8) -> String? {
        switch byte {
        case 0x00, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0D, 0x14, 0x28, 0x64: String(byte)
        case 0x7F: "0.5"
        case 0xFD: "?"
        case 0xFE: "coffee"
        case 0xFC: "waiting"
        case 0xFF: "none"
        case 0xF9: "observing"
        default: nil
        }
    }
}

extension Card {
    /// Parses what a person types: `0 0.5 ½ half 1 2 3 5 8 13 20 40 100 ?
    /// unsure coffee ☕ none clear -` (case-insensitive, surrounding spaces
    /// ignored). `none` takes the card back: it is waiting, never leaving.
    public init(parsing text: String) throws(CardParseError) {
        let word = text.trimmingWhitespace().lowercased()
        switch word {
        case "0.5", "½", "half", ".5": self = .half
        case "coffee", "☕", "☕️": self = .coffee
        case "none", "clear", "-", "waiting": self = .waiting
        // `?` alone is a shell glob: a file named `5` turns `pick ?` into `pick 5`.
        case "?", "unsure": self = .question
        default:
            guard let card = Self.deck.first(where: { $0.name == word && $0.numericValue != nil })
            else { throw CardParseError(input: text) }
            self = card
        }
    }

    /// The main spellings `init(parsing:)` accepts, for completion: not
    /// `?`, which a shell would take for a glob; `unsure` stands for it.
    public static let spellings = ["0", "0.5", "1", "2", "3", "5", "8", "13", "20", "40", "100", "unsure", "coffee", "none"]

    /// The spellings `init(parsing:)` accepts, for help and error text.
    public static let typedForms = "0 0.5 1 2 3 5 8 13 20 40 100 unsure (or '?') coffee none"
}

/// What a person typed is not a card.
public struct CardParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String
    public var description: String {
        "'\(input)' is not a card; valid cards are \(Card.typedForms)."
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let start = firstIndex(where: { !$0.isWhitespace }) ?? endIndex
        let end = lastIndex(where: { !$0.isWhitespace }).map(index(after:)) ?? start
        return self[start..<end]
    }
}
