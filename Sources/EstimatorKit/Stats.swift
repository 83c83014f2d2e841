/// What a round of picks adds up to: the footer of the live table.
///
/// Built from everyone's (name, card). Numeric figures use only the cards
/// with a value (`0` … `100`, `½`); `?`, coffee and unknown bytes count as
/// picked but carry no number, and `none` is not a pick at all.
public struct Stats: Equatable, Sendable {
    /// Everyone in the set, picked or not.
    public let people: Int
    /// Those whose card is not `none` (unknown bytes included).
    public let picked: Int
    /// How many numeric cards there are.
    public let numericPicks: Int
    /// Median of the numeric cards (mean of the middle two for an even count).
    public let median: Double?
    /// Arithmetic mean of the numeric cards.
    public let mean: Double?
    /// Lowest and highest numeric card.
    public let range: ClosedRange<Double>?
    /// Names holding the lowest numeric card, sorted; in planning poker they
    /// explain first, together with `highestHolders`.
    public let lowestHolders: [String]
    /// Names holding the highest numeric card, sorted.
    public let highestHolders: [String]
    /// How many picked `?`.
    public let questions: Int
    /// How many picked coffee (a break, please).
    public let coffees: Int

    /// Whether at least one numeric card was picked and all numeric cards agree.
    public var isConsensus: Bool {
        guard let range else { return false }
        return range.lowerBound == range.upperBound
    }

    /// Computes the figures for one channel's people.
    public init(_ entries: some Sequence<(name: String, card: Card)>) {
        var people = 0, picked = 0, questions = 0, coffees = 0
        var numeric: [(name: String, value: Double)] = []
        for (name, card) in entries {
            people += 1
            if card != .none { picked += 1 }
            if card == .question { questions += 1 }
            if card == .coffee { coffees += 1 }
            if let value = card.numericValue { numeric.append((name, value)) }
        }
        self.people = people
        self.picked = picked
        self.questions = questions
        self.coffees = coffees
        self.numericPicks = numeric.count

        let values = numeric.map(\.value).sorted()
        guard let low = values.first, let high = values.last else {
            median = nil; mean = nil; range = nil
            lowestHolders = []; highestHolders = []
            return
        }
        let middle = values.count / 2
        median = values.count.isMultiple(of: 2) ? (values[middle - 1] + values[middle]) / 2 : values[middle]
        mean = values.reduce(0, +) / Double(values.count)
        range = low...high
        lowestHolders = numeric.filter { $0.value == low }.map(\.name).sorted()
        highestHolders = numeric.filter { $0.value == high }.map(\.name).sorted()
    }
}
