import EstimatorKit
import Glibc

/// One connection to a session's control socket, with plain blocking I/O:
/// `pick` must start and finish fast, so nothing here needs Foundation.
package final class ControlClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects; nil when no session listens there (no file, or a stale one).
    /// Reads give up after `timeout` seconds (0: wait for ever, for streams),
    /// so a wedged session cannot hang a command.
    package init?(path: String, timeout: Int = 10) {
        guard var address = try? UnixAddress(path: path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard address.withSockaddr({ connect(fd, $0, $1) }) == 0 else {
            close(fd)
            return nil
        }
        if timeout > 0 {
            var limit = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one request line.
    package func send(_ request: ControlRequest) throws(SystemCallError) {
        var bytes = Array(request.serialized.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw SystemCallError("send") }
            offset += n
        }
    }

    /// The next line (without its newline), or nil at end of stream.
    package func readLine() throws(SystemCallError) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw SystemCallError("read") }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// The session's process, as the kernel tells who is at the socket's
    /// other end (`SO_PEERCRED`).
    package var peerPID: pid_t? { Descriptor.peerCredentials(fd)?.pid }

    /// Waits until the session closes the connection, which it does once its
    /// socket file is gone and its adapter's lock released (`SessionProcess`);
    /// returns false when `limit` passed first. Lines still coming are read
    /// and dropped.
    package func awaitEnd(within limit: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR || errno == EAGAIN { continue }
            if n <= 0 { return true }  // closed (or reset): the session is gone
        }
    }

    /// Sends a request and reads its one-line reply.
    package func call(_ request: ControlRequest) throws(UserError) -> ControlReply {
        do {
            do { try send(request) } catch {
                // A refused connection is closed at once; its one answer may still be waiting.
                guard let line = try? readLine(), let reply = try? ControlReply(parsing: line) else { throw error }
                return reply
            }
            guard let line = try readLine() else {
                throw UserError(.software, "The session closed the connection without answering; see its log.")
            }
            return try ControlReply(parsing: line)
        } catch let error as SystemCallError {
            throw UserError(.unavailable, "The session stopped answering (\(error)); run `estimator status`.")
        } catch let error as ControlReplyError {
            throw UserError(.software, error.description)
        } catch let error as UserError {
            throw error
        } catch {
            throw UserError(.software, "\(error)")
        }
    }
}

/// Finds the session a command talks to.
package enum SessionLocator {
    /// `connect(adapter:)` for an adapter given by name or address.
    package static func connect(adapter: AdapterChoice?, timeout: Int = 10, in directory: RuntimeDirectory = .current())
        async throws(UserError) -> (adapter: String, client: ControlClient)
    {
        let name: String?
        if let adapter { name = try await adapter.resolved() } else { name = nil }
        return try connect(adapter: name, timeout: timeout, in: directory)
    }

    /// `find(adapter:)` for an adapter given by name or address.
    package static func find(adapter: AdapterChoice?, timeout: Int = 10, in directory: RuntimeDirectory = .current())
        async throws(UserError) -> (adapter: String, client: ControlClient)?
    {
        let name: String?
        if let adapter { name = try await adapter.resolved() } else { name = nil }
        return try find(adapter: name, timeout: timeout, in: directory)
    }

    /// Connects to the session on `adapter`, or to the only running session.
    /// No session: exit 69 telling the user to join; several and no adapter:
    /// exit 64 listing them.
    package static func connect(adapter: String?, timeout: Int = 10, in directory: RuntimeDirectory = .current())
        throws(UserError) -> (adapter: String, client: ControlClient)
    {
        if let found = try find(adapter: adapter, timeout: timeout, in: directory) { return found }
        if let adapter {
            throw UserError(.unavailable, "No session is running on \(adapter); run `estimator join --adapter \(adapter)` first.")
        }
        throw UserError(.unavailable, "No session is running; run `estimator join` first.")
    }

    /// The session on `adapter`, or the only running session; nil when there
    /// is none (so `watch` can scan by itself). Several and no adapter: exit 64.
    static func find(adapter: String?, timeout: Int = 10, in directory: RuntimeDirectory = .current())
        throws(UserError) -> (adapter: String, client: ControlClient)?
    {
        if let adapter {
            guard AdapterName.isValid(adapter) else { throw AdapterName.invalid(adapter) }
            return ControlClient(path: directory.socketPath(adapter: adapter), timeout: timeout).map { (adapter, $0) }
        }
        // The first session that answers, and the names of all that do: no
        // array of (adapter, client) pairs, whose type the runtime would
        // build on every `pick` (a tenth of its instructions).
        var first: (adapter: String, client: ControlClient)?
        var names: [String] = []
        for adapter in directory.adaptersWithSockets() {
            guard let client = ControlClient(path: directory.socketPath(adapter: adapter), timeout: timeout) else { continue }
            if first == nil { first = (adapter, client) }
            names.append(adapter)
        }
        guard names.count > 1 else { return first }
        throw UserError(.usage, "Sessions are running on \(names.joined(separator: ", ")); choose one with --adapter.")
    }
}
