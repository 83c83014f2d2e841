import EstimatorKit

/// What the session tells its `watch` clients of the room: decided here,
/// drawn there (`RoomWatch`). Only while a watch streams (`Forwarding.all`)
/// is anything noted, so a session nobody watches does none of this work.
extension SessionCore {
    /// Notes what `update` changed for the watchers; returns the signal
    /// lines of the reception.
    mutating func watching(_ update: Room.Update, now: Timestamp) -> [SessionAction] {
        if !update.events.isEmpty || !update.rounds.isEmpty || !update.revealed.isEmpty || !update.counted.isEmpty {
            watch.note(update, echo: PeerID(channel: channel, name: name.text))
        }
        return watch.sightings(update, in: room, now: now).map(SessionAction.stream)
    }

    /// After an event that changed something a view shows, notes my
    /// channel's table as changed (my pick, my round, my reveal); the
    /// receptions and ticks note their own changes.
    mutating func noteForWatchers(_ event: SessionEvent, _ actions: [SessionAction]) {
        guard forwarding == .all, actions.contains(.changed) else { return }
        switch event {
        case .heard, .tick: break
        default: watch.touch(channel, room: room)
        }
    }

    /// The lines of what changed for the watchers since they were last
    /// made: the changes and the tables (`RoomWatch.lines`), as my room
    /// shows the cards (`shut`) and, with `openToo`, for the watchers that
    /// show every card known at once (`open`); none when nothing changed.
    package mutating func watchLines(now: Timestamp, openToo: Bool = false)
        -> (shut: [ControlWatchLine], open: [ControlWatchLine]) {
        guard watch.hasNews else { return ([], []) }
        let lines = watch.lines(room, now: now, openToo: openToo && !room.open)
        return room.open ? (lines.shut, lines.shut) : lines
    }

    /// What a `watch` attaching now is told first, after who I am: the
    /// truth of every channel heard (`RoomWatch.catchUp`), every card known
    /// shown when `open`.
    package mutating func watchCatchUp(now: Timestamp, open: Bool = false) -> [ControlWatchLine] {
        watch.catchUp(room, now: now, open: open)
    }
}
