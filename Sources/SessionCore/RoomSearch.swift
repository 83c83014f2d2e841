import EstimatorKit

/// A session finding its room (`join` without a channel; docs/PROTOCOL.md,
/// Finding a room): it listens on a tentative channel, sending `02`, for
/// `SessionCore.Setup.roomListening` (longer while others choosing are
/// first heard: `isDoneListening`), notes every channel it hears; then
/// chooses (`RoomChoice`), enters the room chosen and sends `03` there for
/// `settingUpFor`, or until a round begins. For its first
/// `SessionCore.Setup.roomConfirming` there it confirms the choice: a room
/// being set up near with more people draws it in
/// (`RoomChoice.larger(than:peers:)`); `join` answers after.
struct RoomSearch: Sendable {
    /// How long a room found is said to be being set up (`03`): the
    /// minute within which a team's members type `estimator join` and land
    /// in the room the first of them found. Longer would draw a team next
    /// door that joins a little later into it; shorter would split a team
    /// whose members join one after the other.
    static let settingUpFor: Duration = .seconds(60)

    /// When the session began to listen before it chooses; nil once it
    /// chose, and for a session given its channel.
    var choosingSince: Timestamp?
    /// The sessions heard choosing (`02`) that the room keeps (within the
    /// signal floor), my echo left out.
    var choosers: Set<PeerID> = []
    /// When the last of `choosers` was first kept.
    var newestChooser: Timestamp?
    /// Every channel heard while choosing, my echo left out: at any signal,
    /// relayed or not.
    var heard: Set<Channel> = []
    /// The choice, once made.
    var choice: RoomChoice?
    /// Until when the choice is being confirmed; nil before the choice and
    /// once `join` has its answer.
    var confirmingUntil: Timestamp?
    /// Until when the room found is said to be being set up; nil once a
    /// round began in it, or another channel was joined.
    var settingUpUntil: Timestamp?

    /// Whether the room found is being set up at `now` (`03` on the air).
    func isSettingUp(now: Timestamp) -> Bool { settingUpUntil.map { now < $0 } ?? false }

    /// Whether the listening is over at `now`, for a listening of
    /// `listening`: it has lasted that long, and no chooser was first heard
    /// in its last half; else once it has lasted twice as long. A chooser
    /// first heard late may not have heard me yet, and would choose without
    /// me: half the listening later (two restarts, each announcing again)
    /// each has heard the other, and both choose from the same choosers.
    func isDoneListening(now: Timestamp, listening: Duration) -> Bool {
        guard let since = choosingSince else { return false }
        if now >= since + listening * 2 { return true }
        return now >= since + listening && newestChooser.map { now >= $0 + listening / 2 } ?? true
    }

    /// Notes `id` heard choosing at `now`.
    mutating func heardChoosing(_ id: PeerID, at now: Timestamp) {
        if choosers.insert(id).inserted { newestChooser = now }
    }
}
