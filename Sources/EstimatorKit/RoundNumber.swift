/// A round as it travels on the air: its number modulo 16, one hex digit
/// after the `2` of the version field (docs/PROTOCOL.md, Rounds).
///
/// Rounds move on one at a time and wrap, so two numbers compare in serial
/// arithmetic: the later of two rounds is the one at most 7 steps ahead.
public struct RoundNumber: Hashable, Sendable, CustomStringConvertible {
    /// 0 to 15.
    public let value: UInt8

    /// The round `value` modulo 16.
    public init(wrapping value: Int) { self.value = UInt8(value & 0xF) }

    /// The round after this one.
    public var next: RoundNumber { RoundNumber(wrapping: Int(value) + 1) }

    /// Whether this round is later than `other`: 1 to 7 steps ahead of it
    /// modulo 16. Exactly 8 apart, the smaller digit counts as later, so
    /// that two groups that far apart still agree on one of the two.
    public func isNewer(than other: RoundNumber) -> Bool {
        switch (Int(value) - Int(other.value)) & 0xF {
        case 0: false
        case 1...7: true
        case 8: value < other.value
        default: false
        }
    }

    /// The hex digit on the air (`"A"` for 10).
    public var hexDigit: String { String(Hex.text([value]).last!) }

    /// The number as people read it: `"10"`.
    public var description: String { String(value) }
}
