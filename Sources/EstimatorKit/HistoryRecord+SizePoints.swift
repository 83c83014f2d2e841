extension HistoryRecord {
    /// The numbers a person gives the T-shirt sizes for a tracker's number
    /// field (`history --csv --points XS=1,S=2,M=3`): a tracker's Story
    /// Points take numbers only, and how many points a size is worth is the
    /// team's choice, never estimator's.
    public struct SizePoints: Equatable, Sendable {
        /// Each mapped size and its number, as written in the CSV.
        public let points: [Card: String]

        /// Reads `SIZE=NUMBER` pairs separated by commas: each size one of
        /// XS S M L XL XXL (case-insensitive) at most once, each number a
        /// decimal of digits with at most one point (`1`, `2.5`). Throws the
        /// reason, for a sentence that names the fix.
        public init(parsing text: String) throws(SizePointsError) {
            var points: [Card: String] = [:]
            for pair in text.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2 else { throw SizePointsError(reason: "'\(pair)' is not SIZE=NUMBER") }
                let name = String(String(parts[0]).trimmingWhitespace()), number = String(String(parts[1]).trimmingWhitespace())
                guard let size = Card.sizes.first(where: { $0.name!.lowercased() == name.lowercased() }) else {
                    throw SizePointsError(reason: "'\(name)' is not a size of the tshirt deck, XS S M L XL XXL (other cards are numbers already)")
                }
                guard points[size] == nil else { throw SizePointsError(reason: "\(size) is in it twice") }
                guard Self.isNumber(number) else { throw SizePointsError(reason: "'\(number)' for \(size) is not a number such as 3 or 2.5") }
                points[size] = number
            }
            self.points = points
        }

        /// Whole digits with at most one decimal point between digits.
        private static func isNumber(_ text: String) -> Bool {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return (1...2).contains(parts.count)
                && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        }
    }
}

/// What a person typed is not a mapping of sizes to numbers.
public struct SizePointsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, without the fix.
    public let reason: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(reason: String) {
        self.reason = reason
    }

    public var description: String { "\(reason); give sizes and numbers as XS=1,S=2,M=3,L=5,XL=8,XXL=13" }
}
