/// The room as one participant hears it: everyone heard (the peer table),
/// how each is heard (air, relay), each channel's round and votes, and me
/// when I am in the room. The session and a `watch` without a session
/// (`ListeningRoom`) each feed one of these, and every table is drawn from
/// what it decided, so a rule of the room is written once, here.
///
/// Pure and clock-free: every input carries its time. The rules:
/// - an estimator session is a channel and a name (docs/PROTOCOL.md,
///   Peers); my own name in my channel is my advertisement heard back (the
///   echo), never a peer, and it moves no round;
/// - an app user (a packet of the app's versions from a discoverable
///   advertiser) is a channel, a name and the device it comes from, kept
///   across a change of the phone's address (`AppUsers`);
/// - a channel's round follows what is heard in it (`ChannelRound`); a new
///   round takes my card back to waiting;
/// - the votes and the reveal are counted after every change (`Ballot`), so
///   a reveal happens the moment its last condition is met, whichever input
///   brought it;
/// - a peer heard but not found by the signal floor (`SignalFloor`) is
///   nearby, out of the room: not in the table, so it counts in no round,
///   moves none and holds no reveal; a peer in the table the floor loses
///   leaves it (`left`), as one gone quiet does.
///
/// Memory is the peer table's bound: paths and devices are kept only for
/// peers the table holds, a round for at most each of the 256 channels, and
/// the floor's own bound.
public struct Room: Sendable {
    /// Who I am in the room, when I am in it.
    public struct Me: Equatable, Sendable {
        public var channel: Channel
        /// The name as advertised.
        public var name: String
        /// My vote, kept while I observe.
        public var card: Card
        /// Present without a vote (`join --observer`): never waited for.
        public var observing: Bool
        /// The cards I may pick (`join --deck`), and the one my channel's
        /// stats round the mean to.
        public var deck: Deck

        public init(channel: Channel, name: String, card: Card, observing: Bool = false, deck: Deck = .app) {
            self.channel = channel
            self.name = name
            self.card = card
            self.observing = observing
            self.deck = deck
        }

        /// My card as the round counts it.
        var counted: Card { observing ? .observing : card }

        func isEcho(_ id: PeerID) -> Bool { !id.isApp && id.channel == channel && id.name == name }
    }

    /// What one input changed.
    public struct Update: Equatable, Sendable {
        /// The peer table's changes, my echo included, in order.
        public var events: [PeerEvent] = []
        /// How each changed peer was heard, read before a leaver is forgotten.
        public var hearing: [PeerID: Hearing] = [:]
        /// Changes of round, per channel, in order.
        public var rounds: [RoundChange] = []
        /// Channels whose cards were revealed by this input.
        public var revealed: Set<Channel> = []
        /// The people a reception was heard from and the table keeps, in
        /// order: a watch refreshes their signal when no event says more.
        public var sighted: [PeerID] = []
        /// The people a reception was heard from whom the signal floor
        /// keeps out of the room: nobody to hand on to the relay.
        public var keptOut: [PeerID] = []
        /// Channels that count one more name they do not keep, or whose
        /// count of people nearby out of the room changed (a table says how
        /// many of each).
        public var counted: Set<Channel> = []

        public init() {}

        /// Whether my own round moved (so my advertisement changes).
        public func movesRound(of channel: Channel?) -> Bool { rounds.contains { $0.channel == channel } }
    }

    /// A change of a channel's round.
    public struct RoundChange: Equatable, Sendable {
        public let channel: Channel
        public let change: RoundState.Change
        public let time: Timestamp
    }

    /// Everyone heard.
    public private(set) var table: PeerTable
    /// Me, or nil for a `watch` that only looks on.
    public private(set) var me: Me?
    /// Show cards as they are picked instead of at the reveal.
    public var open: Bool
    /// Whether my vote goes on the air sealed until my round is revealed
    /// (docs/PROTOCOL.md, Ballot): true where my radio changes an
    /// advertisement without going deaf, so that every laptop can put its
    /// card on the air at the reveal at once. An open room (`open`) sends
    /// its card in clear, as the app does.
    public var seals = false
    private var paths: [PeerID: HeardPaths] = [:]
    private var rounds: [Channel: ChannelRound] = [:]
    private var appUsers = AppUsers()
    var floor: SignalFloor?
    /// The floor's counts of people out of the room, per channel, as last
    /// told: a change is a table to draw again.
    var outCounts: [Channel: Int] = [:]

    /// An empty room whose peers turn stale after `staleAfter` and leave
    /// after `dropAfter` (see `PeerTable`), and whose floor reaches `range`;
    /// without one, every reception counts (a room whose tests are about
    /// other rules).
    public init(staleAfter: Duration = .seconds(6), dropAfter: Duration = .seconds(30), open: Bool = false,
                range: SignalRange? = nil) {
        table = PeerTable(staleAfter: staleAfter, dropAfter: dropAfter)
        self.open = open
        floor = range.map(SignalFloor.init(range:))
    }

    // MARK: Reading

    /// The stored peers of `channel`, my echo left out, by name.
    public func peers(in channel: Channel) -> [Peer] {
        others(in: channel).sorted { $0.id < $1.id }
    }

    /// The same in no particular order: what the rules count (a tally
    /// orders its own entries).
    private func others(in channel: Channel) -> [Peer] {
        table.unorderedPeers(in: channel).filter { !(me?.isEcho($0.id) ?? false) }
    }

    /// The round of `channel` as followed here; `nil` before anything was
    /// heard in it.
    public func round(of channel: Channel) -> ChannelRound? { rounds[channel] }

    /// How `id` is heard at `now`; over the air when not known.
    public func hearing(of id: PeerID, now: Timestamp) -> Hearing {
        paths[id]?.hearing(now: now, window: table.staleAfter) ?? .air
    }

    /// How each peer of `channel` is heard at `now`.
    public func hearing(in channel: Channel, now: Timestamp) -> [PeerID: Hearing] {
        var hearing: [PeerID: Hearing] = [:]
        for (id, paths) in paths where id.channel == channel { hearing[id] = paths.hearing(now: now, window: table.staleAfter) }
        return hearing
    }

    /// The device app user `id` is heard from now; nil for an estimator
    /// session.
    public func advertiser(of id: PeerID) -> Advertiser? {
        appUsers.device(of: id).map { Advertiser(address: $0, isDiscoverable: true) }
    }

    /// Whether time alone can change the room at `now`, so that `tick` has
    /// work: someone is in the table (to turn stale or be dropped; a
    /// reveal's catch-up waits only for a peer in it), an app user's device
    /// is held, a channel is still being heard, or someone out of the room
    /// is counted (to be forgotten after the stale time). When none is,
    /// nothing but a reception or a request changes the room, and a session
    /// ticks seldom.
    public func needsTicks(now: Timestamp) -> Bool {
        !table.isEmpty || appUsers.isHolding || !outCounts.isEmpty || rounds.values.contains { $0.isHearingTheRoom(now: now) }
    }

    /// Whether a peer last heard over the air `quiet` or more ago is still
    /// short of the stale time: one a radio should look for again.
    public func hasQuietPeer(after quiet: Duration, now: Timestamp) -> Bool {
        paths.values.contains { ($0.airQuiet(now: now, window: table.staleAfter) ?? .zero) >= quiet }
    }

    /// The votes of `channel` at `now`, with me when I am in it: what the
    /// table shows.
    public func tally(of channel: Channel, now: Timestamp) -> Tally {
        let round = rounds[channel] ?? ChannelRound(listeningFrom: now)
        let deck = me.flatMap { $0.channel == channel ? $0.deck : nil } ?? .app
        return round.tally(peers: others(in: channel), me: mine(in: channel), open: open, deck: deck,
                           arriving: appUsers.heldNames(in: channel), now: now)
    }

    /// Until when my channel's table waits at `now` for cards on their way
    /// over the air: of votes heard sealed, which their senders put on the
    /// air as they reveal, or the last vote of a reveal heard from another
    /// laptop; nil when it waits for none (see `Tally.cardsDue`).
    public func cardsDue(now: Timestamp) -> Timestamp? {
        // The session asks after every reception: a round not revealed
        // waits for no card, and costs no tally.
        guard let me, rounds[me.channel]?.ballot.isRevealed == true else { return nil }
        return tally(of: me.channel, now: now).cardsDue
    }

    /// What I put on the air for my channel at `now` (docs/PROTOCOL.md,
    /// Ballot): my round (`3R` once revealed, `5R` revealed on demand, `4R`
    /// while I hold the reveal) and my card (sealed until the reveal when
    /// `seals`), or observing. With no round, or while the clock's jump
    /// makes the round uncertain, it is the app's form.
    public func advertised(now: Timestamp) -> (version: Packet.Version, card: Card)? {
        guard let me, let round = rounds[me.channel] else { return nil }
        let state = round.state
        guard let current = state.advertised else {
            return (.v01, state.suspendedSince != nil && me.card != .none ? .waiting : me.counted)
        }
        let version: Packet.Version = round.ballot.isRevealedOnDemand ? .revealedOnDemand(current)
            : round.ballot.isRevealed ? .revealed(current)
            : me.card != .none && holdsTheReveal(in: me.channel, round: round, now: now) ? .holding(current) : .round(current)
        let card = me.card == .none ? .none : me.counted
        let sealed = seals && !open && !round.ballot.isRevealed && card.isVote
        return (version, sealed ? .sealed : card)
    }

    /// Whether I hold my channel's reveal (docs/PROTOCOL.md, Ballot): a
    /// present voter I do not hear clearly over the air has not voted, one
    /// my relay alone brings or one at the edge of my range (heard
    /// faintly): the room's other laptops may not hear them. Voters heard
    /// clearly hold the reveal by their own packets.
    private func holdsTheReveal(in channel: Channel, round: ChannelRound, now: Timestamp) -> Bool {
        let tally = round.tally(peers: others(in: channel), me: mine(in: channel), now: now)
        return tally.waitingFor.contains { entry in
            !entry.isMe && paths[entry.id(in: channel)]?.isHeardClearly(now: now, window: table.staleAfter) == false
        }
    }

    // MARK: Inputs

    /// Takes one packet heard at `time`, over the air (from `advertiser`,
    /// when the radio names it) or through the relay. A packet of the app's
    /// versions from a discoverable advertiser is an app user's: who it is
    /// comes from its device (`AppUsers`), and it may wait there until that
    /// is known.
    public mutating func hear(_ packet: Packet, rssi: Int?, relayed: Bool, from advertiser: Advertiser? = nil,
                              at time: Timestamp) -> Update {
        let sightings: [PeerSighting]
        if !relayed, packet.version.isTheApps, let advertiser, advertiser.isDiscoverable {
            sightings = appUsers.hear(packet, from: advertiser.address, rssi: rssi, at: time)
        } else {
            sightings = [PeerSighting(packet, rssi: rssi, time: time)]
        }
        var update = Update()
        for sighting in sightings { observe(sighting, relayed: relayed, into: &update) }
        guard !update.events.isEmpty else { return update }
        follow(update.events, into: &update, now: time)
        return update
    }

    /// Takes one sighting into the table, noting how it was heard.
    private mutating func observe(_ sighting: PeerSighting, relayed: Bool, into update: inout Update) {
        let id = sighting.id
        let unshown = table.unshownCount(in: id.channel)
        let isEcho = me?.isEcho(id) ?? false
        let events: [PeerEvent]
        if isEcho || floor?.hear(id, rssi: sighting.rssi, relayed: relayed, at: sighting.time) != false {
            events = table.observe(sighting)
        } else {
            events = table.remove(id, at: sighting.time).map { [$0] } ?? []
            update.keptOut.append(id)
        }
        if table.unshownCount(in: id.channel) != unshown { update.counted.insert(id.channel) }
        recountOut(now: sighting.time, into: &update)
        // Only peers the table keeps (it caps each channel) get a path; a
        // leaver's is read for its event first, so the leave says how it came.
        if table[id] != nil || events.contains(where: { $0.id == id }) {
            paths[id, default: HeardPaths()].heard(relayed: relayed, rssi: sighting.rssi, at: sighting.time,
                                                   window: table.staleAfter)
        }
        for event in events { update.hearing[event.id] = hearing(of: event.id, now: sighting.time) }
        // A quiet peer that gave its place to this one (`PeerTable`).
        for event in events where event.id != id && event.kind == .left {
            paths[event.id] = nil
            appUsers.forget(event.id)
        }
        if table[id] != nil { update.sighted.append(id) }
        if table[id] == nil {
            paths[id] = nil
            appUsers.forget(id)
        }
        update.events += events
    }

    /// Applies the passage of time: peers turn stale or leave, rounds notice
    /// a jump of the clock, and listening ends. Call it regularly.
    public mutating func tick(now: Timestamp) -> Update {
        var update = Update()
        for channel in rounds.keys.sorted() {
            if let change = rounds[channel]?.tick(now: now) { note(change, in: channel, to: &update, time: now) }
        }
        for sighting in appUsers.tick(now: now) { observe(sighting, relayed: false, into: &update) }
        let timed = table.tick(now: now)
        for event in timed { update.hearing[event.id] = hearing(of: event.id, now: now) }
        for event in timed where event.kind == .left {
            paths[event.id] = nil
            appUsers.forget(event.id)
        }
        floor?.forget(notHeardSince: now - table.dropAfter)
        recountOut(now: now, into: &update)
        update.events += timed
        follow(update.events, into: &update, now: now)
        // The end of listening can reveal with nothing heard just then.
        for channel in rounds.keys.sorted() { reconsider(channel, into: &update, now: now) }
        return update
    }

    /// Sets who I am; another channel is learnt from the air anew.
    public mutating func enter(_ newMe: Me, now: Timestamp) {
        if let me, me.channel != newMe.channel { rounds[me.channel] = nil }
        if rounds[newMe.channel] == nil || me?.channel != newMe.channel {
            rounds[newMe.channel] = ChannelRound(listeningFrom: now)
        }
        me = newMe
    }

    /// Sets my card; returns the channels it revealed.
    @discardableResult
    public mutating func pick(_ card: Card, now: Timestamp) -> Update {
        var update = Update()
        guard me != nil else { return update }
        me?.card = card
        if let channel = me?.channel { reconsider(channel, into: &update, now: now) }
        return update
    }

    /// Reveals my channel's round now, voted or not (`estimator reveal`);
    /// false when there is no round, or it is revealed already.
    public mutating func revealNow(now: Timestamp) -> Bool {
        guard let channel = me?.channel, rounds[channel]?.ballot.isRevealed == false else { return false }
        return rounds[channel]?.reveal(.onDemand, at: now) ?? false
    }

    /// Observes (present without a vote) or votes again.
    public mutating func observe(_ observing: Bool, now: Timestamp) -> Update {
        var update = Update()
        guard let channel = me?.channel else { return update }
        me?.observing = observing
        reconsider(channel, into: &update, now: now)
        return update
    }

    /// Starts the next round in my channel (`estimator round`); my card goes
    /// back to waiting.
    public mutating func startNext(title: String?, now: Timestamp) -> RoundState.Change? {
        guard let channel = me?.channel else { return nil }
        let change = rounds[channel, default: ChannelRound(listeningFrom: now)]
            .startNext(title: title, peers: peers(in: channel), now: now)
        me?.card = .waiting
        return change
    }

    /// Takes `meeting` as `round`'s in `channel` while it is the current
    /// one: the room's meeting as a session or a listening watch merged it.
    public mutating func meet(_ meeting: RoundMeeting, round: RoundNumber, in channel: Channel) {
        rounds[channel]?.meet(meeting, for: round)
    }

    // MARK: Rules

    private func mine(in channel: Channel) -> (name: String, card: Card)? {
        me.flatMap { $0.channel == channel ? ($0.name, $0.counted) : nil }
    }

    /// Each channel's round follows the peer table's changes in it, my echo
    /// left out; then the votes are counted again.
    private mutating func follow(_ events: [PeerEvent], into update: inout Update, now: Timestamp) {
        let heard = events.filter { !(me?.isEcho($0.id) ?? false) }
        for channel in Set(heard.map(\.channel)).sorted() {
            let here = heard.filter { $0.channel == channel }
            let peers = others(in: channel)
            var round = rounds[channel] ?? ChannelRound(listeningFrom: now)
            let change = round.observe(here, peers: peers)
            rounds[channel] = round
            if let change { note(change, in: channel, to: &update, time: here[0].time) }
            reconsider(channel, into: &update, now: now)
        }
    }

    private mutating func note(_ change: RoundState.Change, in channel: Channel, to update: inout Update, time: Timestamp) {
        if case .began = change, me?.channel == channel { me?.card = .waiting }
        update.rounds.append(RoundChange(channel: channel, change: change, time: time))
    }

    /// Counts `channel`'s votes at `now`, revealing when everyone has voted.
    /// A stale holder never heard over the air holds nothing: the relay
    /// hands on a presence every 2 s while the broker keeps it, so one gone
    /// stale there is gone (a laptop asleep with its relay), not missed
    /// announcements (docs/PROTOCOL.md, Ballot).
    private mutating func reconsider(_ channel: Channel, into update: inout Update, now: Timestamp) {
        guard var round = rounds[channel] else { return }
        let peers = others(in: channel).map { peer in
            guard peer.holds, peer.isStale, paths[peer.id]?.air == nil else { return peer }
            var gone = peer
            gone.holds = false
            return gone
        }
        if round.reconsider(peers: peers, me: mine(in: channel), now: now) { update.revealed.insert(channel) }
        rounds[channel] = round
    }
}
