import SessionCore

/// What the relay's supervisor (`RelaySupervisor`) tells the session about
/// the relay process, shown in `status` and `watch`.
extension Session {
    /// Sets the relay's state before the relay reports one itself.
    func setRelayState(_ state: String) { execute(board.take(.relay(state))) }

    /// The relay process ended while the session goes on; `state` says when
    /// it starts again.
    func relayRestarting(_ state: String) { execute(board.take(.relayRestarting(state))) }

    /// The relay process started again after it ended.
    func relayRestarted() { execute(board.take(.relayRestarted)) }
}
