import EstimatorKit
import SessionCore

/// Where the session's news goes: watch lines (to `watch` clients and the
/// session log), the change observers (the foreground table's redraw), the
/// reveal observers (the history) and the tracers (timing lines for the
/// session log).
struct SessionOutlets {
    private var lines = WatchLines()
    private var observers: [@Sendable () -> Void] = []
    private var revealObservers: [@Sendable (RevealedRound) -> Void] = []
    private var tracers: [@Sendable (String) -> Void] = []

    /// Which receptions the session must be woken for: watchers stream every
    /// reception and the foreground table redraws on each; the relay streams
    /// only those from the air; without them only row changes matter.
    var forwarding: SessionCore.Forwarding {
        lines.wantsEveryReception || !observers.isEmpty ? .all : lines.hasWatchers ? .air : .changes
    }

    /// Adds a `watch` client (see `WatchLines.add`).
    mutating func addWatcher(_ send: @escaping @Sendable (String) -> Bool, airOnly: Bool, openCards: Bool) {
        lines.add(send, airOnly: airOnly, openCards: openCards)
    }

    /// Whether a `watch` client shows every card known at once.
    var hasOpenWatchers: Bool { lines.hasOpenWatchers }

    /// Lets every `watch` client go (the session ended).
    mutating func dropWatchers() { lines.dropWatchers() }

    /// Adds an observer of every watch line, taken as a value: the session
    /// log would otherwise serialise each signal's line and parse it back
    /// (a tenth of a session's CPU time in a room: perf, make bench-session).
    mutating func onLine(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { lines.observe(observer) }

    /// Sends `line` to the watch clients and line observers (`openCards`:
    /// see `WatchLines.send`); returns whether a client just left, which
    /// may change `forwarding`.
    mutating func broadcast(_ line: ControlWatchLine, openCards: Bool?) -> Bool { lines.send(line, openCards: openCards) }

    /// Adds an observer called after every change.
    mutating func onChange(_ observer: @escaping @Sendable () -> Void) { observers.append(observer) }

    /// Tells the change observers that something changed.
    func changed() { for observer in observers { observer() } }

    /// Adds an observer of my channel's reveals and re-votes.
    mutating func onReveal(_ observer: @escaping @Sendable (RevealedRound) -> Void) { revealObservers.append(observer) }

    /// Reports a revealed round, or a change of its votes, to the reveal observers.
    func revealed(_ round: RevealedRound) { for observer in revealObservers { observer(round) } }

    /// Adds a taker of the timing lines.
    mutating func onTrace(_ tracer: @escaping @Sendable (String) -> Void) { tracers.append(tracer) }

    /// Hands a timing line to the tracers; the line is only built when
    /// someone takes it, as most sessions run without the log.
    func trace(_ line: @autoclosure () -> String) {
        guard !tracers.isEmpty else { return }
        let text = line()
        for tracer in tracers { tracer(text) }
    }
}
