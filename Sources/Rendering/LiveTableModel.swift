import EstimatorKit

/// One person's row in the live table, as the session knows it.
///
/// `name` is the name as received; the renderer sanitises it.
public struct TableRow: Equatable, Sendable {
    /// The name as received (the renderer sanitises it).
    public var name: String
    /// Whether the name arrived cut: shown with `…`.
    public var isNameCut: Bool
    /// Whether this is an app user: shown with `(app)`.
    public var isApp: Bool
    /// What the card column shows: not voted, voted (hidden), or the card.
    public var mark: Tally.Mark
    /// Signal strength in dBm; `nil` for my own row or when not reported.
    public var rssi: Int?
    /// Time since last heard (zero for my own row).
    public var lastSeen: Duration
    /// Whether this is my own row (shown first, in bold).
    public var isMe: Bool
    /// Whether the peer has not been heard lately (shown dim).
    public var isStale: Bool
    /// How the peer is heard: the signal column shows bars for the air,
    /// `relay` for the relay alone, and bars with `+r` for both.
    public var heard: Hearing

    /// A row; mine and fresh unless told otherwise.
    public init(name: String, mark: Tally.Mark, rssi: Int?, lastSeen: Duration, isMe: Bool = false, isStale: Bool = false,
                heard: Hearing = .air, isNameCut: Bool = false, isApp: Bool = false) {
        self.name = name
        self.isNameCut = isNameCut
        self.isApp = isApp
        self.mark = mark
        self.rssi = rssi
        self.lastSeen = lastSeen
        self.isMe = isMe
        self.isStale = isStale
        self.heard = heard
    }
}

/// One channel's part of the screen: its round, its rows, how the vote
/// stands, and how many more were heard than the peer table keeps (the
/// per-channel cap).
public struct TableSection: Equatable, Sendable {
    /// The channel.
    public var channel: Channel
    /// The round, or `nil` when the room has none.
    public var round: RoundNumber?
    /// The round's title, when known here.
    public var title: String?
    /// Its rows, in the order given (the renderer sorts them).
    public var rows: [TableRow]
    /// Present, fresh voters, and how many of them have voted.
    public var voters: Int
    public var voted: Int
    /// The voters still to vote.
    public var waitingFor: [Tally.Entry]
    /// Whether the cards are revealed: the footer then gives the figures.
    public var isRevealed: Bool
    /// The figures of the votes that count.
    public var stats: Stats
    /// Names heard in this channel but not stored (hostile floods).
    public var unshown: Int
    /// People heard in this channel whom the signal floor keeps out of the
    /// room (`Room.View.outOfRoom`).
    public var outOfRoom: Int
    /// What is left of the timer that reveals the round, while one runs
    /// (`round --timer`: only the session that started it knows).
    public var remaining: Duration?
    /// The estimate my session's round agreed on, once revealed.
    public var agreed: Card?

    /// A section of `rows` with the vote as `tally` counted it.
    public init(channel: Channel, title: String? = nil, rows: [TableRow], tally: Tally, unshown: Int = 0,
                outOfRoom: Int = 0) {
        self.channel = channel
        round = tally.round
        self.title = title
        self.rows = rows
        voters = tally.voters
        voted = tally.voted
        waitingFor = tally.waitingFor
        isRevealed = tally.isRevealed
        stats = tally.stats
        self.unshown = unshown
        self.outOfRoom = outOfRoom
    }
}

/// What the live table shows: one section per channel watched (one, or
/// every channel heard, grouped) and the adapter in use.
public struct LiveTable: Equatable, Sendable {
    /// One section per channel shown.
    public var sections: [TableSection]
    /// The adapter in use, shown in the first header.
    public var adapter: String
    /// Whether this is a `watch` with no session: it only looks on.
    public var isObserving: Bool
    /// A warning for the person at the table, shown under it.
    public var notice: String?

    /// A table of `sections`.
    public init(sections: [TableSection], adapter: String, isObserving: Bool = false, notice: String? = nil) {
        self.sections = sections
        self.adapter = adapter
        self.isObserving = isObserving
        self.notice = notice
    }
}

/// The terminal the table is drawn on.
public struct TerminalSize: Equatable, Sendable {
    /// Width in cells.
    public var columns: Int
    /// Height in lines.
    public var rows: Int

    /// A terminal of `columns` by `rows`.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

extension TableSection {
    /// A channel's section as the room sees it at `now`, with what is left
    /// of its round's timer and its agreed estimate, as its meeting says.
    public init(_ view: Room.View, now: Timestamp) {
        self.init(channel: view.channel, title: view.title, peers: view.peers, tally: view.tally, unshown: view.unshown,
                  hearing: view.hearing, now: now)
        remaining = view.tally.isRevealed ? nil : view.meeting.deadline.map { $0 - now }
        agreed = view.meeting.agreed
        outOfRoom = view.outOfRoom
    }

    /// A channel's section from the peer table and the round's tally: my
    /// row (when I am in this channel) and every peer, with ages measured
    /// at `now`. A peer with my own name is my own advertisement heard
    /// back, not a second row. `hearing` says how each peer is heard (a
    /// peer not in it is heard over the air).
    public init(channel: Channel, title: String? = nil, peers: [Peer], tally: Tally, unshown: Int = 0,
                hearing: [PeerID: Hearing] = [:], now: Timestamp) {
        let byID = Dictionary(peers.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = tally.entries.map { entry in
            let id = entry.id(in: channel)
            let peer = entry.isMe ? nil : byID[id]
            return TableRow(name: entry.name, mark: entry.mark, rssi: peer?.rssi,
                            lastSeen: peer.map { now - $0.lastHeard } ?? .zero, isMe: entry.isMe, isStale: entry.isStale,
                            heard: entry.isMe ? .air : hearing[id] ?? .air, isNameCut: entry.isNameCut,
                            isApp: entry.isApp)
        }
        self.init(channel: channel, title: title, rows: rows, tally: tally, unshown: unshown)
    }
}
