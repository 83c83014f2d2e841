import EstimatorKit

/// Picks whose answer waits until they are on the air: the answer then says
/// which round the vote went to, or that a new round began first and
/// cleared it, never `picked` for a card the room has already taken back.
struct PendingPicks {
    /// One pick waiting for its answer.
    struct Pick {
        /// The id its answer goes back with (`SessionAction.answer`).
        let id: Int
        let card: Card
        /// The round it was picked in; nil while the room has none.
        let round: RoundNumber?
        /// Whether the local name going on the air when it was last asked
        /// for carries this pick.
        fileprivate(set) var carried = false
    }

    private var waiting: [Pick] = []
    private var lastID = 0

    /// Waits with `card`, picked in `round`; returns the id its answer goes
    /// back with.
    mutating func add(_ card: Card, in round: RoundNumber?) -> Int {
        lastID += 1
        waiting.append(Pick(id: lastID, card: card, round: round))
        return lastID
    }

    /// The local name going on the air now carries every pick made so far.
    mutating func carry() {
        for index in waiting.indices { waiting[index].carried = true }
    }

    /// Takes the picks the local name now on the air carries, or (`all`)
    /// every pick waiting, in the order they were made.
    mutating func take(all: Bool) -> [Pick] {
        let taken = waiting.filter { all || $0.carried }
        waiting.removeAll { all || $0.carried }
        return taken
    }
}
