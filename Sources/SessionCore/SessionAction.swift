import EstimatorKit

/// What the core asks its executor to do, in order. Lines that show the
/// session's state (`streamMe`, `streamRadio`) and the advertisement
/// (`advertise`) are taken from the core when the executor gets to them,
/// so a line never shows a state older than one already sent.
package enum SessionAction: Equatable, Sendable {
    /// The answer to the request just taken.
    case reply(ControlReply)
    /// The answer to the request just taken comes later, as
    /// `.answer(id:_:)`: a pick is answered once it is on the air.
    case answerLater(id: Int)
    /// The answer to the request that `.answerLater(id)` left waiting.
    case answer(id: Int, ControlReply)
    /// Put the core's local name on the air (`SessionCore.goingOnAir`);
    /// updates asked while one runs collapse into the next.
    case advertise
    /// Put the core's meeting parts (`SessionCore.meetingParts`) on the air
    /// with the radio's next announcement, with no change of their own.
    case rideAlong
    /// Stream who I am now (`SessionCore.me`) to the watchers.
    case streamMe
    /// Stream the radio's state (`SessionCore.radioState`) to the watchers.
    case streamRadio
    /// Stream this line to the watchers.
    case stream(ControlWatchLine)
    /// Rows of the table changed (for the session log's timing lines).
    case rowsChanged([PeerEvent])
    /// Report my channel's revealed round, or a change of it, to the history.
    case record(RevealedRound)
    /// Call back with `.timerRanOut(id)` once `after` has passed; replaces
    /// the timer armed before.
    case armTimer(id: Int, after: Duration)
    /// The timer armed before will find nothing to do: stop waiting for it.
    case cancelTimer
    /// Keep the scan running without a restart until `until`: cards are on
    /// their way (`Room.cardsDue`).
    case keepListening(until: Timestamp)
    /// Look again for a peer gone quiet (`SessionRadio.lookAgain`).
    case lookAgain
    /// Read the backlog, and give it back with `.backlog(_, for: round)`:
    /// `round` was begun elsewhere, and a session holding a backlog
    /// chooses its next story for it.
    case readBacklog(for: RoundNumber)
    /// My room is chosen and confirmed, or its finding ended
    /// (`SessionCore.roomChoice`):
    /// `join`'s answer, which waits for it, can go.
    case roomChosen
    /// Something a view shows changed: redraw.
    case changed
}
