/// The cards a session offers (`join --deck`): one of the named decks or a
/// list of integers. Every deck also has `?`, coffee and none.
///
/// A deck is local, like a round's title: nothing of it goes on the air,
/// since a card byte means the same card in every deck (docs/PROTOCOL.md,
/// Cards). So whatever deck a peer uses, every table shows every card it
/// hears, and the deck decides only what I may pick and which card stats
/// round the mean to.
public struct Deck: Hashable, Sendable, CustomStringConvertible {
    /// The voting cards, in the order a person reads them.
    public let cards: [Card]
    /// The deck's word (`app`, `fibonacci`, `powers`, `tshirt`); `nil` for a
    /// list of integers.
    public let word: String?

    private init(word: String?, cards: [Card]) {
        self.word = word
        self.cards = cards
    }

    /// The Estimator app's deck, the default: 0 ½ 1 2 3 5 8 13 20 40 100.
    public static let app = Deck(word: "app", cards: [
        .zero, .half, .one, .two, .three, .five, .eight, .thirteen, .twenty, .forty, .hundred,
    ])
    /// Fibonacci: 0 1 2 3 5 8 13 21 34 55 89.
    public static let fibonacci = Deck(word: "fibonacci", integers: [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89])
    /// Powers of 2: 0 1 2 4 8 16 32 64.
    public static let powers = Deck(word: "powers", integers: [0, 1, 2, 4, 8, 16, 32, 64])
    /// T-shirt sizes: XS S M L XL XXL.
    public static let tshirt = Deck(word: "tshirt", cards: Card.sizes)

    /// The named decks, for help, completion and error text.
    public static let named: [Deck] = [.app, .fibonacci, .powers, .tshirt]

    private init(word: String, integers: [Int]) {
        self.init(word: word, cards: integers.map { Card(integer: $0)! })
    }

    /// Parses what a person types: a deck's word (case-insensitive), or
    /// integers from 0 to 126 separated by commas (`1,2,4,8`), each once,
    /// kept in ascending order.
    public init(parsing text: String) throws(DeckParseError) {
        let typed = text.trimmingWhitespace().lowercased()
        if let deck = Self.named.first(where: { $0.word == typed }) {
            self = deck
            return
        }
        guard typed.contains(",") || Card.integer(typed) != nil else { throw DeckParseError(input: text, reason: nil) }
        var values: [Card] = []
        for item in typed.split(separator: ",", omittingEmptySubsequences: false) {
            let word = String(item).trimmingWhitespace()
            guard let card = Card.integer(word) else {
                throw DeckParseError(input: text, reason: "'\(word)' is not an integer from 0 to \(Card.maximumInteger)")
            }
            guard !values.contains(card) else { throw DeckParseError(input: text, reason: "\(card) is in it twice") }
            values.append(card)
        }
        self.init(word: nil, cards: values.sorted { $0.rawValue < $1.rawValue })
    }

    /// How the deck is typed and remembered: its word, or its integers
    /// (`1,2,4,8`).
    public var description: String { word ?? cards.map(\.description).joined(separator: ",") }

    /// The deck as a reply names it: `the fibonacci deck`, `the deck 1,2,4,8`.
    public var phrase: String { word.map { "the \($0) deck" } ?? "the deck \(self)" }

    /// The cards as a person reads them, `?` and coffee included: `0 1 2 4
    /// 8 ? ☕`.
    public var shown: String { (cards + [.question, .coffee]).map(\.description).joined(separator: " ") }

    /// Whether a pick is allowed: a card of the deck, `?`, coffee, or none
    /// (taking the card back).
    public func allows(_ card: Card) -> Bool {
        card == .question || card == .coffee || card == .waiting || cards.contains(card)
    }

    /// Refuses a card the deck does not allow, naming the deck's cards.
    public func check(_ card: Card) throws(DeckCardError) {
        guard allows(card) else { throw DeckCardError(card: card, deck: self) }
    }

    /// The deck's numeric cards with their values, for the card nearest a
    /// mean.
    var numbered: [(card: Card, value: Double)] { cards.compactMap { card in card.numericValue.map { (card, $0) } } }
}

/// What a person typed is not a deck.
public struct DeckParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String
    /// What is wrong in a list of integers; `nil` when it is no list.
    public let reason: String?

    /// The error for `input`, with `reason` when it is a list.
    package init(input: String, reason: String?) {
        self.input = input
        self.reason = reason
    }

    public var description: String { "'\(input)' is not a deck\(reason.map { ": \($0)" } ?? ""); \(Self.forms)." }

    /// What a deck may be, for error text.
    public static let forms = "a deck is " + Deck.named.map(\.description).joined(separator: ", ")
        + " or integers from 0 to \(Card.maximumInteger) such as 1,2,4,8"
}

/// A card that is not in my deck: the sentence names the deck's cards.
public struct DeckCardError: Error, Equatable, Sendable, CustomStringConvertible {
    public let card: Card
    public let deck: Deck

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(card: Card, deck: Deck) {
        self.card = card
        self.deck = deck
    }

    public var description: String {
        "\(card) is not in \(deck.phrase); its cards are \(deck.shown) (and none); `estimator join --deck` changes deck."
    }
}
