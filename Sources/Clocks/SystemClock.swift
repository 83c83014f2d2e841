import EstimatorKit
import Glibc
import Threads

/// The real clock: `CLOCK_REALTIME` for instants (printed in `watch --json`,
/// and running on while a laptop sleeps), Swift's `ContinuousClock` for
/// `elapsed` and to wait (monotonic, also running on while it sleeps).
package struct SystemClock: SessionClock {
    /// The origin of `elapsed`: the first use of a system clock in the process.
    private static let origin = ContinuousClock.now

    /// The system's clocks.
    package init() {}

    package var now: Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSince1970: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }

    package var elapsed: Duration {
        let origin = Self.origin  // set first, so the first reading is not before it
        return ContinuousClock.now - origin
    }

    /// On the session's loop when it runs there (`SessionLoop`): its timer
    /// wakes one thread where Dispatch's wakes three or four.
    package func sleep(until deadline: Duration) async throws {
        if let loop = SessionLoop.current {
            try await loop.sleep(until: Self.origin + deadline)
        } else {
            try await Task.sleep(until: Self.origin + deadline, clock: .continuous)
        }
    }
}
