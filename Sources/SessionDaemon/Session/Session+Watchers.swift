import EstimatorKit
import SessionCore

/// What the session streams: to `watch` clients and the relay (lines), to
/// the session log (lines and timings) and to the foreground table (a
/// change to redraw).
extension Session {
    /// Streams to a `watch` client: who I am now, the peers heard so far,
    /// then every line until the end. `send` returns false once the client
    /// is gone. Without the peers heard so far, a watch attached mid-session
    /// would show each peer only when heard again, which takes the radio
    /// several scan restarts (docs/MEASUREMENTS.md, The air).
    /// `airOnly` (the relay) leaves out what came through the relay.
    package func addWatcher(airOnly: Bool = false, _ send: @escaping @Sendable (String) -> Bool) {
        let (me, radio, heard) = board.read { [clock] core in
            (core.me(now: clock.now), ControlWatchLine.radio(core.radioState), core.heardLines(airOnly: airOnly, now: clock.now))
        }
        guard send(me.serialized), send(radio.serialized) else { return }
        for line in heard where !send(line.serialized) { return }
        outlets.addWatcher(send, airOnly: airOnly)
        updateForwarding()
    }

    /// Called with every line watchers get, as a value: for the session log.
    package func onLine(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { outlets.onLine(observer) }

    func broadcast(_ line: ControlWatchLine) {
        if outlets.broadcast(line) { updateForwarding() }
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
