import CDBus
import Threads
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The thread that drives one libdbus connection: it polls the connection's watches,
/// fires its timeouts, dispatches what arrived, and runs the jobs other threads post.
///
/// Every libdbus call on the connection happens on this thread (jobs included), so
/// libdbus is effectively single-threaded and the routing tables need no locks. The
/// thread sleeps in `poll` when there is nothing to do: no busy thread.
final class EventLoop: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private struct Jobs {
        var queue: [Job] = []
        var closed = false
    }

    private let jobs = Mutex(Jobs())
    /// A self-pipe: writing to `wakeFD` wakes the thread out of `poll` on `wakeReadFD`.
    private let wakeFD: Int32
    private let wakeReadFD: Int32
    private let connection: OpaquePointer

    // Loop-thread state. Watch and timeout callbacks also run here (or before `start`).
    private var watches: [OpaquePointer] = []
    private var timeouts: [(timeout: OpaquePointer, deadline: UInt64)] = []
    /// Called after each dispatch round; returns false to end the loop.
    private var afterDispatch: () -> Bool = { true }
    /// Called last on the loop thread, after the final jobs.
    private var onExit: () -> Void = {}
    /// While true the loop stops reading the socket: a consumer is too far behind, so
    /// unread messages stay with the kernel and the bus instead of piling up here.
    private var readingPaused: () -> Bool = { false }
    /// Whether signals routed in this round wait for the round's end (in a stream's
    /// batch), so that reading on first lets one wake-up of the consumer cover more.
    private var batching: () -> Bool = { false }
    /// Whether a call waits for its reply: its reply is read at once, whatever the pacing.
    private var awaitingReply: () -> Bool = { false }
    /// When the socket is read while messages come fast (`Connection.paceReading`).
    private var pacing = ReadPacing()

    init(connection: OpaquePointer) throws(DBusError) {
        self.connection = connection
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            throw DBusError(name: .failed, message: "cannot create the event loop's wake-up pipe (errno \(errno))")
        }
        wakeReadFD = pipeFDs[0]
        wakeFD = pipeFDs[1]
        for fd in pipeFDs {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, addWatch, removeWatch, { _, _ in }, me, nil)
        dbus_connection_set_timeout_functions(connection, addTimeout, removeTimeout, toggleTimeout, me, nil)
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(wakeReadFD)
    }

    /// Starts the thread; it holds the loop (and `afterDispatch`'s captures) until it ends.
    func start(
        afterDispatch: @escaping () -> Bool, readingPaused: @escaping () -> Bool, batching: @escaping () -> Bool,
        awaitingReply: @escaping () -> Bool, onExit: @escaping () -> Void
    ) {
        self.afterDispatch = afterDispatch
        self.readingPaused = readingPaused
        self.batching = batching
        self.awaitingReply = awaitingReply
        self.onExit = onExit
        LoopThread.spawn("the D-Bus event loop thread") { self.run() }
    }

    /// Runs `job` on the loop thread. Returns false, without running it, once the loop has ended.
    @discardableResult
    func perform(_ job: @escaping Job) -> Bool {
        let wake = jobs.withLock { state -> Bool? in
            if state.closed { return nil }
            state.queue.append(job)
            return state.queue.count == 1
        }
        guard let wake else { return false }
        if wake { wakeUp() }
        return true
    }

    /// Reads the socket at most once per `milliseconds` while messages come
    /// closer together than that (`ReadPacing`); 0 reads at once. Loop thread.
    func pace(every milliseconds: UInt64) { pacing.interval = milliseconds }

    private func wakeUp() {
        var one: UInt8 = 1
        _ = Glibc.write(wakeFD, &one, 1)
    }

    // MARK: - The loop

    private func run() {
        var fds: [pollfd] = []
        var polled: [OpaquePointer?] = []
        while true {
            runJobs()
            dispatch()
            if !afterDispatch() { break }

            fds.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0))
            polled.append(nil)
            let held = !pacing.isOn || awaitingReply() ? nil : pacing.heldUntil(Self.now())
            let paused = readingPaused() || held != nil
            for watch in watches where dbus_watch_get_enabled(watch) != 0 {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & DBUS_WATCH_READABLE.rawValue != 0, !paused { events |= Int16(POLLIN) }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
                polled.append(watch)
            }
            let ready = poll(&fds, nfds_t(fds.count), pollTimeout(heldUntil: held))
            if ready < 0 && errno != EINTR { break }
            if fds[0].revents != 0 {
                var drain = (UInt64(0), UInt64(0))
                _ = withUnsafeMutableBytes(of: &drain) { Glibc.read(wakeReadFD, $0.baseAddress, $0.count) }
            }
            for index in 1..<fds.count where fds[index].revents != 0 {
                // A watch handled earlier in this round may have removed this one.
                guard let watch = polled[index], watches.contains(watch) else { continue }
                if pacing.isOn, fds[index].revents & Int16(POLLIN) != 0 { pacing.read(at: Self.now()) }
                dbus_watch_handle(watch, Self.watchFlags(fds[index].revents))
                if fds[index].revents == Int16(POLLIN) { drainReadable(watch, fd: fds[index].fd) }
            }
            fireTimeouts()
        }
        jobs.withLock { $0.closed = true }
        // Jobs posted before the door closed still run; they see the connection closed.
        runJobs()
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        onExit()
        afterDispatch = { false }
        onExit = {}
        readingPaused = { false }
        batching = { false }
        awaitingReply = { false }
    }

    private func dispatch() {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// libdbus reads until the socket is empty or it has 2-4 KiB. When what it read
    /// waits in a stream's batch and more is waiting, read on (up to a bound) so one
    /// dispatch round — and one wake-up of the consumer — covers many messages instead
    /// of a handful. With paced reading, read on too: a read is the last for up to the
    /// interval, and a burst (BlueZ's signals at a scan start, a few KiB each) left in
    /// the socket would come 2-4 KiB per interval. Otherwise signals that went to
    /// handlers are done with: for them the probe would only add a system call per
    /// wake-up (make bench-session: 4 instead of 3).
    private func drainReadable(_ watch: OpaquePointer, fd: Int32) {
        var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        for _ in 0..<Self.maxReadsPerRound {
            // Jobs posted before these messages were read go first, as at the top of the loop.
            runJobs()
            dispatch()
            guard batching() || pacing.isOn, !readingPaused(), poll(&probe, 1, 0) == 1, probe.revents == Int16(POLLIN),
                watches.contains(watch), dbus_watch_get_enabled(watch) != 0
            else { return }
            dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue)
        }
    }

    private static let maxReadsPerRound = 32

    private func runJobs() {
        let batch = jobs.withLock { state -> [Job] in
            // Taking an empty queue would still allocate: emptying a shared array
            // while keeping its capacity copies it (one malloc and free a round).
            guard !state.queue.isEmpty else { return [] }
            let batch = state.queue
            state.queue.removeAll(keepingCapacity: true)
            return batch
        }
        for job in batch { job() }
    }

    private static func watchFlags(_ revents: Int16) -> UInt32 {
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        return flags
    }

    // MARK: - Timeouts

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000 + UInt64(time.tv_nsec) / 1_000_000
    }

    /// Until the first timeout is due, or reading resumes after a hold.
    private func pollTimeout(heldUntil: UInt64?) -> Int32 {
        var first = heldUntil
        for timeout in timeouts { first = min(first ?? timeout.deadline, timeout.deadline) }
        guard let next = first else { return -1 }
        let now = Self.now()
        return next <= now ? 0 : Int32(clamping: next - now)
    }

    private func fireTimeouts() {
        guard !timeouts.isEmpty else { return }
        let now = Self.now()
        guard timeouts.contains(where: { $0.deadline <= now }) else { return }
        let due = timeouts.filter { $0.deadline <= now }.map(\.timeout)
        for timeout in due {
            // An earlier handler may have removed it; libdbus re-arms by staying enabled.
            guard let index = timeouts.firstIndex(where: { $0.timeout == timeout }) else { continue }
            timeouts[index].deadline = now + UInt64(max(0, dbus_timeout_get_interval(timeout)))
            dbus_timeout_handle(timeout)
        }
    }

    fileprivate func add(watch: OpaquePointer) { watches.append(watch) }
    fileprivate func remove(watch: OpaquePointer) { watches.removeAll { $0 == watch } }

    fileprivate func set(timeout: OpaquePointer) {
        timeouts.removeAll { $0.timeout == timeout }
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        timeouts.append((timeout, Self.now() + UInt64(max(0, dbus_timeout_get_interval(timeout)))))
    }

    fileprivate func remove(timeout: OpaquePointer) { timeouts.removeAll { $0.timeout == timeout } }
}

private func loop(_ data: UnsafeMutableRawPointer?) -> EventLoop {
    Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue()
}

private let addWatch: DBusAddWatchFunction = { watch, data in
    loop(data).add(watch: watch!)
    return 1
}
private let removeWatch: DBusRemoveWatchFunction = { watch, data in loop(data).remove(watch: watch!) }
private let addTimeout: DBusAddTimeoutFunction = { timeout, data in
    loop(data).set(timeout: timeout!)
    return 1
}
private let removeTimeout: DBusRemoveTimeoutFunction = { timeout, data in loop(data).remove(timeout: timeout!) }
private let toggleTimeout: DBusTimeoutToggledFunction = { timeout, data in loop(data).set(timeout: timeout!) }
