/// When an event loop reads its socket again (`Connection.paceReading`).
///
/// Rules:
/// - With an interval of zero (the default) the socket is read whenever it
///   is readable.
/// - Two reads less than the interval apart mean messages are coming fast:
///   the socket is then left unread until the interval has passed since the
///   last read, so that one read (which reads on while the socket has more:
///   `EventLoop`) takes everything that came meanwhile.
/// - A read after that hold comes at least the interval after the one
///   before, so it holds nothing: the next message is read at once, and a
///   hold starts again only if another comes within the interval. So a
///   stream of messages is read about once per interval, a quiet one at
///   once, and an idle socket never wakes a thread for a hold.
/// - The loop reads at once while a call waits for its reply (not decided
///   here), whatever the hold.
///
/// Times are milliseconds of the monotonic clock, passed in.
package struct ReadPacing {
    /// The least time between reads while messages come faster; 0: no pacing.
    var interval: UInt64 = 0
    private var lastRead: UInt64?
    private var holding = false

    /// Whether reads are paced at all.
    package var isOn: Bool { interval > 0 }

    /// Pacing at `interval` milliseconds; 0 reads whenever the socket is readable.
    package init(interval: UInt64 = 0) { self.interval = interval }

    /// Notes a read of the socket at `now`.
    package mutating func read(at now: UInt64) {
        holding = lastRead.map { now &- $0 < interval } ?? false
        lastRead = now
    }

    /// When reading may resume, if it is held at `now`; nil: read now.
    package func heldUntil(_ now: UInt64) -> UInt64? {
        guard holding, let lastRead, now < lastRead + interval else { return nil }
        return lastRead + interval
    }
}
