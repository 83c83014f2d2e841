/// What one person broadcasts: the advertisement's local name
/// (docs/PROTOCOL.md, Packet).
///
/// On the air it is `VVCCKKname`: the version field, the channel and the
/// card as two hex digits each, then the name in UTF-8. `"0101FE전수열"` is
/// version 01, channel 1, coffee, 전수열; `"2301FC전수열"` is round 3,
/// channel 1, waiting, 전수열.
public struct Packet: Hashable, Sendable {
    /// The version field: the app's `00` and `01`, which carry no round;
    /// `02` and `03`, a session finding its room, no round either; or `2`
    /// to `5` and one hex digit, the sender's round and its ballot.
    public enum Version: Hashable, Sendable {
        case v00
        case v01
        /// Protocol 2, no round: the sender is choosing a room, listening
        /// before it settles (`02`, docs/PROTOCOL.md, Finding a room).
        case choosing
        /// Protocol 2, no round: the sender found this room less than a
        /// minute ago, so the room is being set up (`03`).
        case found
        /// Protocol 2: the sender's round, its cards not yet revealed.
        case round(RoundNumber)
        /// Protocol 2: the sender's round, its cards revealed (`3R`).
        case revealed(RoundNumber)
        /// Protocol 2: the sender's round, not revealed, and the sender
        /// holds the reveal (`4R`, docs/PROTOCOL.md, Ballot).
        case holding(RoundNumber)
        /// Protocol 2: the sender's round, revealed on demand (`estimator
        /// reveal`), voted or not: tables show it at once (`5R`).
        case revealedOnDemand(RoundNumber)

        /// The two characters on the air.
        public var field: String {
            switch self {
            case .v00: "00"
            case .v01: "01"
            case .choosing: "02"
            case .found: "03"
            case let .round(round): "2" + round.hexDigit
            case let .revealed(round): "3" + round.hexDigit
            case let .holding(round): "4" + round.hexDigit
            case let .revealedOnDemand(round): "5" + round.hexDigit
            }
        }
    }

    public var version: Version
    public var channel: Channel
    public var card: Card
    /// The sender's name: untrusted when received (longer than 12 bytes,
    /// escape sequences, U+FFFD where its UTF-8 was broken). Sanitise it
    /// with `TerminalText.sanitize` before showing it. A name cut inside a
    /// character holds its whole characters only (see `isNameCut`).
    public var name: String
    /// Whether the name arrived cut: it ended inside a character (an
    /// iPhone cuts the app's local name to 8 bytes), or, in the app's
    /// versions, nothing of it is left (docs/PROTOCOL.md, Names).
    public var isNameCut: Bool

    /// Bytes before the name.
    public static let headerUTF8Count = 6
    /// The most a local name carries: header plus `PersonName.maxUTF8Count`.
    public static let maxUTF8Count = headerUTF8Count + PersonName.maxUTF8Count

    /// A packet to send: the round when the sender has one (else `01`, as
    /// the app sends), and a name that fits.
    public init(channel: Channel, card: Card, name: PersonName, round: RoundNumber? = nil) {
        self.init(version: round.map(Version.round) ?? .v01, channel: channel, card: card, name: name.text)
    }

    public init(version: Version, channel: Channel, card: Card, name: String, isNameCut: Bool = false) {
        self.version = version
        self.channel = channel
        self.card = card
        self.name = name
        self.isNameCut = isNameCut
    }

    /// The sender's round; `nil` for the app's versions.
    public var round: RoundNumber? {
        switch version {
        case let .round(round), let .revealed(round), let .holding(round), let .revealedOnDemand(round): round
        case .v00, .v01, .choosing, .found: nil
        }
    }

    /// How the sender is finding its room: choosing (`02`), or found
    /// lately (`03`); nil in every other version.
    public var finding: RoomFinding? {
        switch version {
        case .choosing: .choosing
        case .found: .found
        default: nil
        }
    }

    /// Whether the sender's round is revealed, on demand or not.
    public var isRevealed: Bool {
        switch version {
        case .revealed, .revealedOnDemand: true
        case .v00, .v01, .choosing, .found, .round, .holding: false
        }
    }

    /// Whether the sender's round was revealed on demand (`5R`).
    public var isRevealedOnDemand: Bool {
        if case .revealedOnDemand = version { true } else { false }
    }

    /// Whether the sender holds the reveal of its round.
    public var holdsTheReveal: Bool {
        if case .holding = version { true } else { false }
    }

    /// The advertisement's local name; at most 18 bytes of UTF-8 for a packet
    /// made from a `PersonName`.
    public var localName: String { version.field + channel.hex + card.hex + name }

    /// The local name's bytes, decoding to this packet again: a cut name
    /// ends in a lone lead byte, as it did on the air, so it decodes cut.
    public var bytes: [UInt8] {
        Array(localName.utf8) + (isNameCut && !name.isEmpty ? [0xE0] : [])
    }
}

extension Packet {
    /// Decodes a received local name.
    public init(decoding localName: String) throws(PacketDecodeError) {
        try self.init(decoding: Array(localName.utf8))
    }

    /// Decodes a received local name from its raw bytes. The header must be
    /// exact (hex in either case); the name is taken as it comes, of any
    /// length, with invalid UTF-8 replaced by U+FFFD, except a character
    /// begun at the end and not finished, which is dropped and marks the
    /// name cut. In the app's versions (`00`, `01`) a packet may have no
    /// name left: an iPhone's name cut to nothing, shown as the app user
    /// it is. A protocol 2 packet always names someone.
    ///
    /// The app sends 13 as the single character `D` (its hex formatter pads
    /// only values below 0x0A): in a `00`/`01` packet, a card field that
    /// starts with `D` and is no known card is 13, and the name starts one
    /// byte earlier.
    public init(decoding bytes: [UInt8]) throws(PacketDecodeError) {
        guard bytes.count >= Self.headerUTF8Count else { throw .tooShort(bytes) }
        let field = { (i: Int) in Array(bytes[i..<i + 2]) }
        guard let version = Self.version(bytes[0], bytes[1]) else { throw .unknownVersion(field(0)) }
        guard let channel = Hex.byte(high: bytes[2], low: bytes[3])
        else { throw .invalidChannel(field(2)) }
        let card = Hex.byte(high: bytes[4], low: bytes[5]).map(Card.init(rawValue:))
        if version.isTheApps, bytes[4] | 0x20 == UInt8(ascii: "d"), !(card?.isKnown ?? false) {
            let (name, isCut) = CutName.decode(bytes[(Self.headerUTF8Count - 1)...])
            self.init(version: version, channel: Channel(rawValue: channel), card: .thirteen, name: name,
                      isNameCut: isCut || name.isEmpty)
            return
        }
        guard let card else { throw .invalidCard(field(4)) }
        let (name, isCut) = CutName.decode(bytes[Self.headerUTF8Count...])
        guard !name.isEmpty || version.isTheApps else { throw .missingName }
        self.init(version: version, channel: Channel(rawValue: channel), card: card, name: name,
                  isNameCut: isCut || name.isEmpty)
    }

    private static func version(_ first: UInt8, _ second: UInt8) -> Version? {
        switch (first, second) {
        case (UInt8(ascii: "0"), UInt8(ascii: "0")): .v00
        case (UInt8(ascii: "0"), UInt8(ascii: "1")): .v01
        case (UInt8(ascii: "0"), UInt8(ascii: "2")): .choosing
        case (UInt8(ascii: "0"), UInt8(ascii: "3")): .found
        case (UInt8(ascii: "2"), _): Hex.byte(high: UInt8(ascii: "0"), low: second).map { .round(RoundNumber(wrapping: Int($0))) }
        case (UInt8(ascii: "3"), _): Hex.byte(high: UInt8(ascii: "0"), low: second).map { .revealed(RoundNumber(wrapping: Int($0))) }
        case (UInt8(ascii: "4"), _): Hex.byte(high: UInt8(ascii: "0"), low: second).map { .holding(RoundNumber(wrapping: Int($0))) }
        case (UInt8(ascii: "5"), _):
            Hex.byte(high: UInt8(ascii: "0"), low: second).map { .revealedOnDemand(RoundNumber(wrapping: Int($0))) }
        default: nil
        }
    }
}

extension Packet.Version {
    /// Whether this is one of the app's versions (no round).
    var isTheApps: Bool { self == .v00 || self == .v01 }
}

/// Why received bytes are not a packet. Each case keeps the offending bytes;
/// `description` shows them safely (printable ASCII as is, the rest as `\xNN`).
public enum PacketDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 6 header bytes.
    case tooShort([UInt8])
    /// The first two bytes are not `00` to `03`, or `2` to `5` and a hex digit.
    case unknownVersion([UInt8])
    /// Bytes 3–4 are not two hex digits.
    case invalidChannel([UInt8])
    /// Bytes 5–6 are not two hex digits.
    case invalidCard([UInt8])
    /// A protocol 2 header and no whole character after it: a session's
    /// packet names a person.
    case missingName

    public var description: String {
        switch self {
        case .tooShort(let bytes):
            "\"\(Self.show(bytes))\" is too short for a packet, which starts with 6 bytes of version, channel and card."
        case .unknownVersion(let bytes):
            "The packet's version \"\(Self.show(bytes))\" is unknown; versions 00 to 03 and 20 to 5F are understood."
        case .invalidChannel(let bytes):
            "The packet's channel \"\(Self.show(bytes))\" is not two hex digits."
        case .invalidCard(let bytes):
            "The packet's card \"\(Self.show(bytes))\" is not two hex digits."
        case .missingName:
            "The packet has no name after its 6-byte header."
        }
    }

    private static func show(_ bytes: [UInt8]) -> String {
        bytes.map { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C
            ? String(UnicodeScalar($0)) : "\\x" + Hex.text([$0]) }.joined()
    }
}
