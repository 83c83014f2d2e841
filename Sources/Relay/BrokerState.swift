/// Where the connection to the broker stands, in words a person can act on.
public enum BrokerState: Equatable, Sendable, CustomStringConvertible {
    /// The first connection is being made.
    case connecting
    case connected
    /// Not connected; trying again after a delay (with why).
    case reconnecting(String)
    /// The broker, or TLS, said no: bad credentials, not authorised, an
    /// untrusted or mismatched certificate. Retrying alone will not fix it.
    case refused(BrokerRefusal)

    public var description: String {
        switch self {
        case .connecting: "connecting"
        case .connected: "connected"
        case let .reconnecting(why): "reconnecting (\(why))"
        case let .refused(why): "refused (\(why))"
        }
    }
}

/// Why the broker, or TLS, said no: each kind has its own fix.
public enum BrokerRefusal: Equatable, Sendable, CustomStringConvertible {
    /// The broker refused the login (CONNACK): the user name, the password,
    /// or this user's right to connect; with the broker's reason.
    case login(String)
    /// The TLS handshake failed: the broker's certificate is not trusted for
    /// `host` by the CAs the client verifies with.
    case untrustedCertificate(host: String)
    /// Anything else the broker refuses a connection for.
    case other(String)

    public var description: String {
        switch self {
        case let .login(why), let .other(why): why
        case let .untrustedCertificate(host): "TLS handshake failed: the broker's certificate is not trusted for \(host)"
        }
    }
}
