import CDBus
import Synchronization

extension Connection {
    /// Subscribes to the signals matching `rule`. Returns once the bus has the rule, so
    /// any signal emitted afterwards is seen. The stream ends with `Disconnected` when the
    /// connection does; stopping the iteration (or dropping the stream) removes the rule.
    public func signals(matching rule: MatchRule) async throws -> SignalStream<Message> {
        try await subscribe(rule) { $0 }
    }

    /// Subscribes and decodes each signal with `decode`, in the iterating task (so the
    /// event-loop thread only reads and routes while the consumer decodes); a signal
    /// `decode` rejects (say, a wrong signature from a hostile peer) is skipped.
    public func signals<Element: Sendable>(
        matching rule: MatchRule, decode: @escaping @Sendable (Message) throws -> Element
    ) async throws -> SignalStream<Element> {
        try await subscribe(rule, decode)
    }

    /// Subscribes to the signals matching any of `rules`, in one stream (so in the
    /// order the bus sent them), decoded as `signals(matching:decode:)` does: for a
    /// consumer that wants a few kinds of signal from a busy sender, which a single
    /// rule could only take all of (every one of them waking the consumer).
    public func signals<Element: Sendable>(
        matchingAny rules: [MatchRule], decode: @escaping @Sendable (Message) throws -> Element
    ) async throws -> SignalStream<Element> {
        try await subscribe(rules, decode)
    }

    private func subscribe<Element: Sendable>(
        _ rule: MatchRule, _ decode: @escaping @Sendable (Message) throws -> Element
    ) async throws -> SignalStream<Element> {
        try await subscribe([rule], decode)
    }

    /// Runs `handler` for every signal matching any of `rules`, synchronously on the
    /// connection's event-loop thread, in bus order, as each is read: no task, stream or
    /// thread is woken per signal. For a consumer whose work per signal is small and
    /// lock-protected (a table update) and that wakes others only when it must. The
    /// handler must return quickly and must not wait for the connection (no calls).
    /// `ended` runs once, on that thread, if the connection closes. Returns once the bus has the rules; the subscription lasts until the
    /// returned handle is cancelled or dropped.
    public func handleSignals(
        matchingAny rules: [MatchRule], ended: @escaping @Sendable (DBusError) -> Void = { _ in },
        _ handler: @escaping @Sendable (Message) -> Void
    ) async throws -> SignalHandler {
        SignalHandler(token: try await subscribe(rules, .handler(handler, ended: ended)))
    }

    private func subscribe<Element: Sendable>(
        _ rules: [MatchRule], _ decode: @escaping @Sendable (Message) throws -> Element
    ) async throws -> SignalStream<Element> {
        let (stream, continuation) = AsyncThrowingStream<[Message], any Error>.makeStream()
        let backlog = Backlog()
        let token = try await subscribe(rules, .stream(continuation, backlog))
        continuation.onTermination = { _ in token.cancel() }
        let core = self.core
        return SignalStream(stream: stream, token: token, backlog: backlog, decode: decode) { core.loop.perform {} }
    }

    private func subscribe(_ rules: [MatchRule], _ sink: Subscription.Sink) async throws -> StreamToken {
        guard !rules.isEmpty else { throw DBusError.invalidArguments("no match rule") }
        for rule in rules { try rule.validate() }
        let core = self.core
        var tracked: [String] = []
        for sender in rules.compactMap(\.sender) where NameOwners.needsTracking(sender) && !tracked.contains(sender) {
            tracked.append(sender)
        }
        let senders = tracked
        for sender in senders { try await core.trackOwner(of: sender) }
        let subscription = Subscription(rules: rules.map(CompiledMatchRule.init), sink: sink)
        let id: Int = try await withCheckedThrowingContinuation { registered in
            let posted = core.loop.perform {
                let id = core.nextSubscriptionID
                core.nextSubscriptionID += 1
                core.subscriptions[id] = subscription
                registered.resume(returning: id)
            }
            if !posted { registered.resume(throwing: DBusError.disconnected()) }
        }
        // How many of the rules the bus has, in order: those are removed again.
        let installed = Synchronization.Atomic<Int>(0)
        let token = StreamToken(connection: self) { connection in
            Self.unsubscribe(connection, id: id, rules: rules.prefix(installed.load(ordering: .acquiring)).map(\.description),
                             senders: senders)
        }
        if core.uniqueName != nil {
            for rule in rules {
                try await busCall("AddMatch", rule.description)
                installed.add(1, ordering: .releasing)
            }
        }
        return token
    }

    private static func unsubscribe(_ connection: Connection, id: Int, rules installed: [String], senders: [String]) {
        let core = connection.core
        core.loop.perform {
            core.subscriptions.removeValue(forKey: id)?.finish(DBusError.disconnected(StreamToken.unsubscribed))
        }
        guard core.uniqueName != nil else { return }
        for ruleText in installed {
            guard let message = NameOwners.driverCall("RemoveMatch", ruleText) else { continue }
            // Fire and forget: nobody waits for an unsubscription.
            dbus_message_set_no_reply(message.raw, 1)
            try? connection.send(message)
        }
        for sender in senders {
            core.loop.perform { core.untrackOwner(of: sender) }
        }
    }

    /// Calls a method of the bus driver with one string argument.
    @discardableResult
    func busCall(_ member: String, _ argument: String) async throws -> Message {
        try await call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", member: member, argument)
    }
}

/// A loop-thread record of one subscription. For a stream, matching signals are
/// collected per dispatch round and handed over in one batch, undecoded: a busy bus
/// wakes the consumer once per round rather than once per signal, and the consumer
/// decodes. A handler runs on the loop thread for each signal as it is routed.
final class Subscription: @unchecked Sendable {
    enum Sink {
        case stream(AsyncThrowingStream<[Message], any Error>.Continuation, Backlog)
        case handler(@Sendable (Message) -> Void, ended: @Sendable (DBusError) -> Void)
    }

    /// A signal matching any of them is delivered.
    let rules: [CompiledMatchRule]
    private let sink: Sink
    /// The sink's handler, if it has one, taken out once rather than per signal.
    private let handler: (@Sendable (Message) -> Void)?
    /// The stream's backlog, if it is a stream: checked every loop round, so not
    /// taken out of `sink` each time (copying the enum retains its payload).
    private let backlog: Backlog?
    /// The signals of the current dispatch round (loop thread only).
    private var batch: [Message] = []

    init(rules: [CompiledMatchRule], sink: Sink) {
        self.rules = rules
        self.sink = sink
        switch sink {
        case .handler(let handler, _): (self.handler, backlog) = (handler, nil)
        case .stream(_, let backlog): (handler, self.backlog) = (nil, backlog)
        }
    }

    /// Whether its consumer is so far behind that the connection should stop reading.
    var isBacklogged: Bool { backlog?.isFull ?? false }

    /// Runs the handler on `message`, or adds it to the round's batch; returns
    /// true in that case (the consumer is woken when the round ends).
    func deliver(_ message: Message) -> Bool {
        guard let handler else {
            batch.append(message)
            return true
        }
        handler(message)
        return false
    }

    /// Hands the round's signals to the consumer.
    func flush() {
        guard !batch.isEmpty, case .stream(let continuation, let backlog) = sink else { return }
        backlog.add(batch.count)
        continuation.yield(batch)
        batch = []
    }

    func finish(_ error: DBusError) {
        switch sink {
        case .stream(let continuation, _):
            if !batch.isEmpty { continuation.yield(batch) }
            batch = []
            continuation.finish(throwing: error)
        case .handler(_, let ended):
            if error.message != StreamToken.unsubscribed { ended(error) }
        }
    }
}

/// How many delivered signals the consumer has not taken yet. Past `high` the connection
/// stops reading (backpressure) until the consumer is back under `low`.
final class Backlog: Sendable {
    private let count = Synchronization.Atomic<Int>(0)
    static let high = 16_384
    static let low = high / 2

    var isFull: Bool { count.load(ordering: .relaxed) > Self.high }

    func add(_ delivered: Int) { count.add(delivered, ordering: .relaxed) }

    /// Returns true when this take brought a full backlog back under `low`.
    func take(_ taken: Int) -> Bool {
        let (old, new) = count.subtract(taken, ordering: .relaxed)
        return old > Self.low && new <= Self.low
    }
}

/// Ends a stream's subscription exactly once: when the stream terminates, is cancelled,
/// or is dropped. Holds the connection so a live stream keeps it open.
final class StreamToken: Sendable {
    private let connection: Connection
    private let onCancel: @Sendable (Connection) -> Void
    private let cancelled = Synchronization.Atomic<Bool>(false)

    init(connection: Connection, onCancel: @escaping @Sendable (Connection) -> Void) {
        self.connection = connection
        self.onCancel = onCancel
    }

    deinit { cancel() }

    /// The message a subscription ends with when it is cancelled rather than lost.
    static let unsubscribed = "unsubscribed"

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onCancel(connection)
    }

    /// The next element; an unsubscription ends the iteration normally, not with an error.
    /// Runs in the caller's isolation, so a consumer on an actor does not hop executors.
    static func ending<Element>(
        iterator: inout AsyncThrowingStream<Element, any Error>.AsyncIterator,
        isolation actor: isolated (any Actor)?
    ) async throws -> Element? {
        do {
            return try await iterator.next(isolation: actor)
        } catch let error as DBusError where error.message == unsubscribed {
            return nil
        }
    }
}

/// The signals of one subscription, in the order the bus sent them.
///
/// Single-consumer. The stream ends when the connection closes (throwing
/// `Disconnected`); cancelling the iterating task ends it and removes the match rule.
/// Backpressure: while more than 16,384 signals wait unconsumed in one stream, the
/// connection stops reading the bus (replies included) until the consumer catches up,
/// so memory stays bounded; iterate or cancel every stream you create.
public struct SignalStream<Element: Sendable>: AsyncSequence, Sendable {
    fileprivate let stream: AsyncThrowingStream<[Message], any Error>
    fileprivate let token: StreamToken
    fileprivate let backlog: Backlog
    fileprivate let decode: @Sendable (Message) throws -> Element
    /// Wakes the event loop so it reads again after a pause.
    fileprivate let resumeReading: @Sendable () -> Void

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate var iterator: AsyncThrowingStream<[Message], any Error>.AsyncIterator
        fileprivate let stream: SignalStream
        private var batch: [Message] = []
        private var index = 0

        fileprivate init(_ stream: SignalStream) {
            iterator = stream.stream.makeAsyncIterator()
            self.stream = stream
        }

        public mutating func next() async throws -> Element? {
            try await next(isolation: nil)
        }

        /// The next signal; runs in the caller's isolation (no executor hop per signal)
        /// and suspends only when the current batch is used up.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            while true {
                while index < batch.count {
                    let message = batch[index]
                    index += 1
                    if let element = try? stream.decode(message) { return element }
                }
                guard let next = try await StreamToken.ending(iterator: &iterator, isolation: actor) else { return nil }
                if stream.backlog.take(next.count) { stream.resumeReading() }
                batch = next
                index = 0
            }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(self) }

    /// Stops the subscription now; iteration then ends normally.
    public func cancel() { token.cancel() }
}

/// A running `handleSignals` subscription: its lifetime is the subscription.
/// `cancel()` (or dropping it) removes the match rules; the handler may still run
/// for signals already being routed when this is called, never after the loop
/// thread has taken the cancellation.
public final class SignalHandler: Sendable {
    private let token: StreamToken

    init(token: StreamToken) { self.token = token }

    /// Stops the subscription and removes its match rules.
    public func cancel() { token.cancel() }
}
