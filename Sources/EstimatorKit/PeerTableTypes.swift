/// Who a peer is (docs/PROTOCOL.md, Peers): an estimator session is a name
/// in a channel; an app user is a name in a channel and which of the app
/// users of that name it is, told apart by the device they come from.
///
/// Never the radio address itself: phones and laptops rotate random
/// addresses, and one person must stay one row (`Room` keeps which device
/// is which app user).
public struct PeerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let channel: Channel
    /// The decoded name as received: its whole characters when it arrived
    /// cut (unsanitised; sanitise before display).
    public let name: String
    /// Whether the name arrived cut (see `Packet.isNameCut`): shown with `…`.
    public let isNameCut: Bool
    /// For an app user, which of the app users of this name in this channel
    /// (1, 2, …); nil for an estimator session.
    public let appUser: Int?

    public init(channel: Channel, name: String, isNameCut: Bool = false, appUser: Int? = nil) {
        self.channel = channel
        self.name = name
        self.isNameCut = isNameCut
        self.appUser = appUser
    }

    /// Who sent `packet`: an estimator session, or the app user `appUser`.
    public init(sender packet: Packet, appUser: Int? = nil) {
        self.init(channel: packet.channel, name: packet.name, isNameCut: packet.isNameCut, appUser: appUser)
    }

    /// Whether this is an app user: someone without rounds, whose name an
    /// iPhone may have cut.
    public var isApp: Bool { appUser != nil }

    public static func < (a: PeerID, b: PeerID) -> Bool {
        if a.channel != b.channel { return a.channel < b.channel }
        if a.name != b.name { return a.name < b.name }
        if a.isNameCut != b.isNameCut { return !a.isNameCut }
        return (a.appUser ?? 0) < (b.appUser ?? 0)
    }

    public var description: String {
        "\(channel)/\(name)" + (isNameCut ? "…" : "") + (appUser.map { " (app \($0))" } ?? "")
    }
}

/// One packet heard from a peer.
public struct PeerSighting: Equatable, Sendable {
    public let id: PeerID
    public let card: Card
    /// The sender's round; `nil` from the app or a session without one.
    public let round: RoundNumber?
    /// Whether the sender's round is revealed.
    public let revealed: Bool
    /// Whether the sender's round was revealed on demand (`5R`).
    public let revealedOnDemand: Bool
    /// Whether the sender holds the reveal of its round.
    public let holds: Bool
    /// How the sender is finding its room (`02`, `03`); nil in every
    /// other version.
    public let finding: RoomFinding?
    /// Signal strength in dBm, when the radio reported one.
    public let rssi: Int?
    /// When it was heard.
    public let time: Timestamp

    public init(channel: Channel, name: String, card: Card, round: RoundNumber? = nil, revealed: Bool = false,
                revealedOnDemand: Bool = false, holds: Bool = false, finding: RoomFinding? = nil, rssi: Int?,
                time: Timestamp) {
        self.init(PeerID(channel: channel, name: name), card: card, round: round, revealed: revealed,
                  revealedOnDemand: revealedOnDemand, holds: holds, finding: finding, rssi: rssi, time: time)
    }

    /// A sighting of the peer `id`.
    public init(_ id: PeerID, card: Card, round: RoundNumber? = nil, revealed: Bool = false,
                revealedOnDemand: Bool = false, holds: Bool = false, finding: RoomFinding? = nil, rssi: Int?,
                time: Timestamp) {
        self.id = id
        self.card = card
        self.round = round
        self.revealed = (revealed || revealedOnDemand) && round != nil
        self.revealedOnDemand = revealedOnDemand && round != nil
        self.holds = holds && round != nil
        self.finding = round == nil ? finding : nil
        self.rssi = rssi
        self.time = time
    }

    /// What `packet` says, heard at `time`, from an estimator session, or
    /// from the app user `appUser`.
    public init(_ packet: Packet, appUser: Int? = nil, rssi: Int?, time: Timestamp) {
        self.init(PeerID(sender: packet, appUser: appUser),
                  card: packet.card, round: packet.round, revealed: packet.isRevealed,
                  revealedOnDemand: packet.isRevealedOnDemand, holds: packet.holdsTheReveal,
                  finding: packet.finding, rssi: rssi, time: time)
    }
}

/// A peer as the table knows it now.
public struct Peer: Equatable, Sendable {
    public let id: PeerID
    public internal(set) var card: Card
    /// The round the peer last sent; `nil` when it sends none.
    public internal(set) var round: RoundNumber?
    /// Whether the peer's round is revealed, as it last said.
    public internal(set) var isRevealed: Bool
    /// Whether the peer's round was revealed on demand, as it last said.
    public internal(set) var isRevealedOnDemand: Bool
    /// Whether the peer holds the reveal of its round, as it last said.
    public internal(set) var holds: Bool
    /// How the peer is finding its room, as it last said (`02`, `03`);
    /// nil in every other version. Its change is no event: it moves no
    /// round and no card.
    public internal(set) var finding: RoomFinding?
    /// The last reported signal strength in dBm.
    public internal(set) var rssi: Int?
    public internal(set) var lastHeard: Timestamp
    /// When the peer joined the table (first heard, or heard again after it
    /// left): someone who joined after a reveal is not missing from it.
    public internal(set) var joinedAt: Timestamp
    /// Not heard for the stale time; shown dimmed until heard again or dropped.
    public internal(set) var isStale: Bool

    public var channel: Channel { id.channel }
    public var name: String { id.name }

    /// The packet the peer last sent.
    public var packet: Packet {
        let version = round.map {
            isRevealedOnDemand ? Packet.Version.revealedOnDemand($0) : isRevealed ? .revealed($0) : holds ? .holding($0) : .round($0)
        } ?? finding?.version ?? .v01
        return Packet(version: version, channel: channel, card: card, name: name, isNameCut: id.isNameCut)
    }
}

/// A change in the table, as `watch --json` reports it.
public struct PeerEvent: Equatable, Sendable {
    /// What changed. The raw values are the `event` strings of `watch --json`.
    public enum Kind: String, Sendable, CaseIterable {
        /// First heard (or heard again after being dropped).
        case joined
        /// Sent another card or another round.
        case card
        /// Not heard for the stale time.
        case stale
        /// Heard again while stale.
        case back
        /// Sent card none (leaving), or not heard for the drop time.
        case left
    }

    public let kind: Kind
    public let id: PeerID
    /// The peer's card at the time of the event (`none` when it left by saying so).
    public let card: Card
    /// The peer's round at the time of the event.
    public let round: RoundNumber?
    public let rssi: Int?
    /// When the change happened: the sighting's time, or the tick's.
    public let time: Timestamp

    public init(_ kind: Kind, _ id: PeerID, card: Card, round: RoundNumber? = nil, rssi: Int?, time: Timestamp) {
        self.kind = kind
        self.id = id
        self.card = card
        self.round = round
        self.rssi = rssi
        self.time = time
    }

    public var channel: Channel { id.channel }
    public var name: String { id.name }
}
