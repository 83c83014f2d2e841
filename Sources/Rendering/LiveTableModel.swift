import EstimatorKit

/// One person's row in the live table, as the session knows it.
///
/// `name` is the name as received; the renderer sanitises it.
public struct TableRow: Equatable, Sendable {
    /// The name as received (the renderer sanitises it).
    public var name: String
    /// The card shown.
    public var card: Card
    /// Signal strength in dBm; `nil` for my own row or when not reported.
    public var rssi: Int?
    /// Time since last heard (zero for my own row).
    public var lastSeen: Duration
    /// Whether this is my own row (shown first, in bold).
    public var isMe: Bool
    /// Whether the peer has not been heard lately (shown dim).
    public var isStale: Bool

    /// A row; mine and fresh unless told otherwise.
    public init(name: String, card: Card, rssi: Int?, lastSeen: Duration, isMe: Bool = false, isStale: Bool = false) {
        self.name = name
        self.card = card
        self.rssi = rssi
        self.lastSeen = lastSeen
        self.isMe = isMe
        self.isStale = isStale
    }
}

/// One channel's part of the screen: its rows and how many more were heard
/// than the peer table keeps (the per-channel cap).
public struct TableSection: Equatable, Sendable {
    /// The channel.
    public var channel: Channel
    /// Its rows, in the order given (the renderer sorts them).
    public var rows: [TableRow]
    /// Names heard in this channel but not stored (hostile floods).
    public var unshown: Int

    /// A section of `rows`.
    public init(channel: Channel, rows: [TableRow], unshown: Int = 0) {
        self.channel = channel
        self.rows = rows
        self.unshown = unshown
    }

    /// Everyone's (name, card), for the footer's statistics.
    public var stats: Stats { Stats(rows.map { (name: $0.name, card: $0.card) }) }
}

/// What the live table shows: one section per channel watched (one, or
/// every channel heard, grouped) and the adapter in use.
public struct LiveTable: Equatable, Sendable {
    /// One section per channel shown.
    public var sections: [TableSection]
    /// The adapter in use, shown in the first header.
    public var adapter: String

    /// A table of `sections`.
    public init(sections: [TableSection], adapter: String) {
        self.sections = sections
        self.adapter = adapter
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
    /// A channel's section from the peer table: my row (when I am in this
    /// channel) and every peer, with ages measured at `now`. A peer with my
    /// own name is my own advertisement heard back, not a second row.
    public init(channel: Channel, peers: [Peer], me: (name: String, card: Card)?, unshown: Int = 0, now: Timestamp) {
        var rows: [TableRow] = []
        if let me { rows.append(TableRow(name: me.name, card: me.card, rssi: nil, lastSeen: .zero, isMe: true)) }
        for peer in peers where peer.channel == channel && peer.name != me?.name {
            rows.append(
                TableRow(
                    name: peer.name, card: peer.card, rssi: peer.rssi, lastSeen: now - peer.lastHeard,
                    isStale: peer.isStale))
        }
        self.init(channel: channel, rows: rows, unshown: unshown)
    }
}
