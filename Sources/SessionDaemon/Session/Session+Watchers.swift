import EstimatorKit

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
        guard send(me.serialized), send(ControlWatchLine.radio(radioState).serialized) else { return }
        for line in board.heardLines(airOnly: airOnly) where !send(line.serialized) { return }
        outlets.addWatcher(send, airOnly: airOnly)
        updateForwarding()
    }

    /// Called with every line watchers get, as a value: for the session log.
    func onLine(_ observer: @escaping @Sendable (ControlWatchLine) -> Void) { outlets.onLine(observer) }

    func broadcast(_ line: ControlWatchLine) {
        if outlets.broadcast(line) { updateForwarding() }
    }

    /// Streams who I am now, noting the agreed estimate the watchers have.
    func broadcastMe() {
        streamedAgreed = ledger.agreed
        broadcast(me)
    }

    /// Called with a timing line for every advertisement update and every
    /// changed row: how long our own part took (issue 8), for the session log.
    func onTrace(_ tracer: @escaping @Sendable (String) -> Void) { outlets.onTrace(tracer) }

    func trace(_ line: @autoclosure () -> String) { outlets.trace(line()) }

    /// Called after every change, for the foreground table's redraw.
    package func onChange(_ observer: @escaping @Sendable () -> Void) {
        outlets.onChange(observer)
        updateForwarding()
    }

    func changed() {
        idleWait?.cancel()
        outlets.changed()
    }

    /// Tells the watchers who I am now, and the foreground table that
    /// something changed: for a change that puts nothing new on the air.
    func announce() {
        broadcastMe()
        changed()
    }
}
