/// A planning-poker card as it travels over the air: one byte
/// (docs/PROTOCOL.md, Cards).
///
/// A byte `00`–`7E` is the integer it encodes, so any deck of integers
/// travels with no rule of its own; `7F` is ½, `80`–`85` the T-shirt sizes.
/// Every byte is representable: a byte that is no card is an unknown card,
/// shown as such and never dropped.
public struct Card: Hashable, Sendable, CustomStringConvertible {
    /// The byte sent over the air, written as two uppercase hex digits.
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The integer card `value`, 0 to 126 (`maximumInteger`).
    public init?(integer value: Int) {
        guard (0...Int(Self.maximumInteger)).contains(value) else { return nil }
        rawValue = UInt8(value)
    }

    /// The largest integer a card carries: `7F` is ½.
    public static let maximumInteger: UInt8 = 0x7E

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
    /// Voted, the card kept on the laptop until the round is revealed: what
    /// a session sends for its vote where its radio changes an
    /// advertisement without going deaf (docs/PROTOCOL.md, Ballot). A vote
    /// with no value until its card comes.
    public static let sealed = Card(rawValue: 0xFB)

    /// The T-shirt sizes, smallest first: `80` XS to `85` XXL.
    public static let sizes: [Card] = sizeNames.indices.map { Card(rawValue: sizeBase + UInt8($0)) }
    private static let sizeBase: UInt8 = 0x80
    private static let sizeNames = ["XS", "S", "M", "L", "XL", "XXL"]

    /// Whether this byte is a card: an integer, ½, a size or one of the
    /// named bytes.
    public var isKnown: Bool { Self.name(of: rawValue) != nil }

    /// Whether the card is a vote: anything but waiting, leaving and
    /// observing (`?`, coffee and unknown bytes are votes that carry no
    /// number).
    public var isVote: Bool { self != .waiting && self != .none && self != .observing }

    /// The card's value for statistics: the integer, or 0.5 for ½; `nil`
    /// for sizes, `?`, coffee, waiting, none and unknown bytes.
    public var numericValue: Double? {
        if rawValue <= Self.maximumInteger { return Double(rawValue) }
        return self == .half ? 0.5 : nil
    }

    /// A T-shirt size's rank, 0 for XS to 5 for XXL; `nil` for any other card.
    public var sizeRank: Int? {
        let rank = Int(rawValue) - Int(Self.sizeBase)
        return Self.sizeNames.indices.contains(rank) ? rank : nil
    }

    /// The card's machine name (`"8"`, `"21"`, `"0.5"`, `"M"`, `"?"`,
    /// `"coffee"`, `"waiting"`, `"none"`, `"observing"`, `"sealed"`), as used in JSON;
    /// `nil` for an unknown byte.
    public var name: String? { Self.name(of: rawValue) }

    /// The card whose machine name (`name`) is `name`, as JSON gives it;
    /// `nil` for any other text.
    public init?(named name: String) {
        guard let card = (0...UInt8.max).lazy.map(Card.init(rawValue:)).first(where: { $0.name == name }) else { return nil }
        self = card
    }

    /// Two uppercase hex digits, the form on the air (`"08"`, `"FE"`).
    public var hex: String { Hex.text([rawValue]) }

    /// How a person sees the card in a table: `½`, `☕`, `·` for waiting,
    /// `—` for none, `obs` for observing, `✓` for sealed, and `?XX` (the hex
    /// byte) for an unknown value.
    public var description: String {
        switch self {
        case .half: "½"
        case .coffee: "☕"
        case .waiting: "·"
        case .none: "—"
        case .observing: "obs"
        case .sealed: "✓"
        default: name ?? "?\(hex)"
        }
    }

    private static func name(of byte: UInt8) -> String? {
        switch byte {
        case 0...maximumInteger: String(byte)
        case 0x7F: "0.5"
        case sizeBase..<sizeBase + UInt8(sizeNames.count): sizeNames[Int(byte - sizeBase)]
        case 0xFD: "?"
        case 0xFE: "coffee"
        case 0xFC: "waiting"
        case 0xFF: "none"
        case 0xF9: "observing"
        case 0xFB: "sealed"
        default: nil
        }
    }
}

extension Card {
    /// Parses what a person types, whatever the deck: an integer from 0 to
    /// 126, `0.5 ½ half`, a size `XS S M L XL XXL`, `? unsure`, `coffee ☕`,
    /// `none clear -` (case-insensitive, surrounding spaces ignored). `none`
    /// takes the card back: it is waiting, never leaving. Whether the card
    /// is in a session's deck is `Deck.check`'s question.
    public init(parsing text: String) throws(CardParseError) {
        // Digits alone, the usual card, are read first: trimming and
        // lowercasing consult the Unicode tables, whose pages a `pick` that
        // has just started would fault in for nothing.
        if let card = Self.integer(text) {
            self = card
            return
        }
        let word = text.trimmingWhitespace().lowercased()
        switch word {
        case "0.5", "½", "half", ".5": self = .half
        case "coffee", "☕", "☕️": self = .coffee
        case "none", "clear", "-", "waiting": self = .waiting
        // `?` alone is a shell glob: a file named `5` turns `pick ?` into `pick 5`.
        case "?", "unsure": self = .question
        default:
            if let size = Self.sizes.first(where: { $0.name!.lowercased() == word }) {
                self = size
            } else if let card = Self.integer(word) {
                self = card
            } else {
                throw CardParseError(input: text)
            }
        }
    }

    /// An integer card written in decimal digits alone, without a leading
    /// zero (`08` is no card: it reads as the hex on the air).
    static func integer(_ word: some StringProtocol) -> Card? {
        let digits = word.utf8
        guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        return Int(word).flatMap(Card.init(integer:))
    }

    /// The main spellings `init(parsing:)` accepts, for completion: the
    /// app's deck and the sizes; not `?`, which a shell would take for a
    /// glob; `unsure` stands for it.
    public static let spellings = ["0", "0.5", "1", "2", "3", "5", "8", "13", "20", "40", "100"]
        + sizes.map { $0.name! } + ["unsure", "coffee", "none"]

    /// The spellings `init(parsing:)` accepts, for help and error text.
    public static let typedForms = "an integer from 0 to 126, 0.5, XS S M L XL XXL, unsure (or '?'), coffee or none"
}

/// What a person typed is not a card.
public struct CardParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(input: String) {
        self.input = input
    }

    public var description: String {
        "'\(input)' is not a card; a card is \(Card.typedForms)."
    }
}

extension String {
    package func trimmingWhitespace() -> Substring {
        let start = firstIndex(where: { !$0.isWhitespace }) ?? endIndex
        let end = lastIndex(where: { !$0.isWhitespace }).map(index(after:)) ?? start
        return self[start..<end]
    }
}
