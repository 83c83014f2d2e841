import CConcurrencyHooks
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread that runs every Swift task of the process, and keeps the
/// timers of the sleeps made through it (`sleep(until:)`): the global
/// executor, taken over from Dispatch by `takeOverGlobalExecutor()`.
///
/// Why: a session is idle most of a meeting, and on Dispatch each timer
/// that fires wakes its manager thread, which wakes a worker of the pool,
/// which often wakes a second one, and a new sleep wakes the manager again
/// to re-arm: about seven context switches for a tick that does nothing
/// (`make bench-idle`). Here a timer wakes this one thread once, a sleep
/// begun on it arms nothing, and work that other threads hand in (a D-Bus
/// reply, a control request) wakes it once.
///
/// The contract of the pool it replaces holds: no job may block. Blocking
/// loops run on `LoopThread`s, as they do with Dispatch.
public final class TaskThread: SerialExecutor, @unchecked Sendable {
    /// What falls due on the thread: a sleep to end.
    private typealias Wake = @Sendable () -> Void

    private struct State {
        var ready: [UnownedJob] = []
        var timers = TimerQueue<Wake>()
        /// Set while the thread waits in `poll`: only then is a wake-up needed.
        var waiting = false
    }

    private let state = Mutex(State())
    /// A self-pipe: writing to `wakeFD` wakes the thread out of `poll` on `wakeReadFD`.
    private let wakeFD: Int32
    private let wakeReadFD: Int32

    private init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "cannot create the task thread's wake-up pipe (errno \(errno))")
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeReadFD = fds[0]
        wakeFD = fds[1]
        LoopThread.spawn("the task thread") { self.run() }
    }

    /// The process's task thread, once `takeOverGlobalExecutor()` made it.
    public static var current: TaskThread? { shared.withLock { $0 } }

    private static let shared = Mutex<TaskThread?>(nil)
    /// The same, for the hook: written once, before it is installed.
    nonisolated(unsafe) private static var installed: TaskThread!

    /// From now on every job of the global executor runs on one new thread.
    /// For a long-running process with no CPU-bound work (the session);
    /// call it once, early. Jobs already with Dispatch finish there.
    public static func takeOverGlobalExecutor() {
        let thread = shared.withLock { current -> TaskThread? in
            guard current == nil else { return nil }
            current = TaskThread()
            return current
        }
        guard let thread else { return }
        installed = thread
        typealias Enqueue = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void
        let hook: Enqueue = { job, _ in TaskThread.installed.schedule(job) }
        estimator_install_global_executor_hook(unsafeBitCast(hook, to: UnsafeMutableRawPointer.self))
    }

    // MARK: - Executor

    public func enqueue(_ job: consuming ExecutorJob) { schedule(UnownedJob(job)) }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    private func schedule(_ job: UnownedJob) {
        let wake = state.withLock { state in
            state.ready.append(job)
            defer { state.waiting = false }
            return state.waiting
        }
        if wake { wakeUp() }
    }

    // MARK: - Sleeping

    /// Returns once `deadline` has passed, or throws `CancellationError`
    /// as soon as the task is cancelled. The thread's own timer keeps it,
    /// so a sleep costs no other thread's wake-up.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let sleep = Sleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.begin(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let remaining = ContinuousClock.now.duration(to: deadline)
                let at = Self.now() &+ max(0, Self.nanoseconds(remaining))
                let (added, wake) = state.withLock { state in
                    let added = state.timers.add({ sleep.end(nil) }, at: at)
                    guard added.isEarliest, state.waiting else { return (added, false) }
                    state.waiting = false
                    return (added, true)
                }
                sleep.timer = added.id
                if wake { wakeUp() }
            }
        } onCancel: {
            if let timer = sleep.cancel() { _ = state.withLock { $0.timers.remove(timer) } }
        }
    }

    /// One sleep's end, which the timer and a cancellation race for.
    private final class Sleep: @unchecked Sendable {
        private enum Phase {
            case starting
            case asleep(CheckedContinuation<Void, any Error>)
            case cancelled
            case over
        }

        private let phase = Mutex(Phase.starting)
        private let timerID = Mutex<UInt64?>(nil)

        var timer: UInt64? {
            get { timerID.withLock { $0 } }
            set { timerID.withLock { $0 = newValue } }
        }

        /// Takes the continuation; false if the task was cancelled first.
        func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            phase.withLock { phase in
                guard case .starting = phase else { return false }
                phase = .asleep(continuation)
                return true
            }
        }

        /// Ends the sleep, with `error` or on time, once.
        func end(_ error: (any Error)?) {
            let continuation = phase.withLock { phase -> CheckedContinuation<Void, any Error>? in
                guard case let .asleep(continuation) = phase else { return nil }
                phase = .over
                return continuation
            }
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
        }

        /// Cancels: ends the sleep now; returns its timer to take out, if set.
        func cancel() -> UInt64? {
            let starting = phase.withLock { phase -> Bool in
                guard case .starting = phase else { return false }
                phase = .cancelled
                return true
            }
            if !starting { end(CancellationError()) }
            return timer
        }
    }

    private func wakeUp() {
        var one: UInt8 = 1
        _ = write(wakeFD, &one, 1)
    }

    // MARK: - The loop

    private func run() {
        var batch: [UnownedJob] = []
        var fd = pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0)
        while true {
            let due = state.withLock { state -> [Wake] in
                state.timers.isEmpty ? [] : state.timers.takeDue(now: Self.now())
            }
            // A sleep that ends hands its task back to this thread: it joins the batch.
            for wake in due { wake() }
            let timeout = state.withLock { state -> Int32 in
                if !state.ready.isEmpty {
                    swap(&batch, &state.ready)
                    return 0
                }
                state.waiting = true
                guard let next = state.timers.nextDeadline else { return -1 }
                // Rounded up, so the thread never wakes before the timer is due.
                let remaining = next - Self.now()
                return Int32(clamping: max(0, (remaining + 999_999) / 1_000_000))
            }
            if batch.isEmpty {
                _ = poll(&fd, 1, timeout)
                var drained = (UInt64(0), UInt64(0))
                _ = withUnsafeMutableBytes(of: &drained) { read(wakeReadFD, $0.baseAddress, $0.count) }
                state.withLock { $0.waiting = false }
                continue
            }
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Now on the continuous clock, in nanoseconds.
    private static func now() -> Int64 { nanoseconds(ContinuousClock.now - origin) }

    private static let origin = ContinuousClock.now

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
