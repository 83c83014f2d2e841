import EstimatorKit

/// My round's meeting (`RoundMeeting`): what changes it (mine, heard, the
/// backlog's next story), and what follows it (the timer, the history).
extension SessionCore {
    /// Takes a complete meeting heard from `peer` for its round `round`
    /// (the air's parts assembled, or the relay's whole one): merged into
    /// mine when it is about my round in my channel, and what changed
    /// follows (the timer, the history, the air, the watchers).
    package mutating func heardMeeting(_ heard: RoundMeeting, round: RoundNumber, from peer: PeerID,
                                       now: Timestamp) -> [SessionAction] {
        guard !hasEnded, peer.channel == channel, round == self.round.current else { return [] }
        // Every reception of a peer whose parts are all in hands its meeting
        // over again: one that changes nothing asks nothing of the room.
        let merged = meeting.merging(heard)
        guard merged != meeting else { return [] }
        var actions = takeMeeting(merged, now: now)
        // The room has it already: it rides with my next announcement, a
        // late joiner's to hear, and costs no change of my advertisement;
        // the relay publishes it with my local name (the `me` line).
        if meetingOnAir != meeting {
            meetingOnAir = meeting
            actions += [.rideAlong, .streamMe]
        }
        return actions + followRoom(now: now)
    }

    /// Chooses the backlog's next story for `number`, a round begun
    /// elsewhere, while it is mine (`SessionAction.readBacklog`). A session
    /// without a backlog, or whose backlog cannot be read, chooses nothing;
    /// two backlogs' choices are decided by the merge, as heard.
    mutating func chooseNext(from backlog: BacklogRead, for number: RoundNumber, now: Timestamp) -> [SessionAction] {
        guard !hasEnded, number == round.current, case let .read(progress?) = backlog, let next = progress.next else {
            return []
        }
        return takeMeeting(meeting.choosing(next.story, from: .backlog), now: now) + followRoom(now: now)
    }

    /// Takes `changed` as my round's meeting: the table's title, the timer
    /// its deadline, and a revealed round's record its story and agreed
    /// estimate follow it. Putting it on the air is the caller's
    /// (`followRoom`, `advertise`).
    mutating func takeMeeting(_ changed: RoundMeeting, now: Timestamp) -> [SessionAction] {
        guard changed != meeting else { return [] }
        meeting = changed
        if let current = round.current { room.meet(meeting, round: current, in: channel) }
        if forwarding == .all { watch.touch(channel, room: room) }
        var actions = followTimer(now: now)
        if let report = ledger.retell(meeting) { actions.append(.record(report)) }
        return actions
    }

    /// Arms the wait for my round's deadline, on every laptop alike, so the
    /// room reveals at the deadline although whoever set it has left; stops
    /// it when the meeting has none. A deadline already past reveals at once.
    private mutating func followTimer(now: Timestamp) -> [SessionAction] {
        guard let current = round.current, let deadline = revealsAt else {
            guard timer.isArmed else { return [] }
            timer.stop()
            return [.cancelTimer]
        }
        guard !timer.isArmed(at: deadline, for: current) else { return [] }
        return [.armTimer(id: timer.start(at: deadline, for: current), after: max(.zero, deadline - now))]
    }
}
