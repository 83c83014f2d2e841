/// Serialises what stops and starts a discovery (its periodic restarts and
/// `Discovery.pausing`), so one never starts scanning under the other.
/// A FIFO lock whose waiters suspend instead of blocking a thread.
actor ScanLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if held {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            held = true
        }
        defer {
            if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
        }
        return try await body()
    }
}
