/// When to try the broker again after a failed or lost connection:
/// exponential from `first` to `cap`, each delay scaled by a random factor
/// from 0.5 to 1.5 so that the sessions a broker restart disconnected do not
/// all come back in the same instant.
public struct Backoff: Sendable {
    public let first: Duration
    public let cap: Duration
    /// Failures since the last success.
    public private(set) var failures = 0

    public init(first: Duration = .milliseconds(500), cap: Duration = .seconds(30)) {
        self.first = first
        self.cap = cap
    }

    /// The delay before the next try; counts a failure.
    public mutating func next<G: RandomNumberGenerator>(using random: inout G) -> Duration {
        var delay = first
        for _ in 0..<min(failures, 16) where delay < cap { delay *= 2 }
        delay = min(delay, cap)
        failures += 1
        return delay * Double.random(in: 0.5...1.5, using: &random)
    }

    public mutating func next() -> Duration {
        var random = SystemRandomNumberGenerator()
        return next(using: &random)
    }

    /// A connection succeeded: the next failure starts from `first` again.
    public mutating func reset() { failures = 0 }
}
