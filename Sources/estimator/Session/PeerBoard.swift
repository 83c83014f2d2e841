import EstimatorKit
import Synchronization

/// The session's peer table where the radio reads each reception: BlueZ's
/// signal is decoded and the table updated on the bus connection's reading
/// thread, and the session is woken only for what it must act on. In a room
/// nearly every reception only refreshes a known peer's signal strength and
/// time, which nobody needs to hear of unless a watcher streams every line
/// (make bench-session: waking the session's tasks per signal was most of its
/// CPU time).
final class PeerBoard: Sendable {
    /// A reception the session must act on.
    struct Change: Sendable {
        let localName: [UInt8]
        let rssi: Int?
        /// When the radio read the reception.
        let received: ContinuousClock.Instant
        /// The rows it changed (none when only passed on for a watcher).
        let events: [PeerEvent]
        /// Whether it came through the relay.
        let relayed: Bool
    }

    private struct State {
        var table: PeerTable
        /// Which receptions go to the session beside those that change a row.
        var forwarding = Forwarding.changes
        /// Local names decoded lately: a peer repeats its own until its card
        /// changes, and decoding it anew was a third of the table's work.
        var packets: [[UInt8]: Packet] = [:]
        /// How each peer in the table is heard.
        var paths: [PeerID: HeardPaths] = [:]
    }

    /// Most local names kept decoded; a flood of names only empties the cache.
    static let packetCacheSize = 256

    private let state: Mutex<State>
    private let clock: any SessionClock
    /// The changes, in reception order, for the session to follow.
    let changes: AsyncStream<Change>
    private let sink: AsyncStream<Change>.Continuation

    init(table: PeerTable, clock: any SessionClock) {
        state = Mutex(State(table: table))
        self.clock = clock
        (changes, sink) = AsyncStream.makeStream(of: Change.self)
    }

    var table: PeerTable { state.withLock { $0.table } }

    /// Which receptions the session is woken for.
    enum Forwarding: Sendable {
        /// Those that change a row.
        case changes
        /// Those, and every one heard over the air (the relay forwards them).
        case air
        /// Every one (a `watch` streams them all).
        case all
    }

    /// Sets which receptions the session is woken for.
    func forward(_ forwarding: Forwarding) { state.withLock { $0.forwarding = forwarding } }

    /// Takes one reception: updates the table and passes the reception on if
    /// it changed a row or everything is wanted.
    func take(_ reception: Reception) {
        state.withLock { state in
            var events: [PeerEvent] = []
            if let packet = state.packets[reception.localName] ?? Self.decode(reception.localName, into: &state.packets) {
                let now = clock.now
                events = state.table.observe(PeerSighting(packet, rssi: reception.rssi, time: now))
                let id = PeerID(channel: packet.channel, name: packet.name)
                // Only peers the table keeps (it caps each channel) get a path.
                if events.contains(where: { $0.id == id && $0.kind == .left }) {
                    state.paths[id] = nil
                } else if state.paths[id] != nil || events.contains(where: { $0.id == id }) {
                    state.paths[id, default: HeardPaths()].heard(relayed: reception.relayed, at: now)
                }
            }
            switch state.forwarding {
            case .all: break
            case .air: guard !events.isEmpty || !reception.relayed else { return }
            case .changes: guard !events.isEmpty else { return }
            }
            // Yielded under the lock, so changes keep the table's order.
            sink.yield(Change(localName: reception.localName, rssi: reception.rssi, received: reception.received,
                              events: events, relayed: reception.relayed))
        }
    }

    private static func decode(_ localName: [UInt8], into cache: inout [[UInt8]: Packet]) -> Packet? {
        guard let packet = try? Packet(decoding: localName) else { return nil }
        if cache.count >= packetCacheSize { cache.removeAll(keepingCapacity: true) }
        cache[localName] = packet
        return packet
    }

    /// Applies the passage of time (see `PeerTable.tick`).
    func tick() -> [PeerEvent] {
        state.withLock { state in
            let events = state.table.tick(now: clock.now)
            for event in events where event.kind == .left { state.paths[event.id] = nil }
            return events
        }
    }

    /// Whether a peer last heard over the air `quiet` or more ago is still
    /// short of the stale time: one the radio should look for again.
    func hasQuietPeer(after quiet: Duration) -> Bool {
        state.withLock { state in
            let now = clock.now, window = state.table.staleAfter
            return state.paths.values.contains { ($0.airQuiet(now: now, window: window) ?? .zero) >= quiet }
        }
    }

    /// How each person in `channel` is heard now (air, relay or both), by name.
    func hearing(in channel: Channel) -> [String: Hearing] {
        state.withLock { state in
            let now = clock.now, window = state.table.staleAfter
            var hearing: [String: Hearing] = [:]
            for (id, paths) in state.paths where id.channel == channel { hearing[id.name] = paths.hearing(now: now, window: window) }
            return hearing
        }
    }

    /// The peers heard so far and not stale, as `heard` lines for a watch
    /// attached now: a line per way a peer is heard, so the watch knows both.
    /// `airOnly` (the relay) leaves out what came through the relay.
    func heardLines(airOnly: Bool) -> [ControlWatchLine] {
        state.withLock { state in
            let now = clock.now, window = state.table.staleAfter
            var lines: [ControlWatchLine] = []
            for peer in state.table.peers where !peer.isStale {
                let packet = Packet(version: peer.round.map(Packet.Version.round) ?? .v01, channel: peer.channel,
                                    card: peer.card, name: peer.name)
                let localName = Array(packet.localName.utf8)
                let hearing = state.paths[peer.id]?.hearing(now: now, window: window) ?? .air
                if hearing != .relay { lines.append(.heard(localName: localName, rssi: peer.rssi)) }
                if hearing != .air, !airOnly { lines.append(.heard(localName: localName, rssi: nil, relayed: true)) }
            }
            return lines
        }
    }

    /// Ends `changes`.
    func finish() { sink.finish() }
}
