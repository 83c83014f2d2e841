import Clocks
import DBusTestSupport
import EstimatorKit
import Synchronization

/// The one test clock: it moves only when a test advances it (swift-nio's
/// `advanceTime(by:)` style). Sleepers wake when time reaches their
/// deadline, or throw `CancellationError` when their task is cancelled, so
/// a disarmed timer leaves `deadlines` at once.
final class ManualClock: SessionClock {
    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var elapsed: Duration = .zero
        var nextID = 0
        var sleepers: [Sleeper] = []
        var waiters = CountWaiters()
    }

    /// The wall-clock time at `elapsed` zero.
    static let origin = Timestamp(secondsSince1970: 1_700_000_000)

    private let state = Mutex(State())

    var now: Timestamp { Self.origin + elapsed }

    var elapsed: Duration { state.withLock { $0.elapsed } }

    func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, cancelled, due) = state.withLock { state in
                    // A deadline already reached wakes at once, as a real clock's does.
                    guard deadline > state.elapsed else { return ([CheckedContinuation<Void, Never>](), false, true) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (state.waiters.reached(state.sleepers.count), Task.isCancelled, false)
                }
                if due { return continuation.resume() }
                for waiter in ready { waiter.resume() }
                if cancelled { self.cancel(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    private func cancel(_ id: Int) {
        let sleeper = state.withLock { state -> Sleeper? in
            guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.sleepers.remove(at: index)
        }
        sleeper?.continuation.resume(throwing: CancellationError())
    }

    /// When each task sleeping now wakes (as `elapsed`), soonest first.
    var deadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    /// Returns once at least `count` tasks are sleeping on this clock.
    func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiters.wait(for: count, current: $0.sleepers.count, continuation) }?.resume()
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.elapsed += duration
            let now = state.elapsed
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
