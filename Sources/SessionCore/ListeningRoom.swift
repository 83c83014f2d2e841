import EstimatorKit

/// The room of a `watch` without a session: everyone heard on a
/// listen-only radio, each channel's round and votes, with no one of mine.
/// What it tells its watch is decided by the rules a session tells its
/// watchers with (`Room`, `RoomWatch`), and comes as the same lines; so a
/// watch draws a session's stream and its own scan alike.
package struct ListeningRoom: Sendable {
    private var room: Room
    private var watch = RoomWatch()

    /// A room whose peers turn stale after `staleAfter`; `open` shows cards
    /// as they are picked.
    package init(staleAfter: Duration, open: Bool) {
        room = Room(staleAfter: staleAfter, open: open)
    }

    /// Takes a local name heard at `now`; returns what the watch is told.
    package mutating func hear(_ heard: Heard, now: Timestamp) -> [ControlWatchLine] {
        guard let packet = try? Packet(decoding: heard.localName) else { return [] }
        let update = room.hear(packet, rssi: heard.rssi, relayed: heard.relayed, from: heard.advertiser, at: now)
        watch.note(update, echo: nil)
        return watch.sightings(update, in: room, now: now) + watch.lines(room, now: now).shut
    }

    /// Applies the passage of time (stale peers, the end of listening);
    /// returns what the watch is told.
    package mutating func tick(now: Timestamp) -> [ControlWatchLine] {
        watch.note(room.tick(now: now), echo: nil)
        watch.noteTime(room, now: now)
        return watch.lines(room, now: now).shut
    }
}
