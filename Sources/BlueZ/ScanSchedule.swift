/// When a discovery restarts its scan and how long each restart keeps
/// scanning off: the part of a radio's schedule that `Discovery` runs.
///
/// A restart is due `restartEvery` (moved by up to `jitter` either way)
/// after the last one ended. When due, it listens before it speaks: while
/// the last sighting is less than `hold` old, it waits until it is, plus a
/// random `backoff` of up to that much, and looks again, though it never
/// waits more than `holdLimit` in all. A sighting in an emulated air (and
/// from a strict controller) is a peer's announcement, made while that
/// peer's own scan is off, and a restart in that moment would put this
/// radio's announcement inside the peer's gap, unheard. The backoff is
/// random because every radio that heard the announcement would otherwise
/// end its wait at the same instant, and stop, announce and miss each
/// other together. Scanning then stops, `whileStopped` runs (the
/// announcement), and scanning starts again `settle` later.
///
/// Before the hold, a due restart that the caller asked to listen
/// (`Discovery.listen(for:)`) keeps scanning while the caller asks, for at
/// most a random part of `listenLimit`: a listener that missed a peer's
/// announcements because its own gaps fell on them (two radios in step)
/// hears the peer's next one, and the hold then moves its own gap away from
/// it. The limit is random so that two radios that missed each other, and
/// both listen, do not end their waits together and stay in step.
public struct ScanSchedule: Sendable, Hashable {
    /// The mean time from the end of one restart to the next.
    public var restartEvery: Duration
    /// How far each interval moves at random, either way.
    public var jitter: Duration
    /// How long scanning stays off after `whileStopped` returned.
    public var settle: Duration
    /// How long after a sighting a due restart waits.
    public var hold: Duration
    /// The most a due restart waits at random beyond `hold`.
    public var backoff: Duration
    /// The longest a due restart waits for such a moment.
    public var holdLimit: Duration
    /// The longest a due restart listens when asked to (`Discovery.listen(for:)`).
    public var listenLimit: Duration

    public init(restartEvery: Duration, jitter: Duration = .zero, settle: Duration = .zero,
                hold: Duration = .zero, backoff: Duration = .zero, holdLimit: Duration = .zero,
                listenLimit: Duration = .zero) {
        self.restartEvery = restartEvery
        self.jitter = jitter
        self.settle = settle
        self.hold = hold
        self.backoff = backoff
        self.holdLimit = holdLimit
        self.listenLimit = listenLimit
    }

    /// `restartEvery` moved by a random amount of at most `jitter` either way.
    func nextInterval() -> Duration {
        let spread = Int64(jitter / .microseconds(1))
        guard spread > 0 else { return restartEvery }
        return restartEvery + .microseconds(Int64.random(in: -spread...spread))
    }

    /// How long a due restart asked to listen goes on listening at most:
    /// between a tenth of `listenLimit` and all of it, as `random` draws.
    func listenSpan(random: (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }) -> Duration {
        let most = Int64(listenLimit / .microseconds(1))
        return .microseconds(random(most / 10...most))
    }

    /// How much longer a restart due now waits before it looks again,
    /// `sinceSighting` after the last sighting (nil: none yet), having
    /// waited `waited` already; `random` draws the backoff from a range.
    func holdRemaining(
        sinceSighting: Duration?, waited: Duration,
        random: (ClosedRange<Int64>) -> Int64 = { Int64.random(in: $0) }
    ) -> Duration {
        guard let sinceSighting, sinceSighting < hold else { return .zero }
        let extra = Duration.microseconds(random(0...Int64(backoff / .microseconds(1))))
        return min(hold - sinceSighting + extra, max(holdLimit - waited, .zero))
    }
}

/// What a discovery tells time with: the real clock in use, a test's own
/// in tests, so every step of the schedule is checked without waiting.
public protocol RadioClock: Sendable {
    /// Time since an origin of the clock's choosing; it never goes back.
    var elapsed: Duration { get }
    /// Returns after `duration`, or throws `CancellationError` if cancelled.
    func sleep(for duration: Duration) async throws
}

/// The real clock: monotonic, running on while the machine sleeps.
public struct ContinuousRadioClock: RadioClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var elapsed: Duration { ContinuousClock.now - origin }

    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
