import CMosquitto
import Glibc
import Retry

/// One connection to an MQTT broker through libmosquitto, driven by the
/// caller's own `poll` loop: `descriptor`, `wantsWrite` and `timeout` say
/// what to wait for, `service` does the work. Single-threaded: every call,
/// and every callback, happens on the thread that calls `service`.
///
/// It keeps the connection up by itself: a failed or lost connection is
/// tried again after a `Backoff` delay (with jitter), and `onConnected`
/// runs after each (re)connection so that the owner subscribes and
/// publishes its state again (a restarted broker may have forgotten it).
public final class BrokerClient {
    /// Called with every change of `state`.
    public var onState: (BrokerState) -> Void = { _ in }
    /// Called once the broker has accepted each connection.
    public var onConnected: () -> Void = {}
    /// Called with each message whose topic and payload are within the caps.
    public var onMessage: (BrokerMessage) -> Void = { _ in }

    public private(set) var state: BrokerState = .connecting
    /// Longest payload passed to `onMessage`; longer ones are dropped unread.
    public var maximumPayload = 256

    private let handle: OpaquePointer
    private let options: BrokerOptions
    private var backoff = Backoff()
    private var retryAt: ContinuousClock.Instant?
    /// Publishes at QoS 1 the broker has not acknowledged yet.
    private var unacknowledged: Set<Int32> = []
    private var closing = false

    private static let library: Int32 = mosquitto_lib_init()

    public init(options: BrokerOptions) throws(BrokerSetupError) {
        _ = Self.library
        guard let handle = mosquitto_new(options.clientID, true, nil) else {
            throw BrokerSetupError("Cannot create an MQTT client (\(String(cString: strerror(errno))))")
        }
        self.handle = handle
        self.options = options
        // MQTT 5 for its message expiry (see `publish`).
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_connect_callback_set(handle) { _, user, code in BrokerClient.client(user)?.accepted(code: code) }
        mosquitto_disconnect_callback_set(handle) { _, user, code in BrokerClient.client(user)?.lost(code: code) }
        mosquitto_publish_callback_set(handle) { _, user, id in BrokerClient.client(user)?.unacknowledged.remove(id) }
        mosquitto_message_v5_callback_set(handle) { _, user, message, properties in
            guard let client = BrokerClient.client(user), let message else { return }
            var seconds: UInt32 = 0
            let expiry = mosquitto_property_read_int32(properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue),
                                                       &seconds, false) != nil ? Duration.seconds(seconds) : nil
            client.received(message.pointee, expiry: expiry)
        }
        if let user = options.user {
            guard mosquitto_username_pw_set(handle, user, options.password) == Self.success else {
                throw BrokerSetupError("The relay user name is not valid UTF-8")
            }
        }
        if options.address.usesTLS {
            let code: Int32
            if let caFile = options.caFile {
                code = mosquitto_tls_set(handle, caFile, nil, nil, nil, nil)
            } else {
                code = mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
            }
            guard code == Self.success else {
                throw BrokerSetupError("Cannot use the CA file \(options.caFile ?? "") (\(Self.words(code)))")
            }
        }
    }

    deinit { mosquitto_destroy(handle) }

    private static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
    /// Most packets read or written in one call of the loop.
    private static let packetsPerCall: Int32 = 64

    private static func client(_ user: UnsafeMutableRawPointer?) -> BrokerClient? {
        user.map { Unmanaged<BrokerClient>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Sets the message the broker publishes for us if we vanish without a
    /// clean disconnect; it applies from the next connection on.
    public func setWill(topic: String, payload: [UInt8], retain: Bool) {
        _ = payload.withUnsafeBytes { bytes in
            mosquitto_will_set(handle, topic, Int32(bytes.count), bytes.baseAddress, 1, retain)
        }
    }

    /// Makes the first connection (or the next one, now).
    public func connect() {
        retryAt = nil
        let address = options.address
        let code = mosquitto_connect(handle, address.host, Int32(address.port), options.keepAlive)
        switch code {
        case Self.success:
            return  // the broker's answer (CONNACK) arrives through `service`
        case Int32(MOSQ_ERR_TLS.rawValue):
            fail(.refused(.untrustedCertificate(host: address.host)))
        case Int32(MOSQ_ERR_ERRNO.rawValue):
            fail(.reconnecting(String(cString: strerror(errno))))
        default:
            fail(.reconnecting(Self.words(code)))
        }
    }

    /// Drops the connection and makes a new one at once: after `setWill`.
    public func reconnect() {
        closing = true
        mosquitto_disconnect(handle)
        closing = false
        connect()
    }

    /// The socket to poll, or nil while not connected.
    public var descriptor: Int32? {
        let fd = mosquitto_socket(handle)
        return fd >= 0 ? fd : nil
    }

    /// Whether the socket has output waiting (poll it for POLLOUT too).
    public var wantsWrite: Bool { mosquitto_want_write(handle) }

    /// How long the caller's poll may wait before `service` is due.
    public func timeout(now: ContinuousClock.Instant = .now) -> Duration {
        guard let retryAt else { return .seconds(1) }
        return max(.zero, min(.seconds(1), retryAt - now))
    }

    /// Reads, writes, keeps the connection alive, and tries again when due.
    public func service(readable: Bool, writable: Bool, now: ContinuousClock.Instant = .now) {
        if descriptor != nil {
            // Up to the socket's EAGAIN: TLS keeps decrypted packets of its
            // own that poll does not see, so reading one packet per wake-up
            // would leave the rest until the next one.
            if readable { check(mosquitto_loop_read(handle, Self.packetsPerCall)) }
            if writable, descriptor != nil { check(mosquitto_loop_write(handle, Self.packetsPerCall)) }
            if descriptor != nil { check(mosquitto_loop_misc(handle)) }
        } else if let retryAt, retryAt <= now {
            connect()
        }
    }

    /// Publishes at QoS 1. With `expiry`, the broker drops the message
    /// once it is that old (MQTT 5 message expiry; whole seconds, at least
    /// one), a retained one too: what a publisher killed without a last
    /// word left behind vanishes by itself. Returns false when not
    /// connected (the owner publishes its state again in `onConnected`).
    @discardableResult
    public func publish(topic: String, payload: [UInt8], retain: Bool, expiry: Duration? = nil) -> Bool {
        var id: Int32 = 0
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let expiry {
            let seconds = UInt32(clamping: max(1, expiry.components.seconds))
            guard mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), seconds)
                == Self.success else { return false }
        }
        let code = payload.withUnsafeBytes { bytes in
            mosquitto_publish_v5(handle, &id, topic, Int32(bytes.count), bytes.baseAddress, 1, retain, properties)
        }
        guard code == Self.success else { return false }
        unacknowledged.insert(id)
        return true
    }

    public func subscribe(_ filter: String) {
        mosquitto_subscribe(handle, nil, filter, 1)
    }

    /// Waits (up to `limit`) until the broker has acknowledged every publish,
    /// then disconnects cleanly, so the last will is not sent.
    public func finish(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while descriptor != nil, !unacknowledged.isEmpty, ContinuousClock.now < deadline { pollOnce(until: deadline) }
        closing = true
        mosquitto_disconnect(handle)
        while descriptor != nil, ContinuousClock.now < deadline { pollOnce(until: deadline) }
    }

    private func pollOnce(until deadline: ContinuousClock.Instant) {
        guard let fd = descriptor else { return }
        var entry = pollfd(fd: fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
        let left = deadline - .now
        let ms = Int32(max(0, min(100, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
        _ = poll(&entry, 1, ms)
        service(readable: entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
                writable: entry.revents & Int16(POLLOUT) != 0)
    }

    /// Acts on what a loop call returned: a failed handshake, a lost or
    /// refused connection closes the socket and schedules the next try.
    private func check(_ code: Int32) {
        guard code != Self.success, !closing else { return }
        if code == Int32(MOSQ_ERR_TLS.rawValue) {
            fail(.refused(.untrustedCertificate(host: options.address.host)))
        } else if descriptor == nil || code == Int32(MOSQ_ERR_CONN_LOST.rawValue) || code == Int32(MOSQ_ERR_CONN_REFUSED.rawValue) {
            fail(.reconnecting(code == Int32(MOSQ_ERR_ERRNO.rawValue) ? String(cString: strerror(errno)) : "connection lost"))
        } else {
            return
        }
        closing = true
        mosquitto_disconnect(handle)
        closing = false
    }

    private func accepted(code: Int32) {
        guard code == 0 else {
            // CONNACK reason codes of MQTT 5 (and the return codes of
            // 3.1.1, which a broker of that version answers with).
            let why: BrokerRefusal = switch code {
            case 1, 132: .other("the broker does not speak MQTT 5")
            case 2, 133: .other("the broker refused the client id")
            case 3, 136, 137: .other("the broker is unavailable")
            case 4, 134: .login("bad user name or password")
            case 5, 135: .login("not authorised")
            default: .other("CONNACK \(code)")
            }
            fail(.refused(why))
            return
        }
        backoff.reset()
        set(.connected)
        onConnected()
    }

    private func lost(code: Int32) {
        unacknowledged.removeAll()
        guard !closing, code != 0 else { return }
        fail(.reconnecting("connection lost"))
    }

    private func received(_ message: mosquitto_message, expiry: Duration?) {
        guard let topic = message.topic else { return }
        let length = strnlen(topic, Topic.maximumLength + 1)
        guard length <= Topic.maximumLength, message.payloadlen >= 0, Int(message.payloadlen) <= maximumPayload
        else { return }
        let topicBytes = Array(UnsafeRawBufferPointer(start: topic, count: length))
        let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        onMessage(BrokerMessage(topic: topicBytes, payload: payload, retained: message.retain, expiry: expiry))
    }

    /// One failure, one delay: a refusal or a loss is often reported twice
    /// (a callback, then the loop call's result), and the first says why.
    private func fail(_ newState: BrokerState) {
        guard retryAt == nil else { return }
        retryAt = .now + backoff.next()
        set(newState)
    }

    private func set(_ newState: BrokerState) {
        guard newState != state else { return }
        state = newState
        onState(newState)
    }

    private static func words(_ code: Int32) -> String { String(cString: mosquitto_strerror(code)) }
}
