import EstimatorKit
import Glibc

/// The real clock: `CLOCK_REALTIME` for instants (printed in `watch --json`,
/// and running on while a laptop sleeps), `Task.sleep` to wait.
struct SystemClock: SessionClock {
    var now: Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSince1970: Int64(spec.tv_sec), nanoseconds: Int64(spec.tv_nsec))
    }

    func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
