import EstimatorKit
import SessionCore

/// What the session streams: to `watch` clients and the relay (lines), to
/// the session log (lines and timings) and to the foreground table (a
/// change to redraw).
extension Session {
    /// Streams to a `watch` client: who I am now, then the truth of every
    /// channel heard (`SessionCore.watchCatchUp`), then every line until
    /// the end; so a watch attached late, a `--once` and a pipe start from
    /// what the session decided. `send` returns false once the client is
    /// gone. `airOnly` (the relay) gets the peers heard so far over the air
    /// instead, as `heard` lines: without them it would forward each peer
    /// only when heard again, which takes the radio several scan restarts
    /// (docs/MEASUREMENTS.md, The air). `openCards` (`watch --open`): the
    /// tables and changes show every card known as soon as it is picked.
    package func addWatcher(airOnly: Bool = false, openCards: Bool = false, _ send: @escaping @Sendable (String) -> Bool) {
        let (me, radio, first) = board.update { core, now in
            // Under the same lock as the catch-up, so that every change after
            // it is noted for this watch.
            if !airOnly { _ = core.take(.forward(.all), at: now) }
            return (core.me, ControlWatchLine.radio(core.radioState),
                    airOnly ? core.heardLines(now: now) : core.watchCatchUp(now: now, open: openCards))
        }
        if send(me.serialized), send(radio.serialized), first.allSatisfy({ send($0.serialized) }) {
            outlets.addWatcher(send, airOnly: airOnly, openCards: openCards)
        }
        updateForwarding()
    }

    /// Called with every line watchers get, as a value: for the session log.
    package func onLine(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { outlets.onLine(observer) }

    /// Sends `line` to the watchers that want it: those showing every card
    /// known at once (`openCards` true), the others (false), or all (nil).
    func broadcast(_ line: ControlWatchLine, openCards: Bool? = nil) {
        if outlets.broadcast(line, openCards: openCards) { updateForwarding() }
    }

    /// Streams the changes and tables the core decided since the last
    /// time, when there are any: to each watcher as it shows the cards.
    func broadcastWatchLines() {
        let openToo = outlets.hasOpenWatchers
        let (shut, open) = board.update { $0.watchLines(now: $1, openToo: openToo) }
        for line in shut { broadcast(line, openCards: false) }
        for line in open { broadcast(line, openCards: true) }
    }

    /// Called with a timing line for every advertisement update and every
    /// changed row: how long our own part took, for the session log.
    package func onTrace(_ tracer: @escaping @Sendable (String) -> Void) { outlets.onTrace(tracer) }

    func trace(_ line: @autoclosure () -> String) { outlets.trace(line()) }

    /// Called after every change, for the foreground table's redraw.
    package func onChange(_ observer: @escaping @Sendable () -> Void) {
        outlets.onChange(observer)
        updateForwarding()
    }
}
