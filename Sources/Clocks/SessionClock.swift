import EstimatorKit

/// How the product tells time, for every timer it keeps: the session's
/// ticks, the radio's schedule, the leave broadcast, the retries, the
/// relay's restarts and `watch`'s redraws. Injected, so tests advance time
/// instead of waiting (`ManualClock` in the tests); `SystemClock` is the
/// real one, and no other code reads the time or sleeps.
package protocol SessionClock: Sendable {
    /// Wall-clock time, for the peer table and what is printed.
    var now: Timestamp { get }
    /// Time since an origin of the clock's choosing, which never goes back:
    /// for deadlines and for how long something took.
    var elapsed: Duration { get }
    /// Returns once `elapsed` has reached `deadline`, or throws
    /// `CancellationError` if the task is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension SessionClock {
    /// Returns after `duration`, or throws `CancellationError` if cancelled.
    package func sleep(for duration: Duration) async throws { try await sleep(until: elapsed + duration) }
}
