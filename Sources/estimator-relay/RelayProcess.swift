import EstimatorKit
import Glibc
import Relay
import RelayBridging

/// The relay process: connects to the broker, tells the session (over the
/// ready descriptor) whether that worked, then carries packets between the
/// session's control socket and the broker from one `poll` loop until the
/// session ends, and clears what it published on the way out.
final class RelayProcess {
    /// How long the first connection may take before `join` is answered.
    static let firstConnectLimit: Duration = .seconds(10)
    /// How long the clearing publishes may take when leaving.
    static let leaveLimit: Duration = .seconds(2)

    private let arguments: RelayArguments
    private let address: BrokerAddress
    /// Whether a password was given, for the sentence of a refused login.
    private let passwordGiven: Bool
    private let client: BrokerClient
    private var bridge: RelayBridge
    private var link: SessionLink?
    /// SIGTERM, SIGINT and SIGHUP, blocked and looked for after each poll
    /// (it waits at most half a second): each ends the relay cleanly.
    private var signals = sigset_t()

    init(_ arguments: RelayArguments) throws(RelayFailure) {
        self.arguments = arguments
        address = try arguments.address()
        var random = SystemRandomNumberGenerator()
        let id = Hex.text((0..<8).map { _ in UInt8.random(in: 0...255, using: &random) })
        let password = try arguments.password()
        passwordGiven = password != nil
        var options = BrokerOptions(address: address, clientID: "estimator-\(id)", user: arguments.user,
                                    password: password, caFile: arguments.caFile)
        options.keepAlive = 10
        do { client = try BrokerClient(options: options) } catch { throw RelayFailure(70, error.description + ".") }
        client.maximumPayload = RelayBridge.maximumPayload
        bridge = RelayBridge(room: address.path, id: id, channel: arguments.channel,
                             staleAfter: .seconds(arguments.staleSeconds))
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
        sigprocmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        client.setWill(topic: bridge.myTopic, payload: [], retain: true)
        client.onConnected = { [unowned self] in
            client.subscribe(bridge.subscription)
            perform(bridge.republish())
        }
        client.onMessage = { [unowned self] message in perform(bridge.received(message, now: .now)) }
        client.onState = { [unowned self] state in
            if state != .connected { bridge.disconnected() }
            log("relay: \(address) \(state)")
            link?.send(.relay(state: "\(address) \(state)", connected: state == .connected))
        }
    }

    /// Runs until the session ends; returns the exit code.
    func run() -> Int32 {
        client.connect()
        let deadline = ContinuousClock.now + Self.firstConnectLimit
        while client.state == .connecting, ContinuousClock.now < deadline {
            guard pollOnce(limit: deadline - .now) else { return 0 }
        }
        let first: ControlReply
        switch client.state {
        case .connected:
            first = ControlReply(exitCode: 0, message: "relay connected to \(address)")
        case let .refused(refusal):
            first = ControlReply(exitCode: 77, message: refusal.sentence(address: address, passwordGiven: passwordGiven,
                                                                         caFile: arguments.caFile))
        case let .reconnecting(why):
            first = ControlReply(exitCode: 0, message: "relay \(address) not reachable yet (\(why)); retrying")
        case .connecting:
            first = ControlReply(exitCode: 0, message: "relay \(address) not answering yet; retrying")
        }
        ready(first)
        guard first.exitCode == 0 else { return first.exitCode }
        guard let link = SessionLink(path: arguments.socket) else {
            log("relay: no session at \(arguments.socket)")
            finish()
            return 69
        }
        self.link = link
        link.send(.relay(state: "\(address) \(client.state)", connected: client.state == .connected))
        while pollOnce(limit: .milliseconds(500)) {
            perform(bridge.tick(now: .now))
        }
        finish()
        return 0
    }

    /// One round of the loop; false once the session has ended.
    private func pollOnce(limit: Duration) -> Bool {
        var fds: [pollfd] = []
        if let link { fds.append(pollfd(fd: link.descriptor, events: Int16(POLLIN) | (link.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        let brokerFD = client.descriptor
        if let brokerFD { fds.append(pollfd(fd: brokerFD, events: Int16(POLLIN) | (client.wantsWrite ? Int16(POLLOUT) : 0), revents: 0)) }
        let wait = min(limit, client.timeout())
        let ms = Int32(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        _ = poll(&fds, nfds_t(fds.count), max(ms, 0))
        var none = timespec()
        if sigtimedwait(&signals, nil, &none) > 0 { return false }
        if brokerFD != nil {
            let revents = fds[fds.count - 1].revents
            client.service(readable: revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
                           writable: revents & Int16(POLLOUT) != 0 || client.wantsWrite)
        } else {
            client.service(readable: false, writable: false)
        }
        guard let link else { return true }
        let revents = fds[0].revents
        if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            guard let lines = link.read() else { return false }
            for line in lines {
                // Lines that are not stream lines are answers to a request
                // the session refused; the session logs those itself.
                guard let parsed = try? ControlWatchLine(parsing: line) else { continue }
                switch parsed {
                case let .me(channel, name, _, _, onAir, meeting, _, _):
                    let payload = onAir.isEmpty ? [] : RelayPayload(localName: onAir, meeting: meeting).bytes
                    perform(bridge.me(channel: Channel(rawValue: channel), name: name, payload: payload, now: .now))
                case let .heard(localName, _, relayed, _):
                    perform(bridge.heard(localName, relayed: relayed, now: .now))
                case .radio, .table, .seen, .change: break
                case .ended: return false
                }
            }
        }
        return link.flush()
    }

    private func perform(_ actions: [RelayBridge.Action]) {
        for action in actions {
            switch action {
            case let .publish(topic, payload, expiry): client.publish(topic: topic, payload: payload, retain: true, expiry: expiry)
            case let .will(topic): client.setWill(topic: topic, payload: [], retain: true)
            case .reconnect: client.reconnect()
            case let .relay(payload): link?.send(.relayed(payload: payload))
            }
        }
    }

    /// Clears what I published and disconnects cleanly (no last will).
    private func finish() {
        perform(bridge.leave())
        client.finish(within: Self.leaveLimit)
        log("relay: left \(address)")
    }

    private func ready(_ reply: ControlReply) {
        log(reply.message)
        guard let fd = arguments.readyFD else { return }
        let line = Array((reply.serialized + "\n").utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private func log(_ text: String) {
        let line = Array((TerminalText.sanitize(text) + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
