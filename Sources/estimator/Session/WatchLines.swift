import EstimatorKit

/// Where the session's watch lines go: the `watch` clients streaming them
/// as text, and the observers (the session log) taking them as values.
struct WatchLines {
    private var watchers: [UInt64: @Sendable (String) -> Bool] = [:]
    private var nextWatcher: UInt64 = 0
    private var observers: [@Sendable (ControlWatchLine) -> Void] = []

    /// Whether a `watch` client is streaming.
    var hasWatchers: Bool { !watchers.isEmpty }

    /// Adds a client; `send` returns false once it is gone.
    mutating func add(_ send: @escaping @Sendable (String) -> Bool) {
        nextWatcher += 1
        watchers[nextWatcher] = send
    }

    /// Adds an observer of every line, as a value.
    mutating func observe(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { observers.append(observer) }

    /// Sends `line` to everyone; returns whether the last client just left.
    mutating func send(_ line: ControlWatchLine) -> Bool {
        for observer in observers { observer(line) }
        // Most signals reach a session nobody watches: serialising them
        // would be a tenth of its CPU time in a room (perf, make bench-session).
        guard !watchers.isEmpty else { return false }
        let text = line.serialized
        for (id, send) in watchers where !send(text) { watchers[id] = nil }
        return watchers.isEmpty
    }

    /// Lets every client go (the session ended).
    mutating func dropWatchers() { watchers = [:] }
}

extension Duration {
    /// Milliseconds with two decimals, for the session's timing lines.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let hundredths = seconds * 100_000 + attoseconds / 10_000_000_000_000
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
