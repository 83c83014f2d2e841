import Clocks
import EstimatorKit
import Radio
import Synchronization

/// The session's room (`Room`) where the radio reads each reception: BlueZ's
/// signal is decoded and the room updated on the bus connection's reading
/// thread, and the session is woken only for what it must act on. In a room
/// nearly every reception only refreshes a known peer's signal strength and
/// time, which nobody needs to hear of unless a watcher streams every line
/// (make bench-session: waking the session's tasks per signal was most of its
/// CPU time).
package final class PeerBoard: Sendable {
    /// A reception the session must act on.
    package struct Change: Sendable {
        let localName: [UInt8]
        let rssi: Int?
        /// When the radio read the reception.
        let received: Duration
        /// What it changed in the room (nothing when only passed on for a watcher).
        let update: Room.Update
        /// The rows it changed.
        package var events: [PeerEvent] { update.events }
        /// Whether it came through the relay.
        package let relayed: Bool
        /// The device it came from over the air, when the radio names it.
        let advertiser: Advertiser?
    }

    private struct State {
        var room: Room
        /// Which receptions go to the session beside those that change a row.
        var forwarding = Forwarding.changes
        /// Local names decoded lately: a peer repeats its own until its card
        /// changes, and decoding it anew was a third of the table's work.
        var packets: [[UInt8]: Packet] = [:]
    }

    /// Most local names kept decoded; a flood of names only empties the cache.
    static let packetCacheSize = 256

    private let state: Mutex<State>
    private let clock: any SessionClock
    /// The changes, in reception order, for the session to follow.
    package let changes: AsyncStream<Change>
    private let sink: AsyncStream<Change>.Continuation

    /// A board holding `room`, timed by `clock`.
    package init(room: Room, clock: any SessionClock) {
        state = Mutex(State(room: room))
        self.clock = clock
        (changes, sink) = AsyncStream.makeStream(of: Change.self)
    }

    /// Reads the room under the lock.
    func read<T>(_ body: (Room) -> T) -> T { state.withLock { body($0.room) } }

    /// Changes the room under the lock; `body` gets the time.
    func change<T>(_ body: (inout Room, Timestamp) -> T) -> T {
        state.withLock { body(&$0.room, clock.now) }
    }

    /// Which receptions the session is woken for.
    package enum Forwarding: Sendable {
        /// Those that change a row.
        case changes
        /// Those, and every one heard over the air (the relay forwards them).
        case air
        /// Every one (a `watch` streams them all).
        case all
    }

    /// Sets which receptions the session is woken for.
    package func forward(_ forwarding: Forwarding) { state.withLock { $0.forwarding = forwarding } }

    /// Takes one reception: updates the table and passes the reception on if
    /// it changed a row or everything is wanted.
    package func take(_ reception: Reception) {
        state.withLock { state in
            var update = Room.Update()
            if let packet = state.packets[reception.localName] ?? Self.decode(reception.localName, into: &state.packets) {
                update = state.room.hear(packet, rssi: reception.rssi, relayed: reception.relayed,
                                         from: reception.advertiser, at: clock.now)
            }
            switch state.forwarding {
            case .all: break
            case .air: guard !update.events.isEmpty || !reception.relayed else { return }
            case .changes: guard !update.events.isEmpty else { return }
            }
            // Yielded under the lock, so changes keep the room's order.
            sink.yield(Change(localName: reception.localName, rssi: reception.rssi, received: reception.received,
                              update: update, relayed: reception.relayed, advertiser: reception.advertiser))
        }
    }

    private static func decode(_ localName: [UInt8], into cache: inout [[UInt8]: Packet]) -> Packet? {
        guard let packet = try? Packet(decoding: localName) else { return nil }
        if cache.count >= packetCacheSize { cache.removeAll(keepingCapacity: true) }
        cache[localName] = packet
        return packet
    }

    /// Applies the passage of time (see `Room.tick`).
    func tick() -> Room.Update { change { room, now in room.tick(now: now) } }

    /// Whether time alone can change the room now (`Room.needsTicks`).
    func needsTicks() -> Bool { state.withLock { $0.room.needsTicks(now: clock.now) } }

    /// Until when my table waits for cards on their way over the air
    /// (`Room.cardsDue`); nil when it waits for none.
    func cardsDue() -> Timestamp? {
        state.withLock { $0.room.cardsDue(now: clock.now) }
    }

    /// Whether a peer last heard over the air `quiet` or more ago is still
    /// short of the stale time: one the radio should look for again.
    func hasQuietPeer(after quiet: Duration) -> Bool {
        state.withLock { $0.room.hasQuietPeer(after: quiet, now: clock.now) }
    }

    /// The peers heard so far and not stale, as `heard` lines for a watch
    /// attached now: a line per way a peer is heard, so the watch knows both.
    /// `airOnly` (the relay) leaves out what came through the relay.
    func heardLines(airOnly: Bool) -> [ControlWatchLine] {
        state.withLock { state in
            let now = clock.now
            var lines: [ControlWatchLine] = []
            for peer in state.room.table.peers where !peer.isStale {
                let localName = peer.packet.bytes
                let hearing = state.room.hearing(of: peer.id, now: now)
                if hearing != .relay {
                    lines.append(.heard(localName: localName, rssi: peer.rssi, from: state.room.advertiser(of: peer.id)))
                }
                if hearing != .air, !airOnly { lines.append(.heard(localName: localName, rssi: nil, relayed: true)) }
            }
            return lines
        }
    }

    /// Ends `changes`.
    package func finish() { sink.finish() }
}
