import Glibc
import Synchronization
import Threads

/// Turns signals into a callback, so a session leaves properly instead of
/// dying mid-broadcast, and a watch puts the terminal back.
///
/// The handler is installed with `sigaction` before `init` returns, so every
/// signal from then on is caught: `join` answers once the session has made
/// its watch, and a signal sent the moment `join` returns must end the
/// session. (A Dispatch signal source is armed later, on Dispatch's own
/// thread, and a signal that came in between met the `SIG_IGN` set for it
/// and was lost: the session never left.) The handler does the one thing a
/// handler may safely do, write the signal's number to a pipe, which a
/// session's loop serves, or else a thread of the watch reads, to call back.
package final class SignalWatch: Sendable {
    /// The write end of the pipe of each watched signal, by number, for the
    /// handler: a table fixed at start, since a handler may neither lock
    /// nor allocate. -1 where no watch is.
    nonisolated(unsafe) private static let pipes: UnsafeMutablePointer<Int32> = {
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: tableSize)
        table.initialize(repeating: -1, count: tableSize)
        return table
    }()
    private static let tableSize = 65

    private let signals: [Int32]
    private let writeEnd: Int32
    private let cancelled = Atomic<Bool>(false)

    /// Calls `handler` for each of `signals` received: on `loop`'s thread,
    /// or without a loop on a thread of its own.
    package init(signals: [Int32], on loop: SessionLoop? = nil, handler: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "cannot watch signals (pipe: \(errno))")
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.signals = signals
        writeEnd = ends[1]
        let readEnd = ends[0]
        if let loop {
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            loop.add(Reader(readEnd, loop: loop, handler: handler))
        } else {
            Self.readOnThread(readEnd, handler: handler)
        }
        for number in signals where number > 0 && number < Self.tableSize {
            Self.pipes[Int(number)] = writeEnd
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                let fd = SignalWatch.pipes[Int(number)]
                var byte = UInt8(truncatingIfNeeded: number)
                if fd >= 0 { _ = write(fd, &byte, 1) }
                errno = saved
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
    }

    /// Reads the pipe on a thread of its own until the watch is cancelled.
    private static func readOnThread(_ readEnd: Int32, handler: @escaping @Sendable () -> Void) {
        LoopThread.spawn("the signal thread") {
            _ = drain(readEnd, handler: handler)
            close(readEnd)
        }
    }

    /// Calls back for each signal in the pipe `fd` until it would block
    /// (returns false) or ends (returns true: the watch was cancelled, its
    /// write end closed).
    private static func drain(_ fd: Int32, handler: @Sendable () -> Void) -> Bool {
        var number: UInt8 = 0
        while true {
            let count = read(fd, &number, 1)
            if count == 1 {
                handler()
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return !(count < 0 && errno == EAGAIN)
            }
        }
    }

    /// The read end of the pipe on a loop: calls back for each signal read,
    /// and at the end of the pipe (the watch cancelled) leaves the loop.
    private final class Reader: LoopSource {
        private let fd: Int32
        private let loop: SessionLoop
        private let handler: @Sendable () -> Void

        init(_ fd: Int32, loop: SessionLoop, handler: @escaping @Sendable () -> Void) {
            self.fd = fd
            self.loop = loop
            self.handler = handler
        }

        func descriptors() -> [pollfd] { [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)] }

        func serve(_ polled: [pollfd]) {
            guard SignalWatch.drain(fd, handler: handler) else { return }
            loop.remove(self)
            close(fd)
        }
    }

    /// Stops calling back; safe to call more than once. The signals are ignored from then on: the
    /// process is ending, and a second Ctrl-C must not cut its leave short.
    package func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for number in signals where number > 0 && number < Self.tableSize {
            signal(number, SIG_IGN)
            Self.pipes[Int(number)] = -1
        }
        close(writeEnd)
    }
}
