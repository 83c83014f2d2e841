/// Where the connection to the broker stands, in words a person can act on.
public enum BrokerState: Equatable, Sendable, CustomStringConvertible {
    /// The first connection is being made.
    case connecting
    case connected
    /// Not connected; trying again after a delay (with why).
    case reconnecting(String)
    /// The broker, or TLS, said no: bad credentials, not authorised, an
    /// untrusted or mismatched certificate. Retrying alone will not fix it.
    case refused(String)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case let .reconnecting(why): "reconnecting (\(why))"
        case let .refused(why): "refused (\(why))"
        }
    }
}
