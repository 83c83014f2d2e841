/// One channel of the room as every table draws it: a view renders what
/// the room decided, and decides nothing.
extension Room {
    /// Everything a table draws for `channel` at `now`.
    public func view(of channel: Channel, now: Timestamp) -> View {
        View(channel: channel, meeting: round(of: channel)?.state.meeting ?? RoundMeeting(), peers: peers(in: channel),
             tally: tally(of: channel, now: now), hearing: hearing(in: channel, now: now),
             unshown: table.unshownCount(in: channel),
             outOfRoom: floor?.outCount(in: channel, heardSince: now - table.staleAfter) ?? 0)
    }

    /// One channel as a table draws it.
    public struct View: Equatable, Sendable {
        public let channel: Channel
        /// The round's meeting as known here: its story, timer and agreed estimate.
        public let meeting: RoundMeeting
        /// The round's title, when known here.
        public var title: String? { meeting.story?.title }
        /// The peers, my echo left out.
        public let peers: [Peer]
        public let tally: Tally
        /// How each peer is heard.
        public let hearing: [PeerID: Hearing]
        /// Names heard but not stored (the channel's cap).
        public let unshown: Int
        /// Peers heard within the stale time whom the signal floor keeps
        /// out of the room.
        public let outOfRoom: Int
    }
}
