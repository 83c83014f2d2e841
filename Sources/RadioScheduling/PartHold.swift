/// Keeps the part a change of the advertisement's parts put on the air
/// there through the restarts within `RadioSchedule.partHold` of it, in
/// either mode: a peer reads a part at its own scan's start, and the
/// first part after a change is the story's key (docs/PROTOCOL.md,
/// Meeting). A change of the local name alone holds nothing.
struct PartHold: Sendable {
    /// How long a new part stays (`RadioSchedule.partHold`).
    let span: Duration
    /// Whether the change asked puts new parts on the air (`ScheduleEvent.newParts`).
    private var asked = false
    /// When the last change of the parts went on the air.
    private var changedAt: Duration?

    init(span: Duration) { self.span = span }

    /// The change asked puts new parts on the air.
    mutating func newParts() { asked = true }

    /// The change asked ended at `now`: on the air when `succeeded`.
    mutating func changeEnded(at now: Duration, succeeded: Bool) {
        if succeeded, asked { changedAt = now }
        asked = false
    }

    /// Whether a restart at `now` leaves the part on the air.
    func holds(at now: Duration) -> Bool {
        changedAt.map { now - $0 < span } ?? false
    }
}
