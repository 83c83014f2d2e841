/// Everyone heard, per channel, and what changed: the model behind the live
/// table and `watch --json`.
///
/// Pure and clock-free: sightings carry their time and `tick(now:)` is given
/// the time, so the stale and leave rules are tested without sleeping.
///
/// Rules:
/// - a peer is a (channel, name), never an address;
/// - card none means leaving: the peer is dropped at once (`left`); a none
///   from a peer the table does not hold is ignored, so a leaver's repeated
///   goodbyes do not bring it back. Waiting (`FC`) is a card like any other:
///   the peer is here and has not voted;
/// - a change of card or of round (or of its reveal or hold) is a `card` event;
/// - heard within `staleAfter` is fresh. BlueZ reports an advertiser once
///   per discovery start and the session restarts discovery periodically, so
///   a peer that is still advertising keeps producing sightings and never
///   turns stale;
/// - not heard for `staleAfter`: `stale`; heard again: `back`;
/// - not heard for `dropAfter` (counted from the last sighting): `left`.
///
/// Memory is bounded: at most `peersPerChannel` peers are stored per channel
/// (64 by default; a room of planning poker is far smaller). Further names
/// are only counted (`unshownCount(in:)`), by a hash, up to 1024 per
/// channel; so 256 channels hold at most 16,384 peers whatever arrives.
/// The living come first: a newcomer to a full channel takes the place of
/// its stale peer heard longest ago (who leaves), so a crowd that went
/// quiet never keeps out someone who is here.
public struct PeerTable: Sendable {
    /// Not heard for this long: shown stale (default 6 s).
    public let staleAfter: Duration
    /// Not heard for this long: dropped (default 30 s).
    public let dropAfter: Duration
    /// Most peers stored per channel (default 64).
    public let peersPerChannel: Int

    private var byID: [PeerID: Peer] = [:]
    private var countByChannel: [Channel: Int] = [:]
    private var overflow = PeerTableOverflow()

    public init(
        staleAfter: Duration = .seconds(6), dropAfter: Duration = .seconds(30), peersPerChannel: Int = 64
    ) {
        self.staleAfter = staleAfter
        self.dropAfter = max(dropAfter, staleAfter)
        self.peersPerChannel = max(peersPerChannel, 0)
    }

    /// Whether no peer is stored, stale or not.
    public var isEmpty: Bool { byID.isEmpty }

    /// Every stored peer, ordered by channel, then name.
    public var peers: [Peer] { byID.values.sorted { $0.id < $1.id } }

    /// The stored peers of one channel, ordered by name.
    public func peers(in channel: Channel) -> [Peer] {
        unorderedPeers(in: channel).sorted { $0.id < $1.id }
    }

    /// The stored peers of one channel in no particular order: for rules
    /// that count them, which need no sorting of names.
    public func unorderedPeers(in channel: Channel) -> [Peer] {
        byID.values.filter { $0.channel == channel }
    }

    /// The peer with this identity, if stored.
    public subscript(id: PeerID) -> Peer? { byID[id] }

    /// Channels with at least one stored peer, ascending.
    public var channels: [Channel] { countByChannel.keys.sorted() }

    /// How many other names were heard in `channel` while it was full, and
    /// not since forgotten: "N more, not shown".
    public func unshownCount(in channel: Channel) -> Int { overflow.count(in: channel) }

    /// Takes in one sighting; returns what it changed (possibly nothing).
    public mutating func observe(_ sighting: PeerSighting) -> [PeerEvent] {
        let id = sighting.id
        guard var peer = byID[id] else {
            return join(sighting)
        }
        if sighting.card == .none {
            remove(id)
            return [PeerEvent(.left, id, card: .none, round: sighting.round, rssi: sighting.rssi ?? peer.rssi,
                              time: sighting.time)]
        }
        var events: [PeerEvent] = []
        let changed = peer.card != sighting.card || peer.round != sighting.round || peer.isRevealed != sighting.revealed
            || peer.isRevealedOnDemand != sighting.revealedOnDemand || peer.holds != sighting.holds
        peer.card = sighting.card
        peer.round = sighting.round
        peer.isRevealed = sighting.revealed
        peer.isRevealedOnDemand = sighting.revealedOnDemand
        peer.holds = sighting.holds
        peer.finding = sighting.finding
        peer.rssi = sighting.rssi ?? peer.rssi
        peer.lastHeard = max(peer.lastHeard, sighting.time)
        if peer.isStale {
            peer.isStale = false
            events.append(PeerEvent(.back, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: sighting.time))
        }
        if changed {
            events.append(PeerEvent(.card, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: sighting.time))
        }
        byID[id] = peer
        return events
    }

    /// Drops `id` at `time`, as one not heard for the drop time: a peer the
    /// room no longer counts in (`SignalFloor`). Returns its `left`, or nil
    /// when it is not stored.
    public mutating func remove(_ id: PeerID, at time: Timestamp) -> PeerEvent? {
        guard let peer = byID[id] else { return nil }
        remove(id)
        return PeerEvent(.left, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: time)
    }

    /// Applies the passage of time: peers turn stale or are dropped. Returns
    /// the changes, ordered by channel and name.
    public mutating func tick(now: Timestamp) -> [PeerEvent] {
        var events: [PeerEvent] = []
        for (id, peer) in byID {
            let silent = now - peer.lastHeard
            if silent >= dropAfter {
                events.append(PeerEvent(.left, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: now))
            } else if silent >= staleAfter, !peer.isStale {
                events.append(PeerEvent(.stale, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: now))
            }
        }
        for event in events {
            if event.kind == .left { remove(event.id) } else { byID[event.id]?.isStale = true }
        }
        overflow.forget(notHeardSince: now - dropAfter)
        return events.sorted { $0.id < $1.id }
    }

    private mutating func join(_ sighting: PeerSighting) -> [PeerEvent] {
        let id = sighting.id
        if sighting.card == .none {
            overflow.forget(id)
            return []
        }
        var events: [PeerEvent] = []
        if countByChannel[id.channel, default: 0] >= peersPerChannel {
            guard let quiet = byID.values.filter({ $0.channel == id.channel && $0.isStale }).min(by: { $0.lastHeard < $1.lastHeard })
            else {
                overflow.note(id, at: sighting.time)
                return []
            }
            remove(quiet.id)
            events.append(PeerEvent(.left, quiet.id, card: quiet.card, round: quiet.round, rssi: quiet.rssi, time: sighting.time))
        }
        overflow.forget(id)
        let peer = Peer(id: id, card: sighting.card, round: sighting.round, isRevealed: sighting.revealed,
                        isRevealedOnDemand: sighting.revealedOnDemand, holds: sighting.holds, finding: sighting.finding, rssi: sighting.rssi,
                        lastHeard: sighting.time, joinedAt: sighting.time, isStale: false)
        byID[id] = peer
        countByChannel[id.channel, default: 0] += 1
        return events + [PeerEvent(.joined, id, card: peer.card, round: peer.round, rssi: peer.rssi, time: sighting.time)]
    }

    private mutating func remove(_ id: PeerID) {
        guard byID.removeValue(forKey: id) != nil else { return }
        countByChannel[id.channel, default: 1] -= 1
        if countByChannel[id.channel] == 0 { countByChannel[id.channel] = nil }
    }
}
