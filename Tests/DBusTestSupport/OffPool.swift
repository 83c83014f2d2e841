import Foundation

/// Runs blocking work (reading a child's pipe, waiting for it) on a thread of
/// its own and awaits the result.
///
/// Not on a Dispatch queue: on Linux, Swift's cooperative pool *is*
/// Dispatch's global pool, so blocking a `DispatchQueue.global()` thread
/// takes a thread from the tasks that serve a fake bluetoothd or a test
/// bus meanwhile. With every pool thread waiting on a child that waits on
/// that fake, nothing runs until a D-Bus call times out.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs blocking clean-up on a thread of its own, without waiting for it
/// (from a `deinit`, which cannot await).
public func inBackground(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}
