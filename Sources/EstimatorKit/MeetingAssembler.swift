/// The parts of one peer's meeting as they are heard over the air, put
/// together (docs/PROTOCOL.md, Meeting). Everything heard is untrusted: a
/// part of a layout no sender writes, beyond the story's length, of the
/// wrong length, with a checksum that does not match or text that is not
/// UTF-8 is ignored, and the story is sanitised (`Story.init(line:)`).
///
/// Keeps the latest bytes of each part number for the peer's round, and
/// forgets them when a part of another round comes: at most 16 parts of
/// 6 bytes. The last meeting they made stays until they make another (a
/// new story's parts come one at a time), or the round changes.
public struct MeetingAssembler: Sendable {
    /// A meeting heard whole, and the round (modulo 16) it is of.
    public typealias Heard = (round: RoundNumber, meeting: RoundMeeting)

    /// The round the parts kept are of.
    private var round: RoundNumber?
    /// The parts kept, by part number (byte 0 left out).
    private var parts: [[UInt8]?] = Array(repeating: nil, count: 16)
    /// The last meeting the parts kept made.
    private var whole: RoundMeeting?

    public init() {}

    /// Takes `part`, heard at `now` (to which a deadline is taken
    /// nearest); returns the last meeting the parts kept made for their
    /// round, if any, whether or not this part changed it.
    public mutating func take(_ part: [UInt8], now: Timestamp) -> Heard? {
        guard let first = part.first, part.count <= MeetingParts.maximumLength else { return current }
        let number = Int(first >> 4), partRound = RoundNumber(wrapping: Int(first))
        if number == 0 ? part.count != MeetingParts.maximumLength : part.count < 2 { return current }
        if round != partRound {
            round = partRound
            parts = Array(repeating: nil, count: 16)
            whole = nil
        }
        let body = Array(part.dropFirst())
        if parts[number] != body {
            parts[number] = body
            if let assembled = assemble(now: now) { whole = assembled }
        }
        return current
    }

    private var current: Heard? {
        guard let round, let whole else { return nil }
        return (round, whole)
    }

    /// The meeting the parts kept make, if they make one.
    private func assemble(now: Timestamp) -> RoundMeeting? {
        guard let state = parts[0] else { return nil }
        let length = Int(state[3]), checksum = state[4]
        guard length <= MeetingState.maximumAirText else { return nil }
        var text: [UInt8] = []
        for number in stride(from: 1, through: MeetingParts.textParts(length), by: 1) {
            guard let body = parts[number], body.count == min(MeetingParts.textPerPart, length - text.count) else { return nil }
            text += body
        }
        guard MeetingState.checksum(text) == checksum else { return nil }
        return MeetingState.meeting(state: state[0..<3], text: text[...], now: now)
    }
}
