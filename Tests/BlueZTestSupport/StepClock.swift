import BlueZ
import DBusTestSupport
import Synchronization

/// A `RadioClock` that moves only when a test advances it: sleepers wake
/// when time reaches their deadline, or throw when their task is cancelled.
public final class StepClock: RadioClock {
    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var nextID = 0
        var sleepers: [Sleeper] = []
        var waiters = CountWaiters()
    }

    private let state = Mutex(State())

    public init() {}

    public var elapsed: Duration { state.withLock { $0.now } }

    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, cancelled) = state.withLock { state in
                    state.sleepers.append(Sleeper(id: id, deadline: state.now + duration, continuation: continuation))
                    return (state.waiters.reached(state.sleepers.count), Task.isCancelled)
                }
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

    /// When each task sleeping now wakes, soonest first.
    public var deadlines: [Duration] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiters.wait(for: count, current: $0.sleepers.count, continuation) }?.resume()
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
