/// A room: people see each other only in the same channel (docs/PROTOCOL.md, Channels).
///
/// People type it as a number from 0 to 255; on the air it is two uppercase
/// hex digits (`1` → `"01"`, `255` → `"FF"`).
public struct Channel: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The channel number, also its byte on the air.
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Channel 0, the Estimator app's default channel `"00"`.
    public static let `default` = Channel(rawValue: 0)

    /// Two uppercase hex digits, the form on the air.
    public var hex: String { Hex.text([rawValue]) }

    /// The number as people type it: `"1"`, `"255"`.
    public var description: String { String(rawValue) }

    public static func < (lhs: Channel, rhs: Channel) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension Channel {
    /// Parses what a person types: a whole number from 0 to 255 (surrounding
    /// spaces ignored).
    public init(parsing text: String) throws(ChannelParseError) {
        let digits = text.trimmingWhitespace()
        // UInt8("+1") succeeds and digits beyond ASCII are not numbers here.
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let value = UInt8(digits)
        else { throw ChannelParseError(input: text) }
        self.init(rawValue: value)
    }
}

/// What a person typed is not a channel.
public struct ChannelParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let input: String

    /// Every stored property, as the memberwise initializer (which other modules do not see) takes them.
    package init(input: String) {
        self.input = input
    }

    public var description: String {
        "'\(TerminalText.echo(input))' is not a channel; a channel is a whole number from 0 to 255."
    }
}
