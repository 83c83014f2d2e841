import DBusTestSupport
import EstimatorKit
import Synchronization

@testable import estimator

/// A clock that moves only when a test advances it (swift-nio's
/// EmbeddedEventLoop style): sleepers wake when time reaches their deadline.
final class ManualClock: SessionClock {
    private struct Sleeper {
        let deadline: Timestamp
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Timestamp(secondsSince1970: 1_700_000_000)
        var sleepers: [Sleeper] = []
        var sleeperWaiters = CountWaiters()
    }

    private let state = Mutex(State())

    var now: Timestamp { state.withLock { $0.now } }

    func sleep(for duration: Duration) async throws {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state in
                state.sleepers.append(Sleeper(deadline: state.now + duration, continuation: continuation))
                return state.sleeperWaiters.reached(state.sleepers.count)
            }
            for waiter in ready { waiter.resume() }
        }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { continuation in
            state.withLock { $0.sleeperWaiters.wait(for: count, current: $0.sleepers.count, continuation) }?.resume()
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now + duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
