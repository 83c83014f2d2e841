/// How strongly a person is heard over the air lately: the strongest RSSI
/// of their receptions over about one window (the stale time), kept as the
/// strongest of two halves, the current one and the one before.
///
/// The strongest, not the last: a signal fades by several dB from one
/// reception to the next (a person moving, a door), and a link good most of
/// the time is a good link; two halves, so one strong reception counts for
/// one window at most, in two numbers whatever arrives.
///
/// A person heard **faintly** (nothing stronger than `faintAt` over the
/// window) is at the edge of this laptop's range, where a laptop a few
/// metres further may not hear them at all (docs/PROTOCOL.md, Ballot).
public struct AirSignal: Equatable, Sendable {
    /// At or below this, in dBm, a person is heard faintly. Laptops and
    /// phones lose an advertiser at about -90 to -95 dBm, and across a
    /// meeting room the signal falls by another 10 dB or so: one laptop's
    /// -80 is a laptop further off's nothing.
    public static let faintAt = -80

    /// The strongest reception of the half under way.
    private var current: Int
    /// The strongest of the half before it, while that half is the last one.
    private var previous: Int?
    /// When the half under way began.
    private var since: Timestamp

    /// A signal first heard at `rssi` at `time`.
    public init(rssi: Int, at time: Timestamp) {
        current = rssi
        since = time
    }

    /// Takes a reception at `rssi` (dBm) at `time`; `window` is the stale
    /// time. A reception earlier than the half under way (the clock went
    /// back) begins a new one.
    public mutating func heard(rssi: Int, at time: Timestamp, window: Duration) {
        let half = window / 2
        let age = time - since
        guard age >= half || age < .zero else {
            current = max(current, rssi)
            return
        }
        previous = age >= .zero && age < window ? current : nil
        current = rssi
        since = time
    }

    /// The strongest reception over the window, in dBm.
    public var strongest: Int { max(current, previous ?? current) }

    /// Whether nothing was heard stronger than `faintAt` over the window.
    public var isFaint: Bool { strongest <= Self.faintAt }
}
