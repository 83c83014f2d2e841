import EstimatorKit

/// What the room tells me: receptions, the passage of time, and my round's
/// result (the reveal recorded, the timer).
extension SessionCore {
    /// Takes one reception: updates the room, and acts on what it changed.
    /// A reception that changes no row (nearly every one in a room: a known
    /// peer's signal and time) asks for nothing, unless the executor wants
    /// every one (`forwarding`).
    mutating func hear(_ heard: Heard, now: Timestamp) -> [SessionAction] {
        var update = Room.Update()
        let packet = packets[heard.localName] ?? decode(heard.localName)
        let sender = packet.map { PeerID(sender: $0) }
        if let packet, let sender {
            let isOthers = packet.channel != channel || packet.name != name.text
            if isChoosingRoom, isOthers { search.heard.insert(packet.channel) }
            update = room.hear(packet, rssi: heard.rssi, relayed: heard.relayed, from: heard.advertiser, at: now)
            // A chooser counts once the room keeps it (`SignalFloor`): one
            // beyond the floor never joins my room, and holds no listening.
            if isChoosingRoom, isOthers, packet.version == .choosing, room.table[sender] != nil {
                search.heardChoosing(sender, at: now)
            }
        }
        let forwarded = switch forwarding {
        case .all: true
        // Someone the floor keeps out is not handed on: the relay would bring
        // them into the room of every teammate it reaches.
        case .air: !update.events.isEmpty || !heard.relayed && update.keptOut.isEmpty
        case .changes: !update.events.isEmpty
        }
        var actions: [SessionAction] = []
        if forwarded {
            actions.append(.stream(.heard(localName: heard.localName, rssi: heard.rssi, relayed: heard.relayed,
                                          from: heard.advertiser)))
            if forwarding == .all { actions += watching(update, now: now) }
        }
        if !update.events.isEmpty {
            actions.append(.rowsChanged(update.events))
            if update.events.contains(where: { isNamesake($0.id) }),
               ownership.heard(heard.localName, relayed: heard.relayed, now: now) {
                actions.append(.streamMe)
            }
            actions += follow(update, now: now).actions
            if update.events.contains(where: { $0.channel == channel && ($0.id.isApp || $0.name != name.text) }) {
                actions += recount(now: now).actions
                actions += followRoom(now: now)
            }
        }
        // After the local name, which may have begun the round the meeting is about.
        // A meeting counts from someone in the room only (`SignalFloor`).
        if let sender, !heard.meeting.isEmpty, sender.channel == channel, room.table[sender] != nil {
            actions += hearMeeting(heard.meeting, relayed: heard.relayed, from: sender, now: now)
        }
        return actions.isEmpty ? [] : actions + [.changed]
    }

    /// Takes what came of a peer's meeting with its local name
    /// (docs/PROTOCOL.md, Meeting): one part over the air, put together
    /// with the peer's others; the whole meeting through the relay.
    private mutating func hearMeeting(_ bytes: [UInt8], relayed: Bool, from peer: PeerID, now: Timestamp) -> [SessionAction] {
        guard let whole = meetings.take(bytes, relayed: relayed, from: peer, now: now) else { return [] }
        return heardMeeting(whole.meeting, round: whole.round, from: peer, now: now)
    }

    private mutating func decode(_ localName: [UInt8]) -> Packet? {
        guard let packet = try? Packet(decoding: localName) else { return nil }
        if packets.count >= Self.packetCacheSize { packets.removeAll(keepingCapacity: true) }
        packets[localName] = packet
        return packet
    }

    /// Turns stale peers stale and drops the long gone; looks again for a
    /// peer gone quiet; notes for the watchers what time alone changed.
    mutating func tick(now: Timestamp) -> [SessionAction] {
        let update = room.tick(now: now)
        if forwarding == .all {
            _ = watching(update, now: now)
            watch.noteTime(room, now: now)
        }
        var (actions, moved) = follow(update, now: now)
        if room.hasQuietPeer(after: setup.lookAgainAfter, now: now) { actions.append(.lookAgain) }
        let (revealed, recorded) = recount(now: now)
        actions += recorded + followRoom(now: now)
        if revealed || moved || !update.events.isEmpty || watch.hasNews { actions.append(.changed) }
        if search.isDoneListening(now: now, listening: setup.roomListening) {
            actions += chooseRoom(now: now)
        } else if let until = search.confirmingUntil {
            actions += confirmRoom(ending: now >= until, now: now)
        }
        return actions
    }

    /// Acts on my channel's changes of round in `update`: a new round took
    /// my card back (`Room`) and starts a new record; joining one, a jump of
    /// the clock and its end change what I advertise. `moved`: whether
    /// anything changed.
    private mutating func follow(_ update: Room.Update, now: Timestamp) -> (actions: [SessionAction], moved: Bool) {
        let mine = update.rounds.filter { $0.channel == channel }
        guard !mine.isEmpty else { return ([], false) }
        var actions: [SessionAction] = []
        for change in mine {
            switch change.change {
            // Begun elsewhere: its story may be in my backlog (`chooseNext`).
            case let .began(number): actions += newRound() + [.readBacklog(for: number)]
            // A meeting under way: my history begins at this round. A room's
            // first round is 1 (`RoundState.startNext`), so one joined as it
            // runs is the whole meeting (all but a room past 16 rounds).
            case let .joined(number): if number != RoundNumber(wrapping: 1) { ledger.joinedAt = number }
            case .suspended, .resumed: break
            }
        }
        return (actions + advertising(now: now), true)
    }

    /// Puts on the air what the room now has me say, when it changed:
    /// holding the reveal, the reveal (docs/PROTOCOL.md, Ballot), my
    /// round's meeting (its agreed estimate too: a re-vote that made or
    /// broke a consensus).
    mutating func followRoom(now: Timestamp) -> [SessionAction] {
        var actions = keepListeningForCards(now: now)
        if !hasEnded, localName(now: now) != onAir || meeting != meetingOnAir {
            actions += advertising(now: now)
        }
        return actions
    }

    /// While my table waits for cards on their way (of votes heard sealed,
    /// or a laptop's last vote of a reveal heard from another one), the
    /// radio's scan runs without a restart: asked once for each reveal's wait.
    private mutating func keepListeningForCards(now: Timestamp) -> [SessionAction] {
        guard let due = room.cardsDue(now: now), due != cardsDue else { return [] }
        cardsDue = due
        return [.keepListening(until: due)]
    }

    /// Counts my channel's votes; records a reveal, and every change of a
    /// revealed round's votes. Once the reveal's cards are all in, their
    /// consensus settles the round and follows the re-votes (a re-vote that
    /// breaks it unsettles the round), on every laptop alike, unless the
    /// room settled on another card. `revealed`: whether the cards were
    /// revealed just now.
    mutating func recount(now: Timestamp) -> (revealed: Bool, actions: [SessionAction]) {
        let tally = room.tally(of: channel, now: now)
        let first = !ledger.hasRevealed
        let taken = ledger.take(tally, channel: channel, meeting: meeting, deck: deck, now: now)
        var actions: [SessionAction] = []
        // Not while I still hear the room (after joining, or waking from a
        // jump of the clock): a voter not heard yet would make a consensus
        // of those heard, then break it, each a change newer than the room's
        // settle, which every laptop would take.
        if tally.isRevealed, tally.cardsDue == nil, room.round(of: channel)?.isHearingTheRoom(now: now) == false {
            let consensus = Agreement.consensus(ledger.votes.values)
            if consensus != ledger.consensus {
                if meeting.agreed == ledger.consensus { actions += takeMeeting(meeting.settling(consensus), now: now) }
                ledger.consensus = consensus
            }
        }
        // A record of the settle has the votes just taken: it is the latest.
        if let taken, !actions.contains(where: { if case .record = $0 { true } else { false } }) {
            actions.append(.record(taken))
        }
        return (first && taken != nil, actions)
    }

    /// Chooses my room from what the room heard while I listened
    /// (`RoomChoice`), and enters it as a `join` to another channel does:
    /// it is being set up from now, and the choice is confirmed for
    /// `Setup.roomConfirming`.
    private mutating func chooseRoom(now: Timestamp) -> [SessionAction] {
        let choice = RoomChoice(tentative: channel, peers: others(now: now), heard: search.heard, draw: setup.draw)
        let actions = enter(choice.channel, now: now)
        search = RoomSearch(choice: choice, confirmingUntil: now + setup.roomConfirming,
                            settingUpUntil: now + RoomSearch.settingUpFor)
        return actions + advertising(now: now)
    }

    /// Confirms my choice: moves to a room being set up near with more
    /// people than mine (`RoomChoice.larger(than:peers:)`), being set up
    /// from now for me; ends the confirming when it is `ending`, which
    /// answers `join`.
    private mutating func confirmRoom(ending: Bool, now: Timestamp) -> [SessionAction] {
        var actions: [SessionAction] = []
        if let larger = RoomChoice.larger(than: channel, peers: others(now: now)) {
            actions += enter(larger.channel, now: now)
            search.choice = larger
            search.settingUpUntil = now + RoomSearch.settingUpFor
            actions += advertising(now: now)
        }
        if ending {
            search.confirmingUntil = nil
            actions.append(.roomChosen)
        }
        return actions
    }

    /// The peers a choice of my room counts: those the room keeps, on
    /// every channel, heard at the floor's found level now
    /// (`Room.isAtFoundLevel`), my own echo left out.
    private func others(now: Timestamp) -> [Peer] {
        room.table.peers.filter {
            ($0.id.isApp || $0.channel != channel || $0.name != name.text) && room.isAtFoundLevel($0.id, now: now)
        }
    }

    /// Enters `newChannel` when it is another: a new round there, as a
    /// `join` to another channel has.
    private mutating func enter(_ newChannel: Channel, now: Timestamp) -> [SessionAction] {
        guard newChannel != channel else { return [] }
        channel = newChannel
        let actions = newRound()
        room.enter(Room.Me(channel: channel, name: name.text, card: card, observing: isObserving, deck: deck), now: now)
        return actions
    }

    /// A new round in my channel, or another channel: nothing revealed yet,
    /// a meeting of its own, and no timer runs for it; a room found is no
    /// longer being set up.
    mutating func newRound() -> [SessionAction] {
        search.settingUpUntil = nil
        ledger.reset()
        meeting = RoundMeeting()
        timer.stop()
        return [.cancelTimer]
    }
}
