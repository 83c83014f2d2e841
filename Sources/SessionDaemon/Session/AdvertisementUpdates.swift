/// The advertisement updates the core asks for: one runs at a time, and
/// requests made while it runs collapse into the next one, which puts the
/// local name the core has then on the air.
package struct AdvertisementUpdates {
    /// The task running the updates, if one is under way.
    package var running: Task<Void, Never>?
    /// When the oldest request the next update serves was read (the
    /// session clock's `elapsed`, for the timing line); nil while no update is due.
    private var requested: Duration?

    /// Notes a request read at `received`; returns whether a task must be
    /// started to serve it (none is running).
    mutating func request(received: Duration) -> Bool {
        if requested == nil { requested = received }
        return running == nil
    }

    /// Takes the due update: when its oldest request was read, or nil when
    /// none is due.
    mutating func next() -> Duration? {
        defer { requested = nil }
        return requested
    }
}
