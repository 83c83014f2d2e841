/// The room a session without a channel joins, from what it heard while it
/// listened (docs/PROTOCOL.md, Finding a room). Pure: the peers, the
/// channels heard and the random draw are given.
///
/// The rules, in order:
/// 1. A room being set up is near (a channel with a peer sending `03`):
///    join it; of several, the one with the most people, then the
///    strongest signal (the mean of its people's readings; a channel read
///    at all before one never read), then the lowest number.
/// 2. Else, others are choosing near (peers sending `02` on other
///    channels): the lowest channel of theirs and mine. Everyone choosing
///    at once who hears the same choosers lands on one channel; one who
///    heard others may land apart, and `larger(than:peers:)` brings them
///    together again.
/// 3. Else, my tentative channel if nobody was heard on it at all, else a
///    channel nobody was heard on, at random.
///
/// Never chosen: channel 0 (the app's), and a busy channel, one with a
/// round on (`2R`…`5R`) or people settled in it (`00`, `01`). The peers are
/// those the table keeps and hears at the floor's found level now (people
/// near: `SignalFloor.isAtFoundLevel`); `heard` is every channel heard at
/// any signal, so rule 3 takes none a faint neighbour uses either. Stale
/// peers count for nothing: a chooser that moved on is stale where it was.
public struct RoomChoice: Equatable, Sendable {
    /// Which rule chose.
    public enum Reason: Equatable, Sendable {
        /// A room being set up, with these people in it, in order.
        case settingUp(with: [PeerID])
        /// Others choosing at the same time land here too.
        case choosingTogether
        /// A channel nobody near uses.
        case free
    }

    /// Draws a whole number from a range: uniformly at random, or as a
    /// test says.
    public typealias Draw = @Sendable (ClosedRange<Int>) -> Int

    /// Draws uniformly at random.
    public static let random: Draw = { Int.random(in: $0) }

    /// The channels a room may be found on: every one but the app's.
    public static let channels: ClosedRange<UInt8> = 1...255

    public let channel: Channel
    public let reason: Reason

    /// A tentative channel to listen on while choosing: any of `channels`.
    public static func tentative(_ draw: Draw) -> Channel {
        Channel(rawValue: UInt8(draw(Int(channels.lowerBound)...Int(channels.upperBound))))
    }

    /// Chooses for a session that listened on `tentative`, having `peers` in
    /// its table (every channel, my echo left out) and heard `heard` (every
    /// channel of every packet heard, but my echo).
    public init(tentative: Channel, peers: [Peer], heard: Set<Channel>, draw: Draw = RoomChoice.random) {
        let near = Near(peers)
        if let best = near.best() {
            self = best
            return
        }
        let choosers = Set(near.open.filter { $0.finding == .choosing && $0.channel != tentative }.map(\.channel))
        if !choosers.isEmpty {
            let mine: Set<Channel> = near.busy.contains(tentative) || tentative == .default ? [] : [tentative]
            self.init(channel: choosers.union(mine).min()!, reason: .choosingTogether)
            return
        }
        let taken = heard.union(near.busy)
        if !taken.contains(tentative), tentative != .default {
            self.init(channel: tentative, reason: .free)
            return
        }
        let free = Self.channels.map(Channel.init(rawValue:)).filter { !taken.contains($0) }
        // Every channel heard: nothing is free, and the tentative one is as good as any.
        self.init(channel: free.isEmpty ? tentative : free[draw(0...free.count - 1)], reason: .free)
    }

    /// A room being set up near with more people than mine on `channel`
    /// (me counted), for a session that has just chosen (docs/PROTOCOL.md,
    /// Finding a room: confirming). Sessions choosing at once can choose
    /// apart: one missed a chooser the others heard, or heard a neighbour
    /// beyond the wall as loudly as a teammate, by a lucky run of readings,
    /// and took its tentative channel. Once each is in its room sending
    /// `03`, the fewer hear the more and join them. Only more people draw,
    /// never as many: teammates entering my room count only once the floor
    /// finds them there, a second or two later, and a room next door shows
    /// only the odd neighbour the floor lets in, never as many as my team.
    /// Someone choosing on my channel (`02`) is not in my room: it listens
    /// there, and moves on.
    public static func larger(than channel: Channel, peers: [Peer]) -> RoomChoice? {
        let near = Near(peers)
        let mine = 1 + near.present.count { $0.channel == channel && $0.finding != .choosing }
        guard let best = near.best(leavingOut: channel), near.open.count(where: { $0.channel == best.channel }) > mine else {
            return nil
        }
        return best
    }

    public init(channel: Channel, reason: Reason) {
        self.channel = channel
        self.reason = reason
    }

    /// The peers a choice counts, grouped by what they say of their channels.
    private struct Near {
        /// Those not stale, off the app's channel.
        let present: [Peer]
        /// Channels with a round on or people settled: never joined, never taken.
        let busy: Set<Channel>
        /// The present peers of the channels not busy.
        let open: [Peer]

        init(_ peers: [Peer]) {
            present = peers.filter { !$0.isStale && $0.channel != .default }
            busy = Set(present.filter { $0.finding == nil }.map(\.channel))
            open = present.filter { [busy] in !busy.contains($0.channel) }
        }

        /// The best room being set up (rule 1), `channel` left out.
        func best(leavingOut channel: Channel? = nil) -> RoomChoice? {
            let settingUp = Set(open.filter { $0.finding == .found && $0.channel != channel }.map(\.channel))
            guard let best = settingUp.max(by: { ranks($0, below: $1) }) else { return nil }
            let people = open.filter { $0.channel == best }.map(\.id).sorted()
            return RoomChoice(channel: best, reason: .settingUp(with: people))
        }

        /// Whether `a` ranks below `b` among rooms being set up: fewer
        /// people, then a weaker signal, then a higher number.
        private func ranks(_ a: Channel, below b: Channel) -> Bool {
            let (countA, countB) = (open.count { $0.channel == a }, open.count { $0.channel == b })
            if countA != countB { return countA < countB }
            let (signalA, signalB) = (signal(a), signal(b))
            if signalA != signalB { return (signalA ?? -Double.infinity) < (signalB ?? -Double.infinity) }
            return a > b
        }

        /// The mean reading of a channel's people; nil when none was read.
        private func signal(_ channel: Channel) -> Double? {
            let readings = open.compactMap { $0.channel == channel ? $0.rssi : nil }
            return readings.isEmpty ? nil : Double(readings.reduce(0, +)) / Double(readings.count)
        }
    }
}
