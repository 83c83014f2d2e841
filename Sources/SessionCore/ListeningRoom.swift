import EstimatorKit

/// The room of a `watch` without a session: everyone heard on a
/// listen-only radio, each channel's round, votes and meeting, with no one
/// of mine. What it tells its watch is decided by the rules a session
/// tells its watchers with (`Room`, `RoundMeeting.merging`, `RoomWatch`),
/// and comes as the same lines; so a watch draws a session's stream and its
/// own scan alike.
package struct ListeningRoom: Sendable {
    private var room: Room
    private var watch = RoomWatch()
    private var meetings = MeetingsHeard()

    /// A room whose peers turn stale after `staleAfter` and whose floor
    /// reaches `range`; `open` shows cards as they are picked.
    package init(staleAfter: Duration, open: Bool, range: SignalRange = .room) {
        room = Room(staleAfter: staleAfter, open: open, range: range)
    }

    /// Takes a local name heard at `now`; returns what the watch is told.
    package mutating func hear(_ heard: Heard, now: Timestamp) -> [ControlWatchLine] {
        guard let packet = try? Packet(decoding: heard.localName) else { return [] }
        let update = room.hear(packet, rssi: heard.rssi, relayed: heard.relayed, from: heard.advertiser, at: now)
        watch.note(update, echo: nil)
        // After the local name, which may have begun the round the meeting is about.
        let peer = PeerID(sender: packet)
        // A meeting counts from someone in the room only (`SignalFloor`).
        if !heard.meeting.isEmpty, room.table[peer] != nil,
           let whole = meetings.take(heard.meeting, relayed: heard.relayed, from: peer, now: now),
           whole.round == room.round(of: packet.channel)?.current {
            let meeting = room.round(of: packet.channel)?.state.meeting ?? RoundMeeting()
            let merged = meeting.merging(whole.meeting)
            if merged != meeting {
                room.meet(merged, round: whole.round, in: packet.channel)
                watch.touch(packet.channel, room: room)
            }
        }
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
