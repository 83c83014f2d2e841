/// Where the broker is and which topic prefix to use, from a URL such as
/// `mqtts://broker.example:8883/room`: TLS (`mqtts`, port 8883 by default)
/// or plain TCP (`mqtt`, 1883), the host, and one topic level (the path).
public struct BrokerAddress: Equatable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var usesTLS: Bool
    /// The URL's path without its slash: one topic level, never empty.
    public var path: String

    public init(host: String, port: Int, usesTLS: Bool, path: String) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
        self.path = path
    }

    /// Parses `mqtts://HOST[:PORT]/LEVEL` or `mqtt://…`.
    public init(parsing url: String) throws(BrokerAddressError) {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst("mqtts://".count)
        } else if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst("mqtt://".count)
        } else {
            throw .scheme
        }
        guard let slash = rest.firstIndex(of: "/") else { throw .missingPath }
        let authority = rest[..<slash]
        let path = String(rest[rest.index(after: slash)...])
        guard Topic.isValidLevel(path) else { throw .invalidPath }
        var host = Substring(authority)
        var port = tls ? 8883 : 1883
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = authority[..<colon]
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number)
            else { throw .invalidPort }
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, host.utf8.count <= 253,
              host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "@") && $0 != UInt8(ascii: "/") })
        else { throw .invalidHost }
        self.init(host: String(host), port: port, usesTLS: tls, path: path)
    }

    /// The URL again, as given (without credentials, which it never holds).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(shownHost):\(port)/\(path)"
    }
}

/// Why a broker URL is refused; each case is one sentence.
public enum BrokerAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    case scheme, missingPath, invalidPath, invalidPort, invalidHost

    public var description: String {
        switch self {
        case .scheme: "A relay URL starts with mqtts:// (TLS) or mqtt:// (plain, unencrypted)."
        case .missingPath: "A relay URL ends with the room, as in mqtts://broker.example:8883/team-room."
        case .invalidPath: "The room in a relay URL is 1 to 64 bytes without /, +, # or control characters."
        case .invalidPort: "The port in a relay URL is a number from 1 to 65535."
        case .invalidHost: "The host in a relay URL is a name or an address without spaces or @."
        }
    }
}
