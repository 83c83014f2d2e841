import EstimatorKit

/// One change `watch` reports on a pipe or as JSON: a peer's, a reveal, a
/// new round, its story, or its agreed estimate.
public enum WatchChange: Equatable, Sendable {
    /// A change of the peer table, with what the round lets show of the
    /// card (a vote before the reveal is only `hidden`), the channel's
    /// round and its story, and how the peer is heard.
    case peer(PeerEvent, mark: Tally.Mark, round: RoundNumber?, story: Story? = nil, heard: Hearing = .air)
    /// Everyone present voted: the cards, together, for the round's story.
    case revealed(channel: Channel, tally: Tally, story: Story? = nil, time: Timestamp)
    /// A new round began (heard, or started by my session).
    case round(channel: Channel, round: RoundNumber, title: String?, time: Timestamp)
    /// A channel's round has a story, or another one: the room's meeting
    /// brought it (docs/PROTOCOL.md, Meeting), with the round or after it.
    case story(channel: Channel, round: RoundNumber?, story: Story, time: Timestamp)
    /// A channel's round has an agreed estimate, or another one
    /// (`estimator settle`, or a consensus), as its meeting says.
    case settled(channel: Channel, round: RoundNumber?, story: Story?, agreed: Card, time: Timestamp)
    /// A channel's round has a timer, another one, or none any more before
    /// an agreement (`round --timer`, `reveal --in`), as its meeting says:
    /// the deadline the table counts down to.
    case timer(channel: Channel, round: RoundNumber?, deadline: Timestamp?, time: Timestamp)
}

extension WatchChange {
    /// The `event` string of `watch --json`: a peer table event's kind, but
    /// `voted` for a card change that stays hidden.
    var eventName: String {
        switch self {
        case let .peer(event, mark, _, _, _): event.kind == .card && mark == .hidden ? "voted" : event.kind.rawValue
        case .revealed: "revealed"
        case .round: "round"
        case .story: "story"
        case .settled: "settled"
        case .timer: "timer"
        }
    }
}
