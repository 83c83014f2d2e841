import Clocks
import EstimatorKit
import SessionCore
import Synchronization

/// The session's core (`SessionCore`) where the radio reads each reception:
/// BlueZ's signal is decoded and the room updated on the bus connection's
/// reading thread, and the session is woken only for what the core asks of
/// it. In a room nearly every reception only refreshes a known peer's
/// signal strength and time, which asks for nothing unless a watcher
/// streams every line (make bench-session: waking the session's tasks per
/// signal was most of its CPU time).
final class SessionBoard: Sendable {
    /// What the core asked, for the session to do in order.
    struct Batch: Sendable {
        let actions: [SessionAction]
        /// When the radio read the reception that asked it.
        let received: Duration
    }

    private let core: Mutex<SessionCore>
    private let clock: any SessionClock
    /// The core's asks from receptions, in reception order.
    let batches: AsyncStream<Batch>
    private let sink: AsyncStream<Batch>.Continuation

    init(_ core: SessionCore, clock: any SessionClock) {
        self.core = Mutex(core)
        self.clock = clock
        (batches, sink) = AsyncStream.makeStream(of: Batch.self)
    }

    /// Reads the core under the lock.
    func read<T>(_ body: (SessionCore) -> T) -> T { core.withLock { body($0) } }

    /// Changes the core under the lock; `body` gets the time.
    func update<T>(_ body: (inout SessionCore, Timestamp) -> T) -> T { core.withLock { body(&$0, clock.now) } }

    /// Gives the core `event` now; returns what it asks.
    func take(_ event: SessionEvent) -> [SessionAction] { update { $0.take(event, at: $1) } }

    /// Gives the core a reception, or a relayed packet's request, in the
    /// order of the receptions: what it asks goes to `batches`, but for the
    /// answer to a request, which is returned.
    @discardableResult
    func takeInOrder(_ event: SessionEvent, received: Duration) -> ControlReply? {
        core.withLock { core in
            var reply: ControlReply?
            let actions = core.take(event, at: clock.now).filter {
                guard case let .reply(answer) = $0 else { return true }
                reply = answer
                return false
            }
            // Yielded under the lock, so batches keep the room's order.
            if !actions.isEmpty { sink.yield(Batch(actions: actions, received: received)) }
            return reply
        }
    }

    /// Ends `batches`.
    func finish() { sink.finish() }
}
