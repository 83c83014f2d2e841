/// What the relay's supervisor (`RelaySupervisor`) tells the session about
/// the relay process, shown in `status` and `watch`.
extension Session {
    /// Sets the relay's state before the relay reports one itself.
    func setRelayState(_ state: String) { relay.state = state }

    /// The relay process ended while the session goes on; `state` says when
    /// it starts again.
    func relayRestarting(_ state: String) {
        guard !hasEnded else { return }
        relay.state = state
        changed()
    }

    /// The relay process started again after it ended.
    func relayRestarted() { relay.restarted() }
}
