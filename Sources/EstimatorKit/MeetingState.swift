/// What the air's parts and the relay's whole meeting share of a meeting's
/// encoding (docs/PROTOCOL.md, Meeting): the state bytes (change, source,
/// agreed estimate or deadline), the story's text and its checksum.
enum MeetingState {
    /// Longest story text on the air, in bytes: 15 parts of 5.
    static let maximumAirText = 75

    /// The three state bytes: `change<<4 | source<<2 | hasAgreed<<1 |
    /// hasDeadline`, then the card and 0x00 once agreed (a deadline no
    /// longer matters then), or the deadline's whole Unix seconds modulo
    /// 65536, big-endian, or 0x00 0x00.
    static func bytes(of meeting: RoundMeeting, hasText: Bool) -> [UInt8] {
        let source = hasText ? meeting.source.rawValue : RoundMeeting.Source.none.rawValue
        var first = meeting.change << 4 | source << 2
        if let agreed = meeting.agreed {
            return [first | 0b10, agreed.rawValue, 0x00]
        }
        if let deadline = meeting.deadline {
            first |= 0b01
            let seconds = UInt16(truncatingIfNeeded: deadline.nanosecondsSince1970 / 1_000_000_000)
            return [first, UInt8(seconds >> 8), UInt8(truncatingIfNeeded: seconds)]
        }
        return [first, 0x00, 0x00]
    }

    /// The story's text as sent: `Story.title` in UTF-8, cut to `limit`
    /// bytes at a character's end (key first, so the key comes whole);
    /// empty without a story.
    static func text(of meeting: RoundMeeting, limit: Int) -> [UInt8] {
        cut(meeting.story?.title ?? "", to: limit)
    }

    /// `string` in UTF-8, cut to `limit` bytes at a character's end.
    static func cut(_ string: String, to limit: Int) -> [UInt8] {
        var text: [UInt8] = []
        for character in string {
            let bytes = Array(character.utf8)
            guard text.count + bytes.count <= limit else { break }
            text += bytes
        }
        return text
    }

    /// FNV-1a (32 bits) of `text`, folded to 8 bits by xor of its bytes.
    static func checksum(_ text: some Collection<UInt8>) -> UInt8 {
        let hash = FNV1a.hash32(text)
        return UInt8(truncatingIfNeeded: hash ^ hash >> 8 ^ hash >> 16 ^ hash >> 24)
    }

    /// The meeting the state bytes `state` (three) and the story's `text`
    /// say, with the deadline taken nearest `now`; nil for a layout no
    /// sender writes, or a text that is not UTF-8 or holds no story once
    /// sanitised (`Story.init(line:)`: it reaches terminals).
    static func meeting(state: ArraySlice<UInt8>, text: ArraySlice<UInt8>, now: Timestamp) -> RoundMeeting? {
        guard state.count == 3 else { return nil }
        let first = state[state.startIndex], second = state[state.startIndex + 1], third = state[state.startIndex + 2]
        guard let source = RoundMeeting.Source(rawValue: first >> 2 & 0b11) else { return nil }
        let hasAgreed = first & 0b10 != 0, hasDeadline = first & 0b01 != 0
        var agreed: Card?
        var deadline: Timestamp?
        switch (hasAgreed, hasDeadline) {
        case (true, true): return nil
        case (true, false):
            guard third == 0 else { return nil }
            agreed = Card(rawValue: second)
        case (false, true): deadline = nearest(UInt16(second) << 8 | UInt16(third), to: now)
        case (false, false): guard second == 0, third == 0 else { return nil }
        }
        var story: Story?
        if source == .none {
            guard text.isEmpty else { return nil }
        } else {
            guard let line = String(validating: text, as: UTF8.self) else { return nil }
            let told = Story(line: line)
            guard !told.title.isEmpty else { return nil }
            story = told
        }
        return RoundMeeting(story: story, source: source, change: first >> 4, deadline: deadline, agreed: agreed)
    }

    /// The whole second whose Unix seconds modulo 65536 are `seconds`,
    /// nearest `now` (within about 9 hours either way).
    static func nearest(_ seconds: UInt16, to now: Timestamp) -> Timestamp {
        let nowSeconds = now.nanosecondsSince1970 / 1_000_000_000
        let offset = Int16(bitPattern: seconds &- UInt16(truncatingIfNeeded: nowSeconds))
        return Timestamp(secondsSince1970: nowSeconds + Int64(offset))
    }
}
