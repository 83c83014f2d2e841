/// Tasks waiting until a count (tasks sleeping on a test clock, lines
/// received) reaches the number each waits for. Its owner keeps it under
/// its own lock with the count, and resumes what it hands back once the
/// lock is let go.
public struct CountWaiters: Sendable {
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    /// Keeps `continuation` until the count reaches `count`; hands it back,
    /// to resume at once, when the count is there already (`current`).
    public mutating func wait(for count: Int, current: Int,
                              _ continuation: CheckedContinuation<Void, Never>) -> CheckedContinuation<Void, Never>? {
        if current >= count { return continuation }
        waiters.append((count, continuation))
        return nil
    }

    /// Takes the waiters the count, now `current`, has reached.
    public mutating func reached(_ current: Int) -> [CheckedContinuation<Void, Never>] {
        let ready = waiters.filter { $0.count <= current }.map(\.continuation)
        waiters.removeAll { $0.count <= current }
        return ready
    }
}
