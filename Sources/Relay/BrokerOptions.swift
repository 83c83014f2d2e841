/// How to reach and log in to a broker.
public struct BrokerOptions: Sendable {
    public var address: BrokerAddress
    /// The MQTT client id; unique per connection.
    public var clientID: String
    public var user: String?
    public var password: String?
    /// A CA certificate file to verify the broker with instead of the
    /// system's CAs (TLS only).
    public var caFile: String?
    /// Seconds between keep-alive pings; the broker declares us dead (and
    /// sends the last will) after one and a half of them without a word.
    public var keepAlive: Int32 = 10

    public init(address: BrokerAddress, clientID: String, user: String? = nil, password: String? = nil,
                caFile: String? = nil) {
        self.address = address
        self.clientID = clientID
        self.user = user
        self.password = password
        self.caFile = caFile
    }
}

/// A message the broker delivered. Every field is untrusted.
public struct BrokerMessage: Equatable, Sendable {
    public var topic: [UInt8]
    public var payload: [UInt8]
    public var retained: Bool
    /// What is left of the message's expiry interval (MQTT 5), as the broker
    /// delivers it: how much longer the broker keeps it; nil when the
    /// publisher gave none.
    public var expiry: Duration?

    public init(topic: [UInt8], payload: [UInt8], retained: Bool, expiry: Duration? = nil) {
        self.topic = topic
        self.payload = payload
        self.retained = retained
        self.expiry = expiry
    }
}

/// Why the client could not be set up at all.
public struct BrokerSetupError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
