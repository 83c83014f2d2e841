/// One channel's round as one participant follows it: which round the room
/// is in (`RoundState`) and its votes (`Ballot`). The session keeps one for
/// its channel, and `watch` one per channel it shows.
///
/// Nothing is revealed before the room has been heard: for `listening`
/// after the participant starts following the channel, and after the end of
/// a jump of the clock (when every peer had turned stale). Otherwise the
/// first peers heard, or a lone pick made at once after `join`, would count
/// as everyone.
///
/// The first round heard is joined as it runs (cards kept) only while
/// listening: a room that has rounds is heard with one by then. Heard
/// later, in a room that had none, someone has just started the first
/// round, which clears the cards as every round does.
public struct ChannelRound: Equatable, Sendable {
    /// How long hearing the room takes: a peer is heard at least once per
    /// discovery restart (every 1.5 s ± 0.5 s), so two of them.
    public static let listening: Duration = .seconds(4)

    public private(set) var state = RoundState()
    public private(set) var ballot = Ballot()
    /// Until when no reveal happens.
    private var quietUntil: Timestamp
    /// When the room has been heard since following it began.
    private let heardAt: Timestamp

    /// Follows a channel from `start` on.
    public init(listeningFrom start: Timestamp) {
        heardAt = start + Self.listening
        quietUntil = heardAt
    }

    /// The round, or `nil` when the room has none yet.
    public var current: RoundNumber? { state.current }

    /// Takes the peer table's events in this channel (the participant's own
    /// echo left out) and the channel's peers after them; returns the last
    /// change of round they brought.
    public mutating func observe(_ events: [PeerEvent], peers: [Peer]) -> RoundState.Change? {
        var last: RoundState.Change?
        for event in events {
            ballot.observe(event)
            // Only what was heard just now tells the room's round: a stale or
            // left event repeats an old packet.
            guard event.kind == .joined || event.kind == .card || event.kind == .back,
                  let change = hear(event.round, now: event.time) else { continue }
            apply(change, peers: peers, now: event.time)
            last = change
        }
        return last
    }

    private mutating func hear(_ round: RoundNumber?, now: Timestamp) -> RoundState.Change? {
        let change = state.hear(round)
        if case let .joined(first) = change, now >= heardAt { return .began(first) }
        return change
    }

    /// Starts the next round here (`estimator round`).
    public mutating func startNext(title: String?, peers: [Peer], now: Timestamp) -> RoundState.Change {
        let change = state.startNext(title: title, latestHeard: peers.compactMap(\.round).latest())
        apply(change, peers: peers, now: now)
        return change
    }

    /// Notes the passage of time (see `RoundState.tick`).
    public mutating func tick(now: Timestamp) -> RoundState.Change? {
        guard let change = state.tick(now: now) else { return nil }
        apply(change, peers: [], now: now)
        return change
    }

    /// Reveals the current round's cards when everyone present has voted,
    /// once the room has been heard (see `Ballot.reconsider`); returns
    /// whether it revealed just now.
    public mutating func reconsider(peers: [Peer], me: (name: String, card: Card)?, now: Timestamp) -> Bool {
        let mayReveal = hasHeardTheRoom(now: now)
        return ballot.reconsider(peers: peers, me: me, round: state.current, mayReveal: mayReveal, now: now)
    }

    /// Reveals the current round's cards now, as `reason` decided (see
    /// `Ballot.reveal`). Returns false when there is no round to reveal or
    /// it is revealed already (a reveal on demand of a revealed round still
    /// shows it at once).
    public mutating func reveal(_ reason: Ballot.Reveal, at now: Timestamp) -> Bool {
        guard state.current != nil else { return false }
        let before = ballot.isRevealed
        ballot.reveal(reason, at: now)
        return !before
    }

    /// Whether the room is still being heard at `now` (after following it
    /// began, or a jump of the clock): time alone ends that.
    public func isHearingTheRoom(now: Timestamp) -> Bool { !hasHeardTheRoom(now: now) }

    /// Whether the room has been heard since following it began or since
    /// a jump of the clock: until then nothing is revealed here.
    private func hasHeardTheRoom(now: Timestamp) -> Bool {
        state.suspendedSince == nil && now >= quietUntil
    }

    /// Counts the votes of the current round (see `Ballot.tally`).
    public func tally(peers: [Peer], me: (name: String, card: Card)?, open: Bool = false, deck: Deck = .app,
                      arriving: Set<String> = [], now: Timestamp) -> Tally {
        ballot.tally(peers: peers, me: me, round: state.current, open: open, deck: deck, arriving: arriving, now: now)
    }

    /// Takes `meeting` as the round `round`'s while it is the current one.
    public mutating func meet(_ meeting: RoundMeeting, for round: RoundNumber) {
        state.meet(meeting, for: round)
    }

    private mutating func apply(_ change: RoundState.Change, peers: [Peer], now: Timestamp) {
        switch change {
        case .began: ballot.restart(peers: peers)
        case .joined: ballot.restart(peers: peers, keepingVotes: true)
        case .suspended:
            quietUntil = Self.untilHeard
            return
        case .resumed: break
        }
        // Back from a jump: the peers, all stale or gone by now, are heard anew.
        if quietUntil == Self.untilHeard { quietUntil = now + Self.listening }
    }

    private static let untilHeard = Timestamp(nanosecondsSince1970: .max)
}
