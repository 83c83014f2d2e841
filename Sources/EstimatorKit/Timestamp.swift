/// A wall-clock instant: nanoseconds since 1970-01-01T00:00:00Z.
///
/// The peer table never reads a clock; whoever feeds it passes the time in,
/// so stale and leave rules are tested without sleeping. Wall-clock time
/// (rather than a monotonic clock) because the same instant is printed in
/// `watch --json`, and because it keeps running while a laptop sleeps, so
/// peers heard before a suspend turn stale after it.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch (negative before it).
    public var nanosecondsSince1970: Int64

    public init(nanosecondsSince1970: Int64) { self.nanosecondsSince1970 = nanosecondsSince1970 }

    /// The instant `seconds` (and `nanoseconds`) after the epoch.
    public init(secondsSince1970 seconds: Int64, nanoseconds: Int64 = 0) {
        self.nanosecondsSince1970 = seconds * 1_000_000_000 + nanoseconds
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool {
        a.nanosecondsSince1970 < b.nanosecondsSince1970
    }

    // Saturating: a hostile or broken time source must not trap the session.
    public static func + (t: Timestamp, d: Duration) -> Timestamp {
        Timestamp(nanosecondsSince1970: saturating(t.nanosecondsSince1970, plus: d.nanoseconds))
    }

    public static func - (t: Timestamp, d: Duration) -> Timestamp {
        let n = d.nanoseconds
        return Timestamp(nanosecondsSince1970: saturating(t.nanosecondsSince1970, plus: n == .min ? .max : -n))
    }

    /// How long after `b` `a` is (negative when `a` is earlier).
    public static func - (a: Timestamp, b: Timestamp) -> Duration {
        let (d, overflow) = a.nanosecondsSince1970.subtractingReportingOverflow(b.nanosecondsSince1970)
        if overflow { return .nanoseconds(a < b ? Int64.min : Int64.max) }
        return .nanoseconds(d)
    }

    private static func saturating(_ a: Int64, plus b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { return b < 0 ? .min : .max }
        return sum
    }

    public var description: String { "\(nanosecondsSince1970)ns" }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating far beyond any age a
    /// peer can have).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
