import Clocks
import EstimatorKit
import Glibc
import Synchronization
import Threads

/// Starts `estimator-relay` beside the session and waits for its first
/// word on an inherited pipe: connected, refused (exit 77), or not
/// reachable yet. The relay links libmosquitto, a shared library, so it is
/// a process of its own and the product binary stays static
/// (docs/ARCHITECTURE.md, Relay).
package enum RelayLauncher {
    /// The descriptor the relay finds the readiness pipe on.
    static let readyFD: Int32 = 3

    /// `estimator-relay` beside this executable.
    package static var executable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        let own = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/usr/local/bin/estimator"
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/estimator-relay"
    }

    /// Starts the relay; returns its first word and the child, or why it
    /// could not start. `onExit` runs (on a thread of its own) if the relay ends.
    static func start(_ settings: RelaySettings, socket: String, channel: Channel, staleSeconds: Int64,
                      onExit: @escaping @Sendable (Int32) -> Void) async -> Result<(ControlReply, RelayChild), UserError> {
        let program = executable
        guard access(program, X_OK) == 0 else {
            return .failure(UserError(.unavailable, "\(program) is missing; install estimator with its relay (make install)."))
        }
        let arguments = ["estimator-relay"] + settings.arguments(socket: socket, channel: channel,
                                                                 staleSeconds: staleSeconds, readyFD: readyFD)
        // Its output goes where the session's does: the session's log.
        let started: ReadyChild
        do { started = try ReadyChild.start(program, arguments, log: nil, readyFD: readyFD) } catch {
            return .failure(UserError(.software, "Cannot start \(program) (\(error))."))
        }
        let child = RelayChild(pid: started.pid)
        let (relayPID, readEnd) = (started.pid, started.readEnd)
        let line: [UInt8]? = await withCheckedContinuation { continuation in
            LoopThread.spawn("the relay's reaper thread") {
                let line = ReadinessLine.read(from: readEnd)
                close(readEnd)
                continuation.resume(returning: line)
                var status: Int32 = 0
                while waitpid(relayPID, &status, 0) < 0, errno == EINTR {}
                child.markExited()
                onExit(status)
            }
        }
        guard let line, let reply = try? ControlReply(parsing: line) else {
            return .failure(UserError(.software, "The relay ended before it was ready; see the session's log."))
        }
        return .success((reply, child))
    }
}

/// The relay process, for waiting on its end.
final class RelayChild: Sendable {
    let pid: pid_t
    private let state = Mutex<(exited: Bool, waiters: [UInt64: CheckedContinuation<Void, Never>], next: UInt64)>(
        (false, [:], 0))

    init(pid: pid_t) { self.pid = pid }

    func markExited() {
        let waiters = state.withLock { state in
            state.exited = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the relay has ended, or after `limit` of `clock`.
    func waitForExit(limit: Duration, clock: any SessionClock) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = state.withLock { state -> UInt64? in
                guard !state.exited else { return nil }
                state.next += 1
                state.waiters[state.next] = continuation
                return state.next
            }
            guard let id else { return continuation.resume() }
            Task(executorPreference: SessionLoop.current) {
                try? await clock.sleep(for: limit)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
