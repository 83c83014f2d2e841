extension HistoryRecord {
    /// What `history --csv` writes for a tracker: one row per story that
    /// updates an existing issue's estimate and nothing else, and how many
    /// stories were left out and why.
    public struct TrackerExport: Sendable {
        /// One story's row: `Issue key,Summary,Story Points`.
        public struct Row: Equatable, Sendable {
            public let key: String
            public let summary: String
            /// The agreed estimate as a number, as the CSV writes it.
            public let points: String
        }

        public let rows: [Row]
        /// Stories without a key: a tracker would create an issue from them.
        public let withoutKey: Int
        /// Keyed stories the team agreed no estimate for.
        public let withoutEstimate: Int
        /// Keyed stories whose summary is unknown (a round begun with the key
        /// alone, without a backlog): the importer requires one.
        public let withoutSummary: Int
        /// Agreed sizes no mapping gave a number, by size, in size order.
        public let unmappedSizes: [(size: Card, count: Int)]

        /// The export of `stories` (one record per story, `perStory`):
        /// each story is left out for the first of these it meets: no key,
        /// no agreed estimate, an agreed estimate that is no number (a size
        /// `points` does not map, or an unknown card), no summary.
        public init(_ stories: [HistoryRecord], points: SizePoints?) {
            var rows: [Row] = []
            var withoutKey = 0, withoutEstimate = 0, withoutSummary = 0
            var unmapped: [Card: Int] = [:]
            for record in stories {
                guard let story = record.subject, let key = story.key else { withoutKey += 1; continue }
                guard let agreed = record.agreed else { withoutEstimate += 1; continue }
                let number = agreed.numericValue != nil ? agreed.name : points?.points[agreed]
                guard let number else {
                    if agreed.sizeRank != nil { unmapped[agreed, default: 0] += 1 } else { withoutEstimate += 1 }
                    continue
                }
                guard !story.summary.isEmpty else { withoutSummary += 1; continue }
                rows.append(Row(key: key, summary: story.summary, points: number))
            }
            self.rows = rows
            self.withoutKey = withoutKey
            self.withoutEstimate = withoutEstimate
            self.withoutSummary = withoutSummary
            unmappedSizes = Card.sizes.compactMap { size in unmapped[size].map { (size, $0) } }
        }

        /// The header: Jira's own field names, which its CSV importer maps
        /// by themselves.
        public static let header = CSV.record(["Issue key", "Summary", "Story Points"], for: .importer)

        /// The rows as CSV records (RFC 4180), without line endings: each
        /// key and summary byte for byte as the backlog had it, so that an
        /// import that maps Summary writes the issue's own title back.
        public var records: [String] { rows.map { CSV.record([$0.key, $0.summary, $0.points], for: .importer) } }

        /// One line saying how many stories were left out and why, with the
        /// option that brings each kind back where there is one; `nil` when
        /// none was.
        public var warning: String? {
            let left = withoutKey + withoutEstimate + withoutSummary + unmappedSizes.reduce(0) { $0 + $1.count }
            guard left > 0 else { return nil }
            var reasons: [String] = []
            if withoutKey > 0 { reasons.append("\(withoutKey) without a key") }
            if withoutEstimate > 0 { reasons.append("\(withoutEstimate) without an agreed estimate") }
            if !unmappedSizes.isEmpty {
                let sizes = unmappedSizes.map { "\($0.count) sized \($0.size)" }.joined(separator: ", ")
                reasons.append(sizes + " (give --points XS=1,S=2,… to map sizes)")
            }
            if withoutSummary > 0 {
                reasons.append("\(withoutSummary) without a summary (load the backlog, or begin the round as `estimator round \"ABC-1 Login\"`)")
            }
            return "left out \(left) \(left == 1 ? "story" : "stories"): " + reasons.joined(separator: ", ")
                + "; `--csv --all` writes every story."
        }
    }
}
