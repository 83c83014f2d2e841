/// Which round one participant believes its channel is in, kept in step
/// with the room without a leader (docs/PROTOCOL.md, Rounds).
///
/// Pure and clock-free: every input carries its time, so each rule is
/// tested without sleeping. The rules:
/// - with no round yet, the first round heard is taken as it is: joining a
///   round under way keeps one's card;
/// - a later round heard (`RoundNumber.isNewer`) begins here too: the card
///   goes back to waiting. An earlier one is ignored; its sender catches up
///   when it hears this one;
/// - `startNext` moves on by one, from this round or from the latest heard;
///   two people doing it at once both land on the same number;
/// - a jump of the clock between ticks (a suspended laptop, a stopped
///   process) means the room may have moved on by any number of rounds,
///   more than serial arithmetic can tell apart. The participant stops
///   claiming its round until it hears the room again: the same round, and
///   it resumes as it was; another, and that one begins here; nobody within
///   `rejoinWindow`, and it resumes.
public struct RoundState: Equatable, Sendable {
    /// What a change means for the participant.
    public enum Change: Equatable, Sendable {
        /// A round began here (heard, or started with `startNext`): the
        /// card goes back to waiting and the votes start afresh.
        case began(RoundNumber)
        /// The first round heard, joined as it runs: the card stays.
        case joined(RoundNumber)
        /// The clock jumped: no round is claimed until the room is heard.
        case suspended
        /// Back in the round held before the jump, card and all.
        case resumed(RoundNumber?)
    }

    /// A gap between two ticks longer than this means the clock jumped:
    /// long beyond any delay a busy machine gives a ticking process, and
    /// as long as peers are kept, since none is left after it.
    public static let wakeGap: Duration = .seconds(30)
    /// After a jump, how long to listen for the room before resuming.
    public static let rejoinWindow: Duration = .seconds(6)

    /// The round, or `nil` before any is heard or started.
    public private(set) var current: RoundNumber?
    /// The round's meeting as the room shares it (`meet`): a round begun
    /// here starts with the title given to `startNext` as a typed story, one
    /// begun elsewhere with none.
    public private(set) var meeting = RoundMeeting()
    /// When the clock jump was noticed; set until the room is heard again.
    public private(set) var suspendedSince: Timestamp?
    private var lastTick: Timestamp?

    public init() {}

    /// The round to put on the air: none while suspended.
    public var advertised: RoundNumber? { suspendedSince == nil ? current : nil }

    /// Takes the round of a packet heard in this channel (not one's own).
    public mutating func hear(_ round: RoundNumber?) -> Change? {
        guard let round else { return nil }
        if suspendedSince != nil {
            suspendedSince = nil
            if round == current { return .resumed(round) }
            return begin(round)
        }
        guard let current else {
            self.current = round
            return .joined(round)
        }
        return round.isNewer(than: current) ? begin(round) : nil
    }

    /// Moves to the next round: after this one, else after `latestHeard`
    /// (the latest round among the peers heard), else round 1.
    public mutating func startNext(title: String?, latestHeard: RoundNumber?) -> Change {
        let base = current ?? latestHeard
        suspendedSince = nil
        let change = begin(base.map(\.next) ?? RoundNumber(wrapping: 1))
        if let title { meeting = meeting.choosing(Story(line: title), from: .typed) }
        return change
    }

    /// Notes the passage of time; call it regularly (the session ticks every
    /// half second). Reports a jump of the clock, and the end of listening
    /// after one.
    public mutating func tick(now: Timestamp) -> Change? {
        defer { lastTick = now }
        if let since = suspendedSince {
            guard now - since >= Self.rejoinWindow else { return nil }
            suspendedSince = nil
            return .resumed(current)
        }
        guard let lastTick, now - lastTick > Self.wakeGap else { return nil }
        suspendedSince = now
        return .suspended
    }

    /// The round's title: its story's (`Story.title`), when it has one.
    public var title: String? { meeting.story?.title }

    /// Takes `meeting` as `round`'s while it is the current one.
    public mutating func meet(_ meeting: RoundMeeting, for round: RoundNumber) {
        if current == round, suspendedSince == nil { self.meeting = meeting }
    }

    private mutating func begin(_ round: RoundNumber) -> Change {
        current = round
        meeting = RoundMeeting()
        return .began(round)
    }
}

/// The latest of some rounds in serial arithmetic (`RoundNumber.isNewer`).
extension Sequence where Element == RoundNumber {
    public func latest() -> RoundNumber? {
        reduce(nil) { latest, round in latest.map { round.isNewer(than: $0) ? round : $0 } ?? round }
    }
}
