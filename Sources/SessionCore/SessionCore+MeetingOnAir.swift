import EstimatorKit

/// My meeting as it goes out (docs/PROTOCOL.md, Meeting): in parts beside
/// my local name on the air, whole beside it through the relay. Both carry
/// my round's number, so without a round there is nothing to send.
extension SessionCore {
    /// My meeting's parts, in the order the advertisement carries them;
    /// none while I have no round.
    package var meetingParts: [[UInt8]] {
        round.current.map { MeetingParts.encode(meeting, round: $0) } ?? []
    }

    /// My meeting whole, as the relay publishes it after my local name;
    /// empty while I have no round.
    package var wholeMeeting: [UInt8] {
        round.current.map { RelayPayload.encodeMeeting(meeting, round: $0) } ?? []
    }
}
