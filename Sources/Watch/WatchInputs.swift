import Clocks
import Dispatch
import EstimatorKit
import Glibc
import SessionDaemon
import Threads

/// Everything `watch` reacts to, as one stream: what its feed says (a
/// session's lines, or its own scan's), a periodic tick for the table's
/// redraws (its ages), terminal resizes, Ctrl-C or `q`, and the end of
/// `--once`.
package final class WatchInputs {
    /// One input, in the order it came.
    package enum Input: Sendable {
        case line(ControlWatchLine)
        /// The feed sent something that is not a watch line (a session bug).
        case malformed
        /// The feed ended: the session stopped answering, or the scan failed.
        case ended(UserError)
        case tick
        case resize
        case interrupted
        /// `--once`: time to print the table and exit.
        case deadline
    }

    let stream: AsyncStream<Input>
    private let feed: any WatchFeed
    private let ticker: Task<Void, Never>?
    private let signals: SignalWatch
    private let resizes: SignalWatch
    private let keyboard: Keyboard?
    private let deadline: Task<Void, Never>?

    /// `tick`: how often to tick, if at all; `keys`: read `q` from the
    /// terminal; `deadline`: end after this long; `clock` times the ticks
    /// and the deadline.
    init(feed: any WatchFeed, tick: Duration?, keys: Bool = false, deadline: Duration? = nil,
         clock: any SessionClock = SystemClock()) {
        let (stream, sink) = AsyncStream.makeStream(of: Input.self)
        self.stream = stream
        self.feed = feed
        feed.start(sink)
        ticker = tick.map { tick in
            Task {
                while !Task.isCancelled {
                    try? await clock.sleep(for: tick)
                    sink.yield(.tick)
                }
            }
        }
        signals = SignalWatch(signals: [SIGINT, SIGTERM, SIGHUP]) { sink.yield(.interrupted) }
        resizes = SignalWatch(signals: [SIGWINCH]) { sink.yield(.resize) }
        keyboard = keys && isatty(0) == 1 ? Keyboard() : nil
        if let keyboard {
            Task {
                for await key in keyboard.keys() where key == Keyboard.quit { sink.yield(.interrupted) }
            }
        }
        self.deadline = deadline.map { wait in
            Task {
                try? await clock.sleep(for: wait)
                sink.yield(.deadline)
            }
        }
    }

    /// Stops the feed; the ticker and signal watches stop with this value.
    func stop() async {
        keyboard?.restore()
        await feed.stop()
    }

    deinit {
        keyboard?.restore()
        deadline?.cancel()
        ticker?.cancel()
        signals.cancel()
        resizes.cancel()
    }
}

/// Where a watch's lines come from: a running session, or its own scan.
package protocol WatchFeed: Sendable {
    /// Starts yielding `.line`, `.malformed` and, last, `.ended` into `sink`.
    func start(_ sink: AsyncStream<WatchInputs.Input>.Continuation)
    /// Stops the feed (the watch is done) and returns once it has.
    func stop() async
}

/// A session's watch stream, read on its own thread (the socket is blocking).
package final class SessionFeed: WatchFeed, @unchecked Sendable {
    // The client is used by the reader thread alone once started.
    private let client: ControlClient

    /// A feed of the session's lines through `client`.
    package init(client: ControlClient) { self.client = client }

    package func start(_ sink: AsyncStream<WatchInputs.Input>.Continuation) {
        LoopThread.spawn("the watch's input thread") { [self] in
            while let bytes = (try? client.readLine()) ?? nil {
                if let line = try? ControlWatchLine(parsing: bytes) { sink.yield(.line(line)) } else { sink.yield(.malformed) }
            }
            sink.yield(.ended(UserError(.unavailable, "The session stopped answering; run `estimator status`.")))
        }
    }

    /// Nothing to stop: the reader thread ends with the process, which ends with the watch.
    package func stop() async {}
}
