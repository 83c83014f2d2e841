import EstimatorKit

/// One person's row in the live table, as the session knows it.
///
/// `name` is the name as received; the renderer sanitises it.
struct TableRow: Equatable, Sendable {
    var name: String
    var card: Card
    /// Signal strength in dBm; `nil` for my own row or when not reported.
    var rssi: Int?
    /// Time since last heard (zero for my own row).
    var lastSeen: Duration
    var isMe: Bool
    var isStale: Bool

    init(name: String, card: Card, rssi: Int?, lastSeen: Duration, isMe: Bool = false, isStale: Bool = false) {
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
struct TableSection: Equatable, Sendable {
    var channel: Channel
    var rows: [TableRow]
    /// Names heard in this channel but not stored (hostile floods).
    var unshown: Int

    init(channel: Channel, rows: [TableRow], unshown: Int = 0) {
        self.channel = channel
        self.rows = rows
        self.unshown = unshown
    }

    /// Everyone's (name, card), for the footer's statistics.
    var stats: Stats { Stats(rows.map { (name: $0.name, card: $0.card) }) }
}

/// What the live table shows: one section per channel watched (one, or
/// every channel heard, grouped) and the adapter in use.
struct LiveTable: Equatable, Sendable {
    var sections: [TableSection]
    var adapter: String

    init(sections: [TableSection], adapter: String) {
        self.sections = sections
        self.adapter = adapter
    }
}

/// The terminal the table is drawn on.
struct TerminalSize: Equatable, Sendable {
    var columns: Int
    var rows: Int

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

extension TableSection {
    /// A channel's section from the peer table: my row (when I am in this
    /// channel) and every peer, with ages measured at `now`. A peer with my
    /// own name is my own advertisement heard back, not a second row.
    init(channel: Channel, peers: [Peer], me: (name: String, card: Card)?, unshown: Int = 0, now: Timestamp) {
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
