/// What a round's votes add up to: the footer of the live table once the
/// cards are revealed, and the figures kept in the history.
///
/// Built from the votes that count: present, fresh voters' cards of the
/// round (the caller leaves out stale peers and those still waiting).
/// Numeric figures use the cards with a value (`0` … `100`, `½`); `?`,
/// coffee and unknown bytes are votes that carry no number.
public struct Stats: Equatable, Sendable {
    /// Someone alone at one end of the numeric votes: in planning poker they
    /// explain first.
    public struct Explainer: Equatable, Sendable {
        public let card: Card
        public let name: String
    }

    /// Votes counted.
    public let votes: Int
    /// How many of them carry a number.
    public let numericVotes: Int
    /// Median of the numeric votes (mean of the middle two for an even count).
    public let median: Double?
    /// Arithmetic mean of the numeric votes.
    public let mean: Double?
    /// The deck's card nearest the mean (the higher of two equally near).
    public let nearest: Card?
    /// Lowest and highest numeric vote.
    public let range: ClosedRange<Double>?
    /// Whether every vote is the same number: `?` or coffee beside it is no
    /// agreement.
    public let isConsensus: Bool
    /// The one person holding the lowest number, when only one does and
    /// the votes differ.
    public let lowestAlone: Explainer?
    /// The one person holding the highest number, likewise.
    public let highestAlone: Explainer?
    /// How many voted `?`.
    public let questions: Int
    /// How many voted coffee (a break, please).
    public let coffees: Int

    /// The figures of `votes` (entries whose card is no vote are skipped).
    public init(_ entries: some Sequence<(name: String, card: Card)>) {
        var votes = 0, questions = 0, coffees = 0
        var numeric: [(name: String, card: Card, value: Double)] = []
        for (name, card) in entries where card.isVote {
            votes += 1
            if card == .question { questions += 1 }
            if card == .coffee { coffees += 1 }
            if let value = card.numericValue { numeric.append((name, card, value)) }
        }
        self.votes = votes
        self.questions = questions
        self.coffees = coffees
        numericVotes = numeric.count

        let values = numeric.map(\.value).sorted()
        guard let low = values.first, let high = values.last else {
            (median, mean, nearest, range, isConsensus) = (nil, nil, nil, nil, false)
            (lowestAlone, highestAlone) = (nil, nil)
            return
        }
        let middle = values.count / 2
        median = values.count.isMultiple(of: 2) ? (values[middle - 1] + values[middle]) / 2 : values[middle]
        let mean = values.reduce(0, +) / Double(values.count)
        self.mean = mean
        nearest = Self.numericDeck.min { a, b in
            let (da, db) = (abs(a.value - mean), abs(b.value - mean))
            return da != db ? da < db : a.value > b.value
        }?.card
        range = low...high
        isConsensus = low == high && numeric.count == votes
        let alone = { (value: Double) -> Explainer? in
            let holders = numeric.filter { $0.value == value }
            guard low != high, holders.count == 1 else { return nil }
            return Explainer(card: holders[0].card, name: holders[0].name)
        }
        lowestAlone = alone(low)
        highestAlone = alone(high)
    }

    private static let numericDeck: [(card: Card, value: Double)] =
        Card.deck.compactMap { card in card.numericValue.map { (card, $0) } }
}
