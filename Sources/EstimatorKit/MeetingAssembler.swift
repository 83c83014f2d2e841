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
///
/// Before the parts make a whole meeting, the story's key is known once
/// the first part holds it packed (`PackedKey`), or the parts from the
/// first hold it and the space after it (or the whole text, in a last part
/// shorter than the others): the key goes first on
/// the air so that tables show it at once, and it is handed over as a
/// meeting of that key alone, from a backlog (the least a story can be),
/// with nothing else known. The whole meeting, once its parts are in,
/// beats it in any merge (its title is the key's and more).
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
        guard let round else { return nil }
        if let whole { return (round, whole) }
        return key.map { (round, RoundMeeting(story: Story(key: $0, summary: ""), source: .backlog, change: 0, deadline: nil, agreed: nil)) }
    }

    /// The story's key, from the text parts held from the first on, once
    /// they hold all of it; nil when they do not, or the text has no key.
    private var key: String? {
        if let first = parts[1], let marker = first.first, PackedKey.isMarker(marker) { return PackedKey.unpack(first) }
        var text: [UInt8] = []
        for number in 1..<parts.count {
            guard let body = parts[number] else { return nil }
            text += body
            if let space = text.firstIndex(of: 0x20) { return Self.key(text[..<space]) }
            if body.count < MeetingParts.textPerPart { return Self.key(text[...]) }
        }
        return nil
    }

    private static func key(_ bytes: ArraySlice<UInt8>) -> String? {
        guard let word = String(validating: bytes, as: UTF8.self) else { return nil }
        return Story(line: word).key
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
        guard MeetingState.checksum(text) == checksum, let title = MeetingParts.title(ofAir: text[...]) else { return nil }
        return MeetingState.meeting(state: state[0..<3], text: title[...], now: now)
    }
}
