/// The votes of one channel's current round as one participant sees them:
/// who has voted, and whether the cards are revealed (docs/PROTOCOL.md,
/// Votes, Ballot and Reveal).
///
/// Pure: the caller passes the peer table's peers and events in.
/// - A peer in the current round votes with any card but waiting and
///   observing; one in an earlier round has not voted yet (its card is from
///   an earlier story). Observers are present and never voters.
/// - A peer without rounds (the app, a session not yet in step) votes with
///   its card, except the card it held when this round began, which counts
///   only once changed, or after the peer left and came back.
/// - The cards are revealed when every present, fresh voter (the
///   participant too, when in the room) has voted and no peer of the
///   round holds the reveal (someone only it hears has not voted); or at
///   once when a fresh peer of the round says its round is revealed, or
///   a reveal on demand is asked. They stay revealed until the next round.
/// - A reveal heard waits for the last vote on its way here (`catchUp`,
///   an app user's `appCatchUp`), unless it was made on demand: then
///   nobody's vote is awaited.
/// - Any reveal waits, as long again, for the cards of votes heard sealed
///   (`Card.sealed`): their senders put them on the air as they reveal.
///   A card still sealed then shows as a vote without its card.
/// - Someone who arrived after the reveal (a peer who joined the table
///   since, or the participant who heard the room revealed while still
///   hearing it) is no voter it was made without.
public struct Ballot: Equatable, Sendable {
    /// Whether this round's cards have been revealed (the room decided).
    public private(set) var isRevealed = false
    /// Whether they were revealed on demand (`estimator reveal`, here or
    /// on another laptop), voted or not, rather than by the last vote.
    public private(set) var isRevealedOnDemand = false
    /// When this round's cards were revealed here; every wait for cards
    /// on their way counts from it (`catchUp`, `appCatchUp`).
    private var revealedAt: Timestamp?
    /// Whether the reveal was heard from another laptop, by its last vote:
    /// that vote may still be on its way here.
    private var isRevealedElsewhere = false
    /// Whether the participant arrived after the reveal: it heard the room
    /// revealed while still hearing the room.
    private var revealedBeforeMe = false

    /// A reveal heard from another laptop shows here at once when everyone
    /// heard here has voted, else after this long: the last vote, which
    /// that laptop heard first, reaches this one at its second announcement
    /// (0.5 s) or its sender's next restart (1.5 s ± 0.5 s) when the first
    /// was missed (docs/MEASUREMENTS.md, The air). A reveal on demand
    /// (`5R`) awaits nobody and shows at once.
    public static let catchUp: Duration = .seconds(2)
    /// An app user's last vote takes longer: the phone keeps its address,
    /// and BlueZ the first name of its device, so the new card reaches this
    /// laptop only when its radio next forgets the device, at a restart of
    /// the scan, which comes at most 4 s after the last one ends
    /// (docs/ARCHITECTURE.md, Radio schedule).
    public static let appCatchUp: Duration = .seconds(5)
    /// Cards that peers without rounds held when the round began.
    private var earlier: [PeerID: Card] = [:]

    public init() {}

    /// Starts over for a new round, hidden; `peers` are the channel's peers
    /// as the round begins. With `keepingVotes` (the round was joined as it
    /// runs, not begun) every card heard counts.
    public mutating func restart(peers: [Peer], keepingVotes: Bool = false) {
        isRevealed = false
        isRevealedOnDemand = false
        revealedAt = nil
        isRevealedElsewhere = false
        revealedBeforeMe = false
        earlier = [:]
        guard !keepingVotes else { return }
        for peer in peers where peer.round == nil && peer.card.isVote { earlier[peer.id] = peer.card }
    }

    /// Takes a change of the peer table in this channel.
    public mutating func observe(_ event: PeerEvent) {
        guard let card = earlier[event.id] else { return }
        if event.kind == .left || event.card != card || event.round != nil { earlier[event.id] = nil }
    }

    /// Whether `peer` has voted in round `current`.
    public func hasVoted(_ peer: Peer, in current: RoundNumber?) -> Bool {
        guard peer.card.isVote else { return false }
        guard let round = peer.round else { return earlier[peer.id] != peer.card }
        return round == current
    }

    /// Reveals the cards when the room has: `peers` of the channel (the
    /// participant's own echo left out), `me` when the participant is in
    /// the room. Only a reveal heard from a peer passes `mayReveal` (false
    /// while the room is not heard yet): the room has decided already.
    /// Returns whether it revealed just now.
    public mutating func reconsider(peers: [Peer], me: (name: String, card: Card)?, round: RoundNumber?,
                                    mayReveal: Bool = true, now: Timestamp) -> Bool {
        let ofTheRound = peers.filter { $0.round != nil && $0.round == round }
        let heard = ofTheRound.filter { !$0.isStale && $0.isRevealed }
        guard !isRevealed else {
            // Another laptop revealed on demand while this one waits for a
            // vote on its way: nobody's vote is awaited any more.
            if heard.contains(where: \.isRevealedOnDemand) { reveal(.onDemand, at: now) }
            return false
        }
        // A hold lasts while its holder is in the table, stale or not: it
        // stands for a teammate nobody else hears, and a stale holder is
        // more often announcements missed than a laptop gone
        // (docs/MEASUREMENTS.md, The air). Through the relay alone there
        // are no announcements to miss: `Room` hands such a holder on
        // without its hold.
        // `estimator reveal` ends a hold that outlives its holder.
        if mayReveal, isReady(peers: peers, me: me, round: round), !ofTheRound.contains(where: \.holds) {
            reveal(.lastVote, at: now)
            return true
        }
        guard !heard.isEmpty else { return false }
        revealedBeforeMe = !mayReveal
        if heard.contains(where: \.isRevealedOnDemand) {
            reveal(.onDemand, at: now)
        } else {
            reveal(.lastVoteElsewhere, at: now)
        }
        return true
    }

    /// What decided a reveal.
    public enum Reveal: Sendable {
        /// The last vote heard here: the cards show at once.
        case lastVote
        /// The last vote as another laptop heard it: the cards show once
        /// everyone heard here has voted, or after `catchUp`.
        case lastVoteElsewhere
        /// `estimator reveal`, here or on another laptop, voted or not: the
        /// cards show at once, a round revealed already too.
        case onDemand
    }

    /// Reveals the cards now, as `reason` decided.
    public mutating func reveal(_ reason: Reveal, at now: Timestamp) {
        if isRevealed {
            guard reason == .onDemand, !isRevealedOnDemand else { return }
            isRevealedOnDemand = true
            return
        }
        isRevealed = true
        isRevealedOnDemand = reason == .onDemand
        isRevealedElsewhere = reason == .lastVoteElsewhere
        revealedAt = now
    }

    /// Whether every present, fresh voter this participant hears has voted
    /// (and there is at least one).
    func isReady(peers: [Peer], me: (name: String, card: Card)?, round: RoundNumber?) -> Bool {
        let present = entries(peers: peers, me: me, round: round).filter { !$0.entry.isStale && !$0.entry.isObserver }
        return !present.isEmpty && present.allSatisfy(\.voted)
    }

    /// Counts the votes as the table shows them; `open` shows cards before
    /// the reveal; `deck` is the one the stats round the mean to.
    /// `arriving`: names of app users with a new device held (`AppUsers`):
    /// a reveal's catch-up waits on for an app user of such a name who has
    /// not voted, as that device's card may be the vote on its way.
    public func tally(peers: [Peer], me: (name: String, card: Card)?, round: RoundNumber?, open: Bool = false,
                      deck: Deck = .app, arriving: Set<String> = [], now: Timestamp) -> Tally {
        let entries = entries(peers: peers, me: me, round: round)
        let present = entries.filter { !$0.entry.isStale && !$0.entry.isObserver }
        let voted = present.filter(\.voted)
        let appUserAwaited = present.contains { !$0.voted && $0.entry.isApp }
        // Every sealed voter reveals as this laptop does, or on hearing it:
        // one announcement, or two when the first was missed.
        let cardsDue = revealedAt.map { $0 + Self.catchUp }
        let awaitsLastVote = isRevealedElsewhere && !isRevealedOnDemand
        let catchUp: Duration = !awaitsLastVote ? .zero : appUserAwaited ? Self.appCatchUp : Self.catchUp
        let caughtUp = revealedAt.map { now >= $0 + catchUp } ?? true
        let onItsWay = !isRevealedOnDemand && present.contains { !$0.voted && $0.entry.isApp && arriving.contains($0.entry.name) }
        let sealedCardsComing = voted.contains { $0.entry.card == .sealed } && cardsDue.map { now < $0 } ?? false
        // The last vote of a reveal heard elsewhere is awaited with no
        // restart of the radio's scan when it is a laptop's: its card comes
        // as a new advertisement. An app user's new card reaches this laptop
        // only once its radio forgets the phone's device at a restart
        // (docs/ARCHITECTURE.md, Radio schedule).
        let lastVoteComing = !caughtUp && voted.count < present.count && !appUserAwaited
        let isRevealed = isRevealed && !sealedCardsComing && (voted.count == present.count || caughtUp && !onItsWay)
        return Tally(
            entries: entries.map { entry, voted, _ in
                var entry = entry
                entry.mark = entry.isObserver ? .observing
                    : !voted ? .waiting
                    : (isRevealed || open) && entry.card != .sealed ? .shown(entry.card) : .hidden
                return entry
            }.sorted { $0.isMe != $1.isMe ? $0.isMe : $0.sortKey < $1.sortKey },
            voters: present.count, voted: voted.count,
            waitingFor: present.filter { !$0.voted && !arrivedAfterTheReveal($0) }.map(\.entry).sorted { $0.sortKey < $1.sortKey },
            isRevealed: isRevealed, round: round,
            stats: Stats(votes: voted.map(\.entry).filter { $0.card != .sealed }, deck: deck),
            cardsDue: sealedCardsComing || lastVoteComing ? cardsDue : nil)
    }

    /// Whether the person of `row` arrived after the reveal (see the header).
    private func arrivedAfterTheReveal(_ row: Row) -> Bool {
        guard let revealedAt else { return false }
        return row.joinedAt.map { $0 > revealedAt } ?? revealedBeforeMe
    }

    /// A row of the tally: the person, whether they voted, and when they
    /// joined the table (`nil` for the participant).
    private typealias Row = (entry: Tally.Entry, voted: Bool, joinedAt: Timestamp?)

    private func entries(peers: [Peer], me: (name: String, card: Card)?, round: RoundNumber?) -> [Row] {
        var entries: [Row] = []
        if let me { entries.append((Tally.Entry(name: me.name, card: me.card, isMe: true, isStale: false), me.card.isVote, nil)) }
        for peer in peers where peer.id.isApp || peer.name != me?.name {
            entries.append((Tally.Entry(name: peer.name, card: peer.card, isMe: false, isStale: peer.isStale,
                                        isNameCut: peer.id.isNameCut, appUser: peer.id.appUser),
                            hasVoted(peer, in: round), peer.joinedAt))
        }
        return entries
    }
}

/// A round's votes as counted by `Ballot.tally`: what the table shows.
public struct Tally: Equatable, Sendable {
    /// What a row shows in the card column.
    public enum Mark: Equatable, Sendable {
        /// Not voted in this round (`·`).
        case waiting
        /// Voted, card hidden until the reveal (`✓`).
        case hidden
        /// Present without a vote: an observer (`obs`).
        case observing
        /// The card.
        case shown(Card)
    }

    /// One person: the participant first, then by name.
    public struct Entry: Equatable, Sendable {
        /// The name as received (sanitise it before display).
        public let name: String
        /// Whether the name arrived cut (shown with `…`).
        public let isNameCut: Bool
        /// For an app user, which of the app users of this name; nil for
        /// an estimator session and for me.
        public let appUser: Int?
        /// The card as sent, whatever the mark shows.
        public let card: Card
        public let isMe: Bool
        /// Not heard lately: shown, not counted.
        public let isStale: Bool
        /// Present without a vote, never waited for.
        public var isObserver: Bool { card == .observing }
        /// Whether this is an app user.
        public var isApp: Bool { appUser != nil }
        /// The order of rows: by name, then cut names, then app users by number.
        var sortKey: PeerID { id(in: .default) }
        /// Who this is in `channel` (mine is my echo's).
        public func id(in channel: Channel) -> PeerID {
            PeerID(channel: channel, name: name, isNameCut: isNameCut, appUser: appUser)
        }
        public internal(set) var mark: Mark

        public init(name: String, card: Card, isMe: Bool, isStale: Bool, mark: Mark = .waiting,
                    isNameCut: Bool = false, appUser: Int? = nil) {
            self.name = name
            self.isNameCut = isNameCut
            self.appUser = appUser
            self.card = card
            self.isMe = isMe
            self.isStale = isStale
            self.mark = mark
        }
    }

    public let entries: [Entry]
    /// Present, fresh people who vote (the participant included).
    public let voters: Int
    /// How many of them have voted.
    public let voted: Int
    /// The voters still to vote, in the order of rows: people, not names
    /// (two app users may have one name, or none left).
    public let waitingFor: [Entry]
    public let isRevealed: Bool
    /// The round counted; `nil` when the room has none.
    public let round: RoundNumber?
    /// The figures of the votes that count.
    public let stats: Stats
    /// While the round is revealed and cards are on their way over the air
    /// (of votes heard sealed, or a laptop's last vote, which the laptop
    /// that revealed heard first: `Ballot.catchUp`), until when the table
    /// waits for them with the radio's scan left running; else nil.
    public let cardsDue: Timestamp?

    public init(entries: [Entry], voters: Int, voted: Int, waitingFor: [Entry], isRevealed: Bool,
                round: RoundNumber?, stats: Stats, cardsDue: Timestamp? = nil) {
        self.entries = entries
        self.voters = voters
        self.voted = voted
        self.waitingFor = waitingFor
        self.isRevealed = isRevealed
        self.round = round
        self.stats = stats
        self.cardsDue = cardsDue
    }

    /// A revealed tally of `entries`, every one present and shown: for
    /// tests and benchmarks of what draws it.
    public static func revealed(_ entries: [(name: String, card: Card)], round: RoundNumber? = nil) -> Tally {
        Tally(entries: entries.map { Entry(name: $0.name, card: $0.card, isMe: false, isStale: false, mark: .shown($0.card)) },
              voters: entries.count, voted: entries.count, waitingFor: [], isRevealed: true, round: round,
              stats: Stats(entries))
    }
}
