import EstimatorKit

/// The relay as the session knows it: its connection to the broker in
/// words (for `status`), since when it has been down, and how often its
/// process was started again after it ended.
struct RelayStatus {
    /// The relay's connection to the broker in words; nil without a relay.
    private(set) var state: String?
    /// When the relay was first reported not connected, at its start or
    /// after it was connected; nil while it is connected, and without a
    /// relay. Meanwhile teammates reached only through the broker hear
    /// nothing of this session.
    private(set) var downSince: Timestamp?
    /// How often the relay process was started again after it ended.
    private(set) var restarts = 0

    /// The relay is starting: `state` in words, until it reports whether
    /// it is connected.
    mutating func starting(_ state: String) { self.state = state }

    /// The relay's state at `now`: `state` in words, and whether it is
    /// connected to the broker. Returns whether `downSince` changed.
    mutating func report(_ state: String, connected: Bool, now: Timestamp) -> Bool {
        self.state = state
        let since = connected ? nil : downSince ?? now
        guard since != downSince else { return false }
        downSince = since
        return true
    }

    /// The relay process started again after it ended.
    mutating func restarted() { restarts += 1 }

    /// The relay's state for `status`, with the restarts once there were
    /// any; nil without a relay.
    var summary: String? {
        guard let state else { return nil }
        return restarts == 0 ? state : "\(state); the relay process was restarted \(restarts) time\(restarts == 1 ? "" : "s")"
    }
}
