import EstimatorKit

/// What came of each peer's meeting with its local name (docs/PROTOCOL.md,
/// Meeting): one part over the air, put together with the peer's others
/// (`MeetingAssembler`), or the whole meeting through the relay. A session
/// and a watch without one hear meetings alike.
struct MeetingsHeard: Sendable {
    /// Most peers whose parts are kept: a channel's peers, and more; a
    /// flood of names only empties them.
    static let kept = 128

    private var assemblers: [PeerID: MeetingAssembler] = [:]

    /// Takes `bytes` heard from `peer` at `now`; returns the peer's meeting
    /// and its round once it is known (`MeetingAssembler.take`).
    mutating func take(_ bytes: [UInt8], relayed: Bool, from peer: PeerID, now: Timestamp) -> MeetingAssembler.Heard? {
        if relayed { return RelayPayload.decodeMeeting(bytes, now: now) }
        if assemblers[peer] == nil, assemblers.count >= Self.kept { assemblers.removeAll(keepingCapacity: true) }
        return assemblers[peer, default: MeetingAssembler()].take(bytes, now: now)
    }
}
