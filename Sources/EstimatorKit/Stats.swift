/// What a round's votes add up to: the footer of the live table once the
/// cards are revealed, and the figures kept in the history.
///
/// Built from the votes that count: present, fresh voters' cards of the
/// round (the caller leaves out stale peers and those still waiting).
/// The figures follow the cards: numbers (the integers and ½) give a
/// median, a mean and the card of my deck nearest it; T-shirt sizes give
/// the median size and the spread. A room voting both (two decks in one
/// channel) is mixed: sizes are never turned into numbers, so it gets
/// neither. `?`, coffee and unknown bytes are votes that carry neither.
public struct Stats: Equatable, Sendable {
    /// Someone alone at one end of the votes: in planning poker they
    /// explain first.
    public struct Explainer: Equatable, Sendable {
        public let card: Card
        /// The name as received (sanitise it before display).
        public let name: String
        /// Whether the name arrived cut (see `PeerID.isNameCut`).
        public let isNameCut: Bool
        /// Whether this is an app user.
        public let isApp: Bool

        public init(card: Card, name: String, isNameCut: Bool = false, isApp: Bool = false) {
            self.card = card
            self.name = name
            self.isNameCut = isNameCut
            self.isApp = isApp
        }
    }

    /// Votes counted.
    public let votes: Int
    /// How many of them carry a number.
    public let numericVotes: Int
    /// How many of them are T-shirt sizes.
    public let sizeVotes: Int
    /// Whether numbers and sizes were both voted: nothing is averaged.
    public var isMixed: Bool { numericVotes > 0 && sizeVotes > 0 }
    /// Median of the numeric votes (mean of the middle two for an even count).
    public let median: Double?
    /// Arithmetic mean of the numeric votes.
    public let mean: Double?
    /// The deck's card nearest the mean (the higher of two equally near);
    /// `nil` for a deck without numbers.
    public let nearest: Card?
    /// Lowest and highest numeric vote.
    public let range: ClosedRange<Double>?
    /// The median size (the larger of the middle two for an even count).
    public let medianSize: Card?
    /// Smallest and largest size voted, as ranks (`Card.sizeRank`).
    public let sizeSpread: ClosedRange<Int>?
    /// Whether two or more votes are all the same number, or the same size:
    /// `?` or coffee beside them is no agreement, and one vote alone agrees
    /// with nobody (the others left, or were never heard).
    public let isConsensus: Bool
    /// The fewest votes a consensus needs.
    public static let consensusVotes = 2
    /// The one person holding the lowest number or smallest size, when only
    /// one does and the votes differ.
    public let lowestAlone: Explainer?
    /// The one person holding the highest number or largest size, likewise.
    public let highestAlone: Explainer?
    /// How many voted `?`.
    public let questions: Int
    /// How many voted coffee (a break, please).
    public let coffees: Int

    /// The figures of `votes` by name (entries whose card is no vote are
    /// skipped); `deck` is the one the mean is rounded to.
    public init(_ entries: some Sequence<(name: String, card: Card)>, deck: Deck = .app) {
        self.init(votes: entries.map { Tally.Entry(name: $0.name, card: $0.card, isMe: false, isStale: false) }, deck: deck)
    }

    /// The figures of the people's `votes`, as `init(_:deck:)`: an
    /// explainer is the person, who may be an app user with a cut name.
    public init(votes entries: some Sequence<Tally.Entry>, deck: Deck = .app) {
        var votes = 0, questions = 0, coffees = 0
        var numeric: [(who: Tally.Entry, value: Double)] = []
        var sized: [(who: Tally.Entry, value: Double)] = []
        for entry in entries where entry.card.isVote {
            let card = entry.card
            votes += 1
            if card == .question { questions += 1 }
            if card == .coffee { coffees += 1 }
            if let value = card.numericValue { numeric.append((entry, value)) }
            if let rank = card.sizeRank { sized.append((entry, Double(rank))) }
        }
        self.votes = votes
        self.questions = questions
        self.coffees = coffees
        numericVotes = numeric.count
        sizeVotes = sized.count

        // Mixed, or nothing to add up: no figures, no agreement.
        let ordered = numeric.isEmpty ? sized : sized.isEmpty ? numeric : []
        let values = ordered.map(\.value).sorted()
        guard let low = values.first, let high = values.last else {
            (median, mean, nearest, range, medianSize, sizeSpread) = (nil, nil, nil, nil, nil, nil)
            (isConsensus, lowestAlone, highestAlone) = (false, nil, nil)
            return
        }
        let middle = values.count / 2
        if sized.isEmpty {
            median = values.count.isMultiple(of: 2) ? (values[middle - 1] + values[middle]) / 2 : values[middle]
            let mean = values.reduce(0, +) / Double(values.count)
            self.mean = mean
            nearest = deck.numbered.min { a, b in
                let (da, db) = (abs(a.value - mean), abs(b.value - mean))
                return da != db ? da < db : a.value > b.value
            }?.card
            range = low...high
            (medianSize, sizeSpread) = (nil, nil)
        } else {
            (median, mean, nearest, range) = (nil, nil, nil, nil)
            medianSize = Card.sizes[Int(values[middle])]
            sizeSpread = Int(low)...Int(high)
        }
        isConsensus = low == high && ordered.count == votes && votes >= Stats.consensusVotes
        let alone = { (value: Double) -> Explainer? in
            let holders = ordered.filter { $0.value == value }
            guard low != high, holders.count == 1 else { return nil }
            let who = holders[0].who
            return Explainer(card: who.card, name: who.name, isNameCut: who.isNameCut, isApp: who.isApp)
        }
        lowestAlone = alone(low)
        highestAlone = alone(high)
    }
}
