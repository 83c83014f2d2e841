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
    /// (docs/MEASUREMENTS.md, The air).
    package func addWatcher(airOnly: Bool = false, _ send: @escaping @Sendable (String) -> Bool) {
        let (me, radio, first) = board.update { core, now in
            // Under the same lock as the catch-up, so that every change after
            // it is noted for this watch.
            if !airOnly { _ = core.take(.forward(.all), at: now) }
            return (core.me(now: now), ControlWatchLine.radio(core.radioState),
                    airOnly ? core.heardLines(now: now) : core.watchCatchUp(now: now))
        }
        if send(me.serialized), send(radio.serialized), first.allSatisfy({ send($0.serialized) }) {
            outlets.addWatcher(send, airOnly: airOnly)
        }
        updateForwarding()
    }

    /// Called with every line watchers get, as a value: for the session log.
    package func onLine(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { outlets.onLine(observer) }

    func broadcast(_ line: ControlWatchLine) {
        if outlets.broadcast(line) { updateForwarding() }
    }

    /// Streams the changes and tables the core decided since the last
    /// time, when there are any.
    func broadcastWatchLines() {
        for line in board.update({ $0.watchLines(now: $1) }) { broadcast(line) }
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
