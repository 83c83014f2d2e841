/// What one person broadcasts: the advertisement's local name (DESIGN §2).
///
/// On the air it is `VVCCKKname`: two ASCII digits of protocol version, the
/// channel and the card as two hex digits each, then the name in UTF-8.
/// `"0101FE전수열"` is version 01, channel 1, coffee, 전수열.
public struct Packet: Hashable, Sendable {
    /// The protocol versions on the air; `v01` is sent, both are understood.
    public enum Version: String, Sendable, CaseIterable {
        case v00 = "00"
        case v01 = "01"
    }

    public var version: Version
    public var channel: Channel
    public var card: Card
    /// The sender's name: untrusted when received (longer than 12 bytes,
    /// escape sequences, U+FFFD where its UTF-8 was broken). Sanitise it
    /// with `TerminalText.sanitize` before showing it.
    public var name: String

    /// Bytes before the name.
    public static let headerUTF8Count = 6
    /// The most a local name carries: header plus `PersonName.maxUTF8Count`.
    public static let maxUTF8Count = headerUTF8Count + PersonName.maxUTF8Count

    /// A packet to send: current version, and a name that fits.
    public init(channel: Channel, card: Card, name: PersonName) {
        self.init(version: .v01, channel: channel, card: card, name: name.text)
    }

    public init(version: Version, channel: Channel, card: Card, name: String) {
        self.version = version
        self.channel = channel
        self.card = card
        self.name = name
    }

    /// The advertisement's local name; at most 18 bytes of UTF-8 for a packet
    /// made from a `PersonName`.
    public var localName: String { version.rawValue + channel.hex + card.hex + name }
}

extension Packet {
    /// Decodes a received local name.
    public init(decoding localName: String) throws(PacketDecodeError) {
        try self.init(decoding: Array(localName.utf8))
    }

    /// Decodes a received local name from its raw bytes. The header must be
    /// exact (hex in either case); the name is taken as it comes, of any
    /// length, with invalid UTF-8 replaced by U+FFFD.
    public init(decoding bytes: [UInt8]) throws(PacketDecodeError) {
        guard bytes.count >= Self.headerUTF8Count else { throw .tooShort(bytes) }
        let field = { (i: Int) in Array(bytes[i..<i + 2]) }
        guard let version = Version(rawValue: String(decoding: field(0), as: UTF8.self))
        else { throw .unknownVersion(field(0)) }
        guard let channel = Hex.byte(high: bytes[2], low: bytes[3])
        else { throw .invalidChannel(field(2)) }
        guard let card = Hex.byte(high: bytes[4], low: bytes[5])
        else { throw .invalidCard(field(4)) }
        guard bytes.count > Self.headerUTF8Count else { throw .missingName }
        self.init(
            version: version, channel: Channel(rawValue: channel), card: Card(rawValue: card),
            name: String(decoding: bytes[Self.headerUTF8Count...], as: UTF8.self))
    }
}

/// Why received bytes are not a packet. Each case keeps the offending bytes;
/// `description` shows them safely (printable ASCII as is, the rest as `\xNN`).
public enum PacketDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Fewer than the 6 header bytes.
    case tooShort([UInt8])
    /// The first two bytes are not `00` or `01`.
    case unknownVersion([UInt8])
    /// Bytes 3–4 are not two hex digits.
    case invalidChannel([UInt8])
    /// Bytes 5–6 are not two hex digits.
    case invalidCard([UInt8])
    /// A header and nothing else: a packet names a person.
    case missingName

    public var description: String {
        switch self {
        case .tooShort(let bytes):
            "\"\(Self.show(bytes))\" is too short for a packet, which starts with 6 bytes of version, channel and card."
        case .unknownVersion(let bytes):
            "The packet's version \"\(Self.show(bytes))\" is unknown; versions 00 and 01 are understood."
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
            ? String(UnicodeScalar($0)) : "\\x" + Hex.byte($0) }.joined()
    }
}
