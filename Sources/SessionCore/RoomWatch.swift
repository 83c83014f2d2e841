import EstimatorKit
import Rendering

/// What a `watch` is told of a room, decided here once: for a session's
/// watchers (`SessionCore`) and for a watch without a session
/// (`ListeningRoom`) alike. Per channel a change touched, in order: a new
/// round, its story when the room's meeting tells a new one, each person's
/// change as it was before any reveal it brings (a last vote is a vote),
/// the reveal with every card, the agreed estimate when the meeting tells
/// a new one, its timer when the meeting tells another one, then the
/// channel's table (`WatchTable`). Every reception is also its person's signal
/// (`WatchSighting`). A person's change that tells nothing new (a hold
/// taken or let go, a seal broken by the reveal: the same mark in the same
/// round) is no line: a watcher never reads one event twice.
package struct RoomWatch: Sendable {
    /// What a channel's watchers were last told of its round.
    private struct Told: Equatable, Sendable {
        var round: RoundNumber?
        var revealed = false
        var story: Story?
        var agreed: Card?
        var deadline: Timestamp?

        init() {}

        init(_ view: Room.View) {
            round = view.tally.round
            revealed = view.tally.isRevealed
            story = view.meeting.story
            agreed = view.meeting.agreed
            deadline = view.meeting.deadline
        }
    }

    private var told: [Channel: Told] = [:]
    /// What each person's last line said, as the room shows the cards and
    /// as `open` does: entries go with the person's `left`.
    private struct PersonTold: Equatable, Sendable {
        var mark: Tally.Mark
        var round: RoundNumber?
        var heard: Hearing
    }
    private var peopleTold: (shut: [PeerID: PersonTold], open: [PeerID: PersonTold]) = ([:], [:])
    /// What changed since the lines were last made.
    private var events: [PeerEvent] = []
    private var hearing: [PeerID: Hearing] = [:]
    private var touched: Set<Channel> = []
    /// The channels where a round began (heard, or started by me).
    private var began: Set<Channel> = []

    package init() {}

    /// Whether something changed since the lines were last made.
    package var hasNews: Bool { !touched.isEmpty }

    /// Notes what `update` changed; my own advertisement heard back
    /// (`echo`) is no one's change.
    package mutating func note(_ update: Room.Update, echo: PeerID?) {
        events += update.events.filter { $0.id != echo }
        hearing.merge(update.hearing) { _, new in new }
        touched.formUnion(update.events.map(\.channel))
        touched.formUnion(update.revealed)
        touched.formUnion(update.counted)
        touched.formUnion(update.rounds.map(\.channel))
        for round in update.rounds { if case .began = round.change { began.insert(round.channel) } }
    }

    /// Notes that `channel`'s table may have changed by a request of mine
    /// (my pick, my reveal) or its meeting; a round it starts there began.
    package mutating func touch(_ channel: Channel, room: Room) {
        touched.insert(channel)
        if let round = room.round(of: channel)?.current, round != told[channel]?.round { began.insert(channel) }
    }

    /// Notes the channels whose cards show, or no longer do, by time alone:
    /// those on their way had their time (`Ballot.catchUp`), which no
    /// update of the room says. A tick's work, a tally per channel told.
    package mutating func noteTime(_ room: Room, now: Timestamp) {
        for (channel, told) in told where room.tally(of: channel, now: now).isRevealed != told.revealed {
            touched.insert(channel)
        }
    }

    /// The signal lines of a reception: one per person it was heard from.
    package func sightings(_ update: Room.Update, in room: Room, now: Timestamp) -> [ControlWatchLine] {
        update.sighted.map { id in
            .seen(WatchSighting(id: id, rssi: room.table[id]?.rssi, heard: room.hearing(of: id, now: now)))
        }
    }

    /// The lines of what changed since they were last made (see the type):
    /// as the room shows the cards (`shut`), and, with `openToo`, with every
    /// card known shown as soon as it is picked (`open`, `watch --open`).
    package mutating func lines(_ room: Room, now: Timestamp, openToo: Bool = false)
        -> (shut: [ControlWatchLine], open: [ControlWatchLine]) {
        defer {
            events = []
            hearing = [:]
            touched = []
            began = []
        }
        let open = openToo ? Self.showingCards(room) : nil
        var lines: (shut: [ControlWatchLine], open: [ControlWatchLine]) = ([], [])
        for channel in touched.sorted() {
            let before = told[channel] ?? Told()
            let view = room.view(of: channel, now: now)
            lines.shut += self.lines(of: view, in: room, before: before, now: now, people: &peopleTold.shut)
            if let open {
                lines.open += self.lines(of: open.view(of: channel, now: now), in: open, before: before, now: now,
                                         people: &peopleTold.open)
            }
            told[channel] = Told(view)
        }
        return lines
    }

    /// One channel's lines (see the type), `before` being what was told of
    /// its round and `people` of each person.
    private func lines(of view: Room.View, in room: Room, before: Told, now: Timestamp,
                       people: inout [PeerID: PersonTold]) -> [ControlWatchLine] {
        let (channel, tally) = (view.channel, view.tally)
        var lines: [ControlWatchLine] = []
        let sameRound = tally.round == before.round
        if began.contains(channel), let round = tally.round {
            lines.append(Self.line(.round(channel: channel, round: round, title: view.title, time: now)))
        }
        if let story = view.meeting.story, story != before.story || !sameRound {
            lines.append(Self.line(.story(channel: channel, round: tally.round, story: story, time: now)))
        }
        for event in events where event.channel == channel {
            // By who it is, not by name: two app users may both be `Al`.
            var mark = tally.entries.first { !$0.isMe && $0.id(in: channel) == event.id }?.mark ?? .shown(event.card)
            if event.kind == .left {
                mark = .shown(event.card)
            } else if !room.open, !before.revealed || tally.round != before.round, case .shown = mark {
                mark = .hidden
            }
            let heard = hearing[event.id] ?? .air
            let person = PersonTold(mark: mark, round: tally.round, heard: heard)
            if event.kind == .card, people[event.id] == person { continue }
            people[event.id] = event.kind == .left ? nil : person
            lines.append(Self.line(.peer(event, mark: mark, round: tally.round, story: view.meeting.story, heard: heard)))
        }
        if tally.isRevealed, !before.revealed || !sameRound {
            lines.append(Self.line(.revealed(channel: channel, tally: tally, story: view.meeting.story, time: now)))
        }
        if let agreed = view.meeting.agreed, agreed != before.agreed || !sameRound {
            lines.append(Self.line(.settled(channel: channel, round: tally.round, story: view.meeting.story, agreed: agreed, time: now)))
        }
        // An agreement ends the timer: the settle says so, not a timer line.
        let deadline = view.meeting.deadline
        if sameRound ? deadline != before.deadline && (deadline != nil || view.meeting.agreed == nil) : deadline != nil {
            lines.append(Self.line(.timer(channel: channel, round: tally.round, deadline: deadline, time: now)))
        }
        lines.append(.table(Self.table(view, in: room, now: now)))
        return lines
    }

    /// What a watch attaching now is told first: the truth of every channel
    /// heard (its story, everyone present as joined, the reveal with every
    /// card, the agreed estimate, the table), with every card known shown
    /// when `open`. From now on the
    /// changes start from this.
    package mutating func catchUp(_ room: Room, now: Timestamp, open: Bool = false) -> [ControlWatchLine] {
        let room = open ? Self.showingCards(room) : room
        let channels = Set(room.table.channels + [room.me?.channel].compactMap { $0 })
        var lines: [ControlWatchLine] = []
        for channel in channels.sorted() {
            let view = room.view(of: channel, now: now)
            let tally = view.tally
            if let story = view.meeting.story {
                lines.append(Self.line(.story(channel: channel, round: tally.round, story: story, time: now)))
            }
            for peer in view.peers where !peer.isStale {
                let mark = tally.entries.first { !$0.isMe && $0.id(in: channel) == peer.id }?.mark ?? .waiting
                let event = PeerEvent(.joined, peer.id, card: peer.card, round: peer.round, rssi: peer.rssi, time: peer.lastHeard)
                let heard = view.hearing[peer.id] ?? .air
                let person = PersonTold(mark: mark, round: tally.round, heard: heard)
                if open { peopleTold.open[peer.id] = person } else { peopleTold.shut[peer.id] = person }
                lines.append(Self.line(.peer(event, mark: mark, round: tally.round, story: view.meeting.story, heard: heard)))
            }
            if tally.isRevealed {
                lines.append(Self.line(.revealed(channel: channel, tally: tally, story: view.meeting.story, time: now)))
            }
            if let agreed = view.meeting.agreed {
                lines.append(Self.line(.settled(channel: channel, round: tally.round, story: view.meeting.story, agreed: agreed, time: now)))
            }
            if let deadline = view.meeting.deadline {
                lines.append(Self.line(.timer(channel: channel, round: tally.round, deadline: deadline, time: now)))
            }
            told[channel] = Told(view)
            lines.append(.table(Self.table(view, in: room, now: now)))
        }
        return lines
    }

    /// `room` showing every card known as soon as it is picked: what
    /// `open` shows does not change what is revealed, only the marks.
    private static func showingCards(_ room: Room) -> Room {
        var open = room
        open.open = true
        return open
    }

    /// `view`'s table, with whether `room` has revealed its round and the
    /// deck its figures take: mine in my channel.
    private static func table(_ view: Room.View, in room: Room, now: Timestamp) -> WatchTable {
        let deck = room.me.flatMap { $0.channel == view.channel ? $0.deck : nil } ?? .app
        return WatchTable(view, decided: room.round(of: view.channel)?.ballot.isRevealed ?? false, deck: deck, now: now)
    }

    private static func line(_ change: WatchChange) -> ControlWatchLine {
        .change(json: WatchEventJSON.object(change), line: ChangeLine.line(change))
    }
}
