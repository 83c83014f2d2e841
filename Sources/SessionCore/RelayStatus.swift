/// The relay as `status` tells it: its connection to the broker in words,
/// and how often its process was started again after it ended.
struct RelayStatus {
    /// The relay's connection to the broker in words; nil without a relay.
    var state: String?
    /// How often the relay process was started again after it ended.
    private(set) var restarts = 0

    /// The relay process started again after it ended.
    mutating func restarted() { restarts += 1 }

    /// The relay's state for `status`, with the restarts once there were
    /// any; nil without a relay.
    var summary: String? {
        guard let state else { return nil }
        return restarts == 0 ? state : "\(state); the relay process was restarted \(restarts) time\(restarts == 1 ? "" : "s")"
    }
}
