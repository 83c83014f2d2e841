/// What a session publishes through the relay (docs/PROTOCOL.md, Meeting):
/// its local name, then a 0x00 and its whole meeting. The relay hands it on
/// as it is; a payload without 0x00 is a local name alone. Names never hold
/// 0x00 (refused when typed), so a hostile payload's first 0x00 splits it.
public struct RelayPayload: Hashable, Sendable {
    /// The local name's bytes (the app's packet).
    public var localName: [UInt8]
    /// The whole meeting (`encodeMeeting`); empty when none came.
    public var meeting: [UInt8]

    /// Longest payload the relay passes on: a local name
    /// (`maximumLocalName`), the 0x00 and a whole meeting (`maximumMeetingText`).
    public static let maximumLength = 1024
    /// Longest local name the relay passes on: more than any advertisement
    /// holds (31 bytes of advertising data).
    public static let maximumLocalName = 32
    /// Longest story text in a whole meeting, in bytes: more than a story
    /// holds in any tracker's key and summary in every script but a few.
    static let maximumMeetingText = 960

    public init(localName: [UInt8], meeting: [UInt8]) {
        self.localName = localName
        self.meeting = meeting
    }

    /// `payload` split at its first 0x00.
    public init(splitting payload: [UInt8]) {
        guard let nul = payload.firstIndex(of: 0) else {
            self.init(localName: payload, meeting: [])
            return
        }
        self.init(localName: Array(payload[..<nul]), meeting: Array(payload[(nul + 1)...]))
    }

    /// The payload's bytes: the local name alone when no meeting comes with it.
    public var bytes: [UInt8] { meeting.isEmpty ? localName : localName + [0] + meeting }

    /// `meeting` of `round` whole: `0<<4 | R`, the state bytes, the story
    /// text's checksum, then the text (`Story.title`, up to
    /// `maximumMeetingText` bytes).
    public static func encodeMeeting(_ meeting: RoundMeeting, round: RoundNumber) -> [UInt8] {
        let text = MeetingState.text(of: meeting, limit: maximumMeetingText)
        return [round.value] + MeetingState.bytes(of: meeting, hasText: !text.isEmpty) + [MeetingState.checksum(text)] + text
    }

    /// The whole meeting in `bytes` and its round, its deadline taken
    /// nearest `now`; nil when it is not one (the same rules as the air's
    /// parts: `MeetingAssembler`).
    public static func decodeMeeting(_ bytes: [UInt8], now: Timestamp) -> MeetingAssembler.Heard? {
        guard bytes.count >= 5, bytes.count - 5 <= maximumMeetingText, bytes[0] >> 4 == 0 else { return nil }
        let text = bytes[5...]
        guard MeetingState.checksum(text) == bytes[4],
              let meeting = MeetingState.meeting(state: bytes[1..<4], text: text, now: now) else { return nil }
        return (RoundNumber(wrapping: Int(bytes[0])), meeting)
    }
}
