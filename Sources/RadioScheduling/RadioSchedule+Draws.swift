/// The random parts of the schedule, drawn by its schedulers: a test passes
/// its own `Draw` to see the bounds.
extension RadioSchedule {
    /// Draws a number of microseconds from a range.
    package typealias Draw = @Sendable (ClosedRange<Int64>) -> Int64

    /// Draws uniformly at random.
    package static let draw: Draw = { Int64.random(in: $0) }

    /// The time from the end of one restart to the next: `restartEvery`
    /// moved by at most `jitter` either way.
    package func nextInterval(_ random: Draw) -> Duration {
        let spread = Int64(jitter / .microseconds(1))
        guard spread > 0 else { return restartEvery }
        return restartEvery + .microseconds(random(-spread...spread))
    }

    /// How long a due restart asked to listen goes on listening at most:
    /// between a tenth of `listenLimit` and all of it.
    func listenSpan(_ random: Draw) -> Duration {
        let most = Int64(listenLimit / .microseconds(1))
        return .microseconds(random(most / 10...most))
    }

    /// How much longer a restart due now waits before it looks again,
    /// `sinceSighting` after the last sighting (nil: none yet), having
    /// waited `waited` already: until `hold` after the sighting, plus a
    /// random backoff of up to `backoff`, and never beyond `holdLimit` in all.
    package func holdRemaining(sinceSighting: Duration?, waited: Duration, _ random: Draw) -> Duration {
        guard let sinceSighting, sinceSighting < hold else { return .zero }
        let extra = Duration.microseconds(random(0...Int64(backoff / .microseconds(1))))
        return min(hold - sinceSighting + extra, max(holdLimit - waited, .zero))
    }
}
