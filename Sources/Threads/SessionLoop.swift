import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread that runs a session's Swift jobs, keeps the timers of the
/// sleeps made on it (`sleep(until:)`) and serves the descriptors of its
/// sources (`LoopSource`: the control socket) in one `poll`: the executor
/// of the session's actors (`SerialExecutor`) and the preferred executor
/// of its tasks (`TaskExecutor`, `withTaskExecutorPreference`), so their
/// nonisolated functions, child tasks and default actors run here too.
/// What a source reads reaches those jobs without a thread hop.
///
/// Why: a session is idle most of a meeting, and on Dispatch each timer
/// that fires wakes its manager thread, which wakes a worker of the pool,
/// which often wakes a second one, and a new sleep wakes the manager again
/// to re-arm (`make bench-idle`). Here a timer wakes this one thread once,
/// a sleep begun on it arms nothing, and work that other threads hand in
/// (a D-Bus reply) wakes it once.
///
/// The contract of the pool it stands in for holds: no job may block.
/// Blocking loops run on `LoopThread`s.
public final class SessionLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    /// What falls due on the thread: a sleep to end.
    private typealias Wake = @Sendable () -> Void

    private struct State {
        var ready: [UnownedJob] = []
        var timers = TimerQueue<Wake>()
        /// Set while the thread waits in `poll`: only then is a wake-up needed.
        var waiting = false
        var sources: [any LoopSource] = []
    }

    private let state = Mutex(State())
    /// A self-pipe: writing to `wakeFD` wakes the thread out of `poll` on `wakeReadFD`.
    private let wakeFD: Int32
    private let wakeReadFD: Int32
    /// The loop's thread, once it runs: `checkIsolated` compares with it.
    private let thread = Atomic<UInt>(0)

    /// Makes the wake-up pipe; `start()` starts the thread.
    private init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "cannot create the session loop's wake-up pipe (errno \(errno))")
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        wakeReadFD = fds[0]
        wakeFD = fds[1]
    }

    /// A new loop on a thread of its own, which runs for the life of the
    /// process (a job may come for it as long as anything refers to it).
    public static func start() -> SessionLoop {
        let loop = SessionLoop()
        LoopThread.spawn("the session loop") { loop.run() }
        return loop
    }

    /// The loop whose thread calls this, if the caller runs on one: where
    /// an unstructured task (which inherits no executor preference) is to
    /// run, `Task(executorPreference: SessionLoop.current)`.
    public static var current: SessionLoop? {
        guard let pointer = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<SessionLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The thread-specific slot that names a thread's loop.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "cannot create the session loop's thread key")
        return key
    }()

    // MARK: - Descriptors

    /// Serves `source`'s descriptors from the next wait on.
    public func add(_ source: any LoopSource) {
        let wake = state.withLock { state in
            state.sources.append(source)
            defer { state.waiting = false }
            return state.waiting
        }
        if wake { wakeUp() }
    }

    /// Stops serving `source`. Called on the loop's thread, outside the
    /// source's `serve`, `source` is not served again once this returns.
    public func remove(_ source: any LoopSource) {
        state.withLock { $0.sources.removeAll { $0 === source } }
    }

    /// Has the loop ask its sources for their descriptors again: a source
    /// calls it when it wants another event than it asked for last (output
    /// queued from another thread wants `POLLOUT`).
    public func refresh() {
        let wake = state.withLock { state in
            defer { state.waiting = false }
            return state.waiting
        }
        if wake { wakeUp() }
    }

    // MARK: - Executor

    /// One queue for both roles: a job of an actor and a job of a task that
    /// prefers this loop run alike, in order, on its thread.
    public func enqueue(_ job: consuming ExecutorJob) { schedule(UnownedJob(job)) }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    public func checkIsolated() {
        precondition(thread.load(ordering: .relaxed) == UInt(pthread_self()), "not on the session loop's thread")
    }

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
                if !sleep.armed(added.id) { _ = state.withLock { $0.timers.remove(added.id) } }
                if wake { wakeUp() }
            }
        } onCancel: {
            if let timer = sleep.cancel() { _ = state.withLock { $0.timers.remove(timer) } }
        }
    }

    /// One sleep's end, which the timer and a cancellation race for.
    private final class Sleep: Sendable {
        private enum Phase {
            case starting
            case asleep(CheckedContinuation<Void, any Error>)
            case over
        }

        private struct State {
            var phase = Phase.starting
            /// The sleep's timer, once armed.
            var timer: UInt64?
        }

        private let state = Mutex(State())

        /// Takes the continuation; false if the task was cancelled first.
        func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
            state.withLock { state in
                guard case .starting = state.phase else { return false }
                state.phase = .asleep(continuation)
                return true
            }
        }

        /// Notes the timer armed for this sleep; false if the sleep was
        /// cancelled meanwhile, and the timer is for the caller to take out.
        func armed(_ timer: UInt64) -> Bool {
            state.withLock { state in
                guard case .asleep = state.phase else { return false }
                state.timer = timer
                return true
            }
        }

        /// Ends the sleep, with `error` or on time, once.
        func end(_ error: (any Error)?) {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard case let .asleep(continuation) = state.phase else { return nil }
                state.phase = .over
                return continuation
            }
            if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
        }

        /// Cancels: ends the sleep now; returns its timer to take out, if armed.
        func cancel() -> UInt64? {
            let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, UInt64?) in
                defer { state.phase = .over }
                guard case let .asleep(continuation) = state.phase else { return (nil, nil) }
                return (continuation, state.timer)
            }
            continuation?.resume(throwing: CancellationError())
            return timer
        }
    }

    private func wakeUp() {
        var one: UInt8 = 1
        _ = write(wakeFD, &one, 1)
    }

    // MARK: - The loop

    private func run() {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        pthread_setspecific(Self.currentKey, Unmanaged.passUnretained(self).toOpaque())
        var batch: [UnownedJob] = []
        var fds: [pollfd] = []
        var polled: [(source: any LoopSource, slots: Range<Int>)] = []
        while true {
            let due = state.withLock { state -> [Wake] in
                state.timers.isEmpty ? [] : state.timers.takeDue(now: Self.now())
            }
            // A sleep that ends hands its task back to this thread: it joins the batch.
            for wake in due { wake() }
            // Jobs ready run first: a job's hop to the next job costs no
            // `poll`. With none, the loop waits for its sources, its wake-up
            // pipe and its next timer; a wake-up from the moment it means to
            // wait ends the wait, so what changes while the sources are
            // asked for their descriptors is not missed.
            let (timeout, sources) = state.withLock { state -> (Int32?, [any LoopSource]) in
                if !state.ready.isEmpty {
                    swap(&batch, &state.ready)
                    return (nil, [])
                }
                state.waiting = true
                guard let next = state.timers.nextDeadline else { return (-1, state.sources) }
                // Rounded up, so the thread never wakes before the timer is due.
                let remaining = next - Self.now()
                return (Int32(clamping: max(0, (remaining + 999_999) / 1_000_000)), state.sources)
            }
            if let timeout {
                fds.removeAll(keepingCapacity: true)
                fds.append(pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0))
                for source in sources {
                    let first = fds.count
                    fds.append(contentsOf: source.descriptors())
                    polled.append((source, first..<fds.count))
                }
                _ = poll(&fds, nfds_t(fds.count), timeout)
                if fds[0].revents & Int16(POLLIN) != 0 {
                    var drained = (UInt64(0), UInt64(0))
                    _ = withUnsafeMutableBytes(of: &drained) { read(wakeReadFD, $0.baseAddress, $0.count) }
                }
                state.withLock { $0.waiting = false }
                for (source, slots) in polled where fds[slots].contains(where: { $0.revents != 0 }) {
                    source.serve(Array(fds[slots]))
                }
                polled.removeAll(keepingCapacity: true)
                continue
            }
            for job in batch {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            }
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

/// Descriptors a `SessionLoop` serves: it polls them beside its wake-up
/// pipe and timers, and calls `serve` on its thread when one is ready.
/// Neither may block.
public protocol LoopSource: AnyObject, Sendable {
    /// The descriptors to poll now, with the events wanted; asked before
    /// every wait.
    func descriptors() -> [pollfd]

    /// What `poll` reported for the descriptors `descriptors()` gave last,
    /// in their order; called when at least one of them is ready.
    func serve(_ polled: [pollfd])
}
