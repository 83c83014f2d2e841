import EstimatorKit

/// Where the session's watch lines go: the `watch` clients streaming them
/// as text, and the observers (the session log) taking them as values.
struct WatchLines {
    private struct Watcher {
        let send: @Sendable (String) -> Bool
        /// Whether it is the relay, which wants who I am and the receptions
        /// heard over the air, where a `watch` wants what the session decided.
        let airOnly: Bool
        /// Whether it shows every card known as soon as it is picked.
        let openCards: Bool

        /// Whether `line`, made for watchers showing the cards as
        /// `openCards` says (nil: for all), is for this one.
        func wants(_ line: ControlWatchLine, openCards: Bool?) -> Bool {
            if let openCards, openCards != self.openCards { return false }
            return switch line {
            case let .heard(_, _, relayed, _): airOnly && !relayed
            case .table, .seen, .change: !airOnly
            case .me, .radio, .ended: true
            }
        }
    }

    private var watchers: [UInt64: Watcher] = [:]
    private var nextWatcher: UInt64 = 0
    private var observers: [@Sendable (ControlWatchLine) -> Void] = []

    /// Whether a `watch` client or the relay is streaming.
    var hasWatchers: Bool { !watchers.isEmpty }

    /// Whether a `watch` client streams: it is told of every reception.
    var wantsEveryReception: Bool { watchers.values.contains { !$0.airOnly } }

    /// Whether a `watch` client shows every card known at once.
    var hasOpenWatchers: Bool { watchers.values.contains(where: \.openCards) }

    /// Adds a client; `send` returns false once it is gone. An `airOnly`
    /// client (the relay) gets `heard` lines of what came over the air; a
    /// `watch` gets the tables and changes instead, made for it as
    /// `openCards` says (`watch --open`).
    mutating func add(_ send: @escaping @Sendable (String) -> Bool, airOnly: Bool = false, openCards: Bool = false) {
        nextWatcher += 1
        watchers[nextWatcher] = Watcher(send: send, airOnly: airOnly, openCards: openCards)
    }

    /// Adds an observer of every line, as a value.
    mutating func observe(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { observers.append(observer) }

    /// Sends `line` to everyone who wants it; `openCards` says for which
    /// watchers a table or a change was made (nil: for all). Returns
    /// whether a client just left (what the session forwards may change).
    mutating func send(_ line: ControlWatchLine, openCards: Bool? = nil) -> Bool {
        if openCards != true { for observer in observers { observer(line) } }
        // Most signals reach a session nobody watches: serialising them
        // would be a tenth of its CPU time in a room (perf, make bench-session).
        guard watchers.values.contains(where: { $0.wants(line, openCards: openCards) }) else { return false }
        let text = line.serialized
        var left = false
        for (id, watcher) in watchers where watcher.wants(line, openCards: openCards) && !watcher.send(text) {
            watchers[id] = nil
            left = true
        }
        return left
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
