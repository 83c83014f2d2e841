/// A round's meeting cut into the parts a session's advertisement carries
/// one at a time, as manufacturer data beside the local name
/// (docs/PROTOCOL.md, Meeting). Each part is at most 6 bytes, its first
/// `P<<4 | R` (part number, round modulo 16). Part 0 is the state: the
/// state bytes, the story text's length and its checksum; parts 1 to 15
/// the story's text, 5 bytes each, at most 75 in all. A key that packs
/// (`PackedKey`) is the text's first 5 bytes, the summary after it: part 1
/// alone then holds the key.
public enum MeetingParts {
    /// Longest part, in bytes: what fits beside the service UUID in 31
    /// bytes of advertising data.
    public static let maximumLength = 6
    /// Story text bytes in each part after part 0.
    static let textPerPart = 5

    /// `meeting` of `round` as parts, in the order they go on the air:
    /// the story's parts first, then part 0; part 0 alone without a story.
    public static func encode(_ meeting: RoundMeeting, round: RoundNumber) -> [[UInt8]] {
        let text = airText(of: meeting)
        var parts: [[UInt8]] = []
        for (index, start) in stride(from: 0, to: text.count, by: textPerPart).enumerated() {
            let number = UInt8(index + 1)
            parts.append([number << 4 | round.value] + text[start..<min(start + textPerPart, text.count)])
        }
        let state = MeetingState.bytes(of: meeting, hasText: !text.isEmpty)
        return parts + [[round.value] + state + [UInt8(text.count), MeetingState.checksum(text)]]
    }

    /// The story's text on the air: its key packed, then its summary, when
    /// the key packs; else its title (`MeetingState.text`).
    static func airText(of meeting: RoundMeeting) -> [UInt8] {
        guard let story = meeting.story, let key = story.key, let packed = PackedKey.pack(key) else {
            return MeetingState.text(of: meeting, limit: MeetingState.maximumAirText)
        }
        return packed + MeetingState.cut(story.summary, to: MeetingState.maximumAirText - PackedKey.length)
    }

    /// The story's title in the air's `text`, its packed key written out;
    /// nil when it begins with a packed key that is not one.
    static func title(ofAir text: ArraySlice<UInt8>) -> [UInt8]? {
        guard let first = text.first, PackedKey.isMarker(first) else { return Array(text) }
        guard let key = PackedKey.unpack(text.prefix(PackedKey.length)) else { return nil }
        let summary = text.dropFirst(PackedKey.length)
        return Array(key.utf8) + (summary.isEmpty ? [] : [0x20] + summary)
    }

    /// How many parts carry a story text of `length` bytes.
    static func textParts(_ length: Int) -> Int { (length + textPerPart - 1) / textPerPart }
}
