/// How a session without a round says it is finding its room
/// (docs/PROTOCOL.md, Finding a room): what `RoomChoice` reads from the
/// peers it hears.
public enum RoomFinding: Hashable, Sendable {
    /// Listening before it settles (`02`): its channel is only tentative.
    case choosing
    /// In a room it found less than a minute ago (`03`): the room is being
    /// set up, and others who look for a room now join it.
    case found

    /// The version field that says it.
    public var version: Packet.Version {
        switch self {
        case .choosing: .choosing
        case .found: .found
        }
    }
}
