import EstimatorKit
import Glibc
import Synchronization
import Threads

/// The session's control socket: a Unix stream socket serving JSON-line
/// requests to many clients at once, its descriptors served by the
/// session's loop (`SessionLoop`), so a request is read and handed on on
/// the thread that runs the session.
///
/// Every socket is non-blocking, so a client that never finishes its line,
/// never reads its replies, or floods the socket only costs its own buffer
/// (bounded) and never holds up the others. A client of another uid is
/// refused on connect (`SO_PEERCRED`).
///
/// A request line must arrive whole within `requestDeadline` of the
/// connection or of its first byte, or the client is told so and closed:
/// connections that say nothing cannot hold the slots. When every slot is
/// taken, the oldest client still without a request gives its slot to the
/// newcomer, so the user's own command is answered even then; only clients
/// that asked something (a `watch` streaming) keep theirs.
package final class ControlServer: LoopSource {
    /// Identifies one connected client for replies and streams.
    package struct ClientID: Hashable, Sendable { let value: UInt64 }

    /// Called on the loop's thread for each well-formed request; must not block.
    package typealias Handler = @Sendable (ControlRequest, ClientID) -> Void

    /// Clients beyond this are accepted and closed at once, bounding descriptors.
    package static let maximumClients = 256
    /// Replies and streams queued for a client that does not read; past this the client is dropped.
    static let maximumPendingOutput = 1 << 20
    /// How long a client has to send a whole request line: every command
    /// sends its own at once, so a few seconds only ever wait for a
    /// connection that is not a command.
    package static let defaultRequestDeadline = Duration.seconds(3)

    private struct Client {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var closeWhenFlushed = false
        /// False once the client has sent end of stream or broken the protocol.
        var reading = true
        /// When the line the client is sending began (its connection, or
        /// the first byte after its last whole line); nil with no line begun
        /// after a whole one.
        var lineBegan: ContinuousClock.Instant?
        /// Whether it has sent a whole request: such a client keeps its slot.
        var asked = false
    }

    private struct State {
        var clients: [ClientID: Client] = [:]
        var nextID: UInt64 = 0
        var started = false
        var ended = false
        /// Set once the socket file is removed (`stopAccepting`).
        var unlinked = false
        /// The clients whose descriptors the loop polls now, in order after the listener's.
        var polled: [ClientID] = []
        /// Whether a task sleeps until the next line's deadline.
        var sweeping = false
    }

    package let path: String
    private let listener: Int32
    private let loop: SessionLoop
    private let allowedUID: uid_t
    private let handler: Handler
    private let requestDeadline: Duration
    private let state = Mutex(State())

    /// Binds and listens at `path` (which must not exist), mode 0600;
    /// `start` has `loop` serve it.
    package init(path: String, allowedUID: uid_t = getuid(), loop: SessionLoop,
                 requestDeadline: Duration = defaultRequestDeadline, handler: @escaping Handler) throws(SystemCallError) {
        self.path = path
        self.allowedUID = allowedUID
        self.requestDeadline = requestDeadline
        self.loop = loop
        self.handler = handler
        var address = try UnixAddress(path: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        // Created 0600 from the start: no window in which another user could connect.
        let mask = umask(0o177)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        umask(mask)
        guard bound == 0, listen(fd, 128) == 0 else {
            let error = SystemCallError("bind \(path)")
            close(fd)
            throw error
        }
        listener = fd
    }

    /// Starts serving, on the loop.
    package func start() {
        state.withLock { $0.started = true }
        loop.add(self)
    }

    /// Sends `line` (a newline is added) to a client, or queues it. Returns
    /// false when the client is gone, so a stream can forget it. Safe from
    /// any thread.
    ///
    /// A client with nothing queued is written to at once from the calling
    /// thread: on the loop's, where the session answers, a reply then
    /// costs no wait for `POLLOUT`. The write
    /// happens under the lock, so `drop` cannot close the descriptor in
    /// between, and only with nothing queued, so lines keep their order
    /// whatever `flush` is doing. What the socket does not take is queued
    /// for the loop. A line that ends the connection always goes through
    /// the loop, which closes the client once it is out.
    @discardableResult
    package func send(_ line: String, to id: ClientID, thenClose: Bool = false) -> Bool {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        let (alive, queued) = state.withLock { state -> (Bool, Bool) in
            guard var client = state.clients[id], !client.closeWhenFlushed else { return (false, false) }
            var written = 0
            if client.output.isEmpty, !thenClose { written = Self.writeSome(bytes[...], to: client.fd).written }
            guard written < bytes.count else { return (true, false) }
            client.output.append(contentsOf: bytes[written...])
            client.closeWhenFlushed = thenClose
            state.clients[id] = client
            return (true, true)
        }
        if queued { loop.refresh() }
        return alive
    }

    /// Writes what a non-blocking socket takes of `bytes` now: how much
    /// went, and whether the socket failed rather than filled. After a
    /// direct write in `send` the failure is left to the loop, which meets
    /// it again when it writes the rest, and drops the client.
    private static func writeSome(_ bytes: ArraySlice<UInt8>, to fd: Int32) -> (written: Int, failed: Bool) {
        var written = 0
        while written < bytes.count {
            let n = bytes[(bytes.startIndex + written)...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { written += n; continue }
            if n < 0, errno == EINTR { continue }
            return (written, !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)))
        }
        return (written, false)
    }

    /// Removes the socket file, so no new client finds the session, while
    /// the clients connected now are still answered. An ended session does
    /// this before it releases its adapter's lock and closes its clients: a
    /// command run once `leave` has returned must not find it.
    package func stopAccepting() {
        guard state.withLock({ state in defer { state.unlinked = true }; return !state.unlinked }) else { return }
        unlink(path)
    }

    /// Stops serving: closes every client and the listener, removes the
    /// socket file; returns once all that is done. On the loop's thread, so
    /// the loop is not serving the descriptors it closes.
    package func stop() async {
        guard state.withLock({ $0.started }) else { return shutDown() }
        await withTaskExecutorPreference(loop) { [self] in
            loop.remove(self)
            shutDown()
        }
    }

    // MARK: - On the loop

    package func descriptors() -> [pollfd] {
        state.withLock { state in
            guard !state.ended else { return [] }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            state.polled = []
            for (id, client) in state.clients {
                var events: Int16 = client.reading ? Int16(POLLIN) : 0
                if !client.output.isEmpty { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: client.fd, events: events, revents: 0))
                state.polled.append(id)
            }
            return fds
        }
    }

    package func serve(_ polled: [pollfd]) {
        guard let ids = state.withLock({ $0.ended ? nil : $0.polled }), polled.count == ids.count + 1 else { return }
        if polled[0].revents & Int16(POLLIN) != 0 { acceptClients() }
        for (slot, id) in ids.enumerated() where polled[slot + 1].revents != 0 {
            service(id, revents: polled[slot + 1].revents)
        }
    }

    private func acceptClients() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Descriptor.setNonBlockingCloseOnExec(fd)
            guard peerUID(fd) == allowedUID else {
                // Another user's client is told why, and learns nothing else.
                refuse(fd, ControlReply(UserError(.permission, "This session belongs to another user.")))
                continue
            }
            let now = ContinuousClock.now
            let (admitted, evicted) = state.withLock { state -> (Bool, Client?) in
                var evicted: Client?
                if state.clients.count >= Self.maximumClients {
                    // The slot of the client that has waited longest without asking anything.
                    guard let oldest = state.clients.filter({ !$0.value.asked })
                        .min(by: { ($0.value.lineBegan ?? now) < ($1.value.lineBegan ?? now) })
                    else { return (false, nil) }
                    evicted = state.clients.removeValue(forKey: oldest.key)
                }
                state.nextID += 1
                state.clients[ClientID(value: state.nextID)] = Client(fd: fd, lineBegan: now)
                return (true, evicted)
            }
            if let evicted { refuse(evicted.fd, Self.tooSlow(after: requestDeadline, evicted: true)) }
            if !admitted { refuse(fd, ControlReply(UserError(.unavailable, "The session is busy with too many clients; try again."))) }
        }
        sweepLater()
    }

    /// What a client that sent no whole line in time is told, as it is closed.
    private static func tooSlow(after deadline: Duration, evicted: Bool) -> ControlReply {
        let milliseconds = deadline.components.seconds * 1000 + deadline.components.attoseconds / 1_000_000_000_000_000
        let within = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return ControlReply(UserError(.usage, evicted
            ? "No request arrived, and the session needed the connection for another client: send a request line as you connect."
            : "No request arrived within \(within): send a request line as you connect."))
    }

    /// Has a task on the loop close the clients whose line is overdue, at
    /// the earliest deadline, if one is not already waiting. A session
    /// with no such client arms nothing, so costs no wake-up.
    private func sweepLater() {
        let deadline = state.withLock { state -> ContinuousClock.Instant? in
            guard !state.sweeping, !state.ended,
                  let earliest = state.clients.values.compactMap(\.lineBegan).min() else { return nil }
            state.sweeping = true
            return earliest + requestDeadline
        }
        guard let deadline else { return }
        Task(executorPreference: loop) { [weak self, loop] in
            try? await loop.sleep(until: deadline)
            self?.sweep(now: .now)
        }
    }

    /// Closes every client whose line is overdue at `now`, then waits for the next.
    private func sweep(now: ContinuousClock.Instant) {
        let overdue = state.withLock { state -> [Client] in
            state.sweeping = false
            guard !state.ended else { return [] }
            let late = state.clients.filter { $0.value.lineBegan.map { now - $0 >= requestDeadline } ?? false }
            for id in late.keys { state.clients[id] = nil }
            return Array(late.values)
        }
        for client in overdue { refuse(client.fd, Self.tooSlow(after: requestDeadline, evicted: false)) }
        sweepLater()
    }

    /// One answer, best effort (the socket buffer of a fresh connection has
    /// room for it), then the connection is closed.
    private func refuse(_ fd: Int32, _ reply: ControlReply) {
        _ = (reply.serialized + "\n").withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    private func peerUID(_ fd: Int32) -> uid_t? { Descriptor.peerCredentials(fd)?.uid }

    private func service(_ id: ClientID, revents: Int16) {
        guard let (fd, reading) = state.withLock({ state in state.clients[id].map { ($0.fd, $0.reading) } }) else { return }
        if revents & Int16(POLLOUT) != 0, !flush(id, fd: fd) { return }
        if reading, revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            receive(id, fd: fd)
        } else if revents & Int16(POLLHUP | POLLERR) != 0 {
            drop(id)
        }
    }

    /// Writes what the socket takes; returns false if the client was dropped.
    private func flush(_ id: ClientID, fd: Int32) -> Bool {
        let (pending, closeAfter) = state.withLock { ($0.clients[id]?.output ?? [], $0.clients[id]?.closeWhenFlushed ?? false) }
        let (written, failed) = Self.writeSome(pending[...], to: fd)
        if failed {
            drop(id)
            return false
        }
        let remaining = state.withLock { state -> Int in
            guard var client = state.clients[id] else { return 0 }
            client.output.removeFirst(written)
            state.clients[id] = client
            return client.output.count
        }
        if remaining == 0, closeAfter { drop(id); return false }
        if remaining > Self.maximumPendingOutput { drop(id); return false }
        return true
    }

    private func receive(_ id: ClientID, fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            guard n > 0 else { endOfInput(id); return }
            guard frame(id, bytes: buffer[..<n]) else { return }
        }
    }

    /// Splits input into lines and answers each; false once the client is closing.
    private func frame(_ id: ClientID, bytes: ArraySlice<UInt8>) -> Bool {
        var lines: [[UInt8]] = []
        let overflow = state.withLock { state -> Bool in
            guard var client = state.clients[id], !client.closeWhenFlushed else { return false }
            client.input.append(contentsOf: bytes)
            while let newline = client.input.firstIndex(of: 0x0A) {
                lines.append(Array(client.input[..<newline]))
                client.input.removeSubrange(...newline)
            }
            if !lines.isEmpty { client.asked = true }
            // A line begun after a whole one has its own deadline; a first
            // line keeps the connection's.
            if client.input.isEmpty {
                client.lineBegan = nil
            } else if !lines.isEmpty || client.lineBegan == nil {
                client.lineBegan = .now
            }
            state.clients[id] = client
            return client.input.count > ControlRequest.maximumLength
        }
        sweepLater()
        for line in lines {
            do {
                handler(try ControlRequest(parsing: line), id)
            } catch {
                let tooLong = line.count > ControlRequest.maximumLength
                send(ControlReply(UserError(.data, error.description)).serialized, to: id, thenClose: tooLong)
                if tooLong { return false }
            }
        }
        if overflow {
            // A line that cannot fit: answer once, stop reading, close when the answer is out.
            let error = ControlRequestError.tooLong(ControlRequest.maximumLength + 1)
            send(ControlReply(UserError(.data, error.description)).serialized, to: id, thenClose: true)
            state.withLock {
                $0.clients[id]?.input = []
                $0.clients[id]?.reading = false
            }
            return false
        }
        return true
    }

    /// The client has finished sending; it may still be waiting for answers,
    /// so it stays until it hangs up. One that sent nothing whole goes.
    private func endOfInput(_ id: ClientID) {
        let silent = state.withLock { state -> Bool in
            state.clients[id]?.reading = false
            return state.clients[id].map { !$0.asked } ?? false
        }
        if silent { drop(id) }
    }

    private func drop(_ id: ClientID) {
        if let client = state.withLock({ $0.clients.removeValue(forKey: id) }) { close(client.fd) }
    }

    private func shutDown() {
        guard let clients = state.withLock({ state -> [Client]? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }) else { return }
        for client in clients {
            // Best effort: pending stream lines such as "ended" go out before the close.
            _ = client.output.withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client.fd)
        }
        stopAccepting()
        close(listener)
    }
}
