/// Who a peer is: a name in a channel (docs/PROTOCOL.md, Peers).
///
/// Never the radio address: phones and laptops rotate random addresses, and
/// one person must stay one row.
public struct PeerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let channel: Channel
    /// The decoded name as received (unsanitised; sanitise before display).
    public let name: String

    public init(channel: Channel, name: String) {
        self.channel = channel
        self.name = name
    }

    public static func < (a: PeerID, b: PeerID) -> Bool {
        a.channel != b.channel ? a.channel < b.channel : a.name < b.name
    }

    public var description: String { "\(channel)/\(name)" }
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
    /// Signal strength in dBm, when the radio reported one.
    public let rssi: Int?
    /// When it was heard.
    public let time: Timestamp

    public init(channel: Channel, name: String, card: Card, round: RoundNumber? = nil, revealed: Bool = false,
                revealedOnDemand: Bool = false, holds: Bool = false, rssi: Int?, time: Timestamp) {
        self.id = PeerID(channel: channel, name: name)
        self.card = card
        self.round = round
        self.revealed = (revealed || revealedOnDemand) && round != nil
        self.revealedOnDemand = revealedOnDemand && round != nil
        self.holds = holds && round != nil
        self.rssi = rssi
        self.time = time
    }

    /// What `packet` says, heard at `time`.
    public init(_ packet: Packet, rssi: Int?, time: Timestamp) {
        self.init(channel: packet.channel, name: packet.name, card: packet.card, round: packet.round,
                  revealed: packet.isRevealed, revealedOnDemand: packet.isRevealedOnDemand, holds: packet.holdsTheReveal,
                  rssi: rssi, time: time)
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
    /// The last reported signal strength in dBm.
    public internal(set) var rssi: Int?
    public internal(set) var lastHeard: Timestamp
    /// Not heard for the stale time; shown dimmed until heard again or dropped.
    public internal(set) var isStale: Bool

    public var channel: Channel { id.channel }
    public var name: String { id.name }

    /// The packet the peer last sent.
    public var packet: Packet {
        let version = round.map {
            isRevealedOnDemand ? Packet.Version.revealedOnDemand($0) : isRevealed ? .revealed($0) : holds ? .holding($0) : .round($0)
        } ?? .v01
        return Packet(version: version, channel: channel, card: card, name: name)
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
