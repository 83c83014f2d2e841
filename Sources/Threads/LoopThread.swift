#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread for a blocking loop (`poll`, `read`, `waitpid`),
/// kept off Swift's cooperative pool, which must never block: the D-Bus
/// event loop, the session's loop, the signal reader, the watch's inputs,
/// the relay's reaper.
public enum LoopThread {
    /// Runs `body` on a new detached thread, which holds what `body`
    /// captures until it returns. `purpose` names the thread if it cannot
    /// be started, which leaves the process unable to work: a crash.
    public static func spawn(_ purpose: String, _ body: @escaping @Sendable () -> Void) {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
        precondition(result == 0, "cannot start \(purpose) (pthread_create: \(result))")
        pthread_detach(thread)
    }
}
