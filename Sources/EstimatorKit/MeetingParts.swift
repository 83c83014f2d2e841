/// A round's meeting cut into the parts a session's advertisement carries
/// one at a time, as manufacturer data beside the local name
/// (docs/PROTOCOL.md, Meeting). Each part is at most 6 bytes, its first
/// `P<<4 | R` (part number, round modulo 16). Part 0 is the state: the
/// state bytes, the story text's length and its checksum; parts 1 to 15
/// the story's text, 5 bytes each, at most 75 in all.
public enum MeetingParts {
    /// Longest part, in bytes: what fits beside the service UUID in 31
    /// bytes of advertising data.
    public static let maximumLength = 6
    /// Story text bytes in each part after part 0.
    static let textPerPart = 5

    /// `meeting` of `round` as parts, in the order they go on the air:
    /// the story's parts first, then part 0; part 0 alone without a story.
    public static func encode(_ meeting: RoundMeeting, round: RoundNumber) -> [[UInt8]] {
        let text = MeetingState.text(of: meeting, limit: MeetingState.maximumAirText)
        var parts: [[UInt8]] = []
        for (index, start) in stride(from: 0, to: text.count, by: textPerPart).enumerated() {
            let number = UInt8(index + 1)
            parts.append([number << 4 | round.value] + text[start..<min(start + textPerPart, text.count)])
        }
        let state = MeetingState.bytes(of: meeting, hasText: !text.isEmpty)
        return parts + [[round.value] + state + [UInt8(text.count), MeetingState.checksum(text)]]
    }

    /// How many parts carry a story text of `length` bytes.
    static func textParts(_ length: Int) -> Int { (length + textPerPart - 1) / textPerPart }
}
