import CDBus
import Synchronization

extension Connection {
    /// Sends a method call and waits for its reply.
    ///
    /// Throws the peer's error reply as a `DBusError`; `NoReply` after `timeout` or when
    /// the peer leaves the bus without answering; `Disconnected` if the connection ends;
    /// `CancellationError` if the task is cancelled.
    public func call(_ message: Message, timeout: Duration = defaultTimeout) async throws -> Message {
        let waiter = ReplyWaiter()
        let core = self.core
        let milliseconds = Self.milliseconds(timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.install(continuation)
                let posted = core.loop.perform {
                    guard !waiter.isFinished else { return }
                    waiter.record = core.startCall(message, timeoutMilliseconds: milliseconds) { result in
                        waiter.finish(result.mapError { $0 })
                    }
                }
                if !posted { waiter.finish(.failure(DBusError.disconnected())) }
            }
        } onCancel: {
            waiter.finish(.failure(CancellationError()))
            core.loop.perform {
                guard let record = waiter.record else { return }
                record.cancel()
                core.calls.removeValue(forKey: record.id)
            }
        }
    }

    /// Calls `member` with typed arguments; decode the reply with `Message.decode`.
    public func call<each Argument: DBusEncodable>(
        destination: String, path: ObjectPath, interface: String, member: String,
        _ arguments: repeat each Argument, timeout: Duration = defaultTimeout
    ) async throws -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        try message.append(repeat each arguments)
        return try await call(message, timeout: timeout)
    }

    /// Sends a message that expects no reply (a signal, or a call flagged no-reply).
    public func send(_ message: Message) throws(DBusError) {
        let core = self.core
        guard core.loop.perform({ _ = dbus_connection_send(core.raw, message.raw, nil) }) else {
            throw .disconnected()
        }
    }

    /// Emits a signal with typed arguments.
    public func emit<each Argument: DBusEncodable>(
        path: ObjectPath, interface: String, member: String, _ arguments: repeat each Argument
    ) throws(DBusError) {
        let message = try Message.signal(path: path, interface: interface, member: member)
        try message.append(repeat each arguments)
        try send(message)
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        if seconds >= Int64(Int32.max / 1000) { return Int32.max }  // libdbus: no timeout
        return Int32(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

/// Hands one reply to one waiting task: whichever of reply, error or cancellation comes first.
final class ReplyWaiter: @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<Message, any Error>?
        var result: Result<Message, any Error>?
    }

    private let state = Mutex(State())
    /// Loop thread only.
    var record: CallRecord?

    var isFinished: Bool { state.withLock { $0.result != nil } }

    func install(_ continuation: CheckedContinuation<Message, any Error>) {
        let early = state.withLock { state -> Result<Message, any Error>? in
            if let result = state.result { return result }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func finish(_ result: Result<Message, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Message, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
