import EstimatorKit
import Rendering

/// The session as a state machine without I/O: who I am (channel, name,
/// card), the room I hear, my round's reveal and its agreed estimate, the
/// timer, whether my name is someone else's too, and what I say on the air.
/// Its executor (`Session`) feeds it what happened (`SessionEvent`), at the
/// time it happened, and does what it answers (`SessionAction`), in order;
/// so every rule is tested by feeding events, and the executor decides
/// nothing.
///
/// Its rules, each written once:
/// - What goes on the air follows the room (`Room.advertised`): a pick, a
///   round, a reveal and a join put the new local name on the air; so does
///   a change of my round heard from the room, and a change of what the
///   room has me say (holding the reveal, the reveal). Nothing goes on the
///   air while the radio is down: it says so, and the radio's next start
///   puts on the air what the room has me say then.
/// - A new round in my channel, or another channel, forgets the revealed
///   round, its meeting and the timer.
/// - My round's meeting (`RoundMeeting`: its story, timer and agreed
///   estimate) is the room's: my own changes (`round TITLE`, the backlog's
///   next story, `settle`, the consensus once the reveal's cards are in,
///   `round --timer`, `reveal --in`) and every meeting heard for my round
///   are merged into it, and it goes on the air whenever it changes.
/// - A round begun elsewhere asks for the backlog: a session holding one
///   chooses its next story for it, so the backlog follows the room.
/// - My round's reveal, every re-vote after it and every change of its
///   story or agreed estimate are recorded for the history
///   (`RevealLedger`), as the meeting says: the same rows on every laptop.
/// - The timer reveals my round at the meeting's deadline, on every laptop
///   of the room, as `reveal` does, unless the round was revealed, left or
///   moved on, or the deadline changed.
/// - Someone else heard with my name is told apart from my own echo by the
///   local names I advertised lately (`NameOwnership`); a name taken when I
///   join is said in `join`'s answer.
/// - A pick is answered once it is on the air: the answer says which round
///   and story the vote went to, or that a new round began first and
///   cleared it (`PendingPicks`).
/// - While the relay is down (`RelayStatus`: since its first report of
///   not being connected), `pick` and `round` say since when, and so do
///   `status` and the `me` line.
/// - A session given no channel finds its room (`RoomSearch`): it sends
///   `02` on a tentative channel while it listens, chooses at the first
///   tick after `Setup.roomListening` (longer while others choosing are
///   first heard) (`RoomChoice`), enters the room
///   chosen as a `join` does, and sends `03` there until a round begins or
///   `RoomSearch.settingUpFor` has passed. For `Setup.roomConfirming` it
///   moves on to a room being set up near with more people
///   (`RoomChoice.larger(than:peers:)`); `join` answers after. A `join`
///   that comes meanwhile ends the choosing where it stands.
/// - While the history is not saved (the executor reports each save),
///   `status` and the `me` line say since when.
/// - Once leaving starts, every request is refused but `status`, which
///   says the session is leaving; the refusal of a `join` carries the
///   status too, so that `join` can wait for the end and start anew.
package struct SessionCore: Sendable {
    /// Which receptions the executor hears of beside those that change a row.
    package enum Forwarding: Sendable {
        /// Those that change a row.
        case changes
        /// Those, and every one heard over the air (the relay forwards them).
        case air
        /// Every one (a `watch` streams them all).
        case all
    }

    /// What the core is given once.
    package struct Setup: Sendable {
        /// The adapter's name, for `status` and the `me` line.
        package let adapter: String
        /// Whether the session has no radio at all (`--adapter none`).
        package let radioless: Bool
        /// The session's process, for `status` and `join`'s answer.
        package let pid: Int32
        /// A peer not heard over the air for this long is looked for again.
        package let lookAgainAfter: Duration
        /// An instant as a person's clock shows it (`14:02`), for answers
        /// that say since when something has been so.
        package let clockTime: @Sendable (Timestamp) -> String
        /// How long a session given no channel listens before it chooses
        /// its room (`RadioSchedule.roomListening`).
        package let roomListening: Duration
        /// How long it then confirms its choice before `join` answers
        /// (`RadioSchedule.roomConfirming`).
        package let roomConfirming: Duration
        /// The random draws of finding a room: the tentative channel, and
        /// a free one (`RoomChoice.Draw`).
        package let draw: RoomChoice.Draw

        package init(adapter: String, radioless: Bool, pid: Int32, lookAgainAfter: Duration,
                     roomListening: Duration = .seconds(6), roomConfirming: Duration = .seconds(3),
                     draw: @escaping RoomChoice.Draw = RoomChoice.random,
                     clockTime: @escaping @Sendable (Timestamp) -> String) {
            self.adapter = adapter
            self.radioless = radioless
            self.pid = pid
            self.lookAgainAfter = lookAgainAfter
            self.roomListening = roomListening
            self.roomConfirming = roomConfirming
            self.draw = draw
            self.clockTime = clockTime
        }
    }

    /// Most local names kept decoded; a flood of names only empties the cache.
    package static let packetCacheSize = 256

    package let setup: Setup
    package internal(set) var channel: Channel
    package internal(set) var name: PersonName
    /// The room: me, the peers, rounds and votes.
    package internal(set) var room: Room
    /// My channel's revealed round, for the history.
    var ledger = RevealLedger()
    /// Whether someone else here has my name.
    var ownership: NameOwnership
    /// The wait for my round's deadline (`round --timer`, `reveal --in`).
    var timer = RevealTimer()
    /// My round's meeting as the room shares it: its story, timer and agreed
    /// estimate (docs/PROTOCOL.md, Meeting).
    package internal(set) var meeting = RoundMeeting()
    /// The meeting as it was when I last asked for it on the air.
    var meetingOnAir = RoundMeeting()
    /// The picks whose answer waits until they are on the air.
    var picks = PendingPicks()
    /// The relay's state for `status`, and since when it has been down.
    var relay = RelayStatus()
    /// Why the radio is not working, in words; nil while it works.
    package internal(set) var radioProblem: String?
    /// The local name the room had me say when I last asked for it on the air.
    package internal(set) var onAir: [UInt8] = []
    /// The wait for cards on their way the radio was last told of.
    var cardsDue: Timestamp?
    /// Set when leaving starts.
    package internal(set) var hasEnded = false
    /// Since when a change of the history is not saved (the executor's
    /// save failed), and why; nil while everything is saved.
    package internal(set) var historyUnsavedSince: Timestamp?
    var historyUnsavedReason: String?
    /// Which receptions the executor hears of.
    var forwarding = Forwarding.changes
    /// What the `watch` clients are told of the room (`RoomWatch`).
    var watch = RoomWatch()
    /// Local names decoded lately: a peer repeats its own until its card
    /// changes, and decoding it anew was a third of the table's work.
    var packets: [[UInt8]: Packet] = [:]
    /// The meetings heard of each peer of my channel.
    var meetings = MeetingsHeard()
    /// Finding my room, when I was given no channel.
    var search = RoomSearch()

    /// `room` with me entered in `channel` as `name`, or, with no channel,
    /// on a tentative one while I choose my room (`RoomSearch`):
    /// `observing` present without a vote, `deck` the cards I may pick.
    package init(_ setup: Setup, channel: Channel?, name: PersonName, observing: Bool = false, deck: Deck = .app,
                 room: Room = Room(), now: Timestamp) {
        self.setup = setup
        if channel == nil { search.choosingSince = now }
        let channel = channel ?? RoomChoice.tentative(setup.draw)
        self.channel = channel
        self.name = name
        self.room = room
        ownership = NameOwnership(since: now)
        self.room.enter(Room.Me(channel: channel, name: name.text, card: .waiting, observing: observing, deck: deck), now: now)
        onAir = localName(now: now)
    }

    /// Takes `event`, which happened at `now`; returns what to do about it.
    package mutating func take(_ event: SessionEvent, at now: Timestamp) -> [SessionAction] {
        let actions = decide(event, at: now)
        noteForWatchers(event, actions)
        return actions
    }

    private mutating func decide(_ event: SessionEvent, at now: Timestamp) -> [SessionAction] {
        switch event {
        case let .request(request, backlog): return answer(request, backlog: backlog, now: now)
        case let .heard(heard): return hear(heard, now: now)
        case .tick: return tick(now: now)
        case .wentOnAir: return answerPicks(all: false)
        case let .backlog(backlog, round): return chooseNext(from: backlog, for: round, now: now)
        case let .timerRanOut(id):
            guard !hasEnded, timer.isRunning(id), timer.round == round.current, revealsAt != nil else { return [] }
            // Revealed as `estimator reveal` does; its answer goes to nobody.
            return reveal(after: nil, now: now).filter { if case .reply = $0 { false } else { true } }
        case let .radioWorks(seals):
            var actions: [SessionAction] = []
            if radioProblem != nil {
                radioProblem = nil
                actions.append(.streamRadio)
            }
            if room.seals != seals {
                room.seals = seals
                actions += followRoom(now: now)
            }
            // The start put on the air what the picks made meanwhile asked.
            return (actions.isEmpty ? [] : actions + [.changed]) + answerPicks(all: false)
        case let .radioFailed(problem):
            radioProblem = problem
            return [.streamRadio, .changed] + answerPicks(all: true)
        case let .relay(state):
            relay.starting(state)
            return [.changed]
        case let .relayRestarting(state):
            guard !hasEnded else { return [] }
            return relayReported(state, connected: false, now: now)
        case .relayRestarted:
            relay.restarted()
            return []
        case let .forward(forwarding):
            self.forwarding = forwarding
            return []
        case let .historySaved(since, reason):
            let shown = since != historyUnsavedSince
            historyUnsavedSince = since
            historyUnsavedReason = reason
            return shown ? [.streamMe, .changed] : []
        case .leaving:
            guard !hasEnded else { return [] }
            hasEnded = true
            let answers = answerPicks(all: true)
            _ = room.pick(.none, now: now)
            return [.cancelTimer] + answers
        }
    }

    // MARK: What views read

    /// My card.
    package var card: Card { room.me?.card ?? .waiting }

    /// My channel's round and its votes.
    package var round: ChannelRound { room.round(of: channel)! }  // `Room.enter` made it

    /// Whether my round is revealed (or being revealed: `Room.advertised`).
    package var isRevealed: Bool { round.current != nil && round.ballot.isRevealed }

    /// Whether I observe (`join --observer`).
    package var isObserving: Bool { room.me?.observing ?? false }

    /// The cards I may pick (`join --deck`).
    package var deck: Deck { room.me?.deck ?? .app }

    /// My round's title: its story's (`Story.title`), as the meeting says.
    package var title: String? { meeting.story?.title }

    /// When the meeting's timer reveals my round, while it is hidden.
    package var revealsAt: Timestamp? { round.current == nil || isRevealed ? nil : meeting.deadline }

    /// My channel as a table draws it at `now`.
    package func view(now: Timestamp) -> Room.View { room.view(of: channel, now: now) }

    /// Whether someone who was in my channel before me has my name, or one
    /// that looks the same (`PersonName.clashKey`), and is still heard: I
    /// should take another (`NameOwnership`). With my very name both are
    /// one row (a peer is a channel and a name), theirs hidden as if it
    /// were my echo.
    package var isNameTaken: Bool { ownership.shouldRename && namesake != nil }

    /// Someone else heard in my channel, and not stale, whose name is mine
    /// to the clash rule.
    var namesake: PeerID? {
        let mine = PersonName.clashKey(name.text)
        return room.table.peers.first {
            !$0.id.isApp && $0.channel == channel && !$0.isStale && PersonName.clashKey($0.name) == mine
        }?.id
    }

    /// Whether `peer` has my name to the clash rule.
    func isNamesake(_ peer: PeerID) -> Bool {
        !peer.isApp && peer.channel == channel && PersonName.clashKey(peer.name) == PersonName.clashKey(name.text)
    }

    /// Whether I am still choosing my room (`RoomSearch`).
    package var isChoosingRoom: Bool { search.choosingSince != nil }

    /// Whether I am choosing my room or confirming the choice: `join`
    /// waits for its answer.
    package var isFindingRoom: Bool { isChoosingRoom || search.confirmingUntil != nil }

    /// The room chosen, when I was given no channel and have chosen.
    package var roomChoice: RoomChoice? { search.choice }

    /// The local name the room has me say at `now` (`Room.advertised`);
    /// without a round, `02` while I choose my room and `03` while the
    /// room I found is being set up.
    package func localName(now: Timestamp) -> [UInt8] {
        var (version, shown) = room.advertised(now: now) ?? (.v01, card)
        if version == .v01 {
            if isChoosingRoom { version = .choosing } else if search.isSettingUp(now: now) { version = .found }
        }
        return Array(Packet(version: version, channel: channel, card: shown, name: name.text).localName.utf8)
    }

    /// The local name to put on the air now, noted as mine so that its echo
    /// is not taken for someone else with my name.
    package mutating func goingOnAir(now: Timestamp) -> [UInt8] {
        picks.carry()
        return ownership.advertising(localName(now: now))
    }

    /// Since when the relay has been down (`RelayStatus.downSince`); nil
    /// while it is connected, and without a relay.
    package var relayDownSince: Timestamp? { relay.downSince }

    /// The radio's state in words, for `status` and `watch`.
    package var radioState: String {
        if let radioProblem { return radioProblem }
        if setup.radioless { return hasEnded ? "stopped" : "no Bluetooth (relay only)" }
        return hasEnded ? "stopped" : "advertising and scanning"
    }

    /// Who I am now, as the watchers' `me` line says it.
    package var me: ControlWatchLine {
        .me(channel: channel.rawValue, name: name.text, adapter: setup.adapter, nameTaken: isNameTaken, onAir: onAir,
            meeting: wholeMeeting, relayDownSince: relayDownSince, unsavedSince: historyUnsavedSince)
    }

    /// What `status` answers.
    package func status(now: Timestamp) -> ControlStatus {
        ControlStatus(pid: setup.pid, adapter: setup.adapter, channel: channel.rawValue, name: name.text, card: card,
                      peers: room.peers(in: channel).count, radio: radioState, round: round.current,
                      title: title, nameTaken: isNameTaken, relay: relay.summary, observing: isObserving,
                      revealed: isRevealed, deck: deck, relayDownSince: relayDownSince,
                      settingUpUntil: search.isSettingUp(now: now) ? search.settingUpUntil : nil, range: room.range ?? .room,
                      leaving: hasEnded, unsavedSince: historyUnsavedSince, unsavedReason: historyUnsavedReason)
    }

    /// Whether time alone can change the room now (`Room.needsTicks`), or
    /// my choice of a room, or the end of its setting up.
    package func needsTicks(now: Timestamp) -> Bool {
        room.needsTicks(now: now) || isFindingRoom || search.isSettingUp(now: now)
    }

    /// The peers heard so far over the air and not stale, as `heard` lines
    /// for the relay attached now.
    package func heardLines(now: Timestamp) -> [ControlWatchLine] {
        room.table.peers.filter { !$0.isStale && room.hearing(of: $0.id, now: now) != .relay }.map { peer in
            .heard(localName: peer.packet.bytes, rssi: peer.rssi, from: room.advertiser(of: peer.id))
        }
    }

    /// What `join` answers: where I am, and as whom (`, observing,` and my
    /// deck unless it is the app's: ` with the fibonacci deck`).
    package static func joined(channel: Channel, name: PersonName, observing: Bool, deck: Deck, adapter: String, pid: Int32) -> String {
        let role = (observing ? ", observing," : "") + (deck == .app ? "" : " with \(deck.phrase)")
        return "joined channel \(channel) as \(name)\(role) on \(adapter) (session pid \(pid))"
    }

    /// What `join` answers once it found a room (`choice`): the room, as
    /// people say it, whom it was set up with, and how others join it.
    package static func joined(_ choice: RoomChoice, name: PersonName, observing: Bool, deck: Deck, adapter: String,
                               pid: Int32) -> String {
        let role = (observing ? ", observing," : "") + (deck == .app ? "" : " with \(deck.phrase)")
        var with = ""
        if case let .settingUp(people) = choice.reason, !people.isEmpty {
            let names = people.map { ShownName.text($0.name, isNameCut: $0.isNameCut, isApp: $0.isApp) }
            with = ", with " + (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!)
        }
        return "joined room \(choice.channel) as \(name)\(role) on \(adapter) (session pid \(pid))\(with); "
            + "others join with: estimator join --channel \(choice.channel)"
    }
}
