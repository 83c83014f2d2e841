import EstimatorKit

/// The history as a session holds it between saves: each round's latest
/// record stays here until a save has written it, so a save that fails
/// loses nothing. When to save is the `Session`'s: a change a command made
/// at once (the command says whether it was saved), changes heard from the
/// room at most once a `saveEvery` (a revealed round's re-votes would
/// otherwise rewrite the file at each one), a failed save again after
/// `retryAfter` or, sooner, once a change follows it, and what is held
/// when leaving.
struct HistoryKeeper {
    /// The least time between two saves of changes heard from the room.
    static let saveEvery = Duration.seconds(1)
    /// When a failed save is tried again, if no change comes first.
    static let retryAfter = Duration.seconds(10)

    /// The records not saved yet, one a round, in the order first held,
    /// each with the deck its figures are counted on.
    private(set) var held: [(record: HistoryRecord, deck: Deck)] = []
    /// When the oldest change held was made.
    private var heldSince: Timestamp?
    /// When the last save was tried, on the clock's elapsed time.
    private var lastTry: Duration?
    /// Whether a change came after the last save failed.
    private var changedSinceTry = false
    /// Since when changes are not saved (the first held when a save
    /// failed), and why; nil while every save works.
    private(set) var unsaved: (since: Timestamp, failure: UserError)?

    /// Holds `record`, made at `now` and counted on `deck`, over the one of
    /// its round held before.
    mutating func hold(_ record: HistoryRecord, deck: Deck, now: Timestamp) {
        if let index = held.firstIndex(where: { $0.record.id == record.id }) {
            held[index] = (record, deck)
        } else {
            held.append((record, deck))
        }
        if heldSince == nil { heldSince = now }
        changedSinceTry = true
    }

    /// When the next save of what is held falls due, on the clock's
    /// elapsed time; nil with nothing held.
    var due: Duration? {
        guard !held.isEmpty else { return nil }
        guard let lastTry else { return .zero }
        return lastTry + (unsaved == nil || changedSinceTry ? Self.saveEvery : Self.retryAfter)
    }

    /// Writes what is held with `save`, oldest first, at `elapsed` (`now`
    /// on the wall); returns the failure, with the records not written
    /// still held.
    mutating func save(at elapsed: Duration, now: Timestamp, with save: (HistoryRecord, Deck) throws(UserError) -> Void) -> UserError? {
        lastTry = elapsed
        changedSinceTry = false
        while let (record, deck) = held.first {
            do throws(UserError) { try save(record, deck) } catch {
                unsaved = (unsaved?.since ?? heldSince ?? now, error)
                return error
            }
            held.removeFirst()
        }
        heldSince = nil
        unsaved = nil
        return nil
    }
}
