import EstimatorKit

/// A session finding its room (`join` without a channel; docs/PROTOCOL.md,
/// Finding a room): it listens on a tentative channel, sending `02`, for
/// `SessionCore.Setup.roomListening`, notes every channel it hears; then
/// chooses (`RoomChoice`), enters the room chosen and sends `03` there for
/// `settingUpFor`, or until a round begins.
struct RoomSearch: Sendable {
    /// How long a room found is said to be being set up (`03`): the
    /// minute within which a team's members type `estimator join` and land
    /// in the room the first of them found. Longer would draw a team next
    /// door that joins a little later into it; shorter would split a team
    /// whose members join one after the other.
    static let settingUpFor: Duration = .seconds(60)

    /// Until when the session listens before it chooses; nil once it chose,
    /// and for a session given its channel.
    var choosingUntil: Timestamp?
    /// Every channel heard while choosing, my echo left out: at any signal,
    /// relayed or not.
    var heard: Set<Channel> = []
    /// The choice, once made.
    var choice: RoomChoice?
    /// Until when the room found is said to be being set up; nil once a
    /// round began in it, or another channel was joined.
    var settingUpUntil: Timestamp?

    /// Whether the room found is being set up at `now` (`03` on the air).
    func isSettingUp(now: Timestamp) -> Bool { settingUpUntil.map { now < $0 } ?? false }
}
